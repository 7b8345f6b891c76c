//===- KernelSupport.h - What every GPU kernel builder shares ---*- C++ -*-===//
//
// Stage: GPU kernel. The support every kernel of lib/Transforms/GPUKernel
// builds on (the forward kernel, its backward kernels, linear attention's):
// the hardware constants, vector loads and stores at the copies' alignment,
// FlashAttention-2's exponent (SoftmaxExponent), a score with its masks
// (kernelScore) and the copies of tiles into shared memory (TileCopier,
// SharedTiles.cpp). The forward kernel's own builder is KernelBuilder.h.
// Private to lib/Transforms/GPUKernel.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPUKERNEL_KERNELSUPPORT_H
#define FA_LIB_TRANSFORMS_GPUKERNEL_KERNELSUPPORT_H

#include "Common/AttentionGeometry.h"
#include "Common/IndexMath.h"
#include "Common/TensorBuilders.h"
#include "Common/WarpMatmul.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/KernelModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::fa::gpu_kernel {

/// Threads per warp on NVIDIA GPUs, the only targets of this kernel.
constexpr int64_t kWarpSize = kKernelWarpSize;
/// Bytes a thread moves per load or store when copying tiles, and the row
/// padding of the shared tiles (see sharedLayout in KernelModel.h).
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
inline Value loadVector(OpBuilder &b, Location loc, VectorType type,
                        Value memref, ValueRange indices) {
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
            : math::FmaOp::create(b, loc, u, factor, negatedShift).getResult();
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
    Value oldShift =
        arith::MulFOp::create(b, loc, oldMax, f32Constant(b, loc, log2Factor));
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

/// What a key block's scores need besides score_mod and mask_mod, which
/// always apply.
enum class ElementMasks {
  /// Nothing: every row of the query block sees each key of the block.
  none,
  /// The window's left edge alone: a block before unmaskedEnd (every key
  /// exists and lies within every row's causal and right window edges) that
  /// the left edge of a row's window crosses (KernelBuilder::KeyBlocks).
  windowLeftEdge,
  /// Every mask: the key length, the causal and window bands, the mask
  /// operand.
  all,
};

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
  /// What the key block needs (ElementMasks).
  ElementMasks elementMasks = ElementMasks::all;
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
  if (masks.elementMasks == ElementMasks::none)
    return score.finish();
  if (masks.elementMasks == ElementMasks::windowLeftEdge) {
    masks.geometry.requireWindowLeftEdge(score, math, row, col);
    if (filled)
      *filled = score.filled();
    return score.finish();
  }
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
  /// Whether `source` is read through the page table: K or V of a paged op.
  bool pagedSource(Value source) const {
    return pageTable && (source == key || source == value);
  }
  /// A K or V tile's page in a paged cache, where the tile lies in one:
  /// the page of row `row0`'s table entry and that row's slot.
  struct TilePage {
    Value page, firstSlot, lastSlot;
  };
  /// The page of a tile of `tileRows` rows from `row0` of `source`, where
  /// a static page size is a multiple of tileRows (nullopt otherwise, and
  /// for tensors that are not a paged K or V). Key tiles start on
  /// multiples of tileRows (the key blocks of the walks, as the TMA
  /// producer kernel's boxes rely on too), so such a page holds each
  /// whole: one table entry per tile instead of one per row. The entry is
  /// clamped into the table, as a block past the last key (a prefetch that
  /// copies nothing) may start past it.
  std::optional<TilePage> tilePage(IndexMath &math, Value source, Value batch,
                                   Value row0, int64_t tileRows);
  /// The last tilePage built, for the tile of (batch, row0, tileRows): K's
  /// and V's tiles of a block share their table entry (and P: K and V
  /// caches have the same pages), so V's copies reuse K's page where it is
  /// in the same block.
  struct LastTilePage {
    Value batch, row0;
    int64_t tileRows = 0;
    TilePage page;
  };
  std::optional<LastTilePage> lastTilePage;
  /// The indices of element (row, column) of source[batch, head]: K and V
  /// of a paged op are read through the page table, at `page`'s slots
  /// (row `tileRow` of the tile) where the tile lies in one page.
  SmallVector<Value> globalIndices(IndexMath &math, Value source, Value batch,
                                   Value head, Value row, Value column,
                                   const std::optional<TilePage> &page = {},
                                   Value tileRow = Value());
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
  // TMA loads that complete on mbarriers (TmaProducer.cpp), for the
  // kernels with a producer warpgroup, forward and backward.
  /// The block's mbarrier group, in front of the thread loop.
  Value barriers;
  /// A tensor map of `buffer` (on the host: in front of the grid) whose
  /// boxes have shape `box`, zero fill past the tensor; the 128-byte
  /// swizzle (box rows of one 128-byte swizzle row) when `swizzled`.
  Value createTensorMap(Value buffer, ArrayRef<int64_t> box, bool swizzled);
  /// try_wait.parity on barrier `index` of the group, for the phase of
  /// parity `parity` (an i1).
  void waitOnBarrier(Value index, Value parity);
  /// arrive.expect_tx on barrier `barrier` for a tile of `rows` x `width`
  /// elements of `type`.
  void expectTileBytes(int64_t rows, int64_t width, Type type, Value barrier);
  /// arrive.expect_tx on barrier `barrier` for `bytes` bytes (one arrival:
  /// a transaction of several tiles announces their sum once).
  void expectBytes(int64_t bytes, Value barrier);
  /// One TMA load of `map`'s box at `coordinates` (innermost first) into
  /// `flatTile` from element `elementOffset` on, completing on barrier
  /// `barrier`.
  void issueBox(Value map, Value flatTile, Value elementOffset, Value barrier,
                ValueRange coordinates);
  /// TMA loads of one box per 64-column block (at coordinates `outer`,
  /// innermost first but for the column, which this adds) into `tile`'s
  /// column blocks of `tileRows` rows each, from element `elementOffset`
  /// on, completing on barrier `barrier`.
  void issueBoxLoads(Value map, Value flatTile, Value elementOffset,
                     int64_t tileRows, int64_t width, Type type, Value barrier,
                     ValueRange outer);
  /// A tile of `rows` rows as one transaction on barrier `barrier`:
  /// expect_tx, then its boxes.
  void issueTileLoads(Value map, Value flatTile, Value elementOffset,
                      int64_t rows, int64_t width, Type type, Value barrier,
                      ValueRange outer);
  /// Marks the role predicate `predicate` (kComputeRole or
  /// kProducerLeaderRole, with the producer's registers) for
  /// fa-specialize-warpgroups to version the kernel on.
  Value markRole(Value predicate, StringRef role,
                 int64_t producerRegisters = 0);

  /// ldmatrix.x4 (`.trans` when `transpose`) of four 8x8 matrices of a
  /// shared tile of `width` columns (at `stage` when given): this lane gives
  /// the address of (row, column).
  Value ldmatrix(Value tile, Value stage, Value row, Value column,
                 int64_t width, Type type, bool transpose);
};

/// Runs `body` in an scf.if on `condition` (a warpgroup role: the TMA
/// producer kernels' one program, TmaProducer.cpp). The values it returns
/// (whose types are known once it is built) are yielded there, and
/// `otherwise` (zeros of their types when empty) where the condition is
/// false.
SmallVector<Value> onRole(OpBuilder &b, Location loc, Value condition,
                          ValueRange otherwise,
                          function_ref<SmallVector<Value>()> body);

} // namespace mlir::fa::gpu_kernel

#endif // FA_LIB_TRANSFORMS_GPUKERNEL_KERNELSUPPORT_H
