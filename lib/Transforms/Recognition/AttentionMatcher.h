//===- AttentionMatcher.h - Finding attention in tensor programs -*- C++ -*-===//
//
// Stage: recognition (what is found). Starting at a contraction that could be
// P·V, checks every axis and every step back to Q·Kᵀ on the dialect-neutral
// StructuredView, and returns either an AttentionMatch (everything
// fa.attention needs, with the exact scale and mask) or a Rejection that says
// which check failed. It never changes IR.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_ATTENTIONMATCHER_H
#define FA_TRANSFORMS_RECOGNITION_ATTENTIONMATCHER_H

#include "StructuredView.h"
#include "fa/Dialect/FA/IR/FADialect.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::fa::recognition {

/// The role of one tensor dimension in attention.
/// Group: a second query axis that K and V lack (JAX's grouped GQA
/// contraction, `BTKGH,BSKH->BKGTS`): the query heads are [Hkv, G] pairs.
/// GroupedHeads: the query heads as one dim that merges the K/V head (the
/// last batch dim) and the group, [Hkv·G], where a frontend computes the
/// softmax on merged heads between two grouped contractions.
enum class AxisKind {
  Batch,
  Query,
  Key,
  HeadDim,
  ValueDim,
  Unit,
  Group,
  GroupedHeads
};

struct Axis {
  AxisKind kind;
  unsigned batchIndex = 0; // Batch only: 0 or 1, outermost first
  /// Batch only: 0 for the whole batch dim; 1, 2 for its outer and inner
  /// part where the chain reshapes [B*H, ...] into [B, H, ...].
  unsigned part = 0;
  bool operator==(const Axis &other) const {
    return kind == other.kind &&
           (kind != AxisKind::Batch ||
            (batchIndex == other.batchIndex && part == other.part));
  }
  bool operator!=(const Axis &other) const { return !(*this == other); }
};
using Labels = SmallVector<Axis, 4>;

/// Formats labels as "[batch0, Nq, Nk]" for remarks.
std::string formatLabels(ArrayRef<Axis> labels);

/// Why a candidate was not raised. Each category is a pass statistic.
enum class RejectCategory {
  NotCandidate,    // no softmax feeds this contraction: not reported
  Structure,       // an op in the chain is not the expected one
  SoftmaxAxis,     // max/sum/softmax over a dim other than the key dim
  Contraction,     // Q·Kᵀ or P·V contracts the wrong dims or accumulates
  Layout,          // Q, K, V, mask or output not in [batch..., N, D] order
  ExternalUse,     // scores or probabilities used outside the pattern
  Scale,           // scale not a compile-time scalar, or not positive
  Mask,            // mask form the op cannot state exactly
  Type,            // element types
  Shape,           // ranks, dynamic head dims, limits of the op
};
constexpr unsigned kNumRejectCategories = 10;
StringRef stringifyRejectCategory(RejectCategory category);

struct Rejection {
  RejectCategory category = RejectCategory::NotCandidate;
  std::string message;
  /// Where a remark belongs: the softmax when one was found, else the root.
  Operation *location = nullptr;
  /// Other candidates that belong to the refused computation (the
  /// gradient contractions of a joint graph): their own reasons would only
  /// repeat this one, so they are not reported.
  SmallVector<Operation *> covers;
};

/// What the frontend computes for a row in which every key is hidden. The
/// op produces 0 there; the rewrite keeps the frontend's value exactly.
enum class FullyMaskedRows {
  NotPossible, // no key can be hidden and Nk > 0 statically
  NaN,         // -inf scores: exp(-inf - -inf) makes the row NaN
  MeanOfValues,// lowest-finite fill: a uniform softmax, the mean of V
  Zero         // -inf scores under PyTorch's _safe_softmax guard: 0, as the
               // op gives (no fix-up)
};

/// Per-sequence key lengths in the frontend's tensor: `tensor` read at index
/// b along `sequenceDim` and at 0 along every other dim, or at 0 everywhere
/// (one length for every sequence) when `sequenceDim` is -1.
struct SequenceLengths {
  Value tensor;
  int64_t sequenceDim = -1;
};

/// A gradient the frontend computes that fa.attention_backward replaces:
/// `value` is the op's [batch..., N, D] result transposed by `permutation`
/// (result dim i is dim p[i]; empty when already in order).
struct GradientUse {
  Value value;
  SmallVector<int64_t, 4> permutation;
  /// The frontend's gradient holds the op's [B, H] as two dims; else its
  /// batch dims are the op's, or their merge when the chain splits them.
  bool splitBatch = false;
  /// dQ, dK: masked_fill's backward zeroes the score gradient where the
  /// forward hid a score, so a row with no visible key adds 0 (as in the
  /// op) instead of NaN.
  bool maskedGradient = false;
  /// The frontend's gradient is this multiple of the op's: constants a
  /// frontend puts on a gradient beyond the forward's scale (or fewer)
  /// are kept exactly.
  double factor = 1.0;
};

