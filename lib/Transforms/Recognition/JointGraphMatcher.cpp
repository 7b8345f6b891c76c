//===- JointGraphMatcher.cpp - Attention's backward in joint graphs -------===//
//
// Stage: recognition (what is found). A training graph holds the unfused
// forward pass and its autodiff. P = softmax(s·Q·Kᵀ + mask) feeds O = P·V
// and also
//   dV = Pᵀ·dO,   dP = dO·Vᵀ,
//   dS = P∘(dP − rowsum(dP∘P))   (or rowsum(dO∘O), or P∘dP − P∘rowsum(...)),
//   dQ = s·dS·K,  dK = s·dSᵀ·Q,
// with the scale anywhere on the way and masked_fill's select on dS.
//
// Starting from P, the matcher walks P's users down, labelling every dim,
// to the contractions that leave the N×N space (the gradients). It then
// checks each of them back up with the forward chain's terms: every tensor
// read must be the forward's Q, K, V or P, or one dO; the constants on each
// gradient must multiply to the forward's scale. A tensor computed from P
// that this does not explain (a dropout mask, a second use of P, a bias
// gradient) refuses the whole candidate: P would stay materialized.
//
//===----------------------------------------------------------------------===//

#include "ChainMatcher.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::recognition;
using namespace mlir::fa::recognition::detail;

namespace {

/// Two scales agree when they differ by f32 rounding at most: frontends
/// write the backward's constants apart from the forward's (a division by
/// sqrt(d) forward, a multiplication by its rounded reciprocal backward).
bool sameScale(double a, double b) {
  return std::abs(a - b) <=
         4 * std::numeric_limits<float>::epsilon() * std::abs(b);
}

std::string opName(Operation *op) { return op->getName().getStringRef().str(); }

/// The scale a single-input elementwise body applies to its input: the
/// input times or over constants, through casts. Nullopt for anything else.
std::optional<double> bodyScale(const StructuredView &view) {
  double scale = 1.0;
  unsigned index = view.root;
  while (true) {
    const ScalarNode &node = view.node(index);
    switch (node.kind) {
    case ScalarKind::Input:
      return scale;
    case ScalarKind::ExtF:
    case ScalarKind::TruncF:
      index = node.operands[0];
      continue;
    case ScalarKind::Neg:
      scale = -scale;
      index = node.operands[0];
      continue;
    case ScalarKind::Mul:
    case ScalarKind::Div: {
      unsigned lhs = node.operands[0], rhs = node.operands[1];
      bool isDiv = node.kind == ScalarKind::Div;
      if (!isDiv && view.node(lhs).kind == ScalarKind::Constant)
        std::swap(lhs, rhs);
      if (view.node(rhs).kind != ScalarKind::Constant)
        return std::nullopt;
      double constant = view.node(rhs).constant;
      if (constant == 0 || !std::isfinite(constant))
        return std::nullopt;
      scale = isDiv ? scale / constant : scale * constant;
      index = lhs;
      continue;
    }
    default:
      return std::nullopt;
    }
  }
}

} // namespace

Term *Matcher::deepSource(Term *term, double &scale, bool allowScale) {
  // peelOperand's walk, which stops at the last tensor that still has each
  // axis once, here also through the batch reshapes (inChain is set).
  Labels labels;
  double found = 1.0;
  Value tensor = peelInput(term, labels, allowScale, &found);
  scale *= found;
  return leaf(tensor, labels);
}

std::optional<Labels> Matcher::reshapedLabels(Operation *reshape, Value source,
                                              ArrayRef<Axis> labels) {
  if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tosa::ReshapeOp>(
          reshape) ||
      labels.empty())
    return std::nullopt;
  int64_t sourceRank = labels.size();
  int64_t resultRank =
      cast<RankedTensorType>(reshape->getResult(0).getType()).getRank();
  // The guess: [B, H, ...] merged into [B·H, ...] for a batch_matmul. (The
  // walk down from P meets only merges: the matmuls' results, which are
  // split back, are where it stops.)
  if (resultRank != sourceRank - 1 || sourceRank < 2 ||
      labels[0] != Axis{AxisKind::Batch, 0, 1} ||
      labels[1] != Axis{AxisKind::Batch, 0, 2})
    return std::nullopt;
  Labels guess = {Axis{AxisKind::Batch, 0}};
  guess.append(labels.begin() + 2, labels.end());
  // Read back through the same rules as the forward chain.
  Term *back = lookThroughBatchReshape(leaf(reshape->getResult(0), guess));
  if (!back || back->value != source || !sameAxes(back->labels, labels))
    return std::nullopt;
  return guess;
}

Labels Matcher::gradientLayout(ArrayRef<Axis> labels, AxisKind rows,
                               AxisKind cols) {
  if (llvm::any_of(labels, [](const Axis &axis) {
        return axis.kind == AxisKind::Batch && axis.part != 0;
      }))
    return {Axis{AxisKind::Batch, 0, 1}, Axis{AxisKind::Batch, 0, 2},
            Axis{rows}, Axis{cols}};
  return canonicalLabels(numBatchDims, rows, cols, groupAxis);
}

/// Two terms are one tensor read the same way.
static bool sameTensor(Term *a, Term *b) {
  return a->value == b->value && sameAxes(a->labels, b->labels);
}

bool Matcher::isProbabilities(Term *term) {
  bool wasCollecting = collecting;
  collecting = false;
  auto restore = llvm::scope_exit([&] { collecting = wasCollecting; });
  while (true) {
    if (term->kind == ScalarKind::Input && term->value) {
      for (auto &[value, labels] : probabilityTensors)
        if (term->value == value && sameAxes(term->labels, labels))
          return true;
      term = step(term);
      if (!term)
        return false;
      continue;
    }
    if (term->kind == ScalarKind::ExtF || term->kind == ScalarKind::TruncF) {
      term = term->operands[0];
      continue;
    }
    return false;
  }
}

Value Matcher::peelInput(Term *term, Labels &labels, bool allowScale,
                         double *scaleOut) {
  bool wasCollecting = collecting;
  collecting = false;
  Value tensor = peelOperand(term, labels, allowScale, scaleOut);
  collecting = wasCollecting;
  return tensor;
}

Term *Matcher::resolveUntilProbabilities(Term *term) {
  while (true) {
    if (term->kind == ScalarKind::Input && term->value)
      for (auto &[value, labels] : probabilityTensors)
        if (term->value == value && sameAxes(term->labels, labels))
          return term;
    Term *next = step(term);
    if (!next)
      return term;
    term = next;
  }
}

