//===- GPUPipeline.cpp - fa-gpu-pipeline ----------------------------------===//
//
// Stage: GPU code. Takes a frontend module to LLVM with every attention
// compiled into a FlashAttention kernel for one NVIDIA chip, held as PTX or
// cubin in a gpu.binary and launched by gpu.launch_func. Everything up to
// fa-lower-to-gpu is fa-opt's and runs on a CPU in tests; from outlining on
// it is upstream's passes (NVVM, the LLVM NVPTX backend, libdevice, and
// ptxas for cubin), in the order of upstream's gpu-lower-to-nvvm-pipeline.
//
//===----------------------------------------------------------------------===//

#include "CommonPasses.h"

#include "fa/Kernel/KernelModel.h"
#include "fa/Pipelines/ConfirmTilesWithPtxas.h"
#include "fa/Pipelines/Pipelines.h"
#include "fa/Target/TargetDescription.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstdlib>

using namespace mlir;

std::string mlir::fa::ptxFeaturesFor(llvm::StringRef chip) {
  // PTX 8.0 (CUDA 12.0) knows every chip up to sm_90a; the Blackwells need
  // the ISA versions that introduced them.
  return llvm::StringSwitch<std::string>(chip)
      .StartsWith("sm_100", "+ptx86")
      .StartsWith("sm_120", "+ptx87")
      .Default("+ptx80");
}

/// "sm_75, sm_80, ..." from the presets.
static std::string nvidiaChips() {
  std::string chips;
  for (const mlir::fa::TargetDescription &target :
       mlir::fa::getTargetPresets()) {
    if (!StringRef(target.name).starts_with("sm_"))
      continue;
    chips += (chips.empty() ? "" : ", ") + target.name;
  }
  return chips;
}

bool mlir::fa::chipHasAsyncCopy(llvm::StringRef chip) {
  unsigned version = 0;
  return chip.consume_front("sm_") &&
         !chip.take_while(llvm::isDigit).getAsInteger(10, version) &&
         version >= 80;
}

bool mlir::fa::chipHasWarpgroupMma(llvm::StringRef chip) {
  std::optional<TargetDescription> preset = lookupTargetPreset(chip);
  return preset && hasWarpgroupMma(*preset);
}

bool mlir::fa::chipHasTensorCores(llvm::StringRef chip) {
  std::optional<TargetDescription> preset = lookupTargetPreset(chip);
  return preset && hasMmaSync16816(*preset);
}

std::string mlir::fa::cudaToolkitPath(llvm::StringRef requested) {
  if (!requested.empty())
    return requested.str();
  for (const char *variable : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(variable); value && *value)
      return value;
  return "/usr/local/cuda";
}

