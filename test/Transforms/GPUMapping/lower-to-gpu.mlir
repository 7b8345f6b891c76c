// Block and thread loops onto gpu.launch; shared tiles in static shared
// memory up to 48 KB, dynamic shared memory above.
// RUN: fa-opt %s --fa-lower-to-gpu --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @static_shared
// CHECK-SAME: (%[[N:[a-z0-9]+]]: index
// CHECK: gpu.launch blocks(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) in (%{{[a-z0-9]+}} = %[[N]], %{{[a-z0-9]+}} = %c3,
// CHECK-SAME: threads(%[[TX:[a-z0-9]+]], %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) in (%{{[a-z0-9]+}} = %c64,
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: dynamic_shared_memory_size
// CHECK: memref.store %{{.*}}, %[[TILE]][%[[TX]]]
// CHECK: gpu.barrier
// A 32-thread loop in a 64-thread block runs in the first 32 threads.
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %[[TX]], %c32
// CHECK: scf.if %[[ACTIVE]]
// CHECK: memref.load %[[TILE]]
// CHECK: gpu.terminator
// CHECK-NOT: scf.forall
func.func @static_shared(%N: index, %out: memref<?x3x64xf32>) {
  scf.forall (%y, %x) in (3, %N) {
    %tile = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    scf.forall (%t) in (64) {
      %f = arith.constant 1.0 : f32
      memref.store %f, %tile[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    } {mapping = [#gpu.thread<x>]}
    scf.forall (%t) in (32) {
      %v = memref.load %tile[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%x, %y, %t] : memref<?x3x64xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

// CHECK-LABEL: func.func @dynamic_shared
// 40000 bytes, aligned to 16, then 20000 bytes: 60000 > 48 KB.
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %c60000_i32
// CHECK: %[[BASE:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[BASE]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<10000xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[BASE]][%c40000{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<10000xf16, #gpu.address_space<workgroup>>
func.func @dynamic_shared(%out: memref<2xf32>) {
  scf.forall (%b) in (2) {
    %a = memref.alloc() : memref<10000xf32, #gpu.address_space<workgroup>>
    %h = memref.alloc() : memref<10000xf16, #gpu.address_space<workgroup>>
    scf.forall (%t) in (128) {
      %v = memref.load %a[%t] : memref<10000xf32, #gpu.address_space<workgroup>>
      %w = memref.load %h[%t] : memref<10000xf16, #gpu.address_space<workgroup>>
      memref.store %v, %out[%b] : memref<2xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @dynamic_thread_count(%n: index) {
  scf.forall (%b) in (2) {
    // expected-error @+1 {{'scf.forall' op mapped to threads needs a static thread count}}
    scf.forall (%t) in (%n) {
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @unmapped_inner_loop() {
  scf.forall (%b) in (2) {
    // expected-error @+1 {{'scf.forall' op inside a block-mapped loop must be mapped to #gpu.thread<x>}}
    scf.forall (%t) in (4) {
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @shared_outputs(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'scf.forall' op mapped to blocks must not have shared outputs (bufferize first)}}
  %r = scf.forall (%b) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<4xf32>
}

// -----

func.func @offset_grid(%out: memref<8xf32>) {
  // expected-error @+1 {{'scf.forall' op mapped to blocks must count from 0 in steps of 1}}
  scf.forall (%b) = (2) to (8) step (1) {
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @linear_block_id(%out: memref<8xf32>) {
  // expected-error @+1 {{'scf.forall' op maps to a block dimension beyond z}}
  scf.forall (%b) in (8) {
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

func.func @dynamic_tile(%n: index) {
  scf.forall (%b) in (2) {
    // expected-error @+1 {{'memref.alloc' op in workgroup memory needs a static shape}}
    %a = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    scf.forall (%t) in (32) {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @nested_grid() {
  scf.forall (%i) in (2) {
    // expected-error @+1 {{'scf.forall' op mapped to blocks must not be nested in another parallel loop}}
    scf.forall (%b) in (2) {
    } {mapping = [#gpu.block<x>]}
  }
  return
}

// -----

func.func @barrier_in_partial_loop() {
  scf.forall (%b) in (2) {
    scf.forall (%t) in (64) {
    } {mapping = [#gpu.thread<x>]}
    // expected-error @+1 {{'scf.forall' op runs 32 threads of a 64-thread block but contains a gpu.barrier, which every thread of the block must reach}}
    scf.forall (%t) in (32) {
      gpu.barrier
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
