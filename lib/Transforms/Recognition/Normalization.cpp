//===- Normalization.cpp - One form for the spellings of a candidate ------===//
//
// Stage: recognition (how it is found). Constant evaluation and identity
// steps; see Normalization.h for an example before and after.
//
//===----------------------------------------------------------------------===//

#include "Normalization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fa::recognition;

namespace {

/// `value` rounded to the float type `type` (or its element type), as the
/// program would hold it. Nullopt when `type` is not a float type.
std::optional<double> roundTo(double value, Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!floatType)
    return std::nullopt;
  APFloat rounded(value);
  bool losesInfo = false;
  rounded.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  rounded.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  return rounded.convertToDouble();
}

std::optional<double> floatFromAttr(Attribute attr) {
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat() || !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  APFloat value = dense.getSplatValue<APFloat>();
  bool losesInfo = false;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

/// The tensor or scalar a linalg body's block argument stands for: the
/// element of that input, when it is one of the op's DPS inputs.
Value linalgInputOf(BlockArgument argument) {
  auto op = dyn_cast_or_null<linalg::LinalgOp>(
      argument.getOwner()->getParentOp());
  if (!op || argument.getOwner() != op.getBlock() ||
      argument.getArgNumber() >= op->getNumOperands())
    return Value();
  OpOperand &operand = op->getOpOperand(argument.getArgNumber());
  return op.isDpsInput(&operand) ? operand.get() : Value();
}

Value layoutSource(Operation *op);

/// An integer constant (the operand of sitofp/uitofp or an integer
/// tosa.cast): a scalar, a splat tensor, a layout op of one, or the element
/// of such an input inside a linalg body.
std::optional<APInt> evaluateInteger(Value value, unsigned depth = 0) {
  if (depth > 32 || !isa<IntegerType>(getElementTypeOrSelf(value)))
    return std::nullopt;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (Value input = linalgInputOf(argument))
      return evaluateInteger(input, depth + 1);
    return std::nullopt;
  }
  Operation *def = value.getDefiningOp();
  Attribute attr;
  if (auto constant = dyn_cast<arith::ConstantOp>(def))
    attr = constant.getValue();
  else if (auto constant = dyn_cast<tosa::ConstOp>(def))
    attr = constant.getValues();
  else if (Value source = layoutSource(def))
    return evaluateInteger(source, depth + 1);
  if (auto integer = dyn_cast_or_null<IntegerAttr>(attr))
    return integer.getValue();
  if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr);
      dense && dense.isSplat())
    return dense.getSplatValue<APInt>();
  return std::nullopt;
}

/// `integer` converted to the float type of `type`, one rounding from the
/// exact integer, as sitofp/uitofp and tosa.cast convert it.
std::optional<double> integerToFloat(const APInt &integer, bool isSigned,
                                     Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!floatType || integer.getBitWidth() > 64)
    return std::nullopt;
  APFloat result(floatType.getFloatSemantics());
  result.convertFromAPInt(integer, isSigned, APFloat::rmNearestTiesToEven);
  bool losesInfo = false;
  result.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                 &losesInfo);
  return result.convertToDouble();
}

/// Nesting of evaluateConstant through ops on whole tensors: views of such
/// ops evaluate their inputs again, so the walk is kept short (a scale
/// computed in a chain of 0-d generics, sitofp then sqrt then divf then
/// truncf, is four deep).
thread_local unsigned tensorOpDepth = 0;
constexpr unsigned kMaxTensorOpDepth = 6;
/// Scalar and layout chains are followed this far.
constexpr unsigned kMaxChain = 32;

std::optional<double> evaluate(Value value, unsigned chain);

/// Ops that only move, copy or replicate the elements of their first
/// operand (or the tensor operand of a DPS op).
Value layoutSource(Operation *op) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
            tensor::ReshapeOp, tosa::ReshapeOp, tosa::TileOp,
            tosa::TransposeOp>(
          [](Operation *op) { return op->getOperand(0); })
      .Case([](tensor::SplatOp op) { return op.getInput(); })
      .Case([](linalg::FillOp op) { return op.getInputs()[0]; })
      .Case<linalg::BroadcastOp, linalg::TransposeOp, linalg::CopyOp>(
          [](auto op) { return op.getDpsInputs()[0]; })
      .Default([](Operation *) { return Value(); });
}

