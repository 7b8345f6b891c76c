//===- Recognition.h - The recognizer of fa-opt -----------------*- C++ -*-===//
//
// Stage 1 (docs/Design.md): attention as frontends write it (linalg, TOSA,
// arith and math on tensors) raised into fa.attention, fa.attention_backward
// and fa.linear_attention: fa-normalize-frontend, fa-raise-attention,
// fa-fold-masks-into-modifiers, and the recognizer as a pattern for a
// compiler that runs its own driver.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_RECOGNITION_H
#define FA_TRANSFORMS_RECOGNITION_RECOGNITION_H

#include "fa/Dialect/FA/IR/FADialect.h"

// The dialects its passes load (their dependentDialects in Passes.td),
// which the pass classes name.
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
class RewritePatternSet;
class RewriterBase;

namespace fa {

/// The stage's passes (Passes.td): their options and create functions.
#define GEN_PASS_DECL
#include "fa/Transforms/Recognition/Passes.h.inc"

class AttentionOpInterface;

/// Adds the recognizer of `fa-raise-attention` as a pattern, for a compiler
/// that runs it in its own driver; refusals are match failures carrying the
/// reason (the pass adds remarks and counts on top). For example:
///
///   RewritePatternSet patterns(context);
///   fa::populateRaiseAttentionPatterns(patterns);
///   (void)applyPatternsGreedily(module, std::move(patterns));
void populateRaiseAttentionPatterns(RewritePatternSet &patterns);

/// What fa-fold-masks-into-modifiers does to one fa.attention or
/// fa.attention_backward: the computation of its mask operand becomes its
/// score_mod (a float mask) or mask_mod (an i1 mask) and the operand is
/// dropped. Fails, with the reason in `why` and the op unchanged, where the
/// mask is not computed from positions and tensors smaller than itself, or
/// (backward) where the op computes the mask's gradient.
LogicalResult foldMaskIntoModifiers(RewriterBase &rewriter,
                                    AttentionOpInterface op, std::string &why);

} // namespace fa
} // namespace mlir

#endif // FA_TRANSFORMS_RECOGNITION_RECOGNITION_H
