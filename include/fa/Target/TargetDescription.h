//===- TargetDescription.h - On-chip resources of a target ------*- C++ -*-===//
//
// Stage: tile selection. What a target offers a FlashAttention kernel: the
// on-chip memory one block may use (the M of FlashAttention's tile formula),
// registers, threads, SMs and tensor-core shapes. Plain C++ so that the tile
// selection is testable without IR; #fa.target carries the same fields in IR.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TARGET_TARGETDESCRIPTION_H
#define FA_TARGET_TARGETDESCRIPTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::fa {

/// The resources of one target. Sizes in bytes; "SM" means a streaming
/// multiprocessor, an AMD compute unit, or a CPU core.
struct TargetDescription {
  std::string name;
  /// Shared memory (LDS, or cache used as scratch on a CPU) one block may
  /// use: the opt-in maximum on NVIDIA.
  int64_t sharedMemoryPerBlock = 0;
  int64_t sharedMemoryPerSM = 0;
  int64_t registersPerSM = 0;     // 32-bit registers
  int64_t registersPerThread = 0; // the per-thread maximum
  int64_t maxThreadsPerBlock = 0;
  int64_t maxThreadsPerSM = 0;
  int64_t warpSize = 0;
  int64_t smCount = 0;
  /// Tensor-core (matrix-core) instruction shapes, e.g. "m16n8k16"; empty
  /// when the target has none (FMA only).
  llvm::SmallVector<std::string, 2> mmaShapes;
  /// Registers ptxas needs beyond the tile model's count on this chip's
  /// generation, which the model adds to the mma.sync and FMA kernels':
  /// Blackwell's allocator (sm_100, sm_120) takes 20 to 45 more than
  /// sm_80's for the same kernel and spilled 340 bytes where sm_80 and
  /// sm_90 spill none (issue 50's sweep). The model is fitted on sm_80/90.
  int64_t registerMargin = 0;
  /// Peak DRAM (HBM or GDDR) bandwidth of the product `source` names, in
  /// bytes per second; 0 where unknown (the host, a whole #fa.target
  /// written in IR).
  /// The tile report divides its HBM traffic by it: the time a
  /// memory-bound step (decode) cannot beat.
  int64_t dramBytesPerSecond = 0;
  /// Where the numbers come from.
  std::string source;

  /// Rows (M) of the smallest MMA shape: tiles are multiples of it.
  /// 1 when the target has no matrix instructions.
  int64_t mmaGranule() const;
  bool isGPU() const { return warpSize > 1; }
};

/// Why `target` cannot describe a machine (a non-positive size, or a block
/// that may use more than its SM has), or "" when it can.
std::string validateTargetDescription(const TargetDescription &target);

/// The built-in presets: sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100,
/// sm_120, gfx90a, gfx942, gfx950 and host.
llvm::ArrayRef<TargetDescription> getTargetPresets();

/// The preset called `name`, or nullopt.
std::optional<TargetDescription> lookupTargetPreset(llvm::StringRef name);

/// "sm_75, sm_80, ..." for error messages.
std::string listTargetPresets();

/// The host CPU: one core's L2 cache (or L1d when L2 is unknown) plays the
/// role of shared memory, cores are SMs, there are no tensor cores.
TargetDescription getHostTarget();

/// The target when nothing names one.
constexpr llvm::StringLiteral kDefaultTargetName = "sm_80";

} // namespace mlir::fa

#endif // FA_TARGET_TARGETDESCRIPTION_H
