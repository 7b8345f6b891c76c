//===- KernelBuilder.h - fa-distribute-attention's kernel builder -*- C++
//-*-===//
//
// Stage: GPU kernel. The forward kernel that fa-distribute-attention
// writes: KernelBuilder (the outline, DistributeAttention.cpp, following
// the plan of KernelModel.h), KeyTileSchedule (how K and V reach shared
// memory: KeyTileSchedules.cpp, TmaProducer.cpp) and KernelVariant, the
// protocol of the variants (FMAKernel.cpp, SharedMmaKernel.cpp,
// RegisterFragmentKernel.cpp, WarpgroupMmaKernel.cpp). What the other
// kernels share with it is KernelSupport.h. Private to
// lib/Transforms/GPUKernel.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPUKERNEL_KERNELBUILDER_H
#define FA_LIB_TRANSFORMS_GPUKERNEL_KERNELBUILDER_H

#include "KernelSupport.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/KernelModel.h"

#include <memory>

namespace mlir::fa::gpu_kernel {

class KernelVariant;
class KeyTileSchedule;

/// The forward kernel's view of fa.attention's operands and results (K, V
/// and a page table are TileCopier's): buffers inside the kernel, null
/// where the op has none.
struct KernelOperands {
  Value query, mask, output, logsumexp;
  /// Which dims of the mask broadcast.
  SmallVector<bool> maskBroadcast;
  /// With key splits: the workspace of partial outputs [S, B, Hq, Nq, Dv]
  /// and logsumexps [S, B, Hq, Nq], both f32.
  Value partialOutput, partialLse;
  /// kv_lengths ([B]); packed sequences' cu_seqlens_q and cu_seqlens_k
  /// ([B + 1]).
  Value kvLengths, packedQueries, packedKeys;
  /// The buffers of the tensors the op's score_mod and mask_mod read, and
  /// of its sinks.
  IRMapping modifierCaptures;
  Value sinks;
};

struct KernelBuilder : TileCopier {
  AttentionOp op;
  /// What planKernel decided: the tiling, which matmuls, copies and
  /// schedules the kernel uses (KernelPlan, KernelModel.h).
  KernelPlan plan;
  int64_t headDim, valueDim;
  Type queryElementType, keyElementType, valueElementType, outputElementType,
      f32;

  /// The op's buffers as the kernel reads and writes them.
  KernelOperands operands;
  // Sizes seen from inside the kernel.
  /// How scores are exponentiated (scoreOf yields u).
  SoftmaxExponent exponent;
  /// keyLen: the keys the block's sequence has (Nk, or its kv_lengths
  /// entry clamped to [0, Nk]); tensorKeyLen: Nk, the rows K and V have,
  /// which bounds addresses.
  Value queryLen, keyLen, tensorKeyLen, groupSize, scale;
  /// The causal and window bands (per sequence, like keyLen).
  AttentionGeometry geometry;

  /// Builds the kernel `plan` (planKernel) describes for `op`.
  KernelBuilder(AttentionOp op, OpBuilder &b, const KernelPlan &plan)
      : TileCopier(b, op.getLoc(), plan.threads), op(op), plan(plan) {
    auto qType = cast<RankedTensorType>(op.getQuery().getType());
    auto vType = cast<RankedTensorType>(op.getValue().getType());
    headDim = qType.getDimSize(3);
    valueDim = vType.getDimSize(3);
    queryElementType = qType.getElementType();
    keyElementType =
        cast<RankedTensorType>(op.getKey().getType()).getElementType();
    valueElementType = vType.getElementType();
    outputElementType =
        cast<RankedTensorType>(op.getOutput().getType()).getElementType();
    f32 = b.getF32Type();
    registerFragments = plan.registerFragments;
    columnBlocks = plan.warpgroupMma;
  }

