//===- NamedBarriers.h - bar.sync / bar.arrive with ids on a CPU -*- C++ -*-===//
//
// Part of fa-emulate-threads-on-cpu: the named barriers of a kernel
// (nvvm.barrier with an id and a thread count, bar.sync id, n; and
// nvvm.barrier.arrive, bar.arrive id, n), as PTX defines them: barrier id
// completes a generation once n threads have arrived on it (bar.sync and
// bar.arrive both arrive; a bar.sync thread then waits until the
// generation completes, a bar.arrive thread goes on), and the next n
// arrivals make the next generation.
//
// Such barriers order warpgroups that do not run in lock step: FA-3's
// ping-pong, where one compute warpgroup waits for its turn while the
// other's arrival, half a key block later, hands it over. The emulation
// runs the threads in lock step, which is one interleaving of them but
// not one a wait could force, so the model does not place these waits in
// the emulated schedule. It checks the protocol instead:
//
//  * each thread logs its barrier operations in order (id, count, sync or
//    arrive) while the block runs, in memory beside the block;
//  * when the block's threads are done, a scheduler replays the logs, as
//    the hardware would: a thread whose next operation is not a bar.sync
//    still waiting goes on; a bar.sync waits until its generation
//    completes. It runs until no thread can go on;
//  * a thread left waiting is a kernel that hangs on the GPU: reported
//    (thread, barrier, its arrivals so far) on stderr, exit status 1. So
//    are: a count that is not a multiple of 32 or exceeds the block, ids
//    outside 1..15 (0 is the block-wide barrier gpu.barrier uses), threads
//    of one generation that disagree on its count, lanes of a warp whose
//    logs differ (bar is executed per warp), and a log past its capacity.
// Arrivals left over when the block ends (a last turn handed to nobody)
// are not an error: no thread waits for them.
//
// The barriers carry no data here: the lock-step phases the emulation
// runs order memory at least as strongly. A kernel that relied on a named
// barrier to publish shared memory would be checked for its protocol only.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPUEMULATION_NAMEDBARRIERS_H
#define FA_LIB_TRANSFORMS_GPUEMULATION_NAMEDBARRIERS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::fa {

/// Operations a thread of an emulated block may log (see above); more are
/// reported.
constexpr int64_t kNamedBarrierLogCapacity = 4096;

/// Rewrites the named barriers in the thread loops under `root` (a module)
/// into logs and, after each loop, the replay that checks them.
LogicalResult lowerNamedBarriers(Operation *root);

} // namespace mlir::fa

#endif // FA_LIB_TRANSFORMS_GPUEMULATION_NAMEDBARRIERS_H
