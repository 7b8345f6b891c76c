//===- ScoreMatcher.cpp - Between Q·Kᵀ and the softmax --------------------===//
//
// Stage: recognition (what is found). The Matcher's walk over the scores,
// from the softmax's input down to Q·Kᵀ: each step peels one op into the
// match (a scale, a bias, a select's mask, the sink column), or reads what
// lies between as one score function (score_mod); then the masks found on
// the way are combined into the op's attributes and its one mask. The
// softmax itself is AttentionMatcher.cpp's, the backward of a joint graph
// JointGraphMatcher.cpp's.
//
//===----------------------------------------------------------------------===//

#include "AttentionMatcher.h"
#include "CausalMask.h"
#include "ChainMatcher.h"
#include "LengthMask.h"
#include "Normalization.h"
#include "StructuredView.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::recognition;

namespace mlir::fa::recognition::detail {

/// x = mask(scale * S) or scale * mask(S), with casts anywhere, down to the
/// contraction S = Q·Kᵀ: each step peels one op off the scores into the
/// match (a scale, a bias, a select's mask) and moves `term` to what it
/// applies to.
bool Matcher::matchScores(Term *scores, Term *&contraction) {
  llvm::SaveAndRestore<bool> walking(inScores, true);
  Term *term = scores;
  while (true) {
    term = resolve(term);
    bool sinkColumnAhead = sinkColumnSliced && !match.sinks;
    if (match.scoreFunction.empty() && !sinkColumnAhead &&
        (isScoreFunction(term) ||
         (scoresAsFunction && !isScaledScores(term)))) {
      if (!peelScoreFunction(term, term))
        return false;
      continue;
    }
    switch (term->kind) {
    case ScalarKind::Input: {
      if (sinkColumnSliced && !match.sinks) {
        if (!peelSinkColumn(term, term))
          return false;
        continue;
      }
      std::optional<StructuredView> view = getStructuredView(term->value);
      if (!view || !getContraction(*view)) {
        Operation *def = term->value.getDefiningOp();
        return fail(RejectCategory::Structure,
                    "the scores come from " +
                        (def ? def->getName().getStringRef().str()
                             : std::string("a block argument")) +
                        ", not from a Q·Kᵀ contraction");
      }
      contraction = term;
      return true;
    }
    case ScalarKind::ExtF:
    case ScalarKind::TruncF:
      term = term->operands[0];
      continue;
    case ScalarKind::Mul:
    case ScalarKind::Div:
      if (!peelScoreScale(term, term))
        return false;
      continue;
    case ScalarKind::Add:
      if (!peelScoreBias(term, term))
        return false;
      continue;
    case ScalarKind::Select:
      if (!peelScoreSelect(term, term))
        return false;
      continue;
    default:
      return fail(RejectCategory::Structure,
                  "unexpected " + stringifyScalarKind(term->kind) +
                      " on the scores between Q·Kᵀ and the softmax");
    }
  }
}

/// concat(x, s) along the key dim, s one column that holds one value per
/// head: x goes on as the scores and s becomes the op's sinks. Anything
/// else where the sink column should be refuses the candidate (the slice
/// would drop a real key).
bool Matcher::peelSinkColumn(Term *term, Term *&next) {
  Operation *def = term->value ? term->value.getDefiningOp() : nullptr;
  Value scores, column;
  int64_t keyDim =
      llvm::find(term->labels, Axis{AxisKind::Key}) - term->labels.begin();
  if (auto concat = dyn_cast_or_null<tensor::ConcatOp>(def)) {
    if (concat.getDim() == static_cast<uint64_t>(keyDim) &&
        concat.getInputs().size() == 2) {
      scores = concat.getInputs()[0];
      column = concat.getInputs()[1];
    }
  } else if (auto concat = dyn_cast_or_null<tosa::ConcatOp>(def)) {
    if (concat.getAxis() == keyDim && concat.getInput1().size() == 2) {
      scores = concat.getInput1()[0];
      column = concat.getInput1()[1];
    }
  }
  if (!column ||
      cast<RankedTensorType>(column.getType()).getDimSize(keyDim) != 1)
    return fail(RejectCategory::Structure,
                "P drops the softmax's last key column, but the scores do not "
                "end with a concatenated column (a sink): the slice would "
                "drop a key");
  patternOps.insert(def);
  Labels columnLabels = term->labels;
  columnLabels[keyDim] = Axis{AxisKind::Unit};
  Term *sink = resolve(leaf(column, columnLabels));
  if (sink->kind == ScalarKind::Constant) {
    // One logit for every head (a splat constant, which the frontend's
    // constant folding makes of equal per-head logits).
    match.sinks = column;
    match.sinkSplat = sink->constant;
    next = leaf(scores, term->labels);
    return true;
  }
  if (sink->kind != ScalarKind::Input || !sink->value ||
      dependsOnContraction(sink))
    return fail(RejectCategory::Mask,
                "the sink column is computed from the scores; a sink is a "
                "logit of its own");
  auto sinkType = cast<RankedTensorType>(sink->value.getType());
  for (auto [dim, axis] : llvm::enumerate(sink->labels)) {
    // A dim of size 1 is the same logit everywhere along it (with one
    // query, the query axis has size 1 too). Where the chain splits its
    // one batch dim into [B, H], the inner part is the head, and the whole
    // merged dim is one if the op takes it as its heads (B = 1;
    // finishMatch decides, headsFromSplit).
    bool isHead =
        axis.part ? axis.part == 2 : axis.batchIndex + 1 == numBatchDims;
    // With grouped queries the heads are [Hkv, G]: the K/V head (the last
    // batch dim) and the group.
    bool perHead = axis.kind == AxisKind::Unit ||
                   sinkType.getDimSize(dim) == 1 ||
                   (axis.kind == AxisKind::Batch && isHead) ||
                   (axis.kind == AxisKind::Group && groupAxis) ||
                   axis.kind == AxisKind::GroupedHeads;
    if (!perHead)
      return fail(RejectCategory::Mask,
                  "the sink column varies along " +
                      formatLabels(ArrayRef<Axis>(axis)) +
                      "; fa.attention's sinks hold one logit per head");
  }
  match.sinks = sink->value;
  match.sinkLabels = sink->labels;
  next = leaf(scores, term->labels);
  return true;
}

/// The tensors a score function reads must not be computed from the
/// scores themselves (a column max, say): the frontend would still have to
/// compute every score for them, and the op would compute them again.
bool Matcher::checkScoreFunctionTensors(Value scores) {
  Operation *contraction = scores.getDefiningOp();
  SmallVector<Value> read;
  for (const ScoreFunctionNode &node : match.scoreFunction)
    if (node.tensor)
      read.push_back(node.tensor);
  for (Value tensor : read) {
    if (!contraction)
      continue;
    SmallVector<Value> worklist = {tensor};
    llvm::SmallPtrSet<Operation *, 32> seen;
    while (!worklist.empty()) {
      Operation *def = worklist.pop_back_val().getDefiningOp();
      if (!def || !seen.insert(def).second)
        continue;
      if (def == contraction) {
        llvm::SaveAndRestore<bool> walking(inScores, true);
        return fail(RejectCategory::Structure,
                    "the function of the scores reads a tensor computed from "
                    "the scores themselves (" +
                        tensor.getDefiningOp()->getName().getStringRef() +
                        "): every score would be computed twice");
      }
      llvm::append_range(worklist, def->getOperands());
      def->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (!def->isAncestor(operand.getParentBlock()->getParentOp()))
            worklist.push_back(operand);
      });
    }
  }
  return true;
}

