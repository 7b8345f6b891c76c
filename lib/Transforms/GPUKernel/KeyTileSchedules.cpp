//===- KeyTileSchedules.cpp - How K and V tiles reach shared memory -------===//
//
// Stage: GPU kernel. The copy schedules of the forward kernel's key loop
// (KeyTileSchedule in KernelBuilder.h), one class each: synchronous copies,
// cp.async prefetch a block ahead, and FlashAttention-2's order for the
// register-fragment kernel. The TMA producer's schedule is in
// TmaProducer.cpp. What they share: the walk over the visible key blocks
// (an unmasked loop before a masked one where no band applies; under a
// causal or window band, from the last block: a masked loop over the
// diagonal's blocks, an unmasked one, and with a window a masked one over
// the blocks its left edge crosses), the ring buffer a block uses, and the
// commit groups of its copies.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::fa::gpu_kernel {

KeyTileSchedule::KeyTileSchedule(KernelBuilder &kernel,
                                 const KernelBuilder::QueryBlock &block,
                                 const KernelBuilder::SharedTiles &tiles,
                                 const KernelBuilder::KeyBlocks &keys,
                                 const KernelBuilder::ThreadRow &self)
    : kernel(kernel), b(kernel.b), block(block), tiles(tiles), keys(keys),
      self(self) {
  IndexMath math{b, kernel.loc};
  lastKey = math.addConstant(kernel.tensorKeyLen, -1);
  // The TMA producer's overlapped walk reverses on its own
  // (TmaProducerSchedule::walkOverlapped).
  fromLast = keys.band && !kernel.plan.tmaProducer;
  if (fromLast)
    bounds = boundsFromLast();
}

// The walk's bounds, the same in every thread: computed in front of the
// thread loop, as every loop with barriers needs (the CPU model checks).
KeyTileSchedule::BoundsFromLast KeyTileSchedule::boundsFromLast() {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(
      cast<BlockArgument>(self.thread).getOwner()->getParentOp());
  IndexMath outside{b, kernel.loc};
  Value first = keys.firstBlockStart;
  Value blockKV = outside.constant(kernel.plan.tiling.blockKV);
  Value blocks = outside.ceilDiv(
      outside.max(outside.sub(keys.keyEnd, first), outside.constant(0)),
      blockKV);
  BoundsFromLast walk;
  walk.lastBlockStart =
      outside.add(first, outside.mul(outside.addConstant(blocks, -1), blockKV));
  walk.positionEnd = outside.add(walk.lastBlockStart, blockKV);
  // The blocks from unmaskedEnd on (the diagonal's and the sequence's last)
  // are the first walked, those before unmaskedBegin (a window's left
  // edge's) the last. Both lie on the block grid between first and the
  // last block's end, so the positions do too.
  auto positionOf = [&](Value keyBoundary) {
    return outside.add(first, outside.sub(walk.positionEnd, keyBoundary));
  };
  if (keys.unmaskedEnd)
    walk.unmaskedFrom = positionOf(keys.unmaskedEnd);
  if (keys.unmaskedBegin)
    walk.maskedAgainFrom = positionOf(keys.unmaskedBegin);
  return walk;
}

Value KeyTileSchedule::stageOf(IndexMath &math, Value start) {
  if (kernel.plan.stages == 1)
    return self.zero;
  Value offset = fromLast ? math.sub(bounds.lastBlockStart, start)
                          : math.sub(start, keys.firstBlockStart);
  Value index = math.divU(offset, self.keyStep);
  return math.remU(index, math.constant(kernel.plan.stages));
}

// Reversed with no visible block, lastBlockStart lies a block before the
// first (below key 0 where that is 0): a prologue's copy of it reads from
// the first instead (no rows of it are valid either way).
Value KeyTileSchedule::firstWalked() {
  if (!fromLast)
    return keys.firstBlockStart;
  IndexMath math{b, kernel.loc};
  return math.max(bounds.lastBlockStart, keys.firstBlockStart);
}

Value KeyTileSchedule::nextWalked(IndexMath &math, Value start) {
  return fromLast ? math.sub(start, self.keyStep)
                  : math.add(start, self.keyStep);
}

// Signed compares: walked backwards, the block after the first visible one
// starts before it, at a negative key when that is key 0.
Value KeyTileSchedule::walked(IndexMath &math, Value start) {
  return fromLast ? math.andI(math.le(keys.firstBlockStart, start),
                              math.lt(start, keys.keyEnd))
                  : math.lt(start, keys.keyEnd);
}

