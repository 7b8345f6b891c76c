//===- GPUPipeline.cpp - fa-gpu-pipeline ----------------------------------===//
//
// Stage: GPU code. Takes a frontend module to LLVM with every attention
// compiled into a FlashAttention kernel for one NVIDIA chip, held as PTX or
// cubin in a gpu.binary and launched by gpu.launch_func. Everything up to
// fa-lower-to-gpu is fa-opt's and runs on a CPU in tests; from outlining on
// it is upstream's gpu-lower-to-nvvm pipeline (NVVM, the LLVM NVPTX backend,
// and ptxas for cubin).
//
//===----------------------------------------------------------------------===//

#include "CommonPasses.h"

#include "fa/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

std::string mlir::fa::ptxFeaturesFor(llvm::StringRef chip) {
  // PTX 8.0 (CUDA 12.0) knows every chip up to sm_90a; the Blackwells need
  // the ISA versions that introduced them.
  return llvm::StringSwitch<std::string>(chip)
      .StartsWith("sm_100", "+ptx86")
      .StartsWith("sm_120", "+ptx87")
      .Default("+ptx80");
}

void mlir::fa::buildGPUPipeline(OpPassManager &pm,
                                const GPUPipelineOptions &options) {
  if (options.raise)
    pm.addPass(createFARaiseAttention());
  FASelectTilesOptions tiles;
  tiles.target = options.chip;
  pm.addPass(createFASelectTiles(tiles));
  pm.addPass(createFADistributeAttention());
  addFrontendLowering(pm);
  // The host code returns the kernels' outputs; temporaries of other host
  // ops are not freed (docs/GPU.md).
  addBufferization(pm, /*deallocate=*/false);
  pm.addPass(createFALowerToGPU());
  // What is left on the host (other linalg ops, the rest of the scf).
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  // Constants and index math the canonicalizer hoisted out of gpu.launch go
  // back in, so that they do not become kernel parameters.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());

  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = ptxFeaturesFor(options.chip);
  nvvm.cubinFormat = options.format;
  nvvm.kernelUseBarePtrCallConv = options.barePointers;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}

void mlir::fa::registerPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "fa-cpu-pipeline",
      "Lower a module of TOSA, linalg and fa ops to the LLVM dialect for "
      "mlir-runner: fa.attention tiled for the host, or through the "
      "unfused reference (reference=true), or through the GPU kernel with "
      "emulated threads (gpu-kernel=<chip>)",
      buildCPUPipeline);
  PassPipelineRegistration<GPUPipelineOptions>(
      "fa-gpu-pipeline",
      "Compile a module of TOSA, linalg and fa ops for an NVIDIA chip: "
      "every attention becomes a fused FlashAttention kernel in a "
      "gpu.binary (PTX with format=isa, cubin with format=bin)",
      buildGPUPipeline);
}