/// True when `term` reads the scores through an op that is not a constant
/// scale, a cast, a bias or a mask: tanh (soft-capping), exp, log, max,
/// negation, a subtraction, or a sum, product or quotient of two scores.
bool Matcher::isScoreFunction(Term *term, unsigned depth) {
  if (depth == 0)
    return false;
  term = resolveQuietly(term);
  auto dependent = [&](Term *operand) { return dependsOnContraction(operand); };
  switch (term->kind) {
  case ScalarKind::Tanh:
  case ScalarKind::Exp:
  case ScalarKind::Log:
  case ScalarKind::Neg:
  case ScalarKind::Max:
  case ScalarKind::MaxNum:
  case ScalarKind::Sub:
    return llvm::any_of(term->operands, dependent);
  case ScalarKind::Mul:
  case ScalarKind::Div:
  case ScalarKind::Add:
    // With one side independent of the scores this is a scale or a bias,
    // peeled as such; the function, if any, is found below it.
    return llvm::all_of(term->operands, dependent);
  case ScalarKind::ExtF:
  case ScalarKind::TruncF:
    return isScoreFunction(term->operands[0], depth - 1);
  default:
    return false;
  }
}

/// True when `term` is what a score function reads: the contraction's
/// result, or one scale of it by a constant, through casts. (A further
/// constant, such as a soft-cap's 1 / cap, stays in the function.)
bool Matcher::sameComputation(Term *a, Term *b, unsigned depth) {
  if (a == b)
    return true;
  if (depth == 0)
    return false;
  a = resolveQuietly(a);
  b = resolveQuietly(b);
  if (a == b)
    return true;
  if (a->kind != b->kind || a->operands.size() != b->operands.size())
    return false;
  if (a->kind == ScalarKind::Constant)
    return a->constant == b->constant ||
           (std::isnan(a->constant) && std::isnan(b->constant));
  if (a->kind == ScalarKind::Input)
    return a->value && a->value == b->value && a->labels == b->labels;
  if (a->kind == ScalarKind::Compare && a->constant != b->constant)
    return false;
  for (auto [x, y] : llvm::zip(a->operands, b->operands))
    if (!sameComputation(x, y, depth - 1))
      return false;
  return a->kind != ScalarKind::Other && a->kind != ScalarKind::Init;
}

