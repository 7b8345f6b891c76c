// fa-distribute-linear-attention refuses, at the op and with the reason,
// what its tensor-core kernel cannot take; fa-gpu-pipeline stops there.
// With require-kernel=false (fa-cpu-pipeline's gpu-kernel) such an op is
// left for fa-lower-linear-attention.
// RUN: fa-opt %s --fa-distribute-linear-attention -split-input-file -verify-diagnostics
// RUN: fa-opt %s --fa-distribute-linear-attention=require-kernel=false -split-input-file | FileCheck %s --check-prefix=LEFT
// RUN: not fa-opt %s "--fa-gpu-pipeline=chip=sm_80" -split-input-file 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not fa-opt %s "--fa-gpu-pipeline=chip=sm_75" -split-input-file 2>&1 | FileCheck %s --check-prefix=TURING
// PIPELINE: error: 'fa.linear_attention' op has no GPU kernel here: the linear attention kernel needs f16 or bf16 Q, K and V of one type (mma.sync); fa-cpu-pipeline lowers it on the host (fa-lower-linear-attention)
// TURING: error: 'fa.linear_attention' op has no GPU kernel here: the linear attention kernel needs mma.sync (sm_80 or later)
// LEFT-COUNT-5: fa.linear_attention

func.func @f32(%q: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{has no GPU kernel here: the linear attention kernel needs f16 or bf16 Q, K and V of one type (mma.sync); fa-cpu-pipeline lowers it on the host (fa-lower-linear-attention)}}
  %o = fa.linear_attention %q, %q, %q scale = 0.125 causal chunk = 64 : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @no_chunk(%q: tensor<1x8x128x64xf16>) -> tensor<1x8x128x64xf16> {
  // expected-error @+1 {{the linear attention kernel needs a chunk (fa-select-tiles chooses one for the target)}}
  %o = fa.linear_attention %q, %q, %q scale = 0.125 causal : tensor<1x8x128x64xf16>, tensor<1x8x128x64xf16>, tensor<1x8x128x64xf16> -> tensor<1x8x128x64xf16>
  return %o : tensor<1x8x128x64xf16>
}

// -----

func.func @odd_chunk(%q: tensor<1x8x128x64xf16>) -> tensor<1x8x128x64xf16> {
  // expected-error @+1 {{the linear attention kernel needs a chunk that is a multiple of 16, got 8}}
  %o = fa.linear_attention %q, %q, %q scale = 0.125 causal chunk = 8 : tensor<1x8x128x64xf16>, tensor<1x8x128x64xf16>, tensor<1x8x128x64xf16> -> tensor<1x8x128x64xf16>
  return %o : tensor<1x8x128x64xf16>
}

// -----

func.func @head_dim(%q: tensor<1x8x128x40xbf16>) -> tensor<1x8x128x40xbf16> {
  // expected-error @+1 {{the linear attention kernel needs D and Dv to be static multiples of 16}}
  %o = fa.linear_attention %q, %q, %q scale = 0.125 chunk = 64 : tensor<1x8x128x40xbf16>, tensor<1x8x128x40xbf16>, tensor<1x8x128x40xbf16> -> tensor<1x8x128x40xbf16>
  return %o : tensor<1x8x128x40xbf16>
}

// -----

func.func @dynamic_heads(%q: tensor<1x?x128x64xf16>) -> tensor<1x?x128x64xf16> {
  // expected-error @+1 {{the linear attention kernel needs static head counts (Hq / Hkv)}}
  %o = fa.linear_attention %q, %q, %q scale = 0.125 causal chunk = 64 : tensor<1x?x128x64xf16>, tensor<1x?x128x64xf16>, tensor<1x?x128x64xf16> -> tensor<1x?x128x64xf16>
  return %o : tensor<1x?x128x64xf16>
}