/// Upstream's gpu-lower-to-nvvm-pipeline, pass for pass, except that
///  * the CUDA toolkit is named: math.exp and math.log become libdevice
///    calls (__nv_expf, __nv_logf), and gpu-module-to-binary links
///    libdevice only when it finds the toolkit, which upstream's pipeline
///    leaves to environment variables;
///  * nvgpu ops are converted after outlining, not before: the conversion
///    casts the global memrefs that cp.async reads to LLVM descriptors where
///    they are defined, which before outlining is the host function, and
///    the kernel would then take K and V as descriptor structs instead of
///    the bare pointers of its ABI (docs/GPU.md);
///  * bf16 mma.sync, which upstream's nvgpu-to-nvvm cannot lower, is
///    lowered first (fa-lower-bf16-mma-sync);
///  * the softmax's approximate exponentials (math.exp2 {afn}) become
///    ex2.approx.ftz.f32 (fa-lower-exp2-to-nvvm), where upstream would call
///    libdevice;
///  * static shared tiles get the 16-byte alignment the kernel's accesses
///    claim (fa-align-workgroup-buffers), which upstream leaves at the
///    element's, and the wgmma kernel's tiles, static and dynamic, 1024
///    (fa-align-dynamic-shared-memory), where its swizzle patterns start;
///  * kernels whose shared memory bounds their occupancy say so to ptxas
///    (fa-annotate-occupancy), which would otherwise spill registers for
///    an occupancy they cannot reach;
///  * identical kernels (layers with the same attention) are lowered once
///    (fa-deduplicate-kernels).
static void addNVVMLowering(OpPassManager &pm,
                            const mlir::fa::GPUPipelineOptions &options) {
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(mlir::fa::createFASpecializeWarpgroups());
  // Each role's clone with the other role's work folded away: what the
  // compute warpgroups carry across key blocks (O, P, the row statistics)
  // is then a dead pass-through in the producer's loop, which only
  // canonicalization removes before the loops become branches (ptxas would
  // keep ~60 registers live in the producer and ignore its setmaxnreg:
  // C7507).
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addPass(mlir::fa::createFAEncodeTensorMaps());
  pm.addPass(mlir::fa::createFAAlignWorkgroupBuffers());
  mlir::fa::FAAnnotateOccupancyOptions occupancy;
  occupancy.chip = options.chip;
  pm.addPass(mlir::fa::createFAAnnotateOccupancy(occupancy));
  // Layers with the same attention share one kernel from here on.
  pm.addPass(mlir::fa::createFADeduplicateKernels());
  if (options.indexBitwidth == 32)
    pm.addPass(mlir::fa::createFANarrowKernelIndices());
  pm.addNestedPass<gpu::GPUModuleOp>(mlir::fa::createFALowerBF16MmaSync());
  pm.addNestedPass<gpu::GPUModuleOp>(mlir::fa::createFALowerExp2ToNVVM());
  pm.addNestedPass<gpu::GPUModuleOp>(
      mlir::fa::createFAConvertKernelNVGPUToNVVM());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = mlir::fa::ptxFeaturesFor(options.chip);
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  // The host's arithmetic; the kernels' is converted with the rest of the
  // gpu.module below, at the module's index width.
  pm.addNestedPass<LLVM::LLVMFuncOp>(createArithToLLVMConversionPass());
  pm.addNestedPass<LLVM::LLVMFuncOp>(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // The kernels.
  ConvertGpuOpsToNVVMOpsOptions kernels;
  kernels.useBarePtrCallConv = options.barePointers;
  pm.addNestedPass<gpu::GPUModuleOp>(createStripDebugInfoPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(kernels));
  pm.addNestedPass<gpu::GPUModuleOp>(
      mlir::fa::createFAAlignDynamicSharedMemory());
  pm.addNestedPass<gpu::GPUModuleOp>(mlir::fa::createFAKeepLoopAnnotations());
  pm.addNestedPass<gpu::GPUModuleOp>(LLVM::createNVVMOptimizeForTargetPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  // The host, then the binary.
  GpuToLLVMConversionPassOptions host;
  host.kernelBarePtrCallConv = options.barePointers;
  pm.addPass(createGpuToLLVMConversionPass(host));
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = mlir::fa::cudaToolkitPath(options.cudaToolkit);
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

std::string
mlir::fa::checkGPUPipelineOptions(const GPUPipelineOptions &options) {
  std::optional<TargetDescription> target = lookupTargetPreset(options.chip);
  if (!target || !StringRef(options.chip).starts_with("sm_"))
    return "unknown chip '" + options.chip +
           "'; the kernel targets NVIDIA chips: " + nvidiaChips();
  if (!llvm::is_contained({"isa", "bin", "fatbin"}, options.format))
    return "unknown format '" + options.format +
           "'; formats: isa (PTX), bin (cubin), fatbin";
  if (options.indexBitwidth != 32 && options.indexBitwidth != 64)
    return "index-bitwidth is " + std::to_string(options.indexBitwidth) +
           "; the kernels compute indices in 64 or 32 bits";
  if (options.indexBitwidth == 32 && !options.barePointers)
    return "index-bitwidth=32 needs bare-pointers=true: a memref "
           "descriptor's sizes and strides are index fields, which the host "
           "passes as 64-bit values";
  return "";
}

/// LLVM's NVPTX backend has 32-bit shared pointers only through its
/// -nvptx-short-ptr option, which is global to the process: every later
/// NVPTX compilation in it uses them too (correct, but a kernel with a 64-bit
/// index then truncates each shared address).
static void useShortSharedPointers() {
  auto &registered = llvm::cl::getRegisteredOptions();
  auto found = registered.find("nvptx-short-ptr");
  if (found != registered.end())
    (void)found->second->addOccurrence(0, "nvptx-short-ptr", "true");
}

void mlir::fa::buildGPUPipeline(OpPassManager &pm,
                                const GPUPipelineOptions &options) {
  if (options.raise) {
    pm.addPass(createFARaiseAttention());
    // What is left unraised, once more in one form for helpers and unit
    // dims (fa-normalize-frontend). Not first: dropping every unit dim
    // would also drop a decode step's Nq = 1, which the matcher reads as
    // the query axis.
    pm.addPass(createFANormalizeFrontend());
    pm.addPass(createFARaiseAttention());
    // Masks computed from positions become score_mod / mask_mod.
    pm.addPass(createFAFoldMasksIntoModifiers());
  }
  FASelectTilesOptions tiles;
  tiles.target = options.chip;
  forwardKernelChoices(tiles, options);
  pm.addPass(createFASelectTiles(tiles));
  if (options.confirmTiles) {
    FAConfirmTilesWithPtxasOptions confirm;
    confirm.chip = options.chip;
    confirm.cudaToolkit = options.cudaToolkit;
    confirm.barePointers = options.barePointers;
    forwardKernelChoices(confirm, options);
    confirm.indexBitwidth = options.indexBitwidth;
    pm.addPass(createFAConfirmTilesWithPtxas(confirm));
  }
  buildGPUPipelineFromTiles(pm, options);
}

void mlir::fa::buildGPUPipelineFromTiles(OpPassManager &pm,
                                         const GPUPipelineOptions &options) {
  // Here, not in buildGPUPipeline: fa-confirm-tiles-with-ptxas's trial
  // compilations must see the same NVPTX backend as the real one.
  if (options.indexBitwidth == 32)
    useShortSharedPointers();
  // Layers with the same attention call one function: its kernel is built
  // and lowered once.
  pm.addPass(createFAShareAttentionFunctions());
  FADistributeAttentionOptions kernel;
  kernel.asyncCopies = chipHasAsyncCopy(options.chip);
  kernel.tensorCores = chipHasTensorCores(options.chip);
  kernel.registerFragments = options.registerFragments;
  kernel.warpgroupMma = chipHasWarpgroupMma(options.chip);
  kernel.tmaProducer = kernel.warpgroupMma && options.tmaProducer;
  kernel.overlapSoftmax = options.overlapSoftmax;
  kernel.pingPong = options.pingPong;
  pm.addPass(createFADistributeAttention(kernel));
  FADistributeAttentionBackwardOptions backward;
  backward.asyncCopies = kernel.asyncCopies;
  backward.tensorCores = kernel.tensorCores;
  backward.warpgroupMma = kernel.warpgroupMma;
  backward.tmaProducer = kernel.tmaProducer;
  pm.addPass(createFADistributeAttentionBackward(backward));
  FADistributeLinearAttentionOptions linear;
  linear.tensorCores = kernel.tensorCores;
  pm.addPass(createFADistributeLinearAttention(linear));
  addFrontendLowering(pm, options.tosaValidation);
  // The host code returns the kernels' outputs; temporaries of other host
  // ops are not freed (docs/GPU.md).
  addBufferization(pm, /*deallocate=*/false);
  FALowerToGPUOptions launch;
  launch.staticBuffers = options.barePointers;
  pm.addPass(createFALowerToGPU(launch));
  // What the kernels write lives in device memory; temporaries are freed.
  pm.addNestedPass<func::FuncOp>(createFAAllocateDeviceBuffers());
  pm.addPass(createFAWarpMatmulsToNVGPU());
  // What is left on the host (other linalg ops, the rest of the scf).
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  // Constants and index math the canonicalizer hoisted out of gpu.launch go
  // back in, so that they do not become kernel parameters.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());

  addNVVMLowering(pm, options);
}

void mlir::fa::registerPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "fa-cpu-pipeline",
      "Lower a module of TOSA, linalg and fa ops to the LLVM dialect for "
      "mlir-runner: fa.attention tiled for the host, or through the "
      "unfused reference (reference=true), or through the GPU kernel with "
      "emulated threads (gpu-kernel=<chip>)",
      buildCPUPipeline);
  // Registered by hand (not PassPipelineRegistration) so that a chip or a
  // format the pipeline cannot serve is one clear error when the pipeline is
  // parsed, before anything runs.
  registerPassPipeline(
      "fa-gpu-pipeline",
      "Compile a module of TOSA, linalg and fa ops for an NVIDIA chip: "
      "every attention becomes a fused FlashAttention kernel in a "
      "gpu.binary (PTX with format=isa, cubin with format=bin)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        GPUPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (std::string error = checkGPUPipelineOptions(options);
            !error.empty())
          return errorHandler("fa-gpu-pipeline: " + error);
        buildGPUPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(GPUPipelineOptions());
      });
}
