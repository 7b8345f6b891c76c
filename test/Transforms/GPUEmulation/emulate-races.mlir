// The CPU model runs a kernel with the freedom the GPU has, so that a
// missing barrier or wait changes the numbers instead of hiding:
//  * a loop body that ends without a barrier runs its last phase and the
//    next iteration's first as one phase (loop rotation), so a buffer
//    refilled while a neighbour still reads it is caught;
//  * a cp.async copy lands at the wait_group that retires its group, and
//    its destination reads NaN until then.
// The synchronized kernels must give the exact sums in every thread order;
// their racy twins must not (the CHECK lines pin both).
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=reverse" --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s --check-prefix=REVERSE
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=shuffle seed=3" --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s --check-prefix=SHUFFLE

// Σ over 4 threads and 3 iterations of (k + (t + 1) mod 4) = 12 + 18.
// CHECK: refill with the end barrier
// CHECK-NEXT: 30
// Forward: thread 0 refills element 0 before thread 3 reads it (+1 in
// the first two iterations).
// CHECK: refill without the end barrier
// CHECK-NEXT: 32
// REVERSE: refill with the end barrier
// REVERSE-NEXT: 30
// REVERSE: refill without the end barrier
// REVERSE-NOT: {{^}}30{{$}}
// SHUFFLE: refill with the end barrier
// SHUFFLE-NEXT: 30
// SHUFFLE: refill without the end barrier
// SHUFFLE-NOT: {{^}}30{{$}}

// Σ of src = 0 .. 15 read back through shared memory = 120.
// CHECK: cp.async waited for
// CHECK-NEXT: 120
// CHECK: cp.async never waited for
// CHECK-NEXT: nan
// wait_group 1 after two groups: the first has landed, the second not.
// CHECK: cp.async wait_group 1, older group
// CHECK-NEXT: 120
// CHECK: cp.async wait_group 1, newer group
// CHECK-NEXT: nan
// REVERSE: cp.async waited for
// REVERSE-NEXT: 120
// REVERSE: cp.async never waited for
// REVERSE-NEXT: nan
// SHUFFLE: cp.async waited for
// SHUFFLE-NEXT: 120
// SHUFFLE: cp.async wait_group 1, newer group
// SHUFFLE-NEXT: nan

#wg = #gpu.address_space<workgroup>

