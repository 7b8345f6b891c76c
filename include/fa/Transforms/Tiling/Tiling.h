//===- Tiling.h - The tiled lowerings of the fa ops -------------*- C++ -*-===//
//
// Stage 3 (docs/Design.md): fa.attention and fa.attention_backward as tiled
// loop nests on tensors with an online softmax, by the tile sizes written on
// the op (#fa.tiling, from fa-select-tiles), and fa.linear_attention in its
// cheap order. The passes fa-tile-attention, fa-tile-attention-backward and
// fa-lower-linear-attention apply these to every op; a compiler with its own
// driver calls them, or adds the patterns.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_TILING_TILING_H
#define FA_TRANSFORMS_TILING_TILING_H

#include "fa/Dialect/FA/IR/FADialect.h"

// The dialects its passes load (their dependentDialects in Passes.td),
// which the pass classes name.
#include "fa/Dialect/FA/IR/FAOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::fa {

/// The stage's passes (Passes.td): their options and create functions.
#define GEN_PASS_DECL
#include "fa/Transforms/Tiling/Passes.h.inc"

/// Replaces `op` by FlashAttention's loop nest (an scf.forall over batch,
/// head and query block, an scf.for over key blocks with the running max
/// and sum) and returns its results. Fails, with the reason at `op`, when
/// the op has no tiling or a tiling this lowering cannot take
/// (tilingProblem), or when its pack_gqa would not be exact.
FailureOr<SmallVector<Value>> tileAttention(RewriterBase &rewriter,
                                            AttentionOp op);

/// Replaces `op` by FlashAttention-2's backward loop nests (dK and dV over
/// key blocks, dQ in a pass of its own, the bias gradient when asked) and
/// returns dQ, dK, dV (and dBias). Fails, with the reason at `op`, like
/// tileAttention.
FailureOr<SmallVector<Value>> tileAttentionBackward(RewriterBase &rewriter,
                                                    AttentionBackwardOp op);

/// Patterns that apply tileAttention and tileAttentionBackward to ops whose
/// tiling they can take (a match failure with the reason otherwise).
void populateTileAttentionPatterns(RewritePatternSet &patterns);

/// fa.linear_attention in the cheap order (fa-lower-linear-attention): Q (K^T
/// V), causal by chunks of `defaultChunk` rows unless the op says; an error
/// at the op where it cannot (a dynamic group size).
LogicalResult lowerLinearAttention(RewriterBase &rewriter, LinearAttentionOp op,
                                   int64_t defaultChunk);

} // namespace mlir::fa

#endif // FA_TRANSFORMS_TILING_TILING_H
