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
// keys past it are masked, as in the cp.async kernels. The maps address
// the whole tensors: a packed sequence's boxes start at its cu_seqlens
// entries. Keys past a sequence's last one (kv_lengths, packed sequences)
// lie inside the tensors and arrive as they are; the compute threads zero
// V's rows there before P V reads them (zeroValuesPastLastKey). A paged
// cache [P, S, Hkv, D] has boxes [1, rows, 1, 64] (tmaKeyBoxRows): a key
// block where it lies in one page, else gcd(S, block_kv) rows, so that no
// box crosses a page; the producer reads each box's table entry before
// its loads (keyBoxCoordinates).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "fa/Kernel/WarpgroupLayout.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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

/// A tensor map whose boxes have shape `box`: one 128-byte swizzle row of
/// elements innermost when `swizzled`, else as they lie.
nvgpu::TensorMapDescriptorType tensorMapType(MLIRContext *ctx,
                                             ArrayRef<int64_t> box, Type type,
                                             bool swizzled) {
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto boxType =
      MemRefType::get(box, type, MemRefLayoutAttrInterface(), workgroup);
  return nvgpu::TensorMapDescriptorType::get(
      ctx, boxType,
      swizzled ? nvgpu::TensorMapSwizzleKind::SWIZZLE_128B
               : nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE,
      nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

} // namespace

int64_t KernelBuilder::computeThreads() const {
  return threads - (plan.tmaProducer ? kWarpgroupThreads : 0);
}

Value TileCopier::createTensorMap(Value buffer, ArrayRef<int64_t> box,
                                  bool swizzled) {
  auto type = cast<MemRefType>(buffer.getType());
  Value unranked = memref::CastOp::create(
      b, loc, UnrankedMemRefType::get(type.getElementType(), Attribute()),
      buffer);
  IndexMath math{b, loc};
  SmallVector<Value> sizes;
  for (int64_t size : box)
    sizes.push_back(math.constant(size));
  return nvgpu::TmaCreateDescriptorOp::create(
             b, loc, tensorMapType(ctx, box, type.getElementType(), swizzled),
             unranked, sizes)
      .getResult();
}

void KernelBuilder::createTensorMaps() {
  queryMap =
      createTensorMap(operands.query, {1, 1, plan.tiling.blockQ, kBoxColumns},
                      /*swizzled=*/true);
  // A page table's cache is [P, S, Hkv, D]: a box is a run of rows of one
  // page.
  int64_t rows = keyBoxRows();
  SmallVector<int64_t> keyBox =
      pageTable ? SmallVector<int64_t>{1, rows, 1, kBoxColumns}
                : SmallVector<int64_t>{1, 1, rows, kBoxColumns};
  keyMap = createTensorMap(key, keyBox, /*swizzled=*/true);
  valueMap = createTensorMap(value, keyBox, /*swizzled=*/true);
}

int64_t KernelBuilder::keyBoxRows() const {
  AttentionShape shape;
  if (pageTable)
    shape.pageSize = cast<MemRefType>(key.getType()).getDimSize(1);
  return tmaKeyBoxRows(plan.tiling, shape);
}

void KernelBuilder::createBarriers() {
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  TmaBarriers layout{plan.stages};
  barriers = nvgpu::MBarrierCreateOp::create(
      b, loc, nvgpu::MBarrierGroupType::get(ctx, workgroup, layout.count()));
}

Value TileCopier::markRole(Value predicate, StringRef role,
                           int64_t producerRegisters) {
  Operation *def = predicate.getDefiningOp();
  def->setAttr(kWarpgroupRoleAttrName, b.getStringAttr(role));
  if (role == kProducerLeaderRole)
    def->setAttr(kProducerRegistersAttrName,
                 b.getI64IntegerAttr(producerRegisters));
  return predicate;
}

Value KernelBuilder::isComputeThread(Value thread) {
  IndexMath math{b, loc};
  return markRole(math.lt(thread, math.constant(computeThreads())),
                  kComputeRole);
}

Value KernelBuilder::isProducerLeader(Value thread) {
  IndexMath math{b, loc};
  return markRole(math.eq(thread, math.constant(computeThreads())),
                  kProducerLeaderRole, plan.producerRegisters);
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

void TileCopier::waitOnBarrier(Value index, Value parity) {
  IndexMath math{b, loc};
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity,
                                         math.constant(kWaitTicks), index);
}

void TileCopier::expectTileBytes(int64_t rows, int64_t width, Type type,
                                 Value barrier) {
  // The transaction is the boxes' bytes, zero-filled rows included.
  expectBytes(rows * width * elementBytes(type), barrier);
}

void TileCopier::expectBytes(int64_t bytes, Value barrier) {
  IndexMath math{b, loc};
  nvgpu::MBarrierArriveExpectTxOp::create(b, loc, barriers,
                                          math.constant(bytes), barrier,
                                          /*predicate=*/Value());
}

void TileCopier::issueBox(Value map, Value flatTile, Value elementOffset,
                          Value barrier, ValueRange coordinates) {
  auto mapType = cast<nvgpu::TensorMapDescriptorType>(map.getType());
  MemRefType box = mapType.getTensor();
  // The box's own shape ([1, 1, rows, 64], or [1, rows, 1, 64] in a paged
  // cache), contiguous.
  SmallVector<int64_t> strides(box.getRank(), 1);
  for (int64_t d = box.getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * box.getDimSize(d + 1);
  auto dstType = MemRefType::get(
      box.getShape(), box.getElementType(),
      StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides),
      box.getMemorySpace());
  SmallVector<OpFoldResult> sizes, strideAttrs;
  for (int64_t d = 0; d < box.getRank(); ++d) {
    sizes.push_back(b.getIndexAttr(box.getDimSize(d)));
    strideAttrs.push_back(b.getIndexAttr(strides[d]));
  }
  Value dst = memref::ReinterpretCastOp::create(b, loc, dstType, flatTile,
                                                OpFoldResult(elementOffset),
                                                sizes, strideAttrs);
  nvgpu::TmaAsyncLoadOp::create(b, loc, dst, barriers, map, coordinates,
                                barrier, /*multicastMask=*/Value(),
                                /*predicate=*/Value());
}

void TileCopier::issueBoxLoads(Value map, Value flatTile, Value elementOffset,
                               int64_t tileRows, int64_t width, Type type,
                               Value barrier, ValueRange outer) {
  IndexMath math{b, loc};
  int64_t blocks = width / kBoxColumns;
  // A column block of the tile holds all its rows.
  int64_t columnBlockElements = tileRows * kBoxColumns;
  for (int64_t block = 0; block < blocks; ++block) {
    Value offset = math.addConstant(elementOffset, block * columnBlockElements);
    // Coordinates innermost first, as cp.async.bulk.tensor takes them.
    SmallVector<Value> coordinates = {math.constant(block * kBoxColumns)};
    llvm::append_range(coordinates, outer);
    issueBox(map, flatTile, offset, barrier, coordinates);
  }
}

void TileCopier::issueTileLoads(Value map, Value flatTile, Value elementOffset,
                                int64_t rows, int64_t width, Type type,
                                Value barrier, ValueRange outer) {
  expectTileBytes(rows, width, type, barrier);
  issueBoxLoads(map, flatTile, elementOffset, rows, width, type, barrier,
                outer);
}

void KernelBuilder::issueKeyBlockLoads(ArrayRef<KeyTileLoads> tiles,
                                       Value batch, Value head, Value row0) {
  int64_t blockKV = plan.tiling.blockKV;
  int64_t rows = keyBoxRows();
  IndexMath math{b, loc};
  if (rows == blockKV) {
    // One box per column block, at coordinates K and V share.
    SmallVector<Value> box = keyBoxCoordinates(math, batch, head, row0);
    for (const KeyTileLoads &tile : tiles) {
      expectTileBytes(blockKV, tile.width, tile.type, tile.barrier);
      issueBoxLoads(tile.map, tile.flatTile, tile.elementOffset, blockKV,
                    tile.width, tile.type, tile.barrier, box);
    }
    return;
  }
  // Pages that do not hold whole blocks: a box per run of rows within one
  // page, each through its table entry, all of a tile's boxes one
  // transaction (K's whole, then V's, so that S = Q K^T starts as early as
  // with one box).
  for (const KeyTileLoads &tile : tiles) {
    expectTileBytes(blockKV, tile.width, tile.type, tile.barrier);
    auto boxes = scf::ForOp::create(
        b, loc, math.constant(0), math.constant(blockKV), math.constant(rows),
        ValueRange{},
        [&](OpBuilder &lb, Location lloc, Value first, ValueRange) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
          IndexMath lm{b, lloc};
          Value offset = lm.add(tile.elementOffset,
                                lm.mul(first, lm.constant(kBoxColumns)));
          issueBoxLoads(
              tile.map, tile.flatTile, offset, blockKV, tile.width, tile.type,
              tile.barrier,
              keyBoxCoordinates(lm, batch, head, lm.add(row0, first)));
          scf::YieldOp::create(b, lloc);
        });
    // Kept rolled down to ptxas (fa-keep-loop-annotations), so that the
    // producer's one issuing thread holds one box's page and coordinates at
    // a time. Unrolled, LLVM hoists every box's table load ahead of the
    // copies: the producer needed 64 registers (ptxas, 16-slot pages,
    // d = 64, 128 x 128, causal); rolled, 32 (kPagedProducerRegisters).
    boxes->setAttr(
        "llvm.loop_annotation",
        LLVM::LoopAnnotationAttr::get(
            ctx, /*disableNonforced=*/nullptr, /*vectorize=*/nullptr,
            /*interleave=*/nullptr,
            LLVM::LoopUnrollAttr::get(ctx, /*disable=*/b.getBoolAttr(true), {},
                                      {}, {}, {}, {}, {}),
            {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}));
  }
}

