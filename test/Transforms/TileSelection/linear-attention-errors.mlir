// A chunk written on an fa.linear_attention is checked against the
// target like a tiling: one that does not fit shared memory is refused at
// the op with what it needs.
// RUN: fa-opt %s --fa-select-tiles=target=sm_80 -verify-diagnostics -o /dev/null

// d = 128, f32, chunk 256: 256 · 3 · 528 bytes of rows + 135680 of state =
// 541184 bytes, over sm_80's 166912.
func.func @too_large(%q: tensor<1x2x512x128xf32>) -> tensor<1x2x512x128xf32> {
  // expected-error @+1 {{chunk 256 needs 541184 bytes of shared memory (Q, K and V's rows and the state), over the target's 166912}}
  %o = fa.linear_attention %q, %q, %q scale = 1.0 causal chunk = 256 : tensor<1x2x512x128xf32>, tensor<1x2x512x128xf32>, tensor<1x2x512x128xf32> -> tensor<1x2x512x128xf32>
  return %o : tensor<1x2x512x128xf32>
}