void Matcher::flattenProduct(Term *term, SmallVectorImpl<Term *> &factors,
                             double &factor) {
  // O is the forward's: the reshapes or copies it is read through are the
  // program's, not the backward's.
  if (isOutput(term)) {
    factors.push_back(term);
    return;
  }
  term = resolveUntilProbabilities(term);
  switch (term->kind) {
  case ScalarKind::ExtF:
  case ScalarKind::TruncF:
    flattenProduct(term->operands[0], factors, factor);
    return;
  case ScalarKind::Neg:
    factor = -factor;
    flattenProduct(term->operands[0], factors, factor);
    return;
  case ScalarKind::Constant:
    factor *= term->constant;
    return;
  case ScalarKind::Mul:
    flattenProduct(term->operands[0], factors, factor);
    flattenProduct(term->operands[1], factors, factor);
    return;
  case ScalarKind::Div: {
    Term *divisor = resolveUntilProbabilities(term->operands[1]);
    if (divisor->kind == ScalarKind::Constant && divisor->constant != 0) {
      factor /= divisor->constant;
      flattenProduct(term->operands[0], factors, factor);
      return;
    }
    break;
  }
  default:
    break;
  }
  factors.push_back(term);
}

bool Matcher::isGradOutput(Term *term) {
  double scale = 1.0;
  Term *source = deepSource(term, scale, /*allowScale=*/false);
  if (!source->value)
    return fail(RejectCategory::Structure,
                "dO is computed inside a gradient contraction, not passed "
                "as a tensor");
  SmallVector<int64_t, 4> unused;
  if (!checkLayout(
          "dO", source->labels,
          gradientLayout(source->labels, AxisKind::Query, AxisKind::ValueDim),
          unused))
    return false;
  if (!gradOutput) {
    gradOutput = source->value;
    gradOutputLabels = source->labels;
    return true;
  }
  if (gradOutput != source->value ||
      !sameAxes(gradOutputLabels, source->labels))
    return fail(RejectCategory::Structure,
                "the backward reads two different tensors as dO");
  return true;
}

bool Matcher::isOutput(Term *term) {
  bool wasCollecting = collecting;
  collecting = false;
  term = resolve(term);
  collecting = wasCollecting;
  while (term->kind == ScalarKind::ExtF || term->kind == ScalarKind::TruncF)
    term = resolve(term->operands[0]);
  return term->kind == ScalarKind::Input && term->value == root->getResult(0) &&
         sameAxes(term->labels, outputLabels);
}

bool Matcher::matchGradProbabilities(Term *term) {
  term = resolveUntilProbabilities(term);
  while (term->kind == ScalarKind::ExtF || term->kind == ScalarKind::TruncF)
    term = resolveUntilProbabilities(term->operands[0]);
  // Attention sinks: the slice's backward gives dP a zero sink column.
  Value padded;
  if (match.sinks && term->kind == ScalarKind::Input && term->value &&
      !term->labels.empty() && term->labels.back() == Axis{AxisKind::Key}) {
    if (Operation *pad = zeroColumnPad(term->value, padded)) {
      (collectInto ? *collectInto : patternOps).insert(pad);
      term = resolveUntilProbabilities(leaf(padded, term->labels));
      while (term->kind == ScalarKind::ExtF || term->kind == ScalarKind::TruncF)
        term = resolveUntilProbabilities(term->operands[0]);
    }
  }
  std::optional<StructuredView> view = term->kind == ScalarKind::Input
                                           ? getStructuredView(term->value)
                                           : std::nullopt;
  std::optional<Contraction> contraction =
      view ? getContraction(*view) : std::nullopt;
  if (!contraction)
    return fail(RejectCategory::Structure,
                "softmax's backward subtracts from " +
                    (term->kind == ScalarKind::Input
                         ? (term->value.getDefiningOp()
                                ? opName(term->value.getDefiningOp())
                                : std::string("a block argument"))
                         : stringifyScalarKind(term->kind).str() + "(...)") +
                    ", not from dP = dO·Vᵀ");
  if (!view->implicitInit && view->initConstant != 0.0)
    return fail(RejectCategory::Contraction,
                "dO·Vᵀ accumulates into a tensor that is not zero");
  std::optional<LoopLabels> loops = labelLoops(*view, term->labels);
  if (!loops)
    return fail(RejectCategory::Layout, "dP is not read as it is written");
  (*loops)[contraction->reductionLoop] = Axis{AxisKind::ValueDim};
  std::optional<Labels> lhs = labelOperand(view->inputMaps[0], *loops);
  std::optional<Labels> rhs = labelOperand(view->inputMaps[1], *loops);
  if (!lhs || !rhs || llvm::any_of(*loops, [](auto &label) { return !label; }))
    return fail(RejectCategory::Contraction,
                "dP's contraction has a loop that is not an axis of the "
                "scores");
  unsigned gradIndex = llvm::is_contained(*lhs, Axis{AxisKind::Query}) ? 0 : 1;
  Labels gradLabels = gradIndex == 0 ? *lhs : *rhs;
  Labels valueSide = gradIndex == 0 ? *rhs : *lhs;
  if (!llvm::is_contained(gradLabels, Axis{AxisKind::Query}) ||
      llvm::is_contained(gradLabels, Axis{AxisKind::Key}) ||
      !llvm::is_contained(valueSide, Axis{AxisKind::Key}))
    return fail(RejectCategory::Contraction,
                "dP = dO·Vᵀ does not contract dO's value dim with V's");
  double readScale = 1.0, forwardScale = 1.0;
  Term *read = deepSource(leaf(view->inputs[1 - gradIndex], valueSide),
                          readScale, /*allowScale=*/true);
  Term *forward =
      deepSource(leaf(match.value, valueLabels), forwardScale, true);
  if (!sameTensor(read, forward) || readScale != forwardScale)
    return fail(RejectCategory::Contraction,
                "dP multiplies dO by a tensor that is not the forward's V, "
                "read as it is");
  (collectInto ? *collectInto : patternOps).insert(view->op);
  return isGradOutput(leaf(view->inputs[gradIndex], gradLabels));
}