// 4 threads, 3 iterations: write k + t to shared[t]; barrier; add
// shared[(t + 1) mod 4]; then (@refill_synced only) a barrier before the
// next iteration's write.
func.func @refill_synced(%out: memref<4xf32>) {
  scf.forall (%blk) in (1) {
    %shared = memref.alloc() : memref<4xf32, #wg>
    scf.forall (%t) in (4) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f32 {
        %kt = arith.addi %k, %t : index
        %ki = arith.index_cast %kt : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        memref.store %kf, %shared[%t] : memref<4xf32, #wg>
        gpu.barrier
        %t1 = arith.addi %t, %c1 : index
        %n = arith.remui %t1, %c4 : index
        %x = memref.load %shared[%n] : memref<4xf32, #wg>
        %y = arith.addf %acc, %x : f32
        gpu.barrier
        scf.yield %y : f32
      }
      memref.store %sum, %out[%t] : memref<4xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

func.func @refill_racy(%out: memref<4xf32>) {
  scf.forall (%blk) in (1) {
    %shared = memref.alloc() : memref<4xf32, #wg>
    scf.forall (%t) in (4) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f32 {
        %kt = arith.addi %k, %t : index
        %ki = arith.index_cast %kt : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        memref.store %kf, %shared[%t] : memref<4xf32, #wg>
        gpu.barrier
        %t1 = arith.addi %t, %c1 : index
        %n = arith.remui %t1, %c4 : index
        %x = memref.load %shared[%n] : memref<4xf32, #wg>
        %y = arith.addf %acc, %x : f32
        scf.yield %y : f32
      }
      memref.store %sum, %out[%t] : memref<4xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// Each thread copies its 4 floats of `src` into shared memory with
// cp.async (two buffers, one group each); after `wait_group N` and a
// barrier, each thread reads its neighbour's 4 floats of both buffers.
func.func @async_copies(%src: memref<16xf32>, %first: memref<4xf32>,
                        %second: memref<4xf32>, %wait: i1, %keep1: i1) {
  scf.forall (%blk) in (1) {
    %a = memref.alloc() : memref<16xf32, #wg>
    %b = memref.alloc() : memref<16xf32, #wg>
    scf.forall (%t) in (4) {
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %at = arith.muli %t, %c4 : index
      %ta = nvgpu.device_async_copy %src[%at], %a[%at], 4 : memref<16xf32> to memref<16xf32, #wg>
      %ga = nvgpu.device_async_create_group %ta
      %tb = nvgpu.device_async_copy %src[%at], %b[%at], 4 : memref<16xf32> to memref<16xf32, #wg>
      %gb = nvgpu.device_async_create_group %tb
      scf.if %wait {
        scf.if %keep1 {
          nvgpu.device_async_wait %gb {numGroups = 1 : i32}
        } else {
          nvgpu.device_async_wait %gb {numGroups = 0 : i32}
        }
      }
      gpu.barrier
      %t1 = arith.addi %t, %c1 : index
      %n = arith.remui %t1, %c4 : index
      %from = arith.muli %n, %c4 : index
      %xa = vector.load %a[%from] : memref<16xf32, #wg>, vector<4xf32>
      %xb = vector.load %b[%from] : memref<16xf32, #wg>, vector<4xf32>
      %sa = vector.reduction <add>, %xa : vector<4xf32> into f32
      %sb = vector.reduction <add>, %xb : vector<4xf32> into f32
      memref.store %sa, %first[%n] : memref<4xf32>
      memref.store %sb, %second[%n] : memref<4xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

func.func @total(%m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %m[%i] : memref<4xf32>
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  return %s : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %true = arith.constant true
  %false = arith.constant false
  %out = memref.alloc() : memref<4xf32>
  func.call @refill_synced(%out) : (memref<4xf32>) -> ()
  %synced = func.call @total(%out) : (memref<4xf32>) -> f32
  vector.print str "refill with the end barrier\n"
  vector.print %synced : f32
  func.call @refill_racy(%out) : (memref<4xf32>) -> ()
  %racy = func.call @total(%out) : (memref<4xf32>) -> f32
  vector.print str "refill without the end barrier\n"
  vector.print %racy : f32

  %src = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %x = arith.sitofp %ii : i32 to f32
    memref.store %x, %src[%i] : memref<16xf32>
  }
  %first = memref.alloc() : memref<4xf32>
  %second = memref.alloc() : memref<4xf32>
  func.call @async_copies(%src, %first, %second, %true, %false) : (memref<16xf32>, memref<4xf32>, memref<4xf32>, i1, i1) -> ()
  %waited = func.call @total(%second) : (memref<4xf32>) -> f32
  vector.print str "cp.async waited for\n"
  vector.print %waited : f32
  func.call @async_copies(%src, %first, %second, %false, %false) : (memref<16xf32>, memref<4xf32>, memref<4xf32>, i1, i1) -> ()
  %unwaited = func.call @total(%first) : (memref<4xf32>) -> f32
  vector.print str "cp.async never waited for\n"
  vector.print %unwaited : f32
  func.call @async_copies(%src, %first, %second, %true, %true) : (memref<16xf32>, memref<4xf32>, memref<4xf32>, i1, i1) -> ()
  %older = func.call @total(%first) : (memref<4xf32>) -> f32
  %newer = func.call @total(%second) : (memref<4xf32>) -> f32
  vector.print str "cp.async wait_group 1, older group\n"
  vector.print %older : f32
  vector.print str "cp.async wait_group 1, newer group\n"
  vector.print %newer : f32
  return
}
