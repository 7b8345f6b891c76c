//===- ChainMatcher.h - The matcher's walk over labelled terms --*- C++ -*-===//
//
// Stage: recognition (how it is found). The machinery behind matchAttention,
// shared by the forward chain (AttentionMatcher.cpp) and the backward of a
// joint graph (JointGraphMatcher.cpp): terms that carry one attention axis
// per tensor dim, resolved through elementwise producers and copies, and the
// Matcher that walks them. Private to the recognizer.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_CHAINMATCHER_H
#define FA_TRANSFORMS_RECOGNITION_CHAINMATCHER_H

#include "AttentionMatcher.h"
#include "CausalMask.h"
#include "LinearAttention.h"
#include "StructuredView.h"

#include "llvm/ADT/SetVector.h"

#include <deque>

namespace mlir::fa::recognition::detail {

using LoopLabels = SmallVector<std::optional<Axis>>;

/// Labels of the loops of an op, given the labels of its result dims. Loops
/// that do not appear in the result (reductions) stay unset.
std::optional<LoopLabels> labelLoops(const StructuredView &view,
                                     ArrayRef<Axis> resultLabels);
/// Labels of an operand read through `map` from labelled loops.
std::optional<Labels> labelOperand(AffineMap map,
                                   ArrayRef<std::optional<Axis>> loops);
/// [batch..., rows, cols], or [batch..., G, Nq, cols] with `group` when the
/// rows are the queries.
Labels canonicalLabels(unsigned numBatchDims, AxisKind rows, AxisKind cols,
                       bool group = false);
bool isLowestFinite(double value);
/// How a mask tensor hides keys: an i1 keep-mask (a hide-mask when the
/// select keeps its false side), or a float bias.
MaskMeaning meaningOf(Value mask, bool invert);
/// 1 for a factor within float rounding of 1 (the rounding of a frontend's
/// constant, not a scale), the factor otherwise.
double snapToOne(double factor);
std::string formatConstant(double value);
/// Whether a mask read as `labels` keeps at least one key of every row,
/// known from its compile-time values (maskValues); false when unknown.
bool everyRowKeepsAKey(Value mask, ArrayRef<Axis> labels,
                       MaskMeaning meaning);
/// Whether two masks hold the same values: one value, equal compile-time
/// values, or ops that compute the same from the same operands (a select
/// condition materialized from the forward's body and from the backward's).
bool sameMask(Value a, Value b);
/// Whether two labelings read a tensor the same way, a split batch dim
/// counted as the whole dim.
bool sameAxes(ArrayRef<Axis> a, ArrayRef<Axis> b);
/// True when nothing observes `op` (no effects, results unused or used only
/// by such ops).
bool isDeadCode(Operation *op, unsigned depth = 4);
/// True when `labels` name each axis once and have no broadcast dim.
bool isOrderOfAxes(ArrayRef<Axis> labels);
/// Finds an exp or a softmax among the producers of `value`, a few ops up.
Operation *findSoftmax(Value value, unsigned depth = 8);
/// The input of an elementwise float-to-float cast producing `value`
/// (tosa.cast, arith.extf/truncf, a linalg op that only casts), or null.
Value floatCastSource(Value value);
/// The op slicing `x[..., 0 : N - 1]` out of a static `x[..., N]` into
/// `value` (tensor.extract_slice or tosa.slice), or null; sets `source`.
Operation *sinkColumnSlice(Value value, Value &source);
/// The op slicing the last column `x[..., N - 1 : N]` out of a static
/// `x[..., N]` into `value`, or null; sets `source`.
Operation *lastColumnSlice(Value value, Value &source);
/// The op writing `x` ([..., N - 1]) into a [..., N] tensor of zeros
/// (tensor.pad, insert_slice into zeros, tosa.pad) whose result is `value`:
/// autodiff's backward of sinkColumnSlice. Null otherwise; sets `source`.
Operation *zeroColumnPad(Value value, Value &source);

/// One node of the expression the matcher walks: a tensor (leaf), or a
/// scalar operation that some op's body computes on its operands.
struct Term {
  ScalarKind kind = ScalarKind::Input;
  double constant = 0;
  SmallVector<Term *, 3> operands;
  /// The tensor this term is, when it exists as one (leaves, op results).
  Value value;
  /// The attention axis of each dim of `value` (or of the op's loops).
  Labels labels;
  /// For a node of a linalg payload: the body value and the op.
  Value scalar;
  Operation *bodyOp = nullptr;
  bool expansionTried = false;
  Term *expansion = nullptr;
};

/// A contraction `init + a * b` (casts allowed on a and b) with zero init.
struct Contraction {
  unsigned reductionLoop;
};

/// A contraction that reads a tensor computed from P and leaves the N×N
/// space: one of dQ, dK, dV. Its loops are labelled from that input, except
/// `freeLoop`, the head or value dim of the other operand.
struct GradientContraction {
  Operation *op;
  StructuredView view;
  LoopLabels loops;
  unsigned scoreInput;
  unsigned freeLoop;
  unsigned reducedLoop;
};

class Matcher {
public:
  /// `swapQueryAxes`: where P·V has two query-only loops (a grouped
  /// contraction), take the later one in P's order as the group axis
  /// instead of the earlier (matchAttention tries both).
  /// `scoresAsFunction`: read everything between Q·Kᵀ and the softmax as
  /// one score function (score_mod) instead of peeling scales, masks and
  /// biases into the op's attributes (matchAttention's last try, for
  /// masks and biases that do not combine into the op's one mask).
  Matcher(Operation *root, Rejection &rejection, bool swapQueryAxes = false,
          bool scoresAsFunction = false, MatchOptions options = {})
      : root(root), rejection(rejection), swapQueryAxes(swapQueryAxes),
        scoresAsFunction(scoresAsFunction), options(options) {
    rejection.location = root;
  }