std::optional<double> evaluateScalarOp(Operation *op, unsigned chain) {
  Type type = op->getResult(0).getType();
  auto operand = [&](unsigned index) {
    return evaluate(op->getOperand(index), chain + 1);
  };
  auto fold = [&](ScalarKind kind) -> std::optional<double> {
    SmallVector<double, 2> values;
    for (unsigned index = 0; index < op->getNumOperands(); ++index) {
      std::optional<double> value = operand(index);
      if (!value)
        return std::nullopt;
      values.push_back(*value);
    }
    return foldScalar(kind, values, type);
  };
  return llvm::TypeSwitch<Operation *, std::optional<double>>(op)
      .Case([&](arith::AddFOp) { return fold(ScalarKind::Add); })
      .Case([&](arith::SubFOp) { return fold(ScalarKind::Sub); })
      .Case([&](arith::MulFOp) { return fold(ScalarKind::Mul); })
      .Case([&](arith::DivFOp) { return fold(ScalarKind::Div); })
      .Case([&](arith::NegFOp) { return fold(ScalarKind::Neg); })
      .Case([&](arith::MaximumFOp) { return fold(ScalarKind::Max); })
      .Case([&](arith::MaxNumFOp) { return fold(ScalarKind::MaxNum); })
      .Case([&](arith::ExtFOp) { return fold(ScalarKind::ExtF); })
      .Case([&](arith::TruncFOp) { return fold(ScalarKind::TruncF); })
      .Case([&](math::SqrtOp) -> std::optional<double> {
        // IEEE square root is correctly rounded, in every format.
        std::optional<double> x = operand(0);
        if (!x || *x < 0)
          return std::nullopt;
        return roundTo(std::sqrt(*x), type);
      })
      .Case([&](math::RsqrtOp) -> std::optional<double> {
        // Only where the root is exact: 1/sqrt(x) is then one rounding,
        // whatever the math library does.
        std::optional<double> x = operand(0);
        if (!x || *x <= 0)
          return std::nullopt;
        double root = std::sqrt(*x);
        if (root * root != *x || roundTo(root, type) != root)
          return std::nullopt;
        return roundTo(1.0 / root, type);
      })
      .Case<arith::SIToFPOp, arith::UIToFPOp>(
          [&](auto cast) -> std::optional<double> {
            std::optional<APInt> integer = evaluateInteger(cast.getIn());
            if (!integer)
              return std::nullopt;
            return integerToFloat(*integer,
                                  isa<arith::SIToFPOp>(cast.getOperation()),
                                  type);
          })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<double> evaluate(Value value, unsigned chain) {
  if (chain > kMaxChain || !isa<FloatType>(getElementTypeOrSelf(value)))
    return std::nullopt;
  // Inside a linalg body, an input's element is the input's one value.
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (Value input = linalgInputOf(argument))
      return evaluate(input, chain + 1);
    return std::nullopt;
  }
  Operation *def = value.getDefiningOp();
  if (auto constant = dyn_cast<arith::ConstantOp>(def))
    return floatFromAttr(constant.getValue());
  // TOSA casts integers as signed values (i1 as 0 or 1).
  if (auto cast = dyn_cast<tosa::CastOp>(def)) {
    Value input = cast.getInput();
    if (std::optional<APInt> integer = evaluateInteger(input))
      return integerToFloat(*integer,
                            !getElementTypeOrSelf(input).isInteger(1),
                            value.getType());
  }
  if (auto constant = dyn_cast<tosa::ConstOp>(def))
    return floatFromAttr(constant.getValues());
  if (Value source = layoutSource(def))
    return evaluate(source, chain + 1);
  if (!isa<ShapedType>(value.getType()))
    return evaluateScalarOp(def, chain);
  // An elementwise op on whole tensors whose inputs are all constants: its
  // view folds to one constant node.
  if (tensorOpDepth >= kMaxTensorOpDepth)
    return std::nullopt;
  ++tensorOpDepth;
  std::optional<StructuredView> view = getStructuredView(value);
  --tensorOpDepth;
  if (!view || view->hasReduction() ||
      view->rootNode().kind != ScalarKind::Constant)
    return std::nullopt;
  return view->rootNode().constant;
}

bool isConstant(const StructuredView &view, unsigned node, double value) {
  const ScalarNode &n = view.node(node);
  return n.kind == ScalarKind::Constant && n.constant == value;
}

} // namespace

std::optional<double> mlir::fa::recognition::evaluateConstant(Value value) {
  return evaluate(value, 0);
}

