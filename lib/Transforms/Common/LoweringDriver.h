//===- LoweringDriver.h - What every lowering pass shares -------*- C++ -*-===//
//
// The four lowerings of fa.attention and fa.attention_backward
// (fa-tile-attention, fa-tile-attention-backward, fa-distribute-attention,
// fa-distribute-attention-backward) are public functions that rewrite one
// op; their passes are thin drivers over lowerEach, and their patterns
// check the same preconditions first (tilingProblem) so that a pattern
// driver sees a match failure with the reason instead of an error.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_LOWERINGDRIVER_H
#define FA_TRANSFORMS_COMMON_LOWERINGDRIVER_H

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/KernelModel.h"

#include "mlir/IR/PatternMatch.h"

#include <functional>
#include <string>

namespace mlir::fa {

/// The lowerings that read an op's #fa.tiling.
enum class TiledLowering {
  /// fa-tile-attention and fa-tile-attention-backward.
  LoopNest,
  /// fa-distribute-attention and fa-distribute-attention-backward.
  Kernel,
};

/// Why `lowering` cannot lower `op` with the tiling written on it, or ""
/// when it can: every tiling precondition of every lowering, in one place
/// (pack_gqa included, so that a pattern reports it as a match failure).
/// The text follows "'fa.attention' op " in a diagnostic.
std::string tilingProblem(AttentionOpInterface op, TiledLowering lowering);

/// The shape of an fa.attention or fa.attention_backward as the kernel
/// model (fa/Kernel/KernelModel.h) sees it: sizes (kUnknownSize where only
/// known at run time), element types, masks, modifications and packing.
/// The tile report and the kernel builder plan from it alike.
/// `tmaProducerKernel` is left false: it is the pipeline's choice, not the
/// op's.
AttentionShape describeAttentionShape(AttentionOpInterface op);

/// The first steps every lowering of `op` takes: emits tilingProblem at
/// `op` (failure), else puts `rewriter` before it.
LogicalResult prepareLowering(RewriterBase &rewriter, AttentionOpInterface op,
                              TiledLowering lowering);

/// prepareLowering, then pack_gqa (packQueryGroups): the op a forward
/// lowering builds for.
FailureOr<AttentionOp> prepareForwardLowering(RewriterBase &rewriter,
                                              AttentionOp op,
                                              TiledLowering lowering);

/// Lowers every `OpTy` under `root` (collected first, so that `lower` may
/// replace them) with `lower`, at the op's position; stops at the first
/// failure, which `lower` reports at its op.
template <typename OpTy>
LogicalResult
lowerEach(Operation *root,
          function_ref<LogicalResult(RewriterBase &, OpTy)> lower) {
  SmallVector<OpTy> ops;
  root->walk([&](OpTy op) { ops.push_back(op); });
  IRRewriter rewriter(root->getContext());
  for (OpTy op : ops) {
    rewriter.setInsertionPoint(op);
    if (failed(lower(rewriter, op)))
      return failure();
  }
  return success();
}

/// A lowering as a rewrite pattern: `problem` says why an op cannot be
/// lowered (a match failure carrying the reason), else `lower` rewrites it.
template <typename OpTy> struct LoweringPattern : OpRewritePattern<OpTy> {
  using Lower =
      std::function<FailureOr<SmallVector<Value>>(RewriterBase &, OpTy)>;
  using Problem = std::function<std::string(OpTy)>;

  LoweringPattern(MLIRContext *context, Problem problem, Lower lower)
      : OpRewritePattern<OpTy>(context), problem(std::move(problem)),
        lower(std::move(lower)) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::string reason = problem(op);
    if (!reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    return success(succeeded(lower(rewriter, op)));
  }

  Problem problem;
  Lower lower;
};

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_LOWERINGDRIVER_H
