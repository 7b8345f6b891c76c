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
//       gpu.barrier
//       (m, l, acc) = (-inf, 0, 0)               -- registers of thread t
//       scf.for k0 over the key blocks the query block can see
//         copy K, V tiles -> K_s, V_s[stage]; gpu.barrier
//         if t < Br: online softmax of query row t over the tile, in
//                    chunks of up to 16 keys (scores in registers)
//         gpu.barrier                             -- only when stages == 1
//       if t < Br and row t exists: O = acc / l, logsumexp = m + log l
//
// Thread t owns query row t of the block, so warp w owns rows 32w..32w+31:
// FlashAttention-2's split-Q, where warps never exchange partial results and
// the row max and row sum never leave the thread's registers. K and V rows
// are read by all threads of a warp at the same address (a broadcast), and
// Q_s rows are read 16 bytes at a time at a stride of D * e + 16 bytes,
// which puts the 8 threads of each quarter-warp on distinct banks.
// With stages >= 2 the key blocks rotate through the K/V buffers, so one
// barrier per key block suffices: a thread that fills buffer s again has
// passed the barrier that every thread reaches only after finishing with it.
//
// With f16 or bf16 operands on sm_80 and later (tensorCoreKernel), the two
// matmuls are warp-level instead: each warp multiplies its 16-row tiles of
// Q (then P) with vector.contract on 16x16 and 8x16 shared tiles, into an
// f32 tile in shared memory that thread t then reads row t of (see
// warpScores); fa-warp-matmuls-to-nvgpu turns them into ldmatrix and
// mma.sync. Otherwise products are accumulated in f32 with FMAs.
//
// This form runs on a CPU (fa-emulate-threads-on-cpu), which is how the
// kernel's numbers are tested; fa-lower-to-gpu maps it onto gpu.launch.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "fa/Transforms/Common/LoweringDriver.h"
#include "fa/Transforms/Common/PackQueryGroups.h"
#include "fa/Transforms/Common/TensorBuilders.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"
#include "fa/Transforms/Passes.h"
#include "fa/Transforms/TileSelection/TileSelection.h"

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
#include "fa/Transforms/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;

