//===- TmaProducer.cpp - Q, K and V by TMA from a producer warpgroup -----===//
//
// The wgmma kernel (WarpgroupMmaKernel.cpp) with FlashAttention-3's loads:
// one producer warpgroup, the block's last 128 threads, moves every tile
// with TMA (nvgpu.tma.async.load, cp.async.bulk.tensor), and the compute
// warpgroups only wait on mbarriers and compute (warp specialization). One
// elected producer thread issues; the rest of its warpgroup idles, which
// is what lets it give its registers away on the GPU (setmaxnreg, at the
// GPU mapping).
//
// The K/V ring has `stages` buffers. Stage s has three mbarriers:
//   full_K[s], full_V[s]  count 1: the producer's arrive.expect_tx with the
//                         tile's bytes; the TMA loads complete the bytes;
//   empty[s]              count = compute threads: each arrives once it is
//                         done with the stage's K and V.
// Key block i uses stage s = i mod stages in round r = i / stages:
//   producer: wait empty[s] for parity (r + 1) mod 2 (the first round passes:
//             a barrier's phase before its first is complete), expect_tx
//             and load K, then V;
//   compute:  wait full_K[s] for parity r mod 2, S = Q K^T; wait full_V[s],
//             softmax and O += P V; arrive on empty[s].
// Q has its own barrier, loaded once before the key loop.
//
// The key loop is one loop that both roles walk, each doing only its own
// part (scf.if on the role): on the GPU the roles are different warps, so
// the producer runs up to `stages` blocks ahead, bounded only by the
// empty barriers; on a CPU (fa-emulate-threads-on-cpu) every wait is a
// phase boundary of the lock-step emulation, where it also checks that
// the wait would complete. The GPU mapping (fa-specialize-warpgroups)
// gives each role a loop of its own before register allocation.
//
// TMA boxes are [1, 1, rows, 64] elements of 2 bytes: one 128-byte swizzle
// row, what the column blocks of the wgmma tiles hold (one load per column
// block, at element rows * 64 * block of the tile). The 128-byte swizzle
// and 1024-byte aligned tiles make TMA's layout the one wgmma's
// descriptors read. Rows past a tensor arrive as zeros, and the scores of
// keys past it are masked, as in the cp.async kernels.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"
#include "fa/Transforms/GPUKernel/WarpgroupLayout.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

