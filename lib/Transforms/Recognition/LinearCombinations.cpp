//===- LinearCombinations.cpp - P·V over a sum of softmaxes --------------===//
//
// Stage: recognition (normalization before matching). See the header. The
// rewrite is exact up to rounding (a contraction is linear in each
// operand); it keeps every value the program returns and only moves where
// the combination is applied. It applies where the combined tensors each
// come from an exponential (two softmaxes, say), so that ordinary matmul
// chains keep their form.
//
//===----------------------------------------------------------------------===//

#include "LinearCombinations.h"
#include "FrontendCalls.h"
#include "Normalization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace {

/// Whether `value` is computed from an exponential within a few producers
/// (a softmax's division, a cast after it).
bool reachesExponential(Value value, unsigned depth = 6) {
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0)
    return false;
  if (fa::recognition::isExponential(def))
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return reachesExponential(operand, depth - 1);
  });
}

/// Whether `body` yields a function of the block arguments in `terms` that
/// is linear and homogeneous in them: sums and differences of such
/// functions, products and quotients with values that do not depend on
/// them, negations and float casts. (A constant added would make it
/// affine; a product of two terms, quadratic.)
bool isLinearIn(Block *body, const llvm::SmallDenseSet<Value> &terms) {
  llvm::SmallDenseSet<Value> linear(terms.begin(), terms.end());
  for (Operation &op : body->without_terminator()) {
    auto isLinear = [&](Value v) { return linear.contains(v); };
    unsigned linearOperands = llvm::count_if(op.getOperands(), isLinear);
    if (linearOperands == 0)
      continue; // a factor: any pure computation of the other inputs
    if (op.getNumResults() != 1 || !isPure(&op))
      return false;
    bool ok =
        llvm::TypeSwitch<Operation *, bool>(&op)
            .Case<arith::AddFOp, arith::SubFOp>(
                [&](Operation *) { return linearOperands == 2; })
            .Case([&](arith::MulFOp) { return linearOperands == 1; })
            .Case([&](arith::DivFOp divide) {
              return isLinear(divide.getLhs()) && !isLinear(divide.getRhs());
            })
            .Case<arith::NegFOp, arith::ExtFOp, arith::TruncFOp>(
                [](Operation *) { return true; })
            .Default([](Operation *) { return false; });
    if (!ok)
      return false;
    linear.insert(op.getResult(0));
  }
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return yield.getNumOperands() == 1 && linear.contains(yield.getOperand(0));
}