Value KeyTileSchedule::validKeyRows(IndexMath &math, Value start) {
  Value visible = walked(math, start);
  Value rowsLeft = math.min(self.keyStep, math.sub(kernel.keyLen, start));
  return arith::SelectOp::create(b, kernel.loc, visible, rowsLeft,
                                 math.constant(0))
      .getResult();
}

Value KeyTileSchedule::requestTiles(IndexMath &math, Value start, Value stage,
                                    bool keyTile, bool valueTile) {
  // Blocks of whole keys need no clamps or zero fill.
  auto keyRows = [&]() -> Value {
    return kernel.wholeKeyBlocks() ? Value() : validKeyRows(math, start);
  };
  SmallVector<Value> tokens;
  if (keyTile)
    tokens.append(
        kernel.copyTileAsync(kernel.key, block.batch, block.kvHead, start,
                             keyRows(), lastKey, kernel.plan.tiling.blockKV,
                             kernel.headDim, tiles.key, stage, self.thread));
  if (valueTile)
    tokens.append(
        kernel.copyTileAsync(kernel.value, block.batch, block.kvHead, start,
                             keyRows(), lastKey, kernel.plan.tiling.blockKV,
                             kernel.valueDim, tiles.value, stage, self.thread));
  return nvgpu::DeviceAsyncCreateGroupOp::create(
      b, kernel.loc, nvgpu::DeviceAsyncTokenType::get(kernel.ctx), tokens);
}

// PTX allows empty groups; every thread commits the same number, so the
// wait counts stay uniform.
Value KeyTileSchedule::requestTilesIfVisible(IndexMath &math, Value start,
                                             Value stage, bool keyTile,
                                             bool valueTile) {
  Location loc = kernel.loc;
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(kernel.ctx);
  auto branch =
      scf::IfOp::create(b, loc, TypeRange{tokenType}, walked(math, start),
                        /*addThenBlock=*/true, /*addElseBlock=*/true);
  OpBuilder::InsertionGuard ifGuard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  IndexMath thenMath{b, loc};
  scf::YieldOp::create(
      b, loc, requestTiles(thenMath, start, stage, keyTile, valueTile));
  b.setInsertionPointToStart(branch.elseBlock());
  scf::YieldOp::create(b, loc,
                       ValueRange{nvgpu::DeviceAsyncCreateGroupOp::create(
                           b, loc, tokenType, ValueRange{})});
  return branch.getResult(0);
}

SmallVector<Value> KeyTileSchedule::computeCopiedBlock(Location loc, Value col0,
                                                       Value stage,
                                                       KernelVariant &variant,
                                                       ValueRange state,
                                                       bool release) {
  gpu::BarrierOp::create(b, loc);
  KeyBlockAt at{loc, col0, stage};
  SmallVector<Value> scores = variant.scores(at);
  SmallVector<Value> next = variant.fold(at, scores, state);
  if (release && !variant.endsWithBarrier())
    gpu::BarrierOp::create(b, loc);
  return next;
}

