//===- CPUPipeline.cpp - fa-cpu-pipeline ----------------------------------===//
//
// Stage: CPU execution. Lowers a whole frontend module (TOSA, linalg, tensor,
// arith, math, func and fa) to the LLVM dialect so that mlir-runner executes
// it. This is how the numerics of every stage are checked on a machine
// without a GPU.
//
//===----------------------------------------------------------------------===//

#include "CommonPasses.h"

#include "fa/Pipelines/Pipelines.h"
#include "fa/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::fa::buildCPUPipeline(OpPassManager &pm,
                                const CPUPipelineOptions &options) {
  // Attention in frontend IR becomes fa.attention; the same input with
  // raise=false runs the frontend's own ops, which is how tests compare them.
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
  // fa.attention: by default the tiled online softmax with tiles chosen for
  // the host (its L2 plays the role of shared memory); with reference=true
  // the unfused definition, which is what tests compare against.
  if (options.reference) {
    pm.addPass(createFADecomposeAttention());
  } else if (!options.gpuKernel.empty()) {
    // The GPU kernel itself, before its mapping onto gpu.launch.
    FASelectTilesOptions tiles;
    tiles.target = options.gpuKernel;
    tiles.maxBlockKV = options.maxBlockKV;
    tiles.minStages = options.minStages;
    tiles.minKVSplits = options.minKVSplits;
    forwardKernelChoices(tiles, options);
    tiles.warpgroupTiles = options.warpgroupTiles;
    // A linear attention the kernel cannot take runs on the host below.
    tiles.requireLinearChunk = false;
    pm.addPass(createFASelectTiles(tiles));
    FADistributeAttentionOptions kernel;
    kernel.asyncCopies = chipHasAsyncCopy(options.gpuKernel);
    kernel.tensorCores = chipHasTensorCores(options.gpuKernel);
    kernel.registerFragments = options.registerFragments;
    kernel.warpgroupMma = chipHasWarpgroupMma(options.gpuKernel);
    kernel.tmaProducer = kernel.warpgroupMma && options.tmaProducer;
    kernel.overlapSoftmax = options.overlapSoftmax;
    kernel.pingPong = options.pingPong;
    pm.addPass(createFADistributeAttention(kernel));
    // The backward kernels where the chip and types allow; what they cannot
    // take (f32, sm_75, a bias gradient) runs tiled below.
    FADistributeAttentionBackwardOptions backward;
    backward.asyncCopies = kernel.asyncCopies;
    backward.tensorCores = kernel.tensorCores;
    backward.warpgroupMma = kernel.warpgroupMma;
    backward.tmaProducer = kernel.tmaProducer;
    backward.requireKernel = false;
    pm.addPass(createFADistributeAttentionBackward(backward));
    // Linear attention's kernel likewise; the rest is lowered on the host
    // below.
    FADistributeLinearAttentionOptions linear;
    linear.tensorCores = kernel.tensorCores;
    linear.requireKernel = false;
    pm.addPass(createFADistributeLinearAttention(linear));
    if (options.guardOutputs)
      pm.addPass(createFAGuardKernelOutputs());
    FAEmulateThreadsOnCPUOptions emulation;
    emulation.threadOrder = options.threadOrder;
    emulation.seed = options.threadSeed;
    pm.addPass(createFAEmulateThreadsOnCPU(emulation));
    pm.addPass(createFATileAttentionBackward());
  } else {
    FASelectTilesOptions tiles;
    tiles.target = "host";
    tiles.hostCacheBytes = options.hostCacheBytes;
    tiles.maxBlockKV = options.maxBlockKV;
    tiles.minStages = options.minStages;
    tiles.minKVSplits = options.minKVSplits;
    pm.addPass(createFASelectTiles(tiles));
    pm.addPass(createFATileAttention());
    pm.addPass(createFATileAttentionBackward());
  }
  // fa.linear_attention in the cheap order (reference=true decomposed it
  // above in the quadratic one; with gpu-kernel, what its kernel did not
  // take).
  if (!options.reference)
    pm.addPass(createFALowerLinearAttention());
  addFrontendLowering(pm, options.tosaValidation);
  addBufferization(pm);

  // Loops (the tiled form's scf.forall runs sequentially here), then LLVM.
  pm.addPass(createForallToForLoopPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Unrolled: the n-D transfers of the GPU kernel's warp matmuls would
  // otherwise get stack temporaries in every emulated thread's iteration.
  VectorTransferToSCFOptions unrolled;
  unrolled.enableFullUnroll(true);
  pm.addPass(createConvertVectorToSCFPass(unrolled));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // bf16 conversions as integer bit operations (x86 has no bf16
  // arithmetic), so that fa-store-bf16-as-i16 below can retype what is left.
  arith::ArithExpandOpsPassOptions expandBF16;
  expandBF16.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expandBF16));
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // Vector ops the generic conversion lacks patterns for (the emulated
  // cp.async copies' masks).
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // bf16 that only moves (all that arith-expand leaves) travels as i16.
  pm.addPass(createFAStoreBF16AsI16());
}
