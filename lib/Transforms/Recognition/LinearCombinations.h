//===- LinearCombinations.h - P·V over a sum of softmaxes -------*- C++ -*-===//
//
// Stage: recognition (normalization before matching). A contraction is
// linear in each operand, so P·V with P = a·P₁ + b·P₂ (differential
// attention's P₁ − λ·P₂, an average of two softmaxes) is a·(P₁·V) +
// b·(P₂·V): two attentions the matcher raises, combined elementwise by the
// same expression. See docs/Recognition.md ("Linearity of P·V").
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_LINEARCOMBINATIONS_H
#define FA_TRANSFORMS_RECOGNITION_LINEARCOMBINATIONS_H

#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::fa::recognition {

/// In `root` (a function), rewrites every linalg contraction one of whose
/// operands is an elementwise linalg op that is linear and homogeneous in
/// two or more tensors each computed from an exponential (its body a sum
/// of those tensors times factors that do not depend on them, every
/// factor read at a single element or at no position of the contracted
/// dims), into one contraction per tensor and an elementwise op that
/// combines their results by the same body. Returns how many contractions
/// were distributed.
unsigned distributeOverLinearCombinations(Operation *root);

/// Why a linalg contraction whose operand combines two or more tensors
/// computed from exponentials is not distributed over the combination (for
/// the recognizer's remark); empty when it has no such operand or would be
/// distributed.
std::string whyNotDistributed(Operation *contraction);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_LINEARCOMBINATIONS_H
