//===- Pipelines.h - End-to-end pass pipelines of fa-opt --------*- C++ -*-===//
//
// Pipelines that take a whole module (frontend dialects plus fa) to a form
// that a runner or a GPU toolchain consumes.
//
//===----------------------------------------------------------------------===//

#ifndef FA_PIPELINES_PIPELINES_H
#define FA_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace fa {

/// Options of `fa-cpu-pipeline`.
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<bool> raise{
      *this, "raise",
      llvm::cl::desc("Run fa-raise-attention first, so that attention "
                     "spelled in linalg or TOSA becomes fa.attention"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> reference{
      *this, "reference",
      llvm::cl::desc("Lower fa.attention through the unfused reference "
                     "(fa-decompose-attention) instead of the tiled online "
                     "softmax (fa-tile-attention); tests compare the two"),
      llvm::cl::init(false)};
};

/// Lowers a module of func, TOSA, linalg, tensor, arith, math and fa ops to
/// the LLVM dialect (raising attention first unless `raise=false`; tiled
/// with the host preset's tiles unless `reference=true`), ready for `mlir-runner` with libmlir_runner_utils and
/// libmlir_c_runner_utils. fa.attention goes through the reference
/// decomposition; tensors are bufferized across function boundaries with
/// identity layouts so that callers can pass plain memrefs.
///
/// Example:
///   PassManager pm(ctx);
///   fa::buildCPUPipeline(pm, fa::CPUPipelineOptions());
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Registers `fa-cpu-pipeline` with the global pass pipeline registry.
void registerPipelines();

} // namespace fa
} // namespace mlir

#endif // FA_PIPELINES_PIPELINES_H