bool Matcher::isScaledScores(Term *term, unsigned depth) {
  if (depth == 0)
    return false;
  term = resolveQuietly(term);
  auto isContractionResult = [&](Term *candidate) {
    for (unsigned casts = 0; casts < 4; ++casts) {
      candidate = resolveQuietly(candidate);
      if (candidate->kind != ScalarKind::ExtF &&
          candidate->kind != ScalarKind::TruncF)
        break;
      candidate = candidate->operands[0];
    }
    if (candidate->kind != ScalarKind::Input)
      return false;
    std::optional<StructuredView> view = getStructuredView(candidate->value);
    return view && getContraction(*view).has_value();
  };
  switch (term->kind) {
  case ScalarKind::Input:
    return isContractionResult(term);
  case ScalarKind::ExtF:
  case ScalarKind::TruncF:
    return isScaledScores(term->operands[0], depth - 1);
  case ScalarKind::Mul:
  case ScalarKind::Div: {
    Term *lhs = resolve(term->operands[0]), *rhs = resolve(term->operands[1]);
    if (term->kind == ScalarKind::Mul && lhs->kind == ScalarKind::Constant)
      std::swap(lhs, rhs);
    return rhs->kind == ScalarKind::Constant && isContractionResult(lhs);
  }
  default:
    return false;
  }
}

