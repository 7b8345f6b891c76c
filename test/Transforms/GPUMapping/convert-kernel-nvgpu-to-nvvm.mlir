// fa-convert-kernel-nvgpu-to-nvvm: upstream's nvgpu-to-nvvm patterns with
// the index width of the gpu.module's data layout. In a module made 32-bit
// (fa-narrow-kernel-indices) every ldmatrix and cp.async address is i32
// arithmetic; elsewhere it is upstream's i64. Tokens yielded through scf.if
// change type with the copies.
// RUN: fa-opt %s --pass-pipeline='builtin.module(gpu.module(fa-convert-kernel-nvgpu-to-nvvm))' | FileCheck %s

!shared = memref<2x64x64xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: gpu.module @narrow
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : index to i32
// CHECK: llvm.mul %{{.*}} : i32
// CHECK: llvm.getelementptr %{{.*}} : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: nvvm.ldmatrix
// CHECK: llvm.getelementptr %{{.*}} : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: llvm.getelementptr %{{.*}} : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
// CHECK: nvvm.cp.async.shared.global
// CHECK: scf.if %{{.*}} -> (i32)
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.yield %{{.*}} : i32
// CHECK-NOT: nvgpu.
gpu.module @narrow attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>} {
  gpu.func @kernel(%k: memref<1024x64xf16, #gpu.address_space<global>>,
                   %stage: index, %row: index, %visible: i1)
      workgroup(%tiles: !shared) kernel {
    %c0 = arith.constant 0 : index
    %a = nvgpu.ldmatrix %tiles[%stage, %row, %c0] {numTiles = 4 : i32, transpose = false}
        : !shared -> vector<4x2xf16>
    %t = nvgpu.device_async_copy %k[%row, %c0], %tiles[%stage, %row, %c0], 8
        : memref<1024x64xf16, #gpu.address_space<global>> to !shared
    %g = scf.if %visible -> !nvgpu.device.async.token {
      %g1 = nvgpu.device_async_create_group %t
      scf.yield %g1 : !nvgpu.device.async.token
    } else {
      %g0 = nvgpu.device_async_create_group
      scf.yield %g0 : !nvgpu.device.async.token
    }
    nvgpu.device_async_wait %g {numGroups = 0 : i32}
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @wide
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : index to i64
// CHECK: llvm.getelementptr %{{.*}} : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK: nvvm.ldmatrix
gpu.module @wide {
  gpu.func @kernel(%stage: index, %row: index)
      workgroup(%tiles: !shared) kernel {
    %c0 = arith.constant 0 : index
    %a = nvgpu.ldmatrix %tiles[%stage, %row, %c0] {numTiles = 4 : i32, transpose = false}
        : !shared -> vector<4x2xf16>
    gpu.return
  }
}
