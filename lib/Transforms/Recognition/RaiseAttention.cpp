//===- RaiseAttention.cpp - fa-raise-attention ----------------------------===//
//
// Stage: recognition (the driver). Tries every contraction fed by a softmax
// as the root (P·V) of an attention, or a product of feature maps as linear
// attention, and rewrites each match: the matchers (AttentionMatcher.h,
// JointGraphMatcher.cpp, LinearAttention.h) decide, RewriteAttention.h
// emits; normalization before matching is fa-normalize-frontend's
// (NormalizeFrontend.cpp). The pass and its pattern form live here.
//
//===----------------------------------------------------------------------===//

#include "AttentionMatcher.h"
#include "Candidates.h"
#include "FrontendCalls.h"
#include "LinearAttention.h"
#include "RewriteAttention.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Recognition/Recognition.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fa-raise-attention"

namespace mlir::fa {
#define GEN_PASS_DEF_FARAISEATTENTION
#include "fa/Transforms/Recognition/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::recognition;

namespace {

/// The recognizer as a pattern, for compilers that run it in their own
/// driver: it fires on a contraction that is the P·V of an attention and
/// reports every refusal as a match failure with its reason.
struct RaiseAttentionPattern : RewritePattern {
  explicit RaiseAttentionPattern(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    bool softmaxCandidate = op->getNumResults() == 1 && feedsOnSoftmax(op);
    bool linearCandidate = isLinearAttentionCandidate(op);
    if (!softmaxCandidate && !linearCandidate)
      return failure();
    Rejection rejection;
    std::optional<AttentionMatch> match;
    if (softmaxCandidate)
      match = matchAttention(op, rejection);
    if (!match && linearCandidate) {
      Rejection linearRejection;
      std::optional<LinearAttentionMatch> linear =
          matchLinearAttention(op, linearRejection);
      if (linear) {
        llvm::DenseSet<Operation *> erased;
        rewriteLinearAttention(*linear, rewriter, erased);
        return success();
      }
      if (!softmaxCandidate)
        rejection = std::move(linearRejection);
    }
    if (!match)
      return rewriter.notifyMatchFailure(op, rejection.message);
    llvm::DenseSet<Operation *> erased;
    rewriteAttention(*match, rewriter, erased);
    return success();
  }
};

struct FARaiseAttentionPass
    : fa::impl::FARaiseAttentionBase<FARaiseAttentionPass> {
  using FARaiseAttentionBase::FARaiseAttentionBase;

  void runOnOperation() override {
    if (inlineHelpers)
      recognition::inlineAttentionHelpers(getOperation());
    SmallVector<Operation *> candidates, linearCandidates;
    getOperation()->walk([&](Operation *op) {
      if (op->getNumResults() == 1 && feedsOnSoftmax(op))
        candidates.push_back(op);
      if (isLinearAttentionCandidate(op))
        linearCandidates.push_back(op);
    });
    // Every exp or softmax that reaches a contraction, found before any
    // rewrite: each is raised or explained below.
    SmallVector<SoftmaxUse> softmaxUses = findSoftmaxUses(getOperation());
    llvm::DenseSet<Operation *> erased;
    llvm::DenseSet<Operation *> explained;
    llvm::DenseMap<Operation *, std::string> rejectedRoots;
    IRRewriter rewriter(&getContext());
    // Refusals are reported after every candidate was tried: a raised joint
    // graph erases gradient contractions tried as candidates before it, and
    // a refused one covers them.
    SmallVector<std::pair<Operation *, Rejection>> rejections;
    llvm::DenseSet<Operation *> covered;
    std::set<std::pair<Operation *, std::string>> remarked;
    for (Operation *root : candidates) {
      // An earlier rewrite may have erased this candidate.
      if (erased.contains(root))
        continue;
      Rejection rejection;
      MatchOptions options;
      options.shareScores = shareScores;
      std::optional<AttentionMatch> match =
          matchAttention(root, rejection, options);
      if (!match) {
        if (rejection.category == RejectCategory::NotCandidate)
          continue;
        LLVM_DEBUG(llvm::dbgs() << "refused at " << root->getLoc() << ": "
                                << rejection.message << "\n");
        rejections.push_back({root, std::move(rejection)});
        continue;
      }
      LLVM_DEBUG(llvm::dbgs() << "raising the attention ending at "
                              << root->getLoc() << "\n");
      ++numCandidates;
      ++numRaised;
      ++counts.candidates;
      ++counts.raised;
      if (explain && !match->maskNote.empty())
        root->emitRemark() << "attention raised; its mask stays a mask, not "
                              "kv_lengths: "
                           << match->maskNote;
      if (explain && match->sharedUser)
        root->emitRemark()
            << "attention raised; its scores or probabilities are also used "
               "by "
            << match->sharedUser->getName()
            << " outside it, so the frontend's ops that compute them stay "
               "(share-scores=false refuses instead)";
      rewriteAttention(*match, rewriter, erased);
    }
    // Linear attention: products of products not raised above. Where the
    // softmax matcher refused the product, only a match counts (its reason
    // stands otherwise): an exp in a decay table makes a softmax candidate
    // of linear attention.
    llvm::DenseSet<Operation *> softmaxCandidates(candidates.begin(),
                                                  candidates.end());
    for (Operation *root : linearCandidates) {
      if (erased.contains(root))
        continue;
      Rejection rejection;
      std::optional<LinearAttentionMatch> linear =
          matchLinearAttention(root, rejection);
      if (!linear) {
        if (rejection.category == RejectCategory::NotCandidate ||
            softmaxCandidates.contains(root))
          continue;
        rejection.message = "as linear attention: " + rejection.message;
        rejections.push_back({root, std::move(rejection)});
        continue;
      }
      // A softmax candidate refused above is raised after all: its
      // refusal is neither reported nor counted.
      auto refused = llvm::find_if(
          rejections, [&](auto &entry) { return entry.first == root; });
      if (refused != rejections.end())
        rejections.erase(refused);
      ++numCandidates;
      ++counts.candidates;
      ++numRaised;
      ++counts.raised;
      rewriteLinearAttention(*linear, rewriter, erased);
    }
    // A product of weights that a call computes with an exponential is a
    // softmax behind a call, not a linear attention: the call's remark
    // below says why it is not raised.
    llvm::DenseSet<Operation *> productsOfCalls;
    for (const SoftmaxUse &use : softmaxUses)
      if (use.behindCall)
        productsOfCalls.insert(use.contraction);
    // In program order: a candidate covered by one reported before it is
    // not reported (two candidates may cover each other).
    for (auto &[root, rejection] : rejections) {
      if (erased.contains(root) || covered.contains(root))
        continue;
      if (productsOfCalls.contains(root) &&
          StringRef(rejection.message).starts_with("as linear attention"))
        continue;
      covered.insert(rejection.covers.begin(), rejection.covers.end());
      reject(rejection.category);
      rejectedRoots[root] = rejection.message;
      // One remark per reason and place: the contractions of a dropout
      // graph all read the same P∘M, say.
      bool repeated = !remarked.insert({rejection.location,
                                        rejection.message})
                           .second;
      explained.insert(rejection.location);
      if (explain && !repeated)
        rejection.location->emitRemark()
            << "attention not raised: " << rejection.message;
    }
    // No silent misses: an exp or softmax that reached a contraction but
    // was neither raised nor explained above gets its own remark.
    for (const SoftmaxUse &use : softmaxUses) {
      if (erased.contains(use.source) || erased.contains(use.contraction) ||
          explained.contains(use.source))
        continue;
      auto rejected = rejectedRoots.find(use.contraction);
      std::string reason =
          use.behindCall ? use.unreachedBecause
          : rejected != rejectedRoots.end() ? rejected->second
          : !use.unreachedBecause.empty()
              ? use.unreachedBecause
              : "it reaches " +
                    use.contraction->getName().getStringRef().str() +
                    " as an operand that is not P";
      explained.insert(use.source);
      reject(RejectCategory::Structure);
      if (explain)
        use.source->emitRemark() << "attention not raised: " << reason;
    }
    if (printCounts) {
      InFlightDiagnostic remark = getOperation()->emitRemark();
      remark << "fa-raise-attention: " << counts.candidates << " candidates, "
             << counts.raised << " raised";
      for (unsigned category = 1; category < kNumRejectCategories; ++category)
        if (counts.rejected[category])
          remark << ", " << counts.rejected[category] << " rejected ("
                 << stringifyRejectCategory(
                        static_cast<RejectCategory>(category))
                 << ")";
    }
  }

  /// Counts a refused candidate in its category.
  void reject(RejectCategory category) {
    ++numCandidates;
    ++counts.candidates;
    ++counts.rejected[static_cast<unsigned>(category)];
    ++rejectionStatistic(category);
  }

  /// The statistics, counted here too because release builds of LLVM
  /// compile Pass::Statistic to nothing.
  struct {
    unsigned candidates = 0;
    unsigned raised = 0;
    unsigned rejected[kNumRejectCategories] = {};
  } counts;

  /// The pass statistic counting rejections of `category`.
  Statistic &rejectionStatistic(RejectCategory category) {
    Statistic *statistics[kNumRejectCategories] = {
        &numCandidates, // NotCandidate is never counted
        &numRejectedStructure,   &numRejectedSoftmaxAxis,
        &numRejectedContraction, &numRejectedLayout,
        &numRejectedExternalUse, &numRejectedScale,
        &numRejectedMask,        &numRejectedType,
        &numRejectedShape};
    return *statistics[static_cast<unsigned>(category)];
  }
};

} // namespace

void mlir::fa::populateRaiseAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<RaiseAttentionPattern>(patterns.getContext());
}