bool Matcher::matchRowCorrection(Term *term) {
  term = resolveUntilProbabilities(term);
  while (term->kind == ScalarKind::ExtF || term->kind == ScalarKind::TruncF)
    term = resolveUntilProbabilities(term->operands[0]);
  auto notRowSum = [&]() {
    return fail(RejectCategory::Structure,
                "softmax's backward subtracts " +
                    stringifyScalarKind(term->kind) +
                    "(...) from dP, not rowsum(dP∘P) or rowsum(dO∘O)");
  };
  if (term->kind != ScalarKind::Input)
    return notRowSum();
  std::optional<StructuredView> view = getStructuredView(term->value);
  if (!view || llvm::count(view->reductionLoops, true) != 1 ||
      view->rootNode().kind != ScalarKind::Add)
    return notRowSum();
  if (!view->implicitInit && view->initConstant != 0.0)
    return fail(RejectCategory::Structure,
                "the row sum of softmax's backward does not start at 0");
  std::optional<LoopLabels> loops = labelLoops(*view, term->labels);
  if (!loops)
    return notRowSum();
  unsigned reduced =
      llvm::find(view->reductionLoops, true) - view->reductionLoops.begin();

  // The summed product, as factors of the op's inputs read with the reduced
  // loop labelled `kind`.
  auto summedFactors = [&](AxisKind kind, SmallVectorImpl<Term *> &factors,
                           double &factor) -> bool {
    LoopLabels labelled = *loops;
    labelled[reduced] = Axis{kind};
    if (llvm::any_of(labelled, [](auto &label) { return !label; }))
      return false;
    SmallVector<Term *> inputs;
    for (auto [input, map] : llvm::zip(view->inputs, view->inputMaps)) {
      std::optional<Labels> labels = labelOperand(map, labelled);
      if (!labels)
        return false;
      inputs.push_back(leaf(input, *labels));
    }
    const ScalarNode &add = view->rootNode();
    unsigned summand = view->node(add.operands[0]).kind == ScalarKind::Init
                           ? add.operands[1]
                           : add.operands[0];
    // Rebuild the body's summand over the labelled inputs.
    std::function<Term *(unsigned)> build = [&](unsigned index) -> Term * {
      const ScalarNode &node = view->node(index);
      if (node.kind == ScalarKind::Input)
        return inputs[node.input];
      Term &scalar = terms.emplace_back();
      scalar.kind = node.kind;
      scalar.constant = node.constant;
      for (unsigned operand : node.operands)
        scalar.operands.push_back(build(operand));
      return &scalar;
    };
    flattenProduct(build(summand), factors, factor);
    return factors.size() == 2;
  };

  // Which dim is summed decides how the summand's tensors are read: tried
  // without collecting, then read again for real.
  SmallVector<Term *> factors;
  double factor = 1.0;
  bool wasCollecting = collecting;
  collecting = false;
  bool sumsOverKeys =
      summedFactors(AxisKind::Key, factors, factor) &&
      llvm::any_of(factors, [&](Term *t) { return isProbabilities(t); });
  collecting = wasCollecting;
  factors.clear();
  factor = 1.0;
  // rowsum(dP∘P): the reduced loop is the key dim.
  if (sumsOverKeys && summedFactors(AxisKind::Key, factors, factor)) {
    if (factor != 1.0)
      return fail(RejectCategory::Scale,
                  "the row sum of softmax's backward is scaled by " +
                      formatConstant(factor));
    Term *other = isProbabilities(factors[0]) ? factors[1] : factors[0];
    (collectInto ? *collectInto : patternOps).insert(view->op);
    return matchGradProbabilities(other);
  }
  // rowsum(dO∘O): the reduced loop is the value dim.
  factors.clear();
  factor = 1.0;
  if (summedFactors(AxisKind::ValueDim, factors, factor)) {
    unsigned outputIndex = isOutput(factors[0]) ? 0 : 1;
    if (!isOutput(factors[outputIndex]))
      return fail(RejectCategory::Structure,
                  "the row sum of softmax's backward sums neither dP∘P nor "
                  "dO∘O");
    if (factor != 1.0)
      return fail(RejectCategory::Scale,
                  "the row sum of softmax's backward is scaled by " +
                      formatConstant(factor));
    (collectInto ? *collectInto : patternOps).insert(view->op);
    return isGradOutput(factors[1 - outputIndex]);
  }
  return fail(RejectCategory::Structure,
              "the row sum of softmax's backward sums neither dP∘P over the "
              "key dim nor dO∘O over the value dim");
}

std::optional<double> Matcher::evaluateAtScore(Term *term, double raw,
                                               unsigned depth) {
  if (depth == 0)
    return std::nullopt;
  term = resolveQuietly(term);
  auto at = [&](unsigned operand) {
    return evaluateAtScore(term->operands[operand], raw, depth - 1);
  };
  switch (term->kind) {
  case ScalarKind::Input:
    if (term->value && term->value == scoreContraction &&
        sameAxes(term->labels, scoreContractionLabels))
      return raw;
    return std::nullopt;
  case ScalarKind::Constant:
    return term->constant;
  case ScalarKind::ExtF:
  case ScalarKind::TruncF:
    return at(0);
  case ScalarKind::Neg:
  case ScalarKind::Exp:
  case ScalarKind::Log:
  case ScalarKind::Tanh: {
    std::optional<double> x = at(0);
    if (!x)
      return std::nullopt;
    switch (term->kind) {
    case ScalarKind::Neg:
      return -*x;
    case ScalarKind::Exp:
      return std::exp(*x);
    case ScalarKind::Log:
      return std::log(*x);
    default:
      return std::tanh(*x);
    }
  }
  case ScalarKind::Add:
  case ScalarKind::Sub:
  case ScalarKind::Mul:
  case ScalarKind::Div:
  case ScalarKind::Max:
  case ScalarKind::MaxNum: {
    std::optional<double> x = at(0), y = at(1);
    if (!x || !y)
      return std::nullopt;
    switch (term->kind) {
    case ScalarKind::Add:
      return *x + *y;
    case ScalarKind::Sub:
      return *x - *y;
    case ScalarKind::Mul:
      return *x * *y;
    case ScalarKind::Div:
      return *x / *y;
    default:
      return std::max(*x, *y);
    }
  }
  default:
    return std::nullopt;
  }
}

