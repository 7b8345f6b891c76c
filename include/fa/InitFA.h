//===- InitFA.h - Registering fa with a tool or a compiler ------*- C++ -*-===//
//
// The entry points a compiler calls to use fa: the dialect, the passes and
// the pipelines. For example, in a driver built on MlirOptMain:
//
//   mlir::DialectRegistry registry;
//   mlir::registerAllDialects(registry);
//   mlir::fa::registerFADialects(registry);
//   mlir::fa::registerFAPassesAndPipelines();
//
// or, to run the CPU pipeline from C++ (see fa/Pipelines/Pipelines.h):
//
//   mlir::PassManager pm(&context);
//   mlir::fa::buildCPUPipeline(pm, mlir::fa::CPUPipelineOptions());
//   if (failed(pm.run(module))) ...
//
//===----------------------------------------------------------------------===//

#ifndef FA_INITFA_H
#define FA_INITFA_H

namespace mlir {
class DialectRegistry;

namespace fa {

/// Adds the fa dialect to `registry`.
void registerFADialects(DialectRegistry &registry);

/// Registers every fa pass (fa-raise-attention, fa-select-tiles,
/// fa-tile-attention, fa-decompose-attention, fa-decompose-aggregated-ops)
/// and pipeline (fa-cpu-pipeline) with the global registries, so that
/// textual pipelines and command lines can name them.
void registerFAPassesAndPipelines();

} // namespace fa
} // namespace mlir

#endif // FA_INITFA_H
