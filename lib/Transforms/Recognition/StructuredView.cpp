//===- StructuredView.cpp - Ops seen as linalg-style generics -------------===//
//
// Stage: recognition (how it is found). Builds the StructuredView of linalg
// structured ops (from their indexing maps and payload) and of the TOSA ops
// that frontends use to spell attention (from their documented semantics,
// with TOSA's implicit broadcasting written as constant-0 map results).
//
//===----------------------------------------------------------------------===//

#include "StructuredView.h"
#include "Normalization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fa::recognition;

bool StructuredView::hasReduction() const {
  return llvm::is_contained(reductionLoops, true);
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
  case ScalarKind::Tanh:
    return "tanh";
  case ScalarKind::Select:
    return "select";
  case ScalarKind::ExtF:
    return "extf";
  case ScalarKind::TruncF:
    return "truncf";
  case ScalarKind::BoolToFloat:
    return "bool-to-float";
  case ScalarKind::Compare:
    return "compare";
  case ScalarKind::Not:
    return "not";
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

/// exp2(x) as exp(ln 2 · x): the same function (up to rounding), so that
/// the softmax of exp2 of log2(e)-scaled scores (IREE's and Triton's
/// decomposition) is read as the softmax of the scores.
unsigned exp2AsExp(StructuredView &view, unsigned x, Type resultType);

/// An arithmetic node, normalized: an identity step (x + 0, x * 1, ...) is
/// its operand x, and an operation on constants is folded in `resultType`.
unsigned addOp(StructuredView &view, ScalarKind kind,
               ArrayRef<unsigned> operands, Type resultType) {
  if (std::optional<unsigned> same = simplifyIdentity(view, kind, operands))
    return *same;
  SmallVector<double, 3> constants;
  for (unsigned operand : operands)
    if (view.node(operand).kind == ScalarKind::Constant)
      constants.push_back(view.node(operand).constant);
  if (!operands.empty() && constants.size() == operands.size())
    if (std::optional<double> folded = foldScalar(kind, constants, resultType))
      return addConstant(view, *folded);
  return addNode(view, kind, operands);
}

unsigned exp2AsExp(StructuredView &view, unsigned x, Type resultType) {
  unsigned ln2 = addConstant(view, std::log(2.0));
  unsigned scaled = addOp(view, ScalarKind::Mul, {x, ln2}, resultType);
  return addOp(view, ScalarKind::Exp, {scaled}, resultType);
}

unsigned addInput(StructuredView &view, Value tensor, AffineMap map) {
  if (std::optional<double> splat = evaluateConstant(tensor))
    return addConstant(view, *splat);
  view.inputs.push_back(tensor);
  view.inputMaps.push_back(map);
  unsigned index = addNode(view, ScalarKind::Input);
  view.nodes[index].input = view.inputs.size() - 1;
  return index;
}

/// A float comparison (nan_to_num's x != x, a clamp's x > c): the
/// predicate rides in the node's constant. Never folded: the matcher reads
/// comparisons only as conditions of selects on the scores.
unsigned addComparison(StructuredView &view, arith::CmpFPredicate predicate,
                       unsigned lhs, unsigned rhs) {
  unsigned index = addNode(view, ScalarKind::Compare, {lhs, rhs});
  view.nodes[index].constant = static_cast<double>(predicate);
  return index;
}

//===----------------------------------------------------------------------===//
// linalg: maps and iterators from the op, the scalar tree from its payload.
//===----------------------------------------------------------------------===//

/// The one table of arith and math ops the recognizer reads, on scalars
/// in a linalg body and on whole tensors alike: the scalar meaning of
/// `op`, Other for anything else. (exp2 is Exp of ln 2 times its operand:
/// callers build that with exp2AsExp; a comparison keeps its predicate,
/// addComparison.)
ScalarKind arithScalarKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, ScalarKind>(op)
      .Case([](arith::AddFOp) { return ScalarKind::Add; })
      .Case([](arith::SubFOp) { return ScalarKind::Sub; })
      .Case([](arith::MulFOp) { return ScalarKind::Mul; })
      .Case([](arith::DivFOp) { return ScalarKind::Div; })
      .Case([](arith::MaximumFOp) { return ScalarKind::Max; })
      .Case([](arith::MaxNumFOp) { return ScalarKind::MaxNum; })
      .Case<math::ExpOp, math::Exp2Op>(
          [](Operation *) { return ScalarKind::Exp; })
      .Case([](math::LogOp) { return ScalarKind::Log; })
      .Case([](arith::NegFOp) { return ScalarKind::Neg; })
      .Case([](math::TanhOp) { return ScalarKind::Tanh; })
      .Case([](arith::ExtFOp) { return ScalarKind::ExtF; })
      .Case([](arith::TruncFOp) { return ScalarKind::TruncF; })
      .Case([](arith::UIToFPOp op) {
        return getElementTypeOrSelf(op.getIn().getType()).isInteger(1)
                   ? ScalarKind::BoolToFloat
                   : ScalarKind::Other;
      })
      .Case([](arith::SelectOp) { return ScalarKind::Select; })
      .Case([](arith::CmpFOp) { return ScalarKind::Compare; })
      .Default([](Operation *) { return ScalarKind::Other; });
}

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
    if (!view.nodes[node].scalar && value.getParentBlock() == body)
      view.nodes[node].scalar = value;
    return node;
  }