SmallVector<Value> KernelBuilder::keyBoxCoordinates(IndexMath &math,
                                                    Value batch, Value head,
                                                    Value row) {
  if (!pageTable)
    return {row, head, batch};
  // The box's page through the table, as the cp.async copies read it
  // (pageOfEntry: the page clamped into the cache). A box lies in one page
  // (tmaKeyBoxRows). The entry is clamped into the table: a box past the
  // table's last key (Nk = M S that key blocks do not divide) then starts
  // at a slot past the page, and arrives as zeros.
  Value pageSize = math.dim(key, 1);
  Value lastEntry = math.addConstant(math.dim(pageTable, 1), -1);
  Value entry = math.min(math.divU(row, pageSize), lastEntry);
  Value page = pageOfEntry(math, key, pageTable, batch, entry);
  return {head, math.sub(row, math.mul(entry, pageSize)), page};
}

void KernelBuilder::loadQueryByTma(const QueryBlock &block, Value queryTile,
                                   Value thread) {
  IndexMath math{b, loc};
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
                      for (int64_t s = 0; s < plan.stages; ++s) {
                        init(1 + s, 1);
                        init(1 + plan.stages + s, 1);
                        init(1 + 2 * plan.stages + s, computeThreads());
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
    Value row0 = block.sequenceQueryStart
                     ? math.add(block.sequenceQueryStart, block.row0)
                     : block.row0;
    issueTileLoads(queryMap, flatQuery, math.constant(0), plan.tiling.blockQ,
                   headDim, queryElementType, queryBarrier,
                   {row0, block.head, block.batch});
  }
  auto wait = scf::IfOp::create(b, loc, isComputeThread(thread),
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(wait.thenBlock()->getTerminator());
  waitOnBarrier(queryBarrier, arith::ConstantIntOp::create(b, loc, 0, 1));
}

SmallVector<Value> onRole(OpBuilder &b, Location loc, Value condition,
                          ValueRange otherwise,
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
}

namespace {

/// Ping-pong's named barriers: bar.sync / bar.arrive ids from 1 (0 is the
/// block-wide barrier); warpgroup w's turn is barrier 1 + w, for which it
/// waits (its 128 threads) and the warpgroup before it arrives (128 more).
constexpr int64_t kFirstTurnBarrier = 1;
constexpr int64_t kTurnThreads = 2 * kWarpgroupThreads;
/// The compute threads' meeting once V's rows past the last key are zero:
/// the id after the turns of the most compute warpgroups a block has.
constexpr int64_t kValuesZeroedBarrier = kFirstTurnBarrier + 3;

/// The TMA producer kernel's key loop: the producer warpgroup refills ring
/// stage i mod stages once its empty barrier shows the compute warpgroups
/// are done with it; they wait on its full barriers. With
/// KernelPlan::overlapSoftmax, each block's P V runs a block late
/// (walkOverlapped); with KernelPlan::pingPong, the compute warpgroups take
/// turns issuing their matmuls.
class TmaProducerSchedule : public KeyTileSchedule {
public:
  using KeyTileSchedule::KeyTileSchedule;

  SmallVector<Value> walk(KernelVariant &variant, ValueRange init) override {
    if (kernel.plan.overlapSoftmax)
      return walkOverlapped(variant, init);
    startTurns();
    return KeyTileSchedule::walk(variant, init);
  }

protected:
  /// The producer's loads of the block, then the compute warpgroups' S
  /// once K has landed and the fold once V has; they release the stage.
  SmallVector<Value> keyBlock(IndexMath &math, Location loc, Value col0,
                              Value stage, KernelVariant &variant,
                              ValueRange state) override;

private:
  /// Where the key block `index` (from the first visible one) lives in the
  /// ring: its stage, and the parity of its round's phase.
  struct RingSlot {
    Value stage, parity;
  };
  RingSlot ringSlot(IndexMath &math, Value index);
  /// The producer's part of a block: wait for the stage to be free, then
  /// K's and V's loads.
  void produceBlock(Value col0, Value index);
  /// Ping-pong: before the first block, the last compute warpgroup gives
  /// the first its turn; around a block's matmuls, a warpgroup waits for
  /// its turn and then hands it on.
  void startTurns();
  void takeTurn();
  void passTurn();
  /// Keys past the block's last one that lie inside K's and V's tensors
  /// (KernelBuilder::keysPastLengthInTensors) arrive with the block that
  /// holds the last key. Their scores are masked, so P is 0 there, but P V
  /// still multiplies V's rows, which may hold anything (a cache's
  /// unwritten slots, the next packed sequence), and 0 x NaN is NaN. In
  /// that block (starting at `col0`, the index-th walked), once V has
  /// landed, the compute threads zero those rows of V's tile (whole
  /// 128-byte rows of each column block: the swizzle permutes chunks only
  /// within a row) and meet on a named barrier before any P V reads it.
  void zeroValuesPastLastKey(Value col0, Value index);
  /// P V a block late: the first block's S and softmax, the loops of
  /// overlapped blocks, the last block's P V.
  SmallVector<Value> walkOverlapped(KernelVariant &variant, ValueRange init);
};

} // namespace

TmaProducerSchedule::RingSlot TmaProducerSchedule::ringSlot(IndexMath &math,
                                                            Value index) {
  Value round = math.divU(index, math.constant(kernel.plan.stages));
  Value parity = math.eq(math.remU(round, math.constant(2)), math.constant(1));
  return {math.remU(index, math.constant(kernel.plan.stages)), parity};
}

void TmaProducerSchedule::produceBlock(Value col0, Value index) {
  Location loc = kernel.loc;
  TmaBarriers layout{kernel.plan.stages};
  Value thread = self.thread;
  onRole(b, loc, kernel.isProducerLeader(thread), {}, [&] {
    IndexMath pm{b, loc};
    RingSlot slot = ringSlot(pm, index);
    Value notParity = arith::XOrIOp::create(
        b, loc, slot.parity, arith::ConstantIntOp::create(b, loc, 1, 1));
    kernel.waitOnBarrier(layout.empty(pm, slot.stage), notParity);
    Value keyOffset = pm.mul(
        slot.stage, pm.constant(kernel.plan.tiling.blockKV * kernel.headDim));
    // The tensor maps address the whole tensors: a packed sequence's keys
    // start at its cu_seqlens_k entry.
    Value row0 =
        block.sequenceKeyStart ? pm.add(block.sequenceKeyStart, col0) : col0;
    Value valueOffset = pm.mul(
        slot.stage, pm.constant(kernel.plan.tiling.blockKV * kernel.valueDim));
    KernelBuilder::KeyTileLoads tilesOfBlock[] = {
        {kernel.keyMap, kernel.flatTile(tiles.key, thread), keyOffset,
         kernel.headDim, kernel.keyElementType, layout.keyFull(pm, slot.stage)},
        {kernel.valueMap, kernel.flatTile(tiles.value, thread), valueOffset,
         kernel.valueDim, kernel.valueElementType,
         layout.valueFull(pm, slot.stage)}};
    kernel.issueKeyBlockLoads(tilesOfBlock, block.batch, block.kvHead, row0);
    return SmallVector<Value>();
  });
}

void TmaProducerSchedule::zeroValuesPastLastKey(Value col0, Value index) {
  if (!kernel.keysPastLengthInTensors())
    return;
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  int64_t blockKV = kernel.plan.tiling.blockKV;
  // The walk visits blocks that start before the last key: 0 < firstPast.
  Value firstPast = math.sub(kernel.keyLen, col0);
  auto pastLastKey =
      scf::IfOp::create(b, loc, math.lt(firstPast, math.constant(blockKV)),
                        /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(pastLastKey.thenBlock()->getTerminator());
  IndexMath m{b, loc};
  TmaBarriers layout{kernel.plan.stages};
  RingSlot slot = ringSlot(m, index);
  kernel.waitOnBarrier(layout.valueFull(m, slot.stage), slot.parity);
  // 16-byte chunks: 8 per 128-byte row of a column block.
  Type type = kernel.valueElementType;
  int64_t chunk = kChunkBytes / elementBytes(type);
  int64_t chunksPerBlockRow = kBoxColumns / chunk;
  int64_t chunksPerRow = kernel.valueDim / chunk;
  Value zeros = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(VectorType::get({chunk}, type),
                             b.getZeroAttr(type)));
  Value tile = kernel.flatTile(tiles.value, self.thread);
  Value stageStart = m.mul(slot.stage, m.constant(blockKV * kernel.valueDim));
  Value chunks =
      m.mul(m.sub(m.constant(blockKV), firstPast), m.constant(chunksPerRow));
  scf::ForOp::create(
      b, loc, self.thread, chunks, m.constant(kernel.computeThreads()),
      ValueRange{}, [&](OpBuilder &lb, Location lloc, Value at, ValueRange) {
        IndexMath lm{lb, lloc};
        Value row = lm.add(firstPast, lm.divU(at, lm.constant(chunksPerRow)));
        Value inRow = lm.remU(at, lm.constant(chunksPerRow));
        Value columnBlock = lm.divU(inRow, lm.constant(chunksPerBlockRow));
        Value column = lm.mul(lm.remU(inRow, lm.constant(chunksPerBlockRow)),
                              lm.constant(chunk));
        Value blockStart =
            lm.mul(columnBlock, lm.constant(blockKV * kBoxColumns));
        Value rowStart = lm.mul(row, lm.constant(kBoxColumns));
        Value offset =
            lm.add(lm.add(stageStart, blockStart), lm.add(rowStart, column));
        vector::StoreOp::create(lb, lloc, zeros, tile, ValueRange{offset});
        scf::YieldOp::create(lb, lloc);
      });
  // wgmma reads V through the async proxy: each thread's stores become
  // visible to it once that thread fences, before the barrier that the
  // other warpgroup's wgmma waits behind (the fence at a chain's first
  // wgmma comes too late for another warpgroup's stores).
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::BarrierOp::create(
      b, loc, /*res=*/Type(),
      arith::ConstantIntOp::create(b, loc, kValuesZeroedBarrier, 32),
      arith::ConstantIntOp::create(b, loc, kernel.computeThreads(), 32),
      /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());
}

// Turns go round the compute warpgroups: w waits on its barrier, issues,
// then arrives on w + 1's. The last one arrives on the first's before the
// first block, so the first goes first.
void TmaProducerSchedule::startTurns() {
  if (!kernel.plan.pingPong)
    return;
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  int64_t computeThreads = kernel.computeThreads();
  // thread >= the last compute warpgroup's first thread, and computing.
  Value last = math.andI(
      math.le(math.constant(computeThreads - kWarpgroupThreads), self.thread),
      kernel.isComputeThread(self.thread));
  onRole(b, loc, last, {}, [&] {
    NVVM::BarrierArriveOp::create(
        b, loc,
        arith::ConstantIntOp::create(b, loc, kFirstTurnBarrier, 32),
        arith::ConstantIntOp::create(b, loc, kTurnThreads, 32));
    return SmallVector<Value>();
  });
}

void TmaProducerSchedule::takeTurn() {
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  Value warpgroup = math.divU(self.thread, math.constant(kWarpgroupThreads));
  Value id = arith::IndexCastOp::create(
      b, loc, b.getI32Type(), math.addConstant(warpgroup, kFirstTurnBarrier));
  NVVM::BarrierOp::create(
      b, loc, /*res=*/Type(), id,
      arith::ConstantIntOp::create(b, loc, kTurnThreads, 32),
      /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());
}

void TmaProducerSchedule::passTurn() {
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  int64_t warpgroups = kernel.computeThreads() / kWarpgroupThreads;
  Value warpgroup = math.divU(self.thread, math.constant(kWarpgroupThreads));
  Value next = math.remU(math.addConstant(warpgroup, 1),
                         math.constant(warpgroups));
  Value id = arith::IndexCastOp::create(
      b, loc, b.getI32Type(), math.addConstant(next, kFirstTurnBarrier));
  NVVM::BarrierArriveOp::create(
      b, loc, id, arith::ConstantIntOp::create(b, loc, kTurnThreads, 32));
}

SmallVector<Value> TmaProducerSchedule::keyBlock(IndexMath &math, Location loc,
                                                 Value col0, Value stage,
                                                 KernelVariant &variant,
                                                 ValueRange state) {
  TmaBarriers layout{kernel.plan.stages};
  Value index = math.divU(math.sub(col0, keys.firstBlockStart), self.keyStep);
  RingSlot slot = ringSlot(math, index);
  Value compute = kernel.isComputeThread(self.thread);

  // The producer: once the stage is free, K and V of this block.
  produceBlock(col0, index);

  // The compute warpgroups: S once K has landed, the rest once V has.
  KeyBlockAt at{loc, col0, stage};
  onRole(b, loc, compute, {}, [&] {
    IndexMath cm{b, loc};
    kernel.waitOnBarrier(layout.keyFull(cm, stage), slot.parity);
    return SmallVector<Value>();
  });
  // Elsewhere S is zeros: the producer never reads it. With ping-pong, a
  // warpgroup multiplies Q K^T in its turn.
  SmallVector<Value> scores = onRole(b, loc, compute, {}, [&] {
    if (kernel.plan.pingPong)
      takeTurn();
    SmallVector<Value> values = variant.scores(at);
    if (kernel.plan.pingPong)
      passTurn();
    return values;
  });
  onRole(b, loc, compute, {}, [&] {
    IndexMath cm{b, loc};
    kernel.waitOnBarrier(layout.valueFull(cm, stage), slot.parity);
    // Only a masked block can hold the last key.
    if (kernel.elementMasks == ElementMasks::all)
      zeroValuesPastLastKey(col0, index);
    return SmallVector<Value>();
  });
  return onRole(b, loc, compute, state, [&] {
    SmallVector<Value> next = variant.fold(at, scores, state);
    IndexMath cm{b, loc};
    nvgpu::MBarrierArriveOp::create(b, loc,
                                    nvgpu::MBarrierTokenType::get(kernel.ctx),
                                    kernel.barriers, layout.empty(cm, stage));
    return next;
  });
}

// Block i's K and V use stage i mod stages, and one empty barrier frees
// both: the compute warpgroups arrive on it once block i's P V has
// completed, in block i + 1's step. With two or more stages the producer
// never waits on the block being computed (planKernel asks for them).
SmallVector<Value> TmaProducerSchedule::walkOverlapped(KernelVariant &variant,
                                                       ValueRange init) {
  Location loc = kernel.loc;
  TmaBarriers layout{kernel.plan.stages};
  Value first = keys.firstBlockStart, end = keys.keyEnd, step = self.keyStep;
  // Without a mask operand, the blocks that need an element mask are the
  // last ones: the block with the sequence's last keys and, under a causal
  // or window band, those its diagonal crosses; with a window, also the
  // first ones, which its left edge crosses. As FlashAttention-3 does, the
  // walk goes from the last block to the first, so the diagonal's come
  // first: the first block (code of its own) and, under a band, a masked
  // loop over the rest of the diagonal; then one unmasked loop, with no
  // mask's state live in it; then, with a window, a masked loop over the
  // left edge's blocks. Walked forward, a masked tail loop after the
  // unmasked one cost ptxas 24 to 40 more registers wherever Nk is known
  // and not a multiple of block_kv, and spilled.
  bool reversed = static_cast<bool>(keys.unmaskedEnd);
  // The walk's bounds, the same in every thread: computed in front of the
  // thread loop (a branch on anyBlock is one whole warpgroups take).
  Value anyBlock, second, lastBlockStart, unmaskedFrom, maskedAgainFrom;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(
        cast<BlockArgument>(self.thread).getOwner()->getParentOp());
    IndexMath outside{b, loc};
    anyBlock = outside.lt(first, end);
    second = outside.addConstant(first, kernel.plan.tiling.blockKV);
    if (reversed) {
      BoundsFromLast walk = boundsFromLast();
      lastBlockStart = walk.lastBlockStart;
      // Past the peeled first block, under the band: the loop position of
      // the first block walked that needs no mask.
      if (keys.band)
        unmaskedFrom = outside.max(walk.unmaskedFrom, second);
      if (walk.maskedAgainFrom)
        maskedAgainFrom = outside.max(walk.maskedAgainFrom, unmaskedFrom);
    }
  }
  // The first key of the index-th block walked.
  auto blockStart = [&](IndexMath &m, Value index) {
    Value offset = m.mul(index, step);
    return reversed ? m.sub(lastBlockStart, offset) : m.add(first, offset);
  };
  Value compute = kernel.isComputeThread(self.thread);
  auto waitFull = [&](bool values, Value index) {
    IndexMath m{b, loc};
    RingSlot slot = ringSlot(m, index);
    kernel.waitOnBarrier(values ? layout.valueFull(m, slot.stage)
                                : layout.keyFull(m, slot.stage),
                         slot.parity);
  };
  auto release = [&](Value index) {
    IndexMath m{b, loc};
    nvgpu::MBarrierArriveOp::create(
        b, loc, nvgpu::MBarrierTokenType::get(kernel.ctx), kernel.barriers,
        layout.empty(m, ringSlot(m, index).stage));
  };
  auto blockAt = [&](Value col0, Value index) {
    IndexMath m{b, loc};
    return KeyBlockAt{loc, col0, ringSlot(m, index).stage};
  };
  auto takeTurnHook = [&] { takeTurn(); };
  auto passTurnHook = [&] { passTurn(); };
  auto withTurns = [&](OverlapHooks hooks) {
    if (kernel.plan.pingPong) {
      hooks.beforeMatmuls = takeTurnHook;
      hooks.afterMatmuls = passTurnHook;
    }
    return hooks;
  };
  startTurns();

  // The first block (masked: its mask is never wrong, only sometimes
  // unneeded).
  SmallVector<Value> state = onRole(b, loc, anyBlock, init, [&] {
    Value zero = self.zero;
    IndexMath m{b, loc};
    Value start = blockStart(m, zero);
    produceBlock(start, zero);
    return onRole(b, loc, compute, init, [&] {
      auto waitKeys = [&] { waitFull(false, zero); };
      OverlapHooks hooks = withTurns({waitKeys, {}, {}, {}, {}});
      SmallVector<Value> next =
          variant.firstBlock(blockAt(start, zero), hooks, init);
      // Reversed, the first block walked is the one with the last key.
      if (reversed)
        zeroValuesPastLastKey(start, zero);
      return next;
    });
  });

  auto keyLoop = [&](Value from, Value to, ValueRange loopInit,
                     ElementMasks masks) {
    kernel.elementMasks = masks;
    auto loop = scf::ForOp::create(
        b, loc, from, to, step, loopInit,
        [&](OpBuilder &lb, Location lloc, Value position, ValueRange carried) {
          OpBuilder::InsertionGuard loopGuard(b);
          b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
          IndexMath m{b, lloc};
          Value index = m.divU(m.sub(position, first), step);
          Value previousIndex = m.addConstant(index, -1);
          Value col0 = reversed ? blockStart(m, index) : position;
          produceBlock(col0, index);
          SmallVector<Value> next = onRole(b, lloc, compute, carried, [&] {
            auto waitKeys = [&] { waitFull(false, index); };
            auto waitValues = [&] { waitFull(true, previousIndex); };
            auto releaseValues = [&] { release(previousIndex); };
            OverlapHooks hooks =
                withTurns({waitKeys, waitValues, releaseValues, {}, {}});
            IndexMath cm{b, lloc};
            KeyBlockAt previous =
                blockAt(blockStart(cm, previousIndex), previousIndex);
            return variant.overlappedBlock(blockAt(col0, index), previous,
                                           hooks, carried);
          });
          scf::YieldOp::create(b, lloc, next);
        });
    kernel.elementMasks = ElementMasks::all;
    return SmallVector<Value>(loop.getResults());
  };
  // Reversed, every block after the first is whole but a band's other
  // diagonal blocks and a window's left edge's: masked loops over those,
  // one unmasked loop between them.
  if (unmaskedFrom) {
    state = keyLoop(second, unmaskedFrom, state, ElementMasks::all);
    state = keyLoop(unmaskedFrom, maskedAgainFrom ? maskedAgainFrom : end,
                    state, ElementMasks::none);
    if (maskedAgainFrom)
      state =
          keyLoop(maskedAgainFrom, end, state, ElementMasks::windowLeftEdge);
  } else {
    state = keyLoop(second, end, state,
                    reversed ? ElementMasks::none : ElementMasks::all);
  }

  // The last block's P V.
  return onRole(b, loc, anyBlock, state, [&] {
    IndexMath m{b, loc};
    Value lastIndex = m.divU(m.sub(m.addConstant(end, -1), first), step);
    Value lastStart = blockStart(m, lastIndex);
    return onRole(b, loc, compute, state, [&] {
      auto waitValues = [&] { waitFull(true, lastIndex); };
      auto releaseValues = [&] { release(lastIndex); };
      OverlapHooks hooks =
          withTurns({{}, waitValues, releaseValues, {}, {}});
      if (!reversed)
        zeroValuesPastLastKey(lastStart, lastIndex);
      return variant.lastValues(blockAt(lastStart, lastIndex), hooks, state);
    });
  });
}

std::unique_ptr<KeyTileSchedule>
makeTmaProducerSchedule(KernelBuilder &kernel,
                        const KernelBuilder::QueryBlock &block,
                        const KernelBuilder::SharedTiles &tiles,
                        const KernelBuilder::KeyBlocks &keys,
                        const KernelBuilder::ThreadRow &self) {
  return std::make_unique<TmaProducerSchedule>(kernel, block, tiles, keys,
                                               self);
}

} // namespace mlir::fa::gpu_kernel
