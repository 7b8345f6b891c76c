//===- StructuredView.cpp - Ops seen as linalg-style generics -------------===//
//
// Stage: recognition (how it is found). Builds the StructuredView of linalg
// structured ops (from their indexing maps and payload) and of the TOSA ops
// that frontends use to spell attention (from their documented semantics,
// with TOSA's implicit broadcasting written as constant-0 map results).
//
//===----------------------------------------------------------------------===//

#include "StructuredView.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fa::recognition;

bool StructuredView::hasReduction() const {
  return llvm::is_contained(reductionLoops, true);
}

static std::optional<double> toDouble(Attribute attr) {
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (!dense.isSplat() || !isa<FloatType>(dense.getElementType()))
      return std::nullopt;
    APFloat value = dense.getSplatValue<APFloat>();
    bool losesInfo = false;
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return value.convertToDouble();
  }
  return std::nullopt;
}

std::optional<double> mlir::fa::recognition::getSplatConstant(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto constant = dyn_cast<arith::ConstantOp>(def))
    return toDouble(constant.getValue());
  if (auto constant = dyn_cast<tosa::ConstOp>(def))
    return toDouble(constant.getValues());
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return getSplatConstant(fill.getInputs()[0]);
  return std::nullopt;
}

StringRef mlir::fa::recognition::stringifyScalarKind(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Input:
    return "input";
  case ScalarKind::Init:
    return "accumulator";
  case ScalarKind::Constant:
    return "constant";
  case ScalarKind::Add:
    return "add";
  case ScalarKind::Sub:
    return "sub";
  case ScalarKind::Mul:
    return "mul";
  case ScalarKind::Div:
    return "div";
  case ScalarKind::Max:
    return "max";
  case ScalarKind::MaxNum:
    return "maxnum";
  case ScalarKind::Exp:
    return "exp";
  case ScalarKind::Log:
    return "log";
  case ScalarKind::Neg:
    return "neg";
  case ScalarKind::Select:
    return "select";
  case ScalarKind::ExtF:
    return "extf";
  case ScalarKind::TruncF:
    return "truncf";
  case ScalarKind::BoolToFloat:
    return "bool-to-float";
  case ScalarKind::Other:
    return "unsupported op";
  }
  llvm_unreachable("unknown scalar kind");
}

namespace {

unsigned addNode(StructuredView &view, ScalarKind kind,
                 ArrayRef<unsigned> operands = {}) {
  ScalarNode node;
  node.kind = kind;
  node.operands.assign(operands.begin(), operands.end());
  view.nodes.push_back(node);
  return view.nodes.size() - 1;
}

unsigned addConstant(StructuredView &view, double value) {
  unsigned index = addNode(view, ScalarKind::Constant);
  view.nodes[index].constant = value;
  return index;
}

unsigned addInput(StructuredView &view, Value tensor, AffineMap map) {
  if (std::optional<double> splat = getSplatConstant(tensor))
    return addConstant(view, *splat);
  view.inputs.push_back(tensor);
  view.inputMaps.push_back(map);
  unsigned index = addNode(view, ScalarKind::Input);
  view.nodes[index].input = view.inputs.size() - 1;
  return index;
}

//===----------------------------------------------------------------------===//
// linalg: maps and iterators from the op, the scalar tree from its payload.
//===----------------------------------------------------------------------===//

/// Translates a linalg payload into scalar nodes.
class PayloadTranslator {
public:
  PayloadTranslator(StructuredView &view, Block *body) : view(view), body(body) {}

  void bind(Value blockArg, unsigned node) { nodes[blockArg] = node; }

