//===- CausalMask.h - Masks that are exactly causal --------------*- C++ -*-===//
//
// Stage: recognition. Frontends state causality as a mask: a constant
// triangular tensor, or one computed from index comparisons (iota). When a
// mask is exactly causal, fa.attention says so with its `causal` attribute,
// which lets the kernel skip whole tiles; a mask that is only almost causal
// stays an explicit mask.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_CAUSALMASK_H
#define FA_TRANSFORMS_RECOGNITION_CAUSALMASK_H

#include "AttentionMatcher.h"
#include "fa/Dialect/FA/IR/FADialect.h"

namespace mlir::fa::recognition {

/// How a mask tensor hides keys.
enum class MaskMeaning {
  Keep, // i1, true = visible
  Hide, // i1, true = hidden
  Bias, // float, -inf = hidden, 0 = visible (anything else: not causal)
  Factor // float multiplied into the weights: 1 = visible, 0 = hidden
};

/// Whether a mask element of value `value` shows its key under `meaning`:
/// a keep-mask shows where nonzero, a hide-mask where zero, a bias where 0
/// and hides where -inf; any other bias value neither shows nor hides
/// (nullopt).
std::optional<bool> maskShows(MaskMeaning meaning, double value);

/// The values of `mask` at compile time, in row-major order: a constant, or
/// a linalg.generic computed from linalg.index only. Nullopt otherwise.
std::optional<SmallVector<double>> maskValues(Value mask);

/// For a mask computed by one linalg.generic from linalg.index alone (too
/// large to evaluate, say): the offset c when the keys it shows are exactly
/// `k <= q + c`, read from its body (a conjunction of comparisons of the
/// query and key index, each plus a constant), without evaluating it.
std::optional<int64_t> symbolicUpperBand(Value mask, ArrayRef<Axis> labels,
                                         MaskMeaning meaning);

/// Returns the alignment when `mask`, read with `labels` over scores of
/// `queryLen` x `keyLen`, hides exactly the keys j > i + delta of a causal
/// mask (the same for every batch entry). Needs the mask's values at compile
/// time: a constant, or a linalg.generic computed from linalg.index only.
std::optional<DiagonalAlignment> classifyCausalMask(Value mask,
                                                    ArrayRef<Axis> labels,
                                                    MaskMeaning meaning,
                                                    int64_t queryLen,
                                                    int64_t keyLen);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_CAUSALMASK_H