  // The TMA producer kernel (tmaProducer, TmaProducer.cpp).
  struct QueryBlock;
  /// Tensor maps of Q, K and V (built on the host, in front of the grid);
  /// the block's mbarrier group (TileCopier::barriers) is laid out as
  /// TmaBarriers says.
  Value queryMap, keyMap, valueMap;
  /// Threads that compute: all but the producer warpgroup.
  int64_t computeThreads() const;
  /// The tensor maps of Q, K and V: boxes of [1, 1, rows, 64] elements,
  /// one 128-byte swizzle row wide, zero fill past the tensors.
  void createTensorMaps();
  /// The mbarrier group, in front of the thread loop.
  void createBarriers();
  /// In the thread loop, before anything else: thread 0 initializes the
  /// barriers, a barrier shows them to all, the producer issues Q's loads
  /// and the compute threads wait for them.
  void loadQueryByTma(const QueryBlock &block, Value queryTile, Value thread);
  /// Whether `thread` computes, and whether it is the producer's one
  /// issuing thread.
  Value isComputeThread(Value thread);
  Value isProducerLeader(Value thread);
  /// The rows of a K or V box (tmaKeyBoxRows): a key block, or a run of
  /// rows within one page of a paged cache.
  int64_t keyBoxRows() const;
  /// One tile of a key block's TMA loads: its map, its stage's place in
  /// the flat tile, its width and element type, and its full barrier.
  struct KeyTileLoads {
    Value map, flatTile, elementOffset;
    int64_t width;
    Type type;
    Value barrier;
  };
  /// The K and V tiles of the key block from key `row0` of
  /// source[batch, head], each one transaction on its barrier: its
  /// keyBoxRows boxes per column block, each through the page table where
  /// there is one.
  void issueKeyBlockLoads(ArrayRef<KeyTileLoads> tiles, Value batch, Value head,
                          Value row0);
  /// The coordinates (innermost first, but for the column) of the K or V
  /// box whose first row is key `row` of source[batch, head]: through the
  /// page table where there is one (the box's page).
  SmallVector<Value> keyBoxCoordinates(IndexMath &math, Value batch, Value head,
                                       Value row);
  /// A one-dimensional view of a shared tile, in front of the thread loop.
  Value flatTile(Value tile, Value thread);