  std::optional<AttentionMatch> run();

  /// Matches linear attention instead (LinearAttention.cpp), reading
  /// operand `weightsIndex` of the root as the weights.
  std::optional<LinearAttentionMatch> runLinear(unsigned weightsIndex);

private:
  /// The steps of run, in order (see each in AttentionMatcher.cpp).
  struct OperandTypes {
    RankedTensorType query, key;
  };
  std::optional<std::pair<Value, Labels>> matchValueContraction();
  bool unifyElementTypes();
  bool checkOperands(OperandTypes &types);
  bool readGroupedHeads(const OperandTypes &types);
  bool settleEmptyRows(const OperandTypes &types);
  bool finishMatch();
  bool headsFromSplit();
  bool checkBackward();

  Term *leaf(Value value, Labels labels) {
    Term &term = terms.emplace_back();
    term.value = value;
    term.labels = std::move(labels);
    return &term;
  }

  /// Looks through elementwise producers (and copies such as transposes and
  /// broadcasts) so that fused and unfused spellings give the same term.
  Term *resolve(Term *term);
  /// One step of resolve: the expansion of a tensor term, or null.
  Term *step(Term *term);
  Term *expand(Term *term);
  Term *lookThroughBatchReshape(Term *term);
  Term *peelCasts(Term *term) {
    term = resolve(term);
    while (term->kind == ScalarKind::ExtF || term->kind == ScalarKind::TruncF)
      term = resolve(term->operands[0]);
    return term;
  }
  /// `term` as (x, c) when it is x·c, c·x or x / (1/c) with a constant
  /// c > 0.
  std::optional<std::pair<Term *, double>> positiveConstantFactor(Term *term);
  /// The row sum dividing P·V's result in the one op that uses it, when
  /// the softmax's normalization is deferred past P·V; null otherwise.
  Term *deferredRowSum();
  /// The labels of the result of `op`, a transpose or a reshape that moves
  /// P·V's rows into the output's layout, from those of its operand;
  /// nullopt for any other op or reshape.
  std::optional<Labels> labelsAfterLayout(Operation *op, ArrayRef<Axis> labels);
  /// The transpose or reshape after P·V that labelsAfterLayout could not
  /// read (for the remark).
  Operation *unreadLayout = nullptr;
  /// d when `candidate` is 1 / d, or null.
  Term *reciprocalOf(Term *candidate);
  /// Records a tensor scale on the scores (match.queryScale) when nothing
  /// but casts and constant scales lies between it and Q·Kᵀ (checked as
  /// the walk goes on) and it varies along no key.
  bool peelTensorScale(Term *scale, bool divides);
  /// Maps the tensor scale's dims onto Q's once Q is known.
  bool placeQueryScale();
  Term *tensorScale = nullptr;
  /// `term` without constant factors whose product is 1 up to float
  /// rounding (exp2(y · log2(e)) is exp(y)): where a factor would not be
  /// a scale (the log-sum-exp spelling), only such factors are peeled.
  Term *withoutUnitFactor(Term *term);
  /// t when `x` is t - rowmax(t) (the same t), or null.
  Term *withoutOwnRowMax(Term *x);
  /// A new term x·factor (the scores a scaled softmax reads).
  Term *scaledTerm(Term *x, double factor);
  /// True when `term` is computed from a contraction (the scores side).
  bool dependsOnContraction(Term *term, unsigned depth = 16);

