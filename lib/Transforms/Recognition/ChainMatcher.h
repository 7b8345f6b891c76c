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
/// [batch..., rows, cols].
Labels canonicalLabels(unsigned numBatchDims, AxisKind rows, AxisKind cols);
bool isLowestFinite(double value);
std::string formatConstant(double value);
/// Whether two labelings read a tensor the same way, a split batch dim
/// counted as the whole dim.
bool sameAxes(ArrayRef<Axis> a, ArrayRef<Axis> b);
/// True when nothing observes `op` (no effects, results unused or used only
/// by such ops).
bool isDeadCode(Operation *op, unsigned depth = 4);
/// Finds an exp or a softmax among the producers of `value`, a few ops up.
Operation *findSoftmax(Value value, unsigned depth = 8);

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
  bool expansionTried = false;
  Term *expansion = nullptr;
};

/// A contraction `init + a * b` (casts allowed on a and b) with zero init.
struct Contraction {
  unsigned reductionLoop;
};

class Matcher {
public:
  Matcher(Operation *root, Rejection &rejection)
      : root(root), rejection(rejection) {
    rejection.location = root;
  }

  std::optional<AttentionMatch> run();

private:
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
  /// True when `term` is computed from a contraction (the scores side).
  bool dependsOnContraction(Term *term, unsigned depth = 16);

  std::nullopt_t reject(RejectCategory category, const Twine &message) {
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
  bool matchRowReduction(Term *stat, Term *expectedInput, bool isMax,
                         StringRef what, Term **reducedInput = nullptr);
  bool matchLogSumExp(Term *x, Term *lse, Term *&scores);
  bool matchScores(Term *scores, Term *&contraction);
  bool matchQueryKey(Term *contraction);
  Value peelOperand(Term *operand, Labels &labels, bool allowScale);
  bool checkLayout(StringRef name, ArrayRef<Axis> actual,
                   ArrayRef<Axis> expected,
                   SmallVectorImpl<int64_t> &permutation);
  bool checkMask(Value mask, ArrayRef<Axis> labels);
  bool checkExternalUses();

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
  /// Sizes of [B, H] where the chain splits its batch dim (see
  /// lookThroughBatchReshape); empty otherwise.
  SmallVector<int64_t, 2> batchSplit;
  double fill = 0;
  /// The log-sum-exp softmax's max + log(sum), when it is a tensor.
  Term *logsumexpTerm = nullptr;
  /// Whether the softmax is spelled exp(x - (max + log(sum))).
  bool logSumExpSoftmax = false;
};

/// A contraction `init + a * b` (casts allowed on a and b) with zero init.
std::optional<Contraction> getContraction(const StructuredView &view);

} // namespace mlir::fa::recognition::detail

#endif // FA_TRANSFORMS_RECOGNITION_CHAINMATCHER_H