  SmallVector<Value> build();
  /// The f32 accumulator of a query row is Dv / s values of vector<s x f32>,
  /// s the elements of a 16-byte slice of V (1 when rows do not split into
  /// slices): the P V update reads V and updates acc one slice at a time,
  /// and only 1-D vectors reach the NVVM lowering, which converts no n-D
  /// vector ops.
  int64_t accumulatorSlice() const {
    return chunkElements(valueDim, valueElementType);
  }
  /// Slices per thread: the tensor-core kernel splits a row's slices over
  /// `rowSplit` threads (thread part p has slices p, p + rowSplit, ...).
  int64_t accumulatorSlices() const {
    return valueDim / accumulatorSlice() / plan.rowSplit;
  }
  /// One grid block: the steps below, in the order their arguments state.
  void buildQueryBlock(scf::ForallOp grid);
  struct QueryBlock {
    /// Grid coordinates (the batch is 0 for packed sequences), the key
    /// split (null without splits), the block's first row and valid rows,
    /// and the K/V head its query head reads.
    Value batch, head, split, row0, rows, kvHead;
    /// With packed sequences, where the sequence's queries and keys start
    /// in the whole tensors (row 0 of the block's views); null otherwise.
    /// TMA addresses the whole tensors (their maps are built on the host).
    Value sequenceQueryStart, sequenceKeyStart;
  };
  QueryBlock enterQueryBlock(scf::ForallOp grid);
  struct SharedTiles {
    Value query, key, value, results, probs;
  };
  SharedTiles allocateSharedTiles();
  struct KeyBlocks {
    /// The walk from firstBlockStart to keyEnd; the blocks from
    /// unmaskedBegin (null: from the first) to unmaskedEnd (null when an
    /// explicit mask applies) need no element mask.
    Value firstBlockStart, keyEnd, unmaskedEnd, unmaskedBegin;
    /// Whether a causal or window band also decides unmaskedEnd (where its
    /// diagonal first crosses a block, not only before the sequence's last
    /// keys) and, with a window, unmaskedBegin (the blocks its left edge
    /// crosses come before it).
    bool band = false;
  };
  KeyBlocks visibleKeyBlocks(const QueryBlock &block);
  struct ThreadRow {
    /// The thread (of the block's threads loop), the query row it works
    /// on (t / rowSplit, relative to the grid block's first row in `row`
    /// as a row of the sequence), and whether that row is one of the
    /// block's (threads past block_q * rowSplit only help with copies).
    Value thread, row, ownsRow;
    /// Index constants the key loop uses: 0 and block_kv.
    Value zero, keyStep;
  };
  ThreadRow enterThreadLoop(const QueryBlock &block, const SharedTiles &tiles);
  /// (m, l, acc slices...) = (-inf, 0, 0): a row's state in the FMA and
  /// shared-memory tensor-core variants.
  SmallVector<Value> rowInitState();
  /// O = acc / l (0 where no key was visible) and logsumexp = m + log l
  /// from a state (m, l, acc slices...) of one row per thread, as the FMA
  /// and shared-memory tensor-core variants keep it; with `halves`, the
  /// slices are in the order resultHalves gives.
  void storeRowResults(const QueryBlock &block, const ThreadRow &self,
                       ValueRange state, bool halves);
  /// The merge kernel of split-KV: from the workspace into `finalOutput`
  /// and `finalLse` (null when the op has no logsumexp result).
  void buildMerge(Value batchSize, Value queryHeads, Value finalOutput,
                  Value finalLse);
  /// An scf.if on `ownsRow` that yields `compute()` (built in its then
  /// region) in the threads that own a query row and `otherwise` in the
  /// threads that only help with the copies; just `compute()` when every
  /// thread owns (a part of) a row.
  SmallVector<Value> forRowOwner(Value ownsRow,
                                 function_ref<SmallVector<Value>()> compute,
                                 ValueRange otherwise);
  Value scoreOf(Value raw, Value batch, Value head, Value row, Value col);
  /// With sinks, the row state's first max and sum: the sink logit of the
  /// block's head and its term e^0 (1, or 0 for a -inf sink; split-KV: in
  /// split 0 only). Set per query block (startFromSink); null without
  /// sinks.
  Value initialMax, initialSum;
  void startFromSink(const QueryBlock &block);
  /// The first (max, sum) of a row: the sink's, or (-inf, 0).
  std::pair<Value, Value> rowStartState();
  /// The same for kernels whose lanes keep partial row sums that the quad
  /// of 4 lanes sharing a row adds up at the end (register fragments,
  /// wgmma): the sink's term starts the sum of lane 0 of the quad only.
  std::pair<Value, Value> quadStartState(Value thread);
  /// What scoreOf masks in the key loop being built: nothing in the loop
  /// over key blocks that every row of the query block sees whole, the
  /// window's left edge alone in the loop over the blocks it crosses.
  ElementMasks elementMasks = ElementMasks::all;
  /// Whether the rows of K and V past the block's last key (keyLen) lie
  /// inside the tensors, where a TMA box reads them (kv_lengths, packed
  /// sequences) instead of zeros. (A page table alone is not such a case:
  /// a box past the table's last key starts at a slot past its page
  /// (keyBoxCoordinates) and arrives as zeros.)
  bool keysPastLengthInTensors() const {
    return operands.kvLengths || operands.packedKeys;
  }
  /// Whether every key block the kernel reads is whole: a static Nk that
  /// blocks divide, and no per-sequence lengths. Its copies then need no
  /// clamps or zero fill.
  bool wholeKeyBlocks() {
    int64_t keys = op.getKeyLength();
    return !operands.kvLengths && !operands.packedKeys &&
           !ShapedType::isDynamic(keys) && keys % plan.tiling.blockKV == 0;
  }