  std::nullopt_t reject(RejectCategory category, const Twine &message) {
    refusedInScores = inScores;
    rejection.category = category;
    rejection.message = message.str();
    return std::nullopt;
  }
  /// reject() for the checks that return bool.
  bool fail(RejectCategory category, const Twine &message) {
    reject(category, message);
    return false;
  }

  bool matchProbabilities(Term *probs, Term *&scores);
  /// where(every key of the row is -inf, 0, softmax(x)): PyTorch's
  /// _safe_softmax, or any guard of that meaning (EmptyRowGuard.h).
  bool matchGuardedProbabilities(Term *select, Term *&scores);
  bool matchRowReduction(Term *stat, Term *expectedInput, bool isMax,
                         StringRef what, Term **reducedInput = nullptr);
  bool matchLogSumExp(Term *x, Term *lse, Term *&scores);
  bool matchScores(Term *scores, Term *&contraction);
  bool peelScoreScale(Term *term, Term *&next);
  bool peelScoreBias(Term *term, Term *&next);
  bool peelScoreSelect(Term *term, Term *&next);
  /// A score function (AttentionMatch::scoreFunction) rooted at `term`:
  /// whether there is one, and peeling it (next: the scaled scores).
  bool isScoreFunction(Term *term, unsigned depth = 16);
  /// resolve() without adding what it looks through to the pattern: for
  /// questions about a term, not steps of the match.
  Term *resolveQuietly(Term *term);
  bool isScaledScores(Term *term, unsigned depth = 8);
  /// The same scores read through two terms: one term, or two that
  /// resolve to the same computation (TOSA reads a tensor through a new
  /// leaf at each op that uses it).
  bool sameComputation(Term *a, Term *b, unsigned depth = 8);
  bool peelScoreFunction(Term *term, Term *&next);
  bool checkScoreFunctionTensors(Value scores);
  std::optional<unsigned> translateScoreFunction(Term *term, Term *&argument,
                                                 unsigned depth,
                                                 bool condition);
  bool matchQueryKey(Term *contraction);
  /// With `scaleOut`, the scale peeled off is stored there instead of
  /// multiplied into the match's scale.
  Value peelOperand(Term *operand, Labels &labels, bool allowScale,
                    double *scaleOut = nullptr);
  bool checkLayout(StringRef name, ArrayRef<Axis> actual,
                   ArrayRef<Axis> expected,
                   SmallVectorImpl<int64_t> &permutation);
  bool checkMask(Value mask, ArrayRef<Axis> labels);
  bool checkExternalUses();
  /// True when every use of the pattern outside it only returns a value
  /// (MatchOptions::shareScores).
  bool onlyEscapes();

