// The mma.sync kernel's cp.async copies of a paged cache: where the page
// size is a multiple of block_kv, each key block lies in one page, and its
// K and V tiles read one table entry for the block (TileCopier::tilePage),
// at the prologue's copy and the loop's; where a block straddles pages,
// every row of the tile reads its own.
// RUN: fa-opt %s -split-input-file --fa-distribute-attention | FileCheck %s

// 64-slot pages, 32-key blocks: two reads of the table in the kernel.
// CHECK-LABEL: func.func @whole_blocks
// CHECK-COUNT-2: memref.load %{{.*}} : memref<2x3xi32>
// CHECK-NOT: memref.load %{{.*}} : memref<2x3xi32>
// CHECK: return
func.func @whole_blocks(%q: tensor<2x2x128x64xf16>, %k: tensor<6x64x2x64xf16>, %v: tensor<6x64x2x64xf16>, %t: tensor<2x3xi32>) -> tensor<2x2x128x64xf16> {
  %o = fa.attention %q, %k, %v page_table(%t : tensor<2x3xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 2> : tensor<2x2x128x64xf16>, tensor<6x64x2x64xf16>, tensor<6x64x2x64xf16> -> tensor<2x2x128x64xf16>
  return %o : tensor<2x2x128x64xf16>
}

// -----

// 16-slot pages, 32-key blocks: a read per copied row, K's and V's, at
// both copies (2 steps of a thread per tile).
// CHECK-LABEL: func.func @straddling_blocks
// CHECK-COUNT-8: memref.load %{{.*}} : memref<2x12xi32>
// CHECK-NOT: memref.load %{{.*}} : memref<2x12xi32>
// CHECK: return
func.func @straddling_blocks(%q: tensor<2x2x128x64xf16>, %k: tensor<24x16x2x64xf16>, %v: tensor<24x16x2x64xf16>, %t: tensor<2x12xi32>) -> tensor<2x2x128x64xf16> {
  %o = fa.attention %q, %k, %v page_table(%t : tensor<2x12xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 2> : tensor<2x2x128x64xf16>, tensor<24x16x2x64xf16>, tensor<24x16x2x64xf16> -> tensor<2x2x128x64xf16>
  return %o : tensor<2x2x128x64xf16>
}
