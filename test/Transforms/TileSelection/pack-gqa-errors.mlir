// pack_gqa written by hand where packing would change the result: each
// refusal says why, at the op, in fa-select-tiles and in both lowerings.
// RUN: fa-opt %s --split-input-file --verify-diagnostics --fa-select-tiles=target=sm_90
// RUN: fa-opt %s --split-input-file --verify-diagnostics --fa-tile-attention
// RUN: fa-opt %s --split-input-file --verify-diagnostics --fa-distribute-attention

func.func @causal_rows(%q: tensor<1x8x16x32xf16>, %k: tensor<1x2x64x32xf16>) -> tensor<1x8x16x32xf16> {
  // expected-error @+1 {{the tiling packs query groups (pack_gqa), but a causal mask depends on a query row's position, which a packed row no longer has (only a bottom-right one over one query row hides nothing)}}
  %o = fa.attention %q, %k, %k scale = 0.125 causal = bottom_right tiling = <block_q = 64, block_kv = 16, warps = 4, stages = 1, pack_gqa = true> : tensor<1x8x16x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x8x16x32xf16>
  return %o : tensor<1x8x16x32xf16>
}

// -----

func.func @no_group(%q: tensor<1x2x1x32xf16>, %k: tensor<1x2x64x32xf16>) -> tensor<1x2x1x32xf16> {
  // expected-error @+1 {{the tiling packs query groups (pack_gqa), but every key/value head serves one query head: there is no group to pack}}
  %o = fa.attention %q, %k, %k scale = 0.125 tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1, pack_gqa = true> : tensor<1x2x1x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x1x32xf16>
  return %o : tensor<1x2x1x32xf16>
}

// -----

func.func @mask_over_rows(%q: tensor<1x8x4x32xf16>, %k: tensor<1x2x64x32xf16>, %m: tensor<1x1x4x64xi1>) -> tensor<1x8x4x32xf16> {
  // expected-error @+1 {{the tiling packs query groups (pack_gqa), but the mask varies over query rows but not over heads, so a packed row would need its row within its head}}
  %o = fa.attention %q, %k, %k mask(%m : tensor<1x1x4x64xi1>) scale = 0.125 tiling = <block_q = 32, block_kv = 16, warps = 2, stages = 1, pack_gqa = true> : tensor<1x8x4x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x8x4x32xf16>
  return %o : tensor<1x8x4x32xf16>
}

// -----

func.func @dynamic_heads(%q: tensor<1x?x1x32xf16>, %k: tensor<1x2x64x32xf16>) -> tensor<1x?x1x32xf16> {
  // expected-error @+1 {{the tiling packs query groups (pack_gqa), but the head counts are dynamic}}
  %o = fa.attention %q, %k, %k scale = 0.125 tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1, pack_gqa = true> : tensor<1x?x1x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x?x1x32xf16>
  return %o : tensor<1x?x1x32xf16>
}

// -----

func.func @packed_sequences(%q: tensor<1x8x40x32xf16>, %k: tensor<1x2x64x32xf16>, %cq: tensor<3xi32>, %ck: tensor<3xi32>) -> tensor<1x8x40x32xf16> {
  // expected-error @+1 {{the tiling packs query groups (pack_gqa), but packed sequences: a packed row would need its own sequence}}
  %o = fa.attention %q, %k, %k cu_seqlens_q(%cq : tensor<3xi32>) cu_seqlens_k(%ck : tensor<3xi32>) scale = 0.125 tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1, pack_gqa = true> : tensor<1x8x40x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x8x40x32xf16>
  return %o : tensor<1x8x40x32xf16>
}
