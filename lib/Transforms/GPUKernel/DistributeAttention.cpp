//===- DistributeAttention.cpp - fa.attention as a block/thread kernel ----===//
//
// Stage: GPU kernel, before the hardware mapping. Lowers an fa.attention that
// carries a tiling into the FlashAttention-2 kernel, written with upstream
// ops only and with its parallelism stated by scf.forall mapping attributes:
//
//   scf.forall (b, h, qb) in (B, Hq, ceil(Nq / Br))   [#gpu.block<z, y, x>]
//     Q_s : [Br][D + pad]            workgroup memory (pad = 16 bytes)
//     K_s : [stages][Bc][D + pad]    workgroup memory
//     V_s : [stages][Bc][Dv + pad]   workgroup memory
//     scf.forall (t) in (32 * warps)                   [#gpu.thread<x>]
//       copy Q tile -> Q_s (16 bytes per thread and step, coalesced)
//       state = variant.initState()
//       scf.for k0 over the key blocks the query block can see
//         copies of K, V tiles -> K_s, V_s[stage]; gpu.barrier
//         s = variant.scores(k0); state = variant.fold(k0, s, state)
//       variant.finish(state): O = acc / l, logsumexp = m + log l
//
// This file is the kernel's outline, the same for every variant: the grid
// and its query blocks (enterQueryBlock), the shared tiles, the key blocks a
// query block sees (visibleKeyBlocks, with causal and window skipping), the
// threads and split-KV's merge kernel. How K and V reach shared memory is
// the copy schedule's (KeyTileSchedule, KeyTileSchedules.cpp and
// TmaProducer.cpp). What a
// thread keeps and how a key block changes it is the variant's
// (KernelVariant, chosen by the plan): per-thread FMAs (FMAKernel.cpp),
// mma.sync through shared S and P tiles (SharedMmaKernel.cpp), or
// FlashAttention-2's register-resident S and P (RegisterFragmentKernel.cpp).
//
// Split-Q, as in FlashAttention-2: a query row (or a warp's rows) never
// leaves its thread (warp), so warps never exchange partial results.
// With stages >= 2 the key blocks rotate through the K/V buffers, so one
// barrier per key block suffices: a thread that fills buffer s again has
// passed the barrier that every thread reaches only after finishing with it.
//
// This form runs on a CPU (fa-emulate-threads-on-cpu), which is how the
// kernel's numbers are tested; fa-lower-to-gpu maps it onto gpu.launch.
//
//===----------------------------------------------------------------------===//

#include "Common/LoweringDriver.h"
#include "Common/MaskModIntervals.h"
#include "Common/PackQueryGroups.h"
#include "Common/TensorBuilders.h"
#include "KernelBuilder.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/KernelModel.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>
#include <tuple>

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fa-distribute-attention"

