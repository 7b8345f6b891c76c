//===- CausalMask.cpp - Masks that are exactly causal ---------------------===//
//
// Stage: recognition. Evaluates a compile-time mask element by element (from
// its constant, or by interpreting an index-only linalg.generic body) and
// compares it with the two causal alignments.
//
//===----------------------------------------------------------------------===//

#include "CausalMask.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::recognition;

namespace {

/// Masks larger than this are not evaluated (they stay explicit masks).
constexpr int64_t kMaxEvaluatedElements = 1 << 22;

/// Element values of a constant mask, row-major, as doubles (i1: 0 or 1).
std::optional<SmallVector<double>> constantValues(Value mask) {
  DenseElementsAttr attr;
  if (auto constant = mask.getDefiningOp<arith::ConstantOp>())
    attr = dyn_cast<DenseElementsAttr>(constant.getValue());
  else if (auto constant = mask.getDefiningOp<tosa::ConstOp>())
    attr = dyn_cast<DenseElementsAttr>(constant.getValues());
  if (!attr || attr.getNumElements() > kMaxEvaluatedElements)
    return std::nullopt;
  SmallVector<double> values;
  values.reserve(attr.getNumElements());
  if (attr.getElementType().isInteger(1)) {
    for (bool value : attr.getValues<bool>())
      values.push_back(value);
    return values;
  }
  if (!isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  for (APFloat value : attr.getValues<APFloat>()) {
    bool losesInfo = false;
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    values.push_back(value.convertToDouble());
  }
  return values;
}

/// Interprets the body of a linalg.generic at one point of its iteration
/// space: its inputs are tensors whose values are known at compile time
/// (read through their indexing maps), the rest is integer and float
/// arithmetic on linalg.index (an iota comparison, a decay table
/// gamma^(i - j)). Float arithmetic is done in double.
class BodyInterpreter {
public:
  BodyInterpreter(linalg::GenericOp op,
                  SmallVector<SmallVector<double>> inputValues)
      : op(op), inputValues(std::move(inputValues)) {
    for (OpOperand *input : op.getDpsInputOperands()) {
      maps.push_back(op.getMatchingIndexingMap(input));
      shapes.push_back(
          SmallVector<int64_t>(cast<ShapedType>(input->get().getType())
                                   .getShape()));
    }
  }

  std::optional<double> evaluate(ArrayRef<int64_t> point) {
    values.clear();
    Block &body = op.getRegion().front();
    for (auto [index, values] : llvm::enumerate(inputValues)) {
      // The input's element at the point, read through its map.
      int64_t linear = 0;
      for (auto [dim, expr] : llvm::enumerate(maps[index].getResults())) {
        int64_t position = 0;
        if (auto loop = dyn_cast<AffineDimExpr>(expr))
          position = point[loop.getPosition()];
        else if (auto constant = dyn_cast<AffineConstantExpr>(expr))
          position = constant.getValue();
        else
          return std::nullopt;
        linear = linear * shapes[index][dim] + position;
      }
      this->values[body.getArgument(index)] = values[linear];
    }
    for (Operation &nested : body) {
      if (auto yield = dyn_cast<linalg::YieldOp>(nested)) {
        auto it = values.find(yield.getOperand(0));
        if (it == values.end())
          return std::nullopt;
        return it->second;
      }
      if (nested.getNumResults() != 1)
        return std::nullopt;
      std::optional<double> result = step(nested, point);
      if (!result)
        return std::nullopt;
      values[nested.getResult(0)] = roundTo(nested.getResult(0).getType(),
                                            *result);
    }
    return std::nullopt;
  }

private:
  /// A float result rounded to its type, as the program computes it (a
  /// comparison of f32 values must see the f32 values, not wider ones).
  static double roundTo(Type type, double value) {
    auto floatType = dyn_cast<FloatType>(type);
    if (!floatType || floatType.isF64())
      return value;
    APFloat rounded(value);
    bool losesInfo = false;
    rounded.convert(floatType.getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
    rounded.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    return rounded.convertToDouble();
  }

  std::optional<double> operand(Operation &nested, unsigned index) {
    Value value = nested.getOperand(index);
    auto it = values.find(value);
    if (it != values.end())
      return it->second;
    // A constant captured from above.
    if (auto constant = value.getDefiningOp<arith::ConstantOp>())
      return scalar(constant.getValue());
    return std::nullopt;
  }

  static std::optional<double> scalar(Attribute attr) {
    if (auto integer = dyn_cast<IntegerAttr>(attr))
      return integer.getType().isInteger(1)
                 ? static_cast<double>(integer.getValue().getZExtValue())
                 : static_cast<double>(integer.getValue().getSExtValue());
    if (auto floating = dyn_cast<FloatAttr>(attr))
      return floating.getValueAsDouble();
    return std::nullopt;
  }

  std::optional<double> step(Operation &nested, ArrayRef<int64_t> point) {
    auto unary = [&](auto fn) -> std::optional<double> {
      std::optional<double> x = operand(nested, 0);
      if (!x)
        return std::nullopt;
      return fn(*x);
    };
    auto binary = [&](auto fn) -> std::optional<double> {
      std::optional<double> lhs = operand(nested, 0), rhs = operand(nested, 1);
      if (!lhs || !rhs)
        return std::nullopt;
      return fn(*lhs, *rhs);
    };
    auto same = [](double x) { return x; };
    return llvm::TypeSwitch<Operation *, std::optional<double>>(&nested)
        .Case([&](linalg::IndexOp index) -> std::optional<double> {
          return static_cast<double>(point[index.getDim()]);
        })
        .Case([&](arith::ConstantOp constant) {
          return scalar(constant.getValue());
        })
        .Case<arith::IndexCastOp, arith::ExtSIOp, arith::SIToFPOp,
              arith::ExtFOp, arith::TruncFOp>(
            [&](Operation *) { return unary(same); })
        .Case([&](arith::UIToFPOp cast) -> std::optional<double> {
          // Only from i1 (a keep-mask as 0 or 1): wider unsigned values
          // would need their width.
          if (!cast.getIn().getType().isInteger(1))
            return std::nullopt;
          return unary(same);
        })
        .Case([&](arith::ExtUIOp cast) -> std::optional<double> {
          if (!cast.getIn().getType().isInteger(1))
            return std::nullopt;
          return unary(same);
        })
        .Case<arith::AddIOp, arith::AddFOp>([&](Operation *) {
          return binary([](double a, double b) { return a + b; });
        })
        .Case<arith::SubIOp, arith::SubFOp>([&](Operation *) {
          return binary([](double a, double b) { return a - b; });
        })
        .Case<arith::MulIOp, arith::MulFOp>([&](Operation *) {
          return binary([](double a, double b) { return a * b; });
        })
        .Case([&](arith::DivFOp) {
          return binary([](double a, double b) { return a / b; });
        })
        .Case([&](arith::NegFOp) { return unary([](double x) { return -x; }); })
        .Case([&](math::ExpOp) {
          return unary([](double x) { return std::exp(x); });
        })
        .Case([&](math::LogOp) {
          return unary([](double x) { return std::log(x); });
        })
        .Case([&](math::AbsFOp) {
          return unary([](double x) { return std::fabs(x); });
        })
        .Case([&](math::PowFOp) {
          return binary([](double a, double b) { return std::pow(a, b); });
        })
        .Case([&](arith::MaximumFOp) {
          return binary([](double a, double b) {
            return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
          });
        })
        .Case([&](arith::MinimumFOp) {
          return binary([](double a, double b) {
            return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
          });
        })
        .Case([&](arith::AndIOp) {
          return binary([](double a, double b) { return double(a && b); });
        })
        .Case([&](arith::OrIOp) {
          return binary([](double a, double b) { return double(a || b); });
        })
        .Case([&](arith::XOrIOp) {
          return binary([](double a, double b) { return double(a != b); });
        })
        .Case([&](arith::CmpIOp cmp) -> std::optional<double> {
          std::optional<double> lhs = operand(nested, 0),
                                rhs = operand(nested, 1);
          if (!lhs || !rhs)
            return std::nullopt;
          using P = arith::CmpIPredicate;
          switch (cmp.getPredicate()) {
          case P::eq:
            return double(*lhs == *rhs);
          case P::ne:
            return double(*lhs != *rhs);
          case P::slt:
          case P::ult:
            return double(*lhs < *rhs);
          case P::sle:
          case P::ule:
            return double(*lhs <= *rhs);
          case P::sgt:
          case P::ugt:
            return double(*lhs > *rhs);
          case P::sge:
          case P::uge:
            return double(*lhs >= *rhs);
          }
          return std::nullopt;
        })
        .Case([&](arith::CmpFOp cmp) -> std::optional<double> {
          std::optional<double> lhs = operand(nested, 0),
                                rhs = operand(nested, 1);
          if (!lhs || !rhs || std::isnan(*lhs) || std::isnan(*rhs))
            return std::nullopt;
          using P = arith::CmpFPredicate;
          switch (cmp.getPredicate()) {
          case P::OEQ:
          case P::UEQ:
            return double(*lhs == *rhs);
          case P::ONE:
          case P::UNE:
            return double(*lhs != *rhs);
          case P::OLT:
          case P::ULT:
            return double(*lhs < *rhs);
          case P::OLE:
          case P::ULE:
            return double(*lhs <= *rhs);
          case P::OGT:
          case P::UGT:
            return double(*lhs > *rhs);
          case P::OGE:
          case P::UGE:
            return double(*lhs >= *rhs);
          default:
            return std::nullopt;
          }
        })
        .Case([&](arith::SelectOp) -> std::optional<double> {
          std::optional<double> condition = operand(nested, 0);
          if (!condition)
            return std::nullopt;
          return operand(nested, *condition != 0 ? 1 : 2);
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  linalg::GenericOp op;
  SmallVector<SmallVector<double>> inputValues;
  SmallVector<AffineMap> maps;
  SmallVector<SmallVector<int64_t>> shapes;
  llvm::DenseMap<Value, double> values;
};

std::optional<SmallVector<double>> tensorValues(Value tensor, unsigned depth);

/// The values of a linalg.generic's one result, computed from linalg.index
/// and from inputs whose values are known (`depth` bounds the chain).
std::optional<SmallVector<double>> computedValues(Value mask, unsigned depth) {
  auto generic = mask.getDefiningOp<linalg::GenericOp>();
  auto type = cast<RankedTensorType>(mask.getType());
  if (!generic || generic.getNumResults() != 1 ||
      generic.getNumReductionLoops() != 0 || !type.hasStaticShape() ||
      type.getNumElements() > kMaxEvaluatedElements ||
      !generic.getIndexingMapsArray().back().isIdentity() ||
      !generic.getRegion().front().getArguments().back().use_empty())
    return std::nullopt;
  SmallVector<SmallVector<double>> inputValues;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    auto inputType = dyn_cast<RankedTensorType>(input->get().getType());
    if (!inputType || !inputType.hasStaticShape())
      return std::nullopt;
    std::optional<SmallVector<double>> values =
        tensorValues(input->get(), depth - 1);
    if (!values)
      return std::nullopt;
    inputValues.push_back(std::move(*values));
  }
  BodyInterpreter interpreter(generic, std::move(inputValues));
  SmallVector<double> values;
  values.reserve(type.getNumElements());
  SmallVector<int64_t> point(type.getRank(), 0);
  for (int64_t linear = 0; linear < type.getNumElements(); ++linear) {
    int64_t rest = linear;
    for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
      point[dim] = rest % type.getDimSize(dim);
      rest /= type.getDimSize(dim);
    }
    std::optional<double> value = interpreter.evaluate(point);
    if (!value)
      return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

/// A constant, a generic computed from known tensors, or a reshape of one
/// (row-major order is unchanged by a reshape).
std::optional<SmallVector<double>> tensorValues(Value tensor, unsigned depth) {
  if (depth == 0)
    return std::nullopt;
  if (std::optional<SmallVector<double>> values = constantValues(tensor))
    return values;
  Operation *def = tensor.getDefiningOp();
  if (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                      tosa::ReshapeOp>(def))
    return tensorValues(def->getOperand(0), depth - 1);
  // A cast to float of a known tensor (TOSA's i1 mask made a 0/1 factor):
  // the values, rounded to the result's type.
  if (auto cast = dyn_cast_or_null<tosa::CastOp>(def)) {
    auto resultType = dyn_cast<FloatType>(getElementTypeOrSelf(cast.getType()));
    Type sourceType = getElementTypeOrSelf(cast.getInput().getType());
    if (!resultType || !(sourceType.isInteger(1) || isa<FloatType>(sourceType)))
      return std::nullopt;
    std::optional<SmallVector<double>> values =
        tensorValues(cast.getInput(), depth - 1);
    if (!values)
      return std::nullopt;
    for (double &value : *values) {
      APFloat rounded(value);
      bool losesInfo = false;
      rounded.convert(resultType.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
      rounded.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                      &losesInfo);
      value = rounded.convertToDouble();
    }
    return values;
  }
  return computedValues(tensor, depth);
}

} // namespace

std::optional<bool> mlir::fa::recognition::maskShows(MaskMeaning meaning,
                                                    double value) {
  switch (meaning) {
  case MaskMeaning::Keep:
    return value != 0;
  case MaskMeaning::Hide:
    return value == 0;
  case MaskMeaning::Factor:
    if (value == 1)
      return true;
    if (value == 0)
      return false;
    return std::nullopt;
  case MaskMeaning::Bias:
    if (value == 0)
      return true;
    if (value == -std::numeric_limits<double>::infinity())
      return false;
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {

/// `value` as loop index + constant in a linalg body: linalg.index, through
/// index casts and addi/subi with a constant.
std::optional<std::pair<unsigned, int64_t>> indexPlusConstant(Value value) {
  if (auto cast = value.getDefiningOp<arith::IndexCastOp>())
    return indexPlusConstant(cast.getIn());
  if (auto index = value.getDefiningOp<linalg::IndexOp>())
    return std::pair{static_cast<unsigned>(index.getDim()), int64_t{0}};
  auto constantOf = [](Value v) -> std::optional<int64_t> {
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant)))
      return constant.getSExtValue();
    return std::nullopt;
  };
  if (auto add = value.getDefiningOp<arith::AddIOp>()) {
    for (auto [base, offset] : {std::pair{add.getLhs(), add.getRhs()},
                                std::pair{add.getRhs(), add.getLhs()}}) {
      std::optional<int64_t> constant = constantOf(offset);
      std::optional<std::pair<unsigned, int64_t>> inner =
          indexPlusConstant(base);
      if (constant && inner)
        return std::pair{inner->first, inner->second + *constant};
    }
  }
  if (auto sub = value.getDefiningOp<arith::SubIOp>()) {
    std::optional<int64_t> constant = constantOf(sub.getRhs());
    std::optional<std::pair<unsigned, int64_t>> inner =
        indexPlusConstant(sub.getLhs());
    if (constant && inner)
      return std::pair{inner->first, inner->second - *constant};
  }
  return std::nullopt;
}

/// The predicate that holds for (b, a) when `predicate` holds for (a, b).
arith::CmpIPredicate swapSides(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::slt:
    return P::sgt;
  case P::sle:
    return P::sge;
  case P::sgt:
    return P::slt;
  case P::sge:
    return P::sle;
  default:
    return predicate; // eq, ne
  }
}

/// Collects the bounds `k <= q + c` (upper) and `k >= q + c` (lower) whose
/// conjunction is `value` (negated with `negate`: a disjunction of negated
/// comparisons). False for anything else.
bool collectIndexBands(Value value, bool negate, unsigned queryLoop,
                       unsigned keyLoop,
                       SmallVectorImpl<std::pair<bool, int64_t>> &bounds) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  APInt constant;
  if (auto xorOp = dyn_cast<arith::XOrIOp>(def)) {
    for (auto [base, other] : {std::pair{xorOp.getLhs(), xorOp.getRhs()},
                               std::pair{xorOp.getRhs(), xorOp.getLhs()}})
      if (matchPattern(other, m_ConstantInt(&constant)) && constant.isOne())
        return collectIndexBands(base, !negate, queryLoop, keyLoop, bounds);
    return false;
  }
  if ((isa<arith::AndIOp>(def) && !negate) ||
      (isa<arith::OrIOp>(def) && negate))
    return collectIndexBands(def->getOperand(0), negate, queryLoop, keyLoop,
                             bounds) &&
           collectIndexBands(def->getOperand(1), negate, queryLoop, keyLoop,
                             bounds);
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp)
    return false;
  auto lhs = indexPlusConstant(cmp.getLhs());
  auto rhs = indexPlusConstant(cmp.getRhs());
  if (!lhs || !rhs)
    return false;
  using P = arith::CmpIPredicate;
  P predicate = cmp.getPredicate();
  // Unsigned comparisons agree with signed ones on indices plus offsets
  // that stay at least 0.
  bool nonNegative = lhs->second >= 0 && rhs->second >= 0;
  switch (predicate) {
  case P::ule:
    predicate = P::sle;
    break;
  case P::ult:
    predicate = P::slt;
    break;
  case P::uge:
    predicate = P::sge;
    break;
  case P::ugt:
    predicate = P::sgt;
    break;
  default:
    nonNegative = true;
  }
  if (!nonNegative)
    return false;
  if (negate)
    predicate = arith::invertPredicate(predicate);
  if (lhs->first == queryLoop && rhs->first == keyLoop) {
    std::swap(lhs, rhs);
    predicate = swapSides(predicate);
  }
  if (lhs->first != keyLoop || rhs->first != queryLoop)
    return false;
  // k + a (op) q + b  <=>  k (op) q + (b - a).
  int64_t offset = rhs->second - lhs->second;
  switch (predicate) {
  case P::sle:
    bounds.push_back({true, offset});
    return true;
  case P::slt:
    bounds.push_back({true, offset - 1});
    return true;
  case P::sge:
    bounds.push_back({false, offset});
    return true;
  case P::sgt:
    bounds.push_back({false, offset + 1});
    return true;
  default:
    return false;
  }
}

} // namespace

std::optional<int64_t> mlir::fa::recognition::symbolicUpperBand(
    Value mask, ArrayRef<Axis> labels, MaskMeaning meaning) {
  auto generic = mask.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumResults() != 1 || generic.getNumReductionLoops() != 0 ||
      !generic.getRegion().front().getArguments().back().use_empty())
    return std::nullopt;
  AffineMap resultMap = generic.getIndexingMapsArray().back();
  if (!resultMap.isPermutation() || resultMap.getNumResults() != labels.size())
    return std::nullopt;
  std::optional<unsigned> queryLoop, keyLoop;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    unsigned loop = cast<AffineDimExpr>(resultMap.getResult(dim)).getPosition();
    if (axis.kind == AxisKind::Query)
      queryLoop = loop;
    if (axis.kind == AxisKind::Key)
      keyLoop = loop;
  }
  if (!queryLoop || !keyLoop)
    return std::nullopt;
  // The condition under which the body's value shows its key.
  Value yielded =
      cast<linalg::YieldOp>(generic.getRegion().front().getTerminator())
          .getOperand(0);
  bool negate = false;
  Value condition = yielded;
  if (!yielded.getType().isInteger(1)) {
    auto constantValue = [](Value v) -> std::optional<double> {
      FloatAttr attr;
      if (matchPattern(v, m_Constant(&attr)))
        return attr.getValueAsDouble();
      return std::nullopt;
    };
    if (auto cast = yielded.getDefiningOp<arith::UIToFPOp>();
        cast && meaning == MaskMeaning::Factor) {
      condition = cast.getIn();
    } else if (auto select = yielded.getDefiningOp<arith::SelectOp>()) {
      std::optional<double> onTrue = constantValue(select.getTrueValue());
      std::optional<double> onFalse = constantValue(select.getFalseValue());
      if (!onTrue || !onFalse)
        return std::nullopt;
      std::optional<bool> showsTrue = maskShows(meaning, *onTrue);
      std::optional<bool> showsFalse = maskShows(meaning, *onFalse);
      if (!showsTrue || !showsFalse || *showsTrue == *showsFalse)
        return std::nullopt;
      condition = select.getCondition();
      negate = !*showsTrue;
    } else {
      return std::nullopt;
    }
  } else if (meaning == MaskMeaning::Hide) {
    negate = true;
  } else if (meaning != MaskMeaning::Keep) {
    return std::nullopt;
  }
  SmallVector<std::pair<bool, int64_t>> bounds;
  if (!collectIndexBands(condition, negate, *queryLoop, *keyLoop, bounds))
    return std::nullopt;
  std::optional<int64_t> upper;
  for (auto [isUpper, offset] : bounds) {
    if (!isUpper)
      return std::nullopt; // a lower bound: a window, not causal
    upper = upper ? std::min(*upper, offset) : offset;
  }
  return upper;
}

