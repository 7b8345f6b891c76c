//===- Tiling.h - The tiled lowerings of the fa ops -------------*- C++ -*-===//
//
// Stage 3 (docs/Design.md): fa.attention and fa.attention_backward as tiled
// loop nests on tensors with an online softmax, by the tile sizes written on
// the op (#fa.tiling, from fa-select-tiles). The passes fa-tile-attention
// and fa-tile-attention-backward apply these to every op; a compiler with
// its own driver calls them, or adds the patterns.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_TILING_TILING_H
#define FA_TRANSFORMS_TILING_TILING_H

#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::fa {

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

} // namespace mlir::fa

#endif // FA_TRANSFORMS_TILING_TILING_H