private:
  unsigned translateUncached(Value value) {
    Operation *def = value.getDefiningOp();
    // Compile-time constants, captured from above or computed in the body
    // from constants (1 / sqrt(64.0), say).
    if (std::optional<double> constant = evaluateConstant(value))
      return addConstant(view, *constant);
    if (!def || def->getBlock() != body)
      return addNode(view, ScalarKind::Other);
    Type type = value.getType();
    auto unary = [&](ScalarKind kind) {
      return addOp(view, kind, {translate(def->getOperand(0))}, type);
    };
    auto binary = [&](ScalarKind kind) {
      unsigned lhs = translate(def->getOperand(0));
      unsigned rhs = translate(def->getOperand(1));
      return addOp(view, kind, {lhs, rhs}, type);
    };
    ScalarKind kind = arithScalarKind(def);
    switch (kind) {
    case ScalarKind::Other:
      return addNode(view, ScalarKind::Other);
    case ScalarKind::Exp:
      if (isa<math::Exp2Op>(def))
        return exp2AsExp(view, translate(def->getOperand(0)), type);
      return unary(kind);
    case ScalarKind::Compare: {
      auto compare = cast<arith::CmpFOp>(def);
      return addComparison(view, compare.getPredicate(),
                           translate(compare.getLhs()),
                           translate(compare.getRhs()));
    }
    case ScalarKind::Select: {
      auto select = cast<arith::SelectOp>(def);
      unsigned condition = translate(select.getCondition());
      unsigned onTrue = translate(select.getTrueValue());
      unsigned onFalse = translate(select.getFalseValue());
      return addNode(view, ScalarKind::Select, {condition, onTrue, onFalse});
    }
    default:
      return def->getNumOperands() == 1 ? unary(kind) : binary(kind);
    }
  }

  StructuredView &view;
  Block *body;
  llvm::DenseMap<Value, unsigned> nodes;
};

/// `map` with each read of a static size-1 operand dim at index 0 replaced
/// by a loop of extent 1 that the map does not use (the one at the same
/// position when there is a choice): the same element, since that loop only
/// takes the value 0. torch-mlir copies a [1, H, N, D] tensor with the map
/// (0, d1, d2, d3); read this way the copy is an identity, and the dim keeps
/// the role of its loop instead of looking broadcast.
AffineMap readUnitDimsAsLoops(AffineMap map, Type operandType,
                              ArrayRef<int64_t> loopRanges) {
  auto type = dyn_cast<RankedTensorType>(operandType);
  if (!type || type.getRank() != map.getNumResults())
    return map;
  SmallVector<AffineExpr> results(map.getResults());
  bool changed = false;
  for (auto [position, expr] : llvm::enumerate(results)) {
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0 ||
        type.getDimSize(position) != 1)
      continue;
    SmallVector<unsigned> unused;
    for (auto [loop, range] : llvm::enumerate(loopRanges)) {
      AffineExpr loopExpr = getAffineDimExpr(loop, map.getContext());
      if (range == 1 && !llvm::is_contained(results, loopExpr))
        unused.push_back(loop);
    }
    std::optional<unsigned> chosen;
    if (llvm::is_contained(unused, position))
      chosen = position;
    else if (unused.size() == 1)
      chosen = unused.front();
    if (!chosen)
      continue;
    results[position] = getAffineDimExpr(*chosen, map.getContext());
    changed = true;
  }
  if (!changed)
    return map;
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                        map.getContext());
}

