//===- ConfirmTilesWithPtxas.h - The pass's pure parts ----------*- C++ -*-===//
//
// The pure parts of fa-confirm-tiles-with-ptxas, public so that unit tests
// reach them: what the trial compilation is built with, what ptxas -v
// reports about it, and the smaller tiling a spilled trial retries with.
//
//===----------------------------------------------------------------------===//

#ifndef FA_PIPELINES_CONFIRMTILESWITHPTXAS_H
#define FA_PIPELINES_CONFIRMTILESWITHPTXAS_H

#include "fa/Pipelines/Pipelines.h"
#include "fa/Transforms/Passes.h"
#include "fa/Transforms/TileSelection/TileSelection.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::fa {

// fa-confirm-tiles-with-ptxas: its options, constructor and registration
// (registerFAPipelinesPasses).
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "fa/Pipelines/Passes.h.inc"

/// What ptxas -v said about the kernels of one trial module.
struct PtxasReport {
  int64_t spillBytes = 0; // spill stores, summed over the kernels
  int64_t registers = 0;  // the most any kernel uses
};

/// Sums every "N bytes spill stores" and takes the largest "Used N
/// registers" over the functions a ptxas -v report lists.
PtxasReport parsePtxasReport(llvm::StringRef report);

/// The next smaller tiling a spilled trial retries with: half its keys, or
/// where it has 16, half its rows and warps (at least one warp), each
/// rounded down to a multiple of 16 (48 keys become 16, not 24, which no
/// tensor-core kernel takes). Nullopt at 16 x 16 and below. Whether the
/// target admits it is checkTiling's.
std::optional<Tiling> halvedTiling(const Tiling &tiling);

/// The options of the rest of fa-gpu-pipeline that the pass runs on each
/// op alone: the pass's own, so that the trial compiles what the user's
/// pipeline will (a kernel built with 32-bit indices uses fewer registers
/// than one with 64-bit indices), and PTX out. `pass` is the pass (a
/// friend: its options are protected) or its options struct,
/// FAConfirmTilesWithPtxasOptions.
template <typename PassOrOptions>
void setTrialPipelineOptions(const PassOrOptions &pass,
                             GPUPipelineOptions &options) {
  options.chip = pass.chip;
  options.format = "isa";
  options.cudaToolkit = pass.cudaToolkit;
  options.barePointers = pass.barePointers;
  options.registerFragments = pass.registerFragments;
  options.tmaProducer = pass.tmaProducer;
  options.overlapSoftmax = pass.overlapSoftmax;
  options.pingPong = pass.pingPong;
  options.indexBitwidth = pass.indexBitwidth;
}

} // namespace mlir::fa

#endif // FA_PIPELINES_CONFIRMTILESWITHPTXAS_H
