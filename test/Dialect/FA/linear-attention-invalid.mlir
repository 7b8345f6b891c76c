// Every fa.linear_attention verifier message, one case each.
// RUN: fa-opt %s -split-input-file -verify-diagnostics

func.func @rank(%q: tensor<8x128x64xf32>, %k: tensor<1x8x128x64xf32>) {
  // expected-error @+1 {{query must be a rank-4 tensor [B, Hq, Nq, D], got 'tensor<8x128x64xf32>'}}
  %o = fa.linear_attention %q, %k, %k scale = 1.0 : tensor<8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf32>
  return
}

// -----

func.func @element_type(%q: tensor<1x8x128x64xf16>, %k: tensor<1x8x128x64xf32>) {
  // expected-error @+1 {{key element type must be 'f16' as in query, got 'f32'}}
  %o = fa.linear_attention %q, %k, %k scale = 1.0 : tensor<1x8x128x64xf16>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf32>
  return
}

// -----

func.func @head_dim(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x32xf32>) {
  // expected-error @+1 {{key dim 3 (D) must be 64 as in query, got 32}}
  %o = fa.linear_attention %q, %k, %k scale = 1.0 : tensor<1x8x128x64xf32>, tensor<1x8x128x32xf32>, tensor<1x8x128x32xf32> -> tensor<1x8x128x32xf32>
  return
}

// -----

func.func @heads(%q: tensor<1x6x128x64xf32>, %k: tensor<1x4x128x64xf32>) {
  // expected-error @+1 {{query heads (Hq = 6) must be a multiple of key/value heads (Hkv = 4)}}
  %o = fa.linear_attention %q, %k, %k scale = 1.0 : tensor<1x6x128x64xf32>, tensor<1x4x128x64xf32>, tensor<1x4x128x64xf32> -> tensor<1x6x128x64xf32>
  return
}

// -----

func.func @value_length(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>, %v: tensor<1x8x96x64xf32>) {
  // expected-error @+1 {{value dim 2 (Nk) must be 128 as in key, got 96}}
  %o = fa.linear_attention %q, %k, %v scale = 1.0 : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x96x64xf32> -> tensor<1x8x128x64xf32>
  return
}

// -----

func.func @output(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>) {
  // expected-error @+1 {{output must be 'tensor<1x8x128x64xf32>' ([B, Hq, Nq, Dv] with value's element type), got 'tensor<1x8x128x64xf16>'}}
  %o = fa.linear_attention %q, %k, %k scale = 1.0 : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf16>
  return
}

// -----

func.func @scale(%q: tensor<1x8x128x64xf32>) {
  // expected-error @+1 {{scale must be finite, got INF}}
  %o = fa.linear_attention %q, %q, %q scale = 0x7FF0000000000000 : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf32>
  return
}

// -----

func.func @epsilon(%q: tensor<1x8x128x64xf32>) {
  // expected-error @+1 {{normalize's eps must be finite and at least 0, got -1.000000e-06}}
  %o = fa.linear_attention %q, %q, %q scale = 1.0 normalize(eps = -1.0e-6) : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf32>
  return
}

// -----

func.func @causal_lengths(%q: tensor<1x8x16x64xf32>, %k: tensor<1x8x128x64xf32>) {
  // expected-error @+1 {{causal linear attention needs as many queries as keys (the diagonal is top-left), got Nq = 16 and Nk = 128}}
  %o = fa.linear_attention %q, %k, %k scale = 1.0 causal : tensor<1x8x16x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x16x64xf32>
  return
}

// -----

func.func @decay_without_causal(%q: tensor<1x8x128x64xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{decay needs causal: gamma^(i - j) weighs key j for query i >= j only}}
  %o = fa.linear_attention %q, %q, %q decay(%g : tensor<8xf32>) scale = 1.0 : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf32>
  return
}

// -----

func.func @decay_type(%q: tensor<1x8x128x64xf32>, %g: tensor<8xf16>) {
  // expected-error @+1 {{decay must be a rank-1 tensor of f32 ([Hq], one gamma per query head), got 'tensor<8xf16>'}}
  %o = fa.linear_attention %q, %q, %q decay(%g : tensor<8xf16>) scale = 1.0 causal : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf32>
  return
}

// -----

func.func @decay_heads(%q: tensor<1x8x128x64xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{decay dim 0 (Hq) must be 8 as in query, got 4}}
  %o = fa.linear_attention %q, %q, %q decay(%g : tensor<4xf32>) scale = 1.0 causal : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf32>
  return
}

// -----

func.func @chunk(%q: tensor<1x8x128x64xf32>) {
  // expected-error @+1 {{chunk must be at least 1, got 0}}
  %o = fa.linear_attention %q, %q, %q scale = 1.0 causal chunk = 0 : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32> -> tensor<1x8x128x64xf32>
  return
}