namespace mlir::fa {
#define GEN_PASS_DEF_FADISTRIBUTEATTENTION
#include "fa/Transforms/GPUKernel/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;

namespace mlir::fa::gpu_kernel {

SmallVector<Value> KernelBuilder::build() {
  IndexMath math{b, loc};
  auto toBuffer = [&](Value tensor) { return readOnlyBuffer(b, loc, tensor); };
  operands.query = toBuffer(op.getQuery());
  key = toBuffer(op.getKey());
  value = toBuffer(op.getValue());
  if (op.getMask())
    operands.mask = toBuffer(op.getMask());
  if (op.getKvLengths())
    operands.kvLengths = toBuffer(op.getKvLengths());
  if (op.getPageTable())
    pageTable = toBuffer(op.getPageTable());
  if (op.isPacked()) {
    operands.packedQueries = toBuffer(op.getCuSeqlensQ());
    operands.packedKeys = toBuffer(op.getCuSeqlensK());
  }
  for (Value captured : capturedTensors(op))
    operands.modifierCaptures.map(captured, toBuffer(captured));
  if (op.getSinks())
    operands.sinks = toBuffer(op.getSinks());
  if (plan.tmaProducer)
    createTensorMaps();

  Value batchSize = math.dim(operands.query, 0),
        queryHeads = math.dim(operands.query, 1);
  queryLen = math.dim(operands.query, 2);
  Value keyHeads;
  std::tie(keyHeads, keyLen) = keyHeadsAndLength(math, key, pageTable);
  tensorKeyLen = keyLen;
  groupSize = math.divU(queryHeads, keyHeads);
  Value queryBlocks = math.ceilDiv(queryLen, math.constant(plan.tiling.blockQ));
  geometry = AttentionGeometry::align(math, op, queryLen, keyLen);
  scale = f32Constant(b, loc, op.getScale().convertToDouble());
  exponent = SoftmaxExponent::of(op);
  operands.maskBroadcast = maskBroadcastDims(op);

  // The results are written in place, one row per thread.
  auto outputTensorType = cast<RankedTensorType>(op.getOutput().getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0; dim < 3; ++dim)
    if (outputTensorType.isDynamicDim(dim))
      dynamicSizes.push_back(math.dim(operands.query, dim));
  operands.output = memref::AllocOp::create(
      b, loc, MemRefType::get(outputTensorType.getShape(), outputElementType),
      dynamicSizes);
  if (op.getLogsumexp()) {
    auto lseType = cast<RankedTensorType>(op.getLogsumexp().getType());
    operands.logsumexp = memref::AllocOp::create(
        b, loc, MemRefType::get(lseType.getShape(), f32), dynamicSizes);
  }

  // With key splits, every block writes its split's output (in f32) and
  // logsumexp into the workspace, which the merge kernel then reads.
  Value finalOutput = operands.output, finalLse = operands.logsumexp;
  if (plan.tiling.kvSplits > 1) {
    SmallVector<int64_t> shape = {plan.tiling.kvSplits};
    llvm::append_range(shape, outputTensorType.getShape());
    operands.partialOutput = memref::AllocOp::create(
        b, loc, MemRefType::get(shape, f32), dynamicSizes);
    shape.pop_back();
    operands.partialLse = memref::AllocOp::create(
        b, loc, MemRefType::get(shape, f32), dynamicSizes);
  }

  SmallVector<Attribute> mapping = {
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimZ),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimY),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)};
  Value gridX = queryBlocks;
  if (plan.tiling.kvSplits > 1)
    gridX = math.mul(queryBlocks, math.constant(plan.tiling.kvSplits));
  // The grid's z: the batch, or the packed sequences.
  Value gridBatch = operands.packedQueries
                        ? packedSequenceCount(math, operands.packedQueries)
                        : batchSize;
  auto grid = scf::ForallOp::create(
      b, loc, getAsOpFoldResult(ValueRange{gridBatch, queryHeads, gridX}),
      ValueRange{}, b.getArrayAttr(mapping));
  // With packed sequences the block replaces these by its sequence's views
  // and sizes; what follows the grid needs the whole tensors'.
  SmallVector<Value *> perBlock = {&operands.query,
                                   &key,
                                   &value,
                                   &queryLen,
                                   &keyLen,
                                   &tensorKeyLen,
                                   &geometry.causalOffset,
                                   &geometry.windowOffset};
  SmallVector<Value> whole;
  for (Value *member : perBlock)
    whole.push_back(*member);
  buildQueryBlock(grid);
  for (auto [member, saved] : llvm::zip(perBlock, whole))
    *member = saved;
  operands.output = finalOutput;
  operands.logsumexp = finalLse;
  // The workspace is freed where the pipeline frees temporaries (the
  // ownership-based deallocation of the CPU pipeline, which refuses
  // deallocations it did not place).
  if (plan.tiling.kvSplits > 1)
    buildMerge(batchSize, queryHeads, finalOutput, finalLse);

  SmallVector<Value> results;
  for (auto [buffer, result] :
       llvm::zip(SmallVector<Value>{operands.output, operands.logsumexp},
                 op.getResults())) {
    results.push_back(bufferization::ToTensorOp::create(
        b, loc, result.getType(), buffer, /*restrict=*/true,
        /*writable=*/true));
  }
  return results;
}

