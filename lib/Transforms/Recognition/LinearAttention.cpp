//===- LinearAttention.cpp - Finding linear attention ---------------------===//
//
// Stage: recognition (what is found). The linear mode of the chain matcher
// (ChainMatcher.h): the second product is read as P·V with the weights in
// P's place (matchValueContraction), the walk from the weights back to
// Q·Kᵀ accepts only what fa.linear_attention states, and Q and K are read
// as for softmax attention (matchQueryKey), so layouts, batch splits and
// grouped heads come for free. See LinearAttention.h.
//
// What each accepted step means, and why nothing else is:
//   - a constant factor (or divisor, or a negation) is the op's scale;
//   - select(c, W, 0), select(c, 0, W) and W · m with m a 0/1 tensor are
//     masks; W · D with D a table is a decay. Together they must equal
//     [j <= i] · γ_h^(i−j) for one γ per query head, read from their
//     values at compile time (a constant, or computed from positions) or,
//     for a plain causal mask too large to evaluate, from the comparisons
//     in its body;
//   - W / (Σ_j W + ε), outermost on the weights or on the product, is the
//     op's normalization: the sum must be over the key axis of the very
//     weights the product reads.
// Anything else between the two products (a max with 0, an exp, a tanh,
// a bias, a second product with itself) makes the weights a nonlinear
// function of Q·Kᵀ, for which the reassociation Q·(KᵀV) is wrong.
//
//===----------------------------------------------------------------------===//

#include "ChainMatcher.h"
#include "LinearAttention.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::recognition;
using namespace mlir::fa::recognition::detail;

namespace {

/// Weights tables larger than this are not evaluated (a plain causal mask
/// computed from positions is still read from its body).
constexpr int64_t kMaxEvaluatedWeights = 1 << 22;

/// Whether `value` is computed from a contraction by elementwise ops and
/// reshapes (a row sum on the way is the normalization's, and it reads the
/// same weights, so the walk need not pass it).
bool reachesContraction(Value value, unsigned depth = 12) {
  if (depth == 0)
    return false;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tosa::ReshapeOp>(
          def))
    return reachesContraction(def->getOperand(0), depth - 1);
  std::optional<StructuredView> view = getStructuredView(value);
  if (!view) {
    // An op the recognizer does not read (tosa.clamp, tosa.sigmoid) that
    // keeps the shape: followed, so that what it does to the product is
    // explained rather than passed over.
    auto type = dyn_cast<RankedTensorType>(value.getType());
    return def->getNumResults() == 1 && type &&
           llvm::any_of(def->getOperands(), [&](Value operand) {
             auto operandType = dyn_cast<RankedTensorType>(operand.getType());
             return operandType && operandType.getShape() == type.getShape() &&
                    reachesContraction(operand, depth - 1);
           });
  }
  if (getContraction(*view))
    return true;
  if (view->hasReduction())
    return false;
  return llvm::any_of(view->inputs, [&](Value input) {
    return reachesContraction(input, depth - 1);
  });
}

/// Whether `value` is `target` or computed from it (through any ops, a
/// row sum included).
bool computedFrom(Value value, Value target, unsigned depth = 8) {
  if (value == target)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0)
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return computedFrom(operand, target, depth - 1);
  });
}

/// Why a nonlinear function of the product is not linear attention.
std::string describeNonlinearity(ScalarKind kind, bool withZero) {
  switch (kind) {
  case ScalarKind::Max:
  case ScalarKind::MaxNum:
    return withZero ? "a max with 0 on the product Q·Kᵀ (ReLU attention)"
                    : "a max on the product Q·Kᵀ";
  case ScalarKind::Exp:
    return "an exp on the product Q·Kᵀ (a softmax or sigmoid)";
  case ScalarKind::Tanh:
    return "a tanh on the product Q·Kᵀ";
  case ScalarKind::Log:
    return "a log on the product Q·Kᵀ";
  case ScalarKind::Add:
  case ScalarKind::Sub:
    return "a bias added to the product Q·Kᵀ (without a softmax an additive "
           "mask is not a mask)";
  default:
    return "a " + stringifyScalarKind(kind).str() + " on the product Q·Kᵀ";
  }
}

} // namespace

