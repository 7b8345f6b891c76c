//===- LowerBF16MmaSync.cpp - bf16 nvgpu.mma.sync to nvvm.mma.sync --------===//
//
// Stage: NVVM lowering, inside the outlined gpu.module, just before
// upstream's convert-nvgpu-to-nvvm. The tensor-core kernel multiplies bf16
// tiles with nvgpu.mma.sync m16n8k16 (fa-warp-matmuls-to-nvgpu); PTX has
// that instruction (mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32)
// and NVVM models it, but upstream's nvgpu-to-nvvm only deduces PTX types
// for f16, tf32, f64 and the integer types and fails on bf16. This pass
// fills that one gap and nothing else: once upstream handles bf16, it can
// go.
//
// The fragments are what ldmatrix produced: A is four and B two pairs of
// bf16, one pair per 32-bit register, which is how nvvm.mma.sync takes
// bf16 operands (i32); C and D are four f32.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FALOWERBF16MMASYNC
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// The i32 registers of a bf16 fragment vector<R x 2 x bf16>: row r's two
/// elements, bit-cast to one i32.
SmallVector<Value> packedRegisters(OpBuilder &b, Location loc, Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  auto word = VectorType::get({1}, b.getI32Type());
  SmallVector<Value> registers;
  for (int64_t row = 0; row < type.getDimSize(0); ++row) {
    Value elements = vector::ExtractOp::create(b, loc, fragment, row);
    Value packed = vector::BitCastOp::create(b, loc, word, elements);
    registers.push_back(vector::ExtractOp::create(b, loc, packed, 0));
  }
  return registers;
}

/// Whether `mma` is the bf16 m16n8k16 with f32 accumulation this pass
/// lowers: A vector<4x2xbf16>, B vector<2x2xbf16>, C vector<2x2xf32>.
bool isBF16MmaSync16816(nvgpu::MmaSyncOp mma) {
  auto is = [](Value value, ArrayRef<int64_t> shape, auto elementIs) {
    auto type = cast<VectorType>(value.getType());
    return type.getShape() == shape && elementIs(type.getElementType());
  };
  auto bf16 = [](Type type) { return type.isBF16(); };
  auto f32 = [](Type type) { return type.isF32(); };
  return llvm::equal(mma.getMmaShapeAsArray(), ArrayRef<int64_t>{16, 8, 16}) &&
         is(mma.getMatrixA(), {4, 2}, bf16) &&
         is(mma.getMatrixB(), {2, 2}, bf16) &&
         is(mma.getMatrixC(), {2, 2}, f32);
}

struct FALowerBF16MmaSyncPass
    : fa::impl::FALowerBF16MmaSyncBase<FALowerBF16MmaSyncPass> {
  void runOnOperation() override {
    SmallVector<nvgpu::MmaSyncOp> mmas;
    getOperation()->walk([&](nvgpu::MmaSyncOp mma) {
      if (cast<VectorType>(mma.getMatrixA().getType())
              .getElementType()
              .isBF16())
        mmas.push_back(mma);
    });
    IRRewriter rewriter(&getContext());
    for (nvgpu::MmaSyncOp mma : mmas) {
      if (!isBF16MmaSync16816(mma)) {
        mma.emitOpError()
            << "with bf16 multiplicands is lowered here for m16n8k16 "
               "(A vector<4x2xbf16>, B vector<2x2xbf16>, C vector<2x2xf32>) "
               "only; here shape "
            << mma.getMmaShapeAttr() << ", A " << mma.getMatrixA().getType()
            << ", B " << mma.getMatrixB().getType() << ", C "
            << mma.getMatrixC().getType();
        return signalPassFailure();
      }
      Location loc = mma.getLoc();
      rewriter.setInsertionPoint(mma);
      SmallVector<Value> a = packedRegisters(rewriter, loc, mma.getMatrixA());
      SmallVector<Value> b = packedRegisters(rewriter, loc, mma.getMatrixB());
      // C row-major: c0, c1 (row l / 4), c2, c3 (row l / 4 + 8).
      SmallVector<Value> c;
      for (int64_t row = 0; row < 2; ++row)
        for (int64_t column = 0; column < 2; ++column)
          c.push_back(vector::ExtractOp::create(
              rewriter, loc, mma.getMatrixC(), ArrayRef<int64_t>{row, column}));
      Type f32 = rewriter.getF32Type();
      auto resultType = LLVM::LLVMStructType::getLiteral(
          rewriter.getContext(), SmallVector<Type>(4, f32));
      auto product = NVVM::MmaOp::create(
          rewriter, loc, resultType, a, b, c, ArrayRef<int64_t>{16, 8, 16},
          /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
          std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                        NVVM::MMATypes::bf16},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      SmallVector<Value> d;
      for (int64_t index = 0; index < 4; ++index)
        d.push_back(LLVM::ExtractValueOp::create(rewriter, loc, product,
                                                 ArrayRef<int64_t>{index}));
      rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
          mma, mma.getMatrixC().getType(), d);
    }
  }
};

} // namespace
