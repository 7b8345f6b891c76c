//===- LoweringDriver.cpp - Tiling preconditions of the lowerings ---------===//
//
// Stage: shared by the tiled lowerings and the GPU kernels. See
// LoweringDriver.h.
//
//===----------------------------------------------------------------------===//

#include "Common/LoweringDriver.h"
#include "Common/PackQueryGroups.h"
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

std::string mlir::fa::whyNoTmaProducer(AttentionOp op) {
  if (op.getPageTable())
    return "paged K/V are read through the page table";
  if (op.isPacked())
    return "packed sequences are read through views of their rows";
  if (op.getKvLengths())
    return "keys past a sequence's kv_lengths entry may hold anything, and a "
           "whole TMA box would bring them into P V";
  return "";
}