  unsigned translate(Value value) {
    auto it = nodes.find(value);
    if (it != nodes.end())
      return it->second;
    unsigned node = translateUncached(value);
    nodes[value] = node;
    return node;
  }

private:
  unsigned translateUncached(Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != body) {
      // Captured from above: only compile-time constants are understood.
      if (std::optional<double> splat = getSplatConstant(value))
        return addConstant(view, *splat);
      return addNode(view, ScalarKind::Other);
    }
    auto unary = [&](ScalarKind kind) {
      return addNode(view, kind, {translate(def->getOperand(0))});
    };
    auto binary = [&](ScalarKind kind) {
      unsigned lhs = translate(def->getOperand(0));
      unsigned rhs = translate(def->getOperand(1));
      return addNode(view, kind, {lhs, rhs});
    };
    return llvm::TypeSwitch<Operation *, unsigned>(def)
        .Case([&](arith::ConstantOp op) {
          if (std::optional<double> splat = getSplatConstant(op.getResult()))
            return addConstant(view, *splat);
          return addNode(view, ScalarKind::Other);
        })
        .Case([&](arith::AddFOp) { return binary(ScalarKind::Add); })
        .Case([&](arith::SubFOp) { return binary(ScalarKind::Sub); })
        .Case([&](arith::MulFOp) { return binary(ScalarKind::Mul); })
        .Case([&](arith::DivFOp) { return binary(ScalarKind::Div); })
        .Case([&](arith::MaximumFOp) { return binary(ScalarKind::Max); })
        .Case([&](arith::MaxNumFOp) { return binary(ScalarKind::MaxNum); })
        .Case([&](math::ExpOp) { return unary(ScalarKind::Exp); })
        .Case([&](math::LogOp) { return unary(ScalarKind::Log); })
        .Case([&](arith::NegFOp) { return unary(ScalarKind::Neg); })
        .Case([&](arith::ExtFOp) { return unary(ScalarKind::ExtF); })
        .Case([&](arith::TruncFOp) { return unary(ScalarKind::TruncF); })
        .Case([&](arith::UIToFPOp op) {
          if (op.getIn().getType().isInteger(1))
            return unary(ScalarKind::BoolToFloat);
          return addNode(view, ScalarKind::Other);
        })
        .Case([&](arith::SelectOp op) {
          unsigned condition = translate(op.getCondition());
          unsigned onTrue = translate(op.getTrueValue());
          unsigned onFalse = translate(op.getFalseValue());
          return addNode(view, ScalarKind::Select,
                         {condition, onTrue, onFalse});
        })
        .Default([&](Operation *) { return addNode(view, ScalarKind::Other); });
  }

  StructuredView &view;
  Block *body;
  llvm::DenseMap<Value, unsigned> nodes;
};

std::optional<StructuredView> viewLinalg(linalg::LinalgOp op) {
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics())
    return std::nullopt;
  StructuredView view;
  view.op = op;
  view.result = op->getResult(0);
  view.numLoops = op.getNumLoops();
  for (utils::IteratorType type : op.getIteratorTypesArray())
    view.reductionLoops.push_back(type == utils::IteratorType::reduction);
  OpOperand *init = op.getDpsInitOperand(0);
  view.resultMap = op.getMatchingIndexingMap(init);
  view.initConstant = getSplatConstant(init->get());

  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != op->getNumOperands())
    return std::nullopt;
  PayloadTranslator translator(view, body);
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    BlockArgument arg = body->getArgument(input->getOperandNumber());
    unsigned node;
    if (isa<RankedTensorType>(value.getType()))
      node = addInput(view, value, op.getMatchingIndexingMap(input));
    else if (std::optional<double> splat = getSplatConstant(value))
      node = addConstant(view, *splat);
    else
      node = addNode(view, ScalarKind::Other);
    translator.bind(arg, node);
  }
  translator.bind(body->getArgument(init->getOperandNumber()),
                  addNode(view, ScalarKind::Init));
  Operation *yield = body->getTerminator();
  if (yield->getNumOperands() != 1)
    return std::nullopt;
  view.root = translator.translate(yield->getOperand(0));
  return view;
}

//===----------------------------------------------------------------------===//
// TOSA: the same form from each op's specification.
//===----------------------------------------------------------------------===//

/// Loops are the result's dims; a static size-1 operand dim against a larger
/// result dim is TOSA's implicit broadcast, read at index 0.
AffineMap getBroadcastMap(Value operand, RankedTensorType resultType) {
  auto type = cast<RankedTensorType>(operand.getType());
  MLIRContext *ctx = operand.getContext();
  SmallVector<AffineExpr> results;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    bool broadcasts =
        type.getDimSize(dim) == 1 && resultType.getDimSize(dim) != 1;
    results.push_back(broadcasts ? getAffineConstantExpr(0, ctx)
                                 : getAffineDimExpr(dim, ctx));
  }
  return AffineMap::get(resultType.getRank(), 0, results, ctx);
}