/// The view of result `resultNumber` of a linalg op. An op with more
/// results is seen through the one asked for when nobody uses the others
/// (torch's max over a dim also yields the argmax).
std::optional<StructuredView> viewLinalg(linalg::LinalgOp op,
                                         unsigned resultNumber) {
  if (op.getNumDpsInits() != op->getNumResults() ||
      !op.hasPureTensorSemantics())
    return std::nullopt;
  for (OpResult other : op->getResults())
    if (other.getResultNumber() != resultNumber && !other.use_empty())
      return std::nullopt;
  StructuredView view;
  view.op = op;
  view.result = op->getResult(resultNumber);
  view.numLoops = op.getNumLoops();
  for (utils::IteratorType type : op.getIteratorTypesArray())
    view.reductionLoops.push_back(type == utils::IteratorType::reduction);
  OpOperand *init = op.getDpsInitOperand(resultNumber);
  view.resultMap = op.getMatchingIndexingMap(init);
  view.initConstant = evaluateConstant(init->get());
  if (!view.initConstant && isZeroRescale(init->get()))
    view.initConstant = 0.0;

  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != op->getNumOperands())
    return std::nullopt;
  PayloadTranslator translator(view, body);
  SmallVector<int64_t> loopRanges = op.getStaticLoopRanges();
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    BlockArgument arg = body->getArgument(input->getOperandNumber());
    unsigned node;
    if (isa<RankedTensorType>(value.getType()))
      node = addInput(view, value,
                      readUnitDimsAsLoops(op.getMatchingIndexingMap(input),
                                          value.getType(), loopRanges));
    else if (std::optional<double> splat = evaluateConstant(value))
      node = addConstant(view, *splat);
    else
      node = addNode(view, ScalarKind::Other);
    translator.bind(arg, node);
  }
  // Only the asked-for result's accumulator is understood.
  for (OpOperand &other : op.getDpsInitsMutable())
    if (&other != init)
      translator.bind(body->getArgument(other.getOperandNumber()),
                      addNode(view, ScalarKind::Other));
  // An elementwise op that reads its destination (IREE's decomposition
  // writes `outs(%scores)` and reads it in the body) reads a tensor like
  // any input; only a reduction's accumulator, or a constant destination,
  // is the Init its matchers know.
  BlockArgument initArg = body->getArgument(init->getOperandNumber());
  bool readsDestination = !initArg.use_empty() && !view.initConstant &&
                          llvm::none_of(view.reductionLoops,
                                        [](bool reduced) { return reduced; }) &&
                          isa<RankedTensorType>(init->get().getType());
  translator.bind(initArg,
                  readsDestination
                      ? addInput(view, init->get(),
                                 readUnitDimsAsLoops(view.resultMap,
                                                     init->get().getType(),
                                                     loopRanges))
                      : addNode(view, ScalarKind::Init));
  Operation *yield = body->getTerminator();
  if (yield->getNumOperands() != op->getNumResults())
    return std::nullopt;
  view.root = translator.translate(yield->getOperand(resultNumber));
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

/// TOSA's float comparisons: equal, greater, greater_equal (operands
/// broadcast like any elementwise op).
std::optional<StructuredView> viewTosaComparison(Operation *op,
                                                 arith::CmpFPredicate predicate,
                                                 Value lhs, Value rhs) {
  if (!isa<FloatType>(getElementTypeOrSelf(lhs.getType())))
    return std::nullopt;
  StructuredView view = makeElementwiseView(op);
  auto resultType = cast<RankedTensorType>(view.result.getType());
  SmallVector<unsigned, 2> nodes;
  for (Value operand : {lhs, rhs}) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || type.getRank() != resultType.getRank())
      return std::nullopt;
    nodes.push_back(
        addInput(view, operand, getBroadcastMap(operand, resultType)));
  }
  view.root = addComparison(view, predicate, nodes[0], nodes[1]);
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
  if (isa<math::Exp2Op>(op)) {
    view.root = exp2AsExp(view, nodes[0], resultType.getElementType());
    return view;
  }
  view.root = addOp(view, kind, nodes, resultType.getElementType());
  return view;
}

