//===- Passes.td - Tiling passes ---------------------------*- tablegen -*-===//
//
// Stage: the tiled loop nests of the fa ops, with online softmax.
// One pass per file under lib/Transforms/Tiling/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_TILING_PASSES_TD
#define FA_TRANSFORMS_TILING_PASSES_TD

include "mlir/Pass/PassBase.td"

def FATileAttention : Pass<"fa-tile-attention"> {
  let summary = "Lower fa.attention to a tiled, fused online-softmax loop nest";
  let description = [{
    Rewrites every `fa.attention` that carries a `tiling` (from
    `fa-select-tiles`) into FlashAttention-2's loop nest on tensors: an
    `scf.forall` over (batch, head, query block), mapped to `#gpu.block<z, y,
    x>`, around an `scf.for` over the key blocks the block can see, carrying
    the running row max, row sum and f32 accumulator. Tiles have static
    shapes `[block_q, D]`, `[block_kv, D]`, `[block_q, block_kv]` (tails are
    padded and masked), so no tensor larger than a tile is ever created.
    With `warps > 1`, an inner `scf.forall` mapped to `#gpu.warp<x>` splits
    the block's query rows between warps (split-Q), each with its own key
    loop and running state. Causal and window masks bound the key loop per
    query block (or warp); only blocks that a boundary crosses (and the tail)
    evaluate the element mask.
    Rows with no visible key give 0 and a logsumexp of `-inf`. For f16/bf16,
    P is rounded to the input type before `P * V`, as FlashAttention-2 does.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FALowerLinearAttention : Pass<"fa-lower-linear-attention"> {
  let summary = "Lower fa.linear_attention in the cheap order: Q (K^T V), causal by chunks";
  let description = [{
    Rewrites every `fa.linear_attention` so that no [Nq, Nk] tensor exists:

    * not causal: `KV = K^T V` ([D, Dv] per key/value head) and, with
      `normalize`, `z = sum_j K_j`, then `O = scale Q KV / (scale Q z +
      eps)`: O(N d Dv) instead of O(N^2 d);
    * causal: an `scf.for` over chunks of C query rows (the op's `chunk`,
      else the pass's `chunk`) carrying the state `S = sum_j gamma^(..) K_j^T
      V_j` ([D, Dv] per query head) and `z`: within a chunk the small
      [C, C] product with the causal mask and the decay, across chunks
      `scale gamma^(i + 1) Q_i S`, then `S <- gamma^C S + sum_j gamma^(C - 1
      - j) K_j^T V_j`. O(N C d + N d Dv).

    Everything accumulates in f32 and the output is rounded to V's type
    once, as in the reference (fa-decompose-attention), which it equals up
    to the order of the sums (docs/LinearAttention.md).
  }];
  let options = [
    Option<"chunk", "chunk", "int64_t", /*default=*/"64",
           "Query rows per chunk of a causal op without a `chunk` attribute">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FATileAttentionBackward : Pass<"fa-tile-attention-backward"> {
  let summary = "Lower fa.attention_backward to FlashAttention-2's tiled backward pass";
  let description = [{
    Rewrites every `fa.attention_backward` that carries a `tiling` (from
    `fa-select-tiles`, or written by hand) into FlashAttention-2's backward
    pass on tensors, by recomputation: `D = rowsum(dO * O)` first, then an
    `scf.forall` over (batch, kv head, key block) that walks the query heads
    of the group and the query blocks that see the key block, rebuilding
    `P = exp(S - L)` from the saved logsumexp and accumulating `dV += P^T dO`
    and `dK += dS^T Q` with `dS = P * (dP - D)`, `dP = dO V^T`. dQ has a
    pass of its own, an `scf.forall` over (batch, head, query block) around
    the key blocks it sees, so that no block adds into another's rows: the
    result is deterministic and needs no atomics, at the price of computing
    S, P and dP twice (docs/Tiling.md). Every tensor is tile-sized apart
    from the [B, Hq, Nq] row term D; causal and window masks skip whole
    blocks in both passes; rows whose logsumexp is `-inf` contribute zero.
    For f16/bf16, P and dS are rounded to the input type before the matmuls
    that read them, as FlashAttention-2 does. The bias gradient
    (`grad_mask`) gets a third grid over the bias's own tiles: each block
    walks what its tile broadcasts over (batch, heads, the key blocks its
    rows see, or the query blocks that see its keys) and sums dS, so it too
    is deterministic.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // FA_TRANSFORMS_TILING_PASSES_TD