/// Distributes `contraction` over the combination `combination` that
/// computes its operand `operandNumber`; false (nothing changed) where a
/// condition of the header does not hold, with the reason in `why` when
/// the operand combines two or more tensors computed from exponentials.
/// Without a rewriter, only checks.
bool distribute(RewriterBase *rewriter, linalg::LinalgOp contraction,
                unsigned operandNumber, linalg::LinalgOp combination,
                std::string &why) {
  auto refuse = [&](StringRef reason) {
    why = reason.str();
    return false;
  };
  if (combination->getNumResults() != 1 ||
      combination.getNumReductionLoops() != 0 ||
      combination.getNumDpsInits() != 1)
    return false;
  Block *body = combination.getBlock();
  AffineMap resultMap =
      combination.getMatchingIndexingMap(combination.getDpsInitOperand(0));
  bool readsDestination =
      !combination.getMatchingBlockArgument(combination.getDpsInitOperand(0))
           .use_empty();
  Type resultElement = getElementTypeOrSelf(contraction->getResult(0));

  // The combined tensors: read whole (identity map), of the operand's
  // type, computed from an exponential. Everything else is a factor.
  SmallVector<OpOperand *> terms, factors;
  llvm::SmallDenseSet<Value> termArguments;
  for (OpOperand *input : combination.getDpsInputOperands()) {
    Value tensor = input->get();
    if (combination.getMatchingIndexingMap(input).isIdentity() &&
        tensor.getType() == combination->getResult(0).getType() &&
        reachesExponential(tensor)) {
      terms.push_back(input);
      termArguments.insert(combination.getMatchingBlockArgument(input));
    } else {
      factors.push_back(input);
    }
  }
  if (terms.size() < 2)
    return false;
  // From here on the operand combines softmaxes: each refusal says why.
  if (!resultMap.isIdentity() || readsDestination)
    return refuse("the combination reads its destination or writes its "
                  "result in another order than it reads the softmaxes");
  if (getElementTypeOrSelf(combination->getResult(0)) != resultElement)
    return refuse("the combination's element type is not P·V's");
  if (!isLinearIn(body, termArguments))
    return refuse("the combination is not linear and homogeneous in the "
                  "softmaxes (a product of two of them, a function of one, "
                  "or a constant added)");
  // A weight computed from positions (linalg.index) would read the new
  // op's loops, which are not the combination's.
  if (!body->getOps<linalg::IndexOp>().empty())
    return refuse("a weight of the combination is computed from positions "
                  "(linalg.index)");

  // A factor must be the same for every element the contraction sums
  // over: its map reads only loops of the combination that are parallel
  // loops of the contraction appearing in its result (or constants).
  // combination loop k = operand dim k (identity result map) = the
  // contraction loop its operand map puts there.
  OpOperand &operand = contraction->getOpOperand(operandNumber);
  AffineMap operandMap = contraction.getMatchingIndexingMap(&operand);
  AffineMap contractionResult =
      contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  if (!operandMap.isProjectedPermutation() ||
      !contractionResult.isProjectedPermutation())
    return refuse("P·V reads the combination through a map that is not a "
                  "projected permutation");
  SmallVector<int64_t> loopToResultDim(combination.getNumLoops(), -1);
  for (auto [dim, expr] : llvm::enumerate(operandMap.getResults())) {
    unsigned loop = cast<AffineDimExpr>(expr).getPosition();
    std::optional<unsigned> position =
        contractionResult.getResultPosition(expr);
    if (position && contraction.getIteratorTypesArray()[loop] ==
                        utils::IteratorType::parallel)
      loopToResultDim[dim] = *position;
  }
  MLIRContext *ctx = contraction->getContext();
  unsigned resultRank = contractionResult.getNumResults();
  SmallVector<AffineMap> factorMaps;
  for (OpOperand *factor : factors) {
    SmallVector<AffineExpr> results;
    for (AffineExpr expr :
         combination.getMatchingIndexingMap(factor).getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        int64_t to = loopToResultDim[dim.getPosition()];
        if (to < 0) // varies along what the contraction sums
          return refuse("a weight of the combination varies along the keys "
                        "P·V sums over");
        results.push_back(getAffineDimExpr(to, ctx));
      } else if (isa<AffineConstantExpr>(expr)) {
        results.push_back(expr);
      } else {
        return refuse("a weight of the combination is read at a computed "
                      "index");
      }
    }
    factorMaps.push_back(AffineMap::get(resultRank, 0, results, ctx));
  }

  if (!rewriter)
    return true;
  // One contraction per combined tensor, then the combination of their
  // results by the same body.
  OpBuilder::InsertionGuard guard(*rewriter);
  rewriter->setInsertionPoint(contraction);
  Location loc = contraction->getLoc();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  AffineMap identity = AffineMap::getMultiDimIdentityMap(resultRank, ctx);
  for (OpOperand *term : terms) {
    Operation *copy = rewriter->clone(*contraction);
    copy->setOperand(operandNumber, term->get());
    inputs.push_back(copy->getResult(0));
    maps.push_back(identity);
  }
  for (auto [factor, map] : llvm::zip(factors, factorMaps)) {
    inputs.push_back(factor->get());
    maps.push_back(map);
  }
  Value result = contraction->getResult(0);
  Value empty = tensor::EmptyOp::create(
      *rewriter, loc, tensor::getMixedSizes(*rewriter, loc, inputs.front()),
      resultElement);
  maps.push_back(identity);
  auto combined = linalg::GenericOp::create(
      *rewriter, loc, result.getType(), inputs, ValueRange{empty}, maps,
      SmallVector<utils::IteratorType>(resultRank,
                                       utils::IteratorType::parallel));
  // The new block's arguments: the terms' results, the factors, the init.
  Block *block = rewriter->createBlock(&combined.getRegion());
  IRMapping mapping;
  for (OpOperand *term : terms)
    mapping.map(combination.getMatchingBlockArgument(term),
                block->addArgument(resultElement, loc));
  for (OpOperand *factor : factors) {
    BlockArgument argument = combination.getMatchingBlockArgument(factor);
    mapping.map(argument, block->addArgument(argument.getType(), loc));
  }
  block->addArgument(resultElement, loc);
  rewriter->setInsertionPointToStart(block);
  for (Operation &op : *body)
    rewriter->clone(op, mapping);
  rewriter->replaceAllUsesWith(result, combined->getResult(0));
  rewriter->eraseOp(contraction);
  if (combination->use_empty())
    rewriter->eraseOp(combination);
  return true;
}

