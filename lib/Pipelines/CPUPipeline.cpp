//===- CPUPipeline.cpp - fa-cpu-pipeline ----------------------------------===//
//
// Stage: CPU execution. Lowers a whole frontend module (TOSA, linalg, tensor,
// arith, math, func and fa) to the LLVM dialect so that mlir-runner executes
// it. This is how the numerics of every stage are checked on a machine
// without a GPU.
//
//===----------------------------------------------------------------------===//

#include "fa/Pipelines/Pipelines.h"
#include "fa/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
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
  if (options.raise)
    pm.addPass(createFARaiseAttention());
  // fa.attention: by default the tiled online softmax with tiles chosen for
  // the host (its L2 plays the role of shared memory); with reference=true
  // the unfused definition, which is what tests compare against.
  if (options.reference) {
    pm.addPass(createFADecomposeAttention());
  } else {
    FASelectTilesOptions tiles;
    tiles.target = "host";
    pm.addPass(createFASelectTiles(tiles));
    pm.addPass(createFATileAttention());
  }
  pm.addPass(createFADecomposeAggregatedOps());
  // Upstream's TOSA pipeline leaves constants and reshapes to these two,
  // and creates reshapes itself (tosa.tile), hence both before and after.
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());

  // Tensors to buffers, across calls, with plain (identity-layout) memrefs
  // at function boundaries so that the runtime's print helpers accept them.
  bufferization::OneShotBufferizePassOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  bufferization.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());

  // Loops (the tiled form's scf.forall runs sequentially here), then LLVM.
  pm.addPass(createForallToForLoopPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::fa::registerPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "fa-cpu-pipeline",
      "Lower a module of TOSA, linalg and fa ops to the LLVM dialect for "
      "mlir-runner, with fa.attention decomposed to its reference",
      buildCPUPipeline);
}
