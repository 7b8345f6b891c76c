// Splitting a thread loop at its barriers; values crossing a barrier and
// the loop's iter_args go through per-thread slots.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @phases
// Workgroup memory of the kernel becomes ordinary memory.
// CHECK: scf.forall (%[[B:.*]]) in (2) {
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<4xf32>
// The first phase: everything before the loop, for all threads.
// CHECK: scf.forall (%[[T0:.*]]) in (4) {
// CHECK:   memref.store %{{.*}}, %[[SHARED]][%[[T0]]] : memref<4xf32>
// CHECK: } {mapping = [#gpu.thread<x>]}
// The loop body ends without a barrier, so iteration i's last phase and
// iteration i + 1's first are one phase, as on the GPU (loop rotation): the
// first segment runs once in front of the loop for the first iteration,
// then at the end of each iteration for the next one, if there is one.
// CHECK: scf.forall (%[[T1:.*]]) in (4) {
// CHECK:   %[[FIRST:.*]] = arith.cmpi slt, %[[LB:.*]], %[[N:.*]] : index
// CHECK:   scf.if %[[FIRST]] {
// CHECK:     memref.load %[[SHARED]]
// CHECK:     memref.store %{{.*}}, %[[X:.*]][%[[T1]]] : memref<4xf32>
// CHECK:   }
// CHECK: } {mapping = [#gpu.thread<x>]}
// The iter_arg lives in a per-thread slot.
// CHECK: scf.for %[[K:.*]] = %[[LB]] to %[[N]] step %[[STEP:.*]] {
// CHECK:   %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK:   scf.forall (%[[T2:.*]]) in (4) {
// CHECK:     memref.load %[[X]][%[[T2]]]
// CHECK:     arith.addf
// CHECK:     memref.store %{{.*}}, %[[ACC:.*]][%[[T2]]] : memref<4xf32>
// CHECK:     %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : index
// CHECK:     scf.if %[[MORE]] {
// CHECK:       memref.load %[[SHARED]]
// CHECK:       memref.store %{{.*}}, %[[X]][%[[T2]]] : memref<4xf32>
// CHECK:     }
// CHECK:   } {mapping = [#gpu.thread<x>]}
// CHECK: }
// CHECK: scf.forall (%[[T3:.*]]) in (4) {
// CHECK:   %[[SUM:.*]] = memref.load %[[ACC]][%[[T3]]]
// CHECK:   memref.store %[[SUM]], %{{.*}}[%[[B]], %[[T3]]]
// CHECK: } {mapping = [#gpu.thread<x>]}
// CHECK: } {mapping = [#gpu.block<x>]}
// CHECK-NOT: gpu.barrier
// CHECK-NOT: workgroup
func.func @phases(%n: index, %out: memref<2x4xf32>) {
  scf.forall (%b) in (2) {
    %shared = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    scf.forall (%t) in (4) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %shared[%t] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %one) -> f32 {
        // Reads another thread's element: only right after the barrier.
        %other = arith.subi %c3, %t : index
        %x = memref.load %shared[%other] : memref<4xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %y = arith.addf %acc, %x : f32
        scf.yield %y : f32
      }
      memref.store %sum, %out[%b, %t] : memref<2x4xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @barrier_in_branch(%c: i1) {
  scf.forall (%t) in (4) {
    scf.if %c {
      // expected-error @+1 {{'gpu.barrier' op inside a conditional or a nested loop cannot run on a CPU}}
      gpu.barrier
    }
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

func.func @thread_dependent_trip_count() {
  scf.forall (%t) in (4) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'scf.for' op bounds a loop with barriers but depends on the thread}}
    scf.for %k = %c0 to %t step %c1 {
      gpu.barrier
    }
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

func.func @stray_barrier() {
  // expected-error @+1 {{'gpu.barrier' op outside a thread-mapped scf.forall cannot run on a CPU}}
  gpu.barrier
  return
}

// -----

func.func @two_dimensional_threads() {
  // expected-error @+1 {{'scf.forall' op with barriers must be a one-dimensional thread loop without shared outputs to run on a CPU}}
  scf.forall (%x, %y) in (4, 2) {
    gpu.barrier
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  return
}

// -----

func.func @offset_threads() {
  // expected-error @+1 {{'scf.forall' op with barriers must count threads from 0 in steps of 1}}
  scf.forall (%t) = (1) to (4) step (1) {
    gpu.barrier
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// A warp-level f16 matmul is computed in full by each emulated thread, its
// operands widened to f32 (exact products, f32 sums: what mma.sync does).
// CHECK-LABEL: func.func @warp_matmul
// CHECK: %[[A:.*]] = vector.transfer_read {{.*}} : memref<32x16xf16>, vector<16x16xf16>
// CHECK: %[[B:.*]] = vector.transfer_read {{.*}} : memref<32x16xf16>, vector<8x16xf16>
// CHECK: %[[AW:.*]] = arith.extf %[[A]] : vector<16x16xf16> to vector<16x16xf32>
// CHECK: %[[BW:.*]] = arith.extf %[[B]] : vector<8x16xf16> to vector<8x16xf32>
// CHECK: vector.contract {{.*}} %[[AW]], %[[BW]], %{{.*}} : vector<16x16xf32>, vector<8x16xf32> into vector<16x8xf32>
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @warp_matmul(%out: memref<16x8xf32>) {
  scf.forall (%block) in (1) {
    %tile = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
    scf.forall (%t) in (32) {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f16
      memref.store %one, %tile[%t, %c0] : memref<32x16xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %pad = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<16x8xf32>
      %lhs = vector.transfer_read %tile[%c0, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
      %rhs = vector.transfer_read %tile[%c0, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
      %acc = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %zero : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
      vector.transfer_write %acc, %out[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A warp shuffle is an exchange through memory: each thread stores its
// value in its slot and, after a barrier, reads its partner's (t xor 1).
// The barrier orders the lanes of a warp only (the shuffle is
// warp-synchronous), so the two intervals run warp by warp: a loop over the
// 2 warps, each running both over its 32 lanes, thread = 32 warp + lane.
// CHECK-LABEL: func.func @shuffle
// CHECK: %[[SLOTS:.*]] = memref.alloc() : memref<64xf32>
// CHECK: scf.for %[[W:.*]] = %{{.*}} to %c2{{.*}} step %{{.*}} {
// CHECK:   scf.forall (%[[L0:.*]]) in (32) {
// CHECK:     %[[W32:[^ ]+]] = arith.muli %[[W]], %c32{{.*}} : index
// CHECK:     %[[T0:[^ ]+]] = arith.addi %[[W32]], %[[L0]] : index
// CHECK:     memref.store %{{.*}}, %[[SLOTS]][%[[T0]]] : memref<64xf32>
// CHECK:   } {mapping = [#gpu.thread<x>]}
// CHECK:   scf.forall (%[[L1:.*]]) in (32) {
// CHECK:     %[[T1:[^ ]+]] = arith.addi %{{[^ ]+}}, %[[L1]] : index
// CHECK:     %[[PARTNER:.*]] = arith.xori %[[T1]], %c1{{.*}} : index
// CHECK:     %[[THEIRS:.*]] = memref.load %[[SLOTS]][%[[PARTNER]]] : memref<64xf32>
// CHECK:     arith.addf %{{.*}}, %[[THEIRS]] : f32
// CHECK:   } {mapping = [#gpu.thread<x>]}
// CHECK: } {fa.warp_loop}
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
func.func @shuffle(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  scf.forall (%t) in (64) {
    %i = arith.index_cast %t : index to i32
    %v = arith.sitofp %i : i32 to f32
    %theirs, %valid = gpu.shuffle xor %v, %c1, %c32 : f32
    %sum = arith.addf %v, %theirs : f32
    memref.store %sum, %out[%t] : memref<64xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// Only xor across a whole warp is emulated.
func.func @shuffle_down(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  scf.forall (%t) in (64) {
    %v = arith.constant 1.0 : f32
    // expected-error @+1 {{'gpu.shuffle' op cannot run on a CPU: only xor shuffles by a constant offset across a 32-lane warp are emulated}}
    %theirs, %valid = gpu.shuffle down %v, %c1, %c32 : f32
    memref.store %theirs, %out[%t] : memref<64xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// 48 threads are not whole warps: a partner could be past the last thread.
func.func @shuffle_partial_warp(%out: memref<48xf32>) {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  scf.forall (%t) in (48) {
    %v = arith.constant 1.0 : f32
    // expected-error @+1 {{'gpu.shuffle' op cannot run on a CPU: warp collectives are emulated in a one-dimensional thread loop of whole warps, from 0 by 1}}
    %theirs, %valid = gpu.shuffle xor %v, %c16, %c32 : f32
    memref.store %theirs, %out[%t] : memref<48xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}
