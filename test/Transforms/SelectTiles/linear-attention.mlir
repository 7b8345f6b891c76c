// fa-select-tiles chooses a causal fa.linear_attention's chunk from the
// target's shared memory: 64 rows where Q, K and V's rows, the [64, 64]
// f32 weights and the [D, Dv] f32 state fit, else the largest power of two
// from 16 that does; a chunk written on the op is kept; a linear attention
// that is not causal needs none. Every choice is reported with its reason.
// RUN: fa-opt %s "--fa-select-tiles=target=sm_80 report=-" | FileCheck %s
// RUN: fa-opt %s "--fa-select-tiles=target=sm_80 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: not fa-opt %s "--fa-select-tiles=target=sm_75 report=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TURING

// d = 64, f16: 64 · (2·64 + 64) · 2 + 64 · 64 · 4 + 64 · 64 · 4 + 64 · 4 = 57600 bytes.
// CHECK-LABEL: func.func @d64
// CHECK: fa.linear_attention {{.*}} causal normalize(eps = 9.9999999999999995E-7) chunk = 64 :
// REPORT: "pass":"linear","target":"sm_80","chunk":64,"smem_bytes":57600,"smem_limit":166912,"why":"target sm_80 from the pass option; chunk 64 (flash-linear-attention's)
func.func @d64(%q: tensor<1x8x4096x64xf16>) -> tensor<1x8x4096x64xf16> {
  %o = fa.linear_attention %q, %q, %q scale = 0.125 causal normalize(eps = 1.0e-6) : tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16> -> tensor<1x8x4096x64xf16>
  return %o : tensor<1x8x4096x64xf16>
}

// On sm_75 (64 KiB), @d128_f32's f32 state alone is 65536 bytes: no chunk
// fits, and the error says what 16 rows would need.
// TURING: linear-attention.mlir:[[# @LINE + 8]]:8: error: 'fa.linear_attention' op no chunk of linear attention fits the target's 65536 bytes of shared memory: 16 rows need 91136 (D = 128, Dv = 128)

// d = 128, f32 on sm_80: 64 rows need 64 · 384 · 4 + 16384 + 65536 = 180224
// bytes, over 166912; 32 rows 49152 + 4096 + 65536 = 118784 fit.
// CHECK-LABEL: func.func @d128_f32
// CHECK: chunk = 32 :
// REPORT: "chunk":32,"smem_bytes":118784,"smem_limit":166912,"why":"target sm_80 from the pass option; chunk 32, the largest power of two whose rows, weights and state (118784 bytes) fit 166912 bytes (64 would need 180224)"
func.func @d128_f32(%q: tensor<1x2x512x128xf32>) -> tensor<1x2x512x128xf32> {
  %o = fa.linear_attention %q, %q, %q scale = 1.0 causal : tensor<1x2x512x128xf32>, tensor<1x2x512x128xf32>, tensor<1x2x512x128xf32> -> tensor<1x2x512x128xf32>
  return %o : tensor<1x2x512x128xf32>
}

// CHECK-LABEL: func.func @given
// CHECK: chunk = 8 :
// REPORT: "chunk":8,{{.*}}"why":"target sm_80 from the pass option; chunk written on the op"
func.func @given(%q: tensor<1x2x512x64xf16>) -> tensor<1x2x512x64xf16> {
  %o = fa.linear_attention %q, %q, %q scale = 1.0 causal chunk = 8 : tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16> -> tensor<1x2x512x64xf16>
  return %o : tensor<1x2x512x64xf16>
}

// CHECK-LABEL: func.func @not_causal
// CHECK-NOT: chunk =
// REPORT: "pass":"linear","target":"sm_80","chunk":null,"why":"target sm_80 from the pass option; not causal: Q (K^T V) walks no chunks"
func.func @not_causal(%q: tensor<1x2x512x64xf16>) -> tensor<1x2x512x64xf16> {
  %o = fa.linear_attention %q, %q, %q scale = 1.0 : tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16> -> tensor<1x2x512x64xf16>
  return %o : tensor<1x2x512x64xf16>
}