  // The shared-memory tensor-core kernel's results tile (SharedMmaKernel.cpp),
  // which its epilogue (storeRowResults) reads too.
  /// Where thread `thread`'s row of the results tile is, as indices
  /// [row tile, chunk, row in tile, column] with the column left to the
  /// caller, and the columns (0 or 4) of its two 16-byte halves of each
  /// 8-column chunk in the order the thread accesses them. With rowSplit
  /// threads per row, part p takes the chunks p, p + rowSplit, ...
  struct RowHalves {
    /// The row of the block, its part (0 .. rowSplit - 1), and where the
    /// row is in the results tile.
    Value row, part, rowTile, rowInTile;
    std::array<Value, 2> halves;
  };
  RowHalves resultHalves(Value thread);
};

/// One key block as a variant sees it: where it is built, its first key
/// and the ring buffer (stage) its K and V tiles are in.
struct KeyBlockAt {
  Location loc;
  Value col0, stage;
};

/// The synchronization a software-pipelined key block (KernelVariant::
/// overlappedBlock) leaves to its schedule, in the order it calls them.
struct OverlapHooks {
  /// Before the block's S = Q K^T: its K has landed.
  function_ref<void()> waitForKeys;
  /// Before the previous block's P V: that block's V has landed.
  function_ref<void()> waitForPreviousValues;
  /// Once the previous block's P V has completed: its V_s may be refilled.
  function_ref<void()> releasePreviousValues;
  /// Around the issue of the matmuls (ping-pong's turn); may be empty.
  function_ref<void()> beforeMatmuls, afterMatmuls;
};

/// What differs between the forward kernel's variants (planKernel chooses
/// one): the state a thread carries across key blocks, how a key block
/// whose K and V tiles are in shared memory is folded into it, and the
/// epilogue. Everything else (the grid, the shared tiles, the walk over key
/// blocks and the copies that fill K_s and V_s) is the outline's,
/// buildQueryBlock, and the same for every variant. A block is two steps
/// so that a copy schedule may refill K_s between them:
///   initState()                            before the first block
///   s = scores(at)   reads K_s[stage]      after the barrier showing K_s
///   state = fold(at, s, state) reads V_s   after V_s is visible
///   finish(state)                          after the last block
/// The variants: FMAKernel.cpp (per-thread FMAs), SharedMmaKernel.cpp
/// (mma.sync through shared S and P tiles), RegisterFragmentKernel.cpp
/// (FlashAttention-2's register-resident S and P) and WarpgroupMmaKernel.cpp
/// (the same on Hopper's wgmma).
class KernelVariant {
public:
  KernelVariant(KernelBuilder &kernel, const KernelBuilder::QueryBlock &block,
                const KernelBuilder::SharedTiles &tiles,
                const KernelBuilder::ThreadRow &self)
      : kernel(kernel), block(block), tiles(tiles), self(self) {}
  virtual ~KernelVariant() = default;

  /// The loop-carried state at its start (no key seen).
  virtual SmallVector<Value> initState() = 0;
  /// What the block computes from Q and K alone (S = Q K^T); empty for a
  /// variant that reads K and V together.
  virtual SmallVector<Value> scores(const KeyBlockAt &at) = 0;
  /// The state after the block.
  virtual SmallVector<Value> fold(const KeyBlockAt &at, ArrayRef<Value> scores,
                                  ValueRange state) = 0;
  /// O and the logsumexp from the state after the last block.
  virtual void finish(ValueRange state) = 0;
  /// Whether scores() is done with K_s when it returns (and fold reads
  /// only V_s), so that the next K may be copied before fold.
  virtual bool readsKeysOnlyInScores() const { return false; }
  /// Whether the block's steps end with a barrier after their last read of
  /// K_s and V_s, so that refilling them needs no barrier of its own.
  virtual bool endsWithBarrier() const { return false; }

