//===- WarpgroupMmaToNVVM.cpp - wgmma as inline PTX -----------------------===//
//
// Stage: NVVM lowering of the sm_90a kernel's warpgroup matmuls.
//
// fa.warpgroup_mma becomes one `wgmma.mma_async.sync.aligned.m64nNk16.f32`
// in inline PTX, with the accumulator in N / 2 ordinary f32 registers tied
// in and out. Inline PTX, because upstream has no op for what the kernel
// needs: nvvm.wgmma.mma_async reads A from shared memory only (P V reads P
// from registers), and nvgpu.warpgroup.mma's accumulator is opaque (the
// softmax reads S's elements); JAX's Mosaic GPU issues wgmma the same way
// for the same reasons. The descriptors' start addresses are offsets in
// their buffers (fa.warpgroup_mma's contract, which the CPU model runs):
// the buffer's shared-memory address, divided by 16, is added here.
// A chain's first wgmma (one whose accumulator no wgmma produced) is
// preceded by fence.proxy.async.shared::cta, which makes what the threads
// stored in shared memory visible to wgmma's (async proxy) reads, and by
// wgmma.fence, which orders the registers the threads wrote before it
// (the accumulator, A's registers) with the asynchronous reads.
//
// fa.warpgroup_mma_wait becomes wgmma.commit_group and wgmma.wait_group N,
// and then passes every element of its operands through an empty inline
// asm with side effects ("=f,0"): LLVM sees the wgmma's registers as
// written when the wgmma's asm returns, and would otherwise be free to
// read them (the softmax, the store of O) above the wait.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupMmaToNVVM.h"

#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::fa;

namespace {

/// The buffer's shared-memory address / 16, as i64: what a descriptor's
/// start field counts in.
Value sharedAddressIn16Bytes(ConversionPatternRewriter &rewriter, Location loc,
                             Value convertedBuffer) {
  MemRefDescriptor buffer(convertedBuffer);
  Value pointer = buffer.alignedPtr(rewriter, loc);
  Value address =
      LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), pointer);
  return LLVM::LShrOp::create(
      rewriter, loc, address,
      LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), 4));
}

/// A descriptor `base + c` with c a constant (the kernel writes each K
/// step's descriptor so: a block's base plus the step's offset / 16), split
/// into (base, c); (descriptor, 0) otherwise. The constant goes into the
/// wgmma's PTX as an immediate, so that LLVM sees one base per operand
/// tile: given the sums, it hoists every loop-invariant one out of the key
/// loop and keeps each live in two registers (P V from shared memory at
/// 192 x 192: 12 descriptors, 24 registers).
std::pair<Value, int64_t> splitConstantAddend(Value descriptor) {
  Operation *sum = descriptor.getDefiningOp();
  if (!sum || !isa<LLVM::AddOp, arith::AddIOp>(sum))
    return {descriptor, 0};
  for (int64_t i = 0; i < 2; ++i) {
    APInt constant;
    if (matchPattern(sum->getOperand(i), m_ConstantInt(&constant)))
      return {sum->getOperand(1 - i), constant.getSExtValue()};
  }
  return {descriptor, 0};
}

