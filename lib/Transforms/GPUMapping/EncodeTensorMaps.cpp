//===- EncodeTensorMaps.cpp - TMA tensor maps across the kernel ABI ------===//
//
// Stage: NVVM lowering, after outlining. The TMA producer kernel's tensor
// maps (nvgpu.tma.create.descriptor of Q, K and V) are built on the host
// and reach the kernel as launch arguments. A CUtensorMap is a 128-byte
// object the TMA unit reads from global, constant or parameter memory;
// upstream's runtime (mgpuTensorMapEncodeTiledMemref) encodes it with
// cuTensorMapEncodeTiled and copies it to device memory, and the kernel
// takes its address. So:
//  * on the host, each nvgpu.tma.create.descriptor becomes that runtime
//    call (upstream's pattern), and launches pass the returned pointer;
//  * each kernel takes !llvm.ptr where it took !nvgpu.tensormap.descriptor
//    (a cast back to the descriptor type at its entry, which the kernel's
//    nvgpu-to-nvvm conversion folds away).
// The rest of fa-gpu-pipeline converts nvgpu after outlining (see
// GPUPipeline.cpp); this is the one nvgpu op that lives on the host.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAENCODETENSORMAPS
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// Kernel arguments of tensor map type become pointers.
void takeTensorMapPointers(gpu::GPUFuncOp kernel) {
  auto pointer = LLVM::LLVMPointerType::get(kernel.getContext());
  Block &entry = kernel.getBody().front();
  SmallVector<Type> inputs(kernel.getFunctionType().getInputs());
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  for (BlockArgument argument : entry.getArguments()) {
    auto map = dyn_cast<nvgpu::TensorMapDescriptorType>(argument.getType());
    if (!map || argument.getArgNumber() >= inputs.size())
      continue;
    argument.setType(pointer);
    inputs[argument.getArgNumber()] = pointer;
    auto cast = UnrealizedConversionCastOp::create(
        b, kernel.getLoc(), TypeRange{map}, ValueRange{argument});
    argument.replaceAllUsesExcept(cast.getResult(0), cast);
  }
  kernel.setFunctionType(FunctionType::get(
      kernel.getContext(), inputs, kernel.getFunctionType().getResults()));
}

struct FAEncodeTensorMapsPass
    : fa::impl::FAEncodeTensorMapsBase<FAEncodeTensorMapsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    bool any = false;
    module.walk([&](nvgpu::TmaCreateDescriptorOp) { any = true; });
    if (!any)
      return;

    module.walk([&](gpu::GPUFuncOp kernel) {
      if (kernel.isKernel())
        takeTensorMapPointers(kernel);
    });

    LLVMTypeConverter converter(context);
    converter.addConversion([&](nvgpu::TensorMapDescriptorType type) -> Type {
      return LLVM::LLVMPointerType::get(type.getContext());
    });
    RewritePatternSet patterns(context);
    populateNVGPUToNVVMConversionPatterns(converter, patterns);
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalOp<nvgpu::TmaCreateDescriptorOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // Launches pass the pointer the runtime returned.
    module.walk([&](gpu::LaunchFuncOp launch) {
      for (OpOperand &operand : launch->getOpOperands()) {
        auto cast = operand.get().getDefiningOp<UnrealizedConversionCastOp>();
        if (cast && cast.getNumOperands() == 1 &&
            isa<nvgpu::TensorMapDescriptorType>(operand.get().getType()) &&
            isa<LLVM::LLVMPointerType>(cast.getOperand(0).getType()))
          operand.set(cast.getOperand(0));
      }
    });
  }
};

} // namespace