bool Matcher::matchScoreFunctionDerivative(ArrayRef<Term *> factors,
                                           double &factor) {
  // f and f′ by forward mode over the match's nodes, at x = scale · raw.
  auto derivative = [&](double x) {
    SmallVector<std::pair<double, double>> at;
    for (const ScoreFunctionNode &node : match.scoreFunction) {
      auto operand = [&](unsigned i) { return at[node.operands[i]]; };
      std::pair<double, double> result{0, 0};
      switch (node.kind) {
      case ScalarKind::Input:
        result = {x, 1};
        break;
      case ScalarKind::Constant:
        result = {node.constant, 0};
        break;
      case ScalarKind::Add:
        result = {operand(0).first + operand(1).first,
                  operand(0).second + operand(1).second};
        break;
      case ScalarKind::Sub:
        result = {operand(0).first - operand(1).first,
                  operand(0).second - operand(1).second};
        break;
      case ScalarKind::Mul:
        result = {operand(0).first * operand(1).first,
                  operand(0).second * operand(1).first +
                      operand(0).first * operand(1).second};
        break;
      case ScalarKind::Div: {
        double value = operand(0).first / operand(1).first;
        result = {value, (operand(0).second - value * operand(1).second) /
                             operand(1).first};
        break;
      }
      case ScalarKind::Max:
      case ScalarKind::MaxNum:
        result = operand(0).first >= operand(1).first ? operand(0) : operand(1);
        break;
      case ScalarKind::Neg:
        result = {-operand(0).first, -operand(0).second};
        break;
      case ScalarKind::Exp: {
        double value = std::exp(operand(0).first);
        result = {value, value * operand(0).second};
        break;
      }
      case ScalarKind::Log:
        result = {std::log(operand(0).first),
                  operand(0).second / operand(0).first};
        break;
      case ScalarKind::Tanh: {
        double value = std::tanh(operand(0).first);
        result = {value, (1 - value * value) * operand(0).second};
        break;
      }
      default:
        result = {std::nan(""), std::nan("")};
        break;
      }
      at.push_back(result);
    }
    return at.back().second;
  };
  // Scores spread over the range where soft-caps, exps and logs differ
  // from their neighbours: two different elementary functions agree at
  // all of them only by accident, and a frontend's derivative that is not
  // f′ (1 − y instead of 1 − y², a missing factor) differs at most.
  static constexpr double samples[] = {-3.1, -1.7, -0.55, 0.35,
                                       1.2,  2.6,  4.4,   7.9};
  std::optional<double> ratio;
  unsigned checked = 0;
  for (double x : samples) {
    double raw = x / contractionScale;
    double expected = derivative(x);
    double product = 1.0;
    bool defined = true;
    for (Term *term : factors) {
      std::optional<double> value = evaluateAtScore(term, raw);
      if (!value) {
        defined = false;
        break;
      }
      product *= *value;
    }
    if (!defined)
      return fail(RejectCategory::Structure,
                  "the gradient of the scores is multiplied by a tensor that "
                  "is not a function of the scores alone");
    if (!std::isfinite(expected) || !std::isfinite(product))
      continue; // outside the function's domain (a log, say)
    ++checked;
    if (expected == 0) {
      if (product != 0)
        return fail(RejectCategory::Structure,
                    "the gradient of the scores is multiplied by something "
                    "other than the score function's derivative");
      continue;
    }
    double sampleRatio = product / expected;
    if (!ratio) {
      ratio = sampleRatio;
    } else if (std::abs(sampleRatio - *ratio) > 1e-9 * std::abs(*ratio)) {
      return fail(RejectCategory::Structure,
                  "the gradient of the scores is multiplied by a function of "
                  "the scores that is not the score function's derivative "
                  "(it differs at " +
                      formatConstant(x) + ")");
    }
  }
  if (!ratio || *ratio == 0 || !std::isfinite(*ratio) || checked < 4)
    return fail(RejectCategory::Structure,
                "the score function's derivative could not be checked at "
                "enough scores");
  factor *= *ratio;
  return true;
}

void Matcher::collectDerivativeOps(Term *term, unsigned depth) {
  for (; depth > 0; --depth) {
    if (term->kind != ScalarKind::Input || !term->value)
      break;
    Operation *def = term->value.getDefiningOp();
    if (!def || patternOps.contains(def) || term->value == scoreContraction)
      return;
    Term *next = step(term); // collected: the walk is collecting here
    if (!next)
      return;
    term = next;
  }
  if (depth == 0)
    return;
  for (Term *operand : term->operands)
    collectDerivativeOps(operand, depth - 1);
}

bool Matcher::matchSoftmaxBackward(Term *term, double &factor) {
  // P∘(dP − r), constants aside.
  if (term->kind == ScalarKind::Mul) {
    SmallVector<Term *> product;
    double constant = 1.0;
    flattenProduct(term, product, constant);
    // With a score function, the chain rule through it: the factors that
    // are functions of the scores alone must be its derivative.
    SmallVector<Term *> factors, derivative;
    for (Term *candidate : product) {
      if (!match.scoreFunction.empty() && !isProbabilities(candidate) &&
          evaluateAtScore(candidate, 0.625))
        derivative.push_back(candidate);
      else
        factors.push_back(candidate);
    }
    if (!derivative.empty()) {
      if (scoreDerivativeSeen)
        return fail(RejectCategory::Structure,
                    "the gradient of the scores is multiplied by the score "
                    "function's derivative twice");
      if (!matchScoreFunctionDerivative(derivative, constant))
        return false;
      for (Term *factorTerm : derivative)
        collectDerivativeOps(factorTerm);
      scoreDerivativeSeen = true;
      if (factors.size() == 1) {
        // (P∘dP − P∘r)∘f′, masked_fill's select∘f′, or a product nested in
        // one more op: the rest is a score gradient of its own.
        factor *= constant;
        return matchScoreGradient(factors[0], factor);
      }
    }
    Term *probs = nullptr, *difference = nullptr;
    SmallVector<Term *> others;
    for (Term *candidate : factors) {
      if (!probs && isProbabilities(candidate))
        probs = candidate;
      else if (!difference && candidate->kind == ScalarKind::Sub)
        difference = candidate;
      else
        others.push_back(candidate);
    }
    if (!probs)
      return fail(RejectCategory::Structure,
                  "the gradient of the scores is not a multiple of P");
    if (!difference)
      return fail(RejectCategory::Structure,
                  "softmax's backward has no rowsum term: the gradient of "
                  "the scores is " +
                      Twine(others.size() == 1 ? "P∘dP" : "a product of P") +
                      ", not P∘(dP − rowsum(dP∘P))");
    if (!others.empty())
      return fail(RejectCategory::Structure,
                  "softmax's backward multiplies P∘(dP − rowsum(dP∘P)) by " +
                      stringifyScalarKind(others.front()->kind) +
                      "(...) as well (a dropout mask?)");
    factor *= constant;
    return matchGradProbabilities(difference->operands[0]) &&
           matchRowCorrection(difference->operands[1]);
  }
  // P∘dP − P∘r (the transpose of softmax's JVP, as JAX writes it).
  if (term->kind == ScalarKind::Sub) {
    SmallVector<Term *> lhs, rhs;
    double lhsConstant = 1.0, rhsConstant = 1.0;
    flattenProduct(term->operands[0], lhs, lhsConstant);
    flattenProduct(term->operands[1], rhs, rhsConstant);
    auto split = [&](SmallVectorImpl<Term *> &factors) -> Term * {
      if (factors.size() != 2)
        return nullptr;
      if (isProbabilities(factors[0]))
        return factors[1];
      if (isProbabilities(factors[1]))
        return factors[0];
      return nullptr;
    };
    Term *gradProbs = split(lhs), *correction = split(rhs);
    if (!gradProbs || !correction || lhsConstant != rhsConstant)
      return fail(RejectCategory::Structure,
                  "the gradient of the scores is a difference that is not "
                  "P∘dP − P∘rowsum(dP∘P)");
    factor *= lhsConstant;
    return matchGradProbabilities(gradProbs) && matchRowCorrection(correction);
  }
  return fail(RejectCategory::Structure,
              "the gradient of the scores is " +
                  stringifyScalarKind(term->kind) +
                  "(...), not P∘(dP − rowsum(dP∘P))");
}