/// Step 1 of buildQueryBlock: which rows, head and keys this grid block
/// works on. With split keys, the block's split and its slice of the
/// workspace; with packed sequences, views of its sequence's rows and keys
/// (the sizes and diagonals become the sequence's); with kv_lengths, its
/// sequence's key length.
KernelBuilder::QueryBlock KernelBuilder::enterQueryBlock(scf::ForallOp grid) {
  IndexMath math{b, loc};
  Value batch = grid.getInductionVar(0), head = grid.getInductionVar(1);
  Value queryBlock = grid.getInductionVar(2);
  // Under the causal band a query block's keys grow with its index, and the
  // grid starts its blocks in index order: the last query block runs first
  // (FlashAttention-2 and -3 reverse the causal order), so that the longest
  // blocks do not start last and the launch ends on short ones. (With key
  // splits, the splits of a block run in reverse too.)
  if (op.getCausal()) {
    Value gridBlocks =
        getValueOrCreateConstantIndexOp(b, loc, grid.getMixedUpperBound()[2]);
    queryBlock = math.sub(math.addConstant(gridBlocks, -1), queryBlock);
  }
  Value split;
  if (plan.tiling.kvSplits > 1) {
    // The splits of a query block are neighbours in the grid. The block's
    // epilogue writes its rows, unrounded, into its split's slice of the
    // workspace, where it would otherwise write the results.
    Value splits = math.constant(plan.tiling.kvSplits);
    split = math.remU(queryBlock, splits);
    queryBlock = math.divU(queryBlock, splits);
    auto sliceOf = [&](Value workspace) -> Value {
      auto type = cast<MemRefType>(workspace.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
      offsets[0] = split;
      SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1)};
      for (int64_t dim = 1; dim < type.getRank(); ++dim)
        sizes.push_back(memref::getMixedSize(b, loc, workspace, dim));
      SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
      auto sliceType = memref::SubViewOp::inferRankReducedResultType(
          type.getShape().drop_front(), type, offsets, sizes, strides);
      return memref::SubViewOp::create(b, loc, sliceType, workspace, offsets,
                                       sizes, strides);
    };
    operands.output = sliceOf(operands.partialOutput);
    operands.logsumexp = sliceOf(operands.partialLse);
    outputElementType = f32;
  }
  // Under the causal band a query block's keys grow with its index, and the
  // grid starts its blocks in index order: the last query block runs first
  // (FlashAttention-2 and -3 reverse the causal order), so that the longest
  // blocks do not start last and the launch ends on short ones.
  // Packed sequences: the block works in its sequence's rows and keys, on
  // views of Q, K, V, O and the logsumexp that start there (positions from
  // 0, diagonals per sequence); `batch` was the sequence, the data has one
  // batch entry.
  Value sequenceQueryStart, sequenceKeyStart;
  if (operands.packedQueries) {
    PackedSequence sequence =
        packedSequence(math, operands.packedQueries, operands.packedKeys, batch,
                       queryLen, tensorKeyLen);
    auto rowsOf = [&](Value buffer, Value start, Value count) -> Value {
      auto type = cast<MemRefType>(buffer.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
      offsets[2] = start;
      SmallVector<OpFoldResult> sizes = memref::getMixedSizes(b, loc, buffer);
      sizes[2] = count;
      SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
      return memref::SubViewOp::create(b, loc, buffer, offsets, sizes, strides);
    };
    operands.query =
        rowsOf(operands.query, sequence.queryStart, sequence.queryLen);
    key = rowsOf(key, sequence.keyStart, sequence.keyLen);
    value = rowsOf(value, sequence.keyStart, sequence.keyLen);
    operands.output =
        rowsOf(operands.output, sequence.queryStart, sequence.queryLen);
    if (operands.logsumexp)
      operands.logsumexp =
          rowsOf(operands.logsumexp, sequence.queryStart, sequence.queryLen);
    applyPackedSequence(math, geometry, sequence, queryLen, keyLen);
    tensorKeyLen = keyLen;
    sequenceQueryStart = sequence.queryStart;
    sequenceKeyStart = sequence.keyStart;
    batch = math.constant(0);
  }
  Value blockQValue = math.constant(plan.tiling.blockQ);
  Value row0 = math.mul(queryBlock, blockQValue);
  Value rows = math.min(blockQValue, math.sub(queryLen, row0));
  if (operands.packedQueries)
    emptyPastLastRow(math, rows, keyLen);
  Value kvHead = math.divU(head, groupSize);
  if (operands.kvLengths) {
    // The block's sequence: the same for all its threads, so its key loop
    // (and barriers) are too. The loop stops at the sequence's last
    // visible block; bottom-right diagonals end at its last key.
    Value length = memref::LoadOp::create(b, loc, operands.kvLengths, batch);
    keyLen = tensorKeyLen;
    applySequenceLength(math, geometry, length, queryLen, keyLen);
  }

  QueryBlock block{batch, head, split, row0, rows, kvHead};
  block.sequenceQueryStart = sequenceQueryStart;
  block.sequenceKeyStart = sequenceKeyStart;
  return block;
}

/// Step 2: the block's shared tiles (Q, a ring of `stages` K and V tiles,
/// and S and P for the shared-memory tensor-core kernel).
KernelBuilder::SharedTiles KernelBuilder::allocateSharedTiles() {
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto sharedTile = [&](ArrayRef<int64_t> shape, Type type) -> Value {
    return memref::AllocOp::create(
        b, loc,
        MemRefType::get(shape, type, MemRefLayoutAttrInterface(), workgroup));
  };
  // The layout the tile report counts (KernelModel.h).
  AttentionShape shape;
  shape.headDim = headDim;
  shape.valueDim = valueDim;
  SharedLayout layout = sharedLayout(plan, shape);
  Value querySmem = sharedTile(layout.query.shape, queryElementType);
  Value keySmem = sharedTile(layout.key.shape, keyElementType);
  Value valueSmem = sharedTile(layout.value.shape, valueElementType);
  Value results, probs;
  if (layout.results) {
    // Fragment-major: [row tile][8-column chunk][16 rows][8 columns], so a
    // warp's 16x8 result tile is 512 contiguous bytes (see resultHalves).
    results = sharedTile(layout.results->shape, f32);
    probs = sharedTile(layout.probs->shape, valueElementType);
  } else if (layout.probs) {
    // P of the TMA producer kernel's P V from shared memory, stored in
    // column blocks like Q (WarpgroupMmaKernel.cpp).
    probs = sharedTile(layout.probs->shape, valueElementType);
  }

  return SharedTiles{querySmem, keySmem, valueSmem, results, probs};
}