/// Adds `term` (resolved, part of the pattern) to the score function,
/// with the scaled scores as its argument: returns its node. The scaled
/// scores must be one term (`argument`, found on the way). Tensors the
/// function reads besides the scores (a bias, a 0/1 factor, a select's
/// condition) become nodes that read them at the score's position, so the
/// function is the frontend's, element for element, whatever it computes
/// with them. `condition`: the node is a select's i1 condition.
std::optional<unsigned> Matcher::translateScoreFunction(Term *term,
                                                        Term *&argument,
                                                        unsigned depth,
                                                        bool condition) {
  if (depth == 0) {
    reject(RejectCategory::Structure,
           "the function of the scores before the softmax is too deep");
    return std::nullopt;
  }
  auto node = [&](ScalarKind kind, double constant,
                  SmallVector<unsigned, 3> operands) -> unsigned {
    match.scoreFunction.push_back({kind, constant, std::move(operands)});
    return match.scoreFunction.size() - 1;
  };
  auto isBoolean = [](Value value) {
    return getElementTypeOrSelf(value.getType()).isInteger(1);
  };
  auto translateAll = [&](ArrayRef<Term *> operands, ArrayRef<bool> conditions)
      -> std::optional<SmallVector<unsigned, 3>> {
    SmallVector<unsigned, 3> indices;
    for (auto [operand, isCondition] : llvm::zip(operands, conditions)) {
      std::optional<unsigned> index =
          translateScoreFunction(operand, argument, depth - 1, isCondition);
      if (!index)
        return std::nullopt;
      indices.push_back(*index);
    }
    return indices;
  };
  // A tensor computed without the scores is read as it is (rounded as the
  // frontend rounded it), not recomputed op by op.
  if (term->value && !dependsOnContraction(term) &&
      resolveQuietly(term)->kind != ScalarKind::Constant) {
    if (isBoolean(term->value) != condition) {
      reject(RejectCategory::Mask,
             condition ? Twine("the select's condition is not a boolean "
                               "tensor")
                       : Twine("a boolean tensor is used as a number in "
                               "the function of the scores"));
      return std::nullopt;
    }
    unsigned index = node(ScalarKind::Input, 0, {});
    match.scoreFunction[index].tensor = term->value;
    match.scoreFunction[index].labels = term->labels;
    return index;
  }
  term = resolve(term);
  if (term->kind == ScalarKind::Constant) {
    if (condition) {
      reject(RejectCategory::Mask,
             "a select on the scores with a constant condition");
      return std::nullopt;
    }
    return node(ScalarKind::Constant, term->constant, {});
  }
  if (!dependsOnContraction(term)) {
    // A condition computed in a select's own body (index comparisons, a
    // mask and'ed with them) is read as the tensor it computes.
    if (condition && (term->kind != ScalarKind::Input || !term->value)) {
      Value tensor = materializeCondition(term);
      if (!tensor) {
        reject(RejectCategory::Mask,
               "the select's condition is computed in its body from the "
               "scores, or from values other than its inputs and the loop "
               "indices");
        return std::nullopt;
      }
      return translateScoreFunction(leaf(tensor, term->labels), argument,
                                    depth - 1, true);
    }
    // Computed in a body from tensors and constants: translated op by op
    // below.
  } else if (condition) {
    if (term->kind == ScalarKind::Compare || term->kind == ScalarKind::Not) {
      // A condition on the score itself (nan_to_num's s != s and s == -inf,
      // a clamp's s > c): score_mod computes it from the score it is given,
      // exactly as the frontend does.
      SmallVector<bool, 2> conditions(term->operands.size(),
                                      term->kind == ScalarKind::Not);
      std::optional<SmallVector<unsigned, 3>> operands =
          translateAll(term->operands, conditions);
      if (!operands)
        return std::nullopt;
      return node(term->kind, term->constant, std::move(*operands));
    }
    reject(RejectCategory::Mask,
           "the select's condition is computed from the scores by " +
               stringifyScalarKind(term->kind) +
               " (score_mod reads comparisons of the score and their "
               "negations)");
    return std::nullopt;
  }
  if (dependsOnContraction(term) && isScaledScores(term)) {
    if (argument && !sameComputation(argument, term)) {
      reject(RejectCategory::Structure,
             "the function of the scores reads them twice, through different "
             "scales or at different positions (s[i, j] and s[j, i], say); "
             "score_mod reads one score");
      return std::nullopt;
    }
    argument = term;
    return node(ScalarKind::Input, 0, {});
  }
  switch (term->kind) {
  case ScalarKind::ExtF:
  case ScalarKind::TruncF:
    // Computed in f32 in the op.
    return translateScoreFunction(term->operands[0], argument, depth - 1,
                                  false);
  case ScalarKind::Add:
  case ScalarKind::Sub:
  case ScalarKind::Mul:
  case ScalarKind::Div:
  case ScalarKind::Max:
  case ScalarKind::MaxNum:
  case ScalarKind::Exp:
  case ScalarKind::Log:
  case ScalarKind::Neg:
  case ScalarKind::Tanh: {
    SmallVector<bool, 2> numbers(term->operands.size(), false);
    std::optional<SmallVector<unsigned, 3>> operands =
        translateAll(term->operands, numbers);
    if (!operands)
      return std::nullopt;
    return node(term->kind, 0, std::move(*operands));
  }
  case ScalarKind::Select: {
    // A mask inside the function: exact as part of it, since score_mod
    // computes the same select on the same score (a hidden key's fill then
    // goes through the rest of the function as in the frontend).
    std::optional<SmallVector<unsigned, 3>> operands =
        translateAll(term->operands, {true, false, false});
    if (!operands)
      return std::nullopt;
    return node(ScalarKind::Select, 0, std::move(*operands));
  }
  case ScalarKind::BoolToFloat: {
    std::optional<SmallVector<unsigned, 3>> operands =
        translateAll(term->operands, {true});
    if (!operands)
      return std::nullopt;
    return node(ScalarKind::BoolToFloat, 0, std::move(*operands));
  }
  default:
    reject(RejectCategory::Structure,
           "unexpected " + stringifyScalarKind(term->kind) +
               " in the function of the scores before the softmax");
    return std::nullopt;
  }
}

