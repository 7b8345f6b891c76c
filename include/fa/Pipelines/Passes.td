//===- Passes.td - Pipelines passes ------------------------*- tablegen -*-===//
//
// Stage: the passes that compile a trial of the rest of a pipeline.
// One pass per file under lib/Pipelines/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_PIPELINES_PASSES_TD
#define FA_PIPELINES_PASSES_TD

include "fa/Kernel/KernelOptions.td"
include "mlir/Pass/PassBase.td"

def FAConfirmTilesWithPtxas
    : Pass<"fa-confirm-tiles-with-ptxas", "::mlir::ModuleOp"> {
  let summary = "Compile each tiled attention's kernels and retile those "
                "ptxas spills";
  let description = [{
    The tile model (docs/Targets.md) estimates a kernel's registers per
    thread from its fragments and loop state; it is fitted to ptxas, not
    derived from it, and a shape it was not fitted on can spill. This pass
    asks ptxas. For every `fa.attention` and `fa.attention_backward` that
    carries a tiling, it compiles a module holding that op alone through
    the rest of fa-gpu-pipeline (with this pass's options), assembles every
    kernel with the toolkit's ptxas (`-v`), and reads the spill bytes. A
    kernel that spills is retiled: the model chooses again with the chip's
    registers per thread lowered below the spilled tiling's estimate (or,
    where no tiling is estimated lighter, takes the spilled tile with half
    its keys, then half its rows), and the new tiling is compiled in turn,
    at most `max-retiles` times. A remark at the op says what spilled and
    what replaced it.

    A tiling that the model would not have chosen (written on the op by
    the user) is kept: a warning says that it spills. Where ptxas is not
    found, or the trial compilation fails (the real one then reports why),
    the op is left as it is.
  }];
  let options = !listconcat([
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_80\"",
           "NVIDIA chip: the tile preset, the PTX target and ptxas's -arch">,
    Option<"cudaToolkit", "cuda-toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit whose bin/ptxas assembles the kernels (default: "
           "$CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, else /usr/local/cuda)">,
    Option<"barePointers", "bare-pointers", "bool", /*default=*/"true",
           "As fa-gpu-pipeline's bare-pointers">,
    Option<"indexBitwidth", "index-bitwidth", "unsigned", /*default=*/"64",
           "As fa-gpu-pipeline's index-bitwidth">,
    Option<"maxRetiles", "max-retiles", "unsigned", /*default=*/"4",
           "The most tilings tried after the first for one op">,
  ], FAPipelineKernelOptions);
}

#endif // FA_PIPELINES_PASSES_TD