/// Step 3: the key blocks the query block walks (its split's run of them)
/// and where the blocks that need no element mask end.
KernelBuilder::KeyBlocks
KernelBuilder::visibleKeyBlocks(const QueryBlock &block) {
  IndexMath math{b, loc};
  Value row0 = block.row0, rows = block.rows, split = block.split;
  // The key blocks any row of the query block can see; the same for every
  // thread, so the barriers in the loop are reached by all of them.
  VisibleKeys visible =
      geometry.visibleKeys(math, row0, rows, keyLen, plan.tiling.blockKV);
  if (split)
    visible = splitVisibleKeys(math, visible, split, plan.tiling.kvSplits,
                               plan.tiling.blockKV);
  Value firstBlockStart = visible.firstBlockStart, keyEnd = visible.keyEnd;
  // A mask_mod narrows the walk to the key blocks from the first to the
  // last that it may show some row of the block (MaskModIntervals.h, the
  // tiled lowering's test): a document mask's walk becomes its documents'
  // diagonal blocks, a prefix-LM's the prefix and the diagonal. Hidden
  // blocks between visible ones are walked and masked: the key loop stays
  // one loop with thread-independent bounds, which the cp.async and TMA
  // pipelines (and the CPU model's barrier fission) build on.
  if (Block *maskMod = op.getMaskModBlock()) {
    Value lastRow = math.addConstant(math.add(row0, rows), -1);
    std::tie(firstBlockStart, keyEnd) =
        narrowWalk(b, loc, maskMod,
                   {{block.batch, block.batch},
                    {block.head, block.head},
                    {row0, lastRow},
                    {}},
                   /*walked=*/3, firstBlockStart, keyEnd, plan.tiling.blockKV,
                   &operands.modifierCaptures);
  }
  // The blocks from unmaskedBegin to unmaskedEnd need no element mask:
  // every row of the query block sees each of their keys. Without a band
  // that is every block but the one with the sequence's last keys; under a
  // causal or window band, also not those the diagonal crosses (a key past
  // the first row's diagonal, or past its window's right edge: later rows
  // see more) and, with a window, not those its left edge crosses (a key
  // before the last row's left edge: earlier rows see more). Like the range
  // above, the same for every thread. An explicit mask masks every block.
  KeyBlocks keys{firstBlockStart, keyEnd, Value(), Value()};
  if (operands.mask)
    return keys;
  Value seenByEveryRow = keyLen;
  WindowAttr window = op.getWindowAttr();
  if (op.getCausal() || window) {
    if (!plan.splitBandWalk)
      return keys;
    keys.band = true;
  }
  if (op.getCausal()) {
    Value firstRowDiagonal = math.add(row0, geometry.causalOffset);
    seenByEveryRow =
        math.min(seenByEveryRow, math.addConstant(firstRowDiagonal, 1));
  }
  if (window) {
    Value firstRowDiagonal = math.add(row0, geometry.windowOffset);
    seenByEveryRow =
        math.min(seenByEveryRow,
                 math.addConstant(firstRowDiagonal, window.getRight() + 1));
  }
  keys.unmaskedEnd = wholeKeyBlocksEnd(math, firstBlockStart, keyEnd,
                                       seenByEveryRow, plan.tiling.blockKV);
  if (window) {
    // The first block boundary at or after the last row's left edge, kept
    // within [firstBlockStart, unmaskedEnd].
    Value lastRow = math.addConstant(math.add(row0, rows), -1);
    Value lastLeftEdge = math.addConstant(
        math.add(lastRow, geometry.windowOffset), -window.getLeft());
    Value blockKV = math.constant(plan.tiling.blockKV);
    Value past =
        math.max(math.sub(lastLeftEdge, firstBlockStart), math.constant(0));
    Value begin = math.add(firstBlockStart,
                           math.mul(math.ceilDiv(past, blockKV), blockKV));
    keys.unmaskedBegin = math.min(begin, keys.unmaskedEnd);
  }
  return keys;
}

/// One query block: its shared tiles, then its threads, each on a query row
/// (or a warp on its rows), walking the key blocks the block can see. The
/// variant (KernelVariant) says what a thread keeps and how a key block
/// changes it; the schedule (KeyTileSchedule) how K and V reach shared
/// memory.
void KernelBuilder::buildQueryBlock(scf::ForallOp grid) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(grid.getBody());
  QueryBlock block = enterQueryBlock(grid);
  SharedTiles tiles = allocateSharedTiles();
  if (plan.tmaProducer)
    createBarriers();
  KeyBlocks keys = visibleKeyBlocks(block);
  startFromSink(block);
  ThreadRow self = enterThreadLoop(block, tiles);
  std::unique_ptr<KernelVariant> variant =
      plan.warpgroupMma ? makeWarpgroupMmaVariant(*this, block, tiles, self)
      : registerFragments
          ? makeRegisterFragmentVariant(*this, block, tiles, self)
      : plan.tensorCores ? makeSharedMmaVariant(*this, block, tiles, self)
                         : makeFMAVariant(*this, block, tiles, self);
  SmallVector<Value> init = variant->initState();
  std::unique_ptr<KeyTileSchedule> schedule =
      makeKeyTileSchedule(*this, block, tiles, keys, self);
  SmallVector<Value> final = schedule->walk(*variant, init);
  if (!plan.tmaProducer) {
    variant->finish(final);
    return;
  }
  // The producer warpgroup holds no rows.
  auto computing = scf::IfOp::create(b, loc, isComputeThread(self.thread),
                                     /*withElseRegion=*/false);
  b.setInsertionPoint(computing.thenBlock()->getTerminator());
  variant->finish(final);
}

