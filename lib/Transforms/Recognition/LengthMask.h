//===- LengthMask.h - Padding masks that are per-sequence lengths -*- C++ -*-===//
//
// Stage: recognition. Serving frontends batch sequences of different lengths
// and hide each sequence's padding keys with a mask built from its length:
// `arange(Nk) < lengths[:, None]`, used by a select or turned into a bias
// (`(1 - m) * finfo.min`). When a mask is exactly "key j of sequence b is
// visible iff j < L[b]" for a runtime integer tensor L, fa.attention takes L
// as its `kv_lengths` operand instead, which lets the kernel stop at each
// sequence's last key block. Any other mask stays a mask.
//
// The proof is a symbolic evaluation of the mask's producers over the key
// index j and the length L: iota tensors and linalg.index on the key dim
// are j, an integer tensor read only along the sequence dim is L, a signed
// `j < L` (or its negation) is a step function, and every elementwise op
// after it is applied to the step's two values, rounded in the op's type.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_LENGTHMASK_H
#define FA_TRANSFORMS_RECOGNITION_LENGTHMASK_H

#include "AttentionMatcher.h"
#include "CausalMask.h"

#include <optional>
#include <string>

namespace mlir::fa::recognition {

/// Returns the lengths when `mask` (read with `labels`, meaning `meaning`)
/// hides exactly the keys j >= L[b] of sequence b, where b is the axis
/// `sequence` (null: the op has no batch axis of its own, B = 1), over
/// `keyLen` keys (dynamic allowed). Rows of
/// a length-0 sequence are empty; a bias must hide with -inf, or with the
/// lowest finite f32 (`meanOfValuesRows` is then set: such rows average V).
/// When the mask compares key positions with a length but is not exactly a
/// length mask, `why` says what differs (for a remark); it stays empty for
/// masks of any other kind.
std::optional<SequenceLengths>
classifyLengthMask(Value mask, ArrayRef<Axis> labels, MaskMeaning meaning,
                   int64_t keyLen, std::optional<Axis> sequence, bool &meanOfValuesRows,
                   std::string &why);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_LENGTHMASK_H
