//===- LowerToGPU.cpp - Map the distributed kernel onto gpu.launch --------===//
//
// Stage: GPU mapping. Turns the kernel form of fa-distribute-attention into
// gpu.launch, reading the schedule from the scf.forall mapping attributes:
//
//   * the #gpu.block<x/y/z> loop becomes the grid; its induction variables
//     become gpu.block_id;
//   * each #gpu.thread<x> loop inside becomes straight-line code over
//     gpu.thread_id x, with the block size the largest thread count (a
//     smaller loop is guarded by `thread_id < count`);
//   * the workgroup-memory tiles (memref.alloc in #gpu.address_space<
//     workgroup>) become the launch's workgroup attributions (static shared
//     memory) when they fit in 48 KB, else views into
//     gpu.dynamic_shared_memory with the launch's dynamic size set: CUDA
//     allows no more than 48 KB of static shared memory per block.
//
// Upstream's transform ops (gpu.map_forall_to_blocks and
// map_nested_forall_to_threads) do the same for static grids; the grid here
// depends on B, H and Nq, which may be dynamic, so the mapping is done here,
// with the same attributes as its contract. Outlining, NVVM and PTX are
// upstream's (fa-gpu-pipeline).
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FALOWERTOGPU
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// CUDA's limit on static shared memory per block.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
/// Alignment of each tile inside dynamic shared memory.
constexpr int64_t kSharedAlignment = 16;

std::optional<gpu::MappingId> blockMappingId(Attribute attr) {
  if (auto block = dyn_cast<gpu::GPUBlockMappingAttr>(attr))
    return block.getBlock();
  return std::nullopt;
}

bool isBlockLoop(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && !mapping->empty() &&
         llvm::all_of(*mapping, [](Attribute attr) {
           return blockMappingId(attr).has_value();
         });
}

bool isThreadLoop(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && mapping->size() == 1 &&
         isa<gpu::GPUThreadMappingAttr>((*mapping)[0]) &&
         cast<gpu::GPUThreadMappingAttr>((*mapping)[0]).getThread() ==
             gpu::MappingId::DimX;
}