/// Inline PTX with side effects (never moved across another or dropped).
LLVM::InlineAsmOp inlinePtx(ConversionPatternRewriter &rewriter, Location loc,
                            Type resultType, ValueRange operands,
                            StringRef text, StringRef constraints) {
  return LLVM::InlineAsmOp::create(
      rewriter, loc, resultType, operands, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(rewriter.getContext(),
                                LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

struct WarpgroupMmaLowering : ConvertOpToLLVMPattern<WarpgroupMmaOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WarpgroupMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Type i32 = rewriter.getI32Type();
    int64_t registers = op.getAccumulator().getType().getNumElements();
    bool fromShared = op.getA().getType().isInteger(64);

    if (!op.getAccumulator().getDefiningOp<WarpgroupMmaOp>()) {
      // wgmma reads shared memory through the async proxy: what the
      // threads stored there (st.shared, cp.async) is visible to it only
      // after a proxy fence. Here, after the barrier that published the
      // stores to this thread, before the chain's first read.
      NVVM::FenceProxyOp::create(
          rewriter, loc, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                     NVVM::SharedSpace::shared_cta));
      NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    }

    // Operands: the accumulator (tied to the outputs), A, B.
    SmallVector<Value> operands;
    std::string constraints;
    for (int64_t r = 0; r < registers; ++r) {
      operands.push_back(LLVM::ExtractElementOp::create(
          rewriter, loc, adaptor.getAccumulator(),
          LLVM::ConstantOp::create(rewriter, loc, i32, r)));
      constraints += "=f,";
    }
    for (int64_t r = 0; r < registers; ++r)
      constraints += std::to_string(r) + ",";
    std::string aOperand;
    int64_t next = 2 * registers;
    // Descriptor operands with a constant addend: `add.s64` into a register
    // of the asm's own, so the constant stays out of LLVM's sight.
    std::string offsets;
    auto descriptorOperand = [&](Value descriptor, Value buffer,
                                 StringRef name) {
      auto [base, addend] = splitConstantAddend(descriptor);
      operands.push_back(LLVM::AddOp::create(
          rewriter, loc, base, sharedAddressIn16Bytes(rewriter, loc, buffer)));
      constraints += "l,";
      std::string operand = "$" + std::to_string(next++);
      if (addend == 0)
        return operand;
      offsets += llvm::formatv(".reg .b64 {0};\nadd.s64 {0}, {1}, {2};\n", name,
                               operand, addend)
                     .str();
      return name.str();
    };
    if (fromShared) {
      aOperand = descriptorOperand(adaptor.getA(), adaptor.getABuffer(), "da");
    } else {
      // !llvm.array<4 x vector<2 x f16>>: each register one b32.
      aOperand = "{";
      for (int64_t r = 0; r < 4; ++r) {
        Value pair = LLVM::ExtractValueOp::create(rewriter, loc, adaptor.getA(),
                                                  ArrayRef<int64_t>{r});
        operands.push_back(LLVM::BitcastOp::create(rewriter, loc, i32, pair));
        constraints += "r,";
        aOperand += (r ? ", $" : "$") + std::to_string(next++);
      }
      aOperand += "}";
    }
    std::string bOperand =
        descriptorOperand(adaptor.getBDescriptor(), adaptor.getBBuffer(), "db");
    // scale-d as an immediate of the setp, not a register operand: LLVM
    // would give a 0 the same register as a zero accumulator element tied
    // to this wgmma's outputs, and ptxas then sees that register read
    // while the warpgroup's other wgmmas are in flight and injects a wait
    // (C7517), serializing the chains.
    std::string scale = op.getIgnoreAccumulator() ? "0" : "1";
    if (!constraints.empty() && constraints.back() == ',')
      constraints.pop_back();

    std::string type = op.getOperandElementType().isBF16() ? "bf16" : "f16";
    std::string outputs;
    for (int64_t r = 0; r < registers; ++r)
      outputs += (r ? ", $" : "$") + std::to_string(r);
    // Immediates: scale-a, scale-b 1; trans-a (shared A only); trans-b.
    std::string immediates =
        std::string("1, 1, ") +
        (fromShared ? (op.getTransposeA() ? "1, " : "0, ") : "") +
        (op.getTransposeB() ? "1" : "0");
    std::string text = llvm::formatv(
        "{{\n.reg .pred p;\nsetp.ne.b32 p, {0}, 0;\n{7}"
        "wgmma.mma_async.sync.aligned.m64n{1}k16.f32.{2}.{2} {{{3}}, {4}, "
        "{5}, p, {6};\n}\n",
        scale, op.getN(), type, outputs, aOperand, bOperand, immediates,
        offsets);

    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(registers, f32));
    auto asmOp =
        inlinePtx(rewriter, loc, resultType, operands, text, constraints);
    Value result = LLVM::UndefOp::create(rewriter, loc,
                                         adaptor.getAccumulator().getType());
    for (int64_t r = 0; r < registers; ++r) {
      Value element = LLVM::ExtractValueOp::create(
          rewriter, loc, asmOp.getResult(0), ArrayRef<int64_t>{r});
      result = LLVM::InsertElementOp::create(
          rewriter, loc, result, element,
          LLVM::ConstantOp::create(rewriter, loc, i32, r));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct WarpgroupMmaWaitLowering : ConvertOpToLLVMPattern<WarpgroupMmaWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WarpgroupMmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Type f32 = rewriter.getF32Type();
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getPending());
    SmallVector<Value> results;
    for (Value value : adaptor.getValues()) {
      auto type = cast<VectorType>(value.getType());
      Value pinned = LLVM::UndefOp::create(rewriter, loc, type);
      for (int64_t r = 0; r < type.getNumElements(); ++r) {
        Value index = LLVM::ConstantOp::create(rewriter, loc, i32, r);
        Value element =
            LLVM::ExtractElementOp::create(rewriter, loc, value, index);
        auto fence =
            inlinePtx(rewriter, loc, f32, ValueRange{element}, "", "=f,0");
        pinned = LLVM::InsertElementOp::create(rewriter, loc, pinned,
                                               fence.getResult(0), index);
      }
      results.push_back(pinned);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::fa::populateWarpgroupMmaToNVVMPatterns(LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns.add<WarpgroupMmaLowering, WarpgroupMmaWaitLowering>(converter);
}
