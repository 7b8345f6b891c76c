// fa.linear_attention has no GPU kernel yet: the GPU kernel pass, and with
// it fa-gpu-pipeline, stops at the op with the reason.
// RUN: fa-opt %s --fa-distribute-attention -verify-diagnostics
// RUN: not fa-opt %s "--fa-gpu-pipeline=chip=sm_80" 2>&1 | FileCheck %s
// CHECK: error: 'fa.linear_attention' op has no GPU kernel yet; fa-cpu-pipeline lowers it on the host (fa-lower-linear-attention)

func.func @linear(%q: tensor<1x8x128x64xf16>) -> tensor<1x8x128x64xf16> {
  // expected-error @+1 {{has no GPU kernel yet; fa-cpu-pipeline lowers it on the host (fa-lower-linear-attention)}}
  %o = fa.linear_attention %q, %q, %q scale = 0.125 causal : tensor<1x8x128x64xf16>, tensor<1x8x128x64xf16>, tensor<1x8x128x64xf16> -> tensor<1x8x128x64xf16>
  return %o : tensor<1x8x128x64xf16>
}