bool isWorkgroupAlloc(Operation *op) {
  auto alloc = dyn_cast<memref::AllocOp>(op);
  if (!alloc)
    return false;
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(alloc.getType().getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

int64_t sizeInBytes(MemRefType type) {
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

LogicalResult mapBlockLoop(scf::ForallOp grid, bool staticBuffers) {
  if (!grid.getOutputs().empty())
    return grid.emitOpError() << "mapped to blocks must not have shared "
                                 "outputs (bufferize first)";
  for (auto [lower, step] :
       llvm::zip(grid.getMixedLowerBound(), grid.getMixedStep()))
    if (!isConstantIntValue(lower, 0) || !isConstantIntValue(step, 1))
      return grid.emitOpError()
             << "mapped to blocks must count from 0 in steps of 1";

  // With the bare-pointer kernel ABI a kernel parameter is only a pointer,
  // so the buffers the kernel reads and writes need static shapes.
  if (staticBuffers) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(grid.getRegion(), captured);
    for (Value value : captured)
      if (auto type = dyn_cast<MemRefType>(value.getType());
          type && !type.hasStaticShape())
        return grid.emitOpError()
               << "uses a buffer of dynamic shape " << type
               << "; the bare-pointer kernel ABI passes only its address, so "
                  "compile dynamic shapes with static-buffers=false "
                  "(fa-gpu-pipeline: bare-pointers=false)";
  }

  // Thread loops and shared tiles of this block.
  SmallVector<scf::ForallOp> threadLoops;
  WalkResult walk =
      grid.getBody()->walk<WalkOrder::PreOrder>([&](scf::ForallOp inner) {
        if (!isThreadLoop(inner)) {
          inner.emitOpError() << "inside a block-mapped loop must be mapped to "
                                 "#gpu.thread<x>";
          return WalkResult::interrupt();
        }
        if (!getConstantIntValue(inner.getMixedUpperBound()[0]) ||
            !isConstantIntValue(inner.getMixedLowerBound()[0], 0) ||
            !isConstantIntValue(inner.getMixedStep()[0], 1)) {
          inner.emitOpError()
              << "mapped to threads needs a static thread count, "
                 "counted from 0 in steps of 1";
          return WalkResult::interrupt();
        }
        threadLoops.push_back(inner);
        return WalkResult::skip();
      });
  if (walk.wasInterrupted())
    return failure();
  int64_t blockSize = 1;
  for (scf::ForallOp loop : threadLoops)
    blockSize =
        std::max(blockSize, *getConstantIntValue(loop.getMixedUpperBound()[0]));
  // A smaller thread loop runs under `thread_id < count`: a barrier in it
  // would be reached by only part of the block, which hangs on a GPU.
  for (scf::ForallOp loop : threadLoops) {
    int64_t count = *getConstantIntValue(loop.getMixedUpperBound()[0]);
    if (count == blockSize)
      continue;
    WalkResult barrier = loop.walk([](gpu::BarrierOp) {
      return WalkResult::interrupt();
    });
    if (barrier.wasInterrupted())
      return loop.emitOpError()
             << "runs " << count << " threads of a " << blockSize
             << "-thread block but contains a gpu.barrier, which every "
                "thread of the block must reach";
  }

  SmallVector<memref::AllocOp> tiles;
  for (Operation &op : grid.getBody()->without_terminator())
    if (isWorkgroupAlloc(&op))
      tiles.push_back(cast<memref::AllocOp>(op));
  int64_t sharedBytes = 0;
  for (memref::AllocOp tile : tiles) {
    if (!tile.getType().hasStaticShape())
      return tile.emitOpError() << "in workgroup memory needs a static shape";
    sharedBytes = llvm::alignTo(sharedBytes, kSharedAlignment) +
                  sizeInBytes(tile.getType());
  }
  bool dynamicShared = sharedBytes > kMaxStaticSharedBytes;

  OpBuilder b(grid);
  Location loc = grid.getLoc();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value gridSize[3] = {one, one, one};
  ArrayAttr mapping = *grid.getMapping();
  for (auto [attr, size] : llvm::zip(mapping, grid.getMixedUpperBound())) {
    auto id = static_cast<unsigned>(*blockMappingId(attr));
    if (id > 2)
      return grid.emitOpError() << "maps to a block dimension beyond z";
    gridSize[id] = getValueOrCreateConstantIndexOp(b, loc, size);
  }
  Value blockX = arith::ConstantIndexOp::create(b, loc, blockSize);
  Value dynamicSize;
  if (dynamicShared)
    dynamicSize =
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), sharedBytes);
  SmallVector<Type> attributions;
  if (!dynamicShared)
    for (memref::AllocOp tile : tiles)
      attributions.push_back(tile.getType());
  auto launch = gpu::LaunchOp::create(b, loc, gridSize[0], gridSize[1],
                                      gridSize[2], blockX, one, one,
                                      dynamicSize, /*asyncTokenType=*/nullptr,
                                      /*asyncDependencies=*/{}, attributions);
  Block &body = launch.getBody().front();
  OpBuilder inner(&body, body.end());
  auto terminator = gpu::TerminatorOp::create(inner, loc);

  // The block's code runs in every thread of the block.
  for (Operation &op :
       llvm::make_early_inc_range(grid.getBody()->without_terminator()))
    op.moveBefore(terminator);
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  Value blockId[3] = {blockIds.x, blockIds.y, blockIds.z};
  for (auto [attr, iv] : llvm::zip(mapping, grid.getInductionVars()))
    iv.replaceAllUsesWith(
        blockId[static_cast<unsigned>(*blockMappingId(attr))]);

  // Shared tiles.
  if (dynamicShared) {
    inner.setInsertionPointToStart(&body);
    auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                                gpu::AddressSpace::Workgroup);
    Value base = gpu::DynamicSharedMemoryOp::create(
        inner, loc,
        MemRefType::get({ShapedType::kDynamic}, inner.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
    int64_t offset = 0;
    for (memref::AllocOp tile : tiles) {
      offset = llvm::alignTo(offset, kSharedAlignment);
      Value offsetValue = arith::ConstantIndexOp::create(inner, loc, offset);
      Value view = memref::ViewOp::create(inner, loc, tile.getType(), base,
                                          offsetValue, ValueRange{});
      offset += sizeInBytes(tile.getType());
      tile.replaceAllUsesWith(view);
    }
    // Erased last: the builder inserts in front of the first of them.
    for (memref::AllocOp tile : tiles)
      tile.erase();
  } else {
    for (auto [tile, attribution] :
         llvm::zip(tiles, launch.getWorkgroupAttributions())) {
      tile.replaceAllUsesWith(attribution);
      tile.erase();
    }
  }

  // Thread loops: their body runs once per thread, at thread_id x.
  Value threadId = launch.getThreadIds().x;
  for (scf::ForallOp loop : threadLoops) {
    OpBuilder lb(loop);
    int64_t count = *getConstantIntValue(loop.getMixedUpperBound()[0]);
    Operation *anchor = loop;
    if (count < blockSize) {
      Value countValue = arith::ConstantIndexOp::create(lb, loc, count);
      Value active = arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ult,
                                           threadId, countValue);
      auto guard = scf::IfOp::create(lb, loc, active, false);
      anchor = guard.thenBlock()->getTerminator();
    }
    for (Operation &op :
         llvm::make_early_inc_range(loop.getBody()->without_terminator()))
      op.moveBefore(anchor);
    loop.getInductionVar(0).replaceAllUsesWith(threadId);
    loop.erase();
  }
  grid.erase();
  return success();
}

struct FALowerToGPUPass : fa::impl::FALowerToGPUBase<FALowerToGPUPass> {
  using FALowerToGPUBase::FALowerToGPUBase;

  void runOnOperation() override {
    SmallVector<scf::ForallOp> grids;
    getOperation()->walk([&](scf::ForallOp forall) {
      if (isBlockLoop(forall))
        grids.push_back(forall);
    });
    for (scf::ForallOp grid : grids) {
      if (grid->getParentOfType<gpu::LaunchOp>() ||
          grid->getParentOfType<scf::ForallOp>()) {
        grid.emitOpError() << "mapped to blocks must not be nested in "
                              "another parallel loop";
        return signalPassFailure();
      }
      if (failed(mapBlockLoop(grid, staticBuffers)))
        return signalPassFailure();
    }
  }
};

} // namespace