  /// The software-pipelined schedule (KernelBuilder::overlapSoftmax), for a
  /// variant whose matmuls are asynchronous (wgmma). A block's P V is
  /// issued in the next block's step, so the state also carries P:
  ///   firstBlock(at)            S, softmax: P of the first block
  ///   overlappedBlock(at, prev) S of this block and P V of the previous
  ///                             one in flight together, then this block's
  ///                             softmax while P V runs
  ///   lastValues(prev)          P V of the last block
  virtual SmallVector<Value> firstBlock(const KeyBlockAt &at,
                                        const OverlapHooks &hooks,
                                        ValueRange state);
  virtual SmallVector<Value> overlappedBlock(const KeyBlockAt &at,
                                             const KeyBlockAt &previous,
                                             const OverlapHooks &hooks,
                                             ValueRange state);
  virtual SmallVector<Value> lastValues(const KeyBlockAt &previous,
                                        const OverlapHooks &hooks,
                                        ValueRange state);

protected:
  KernelBuilder &kernel;
  KernelBuilder::QueryBlock block;
  KernelBuilder::SharedTiles tiles;
  KernelBuilder::ThreadRow self;
};

std::unique_ptr<KernelVariant>
makeFMAVariant(KernelBuilder &kernel, const KernelBuilder::QueryBlock &block,
               const KernelBuilder::SharedTiles &tiles,
               const KernelBuilder::ThreadRow &self);
std::unique_ptr<KernelVariant>
makeSharedMmaVariant(KernelBuilder &kernel,
                     const KernelBuilder::QueryBlock &block,
                     const KernelBuilder::SharedTiles &tiles,
                     const KernelBuilder::ThreadRow &self);
std::unique_ptr<KernelVariant>
makeWarpgroupMmaVariant(KernelBuilder &kernel,
                        const KernelBuilder::QueryBlock &block,
                        const KernelBuilder::SharedTiles &tiles,
                        const KernelBuilder::ThreadRow &self);
std::unique_ptr<KernelVariant>
makeRegisterFragmentVariant(KernelBuilder &kernel,
                            const KernelBuilder::QueryBlock &block,
                            const KernelBuilder::SharedTiles &tiles,
                            const KernelBuilder::ThreadRow &self);

/// How K and V tiles reach shared memory, block by block: one
/// implementation per schedule, which makeKeyTileSchedule chooses from the
/// plan (the way FlashAttention-3 composes its mainloop):
///  - synchronous: each block copies its own tiles, then a barrier;
///  - prefetch (cp.async): block i + 1's tiles are requested into buffer
///    (i + 1) % stages before block i waits for its own;
///  - FlashAttention-2's order (register fragments with cp.async): with one
///    buffer, V is requested before S = Q K^T and the next K before the
///    softmax, each waited for just before it is read; with two or more,
///    the next block's K and V are requested a whole block ahead, right
///    after the barrier that frees their buffers;
///  - the TMA producer (TmaProducer.cpp): a producer warpgroup fills a ring
///    of mbarrier-guarded stages, the compute warpgroups wait on them, with
///    P V a block late and ping-pong where the plan says.
/// The first three are in KeyTileSchedules.cpp.
class KeyTileSchedule {
public:
  KeyTileSchedule(KernelBuilder &kernel, const KernelBuilder::QueryBlock &block,
                  const KernelBuilder::SharedTiles &tiles,
                  const KernelBuilder::KeyBlocks &keys,
                  const KernelBuilder::ThreadRow &self);
  virtual ~KeyTileSchedule() = default;
  /// Step 5: the first block's copies, then the loop (or the unmasked and
  /// the masked loops) over the key blocks from `init`; the state after the
  /// last block.
  virtual SmallVector<Value> walk(KernelVariant &variant, ValueRange init);

protected:
  /// The first block's copies, before the key loop.
  virtual void prologue() {}
  /// One key block at `col0`, whose tiles go to ring buffer `stage`: its
  /// copies, barriers and the variant's steps; the state after it.
  virtual SmallVector<Value> keyBlock(IndexMath &math, Location loc, Value col0,
                                      Value stage, KernelVariant &variant,
                                      ValueRange state) = 0;
  /// The ring buffer (stage) of the key block at `start`: its position in
  /// the walk modulo the stages.
  Value stageOf(IndexMath &math, Value start);
  /// The block walked first, the one walked after the block at `start`,
  /// and whether the block at `start` is one the walk visits.
  Value firstWalked();
  Value nextWalked(IndexMath &math, Value start);
  Value walked(IndexMath &math, Value start);
  /// The valid rows of the key block at `start` (0 past the visible keys).
  Value validKeyRows(IndexMath &math, Value start);
  /// One commit group of the K and/or V tiles of the block at `start` into
  /// buffer `stage`; its token.
  Value requestTiles(IndexMath &math, Value start, Value stage, bool keys,
                     bool values);
  /// The same for a block that may lie past the visible keys: then the
  /// group is empty.
  Value requestTilesIfVisible(IndexMath &math, Value start, Value stage,
                              bool keys, bool values);
  /// The variant's steps on a block whose tiles are being copied: the
  /// barrier that shows them, S, the fold, and with `release` a barrier
  /// after the last read (unless the variant ends with one) so that the
  /// buffers may be filled again.
  SmallVector<Value> computeCopiedBlock(Location loc, Value col0, Value stage,
                                        KernelVariant &variant,
                                        ValueRange state, bool release);

