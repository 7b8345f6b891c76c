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
// bf16: upstream's conversion has no bf16 fragment type (its register-type
// table knows f16, tf32, f64 and the integers), though ldmatrix moves any
// 16-bit elements and mma.sync m16n8k16 multiplies bf16. So a bf16 slice is
// converted as if its shared tiles held f16 (a transient f16 view of each
// bf16 buffer), and the ldmatrix and mma.sync ops that come out are then
// retyped to bf16 on the original buffers: every bit reaches the same
// register, and only mma.sync interprets it. No f16 view is left behind.
// fa-lower-bf16-mma-sync lowers the bf16 mma.sync to NVVM, which upstream's
// nvgpu-to-nvvm cannot either.
//
//===----------------------------------------------------------------------===//

#include "Common/WarpMatmul.h"

#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAWARPMATMULSTONVGPU
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// Whether `op` is the m16n8k16 matmul this pass converts: A 16x16, B 8x16
/// (n by k), both f16 or both bf16, C 16x8 f32.
bool isMmaSync16816(vector::ContractionOp op) {
  Type element = op.getLhsType().getElementType();
  auto shaped = [](Value value, ArrayRef<int64_t> shape, Type element) {
    auto type = dyn_cast<VectorType>(value.getType());
    return type && type.getShape() == shape && type.getElementType() == element;
  };
  Builder b(op.getContext());
  return op.getKind() == vector::CombiningKind::ADD &&
         (element.isF16() || element.isBF16()) &&
         ArrayRef<AffineMap>(op.getIndexingMapsArray()) ==
             ArrayRef<AffineMap>(fa::warpMatmulMaps(op.getContext())) &&
         shaped(op.getLhs(), {fa::kMmaM, fa::kMmaK}, element) &&
         shaped(op.getRhs(), {fa::kMmaN, fa::kMmaK}, element) &&
         shaped(op.getAcc(), {fa::kMmaM, fa::kMmaN}, b.getF32Type());
}

/// The f16 views of bf16 shared buffers for one kernel (see the file
/// comment): created on demand, retired once the conversion is done.
class BF16AsF16 {
public:
  explicit BF16AsF16(IRRewriter &rewriter) : rewriter(rewriter) {}

  /// Makes the bf16 operands of `contraction` f16 reads of f16 views: the
  /// slice upstream converts. Reports an operand that is not a
  /// transfer_read of workgroup memory used by contractions only: only
  /// ldmatrix fragments are retyped afterwards.
  LogicalResult punOperands(vector::ContractionOp contraction) {
    SmallVector<vector::TransferReadOp, 2> reads;
    for (auto [name, operand] :
         llvm::zip(std::array<StringRef, 2>{"A (lhs)", "B (rhs)"},
                   std::array<Value, 2>{contraction.getLhs(),
                                        contraction.getRhs()})) {
      auto read = operand.getDefiningOp<vector::TransferReadOp>();
      auto buffer = read ? dyn_cast<MemRefType>(read.getBase().getType())
                         : MemRefType();
      if (!buffer || !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(buffer) ||
          !llvm::all_of(read->getUsers(),
                        llvm::IsaPred<vector::ContractionOp>)) {
        InFlightDiagnostic error = contraction.emitOpError();
        error << "cannot become nvgpu.mma.sync: bf16 warp matmuls read "
                 "both tiles from workgroup memory with "
                 "vector.transfer_read, used by contractions only (they "
                 "become ldmatrix; upstream has no bf16 per-lane loads); "
                 "its "
              << name << " tile ";
        if (!buffer)
          return error << "is not a vector.transfer_read of a memref";
        if (!gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(buffer))
          return error << "is read from " << buffer;
        return error << "is also used by an op other than a contraction";
      }
      // An A tile shared with an earlier contraction is already f16.
      if (read.getVectorType().getElementType().isBF16())
        reads.push_back(read);
    }
    for (vector::TransferReadOp read : reads) {
      Value view = f16View(read.getBase());
      rewriter.setInsertionPoint(read);
      Value padding = arith::ConstantOp::create(
          rewriter, read.getLoc(), rewriter.getZeroAttr(rewriter.getF16Type()));
      auto f16Read = vector::TransferReadOp::create(
          rewriter, read.getLoc(),
          read.getVectorType().clone(rewriter.getF16Type()), view,
          read.getIndices(), padding, read.getPermutationMap(),
          read.getInBoundsValues());
      rewriter.replaceOp(read, f16Read);
    }
    return success();
  }

