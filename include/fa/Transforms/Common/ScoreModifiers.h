//===- ScoreModifiers.h - score_mod, mask_mod and sinks ---------*- C++ -*-===//
//
// What every lowering does with fa.attention's score modifications: the
// score_mod and mask_mod regions are inlined where a score is formed (on
// tensors, on buffers or in one thread's registers alike: the verifier
// admits only side-effect-free scalar ops), and the sinks join the softmax
// as one more logit per row with no value. The reference lowering inlines
// the regions through the same helper, but applies the sinks by its own
// arithmetic (a max and a sum over the row, not an online state), so that a
// mistake in the online form shows up as a difference.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_SCOREMODIFIERS_H
#define FA_TRANSFORMS_COMMON_SCOREMODIFIERS_H

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Common/IndexMath.h"
#include "fa/Transforms/Common/TensorBuilders.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::fa {

/// Clones the ops of a score_mod or mask_mod block at `b`'s insertion point
/// with its arguments bound to `args`, and returns what its fa.yield
/// yields. `captures` (optional) maps values the region reads from above
/// to what they are where it is inlined: a tensor mapped to a buffer (in a
/// kernel) is read by memref.load where the region has tensor.extract.
Value inlineModifier(OpBuilder &b, Block *block, ValueRange args,
                     const IRMapping *captures = nullptr);

/// Applies `op`'s score_mod to `score` and its mask_mod as a visibility
/// condition, for the score of (batch, head, row, col): positions of the
/// query and the key in the sequence. Call right after forming the scaled
/// score, before MaskedScore::addMask (score_mod precedes the bias).
/// Without `withMaskMod`, only the score_mod (a tile the mask_mod is proved
/// to show whole, MaskModIntervals.h).
void applyScoreModifiers(MaskedScore &score, IndexMath &math,
                         AttentionOpInterface op, Value batch, Value head,
                         Value row, Value col,
                         const IRMapping *captures = nullptr,
                         bool withMaskMod = true);

/// The tensors `op`'s score_mod and mask_mod read from above (each once):
/// a kernel passes them as buffers (see inlineModifier's `captures`).
SmallVector<Value> capturedTensors(AttentionOpInterface op);

/// The sink logit of query head `head` in f32 (`sinks` is the op's [Hq]
/// operand, as a tensor or a buffer).
Value sinkLogit(IndexMath &math, Value sinks, Value head);

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_SCOREMODIFIERS_H