  // Linear attention (LinearAttention.cpp).
  /// A factor multiplied into the weights (a 0/1 mask, a decay table) or a
  /// select's condition, read as `meaning`.
  struct WeightFactor {
    Value value;
    Labels labels;
    MaskMeaning meaning;
  };
  bool splitQuotient(Term *term, Term *&numerator, Term *&denominator);
  bool readsValue(Term *term, Value target, unsigned depth = 16);
  bool readsProduct(Term *term, unsigned depth = 16);
  bool peelWeightNormalization(Term *&term, std::optional<double> &epsilon);
  bool matchNormalizer(Term *denominator, Term *weights,
                       std::optional<double> &epsilon);
  bool matchLinearWeights(Term *term, Term *&contraction,
                          SmallVectorImpl<WeightFactor> &factors);
  bool peelOutputNormalization(Value weights, ArrayRef<Axis> weightsLabels,
                               std::optional<double> &epsilon,
                               Operation *&output);
  bool classifyWeightFactors(Value weights, ArrayRef<Axis> weightsLabels,
                             ArrayRef<WeightFactor> factors,
                             LinearAttentionMatch &result);
  bool checkLinearExternalUses(Operation *output);
  /// Set by runLinear: matchValueContraction reads operand
  /// `linearWeightsIndex` as the weights instead of looking for a softmax.
  bool linearMode = false;
  unsigned linearWeightsIndex = 0;

  // The backward of a joint graph (JointGraphMatcher.cpp).
  /// Matches the users of P outside the forward chain as attention's
  /// backward and fills match.backward. Returns false with
  /// `looksLikeBackward` unset when no gradient contraction reads P (the
  /// caller then reports the plain external use), and with the rejection
  /// set otherwise.
  bool matchBackward(bool &looksLikeBackward);
  // matchBackward's steps, in order.
  void collectProbabilityTensors();
  Operation *
  findGradientContractions(SmallVectorImpl<GradientContraction> &contractions,
                           llvm::SetVector<Operation *> &downstream);
  bool followGradientUser(Operation *user, Value value, ArrayRef<Axis> labels,
                          SmallVectorImpl<std::pair<Value, Labels>> &worklist,
                          llvm::SetVector<Operation *> &downstream,
                          SmallVectorImpl<GradientContraction> &contractions);
  bool matchGradientContraction(GradientContraction &contraction,
                                BackwardMatch &result);
  bool checkBackwardIsClosed(const llvm::SetVector<Operation *> &downstream,
                             const llvm::SetVector<Operation *> &scoreSide);
  bool finishBackward(ArrayRef<GradientContraction> contractions,
                      ArrayRef<int64_t> forwardSplit, BackwardMatch &result);
  // matchGradientContraction's cases and helpers.
  bool matchValueGradient(GradientContraction &contraction, Term *scoreTerm,
                          BackwardMatch &result);
  bool matchQueryOrKeyGradient(GradientContraction &contraction,
                               Term *scoreTerm, BackwardMatch &result);
  Term *labelScoreOperand(GradientContraction &contraction, AxisKind freeKind);
  Term *otherOperand(const GradientContraction &contraction);
  std::optional<GradientUse> gradientUse(StringRef name, Value gradient,
                                         ArrayRef<Axis> resultLabels,
                                         AxisKind rows, AxisKind cols,
                                         bool splitBatch, bool masked,
                                         double factor);
  /// True when `term` is P, through copies and casts.
  bool isProbabilities(Term *term);
  /// resolve() that stops at P instead of expanding its softmax.
  Term *resolveUntilProbabilities(Term *term);
  /// peelOperand() for Q, K, V and dO: the copies looked through are not
  /// part of the pattern (the forward may share them).
  Value peelInput(Term *term, Labels &labels, bool allowScale,
                  double *scaleOut);
  /// dS = c · P∘(dP − r) or c · (P∘dP − P∘r), through the mask's select;
  /// multiplies `factor` by c.
  bool matchScoreGradient(Term *gradient, double &factor);
  bool matchSoftmaxBackward(Term *term, double &factor);
  /// The value at one score of `term`, a function of the forward's Q·Kᵀ
  /// (read at the score's own position) and constants only: Q·Kᵀ is `raw`
  /// there. Nullopt for anything else (P, dP, another tensor).
  std::optional<double> evaluateAtScore(Term *term, double raw,
                                        unsigned depth = 32);
  /// The score function's derivative: whether the product of `factors`
  /// equals c · f′(scale · raw) for one constant c at every sample of the
  /// score, f the match's scoreFunction; multiplies `factor` by c.
  bool matchScoreFunctionDerivative(ArrayRef<Term *> factors, double &factor);
  /// The ops that compute a derivative factor from the forward's tensors,
  /// into the backward's (the forward's own are left to it).
  void collectDerivativeOps(Term *term, unsigned depth = 32);
  /// The factors of a product (casts peeled, constants into `factor`).
  void flattenProduct(Term *term, SmallVectorImpl<Term *> &factors,
                      double &factor);
  /// dP = dO·Vᵀ, with the V of the forward chain.
  bool matchGradProbabilities(Term *term);
  /// rowsum(dP∘P) or rowsum(dO∘O), over the key or the value dim.
  bool matchRowCorrection(Term *term);
  bool isGradOutput(Term *term);
  /// The tensor behind an operand, through batch reshapes, copies, widening
  /// casts and (with `allowScale`) constant scales, multiplied into
  /// `scale`: two reads of one tensor, however each was reshaped or
  /// transposed, end at the same term.
  Term *deepSource(Term *term, double &scale, bool allowScale);
  /// The labels of a reshape's result that merges the [B, H] dims of
  /// `source` (read as `labels`), checked by reading it back.
  std::optional<Labels> reshapedLabels(Operation *reshape, Value source,
                                       ArrayRef<Axis> labels);
  /// [B, H, rows, cols] when `labels` hold the parts of a split batch dim,
  /// else [batch..., rows, cols].
  Labels gradientLayout(ArrayRef<Axis> labels, AxisKind rows, AxisKind cols);
  bool isOutput(Term *term);
  /// A gradient contraction's result and the constant scales applied to it
  /// alone; returns the tensor the frontend uses as the gradient.
  Value followResultScales(Operation *contraction, double &factor);