StructuredView makeElementwiseView(Operation *op) {
  StructuredView view;
  view.op = op;
  view.result = op->getResult(0);
  auto resultType = cast<RankedTensorType>(view.result.getType());
  view.numLoops = resultType.getRank();
  view.reductionLoops.assign(view.numLoops, false);
  view.resultMap =
      AffineMap::getMultiDimIdentityMap(view.numLoops, op->getContext());
  return view;
}

std::optional<StructuredView> viewTosaElementwise(Operation *op,
                                                  ScalarKind kind,
                                                  ValueRange operands) {
  StructuredView view = makeElementwiseView(op);
  auto resultType = cast<RankedTensorType>(view.result.getType());
  SmallVector<unsigned> nodes;
  for (Value operand : operands) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || type.getRank() != resultType.getRank())
      return std::nullopt;
    nodes.push_back(
        addInput(view, operand, getBroadcastMap(operand, resultType)));
  }
  view.root = addNode(view, kind, nodes);
  return view;
}

std::optional<StructuredView> viewTosaCast(tosa::CastOp op) {
  Type from = getElementTypeOrSelf(op.getInput().getType());
  Type to = getElementTypeOrSelf(op.getType());
  ScalarKind kind = ScalarKind::Other;
  if (from.isInteger(1) && isa<FloatType>(to))
    kind = ScalarKind::BoolToFloat;
  else if (isa<FloatType>(from) && isa<FloatType>(to))
    kind = from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? ScalarKind::ExtF
               : ScalarKind::TruncF;
  return viewTosaElementwise(op, kind, op.getInput());
}

std::optional<StructuredView> viewTosaReduce(Operation *op, Value input,
                                             int64_t axis, ScalarKind kind) {
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  if (!inputType || axis < 0 || axis >= inputType.getRank())
    return std::nullopt;
  MLIRContext *ctx = op->getContext();
  StructuredView view;
  view.op = op;
  view.result = op->getResult(0);
  view.numLoops = inputType.getRank();
  view.reductionLoops.assign(view.numLoops, false);
  view.reductionLoops[axis] = true;
  // TOSA keeps the reduced dim with size 1.
  SmallVector<AffineExpr> results;
  for (int64_t dim = 0; dim < inputType.getRank(); ++dim)
    results.push_back(dim == axis ? getAffineConstantExpr(0, ctx)
                                  : getAffineDimExpr(dim, ctx));
  view.resultMap = AffineMap::get(view.numLoops, 0, results, ctx);
  view.implicitInit = true;
  unsigned in = addInput(view, input,
                         AffineMap::getMultiDimIdentityMap(view.numLoops, ctx));
  unsigned acc = addNode(view, ScalarKind::Init);
  view.root = addNode(view, kind, {in, acc});
  return view;
}

std::optional<StructuredView> viewTosaMatmul(tosa::MatMulOp op) {
  // output[b, m, n] += a[b, m, k] * b[b, k, n]; loops (b, m, n, k).
  for (Value zeroPoint : {op.getAZp(), op.getBZp()}) {
    std::optional<double> value = getSplatConstant(zeroPoint);
    if (!value || *value != 0)
      return std::nullopt;
  }
  MLIRContext *ctx = op->getContext();
  AffineExpr b, m, n, k;
  bindDims(ctx, b, m, n, k);
  StructuredView view;
  view.op = op;
  view.result = op.getResult();
  view.numLoops = 4;
  view.reductionLoops = {false, false, false, true};
  view.resultMap = AffineMap::get(4, 0, {b, m, n}, ctx);
  view.initConstant = 0.0;
  unsigned lhs = addInput(view, op.getA(), AffineMap::get(4, 0, {b, m, k}, ctx));
  unsigned rhs = addInput(view, op.getB(), AffineMap::get(4, 0, {b, k, n}, ctx));
  unsigned product = addNode(view, ScalarKind::Mul, {lhs, rhs});
  unsigned acc = addNode(view, ScalarKind::Init);
  view.root = addNode(view, ScalarKind::Add, {acc, product});
  return view;
}

