//===- EmptyRowGuard.cpp - "Every key of the row is -inf" guards ----------===//
//
// Stage: recognition. See EmptyRowGuard.h. The guard is read bottom-up:
// an element predicate (is x -inf, or is it not), a reduction of it over
// one dim (all, any), then negations and unit-dim reshapes. Only the two
// combinations that mean "every key is -inf" (all of ==, or not any of !=)
// are accepted; which dims the result holds is tracked through every step,
// so the caller can check the reduced dim is the key dim and the guard is
// read per row.
//
//===----------------------------------------------------------------------===//

#include "EmptyRowGuard.h"

#include "Normalization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fa::recognition;

namespace {

/// An element predicate on `x`: x == -inf (`isNegInf`) or x != -inf, with
/// the predicate's dims equal to x's.
struct ElementPredicate {
  Value x;
  bool isNegInf = true;
  /// The ops between x and the predicate tensor.
  SmallVector<Operation *, 2> ops;
};

bool isNegativeInfinity(Value value) {
  std::optional<double> constant = evaluateConstant(value);
  return constant && std::isinf(*constant) && *constant < 0;
}

/// The element predicate of `lhs predicate rhs` when one side is -inf.
/// Ordered equality and `x <= -inf` are "x is -inf" (false for NaN);
/// unordered inequality and `x > -inf` unordered are "x is not -inf" (true
/// for NaN). Anything else (ueq: NaN counts as -inf) is not one of them.
std::optional<bool> classifyComparison(arith::CmpFPredicate predicate,
                                       bool infinityOnLeft) {
  using P = arith::CmpFPredicate;
  if (infinityOnLeft) {
    // -inf p x  <=>  x p' -inf.
    switch (predicate) {
    case P::OGE:
      predicate = P::OLE;
      break;
    case P::ULT:
      predicate = P::UGT;
      break;
    case P::OEQ:
    case P::UNE:
      break;
    default:
      return std::nullopt;
    }
  }
  switch (predicate) {
  case P::OEQ:
  case P::OLE:
    return true;
  case P::UNE:
  case P::UGT:
    return false;
  default:
    return std::nullopt;
  }
}

/// `compare` as a predicate on `x` (a value of the comparison).
std::optional<std::pair<Value, bool>> comparisonOn(arith::CmpFOp compare) {
  bool infinityOnLeft = isNegativeInfinity(compare.getLhs());
  if (!infinityOnLeft && !isNegativeInfinity(compare.getRhs()))
    return std::nullopt;
  std::optional<bool> isNegInf =
      classifyComparison(compare.getPredicate(), infinityOnLeft);
  if (!isNegInf)
    return std::nullopt;
  return std::make_pair(infinityOnLeft ? compare.getRhs() : compare.getLhs(),
                        *isNegInf);
}

/// The input operand a linalg body's block argument reads, with its map.
std::optional<std::pair<Value, AffineMap>> linalgInput(Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument)
    return std::nullopt;
  auto op = dyn_cast_or_null<linalg::LinalgOp>(
      argument.getOwner()->getParentOp());
  if (!op || argument.getOwner() != op.getBlock())
    return std::nullopt;
  OpOperand &operand = op->getOpOperand(argument.getArgNumber());
  if (!op.isDpsInput(&operand))
    return std::nullopt;
  return std::make_pair(operand.get(), op.getMatchingIndexingMap(&operand));
}

Value negationOf(Operation *def);