  KernelBuilder &kernel;
  OpBuilder &b;
  KernelBuilder::QueryBlock block;
  KernelBuilder::SharedTiles tiles;
  KernelBuilder::KeyBlocks keys;
  KernelBuilder::ThreadRow self;
  /// tensorKeyLen - 1: the last key row a copy may address.
  Value lastKey;
  /// Under a split band walk (KernelPlan::splitBandWalk) the blocks go
  /// from the last to the first, so that the diagonal's blocks, which need
  /// the element mask, come first and the unmasked loop after them holds
  /// no mask state (FlashAttention-2 and -3 walk causal and local keys so).
  bool fromLast = false;
  /// A walk from the last block: the first key of the block walked first,
  /// the end of the loop positions first + i * block_kv, the position from
  /// which the blocks need no element mask (null without unmaskedEnd) and
  /// the one from which they need it again (a window's left edge; null
  /// without unmaskedBegin). Built in front of the thread loop
  /// (boundsFromLast).
  struct BoundsFromLast {
    Value lastBlockStart, positionEnd, unmaskedFrom, maskedAgainFrom;
  };
  BoundsFromLast boundsFromLast();
  BoundsFromLast bounds;
};

/// The schedule `kernel`'s plan asks for.
std::unique_ptr<KeyTileSchedule> makeKeyTileSchedule(
    KernelBuilder &kernel, const KernelBuilder::QueryBlock &block,
    const KernelBuilder::SharedTiles &tiles,
    const KernelBuilder::KeyBlocks &keys, const KernelBuilder::ThreadRow &self);
/// The TMA producer kernel's (TmaProducer.cpp).
std::unique_ptr<KeyTileSchedule> makeTmaProducerSchedule(
    KernelBuilder &kernel, const KernelBuilder::QueryBlock &block,
    const KernelBuilder::SharedTiles &tiles,
    const KernelBuilder::KeyBlocks &keys, const KernelBuilder::ThreadRow &self);

} // namespace mlir::fa::gpu_kernel

#endif // FA_LIB_TRANSFORMS_GPUKERNEL_KERNELBUILDER_H
