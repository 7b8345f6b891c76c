// fa-select-tiles chooses an fa.linear_attention's chunk from the target's
// shared memory: 64 rows where the GPU kernel's tiles fit (Q and K rows, V
// rows with 16 more columns when normalized, the [D, Dv'] state in f32 and
// in the input type, Dv' column scales; rows padded by 16 bytes), else the
// largest power of two from 16 that does; a chunk written on the op is
// kept. Not causal, the chunk is the kernel's stream (the host needs none).
// Every choice is reported with its reason.
// RUN: fa-opt %s "--fa-select-tiles=target=sm_80 report=-" | FileCheck %s
// RUN: fa-opt %s "--fa-select-tiles=target=sm_80 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: not fa-opt %s "--fa-select-tiles=target=sm_75 report=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TURING
// With require-linear-chunk=false (fa-cpu-pipeline's gpu-kernel mode) an op
// no chunk fits keeps none, for the host's lowering, and the report says so.
// RUN: fa-opt %s "--fa-select-tiles=target=sm_75 require-linear-chunk=false report=-" -o /dev/null | FileCheck %s --check-prefix=LEFT
// LEFT: "pass":"linear","target":"sm_75","chunk":null,"why":"target sm_75 from the pass option; no chunk of linear attention fits the target's 65536 bytes of shared memory: 16 rows need 161024 (D = 128, Dv = 128); left without a chunk for the host's lowering"

// d = 64, f16, normalized (Dv' = 80): 64 · (2 · 144 + 176) rows + 64 · (336 + 176)
// state + 80 · 4 scales = 62784 bytes.
// CHECK-LABEL: func.func @d64
// CHECK: fa.linear_attention {{.*}} causal normalize(eps = 9.9999999999999995E-7) chunk = 64 :
// REPORT: "pass":"linear","target":"sm_80","chunk":64,"smem_bytes":62784,"smem_limit":166912,"why":"target sm_80 from the pass option; chunk 64 (flash-linear-attention's): Q, K and V's rows and the state take 62784 of 166912 bytes"
func.func @d64(%q: tensor<1x8x4096x64xf16>) -> tensor<1x8x4096x64xf16> {
  %o = fa.linear_attention %q, %q, %q scale = 0.125 causal normalize(eps = 1.0e-6) : tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16> -> tensor<1x8x4096x64xf16>
  return %o : tensor<1x8x4096x64xf16>
}

// On sm_75 (64 KiB), @d128_f32's state (f32 and rounded, 128 rows of 528
// bytes each) alone is 135168 bytes: no chunk fits, and the error says what
// 16 rows would need.
// TURING: linear-attention.mlir:[[# @LINE + 9]]:8: error: 'fa.linear_attention' op no chunk of linear attention fits the target's 65536 bytes of shared memory: 16 rows need 161024 (D = 128, Dv = 128)

// d = 128, f32 on sm_80: the state takes 128 · (528 + 528) + 512 = 135680
// bytes and each row of Q, K and V 3 · 528: 64 rows need 237056 bytes, 32
// need 186368, both over 166912; 16 rows (161024) fit.
// CHECK-LABEL: func.func @d128_f32
// CHECK: chunk = 16 :
// REPORT: "chunk":16,"smem_bytes":161024,"smem_limit":166912,"why":"target sm_80 from the pass option; chunk 16, the largest power of two whose rows and state (161024 bytes) fit 166912 bytes (64 would need 237056)"
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
// CHECK: fa.linear_attention {{.*}} scale = 1.000000e+00 chunk = 64 :
// REPORT: "pass":"linear","target":"sm_80","chunk":64,"smem_bytes":54528,{{.*}}; not causal: the GPU kernel streams keys, then queries, by chunks (the host's Q (K^T V) walks none)"
func.func @not_causal(%q: tensor<1x2x512x64xf16>) -> tensor<1x2x512x64xf16> {
  %o = fa.linear_attention %q, %q, %q scale = 1.0 : tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16> -> tensor<1x2x512x64xf16>
  return %o : tensor<1x2x512x64xf16>
}