/// The score function rooted at `term` becomes the match's scoreFunction
/// (times any constant scale peeled above it, which applies after it);
/// `next` is the scaled scores it reads, whose scale becomes the op's.
bool Matcher::peelScoreFunction(Term *term, Term *&next) {
  if (tensorScale)
    return fail(RejectCategory::Scale,
                "a function of the scores under a scale held in a tensor; "
                "only a tensor scale right on Q·Kᵀ moves onto Q");
  Term *argument = nullptr;
  std::optional<unsigned> root =
      translateScoreFunction(term, argument, 24, false);
  if (!root || !argument)
    return root ? fail(RejectCategory::Structure,
                       "the function of the scores does not read them")
                : false;
  if (match.scale != 1.0) {
    // A scale above the function multiplies its result.
    unsigned factor = match.scoreFunction.size();
    match.scoreFunction.push_back({ScalarKind::Constant, match.scale, {}});
    match.scoreFunction.push_back({ScalarKind::Mul, 0, {*root, factor}});
    match.scale = 1.0;
  }
  next = argument;
  return true;
}

/// scale * x or x / scale, the scale a compile-time constant: multiplied
/// into match.scale.
bool Matcher::peelScoreScale(Term *term, Term *&next) {
  Term *lhs = resolve(term->operands[0]);
  Term *rhs = resolve(term->operands[1]);
  bool isDiv = term->kind == ScalarKind::Div;
  if (isDiv && lhs->kind == ScalarKind::Constant) {
    return fail(RejectCategory::Scale, "a constant is divided by the scores");
  }
  if (!isDiv && lhs->kind == ScalarKind::Constant)
    std::swap(lhs, rhs);
  if (rhs->kind != ScalarKind::Constant) {
    // A tensor on the other side (a learned per-head temperature computed
    // from parameters, a scale passed at run time): the tensor as the
    // multiply reads it, before its own computation is expanded.
    Term *scores = term->operands[0], *scale = term->operands[1];
    if (!isDiv && !dependsOnContraction(scores) && dependsOnContraction(scale))
      std::swap(scores, scale);
    if (scale->kind == ScalarKind::Input && scale->value &&
        !getElementTypeOrSelf(scale->value.getType()).isInteger(1) &&
        dependsOnContraction(scores) && !dependsOnContraction(scale) &&
        resolveQuietly(scale)->kind != ScalarKind::Constant &&
        peelTensorScale(scale, isDiv)) {
      next = scores;
      return true;
    }
  }
  if (rhs->kind != ScalarKind::Constant) {
    bool rhsIsMask =
        rhs->kind == ScalarKind::BoolToFloat ||
        (rhs->value && getElementTypeOrSelf(rhs->value.getType()).isInteger(1));
    reject(rhsIsMask ? RejectCategory::Mask : RejectCategory::Scale,
           rhsIsMask
               ? Twine("a mask multiplies the scores; fa.attention masks "
                       "by -inf or an additive bias")
               : Twine("the scores are ") + (isDiv ? "divided" : "multiplied") +
                     " by a tensor, not a compile-time scalar (a "
                     "per-head or dynamic scale)");
    return false;
  }
  if (rhs->constant == 0 || !std::isfinite(rhs->constant)) {
    return fail(
        RejectCategory::Scale,
        "the scale " + formatConstant(rhs->constant) +
            (rhs->constant == 0 ? " makes every score 0" : " is not finite"));
  }
  match.scale *= isDiv ? 1.0 / rhs->constant : rhs->constant;
  next = lhs;
  return true;
}

