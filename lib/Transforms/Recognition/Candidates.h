//===- Candidates.h - Where attention may be -------------------*- C++ -*-===//
//
// Stage: recognition (how it is found). The matcher starts at a P·V
// contraction and walks back to a softmax a few elementwise ops up. So that
// no attention is missed silently, this file looks the other way: every
// exp and every linalg.softmax whose result reaches a contraction without
// passing a reduction is a candidate (and every call to a function that
// computes one, which inlineAttentionHelpers did not inline), and fa-raise-attention either raises
// it or says why not (with explain=true), including when the walk back from
// the contraction never found it.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_CANDIDATES_H
#define FA_TRANSFORMS_RECOGNITION_CANDIDATES_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::fa::recognition {

/// An exp or softmax (`source`) whose result reaches `contraction` through
/// ops that are not reductions.
struct SoftmaxUse {
  Operation *source = nullptr;
  Operation *contraction = nullptr;
  /// Why the walk back from the contraction does not find the source, when
  /// it cannot: the first op on the way it does not look through, or that
  /// the way is longer than it follows. Empty when it can.
  std::string unreachedBecause;
  /// Whether `source` is a call to a function that computes an exponential
  /// (unreachedBecause names it).
  bool behindCall = false;
};

/// Every exp or softmax in `scope` that reaches a contraction.
SmallVector<SoftmaxUse> findSoftmaxUses(Operation *scope);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_CANDIDATES_H
