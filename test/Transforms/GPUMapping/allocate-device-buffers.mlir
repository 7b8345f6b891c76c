// fa-allocate-device-buffers: what the kernels write is allocated on the
// device (a kernel cannot dereference a host malloc), what the function
// returns is the caller's, and every other buffer is freed after the last
// launch that uses it. A buffer host code also touches stays where it is,
// with a remark.
// RUN: fa-opt %s --pass-pipeline='builtin.module(func.func(fa-allocate-device-buffers))' -verify-diagnostics | FileCheck %s

// The output (returned) and a workspace that two launches share, one of
// them through a view.
// CHECK-LABEL: func.func @split_keys
// CHECK-NOT: memref.alloc
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[OUT:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<4x8xf16>
// CHECK: gpu.wait [%[[T1]]]
// CHECK: %[[WORK:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<2x4x8xf32>
// CHECK: gpu.launch
// CHECK: memref.collapse_shape %[[WORK]]
// CHECK: gpu.launch
// CHECK: %[[T2:.*]] = gpu.wait async
// CHECK: %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[WORK]] : memref<2x4x8xf32>
// CHECK: gpu.wait [%[[T3]]]
// CHECK-NOT: gpu.dealloc
// CHECK: return %[[OUT]]
func.func @split_keys(%q: memref<4x8xf16>) -> memref<4x8xf16> {
  %c1 = arith.constant 1 : index
  %out = memref.alloc() : memref<4x8xf16>
  %work = memref.alloc() : memref<2x4x8xf32>
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    %c0 = arith.constant 0 : index
    %x = memref.load %q[%c0, %c0] : memref<4x8xf16>
    %y = arith.extf %x : f16 to f32
    memref.store %y, %work[%c0, %c0, %c0] : memref<2x4x8xf32>
    gpu.terminator
  }
  %flat = memref.collapse_shape %work [[0, 1], [2]] : memref<2x4x8xf32> into memref<8x8xf32>
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    %c0 = arith.constant 0 : index
    %y = memref.load %flat[%c0, %c0] : memref<8x8xf32>
    %x = arith.truncf %y : f32 to f16
    memref.store %x, %out[%c0, %c0] : memref<4x8xf16>
    gpu.terminator
  }
  return %out : memref<4x8xf16>
}

// Dynamic sizes carry over.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[D:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?x8xf32>
// CHECK: gpu.launch
// CHECK: gpu.dealloc async [%{{.*}}] %[[D]]
func.func @dynamic(%n: index) {
  %c1 = arith.constant 1 : index
  %work = memref.alloc(%n) : memref<?x8xf32>
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %work[%c0, %c0] : memref<?x8xf32>
    gpu.terminator
  }
  return
}

// Host code reads it after the launch: it stays a host allocation.
// CHECK-LABEL: func.func @read_on_host
// CHECK: memref.alloc
// CHECK-NOT: gpu.alloc
func.func @read_on_host() -> f32 {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{stays in host memory: host code uses it (memref.load)}}
  %out = memref.alloc() : memref<8xf32>
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %out[%c0] : memref<8xf32>
    gpu.terminator
  }
  %x = memref.load %out[%c0] : memref<8xf32>
  return %x : f32
}

// Not used by a launch: left alone.
// CHECK-LABEL: func.func @host_only
// CHECK: memref.alloc
func.func @host_only() -> memref<8xf32> {
  %out = memref.alloc() : memref<8xf32>
  return %out : memref<8xf32>
}

// A workspace one kernel writes and another reads through a TMA tensor map
// (the backward's L and D for its producer warpgroup): the map reads no
// data on the host, so the workspace moves to the device, and it lives
// until the launch that takes the map.
// CHECK-LABEL: func.func @through_tensor_map
// CHECK-NOT: memref.alloc
// CHECK: %[[STATS:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<2x64xf32>
// CHECK: gpu.launch
// CHECK: %[[CAST:.*]] = memref.cast %[[STATS]]
// CHECK: %[[MAP:.*]] = nvgpu.tma.create.descriptor %[[CAST]]
// CHECK-NOT: gpu.dealloc
// CHECK: gpu.launch
// CHECK: nvgpu.tma.async.load %[[MAP]]
// CHECK: gpu.terminator
// CHECK: gpu.dealloc async [%{{.*}}] %[[STATS]]
!stats_map = !nvgpu.tensormap.descriptor<tensor = memref<2x64xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @through_tensor_map() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %stats = memref.alloc() : memref<2x64xf32>
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %stats[%c0, %c0] : memref<2x64xf32>
    gpu.terminator
  }
  %cast = memref.cast %stats : memref<2x64xf32> to memref<*xf32>
  %map = nvgpu.tma.create.descriptor %cast box[%c2, %c64] : memref<*xf32> -> !stats_map
  gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
             threads(%t0, %t1, %t2) in (%s0 = %c1, %s1 = %c1, %s2 = %c1) {
    %c0 = arith.constant 0 : index
    %tile = memref.alloc() : memref<2x64xf32, #gpu.address_space<workgroup>>
    %barriers = nvgpu.mbarrier.create -> !barriers
    nvgpu.tma.async.load %map[%c0, %c0], %barriers[%c0] to %tile : !stats_map, !barriers -> memref<2x64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
