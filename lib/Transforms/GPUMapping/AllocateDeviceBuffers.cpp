//===- AllocateDeviceBuffers.cpp - the kernels' buffers in device memory --===//
//
// Stage: GPU mapping, after fa-lower-to-gpu. Bufferization gives the host
// function a memref.alloc for each buffer the attention writes (O, the
// logsumexp, the split-KV workspace), which the launches then take: a host
// allocation, which no kernel can dereference, and one that nothing freed
// (every call of an attention function leaked its workspace). Here each
// allocation that only launches use (directly or through memref views)
// moves to device memory, and the ones the function does not return are
// freed after their last use. gpu.launch is synchronous here (no async
// tokens: the GPU-to-LLVM lowering synchronizes the stream after each
// launch), so a gpu.dealloc after the last launch that reads a buffer
// cannot free it early.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAALLOCATEDEVICEBUFFERS
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// How the host function uses an allocation.
struct Uses {
  bool byLaunch = false, returned = false;
  /// The first host op that reads or writes it (null: none).
  Operation *host = nullptr;
  /// The ops of the allocation's block that contain a use.
  SmallVector<Operation *> inBlock;
};

void collectUses(Value buffer, Block *block, Uses &uses) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (Operation *ancestor = block->findAncestorOpInBlock(*user))
      uses.inBlock.push_back(ancestor);
    if (user->getParentOfType<gpu::LaunchOp>()) {
      uses.byLaunch = true;
      continue;
    }
    if (isa<func::ReturnOp>(user)) {
      uses.returned = true;
      continue;
    }
    // A TMA tensor map encodes the buffer's address and shape for the
    // kernels; the host reads none of its data (the backward's L and D
    // workspace, which a kernel writes and the dK/dV kernel's TMA reads).
    // The buffer lives as long as the launches that take the map.
    if (auto map = dyn_cast<nvgpu::TmaCreateDescriptorOp>(user)) {
      for (Operation *mapUser : map->getUsers())
        if (Operation *ancestor = block->findAncestorOpInBlock(*mapUser))
          uses.inBlock.push_back(ancestor);
      continue;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == buffer) {
      for (Value result : user->getResults())
        collectUses(result, block, uses);
      continue;
    }
    if (!uses.host)
      uses.host = user;
  }
}

struct FAAllocateDeviceBuffersPass
    : fa::impl::FAAllocateDeviceBuffersBase<FAAllocateDeviceBuffersPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocations;
    getOperation().walk([&](memref::AllocOp alloc) {
      // Host allocations only: not the kernels' shared tiles.
      if (!alloc->getParentOfType<gpu::LaunchOp>() &&
          !alloc.getType().getMemorySpace())
        allocations.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocations) {
      Uses uses;
      collectUses(alloc.getResult(), alloc->getBlock(), uses);
      if (!uses.byLaunch)
        continue;
      if (uses.host) {
        alloc->emitRemark() << "stays in host memory: host code uses it ("
                            << uses.host->getName() << ")";
        continue;
      }
      OpBuilder b(alloc);
      Location loc = alloc.getLoc();
      // Upstream's gpu-to-llvm lowers only the asynchronous forms: each on
      // a stream of its own, waited for at once (mgpuMemAlloc,
      // mgpuStreamSynchronize).
      Type token = gpu::AsyncTokenType::get(b.getContext());
      Value start =
          gpu::WaitOp::create(b, loc, token, ValueRange{}).getAsyncToken();
      auto device = gpu::AllocOp::create(
          b, loc, alloc.getType(), token, ValueRange{start},
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/UnitAttr());
      gpu::WaitOp::create(b, loc, Type(), ValueRange{device.getAsyncToken()});
      alloc.getResult().replaceAllUsesWith(device.getMemref());
      alloc.erase();
      if (uses.returned)
        continue;
      Operation *last = uses.inBlock.front();
      for (Operation *op : uses.inBlock)
        if (last->isBeforeInBlock(op))
          last = op;
      b.setInsertionPointAfter(last);
      Value before =
          gpu::WaitOp::create(b, loc, token, ValueRange{}).getAsyncToken();
      auto free = gpu::DeallocOp::create(b, loc, token, ValueRange{before},
                                         device.getMemref());
      gpu::WaitOp::create(b, loc, Type(), ValueRange{free.getAsyncToken()});
    }
  }
};

} // namespace
