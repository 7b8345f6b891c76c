// fa-distribute-attention-backward refuses, at the op, what its kernels
// cannot compute (f32, sm_75, the gradient of a bias broadcast over rows or
// keys, dims or tiles that are not
// whole mma.sync tiles); distribute-backward.mlir shows require-kernel=false
// leaving such ops to fa-tile-attention-backward.
// RUN: fa-opt %s --fa-distribute-attention-backward --split-input-file --verify-diagnostics
// Without mma.sync (sm_75) every op is refused, f16 ones for that reason.
// RUN: not fa-opt %s --fa-distribute-attention-backward=tensor-cores=false --split-input-file 2>&1 | FileCheck %s --check-prefix=SM75
// SM75: error: 'fa.attention_backward' op has no GPU kernel here: the backward kernel needs mma.sync (sm_80 or later)

func.func @no_tiling(%q: tensor<1x2x64x64xf16>, %l: tensor<1x2x64xf32>) -> (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) {
  // expected-error @+1 {{'fa.attention_backward' op has no tiling; run fa-select-tiles first (or write tiling = #fa.tiling<...> on the op)}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %l scale = 0.25
      : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64xf32> -> tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>
  return %dq, %dk, %dv : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>
}

// -----

func.func @f32(%q: tensor<1x2x64x64xf32>, %l: tensor<1x2x64xf32>) -> (tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>) {
  // expected-error @+1 {{'fa.attention_backward' op has no GPU kernel here: the backward kernel needs f16 or bf16 operands (mma.sync)}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %l scale = 0.25 tiling = <block_q = 32, block_kv = 32, warps = 2, stages = 1>
      : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64xf32> -> tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>
  return %dq, %dk, %dv : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>
}

// -----

func.func @head_dim_24(%q: tensor<1x2x64x24xf16>, %l: tensor<1x2x64xf32>) -> (tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>) {
  // expected-error @+1 {{'fa.attention_backward' op has no GPU kernel here: the backward kernel needs D and Dv to be static multiples of 16}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %l scale = 0.25 tiling = <block_q = 32, block_kv = 32, warps = 2, stages = 1>
      : tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>, tensor<1x2x64xf32> -> tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>
  return %dq, %dk, %dv : tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>, tensor<1x2x64x24xf16>
}

// -----

func.func @block_q_24(%q: tensor<1x2x64x64xf16>, %l: tensor<1x2x64xf32>) -> (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) {
  // expected-error @+1 {{'fa.attention_backward' op has no GPU kernel here: the backward kernel needs block_q and block_kv to be multiples of 16}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %l scale = 0.25 tiling = <block_q = 24, block_kv = 32, warps = 1, stages = 1>
      : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64xf32> -> tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>
  return %dq, %dk, %dv : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>
}

// -----

func.func @key_padding_bias_gradient(%q: tensor<1x2x64x64xf16>, %l: tensor<1x2x64xf32>, %m: tensor<1x1x1x64xf16>) -> tensor<1x1x1x64xf16> {
  // expected-error @+1 {{'fa.attention_backward' op has no GPU kernel here: the backward kernel does not compute the gradient of a bias broadcast over query rows or keys (grad_mask of a [.., 1, Nk] or [.., Nq, 1] bias)}}
  %dq, %dk, %dv, %db = fa.attention_backward %q, %q, %q, %q, %q, %l mask(%m : tensor<1x1x1x64xf16>) scale = 0.25 tiling = <block_q = 32, block_kv = 32, warps = 2, stages = 1>
      : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64xf32>
      -> tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x1x1x64xf16>
  return %db : tensor<1x1x1x64xf16>
}
