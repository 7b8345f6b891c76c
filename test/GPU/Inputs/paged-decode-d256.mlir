// A decode step at d = 256 over a paged cache of 160-slot pages with
// kv_lengths (test/GPU/paged-decode.test).
func.func @paged(%q: tensor<1x4x1x256xf16>, %k: tensor<13x160x2x256xf16>, %v: tensor<13x160x2x256xf16>, %t: tensor<1x13xi32>, %n: tensor<1xi32>) -> tensor<1x4x1x256xf16> {
  %o = fa.attention %q, %k, %v kv_lengths(%n : tensor<1xi32>) page_table(%t : tensor<1x13xi32>) scale = 0.0625 causal = bottom_right : tensor<1x4x1x256xf16>, tensor<13x160x2x256xf16>, tensor<13x160x2x256xf16> -> tensor<1x4x1x256xf16>
  return %o : tensor<1x4x1x256xf16>
}
