// The tiled loop nest: a grid over (batch, head, query block) mapped to GPU
// blocks, a key loop whose bounds come from the causal mask, static tiles,
// and the element mask only in blocks that need it.
// RUN: fa-opt %s --fa-tile-attention --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @causal
// CHECK-DAG: %[[C128:[a-z0-9_]+]] = arith.constant 128 : index
// CHECK-DAG: %[[N:[a-z0-9_]+]] = arith.constant 4096 : index
// CHECK: scf.forall (%[[B:[a-z0-9_]+]], %[[H:[a-z0-9_]+]], %[[QB:[a-z0-9_]+]]) in (2, 32, 32) shared_outs(%[[O:[a-z0-9_]+]] = %{{.*}}, %[[L:[a-z0-9_]+]] = %{{.*}})
// GQA: key/value head = h / 4, read in place; the query tile is padded to
// a static [128, 64].
// CHECK: %[[ROW0:[0-9]+]] = arith.muli %[[QB]], %[[C128]]
// CHECK: %[[KVH:[0-9]+]] = arith.divui %[[H]], %{{.*}} : index
// CHECK: tensor.pad
// CHECK: } : tensor<?x64xf16> to tensor<128x64xf16>
// Bottom-right causal with Nq = Nk: the last visible key is the block's last row.
// CHECK: %[[END:[0-9]+]] = arith.minsi %{{.*}}, %[[N]] : index
// CHECK: scf.for %[[COL0:[a-z0-9_]+]] = %{{.*}} to %[[END]] step %[[C128]] iter_args({{.*}}) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>)
// CHECK: tensor.extract_slice %{{.*}}[%[[B]], %[[KVH]], %[[COL0]], 0]
// CHECK: linalg.generic
// CHECK: } -> tensor<128x128xf32>
// CHECK: scf.if %{{.*}} -> (tensor<128x128xf32>) {
// CHECK: linalg.index
// CHECK: arith.cmpi sle
// CHECK: } else {
// CHECK-NOT: linalg.index
// CHECK: }
// CHECK: math.exp
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: scf.yield
// CHECK: scf.forall.in_parallel {
// CHECK: tensor.parallel_insert_slice {{.*}} into %[[O]][%[[B]], %[[H]], %[[ROW0]], 0]
// CHECK: tensor.parallel_insert_slice {{.*}} into %[[L]][%[[B]], %[[H]], %[[ROW0]]]
// CHECK: } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT: fa.attention
func.func @causal(%q: tensor<2x32x4096x64xf16>, %k: tensor<2x8x4096x64xf16>,
                  %v: tensor<2x8x4096x64xf16>)
    -> (tensor<2x32x4096x64xf16>, tensor<2x32x4096xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right
      tiling = <block_q = 128, block_kv = 128, warps = 1, stages = 1>
      : tensor<2x32x4096x64xf16>, tensor<2x8x4096x64xf16>, tensor<2x8x4096x64xf16>
      -> tensor<2x32x4096x64xf16>, tensor<2x32x4096xf32>
  return %o, %l : tensor<2x32x4096x64xf16>, tensor<2x32x4096xf32>
}

// A window (64 left, 0 right, top-left): the key loop of a query block starts
// at the block holding key row0 - 64 and ends at the block's last row + 1.
// CHECK-LABEL: func.func @window
// CHECK-DAG: %[[C64:[a-z0-9_]+]] = arith.constant 64 : index
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %[[QB:[a-z0-9_]+]]) in (1, 2, 64)
// CHECK: %[[ROW0:[0-9]+]] = arith.muli %[[QB]], %[[C64]]
// CHECK: %[[END:[0-9]+]] = arith.minsi %{{[0-9]+}}, %c4096 : index
// CHECK: %[[LOW:[0-9]+]] = arith.addi %[[ROW0]], %c-64 : index
// CHECK: %[[LOWC:[0-9]+]] = arith.maxsi %[[LOW]], %c0 : index
// CHECK: %[[BLK:[0-9]+]] = arith.floordivsi %[[LOWC]], %[[C64]] : index
// CHECK: %[[START:[0-9]+]] = arith.muli %[[BLK]], %[[C64]] : index
// CHECK: scf.for %{{.*}} = %[[START]] to %[[END]] step %[[C64]]
func.func @window(%q: tensor<1x2x4096x64xf16>) -> tensor<1x2x4096x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125
      window = <left = 64, right = 0, align = top_left>
      tiling = <block_q = 64, block_kv = 64, warps = 1, stages = 1>
      : tensor<1x2x4096x64xf16>, tensor<1x2x4096x64xf16>, tensor<1x2x4096x64xf16>
      -> tensor<1x2x4096x64xf16>
  return %o : tensor<1x2x4096x64xf16>
}

// Split-Q: 4 warps share a 128-row block, 32 rows each, every warp with its
// own key loop and running state; the block assembles their rows.
// CHECK-LABEL: func.func @split_q
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 2, 8)
// CHECK: scf.forall (%[[W:[a-z0-9_]+]]) in (4) shared_outs(%[[T:[a-z0-9_]+]] = %{{.*}}) -> (tensor<128x64xf16>)
// CHECK: arith.muli %[[W]], %c32
// CHECK: } : tensor<?x64xf16> to tensor<32x64xf16>
// CHECK: scf.for {{.*}} -> (tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>)
// CHECK: tensor.parallel_insert_slice %{{.*}} into %[[T]][%{{.*}}, 0] [32, 64] [1, 1] : tensor<32x64xf16> into tensor<128x64xf16>
// CHECK: } {mapping = [#gpu.warp<x>]}
// CHECK: } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @split_q(%q: tensor<1x2x1024x64xf16>) -> tensor<1x2x1024x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125
      tiling = <block_q = 128, block_kv = 64, warps = 4, stages = 2>
      : tensor<1x2x1024x64xf16>, tensor<1x2x1024x64xf16>, tensor<1x2x1024x64xf16>
      -> tensor<1x2x1024x64xf16>
  return %o : tensor<1x2x1024x64xf16>
}