SmallVector<Value> KernelVariant::firstBlock(const KeyBlockAt &,
                                             const OverlapHooks &,
                                             ValueRange) {
  llvm_unreachable("planKernel overlaps P V only on wgmma");
}
SmallVector<Value> KernelVariant::overlappedBlock(const KeyBlockAt &,
                                                  const KeyBlockAt &,
                                                  const OverlapHooks &,
                                                  ValueRange) {
  llvm_unreachable("planKernel overlaps P V only on wgmma");
}
SmallVector<Value> KernelVariant::lastValues(const KeyBlockAt &,
                                             const OverlapHooks &,
                                             ValueRange) {
  llvm_unreachable("planKernel overlaps P V only on wgmma");
}

/// Step 4: the block's threads. Each copies its share of the Q tile and
/// works on row t / rowSplit of the block.
KernelBuilder::ThreadRow
KernelBuilder::enterThreadLoop(const QueryBlock &block,
                               const SharedTiles &tiles) {
  IndexMath math{b, loc};
  auto threadLoop = createThreadLoop(b, loc, threads);
  b.setInsertionPointToStart(threadLoop.getBody());
  Value thread = threadLoop.getInductionVar(0);
  Value zero = math.constant(0);
  if (plan.tmaProducer)
    loadQueryByTma(block, tiles.query, thread);
  else
    copyTile(operands.query, block.batch, block.head, block.row0, block.rows,
             plan.tiling.blockQ, headDim, tiles.query, Value(), thread);
  // The register kernel synchronizes only around the shared K/V buffers:
  // the first key block's barrier (after its K/V copy) also orders this
  // copy before any read of Q, and a block that sees no key never reads Q.
  // Within a warp, data moves only through warp-synchronous collectives
  // (ldmatrix, mma.sync, shfl.sync), which need no barrier of their own.
  if (!registerFragments)
    gpu::BarrierOp::create(b, loc);

  // The row-per-thread variants use these; the register-fragment variant
  // (rows per warp) does not, and canonicalization drops them there. They
  // are built here for all so that the kernel's IR keeps one op order.
  Value rowInBlock = plan.rowSplit == 1
                         ? thread
                         : math.divU(thread, math.constant(plan.rowSplit));
  Value row = math.add(block.row0, rowInBlock);
  Value ownsRow =
      math.lt(thread, math.constant(plan.tiling.blockQ * plan.rowSplit));
  Value keyStep = math.constant(plan.tiling.blockKV);
  return ThreadRow{thread, row, ownsRow, zero, keyStep};
}

/// (m, l, acc slices...) = (-inf, 0, 0): the state of a thread's row in
/// the FMA and shared-memory tensor-core variants.
void KernelBuilder::startFromSink(const QueryBlock &block) {
  initialMax = initialSum = Value();
  if (!operands.sinks)
    return;
  Value negInf = f32Constant(b, loc, -std::numeric_limits<double>::infinity());
  // The sink is one more logit with no value: the state starts as if it
  // had been seen (u is the scaled score here, SoftmaxExponent::of).
  IndexMath math{b, loc};
  Value sink = sinkLogit(math, operands.sinks, block.head);
  if (block.split)
    sink = arith::SelectOp::create(
        b, loc, math.eq(block.split, math.constant(0)), sink, negInf);
  Value seen =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, sink, negInf);
  initialMax = sink;
  initialSum = arith::SelectOp::create(b, loc, seen, f32Constant(b, loc, 1),
                                       f32Constant(b, loc, 0));
}

std::pair<Value, Value> KernelBuilder::rowStartState() {
  if (initialMax)
    return {initialMax, initialSum};
  Value negInf = f32Constant(b, loc, -std::numeric_limits<double>::infinity());
  return {negInf, f32Constant(b, loc, 0)};
}

std::pair<Value, Value> KernelBuilder::quadStartState(Value thread) {
  auto [max, sum] = rowStartState();
  if (!initialMax)
    return {max, sum};
  IndexMath math{b, loc};
  Value lane = math.remU(thread, math.constant(4));
  Value first = math.eq(lane, math.constant(0));
  Value zero = f32Constant(b, loc, 0);
  return {max, arith::SelectOp::create(b, loc, first, sum, zero)};
}

SmallVector<Value> KernelBuilder::rowInitState() {
  auto [initMax, initSum] = rowStartState();
  Value initAcc = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(VectorType::get({accumulatorSlice()}, f32), 0.0f));
  SmallVector<Value> state = {initMax, initSum};
  state.append(accumulatorSlices(), initAcc);
  return state;
}