/// A copy of `input` with the same shape: reshapes and casts that change
/// nothing.
std::optional<StructuredView> viewIdentityCopy(Operation *op, Value input) {
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!inputType || inputType.getRank() != resultType.getRank() ||
      inputType.getElementType() != resultType.getElementType())
    return std::nullopt;
  for (auto [from, to] : llvm::zip(inputType.getShape(), resultType.getShape()))
    if (!ShapedType::isDynamic(from) && !ShapedType::isDynamic(to) &&
        from != to)
      return std::nullopt;
  // A reshape between dynamic shapes may regroup elements.
  if (!isa<tensor::CastOp>(op) &&
      (!inputType.hasStaticShape() || inputType != resultType))
    return std::nullopt;
  StructuredView view = makeElementwiseView(op);
  view.root = addInput(view, input, view.resultMap);
  return view;
}

/// A reshape that only inserts or drops unit dims is a copy: each group of
/// its reassociation holds at most one dim that is not a static 1, and that
/// dim is read where it lands (a [B, N] row max kept as [B, N, 1], say).
/// `groups` index the wide side's dims; the narrow side has one per group.
std::optional<StructuredView>
viewUnitReshape(Operation *op, Value source,
                ArrayRef<ReassociationIndices> groups) {
  auto sourceType = dyn_cast<RankedTensorType>(source.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!sourceType || sourceType.getRank() == resultType.getRank())
    return std::nullopt;
  bool isExpand = resultType.getRank() > sourceType.getRank();
  RankedTensorType wide = isExpand ? resultType : sourceType;
  MLIRContext *ctx = op->getContext();
  // For each group, the wide dim that carries the data (or none).
  SmallVector<std::optional<int64_t>> carriers;
  for (const ReassociationIndices &group : groups) {
    std::optional<int64_t> carrier;
    for (int64_t dim : group) {
      if (wide.getDimSize(dim) == 1)
        continue;
      if (carrier)
        return std::nullopt;
      carrier = dim;
    }
    carriers.push_back(carrier);
  }
  SmallVector<AffineExpr> results;
  if (isExpand) {
    // Loops are the wide result's dims; the source dim of group g is read
    // at its carrier's loop (or at 0 when the group is all unit dims).
    for (std::optional<int64_t> carrier : carriers)
      results.push_back(carrier ? getAffineDimExpr(*carrier, ctx)
                                : getAffineConstantExpr(0, ctx));
  } else {
    // Loops are the narrow result's dims; wide dim d of group g is read at
    // loop g when it carries the data, at 0 otherwise.
    results.assign(wide.getRank(), getAffineConstantExpr(0, ctx));
    for (auto [index, carrier] : llvm::enumerate(carriers))
      if (carrier)
        results[*carrier] = getAffineDimExpr(index, ctx);
  }
  StructuredView view = makeElementwiseView(op);
  view.root = addInput(view, source,
                       AffineMap::get(view.numLoops, 0, results, ctx));
  return view;
}

std::optional<StructuredView> viewTosaReshape(tosa::ReshapeOp op) {
  auto sourceType = cast<RankedTensorType>(op.getInput1().getType());
  auto resultType = cast<RankedTensorType>(op.getType());
  if (sourceType.getRank() == resultType.getRank())
    return viewIdentityCopy(op, op.getInput1());
  if (!sourceType.hasStaticShape() || !resultType.hasStaticShape())
    return std::nullopt;
  bool isExpand = resultType.getRank() > sourceType.getRank();
  std::optional<SmallVector<ReassociationIndices>> groups =
      getReassociationIndicesForCollapse(
          isExpand ? resultType.getShape() : sourceType.getShape(),
          isExpand ? sourceType.getShape() : resultType.getShape());
  if (!groups)
    return std::nullopt;
  return viewUnitReshape(op, op.getInput1(), *groups);
}

/// arith and math ops applied to whole tensors: operands have the result's
/// shape (arith does not broadcast), so every map is the identity.
std::optional<StructuredView> viewTensorArith(Operation *op) {
  ScalarKind kind = arithScalarKind(op);
  // A scalar condition picks a whole tensor: not elementwise.
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && !isa<RankedTensorType>(select.getCondition().getType()))
    return std::nullopt;
  if (kind == ScalarKind::Other)
    return std::nullopt;
  StructuredView view = makeElementwiseView(op);
  auto resultType = cast<RankedTensorType>(view.result.getType());
  SmallVector<unsigned> nodes;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || type.getShape() != resultType.getShape())
      return std::nullopt;
    nodes.push_back(addInput(view, operand, view.resultMap));
  }
  if (isa<math::Exp2Op>(op)) {
    view.root = exp2AsExp(view, nodes[0], resultType.getElementType());
    return view;
  }
  if (auto compare = dyn_cast<arith::CmpFOp>(op)) {
    view.root = addComparison(view, compare.getPredicate(), nodes[0], nodes[1]);
    return view;
  }
  view.root = addOp(view, kind, nodes, resultType.getElementType());
  return view;
}