std::optional<double>
mlir::fa::recognition::foldScalar(ScalarKind kind, ArrayRef<double> operands,
                                  Type resultType) {
  auto binary = [&](auto fn) -> std::optional<double> {
    if (operands.size() != 2)
      return std::nullopt;
    return roundTo(fn(operands[0], operands[1]), resultType);
  };
  switch (kind) {
  case ScalarKind::Add:
    return binary([](double a, double b) { return a + b; });
  case ScalarKind::Sub:
    return binary([](double a, double b) { return a - b; });
  case ScalarKind::Mul:
    return binary([](double a, double b) { return a * b; });
  case ScalarKind::Div:
    return binary([](double a, double b) { return a / b; });
  case ScalarKind::Max:
    return binary([](double a, double b) {
      return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
    });
  case ScalarKind::MaxNum:
    return binary([](double a, double b) { return std::fmax(a, b); });
  case ScalarKind::Neg:
  case ScalarKind::ExtF:
  case ScalarKind::TruncF:
    if (operands.size() != 1)
      return std::nullopt;
    return roundTo(kind == ScalarKind::Neg ? -operands[0] : operands[0],
                   resultType);
  default:
    return std::nullopt;
  }
}

std::optional<unsigned>
mlir::fa::recognition::simplifyIdentity(const StructuredView &view,
                                        ScalarKind kind,
                                        ArrayRef<unsigned> operands) {
  if (operands.size() != 2)
    return std::nullopt;
  unsigned lhs = operands[0], rhs = operands[1];
  switch (kind) {
  case ScalarKind::Add:
    if (isConstant(view, rhs, 0.0))
      return lhs;
    if (isConstant(view, lhs, 0.0))
      return rhs;
    return std::nullopt;
  case ScalarKind::Sub:
    if (isConstant(view, rhs, 0.0))
      return lhs;
    return std::nullopt;
  case ScalarKind::Mul:
    if (isConstant(view, rhs, 1.0))
      return lhs;
    if (isConstant(view, lhs, 1.0))
      return rhs;
    return std::nullopt;
  case ScalarKind::Div:
    if (isConstant(view, rhs, 1.0))
      return lhs;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

namespace {

/// The constant an operand node of `view` holds: a Constant node, the
/// accumulator of a view whose init is a constant, or an input that is a
/// compile-time constant.
std::optional<double> constantOperand(const StructuredView &view,
                                      unsigned index) {
  const ScalarNode &node = view.node(index);
  if (node.kind == ScalarKind::Constant)
    return node.constant;
  if (node.kind == ScalarKind::Init)
    return view.initConstant;
  if (node.kind == ScalarKind::Input)
    return evaluateConstant(view.inputs[node.input]);
  return std::nullopt;
}

/// Whether `value` is exp(c·(m0 - m)), c > 0, with m a row max whose
/// reduction starts at the constant m0: a factor in [0, 1].
bool isBoundedRescale(Value value) {
  std::optional<StructuredView> view = getStructuredView(value);
  if (!view || view->hasReduction() ||
      view->rootNode().kind != ScalarKind::Exp)
    return false;
  unsigned argument = view->rootNode().operands[0];
  // exp2 is viewed as exp(ln 2 · x); any positive factor keeps the sign.
  while (view->node(argument).kind == ScalarKind::Mul) {
    const ScalarNode &product = view->node(argument);
    std::optional<double> factor = constantOperand(*view, product.operands[1]);
    unsigned other = product.operands[0];
    if (!factor) {
      factor = constantOperand(*view, product.operands[0]);
      other = product.operands[1];
    }
    if (!factor || !(*factor > 0))
      return false;
    argument = other;
  }
  const ScalarNode &difference = view->node(argument);
  if (difference.kind != ScalarKind::Sub)
    return false;
  std::optional<double> start = constantOperand(*view, difference.operands[0]);
  const ScalarNode &maxNode = view->node(difference.operands[1]);
  if (!start || maxNode.kind != ScalarKind::Input)
    return false;
  std::optional<StructuredView> max =
      getStructuredView(view->inputs[maxNode.input]);
  if (!max || llvm::count(max->reductionLoops, true) != 1 ||
      (max->rootNode().kind != ScalarKind::Max &&
       max->rootNode().kind != ScalarKind::MaxNum))
    return false;
  return max->initConstant && *max->initConstant == *start;
}

} // namespace

SmallVector<Operation *, 2>
mlir::fa::recognition::zeroRescaleOps(Value value) {
  std::optional<StructuredView> view = getStructuredView(value);
  if (!view || view->hasReduction() || view->rootNode().kind != ScalarKind::Mul)
    return {};
  const ScalarNode &product = view->rootNode();
  for (unsigned side = 0; side < 2; ++side) {
    std::optional<double> zero = constantOperand(*view, product.operands[side]);
    const ScalarNode &factor = view->node(product.operands[1 - side]);
    if (!zero || *zero != 0.0 || factor.kind != ScalarKind::Input)
      continue;
    Value rescale = view->inputs[factor.input];
    if (isBoundedRescale(rescale))
      return {value.getDefiningOp(), rescale.getDefiningOp()};
  }
  return {};
}

bool mlir::fa::recognition::isZeroRescale(Value value) {
  return !zeroRescaleOps(value).empty();
}