/// x + bias: the op's additive mask (or a constant bias), or one more mask.
bool Matcher::peelScoreBias(Term *term, Term *&next) {
  if (tensorScale)
    return fail(RejectCategory::Scale,
                "a bias is added under a scale held in a tensor; only a "
                "tensor scale right on Q·Kᵀ moves onto Q");
  Term *lhs = term->operands[0], *rhs = term->operands[1];
  if (!dependsOnContraction(lhs))
    std::swap(lhs, rhs);
  if (dependsOnContraction(rhs) || !dependsOnContraction(lhs)) {
    return fail(RejectCategory::Structure,
                "an add on the scores whose other side is not a mask");
  }
  Term *bias = rhs;
  Term *biasResolved = resolveQuietly(bias);
  if (biasResolved->kind == ScalarKind::BoolToFloat) {
    reject(RejectCategory::Mask,
           "a boolean tensor is added to the scores as 0/1; a keep-mask "
           "needs select(mask, s, -inf)");
    return false;
  }
  if (biasResolved->kind == ScalarKind::Constant) {
    // A splat bias (a 1 x 1 causal mask, say): 0 changes nothing, any
    // other value is a bias that broadcasts over everything.
    if (match.mask || match.constantBias)
      return fail(RejectCategory::Mask, "more than one mask on the scores");
    if (match.scale != 1.0)
      return fail(RejectCategory::Mask,
                  "the bias is added before the scale; fa.attention adds "
                  "it after");
    if (biasResolved->constant != 0.0) {
      match.constantBias = biasResolved->constant;
      fill = -std::numeric_limits<double>::infinity();
    }
    next = lhs;
    return true;
  }
  // c·b: a constant factor on the bias (IREE's log2(e)·bias under exp2).
  double biasFactor = 1.0;
  while (bias->kind != ScalarKind::Input || !bias->value) {
    Term *product = resolveQuietly(bias);
    if (product->kind == ScalarKind::ExtF) {
      // A widened bias holds the same values.
      bias = product->operands[0];
      continue;
    }
    std::optional<std::pair<Term *, double>> scaled =
        positiveConstantFactor(product);
    if (!scaled)
      return fail(RejectCategory::Mask,
                  "the bias is computed inside the op that adds it, not "
                  "passed as a tensor");
    biasFactor *= scaled->second;
    bias = scaled->first;
  }
  // Added under a scale: scale·(s + b) = scale·s + scale·b, the op's mask
  // is scale·b (materialized by the rewrite). Only for the one mask; masks
  // that combine (combineMasks) are added as they are.
  double factor = snapToOne(match.scale * biasFactor);
  if (factor != 1.0 && !(factor > 0 && std::isfinite(factor)))
    return fail(RejectCategory::Scale,
                "the bias is added under a scale that is not positive");
  if (factor != 1.0 && match.mask) {
    reject(RejectCategory::Mask,
           "the bias is added before the scale; fa.attention adds it "
           "after");
    return false;
  }
  if (match.mask) {
    extraMasks.push_back({bias->value, bias->labels, false,
                          -std::numeric_limits<double>::infinity()});
    next = lhs;
    return true;
  }
  match.mask = bias->value;
  match.maskLabels = bias->labels;
  match.maskFactor = factor;
  fill = -std::numeric_limits<double>::infinity();
  next = lhs;
  return true;
}

/// select(condition, x, fill) or select(condition, fill, x): a keep- or
/// hide-mask whose hidden scores become `fill`.
bool Matcher::peelScoreSelect(Term *term, Term *&next) {
  if (tensorScale)
    return fail(RejectCategory::Scale,
                "a mask is applied under a scale held in a tensor; only a "
                "tensor scale right on Q·Kᵀ moves onto Q");
  Term *condition = term->operands[0];
  Term *onTrue = term->operands[1], *onFalse = term->operands[2];
  bool invert = !dependsOnContraction(onTrue);
  Term *kept = invert ? onFalse : onTrue;
  Term *filled = resolve(invert ? onTrue : onFalse);
  if (!dependsOnContraction(kept) || dependsOnContraction(condition)) {
    return fail(RejectCategory::Structure,
                "a select on the scores that is not a mask");
  }
  if (filled->kind != ScalarKind::Constant || std::isnan(filled->constant) ||
      filled->constant == std::numeric_limits<double>::infinity()) {
    return fail(RejectCategory::Mask,
                filled->kind == ScalarKind::Constant
                    ? "the select fills masked scores with " +
                          formatConstant(filled->constant) +
                          ", which is not a score a key can hide behind"
                    : std::string("the select fills masked scores with a "
                                  "tensor, not a constant"));
  }
  // Any other finite fill is what a hidden key's score becomes
  // (mask_fill): exact, provided no scale multiplies it afterwards (the
  // fill would then be f · scale, rounded by the frontend).
  bool finiteFill =
      std::isfinite(filled->constant) && !isLowestFinite(filled->constant);
  if (finiteFill && match.scale != 1.0)
    return fail(RejectCategory::Mask,
                "the select fills masked scores with " +
                    formatConstant(filled->constant) +
                    " before a scale, so a hidden key's score is the "
                    "fill times the scale; fa.attention's mask_fill is "
                    "the score itself");
  if (condition->kind != ScalarKind::Input || !condition->value) {
    // Computed in the select's own body: the same mask as a tensor.
    Value tensor = materializeCondition(condition);
    if (!tensor)
      return fail(RejectCategory::Mask,
                  "the select's condition is computed in its body from "
                  "the scores, or from values other than its other "
                  "inputs and the loop indices");
    condition = leaf(tensor, term->labels);
  }
  if (match.mask) {
    if (match.scale <= 0)
      return fail(RejectCategory::Scale,
                  "the mask is applied before a scale that is not "
                  "positive");
    extraMasks.push_back(
        {condition->value, condition->labels, invert, filled->constant});
    selectMasks.push_back({condition->value, condition->labels, invert});
    next = kept;
    return true;
  }
  match.mask = condition->value;
  match.maskLabels = condition->labels;
  match.invertMask = invert;
  selectMasks.push_back({condition->value, condition->labels, invert});
  // Scales seen so far multiply the filled value too: -inf and the
  // lowest finite value keep their meaning only under a positive scale.
  if (match.scale <= 0) {
    return fail(RejectCategory::Scale,
                "the mask is applied before a scale that is not positive");
  }
  fill = filled->constant;
  next = kept;
  return true;
}

