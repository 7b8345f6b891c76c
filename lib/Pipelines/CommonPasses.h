//===- CommonPasses.h - Pass sequences both pipelines share -----*- C++ -*-===//
//
// The CPU and GPU pipelines treat everything that is not attention the same
// way: frontend dialects become linalg on tensors, which is bufferized across
// function boundaries.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_PIPELINES_COMMONPASSES_H
#define FA_LIB_PIPELINES_COMMONPASSES_H

#include "fa/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::fa {

/// The forward kernel's choices (include/fa/Kernel/KernelOptions.td) from
/// a pipeline's options to a pass's of the same names: the passes that
/// predict the kernel (fa-select-tiles, fa-confirm-tiles-with-ptxas) make
/// the choices the pipeline makes.
template <typename PassOptionsT, typename PipelineOptionsT>
void forwardKernelChoices(PassOptionsT &pass,
                          const PipelineOptionsT &pipeline) {
  pass.registerFragments = pipeline.registerFragments;
  pass.tmaProducer = pipeline.tmaProducer;
  pass.overlapSoftmax = pipeline.overlapSoftmax;
  pass.pingPong = pipeline.pingPong;
}

/// TOSA, aggregated linalg ops and elementwise ops to linalg on tensors.
/// TOSA is lowered as upstream's conversions accept it; with
/// `validateTosa`, ops outside the specification's profiles (an i64 or i1
/// mask cast to f32, as torch-mlir emits) are refused first.
inline void addFrontendLowering(OpPassManager &pm, bool validateTosa) {
  pm.addPass(createFADecomposeAggregatedOps());
  // Upstream's TOSA pipeline leaves constants and reshapes to these two,
  // and creates reshapes itself (tosa.tile), hence both before and after.
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  std::optional<tosa::TosaValidationOptions> validation;
  if (validateTosa)
    validation = tosa::TosaValidationOptions{
        /*strictOpSpecAlignment=*/false,
        /*allowInvalidOpDatatypeCombinations=*/false};
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions(), validation);
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
}

/// Tensors to buffers, across calls, with plain (identity-layout) memrefs
/// at function boundaries so that callers (and the runtime's print helpers)
/// pass plain memrefs. With `deallocate`, buffers are freed by upstream's
/// ownership-based deallocation (which rejects ops it cannot analyze, such as
/// gpu.barrier, hence off for GPU modules).
inline void addBufferization(OpPassManager &pm, bool deallocate = true) {
  bufferization::OneShotBufferizePassOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  bufferization.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  if (deallocate)
    bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
}

} // namespace mlir::fa

#endif // FA_LIB_PIPELINES_COMMONPASSES_H