bool Matcher::matchScoreGradient(Term *gradient, double &factor) {
  Term *term = gradient;
  while (true) {
    term = resolveUntilProbabilities(term);
    // Attention sinks: the scores' part of the gradient of the scores and
    // the sink column.
    Value sliced;
    if (match.sinks && term->kind == ScalarKind::Input && term->value) {
      if (Operation *slice = sinkColumnSlice(term->value, sliced)) {
        (collectInto ? *collectInto : patternOps).insert(slice);
        term = leaf(sliced, term->labels);
        continue;
      }
    }
    switch (term->kind) {
    case ScalarKind::ExtF:
    case ScalarKind::TruncF:
      term = term->operands[0];
      continue;
    case ScalarKind::Neg:
      factor = -factor;
      term = term->operands[0];
      continue;
    case ScalarKind::Mul:
    case ScalarKind::Div: {
      bool isDiv = term->kind == ScalarKind::Div;
      Term *lhs = term->operands[0], *rhs = term->operands[1];
      if (!isDiv &&
          resolveUntilProbabilities(lhs)->kind == ScalarKind::Constant)
        std::swap(lhs, rhs);
      Term *constant = resolveUntilProbabilities(rhs);
      if (constant->kind == ScalarKind::Constant) {
        if (constant->constant == 0 || !std::isfinite(constant->constant))
          return fail(RejectCategory::Scale,
                      "the gradient of the scores is scaled by " +
                          formatConstant(constant->constant));
        factor =
            isDiv ? factor / constant->constant : factor * constant->constant;
        term = lhs;
        continue;
      }
      if (isDiv)
        return fail(RejectCategory::Structure,
                    "the gradient of the scores is divided by a tensor");
      return matchSoftmaxBackward(term, factor);
    }
    case ScalarKind::Sub:
      return matchSoftmaxBackward(term, factor);
    case ScalarKind::Select: {
      // masked_fill's backward: 0 where the forward hid the score, by one
      // of the forward's select masks.
      Term *condition = term->operands[0];
      // A condition computed in the select's body (index comparisons, as
      // the forward's may be) is materialized as the forward's was.
      Value conditionTensor;
      if (condition->kind == ScalarKind::Input)
        conditionTensor = condition->value;
      else if (!selectMasks.empty())
        conditionTensor = materializeCondition(condition);
      const SelectMask *forwardMask = nullptr;
      for (const SelectMask &mask : selectMasks)
        if (conditionTensor && sameMask(conditionTensor, mask.condition) &&
            sameAxes(condition->labels, mask.labels))
          forwardMask = &mask;
      Term *hidden = nullptr, *kept = nullptr;
      if (forwardMask) {
        hidden = forwardMask->hidesWhenTrue ? term->operands[1]
                                            : term->operands[2];
        kept = forwardMask->hidesWhenTrue ? term->operands[2]
                                          : term->operands[1];
      }
      Term *zero = hidden ? resolveUntilProbabilities(hidden) : nullptr;
      if (!forwardMask || zero->kind != ScalarKind::Constant ||
          zero->constant != 0.0)
        return fail(RejectCategory::Mask,
                    "the gradient of the scores goes through a select that "
                    "is not the forward's mask with 0 where it hides");
      gradientSelects.insert(forwardMask->condition);
      scoreGradientMasked = true;
      term = kept;
      continue;
    }
    default:
      return fail(RejectCategory::Structure,
                  "the gradient of the scores is " +
                      stringifyScalarKind(term->kind) +
                      "(...), not P∘(dP − rowsum(dP∘P))");
    }
  }
}

Value Matcher::followResultScales(Operation *contraction, double &factor) {
  Value result = contraction->getResult(0);
  while (result.hasOneUse()) {
    Operation *user = *result.getUsers().begin();
    if (user->getNumResults() != 1)
      break;
    std::optional<StructuredView> view = getStructuredView(user->getResult(0));
    if (!view || view->hasReduction() || view->inputs.size() != 1 ||
        view->inputMaps[0] != view->resultMap)
      break;
    std::optional<double> scale = bodyScale(*view);
    if (!scale)
      break;
    factor *= *scale;
    backwardOps.insert(user);
    result = view->result;
  }
  return result;
}

bool Matcher::matchBackward(bool &looksLikeBackward) {
  looksLikeBackward = false;
  if (!probabilities)
    return false;
  // Reshapes of the batch dim are looked through as in the chain (torch's
  // 4-D matmuls run as batch_matmul on [B·H, ...]); a split the forward
  // does not make is not taken.
  bool wasInChain = inChain;
  inChain = true;
  SmallVector<int64_t, 2> forwardSplit = batchSplit;
  bool matched = false;
  auto restoreChain = llvm::scope_exit([&] {
    inChain = wasInChain;
    if (!matched)
      batchSplit = forwardSplit;
  });

  collectProbabilityTensors();
  sinkGradientColumn = nullptr;
  SmallVector<GradientContraction, 4> contractions;
  llvm::SetVector<Operation *> downstream;
  Operation *unexplained = findGradientContractions(contractions, downstream);
  if (contractions.empty())
    return false;
  looksLikeBackward = true;
  for (GradientContraction &contraction : contractions)
    rejection.covers.push_back(contraction.op);
  llvm::append_range(rejection.covers, downstream);
  if (unexplained)
    return fail(RejectCategory::ExternalUse,
                "P feeds attention's backward, but it (or a tensor computed "
                "from it) is also used by " +
                    opName(unexplained) + ", which is not part of it");

  // Each contraction, checked back up. Ops on the N×N side (softmax's
  // backward, dP) are collected apart: nothing else may use them.
  llvm::SetVector<Operation *> scoreSide;
  collectInto = &scoreSide;
  bool wasCollecting = collecting;
  collecting = true;
  auto restore = llvm::scope_exit([&] {
    collectInto = nullptr;
    collecting = wasCollecting;
  });
  BackwardMatch result;
  for (GradientContraction &contraction : contractions)
    if (!matchGradientContraction(contraction, result))
      return false;
  if (sinkGradientColumn && !matchSinkGradient(result))
    return false;
  if (!checkBackwardIsClosed(downstream, scoreSide))
    return false;
  backwardOps.insert(scoreSide.begin(), scoreSide.end());
  if (!finishBackward(contractions, forwardSplit, result))
    return false;
  match.backward = std::move(result);
  matched = true;
  return true;
}