std::optional<SmallVector<double>>
mlir::fa::recognition::maskValues(Value mask) {
  return tensorValues(mask, /*depth=*/8);
}

std::optional<DiagonalAlignment> mlir::fa::recognition::classifyCausalMask(
    Value mask, ArrayRef<Axis> labels, MaskMeaning meaning, int64_t queryLen,
    int64_t keyLen) {
  auto type = cast<RankedTensorType>(mask.getType());
  if (!type.hasStaticShape() || ShapedType::isDynamic(queryLen) ||
      ShapedType::isDynamic(keyLen))
    return std::nullopt;
  std::optional<SmallVector<double>> values = maskValues(mask);
  if (!values) {
    // Too large to evaluate: read the band from the body.
    std::optional<int64_t> upper = symbolicUpperBand(mask, labels, meaning);
    if (!upper)
      return std::nullopt;
    if (*upper == keyLen - queryLen)
      return DiagonalAlignment::bottom_right;
    if (*upper == 0)
      return DiagonalAlignment::top_left;
    return std::nullopt;
  }

  int64_t rowDim = -1, colDim = -1;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Query)
      rowDim = dim;
    if (axis.kind == AxisKind::Key)
      colDim = dim;
  }
  // A mask without both a query and a key dim cannot be triangular.
  if (rowDim < 0 || colDim < 0 || type.getDimSize(rowDim) != queryLen ||
      type.getDimSize(colDim) != keyLen)
    return std::nullopt;

  std::optional<DiagonalAlignment> found;
  for (DiagonalAlignment align :
       {DiagonalAlignment::bottom_right, DiagonalAlignment::top_left}) {
    int64_t delta = align == DiagonalAlignment::top_left ? 0 : keyLen - queryLen;
    bool matches = true;
    SmallVector<int64_t> point(type.getRank(), 0);
    for (int64_t linear = 0; matches && linear < type.getNumElements();
         ++linear) {
      int64_t rest = linear;
      for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
        point[dim] = rest % type.getDimSize(dim);
        rest /= type.getDimSize(dim);
      }
      std::optional<bool> isVisible = maskShows(meaning, (*values)[linear]);
      bool causal = point[colDim] <= point[rowDim] + delta;
      matches = isVisible && *isVisible == causal;
    }
    if (matches) {
      found = align;
      break;
    }
  }
  return found;
}
