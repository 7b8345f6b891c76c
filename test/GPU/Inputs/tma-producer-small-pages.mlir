// A paged cache of 16-slot pages, which no key block fits: the TMA
// producer kernel loads each block as boxes of 16 rows, each through its
// table entry (test/GPU/tma-producer.test).
func.func @attention(%q: tensor<1x8x1000x128xf16>, %k: tensor<63x16x8x128xf16>, %v: tensor<63x16x8x128xf16>, %t: tensor<1x63xi32>, %n: tensor<1xi32>) -> tensor<1x8x1000x128xf16> {
  %o = fa.attention %q, %k, %v kv_lengths(%n : tensor<1xi32>) page_table(%t : tensor<1x63xi32>) scale = 0.088 causal = bottom_right : tensor<1x8x1000x128xf16>, tensor<63x16x8x128xf16>, tensor<63x16x8x128xf16> -> tensor<1x8x1000x128xf16>
  return %o : tensor<1x8x1000x128xf16>
}