/// Several masks on the scores (a bias and a causal masked_fill, a padding
/// mask and a causal mask, ...): every one hides with -inf (a select's -inf
/// fill, or a bias), so they commute and combine exactly. A causal mask
/// becomes the causal attribute and a length mask kv_lengths; at most one
/// mask tensor may remain, the op's mask.
bool Matcher::combineMasks() {
  llvm::SaveAndRestore<bool> walking(inScores, true);
  if (match.maskFactor != 1.0)
    return fail(RejectCategory::Mask,
                "the scores have several masks and one is added under a "
                "scale or with a factor; they combine only as they are");
  SmallVector<ExtraMask> all = {
      {match.mask, match.maskLabels, match.invertMask, fill}};
  llvm::append_range(all, extraMasks);
  auto queryType = cast<RankedTensorType>(match.query.getType());
  auto keyType = cast<RankedTensorType>(match.key.getType());
  auto dimOf = [](ArrayRef<int64_t> permutation, int64_t dim) {
    return permutation.empty() ? dim : permutation[dim];
  };
  int64_t queryLen = queryType.getDimSize(
      dimOf(match.queryPermutation, queryType.getRank() - 2));
  int64_t keyLen =
      keyType.getDimSize(dimOf(match.keyPermutation, keyType.getRank() - 2));
  std::optional<Axis> sequence;
  if (!batchSplit.empty())
    sequence = Axis{AxisKind::Batch, 0, 1};
  else if (numBatchDims == 2)
    sequence = Axis{AxisKind::Batch, 0};
  SmallVector<ExtraMask> remaining;
  for (const ExtraMask &mask : all) {
    if (!(std::isinf(mask.fill) && mask.fill < 0))
      return fail(RejectCategory::Mask,
                  "the scores have several masks, one filling hidden keys "
                  "with " +
                      formatConstant(mask.fill) +
                      ": only masks that hide with -inf combine");
    if (!checkMask(mask.value, mask.labels))
      return false;
    MaskMeaning meaning = meaningOf(mask.value, mask.invert);
    if (std::optional<DiagonalAlignment> causal = classifyCausalMask(
            mask.value, mask.labels, meaning, queryLen, keyLen)) {
      if (match.causal)
        return fail(RejectCategory::Mask, "two causal masks on the scores");
      match.causal = causal;
      causalMask = mask.value;
      continue;
    }
    bool meanOfValuesRows = false;
    std::string note;
    if (std::optional<SequenceLengths> lengths =
            classifyLengthMask(mask.value, mask.labels, meaning, keyLen,
                               sequence, meanOfValuesRows, note)) {
      if (!meanOfValuesRows && !match.kvLengths) {
        match.kvLengths = *lengths;
        continue;
      }
    }
    remaining.push_back(mask);
  }
  // Float biases combine into one (their sum); keep-masks do not.
  bool allBiases = llvm::all_of(remaining, [](const ExtraMask &mask) {
    return !mask.invert &&
           isa<FloatType>(getElementTypeOrSelf(mask.value.getType()));
  });
  if (remaining.size() > 1 && allBiases && !groupAxis && !match.backward) {
    for (const ExtraMask &mask : ArrayRef(remaining).drop_front())
      match.extraBiases.push_back({mask.value, mask.labels});
    remaining.resize(1);
  }
  if (remaining.size() > 1)
    return fail(RejectCategory::Mask,
                llvm::formatv("the scores have {0} masks that are neither "
                              "causal nor a sequence length; fa.attention "
                              "takes one mask tensor",
                              remaining.size())
                    .str());
  // With kv_lengths the op aligns a bottom-right diagonal to each
  // sequence's length; the frontend's causal mask is aligned to the
  // tensor's last key. They agree only for a diagonal through (0, 0).
  if (match.causal && match.kvLengths) {
    if (queryLen != ShapedType::kDynamic && queryLen == keyLen)
      match.causal = DiagonalAlignment::top_left;
    else if (*match.causal == DiagonalAlignment::bottom_right)
      return fail(RejectCategory::Mask,
                  "a causal mask aligned to the last key together with "
                  "per-sequence lengths: fa.attention aligns a bottom-right "
                  "diagonal to each sequence's length");
  }
  match.mask = remaining.empty() ? Value() : remaining.front().value;
  match.maskLabels = remaining.empty() ? Labels() : remaining.front().labels;
  match.invertMask = !remaining.empty() && remaining.front().invert;
  fill = -std::numeric_limits<double>::infinity();
  masksCombined = true;
  return true;
}