  /// Points the ldmatrix ops that read an f16 view at the bf16 buffer
  /// again, with bf16 fragments, and rebuilds the mma.syncs they feed with
  /// them. Fails (naming the op) on any other use of a view or a fragment.
  LogicalResult retypeToBF16() {
    SetVector<Operation *> mmas;
    for (auto [view, buffer] : views) {
      for (Operation *user : llvm::make_early_inc_range(view.getUsers())) {
        auto load = dyn_cast<nvgpu::LdMatrixOp>(user);
        if (!load || !llvm::all_of(load->getUsers(),
                                   llvm::IsaPred<nvgpu::MmaSyncOp>))
          return user->emitOpError()
                 << "reads a bf16 tile (through its f16 view) but is not an "
                    "nvgpu.ldmatrix feeding nvgpu.mma.sync, the only form "
                    "this pass retypes to bf16; upstream's conversion did "
                    "not turn this read into one";
        rewriter.setInsertionPoint(load);
        auto bf16Load = nvgpu::LdMatrixOp::create(
            rewriter, load.getLoc(),
            load.getRes().getType().clone(rewriter.getBF16Type()), buffer,
            load.getIndices(), load.getTranspose(), load.getNumTiles());
        mmas.insert_range(load->getUsers());
        // The mma.syncs are rebuilt below with the new operand types.
        rewriter.replaceAllUsesWith(load.getRes(), bf16Load.getRes());
        rewriter.eraseOp(load);
      }
      rewriter.eraseOp(view.getDefiningOp());
    }
    for (Operation *op : mmas) {
      auto mma = cast<nvgpu::MmaSyncOp>(op);
      rewriter.setInsertionPoint(mma);
      rewriter.replaceOpWithNewOp<nvgpu::MmaSyncOp>(
          mma, mma.getMatrixA(), mma.getMatrixB(), mma.getMatrixC(),
          mma.getMmaShapeAttr());
    }
    return success();
  }

private:
  /// An f16 view of `buffer`: an unrealized cast, which never reaches the
  /// LLVM lowering (retypeToBF16 removes it).
  Value f16View(Value buffer) {
    auto type = cast<MemRefType>(buffer.getType());
    for (auto [view, original] : views)
      if (original == buffer)
        return view;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfterValue(buffer);
    Value view = UnrealizedConversionCastOp::create(
                     rewriter, buffer.getLoc(),
                     type.clone(rewriter.getF16Type()), buffer)
                     .getResult(0);
    views.push_back({view, buffer});
    return view;
  }

  IRRewriter &rewriter;
  /// (f16 view, bf16 buffer) pairs.
  SmallVector<std::pair<Value, Value>> views;
};

/// The buffers that warp matmul results are written to whose fragment
/// stores are all 8-byte aligned: every 16x8 write into them starts at an
/// even constant column of rows that are whole 8-byte units. Upstream's
/// conversion writes each lane's two f32 at column 2 (lane mod 4) from
/// there without saying so, and LLVM, when it cannot prove the alignment,
/// splits the 8-byte store into two 4-byte ones, which meet on banks.
SmallPtrSet<Value, 4> alignedResultBuffers(Region &kernel) {
  SmallPtrSet<Value, 4> aligned, misaligned;
  kernel.walk([&](vector::TransferWriteOp write) {
    if (!write.getVector().getDefiningOp<vector::ContractionOp>())
      return;
    auto type = dyn_cast<MemRefType>(write.getBase().getType());
    std::optional<int64_t> column =
        getConstantIntValue(write.getIndices().back());
    bool even = type && type.getLayout().isIdentity() &&
                !type.isDynamicDim(type.getRank() - 1) &&
                type.getDimSize(type.getRank() - 1) % 2 == 0 &&
                type.getElementType().isF32() && column && *column % 2 == 0;
    (even ? aligned : misaligned).insert(write.getBase());
  });
  for (Value buffer : misaligned)
    aligned.erase(buffer);
  return aligned;
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
               "16x16 by 8x16 f16 or bf16 tiles into a 16x8 f32 tile (maps "
               "(m, k), (n, k), (m, n)), read and written with "
               "vector.transfer_read/write; here "
            << contraction.getLhsType() << " by "
            << contraction.getRhsType() << " into "
            << contraction.getAccType();
        signalPassFailure();
      };
      for (vector::ContractionOp contraction : contractions)
        if (!isMmaSync16816(contraction))
          return refuse(contraction);
      SmallPtrSet<Value, 4> alignedResults = alignedResultBuffers(*kernel);
      BF16AsF16 bf16(rewriter);
      for (vector::ContractionOp contraction : contractions)
        if (contraction.getRhsType().getElementType().isBF16() &&
            failed(bf16.punOperands(contraction)))
          return signalPassFailure();
      for (vector::ContractionOp contraction : contractions) {
        // A contraction converted with an earlier one's slice (a chain of
        // accumulations) is dead now.
        if (contraction->use_empty())
          continue;
        rewriter.setInsertionPoint(contraction);
        if (failed(convertVectorToNVVMCompatibleMMASync(rewriter,
                                                        contraction)))
          return refuse(contraction);
      }
      // Upstream's conversion leaves the converted vector ops in place.
      (void)runRegionDCE(rewriter, MutableArrayRef<Region>(*kernel));
      kernel->walk([&](vector::StoreOp store) {
        auto type = store.getVectorType();
        if (alignedResults.contains(store.getBase()) && !store.getAlignment() &&
            type.getNumElements() == 2 && type.getElementType().isF32())
          store.setAlignment(8);
      });
      if (failed(bf16.retypeToBF16()))
        return signalPassFailure();
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
