// MQA decode steps at d = 256 (32 query heads on one key/value head, f16)
// for test/GPU/mqa-decode.test: 3000 keys (a partial last block, no
// splits) and 100000 keys (the selection's key splits).
func.func @short(%q: tensor<1x32x1x256xf16>, %k: tensor<1x1x3000x256xf16>, %v: tensor<1x1x3000x256xf16>) -> tensor<1x32x1x256xf16> {
  %o = fa.attention %q, %k, %v scale = 0.0625 : tensor<1x32x1x256xf16>, tensor<1x1x3000x256xf16>, tensor<1x1x3000x256xf16> -> tensor<1x32x1x256xf16>
  return %o : tensor<1x32x1x256xf16>
}

func.func @long(%q: tensor<1x32x1x256xf16>, %k: tensor<1x1x100000x256xf16>, %v: tensor<1x1x100000x256xf16>) -> tensor<1x32x1x256xf16> {
  %o = fa.attention %q, %k, %v scale = 0.0625 : tensor<1x32x1x256xf16>, tensor<1x1x100000x256xf16>, tensor<1x1x100000x256xf16> -> tensor<1x32x1x256xf16>
  return %o : tensor<1x32x1x256xf16>
}