namespace mlir::fa::gpu_kernel {

SmallVector<Value> KernelBuilder::build() {
  IndexMath math{b, loc};
  auto toBuffer = [&](Value tensor) { return readOnlyBuffer(b, loc, tensor); };
  query = toBuffer(op.getQuery());
  key = toBuffer(op.getKey());
  value = toBuffer(op.getValue());
  if (op.getMask())
    mask = toBuffer(op.getMask());
  if (op.getKvLengths())
    kvLengths = toBuffer(op.getKvLengths());
  if (op.getPageTable())
    pageTable = toBuffer(op.getPageTable());
  if (op.isPacked()) {
    packedQueries = toBuffer(op.getCuSeqlensQ());
    packedKeys = toBuffer(op.getCuSeqlensK());
  }

  Value batchSize = math.dim(query, 0), queryHeads = math.dim(query, 1);
  queryLen = math.dim(query, 2);
  Value keyHeads;
  std::tie(keyHeads, keyLen) = keyHeadsAndLength(math, key, pageTable);
  tensorKeyLen = keyLen;
  groupSize = math.divU(queryHeads, keyHeads);
  Value queryBlocks = math.ceilDiv(queryLen, math.constant(blockQ));
  geometry = AttentionGeometry::align(math, op, queryLen, keyLen);
  scale = f32Constant(b, loc, op.getScale().convertToDouble());
  exponent = SoftmaxExponent::of(op);
  maskBroadcast = maskBroadcastDims(op);

  // The results are written in place, one row per thread.
  auto outputTensorType = cast<RankedTensorType>(op.getOutput().getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0; dim < 3; ++dim)
    if (outputTensorType.isDynamicDim(dim))
      dynamicSizes.push_back(math.dim(query, dim));
  output = memref::AllocOp::create(
      b, loc, MemRefType::get(outputTensorType.getShape(), outputElementType),
      dynamicSizes);
  if (op.getLogsumexp()) {
    auto lseType = cast<RankedTensorType>(op.getLogsumexp().getType());
    logsumexp = memref::AllocOp::create(
        b, loc, MemRefType::get(lseType.getShape(), f32), dynamicSizes);
  }

  // With key splits, every block writes its split's output (in f32) and
  // logsumexp into the workspace, which the merge kernel then reads.
  Value finalOutput = output, finalLse = logsumexp;
  if (kvSplits > 1) {
    SmallVector<int64_t> shape = {kvSplits};
    llvm::append_range(shape, outputTensorType.getShape());
    partialOutput =
        memref::AllocOp::create(b, loc, MemRefType::get(shape, f32), dynamicSizes);
    shape.pop_back();
    partialLse =
        memref::AllocOp::create(b, loc, MemRefType::get(shape, f32), dynamicSizes);
  }

  SmallVector<Attribute> mapping = {
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimZ),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimY),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)};
  Value gridX = queryBlocks;
  if (kvSplits > 1)
    gridX = math.mul(queryBlocks, math.constant(kvSplits));
  // The grid's z: the batch, or the packed sequences.
  Value gridBatch =
      packedQueries ? packedSequenceCount(math, packedQueries) : batchSize;
  auto grid = scf::ForallOp::create(
      b, loc, getAsOpFoldResult(ValueRange{gridBatch, queryHeads, gridX}),
      ValueRange{}, b.getArrayAttr(mapping));
  // With packed sequences the block replaces these by its sequence's views
  // and sizes; what follows the grid needs the whole tensors'.
  SmallVector<Value *> perBlock = {&query,
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
  output = finalOutput;
  logsumexp = finalLse;
  // The workspace is freed where the pipeline frees temporaries (the
  // ownership-based deallocation of the CPU pipeline, which refuses
  // deallocations it did not place).
  if (kvSplits > 1)
    buildMerge(batchSize, queryHeads, finalOutput, finalLse);

  SmallVector<Value> results;
  for (auto [buffer, result] :
       llvm::zip(SmallVector<Value>{output, logsumexp}, op.getResults())) {
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
  Value split;
  if (kvSplits > 1) {
    // The splits of a query block are neighbours in the grid. The block's
    // epilogue writes its rows, unrounded, into its split's slice of the
    // workspace, where it would otherwise write the results.
    Value splits = math.constant(kvSplits);
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
    output = sliceOf(partialOutput);
    logsumexp = sliceOf(partialLse);
    outputElementType = f32;
  }
  // Packed sequences: the block works in its sequence's rows and keys, on
  // views of Q, K, V, O and the logsumexp that start there (positions from
  // 0, diagonals per sequence); `batch` was the sequence, the data has one
  // batch entry.
  if (packedQueries) {
    PackedSequence sequence = packedSequence(
        math, packedQueries, packedKeys, batch, queryLen, tensorKeyLen);
    auto rowsOf = [&](Value buffer, Value start, Value count) -> Value {
      auto type = cast<MemRefType>(buffer.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
      offsets[2] = start;
      SmallVector<OpFoldResult> sizes = memref::getMixedSizes(b, loc, buffer);
      sizes[2] = count;
      SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
      return memref::SubViewOp::create(b, loc, buffer, offsets, sizes, strides);
    };
    query = rowsOf(query, sequence.queryStart, sequence.queryLen);
    key = rowsOf(key, sequence.keyStart, sequence.keyLen);
    value = rowsOf(value, sequence.keyStart, sequence.keyLen);
    output = rowsOf(output, sequence.queryStart, sequence.queryLen);
    if (logsumexp)
      logsumexp = rowsOf(logsumexp, sequence.queryStart, sequence.queryLen);
    applyPackedSequence(math, geometry, sequence, queryLen, keyLen);
    tensorKeyLen = keyLen;
    batch = math.constant(0);
  }
  Value blockQValue = math.constant(blockQ);
  Value row0 = math.mul(queryBlock, blockQValue);
  Value rows = math.min(blockQValue, math.sub(queryLen, row0));
  if (packedQueries)
    emptyPastLastRow(math, rows, keyLen);
  Value kvHead = math.divU(head, groupSize);
  if (kvLengths) {
    // The block's sequence: the same for all its threads, so its key loop
    // (and barriers) are too. The loop stops at the sequence's last
    // visible block; bottom-right diagonals end at its last key.
    Value length = memref::LoadOp::create(b, loc, kvLengths, batch);
    keyLen = tensorKeyLen;
    applySequenceLength(math, geometry, length, queryLen, keyLen);
  }

  return QueryBlock{batch, head, split, row0, rows, kvHead};
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
  Value querySmem =
      sharedTile({blockQ, sharedRowLength(headDim, queryElementType)},
                 queryElementType);
  Value keySmem =
      sharedTile({stages, blockKV, sharedRowLength(headDim, keyElementType)},
                 keyElementType);
  Value valueSmem = sharedTile(
      {stages, blockKV, sharedRowLength(valueDim, valueElementType)},
      valueElementType);
  Value results, probs;
  if (tensorCores && !registerFragments) {
    // Fragment-major: [row tile][8-column chunk][16 rows][8 columns], so a
    // warp's 16x8 result tile is 512 contiguous bytes (see resultHalves).
    results = sharedTile({blockQ / kMmaM, std::max(blockKV, valueDim) / kMmaN,
                          kMmaM, kMmaN},
                         f32);
    probs = sharedTile({blockQ, paddedWidth(blockKV, valueElementType)},
                       valueElementType);
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
  VisibleKeys visible = geometry.visibleKeys(math, row0, rows, keyLen, blockKV);
  if (split)
    visible = splitVisibleKeys(math, visible, split, kvSplits, blockKV);
  Value firstBlockStart = visible.firstBlockStart, keyEnd = visible.keyEnd;
  // Without bands or a mask, the blocks before this need no element mask
  // (keyLoop below); like the range above, the same for every thread.
  Value unmaskedEnd;
  if (!mask && !op.getCausal() && !op.getWindowAttr())
    unmaskedEnd = wholeKeyBlocksEnd(math, firstBlockStart, keyEnd, keyLen,
                                    blockKV);

  return KeyBlocks{firstBlockStart, keyEnd, unmaskedEnd};
}

/// One query block: shared tiles, then one thread per query row.
void KernelBuilder::buildQueryBlock(scf::ForallOp grid) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(grid.getBody());
  IndexMath math{b, loc};
  QueryBlock block = enterQueryBlock(grid);
  SharedTiles tiles = allocateSharedTiles();
  KeyBlocks keys = visibleKeyBlocks(block);
  // Step 4: the threads' loop over those key blocks, and the epilogue.
  Value batch = block.batch, head = block.head, split = block.split;
  Value row0 = block.row0, rows = block.rows, kvHead = block.kvHead;
  Value querySmem = tiles.query, keySmem = tiles.key, valueSmem = tiles.value;
  Value results = tiles.results, probs = tiles.probs;
  Value firstBlockStart = keys.firstBlockStart, keyEnd = keys.keyEnd;
  Value unmaskedEnd = keys.unmaskedEnd;
  (void)split;
  auto threadLoop = scf::ForallOp::create(
      b, loc, SmallVector<OpFoldResult>{b.getIndexAttr(threads)}, ValueRange{},
      b.getArrayAttr(
          {gpu::GPUThreadMappingAttr::get(ctx, gpu::MappingId::DimX)}));
  b.setInsertionPointToStart(threadLoop.getBody());
  Value thread = threadLoop.getInductionVar(0);
  Value zero = math.constant(0);
  copyTile(query, batch, head, row0, rows, blockQ, headDim, querySmem, Value(),
           thread);
  // The register kernel synchronizes only around the shared K/V buffers:
  // the first key block's barrier (after its K/V copy) also orders this
  // copy before any read of Q, and a block that sees no key never reads Q.
  // Within a warp, data moves only through warp-synchronous collectives
  // (ldmatrix, mma.sync, shfl.sync), which need no barrier of their own.
  if (!registerFragments)
    gpu::BarrierOp::create(b, loc);

  // Thread t works on row t / rowSplit of the block.
  Value rowInBlock =
      rowSplit == 1 ? thread : math.divU(thread, math.constant(rowSplit));
  Value row = math.add(row0, rowInBlock);
  Value ownsRow = math.lt(thread, math.constant(blockQ * rowSplit));
  Value blockKVValue = math.constant(blockKV);
  Value initMax = f32Constant(b, loc, -std::numeric_limits<double>::infinity());
  Value initSum = f32Constant(b, loc, 0);
  Value initAcc = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(VectorType::get({accumulatorSlice()}, f32), 0.0f));
  SmallVector<Value> initState = {initMax, initSum};
  initState.append(accumulatorSlices(), initAcc);
  if (registerFragments)
    initState = fragmentInitState();
  Value lastKey = math.addConstant(tensorKeyLen, -1);
  // The tile of key block i + 1 is fetched into buffer (i + 1) % stages
  // while block i is computed: the valid rows of the block at `start`.
  auto validKeyRows = [&](IndexMath &m, Value start) {
    Value visible = m.lt(start, keyEnd);
    Value rowsLeft = m.min(blockKVValue, m.sub(keyLen, start));
    return arith::SelectOp::create(b, loc, visible, rowsLeft, m.constant(0))
        .getResult();
  };
  // FlashAttention-2's copies (register kernel, cp.async): with one K and
  // one V buffer, V is requested before S = Q K^T and the next K before the
  // softmax, each its own commit group, each waited for just before it is
  // read; with two or more buffers, the next block's K and V are requested
  // a whole block ahead, right after the barrier that frees their buffers.
  // Blocks past the visible keys are not fetched (a uniform branch), so a
  // shape whose keys fill whole blocks needs no tail handling at all.
  bool fragmentOrder = registerFragments && asyncCopies;
  bool splitGroups = fragmentOrder && stages == 1;
  auto keyRows = [&](IndexMath &m, Value start) -> Value {
    if (wholeKeyBlocks())
      return Value();
    return validKeyRows(m, start);
  };
  // One commit group of the K and/or V tiles of the block at `start`
  // (both when `values` and `keys`), into `tileStage`; its token.
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(ctx);
  auto requestTiles = [&](IndexMath &m, Value start, Value tileStage,
                          bool keys, bool values) -> Value {
    SmallVector<Value> tokens;
    if (keys)
      tokens.append(copyTileAsync(key, batch, kvHead, start,
                                  keyRows(m, start), lastKey, blockKV, headDim,
                                  keySmem, tileStage, thread));
    if (values)
      tokens.append(copyTileAsync(value, batch, kvHead, start,
                                  keyRows(m, start), lastKey, blockKV,
                                  valueDim, valueSmem, tileStage, thread));
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
  };
  // The same for a block that may lie past the visible keys: then the
  // group is empty (PTX allows empty groups; every thread commits the same
  // number, so the wait counts stay uniform).
  auto requestTilesIfVisible = [&](IndexMath &m, Value start, Value tileStage,
                                   bool keys, bool values) -> Value {
    auto branch = scf::IfOp::create(
        b, loc, TypeRange{tokenType}, m.lt(start, keyEnd),
        /*addThenBlock=*/true, /*addElseBlock=*/true);
    OpBuilder::InsertionGuard ifGuard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    IndexMath tm{b, loc};
    scf::YieldOp::create(b, loc,
                         requestTiles(tm, start, tileStage, keys, values));
    b.setInsertionPointToStart(branch.elseBlock());
    scf::YieldOp::create(
        b, loc,
        ValueRange{nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType,
                                                           ValueRange{})});
    return branch.getResult(0);
  };
  auto waitAll = [&](Location at, Value group) {
    nvgpu::DeviceAsyncWaitOp::create(b, at, group, b.getI32IntegerAttr(0));
  };
  if (fragmentOrder) {
    // The first block's K (and V): waited for here, which is where the
    // first iteration would wait.
    waitAll(loc, requestTilesIfVisible(math, firstBlockStart, zero, true,
                                       !splitGroups));
  } else if (asyncCopies) {
    SmallVector<Value> tokens =
        copyTileAsync(key, batch, kvHead, firstBlockStart,
                      validKeyRows(math, firstBlockStart), lastKey, blockKV,
                      headDim, keySmem, zero, thread);
    tokens.append(copyTileAsync(value, batch, kvHead, firstBlockStart,
                                validKeyRows(math, firstBlockStart), lastKey,
                                blockKV, valueDim, valueSmem, zero, thread));
    nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), tokens);
  }

  // The register kernel's key block with FlashAttention-2's copies. Its
  // own K (and V with two buffers) has landed: the previous iteration (or
  // the prologue) ended waiting for it.
  auto fragmentBlock = [&](IndexMath &lm, Location lloc, Value col0,
                           Value stage, ValueRange state) {
    Value next = lm.add(col0, blockKVValue);
    // Every warp sees the landed tiles and is done with the buffers that
    // the requests below fill.
    gpu::BarrierOp::create(b, lloc);
    Value pending;
    if (splitGroups) {
      pending = requestTiles(lm, col0, stage, false, true);
    } else {
      Value block = lm.divU(lm.sub(next, firstBlockStart), blockKVValue);
      Value nextStage = lm.remU(block, lm.constant(stages));
      pending = requestTilesIfVisible(lm, next, nextStage, true, true);
    }
    SmallVector<Value> scores =
        fragmentScores(thread, stage, querySmem, keySmem);
    if (splitGroups) {
      // V has landed; every warp is done with K_s, which the next block's
      // K then fills while this block's softmax and P V run.
      waitAll(lloc, pending);
      gpu::BarrierOp::create(b, lloc);
      pending = requestTilesIfVisible(lm, next, stage, true, false);
    }
    SmallVector<Value> nextState = fragmentSoftmaxAndValues(
        thread, batch, head, row0, col0, stage, valueSmem, scores, state);
    waitAll(lloc, pending);
    return nextState;
  };

  auto keyBlock = [&](OpBuilder &lb, Location lloc, Value col0,
                      ValueRange state) {
        OpBuilder::InsertionGuard loopGuard(b);
        b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
        IndexMath lm{b, lloc};
        Value stage = zero;
        if (stages > 1) {
          Value block = lm.divU(lm.sub(col0, firstBlockStart), blockKVValue);
          stage = lm.remU(block, lm.constant(stages));
        }
        if (fragmentOrder) {
          scf::YieldOp::create(b, lloc,
                               fragmentBlock(lm, lloc, col0, stage, state));
          return;
        }
        if (asyncCopies) {
          // Prefetch the next key block (zero rows past the last one),
          // then wait for all but that group: this block has landed.
          Value next = lm.add(col0, blockKVValue);
          Value block = lm.divU(lm.sub(next, firstBlockStart), blockKVValue);
          Value nextStage = lm.remU(block, lm.constant(stages));
          Value validNext = validKeyRows(lm, next);
          SmallVector<Value> tokens =
              copyTileAsync(key, batch, kvHead, next, validNext, lastKey,
                            blockKV, headDim, keySmem, nextStage, thread);
          tokens.append(copyTileAsync(value, batch, kvHead, next, validNext,
                                      lastKey, blockKV, valueDim, valueSmem,
                                      nextStage, thread));
          Value group = nvgpu::DeviceAsyncCreateGroupOp::create(
              b, lloc, nvgpu::DeviceAsyncTokenType::get(ctx), tokens);
          nvgpu::DeviceAsyncWaitOp::create(b, lloc, group,
                                           b.getI32IntegerAttr(1));
        } else {
          Value cols = lm.min(blockKVValue, lm.sub(keyLen, col0));
          copyTile(key, batch, kvHead, col0, cols, blockKV, headDim, keySmem,
                   stage, thread);
          copyTile(value, batch, kvHead, col0, cols, blockKV, valueDim,
                   valueSmem, stage, thread);
        }
        gpu::BarrierOp::create(b, lloc);
        if (registerFragments) {
          // Only K_s and V_s are shared between warps: S, P and O stay in
          // each warp's fragments. Before a buffer is filled again (the
          // next block's copy with one stage, the prefetch with cp.async),
          // every warp is done with it.
          SmallVector<Value> scores =
              fragmentScores(thread, stage, querySmem, keySmem);
          SmallVector<Value> next = fragmentSoftmaxAndValues(
              thread, batch, head, row0, col0, stage, valueSmem, scores,
              state);
          if (stages == 1 || asyncCopies)
            gpu::BarrierOp::create(b, lloc);
          scf::YieldOp::create(b, lloc, next);
          return;
        }
        if (tensorCores) {
          // Every phase reads what the previous one wrote in other warps'
          // rows, hence a barrier after each. The next block's copies come
          // after the last barrier, when K and V are no longer read.
          warpScores(thread, stage, querySmem, keySmem, results);
          gpu::BarrierOp::create(b, lloc);
          Value one = f32Constant(b, lloc, 1);
          SmallVector<Value> softmax = forRowOwner(
              ownsRow,
              [&] {
                return softmaxRow(thread, row, batch, head, col0, results,
                                  probs, state[0], state[1]);
              },
              {state[0], state[1], one});
          gpu::BarrierOp::create(b, lloc);
          warpProbsTimesValues(thread, stage, probs, valueSmem, results);
          gpu::BarrierOp::create(b, lloc);
          SmallVector<Value> accumulated = forRowOwner(
              ownsRow,
              [&] {
                return accumulateRow(thread, softmax[2], results,
                                     state.drop_front(2));
              },
              state.drop_front(2));
          SmallVector<Value> next = {softmax[0], softmax[1]};
          next.append(accumulated);
          scf::YieldOp::create(b, lloc, next);
          return;
        }
        // Threads past the block's rows only help with the copies.
        SmallVector<Value> next = forRowOwner(
            ownsRow,
            [&] {
              return computeKeyBlock(thread, row, batch, head, col0, stage,
                                     querySmem, keySmem, valueSmem, state);
            },
            state);
        // Before a buffer is filled again, every thread is done with it:
        // with one stage the next copy overwrites this block's tile, with
        // prefetching the next iteration fills the buffer read one block
        // ago.
        if (stages == 1 || asyncCopies)
          gpu::BarrierOp::create(b, lloc);
        scf::YieldOp::create(b, lloc, next);
  };

  // Key blocks that every row of the query block sees whole run in a loop
  // of their own without element masks, as in FlashAttention-2; the block
  // with the sequence's last keys (when blocks do not divide them) keeps
  // them. With a causal or window band, or an explicit mask, one loop masks
  // every block: a loop of unmasked blocks beside a loop of the band's
  // blocks saves a quarter of the causal main loop's instructions but
  // spills at the tiles the model picks (docs/GPU.md).
  auto keyLoop = [&](Value from, Value to, ValueRange init, bool masked) {
    elementMasks = masked;
    auto loop = scf::ForOp::create(b, loc, from, to, blockKVValue, init,
                                   keyBlock);
    elementMasks = true;
    return SmallVector<Value>(loop.getResults());
  };
  SmallVector<Value> finalState;
  if (unmaskedEnd) {
    finalState = keyLoop(firstBlockStart, unmaskedEnd, initState, false);
    if (!wholeKeyBlocks())
      finalState = keyLoop(unmaskedEnd, keyEnd, finalState, true);
  } else {
    finalState = keyLoop(firstBlockStart, keyEnd, initState, true);
  }

  if (registerFragments) {
    fragmentEpilogue(thread, batch, head, row0, finalState);
    return;
  }
  // O = acc / l (0 where no key was visible), logsumexp = m + log l.
  Value inRange = math.andI(ownsRow, math.lt(row, queryLen));
  RowHalves rowHalves;
  if (tensorCores)
    rowHalves = resultHalves(thread);
  scf::IfOp::create(b, loc, inRange, [&](OpBuilder &tb, Location tloc) {
    Value finalMax = finalState[0], finalSum = finalState[1];
    Value zeroF = f32Constant(tb, tloc, 0);
    Value isEmpty = arith::CmpFOp::create(tb, tloc, arith::CmpFPredicate::OEQ,
                                          finalSum, zeroF);
    int64_t slice = accumulatorSlice();
    auto sliceType = VectorType::get({slice}, f32);
    Value sums = vector::BroadcastOp::create(tb, tloc, sliceType, finalSum);
    Value zeros = arith::ConstantOp::create(
        tb, tloc, DenseElementsAttr::get(sliceType, 0.0f));
    for (int64_t index = 0; index < accumulatorSlices(); ++index) {
      Value part = finalState[2 + index];
      Value quotient = arith::DivFOp::create(tb, tloc, part, sums);
      Value normalized =
          arith::SelectOp::create(tb, tloc, isEmpty, zeros, quotient);
      if (!outputElementType.isF32())
        normalized = arith::TruncFOp::create(
            tb, tloc, sliceType.clone(outputElementType), normalized);
      Value column = arith::ConstantIndexOp::create(tb, tloc, index * slice);
      if (tensorCores) {
        // Slice `index` of the thread is chunk index * rowSplit + part,
        // its two halves in the thread's order.
        IndexMath tm{tb, tloc};
        column = tm.mul(tm.add(tm.constant(index * rowSplit), rowHalves.part),
                        tm.constant(slice));
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
          vector::StoreOp::create(tb, tloc, part, output,
                                  ValueRange{batch, head, row, at})
              .setAlignment(half * elementBytes(outputElementType));
        }
        continue;
      }
      // 16-byte aligned when the slice is 16 bytes: rows of whole slices.
      storeVector(tb, tloc, normalized, output,
                  ValueRange{batch, head, row, column});
    }
    if (logsumexp) {
      Value logSum = math::LogOp::create(tb, tloc, finalSum);
      Value lse = arith::AddFOp::create(
          tb, tloc, exponent.naturalMax(tb, tloc, finalMax), logSum);
      auto store = [&](OpBuilder &sb, Location sloc) {
        memref::StoreOp::create(sb, sloc, lse, logsumexp,
                                ValueRange{batch, head, row});
      };
      // Every part of a row holds the same value: part 0 writes it.
      if (rowSplit == 1) {
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
  auto threadLoop = scf::ForallOp::create(
      b, loc,
      SmallVector<OpFoldResult>{b.getIndexAttr(rowsPerBlock * columnThreads)},
      ValueRange{},
      b.getArrayAttr(
          {gpu::GPUThreadMappingAttr::get(ctx, gpu::MappingId::DimX)}));
  b.setInsertionPointToStart(threadLoop.getBody());
  Value thread = threadLoop.getInductionVar(0);
  Value columnThreadsValue = math.constant(columnThreads);
  Value rowInBlock = math.divU(thread, columnThreadsValue);
  Value columnThread = math.remU(thread, columnThreadsValue);
  Value row = math.add(math.mul(rowBlock, math.constant(rowsPerBlock)),
                       rowInBlock);
  Value zero = math.constant(0), one = math.constant(1);
  Value splits = math.constant(kvSplits);
  scf::IfOp::create(b, loc, math.lt(row, queryLen), [&](OpBuilder &tb,
                                                        Location tloc) {
    OpBuilder::InsertionGuard rowGuard(b);
    b.setInsertionPoint(tb.getInsertionBlock(), tb.getInsertionPoint());
    IndexMath tm{b, tloc};
    Value negInf = f32Constant(b, tloc, -std::numeric_limits<double>::infinity());
    auto maxLoop = scf::ForOp::create(
        b, tloc, zero, splits, one, ValueRange{negInf},
        [&](OpBuilder &lb, Location lloc, Value s, ValueRange state) {
          Value lse = memref::LoadOp::create(lb, lloc, partialLse,
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
          Value lse = memref::LoadOp::create(lb, lloc, partialLse,
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
                Value lse = memref::LoadOp::create(
                    lb, lloc, partialLse, ValueRange{s, batch, head, row});
                Value w = vector::BroadcastOp::create(lb, lloc, sliceType,
                                                      weightOf(lb, lloc, lse));
                Value part = loadVector(lb, lloc, sliceType, partialOutput,
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

Value KernelBuilder::warpTileRow(Value thread, int64_t tile) {
  int64_t rowsPerWarp = blockQ / (threads / kWarpSize);
  AffineExpr t = getAffineDimExpr(0, ctx);
  return affine::AffineApplyOp::create(
      b, loc,
      AffineMap::get(1, 0, t.floorDiv(kWarpSize) * rowsPerWarp + tile * kMmaM),
      ValueRange{thread});
}

/// Warp-level matmuls on 16x16 (A), 8x16 (B) and 16x8 (C) tiles: the
/// contraction upstream's vector-to-nvgpu conversion turns into one
/// mma.sync m16n8k16, with A and B read by ldmatrix from shared memory.
static Value warpMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                        Value acc) {
  MLIRContext *ctx = b.getContext();
  auto iterator = [&](vector::IteratorType type) -> Attribute {
    return vector::IteratorTypeAttr::get(ctx, type);
  };
  return vector::ContractionOp::create(
      b, loc, lhs, rhs, acc, b.getAffineMapArrayAttr(warpMatmulMaps(ctx)),
      b.getArrayAttr({iterator(vector::IteratorType::parallel),
                      iterator(vector::IteratorType::parallel),
                      iterator(vector::IteratorType::reduction)}));
}

/// results[warp rows][0, n) = lhs[warp rows][0, k) times B, B's 8x16
/// (columns by k) tiles read from `rhs` at `rhsIndices(column0, k0)`
/// through `rhsMap`. The warp's A fragments are read once per 16-row tile;
/// each 8-column tile of the result is k / 16 mma.syncs.
void KernelBuilder::warpMatmulTiles(
    Value thread, Value lhs, int64_t k, int64_t n, Value rhs,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value)>
        rhsIndices,
    AffineMap rhsMap, Value results) {
  IndexMath math{b, loc};
  int64_t tiles = blockQ / (threads / kWarpSize) / kMmaM;
  Type lhsType = cast<MemRefType>(lhs.getType()).getElementType();
  Type rhsType = cast<MemRefType>(rhs.getType()).getElementType();
  auto aType = VectorType::get({kMmaM, kMmaK}, lhsType);
  auto bType = VectorType::get({kMmaN, kMmaK}, rhsType);
  auto cType = VectorType::get({kMmaM, kMmaN}, f32);
  Value zeroA = arith::ConstantOp::create(b, loc, b.getZeroAttr(lhsType));
  Value zeroB = arith::ConstantOp::create(b, loc, b.getZeroAttr(rhsType));
  Value zeroC = arith::ConstantOp::create(b, loc, b.getZeroAttr(cType));
  SmallVector<bool> inBounds = {true, true};
  Value zeroIndex = math.constant(0);
  for (int64_t tile = 0; tile < tiles; ++tile) {
    Value tileRow = warpTileRow(thread, tile);
    Value rowTile = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, getAffineDimExpr(0, ctx).floorDiv(kMmaM)),
        ValueRange{tileRow});
    SmallVector<Value> lhsFragments;
    for (int64_t k0 = 0; k0 < k; k0 += kMmaK) {
      Value column = math.constant(k0);
      lhsFragments.push_back(vector::TransferReadOp::create(
          b, loc, aType, lhs, ValueRange{tileRow, column}, zeroA, inBounds));
    }
    Value lower = math.constant(0);
    Value upper = math.constant(n);
    Value step = math.constant(kMmaN);
    scf::ForOp::create(
        b, loc, lower, upper, step, ValueRange{},
        [&](OpBuilder &lb, Location lloc, Value column0, ValueRange) {
          Value acc = zeroC;
          for (auto [index, fragment] : llvm::enumerate(lhsFragments)) {
            Value k0 = arith::ConstantIndexOp::create(lb, lloc, index * kMmaK);
            Value tileB = vector::TransferReadOp::create(
                lb, lloc, bType, rhs, rhsIndices(lb, lloc, column0, k0), zeroB,
                rhsMap, ArrayRef<bool>(inBounds));
            acc = warpMatmul(lb, lloc, fragment, tileB, acc);
          }
          Value chunk = affine::AffineApplyOp::create(
              lb, lloc,
              AffineMap::get(1, 0, getAffineDimExpr(0, ctx).floorDiv(kMmaN)),
              ValueRange{column0});
          vector::TransferWriteOp::create(
              lb, lloc, acc, results,
              ValueRange{rowTile, chunk, zeroIndex, zeroIndex}, inBounds);
          scf::YieldOp::create(lb, lloc);
        });
  }
}

/// results[warp rows][0, Bc) = Q_s[warp rows] K_s[stage]^T: K's rows are
/// the B tiles as they are.
void KernelBuilder::warpScores(Value thread, Value stage, Value querySmem,
                               Value keySmem, Value results) {
  AffineMap rows = AffineMap::get(
      3, 0, {getAffineDimExpr(1, ctx), getAffineDimExpr(2, ctx)}, ctx);
  warpMatmulTiles(
      thread, querySmem, headDim, blockKV, keySmem,
      [&](OpBuilder &, Location, Value key0, Value d0) {
        return SmallVector<Value>{stage, key0, d0};
      },
      rows, results);
}

/// results[warp rows][0, Dv) = probs[warp rows] V_s[stage]: V's tiles are
/// read transposed (8 value columns x 16 keys), which ldmatrix does with
/// .trans.
void KernelBuilder::warpProbsTimesValues(Value thread, Value stage,
                                         Value probs, Value valueSmem,
                                         Value results) {
  // (stage, key, column) -> (column, key).
  AffineMap transposed = AffineMap::get(
      3, 0, {getAffineDimExpr(2, ctx), getAffineDimExpr(1, ctx)}, ctx);
  warpMatmulTiles(
      thread, probs, blockKV, valueDim, valueSmem,
      [&](OpBuilder &, Location, Value column0, Value key0) {
        return SmallVector<Value>{stage, key0, column0};
      },
      transposed, results);
}

/// Bank conflicts decide this layout. The results tile is fragment-major,
/// so the lanes of a half-warp store their 8-byte mma.sync fragments into
/// 128 contiguous bytes. Thread t then reads and writes row t, 16 bytes at
/// a time; rows of a 16x8 tile are 32 bytes apart, so threads t and t + 4
/// would meet on the same banks if both took the same half of a chunk
/// first. Threads with odd (t / 4 + t / 8) take the upper half first: the
/// 8 threads of a quarter-warp then cover 128 distinct bytes. The same
/// order makes the 8-byte stores of P conflict-free: there, threads t and
/// t + 8 share a 16-byte slot and take opposite halves of it.
/// With two threads per row (rowSplit = 2), thread t = 2r + p reads row r's
/// chunks p, p + 2, ...: a quarter-warp covers 4 rows, 128 bytes apart per
/// chunk tile, and part p takes half p first, which again puts its 8
/// threads on distinct banks; in P, threads sharing a 16-byte slot are then
/// one of each part, on opposite halves.
KernelBuilder::RowHalves KernelBuilder::resultHalves(Value thread) {
  AffineExpr t = getAffineDimExpr(0, ctx);
  auto apply = [&](AffineExpr expr) -> Value {
    return affine::AffineApplyOp::create(b, loc, AffineMap::get(1, 0, expr),
                                         ValueRange{thread});
  };
  constexpr int64_t half = kMmaN / 2;
  AffineExpr r = t.floorDiv(rowSplit);
  AffineExpr first = rowSplit == 1
                         ? (t.floorDiv(4) + t.floorDiv(8)) % 2 * half
                         : t % 2 * half;
  assert(rowSplit <= 2 && "half orders are worked out for 1 or 2 threads");
  return {apply(r),
          apply(t % rowSplit),
          apply(r.floorDiv(kMmaM)),
          apply(r % kMmaM),
          {apply(first), apply(half - first)}};
}

/// The sum (or max) of `value` over the rowSplit threads of a row: one
/// butterfly shuffle per halving, so every part ends with the same total.
Value KernelBuilder::combineRowParts(Value value, arith::AtomicRMWKind kind) {
  for (int64_t distance = 1; distance < rowSplit; distance *= 2) {
    Value offset =
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(distance));
    Value width =
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(kWarpSize));
    auto shuffle = gpu::ShuffleOp::create(b, loc, value, offset, width,
                                          gpu::ShuffleMode::XOR);
    value = arith::getReductionOp(kind, b, loc, value,
                                  shuffle.getShuffleResult());
  }
  return value;
}

SmallVector<Value> KernelBuilder::softmaxRow(Value thread, Value row,
                                             Value batch, Value head,
                                             Value col0, Value results,
                                             Value probs, Value oldMax,
                                             Value oldSum) {
  IndexMath math{b, loc};
  // One 8-column chunk of the results tile per step, in two 16-byte halves
  // (resultHalves); P is stored as two 8-byte halves at the same columns.
  constexpr int64_t half = kMmaN / 2;
  auto halfType = VectorType::get({half}, f32);
  RowHalves at = resultHalves(thread);
  // Step i takes chunk i * rowSplit + part: its first key, relative to the
  // block, is c0 = 8 * chunk.
  auto chunkOf = [&](IndexMath &m, Value step) {
    return m.add(m.mul(step, m.constant(rowSplit)), at.part);
  };
  auto resultIndices = [&](Value chunk, Value column) {
    return SmallVector<Value>{at.rowTile, chunk, at.rowInTile, column};
  };
  int64_t steps = blockKV / kMmaN / rowSplit;
  auto aligned = [](auto access, int64_t bytes) {
    access.setAlignment(bytes);
    return access;
  };
  // A loop over this thread's chunks of the row, carrying one f32.
  auto overRowChunks =
      [&](Value init,
          function_ref<Value(IndexMath &, Location, Value, Value, Value)>
              body) {
        auto loop = scf::ForOp::create(
            b, loc, math.constant(0), math.constant(steps), math.constant(1),
            ValueRange{init},
            [&](OpBuilder &lb, Location lloc, Value step, ValueRange carried) {
              OpBuilder::InsertionGuard loopGuard(b);
              b.setInsertionPoint(lb.getInsertionBlock(),
                                  lb.getInsertionPoint());
              IndexMath lm{b, lloc};
              Value chunk = chunkOf(lm, step);
              Value c0 = lm.mul(chunk, lm.constant(kMmaN));
              scf::YieldOp::create(b, lloc,
                                   body(lm, lloc, chunk, c0, carried[0]));
            });
        return loop.getResult(0);
      };
  // Pass 1: mask the row in place (u), m' = max(m, max_j u_j).
  Value localMax = overRowChunks(oldMax, [&](IndexMath &lm, Location lloc,
                                             Value chunk, Value c0,
                                             Value newMax) {
    for (Value column : at.halves) {
      SmallVector<Value> indices = resultIndices(chunk, column);
      Value scores =
          aligned(vector::LoadOp::create(b, lloc, halfType, results, indices),
                  kChunkBytes);
      Value firstKey = lm.add(lm.add(col0, c0), column);
      for (int64_t j = 0; j < half; ++j) {
        Value raw = vector::ExtractOp::create(b, lloc, scores, j);
        Value s = scoreOf(raw, batch, head, row, lm.addConstant(firstKey, j));
        scores = vector::InsertOp::create(b, lloc, s, scores, j);
      }
      aligned(vector::StoreOp::create(b, lloc, scores, results, indices),
              kChunkBytes);
      newMax = vector::ReductionOp::create(
          b, lloc, vector::CombiningKind::MAXIMUMF, scores, newMax);
    }
    return newMax;
  });
  // The row's max over every part (all parts start from the same m).
  Value newMax = combineRowParts(localMax, arith::AtomicRMWKind::maximumf);
  Value negatedShift = exponent.negatedShift(b, loc, newMax);
  // alpha = 2^(m c - m' c) rescales what was summed under the old max.
  Value alpha = exponent.rescale(b, loc, oldMax, negatedShift);
  // Pass 2: p_j = 2^(u_j c - m' c), l' = alpha l + sum_j p_j; P gets p_j
  // rounded to V's type, which the second matmul multiplies V with.
  Value localSum = overRowChunks(
      f32Constant(b, loc, 0),
      [&](IndexMath &lm, Location lloc, Value chunk, Value c0, Value sum) {
        for (Value column : at.halves) {
          Value scores =
              aligned(vector::LoadOp::create(b, lloc, halfType, results,
                                             resultIndices(chunk, column)),
                      kChunkBytes);
          Value p = exponent.probability(b, lloc, scores, negatedShift);
          sum = vector::ReductionOp::create(b, lloc, vector::CombiningKind::ADD,
                                            p, sum);
          Value rounded = arith::TruncFOp::create(
              b, lloc, halfType.clone(valueElementType), p);
          aligned(
              vector::StoreOp::create(b, lloc, rounded, probs,
                                      ValueRange{at.row, lm.add(c0, column)}),
              half * elementBytes(valueElementType));
        }
        return sum;
      });
  Value rowSum = combineRowParts(localSum, arith::AtomicRMWKind::addf);
  Value newSum = contractingAdd(b, loc, contractingMul(b, loc, alpha, oldSum),
                               rowSum);
  return {newMax, newSum, alpha};
}

SmallVector<Value> KernelBuilder::accumulateRow(Value thread, Value alpha,
                                                Value results, ValueRange acc) {
  // Slices are 8 columns (16 bytes of f16/bf16): one chunk of the results
  // tile, read as its two halves in the thread's order.
  constexpr int64_t half = kMmaN / 2;
  assert(accumulatorSlice() == kMmaN && "tensor-core slices are one chunk");
  auto halfType = VectorType::get({half}, f32);
  auto sliceType = VectorType::get({kMmaN}, f32);
  RowHalves at = resultHalves(thread);
  Value alphas = vector::BroadcastOp::create(b, loc, sliceType, alpha);
  SmallVector<Value> next;
  IndexMath math{b, loc};
  for (auto [index, part] : llvm::enumerate(acc)) {
    // Slice `index` of this thread is chunk index * rowSplit + part.
    Value chunk = math.add(
        math.constant(static_cast<int64_t>(index) * rowSplit), at.part);
    SmallVector<Value, 2> halves;
    for (Value column : at.halves) {
      auto load = vector::LoadOp::create(
          b, loc, halfType, results,
          ValueRange{at.rowTile, chunk, at.rowInTile, column});
      load.setAlignment(kChunkBytes);
      halves.push_back(load);
    }
    Value slice = vector::ShuffleOp::create(b, loc, halves[0], halves[1],
                                            ArrayRef<int64_t>{0, 1, 2, 3, 4,
                                                              5, 6, 7});
    next.push_back(vector::FMAOp::create(b, loc, part, alphas, slice));
  }
  return next;
}

SmallVector<Value>
KernelBuilder::forRowOwner(Value ownsRow,
                           function_ref<SmallVector<Value>()> compute,
                           ValueRange otherwise) {
  // No branch, which also keeps the row phases' warp shuffles out of one.
  if (blockQ * rowSplit == threads)
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
  if (!elementMasks)
    return exponent.rawScores ? raw : arith::MulFOp::create(b, loc, raw, scale);
  ScoreMasks masks{mask,         maskBroadcast, queryLen,
                   tensorKeyLen, keyLen,        geometry};
  return kernelScore(b, loc, op, masks, raw,
                     exponent.rawScores ? Value() : scale, batch, head, row,
                     col);
}

/// The online softmax of query row `row` (thread `thread`) over one key
/// block, `keyChunk` keys at a time: the scores of a chunk stay in
/// registers, the running max and sum are scalars, the accumulator a vector.
SmallVector<Value> KernelBuilder::computeKeyBlock(
    Value thread, Value row, Value batch, Value head, Value col0, Value stage,
    Value querySmem, Value keySmem, Value valueSmem, ValueRange state) {
  IndexMath math{b, loc};
  int64_t qkChunk = std::min(chunkElements(headDim, queryElementType),
                             chunkElements(headDim, keyElementType));
  auto scoresType = VectorType::get({keyChunk}, f32);
  auto chunks = scf::ForOp::create(
      b, loc, math.constant(0), math.constant(blockKV), math.constant(keyChunk),
      state, [&](OpBuilder &lb, Location lloc, Value c0, ValueRange running) {
        OpBuilder::InsertionGuard loopGuard(b);
        b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
        IndexMath lm{b, lloc};
        // raw[j] = Q[row] . K[c0 + j], 16 bytes of the head dim per step.
        Value zeroScores = arith::ConstantOp::create(
            b, lloc, DenseElementsAttr::get(scoresType, 0.0f));
        auto dot = scf::ForOp::create(
            b, lloc, lm.constant(0), lm.constant(headDim), lm.constant(qkChunk),
            ValueRange{zeroScores},
            [&](OpBuilder &db, Location dloc, Value d, ValueRange partial) {
              OpBuilder::InsertionGuard dotGuard(b);
              b.setInsertionPoint(db.getInsertionBlock(),
                                  db.getInsertionPoint());
              IndexMath dm{b, dloc};
              Value q = extendToF32(
                  b, dloc,
                  loadVector(b, dloc,
                             VectorType::get({qkChunk}, queryElementType),
                             querySmem, ValueRange{thread, d}));
              Value scores = partial[0];
              for (int64_t j = 0; j < keyChunk; ++j) {
                Value keyRow = dm.addConstant(c0, j);
                Value k = extendToF32(
                    b, dloc,
                    loadVector(b, dloc,
                               VectorType::get({qkChunk}, keyElementType),
                               keySmem, ValueRange{stage, keyRow, d}));
                Value product = arith::MulFOp::create(b, dloc, q, k);
                Value old = vector::ExtractOp::create(b, dloc, scores, j);
                Value sum = vector::ReductionOp::create(
                    b, dloc, vector::CombiningKind::ADD, product, old);
                scores = vector::InsertOp::create(b, dloc, sum, scores, j);
              }
              scf::YieldOp::create(b, dloc, scores);
            });

        // Mask each score (u); m' = max(m, max_j u_j).
        Value raw = dot.getResult(0);
        Value scores = zeroScores;
        Value chunkCol0 = lm.add(col0, c0);
        for (int64_t j = 0; j < keyChunk; ++j) {
          Value rawJ = vector::ExtractOp::create(b, lloc, raw, j);
          Value col = lm.addConstant(chunkCol0, j);
          Value s = scoreOf(rawJ, batch, head, row, col);
          scores = vector::InsertOp::create(b, lloc, s, scores, j);
        }
        Value oldMax = running[0], oldSum = running[1];
        Value newMax = vector::ReductionOp::create(
            b, lloc, vector::CombiningKind::MAXIMUMF, scores, oldMax);
        Value negatedShift = exponent.negatedShift(b, lloc, newMax);
        // alpha = 2^(m c - m' c) rescales what was summed under the old max.
        Value alpha = exponent.rescale(b, lloc, oldMax, negatedShift);
        Value probs = exponent.probability(b, lloc, scores, negatedShift);
        Value newSum = vector::ReductionOp::create(
            b, lloc, vector::CombiningKind::ADD, probs,
            contractingMul(b, lloc, alpha, oldSum));
        int64_t slice = accumulatorSlice();
        auto sliceType = VectorType::get({slice}, f32);
        Value alphas = vector::BroadcastOp::create(b, lloc, sliceType, alpha);
        SmallVector<Value> acc;
        for (Value part : running.drop_front(2))
          acc.push_back(contractingMul(b, lloc, part, alphas));
        // acc += p_j * V[j], p_j rounded to V's type first (as the tiled
        // lowering and FlashAttention-2's second MMA do).
        for (int64_t j = 0; j < keyChunk; ++j) {
          Value p = vector::ExtractOp::create(b, lloc, probs, j);
          if (!valueElementType.isF32())
            p = castToF32(
                b, lloc, arith::TruncFOp::create(b, lloc, valueElementType, p));
          Value keyRow = lm.addConstant(c0, j);
          // 16 bytes of V's row at a time: only a slice of the row is live.
          Value ps = vector::BroadcastOp::create(b, lloc, sliceType, p);
          for (int64_t index = 0; index < accumulatorSlices(); ++index) {
            Value column = lm.constant(index * slice);
            Value v = extendToF32(
                b, lloc,
                loadVector(b, lloc, VectorType::get({slice}, valueElementType),
                           valueSmem, ValueRange{stage, keyRow, column}));
            acc[index] = vector::FMAOp::create(b, lloc, ps, v, acc[index]);
          }
        }
        SmallVector<Value> next = {newMax, newSum};
        next.append(acc);
        scf::YieldOp::create(b, lloc, next);
      });
  return SmallVector<Value>(chunks.getResults());
}

} // namespace mlir::fa::gpu_kernel

namespace {

using gpu_kernel::KernelBuilder;

struct FADistributeAttentionPass
    : fa::impl::FADistributeAttentionBase<FADistributeAttentionPass> {
  using FADistributeAttentionBase::FADistributeAttentionBase;

  void runOnOperation() override {
    KernelOptions options{asyncCopies, tensorCores, registerFragments};
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
  auto elementType = [](Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType();
  };
  Type queryType = elementType(op.getQuery()),
       keyType = elementType(op.getKey()),
       valueType = elementType(op.getValue());
  AttentionShape shape;
  shape.headDim = op.getQuery().getType().getDimSize(3);
  shape.valueDim = op.getValue().getType().getDimSize(3);
  shape.mmaOperands = isMmaSyncOperandTypes(queryType, keyType, valueType);
  return planKernel(sizes, shape, gpu_kernel::elementBytes(keyType),
                    gpu_kernel::elementBytes(valueType),
                    KernelChoices{options.asyncCopies, options.tensorCores,
                                  options.registerFragments});
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
  LLVM_DEBUG(llvm::dbgs() << "kernel plan: " << plan.describe() << "\n");
  KernelBuilder kernel(op, rewriter, op.getTilingAttr(), plan);
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