/// Step 1 of matchBackward: P as the root reads it, and the tensors it is
/// a copy or a cast of: the backward may read any of them.
void Matcher::collectProbabilityTensors() {
  probabilityTensors.clear();
  bool wasCollecting = collecting;
  collecting = false;
  Term *term = leaf(probabilities, probabilitiesLabels);
  while (term) {
    if (term->kind == ScalarKind::Input && term->value) {
      probabilityTensors.push_back({term->value, term->labels});
      term = step(term);
    } else if (term->kind == ScalarKind::ExtF ||
               term->kind == ScalarKind::TruncF) {
      term = term->operands[0];
    } else {
      break;
    }
  }
  // Attention sinks: softmax's backward reads the softmax's whole result.
  if (fullProbabilities)
    probabilityTensors.push_back({fullProbabilities, probabilitiesLabels});
  collecting = wasCollecting;
}

/// Step 2: down from P. Elementwise ops and row sums stay in the N×N space
/// (into `downstream`); a contraction with one free dim of its other
/// operand leaves it (into `contractions`). Returns the first user that is
/// neither, or null.
Operation *Matcher::findGradientContractions(
    SmallVectorImpl<GradientContraction> &contractions,
    llvm::SetVector<Operation *> &downstream) {
  SmallVector<std::pair<Value, Labels>> worklist(probabilityTensors);
  llvm::DenseSet<Operation *> seen;
  Operation *unexplained = nullptr;
  while (!worklist.empty()) {
    auto [value, labels] = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (user == root || patternOps.contains(user) || isDeadCode(user) ||
          !seen.insert(user).second)
        continue;
      // [B, H] merged into B·H for a batch_matmul, or split back.
      if (std::optional<Labels> reshaped =
              reshapedLabels(user, value, labels)) {
        downstream.insert(user);
        worklist.push_back({user->getResult(0), *reshaped});
        continue;
      }
      // Attention sinks: the concat's backward slices the scores' gradient
      // (read on as the scores') and the sink column's off the softmax's.
      Value sliced;
      if (match.sinks && user->getNumResults() == 1 && !labels.empty() &&
          labels.back() == Axis{AxisKind::Key}) {
        if (sinkColumnSlice(user->getResult(0), sliced) && sliced == value) {
          downstream.insert(user);
          worklist.push_back({user->getResult(0), labels});
          continue;
        }
        if (lastColumnSlice(user->getResult(0), sliced) && sliced == value &&
            !sinkGradientColumn) {
          downstream.insert(user);
          sinkGradientColumn = user->getResult(0);
          sinkGradientLabels = labels;
          sinkGradientLabels.back() = Axis{AxisKind::Unit};
          continue;
        }
      }
      if (!followGradientUser(user, value, labels, worklist, downstream,
                              contractions))
        unexplained = unexplained ? unexplained : user;
    }
  }
  return unexplained;
}

/// One user of a tensor computed from P (`value`, read as `labels`):
/// elementwise or a row sum (its result joins `worklist`), or a gradient
/// contraction. False when it is neither.
bool Matcher::followGradientUser(
    Operation *user, Value value, ArrayRef<Axis> labels,
    SmallVectorImpl<std::pair<Value, Labels>> &worklist,
    llvm::SetVector<Operation *> &downstream,
    SmallVectorImpl<GradientContraction> &contractions) {
  std::optional<StructuredView> view =
      user->getNumResults() == 1 ? getStructuredView(user->getResult(0))
                                 : std::nullopt;
  const Value *input = view ? llvm::find(view->inputs, value) : nullptr;
  if (!view || input == view->inputs.end())
    return false;
  unsigned inputIndex = input - view->inputs.begin();
  LoopLabels loops(view->numLoops);
  bool consistent = true;
  for (auto [dim, expr] :
       llvm::enumerate(view->inputMaps[inputIndex].getResults())) {
    auto loop = dyn_cast<AffineDimExpr>(expr);
    if (!loop)
      continue;
    std::optional<Axis> &slot = loops[loop.getPosition()];
    consistent &= !slot || *slot == labels[dim];
    slot = labels[dim];
  }
  SmallVector<unsigned> unlabelled;
  for (auto [loop, label] : llvm::enumerate(loops))
    if (!label)
      unlabelled.push_back(loop);
  unsigned numReductions = llvm::count(view->reductionLoops, true);
  // A row statistic broadcast back over the keys (dP − rowsum(...)).
  if (numReductions == 0 && unlabelled.size() == 1 &&
      !llvm::is_contained(labels, Axis{AxisKind::Key})) {
    loops[unlabelled.front()] = Axis{AxisKind::Key};
    unlabelled.clear();
  }
  unsigned reduced =
      llvm::find(view->reductionLoops, true) - view->reductionLoops.begin();
  if (consistent && unlabelled.empty() &&
      (numReductions == 0 ||
       (numReductions == 1 && loops[reduced]->kind == AxisKind::Key))) {
    // Elementwise on P, or a row sum of it.
    if (std::optional<Labels> resultLabels =
            labelOperand(view->resultMap, loops)) {
      downstream.insert(user);
      worklist.push_back({view->result, *resultLabels});
      return true;
    }
  }
  if (consistent && numReductions == 1 && unlabelled.size() == 1 &&
      loops[reduced] &&
      (loops[reduced]->kind == AxisKind::Key ||
       loops[reduced]->kind == AxisKind::Query) &&
      getContraction(*view)) {
    contractions.push_back(
        {user, *view, loops, inputIndex, unlabelled[0], reduced});
    return true;
  }
  // Grouped queries: dV = Pᵀ·dO and dK = dSᵀ·Q sum over the query and the
  // group axis at once (the K/V head's gradient is its group's).
  if (!groupAxis || !consistent || numReductions != 2 ||
      unlabelled.size() != 1 || !getContraction(*view, true))
    return false;
  SmallVector<unsigned, 2> reductions;
  for (auto [loop, isReduction] : llvm::enumerate(view->reductionLoops))
    if (isReduction)
      reductions.push_back(loop);
  auto kindOf = [&](unsigned loop) {
    return loops[loop] ? std::optional<AxisKind>(loops[loop]->kind)
                       : std::nullopt;
  };
  for (int first = 0; first < 2; ++first) {
    unsigned query = reductions[first], group = reductions[1 - first];
    if (kindOf(query) == AxisKind::Query && kindOf(group) == AxisKind::Group) {
      contractions.push_back(
          {user, *view, loops, inputIndex, unlabelled[0], query});
      return true;
    }
  }
  return false;
}