  Operation *root;
  Rejection &rejection;
  AttentionMatch match;
  std::deque<Term> terms;
  /// While set, ops looked through are part of the pattern.
  bool collecting = false;
  /// While set (from P back to Q·Kᵀ), reshapes of the batch dim are looked
  /// through; Q, K, V and masks are taken as they are.
  bool inChain = false;
  llvm::SetVector<Operation *> patternOps;
  unsigned numBatchDims = 0;
  /// P·V has a group axis besides the query axis (AttentionMatch::groupAxis).
  bool groupAxis = false;
  bool swapQueryAxes = false;
  bool scoresAsFunction = false;
  MatchOptions options;
  /// While set, the walk is between Q·Kᵀ and the softmax (matchScores,
  /// combineMasks).
  bool inScores = false;

public:
  /// Set when P·V has two query-only loops, whichever became the group.
  bool twoQueryLoops = false;
  /// Set when the refusal came from the scores' masks, biases or function:
  /// matchAttention then tries them as one score function.
  bool refusedInScores = false;

private:
  /// Sizes of [B, H] where the chain splits its batch dim (see
  /// lookThroughBatchReshape); empty otherwise.
  SmallVector<int64_t, 2> batchSplit;
  /// Sizes of [Hkv, G] where the chain merges them into one heads dim
  /// between grouped contractions (AxisKind::GroupedHeads); empty otherwise.
  SmallVector<int64_t, 2> groupedHeads;
  double fill = 0;
  /// Masks on the scores after the first (match.mask): each a bias
  /// (invert false, fill -inf) or a select's condition with its fill. They
  /// are combined in run(): causal and length masks become the op's
  /// attributes, and at most one mask tensor may remain.
  struct ExtraMask {
    Value value;
    Labels labels;
    bool invert = false;
    double fill = 0;
  };
  SmallVector<ExtraMask> extraMasks;
  bool masksCombined = false;
  /// P·V reads the softmax's result without its last key column (attention
  /// sinks): the scores must then end with the sink column.
  bool sinkColumnSliced = false;
  /// While set, the walk is on P's copies and casts above the softmax,
  /// where a slice of the last key column is attention sinks' (step).
  bool seekingProbabilities = false;
  /// Then the softmax's whole result, sink column included (P in a joint
  /// graph's softmax backward).
  Value fullProbabilities;
  /// The sink column's gradient (the concat's backward slices it off the
  /// scores' gradient), when a joint graph computes it.
  Value sinkGradientColumn;
  Labels sinkGradientLabels;
  /// The frontend's dSinks: the sink column's gradient summed over what
  /// the sink was broadcast along; sets match.backward's gradSinks.
  bool matchSinkGradient(BackwardMatch &result);
  /// The scores' concatenation of the sink column, when P has one sliced
  /// off: the sink becomes the match's sinks.
  bool peelSinkColumn(Term *term, Term *&next);
  /// The mask combineMasks turned into the causal attribute, if any.
  Value causalMask;
  bool combineMasks();
  /// A select's condition computed in its own linalg body (index
  /// comparisons, a mask input and'ed with them), materialized as an i1
  /// tensor over the op's result dims: a mask like any other. Null when
  /// the condition reads the scores or anything but the op's inputs,
  /// linalg.index and values from above.
public:
  /// With `anyType`, a value of any type computed in the body (a decay
  /// factor), not only an i1 condition.
  Value materializeCondition(Term *condition, bool anyType = false);
  /// Ops materializeCondition created: erased again when the candidate is
  /// refused, part of the pattern otherwise.
  SmallVector<Operation *> materialized;
private:
  /// Set when P is the softmax under an empty-row guard (PyTorch's
  /// _safe_softmax): rows of -inf scores give 0, as the op does.
  bool emptyRowsGuarded = false;
  /// P = select(c, 0, softmax) whose c is no "every key is -inf" guard:
  /// accepted once the masks are known if c is the softmax's own select
  /// mask (XSoftmax: masked_fill before and after the softmax).
  struct PendingRemask {
    Value condition;
    Labels labels;
    bool zeroWhenTrue = false;
    std::string why;
  };
  std::optional<PendingRemask> pendingRemask;
  /// The log-sum-exp softmax's max + log(sum), when it is a tensor.
  Term *logsumexpTerm = nullptr;
  /// Whether the softmax is spelled exp(x - (max + log(sum))).
  bool logSumExpSoftmax = false;

