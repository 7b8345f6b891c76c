// fa-encode-tensor-maps: a tensor map is built on the host by upstream's
// runtime (mgpuTensorMapEncodeTiledMemref, which encodes it and copies it
// to device memory) and reaches the kernel as that address: the launch
// passes the !llvm.ptr, the kernel takes one and casts it back to the
// descriptor its TMA loads use.
// RUN: fa-opt %s --fa-encode-tensor-maps | FileCheck %s

!map = !nvgpu.tensormap.descriptor<tensor = memref<1x1x64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// CHECK-LABEL: func.func @host
// CHECK: %[[MAP:.*]] = llvm.call @mgpuTensorMapEncodeTiledMemref
// CHECK: gpu.launch_func @kernels::@kernel {{.*}} args(%[[MAP]] : !llvm.ptr)
// CHECK: gpu.func @kernel(%[[ARG:.*]]: !llvm.ptr) kernel
// CHECK-NEXT: %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[ARG]] : !llvm.ptr to !nvgpu.tensormap.descriptor
// CHECK-NEXT: nvgpu.tma.prefetch.descriptor %[[DESC]]
module attributes {gpu.container_module} {
  func.func @host(%k: memref<2x4x256x64xf16>) {
    %unranked = memref.cast %k : memref<2x4x256x64xf16> to memref<*xf16>
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %map = nvgpu.tma.create.descriptor %unranked box[%c1, %c1, %c64, %c64] : memref<*xf16> -> !map
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%map : !map)
    return
  }
  gpu.module @kernels {
    gpu.func @kernel(%m: !map) kernel {
      nvgpu.tma.prefetch.descriptor %m : !map
      gpu.return
    }
  }
}
