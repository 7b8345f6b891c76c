// Every rejection of the fa.attention verifier, one per split.
// RUN: fa-opt %s -split-input-file -verify-diagnostics

// Q must be [B, Hq, Nq, D].
func.func @query_rank(%q: tensor<8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{'fa.attention' op query must be a rank-4 tensor [B, Hq, Nq, D], got 'tensor<8x16xf32>'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @key_rank(%q: tensor<1x2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{key must be a rank-4 tensor [B, Hkv, Nk, D], got 'tensor<2x8x16xf32>'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @value_rank(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x1x2x8x16xf32>) {
  // expected-error @+1 {{value must be a rank-4 tensor [B, Hkv, Nk, Dv], got 'tensor<1x1x2x8x16xf32>'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

// Only f16, bf16 and f32 inputs.
func.func @query_element_type(%q: tensor<1x2x8x16xf64>, %k: tensor<1x2x8x16xf64>, %v: tensor<1x2x8x16xf64>) {
  // expected-error @+1 {{query element type must be f16, bf16 or f32, got 'f64'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf64>, tensor<1x2x8x16xf64>, tensor<1x2x8x16xf64> -> tensor<1x2x8x16xf64>
  return
}

// -----

func.func @key_element_type(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf16>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{key element type must be 'f32' as in query, got 'f16'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @value_element_type(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xbf16>) {
  // expected-error @+1 {{value element type must be 'f32' as in query, got 'bf16'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xbf16> -> tensor<1x2x8x16xbf16>
  return
}

// -----

func.func @key_batch(%q: tensor<1x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{key dim 0 (B) must be 1 as in query, got 2}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @value_batch(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<3x2x8x16xf32>) {
  // expected-error @+1 {{value dim 0 (B) must be 1 as in query, got 3}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<3x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @value_heads(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x1x8x16xf32>) {
  // expected-error @+1 {{value dim 1 (Hkv) must be 2 as in key, got 1}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @value_keys(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x9x16xf32>) {
  // expected-error @+1 {{value dim 2 (Nk) must be 8 as in key, got 9}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x9x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

// Head dims size tiles and MMA shapes: static.
func.func @dynamic_query_head_dim(%q: tensor<1x2x8x?xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{query dim 3 (D) must be static, got 'tensor<1x2x8x?xf32>'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x?xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @dynamic_key_head_dim(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x?xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{key dim 3 (D) must be static, got 'tensor<1x2x8x?xf32>'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x?xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @dynamic_value_head_dim(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x?xf32>) {
  // expected-error @+1 {{value dim 3 (Dv) must be static, got 'tensor<1x2x8x?xf32>'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x?xf32> -> tensor<1x2x8x?xf32>
  return
}

// -----

func.func @key_head_dim(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x32xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{key dim 3 (D) must be 16 as in query, got 32}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x32xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @zero_kv_heads(%q: tensor<1x2x8x16xf32>, %k: tensor<1x0x8x16xf32>, %v: tensor<1x0x8x16xf32>) {
  // expected-error @+1 {{key dim 1 (Hkv) must be at least 1, got 0}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x0x8x16xf32>, tensor<1x0x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

// GQA needs Hq to be a multiple of Hkv.
func.func @heads_not_grouped(%q: tensor<1x6x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{query heads (Hq = 6) must be a multiple of key/value heads (Hkv = 4)}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x6x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32> -> tensor<1x6x8x16xf32>
  return
}

// -----

func.func @output_shape(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{output must be 'tensor<1x2x8x16xf32>' ([B, Hq, Nq, Dv] with value's element type), got 'tensor<1x2x8x32xf32>'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x32xf32>
  return
}

// -----

// The output has value's element type, not the f32 accumulator's.
func.func @output_element_type(%q: tensor<1x2x8x16xf16>, %k: tensor<1x2x8x16xf16>, %v: tensor<1x2x8x16xf16>) {
  // expected-error @+1 {{output must be 'tensor<1x2x8x16xf16>' ([B, Hq, Nq, Dv] with value's element type), got 'tensor<1x2x8x16xf32>'}}
  %o = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @logsumexp_shape(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{logsumexp must be 'tensor<1x2x8xf32>' ([B, Hq, Nq] in f32), got 'tensor<1x2x16xf32>'}}
  %o, %l = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x16xf32>
  return
}

// -----

func.func @logsumexp_element_type(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{logsumexp must be 'tensor<1x2x8xf32>' ([B, Hq, Nq] in f32), got 'tensor<1x2x8xf16>'}}
  %o, %l = fa.attention %q, %k, %v scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8xf16>
  return
}

// -----

// Masks are rank 4; size-1 dims broadcast.
func.func @mask_rank(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %m: tensor<8x8xi1>) {
  // expected-error @+1 {{mask must be a rank-4 tensor broadcastable to [B, Hq, Nq, Nk], got 'tensor<8x8xi1>'}}
  %o = fa.attention %q, %k, %v mask(%m : tensor<8x8xi1>) scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

// An integer mask other than i1 is ambiguous: refuse it.
func.func @mask_element_type(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %m: tensor<1x1x8x8xi8>) {
  // expected-error @+1 {{mask element type must be i1 (keep-mask) or f16, bf16 or f32 (additive bias), got 'i8'}}
  %o = fa.attention %q, %k, %v mask(%m : tensor<1x1x8x8xi8>) scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @mask_not_broadcastable(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %m: tensor<1x2x4x8xi1>) {
  // expected-error @+1 {{mask dim 2 (Nq) must be 1 or 8 to broadcast to [B, Hq, Nq, Nk], got 4}}
  %o = fa.attention %q, %k, %v mask(%m : tensor<1x2x4x8xi1>) scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

// The mask is per query head; a Hkv-sized head dim does not broadcast.
func.func @mask_kv_heads(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %m: tensor<1x2x8x8xf32>) {
  // expected-error @+1 {{mask dim 1 (Hq) must be 1 or 4 to broadcast to [B, Hq, Nq, Nk], got 2}}
  %o = fa.attention %q, %k, %v mask(%m : tensor<1x2x8x8xf32>) scale = 0.5 : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x4x8x16xf32>
  return
}

// -----

func.func @infinite_scale(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{scale must be finite, got 0x7FF0000000000000}}
  %o = fa.attention %q, %k, %v scale = 0x7FF0000000000000 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @nan_scale(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{scale must be finite, got 0x7FF8000000000000}}
  %o = fa.attention %q, %k, %v scale = 0x7FF8000000000000 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @window_contradicts_causal_alignment(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{window alignment (bottom_right) contradicts causal alignment (top_left)}}
  %o = fa.attention %q, %k, %v scale = 0.5 causal = top_left window = <left = 4, right = 0, align = bottom_right> : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @window_contradicts_causal_right(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{window right = 2 contradicts causal, which hides every key right of the diagonal; expected right = 0}}
  %o = fa.attention %q, %k, %v scale = 0.5 causal = bottom_right window = <left = 4, right = 2, align = bottom_right> : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @window_negative(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{window bounds must be non-negative, got left = -1, right = 0}}
  %o = fa.attention %q, %k, %v scale = 0.5 window = <left = -1, right = 0, align = top_left> : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

// Unranked tensors carry no shape to check.
func.func @unranked_query(%q: tensor<*xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{'fa.attention' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %o = "fa.attention"(%q, %k, %v) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f64}> ({}, {}) : (tensor<*xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

// The scale is required: there is no implicit 1/sqrt(D).
func.func @missing_scale(%q: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{'fa.attention' op requires attribute 'scale'}}
  %o = "fa.attention"(%q, %q, %q) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0>}> ({}, {}) : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @tiling_not_positive(%q: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{tiling sizes must be positive, got block_q = 0, block_kv = 64, warps = 4, stages = 1}}
  %o = fa.attention %q, %q, %q scale = 0.5 tiling = <block_q = 0, block_kv = 64, warps = 4, stages = 1> : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @kv_lengths_not_i32(%q: tensor<2x2x8x16xf32>, %len: tensor<2xi64>) {
  // expected-error @+1 {{kv_lengths must be a rank-1 tensor of i32 ([B], one key length per sequence), got 'tensor<2xi64>'}}
  %o = fa.attention %q, %q, %q kv_lengths(%len : tensor<2xi64>) scale = 0.5 : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32> -> tensor<2x2x8x16xf32>
  return
}

// -----

func.func @kv_lengths_batch(%q: tensor<2x2x8x16xf32>, %len: tensor<3xi32>) {
  // expected-error @+1 {{kv_lengths dim 0 (B) must be 2 as in query, got 3}}
  %o = fa.attention %q, %q, %q kv_lengths(%len : tensor<3xi32>) scale = 0.5 : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32> -> tensor<2x2x8x16xf32>
  return
}

// -----

func.func @kv_splits_zero(%q: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{tiling kv_splits must be between 1 and 128, got 0}}
  %o = fa.attention %q, %q, %q scale = 0.5 tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1, kv_splits = 0> : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @kv_splits_too_many(%q: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{tiling kv_splits must be between 1 and 128, got 129}}
  %o = fa.attention %q, %q, %q scale = 0.5 tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1, kv_splits = 129> : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return
}

// -----

// A target whose block may use more shared memory than its SM has.
// expected-error @+1 {{target smem_per_block (2048) exceeds smem_per_sm (1024)}}
func.func @target_inconsistent() attributes {t = #fa.target<name = "x", smem_per_block = 2048, smem_per_sm = 1024, regs_per_sm = 65536, regs_per_thread = 255, max_threads_per_block = 1024, max_threads_per_sm = 2048, warp_size = 32, sm_count = 1, mma = []>} {
  return
}

// -----

// expected-error @+1 {{target warp_size must be positive, got 0}}
func.func @target_zero_warp() attributes {t = #fa.target<name = "x", smem_per_block = 1024, smem_per_sm = 1024, regs_per_sm = 65536, regs_per_thread = 255, max_threads_per_block = 1024, max_threads_per_sm = 2048, warp_size = 0, sm_count = 1, mma = []>} {
  return
}

// -----

func.func @page_table_not_i32(%q: tensor<2x4x1x16xf32>, %kv: tensor<8x4x2x16xf32>, %t: tensor<2x3xi64>) {
  // expected-error @+1 {{page_table must be a rank-2 tensor of i32 ([B, M], the pages of each sequence), got 'tensor<2x3xi64>'}}
  %o = fa.attention %q, %kv, %kv page_table(%t : tensor<2x3xi64>) scale = 0.5 : tensor<2x4x1x16xf32>, tensor<8x4x2x16xf32>, tensor<8x4x2x16xf32> -> tensor<2x4x1x16xf32>
  return
}

// -----

func.func @page_table_batch(%q: tensor<2x4x1x16xf32>, %kv: tensor<8x4x2x16xf32>, %t: tensor<3x3xi32>) {
  // expected-error @+1 {{page_table dim 0 (B) must be 2 as in query, got 3}}
  %o = fa.attention %q, %kv, %kv page_table(%t : tensor<3x3xi32>) scale = 0.5 : tensor<2x4x1x16xf32>, tensor<8x4x2x16xf32>, tensor<8x4x2x16xf32> -> tensor<2x4x1x16xf32>
  return
}

// -----

func.func @paged_value_slots(%q: tensor<2x4x1x16xf32>, %k: tensor<8x4x2x16xf32>, %v: tensor<8x8x2x16xf32>, %t: tensor<2x3xi32>) {
  // expected-error @+1 {{value dim 1 (S) must be 4 as in key, got 8}}
  %o = fa.attention %q, %k, %v page_table(%t : tensor<2x3xi32>) scale = 0.5 : tensor<2x4x1x16xf32>, tensor<8x4x2x16xf32>, tensor<8x8x2x16xf32> -> tensor<2x4x1x16xf32>
  return
}

// -----

func.func @paged_heads(%q: tensor<2x3x1x16xf32>, %kv: tensor<8x4x2x16xf32>, %t: tensor<2x3xi32>) {
  // expected-error @+1 {{query heads (Hq = 3) must be a multiple of key/value heads (Hkv = 2)}}
  %o = fa.attention %q, %kv, %kv page_table(%t : tensor<2x3xi32>) scale = 0.5 : tensor<2x3x1x16xf32>, tensor<8x4x2x16xf32>, tensor<8x4x2x16xf32> -> tensor<2x3x1x16xf32>
  return
}

// -----

func.func @paged_mask_keys(%q: tensor<2x4x1x16xf32>, %kv: tensor<8x4x2x16xf32>, %t: tensor<2x3xi32>, %m: tensor<2x1x1x16xi1>) {
  // expected-error @+1 {{mask dim 3 (Nk) must be 1 or 12 to broadcast to [B, Hq, Nq, Nk], got 16}}
  %o = fa.attention %q, %kv, %kv mask(%m : tensor<2x1x1x16xi1>) page_table(%t : tensor<2x3xi32>) scale = 0.5 : tensor<2x4x1x16xf32>, tensor<8x4x2x16xf32>, tensor<8x4x2x16xf32> -> tensor<2x4x1x16xf32>
  return
}

// -----

func.func @paged_rank(%q: tensor<2x4x1x16xf32>, %kv: tensor<8x4x16xf32>, %t: tensor<2x3xi32>) {
  // expected-error @+1 {{key must be a rank-4 tensor [P, S, Hkv, D] (a paged cache), got 'tensor<8x4x16xf32>'}}
  %o = fa.attention %q, %kv, %kv page_table(%t : tensor<2x3xi32>) scale = 0.5 : tensor<2x4x1x16xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32> -> tensor<2x4x1x16xf32>
  return
}

// -----

func.func @packed_alone(%q: tensor<1x4x14x16xf32>, %k: tensor<1x2x39x16xf32>, %cq: tensor<4xi32>) {
  // expected-error @+1 {{cu_seqlens_q and cu_seqlens_k go together: packed sequences pack both their queries and their keys}}
  %o = fa.attention %q, %k, %k cu_seqlens_q(%cq : tensor<4xi32>) scale = 0.5 : tensor<1x4x14x16xf32>, tensor<1x2x39x16xf32>, tensor<1x2x39x16xf32> -> tensor<1x4x14x16xf32>
  return
}

// -----

func.func @packed_sums_type(%q: tensor<1x4x14x16xf32>, %k: tensor<1x2x39x16xf32>, %cq: tensor<4xi64>, %ck: tensor<4xi32>) {
  // expected-error @+1 {{cu_seqlens_q must be a non-empty rank-1 tensor of i32 ([B + 1]: each sequence's first row, then the end of the last), got 'tensor<4xi64>'}}
  %o = fa.attention %q, %k, %k cu_seqlens_q(%cq : tensor<4xi64>) cu_seqlens_k(%ck : tensor<4xi32>) scale = 0.5 : tensor<1x4x14x16xf32>, tensor<1x2x39x16xf32>, tensor<1x2x39x16xf32> -> tensor<1x4x14x16xf32>
  return
}

// -----

func.func @packed_sums_count(%q: tensor<1x4x14x16xf32>, %k: tensor<1x2x39x16xf32>, %cq: tensor<4xi32>, %ck: tensor<3xi32>) {
  // expected-error @+1 {{cu_seqlens_k must have as many entries as cu_seqlens_q (one per sequence, plus one), got 3 and 4}}
  %o = fa.attention %q, %k, %k cu_seqlens_q(%cq : tensor<4xi32>) cu_seqlens_k(%ck : tensor<3xi32>) scale = 0.5 : tensor<1x4x14x16xf32>, tensor<1x2x39x16xf32>, tensor<1x2x39x16xf32> -> tensor<1x4x14x16xf32>
  return
}

// -----

func.func @packed_batch(%q: tensor<2x4x14x16xf32>, %k: tensor<2x2x39x16xf32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) {
  // expected-error @+1 {{query dim 0 must be 1 with packed sequences (they lie one after another along dim 2), got 2}}
  %o = fa.attention %q, %k, %k cu_seqlens_q(%cq : tensor<4xi32>) cu_seqlens_k(%ck : tensor<4xi32>) scale = 0.5 : tensor<2x4x14x16xf32>, tensor<2x2x39x16xf32>, tensor<2x2x39x16xf32> -> tensor<2x4x14x16xf32>
  return
}

// -----

func.func @packed_mask(%q: tensor<1x4x14x16xf32>, %k: tensor<1x2x39x16xf32>, %m: tensor<1x1x14x39xi1>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) {
  // expected-error @+1 {{packed sequences take no mask (a mask over the packed rows would cross sequences)}}
  %o = fa.attention %q, %k, %k mask(%m : tensor<1x1x14x39xi1>) cu_seqlens_q(%cq : tensor<4xi32>) cu_seqlens_k(%ck : tensor<4xi32>) scale = 0.5 : tensor<1x4x14x16xf32>, tensor<1x2x39x16xf32>, tensor<1x2x39x16xf32> -> tensor<1x4x14x16xf32>
  return
}

// -----

func.func @packed_lengths(%q: tensor<1x4x14x16xf32>, %k: tensor<1x2x39x16xf32>, %len: tensor<1xi32>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) {
  // expected-error @+1 {{packed sequences take no kv_lengths: cu_seqlens_k gives each sequence's keys}}
  %o = fa.attention %q, %k, %k kv_lengths(%len : tensor<1xi32>) cu_seqlens_q(%cq : tensor<4xi32>) cu_seqlens_k(%ck : tensor<4xi32>) scale = 0.5 : tensor<1x4x14x16xf32>, tensor<1x2x39x16xf32>, tensor<1x2x39x16xf32> -> tensor<1x4x14x16xf32>
  return
}

// -----

func.func @paged_no_slots(%q: tensor<2x4x1x16xf32>, %kv: tensor<8x0x2x16xf32>, %t: tensor<2x3xi32>) {
  // expected-error @+1 {{key dim 1 (S, slots per page) must be at least 1, got 0}}
  %o = fa.attention %q, %kv, %kv page_table(%t : tensor<2x3xi32>) scale = 0.5 : tensor<2x4x1x16xf32>, tensor<8x0x2x16xf32>, tensor<8x0x2x16xf32> -> tensor<2x4x1x16xf32>
  return
}

// -----

// fa.attention_backward shares the forward op's input checks.
func.func @backward_heads(%q: tensor<1x3x8x16xf32>, %k: tensor<1x2x8x16xf32>, %o: tensor<1x3x8x16xf32>, %lse: tensor<1x3x8xf32>) {
  // expected-error @+1 {{query heads (Hq = 3) must be a multiple of key/value heads (Hkv = 2)}}
  %dq, %dk, %dv = fa.attention_backward %q, %k, %k, %o, %o, %lse scale = 0.5 : tensor<1x3x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x3x8x16xf32>, tensor<1x3x8x16xf32>, tensor<1x3x8xf32> -> tensor<1x3x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

func.func @backward_element_type(%q: tensor<1x2x8x16xf16>, %k: tensor<1x2x8x16xf32>, %o: tensor<1x2x8x16xf16>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{key element type must be 'f16' as in query, got 'f32'}}
  %dq, %dk, %dv = fa.attention_backward %q, %k, %k, %o, %o, %lse scale = 0.5 : tensor<1x2x8x16xf16>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf16>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

func.func @backward_keys(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x9x16xf32>, %o: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{value dim 2 (Nk) must be 8 as in key, got 9}}
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %o, %lse scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x9x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x9x16xf32>
  return
}

// -----

func.func @backward_output(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x4xf32>, %o: tensor<1x2x8x16xf32>, %do: tensor<1x2x8x4xf32>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{output must be 'tensor<1x2x8x4xf32>' ([B, Hq, Nq, Dv] with value's element type, as fa.attention's output), got 'tensor<1x2x8x16xf32>'}}
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x4xf32>
  return
}

// -----

func.func @backward_grad_output(%q: tensor<1x2x8x16xf16>, %o: tensor<1x2x8x16xf16>, %do: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{grad_output must be 'tensor<1x2x8x16xf16>' ([B, Hq, Nq, Dv] with value's element type, as fa.attention's output), got 'tensor<1x2x8x16xf32>'}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %o, %do, %lse scale = 0.5 : tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>
  return
}

// -----

func.func @backward_logsumexp(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf16>) {
  // expected-error @+1 {{logsumexp must be 'tensor<1x2x8xf32>' ([B, Hq, Nq] in f32), got 'tensor<1x2x8xf16>'}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf16> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

func.func @backward_grad_key(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %o: tensor<1x4x8x16xf32>, %lse: tensor<1x4x8xf32>) {
  // expected-error @+1 {{grad_key must be 'tensor<1x2x8x16xf32>' (the type of the input it is the gradient of), got 'tensor<1x4x8x16xf32>'}}
  %dq, %dk, %dv = fa.attention_backward %q, %k, %k, %o, %o, %lse scale = 0.5 : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32> -> tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

func.func @backward_grad_query_type(%q: tensor<1x2x8x16xbf16>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{grad_query must be 'tensor<1x2x8x16xbf16>' (the type of the input it is the gradient of), got 'tensor<1x2x8x16xf32>'}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.5 : tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>
  return
}

// -----

func.func @backward_grad_mask_without_mask(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{grad_mask needs a mask: it is the gradient of the additive bias}}
  %dq, %dk, %dv, %db = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x1x8x8xf32>
  return
}

// -----

func.func @backward_grad_boolean_mask(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>, %m: tensor<1x1x8x8xi1>) {
  // expected-error @+1 {{grad_mask needs an additive (float) mask; a boolean keep-mask has no gradient}}
  %dq, %dk, %dv, %db = fa.attention_backward %q, %q, %q, %q, %q, %lse mask(%m : tensor<1x1x8x8xi1>) scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x1x8x8xi1>
  return
}

// -----

func.func @backward_grad_mask_shape(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>, %m: tensor<1x1x8x8xf32>) {
  // expected-error @+1 {{grad_mask must be 'tensor<1x1x8x8xf32>' (the mask's type: broadcast dims are summed), got 'tensor<1x2x8x8xf32>'}}
  %dq, %dk, %dv, %db = fa.attention_backward %q, %q, %q, %q, %q, %lse mask(%m : tensor<1x1x8x8xf32>) scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x8xf32>
  return
}

// -----

func.func @backward_mask_shape(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>, %m: tensor<1x1x8x5xf32>) {
  // expected-error @+1 {{mask dim 3 (Nk) must be 1 or 8 to broadcast to [B, Hq, Nq, Nk], got 5}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse mask(%m : tensor<1x1x8x5xf32>) scale = 0.5 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

func.func @backward_window(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{window right = 1 contradicts causal, which hides every key right of the diagonal; expected right = 0}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.5 causal = top_left window = <left = 2, right = 1, align = top_left> : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return
}

// -----

func.func @backward_dynamic_head_dim(%q: tensor<1x2x8x?xf32>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{query dim 3 (D) must be static, got 'tensor<1x2x8x?xf32>'}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.5 : tensor<1x2x8x?xf32>, tensor<1x2x8x?xf32>, tensor<1x2x8x?xf32>, tensor<1x2x8x?xf32>, tensor<1x2x8x?xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x?xf32>, tensor<1x2x8x?xf32>, tensor<1x2x8x?xf32>
  return
}

// -----

func.func @mask_fill_without_mask(%q: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{mask_fill gives the keys an i1 mask hides their score; it needs an i1 mask}}
  %o = fa.attention %q, %q, %q scale = 0.5 mask_fill = -1.0e4 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

func.func @mask_fill_with_bias(%q: tensor<1x2x8x16xf32>, %bias: tensor<1x1x8x8xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{mask_fill gives the keys an i1 mask hides their score; it needs an i1 mask}}
  %o = fa.attention %q, %q, %q mask(%bias : tensor<1x1x8x8xf32>) scale = 0.5 mask_fill = -1.0e4 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

func.func @mask_fill_not_finite(%q: tensor<1x2x8x16xf32>, %keep: tensor<1x1x8x8xi1>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{mask_fill must be finite (a hidden key's score); -inf is the default, without mask_fill}}
  %o = fa.attention %q, %q, %q mask(%keep : tensor<1x1x8x8xi1>) scale = 0.5 mask_fill = 0xFFF0000000000000 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

func.func @mask_fill_with_causal(%q: tensor<1x2x8x16xf32>, %keep: tensor<1x1x8x8xi1>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{mask_fill cannot be combined with causal, window, kv_lengths, page_table or packed sequences: their hidden keys are skipped, while a filled key still has a weight}}
  %o = fa.attention %q, %q, %q mask(%keep : tensor<1x1x8x8xi1>) scale = 0.5 mask_fill = -1.0e4 causal = top_left : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

func.func @backward_mask_fill_with_bias(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>, %bias: tensor<1x1x8x8xf32>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{mask_fill gives the keys an i1 mask hides their score; it needs an i1 mask}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse mask(%bias : tensor<1x1x8x8xf32>) scale = 0.5 mask_fill = -1.0e4 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return %dq : tensor<1x2x8x16xf32>
}

// -----

func.func @backward_mask_fill_not_finite(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>, %keep: tensor<1x1x8x8xi1>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{mask_fill must be finite (a hidden key's score); -inf is the default, without mask_fill}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse mask(%keep : tensor<1x1x8x8xi1>) scale = 0.5 mask_fill = 0xFFF0000000000000 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return %dq : tensor<1x2x8x16xf32>
}

// -----

func.func @backward_mask_fill_with_causal(%q: tensor<1x2x8x16xf32>, %lse: tensor<1x2x8xf32>, %keep: tensor<1x1x8x8xi1>) -> tensor<1x2x8x16xf32> {
  // expected-error @+1 {{mask_fill cannot be combined with causal or window: their hidden keys are skipped, while a filled key still has a weight}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse mask(%keep : tensor<1x1x8x8xi1>) scale = 0.5 mask_fill = -1.0e4 causal = top_left : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8xf32> -> tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return %dq : tensor<1x2x8x16xf32>
}
