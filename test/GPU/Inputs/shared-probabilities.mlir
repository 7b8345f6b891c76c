// A forward attention at d = 64 for test/GPU/shared-probabilities.test: the
// tile model picks FlashAttention-3's 192 x 192 with P V reading P from
// shared memory.
func.func @attention(%q: tensor<1x8x1000x64xf16>, %k: tensor<1x8x1000x64xf16>, %v: tensor<1x8x1000x64xf16>) -> tensor<1x8x1000x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 : tensor<1x8x1000x64xf16>, tensor<1x8x1000x64xf16>, tensor<1x8x1000x64xf16> -> tensor<1x8x1000x64xf16>
  return %o : tensor<1x8x1000x64xf16>
}
