//===- StructuredView.h - Ops seen as linalg-style generics -----*- C++ -*-===//
//
// Stage: recognition (how it is found). Presents linalg and TOSA ops in one
// dialect-neutral form, the form of linalg.generic: an iteration space, one
// indexing map per operand and for the result, and a small tree saying what
// the scalar body computes. The attention matcher works only on this form,
// so that it checks axes the same way whatever dialect spelled them.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_STRUCTUREDVIEW_H
#define FA_TRANSFORMS_RECOGNITION_STRUCTUREDVIEW_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::fa::recognition {

/// What one node of a scalar body computes.
enum class ScalarKind {
  Input,    // the element of input `input`
  Init,     // the accumulator (reductions and contractions)
  Constant, // a compile-time scalar (`constant`)
  Add,
  Sub,
  Mul,
  Div,
  Max,    // maximumf / TOSA maximum: NaN propagates
  MaxNum, // maxnumf: NaN is ignored
  Exp,
  Log,
  Neg,
  Tanh,
  Select,      // (condition, on true, on false)
  ExtF,        // float widening
  TruncF,      // float narrowing
  BoolToFloat, // i1 to float (uitofp, tosa.cast from i1)
  Compare,     // a float comparison; `constant` holds its arith::CmpFPredicate
  Not,         // a boolean negation (tosa.logical_not)
  Other,       // anything else: never matched
};

/// One node of a scalar body. Operands index ScalarBody::nodes.
struct ScalarNode {
  ScalarKind kind = ScalarKind::Other;
  unsigned input = 0;
  double constant = 0;
  SmallVector<unsigned, 3> operands;
  /// The body value a linalg payload node was read from (null for TOSA
  /// and for inputs): a mask computed in the body is materialized from it.
  Value scalar;
};

/// An op that produces one ranked tensor, seen as a linalg.generic.
struct StructuredView {
  Operation *op = nullptr;
  Value result;
  unsigned numLoops = 0;
  /// Loops that are reduced (not in the result).
  SmallVector<bool> reductionLoops;
  /// Tensor inputs and the map from loops to each input's dims. A splat
  /// constant input is folded into the body as a Constant node instead.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> inputMaps;
  AffineMap resultMap;
  /// The accumulator's initial value when the body reads Init: a splat
  /// constant, or nullopt when unknown (not a constant fill). TOSA
  /// reductions have no explicit init: `implicitInit` is set instead.
  std::optional<double> initConstant;
  bool implicitInit = false;
  SmallVector<ScalarNode> nodes;
  unsigned root = 0;

  bool hasReduction() const;
  const ScalarNode &rootNode() const { return nodes[root]; }
  const ScalarNode &node(unsigned index) const { return nodes[index]; }
};

/// The role of each loop of a structured op, from the roles of its result's
/// dims read through `resultMap`; loops the result does not read (its
/// reductions) stay unset. Nullopt when a loop would get two roles or a
/// result dim is neither a loop nor written at index 0 (a static 1).
/// Shared by the matcher (roles are attention axes) and the length-mask
/// classifier (roles are what a dim means to the mask).
template <typename Role>
std::optional<SmallVector<std::optional<Role>>>
rolesOfLoops(AffineMap resultMap, ArrayRef<Role> resultRoles) {
  if (resultMap.getNumResults() != resultRoles.size())
    return std::nullopt;
  SmallVector<std::optional<Role>> loops(resultMap.getNumDims());
  for (auto [expr, role] : llvm::zip(resultMap.getResults(), resultRoles)) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      std::optional<Role> &slot = loops[dim.getPosition()];
      if (slot && *slot != role)
        return std::nullopt;
      slot = role;
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0)
      return std::nullopt;
  }
  return loops;
}

/// The roles of an operand's dims read through `map` from roled loops,
/// `readAtZero` for a dim read at index 0. Nullopt when the map reads an
/// unroled loop or is not a projection with constant-0 results.
template <typename Role>
std::optional<SmallVector<Role>>
rolesOfOperand(AffineMap map, ArrayRef<std::optional<Role>> loops,
               Role readAtZero) {
  SmallVector<Role> roles;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (!loops[dim.getPosition()])
        return std::nullopt;
      roles.push_back(*loops[dim.getPosition()]);
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0)
      return std::nullopt;
    roles.push_back(readAtZero);
  }
  return roles;
}

/// Returns the view of the op producing `value`, or nullopt when the op is
/// not one the recognizer understands (or `value` is a block argument).
std::optional<StructuredView> getStructuredView(Value value);

/// Human-readable name of a scalar kind, for remarks.
StringRef stringifyScalarKind(ScalarKind kind);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_STRUCTUREDVIEW_H
