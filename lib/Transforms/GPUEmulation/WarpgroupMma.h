//===- WarpgroupMma.h - Hopper's warpgroup matmul on a CPU ------*- C++ -*-===//
//
// Part of fa-emulate-threads-on-cpu: fa.warpgroup_mma (wgmma.mma_async) and
// fa.warpgroup_mma_wait, thread by thread as the hardware computes them.
// Each emulated thread computes exactly its own accumulator elements (the
// layout of include/fa/Kernel/WarpgroupLayout.h), reading A
// and B from shared memory where the descriptors say the hardware reads
// them (decoded at run time: start, leading and stride byte offsets,
// swizzle), or A from the registers of the warpgroup's thread that holds
// each element (published through memory and a barrier, as the warp
// collectives are). A descriptor that points outside its buffer is
// reported with the element it reads and the program exits 1.
//
// wgmma is asynchronous: its result is readable after the
// fa.warpgroup_mma_wait that completes its group. Here the result of a
// wgmma is its computed value only where another wgmma chains on it or a
// wait whose group completed returns it; everywhere else (a read before
// the wait, a wait that leaves the group in flight) it is NaN, so a
// dropped or too-lenient wait fails by numbers.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPUEMULATION_WARPGROUPMMA_H
#define FA_LIB_TRANSFORMS_GPUEMULATION_WARPGROUPMMA_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::fa {

/// Rewrites every fa.warpgroup_mma and fa.warpgroup_mma_wait under `root`
/// (inside 1-D thread loops of whole warpgroups) into per-thread loads and
/// arithmetic. Reports what it cannot run.
LogicalResult lowerWarpgroupMmas(Operation *root);

} // namespace mlir::fa

#endif // FA_LIB_TRANSFORMS_GPUEMULATION_WARPGROUPMMA_H
