//===- ElementwiseUnderReshapes.h - Collapsed views -------------*- C++ -*-===//
//
// Stage: recognition (normalization before matching). Frontends add
// biases to a tensor through a finer view of it: SAM's decomposed
// relative positions add a [B, qh, qw, kh, 1] and a [B, qh, qw, 1, kw]
// term to the scores viewed as [B, qh, qw, kh, kw] and collapse the sum
// back to [B, N, N]. The same elementwise ops on the collapsed view, with
// those terms broadcast to the full view and collapsed alike, compute the
// same values element for element (a collapse only renames positions), so
// the matcher meets biases on the scores as it does everywhere else. See
// docs/Recognition.md.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_ELEMENTWISEUNDERRESHAPES_H
#define FA_TRANSFORMS_RECOGNITION_ELEMENTWISEUNDERRESHAPES_H

#include "mlir/IR/Operation.h"

namespace mlir::fa::recognition {

/// In `root` (a function), rewrites every tensor.collapse_shape of a chain
/// of elementwise linalg.generic ops (all loops parallel, static shapes,
/// no linalg.index, each used once) that starts at a tensor.expand_shape
/// with the same reassociation: each op is computed on the collapsed
/// shape, the chain on the expand's source, every other operand broadcast
/// to the expanded shape and collapsed. Operands computed from the chain
/// (a reduction of it broadcast back, as a softmax's max is) are not
/// rewritten: materializing them would spell a reduction as a copy.
/// Returns how many collapses were rewritten.
unsigned computeElementwiseUnderReshapes(Operation *root);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_ELEMENTWISEUNDERRESHAPES_H