void KernelBuilder::storeRowResults(const QueryBlock &block,
                                    const ThreadRow &self, ValueRange state,
                                    bool halves) {
  IndexMath math{b, loc};
  Value batch = block.batch, head = block.head, row = self.row;
  Value inRange = math.andI(self.ownsRow, math.lt(row, queryLen));
  RowHalves rowHalves;
  if (halves)
    rowHalves = resultHalves(self.thread);
  scf::IfOp::create(b, loc, inRange, [&](OpBuilder &tb, Location tloc) {
    Value finalMax = state[0], finalSum = state[1];
    Value zeroF = f32Constant(tb, tloc, 0);
    Value isEmpty = arith::CmpFOp::create(tb, tloc, arith::CmpFPredicate::OEQ,
                                          finalSum, zeroF);
    int64_t slice = accumulatorSlice();
    auto sliceType = VectorType::get({slice}, f32);
    Value sums = vector::BroadcastOp::create(tb, tloc, sliceType, finalSum);
    Value zeros = arith::ConstantOp::create(
        tb, tloc, DenseElementsAttr::get(sliceType, 0.0f));
    for (int64_t index = 0; index < accumulatorSlices(); ++index) {
      Value part = state[2 + index];
      Value quotient = arith::DivFOp::create(tb, tloc, part, sums);
      Value normalized =
          arith::SelectOp::create(tb, tloc, isEmpty, zeros, quotient);
      if (!outputElementType.isF32())
        normalized = arith::TruncFOp::create(
            tb, tloc, sliceType.clone(outputElementType), normalized);
      Value column = arith::ConstantIndexOp::create(tb, tloc, index * slice);
      if (halves) {
        // Slice `index` of the thread is chunk index * rowSplit + part,
        // its two halves in the thread's order.
        IndexMath tm{tb, tloc};
        Value sliceSize = tm.constant(slice);
        Value chunk =
            tm.add(tm.constant(index * plan.rowSplit), rowHalves.part);
        column = tm.mul(chunk, sliceSize);
        int64_t half = slice / 2;
        for (auto [position, offset] : llvm::enumerate(rowHalves.halves)) {
          // A shuffle, not extract_strided_slice: the NVVM lowering
          // converts 1-D shuffles only.
          int64_t first = static_cast<int64_t>(position) * half;
          SmallVector<int64_t> lanes =
              llvm::to_vector(llvm::seq<int64_t>(first, first + half));
          Value part = vector::ShuffleOp::create(tb, tloc, normalized,
                                                 normalized, lanes);
          Value at = arith::AddIOp::create(tb, tloc, column, offset);
          // Rows are whole 16-byte chunks, halves 8-byte aligned.
          vector::StoreOp::create(tb, tloc, part, operands.output,
                                  ValueRange{batch, head, row, at})
              .setAlignment(half * elementBytes(outputElementType));
        }
        continue;
      }
      // 16-byte aligned when the slice is 16 bytes: rows of whole slices.
      storeVector(tb, tloc, normalized, operands.output,
                  ValueRange{batch, head, row, column});
    }
    if (operands.logsumexp) {
      Value logSum = math::LogOp::create(tb, tloc, finalSum);
      Value lse = arith::AddFOp::create(
          tb, tloc, exponent.naturalMax(tb, tloc, finalMax), logSum);
      auto store = [&](OpBuilder &sb, Location sloc) {
        memref::StoreOp::create(sb, sloc, lse, operands.logsumexp,
                                ValueRange{batch, head, row});
      };
      // Every part of a row holds the same value: part 0 writes it.
      if (plan.rowSplit == 1) {
        store(tb, tloc);
      } else {
        IndexMath tm{tb, tloc};
        scf::IfOp::create(tb, tloc, tm.eq(rowHalves.part, tm.constant(0)),
                          [&](OpBuilder &sb, Location sloc) {
                            store(sb, sloc);
                            scf::YieldOp::create(sb, sloc);
                          });
      }
    }
    scf::YieldOp::create(tb, tloc);
  });
}