// Key blocks that every row of the query block sees whole run in a loop of
// their own without element masks, as in FlashAttention-2; the block with
// the sequence's last keys (when blocks do not divide them) keeps them.
// Under a causal or window band (KernelPlan::splitBandWalk) the walk goes
// from the last block to the first: the diagonal's blocks first in a masked
// loop, then those every row sees whole in an unmasked one, which holds no
// mask state, then (a window) those its left edge crosses, masked. (Walked
// forward, a loop of unmasked blocks before a loop of the band's blocks
// saved a quarter of the causal main loop's instructions but spilled at
// the tiles the model picks: the band's bases stayed live through the
// first loop; docs/GPU.md.) With an explicit mask, one loop masks every
// block.
SmallVector<Value> KeyTileSchedule::walk(KernelVariant &variant,
                                         ValueRange init) {
  prologue();
  Location loc = kernel.loc;
  Value first = keys.firstBlockStart;
  auto keyLoop = [&](Value from, Value to, ValueRange loopInit,
                     ElementMasks masks) {
    kernel.elementMasks = masks;
    auto loop = scf::ForOp::create(
        b, loc, from, to, self.keyStep, loopInit,
        [&](OpBuilder &lb, Location lloc, Value position, ValueRange state) {
          OpBuilder::InsertionGuard loopGuard(b);
          b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
          IndexMath math{b, lloc};
          // Reversed, position first + i * block_kv walks the block i
          // blocks before the last.
          Value col0 = fromLast ? math.sub(bounds.lastBlockStart,
                                           math.sub(position, first))
                                : position;
          Value stage = stageOf(math, col0);
          scf::YieldOp::create(
              b, lloc, keyBlock(math, lloc, col0, stage, variant, state));
        });
    kernel.elementMasks = ElementMasks::all;
    return SmallVector<Value>(loop.getResults());
  };
  if (fromLast) {
    SmallVector<Value> state =
        keyLoop(first, bounds.unmaskedFrom, init, ElementMasks::all);
    if (!bounds.maskedAgainFrom)
      return keyLoop(bounds.unmaskedFrom, bounds.positionEnd, state,
                     ElementMasks::none);
    state = keyLoop(bounds.unmaskedFrom, bounds.maskedAgainFrom, state,
                    ElementMasks::none);
    return keyLoop(bounds.maskedAgainFrom, bounds.positionEnd, state,
                   ElementMasks::windowLeftEdge);
  }
  if (!keys.unmaskedEnd || keys.band)
    return keyLoop(keys.firstBlockStart, keys.keyEnd, init, ElementMasks::all);
  SmallVector<Value> state =
      keyLoop(keys.firstBlockStart, keys.unmaskedEnd, init, ElementMasks::none);
  if (!kernel.wholeKeyBlocks())
    state = keyLoop(keys.unmaskedEnd, keys.keyEnd, state, ElementMasks::all);
  return state;
}

namespace {

void waitForGroup(OpBuilder &b, Location loc, Value group) {
  nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(0));
}

/// Each block copies its own tiles (every thread its share, synchronous
/// loads and stores), then a barrier. With one stage the next block's
/// copies overwrite this block's tiles: a barrier after the block's last
/// read first.
class SynchronousSchedule : public KeyTileSchedule {
public:
  using KeyTileSchedule::KeyTileSchedule;

protected:
  SmallVector<Value> keyBlock(IndexMath &math, Location loc, Value col0,
                              Value stage, KernelVariant &variant,
                              ValueRange state) override {
    Value cols = math.min(self.keyStep, math.sub(kernel.keyLen, col0));
    kernel.copyTile(kernel.key, block.batch, block.kvHead, col0, cols,
                    kernel.plan.tiling.blockKV, kernel.headDim, tiles.key,
                    stage, self.thread);
    kernel.copyTile(kernel.value, block.batch, block.kvHead, col0, cols,
                    kernel.plan.tiling.blockKV, kernel.valueDim, tiles.value,
                    stage, self.thread);
    return computeCopiedBlock(loc, col0, stage, variant, state,
                              /*release=*/kernel.plan.stages == 1);
  }
};

/// cp.async a block ahead: the first block's tiles before the loop; in
/// block i, block i + 1's tiles into the next buffer (zero rows past the
/// last block), then a wait for all but that group, so block i has landed.
/// A barrier after the block's last read: the next iteration fills the
/// buffer read one block ago.
class PrefetchSchedule : public KeyTileSchedule {
public:
  using KeyTileSchedule::KeyTileSchedule;

protected:
  void prologue() override {
    IndexMath math{b, kernel.loc};
    Value first = firstWalked();
    SmallVector<Value> tokens = kernel.copyTileAsync(
        kernel.key, block.batch, block.kvHead, first, validKeyRows(math, first),
        lastKey, kernel.plan.tiling.blockKV, kernel.headDim, tiles.key,
        self.zero, self.thread);
    tokens.append(kernel.copyTileAsync(
        kernel.value, block.batch, block.kvHead, first,
        validKeyRows(math, first), lastKey, kernel.plan.tiling.blockKV,
        kernel.valueDim, tiles.value, self.zero, self.thread));
    nvgpu::DeviceAsyncCreateGroupOp::create(
        b, kernel.loc, nvgpu::DeviceAsyncTokenType::get(kernel.ctx), tokens);
  }

