//===- EmptyRowGuard.h - "Every key of the row is -inf" guards ---*- C++ -*-===//
//
// Stage: recognition. PyTorch's math SDPA path (since 2.5) calls
// `_safe_softmax`: where(all(x == -inf, dim=-1), 0, softmax(x)). A row whose
// every score is -inf (every key hidden) gives 0 instead of softmax's NaN,
// which is exactly fa.attention's empty-row rule, so the guard needs no
// fix-up. This file decides what a boolean tensor computes, in any
// spelling, and says when it is that guard (or its negation) over the
// softmax's own scores.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_EMPTYROWGUARD_H
#define FA_TRANSFORMS_RECOGNITION_EMPTYROWGUARD_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::fa::recognition {

/// A boolean tensor G that is a predicate of whole rows of `scores`:
/// G = all over `keyDim` of (x == -inf), or its negation, any over `keyDim`
/// of (x != -inf) (`negated`). NaN scores count as not -inf in both, as
/// `==` and `!=` treat them. `guardDims[k]` is the scores dim that G's dim
/// k holds, or -1 for a unit dim.
struct RowGuard {
  Value scores;
  int64_t keyDim = -1;
  SmallVector<int64_t, 4> guardDims;
  bool negated = false;
  /// The ops that compute G from the scores (comparison, reduction,
  /// negations, reshapes): part of the pattern once G is accepted.
  SmallVector<Operation *, 4> ops;
};

/// What `guard` computes, when it is such a predicate; otherwise nullopt
/// with `why` set. Spellings: tosa.reduce_all/reduce_any, linalg.reduce and
/// linalg.generic reductions (andi with a true start, ori with a false
/// start) of a comparison made in the reduction's body, on whole tensors
/// (arith.cmpf, tosa.equal) or in an elementwise generic; negations
/// (xori with true, tosa.logical_not) and unit-dim reshapes on the way.
std::optional<RowGuard> analyzeRowGuard(Value guard, std::string &why);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_EMPTYROWGUARD_H
