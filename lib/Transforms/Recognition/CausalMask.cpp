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
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
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

/// Interprets the body of a linalg.generic with no inputs whose value
/// depends only on linalg.index (an iota comparison), at one point.
class IndexBodyInterpreter {
public:
  explicit IndexBodyInterpreter(linalg::GenericOp op) : op(op) {}

  std::optional<double> evaluate(ArrayRef<int64_t> point) {
    values.clear();
    for (Operation &nested : op.getRegion().front()) {
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
      values[nested.getResult(0)] = *result;
    }
    return std::nullopt;
  }

private:
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
    auto binary = [&](auto fn) -> std::optional<double> {
      std::optional<double> lhs = operand(nested, 0), rhs = operand(nested, 1);
      if (!lhs || !rhs)
        return std::nullopt;
      return fn(*lhs, *rhs);
    };
    return llvm::TypeSwitch<Operation *, std::optional<double>>(&nested)
        .Case([&](linalg::IndexOp index) -> std::optional<double> {
          return static_cast<double>(point[index.getDim()]);
        })
        .Case([&](arith::ConstantOp constant) {
          return scalar(constant.getValue());
        })
        .Case([&](arith::IndexCastOp) { return operand(nested, 0); })
        .Case([&](arith::AddIOp) {
          return binary([](double a, double b) { return a + b; });
        })
        .Case([&](arith::SubIOp) {
          return binary([](double a, double b) { return a - b; });
        })
        .Case([&](arith::MulIOp) {
          return binary([](double a, double b) { return a * b; });
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
        .Case([&](arith::SelectOp) -> std::optional<double> {
          std::optional<double> condition = operand(nested, 0);
          if (!condition)
            return std::nullopt;
          return operand(nested, *condition != 0 ? 1 : 2);
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  linalg::GenericOp op;
  llvm::DenseMap<Value, double> values;
};

std::optional<SmallVector<double>> computedValues(Value mask) {
  auto generic = mask.getDefiningOp<linalg::GenericOp>();
  auto type = cast<RankedTensorType>(mask.getType());
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumResults() != 1 || !type.hasStaticShape() ||
      type.getNumElements() > kMaxEvaluatedElements ||
      !generic.getIndexingMapsArray()[0].isIdentity() ||
      !generic.getRegion().front().getArgument(0).use_empty())
    return std::nullopt;
  IndexBodyInterpreter interpreter(generic);
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

} // namespace

std::optional<bool> mlir::fa::recognition::maskShows(MaskMeaning meaning,
                                                    double value) {
  switch (meaning) {
  case MaskMeaning::Keep:
    return value != 0;
  case MaskMeaning::Hide:
    return value == 0;
  case MaskMeaning::Bias:
    if (value == 0)
      return true;
    if (value == -std::numeric_limits<double>::infinity())
      return false;
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<SmallVector<double>>
mlir::fa::recognition::maskValues(Value mask) {
  if (std::optional<SmallVector<double>> values = constantValues(mask))
    return values;
  return computedValues(mask);
}

std::optional<DiagonalAlignment> mlir::fa::recognition::classifyCausalMask(
    Value mask, ArrayRef<Axis> labels, MaskMeaning meaning, int64_t queryLen,
    int64_t keyLen) {
  auto type = cast<RankedTensorType>(mask.getType());
  if (!type.hasStaticShape() || ShapedType::isDynamic(queryLen) ||
      ShapedType::isDynamic(keyLen))
    return std::nullopt;
  std::optional<SmallVector<double>> values = maskValues(mask);
  if (!values)
    return std::nullopt;


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