/// Step 3: one gradient contraction, checked back up: dV = Pᵀ·dO, or
/// dQ = s·dS·K, or dK = s·dSᵀ·Q; fills its slot of `result`.
bool Matcher::matchGradientContraction(GradientContraction &contraction,
                                       BackwardMatch &result) {
  Term *scoreTerm = labelScoreOperand(contraction, AxisKind::ValueDim);
  if (!contraction.view.implicitInit && contraction.view.initConstant != 0.0)
    return fail(RejectCategory::Contraction,
                "a gradient contraction accumulates into a tensor that is "
                "not zero");
  if (isProbabilities(scoreTerm))
    return matchValueGradient(contraction, scoreTerm, result);
  return matchQueryOrKeyGradient(
      contraction, labelScoreOperand(contraction, AxisKind::HeadDim), result);
}

/// The contraction's operand computed from P, its free loop labelled
/// `freeKind` (the value dim for dV, the head dim for dQ and dK).
Term *Matcher::labelScoreOperand(GradientContraction &contraction,
                                 AxisKind freeKind) {
  contraction.loops[contraction.freeLoop] = Axis{freeKind};
  Labels labels = *labelOperand(
      contraction.view.inputMaps[contraction.scoreInput], contraction.loops);
  return leaf(contraction.view.inputs[contraction.scoreInput], labels);
}

/// The contraction's other operand (dO, Q or K), labelled.
Term *Matcher::otherOperand(const GradientContraction &contraction) {
  unsigned otherInput = 1 - contraction.scoreInput;
  return leaf(
      contraction.view.inputs[otherInput],
      *labelOperand(contraction.view.inputMaps[otherInput], contraction.loops));
}

/// The use of a gradient whose result is laid out as `resultLabels`,
/// checked against the op's layout [B, H, rows, cols].
std::optional<GradientUse> Matcher::gradientUse(StringRef name, Value gradient,
                                                ArrayRef<Axis> resultLabels,
                                                AxisKind rows, AxisKind cols,
                                                bool splitBatch, bool masked,
                                                double factor) {
  Labels expected = gradientLayout(resultLabels, rows, cols);
  GradientUse use{
      gradient, {}, expected.size() == 4 && splitBatch, masked, factor};
  SmallVector<int64_t, 4> toCanonical;
  if (!checkLayout(name, resultLabels, expected, toCanonical))
    return std::nullopt;
  use.permutation.resize(toCanonical.size());
  for (auto [index, source] : llvm::enumerate(toCanonical))
    use.permutation[source] = index;
  return use;
}

/// dV = Pᵀ·dO.
bool Matcher::matchValueGradient(GradientContraction &contraction,
                                 Term *scoreTerm, BackwardMatch &result) {
  AxisKind reducedKind = contraction.loops[contraction.reducedLoop]->kind;
  if (reducedKind != AxisKind::Query)
    return fail(RejectCategory::Contraction,
                "P is multiplied over its key dim by a tensor other than "
                "V (dV = Pᵀ·dO contracts the query dim)");
  resolveUntilProbabilities(scoreTerm); // collects copies of P
  if (!isGradOutput(otherOperand(contraction)))
    return false;
  double factor = 1.0;
  Value gradient = followResultScales(contraction.op, factor);
  if (result.gradValue)
    return fail(RejectCategory::Structure, "two contractions compute Pᵀ·dO");
  std::optional<Labels> resultLabels =
      labelOperand(contraction.view.resultMap, contraction.loops);
  std::optional<GradientUse> use = gradientUse(
      "dV", gradient, *resultLabels, AxisKind::Key, AxisKind::ValueDim,
      numBatchDims == 1, /*masked=*/false, factor);
  if (!use)
    return false;
  result.gradValue = *use;
  backwardOps.insert(contraction.op);
  return true;
}

/// dQ = s·dS·K (over the key dim) or dK = s·dSᵀ·Q (over the query dim).
bool Matcher::matchQueryOrKeyGradient(GradientContraction &contraction,
                                      Term *scoreTerm, BackwardMatch &result) {
  AxisKind reducedKind = contraction.loops[contraction.reducedLoop]->kind;
  bool isQuery = reducedKind == AxisKind::Key;
  double factor = 1.0;
  scoreGradientMasked = false;
  scoreDerivativeSeen = false;
  if (!matchScoreGradient(scoreTerm, factor))
    return false;
  // fa.attention_backward applies the score_mod's derivative: a backward
  // that does not (a detached score function, or a bug) is not its.
  if (!match.scoreFunction.empty() && !scoreDerivativeSeen)
    return fail(RejectCategory::Structure,
                "the scores go through a function before the softmax, but "
                "the backward does not multiply their gradient by its "
                "derivative");
  bool masked = scoreGradientMasked;
  // The forward's K (or Q) as the op reads it, and the tensor read here,
  // each down to its source: their scales differ by what the gradient
  // carries.
  double readScale = 1.0, forwardScale = 1.0;
  Term *read =
      deepSource(otherOperand(contraction), readScale, /*allowScale=*/true);
  Term *forward = deepSource(leaf(isQuery ? match.key : match.query,
                                  isQuery ? keyLabels : queryLabels),
                             forwardScale, /*allowScale=*/true);
  if (!sameTensor(read, forward))
    return fail(RejectCategory::Contraction,
                Twine("the gradient of the scores is contracted over the ") +
                    (isQuery ? "key dim with a tensor that is not the "
                               "forward's K (dQ = dS·K)"
                             : "query dim with a tensor that is not the "
                               "forward's Q (dK = dSᵀ·Q)") +
                    ", read as it is");
  factor *= readScale / forwardScale;
  Value gradient = followResultScales(contraction.op, factor);
  // The op's gradient carries the forward's scale; any other constant the
  // frontend puts on it (a loss scale, a scale written twice) is kept as a
  // factor.
  double ratio = sameScale(factor, match.scale) ? 1.0 : factor / match.scale;
  std::optional<GradientUse> &slot =
      isQuery ? result.gradQuery : result.gradKey;
  if (slot)
    return fail(RejectCategory::Structure,
                Twine("two contractions compute ") + (isQuery ? "dQ" : "dK"));
  std::optional<Labels> resultLabels =
      labelOperand(contraction.view.resultMap, contraction.loops);
  std::optional<GradientUse> use =
      gradientUse(isQuery ? "dQ" : "dK", gradient, *resultLabels,
                  isQuery ? AxisKind::Query : AxisKind::Key, AxisKind::HeadDim,
                  numBatchDims == 1 && !groupAxis, masked, ratio);
  if (!use)
    return false;
  slot = *use;
  backwardOps.insert(contraction.op);
  return true;
}