std::optional<StructuredView> viewTosaCast(tosa::CastOp op) {
  Type from = getElementTypeOrSelf(op.getInput().getType());
  Type to = getElementTypeOrSelf(op.getType());
  ScalarKind kind = ScalarKind::Other;
  if (from.isInteger(1) && isa<FloatType>(to))
    kind = ScalarKind::BoolToFloat;
  else if (from == to)
    return viewIdentityCopy(op, op.getInput());
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
    std::optional<double> value = evaluateConstant(zeroPoint);
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

/// tosa.tile that only repeats unit dims is a broadcast: those dims are
/// read at index 0. Repeating a real dim (i mod n) is not an affine read.
std::optional<StructuredView> viewTosaTile(tosa::TileOp op) {
  SmallVector<int64_t> multiples;
  if (!tosa::getConstShapeValues(op.getMultiples().getDefiningOp(), multiples))
    return std::nullopt;
  auto inputType = cast<RankedTensorType>(op.getInput1().getType());
  MLIRContext *ctx = op->getContext();
  SmallVector<AffineExpr> results;
  for (auto [dim, multiple] : llvm::enumerate(multiples)) {
    if (multiple == 1) {
      results.push_back(getAffineDimExpr(dim, ctx));
      continue;
    }
    if (inputType.getDimSize(dim) != 1)
      return std::nullopt;
    results.push_back(getAffineConstantExpr(0, ctx));
  }
  StructuredView view = makeElementwiseView(op);
  view.root = addInput(view, op.getInput1(),
                       AffineMap::get(multiples.size(), 0, results, ctx));
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
  if (!op || !isa<RankedTensorType>(value.getType()))
    return std::nullopt;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return viewLinalg(linalgOp, cast<OpResult>(value).getResultNumber());
  if (op->getNumResults() != 1)
    return std::nullopt;
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return viewTensorArith(op);
  return llvm::TypeSwitch<Operation *, std::optional<StructuredView>>(op)
      .Case([](tensor::CastOp op) {
        return viewIdentityCopy(op, op.getSource());
      })
      .Case([](tensor::ReshapeOp op) {
        return viewIdentityCopy(op, op.getSource());
      })
      .Case([](tosa::ReshapeOp op) { return viewTosaReshape(op); })
      .Case([](tensor::ExpandShapeOp op) {
        return viewUnitReshape(op, op.getSrc(), op.getReassociationIndices());
      })
      .Case([](tensor::CollapseShapeOp op) {
        return viewUnitReshape(op, op.getSrc(), op.getReassociationIndices());
      })
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
      .Case([](tosa::TanhOp op) {
        return viewTosaElementwise(op, ScalarKind::Tanh, {op.getInput()});
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
        view.root = addOp(view, ScalarKind::Div, {one, input},
                          resultType.getElementType());
        return view;
      })
      .Case([](tosa::SelectOp op) {
        return viewTosaElementwise(
            op, ScalarKind::Select,
            {op.getInput1(), op.getInput2(), op.getInput3()});
      })
      .Case([](tosa::CastOp op) { return viewTosaCast(op); })
      .Case([](tosa::EqualOp op) {
        return viewTosaComparison(op, arith::CmpFPredicate::OEQ, op.getInput1(),
                                  op.getInput2());
      })
      .Case([](tosa::GreaterOp op) {
        return viewTosaComparison(op, arith::CmpFPredicate::OGT, op.getInput1(),
                                  op.getInput2());
      })
      .Case([](tosa::GreaterEqualOp op) {
        return viewTosaComparison(op, arith::CmpFPredicate::OGE, op.getInput1(),
                                  op.getInput2());
      })
      .Case([](tosa::LogicalNotOp op) -> std::optional<StructuredView> {
        if (!getElementTypeOrSelf(op.getInput1().getType()).isInteger(1))
          return std::nullopt;
        return viewTosaElementwise(op, ScalarKind::Not, {op.getInput1()});
      })
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
      .Case([](tosa::TileOp op) { return viewTosaTile(op); })
      .Default([](Operation *) { return std::nullopt; });
}