/// An i1 tensor computed elementwise from one float tensor x (same dims).
std::optional<ElementPredicate> elementPredicate(Value tensor,
                                                 unsigned depth = 0) {
  Operation *def = tensor.getDefiningOp();
  if (!def || depth > 8)
    return std::nullopt;
  // not (x == -inf) is x != -inf (true for NaN), and back.
  if (Value operand = negationOf(def)) {
    std::optional<ElementPredicate> inner =
        elementPredicate(operand, depth + 1);
    if (inner) {
      inner->isNegInf = !inner->isNegInf;
      inner->ops.push_back(def);
    }
    return inner;
  }
  if (auto compare = dyn_cast<arith::CmpFOp>(def)) {
    if (std::optional<std::pair<Value, bool>> on = comparisonOn(compare))
      return ElementPredicate{on->first, on->second, {def}};
    return std::nullopt;
  }
  if (auto equal = dyn_cast<tosa::EqualOp>(def)) {
    // The constant may broadcast; x must have the predicate's shape.
    auto shape = cast<ShapedType>(tensor.getType()).getShape();
    Value lhs = equal.getInput1(), rhs = equal.getInput2();
    if (isNegativeInfinity(rhs) &&
        cast<ShapedType>(lhs.getType()).getShape() == shape)
      return ElementPredicate{lhs, true, {def}};
    if (isNegativeInfinity(lhs) &&
        cast<ShapedType>(rhs.getType()).getShape() == shape)
      return ElementPredicate{rhs, true, {def}};
    return std::nullopt;
  }
  auto generic = dyn_cast<linalg::GenericOp>(def);
  if (!generic || generic.getNumReductionLoops() != 0 ||
      generic->getNumResults() != 1 ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity())
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(generic.getBlock()->getTerminator());
  auto compare = yield.getOperand(0).getDefiningOp<arith::CmpFOp>();
  if (!compare)
    return std::nullopt;
  std::optional<std::pair<Value, bool>> on = comparisonOn(compare);
  if (!on)
    return std::nullopt;
  std::optional<std::pair<Value, AffineMap>> input = linalgInput(on->first);
  if (!input || !input->second.isIdentity())
    return std::nullopt;
  return ElementPredicate{input->first, on->second, {def}};
}

/// all (andi, from true) or any (ori, from false) of a boolean reduction
/// body's element, given the accumulator block argument.
std::optional<bool> combinerIsAll(Value yielded, Value accumulator,
                                  Value &element) {
  Operation *def = yielded.getDefiningOp();
  if (!isa_and_nonnull<arith::AndIOp, arith::OrIOp>(def))
    return std::nullopt;
  if (def->getOperand(0) == accumulator)
    element = def->getOperand(1);
  else if (def->getOperand(1) == accumulator)
    element = def->getOperand(0);
  else
    return std::nullopt;
  return isa<arith::AndIOp>(def);
}

/// The constant an i1 init tensor holds (a fill or a splat constant).
std::optional<bool> boolInit(Value init) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    init = fill.getInputs()[0];
  APInt value;
  if (matchPattern(init, m_ConstantInt(&value)))
    return !value.isZero();
  DenseIntElementsAttr dense;
  if (matchPattern(init, m_Constant(&dense)) && dense.isSplat())
    return !dense.getSplatValue<APInt>().isZero();
  return std::nullopt;
}

struct Reduced {
  ElementPredicate predicate;
  /// The reduction and, when made before it, the comparison.
  SmallVector<Operation *, 2> ops;
  bool all = true;
  int64_t keyDim = -1;
  SmallVector<int64_t, 4> guardDims;
};

