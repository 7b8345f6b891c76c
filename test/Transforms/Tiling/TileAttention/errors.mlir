// RUN: fa-opt %s -split-input-file --fa-tile-attention -verify-diagnostics

func.func @untiled(%q: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{'fa.attention' op has no tiling; run fa-select-tiles first (or write tiling = #fa.tiling<...> on the op)}}
  %o = fa.attention %q, %q, %q scale = 0.25
      : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

func.func @warps_do_not_divide(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'fa.attention' op tiling warps (3) must divide block_q (64): each warp owns block_q / warps query rows}}
  %o = fa.attention %q, %q, %q scale = 0.25
      tiling = <block_q = 64, block_kv = 64, warps = 3, stages = 1>
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