/// The backward half of a joint forward + backward graph (autodiff of the
/// unfused attention, as frontends emit it for training), found from the
/// other users of P (JointGraphMatcher.cpp).
struct BackwardMatch {
  /// dO as the frontend holds it, and the transpose to [batch..., Nq, Dv].
  Value gradOutput;
  SmallVector<int64_t, 4> gradOutputPermutation;
  /// dO holds the op's [B, H] as two dims (see GradientUse::splitBatch).
  bool gradOutputSplitBatch = false;
  /// The gradients the graph computes (any of them may be absent).
  std::optional<GradientUse> gradQuery, gradKey, gradValue;
  /// dSinks as the frontend holds it (static shape; its one non-unit dim,
  /// if any, is the head), or null.
  Value gradSinks;
  /// Set when the scores have several masks and masked_fill's backward
  /// zeroes the score gradient where the causal one hides keys (j > i +
  /// offset): in a row with no visible key the frontend's score gradient
  /// is then NaN at the keys the causal mask keeps, so dK is NaN at the
  /// keys some such row keeps (and dQ in the row, as unmasked).
  std::optional<int64_t> causalGradientOffset;
  /// The first gradient contraction, in the root's block: the backward op
  /// goes there (dO, which it reads, may be computed after the root).
  Operation *insertionPoint = nullptr;
  /// dP, softmax's backward and the gradient contractions: erased after
  /// the rewrite once dead.
  SmallVector<Operation *> patternOps;
};

/// One node of a score function (fa.attention's score_mod) found between
/// Q·Kᵀ and the softmax: an op of `kind` on earlier nodes, a `constant`, or
/// (kind Input) the scaled score itself, or, with `tensor` set, that
/// tensor's element at the score's position (read as `labels`, like a
/// mask): a bias, a 0/1 factor or a select's i1 condition.
struct ScoreFunctionNode {
  ScalarKind kind = ScalarKind::Input;
  double constant = 0;
  SmallVector<unsigned, 3> operands;
  Value tensor;
  Labels labels;
};