  SmallVector<Value> keyBlock(IndexMath &math, Location loc, Value col0,
                              Value stage, KernelVariant &variant,
                              ValueRange state) override {
    Value next = nextWalked(math, col0);
    Value nextStage = stageOf(math, next);
    Value group;
    if (fromLast) {
      // Past the first block the keys would be negative: no copy at all.
      group = requestTilesIfVisible(math, next, nextStage, true, true);
    } else {
      Value validNext = validKeyRows(math, next);
      SmallVector<Value> tokens = kernel.copyTileAsync(
          kernel.key, block.batch, block.kvHead, next, validNext, lastKey,
          kernel.plan.tiling.blockKV, kernel.headDim, tiles.key, nextStage,
          self.thread);
      tokens.append(kernel.copyTileAsync(
          kernel.value, block.batch, block.kvHead, next, validNext, lastKey,
          kernel.plan.tiling.blockKV, kernel.valueDim, tiles.value, nextStage,
          self.thread));
      group = nvgpu::DeviceAsyncCreateGroupOp::create(
          b, loc, nvgpu::DeviceAsyncTokenType::get(kernel.ctx), tokens);
    }
    nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(1));
    return computeCopiedBlock(loc, col0, stage, variant, state,
                              /*release=*/true);
  }
};

/// FlashAttention-2's order, for the register-fragment kernel with
/// cp.async: the block whose own K (and V with two buffers) has landed.
/// With one buffer, K and V are separate groups: V is requested before
/// S = Q K^T and the next K before the softmax.
class FragmentOrderSchedule : public KeyTileSchedule {
public:
  FragmentOrderSchedule(KernelBuilder &kernel,
                        const KernelBuilder::QueryBlock &block,
                        const KernelBuilder::SharedTiles &tiles,
                        const KernelBuilder::KeyBlocks &keys,
                        const KernelBuilder::ThreadRow &self)
      : KeyTileSchedule(kernel, block, tiles, keys, self),
        splitGroups(kernel.plan.stages == 1) {}

protected:
  /// The first block's K (and V): waited for here, which is where the
  /// first iteration would wait. Blocks past the visible keys are not
  /// fetched (a uniform branch).
  void prologue() override {
    IndexMath math{b, kernel.loc};
    waitForGroup(b, kernel.loc,
                 requestTilesIfVisible(math, firstWalked(), self.zero, true,
                                       !splitGroups));
  }

  SmallVector<Value> keyBlock(IndexMath &math, Location loc, Value col0,
                              Value stage, KernelVariant &variant,
                              ValueRange state) override {
    assert(variant.readsKeysOnlyInScores() &&
           "FlashAttention-2's copy order refills K_s between the steps");
    Value next = nextWalked(math, col0);
    // Every warp sees the landed tiles and is done with the buffers that
    // the requests below fill.
    gpu::BarrierOp::create(b, loc);
    Value pending;
    if (splitGroups) {
      pending = requestTiles(math, col0, stage, false, true);
    } else {
      Value nextStage = stageOf(math, next);
      pending = requestTilesIfVisible(math, next, nextStage, true, true);
    }
    KeyBlockAt at{loc, col0, stage};
    SmallVector<Value> scores = variant.scores(at);
    if (splitGroups) {
      // V has landed; every warp is done with K_s, which the next block's K
      // then fills while this block's softmax and P V run.
      waitForGroup(b, loc, pending);
      gpu::BarrierOp::create(b, loc);
      pending = requestTilesIfVisible(math, next, stage, true, false);
    }
    SmallVector<Value> nextState = variant.fold(at, scores, state);
    waitForGroup(b, loc, pending);
    return nextState;
  }

private:
  /// One buffer: K's and V's copies in separate groups.
  bool splitGroups;
};

} // namespace

std::unique_ptr<KeyTileSchedule>
makeKeyTileSchedule(KernelBuilder &kernel,
                    const KernelBuilder::QueryBlock &block,
                    const KernelBuilder::SharedTiles &tiles,
                    const KernelBuilder::KeyBlocks &keys,
                    const KernelBuilder::ThreadRow &self) {
  const KernelPlan &plan = kernel.plan;
  if (plan.tmaProducer)
    return makeTmaProducerSchedule(kernel, block, tiles, keys, self);
  if (plan.registerFragments && plan.asyncCopies)
    return std::make_unique<FragmentOrderSchedule>(kernel, block, tiles, keys,
                                                   self);
  if (plan.asyncCopies)
    return std::make_unique<PrefetchSchedule>(kernel, block, tiles, keys, self);
  return std::make_unique<SynchronousSchedule>(kernel, block, tiles, keys,
                                               self);
}

} // namespace mlir::fa::gpu_kernel
