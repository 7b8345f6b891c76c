// fa-align-workgroup-buffers: every workgroup attribution of a kernel gets
// llvm.align = 16 (what the kernel's 16-byte shared accesses need) unless
// it states at least that; functions that are not kernels are left alone.
// RUN: fa-opt %s --fa-align-workgroup-buffers | FileCheck %s
// Without it, upstream's lowering aligns the tiles to their element.
// RUN: mlir-opt %s --convert-gpu-to-nvvm | FileCheck %s --check-prefix=UPSTREAM
// RUN: fa-opt %s --fa-align-workgroup-buffers --convert-gpu-to-nvvm | FileCheck %s --check-prefix=LOWERED
// UPSTREAM: llvm.mlir.global internal @__wg_tiles_0() {addr_space = 3 : i32} : !llvm.array<576 x f16>
// LOWERED: llvm.mlir.global internal @__wg_tiles_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<576 x f16>

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @tiles
  // CHECK-SAME: workgroup(%{{.*}} : memref<8x72xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64},
  // CHECK-SAME: %{{.*}} : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64},
  // A larger stated alignment stays.
  // CHECK-SAME: %{{.*}} : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 64 : i64})
  gpu.func @tiles()
      workgroup(%a : memref<8x72xf16, #gpu.address_space<workgroup>>,
                %b : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 4 : i64},
                %c : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 64 : i64}) kernel {
    gpu.return
  }
  // CHECK-LABEL: gpu.func @helper
  // CHECK-SAME: workgroup(%{{.*}} : memref<4xf16, #gpu.address_space<workgroup>>)
  // CHECK-NOT: llvm.align
  gpu.func @helper() workgroup(%a : memref<4xf16, #gpu.address_space<workgroup>>) {
    gpu.return
  }
}
