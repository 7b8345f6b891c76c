//===- ConvertKernelNVGPUToNVVM.cpp - nvgpu to NVVM at the module's width -===//
//
// Stage: NVVM lowering, inside each outlined gpu.module, where upstream's
// convert-nvgpu-to-nvvm would run. That pass builds its LLVM type converter
// with the default options, so `index` is always i64 there, whatever the
// module's data layout says. In a kernel fa-narrow-kernel-indices made
// 32-bit (`#dlti.dl_spec<index = 32>`), that would compute every ldmatrix
// and cp.async address in 64-bit arithmetic and truncate it: the address
// math this module exists to shrink. This pass applies upstream's patterns
// (populateNVGPUToNVVMConversionPatterns) with the module's index width and
// otherwise converts types as upstream does for the ops our kernels use.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupMmaToNVVM.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FACONVERTKERNELNVGPUTONVVM
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

struct FAConvertKernelNVGPUToNVVMPass
    : fa::impl::FAConvertKernelNVGPUToNVVMBase<
          FAConvertKernelNVGPUToNVVMPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    LowerToLLVMOptions options(
        context, DataLayout(cast<DataLayoutOpInterface>(module.getOperation())));
    LLVMTypeConverter converter(context, options);
    nvgpu::populateCommonGPUTypeAndAttributeConversions(converter);
    // cp.async tokens have no NVVM value: upstream turns them into a dummy
    // i32 that its patterns then drop; so do we.
    converter.addConversion([&](nvgpu::DeviceAsyncTokenType type) -> Type {
      return converter.convertType(IntegerType::get(context, 32));
    });

    // The TMA producer kernel's barriers and tensor maps (an address:
    // fa-encode-tensor-maps), as upstream's nvgpu-to-nvvm converts them.
    converter.addConversion([&](nvgpu::MBarrierGroupType type) -> Type {
      return converter.convertType(nvgpu::getMBarrierMemrefType(context, type));
    });
    converter.addConversion([&](nvgpu::MBarrierTokenType type) -> Type {
      return converter.convertType(IntegerType::get(context, 64));
    });
    converter.addConversion([&](nvgpu::TensorMapDescriptorType type) -> Type {
      return LLVM::LLVMPointerType::get(type.getContext());
    });

    RewritePatternSet patterns(context);
    populateNVGPUToNVVMConversionPatterns(converter, patterns);
    fa::populateWarpgroupMmaToNVVMPatterns(converter, patterns);
    LLVMConversionTarget target(*context);
    target.addIllegalOp<fa::WarpgroupMmaOp, fa::WarpgroupMmaWaitOp>();
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                           arith::ArithDialect, memref::MemRefDialect,
                           vector::VectorDialect>();
    // Tokens yielded by scf.if (a copy requested only where the block is
    // visible) change type with them.
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