namespace mlir::fa::gpu_kernel {

namespace {

/// Elements of one column block's row: one 128-byte swizzle row of 2-byte
/// elements.
constexpr int64_t kBoxColumns = kSwizzle128RowBytes / 2;
/// How long a try_wait suspends before it tries again (a hint, in ns).
constexpr int64_t kWaitTicks = 10000000;

/// Where the barriers of the group are: Q's, then full_K, full_V and empty
/// of each stage.
struct TmaBarriers {
  int64_t stages;
  int64_t count() const { return 1 + 3 * stages; }
  static int64_t query() { return 0; }
  Value keyFull(IndexMath &math, Value stage) const {
    return math.addConstant(stage, 1);
  }
  Value valueFull(IndexMath &math, Value stage) const {
    return math.addConstant(stage, 1 + stages);
  }
  Value empty(IndexMath &math, Value stage) const {
    return math.addConstant(stage, 1 + 2 * stages);
  }
};

nvgpu::TensorMapDescriptorType tensorMapType(MLIRContext *ctx, int64_t rows,
                                             Type type) {
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto box = MemRefType::get({1, 1, rows, kBoxColumns}, type,
                             MemRefLayoutAttrInterface(), workgroup);
  return nvgpu::TensorMapDescriptorType::get(
      ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

} // namespace

int64_t KernelBuilder::computeThreads() const {
  return threads - (tmaProducer ? kWarpgroupThreads : 0);
}

void KernelBuilder::createTensorMaps() {
  auto mapOf = [&](Value buffer, int64_t rows) {
    auto type = cast<MemRefType>(buffer.getType());
    Value unranked = memref::CastOp::create(
        b, loc, UnrankedMemRefType::get(type.getElementType(), Attribute()),
        buffer);
    IndexMath math{b, loc};
    SmallVector<Value> box = {math.constant(1), math.constant(1),
                              math.constant(rows), math.constant(kBoxColumns)};
    return nvgpu::TmaCreateDescriptorOp::create(
               b, loc, tensorMapType(ctx, rows, type.getElementType()),
               unranked, box)
        .getResult();
  };
  queryMap = mapOf(query, blockQ);
  keyMap = mapOf(key, blockKV);
  valueMap = mapOf(value, blockKV);
}

void KernelBuilder::createBarriers() {
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  TmaBarriers layout{stages};
  barriers = nvgpu::MBarrierCreateOp::create(
      b, loc, nvgpu::MBarrierGroupType::get(ctx, workgroup, layout.count()));
}

// Marked, for fa-specialize-warpgroups to version the kernel on.
Value KernelBuilder::isComputeThread(Value thread) {
  IndexMath math{b, loc};
  Value compute = math.lt(thread, math.constant(computeThreads()));
  compute.getDefiningOp()->setAttr(kWarpgroupRoleAttrName,
                                   b.getStringAttr(kComputeRole));
  return compute;
}

Value KernelBuilder::isProducerLeader(Value thread) {
  IndexMath math{b, loc};
  Value leader = math.eq(thread, math.constant(computeThreads()));
  leader.getDefiningOp()->setAttr(kWarpgroupRoleAttrName,
                                  b.getStringAttr(kProducerLeaderRole));
  return leader;
}

Value KernelBuilder::flatTile(Value tile, Value thread) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(cast<BlockArgument>(thread).getOwner()->getParentOp());
  auto type = cast<MemRefType>(tile.getType());
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return memref::CollapseShapeOp::create(b, loc, tile,
                                         ArrayRef<ReassociationIndices>{all});
}

void KernelBuilder::waitOnBarrier(Value index, Value parity) {
  IndexMath math{b, loc};
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity,
                                         math.constant(kWaitTicks), index);
}

void KernelBuilder::issueTileLoads(Value map, Value flatTile,
                                   Value elementOffset, Value batch, Value head,
                                   Value row0, int64_t rows, int64_t width,
                                   Type type, Value barrier) {
  IndexMath math{b, loc};
  int64_t blocks = width / kBoxColumns;
  // The transaction is the boxes' bytes, zero-filled rows included.
  int64_t bytes = rows * width * elementBytes(type);
  nvgpu::MBarrierArriveExpectTxOp::create(b, loc, barriers,
                                          math.constant(bytes), barrier,
                                          /*predicate=*/Value());
  auto mapType = cast<nvgpu::TensorMapDescriptorType>(map.getType());
  MemRefType box = mapType.getTensor();
  int64_t boxElements = rows * kBoxColumns;
  auto dstType = MemRefType::get(
      box.getShape(), type,
      StridedLayoutAttr::get(ctx, ShapedType::kDynamic,
                             {boxElements, boxElements, kBoxColumns, 1}),
      box.getMemorySpace());
  for (int64_t block = 0; block < blocks; ++block) {
    Value offset = math.addConstant(elementOffset, block * boxElements);
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(1),
                                       b.getIndexAttr(rows),
                                       b.getIndexAttr(kBoxColumns)};
    SmallVector<OpFoldResult> strides = {
        b.getIndexAttr(boxElements), b.getIndexAttr(boxElements),
        b.getIndexAttr(kBoxColumns), b.getIndexAttr(1)};
    Value dst = memref::ReinterpretCastOp::create(
        b, loc, dstType, flatTile, OpFoldResult(offset), sizes, strides);
    // Coordinates innermost first, as cp.async.bulk.tensor takes them.
    SmallVector<Value> coordinates = {math.constant(block * kBoxColumns), row0,
                                      head, batch};
    nvgpu::TmaAsyncLoadOp::create(b, loc, dst, barriers, map, coordinates,
                                  barrier, /*multicastMask=*/Value(),
                                  /*predicate=*/Value());
  }
}

