//===- TmaCopies.h - TMA loads and mbarriers on a CPU ----------*- C++ -*-===//
//
// Part of fa-emulate-threads-on-cpu: the mbarriers of a kernel
// (nvgpu.mbarrier.*) and the TMA loads that complete their transactions
// (nvgpu.tma.async.load), as PTX defines them:
//
//  * an mbarrier is four counters in ordinary memory, per grid block: the
//    expected arrivals (mbarrier.init), the arrivals still missing in the
//    current phase, the transaction bytes still missing (expect_tx adds,
//    landed copies subtract) and the phases completed so far. A phase
//    completes when both reach zero; the arrivals are then expected again.
//  * a TMA load lands at the first wait on its barrier, not at issue: its
//    destination holds NaN from issue to landing, so a read that does not
//    wait reads NaN. Landing applies the tensor map's box, its zero (or
//    NaN) fill past the tensor and its swizzle to the destination's bytes,
//    and completes the box's bytes on the barrier.
//  * try_wait.parity p returns at once when the phase of parity p is
//    complete (the completed phases' count has the other parity; the phase
//    before the first counts as complete), loads in flight or not: a wait
//    on the wrong parity reads NaN. Otherwise the loads in flight on the
//    barrier land. The emulation runs the threads in lock step, phase by
//    phase (a wait is a phase boundary: a gpu.barrier marked
//    kModelBarrierAttrName goes in front of it), so a phase still
//    incomplete then would never complete: the wait is reported (which
//    barrier, which parity, the arrivals and bytes missing) and the
//    program exits with status 1, never hangs. An arrival past the count
//    counts toward the next phase, as on the GPU.
//  * so are: more bytes landed than
//    expect_tx announced, a TMA destination off the 1024-byte boundary its
//    128-byte swizzle needs, and a load of one op on one barrier while
//    loads of an earlier transaction (the arrive.expect_tx before them)
//    are still in flight there. Within one transaction an op may issue as
//    often as the static trip counts of the loops between it and the
//    expect_tx allow (a key block's per-page boxes); all of them land at
//    the wait.
//
// The tensor maps come from nvgpu.tma.create.descriptor of a memref (their
// host side); the loads read that memref.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPUEMULATION_TMACOPIES_H
#define FA_LIB_TRANSFORMS_GPUEMULATION_TMACOPIES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::fa {

/// Marks a gpu.barrier that the emulation adds itself to order a phase: in
/// front of an mbarrier wait, or after a warpgroup's matmul exchange. Such
/// a barrier may sit in a branch that whole warpgroups take (the producer
/// and compute roles of a warp-specialized kernel); the thread loop
/// splitter hoists it out of the branch, which a barrier of the kernel's
/// own in a divergent branch would be an error.
constexpr llvm::StringLiteral kModelBarrierAttrName = "fa.model_barrier";

LogicalResult lowerTmaCopiesAndBarriers(Operation *root);

} // namespace mlir::fa

#endif // FA_LIB_TRANSFORMS_GPUEMULATION_TMACOPIES_H