/// The value of a term that is arithmetic on constants alone (1 / 8, say),
/// or nullopt.
static std::optional<double> foldConstant(Term *term, unsigned depth = 8) {
  if (term->kind == ScalarKind::Constant)
    return term->constant;
  if (depth == 0 || term->operands.empty())
    return std::nullopt;
  SmallVector<double, 2> values;
  for (Term *operand : term->operands) {
    Term *resolved = operand->expansion ? operand->expansion : operand;
    std::optional<double> value = foldConstant(resolved, depth - 1);
    if (!value)
      return std::nullopt;
    values.push_back(*value);
  }
  switch (term->kind) {
  case ScalarKind::Add:
    return values[0] + values[1];
  case ScalarKind::Sub:
    return values[0] - values[1];
  case ScalarKind::Mul:
    return values[0] * values[1];
  case ScalarKind::Div:
    return values[0] / values[1];
  case ScalarKind::Neg:
    return -values[0];
  case ScalarKind::ExtF:
  case ScalarKind::TruncF:
    return values[0];
  default:
    return std::nullopt;
  }
}

bool mlir::fa::recognition::isLinearAttentionCandidate(Operation *op) {
  if (op->getNumResults() != 1 || !isContraction(op))
    return false;
  return llvm::any_of(op->getOperands(), [](Value operand) {
    return reachesContraction(operand);
  });
}

