// RUN: fa-opt %s --fa-tile-attention -verify-diagnostics

func.func @untiled(%q: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{'fa.attention' op has no tiling; run fa-select-tiles first (or write tiling = #fa.tiling<...> on the op)}}
  %o = fa.attention %q, %q, %q scale = 0.25
      : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}