/// Step 3b (attention sinks): from the sink column's gradient down to
/// dSinks, through sums over what the sink was broadcast along (batches,
/// queries, unit dims) and reshapes of unit dims.
bool Matcher::matchSinkGradient(BackwardMatch &result) {
  auto isHead = [&](const Axis &axis) {
    return axis.kind == AxisKind::Batch &&
           (axis.part ? axis.part == 2 : axis.batchIndex + 1 == numBatchDims);
  };
  auto refuse = [&](const Twine &why) {
    return fail(RejectCategory::Structure,
                "the sink column's gradient " + why +
                    "; fa.attention_backward's grad_sinks is its sum over "
                    "batches and queries");
  };
  Value current = sinkGradientColumn;
  Labels labels = sinkGradientLabels;
  backwardOps.insert(current.getDefiningOp());
  for (unsigned steps = 0; steps < 8; ++steps) {
    if (llvm::all_of(labels, [&](const Axis &axis) {
          return axis.kind == AxisKind::Unit || isHead(axis);
        })) {
      auto type = cast<RankedTensorType>(current.getType());
      if (!type.hasStaticShape())
        return refuse("has a dynamic shape");
      result.gradSinks = current;
      return true;
    }
    if (!current.hasOneUse())
      return refuse("is used by several ops");
    Operation *user = *current.getUsers().begin();
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tosa::ReshapeOp>(
            user)) {
      // Unit dims dropped or inserted: the other dims keep their labels.
      auto resultType = cast<RankedTensorType>(user->getResult(0).getType());
      auto sourceType = cast<RankedTensorType>(current.getType());
      SmallVector<Axis> kept;
      for (auto [size, axis] : llvm::zip(sourceType.getShape(), labels))
        if (size != 1)
          kept.push_back(axis);
      Labels next;
      unsigned used = 0;
      for (int64_t size : resultType.getShape()) {
        if (size == 1) {
          next.push_back(Axis{AxisKind::Unit});
          continue;
        }
        if (used == kept.size() ||
            sourceType.getDimSize(llvm::find(labels, kept[used]) -
                                  labels.begin()) != size)
          return refuse("is reshaped across its dims");
        next.push_back(kept[used++]);
      }
      if (used != kept.size())
        return refuse("is reshaped across its dims");
      backwardOps.insert(user);
      current = user->getResult(0);
      labels = next;
      continue;
    }
    std::optional<StructuredView> view =
        user->getNumResults() == 1 ? getStructuredView(user->getResult(0))
                                   : std::nullopt;
    if (!view || view->inputs.size() != 1 || !view->hasReduction() ||
        view->rootNode().kind != ScalarKind::Add ||
        (!view->implicitInit && view->initConstant != 0.0))
      return refuse("goes to " + opName(user) + ", not a sum");
    const ScalarNode &add = view->rootNode();
    auto kindOf = [&](unsigned index) { return view->node(index).kind; };
    bool plainSum = (kindOf(add.operands[0]) == ScalarKind::Init &&
                     kindOf(add.operands[1]) == ScalarKind::Input) ||
                    (kindOf(add.operands[1]) == ScalarKind::Init &&
                     kindOf(add.operands[0]) == ScalarKind::Input);
    if (!plainSum)
      return refuse("is summed with a factor");
    // The loops, labelled from the input's dims.
    std::optional<LoopLabels> loops = LoopLabels(view->numLoops);
    for (auto [dim, expr] : llvm::enumerate(view->inputMaps[0].getResults())) {
      auto loop = dyn_cast<AffineDimExpr>(expr);
      if (!loop || (*loops)[loop.getPosition()])
        return refuse("is not read as it is written");
      (*loops)[loop.getPosition()] = labels[dim];
    }
    for (auto [loop, reduced] : llvm::enumerate(view->reductionLoops))
      if (reduced && (!(*loops)[loop] || isHead(*(*loops)[loop])))
        return refuse("is summed over the heads");
    Labels next;
    for (AffineExpr expr : view->resultMap.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        if (!(*loops)[dim.getPosition()])
          return refuse("is not read as it is written");
        next.push_back(*(*loops)[dim.getPosition()]);
      } else {
        next.push_back(Axis{AxisKind::Unit});
      }
    }
    backwardOps.insert(user);
    current = view->result;
    labels = next;
  }
  return refuse("goes through too many ops");
}

/// Step 4: everything computed from P is explained, and nothing outside
/// uses the N×N side of the backward: else P would stay materialized.
bool Matcher::checkBackwardIsClosed(
    const llvm::SetVector<Operation *> &downstream,
    const llvm::SetVector<Operation *> &scoreSide) {
  for (Operation *op : downstream)
    if (!scoreSide.contains(op) && !backwardOps.contains(op))
      return fail(RejectCategory::ExternalUse,
                  "P feeds attention's backward, but " + opName(op) +
                      " computes from it something the backward does not "
                      "use");
  for (Operation *op : scoreSide)
    for (Operation *user : op->getUsers())
      if (!scoreSide.contains(user) && !backwardOps.contains(user) &&
          !patternOps.contains(user) && user != root && !isDeadCode(user))
        return fail(RejectCategory::ExternalUse,
                    "the result of " + opName(op) +
                        " in attention's backward is also used by " +
                        opName(user));
  return true;
}

/// Step 5: where the backward op goes (before its first gradient, in the
/// forward's block), dO's layout, and the batch split the forward made.
bool Matcher::finishBackward(ArrayRef<GradientContraction> contractions,
                             ArrayRef<int64_t> forwardSplit,
                             BackwardMatch &result) {
  for (const GradientContraction &contraction : contractions) {
    if (contraction.op->getBlock() != root->getBlock())
      return fail(RejectCategory::Structure,
                  "attention's backward is in another block than its "
                  "forward");
    if (!result.insertionPoint ||
        contraction.op->isBeforeInBlock(result.insertionPoint))
      result.insertionPoint = contraction.op;
  }
  result.gradOutput = gradOutput;
  checkLayout(
      "dO", gradOutputLabels,
      gradientLayout(gradOutputLabels, AxisKind::Query, AxisKind::ValueDim),
      result.gradOutputPermutation);
  result.gradOutputSplitBatch =
      gradientLayout(gradOutputLabels, AxisKind::Query, AxisKind::ValueDim)
              .size() == 4 &&
      numBatchDims == 1 && !groupAxis;
  if (ArrayRef<int64_t>(batchSplit) != forwardSplit)
    return fail(RejectCategory::Shape,
                "the backward splits the batch dim into [B, H] where the "
                "forward does not");
  result.patternOps.assign(backwardOps.begin(), backwardOps.end());
  return true;
}