/// The merge kernel: one thread per (query row, column slice) of 16 bytes
/// of f32, a block of up to kMergeThreads threads over whole rows:
///   M = max_s lse_s, W = sum_s e^(lse_s - M),
///   O = sum_s e^(lse_s - M) O_s / W (0 where W = 0), lse = M + log W,
/// with M taken as 0 where no split saw a key. Every thread of a row
/// recomputes M and W from the S logsumexps (cached by the hardware);
/// there is no shared memory and no barrier.
void KernelBuilder::buildMerge(Value batchSize, Value queryHeads,
                               Value finalOutput, Value finalLse) {
  constexpr int64_t kMergeThreads = 128;
  IndexMath math{b, loc};
  int64_t slice = valueDim % 4 == 0 ? 4 : 1;
  int64_t slices = valueDim / slice;
  int64_t columnThreads = std::min(slices, kMergeThreads);
  int64_t rowsPerBlock = std::max<int64_t>(1, kMergeThreads / columnThreads);
  Value rowBlocks = math.ceilDiv(queryLen, math.constant(rowsPerBlock));
  SmallVector<Attribute> mapping = {
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimZ),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimY),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)};
  auto grid = scf::ForallOp::create(
      b, loc, getAsOpFoldResult(ValueRange{batchSize, queryHeads, rowBlocks}),
      ValueRange{}, b.getArrayAttr(mapping));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(grid.getBody());
  Value batch = grid.getInductionVar(0), head = grid.getInductionVar(1);
  Value rowBlock = grid.getInductionVar(2);
  auto threadLoop = createThreadLoop(b, loc, rowsPerBlock * columnThreads);
  b.setInsertionPointToStart(threadLoop.getBody());
  Value thread = threadLoop.getInductionVar(0);
  Value columnThreadsValue = math.constant(columnThreads);
  Value rowInBlock = math.divU(thread, columnThreadsValue);
  Value columnThread = math.remU(thread, columnThreadsValue);
  Value row = math.add(math.mul(rowBlock, math.constant(rowsPerBlock)),
                       rowInBlock);
  Value zero = math.constant(0), one = math.constant(1);
  Value splits = math.constant(plan.tiling.kvSplits);
  scf::IfOp::create(b, loc, math.lt(row, queryLen), [&](OpBuilder &tb,
                                                        Location tloc) {
    OpBuilder::InsertionGuard rowGuard(b);
    b.setInsertionPoint(tb.getInsertionBlock(), tb.getInsertionPoint());
    IndexMath tm{b, tloc};
    Value negInf = f32Constant(b, tloc, -std::numeric_limits<double>::infinity());
    auto maxLoop = scf::ForOp::create(
        b, tloc, zero, splits, one, ValueRange{negInf},
        [&](OpBuilder &lb, Location lloc, Value s, ValueRange state) {
          Value lse = memref::LoadOp::create(lb, lloc, operands.partialLse,
                                             ValueRange{s, batch, head, row});
          scf::YieldOp::create(
              lb, lloc,
              ValueRange{arith::MaximumFOp::create(lb, lloc, state[0], lse)});
        });
    Value shift = safeRowMax(b, tloc, maxLoop.getResult(0));
    auto weightOf = [&](OpBuilder &wb, Location wloc, Value lse) -> Value {
      Value shifted = arith::SubFOp::create(wb, wloc, lse, shift);
      return math::ExpOp::create(wb, wloc, shifted);
    };
    auto sumLoop = scf::ForOp::create(
        b, tloc, zero, splits, one, ValueRange{f32Constant(b, tloc, 0)},
        [&](OpBuilder &lb, Location lloc, Value s, ValueRange state) {
          Value lse = memref::LoadOp::create(lb, lloc, operands.partialLse,
                                             ValueRange{s, batch, head, row});
          Value w = weightOf(lb, lloc, lse);
          scf::YieldOp::create(
              lb, lloc, ValueRange{arith::AddFOp::create(lb, lloc, state[0], w)});
        });
    Value weightSum = sumLoop.getResult(0);
    auto sliceType = VectorType::get({slice}, f32);
    Value zeros =
        arith::ConstantOp::create(b, tloc, DenseElementsAttr::get(sliceType, 0.0f));
    Value sums = vector::BroadcastOp::create(b, tloc, sliceType, weightSum);
    Value isEmpty = arith::CmpFOp::create(b, tloc, arith::CmpFPredicate::OEQ,
                                          weightSum, f32Constant(b, tloc, 0));
    scf::ForOp::create(
        b, tloc, columnThread, tm.constant(slices), columnThreadsValue,
        ValueRange{},
        [&](OpBuilder &cb, Location cloc, Value sliceIndex, ValueRange) {
          OpBuilder::InsertionGuard columnGuard(b);
          b.setInsertionPoint(cb.getInsertionBlock(), cb.getInsertionPoint());
          IndexMath cm{b, cloc};
          Value column = cm.mul(sliceIndex, cm.constant(slice));
          auto accLoop = scf::ForOp::create(
              b, cloc, zero, splits, one, ValueRange{zeros},
              [&](OpBuilder &lb, Location lloc, Value s, ValueRange state) {
                Value lse =
                    memref::LoadOp::create(lb, lloc, operands.partialLse,
                                           ValueRange{s, batch, head, row});
                Value w = vector::BroadcastOp::create(lb, lloc, sliceType,
                                                      weightOf(lb, lloc, lse));
                Value part =
                    loadVector(lb, lloc, sliceType, operands.partialOutput,
                               ValueRange{s, batch, head, row, column});
                Value sum = vector::FMAOp::create(lb, lloc, w, part, state[0]);
                scf::YieldOp::create(lb, lloc, ValueRange{sum});
              });
          Value quotient =
              arith::DivFOp::create(b, cloc, accLoop.getResult(0), sums);
          Value normalized =
              arith::SelectOp::create(b, cloc, isEmpty, zeros, quotient);
          Type resultType =
              cast<MemRefType>(finalOutput.getType()).getElementType();
          if (!resultType.isF32())
            normalized = arith::TruncFOp::create(
                b, cloc, sliceType.clone(resultType), normalized);
          storeVector(b, cloc, normalized, finalOutput,
                      ValueRange{batch, head, row, column});
          scf::YieldOp::create(b, cloc);
        });
    if (finalLse) {
      scf::IfOp::create(
          b, tloc, tm.eq(columnThread, zero), [&](OpBuilder &sb, Location sloc) {
            Value logSum = math::LogOp::create(sb, sloc, weightSum);
            Value lse = arith::AddFOp::create(sb, sloc, shift, logSum);
            memref::StoreOp::create(sb, sloc, lse, finalLse,
                                    ValueRange{batch, head, row});
            scf::YieldOp::create(sb, sloc);
          });
    }
    scf::YieldOp::create(b, tloc);
  });
}

