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