  // What the backward of a joint graph is checked against.
  /// P as the root reads it, and its dims' roles.
  Value probabilities;
  Labels probabilitiesLabels;
  /// The roles of the root's result dims, and of Q, K and V as peeled.
  Labels outputLabels, queryLabels, keyLabels, valueLabels;
  /// The masks applied by select(condition, s, fill), in the order the
  /// walk met them: masked_fill's backward may mask the score gradient by
  /// any of them.
  struct SelectMask {
    Value condition;
    Labels labels;
    bool hidesWhenTrue = false;
  };
  SmallVector<SelectMask> selectMasks;
  /// The select masks the score gradient went through (their conditions).
  llvm::SetVector<Value> gradientSelects;
  /// While set, terms looked through go here instead of patternOps.
  llvm::SetVector<Operation *> *collectInto = nullptr;
  llvm::SetVector<Operation *> backwardOps;
  /// Set when matchScoreGradient went through masked_fill's backward.
  bool scoreGradientMasked = false;
  /// Set when the score gradient was multiplied by the score function's
  /// derivative (matchScoreFunctionDerivative).
  bool scoreDerivativeSeen = false;
  /// Q·Kᵀ as the scores read it: what evaluateAtScore calls `raw`.
  Value scoreContraction;
  Labels scoreContractionLabels;
  /// The scale the scores apply to that Q·Kᵀ (the score function reads
  /// contractionScale · raw); scales on Q and K are inside raw.
  double contractionScale = 1.0;
  /// P as the root reads it and the tensors it is a copy or a cast of.
  SmallVector<std::pair<Value, Labels>> probabilityTensors;
  Value gradOutput;
  Labels gradOutputLabels;
};

/// A contraction `init + a * b` (casts allowed on a and b) with one
/// reduction loop, or (`anyReductions`) with one or more: `reductionLoop`
/// is then the first.
std::optional<Contraction> getContraction(const StructuredView &view,
                                          bool anyReductions = false);

} // namespace mlir::fa::recognition::detail

#endif // FA_TRANSFORMS_RECOGNITION_CHAINMATCHER_H