std::optional<StructuredView> viewTosaTranspose(tosa::TransposeOp op) {
  // output dim i is input dim perms[i]: input dim perms[i] reads loop i.
  ArrayRef<int32_t> perms = op.getPerms();
  MLIRContext *ctx = op->getContext();
  SmallVector<AffineExpr> results(perms.size());
  for (auto [loop, inputDim] : llvm::enumerate(perms)) {
    if (inputDim < 0 || static_cast<size_t>(inputDim) >= perms.size())
      return std::nullopt;
    results[inputDim] = getAffineDimExpr(loop, ctx);
  }
  StructuredView view = makeElementwiseView(op);
  view.root = addInput(view, op.getInput1(),
                       AffineMap::get(perms.size(), 0, results, ctx));
  return view;
}

} // namespace

std::optional<StructuredView>
mlir::fa::recognition::getStructuredView(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || op->getNumResults() != 1 ||
      !isa<RankedTensorType>(value.getType()))
    return std::nullopt;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return viewLinalg(linalgOp);
  return llvm::TypeSwitch<Operation *, std::optional<StructuredView>>(op)
      .Case([](tosa::AddOp op) {
        return viewTosaElementwise(op, ScalarKind::Add,
                                   {op.getInput1(), op.getInput2()});
      })
      .Case([](tosa::SubOp op) {
        return viewTosaElementwise(op, ScalarKind::Sub,
                                   {op.getInput1(), op.getInput2()});
      })
      .Case([](tosa::MulOp op) -> std::optional<StructuredView> {
        // A float multiply has a zero shift; anything else is not understood.
        auto shift = op.getShift().getDefiningOp<tosa::ConstOp>();
        auto values =
            shift ? dyn_cast<DenseIntElementsAttr>(shift.getValues()) : nullptr;
        if (!values || !values.isSplat() ||
            !values.getSplatValue<APInt>().isZero())
          return std::nullopt;
        return viewTosaElementwise(op, ScalarKind::Mul,
                                   {op.getInput1(), op.getInput2()});
      })
      .Case([](tosa::MaximumOp op) {
        ScalarKind kind = op.getNanMode() == tosa::NanPropagationMode::IGNORE
                              ? ScalarKind::MaxNum
                              : ScalarKind::Max;
        return viewTosaElementwise(op, kind, {op.getInput1(), op.getInput2()});
      })
      .Case([](tosa::ExpOp op) {
        return viewTosaElementwise(op, ScalarKind::Exp, {op.getInput1()});
      })
      .Case([](tosa::LogOp op) {
        return viewTosaElementwise(op, ScalarKind::Log, {op.getInput1()});
      })
      .Case([](tosa::ReciprocalOp op) -> std::optional<StructuredView> {
        // reciprocal(x) = 1 / x.
        StructuredView view = makeElementwiseView(op);
        auto resultType = cast<RankedTensorType>(op.getType());
        unsigned input = addInput(view, op.getInput1(),
                                  getBroadcastMap(op.getInput1(), resultType));
        unsigned one = addConstant(view, 1.0);
        view.root = addNode(view, ScalarKind::Div, {one, input});
        return view;
      })
      .Case([](tosa::SelectOp op) {
        return viewTosaElementwise(
            op, ScalarKind::Select,
            {op.getInput1(), op.getInput2(), op.getInput3()});
      })
      .Case([](tosa::CastOp op) { return viewTosaCast(op); })
      .Case([](tosa::ReduceMaxOp op) {
        ScalarKind kind = op.getNanMode() == tosa::NanPropagationMode::IGNORE
                              ? ScalarKind::MaxNum
                              : ScalarKind::Max;
        return viewTosaReduce(op, op.getInput(), op.getAxis(), kind);
      })
      .Case([](tosa::ReduceSumOp op) {
        return viewTosaReduce(op, op.getInput(), op.getAxis(),
                              ScalarKind::Add);
      })
      .Case([](tosa::MatMulOp op) { return viewTosaMatmul(op); })
      .Case([](tosa::TransposeOp op) { return viewTosaTranspose(op); })
      .Default([](Operation *) { return std::nullopt; });
}
