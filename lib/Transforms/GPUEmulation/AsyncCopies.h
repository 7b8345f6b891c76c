//===- AsyncCopies.h - cp.async landing at its wait_group on a CPU --------===//
//
// Part of fa-emulate-threads-on-cpu. On the GPU a cp.async copy
// (nvgpu.device_async_copy) writes its destination at some moment between
// its issue and the cp.async.wait_group that retires its group; until then
// the destination holds nothing defined. A CPU model that copied at issue
// would hide a missing or too lenient wait. Here each emulated thread keeps
// its own queue of pending copies instead:
//
//   copy      the source is read (masked as cp.async fills: zeros past the
//             source elements) into the thread's queue, with the
//             destination indices and the group it will join; the
//             destination is poisoned (NaN for floats) at once.
//   commit    the thread's count of committed groups goes up by one.
//   wait N    every pending copy of a group older than the newest N
//             committed groups is written to its destination now.
//
// So data lands exactly as late as PTX allows, and a read before its wait
// sees NaN. Copies never waited for never land, as a kernel may leave its
// last prefetch pending.
//
// A copy's source is checked at issue: a read past the source's bounds
// (which on a GPU faults or returns another tensor's data) is reported on
// stderr and ends the program (RuntimeReport.h).
//
// A copy's source is checked at issue: a read past the source's bounds
// (which on a GPU faults or returns another tensor's data) is reported on
// stderr and ends the program (RuntimeReport.h).
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPU_ASYNCCOPIES_H
#define FA_LIB_TRANSFORMS_GPU_ASYNCCOPIES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::fa {

/// Rewrites the cp.async copies, groups and waits under `root` as above.
/// Copies in a thread-mapped scf.forall get per-thread queues; the queue of
/// a copy holds (copies per group) x (largest wait count + 2) entries, the
/// copies per group being the trip counts of the loops around the copy that
/// commit no group (they must be constant; otherwise this is reported).
/// A full queue lands its oldest entry first (earlier than the wait, which
/// PTX also allows). Copies outside a thread loop land at issue.
/// With `checkSources` (`root` must then be a module), each copy that reads
/// any element first checks that what it reads lies in its source, and
/// reports the copy and ends the program where it does not.
LogicalResult lowerAsyncCopies(Operation *root, bool checkSources);

} // namespace mlir::fa

#endif // FA_LIB_TRANSFORMS_GPU_ASYNCCOPIES_H
