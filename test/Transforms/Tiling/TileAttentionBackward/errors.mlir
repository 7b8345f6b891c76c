// What fa-tile-attention-backward refuses, at the op.
// RUN: fa-opt %s --split-input-file --verify-diagnostics --fa-tile-attention-backward

func.func @untiled(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{'fa.attention_backward' op has no tiling; run fa-select-tiles first (or write tiling = #fa.tiling<...> on the op)}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.5
      : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
      -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

func.func @split_tiling(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{'fa.attention_backward' op tiling of the backward pass takes no kv_splits or pack_gqa (they are decode-step forms of the forward pass), got #fa.tiling<block_q = 8, block_kv = 8, warps = 1, stages = 1, kv_splits = 2>}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.5 tiling = <block_q = 8, block_kv = 8, warps = 1, stages = 1, kv_splits = 2>
      : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
      -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}
