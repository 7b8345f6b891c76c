// The tiled loop nest computes a row's logsumexp (a log per row) only when
// the op returns it or its keys are split (the merge weighs the splits by
// it); otherwise the running max and sum are all it keeps. Found by issue
// 31's operator mutation: always computing it changed no number.
// RUN: fa-opt %s --fa-tile-attention | FileCheck %s

// CHECK-LABEL: func.func @output_only
// CHECK-NOT: math.log
// CHECK: return
func.func @output_only(%q: tensor<1x2x40x16xf32>, %k: tensor<1x2x50x16xf32>,
    %v: tensor<1x2x50x16xf32>) -> tensor<1x2x40x16xf32> {
  %o = fa.attention %q, %k, %v scale = 0.25
      tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1>
      : tensor<1x2x40x16xf32>, tensor<1x2x50x16xf32>, tensor<1x2x50x16xf32>
      -> tensor<1x2x40x16xf32>
  return %o : tensor<1x2x40x16xf32>
}

// CHECK-LABEL: func.func @with_logsumexp
// CHECK: math.log
// CHECK: return
func.func @with_logsumexp(%q: tensor<1x2x40x16xf32>, %k: tensor<1x2x50x16xf32>,
    %v: tensor<1x2x50x16xf32>) -> (tensor<1x2x40x16xf32>, tensor<1x2x40xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.25
      tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1>
      : tensor<1x2x40x16xf32>, tensor<1x2x50x16xf32>, tensor<1x2x50x16xf32>
      -> tensor<1x2x40x16xf32>, tensor<1x2x40xf32>
  return %o, %l : tensor<1x2x40x16xf32>, tensor<1x2x40xf32>
}

// CHECK-LABEL: func.func @split_keys
// CHECK: math.log
// CHECK: return
func.func @split_keys(%q: tensor<1x2x4x16xf32>, %k: tensor<1x2x90x16xf32>,
    %v: tensor<1x2x90x16xf32>) -> tensor<1x2x4x16xf32> {
  %o = fa.attention %q, %k, %v scale = 0.25
      tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1, kv_splits = 3>
      : tensor<1x2x4x16xf32>, tensor<1x2x90x16xf32>, tensor<1x2x90x16xf32>
      -> tensor<1x2x4x16xf32>
  return %o : tensor<1x2x4x16xf32>
}
