//===- KernelBuilder.h - fa-distribute-attention's kernel builder -*- C++
//-*-===//
//
// The state and steps of the kernel that fa-distribute-attention writes:
// KernelBuilder (the outline, DistributeAttention.cpp), KeyTileSchedule (how
// K and V reach shared memory) and KernelVariant, the protocol of the
// variants (FMAKernel.cpp, SharedMmaKernel.cpp, RegisterFragmentKernel.cpp).
// Private to lib/Transforms/GPUKernel.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPU_KERNELBUILDER_H
#define FA_LIB_TRANSFORMS_GPU_KERNELBUILDER_H

#include "fa/Transforms/Common/AttentionGeometry.h"
#include "fa/Transforms/Common/IndexMath.h"
#include "fa/Transforms/Common/TensorBuilders.h"
#include "fa/Transforms/Common/WarpMatmul.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/KernelModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <memory>

namespace mlir::fa::gpu_kernel {


/// Threads per warp on NVIDIA GPUs, the only targets of this kernel.
constexpr int64_t kWarpSize = kKernelWarpSize;
/// Bytes a thread moves per load or store when copying tiles, and the row
/// padding of the shared tiles (see sharedMemoryBytes in KernelModel.h).
constexpr int64_t kChunkBytes = kKernelChunkBytes;

inline int64_t elementBytes(Type type) {
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

/// Elements per 16-byte chunk when every row of `width` elements splits into
/// whole chunks; 1 (scalar copies) otherwise.
inline int64_t chunkElements(int64_t width, Type type) {
  int64_t perChunk = kChunkBytes / elementBytes(type);
  return width % perChunk == 0 ? perChunk : 1;
}

/// Row length of a shared tile in elements: `width` plus 16 bytes.
inline int64_t paddedWidth(int64_t width, Type type) {
  return width + kChunkBytes / elementBytes(type);
}

inline Value f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

/// vector.load with the 16-byte alignment the copies guarantee when a chunk
/// is 16 bytes (rows of whole chunks in global memory, padded rows in
/// shared memory); element alignment otherwise.
inline Value loadVector(OpBuilder &b, Location loc, VectorType type, Value memref,
                 ValueRange indices) {
  auto load = vector::LoadOp::create(b, loc, type, memref, indices);
  if (type.getNumElements() * elementBytes(type.getElementType()) ==
      kChunkBytes)
    load.setAlignment(kChunkBytes);
  return load;
}

inline void storeVector(OpBuilder &b, Location loc, Value vector, Value memref,
                 ValueRange indices) {
  auto store = vector::StoreOp::create(b, loc, vector, memref, indices);
  auto type = cast<VectorType>(vector.getType());
  if (type.getNumElements() * elementBytes(type.getElementType()) ==
      kChunkBytes)
    store.setAlignment(kChunkBytes);
}

/// A kernel's read-only view of an operand tensor.
inline Value readOnlyBuffer(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  return bufferization::ToBufferOp::create(b, loc, memrefType, tensor,
                                           /*read_only=*/true);
}

inline Value extendToF32(OpBuilder &b, Location loc, Value vector) {
  auto type = cast<VectorType>(vector.getType());
  if (type.getElementType().isF32())
    return vector;
  return arith::ExtFOp::create(b, loc, type.clone(b.getF32Type()), vector);
}

/// How the GPU kernels exponentiate, FlashAttention-2's way: a score enters
/// the softmax as a value u whose row max m is taken as it is, and
///   p = 2^(u c - m c)  (one FMA and one ex2.approx per score),
/// c folding log2 e, and the scale where u is unscaled. With a positive scale
/// and no additive bias, u is the raw dot product (hidden keys -inf): the max
/// commutes with a positive scale, so no score is multiplied before its FMA.
/// Otherwise (a bias, or a scale <= 0, whose max would flip) u is the masked
/// score scale raw + bias itself and c = log2 e.
///
/// Rounding: m c is rounded once per row and block (the shift); every p of
/// the row and the block's rescale factor 2^(m_old c - m_new c) use that
/// same rounded shift, so O = sum p v / sum p is unaffected by it. What is
/// left is ex2.approx.ftz's relative error (about 2^-22, 2 ulp), far below
/// the f16/bf16 rounding of P before P V (2^-11, 2^-8).
/// 2^x, marked `afn`: on a GPU one ex2.approx.ftz.f32
/// (fa-lower-exp2-to-nvvm), on a CPU the host's exp2.
inline Value approximateExp2(OpBuilder &b, Location loc, Value x) {
  return math::Exp2Op::create(b, loc, x, arith::FastMathFlags::afn);
}

struct SoftmaxExponent {
  /// u is the raw dot product (see above).
  bool rawScores = false;
  /// c: u c is the score in base-2 units.
  double log2Factor = 0;
  /// What a max of u is multiplied by to be in natural units (the
  /// logsumexp): the scale when u is raw, 1 otherwise.
  double naturalFactor = 1;
  /// p = 2^((u - m) c) instead: with a finite mask_fill f, u and m may be
  /// f itself, and f c or m c overflow f32 where |f| > FLT_MAX / log2 e
  /// (JAX's -0.7 finfo.max); u - m does not, and where it does it is a
  /// weight below 2^-FLT_MAX, 0 either way.
  bool subtractFirst = false;

  static constexpr double kLog2e = 1.4426950408889634;

  /// For fa.attention or fa.attention_backward: a float mask is a bias
  /// added to the scores, an i1 mask only hides.
  static SoftmaxExponent of(AttentionOpInterface op) {
    double scale = op.getScaleAttr().getValueAsDouble();
    bool additiveMask =
        op.getMask() &&
        !getElementTypeOrSelf(op.getMask().getType()).isInteger(1);
    // A finite fill is a scaled score: with raw scores it would be f/scale,
    // which f32 cannot hold exactly.
    bool filled = !std::isinf(op.getHiddenScore());
    // A score_mod needs the scaled score, and a sink is a logit in natural
    // units that the state starts from.
    bool modified = op.getScoreModBlock() || op.getSinks();
    SoftmaxExponent result;
    result.rawScores = scale > 0 && !additiveMask && !filled && !modified;
    result.log2Factor = result.rawScores ? scale * kLog2e : kLog2e;
    result.naturalFactor = result.rawScores ? scale : 1;
    result.subtractFirst = filled || scoreModMayBeHuge(op);
    return result;
  }

  /// Whether a score score_mod yields may be beyond FLT_MAX / log2 e, so
  /// that scaling it first would overflow as a finite fill would: it holds
  /// such a finite constant (torch.nan_to_num's ±FLT_MAX), or it reads a
  /// float tensor, whose values are not known (a bias of finfo.min on a
  /// whole row).
  static bool scoreModMayBeHuge(AttentionOpInterface op) {
    Block *block = op.getScoreModBlock();
    if (!block)
      return false;
    bool huge = false;
    block->walk([&](Operation *inner) {
      if (auto read = dyn_cast<tensor::ExtractOp>(inner))
        huge |= isa<FloatType>(read.getType());
      auto constant = dyn_cast<arith::ConstantOp>(inner);
      auto value =
          constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
      if (value && std::isfinite(value.getValueAsDouble()) &&
          std::abs(value.getValueAsDouble()) * kLog2e >
              double(std::numeric_limits<float>::max()))
        huge = true;
    });
    return huge;
  }

  /// -m c for a row max `max` of u (0 where the row has seen no key, so
  /// that hidden scores give 2^-inf = 0, never NaN).
  Value negatedShift(OpBuilder &b, Location loc, Value max) const {
    if (subtractFirst) // -m, in u's units
      return arith::NegFOp::create(b, loc, safeRowMax(b, loc, max));
    Value factor = f32Constant(b, loc, -log2Factor);
    return arith::MulFOp::create(b, loc, safeRowMax(b, loc, max), factor);
  }
  /// The shift of a logsumexp L in natural units (the backward pass): -L
  /// log2 e, or -L where the exponent subtracts before it scales.
  Value negatedLogsumexpShift(OpBuilder &b, Location loc, Value lse) const {
    if (subtractFirst)
      return arith::NegFOp::create(b, loc, safeRowMax(b, loc, lse));
    Value factor = f32Constant(b, loc, -kLog2e);
    return arith::MulFOp::create(b, loc, safeRowMax(b, loc, lse), factor);
  }
  /// 2^(u c + negatedShift), of scalars or of vectors (negatedShift
  /// broadcast): the FMA is explicit, so that the CPU model computes the
  /// very operation the GPU does.
  Value probability(OpBuilder &b, Location loc, Value u,
                    Value negatedShift) const {
    Value factor = f32Constant(b, loc, log2Factor);
    if (auto type = dyn_cast<VectorType>(u.getType())) {
      factor = vector::BroadcastOp::create(b, loc, type, factor);
      negatedShift = vector::BroadcastOp::create(b, loc, type, negatedShift);
    }
    Value exponent =
        subtractFirst
            ? arith::MulFOp::create(
                  b, loc, arith::AddFOp::create(b, loc, u, negatedShift),
                  factor)
                  .getResult()
            : math::FmaOp::create(b, loc, u, factor, negatedShift)
                  .getResult();
    return approximateExp2(b, loc, exponent);
  }
  /// 2^(m_old c - m_new c), rescaling what was summed under the old max:
  /// m_old c rounded like the old block's shift, the difference exact when
  /// the two are close (no FMA here, which would round differently).
  Value rescale(OpBuilder &b, Location loc, Value oldMax,
                Value negatedNewShift) const {
    if (subtractFirst) {
      Value factor = f32Constant(b, loc, log2Factor);
      Value difference = arith::AddFOp::create(b, loc, oldMax, negatedNewShift);
      return approximateExp2(b, loc,
                             arith::MulFOp::create(b, loc, difference, factor));
    }
    Value oldShift = arith::MulFOp::create(b, loc, oldMax,
                                           f32Constant(b, loc, log2Factor));
    return approximateExp2(
        b, loc, arith::AddFOp::create(b, loc, oldShift, negatedNewShift));
  }
  /// m (a max of u, or -inf) in natural units, 0 for -inf: the logsumexp's
  /// first term.
  Value naturalMax(OpBuilder &b, Location loc, Value max) const {
    Value safe = safeRowMax(b, loc, max);
    if (naturalFactor == 1)
      return safe;
    return arith::MulFOp::create(b, loc, safe,
                                 f32Constant(b, loc, naturalFactor));
  }
};

/// f32 arithmetic that the NVPTX backend and ptxas may contract into FMAs
/// (PTX without .rn): sums and rescales whose rounding the algorithm does
/// not depend on. The shifts and rescale factors of SoftmaxExponent, the
/// epilogue's division and the logsumexp stay exact.
inline Value contractingAdd(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddFOp::create(b, loc, x, y, arith::FastMathFlags::contract);
}
inline Value contractingMul(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MulFOp::create(b, loc, x, y, arith::FastMathFlags::contract);
}

/// Where a kernel's scores come from: what masks the element (row, col) of
/// query head `head` in batch `batch`.
struct ScoreMasks {
  /// The op's mask buffer (null without one) and its broadcast dims.
  Value mask;
  ArrayRef<bool> maskBroadcast;
  /// Query rows, the keys K and V have (which bounds addresses), the keys
  /// the sequence has (past them scores are -inf), and the causal and window
  /// bands.
  Value queryLen, tensorKeyLen, keyLen;
  AttentionGeometry geometry;
  /// False in a key block that every row sees whole: only the score_mod
  /// and mask_mod then apply.
  bool elementMasks = true;
  /// The buffers of the tensors score_mod and mask_mod read (null: none).
  const IRMapping *captures = nullptr;
};

/// scale * raw plus the mask element, -inf where the key is hidden (past
/// keyLen, causal, window, keep-mask): the score of one element in every
/// GPU kernel of fa.attention and fa.attention_backward.
/// Rows and keys past the tensors read a valid mask element; their scores
/// are dropped by the caller or by keyLen.
/// With `slope` (the backward kernel), also the score_mod's derivative in
/// the scaled score (ScoreModifiers.h), left alone without a score_mod.
inline Value kernelScore(OpBuilder &b, Location loc, AttentionOpInterface op,
                         const ScoreMasks &masks, Value raw, Value scale,
                         Value batch, Value head, Value row, Value col,
                         Value *filled = nullptr, Value *slope = nullptr) {
  IndexMath math{b, loc};
  MaskedScore score(b, loc, raw, scale);
  score.setHiddenScore(op.getHiddenScore());
  auto clamped = [&](Value index, Value length) {
    Value zero = math.constant(0);
    Value last = math.addConstant(length, -1);
    return math.max(zero, math.min(index, last));
  };
  if (op.getScoreModBlock() || op.getMaskModBlock())
    applyScoreModifiers(score, math, op, batch, head,
                        clamped(row, masks.queryLen),
                        clamped(col, masks.tensorKeyLen), masks.captures,
                        /*withMaskMod=*/true, slope);
  if (!masks.elementMasks)
    return score.finish();
  if (masks.mask) {
    Value zero = math.constant(0);
    Value clampedRow = clamped(row, masks.queryLen);
    Value clampedCol = clamped(col, masks.tensorKeyLen);
    Value indices[] = {batch, head, clampedRow, clampedCol};
    for (int64_t dim = 0; dim < 4; ++dim)
      if (masks.maskBroadcast[dim])
        indices[dim] = zero;
    score.addMask(memref::LoadOp::create(b, loc, masks.mask, indices));
  }
  score.require(math.lt(col, masks.keyLen));
  masks.geometry.requireDiagonalBand(score, math, row, col);
  if (filled)
    *filled = score.filled();
  return score.finish();
}

/// What every kernel of fa-distribute-attention and
/// fa-distribute-attention-backward shares: copies of rows of a
/// [B, H, N, width] tensor into shared tiles (16 bytes per thread and step,
/// synchronous or cp.async) and the layout of those tiles (padded rows, or
/// unpadded rows with XOR-swizzled 16-byte chunks for the register-fragment
/// kernels' ldmatrix reads). Defined in SharedTiles.cpp.
struct TileCopier {
  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  /// Threads of a block.
  int64_t threads;
  /// Whether the tensor-core kernel keeps S and P in mma.sync fragments
  /// (FlashAttention-2's register-resident softmax, RegisterFragmentKernel.cpp)
  /// instead of passing them through shared memory; its shared tiles are
  /// swizzled (swizzledRows).
  bool registerFragments = false;
  /// K and V, and for paged K/V ([P, S, Hkv, D]) the page table [B, M]
  /// (null otherwise): globalIndices reads K and V through it.
  Value key, value, pageTable;

  TileCopier(OpBuilder &b, Location loc, int64_t threads)
      : b(b), loc(loc), ctx(b.getContext()), threads(threads) {}

  /// (row, column) of chunk `index` of a tile with `tileRows` rows of
  /// `chunksPerRow` chunks of `chunk` elements (see the definition).
  std::pair<Value, Value> chunkPosition(IndexMath &math, Value index,
                                        int64_t tileRows, int64_t chunksPerRow,
                                        int64_t chunk, Type type) const;
  /// The indices of element (row, column) of source[batch, head]: K and V
  /// of a paged op are read through the page table.
  SmallVector<Value> globalIndices(IndexMath &math, Value source, Value batch,
                                   Value head, Value row, Value column);
  void copyTile(Value source, Value batch, Value head, Value row0,
                Value validRows, int64_t tileRows, int64_t width,
                Value sharedTile, Value stage, Value thread);
  SmallVector<Value> copyTileAsync(Value source, Value batch, Value head,
                                   Value row0, Value validRows, Value lastRow,
                                   int64_t tileRows, int64_t width,
                                   Value sharedTile, Value stage, Value thread);
  /// Whether tiles of `width` elements per row are stored unpadded with
  /// their 16-byte chunks swizzled (see sharedColumn); padded otherwise.
  bool swizzledRows(int64_t width, Type type) const;
  /// The allocated row length of a shared tile of `width` columns.
  int64_t sharedRowLength(int64_t width, Type type) const;
  /// The wgmma kernel's tiles (WarpgroupMmaKernel.cpp): rows wider than 128
  /// bytes are stored as column blocks of 128 bytes, each a [rows][128 B]
  /// tile of its own, one after the other, so that every block is what
  /// wgmma's 128-byte swizzle reads (8 rows 128 bytes apart).
  bool columnBlocks = false;
  /// Where element (row, column) (column a chunk's first) of a tile of
  /// `tileRows` rows of `width` elements is stored: (row, sharedColumn)
  /// without column blocks; with them, the same element offset within the
  /// tile's [tileRows][width] storage as the column block layout gives.
  std::pair<Value, Value> sharedPosition(IndexMath &math, Value row,
                                         Value column, int64_t tileRows,
                                         int64_t width, Type type) const;
  /// Where column `column` (a multiple of 8 elements, the start of a 16-byte
  /// chunk, or any column of a padded tile) of row `row` is stored.
  Value sharedColumn(IndexMath &math, Value row, Value column, int64_t width,
                     Type type) const;
  /// ldmatrix.x4 (`.trans` when `transpose`) of four 8x8 matrices of a
  /// shared tile of `width` columns (at `stage` when given): this lane gives
  /// the address of (row, column).
  Value ldmatrix(Value tile, Value stage, Value row, Value column,
                 int64_t width, Type type, bool transpose);
};

class KernelVariant;
class KeyTileSchedule;

struct KernelBuilder : TileCopier {
  AttentionOp op;
  /// What planKernel decided; the fields below copy parts of it.
  KernelPlan plan;
  int64_t blockQ, blockKV, stages, headDim, valueDim;
  int64_t keyChunk;
  /// Key splits (split-KV): each grid block computes one run of its query
  /// block's key blocks into the workspace, and a second kernel merges.
  int64_t kvSplits = 1;
  /// Whether K and V tiles are prefetched with cp.async (see asyncCopies).
  bool asyncCopies = false;
  /// Whether Q K^T and P V are warp-level 16x8x16 matmuls (tensor cores,
  /// see tensorCoreKernel) rather than per-thread FMAs.
  bool tensorCores = false;
  /// Threads per query row in the tensor-core kernel's row phases: 2 when
  /// the block has half as many rows as threads (block_q = 16 * warps), so
  /// that no thread idles; the two combine the row's max and sum with one
  /// warp shuffle. 1 otherwise (and always in the FMA kernel).
  int64_t rowSplit = 1;
  /// Whether the register-fragment kernel multiplies with Hopper's wgmma
  /// (WarpgroupMmaKernel.cpp) instead of mma.sync.
  bool warpgroupMma = false;
  /// Whether Q, K and V arrive by TMA from a producer warpgroup
  /// (TmaProducer.cpp): the block's last 128 threads, after the compute
  /// warpgroups, whose thread ids stay what the wgmma variant expects.
  bool tmaProducer = false;
  /// With tmaProducer: each block's P V is issued in the next block's step
  /// and runs while that block's softmax does (FlashAttention-3's
  /// intra-warpgroup overlap, KernelPlan::overlapSoftmax).
  bool overlapSoftmax = false;
  /// With tmaProducer: the compute warpgroups take turns issuing their
  /// matmuls (named barriers, KernelPlan::pingPong).
  bool pingPong = false;
  Type queryElementType, keyElementType, valueElementType, outputElementType,
      f32;

  // Buffers and sizes seen from inside the kernel.
  Value query, mask, output, logsumexp;
  /// How scores are exponentiated (scoreOf yields u).
  SoftmaxExponent exponent;
  /// With key splits: the workspace of partial outputs [S, B, Hq, Nq, Dv]
  /// and logsumexps [S, B, Hq, Nq], both f32.
  Value partialOutput, partialLse;
  /// keyLen: the keys the block's sequence has (Nk, or its kv_lengths
  /// entry clamped to [0, Nk]); tensorKeyLen: Nk, the rows K and V have,
  /// which bounds addresses.
  Value queryLen, keyLen, tensorKeyLen, groupSize, scale;
  /// The causal and window bands (per sequence, like keyLen).
  AttentionGeometry geometry;
  Value kvLengths;
  /// Packed sequences: cu_seqlens_q and cu_seqlens_k ([B + 1]); null
  /// otherwise.
  Value packedQueries, packedKeys;
  SmallVector<bool> maskBroadcast;

  /// Builds the kernel `plan` (planKernel) describes for `op`.
  KernelBuilder(AttentionOp op, OpBuilder &b, TilingAttr tiling,
                const KernelPlan &plan)
      : TileCopier(b, op.getLoc(), plan.threads), op(op), plan(plan),
        blockQ(tiling.getBlockQ()), blockKV(tiling.getBlockKv()),
        stages(plan.stages), keyChunk(plan.keyChunk),
        kvSplits(tiling.getKvSplits()), asyncCopies(plan.asyncCopies),
        tensorCores(plan.tensorCores), rowSplit(plan.rowSplit) {
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
    warpgroupMma = plan.warpgroupMma;
    columnBlocks = plan.warpgroupMma;
    tmaProducer = plan.tmaProducer;
    overlapSoftmax = plan.overlapSoftmax;
    pingPong = plan.pingPong;
  }

  // The TMA producer kernel (tmaProducer, TmaProducer.cpp).
  struct QueryBlock;
  /// Tensor maps of Q, K and V (built on the host, in front of the grid)
  /// and the block's mbarrier group (see TmaBarriers).
  Value queryMap, keyMap, valueMap, barriers;
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
  /// TMA loads of rows [row0, row0 + rows) of source[batch, head] (a tensor
  /// map) into `tile`'s column blocks from element `elementOffset` on, as
  /// one transaction on barrier `barrier` (expect_tx, then the loads).
  void issueTileLoads(Value map, Value flatTile, Value elementOffset,
                      Value batch, Value head, Value row0, int64_t rows,
                      int64_t width, Type type, Value barrier);
  /// try_wait.parity on barrier `index` of the group, for the phase of
  /// parity `parity` (an i1).
  void waitOnBarrier(Value index, Value parity);
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
    return valueDim / accumulatorSlice() / rowSplit;
  }
  /// One grid block: the steps below, in the order their arguments state.
  void buildQueryBlock(scf::ForallOp grid);
  struct QueryBlock {
    /// Grid coordinates (the batch is 0 for packed sequences), the key
    /// split (null without splits), the block's first row and valid rows,
    /// and the K/V head its query head reads.
    Value batch, head, split, row0, rows, kvHead;
  };
  QueryBlock enterQueryBlock(scf::ForallOp grid);
  struct SharedTiles {
    Value query, key, value, results, probs;
  };
  SharedTiles allocateSharedTiles();
  struct KeyBlocks {
    /// The walk from firstBlockStart to keyEnd; the blocks before
    /// unmaskedEnd (null when some mask applies) need no element mask.
    Value firstBlockStart, keyEnd, unmaskedEnd;
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
  /// (m, l, acc slices...) after one key block.
  SmallVector<Value> computeKeyBlock(Value thread, Value row, Value batch,
                                     Value head, Value col0, Value stage,
                                     Value querySmem, Value keySmem,
                                     Value valueSmem, ValueRange state);
  Value scoreOf(Value raw, Value batch, Value head, Value row, Value col);
  /// The buffers of the tensors the op's score_mod and mask_mod read, and
  /// of its sinks (null without).
  IRMapping modifierCaptures;
  Value sinks;
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
  /// False while building the loop over key blocks that every row of the
  /// query block sees whole: scoreOf then applies no mask.
  bool elementMasks = true;
  /// Whether every key block the kernel reads is whole: a static Nk that
  /// blocks divide, and no per-sequence lengths. Its copies then need no
  /// clamps or zero fill.
  bool wholeKeyBlocks() {
    int64_t keys = op.getKeyLength();
    return !kvLengths && !packedKeys && !ShapedType::isDynamic(keys) &&
           keys % blockKV == 0;
  }

  // The tensor-core kernel (tensorCores): per key block, the warps compute
  // S = Q K^T into `results`, thread t turns row t into probabilities in
  // `probs`, the warps compute P V into `results`, thread t folds row t into
  // its accumulator.
  /// First query row (of the block) of warp tile `tile` of `thread`'s warp:
  /// an affine function of the thread id alone, so every lane of a warp
  /// computes the same and upstream's vector-to-nvgpu conversion can
  /// distribute the matmul over the lanes.
  Value warpTileRow(Value thread, int64_t tile);
  void warpMatmulTiles(
      Value thread, Value lhs, int64_t k, int64_t n, Value rhs,
      function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value)>
          rhsIndices,
      AffineMap rhsMap, Value results);
  void warpScores(Value thread, Value stage, Value querySmem, Value keySmem,
                  Value results);
  void warpProbsTimesValues(Value thread, Value stage, Value probs,
                            Value valueSmem, Value results);
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
  Value combineRowParts(Value value, arith::AtomicRMWKind kind);
  /// (m', l', alpha) of query row `thread` after one key block; writes the
  /// row's probabilities, rounded to V's type, to `probs`.
  SmallVector<Value> softmaxRow(Value thread, Value row, Value batch,
                                Value head, Value col0, Value results,
                                Value probs, Value oldMax, Value oldSum);
  /// acc * alpha + results[thread] for the accumulator slices `acc`, which
  /// the tensor-core kernel keeps in the thread's half order (each slice:
  /// the half at halves[0], then the one at halves[1]).
  SmallVector<Value> accumulateRow(Value thread, Value alpha, Value results,
                                   ValueRange acc);

  // The register-fragment kernel (registerFragments, RegisterFragmentKernel.cpp):
  // warp w owns rows [w R, (w + 1) R) of the block, R = block_q / warps, as
  // R / 16 fragment rows of 16; S, P and O live in mma.sync fragments.
  /// (m, l) per fragment row and the O fragments, all zero / -inf.
  SmallVector<Value> fragmentInitState(Value thread);
  /// One key block in two steps, so that the copies of FlashAttention-2's
  /// order fit between them: S = Q K^T (reads K_s), then the online softmax
  /// and O += P V (reads V_s), which give the state after the block.
  SmallVector<Value> fragmentScores(Value thread, Value stage, Value querySmem,
                                    Value keySmem);
  SmallVector<Value> fragmentSoftmaxAndValues(Value thread, Value batch,
                                              Value head, Value row0,
                                              Value col0, Value stage,
                                              Value valueSmem,
                                              ArrayRef<Value> scores,
                                              ValueRange state);
  /// O = acc / l and the logsumexp, from the fragments.
  void fragmentEpilogue(Value thread, Value batch, Value head, Value row0,
                        ValueRange state);
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
  /// The ring buffer (stage) of the key block at `start`.
  Value stageOf(IndexMath &math, Value start);
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

#endif // FA_LIB_TRANSFORMS_GPU_KERNELBUILDER_H
