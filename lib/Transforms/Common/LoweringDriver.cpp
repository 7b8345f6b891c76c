//===- LoweringDriver.cpp - Tiling preconditions of the lowerings ---------===//
//
// Stage: shared by the tiled lowerings and the GPU kernels. See
// LoweringDriver.h.
//
//===----------------------------------------------------------------------===//

#include "Common/LoweringDriver.h"
#include "Common/PackQueryGroups.h"
#include "Common/WarpMatmul.h"
#include "fa/Kernel/KernelModel.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fa;

std::string mlir::fa::tilingProblem(AttentionOpInterface op,
                                    TiledLowering lowering) {
  std::string problem;
  llvm::raw_string_ostream os(problem);
  TilingAttr tiling = op.getTilingAttr();
  if (!tiling) {
    os << "has no tiling; run fa-select-tiles first (or write tiling = "
          "#fa.tiling<...> on the op)";
    return problem;
  }
  bool backward = isa<AttentionBackwardOp>(op.getOperation());
  if (backward) {
    // The kernel takes what the loop nest takes, or declines
    // (whyNoBackwardKernel); only the loop nest states it.
    if (lowering == TiledLowering::LoopNest &&
        (tiling.getKvSplits() != 1 || tiling.getPackGqa()))
      os << "tiling of the backward pass takes no kv_splits or pack_gqa "
            "(they are decode-step forms of the forward pass), got "
         << tiling;
    return problem;
  }
  if (lowering == TiledLowering::LoopNest &&
      tiling.getBlockQ() % tiling.getWarps() != 0) {
    os << "tiling warps (" << tiling.getWarps() << ") must divide block_q ("
       << tiling.getBlockQ() << "): each warp owns block_q / warps query rows";
    return problem;
  }
  // One thread per query row in the forward kernel.
  int64_t threads = tiling.getWarps() * kKernelWarpSize;
  if (lowering == TiledLowering::Kernel && tiling.getBlockQ() > threads) {
    os << "tiling block_q (" << tiling.getBlockQ() << ") exceeds the kernel's "
       << threads << " threads (" << tiling.getWarps()
       << " warps of 32): each thread owns one query row, so block_q must be "
          "at most 32 * warps";
    return problem;
  }
  if (tiling.getPackGqa()) {
    std::string why = whyNotPackable(cast<AttentionOp>(op.getOperation()));
    if (!why.empty())
      os << "the tiling packs query groups (pack_gqa), but " << why;
  }
  return problem;
}

LogicalResult mlir::fa::prepareLowering(RewriterBase &rewriter,
                                        AttentionOpInterface op,
                                        TiledLowering lowering) {
  std::string problem = tilingProblem(op, lowering);
  if (!problem.empty())
    return op->emitOpError() << problem;
  rewriter.setInsertionPoint(op);
  return success();
}

FailureOr<AttentionOp>
mlir::fa::prepareForwardLowering(RewriterBase &rewriter, AttentionOp op,
                                 TiledLowering lowering) {
  if (failed(prepareLowering(rewriter, op, lowering)))
    return failure();
  if (!op.getTilingAttr().getPackGqa())
    return op;
  // tilingProblem checked that packing is exact.
  AttentionOp packed = packQueryGroups(op, rewriter);
  rewriter.setInsertionPoint(packed);
  return packed;
}

namespace {
int64_t elementBytesOf(Type type) {
  return type.isF32() ? 4 : 2; // the verifier allows f16, bf16 and f32
}
} // namespace

AttentionShape mlir::fa::describeAttentionShape(AttentionOpInterface op) {
  auto query = cast<RankedTensorType>(op.getQuery().getType());
  auto key = cast<RankedTensorType>(op.getKey().getType());
  auto value = cast<RankedTensorType>(op.getValue().getType());
  auto size = [](int64_t dim) {
    return ShapedType::isDynamic(dim) ? kUnknownSize : dim;
  };
  AttentionShape shape;
  shape.batch = size(query.getDimSize(0));
  shape.heads = size(query.getDimSize(1));
  shape.kvHeads = size(op.getKeyHeads());
  shape.queryLen = size(query.getDimSize(2));
  shape.keyLen = size(op.getKeyLength());
  shape.headDim = query.getDimSize(3);
  shape.valueDim = value.getDimSize(3);
  shape.elementBytes = elementBytesOf(query.getElementType());
  shape.mmaOperands = isMmaSyncOperandTypes(
      query.getElementType(), key.getElementType(), value.getElementType());
  // The diagonal offset; unknown lengths count as equal (offset 0).
  auto offset = [&](DiagonalAlignment align) -> int64_t {
    if (align == DiagonalAlignment::top_left ||
        shape.queryLen == kUnknownSize || shape.keyLen == kUnknownSize)
      return 0;
    return shape.keyLen - shape.queryLen;
  };
  if (std::optional<DiagonalAlignment> causal = op.getCausal())
    shape.causalOffset = offset(*causal);
  if (WindowAttr window = op.getWindowAttr())
    shape.window = AttentionShape::Window{window.getLeft(), window.getRight(),
                                          offset(window.getAlign())};
  shape.packedSequences = op.isPacked();
  shape.keyLengths = op.getKvLengths() != nullptr;
  if (op.getPageTable())
    shape.pageSize = size(key.getDimSize(1));
  shape.maskOperand = op.getMask() != nullptr;
  if (auto forward = dyn_cast<AttentionOp>(op.getOperation())) {
    shape.queryGroupsPackable = whyNotPackable(forward).empty();
    shape.scoreMod = forward.getScoreModBlock() != nullptr;
    shape.scoreModifications = forward.hasScoreModifications();
  }
  if (auto backward = dyn_cast<AttentionBackwardOp>(op.getOperation()))
    shape.deterministicQueryGradient = backward.getDeterministic();
  return shape;
}
