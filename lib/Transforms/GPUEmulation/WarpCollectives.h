//===- WarpCollectives.h - Warp-wide ops emulated lane by lane -----------===//
//
// Part of fa-emulate-threads-on-cpu: nvgpu.ldmatrix, nvgpu.mma.sync
// (m16n8k16, f16 or bf16 into f32) and gpu.shuffle xor exchange data
// between the 32 lanes of a warp. On a CPU each emulated thread holds only
// its own registers, so these ops become an exchange through memory: each
// lane stores what it contributes (its row address, its fragments, its
// value) in its own slot, a barrier follows, and each lane then computes
// exactly the elements PTX gives that lane, reading the slots of the lanes
// that hold them. A wrong lane mapping in the kernel therefore gives wrong
// numbers here, as it would on the GPU.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPU_WARPCOLLECTIVES_H
#define FA_LIB_TRANSFORMS_GPU_WARPCOLLECTIVES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::fa {

/// Lanes per warp.
constexpr int64_t kWarpLanes = 32;

/// Marks the gpu.barrier a wave of collectives adds: it orders the lanes of
/// each warp only (a collective is warp-synchronous), so the thread loop
/// splitter runs the intervals it separates warp by warp.
constexpr llvm::StringLiteral kWarpBarrierAttrName = "fa.warp_barrier";

/// Marks the scf.for over warps that the splitter makes of such intervals
/// (thread-order permutes its warps as it permutes threads).
constexpr llvm::StringLiteral kWarpLoopAttrName = "fa.warp_loop";

/// Whether `op` may sit between two members of one wave (of warp
/// collectives, or of warpgroup matmuls): it neither writes, allocates nor
/// frees memory and holds no regions (whose effects are not looked into).
bool mayJoinWave(Operation *op);

/// Rewrites every warp collective under `root` into per-lane stores, a
/// gpu.barrier and the lane's own computation. Collectives that are
/// independent of one another share one barrier (a wave), so a matmul of
/// many mma.syncs costs one barrier, not one each. Collectives outside a
/// 1-D thread loop of whole warps, or nested deeper than the barriers the
/// loop splitter handles, are reported.
LogicalResult lowerWarpCollectives(Operation *root);

} // namespace mlir::fa

#endif // FA_LIB_TRANSFORMS_GPU_WARPCOLLECTIVES_H
