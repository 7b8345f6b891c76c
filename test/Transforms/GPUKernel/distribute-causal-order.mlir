// Under the causal band a query block's keys grow with its index: the grid
// starts the last query block first (heaviest first, as FlashAttention-2
// and -3 order causal work), with key splits too; without the band the
// order is the grid's.
// RUN: fa-opt %s --fa-distribute-attention | FileCheck %s

// CHECK-LABEL: func.func @causal
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %[[QB:.*]]) in (1, 2, %[[BLOCKS:.*]]) {
// CHECK: %[[LAST:.*]] = arith.addi %[[BLOCKS]], %c-1
// CHECK: %[[REVERSED:.*]] = arith.subi %[[LAST]], %[[QB]]
// CHECK: arith.muli %[[REVERSED]], %c64
func.func @causal(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>) -> tensor<1x2x300x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 2> : tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16> -> tensor<1x2x300x64xf16>
  return %o : tensor<1x2x300x64xf16>
}

// With key splits the grid's index is reversed before it is split: the
// query blocks run last first, and so do the splits of each.
// CHECK-LABEL: func.func @causal_splits
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %[[X:.*]]) in (1, 2, %[[GRID:.*]]) {
// CHECK: %[[LAST:.*]] = arith.addi %[[GRID]], %c-1
// CHECK: %[[REVERSED:.*]] = arith.subi %[[LAST]], %[[X]]
// CHECK: %[[QB:.*]] = arith.divui %[[REVERSED]], %c3
// CHECK: arith.muli %[[QB]], %c64
func.func @causal_splits(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>) -> tensor<1x2x300x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = top_left tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 2, kv_splits = 3> : tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16> -> tensor<1x2x300x64xf16>
  return %o : tensor<1x2x300x64xf16>
}

// CHECK-LABEL: func.func @not_causal
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %[[QB:.*]]) in (1, 2, %{{.*}}) {
// CHECK-NOT: arith.subi %{{.*}}, %[[QB]]
// CHECK: arith.muli %[[QB]], %c64
func.func @not_causal(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>) -> tensor<1x2x300x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 2> : tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16> -> tensor<1x2x300x64xf16>
  return %o : tensor<1x2x300x64xf16>
}