SmallVector<Value>
KernelBuilder::forRowOwner(Value ownsRow,
                           function_ref<SmallVector<Value>()> compute,
                           ValueRange otherwise) {
  // No branch, which also keeps the row phases' warp shuffles out of one.
  if (plan.tiling.blockQ * plan.rowSplit == threads)
    return compute();
  auto branch = scf::IfOp::create(
      b, loc, ownsRow,
      [&](OpBuilder &tb, Location tloc) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(tb.getInsertionBlock(), tb.getInsertionPoint());
        scf::YieldOp::create(b, tloc, compute());
      },
      [&](OpBuilder &eb, Location eloc) {
        scf::YieldOp::create(eb, eloc, otherwise);
      });
  return SmallVector<Value>(branch.getResults());
}

/// The element's u (SoftmaxExponent: the masked raw or scaled score) under
/// this op's masks.
Value KernelBuilder::scoreOf(Value raw, Value batch, Value head, Value row,
                             Value col) {
  bool regions = op.getScoreModBlock() || op.getMaskModBlock();
  if (elementMasks == ElementMasks::none && !regions)
    return exponent.rawScores ? raw : arith::MulFOp::create(b, loc, raw, scale);
  ScoreMasks masks{operands.mask, operands.maskBroadcast,
                   queryLen,      tensorKeyLen,
                   keyLen,        geometry,
                   elementMasks,  &operands.modifierCaptures};
  return kernelScore(b, loc, op, masks, raw,
                     exponent.rawScores ? Value() : scale, batch, head, row,
                     col);
}

} // namespace mlir::fa::gpu_kernel

namespace {

using gpu_kernel::KernelBuilder;

struct FADistributeAttentionPass
    : fa::impl::FADistributeAttentionBase<FADistributeAttentionPass> {
  using FADistributeAttentionBase::FADistributeAttentionBase;

  void runOnOperation() override {
    KernelOptions options{asyncCopies,  tensorCores,    registerFragments,
                          warpgroupMma, tmaProducer,    overlapSoftmax,
                          pingPong};
    if (failed(lowerEach<AttentionOp>(
            getOperation(), [&](RewriterBase &rewriter, AttentionOp op) {
              return success(
                  succeeded(distributeAttention(rewriter, op, options)));
            })))
      signalPassFailure();
  }
};

} // namespace

KernelPlan mlir::fa::planForwardKernel(AttentionOp op,
                                       const KernelOptions &options) {
  TilingAttr tiling = op.getTilingAttr();
  Tiling sizes{tiling.getBlockQ(), tiling.getBlockKv(), tiling.getWarps(),
               tiling.getStages()};
  sizes.kvSplits = tiling.getKvSplits();
  sizes.packGQA = tiling.getPackGqa();
  auto elementType = [](Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType();
  };
  Type keyType = elementType(op.getKey()),
       valueType = elementType(op.getValue());
  AttentionShape shape = describeAttentionShape(op);
  return planKernel(sizes, shape, gpu_kernel::elementBytes(keyType),
                    gpu_kernel::elementBytes(valueType), options);
}

FailureOr<SmallVector<Value>>
mlir::fa::distributeAttention(RewriterBase &rewriter, AttentionOp op,
                              const KernelOptions &options) {
  FailureOr<AttentionOp> lowered =
      prepareForwardLowering(rewriter, op, TiledLowering::Kernel);
  if (failed(lowered))
    return failure();
  op = *lowered;
  LLVM_DEBUG(llvm::dbgs() << "building the kernel of " << op << "\n");
  KernelPlan plan = planForwardKernel(op, options);
  if (options.tmaProducer && plan.warpgroupMma && !plan.tmaProducer)
    op.emitRemark() << "the wgmma kernel loads this op's tiles with cp.async, "
                       "not TMA: "
                    << whyNoTmaProducerTiling(plan.tiling,
                                              describeAttentionShape(op));
  LLVM_DEBUG(llvm::dbgs() << "kernel plan: " << plan.describe() << "\n");
  KernelBuilder kernel(op, rewriter, plan);
  SmallVector<Value> results = kernel.build();
  rewriter.replaceOp(op, results);
  return results;
}

void mlir::fa::populateDistributeAttentionPatterns(
    RewritePatternSet &patterns, const KernelOptions &options) {
  MLIRContext *context = patterns.getContext();
  patterns.add<LoweringPattern<AttentionOp>>(
      context,
      [](AttentionOp op) { return tilingProblem(op, TiledLowering::Kernel); },
      [options](RewriterBase &rewriter, AttentionOp op) {
        return distributeAttention(rewriter, op, options);
      });
  patterns.add<LoweringPattern<AttentionBackwardOp>>(
      context,
      [options](AttentionBackwardOp op) {
        return whyNoBackwardKernel(op, options);
      },
      [options](RewriterBase &rewriter, AttentionBackwardOp op) {
        return distributeAttentionBackward(rewriter, op, options);
      });
}
