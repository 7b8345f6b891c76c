//===- LowerExp2ToNVVM.cpp - math.exp2 {afn} to ex2.approx.ftz.f32 -------===//
//
// Stage: NVVM lowering, inside the outlined gpu.module, before upstream's
// convert-gpu-to-nvvm. The kernels' softmax computes p = 2^(u c - m c) with
// math.exp2 marked `afn` (approximate functions allowed; SoftmaxExponent in
// GPUKernel/KernelSupport.h): that is FlashAttention-2's one ex2.approx.ftz.f32
// per score. Upstream lowers every math.exp2 through libdevice's __nv_exp2f,
// which without flush-to-zero for the whole module is ex2.approx.f32 with
// subnormal handling, and offers no per-op choice. This pass takes exactly
// the `afn` ones to the NVVM intrinsic llvm.nvvm.ex2.approx.ftz.f (f32,
// scalars or vectors unrolled) and leaves every other op, so denormals are
// flushed only where an exponential of a softmax may become one: a
// probability below 2^-126 becomes 0, against a row sum of at least 1.
//
// ex2.approx's relative error is about 2^-22 (2 ulp); docs/GPU.md has how
// that bounds the kernel's error.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FALOWEREXP2TONVVM
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kEx2ApproxFtz = "llvm.nvvm.ex2.approx.ftz.f";

Value approximateExp2(OpBuilder &b, Location loc, Value x) {
  return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(),
                                       b.getStringAttr(kEx2ApproxFtz),
                                       ValueRange{x})
      .getResult(0);
}

struct FALowerExp2ToNVVMPass
    : fa::impl::FALowerExp2ToNVVMBase<FALowerExp2ToNVVMPass> {
  void runOnOperation() override {
    SmallVector<math::Exp2Op> exps;
    getOperation()->walk([&](math::Exp2Op exp) {
      auto type = exp.getType();
      auto vector = dyn_cast<VectorType>(type);
      bool f32 = getElementTypeOrSelf(type).isF32() &&
                 (!vector || (vector.getRank() == 1 && !vector.isScalable()));
      if (f32 && bitEnumContainsAll(exp.getFastmath(),
                                    arith::FastMathFlags::afn))
        exps.push_back(exp);
    });
    IRRewriter rewriter(&getContext());
    for (math::Exp2Op exp : exps) {
      rewriter.setInsertionPoint(exp);
      Location loc = exp.getLoc();
      auto vector = dyn_cast<VectorType>(exp.getType());
      if (!vector) {
        rewriter.replaceOp(exp,
                           approximateExp2(rewriter, loc, exp.getOperand()));
        continue;
      }
      SmallVector<Value> elements;
      for (int64_t i = 0; i < vector.getNumElements(); ++i)
        elements.push_back(approximateExp2(
            rewriter, loc,
            vector::ExtractOp::create(rewriter, loc, exp.getOperand(), i)));
      rewriter.replaceOpWithNewOp<vector::FromElementsOp>(exp, vector,
                                                          elements);
    }
  }
};

} // namespace