namespace mlir::fa::recognition::detail {

std::optional<LinearAttentionMatch> Matcher::runLinear(unsigned weightsIndex) {
  linearMode = true;
  linearWeightsIndex = weightsIndex;
  std::optional<std::pair<Value, Labels>> weights = matchValueContraction();
  if (!weights) {
    // Not P·V-shaped: some other product of products.
    rejection.category = RejectCategory::NotCandidate;
    return std::nullopt;
  }
  // Unbatched products are as likely two layers of a network as
  // attention: they are raised when everything matches, and refused
  // silently otherwise.
  auto refuse = [&]() -> std::nullopt_t {
    if (numBatchDims == 0)
      rejection.category = RejectCategory::NotCandidate;
    return std::nullopt;
  };
  if (!reachesContraction(weights->first))
    return refuse();

  LinearAttentionMatch result;
  collecting = true;
  inChain = true;
  Term *term = leaf(weights->first, weights->second);
  if (!peelWeightNormalization(term, result.epsilon))
    return refuse();
  Term *contraction = nullptr;
  SmallVector<WeightFactor> factors;
  if (!matchLinearWeights(term, contraction, factors))
    return refuse();
  collecting = false;
  inChain = false;
  if (!matchQueryKey(contraction))
    return refuse();
  Operation *output = root;
  if (!result.epsilon &&
      !peelOutputNormalization(weights->first, weights->second, result.epsilon,
                               output))
    return refuse();
  if (!checkLinearExternalUses(output))
    return refuse();

  OperandTypes types;
  if (!checkOperands(types) || !readGroupedHeads(types))
    return refuse();
  if (!classifyWeightFactors(weights->first, weights->second, factors, result))
    return refuse();

  // The reassociation pays where the sequences are longer than the head
  // dims; two products of small matrices (a low-rank adapter, X·A·B) are
  // cheaper as written.
  auto dimOf = [](ArrayRef<int64_t> permutation, int64_t canonicalDim) {
    return permutation.empty() ? canonicalDim : permutation[canonicalDim];
  };
  int64_t queryRank = types.query.getRank(), keyRank = types.key.getRank();
  auto valueType = cast<RankedTensorType>(match.value.getType());
  int64_t nq = types.query.getDimSize(
      dimOf(match.queryPermutation, queryRank - 2));
  int64_t nk = types.key.getDimSize(dimOf(match.keyPermutation, keyRank - 2));
  int64_t d = types.query.getDimSize(
      dimOf(match.queryPermutation, queryRank - 1));
  int64_t dv = valueType.getDimSize(
      dimOf(match.valuePermutation, valueType.getRank() - 1));
  if (!ShapedType::isDynamic(nq) && !ShapedType::isDynamic(nk)) {
    double quadratic = double(nq) * nk * (d + dv);
    double linear = double(d) * dv * (nq + nk);
    if (linear >= quadratic) {
      reject(RejectCategory::Shape,
             llvm::formatv("at Nq = {0}, Nk = {1}, D = {2}, Dv = {3} the "
                           "order as written is the cheaper one ({4} "
                           "multiply-adds against {5} for Q·(Kᵀ·V))",
                           nq, nk, d, dv, int64_t(quadratic), int64_t(linear))
                 .str());
      return refuse();
    }
  }

  // The op replaces `output`; the second product is part of the pattern.
  match.root = output;
  match.numBatchDims = numBatchDims;
  match.batchSplit = batchSplit;
  match.patternOps.assign(patternOps.begin(), patternOps.end());
  if (output != root)
    match.patternOps.push_back(root);
  result.operands = std::move(match);
  result.output = output;
  return result;
}

/// Whether a tensor the term reads is computed from a contraction through
/// any ops (a row sum of the weights, say).
bool Matcher::readsProduct(Term *term, unsigned depth) {
  std::function<bool(Value, unsigned)> fromProduct = [&](Value value,
                                                         unsigned left) {
    Operation *def = value.getDefiningOp();
    if (!def || left == 0)
      return false;
    if (def->getNumResults() == 1) {
      std::optional<StructuredView> view = getStructuredView(value);
      if (view && getContraction(*view))
        return true;
    }
    return llvm::any_of(def->getOperands(), [&](Value operand) {
      return fromProduct(operand, left - 1);
    });
  };
  if (depth == 0)
    return false;
  term = resolveQuietly(term);
  if (term->kind == ScalarKind::Input)
    return term->value && fromProduct(term->value, 8);
  return llvm::any_of(term->operands, [&](Term *operand) {
    return readsProduct(operand, depth - 1);
  });
}

/// Whether a tensor the term reads is `target` or computed from it.
bool Matcher::readsValue(Term *term, Value target, unsigned depth) {
  if (!target || depth == 0)
    return false;
  if (term->value && computedFrom(term->value, target))
    return true;
  term = resolveQuietly(term);
  if (term->kind == ScalarKind::Input)
    return term->value && computedFrom(term->value, target);
  return llvm::any_of(term->operands, [&](Term *operand) {
    return readsValue(operand, target, depth - 1);
  });
}

/// a / b, or a · (1 / b) (TOSA divides by a reciprocal): sets the two.
bool Matcher::splitQuotient(Term *term, Term *&numerator, Term *&denominator) {
  if (term->kind == ScalarKind::Div) {
    numerator = term->operands[0];
    denominator = term->operands[1];
    return true;
  }
  if (term->kind != ScalarKind::Mul)
    return false;
  for (unsigned side = 0; side < 2; ++side) {
    Term *candidate = resolveQuietly(term->operands[side]);
    if (candidate->kind != ScalarKind::Div)
      continue;
    Term *one = resolveQuietly(candidate->operands[0]);
    if (one->kind != ScalarKind::Constant || one->constant != 1.0)
      continue;
    // Resolved again, collecting: the reciprocal is part of the pattern.
    resolve(term->operands[side]);
    numerator = term->operands[1 - side];
    denominator = candidate->operands[1];
    return true;
  }
  return false;
}

/// W / (Σ_j W + ε) as the outermost step on the weights: the
/// normalization, before the product. Leaves `term` alone when the weights
/// are not divided by a function of the product.
bool Matcher::peelWeightNormalization(Term *&term,
                                      std::optional<double> &epsilon) {
  Term *numerator = nullptr, *denominator = nullptr;
  if (!splitQuotient(peelCasts(term), numerator, denominator) ||
      !readsValue(denominator, numerator->value))
    return true; // a scale, read by matchLinearWeights
  if (!matchNormalizer(denominator, numerator, epsilon))
    return false;
  term = numerator;
  return true;
}

/// `denominator` = Σ_j weights (+ ε): a sum over the key axis of the same
/// tensor the numerator is.
bool Matcher::matchNormalizer(Term *denominator, Term *weights,
                              std::optional<double> &epsilon) {
  Term *sum = peelCasts(denominator);
  double eps = 0;
  if (sum->kind == ScalarKind::Add) {
    Term *lhs = resolve(sum->operands[0]), *rhs = resolve(sum->operands[1]);
    if (lhs->kind == ScalarKind::Constant)
      std::swap(lhs, rhs);
    if (rhs->kind != ScalarKind::Constant)
      return fail(RejectCategory::Structure,
                  "the weights are divided by their row sum plus a tensor, "
                  "not plus a constant epsilon");
    eps = rhs->constant;
    sum = peelCasts(lhs);
  } else if (sum->kind == ScalarKind::Max || sum->kind == ScalarKind::MaxNum) {
    return fail(RejectCategory::Structure,
                "the normalizer clamps the row sum (a max with epsilon); "
                "fa.linear_attention adds its epsilon");
  }
  if (!std::isfinite(eps) || eps < 0)
    return fail(RejectCategory::Structure,
                "the normalizer adds " + formatConstant(eps) +
                    "; an epsilon is finite and not negative");
  if (!matchRowReduction(sum, weights, /*isMax=*/false,
                         "normalizer of the weights"))
    return false;
  epsilon = eps;
  return true;
}

/// From the weights down to Q·Kᵀ: constant scales, masks and decays
/// (collected into `factors`), anything else refused.
bool Matcher::matchLinearWeights(Term *term, Term *&contraction,
                                 SmallVectorImpl<WeightFactor> &factors) {
  auto isZero = [&](Term *t) {
    t = resolveQuietly(t);
    return t->kind == ScalarKind::Constant && t->constant == 0;
  };
  // A factor or condition as a tensor: the operand's own tensor, or the
  // value its body computes, materialized.
  auto tensorOf = [&](Term *t, bool anyType) -> Value {
    if (t->kind == ScalarKind::Input && t->value)
      return t->value;
    return materializeCondition(t, anyType);
  };
  // Computed from Q·Kᵀ, by ops the walk reads or through one it does not
  // (a tosa.clamp, which it then names).
  auto fromProduct = [&](Term *t) {
    return dependsOnContraction(t) || readsProduct(t);
  };
  while (true) {
    term = peelCasts(term);
    switch (term->kind) {
    case ScalarKind::Input: {
      std::optional<StructuredView> view = getStructuredView(term->value);
      if (view && getContraction(*view)) {
        contraction = term;
        return true;
      }
      Operation *def = term->value.getDefiningOp();
      return fail(RejectCategory::Structure,
                  "the weights are computed by " +
                      (def ? def->getName().getStringRef().str()
                           : std::string("a block argument")) +
                      ", not from Q·Kᵀ by a scale, a causal mask and a decay");
    }
    case ScalarKind::Neg:
      match.scale = -match.scale;
      term = term->operands[0];
      continue;
    case ScalarKind::Mul:
    case ScalarKind::Div: {
      bool isDiv = term->kind == ScalarKind::Div;
      Term *lhs = term->operands[0], *rhs = term->operands[1];
      bool lhsProduct = fromProduct(lhs);
      bool rhsProduct = fromProduct(rhs);
      if (lhsProduct && rhsProduct)
        return fail(RejectCategory::Structure,
                    isDiv ? "the weights are divided by a function of Q·Kᵀ "
                            "that is not the row sum of the weights the "
                            "product reads (a normalization before a mask, "
                            "or over a different tensor)"
                          : "the product Q·Kᵀ is multiplied by a function of "
                            "itself (a nonlinearity)");
      if (!lhsProduct) {
        if (isDiv)
          return fail(RejectCategory::Structure,
                      "the weights are a constant divided by Q·Kᵀ");
        std::swap(lhs, rhs);
      }
      Term *factor = resolveQuietly(rhs);
      if (std::optional<double> constant = foldConstant(factor)) {
        if (!std::isfinite(*constant) || *constant == 0)
          return fail(RejectCategory::Scale,
                      "the product is scaled by " + formatConstant(*constant));
        match.scale *= isDiv ? 1.0 / *constant : *constant;
        term = lhs;
        continue;
      }
      if (isDiv)
        return fail(RejectCategory::Scale,
                    "the product is divided by a value that is neither a "
                    "constant nor the row sum of the weights (a decay is a "
                    "factor γ^(i−j))");
      // A 0/1 mask as i1 made float: its condition. (Looked at quietly: a
      // mask tensor shared with other layers is not part of the pattern.)
      Term *unwidened = resolveQuietly(rhs);
      while (unwidened->kind == ScalarKind::ExtF ||
             unwidened->kind == ScalarKind::TruncF)
        unwidened = resolveQuietly(unwidened->operands[0]);
      if (unwidened->kind == ScalarKind::BoolToFloat) {
        Term *condition = unwidened->operands[0];
        Value mask = tensorOf(condition, /*anyType=*/false);
        if (!mask)
          return fail(RejectCategory::Mask,
                      "the product is multiplied by a mask computed from "
                      "something other than positions and tensors");
        factors.push_back({mask, condition->labels, MaskMeaning::Keep});
        term = lhs;
        continue;
      }
      Value table = tensorOf(rhs, /*anyType=*/true);
      if (!table)
        return fail(RejectCategory::Mask,
                    "the product is multiplied by a factor computed from "
                    "something other than positions and tensors");
      factors.push_back({table, rhs->labels, MaskMeaning::Factor});
      term = lhs;
      continue;
    }
    case ScalarKind::Select: {
      Term *condition = term->operands[0];
      Term *onTrue = term->operands[1], *onFalse = term->operands[2];
      if (fromProduct(condition))
        return fail(RejectCategory::Structure,
                    "a select on the product decided by the product itself "
                    "(a nonlinearity such as ReLU)");
      bool keepsTrue = fromProduct(onTrue);
      Term *kept = keepsTrue ? onTrue : onFalse;
      Term *filled = keepsTrue ? onFalse : onTrue;
      if (!fromProduct(kept))
        return fail(RejectCategory::Structure,
                    "a select whose sides do not read Q·Kᵀ");
      if (!isZero(filled))
        return fail(RejectCategory::Mask,
                    "a mask that fills hidden weights with something other "
                    "than 0 (an additive mask needs a softmax)");
      Value mask = tensorOf(condition, /*anyType=*/false);
      if (!mask)
        return fail(RejectCategory::Mask,
                    "a mask computed from something other than positions "
                    "and tensors");
      factors.push_back({mask, condition->labels,
                         keepsTrue ? MaskMeaning::Keep : MaskMeaning::Hide});
      term = kept;
      continue;
    }
    default: {
      bool withZero = llvm::any_of(term->operands, [&](Term *operand) {
        return isZero(operand);
      });
      return fail(RejectCategory::Structure,
                  describeNonlinearity(term->kind, withZero) +
                      ": only a scale, a causal mask and a decay keep the "
                      "weights linear in it");
    }
    }
  }
}

/// O / (Σ_j W + ε) applied to the product: the root's one user divides it
/// by the row sum of the weights it read. `output` becomes that division.
bool Matcher::peelOutputNormalization(Value weights,
                                      ArrayRef<Axis> weightsLabels,
                                      std::optional<double> &epsilon,
                                      Operation *&output) {
  Value product = root->getResult(0);
  if (!product.hasOneUse())
    return true;
  Operation *user = *product.getUsers().begin();
  if (user->getNumResults() != 1 ||
      user->getResult(0).getType() != product.getType())
    return true;
  Term *top = resolveQuietly(leaf(user->getResult(0), outputLabels));
  while (top->kind == ScalarKind::ExtF || top->kind == ScalarKind::TruncF)
    top = resolveQuietly(top->operands[0]);
  Term *numeratorTerm = nullptr, *denominator = nullptr;
  if (!splitQuotient(top, numeratorTerm, denominator))
    return true;
  Term *numerator = peelCasts(numeratorTerm);
  // The row sum may read the weights before their rounding to V's type.
  Value unrounded = floatCastSource(weights);
  if (numerator->kind != ScalarKind::Input || numerator->value != product ||
      !(readsValue(denominator, weights) ||
        (unrounded && readsValue(denominator, unrounded))))
    return true; // O divided by something else: not the op's to state
  collecting = true;
  // The reciprocal TOSA divides by is part of the pattern.
  for (Term *operand : top->operands)
    if (operand != numeratorTerm)
      resolve(operand);
  bool matched = matchNormalizer(denominator,
                                 leaf(weights, Labels(weightsLabels)), epsilon);
  collecting = false;
  if (!matched)
    return false;
  patternOps.insert(user);
  output = user;
  return true;
}

/// Nothing computed between the two products may be used elsewhere: the
/// rewrite removes it.
bool Matcher::checkLinearExternalUses(Operation *output) {
  SmallVector<Operation *> deadUsers;
  for (Operation *op : patternOps)
    for (Operation *user : op->getUsers())
      if (user != root && user != output && !patternOps.contains(user) &&
          isDeadCode(user))
        deadUsers.push_back(user);
  for (Operation *user : deadUsers)
    patternOps.insert(user);
  for (Operation *op : patternOps) {
    if (op == output)
      continue; // its uses are what the op replaces
    for (Operation *user : op->getUsers())
      if (user != root && user != output && !patternOps.contains(user) &&
          !isDeadCode(user))
        return fail(RejectCategory::ExternalUse,
                    "the result of " + op->getName().getStringRef() +
                        " (the weights or Q·Kᵀ) is also used by " +
                        user->getName().getStringRef() +
                        " outside the pattern");
  }
  return true;
}

/// The product of the factors must be [j <= i] · γ_h^(i−j), γ one value
/// per query head of the op (1: plain causal); no factor at all is plain
/// linear attention.
bool Matcher::classifyWeightFactors(Value weights, ArrayRef<Axis> weightsLabels,
                                    ArrayRef<WeightFactor> factors,
                                    LinearAttentionMatch &result) {
  if (factors.empty())
    return true;
  auto weightsType = cast<RankedTensorType>(weights.getType());
  int64_t rank = weightsType.getRank();
  auto position = [&](AxisKind kind) {
    return llvm::find(weightsLabels, Axis{kind}) - weightsLabels.begin();
  };
  int64_t queryDim = position(AxisKind::Query);
  int64_t keyDim = position(AxisKind::Key);
  int64_t nq = weightsType.getDimSize(queryDim);
  int64_t nk = weightsType.getDimSize(keyDim);
  auto notCausal = [&](StringRef why) {
    return fail(RejectCategory::Mask,
                "a mask or decay that is not causal: " + why +
                    " (linear attention's carried state cannot hide a key "
                    "it has summed)");
  };

  // A plain causal mask read from the comparisons in its body: no size
  // limit.
  bool allSymbolic = llvm::all_of(factors, [&](const WeightFactor &factor) {
    std::optional<int64_t> upper =
        symbolicUpperBand(factor.value, factor.labels, factor.meaning);
    return upper && *upper == 0;
  });
  if (allSymbolic) {
    if (ShapedType::isDynamic(nq) || ShapedType::isDynamic(nk) || nq != nk)
      return fail(RejectCategory::Shape,
                  "a causal mask with Nq ≠ Nk (or unknown): "
                  "fa.linear_attention's causal diagonal is top-left and "
                  "square");
    match.causal = DiagonalAlignment::top_left;
    return true;
  }

  if (!weightsType.hasStaticShape())
    return fail(RejectCategory::Mask,
                "a mask or decay over a dynamic shape cannot be checked at "
                "compile time");
  if (weightsType.getNumElements() > kMaxEvaluatedWeights)
    return fail(RejectCategory::Mask,
                llvm::formatv("the mask or decay spans {0} weights, too many "
                              "to check at compile time",
                              weightsType.getNumElements())
                    .str());

  // Each factor's values, read at a point of the weights through its
  // labels (a unit dim at 0).
  struct Reader {
    SmallVector<double> values;
    SmallVector<int64_t> weightDims; // per factor dim; -1: read at 0
    SmallVector<int64_t> sizes;
    MaskMeaning meaning;
  };
  SmallVector<Reader> readers;
  for (const WeightFactor &factor : factors) {
    std::optional<SmallVector<double>> values = maskValues(factor.value);
    if (!values)
      return fail(RejectCategory::Mask,
                  "a mask or decay factor whose values are not known at "
                  "compile time (a constant, or computed from positions)");
    Reader reader;
    reader.values = std::move(*values);
    reader.meaning = factor.meaning;
    auto type = cast<RankedTensorType>(factor.value.getType());
    for (auto [dim, axis] : llvm::enumerate(factor.labels)) {
      reader.sizes.push_back(type.getDimSize(dim));
      if (axis.kind == AxisKind::Unit) {
        reader.weightDims.push_back(-1);
        continue;
      }
      const Axis *found = llvm::find(weightsLabels, axis);
      if (found == weightsLabels.end())
        return fail(RejectCategory::Mask,
                    "a mask or decay indexed by " +
                        formatLabels(factor.labels) +
                        ", which the weights " +
                        formatLabels(weightsLabels) + " do not have");
      reader.weightDims.push_back(found - weightsLabels.begin());
    }
    readers.push_back(std::move(reader));
  }

  // The op's query head of each point: the last batch dim (with a group
  // axis, K/V head · G + group), or the inner part of a split batch dim;
  // one head without batch dims.
  int64_t headDim = -1, splitDim = -1, groupDim = -1;
  for (auto [dim, axis] : llvm::enumerate(weightsLabels)) {
    if (axis.kind == AxisKind::Group)
      groupDim = dim;
    if (axis.kind != AxisKind::Batch)
      continue;
    if (!batchSplit.empty() && axis.part == 2)
      headDim = dim;
    else if (!batchSplit.empty() && axis.part == 0)
      splitDim = dim;
    else if (batchSplit.empty() && axis.batchIndex + 1 == numBatchDims)
      headDim = dim;
  }
  int64_t groups = groupDim < 0 ? 1 : weightsType.getDimSize(groupDim);
  int64_t heads = !batchSplit.empty() ? batchSplit[1]
                  : headDim >= 0      ? weightsType.getDimSize(headDim)
                                      : 1;
  heads *= groups;
  SmallVector<int64_t> point(rank, 0);
  auto headOf = [&]() -> int64_t {
    int64_t head = 0;
    if (headDim >= 0)
      head = point[headDim];
    else if (splitDim >= 0)
      head = point[splitDim] % batchSplit[1];
    if (groupDim >= 0)
      head = head * groups + point[groupDim];
    return head;
  };

  // The combined weight factor at every point, checked against the causal
  // shape and collected per head and distance i − j.
  SmallVector<SmallVector<double>> byDistance(heads);
  bool anyHidden = false, allOne = true;
  for (int64_t linear = 0; linear < weightsType.getNumElements(); ++linear) {
    int64_t rest = linear;
    for (int64_t dim = rank - 1; dim >= 0; --dim) {
      point[dim] = rest % weightsType.getDimSize(dim);
      rest /= weightsType.getDimSize(dim);
    }
    double value = 1.0;
    for (const Reader &reader : readers) {
      int64_t index = 0;
      for (auto [dim, weightDim] : llvm::enumerate(reader.weightDims)) {
        int64_t coordinate = weightDim < 0 ? 0 : point[weightDim];
        if (reader.sizes[dim] == 1)
          coordinate = 0;
        index = index * reader.sizes[dim] + coordinate;
      }
      double element = reader.values[index];
      if (reader.meaning == MaskMeaning::Factor)
        value *= element;
      else if (!*maskShows(reader.meaning, element))
        value = 0;
    }
    int64_t i = point[queryDim], j = point[keyDim];
    if (value != 1.0)
      allOne = false;
    if (j > i) {
      if (value != 0.0)
        return notCausal(llvm::formatv("it keeps key {0} of query {1}", j, i)
                             .str());
      anyHidden = true;
      continue;
    }
    int64_t head = headOf();
    if (head < 0 || head >= heads)
      return fail(RejectCategory::Mask,
                  "a mask or decay whose heads the recognizer cannot place");
    SmallVector<double> &row = byDistance[head];
    if (row.size() <= size_t(i - j))
      row.resize(i - j + 1, std::nan(""));
    double &seen = row[i - j];
    // The table must not depend on anything but the head and i − j (up to
    // the rounding of how the frontend computed it).
    if (std::isnan(seen))
      seen = value;
    else if (seen != value &&
             !(std::fabs(seen - value) <=
               (1e-6 + 2e-7 * double(i - j)) * std::fabs(seen) + 1e-35))
      return notCausal(
          llvm::formatv("its value at distance i − j = {0} differs between "
                        "rows ({1} and {2})",
                        i - j, formatConstant(seen), formatConstant(value))
              .str());
  }
  if (allOne)
    return true; // a product with ones: no mask at all
  if (!anyHidden)
    return notCausal("it hides no key after its query but scales the keys "
                     "before it");
  if (nq != nk)
    return fail(RejectCategory::Shape,
                "a causal mask with Nq ≠ Nk: fa.linear_attention's causal "
                "diagonal is top-left and square");
  match.causal = DiagonalAlignment::top_left;

  // γ per head from the farthest distance with a normal value, then every
  // distance checked against γ^n. The tolerance grows with n: a frontend
  // computes γ^n in f32 (as exp(n·ln γ), a power, or a running product),
  // and the op does too.
  SmallVector<double> gammas;
  bool decayed = false;
  for (ArrayRef<double> row : byDistance) {
    if (row.empty() || std::fabs(row[0] - 1.0) > 1e-6)
      return notCausal("it weighs a query's own key by " +
                       formatConstant(row.empty() ? 0.0 : row[0]) + ", not 1");
    double gamma = 1.0;
    for (int64_t n = row.size() - 1; n >= 1; --n) {
      if (row[n] >= 1e-30) {
        gamma = std::exp(std::log(row[n]) / double(n));
        break;
      }
      gamma = 0.0;
    }
    for (auto [n, value] : llvm::enumerate(row)) {
      double expected = n == 0 ? 1.0 : std::pow(gamma, double(n));
      double tolerance = (1e-6 + 2e-7 * double(n)) * expected + 1e-35;
      if (!(std::fabs(value - expected) <= tolerance))
        return notCausal(
            llvm::formatv("it weighs distance i − j = {0} by {1}, not "
                          "γ^{0} = {2} for γ = {3}",
                          n, formatConstant(value), formatConstant(expected),
                          formatConstant(gamma))
                .str());
    }
    decayed |= gamma != 1.0;
    gammas.push_back(gamma);
  }
  if (decayed)
    result.decay = std::move(gammas);
  return true;
}

} // namespace mlir::fa::recognition::detail

std::optional<LinearAttentionMatch>
mlir::fa::recognition::matchLinearAttention(Operation *root,
                                            Rejection &rejection) {
  // Either operand may be the weights (V may be a projection, itself a
  // contraction): the first reading that matches is taken, else the first
  // reason worth reporting.
  std::optional<Rejection> reported;
  std::optional<StructuredView> view = getStructuredView(root->getResult(0));
  for (unsigned index = 0; view && index < view->inputs.size() && index < 2;
       ++index) {
    if (!reachesContraction(view->inputs[index]))
      continue;
    Rejection why;
    Matcher matcher(root, why);
    std::optional<LinearAttentionMatch> match = matcher.runLinear(index);
    if (match) {
      llvm::append_range(match->operands.patternOps, matcher.materialized);
      match->operands.materialized = std::move(matcher.materialized);
      return match;
    }
    for (Operation *op : matcher.materialized)
      op->erase();
    if (!reported || (reported->category == RejectCategory::NotCandidate &&
                      why.category != RejectCategory::NotCandidate))
      reported = std::move(why);
  }
  rejection = reported ? std::move(*reported) : Rejection{};
  if (!reported)
    rejection.location = root;
  return std::nullopt;
}