//===----------------------------------------------------------------------===//
// TOSA: tosa.matmul(reshape(a·P₁ + b·P₂), V), the combination of TOSA
// elementwise ops (add, sub, mul with a zero shift, negate) over tensors
// of its own shape computed from exponentials, and factors whose every dim
// is 1 (a run-time λ reshaped to [1, 1, 1, 1]).
//===----------------------------------------------------------------------===//

bool isTosaFloatMultiply(tosa::MulOp mul) {
  auto shift = mul.getShift().getDefiningOp<tosa::ConstOp>();
  auto values =
      shift ? dyn_cast<DenseIntElementsAttr>(shift.getValues()) : nullptr;
  return values && values.isSplat() && values.getSplatValue<APInt>().isZero();
}

/// A tensor of one element: a factor that is the same for every element.
bool isScalarFactor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getNumElements() == 1;
}

bool isTosaCombinationOp(Operation *op) {
  return isa_and_nonnull<tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::NegateOp>(
      op);
}

/// The combination rooted at `value` (of type `shape`): fills `terms` with
/// its linear leaves; false where it is not linear and homogeneous in
/// them with scalar factors.
bool collectTosaTerms(Value value, RankedTensorType shape,
                      SmallVectorImpl<Value> &terms, unsigned depth = 8) {
  Operation *def = value.getDefiningOp();
  if (value.getType() != shape)
    return false;
  if (!isTosaCombinationOp(def)) {
    if (!reachesExponential(value))
      return false;
    terms.push_back(value);
    return true;
  }
  if (depth == 0)
    return false;
  if (isa<tosa::AddOp, tosa::SubOp>(def))
    return collectTosaTerms(def->getOperand(0), shape, terms, depth - 1) &&
           collectTosaTerms(def->getOperand(1), shape, terms, depth - 1);
  if (auto mul = dyn_cast<tosa::MulOp>(def)) {
    if (!isTosaFloatMultiply(mul))
      return false;
    for (unsigned side = 0; side < 2; ++side)
      if (isScalarFactor(def->getOperand(side)) &&
          def->getOperand(side).getType() != shape)
        return collectTosaTerms(def->getOperand(1 - side), shape, terms,
                                depth - 1);
    // No scalar factor: a term itself (TOSA's softmax ends in exp times
    // the reciprocal of its sum).
    if (!reachesExponential(value))
      return false;
    terms.push_back(value);
    return true;
  }
  auto negate = cast<tosa::NegateOp>(def);
  for (Value zeroPoint : {negate.getInput1Zp(), negate.getOutputZp()}) {
    std::optional<double> zero = fa::recognition::evaluateConstant(zeroPoint);
    if (!zero || *zero != 0)
      return false;
  }
  return collectTosaTerms(negate.getInput1(), shape, terms, depth - 1);
}

/// The combination rebuilt on `results` (each term's matmul in place of
/// the term), of type `resultType`; factors reshaped to its rank.
Value rebuildTosaCombination(ImplicitLocOpBuilder &b, Value value,
                             const llvm::DenseMap<Value, Value> &results,
                             RankedTensorType resultType) {
  if (Value result = results.lookup(value))
    return result;
  Operation *def = value.getDefiningOp();
  auto operand = [&](Value input) -> Value {
    // Terms and the combination's own ops have its shape; a factor has one
    // element (collectTosaTerms), whatever op computed it.
    if (input.getType() == value.getType())
      return rebuildTosaCombination(b, input, results, resultType);
    // A scalar factor, at the result's rank.
    SmallVector<int64_t> ones(resultType.getRank(), 1);
    auto type = RankedTensorType::get(ones, resultType.getElementType());
    return tosa::ReshapeOp::create(b, type, input,
                                   tosa::getTosaConstShape(b, ones));
  };
  if (auto add = dyn_cast<tosa::AddOp>(def))
    return tosa::AddOp::create(b, resultType, operand(add.getInput1()),
                               operand(add.getInput2()));
  if (auto sub = dyn_cast<tosa::SubOp>(def))
    return tosa::SubOp::create(b, resultType, operand(sub.getInput1()),
                               operand(sub.getInput2()));
  if (auto mul = dyn_cast<tosa::MulOp>(def))
    return tosa::MulOp::create(b, resultType, operand(mul.getInput1()),
                               operand(mul.getInput2()), mul.getShift());
  auto negate = cast<tosa::NegateOp>(def);
  return tosa::NegateOp::create(b, resultType, operand(negate.getInput1()),
                                negate.getInput1Zp(), negate.getOutputZp());
}

