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

#include "Common/IndexMath.h"
#include "Common/TensorBuilders.h"
#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::fa {

/// Clones the ops of a score_mod or mask_mod block at `b`'s insertion point
/// with its arguments bound to `args`, and returns what its fa.yield
/// yields. `captures` (optional) maps values the region reads from above
/// to what they are where it is inlined: a tensor mapped to a buffer (in a
/// kernel) is read by memref.load where the region has tensor.extract.
Value inlineModifier(OpBuilder &b, Block *block, ValueRange args,
                     const IRMapping *captures = nullptr);

/// Inlines a score_mod block as inlineModifier does and differentiates it
/// in the score, forward mode, op by op: returns (f(s), f'(s)) for
/// `args` = (s, b, h, q, k). The ops with a rule are those
/// fa::hasScoreDerivative names (fa.attention_backward's verifier refuses
/// the others); a max, min, select or abs takes the derivative of the side
/// it picks. Fails, with an error at the op, on an op without a rule.
FailureOr<std::pair<Value, Value>>
differentiateScoreMod(OpBuilder &b, Block *block, ValueRange args,
                      const IRMapping *captures = nullptr);

/// Applies `op`'s score_mod to `score` and its mask_mod as a visibility
/// condition, for the score of (batch, head, row, col): positions of the
/// query and the key in the sequence. Call right after forming the scaled
/// score, before MaskedScore::addMask (score_mod precedes the bias).
/// Without `withMaskMod`, only the score_mod (a tile the mask_mod is proved
/// to show whole, MaskModIntervals.h). With `slope`, also sets it to the
/// score_mod's derivative f'(s) in the scaled score (left alone without a
/// score_mod: the caller's 1), for the backward pass.
void applyScoreModifiers(MaskedScore &score, IndexMath &math,
                         AttentionOpInterface op, Value batch, Value head,
                         Value row, Value col,
                         const IRMapping *captures = nullptr,
                         bool withMaskMod = true, Value *slope = nullptr);

/// The gradient of the scaled score from that of the modified one,
/// `gradScore * slope` (the chain rule through the score_mod), 0 where
/// `gradScore` is 0: a hidden key's f'(s) may be inf or NaN (log of a
/// negative score), and autodiff of `where(visible, f(s), -inf)` gives it 0.
Value throughScoreMod(OpBuilder &b, Location loc, Value gradScore, Value slope);

/// The tensors `op`'s score_mod and mask_mod read from above (each once):
/// a kernel passes them as buffers (see inlineModifier's `captures`).
SmallVector<Value> capturedTensors(AttentionOpInterface op);

/// The sink logit of query head `head` in f32 (`sinks` is the op's [Hq]
/// operand, as a tensor or a buffer).
Value sinkLogit(IndexMath &math, Value sinks, Value head);

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_SCOREMODIFIERS_H
