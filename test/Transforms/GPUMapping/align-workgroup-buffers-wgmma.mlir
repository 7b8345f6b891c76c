// fa-align-workgroup-buffers: a kernel with warpgroup matmuls aligns
// every workgroup attribution to 1024 bytes, the boundary on which a
// 128-byte swizzle pattern (wgmma, TMA) starts; the descriptors of
// fa.warpgroup_mma count from their buffer's start, and the hardware
// swizzles absolute addresses.
// RUN: fa-opt %s --fa-align-workgroup-buffers | FileCheck %s
// RUN: fa-opt %s --fa-align-workgroup-buffers --convert-gpu-to-nvvm | FileCheck %s --check-prefix=LOWERED
// LOWERED: llvm.mlir.global internal @__wg_warpgroup_0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x f16>
// CHECK-LABEL: gpu.func @warpgroup
// CHECK-SAME: workgroup(%{{.*}} : memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64},
// CHECK-SAME: %{{.*}} : memref<4096xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
gpu.module @hopper {
  gpu.func @warpgroup(%d: i64, %out: memref<4xf32>)
      workgroup(%a : memref<4096xf16, #gpu.address_space<workgroup>>,
                %b : memref<4096xf16, #gpu.address_space<workgroup>>) kernel {
    %zero = arith.constant dense<0.0> : vector<4xf32>
    %s = fa.warpgroup_mma %zero, %d in %a, %d in %b : vector<4xf32>, i64 in memref<4096xf16, #gpu.address_space<workgroup>>, memref<4096xf16, #gpu.address_space<workgroup>>
    %w = fa.warpgroup_mma_wait %s : vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %w, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}