bool Matcher::checkMask(Value mask, ArrayRef<Axis> labels) {
  auto type = cast<RankedTensorType>(mask.getType());
  Type elementType = type.getElementType();
  bool boolean = elementType.isInteger(1);
  if (!boolean && !elementType.isF16() && !elementType.isBF16() &&
      !elementType.isF32()) {
    return fail(RejectCategory::Mask,
                "the mask has element type " +
                    llvm::formatv("{0}", elementType).str());
  }
  // Mask dims must follow [batch..., Nq, Nk]; broadcast dims are size 1.
  // Where the softmax splits the batch dim, the mask follows the split.
  Labels order =
      canonicalLabels(numBatchDims, AxisKind::Query, AxisKind::Key, groupAxis);
  if (!batchSplit.empty()) {
    order = {Axis{AxisKind::Batch, 0, 1}, Axis{AxisKind::Batch, 0, 2},
             Axis{AxisKind::Query}, Axis{AxisKind::Key}};
    if (llvm::is_contained(labels, Axis{AxisKind::Batch, 0})) {
      return fail(
          RejectCategory::Mask,
          "the mask is indexed by the merged batch dim while the softmax "
          "splits it into [B, H]");
    }
  }
  // A dim of the merged [Hkv·G] heads is the last batch dim and the group
  // at once (the rewrite splits it).
  if (llvm::is_contained(labels, Axis{AxisKind::GroupedHeads})) {
    Axis lastBatch{AxisKind::Batch, numBatchDims - 1};
    if (groupedHeads.empty() || llvm::is_contained(labels, lastBatch) ||
        llvm::is_contained(labels, Axis{AxisKind::Group}) ||
        llvm::count(labels, Axis{AxisKind::GroupedHeads}) != 1)
      return fail(RejectCategory::Layout,
                  "the mask is read as " + formatLabels(labels) +
                      ", which reads the merged heads twice");
    order.push_back(Axis{AxisKind::GroupedHeads});
  }
  for (auto [dim, label] : llvm::enumerate(labels)) {
    if (label.kind == AxisKind::Unit) {
      if (type.getDimSize(dim) != 1) {
        return fail(
            RejectCategory::Mask,
            llvm::formatv("mask dim {0} is read at index 0 but its size is "
                          "not a static 1",
                          dim)
                .str());
      }
      continue;
    }
    // Any order: the rewrite transposes the mask to the op's.
    if (!llvm::is_contained(order, label) || llvm::count(labels, label) != 1) {
      return fail(RejectCategory::Layout,
                  "the mask is read as " + formatLabels(labels) +
                      ", which is not an order of " + formatLabels(order) +
                      " with broadcast dims");
    }
  }
  return true;
}

} // namespace mlir::fa::recognition::detail
