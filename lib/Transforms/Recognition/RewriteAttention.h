//===- RewriteAttention.h - A match emitted as fa ops -----------*- C++ -*-===//
//
// Stage: recognition (rewriting). What fa-raise-attention emits for a match
// of the matchers. Private to the recognizer.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_REWRITEATTENTION_H
#define FA_TRANSFORMS_RECOGNITION_REWRITEATTENTION_H

#include "AttentionMatcher.h"
#include "LinearAttention.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::fa::recognition {

/// Emits fa.attention (and fa.attention_backward for a joint graph) for
/// `match` before its root, replaces the root (or the division a deferred
/// normalization ends with) and erases the ops that became dead; adds them
/// to `erased`.
void rewriteAttention(const AttentionMatch &match, RewriterBase &rewriter,
                      llvm::DenseSet<Operation *> &erased);

/// Emits fa.linear_attention for `linear` before the op it replaces (the
/// second product, or the division normalizing it), replaces that op and
/// erases what became dead; adds it to `erased`.
void rewriteLinearAttention(const LinearAttentionMatch &linear,
                            RewriterBase &rewriter,
                            llvm::DenseSet<Operation *> &erased);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_REWRITEATTENTION_H