void KernelBuilder::loadQueryByTma(const QueryBlock &block, Value queryTile,
                                   Value thread) {
  IndexMath math{b, loc};
  TmaBarriers layout{stages};
  Value flatQuery = flatTile(queryTile, thread);
  // Thread 0 initializes every barrier; the block barrier then shows them
  // to all threads (and to the async proxy: a CTA's own barriers need no
  // fence.mbarrier_init, which orders them for a cluster).
  scf::IfOp::create(b, loc, math.eq(thread, math.constant(0)),
                    [&](OpBuilder &tb, Location tloc) {
                      IndexMath tm{tb, tloc};
                      auto init = [&](int64_t index, int64_t count) {
                        nvgpu::MBarrierInitOp::create(
                            tb, tloc, barriers, tm.constant(count),
                            tm.constant(index), /*predicate=*/Value());
                      };
                      init(TmaBarriers::query(), 1);
                      for (int64_t s = 0; s < stages; ++s) {
                        init(1 + s, 1);
                        init(1 + stages + s, 1);
                        init(1 + 2 * stages + s, computeThreads());
                      }
                      scf::YieldOp::create(tb, tloc);
                    });
  gpu::BarrierOp::create(b, loc);
  Value queryBarrier = math.constant(TmaBarriers::query());
  {
    auto issue = scf::IfOp::create(b, loc, isProducerLeader(thread),
                                   /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(issue.thenBlock()->getTerminator());
    issueTileLoads(queryMap, flatQuery, math.constant(0), block.batch,
                   block.head, block.row0, blockQ, headDim, queryElementType,
                   queryBarrier);
  }
  auto wait = scf::IfOp::create(b, loc, isComputeThread(thread),
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(wait.thenBlock()->getTerminator());
  waitOnBarrier(queryBarrier, arith::ConstantIntOp::create(b, loc, 0, 1));
}

SmallVector<Value> KeyTileSchedule::producerConsumerBlock(
    IndexMath &math, Location loc, Value col0, Value stage,
    KernelVariant &variant, ValueRange state) {
  TmaBarriers layout{kernel.stages};
  Value index = math.divU(math.sub(col0, keys.firstBlockStart), self.keyStep);
  Value round = math.divU(index, math.constant(kernel.stages));
  Value parity = math.eq(math.remU(round, math.constant(2)), math.constant(1));
  Value notParity = arith::XOrIOp::create(
      b, loc, parity, arith::ConstantIntOp::create(b, loc, 1, 1));
  Value thread = self.thread;
  Value compute = kernel.isComputeThread(thread);

  // Runs `body` in an scf.if on `condition`. The values it returns (whose
  // types are known once it is built) are yielded there, and `otherwise`
  // (zeros of their types when empty) where the condition is false.
  auto onRole = [&](Value condition, ValueRange otherwise,
                    function_ref<SmallVector<Value>()> body) {
    auto built = scf::IfOp::create(b, loc, TypeRange{}, condition,
                                   /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(built.thenBlock()->getTerminator());
    SmallVector<Value> values = body();
    if (values.empty())
      return SmallVector<Value>();
    built.thenBlock()->getTerminator()->erase();
    b.setInsertionPointToEnd(built.thenBlock());
    scf::YieldOp::create(b, loc, values);
    SmallVector<Type> types;
    for (Value value : values)
      types.push_back(value.getType());
    b.setInsertionPoint(built);
    auto branch = scf::IfOp::create(b, loc, types, condition,
                                    /*addThenBlock=*/false,
                                    /*addElseBlock=*/true);
    branch.getThenRegion().takeBody(built.getThenRegion());
    built.erase();
    b.setInsertionPointToStart(branch.elseBlock());
    SmallVector<Value> elsewhere(otherwise);
    if (elsewhere.empty())
      for (Type type : types)
        elsewhere.push_back(arith::ConstantOp::create(
            b, loc, cast<TypedAttr>(b.getZeroAttr(type))));
    scf::YieldOp::create(b, loc, elsewhere);
    return SmallVector<Value>(branch.getResults());
  };

  // The producer: once the stage is free, K and V of this block.
  onRole(kernel.isProducerLeader(thread), {}, [&] {
    IndexMath pm{b, loc};
    kernel.waitOnBarrier(layout.empty(pm, stage), notParity);
    Value keyOffset =
        pm.mul(stage, pm.constant(kernel.blockKV * kernel.headDim));
    kernel.issueTileLoads(kernel.keyMap, kernel.flatTile(tiles.key, thread),
                          keyOffset, block.batch, block.kvHead, col0,
                          kernel.blockKV, kernel.headDim, kernel.keyElementType,
                          layout.keyFull(pm, stage));
    Value valueOffset =
        pm.mul(stage, pm.constant(kernel.blockKV * kernel.valueDim));
    kernel.issueTileLoads(kernel.valueMap, kernel.flatTile(tiles.value, thread),
                          valueOffset, block.batch, block.kvHead, col0,
                          kernel.blockKV, kernel.valueDim,
                          kernel.valueElementType, layout.valueFull(pm, stage));
    return SmallVector<Value>();
  });

  // The compute warpgroups: S once K has landed, the rest once V has.
  KeyBlockAt at{loc, col0, stage};
  onRole(compute, {}, [&] {
    IndexMath cm{b, loc};
    kernel.waitOnBarrier(layout.keyFull(cm, stage), parity);
    return SmallVector<Value>();
  });
  // Elsewhere S is zeros: the producer never reads it.
  SmallVector<Value> scores =
      onRole(compute, {}, [&] { return variant.scores(at); });
  onRole(compute, {}, [&] {
    IndexMath cm{b, loc};
    kernel.waitOnBarrier(layout.valueFull(cm, stage), parity);
    return SmallVector<Value>();
  });
  return onRole(compute, state, [&] {
    SmallVector<Value> next = variant.fold(at, scores, state);
    IndexMath cm{b, loc};
    nvgpu::MBarrierArriveOp::create(b, loc,
                                    nvgpu::MBarrierTokenType::get(kernel.ctx),
                                    kernel.barriers, layout.empty(cm, stage));
    return next;
  });
}

} // namespace mlir::fa::gpu_kernel