std::optional<Reduced> reduction(Value tensor, std::string &why) {
  Operation *def = tensor.getDefiningOp();
  if (!def) {
    why = "the guard is a function argument";
    return std::nullopt;
  }
  auto keepDimExcept = [](int64_t rank, int64_t axis) {
    SmallVector<int64_t, 4> dims;
    for (int64_t dim = 0; dim < rank; ++dim)
      dims.push_back(dim == axis ? -1 : dim);
    return dims;
  };
  if (isa<tosa::ReduceAllOp, tosa::ReduceAnyOp>(def)) {
    auto axis = def->getAttrOfType<IntegerAttr>("axis").getInt();
    std::optional<ElementPredicate> predicate =
        elementPredicate(def->getOperand(0));
    if (!predicate) {
      why = "the guard reduces a tensor that is not a comparison with -inf";
      return std::nullopt;
    }
    int64_t rank = cast<ShapedType>(def->getOperand(0).getType()).getRank();
    return Reduced{*predicate, {def},
                   isa<tosa::ReduceAllOp>(def), axis,
                   keepDimExcept(rank, axis)};
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(def);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 1 ||
      linalgOp.getNumDpsInits() != 1 || linalgOp.getNumReductionLoops() != 1 ||
      !isa<linalg::GenericOp, linalg::ReduceOp>(def)) {
    why = "the guard is not a reduction over one dim";
    return std::nullopt;
  }
  OpOperand *input = linalgOp.getDpsInputOperand(0);
  OpOperand *init = linalgOp.getDpsInitOperand(0);
  AffineMap inputMap = linalgOp.getMatchingIndexingMap(input);
  AffineMap resultMap = linalgOp.getMatchingIndexingMap(init);
  if (!inputMap.isPermutation()) {
    why = "the guard's reduction does not read each element once";
    return std::nullopt;
  }
  std::optional<bool> start = boolInit(init->get());
  Block *body = linalgOp.getBlock();
  Value element;
  std::optional<bool> all = combinerIsAll(
      body->getTerminator()->getOperand(0),
      body->getArgument(init->getOperandNumber()), element);
  if (!all || !start || *start != *all) {
    why = "the guard's reduction is not all (and from true) or any (or from "
          "false)";
    return std::nullopt;
  }
  // The element: the input itself (a comparison made before), or a
  // comparison of the input made in the body.
  std::optional<ElementPredicate> predicate;
  Value inputArg = body->getArgument(input->getOperandNumber());
  if (element == inputArg) {
    predicate = elementPredicate(input->get());
  } else if (auto compare = element.getDefiningOp<arith::CmpFOp>();
             compare && compare->getBlock() == body) {
    std::optional<std::pair<Value, bool>> on = comparisonOn(compare);
    if (on && on->first == inputArg)
      predicate = ElementPredicate{input->get(), on->second};
  }
  if (!predicate) {
    why = "the guard reduces a tensor that is not a comparison with -inf";
    return std::nullopt;
  }
  unsigned reductionLoop = 0;
  for (auto [loop, type] : llvm::enumerate(linalgOp.getIteratorTypesArray()))
    if (type == utils::IteratorType::reduction)
      reductionLoop = loop;
  Reduced reduced{*predicate, {def}, *all, -1, {}};
  // Dims of the input (= of x) by loop.
  SmallVector<int64_t> dimOfLoop(inputMap.getNumDims(), -1);
  for (auto [dim, expr] : llvm::enumerate(inputMap.getResults()))
    dimOfLoop[cast<AffineDimExpr>(expr).getPosition()] = dim;
  reduced.keyDim = dimOfLoop[reductionLoop];
  for (AffineExpr expr : resultMap.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      reduced.guardDims.push_back(dimOfLoop[dim.getPosition()]);
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0) {
      why = "the guard's reduction writes its result through a map that is "
            "not a projection";
      return std::nullopt;
    }
    reduced.guardDims.push_back(-1);
  }
  return reduced;
}

bool isTrueConstant(Value value) {
  APInt bit;
  if (matchPattern(value, m_ConstantInt(&bit)))
    return bit.isOne();
  DenseIntElementsAttr dense;
  return matchPattern(value, m_Constant(&dense)) && dense.isSplat() &&
         dense.getSplatValue<APInt>().isOne();
}

