//===- Reference.h - The unfused reference of the fa ops --------*- C++ -*-===//
//
// Stage R (docs/Design.md): fa.attention, fa.attention_backward and
// fa.linear_attention as the unfused linalg computation they state
// (fa-decompose-attention): the oracle every numeric test compares with.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_REFERENCE_REFERENCE_H
#define FA_TRANSFORMS_REFERENCE_REFERENCE_H

#include "fa/Dialect/FA/IR/FADialect.h"

// The dialects its passes load (their dependentDialects in Passes.td),
// which the pass classes name.
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
#include "fa/Transforms/Reference/Passes.h.inc"

/// Adds the patterns that rewrite fa.attention into the unfused linalg
/// reference computation (what `fa-decompose-attention` applies).
void populateDecomposeAttentionPatterns(RewritePatternSet &patterns);

/// The reference of fa.linear_attention, in the quadratic order (also in
/// populateDecomposeAttentionPatterns).
void populateDecomposeLinearAttentionPatterns(RewritePatternSet &patterns);

} // namespace fa
} // namespace mlir

#endif // FA_TRANSFORMS_REFERENCE_REFERENCE_H