/// Everything fa.attention needs, in the frontend's terms.
struct AttentionMatch {
  Operation *root = nullptr; // the P·V contraction
  /// Q, K and V as the frontend holds them, in any order of their dims.
  Value query, key, value;
  /// Q's and K's element type when V's is a half type that widens to it
  /// exactly (the rewrite widens V); null otherwise.
  Type widenValueTo;
  /// The linalg.transpose permutation (result dim i is dim p[i]) that brings
  /// each of Q, K, V to [batch..., N, D], and the op's [batch..., Nq, Dv]
  /// result to the order of P·V's result; empty when already in order.
  SmallVector<int64_t, 4> queryPermutation, keyPermutation, valuePermutation,
      outputPermutation;
  unsigned numBatchDims = 0; // 0, 1 or 2
  /// When the chain splits its one batch dim into [B, H] (sizes here, both
  /// static), the op takes that split: Q, K and V are expanded to it and a
  /// mask may broadcast over either part.
  SmallVector<int64_t, 2> batchSplit;
  /// GQA/MQA: K and V are the unrepeated heads (query head h reads head
  /// h / groupSize), merged with these reassociations when not empty.
  int64_t groupSize = 1;
  SmallVector<ReassociationIndices> keyCollapse, valueCollapse;
  /// GQA as a grouped contraction: Q, P, the mask and the output carry a
  /// group axis (labelled Group, of size groupSize) right after their batch
  /// dims in canonical order; the rewrite merges it into the last batch dim
  /// (the K/V head), so query head k·G + g reads K/V head k.
  bool groupAxis = false;
  /// [Hkv, G] where the softmax ran on the merged heads [Hkv·G]: masks and
  /// tensors read along that dim (AxisKind::GroupedHeads) are split into
  /// the two by the rewrite. Empty otherwise.
  SmallVector<int64_t, 2> groupedHeads;
  /// A mask that was exactly causal becomes this attribute instead.
  std::optional<DiagonalAlignment> causal;
  double scale = 1.0;
  Value mask;                // i1 keep-mask or float bias, or null
  Labels maskLabels;         // the mask's dims, in score order
  bool invertMask = false;   // select(m, fill, s): the keep-mask is !m
  /// A padding mask that hides exactly the keys past each sequence's length
  /// (LengthMask.h) becomes the op's kv_lengths operand instead.
  std::optional<SequenceLengths> kvLengths;
  /// K and V gathered from paged caches through one page table
  /// (PagedCache.h): `key` and `value` are then the caches, in the op's
  /// [P, S, Hkv, E] order, and this is the frontend's table.
  Value pageTable;
  /// Why a mask that compares key positions with a length stays a mask.
  std::string maskNote;
  /// The score function applied to the scaled scores before the masks
  /// (soft-capping, say), its root last; empty without one.
  SmallVector<ScoreFunctionNode> scoreFunction;
  /// Attention sinks: a per-head logit the frontend concatenated to the
  /// scores as one more key column and sliced off after the softmax (the
  /// column, read as `sinkLabels`); null without.
  Value sinks;
  Labels sinkLabels;
  /// The one logit of every head when the sink column is a splat constant
  /// (`sinks` is then the column itself, read by nobody).
  std::optional<double> sinkSplat;
  /// A splat constant added to every score: a [1, 1, 1, 1] bias.
  std::optional<double> constantBias;
  /// The score a hidden key becomes when the select fills a finite value
  /// other than the lowest one (fa.attention's mask_fill): the i1 mask
  /// then stays an explicit mask.
  std::optional<double> maskFill;
  FullyMaskedRows fullyMaskedRows = FullyMaskedRows::NotPossible;
  /// The log-sum-exp softmax's own logsumexp (max + log(sum)) when the
  /// program also uses it outside the pattern, and its dims' roles: the
  /// rewrite replaces those uses with the op's logsumexp.
  Value logsumexp;
  Labels logsumexpLabels;
  /// The op that divides P·V's rows by the softmax's row sum when the
  /// normalization is deferred past P·V (exp(x - max)·V / sum): the
  /// rewrite replaces its result, not the root's. Null otherwise.
  Operation *normalization = nullptr;
  /// The transposes and reshapes between P·V and that division, in order:
  /// the rewrite applies them to the op's output.
  SmallVector<Operation *> normalizationLayout;
  /// What the additive mask is multiplied by before the op adds it: the
  /// scales above it and a constant factor on it (IREE adds log2(e)·bias
  /// under exp2). 1 for every other mask.
  double maskFactor = 1.0;
  /// A scale held in a tensor (per head, per batch, per row, or a run-time
  /// scalar) that multiplies (or divides, `queryScaleDivides`) the scores
  /// right after Q·Kᵀ: the rewrite moves it onto Q, (Q·Kᵀ)·t = (t·Q)·Kᵀ.
  /// `queryScaleDims[i]` is the dim of Q that dim i of the tensor follows,
  /// or -1 for a unit dim read at 0.
  /// Further additive biases on the scores (a relative-position bias and
  /// a window mask, say): the rewrite adds them to the op's mask, each
  /// broadcast, s + b1 + b2 = s + (b1 + b2) up to rounding.
  SmallVector<std::pair<Value, Labels>> extraBiases;
  Value queryScale;
  SmallVector<int64_t, 4> queryScaleDims;
  /// Per dim of the scale: 0 where it follows Q's dim whole, 1 or 2 where
  /// it follows the outer or inner part of Q's merged batch dim (split by
  /// `batchSplit` in the chain).
  SmallVector<unsigned, 4> queryScaleParts;
  bool queryScaleDivides = false;
  /// Ops computing the scores, softmax and probabilities: erased after the
  /// rewrite once dead.
  SmallVector<Operation *> patternOps;
  /// The masks the matcher built from select bodies (part of patternOps):
  /// erased by whoever drops this match unused.
  SmallVector<Operation *> materialized;
  /// Set when P also feeds attention's backward: the rewrite then emits
  /// fa.attention_backward beside fa.attention.
  std::optional<BackwardMatch> backward;
  /// An op outside the pattern that reads the scores or probabilities
  /// (MatchOptions::shareScores): what it reads is still computed for it.
  Operation *sharedUser = nullptr;
};

/// True when `op` computes a contraction `init + a * b` with one or more
/// reductions (a candidate for P·V or Q·Kᵀ; one that contracts several
/// dims is refused with a remark).
bool isContraction(Operation *op);

/// True when one operand of `op` is computed from an exp or a softmax: the
/// contractions worth explaining when they are not raised.
bool feedsOnSoftmax(Operation *op);

/// What the matcher may accept beyond the attention itself.
struct MatchOptions {
  /// The scores or probabilities may also be used outside the pattern
  /// (returned as attention weights, say): their computation then stays
  /// for those uses, and only O comes from the op.
  bool shareScores = true;
};

/// Matches attention rooted at the contraction `root` (P·V).
std::optional<AttentionMatch> matchAttention(Operation *root,
                                             Rejection &rejection,
                                             const MatchOptions &options = {});

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_ATTENTIONMATCHER_H