/// The operand of a boolean negation, or null.
Value negationOf(Operation *def) {
  if (auto notOp = dyn_cast<tosa::LogicalNotOp>(def))
    return notOp.getInput1();
  if (auto xorOp = dyn_cast<arith::XOrIOp>(def)) {
    if (isTrueConstant(xorOp.getRhs()))
      return xorOp.getLhs();
    if (isTrueConstant(xorOp.getLhs()))
      return xorOp.getRhs();
    return Value();
  }
  auto generic = dyn_cast<linalg::GenericOp>(def);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumReductionLoops() != 0 || generic->getNumResults() != 1 ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return Value();
  Value yielded = generic.getBlock()->getTerminator()->getOperand(0);
  auto xorOp = yielded.getDefiningOp<arith::XOrIOp>();
  if (!xorOp)
    return Value();
  Value arg = generic.getBlock()->getArgument(0);
  if ((xorOp.getLhs() == arg && isTrueConstant(xorOp.getRhs())) ||
      (xorOp.getRhs() == arg && isTrueConstant(xorOp.getLhs())))
    return generic.getDpsInputs()[0];
  return Value();
}

/// Dims of `result` in terms of `source`'s when a reshape only inserts or
/// removes unit dims: the non-unit dims keep their order.
std::optional<SmallVector<int64_t, 4>>
throughUnitReshape(ArrayRef<int64_t> sourceDims, ShapedType source,
                   ShapedType result) {
  if (!source.hasStaticShape() || !result.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t, 4> nonUnit;
  for (auto [dim, size] : llvm::enumerate(source.getShape()))
    if (size != 1)
      nonUnit.push_back(sourceDims[dim]);
  SmallVector<int64_t, 4> dims;
  size_t next = 0;
  for (int64_t size : result.getShape()) {
    if (size == 1) {
      dims.push_back(-1);
      continue;
    }
    if (next >= nonUnit.size())
      return std::nullopt;
    dims.push_back(nonUnit[next++]);
  }
  if (next != nonUnit.size())
    return std::nullopt;
  return dims;
}

} // namespace

std::optional<RowGuard>
mlir::fa::recognition::analyzeRowGuard(Value guard, std::string &why) {
  // Peel negations and unit reshapes down to the reduction, then replay
  // the reshapes' dim maps from the reduction up.
  bool negated = false;
  SmallVector<std::pair<ShapedType, ShapedType>> reshapes;
  SmallVector<Operation *, 4> ops;
  Value current = guard;
  for (unsigned depth = 0; depth < 16; ++depth) {
    Operation *def = current.getDefiningOp();
    if (!def)
      break;
    if (Value operand = negationOf(def)) {
      ops.push_back(def);
      negated = !negated;
      current = operand;
      continue;
    }
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tosa::ReshapeOp>(
            def)) {
      ops.push_back(def);
      reshapes.emplace_back(cast<ShapedType>(def->getOperand(0).getType()),
                            cast<ShapedType>(current.getType()));
      current = def->getOperand(0);
      continue;
    }
    break;
  }
  std::optional<Reduced> reduced = reduction(current, why);
  if (!reduced)
    return std::nullopt;
  SmallVector<int64_t, 4> dims = reduced->guardDims;
  for (auto [source, result] : llvm::reverse(reshapes)) {
    std::optional<SmallVector<int64_t, 4>> next =
        throughUnitReshape(dims, source, result);
    if (!next) {
      why = "the guard is reshaped other than by inserting or removing unit "
            "dims";
      return std::nullopt;
    }
    dims = std::move(*next);
  }
  // all(x == -inf) is the guard; not any(x != -inf) is the same guard.
  bool everyKeyNegInf = reduced->all && reduced->predicate.isNegInf;
  bool someKeyVisible = !reduced->all && !reduced->predicate.isNegInf;
  if (!everyKeyNegInf && !someKeyVisible) {
    why = reduced->all ? "the guard asks whether every key is not -inf"
                       : "the guard asks whether some key is -inf";
    return std::nullopt;
  }
  RowGuard result;
  result.scores = reduced->predicate.x;
  result.keyDim = reduced->keyDim;
  result.guardDims = std::move(dims);
  result.negated = negated != someKeyVisible;
  result.ops = std::move(ops);
  llvm::append_range(result.ops, reduced->ops);
  llvm::append_range(result.ops, reduced->predicate.ops);
  return result;
}
