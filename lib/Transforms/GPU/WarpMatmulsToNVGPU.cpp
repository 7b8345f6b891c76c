//===- WarpMatmulsToNVGPU.cpp - Warp matmuls to ldmatrix + mma.sync -------===//
//
// Stage: GPU mapping, after fa-lower-to-gpu. The tensor-core kernel of
// fa-distribute-attention states its two matmuls at warp level: every lane
// of a warp reads whole 16x16 and 8x16 tiles from shared memory, contracts
// them into a 16x8 f32 tile and writes it back. That form runs on a CPU
// (each emulated thread computes its warp's tile in full) and is exactly
// what upstream's vector-to-nvgpu conversion distributes over the lanes:
// ldmatrix for the operand tiles (.trans for transposed reads), mma.sync
// m16n8k16 for the contraction, per-lane stores for the result.
//
// The upstream pass (convert-vector-to-gpu{use-nvgpu}) walks a whole
// function and treats every elementwise arith op of the kinds it knows for
// WMMA (addf, mulf, maximumf, divui, ...) as the start of a matrix slice,
// scalar ones included; on the nvgpu path it then fails on the first one.
// A FlashAttention kernel is full of such scalars (the softmax), so this
// pass applies the same conversion to each contraction's use-def slice
// only, through upstream's C++ entry point.
//
//===----------------------------------------------------------------------===//

#include "WarpMatmul.h"

#include "fa/Transforms/Passes.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAWARPMATMULSTONVGPU
#include "fa/Transforms/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// Whether `op` is the m16n8k16 f16 matmul this pass converts: A 16x16,
/// B 8x16 (n by k), C 16x8 f32.
bool isMmaSync16816(vector::ContractionOp op) {
  auto shaped = [](Value value, ArrayRef<int64_t> shape, Type element) {
    auto type = dyn_cast<VectorType>(value.getType());
    return type && type.getShape() == shape && type.getElementType() == element;
  };
  Builder b(op.getContext());
  return op.getKind() == vector::CombiningKind::ADD &&
         ArrayRef<AffineMap>(op.getIndexingMapsArray()) ==
             ArrayRef<AffineMap>(fa::warpMatmulMaps(op.getContext())) &&
         shaped(op.getLhs(), {fa::kMmaM, fa::kMmaK}, b.getF16Type()) &&
         shaped(op.getRhs(), {fa::kMmaN, fa::kMmaK}, b.getF16Type()) &&
         shaped(op.getAcc(), {fa::kMmaM, fa::kMmaN}, b.getF32Type());
}

struct FAWarpMatmulsToNVGPUPass
    : fa::impl::FAWarpMatmulsToNVGPUBase<FAWarpMatmulsToNVGPUPass> {
  using FAWarpMatmulsToNVGPUBase::FAWarpMatmulsToNVGPUBase;

  void runOnOperation() override {
    SmallVector<Region *> kernels;
    getOperation()->walk([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        kernels.push_back(&op->getRegion(0));
      else if (auto func = dyn_cast<gpu::GPUFuncOp>(op))
        kernels.push_back(&func.getBody());
    });
    IRRewriter rewriter(&getContext());
    for (Region *kernel : kernels) {
      SmallVector<vector::ContractionOp> contractions;
      kernel->walk([&](vector::ContractionOp op) { contractions.push_back(op); });
      if (contractions.empty())
        continue;
      auto refuse = [&](vector::ContractionOp contraction) {
        contraction.emitOpError()
            << "cannot become nvgpu.mma.sync: warp matmuls must contract "
               "16x16 by 8x16 f16 tiles into a 16x8 f32 tile (maps (m, k), "
               "(n, k), (m, n)), read and written with "
               "vector.transfer_read/write; here "
            << contraction.getLhsType() << " by "
            << contraction.getRhsType() << " into "
            << contraction.getAccType();
        signalPassFailure();
      };
      for (vector::ContractionOp contraction : contractions) {
        // A contraction converted with an earlier one's slice (a chain of
        // accumulations) is dead now.
        if (contraction->use_empty())
          continue;
        if (!isMmaSync16816(contraction))
          return refuse(contraction);
        rewriter.setInsertionPoint(contraction);
        if (failed(convertVectorToNVVMCompatibleMMASync(rewriter,
                                                        contraction)))
          return refuse(contraction);
      }
      // Upstream's conversion leaves the converted vector ops in place.
      (void)runRegionDCE(rewriter, MutableArrayRef<Region>(*kernel));
      // Upstream leaves a slice it cannot convert alone (and succeeds);
      // lowered as it is, it would be per-thread code computing a whole
      // tile in every lane.
      WalkResult left = kernel->walk([&](vector::ContractionOp contraction) {
        refuse(contraction);
        return WalkResult::interrupt();
      });
      if (left.wasInterrupted())
        return;
    }
  }
};

} // namespace