/// tosa.matmul(A, B) whose A or B is a combination, possibly under
/// reshapes: one matmul per term (under the same reshapes), combined by
/// the same ops on the results.
bool distributeTosaMatmul(RewriterBase &rewriter, tosa::MatMulOp matmul) {
  auto resultType = cast<RankedTensorType>(matmul.getType());
  for (unsigned operandNumber : {0u, 1u}) {
    SmallVector<tosa::ReshapeOp> reshapes; // outermost first
    Value combined = matmul->getOperand(operandNumber);
    while (auto reshape = combined.getDefiningOp<tosa::ReshapeOp>()) {
      reshapes.push_back(reshape);
      combined = reshape.getInput1();
    }
    auto shape = dyn_cast<RankedTensorType>(combined.getType());
    if (!shape || !shape.hasStaticShape() ||
        shape.getElementType() != resultType.getElementType() ||
        !isTosaCombinationOp(combined.getDefiningOp()))
      continue;
    SmallVector<Value> terms;
    if (!collectTosaTerms(combined, shape, terms) || terms.size() < 2)
      continue;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(matmul);
    ImplicitLocOpBuilder b(matmul.getLoc(), matmul);
    llvm::DenseMap<Value, Value> results;
    for (Value term : terms) {
      if (results.contains(term))
        continue;
      Value input = term;
      for (tosa::ReshapeOp reshape : llvm::reverse(reshapes))
        input = tosa::ReshapeOp::create(b, reshape.getType(), input,
                                        reshape.getShape());
      Operation *copy = rewriter.clone(*matmul);
      copy->setOperand(operandNumber, input);
      results[term] = copy->getResult(0);
    }
    Value replacement =
        rebuildTosaCombination(b, combined, results, resultType);
    rewriter.replaceAllUsesWith(matmul.getResult(), replacement);
    rewriter.eraseOp(matmul);
    return true;
  }
  return false;
}

} // namespace

unsigned
mlir::fa::recognition::distributeOverLinearCombinations(Operation *root) {
  SmallVector<linalg::LinalgOp> contractions;
  root->walk([&](linalg::LinalgOp op) {
    if (linalg::isaContractionOpInterface(op) && op->getNumResults() == 1)
      contractions.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  unsigned distributed = 0;
  SmallVector<tosa::MatMulOp> matmuls;
  root->walk([&](tosa::MatMulOp op) { matmuls.push_back(op); });
  for (tosa::MatMulOp matmul : matmuls)
    distributed += distributeTosaMatmul(rewriter, matmul);
  for (linalg::LinalgOp contraction : contractions) {
    for (OpOperand *input : contraction.getDpsInputOperands()) {
      auto combination = input->get().getDefiningOp<linalg::LinalgOp>();
      std::string why;
      if (combination && !linalg::isaContractionOpInterface(combination) &&
          distribute(&rewriter, contraction, input->getOperandNumber(),
                     combination, why)) {
        ++distributed;
        break;
      }
    }
  }
  return distributed;
}

std::string mlir::fa::recognition::whyNotDistributed(Operation *contractionOp) {
  auto contraction = dyn_cast<linalg::LinalgOp>(contractionOp);
  if (!contraction || !linalg::isaContractionOpInterface(contraction) ||
      contraction->getNumResults() != 1)
    return "";
  for (OpOperand *input : contraction.getDpsInputOperands()) {
    auto combination = input->get().getDefiningOp<linalg::LinalgOp>();
    std::string why;
    if (combination && !linalg::isaContractionOpInterface(combination) &&
        !distribute(nullptr, contraction, input->getOperandNumber(),
                    combination, why) &&
        !why.empty())
      return why;
  }
  return "";
}
