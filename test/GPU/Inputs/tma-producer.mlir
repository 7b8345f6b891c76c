// A forward attention for the TMA producer kernel tests (test/GPU/tma-producer.test): 64-row query blocks, one compute warpgroup, two K/V stages.
func.func @attention(%q: tensor<1x2x128x64xf16>, %k: tensor<1x2x192x64xf16>, %v: tensor<1x2x192x64xf16>) -> tensor<1x2x128x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<1x2x128x64xf16>, tensor<1x2x192x64xf16>, tensor<1x2x192x64xf16> -> tensor<1x2x128x64xf16>
  return %o : tensor<1x2x128x64xf16>
}
