//===- DistributeAttentionBackward.cpp - the backward pass as GPU kernels -===//
//
// Stage: GPU kernel, before the hardware mapping. Lowers an
// fa.attention_backward that carries a tiling into FlashAttention-2's
// backward pass on tensor cores, as three kernels (a fourth for the bias
// gradient, buildBiasGradient) written with upstream ops and mapping
// attributes (the same contract as fa-distribute-attention):
//
//   D = rowsum(dO * O)                  one thread per query row, f32
//
//   scf.forall (b, kv head, key block)  [#gpu.block]           -- dK, dV
//     K_s [Bc][D], V_s [Bc][Dv]          resident
//     Q_s [stages][Br][D], dO_s [stages][Br][Dv]   streamed (cp.async)
//     warp w owns keys [w R, (w + 1) R) of the block, R = Bc / warps
//     for (query head of the group, visible query block):
//       S^T  = K Q^T, dP^T = V dO^T          mma.sync, f32 fragments
//       P^T  = exp(scale S^T (+ mask) - L)   0 where hidden or L = -inf
//              (as 2^(S^T c - L log2 e), SoftmaxExponent)
//       dS^T = P^T * (dP^T - D)
//       dV  += P^T dO, dK += dS^T Q          A operands: P^T, dS^T rounded
//                                            in pairs from the accumulators
//     store scale dK, dV from the fragments
//
//   without `deterministic` (FlashAttention-2's and -3's atomic dQ):
//     dS^T_s [Bc][Br]                    dS^T rounded, written by each warp
//     after each query block (in the dK/dV kernel above):
//       dQacc[rows of the block] += dS K    mma.sync over the whole key
//                                        block, 16 x 32 output tiles shared
//                                        out among the warps, f32 atomics
//   scf.forall (b, head, row block)    [#gpu.block]            -- dQ
//     dQ = scale dQacc, rounded (dQacc zeroed by the D kernel)
//
//   with `deterministic`, a kernel of its own:
//   scf.forall (b, head, query block)   [#gpu.block]           -- dQ
//     Q_s [Br][D], dO_s [Br][Dv] resident; K_s, V_s streamed
//     warp w owns query rows [w R, (w + 1) R), R = Br / warps
//     for visible key block: S = Q K^T, dP = dO V^T, P, dS as above,
//       dQ += dS K
//     store scale dQ
//
// The dK/dV kernel is the forward kernel turned around: its warps own key
// rows, so S^T's accumulator fragments for 16 queries are, rounded, exactly
// the A operand of P^T dO, as S's are of P V in the forward kernel; the
// same holds for dS^T and dK. Nothing passes through shared memory but the
// four input tiles, and no warp reads another's rows, so a key block needs
// only the barriers around its streamed tiles. dQ is a sum over key blocks,
// which the dK/dV kernel's blocks each hold one of: by default each block
// adds its share with f32 atomics (the order of the additions, and so the
// rounding, changes from run to run), which forms S and dP once per tile
// pair. With `deterministic` on the op, dQ gets a kernel of its own that
// forms S and dP again: each dQ row is summed by one block in a fixed
// order, so the result is the same bits on every run (1.4 times the
// matmuls; docs/Tiling.md has the trade-off). dS^T's fragments are not
// dS's (the A operand of dS K): the atomic path passes dS^T through shared
// memory and reads it back transposed (ldmatrix.trans), as FlashAttention-2
// does. GQA: a dK/dV block walks every query head of its group, so the
// group's sum is formed in one block too.
//
// On sm_90a (warpgroupMma) the dK/dV kernel's five matmuls run on wgmma
// (docs/Hopper.md), and with tmaProducer its query blocks come by TMA from
// a producer warpgroup, FlashAttention-3's warp specialization:
//
//   block: compute warpgroups + 1 producer warpgroup
//     K_s, V_s copied by every thread; then the roles part
//     producer leader: per query block, wait empty[s]; Q and [L; D] on
//                      queryFull[s], dO on gradOutputFull[s] (QueryRing)
//     compute:         wait both; S^T, dP^T, P^T, dS^T (L, D from shared
//                      memory); named barrier; dS^T_s; dV, dK; arrive
//                      empty[s]; named barrier; dQ^T, atomics
//
// L and D reach TMA through a workspace the D kernel writes side by side
// ([B, Hq, 2, Nq rounded up to 4]: a tensor map's strides are multiples
// of 16 bytes). fa-specialize-warpgroups gives each role its own code and
// registers (setmaxnreg) on the GPU; the CPU model runs the roles in lock
// step, each mbarrier wait a phase boundary.
//
// Score modifications: each element's score goes through kernelScore, which
// inlines the score_mod and mask_mod (their captured tensors read-only
// buffers); with a score_mod, dS is dT f'(s), the region differentiated
// where the score is formed (ScoreModifiers.h), and dBias stays dT. Sinks
// change nothing above (the saved L includes them); their gradient is a
// fifth kernel, one block per head:
//
//   scf.forall (head)                   [#gpu.block]           -- dSinks
//     thread t sums -e^(sink - L) D over rows t, t + T, ... of every batch
//     partial sums through shared memory, added by thread 0 in order
//
// The kernels run on a CPU after fa-emulate-threads-on-cpu, which is how
// they are tested; fa-lower-to-gpu maps them onto gpu.launch.
//
//===----------------------------------------------------------------------===//

#include "Fragments.h"
#include "KernelSupport.h"

#include "Common/LoweringDriver.h"
#include "Common/MaskModIntervals.h"
#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/KernelModel.h"
#include "fa/Kernel/WarpgroupLayout.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>
#include <limits>
#include <tuple>

#include "llvm/Support/Debug.h"
#include "llvm/Support/SaveAndRestore.h"

#define DEBUG_TYPE "fa-distribute-attention-backward"

namespace mlir::fa {
#define GEN_PASS_DEF_FADISTRIBUTEATTENTIONBACKWARD
#include "fa/Transforms/GPUKernel/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::gpu_kernel;

namespace {

/// Query rows per block of the D = rowsum(dO * O) kernel: one per thread.
constexpr int64_t kRowTermThreads = 128;
/// rowStats' rows are a multiple of 4 f32: 16-byte strides, as TMA's
/// tensor maps need.
constexpr int64_t kStatsRowMultiple = 4;
/// The dK/dV kernel's named barriers among its compute warpgroups, with a
/// producer warpgroup (which takes no part; 0 is the block's): dS^T_s is
/// free again (every warpgroup's dQ^T of the previous query block has
/// read it), and it is stored.
constexpr int64_t kGradScoreFreeBarrier = 1;
constexpr int64_t kGradScoreStoredBarrier = 2;

/// The dK/dV kernel's ring of query blocks with a producer warpgroup.
/// Stage s has three mbarriers:
///   queryFull[s]       count 1: Q's and L/D's boxes, one transaction;
///   gradOutputFull[s]  count 1: dO's boxes;
///   empty[s]           count = compute threads: each arrives once its
///                      dV and dK products have read the stage.
/// Iteration i uses stage i mod stages in round i / stages: the producer
/// waits on empty[s] for parity (round + 1) mod 2 (the first round
/// passes: the phase before a barrier's first counts as complete), the
/// compute threads on the full barriers for parity round mod 2.
struct QueryRing {
  int64_t stages;
  int64_t count() const { return 3 * stages; }
  int64_t queryFull(int64_t s) const { return s; }
  int64_t gradOutputFull(int64_t s) const { return stages + s; }
  int64_t empty(int64_t s) const { return 2 * stages + s; }
  Value queryFull(IndexMath &math, Value s) const { return s; }
  Value gradOutputFull(IndexMath &math, Value s) const {
    return math.addConstant(s, stages);
  }
  Value empty(IndexMath &math, Value s) const {
    return math.addConstant(s, 2 * stages);
  }
  /// Whether iteration `it`'s round is odd: the parity its full barriers'
  /// phase completes with.
  Value parity(IndexMath &math, Value it) const {
    Value round = math.divU(it, math.constant(stages));
    return math.eq(math.remU(round, math.constant(2)), math.constant(1));
  }
};

/// Why the tensor-core backward kernel cannot take `op` with `tiling`, or
/// the empty string when it can.
std::string unsupportedReason(AttentionBackwardOp op, TilingAttr tiling,
                              bool tensorCores) {
  Type element = op.getQuery().getType().getElementType();
  int64_t headDim = op.getQuery().getType().getDimSize(3);
  int64_t valueDim = op.getValue().getType().getDimSize(3);
  if (!tensorCores)
    return "needs mma.sync (sm_80 or later)";
  if (!isMmaSyncOperandTypes(element, element, element))
    return "needs f16 or bf16 operands (mma.sync)";
  if (op.getGradMask()) {
    SmallVector<bool> broadcast = maskBroadcastDims(op);
    if (broadcast[2] || broadcast[3])
      return "does not compute the gradient of a bias broadcast over query "
             "rows or keys (grad_mask of a [.., 1, Nk] or [.., Nq, 1] bias)";
  }
  if (ShapedType::isDynamic(headDim) || headDim % kMmaK != 0 ||
      ShapedType::isDynamic(valueDim) || valueDim % kMmaK != 0)
    return "needs D and Dv to be static multiples of 16";
  if (tiling.getBlockQ() % kMmaM != 0 || tiling.getBlockKv() % kMmaM != 0)
    return "needs block_q and block_kv to be multiples of 16";
  return "";
}

struct BackwardKernel : TileCopier {
  AttentionBackwardOp op;
  int64_t blockQ, blockKV, stages, warps, headDim, valueDim;
  bool allowAsyncCopies;
  /// The dK/dV kernel's matmuls on wgmma (sm_90a; docs/Hopper.md).
  bool warpgroupMma;
  /// With warpgroupMma, the warpgroups that share each 64 keys, each with
  /// 1 / columnSplit of dK's and dV's columns
  /// (warpgroupBackwardColumnSplit).
  int64_t columnSplit = 1;
  /// With warpgroupMma, the dK/dV kernel's Q, dO, L and D by TMA from a
  /// producer warpgroup ("A producer warpgroup" above).
  bool tmaProducer = false;
  Type elementType, f32;
  Value query, key, value, output, gradOutput, logsumexp, mask, sinks;
  Value gradQuery, gradKey, gradValue, gradMask, gradSinks;
  /// The buffers of the tensors score_mod and mask_mod read.
  IRMapping modifierCaptures;
  /// D = rowsum(dO * O), [B, Hq, Nq] f32, written by the first kernel.
  Value rowTerm;
  /// With tmaProducer, L and D side by side, [B, Hq, 2, Nq rounded up to
  /// a multiple of 4] f32, written by the first kernel (rows past Nq
  /// zero): what the producer's TMA boxes read. L's own rows are 4 Nq
  /// bytes apart, which TMA needs to be a multiple of 16.
  Value rowStats;
  /// The f32 sum of dS K, [B, Hq, Nq, D], that the dK/dV kernel's blocks
  /// add to with atomics (null with `deterministic`): zeroed by the D
  /// kernel, scaled and rounded into dQ by the last.
  Value gradQueryAccumulator;
  Value queryLen, keyLen, groupSize, scale;
  AttentionGeometry geometry;
  /// How P is exponentiated from the scores and L.
  SoftmaxExponent exponent;
  SmallVector<bool> maskBroadcast;

  BackwardKernel(AttentionBackwardOp op, OpBuilder &b, TilingAttr tiling,
                 bool allowAsyncCopies, bool warpgroupMma)
      : TileCopier(b, op.getLoc(), tiling.getWarps() * gpu_kernel::kWarpSize),
        op(op), blockQ(tiling.getBlockQ()), blockKV(tiling.getBlockKv()),
        stages(tiling.getStages()), warps(tiling.getWarps()),
        allowAsyncCopies(allowAsyncCopies), warpgroupMma(warpgroupMma) {
    headDim = op.getQuery().getType().getDimSize(3);
    valueDim = op.getValue().getType().getDimSize(3);
    elementType = op.getQuery().getType().getElementType();
    f32 = b.getF32Type();
    registerFragments = true; // swizzled shared rows
  }

  SmallVector<Value> build();

private:
  /// A grid over (batch, head, 128-row block) of kRowTermThreads threads,
  /// one per query row; leaves the builder inside the thread's row (below
  /// Nq) and returns (batch, head, row).
  std::tuple<Value, Value, Value> rowPerThread(Value batchSize,
                                               Value queryHeads);
  /// The first kernel: D into `rowTerm`.
  void buildRowTerm(Value batchSize, Value queryHeads);
  void buildKeyValueGradients(Value batchSize, Value keyHeads);
  void buildQueryGradients(Value batchSize, Value queryHeads);
  /// dQ = scale dQacc rounded to the input type, one thread per row.
  void buildQueryGradientRounding(Value batchSize, Value queryHeads);
  /// Writes the warp's dS^T pairs (packPairs' order) to `tile` [Bc][Br].
  void storeTransposedGradients(const Lane &lane, int64_t mTiles,
                                ArrayRef<Value> pairs, Value tile);
  /// A shared tile as one dimension, made in the block (outside the thread
  /// loop: the CPU model passes values that cross a barrier through
  /// per-thread slots, which hold no views).
  Value flatTile(Value tile);

  // The dK/dV kernel on wgmma (warpgroupMma; "On Hopper" above).
  /// The kernel's shared tiles as the one-dimensional buffers wgmma's
  /// descriptors address (flatTile), and dS^T's width (block_q rounded up
  /// to whole 64-column blocks).
  struct WarpgroupTiles {
    Value key, value, query, gradOutput, gradScore;
    int64_t gradScoreWidth = 0;
  };
  /// S^T = K Q^T and dP^T = V dO^T of the warpgroup's 64 keys, waited for,
  /// as the mma.sync fragments transposedProbabilities reads (one per 8
  /// queries: wgmma's accumulator layout is mma.sync's, fragmentsOf).
  std::pair<SmallVector<Value>, SmallVector<Value>>
  warpgroupTransposedScores(const WarpgroupTiles &tiles, Value warpgroup,
                            Value stage);
  /// dV += P^T dO and dK += dS^T Q, A from the packed pairs (the registers
  /// of S^T's accumulator rounded: K step j's A registers are pairs
  /// 4 j .. 4 j + 3), B = dO_s and Q_s M/N-major; waited for.
  /// With a column split, the warpgroup's `part` of dV's and dK's
  /// columns.
  std::pair<Value, Value> warpgroupAccumulate(const WarpgroupTiles &tiles,
                                              ArrayRef<Value> probPairs,
                                              ArrayRef<Value> gradScorePairs,
                                              Value stage, Value part,
                                              Value gradValues, Value gradKeys);
  /// dQacc[rows of the block] += dS K as dQ^T = K^T dS^T: A = K_s read
  /// M/N-major (transpose_a), B = dS^T_s M/N-major; 64 head-dim rows by
  /// block_q per wgmma tile, tiles shared out over the warpgroups, each
  /// element added with an f32 atomic.
  void warpgroupQueryGradient(const WarpgroupTiles &tiles, const Lane &lane,
                              Value warpgroup, int64_t warpgroups, Value batch,
                              Value head, Value row0);
  /// What the wgmma kernel's query-block step knows of its key block and
  /// thread: the tiles, the lane, its warpgroup's keys (keyGroup), part
  /// of dK's and dV's columns and place among the compute warpgroups;
  /// dS^T_s (null with `deterministic`) and, with a producer, L's and D's
  /// ring (statsTile).
  struct WarpgroupKeys {
    WarpgroupTiles tiles;
    Lane lane;
    Value keyGroup, part, warpgroup;
    int64_t warpgroups, mTiles;
    Value gradScoreTile, statsTile;
    Value batch, col0, lastRow;
  };
  /// One query block (of head `head` from `row0`, at ring stage `stage`)
  /// against the key block: S^T and dP^T, P^T and dS^T, dV and dK (the
  /// loop's `state`, returned updated), dQ's share. With a producer, the
  /// compute warpgroups meet at named barriers and release the stage;
  /// without, the block barriers are the caller's.
  SmallVector<Value> warpgroupQueryBlock(const WarpgroupKeys &keys, Value stage,
                                         Value head, Value row0,
                                         ValueRange state);
  /// The mma.sync accumulator fragments (vector<2x2xf32>, 8 columns each)
  /// of a wgmma accumulator: register 4 c + 2 r + j is fragment c's
  /// element (r, j).
  SmallVector<Value> fragmentsOf(Value accumulator);
  /// dQacc[batch, head, row0 + ...] += dS K over the key block, dS read
  /// transposed from `gradScoreTile` ([Bc][Br], every warp's rows) and K
  /// from `keyTile`, both flatTile views: the block's [Br][D] product in
  /// 16 x 32 (or 16 x 16) tiles, tile u to warp u mod warps, each element
  /// added with an f32 atomic where its row is below Nq.
  void accumulateQueryGradient(const Lane &lane, Value warp,
                               int64_t kernelWarps, Value gradScoreTile,
                               Value keyTile, Value batch, Value head,
                               Value row0);
  /// dBias (grad_mask) of a bias [B or 1, Hq or 1, Nq, Nk]: dS summed over
  /// the batch entries and heads the bias broadcasts over.
  void buildBiasGradient(Value batchSize, Value queryHeads);
  /// dSinks[h] = -sum_{b,i} e^(sink[h] - L) D, one block per head.
  void buildSinkGradient(Value batchSize, Value queryHeads);

  /// The buffers the streamed tiles of `rows` rows go through (the
  /// tiling's stages with cp.async; backwardStreamBuffers in
  /// KernelModel.h, which the tile report's shared memory counts too).
  int64_t streamBuffers(int64_t rows) const {
    AttentionShape shape;
    shape.headDim = headDim;
    shape.valueDim = valueDim;
    shape.elementBytes = elementBytes(elementType);
    Tiling tiling{blockQ, blockKV, warps, stages};
    return backwardStreamBuffers(tiling, shape, allowAsyncCopies, rows,
                                 threads);
  }
  Value sharedTile(ArrayRef<int64_t> shape) {
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    return memref::AllocOp::create(b, loc,
                                   MemRefType::get(shape, elementType,
                                                   MemRefLayoutAttrInterface(),
                                                   workgroup));
  }
  /// rowStats' rows: Nq rounded up to kStatsRowMultiple.
  Value statsRows(IndexMath &math) {
    Value multiple = math.constant(kStatsRowMultiple);
    return math.mul(math.ceilDiv(queryLen, multiple), multiple);
  }
  scf::ForallOp threadLoop() { return createThreadLoop(b, loc, threads); }
  scf::ForallOp blockGrid(ValueRange sizes) {
    return createBlockGrid(b, loc, sizes, ValueRange{});
  }

  /// acc[i][n] = sum_k A[warp rows 16 i..][k] B[n rows][k] over `width`
  /// columns: A's fragment rows and B's 8-row tiles both read with
  /// ldmatrix.x4 from row-major shared tiles (B two tiles per load). A from
  /// `lhs` (at `lhsStage` when given) at rows `rowBase` + 16 i, B from
  /// `rhs` (at `rhsStage`) rows 0 .. `columns`.
  SmallVector<Value> warpProduct(const Lane &lane, int64_t mTiles, Value lhs,
                                 Value lhsStage, Value rowBase, Value rhs,
                                 Value rhsStage, int64_t columns,
                                 int64_t width);
  /// acc[i][c] += A_i B over `kTiles` 8-column tiles of A, A's fragments
  /// the packed pairs `pairs[(i kTiles + n) 2 + r]` (an accumulator's row
  /// halves, rounded), B the shared tile `rhs` (at `rhsStage`) whose rows
  /// are the contraction, read with ldmatrix.x4.trans.
  void accumulateFromRegisters(const Lane &lane, int64_t mTiles, int64_t kTiles,
                               ArrayRef<Value> pairs, Value rhs, Value rhsStage,
                               int64_t width, MutableArrayRef<Value> acc);
  /// P and dS of one accumulator element: P = exp(score - L) (0 where the
  /// score is -inf or L = -inf), dT = P (dP - D) the gradient of the
  /// (modified) score, and dS = dT f'(s) with a score_mod (else dT).
  struct ElementGradients {
    Value prob, gradScore, gradModified;
  };
  ElementGradients probabilityAndGradient(Value raw, Value gradProb, Value lse,
                                          Value term, Value batch, Value head,
                                          Value row, Value col,
                                          Value rowExists);
  /// (L and D from global memory, or with a producer from the stage's
  /// [2][block_q] slice of the flat shared tile `statsTile`.)
  std::pair<SmallVector<Value>, SmallVector<Value>>
  transposedProbabilities(const Lane &lane, int64_t mTiles,
                          ArrayRef<Value> scores, ArrayRef<Value> gradProbs,
                          Value batch, Value head, Value row0, Value col0,
                          Value lastRow, Value statsTile = Value(),
                          Value stage = Value());
  /// Rounds element pairs (j = 0, 1) of f32 `values[((i n) 2 + r) 2 + j]`
  /// into packed registers of the input type.
  SmallVector<Value> packPairs(ArrayRef<Value> values);
  /// Stores `factor` acc (rounded) of the warp's fragment rows to
  /// dest[batch, head, rowBase + ..., :], rows below `rowLimit` only.
  /// (`width` columns of the fragments, from column `columnBase` of dest
  /// when given.)
  void storeFragments(const Lane &lane, int64_t mTiles, ArrayRef<Value> acc,
                      int64_t width, Value dest, Value batch, Value head,
                      Value rowBase, Value rowLimit, Value factor,
                      Value columnBase = Value());
  /// This thread's shared-memory writes so far, ordered before the async
  /// proxy's reads (wgmma) that follow the next barrier.
  void fenceForAsyncProxy() {
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  }
  Value zeroAccumulator() {
    return arith::ConstantOp::create(b, loc,
                                     b.getZeroAttr(accumulatorType(ctx)));
  }
};

SmallVector<Value> BackwardKernel::build() {
  IndexMath math{b, loc};
  query = readOnlyBuffer(b, loc, op.getQuery());
  key = readOnlyBuffer(b, loc, op.getKey());
  value = readOnlyBuffer(b, loc, op.getValue());
  output = readOnlyBuffer(b, loc, op.getOutput());
  gradOutput = readOnlyBuffer(b, loc, op.getGradOutput());
  logsumexp = readOnlyBuffer(b, loc, op.getLogsumexp());
  if (op.getMask())
    mask = readOnlyBuffer(b, loc, op.getMask());
  if (op.getSinks())
    sinks = readOnlyBuffer(b, loc, op.getSinks());
  for (Value captured : capturedTensors(op))
    modifierCaptures.map(captured, readOnlyBuffer(b, loc, captured));
  Value batchSize = math.dim(query, 0), queryHeads = math.dim(query, 1);
  Value keyHeads = math.dim(key, 1);
  queryLen = math.dim(query, 2);
  keyLen = math.dim(key, 2);
  groupSize = math.divU(queryHeads, keyHeads);
  geometry = AttentionGeometry::align(math, op, queryLen, keyLen);
  scale = f32Constant(b, loc, op.getScale().convertToDouble());
  exponent = SoftmaxExponent::of(op);
  maskBroadcast = maskBroadcastDims(op);

  auto allocLike = [&](Value tensor, Type element) -> Value {
    auto type = cast<RankedTensorType>(tensor.getType());
    SmallVector<Value> dynamicSizes;
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      if (type.isDynamicDim(dim))
        dynamicSizes.push_back(math.dim(tensor, dim));
    return memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), element), dynamicSizes);
  };
  rowTerm = allocLike(op.getLogsumexp(), f32);
  if (tmaProducer) {
    auto type = cast<RankedTensorType>(op.getLogsumexp().getType());
    SmallVector<int64_t> shape = {type.getDimSize(0), type.getDimSize(1), 2,
                                  ShapedType::kDynamic};
    SmallVector<Value> dynamicSizes;
    for (int64_t dim = 0; dim < 2; ++dim)
      if (type.isDynamicDim(dim))
        dynamicSizes.push_back(math.dim(op.getLogsumexp(), dim));
    if (!type.isDynamicDim(2))
      shape[3] = llvm::alignTo(type.getDimSize(2), kStatsRowMultiple);
    else
      dynamicSizes.push_back(statsRows(math));
    rowStats = memref::AllocOp::create(b, loc, MemRefType::get(shape, f32),
                                       dynamicSizes);
  }
  if (!op.getDeterministic())
    gradQueryAccumulator = allocLike(op.getQuery(), f32);
  gradQuery = allocLike(op.getQuery(), elementType);
  gradKey = allocLike(op.getKey(), elementType);
  gradValue = allocLike(op.getValue(), elementType);
  SmallVector<Value> buffers = {gradQuery, gradKey, gradValue};
  if (op.getGradMask()) {
    gradMask = allocLike(op.getGradMask(),
                         getElementTypeOrSelf(op.getGradMask().getType()));
    buffers.push_back(gradMask);
  }
  if (op.getGradSinks()) {
    gradSinks = allocLike(op.getGradSinks(),
                          getElementTypeOrSelf(op.getGradSinks().getType()));
    buffers.push_back(gradSinks);
  }

  buildRowTerm(batchSize, queryHeads);
  buildKeyValueGradients(batchSize, keyHeads);
  if (gradQueryAccumulator)
    buildQueryGradientRounding(batchSize, queryHeads);
  else
    buildQueryGradients(batchSize, queryHeads);
  if (gradMask)
    buildBiasGradient(batchSize, queryHeads);
  if (gradSinks)
    buildSinkGradient(batchSize, queryHeads);
  // D is freed where the pipeline frees temporaries (as the split-KV
  // workspace of the forward kernel).
  SmallVector<Value> results;
  for (auto [buffer, result] : llvm::zip(buffers, op.getResults()))
    results.push_back(bufferization::ToTensorOp::create(
        b, loc, result.getType(), buffer, /*restrict=*/true,
        /*writable=*/true));
  return results;
}

std::tuple<Value, Value, Value> BackwardKernel::rowPerThread(Value batchSize,
                                                             Value queryHeads) {
  IndexMath math{b, loc};
  threads = kRowTermThreads;
  Value rowBlocks = math.ceilDiv(queryLen, math.constant(threads));
  scf::ForallOp grid = blockGrid({batchSize, queryHeads, rowBlocks});
  b.setInsertionPointToStart(grid.getBody());
  Value batch = grid.getInductionVar(0), head = grid.getInductionVar(1);
  scf::ForallOp rows = threadLoop();
  b.setInsertionPointToStart(rows.getBody());
  Value row =
      math.add(math.mul(grid.getInductionVar(2), math.constant(threads)),
               rows.getInductionVar(0));
  auto inRange = scf::IfOp::create(b, loc, math.lt(row, queryLen),
                                   /*withElseRegion=*/false);
  b.setInsertionPointToStart(inRange.thenBlock());
  return {batch, head, row};
}

/// D[b, h, row] = sum_e dO[row, e] O[row, e] in f32, one thread per row,
/// 16 bytes of both rows per step.
void BackwardKernel::buildRowTerm(Value batchSize, Value queryHeads) {
  OpBuilder::InsertionGuard guard(b);
  IndexMath math{b, loc};
  auto [batch, head, row] = rowPerThread(batchSize, queryHeads);
  int64_t chunk = chunkElements(valueDim, elementType);
  auto chunkType = VectorType::get({chunk}, elementType);
  Value zeroSum = f32Constant(b, loc, 0);
  Value step = math.constant(chunk);
  Value end = math.constant(valueDim);
  Value start = math.constant(0);
  auto sum = scf::ForOp::create(
      b, loc, start, end, step, ValueRange{zeroSum},
      [&](OpBuilder &lb, Location lloc, Value column, ValueRange partial) {
        SmallVector<Value> at = {batch, head, row, column};
        Value gradient = extendToF32(
            lb, lloc, loadVector(lb, lloc, chunkType, gradOutput, at));
        Value out =
            extendToF32(lb, lloc, loadVector(lb, lloc, chunkType, output, at));
        Value product = contractingMul(lb, lloc, gradient, out);
        scf::YieldOp::create(
            lb, lloc,
            ValueRange{vector::ReductionOp::create(
                lb, lloc, vector::CombiningKind::ADD, product, partial[0])});
      });
  memref::StoreOp::create(b, loc, sum.getResult(0), rowTerm,
                          ValueRange{batch, head, row});
  if (rowStats) {
    Value lse =
        memref::LoadOp::create(b, loc, logsumexp, ValueRange{batch, head, row});
    Value zero = math.constant(0), one = math.constant(1);
    memref::StoreOp::create(b, loc, lse, rowStats,
                            ValueRange{batch, head, zero, row});
    memref::StoreOp::create(b, loc, sum.getResult(0), rowStats,
                            ValueRange{batch, head, one, row});
    // The last row's thread zeroes the rows up to the multiple of 4: TMA
    // reads them with the last query block, whose P and dS there are 0
    // only if L and D are finite.
    Value last = math.eq(row, math.addConstant(queryLen, -1));
    scf::IfOp::create(b, loc, last, [&](OpBuilder &ib, Location iloc) {
      IndexMath im{ib, iloc};
      Value none = f32Constant(ib, iloc, 0);
      scf::ForOp::create(
          ib, iloc, queryLen, statsRows(im), im.constant(1), ValueRange{},
          [&](OpBuilder &lb, Location lloc, Value pad, ValueRange) {
            IndexMath lm{lb, lloc};
            for (int64_t which = 0; which < 2; ++which)
              memref::StoreOp::create(
                  lb, lloc, none, rowStats,
                  ValueRange{batch, head, lm.constant(which), pad});
            scf::YieldOp::create(lb, lloc);
          });
      scf::YieldOp::create(ib, iloc);
    });
  }
  // The row of dQ's f32 sum starts at zero before the dK/dV kernel adds
  // to it.
  if (gradQueryAccumulator) {
    constexpr int64_t zeros = 4;
    Value zeroChunk = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(VectorType::get({zeros}, f32)));
    scf::ForOp::create(
        b, loc, start, math.constant(headDim), math.constant(zeros),
        ValueRange{},
        [&](OpBuilder &lb, Location lloc, Value column, ValueRange) {
          // 16-byte aligned: D is a multiple of 16 (unsupportedReason).
          vector::StoreOp::create(lb, lloc, zeroChunk, gradQueryAccumulator,
                                  ValueRange{batch, head, row, column})
              .setAlignment(zeros * 4);
          scf::YieldOp::create(lb, lloc);
        });
  }
}

void BackwardKernel::buildQueryGradientRounding(Value batchSize,
                                                Value queryHeads) {
  OpBuilder::InsertionGuard guard(b);
  IndexMath math{b, loc};
  auto [batch, head, row] = rowPerThread(batchSize, queryHeads);
  constexpr int64_t chunk = 4;
  auto sumType = VectorType::get({chunk}, f32);
  Value factor = vector::BroadcastOp::create(b, loc, sumType, scale);
  scf::ForOp::create(
      b, loc, math.constant(0), math.constant(headDim), math.constant(chunk),
      ValueRange{},
      [&](OpBuilder &lb, Location lloc, Value column, ValueRange) {
        SmallVector<Value> at = {batch, head, row, column};
        auto sum =
            vector::LoadOp::create(lb, lloc, sumType, gradQueryAccumulator, at);
        sum.setAlignment(chunk * 4);
        Value scaled = arith::MulFOp::create(lb, lloc, sum, factor);
        Value rounded = arith::TruncFOp::create(
            lb, lloc, VectorType::get({chunk}, elementType), scaled);
        vector::StoreOp::create(lb, lloc, rounded, gradQuery, at)
            .setAlignment(chunk * elementBytes(elementType));
        scf::YieldOp::create(lb, lloc);
      });
}

SmallVector<Value> BackwardKernel::warpProduct(const Lane &lane, int64_t mTiles,
                                               Value lhs, Value lhsStage,
                                               Value rowBase, Value rhs,
                                               Value rhsStage, int64_t columns,
                                               int64_t width) {
  IndexMath math{b, loc};
  int64_t nTiles = columns / kMmaN;
  SmallVector<Value> acc(mTiles * nTiles, zeroAccumulator());
  for (int64_t step = 0; step < width / kMmaK; ++step) {
    SmallVector<Value> lhsFragments, rhsPairs;
    for (int64_t i = 0; i < mTiles; ++i) {
      Value row = math.add(math.addConstant(rowBase, i * kMmaM), lane.row16);
      Value column = math.addConstant(lane.upper8, step * kMmaK);
      lhsFragments.push_back(
          ldmatrix(lhs, lhsStage, row, column, width, elementType, false));
    }
    // Matrices (rows n..n+7, k 0-7), (n..n+7, 8-15), (n+8.., 0-7),
    // (n+8.., 8-15): the B fragments of tiles n / 8 and n / 8 + 1.
    for (int64_t n = 0; n < nTiles; n += 2) {
      Value row = math.add(math.addConstant(lane.row8, n * kMmaN), lane.upper8);
      Value column = math.addConstant(lane.odd8, step * kMmaK);
      rhsPairs.push_back(
          ldmatrix(rhs, rhsStage, row, column, width, elementType, false));
    }
    multiplyFragments(b, loc, lhsFragments, rhsPairs, acc);
  }
  return acc;
}

void BackwardKernel::accumulateFromRegisters(const Lane &lane, int64_t mTiles,
                                             int64_t kTiles,
                                             ArrayRef<Value> pairs, Value rhs,
                                             Value rhsStage, int64_t width,
                                             MutableArrayRef<Value> acc) {
  IndexMath math{b, loc};
  for (int64_t step = 0; step < kTiles * kMmaN / kMmaK; ++step) {
    // Matrices (k..k+7, c..c+7), (k+8.., c..), (k.., c+8..), (k+8.., c+8..):
    // .trans gives the B fragments of column tiles c / 8 and c / 8 + 1.
    SmallVector<Value> rhsPairs;
    for (int64_t c = 0; c < width / kMmaN; c += 2) {
      Value row =
          math.add(math.addConstant(lane.row8, step * kMmaK), lane.odd8);
      Value column = math.addConstant(lane.upper8, c * kMmaN);
      rhsPairs.push_back(
          ldmatrix(rhs, rhsStage, row, column, width, elementType, true));
    }
    // A's registers: (row g, k 0-7), (row g + 8, k 0-7), (row g, k 8-15),
    // (row g + 8, k 8-15): row halves of accumulator tiles 2 step, 2 step + 1.
    SmallVector<Value> lhsFragments;
    for (int64_t i = 0; i < mTiles; ++i) {
      Value fragment = arith::ConstantOp::create(
          b, loc, b.getZeroAttr(aFragmentType(elementType)));
      for (int64_t reg = 0; reg < 4; ++reg) {
        int64_t n = 2 * step + reg / 2, r = reg % 2;
        fragment =
            vector::InsertOp::create(b, loc, pairs[(i * kTiles + n) * 2 + r],
                                     fragment, ArrayRef<int64_t>{reg});
      }
      lhsFragments.push_back(fragment);
    }
    multiplyFragments(b, loc, lhsFragments, rhsPairs, acc);
  }
}

BackwardKernel::ElementGradients
BackwardKernel::probabilityAndGradient(Value raw, Value gradProb, Value lse,
                                       Value term, Value batch, Value head,
                                       Value row, Value col, Value rowExists) {
  ScoreMasks masks{mask,   maskBroadcast, queryLen,          keyLen,
                   keyLen, geometry,      ElementMasks::all, &modifierCaptures};
  // u (SoftmaxExponent): the raw score when the scale folds into the
  // exponent's FMA.
  // A key mask_fill gives a constant score keeps its weight in P and has
  // no score gradient.
  Value filled, slope;
  Value score = kernelScore(
      b, loc, op, masks, raw, exponent.rawScores ? Value() : scale, batch, head,
      row, col, &filled, op.getScoreModBlock() ? &slope : nullptr);
  Value negInf = f32Constant(b, loc, -std::numeric_limits<double>::infinity());
  Value zero = f32Constant(b, loc, 0);
  // Rows past Nq (zero-filled tiles) and rows the forward pass saw no key
  // in contribute nothing.
  Value noKey =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, lse, negInf);
  Value skip = arith::OrIOp::create(
      b, loc, noKey,
      arith::XOrIOp::create(
          b, loc, rowExists,
          arith::ConstantOp::create(b, loc, b.getBoolAttr(true))));
  // P = 2^(u c - L log2 e) = e^(scale raw + bias - L).
  Value prob = exponent.probability(
      b, loc, score, exponent.negatedLogsumexpShift(b, loc, lse));
  prob = arith::SelectOp::create(b, loc, skip, zero, prob);
  Value centered = arith::SubFOp::create(b, loc, gradProb, term);
  Value gradScore = contractingMul(b, loc, prob, centered);
  if (filled)
    gradScore = arith::SelectOp::create(b, loc, filled, zero, gradScore);
  if (!slope)
    return {prob, gradScore, gradScore};
  return {prob, throughScoreMod(b, loc, gradScore, slope), gradScore};
}

void BackwardKernel::buildSinkGradient(Value batchSize, Value queryHeads) {
  OpBuilder::InsertionGuard guard(b);
  IndexMath math{b, loc};
  threads = kRowTermThreads;
  Value one = math.constant(1);
  scf::ForallOp grid = blockGrid({one, one, queryHeads});
  b.setInsertionPointToStart(grid.getBody());
  Value head = grid.getInductionVar(2);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Value partials = memref::AllocOp::create(
      b, loc,
      MemRefType::get({threads}, f32, MemRefLayoutAttrInterface(), workgroup));
  scf::ForallOp loop = threadLoop();
  b.setInsertionPointToStart(loop.getBody());
  Value thread = loop.getInductionVar(0);
  Value sink = sinkLogit(math, sinks, head);
  Value rowCount = math.mul(batchSize, queryLen);
  Value zero = f32Constant(b, loc, 0);
  Value negInf = f32Constant(b, loc, -std::numeric_limits<double>::infinity());
  // Rows t, t + T, ... of the flattened (batch, row) pairs.
  auto sum = scf::ForOp::create(
      b, loc, thread, rowCount, math.constant(threads), ValueRange{zero},
      [&](OpBuilder &lb, Location lloc, Value flat, ValueRange partial) {
        IndexMath lm{lb, lloc};
        Value batch = lm.divU(flat, queryLen);
        Value row = lm.remU(flat, queryLen);
        SmallVector<Value> at = {batch, head, row};
        Value lse = memref::LoadOp::create(lb, lloc, logsumexp, at);
        Value term = memref::LoadOp::create(lb, lloc, rowTerm, at);
        // P_sink = e^(sink - L), 0 on a row with L = -inf (no key, a -inf
        // sink).
        Value shifted =
            arith::SubFOp::create(lb, lloc, sink, safeRowMax(lb, lloc, lse));
        Value prob = math::ExpOp::create(lb, lloc, shifted);
        Value noLogit = arith::CmpFOp::create(
            lb, lloc, arith::CmpFPredicate::OEQ, lse, negInf);
        prob = arith::SelectOp::create(lb, lloc, noLogit, zero, prob);
        Value product = arith::MulFOp::create(lb, lloc, prob, term);
        scf::YieldOp::create(
            lb, lloc,
            ValueRange{arith::SubFOp::create(lb, lloc, partial[0], product)});
      });
  memref::StoreOp::create(b, loc, sum.getResult(0), partials, thread);
  gpu::BarrierOp::create(b, loc);
  // Thread 0 adds the partial sums in thread order: deterministic.
  scf::IfOp::create(
      b, loc, math.eq(thread, math.constant(0)),
      [&](OpBuilder &tb, Location tloc) {
        IndexMath tm{tb, tloc};
        auto total = scf::ForOp::create(
            tb, tloc, tm.constant(0), tm.constant(threads), tm.constant(1),
            ValueRange{f32Constant(tb, tloc, 0)},
            [&](OpBuilder &sb, Location sloc, Value t, ValueRange acc) {
              Value part = memref::LoadOp::create(sb, sloc, partials, t);
              scf::YieldOp::create(
                  sb, sloc,
                  ValueRange{arith::AddFOp::create(sb, sloc, acc[0], part)});
            });
        Value result = total.getResult(0);
        Type sinkType = getElementTypeOrSelf(gradSinks.getType());
        if (!sinkType.isF32())
          result = arith::TruncFOp::create(tb, tloc, sinkType, result);
        memref::StoreOp::create(tb, tloc, result, gradSinks, head);
        scf::YieldOp::create(tb, tloc);
      });
}

SmallVector<Value> BackwardKernel::packPairs(ArrayRef<Value> values) {
  auto pairType = VectorType::get({2}, f32);
  SmallVector<Value> pairs;
  for (size_t at = 0; at < values.size(); at += 2) {
    Value pair = arith::ConstantOp::create(b, loc, b.getZeroAttr(pairType));
    for (int64_t j = 0; j < 2; ++j)
      pair = vector::InsertOp::create(b, loc, values[at + j], pair,
                                      ArrayRef<int64_t>{j});
    // One cvt.rn.f16x2.f32 (.bf16x2): the packed register mma.sync takes.
    pairs.push_back(
        arith::TruncFOp::create(b, loc, pairType.clone(elementType), pair));
  }
  return pairs;
}

void BackwardKernel::storeFragments(const Lane &lane, int64_t mTiles,
                                    ArrayRef<Value> acc, int64_t width,
                                    Value dest, Value batch, Value head,
                                    Value rowBase, Value rowLimit, Value factor,
                                    Value columnBase) {
  IndexMath math{b, loc};
  int64_t tiles = width / kMmaN;
  Value pairColumn = math.mul(lane.quad, math.constant(2));
  if (columnBase)
    pairColumn = math.add(pairColumn, columnBase);
  auto pairType = VectorType::get({2}, elementType);
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t r = 0; r < 2; ++r) {
      Value row =
          math.add(math.addConstant(rowBase, i * kMmaM + 8 * r), lane.group);
      scf::IfOp::create(
          b, loc, math.lt(row, rowLimit), [&](OpBuilder &tb, Location tloc) {
            IndexMath tm{tb, tloc};
            for (int64_t c = 0; c < tiles; ++c) {
              Value pair =
                  arith::ConstantOp::create(tb, tloc, tb.getZeroAttr(pairType));
              for (int64_t j = 0; j < 2; ++j) {
                Value element =
                    extractElement(tb, tloc, acc[i * tiles + c], r, j);
                Value scaled = arith::MulFOp::create(tb, tloc, element, factor);
                Value rounded =
                    arith::TruncFOp::create(tb, tloc, elementType, scaled);
                pair = vector::InsertOp::create(tb, tloc, rounded, pair,
                                                ArrayRef<int64_t>{j});
              }
              Value column = tm.addConstant(pairColumn, c * kMmaN);
              vector::StoreOp::create(tb, tloc, pair, dest,
                                      ValueRange{batch, head, row, column})
                  .setAlignment(2 * elementBytes(elementType));
            }
            scf::YieldOp::create(tb, tloc);
          });
    }
}

/// P^T and dS^T (probabilityAndGradient) of every element of the warp's
/// S^T and dP^T fragments (`scores`, `gradProbs`: keys of the block at
/// `col0` against the queries of head `head` from `row0`), in the order
/// packPairs reads.
std::pair<SmallVector<Value>, SmallVector<Value>>
BackwardKernel::transposedProbabilities(const Lane &lane, int64_t mTiles,
                                        ArrayRef<Value> scores,
                                        ArrayRef<Value> gradProbs, Value batch,
                                        Value head, Value row0, Value col0,
                                        Value lastRow, Value statsTile,
                                        Value stage) {
  IndexMath math{b, loc};
  int64_t queryTiles = blockQ / kMmaN;
  Value pairColumn = math.mul(lane.quad, math.constant(2));
  SmallVector<Value> probs(mTiles * queryTiles * 4),
      gradScores(mTiles * queryTiles * 4);
  // The lane's query columns: L and D loaded once per column, where the
  // column's elements are formed one after the other (column by column:
  // each column's L and D then live only while its elements are formed,
  // not across the tile; 32 registers at block_q = 64).
  for (int64_t n = 0; n < queryTiles; ++n)
    for (int64_t j = 0; j < 2; ++j) {
      Value row = math.add(row0, math.addConstant(pairColumn, n * kMmaN + j));
      Value inRange = math.lt(row, queryLen);
      Value lse, term;
      if (statsTile) {
        Value at = math.add(math.mul(stage, math.constant(2 * blockQ)),
                            math.addConstant(pairColumn, n * kMmaN + j));
        lse = memref::LoadOp::create(b, loc, statsTile, ValueRange{at});
        term = memref::LoadOp::create(b, loc, statsTile,
                                      ValueRange{math.addConstant(at, blockQ)});
      } else {
        Value at = math.min(row, lastRow);
        lse = memref::LoadOp::create(b, loc, logsumexp,
                                     ValueRange{batch, head, at});
        term = memref::LoadOp::create(b, loc, rowTerm,
                                      ValueRange{batch, head, at});
      }
      for (int64_t i = 0; i < mTiles; ++i)
        for (int64_t r = 0; r < 2; ++r) {
          Value col = math.add(
              col0, math.add(math.addConstant(lane.warpRow0, i * kMmaM + 8 * r),
                             lane.group));
          int64_t element = ((i * queryTiles + n) * 2 + r) * 2 + j;
          Value gradProb =
              extractElement(b, loc, gradProbs[i * queryTiles + n], r, j);
          Value raw = extractElement(b, loc, scores[i * queryTiles + n], r, j);
          ElementGradients gradients = probabilityAndGradient(
              raw, gradProb, lse, term, batch, head, row, col, inRange);
          probs[element] = gradients.prob;
          gradScores[element] = gradients.gradScore;
        }
    }
  return {probs, gradScores};
}

void BackwardKernel::storeTransposedGradients(const Lane &lane, int64_t mTiles,
                                              ArrayRef<Value> pairs,
                                              Value tile) {
  IndexMath math{b, loc};
  int64_t queryTiles = blockQ / kMmaN;
  Value pairColumn = math.mul(lane.quad, math.constant(2));
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t n = 0; n < queryTiles; ++n)
      for (int64_t r = 0; r < 2; ++r) {
        Value key = math.add(math.addConstant(lane.warpRow0, i * kMmaM + 8 * r),
                             lane.group);
        Value query = math.addConstant(pairColumn, n * kMmaN);
        int64_t width = columnBlocks
                            ? cast<MemRefType>(tile.getType()).getDimSize(1)
                            : blockQ;
        auto [row, column] =
            sharedPosition(math, key, query, blockKV, width, elementType);
        vector::StoreOp::create(b, loc, pairs[(i * queryTiles + n) * 2 + r],
                                tile, ValueRange{row, column});
      }
}

Value BackwardKernel::flatTile(Value tile) {
  ReassociationIndices all;
  for (int64_t d = 0; d < cast<MemRefType>(tile.getType()).getRank(); ++d)
    all.push_back(d);
  return memref::CollapseShapeOp::create(b, loc, tile,
                                         ArrayRef<ReassociationIndices>{all});
}

SmallVector<Value> BackwardKernel::fragmentsOf(Value accumulator) {
  int64_t registers =
      cast<VectorType>(accumulator.getType()).getNumElements();
  SmallVector<Value> fragments;
  for (int64_t c = 0; c < registers / 4; ++c) {
    Value fragment = zeroAccumulator();
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t j = 0; j < 2; ++j) {
        Value element = vector::ExtractOp::create(
            b, loc, accumulator, ArrayRef<int64_t>{4 * c + 2 * r + j});
        fragment = vector::InsertOp::create(b, loc, element, fragment,
                                            ArrayRef<int64_t>{r, j});
      }
    fragments.push_back(fragment);
  }
  return fragments;
}

std::pair<SmallVector<Value>, SmallVector<Value>>
BackwardKernel::warpgroupTransposedScores(const WarpgroupTiles &tiles,
                                          Value warpgroup, Value stage) {
  IndexMath math{b, loc};
  constexpr int64_t rowBytes = kSwizzle128RowBytes, stepK = 16;
  constexpr int64_t blockColumns = rowBytes / 2;
  int64_t bytes = elementBytes(elementType);
  auto type = VectorType::get({wgmmaAccumulatorRegisters(blockQ)}, f32);
  // The warpgroup's 64 keys of K_s (V_s): 64 rows of each column block in;
  // the stage's Q_s (dO_s). Step s reads column block 16 s / 64, 32 bytes
  // further into its rows per step within the block; 8-row groups 1024
  // bytes apart.
  Value keyStart = math.mul(warpgroup, math.constant(kWgmmaM * rowBytes));
  auto product = [&](Value lhs, Value rhs, int64_t width) {
    Value rhsStart = math.mul(stage, math.constant(blockQ * width * bytes));
    Value acc = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    for (int64_t step = 0; step < width / stepK; ++step) {
      int64_t column = step * stepK;
      int64_t within = (column % blockColumns) * bytes;
      int64_t columnBlock = column / blockColumns;
      Value lhsDesc = wgmmaDescriptor(b, loc, 
          keyStart, columnBlock * blockKV * rowBytes + within,
          /*leading=*/16, /*stride=*/8 * rowBytes);
      Value rhsDesc = wgmmaDescriptor(b, loc, 
          rhsStart, columnBlock * blockQ * rowBytes + within,
          /*leading=*/16, /*stride=*/8 * rowBytes);
      acc = WarpgroupMmaOp::create(b, loc, type, acc, lhsDesc, lhs, rhsDesc,
                                   rhs, /*transpose_b=*/false,
                                   /*ignore_accumulator=*/step == 0)
                .getResult();
    }
    return acc;
  };
  Value scores = product(tiles.key, tiles.query, headDim);
  Value gradProbs = product(tiles.value, tiles.gradOutput, valueDim);
  auto wait =
      WarpgroupMmaWaitOp::create(b, loc, ValueRange{scores, gradProbs}, 0);
  return {fragmentsOf(wait.getResult(0)), fragmentsOf(wait.getResult(1))};
}

std::pair<Value, Value> BackwardKernel::warpgroupAccumulate(
    const WarpgroupTiles &tiles, ArrayRef<Value> probPairs,
    ArrayRef<Value> gradScorePairs, Value stage, Value part, Value gradValues,
    Value gradKeys) {
  IndexMath math{b, loc};
  constexpr int64_t rowBytes = kSwizzle128RowBytes, stepK = 16;
  int64_t bytes = elementBytes(elementType);
  auto aType = aFragmentType(elementType);
  // 16 queries per step: rows 16 j .. 16 j + 15 of dO_s (Q_s), 2048 bytes
  // further, M/N-major; their 64-column blocks block_q * 128 bytes apart
  // (the leading byte offset), as the forward kernel reads V. With a
  // column split, the part's first column block.
  constexpr int64_t blockColumns = rowBytes / 2;
  auto accumulate = [&](Value acc, ArrayRef<Value> pairs, Value rhs,
                        int64_t width) {
    Value rhsStart = math.add(
        math.mul(stage, math.constant(blockQ * width * bytes)),
        math.mul(part, math.constant(width / columnSplit / blockColumns *
                                     blockQ * rowBytes)));
    for (int64_t step = 0; step < blockQ / stepK; ++step) {
      Value operand =
          arith::ConstantOp::create(b, loc, b.getZeroAttr(aType));
      for (int64_t i = 0; i < 4; ++i)
        operand = vector::InsertOp::create(b, loc, pairs[4 * step + i],
                                           operand, ArrayRef<int64_t>{i});
      Value rhsDesc = wgmmaDescriptor(b, loc, rhsStart, step * stepK * rowBytes,
                                          /*leading=*/blockQ * rowBytes,
                                          /*stride=*/8 * rowBytes);
      acc = WarpgroupMmaOp::create(b, loc, acc.getType(), acc, operand,
                                   Value(), rhsDesc, rhs, /*transpose_b=*/true,
                                   /*ignore_accumulator=*/false)
                .getResult();
    }
    return acc;
  };
  gradValues = accumulate(gradValues, probPairs, tiles.gradOutput, valueDim);
  gradKeys = accumulate(gradKeys, gradScorePairs, tiles.query, headDim);
  auto wait =
      WarpgroupMmaWaitOp::create(b, loc, ValueRange{gradValues, gradKeys}, 0);
  return {wait.getResult(0), wait.getResult(1)};
}

void BackwardKernel::warpgroupQueryGradient(const WarpgroupTiles &tiles,
                                            const Lane &lane, Value warpgroup,
                                            int64_t warpgroups, Value batch,
                                            Value head, Value row0) {
  IndexMath math{b, loc};
  constexpr int64_t rowBytes = kSwizzle128RowBytes, stepK = 16;
  // dQ^T's 64-row tiles (64 head-dim columns of dQ each) by all the
  // block's queries. Fewer tiles than warpgroups happens only at D = 64
  // with two warpgroups, where splitting the queries into whole 64-column
  // swizzle blocks would need block_q = 128, which no register budget
  // admits: the spare warpgroup computes the last tile again.
  int64_t tileCount = headDim / kWgmmaM;
  int64_t perWarpgroup = llvm::divideCeil(tileCount, warpgroups);
  auto type = VectorType::get({wgmmaAccumulatorRegisters(blockQ)}, f32);
  Value pairColumn = math.mul(lane.quad, math.constant(2));
  // The row of the thread's registers within its warpgroup's 64: the
  // warp's 16, then g and g + 8.
  Value warpRow = math.add(
      math.mul(math.remU(math.divU(lane.warpRow0, math.constant(kMmaM)),
                         math.constant(kWarpgroupThreads / gpu_kernel::kWarpSize)),
               math.constant(kMmaM)),
      lane.group);
  // Unrolled, uniform over the block (the CPU model runs a wait and its
  // wgmmas in the thread loop or a loop directly inside it): a warpgroup
  // past the last tile computes the last one again and adds nothing.
  for (int64_t k = 0; k < perWarpgroup; ++k) {
    Value tile = math.addConstant(warpgroup, k * warpgroups);
    Value adds = math.lt(tile, math.constant(tileCount));
    tile = math.min(tile, math.constant(tileCount - 1));
    // K^T: column block `tile` of K_s, M/N-major (64 head-dim columns per
    // 128-byte row), 16 keys (rows) per step. dS^T_s from its start, 16
    // keys per step; its column blocks block_kv * 128 bytes apart.
    Value keyStart = math.mul(tile, math.constant(blockKV * rowBytes));
    Value gradStart = math.constant(0);
    Value acc = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    for (int64_t step = 0; step < blockKV / stepK; ++step) {
      Value keyDesc = wgmmaDescriptor(b, loc, keyStart, step * stepK * rowBytes,
                                          /*leading=*/blockKV * rowBytes,
                                          /*stride=*/8 * rowBytes);
      Value gradDesc = wgmmaDescriptor(b, loc, gradStart, step * stepK * rowBytes,
                                           /*leading=*/blockKV * rowBytes,
                                           /*stride=*/8 * rowBytes);
      acc = WarpgroupMmaOp::create(b, loc, type, acc, keyDesc, tiles.key,
                                   gradDesc, tiles.gradScore,
                                   /*transpose_b=*/true,
                                   /*ignore_accumulator=*/step == 0,
                                   /*transpose_a=*/true)
                .getResult();
    }
    acc = WarpgroupMmaWaitOp::create(b, loc, ValueRange{acc}, 0).getResult(0);
    // Register 4 c + 2 h + j: head-dim column 64 tile + warpRow + 8 h,
    // query 8 c + 2 q + j.
    Value dimension =
        math.add(math.mul(tile, math.constant(kWgmmaM)), warpRow);
    Value firstQuery = math.add(row0, pairColumn);
    for (int64_t c = 0; c < blockQ / kMmaN; ++c)
      for (int64_t j = 0; j < 2; ++j) {
        Value row = math.addConstant(firstQuery, c * kMmaN + j);
        Value inRange =
            arith::AndIOp::create(b, loc, adds, math.lt(row, queryLen));
        scf::IfOp::create(b, loc, inRange, [&](OpBuilder &ib, Location iloc) {
          IndexMath im{ib, iloc};
          for (int64_t h = 0; h < 2; ++h) {
            Value element = vector::ExtractOp::create(
                ib, iloc, acc, ArrayRef<int64_t>{4 * c + 2 * h + j});
            memref::AtomicRMWOp::create(
                ib, iloc, arith::AtomicRMWKind::addf, element,
                gradQueryAccumulator,
                ValueRange{batch, head, row,
                           im.addConstant(dimension, 8 * h)});
          }
          scf::YieldOp::create(ib, iloc);
        });
      }
  }
}

void BackwardKernel::accumulateQueryGradient(const Lane &lane, Value warp,
                                             int64_t kernelWarps,
                                             Value gradScoreTile, Value keyTile,
                                             Value batch, Value head,
                                             Value row0) {
  IndexMath math{b, loc};
  // 16 x 32 tiles (two ldmatrix.x4 of K per A fragment) where they share
  // out evenly among the warps, else 16 x 16: 32 x 128 at d = 64 has four
  // 16 x 32 tiles for 8 warps, and half of them would compute a tile again
  // for nothing.
  int64_t tileColumns =
      headDim % 32 == 0 && (blockQ / kMmaM) * (headDim / 32) % kernelWarps == 0
          ? 32
          : 16;
  int64_t columnTiles = headDim / tileColumns;
  int64_t tiles = (blockQ / kMmaM) * columnTiles;
  int64_t perWarp = llvm::divideCeil(tiles, kernelWarps);
  Value pairColumn = math.mul(lane.quad, math.constant(2));
  // Unrolled: the CPU model runs warp collectives only directly in the
  // thread loop or in a loop directly inside it (the walk over query
  // blocks). A warp past the last tile (tiles not a multiple of the warps)
  // computes the last one again and adds nothing.
  for (int64_t k = 0; k < perWarp; ++k) {
    Value tile = math.addConstant(warp, k * kernelWarps);
    Value adds = math.lt(tile, math.constant(tiles));
    tile = math.min(tile, math.constant(tiles - 1));
    Value q0 = math.mul(math.divU(tile, math.constant(columnTiles)),
                        math.constant(kMmaM));
    Value d0 = math.mul(math.remU(tile, math.constant(columnTiles)),
                        math.constant(tileColumns));
    // Each lane's rows at step s are its rows at step 0 plus 16 s, and a
    // swizzled row's chunk order repeats every 8 rows (sharedColumn): the
    // stored column is the same at every step, so each read is one base
    // plus a constant, through a one-dimensional view (flatTile). The
    // addresses do not depend on the walk, and LLVM still hoists each
    // read's out of it and keeps it live (16 to 24 64-bit addresses at 128
    // keys, which the tile model's 36 registers for the product cover);
    // with ldmatrix's own swizzle per step they also cost their
    // arithmetic, and the dK/dV kernel spilled 8 bytes at d = 64, 32 x 128.
    auto read = [&](Value flat, Value row, Value column, int64_t width) {
      int64_t rowLength = sharedRowLength(width, elementType);
      Value base =
          math.add(math.mul(row, math.constant(rowLength)),
                   sharedColumn(math, row, column, width, elementType));
      return [=, this](int64_t step) -> Value {
        IndexMath sm{b, loc};
        return nvgpu::LdMatrixOp::create(
            b, loc, aFragmentType(elementType), flat,
            ValueRange{sm.addConstant(base, step * kMmaK * rowLength)},
            /*transpose=*/true, /*numTiles=*/4);
      };
    };
    // A = dS (16 queries x 16 keys) from dS^T's rows: matrices (keys k..,
    // queries q..), (k.., q + 8..), (k + 8.., q..), (k + 8.., q + 8..),
    // transposed, are A's four registers.
    auto lhsAt = read(gradScoreTile, math.add(lane.row8, lane.upper8),
                      math.add(q0, lane.odd8), blockQ);
    // B = K (16 keys x 8 columns), two column tiles per read, as in
    // accumulateFromRegisters.
    SmallVector<std::function<Value(int64_t)>> rhsAt;
    for (int64_t c = 0; c < tileColumns / kMmaN; c += 2)
      rhsAt.push_back(read(
          keyTile, math.add(lane.row8, lane.odd8),
          math.add(d0, math.addConstant(lane.upper8, c * kMmaN)), headDim));
    SmallVector<Value> acc(tileColumns / kMmaN, zeroAccumulator());
    for (int64_t step = 0; step < blockKV / kMmaK; ++step) {
      SmallVector<Value> rhsPairs;
      for (auto &rhs : rhsAt)
        rhsPairs.push_back(rhs(step));
      multiplyFragments(b, loc, {lhsAt(step)}, rhsPairs, acc);
    }
    for (int64_t r = 0; r < 2; ++r) {
      Value row =
          math.add(math.add(row0, q0), math.addConstant(lane.group, 8 * r));
      Value inRange =
          arith::AndIOp::create(b, loc, adds, math.lt(row, queryLen));
      scf::IfOp::create(b, loc, inRange, [&](OpBuilder &ib, Location iloc) {
        IndexMath im{ib, iloc};
        for (int64_t c = 0; c < tileColumns / kMmaN; ++c)
          for (int64_t j = 0; j < 2; ++j) {
            Value column =
                im.add(d0, im.addConstant(pairColumn, c * kMmaN + j));
            memref::AtomicRMWOp::create(ib, iloc, arith::AtomicRMWKind::addf,
                                        extractElement(ib, iloc, acc[c], r, j),
                                        gradQueryAccumulator,
                                        ValueRange{batch, head, row, column});
          }
        scf::YieldOp::create(ib, iloc);
      });
    }
  }
}

SmallVector<Value>
BackwardKernel::warpgroupQueryBlock(const WarpgroupKeys &keys, Value stage,
                                    Value head, Value row0, ValueRange state) {
  IndexMath math{b, loc};
  const Lane &lane = keys.lane;
  // The compute warpgroups' barrier: the block's without a producer, a
  // named one with (the producer takes no part).
  auto computeBarrier = [&](int64_t id) {
    if (!tmaProducer) {
      gpu::BarrierOp::create(b, loc);
      return;
    }
    NVVM::BarrierOp::create(
        b, loc, /*res=*/Type(), arith::ConstantIntOp::create(b, loc, id, 32),
        arith::ConstantIntOp::create(b, loc,
                                     keys.warpgroups * kWarpgroupThreads, 32),
        /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());
  };
  std::pair<SmallVector<Value>, SmallVector<Value>> scores =
      warpgroupTransposedScores(keys.tiles, keys.keyGroup, stage);
  SmallVector<Value> probs, gradScores;
  std::tie(probs, gradScores) = transposedProbabilities(
      lane, keys.mTiles, scores.first, scores.second, keys.batch, head, row0,
      keys.col0, keys.lastRow, keys.statsTile, stage);
  SmallVector<Value> next(state);
  SmallVector<Value> gradScorePairs = packPairs(gradScores);
  // One warpgroup of each key group stores dS^T (a split's warpgroups
  // hold the same), once every warpgroup's dQ^T has read the previous
  // query block's (without a producer, the block barrier that ends each
  // step).
  if (keys.gradScoreTile) {
    if (tmaProducer)
      computeBarrier(kGradScoreFreeBarrier);
    scf::IfOp::create(b, loc, math.eq(keys.part, math.constant(0)),
                      [&](OpBuilder &, Location) {
                        storeTransposedGradients(lane, keys.mTiles,
                                                 gradScorePairs,
                                                 keys.gradScoreTile);
                        fenceForAsyncProxy();
                        scf::YieldOp::create(b, loc);
                      });
  }
  std::tie(next[1], next[0]) =
      warpgroupAccumulate(keys.tiles, packPairs(probs), gradScorePairs, stage,
                          keys.part, state[1], state[0]);
  // The stage's Q, dO, L and D are read (the products waited for).
  if (tmaProducer)
    nvgpu::MBarrierArriveOp::create(b, loc, nvgpu::MBarrierTokenType::get(ctx),
                                    barriers,
                                    QueryRing{stages}.empty(math, stage));
  if (keys.gradScoreTile) {
    computeBarrier(kGradScoreStoredBarrier);
    warpgroupQueryGradient(keys.tiles, lane, keys.warpgroup, keys.warpgroups,
                           keys.batch, head, row0);
  }
  return next;
}

void BackwardKernel::buildKeyValueGradients(Value batchSize, Value keyHeads) {
  OpBuilder::InsertionGuard guard(b);
  IndexMath math{b, loc};
  // The wgmma kernel: the tiling's warps, 16 keys each, with a column
  // split two warpgroups per 64 keys (whyNoWarpgroupBackwardTiling).
  int64_t kernelWarps =
      warpgroupMma ? warps : backwardKernelWarps(blockKV, warps);
  // With a producer, the compute warps and one warpgroup more.
  int64_t computeThreads = kernelWarps * gpu_kernel::kWarpSize;
  threads = computeThreads + (tmaProducer ? kWarpgroupThreads : 0);
  // wgmma's tiles are 64-column blocks, each the 128-byte swizzle's; the
  // other kernels' (ldmatrix) rows are whole.
  llvm::SaveAndRestore<bool> tileLayout(columnBlocks, warpgroupMma);
  int64_t rowsPerWarp = warpgroupMma ? kMmaM : blockKV / kernelWarps;
  int64_t mTiles = rowsPerWarp / kMmaM;
  int64_t queryTiles = blockQ / kMmaN;
  // The producer's ring has the tiling's stages; cp.async streams through
  // them where the copies share out evenly.
  int64_t buffers = tmaProducer ? stages : streamBuffers(blockQ);
  bool async = !tmaProducer && buffers > 1;
  Value blockKVValue = math.constant(blockKV);
  // Q's and dO's boxes are 64-column blocks of the 128-byte swizzle, as
  // wgmma reads them; L's and D's one [2][block_q] box of rowStats.
  Value queryMap, gradOutputMap, statsMap;
  if (tmaProducer) {
    constexpr int64_t boxColumns = kSwizzle128RowBytes / 2;
    queryMap = createTensorMap(query, {1, 1, blockQ, boxColumns},
                               /*swizzled=*/true);
    gradOutputMap = createTensorMap(gradOutput, {1, 1, blockQ, boxColumns},
                                    /*swizzled=*/true);
    statsMap = createTensorMap(rowStats, {1, 1, 2, blockQ},
                               /*swizzled=*/false);
  }
  scf::ForallOp grid =
      blockGrid({batchSize, keyHeads, math.ceilDiv(keyLen, blockKVValue)});
  b.setInsertionPointToStart(grid.getBody());
  Value batch = grid.getInductionVar(0), kvHead = grid.getInductionVar(1);
  Value col0 = math.mul(grid.getInductionVar(2), blockKVValue);
  Value cols = math.min(blockKVValue, math.sub(keyLen, col0));
  Value keySmem = sharedTile({blockKV, sharedRowLength(headDim, elementType)});
  Value valueSmem =
      sharedTile({blockKV, sharedRowLength(valueDim, elementType)});
  Value querySmem =
      sharedTile({buffers, blockQ, sharedRowLength(headDim, elementType)});
  Value gradOutputSmem =
      sharedTile({buffers, blockQ, sharedRowLength(valueDim, elementType)});
  Value gradScoreSmem, gradScoreFlat, keyFlat;
  WarpgroupTiles wgTiles;
  if (warpgroupMma) {
    // dS^T_s in whole 64-column blocks: dQ^T's B, M/N-major.
    constexpr int64_t blockColumns = kSwizzle128RowBytes / 2;
    wgTiles.gradScoreWidth = llvm::alignTo(blockQ, blockColumns);
    if (gradQueryAccumulator)
      gradScoreSmem = sharedTile({blockKV, wgTiles.gradScoreWidth});
    wgTiles.key = flatTile(keySmem);
    wgTiles.value = flatTile(valueSmem);
    wgTiles.query = flatTile(querySmem);
    wgTiles.gradOutput = flatTile(gradOutputSmem);
    if (gradScoreSmem)
      wgTiles.gradScore = flatTile(gradScoreSmem);
  } else if (gradQueryAccumulator) {
    gradScoreSmem = sharedTile({blockKV, sharedRowLength(blockQ, elementType)});
    gradScoreFlat = flatTile(gradScoreSmem);
    keyFlat = flatTile(keySmem);
  }

  // The query blocks that see the key block, for every head of the group:
  // one loop over (member, query block), the same for every thread.
  VisibleRows visible =
      geometry.visibleQueries(math, col0, cols, queryLen, blockQ);
  // A mask_mod narrows the walk to the query blocks from the first to the
  // last it may show the key block, for any head of the group
  // (MaskModIntervals.h; the forward kernel narrows its keys alike).
  if (Block *maskMod = op.getMaskModBlock()) {
    Value firstHead = math.mul(kvHead, groupSize);
    Value lastHead = math.addConstant(math.add(firstHead, groupSize), -1);
    Value lastCol = math.addConstant(math.add(col0, cols), -1);
    std::tie(visible.firstBlockStart, visible.rowEnd) =
        narrowWalk(b, loc, maskMod,
                   {{batch, batch}, {firstHead, lastHead}, {}, {col0, lastCol}},
                   /*walked=*/2, visible.firstBlockStart, visible.rowEnd,
                   blockQ, &modifierCaptures);
  }
  Value blockQValue = math.constant(blockQ);
  Value none = math.constant(0);
  Value span =
      math.max(math.sub(visible.rowEnd, visible.firstBlockStart), none);
  Value queryBlocks = math.ceilDiv(span, blockQValue);
  Value iterations = math.mul(groupSize, queryBlocks);
  // The producer's ring: per stage, Q's and L/D's transaction, dO's, and
  // the compute threads' release (QueryRing).
  QueryRing ring{stages};
  Value statsFlat;
  if (tmaProducer) {
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    statsFlat = memref::AllocOp::create(
        b, loc,
        MemRefType::get({stages * 2 * blockQ}, f32, MemRefLayoutAttrInterface(),
                        workgroup));
    barriers = nvgpu::MBarrierCreateOp::create(
        b, loc, nvgpu::MBarrierGroupType::get(ctx, workgroup, ring.count()));
  }

  scf::ForallOp loop = threadLoop();
  b.setInsertionPointToStart(loop.getBody());
  Value thread = loop.getInductionVar(0);
  Lane lane = laneOf(math, thread, rowsPerWarp);
  Value warp = math.divU(thread, math.constant(gpu_kernel::kWarpSize));
  // wgmma: warpgroup w holds keys [64 (w / split), 64 (w / split) + 64)
  // and part w mod split of dK's and dV's columns; its warp i keys
  // 16 i .. 16 i + 15 of those.
  Value warpgroup = math.divU(thread, math.constant(kWarpgroupThreads));
  Value keyGroup = math.divU(warpgroup, math.constant(columnSplit));
  Value part = math.remU(warpgroup, math.constant(columnSplit));
  if (warpgroupMma && columnSplit > 1) {
    constexpr int64_t warpsPerGroup = kWarpgroupThreads / gpu_kernel::kWarpSize;
    lane.warpRow0 =
        math.add(math.mul(keyGroup, math.constant(kWgmmaM)),
                 math.mul(math.remU(warp, math.constant(warpsPerGroup)),
                          math.constant(kMmaM)));
  }
  Value zero = math.constant(0), one = math.constant(1);
  if (tmaProducer) {
    // Thread 0 initializes the ring's barriers; the block barrier below
    // shows them to every thread.
    scf::IfOp::create(
        b, loc, math.eq(thread, zero), [&](OpBuilder &, Location) {
          for (int64_t s = 0; s < stages; ++s)
            for (auto [index, count] :
                 {std::pair{ring.queryFull(s), int64_t(1)},
                  std::pair{ring.gradOutputFull(s), int64_t(1)},
                  std::pair{ring.empty(s), computeThreads}})
              nvgpu::MBarrierInitOp::create(
                  b, loc, barriers, math.constant(count), math.constant(index),
                  /*predicate=*/Value());
          scf::YieldOp::create(b, loc);
        });
  }
  // K and V once per block, by every thread (the producer's too: the roles
  // part after them); rows past Nk zero, so that dQ's product reads no
  // garbage there.
  copyTile(key, batch, kvHead, col0, cols, blockKV, headDim, keySmem, Value(),
           thread);
  copyTile(value, batch, kvHead, col0, cols, blockKV, valueDim, valueSmem,
           Value(), thread);
  Value compute, producerLeader;
  if (tmaProducer) {
    // K_s and V_s are the generic proxy's writes, which wgmma reads
    // through the async proxy.
    fenceForAsyncProxy();
    gpu::BarrierOp::create(b, loc);
    compute =
        markRole(math.lt(thread, math.constant(computeThreads)), kComputeRole);
    producerLeader = markRole(math.eq(thread, math.constant(computeThreads)),
                              kProducerLeaderRole, kProducerRegisters);
  }
  // Iteration `it` is query block it mod blocks of head member it / blocks.
  auto position = [&](IndexMath &m, Value it) -> std::pair<Value, Value> {
    // Blocks >= 1 here whenever an iteration exists; max keeps the
    // division defined where none does.
    Value blocks = m.max(queryBlocks, m.constant(1));
    Value member = m.divU(it, blocks);
    Value head = m.add(m.mul(kvHead, groupSize), member);
    Value row0 =
        m.add(visible.firstBlockStart, m.mul(m.remU(it, blocks), blockQValue));
    return {head, row0};
  };
  auto validRows = [&](IndexMath &m, Value it, Value row0) {
    Value rows = m.min(blockQValue, m.sub(queryLen, row0));
    Value none = m.constant(0);
    Value exists = m.lt(it, iterations);
    return arith::SelectOp::create(b, loc, exists, rows, none).getResult();
  };
  Value lastRow = math.addConstant(queryLen, -1);
  auto prefetch = [&](IndexMath &m, Value it, Value stage) {
    Value head, row0;
    std::tie(head, row0) = position(m, it);
    // Past the last iteration the copies fill zeros from a valid address.
    Value safeHead = m.min(head, m.addConstant(math.dim(query, 1), -1));
    Value rows = validRows(m, it, row0);
    SmallVector<Value> tokens =
        copyTileAsync(query, batch, safeHead, row0, rows, lastRow, blockQ,
                      headDim, querySmem, stage, thread);
    tokens.append(copyTileAsync(gradOutput, batch, safeHead, row0, rows,
                                lastRow, blockQ, valueDim, gradOutputSmem,
                                stage, thread));
    return nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), tokens);
  };
  if (async)
    prefetch(math, zero, zero);

  // dK then dV: mma.sync fragments, or wgmma's two accumulators.
  SmallVector<Value> init(mTiles * (headDim + valueDim) / kMmaN,
                          zeroAccumulator());
  if (warpgroupMma)
    init = {
        arith::ConstantOp::create(
            b, loc,
            b.getZeroAttr(VectorType::get(
                {wgmmaAccumulatorRegisters(headDim / columnSplit)}, f32))),
        arith::ConstantOp::create(
            b, loc,
            b.getZeroAttr(VectorType::get(
                {wgmmaAccumulatorRegisters(valueDim / columnSplit)}, f32)))};
  WarpgroupKeys keys{
      wgTiles,   lane,
      keyGroup,  part,
      warpgroup, kernelWarps * gpu_kernel::kWarpSize / kWarpgroupThreads,
      mTiles,    gradScoreSmem,
      statsFlat, batch,
      col0,      lastRow};
  auto iterationLoop = scf::ForOp::create(
      b, loc, zero, iterations, one, init,
      [&](OpBuilder &lb, Location lloc, Value it, ValueRange state) {
        OpBuilder::InsertionGuard loopGuard(b);
        b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
        IndexMath lm{b, lloc};
        Value head, row0;
        std::tie(head, row0) = position(lm, it);
        Value stage = zero;
        if (tmaProducer) {
          stage = lm.remU(it, lm.constant(stages));
          Value parity = ring.parity(lm, it);
          // The producer: once the stage is free, Q and L/D as one
          // transaction, then dO. Rows past Nq arrive as zeros (the maps'
          // fill; rowStats' padding rows are zeros too).
          onRole(b, lloc, producerLeader, {}, [&] {
            IndexMath pm{b, lloc};
            Value free = arith::XOrIOp::create(
                b, lloc, parity, arith::ConstantIntOp::create(b, lloc, 1, 1));
            waitOnBarrier(ring.empty(pm, stage), free);
            Value queryBarrier = ring.queryFull(pm, stage);
            expectBytes(blockQ * headDim * elementBytes(elementType) +
                            2 * blockQ * elementBytes(f32),
                        queryBarrier);
            issueBoxLoads(queryMap, wgTiles.query,
                          pm.mul(stage, pm.constant(blockQ * headDim)), blockQ,
                          headDim, elementType, queryBarrier,
                          {row0, head, batch});
            issueBox(statsMap, statsFlat,
                     pm.mul(stage, pm.constant(2 * blockQ)), queryBarrier,
                     {row0, zero, head, batch});
            issueTileLoads(gradOutputMap, wgTiles.gradOutput,
                           pm.mul(stage, pm.constant(blockQ * valueDim)),
                           blockQ, valueDim, elementType,
                           ring.gradOutputFull(pm, stage), {row0, head, batch});
            return SmallVector<Value>();
          });
          // The compute warpgroups: everything else, once the stage has
          // landed; elsewhere dK and dV stay as they were.
          SmallVector<Value> next = onRole(b, lloc, compute, state, [&] {
            IndexMath cm{b, lloc};
            waitOnBarrier(ring.queryFull(cm, stage), parity);
            waitOnBarrier(ring.gradOutputFull(cm, stage), parity);
            return warpgroupQueryBlock(keys, stage, head, row0, state);
          });
          scf::YieldOp::create(b, lloc, next);
          return;
        }
        if (async) {
          stage = lm.remU(it, lm.constant(stages));
          Value next = lm.addConstant(it, 1);
          Value group = prefetch(lm, next, lm.remU(next, lm.constant(stages)));
          nvgpu::DeviceAsyncWaitOp::create(b, lloc, group,
                                           b.getI32IntegerAttr(1));
          // The copies are the generic proxy's writes, which wgmma reads
          // through the async proxy.
          if (warpgroupMma)
            fenceForAsyncProxy();
        } else {
          Value rows = lm.min(blockQValue, lm.sub(queryLen, row0));
          copyTile(query, batch, head, row0, rows, blockQ, headDim, querySmem,
                   stage, thread);
          copyTile(gradOutput, batch, head, row0, rows, blockQ, valueDim,
                   gradOutputSmem, stage, thread);
        }
        gpu::BarrierOp::create(b, lloc);
        if (warpgroupMma) {
          SmallVector<Value> next =
              warpgroupQueryBlock(keys, stage, head, row0, state);
          // Before a buffer is filled again, every warp is done with it.
          gpu::BarrierOp::create(b, lloc);
          scf::YieldOp::create(b, lloc, next);
          return;
        }

        // S^T = K Q^T and dP^T = V dO^T over the warp's keys.
        SmallVector<Value> scores =
            warpProduct(lane, mTiles, keySmem, Value(), lane.warpRow0,
                        querySmem, stage, blockQ, headDim);
        SmallVector<Value> gradProbs =
            warpProduct(lane, mTiles, valueSmem, Value(), lane.warpRow0,
                        gradOutputSmem, stage, blockQ, valueDim);
        SmallVector<Value> probs, gradScores;
        std::tie(probs, gradScores) = transposedProbabilities(
            lane, mTiles, scores, gradProbs, batch, head, row0, col0, lastRow);
        SmallVector<Value> next(state);
        MutableArrayRef<Value> gradKeys(next.data(), mTiles * headDim / kMmaN);
        MutableArrayRef<Value> gradValues(next.data() + gradKeys.size(),
                                          mTiles * valueDim / kMmaN);
        SmallVector<Value> gradScorePairs = packPairs(gradScores);
        if (gradScoreSmem)
          storeTransposedGradients(lane, mTiles, gradScorePairs, gradScoreSmem);
        // dV += P^T dO, dK += dS^T Q: the A operands from the registers.
        accumulateFromRegisters(lane, mTiles, queryTiles, packPairs(probs),
                                gradOutputSmem, stage, valueDim, gradValues);
        accumulateFromRegisters(lane, mTiles, queryTiles, gradScorePairs,
                                querySmem, stage, headDim, gradKeys);
        // dQ's share of this key block, once every warp's dS^T is stored.
        if (gradScoreSmem) {
          gpu::BarrierOp::create(b, lloc);
          accumulateQueryGradient(lane, warp, kernelWarps, gradScoreFlat,
                                  keyFlat, batch, head, row0);
        }
        // Before a buffer is filled again, every warp is done with it.
        gpu::BarrierOp::create(b, lloc);
        scf::YieldOp::create(b, lloc, next);
      });

  // The producer holds no gradients.
  std::optional<OpBuilder::InsertionGuard> computeOnly;
  if (tmaProducer) {
    computeOnly.emplace(b);
    auto stores = scf::IfOp::create(b, loc, compute, /*withElseRegion=*/false);
    b.setInsertionPoint(stores.thenBlock()->getTerminator());
  }
  SmallVector<Value> results(iterationLoop.getResults());
  if (warpgroupMma) {
    SmallVector<Value> gradients = fragmentsOf(results[0]);
    llvm::append_range(gradients, fragmentsOf(results[1]));
    results = gradients;
  }
  int64_t keyWidth = headDim / columnSplit, valueWidth = valueDim / columnSplit;
  int64_t keyFragments = mTiles * keyWidth / kMmaN;
  Value rowBase = math.add(col0, lane.warpRow0);
  storeFragments(lane, mTiles,
                 ArrayRef<Value>(results).take_front(keyFragments), keyWidth,
                 gradKey, batch, kvHead, rowBase, keyLen, scale,
                 math.mul(part, math.constant(keyWidth)));
  storeFragments(
      lane, mTiles, ArrayRef<Value>(results).drop_front(keyFragments),
      valueWidth, gradValue, batch, kvHead, rowBase, keyLen,
      f32Constant(b, loc, 1), math.mul(part, math.constant(valueWidth)));
}

void BackwardKernel::buildQueryGradients(Value batchSize, Value queryHeads) {
  OpBuilder::InsertionGuard guard(b);
  IndexMath math{b, loc};
  int64_t kernelWarps = backwardKernelWarps(blockQ, warps);
  threads = kernelWarps * gpu_kernel::kWarpSize;
  int64_t rowsPerWarp = blockQ / kernelWarps, mTiles = rowsPerWarp / kMmaM;
  int64_t keyTiles = blockKV / kMmaN;
  int64_t buffers = streamBuffers(blockKV);
  bool async = buffers > 1;
  Value blockQValue = math.constant(blockQ),
        blockKVValue = math.constant(blockKV);
  scf::ForallOp grid =
      blockGrid({batchSize, queryHeads, math.ceilDiv(queryLen, blockQValue)});
  b.setInsertionPointToStart(grid.getBody());
  Value batch = grid.getInductionVar(0), head = grid.getInductionVar(1);
  Value row0 = math.mul(grid.getInductionVar(2), blockQValue);
  Value rows = math.min(blockQValue, math.sub(queryLen, row0));
  Value kvHead = math.divU(head, groupSize);
  Value querySmem = sharedTile({blockQ, sharedRowLength(headDim, elementType)});
  Value gradOutputSmem =
      sharedTile({blockQ, sharedRowLength(valueDim, elementType)});
  Value keySmem =
      sharedTile({buffers, blockKV, sharedRowLength(headDim, elementType)});
  Value valueSmem =
      sharedTile({buffers, blockKV, sharedRowLength(valueDim, elementType)});
  VisibleKeys visible = geometry.visibleKeys(math, row0, rows, keyLen, blockKV);
  Value firstBlockStart = visible.firstBlockStart, keyEnd = visible.keyEnd;
  if (Block *maskMod = op.getMaskModBlock()) {
    Value lastOwnRow = math.addConstant(math.add(row0, rows), -1);
    std::tie(firstBlockStart, keyEnd) = narrowWalk(
        b, loc, maskMod, {{batch, batch}, {head, head}, {row0, lastOwnRow}, {}},
        /*walked=*/3, firstBlockStart, keyEnd, blockKV, &modifierCaptures);
  }

  scf::ForallOp loop = threadLoop();
  b.setInsertionPointToStart(loop.getBody());
  Value thread = loop.getInductionVar(0);
  Lane lane = laneOf(math, thread, rowsPerWarp);
  Value zero = math.constant(0);
  copyTile(query, batch, head, row0, rows, blockQ, headDim, querySmem, Value(),
           thread);
  copyTile(gradOutput, batch, head, row0, rows, blockQ, valueDim,
           gradOutputSmem, Value(), thread);
  // The lane's rows: g and g + 8 of each fragment row, with L and D.
  Value lastRow = math.addConstant(queryLen, -1);
  SmallVector<Value> rowsOf, lses, terms, exists;
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t r = 0; r < 2; ++r) {
      Value row = math.add(
          row0, math.add(math.addConstant(lane.warpRow0, i * kMmaM + 8 * r),
                         lane.group));
      Value at = math.min(row, lastRow);
      rowsOf.push_back(row);
      exists.push_back(math.lt(row, queryLen));
      lses.push_back(memref::LoadOp::create(b, loc, logsumexp,
                                            ValueRange{batch, head, at}));
      terms.push_back(
          memref::LoadOp::create(b, loc, rowTerm, ValueRange{batch, head, at}));
    }
  Value lastKey = math.addConstant(keyLen, -1);
  auto validKeyRows = [&](IndexMath &m, Value start) {
    Value rowsLeft = m.min(blockKVValue, m.sub(keyLen, start));
    Value none = m.constant(0);
    Value visible = m.lt(start, keyEnd);
    return arith::SelectOp::create(b, loc, visible, rowsLeft, none).getResult();
  };
  auto prefetch = [&](IndexMath &m, Value start, Value stage) {
    Value valid = validKeyRows(m, start);
    SmallVector<Value> tokens =
        copyTileAsync(key, batch, kvHead, start, valid, lastKey, blockKV,
                      headDim, keySmem, stage, thread);
    tokens.append(copyTileAsync(value, batch, kvHead, start, valid, lastKey,
                                blockKV, valueDim, valueSmem, stage, thread));
    return nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), tokens);
  };
  if (async)
    prefetch(math, firstBlockStart, zero);

  SmallVector<Value> init(mTiles * headDim / kMmaN, zeroAccumulator());
  auto keyLoop = scf::ForOp::create(
      b, loc, firstBlockStart, keyEnd, blockKVValue, init,
      [&](OpBuilder &lb, Location lloc, Value col0, ValueRange state) {
        OpBuilder::InsertionGuard loopGuard(b);
        b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
        IndexMath lm{b, lloc};
        Value stage = zero;
        if (async) {
          Value block = lm.divU(lm.sub(col0, firstBlockStart), blockKVValue);
          stage = lm.remU(block, lm.constant(stages));
          Value next = lm.add(col0, blockKVValue);
          Value stageCount = lm.constant(stages);
          Value nextBlock = lm.addConstant(block, 1);
          Value nextStage = lm.remU(nextBlock, stageCount);
          Value group = prefetch(lm, next, nextStage);
          nvgpu::DeviceAsyncWaitOp::create(b, lloc, group,
                                           b.getI32IntegerAttr(1));
          // The copies are the generic proxy's writes, which wgmma reads
          // through the async proxy.
          if (warpgroupMma)
            fenceForAsyncProxy();
        } else {
          Value cols = lm.min(blockKVValue, lm.sub(keyLen, col0));
          copyTile(key, batch, kvHead, col0, cols, blockKV, headDim, keySmem,
                   stage, thread);
          copyTile(value, batch, kvHead, col0, cols, blockKV, valueDim,
                   valueSmem, stage, thread);
        }
        gpu::BarrierOp::create(b, lloc);

        // S = Q K^T and dP = dO V^T over the warp's rows.
        SmallVector<Value> scores =
            warpProduct(lane, mTiles, querySmem, Value(), lane.warpRow0,
                        keySmem, stage, blockKV, headDim);
        SmallVector<Value> gradProbs =
            warpProduct(lane, mTiles, gradOutputSmem, Value(), lane.warpRow0,
                        valueSmem, stage, blockKV, valueDim);
        Value pairColumn = lm.mul(lane.quad, lm.constant(2));
        SmallVector<Value> gradScores(mTiles * keyTiles * 4);
        for (int64_t i = 0; i < mTiles; ++i)
          for (int64_t n = 0; n < keyTiles; ++n)
            for (int64_t r = 0; r < 2; ++r)
              for (int64_t j = 0; j < 2; ++j) {
                Value col =
                    lm.add(col0, lm.addConstant(pairColumn, n * kMmaN + j));
                int64_t row = i * 2 + r;
                Value gradProb =
                    extractElement(b, lloc, gradProbs[i * keyTiles + n], r, j);
                Value raw =
                    extractElement(b, lloc, scores[i * keyTiles + n], r, j);
                gradScores[((i * keyTiles + n) * 2 + r) * 2 + j] =
                    probabilityAndGradient(raw, gradProb, lses[row], terms[row],
                                           batch, head, rowsOf[row], col,
                                           exists[row])
                        .gradScore;
              }
        SmallVector<Value> next(state);
        // dQ += dS K: dS's A fragments from the registers, K read
        // transposed.
        accumulateFromRegisters(lane, mTiles, keyTiles, packPairs(gradScores),
                                keySmem, stage, headDim, next);
        gpu::BarrierOp::create(b, lloc);
        scf::YieldOp::create(b, lloc, next);
      });

  storeFragments(lane, mTiles, SmallVector<Value>(keyLoop.getResults()),
                 headDim, gradQuery, batch, head, math.add(row0, lane.warpRow0),
                 queryLen, scale);
}

/// One block per (bias batch, bias head, query block) tile of dBias, warps
/// over its rows as in the dQ kernel. It walks every key block and, inside,
/// every (batch, head) the tile stands for (the bias's broadcast dims; one
/// loop, so that its barriers are the thread loop's own), recomputes S, P,
/// dP and dS for each, sums dS in f32 fragments, and after the last stores
/// the tile's key block, rounded once to the bias's type. Key blocks that
/// the causal or window mask hides are walked too: their dS is 0, and the
/// tile must be written whole. One block owns each dBias element, so the
/// sum is deterministic, as in the tiled lowering.
void BackwardKernel::buildBiasGradient(Value batchSize, Value queryHeads) {
  OpBuilder::InsertionGuard guard(b);
  IndexMath math{b, loc};
  int64_t kernelWarps = backwardKernelWarps(blockQ, warps);
  threads = kernelWarps * gpu_kernel::kWarpSize;
  int64_t rowsPerWarp = blockQ / kernelWarps, mTiles = rowsPerWarp / kMmaM;
  // Half a key block per step (16 keys at least): the f32 sums, S and dP of
  // a whole block of 128 keys, with the stores' index math, spilled at
  // d = 64 (ptxas, docs/GPU.md); the other kernels' tiles stay as chosen.
  int64_t keyStep = std::max<int64_t>(kMmaK, blockKV / 2);
  int64_t keyTiles = keyStep / kMmaN;
  Type biasType = getElementTypeOrSelf(gradMask.getType());
  Value one = math.constant(1);
  Value blockQValue = math.constant(blockQ),
        keyStepValue = math.constant(keyStep);
  Value biasBatches = maskBroadcast[0] ? one : batchSize;
  Value biasHeads = maskBroadcast[1] ? one : queryHeads;
  scf::ForallOp grid =
      blockGrid({biasBatches, biasHeads, math.ceilDiv(queryLen, blockQValue)});
  b.setInsertionPointToStart(grid.getBody());
  Value biasBatch = grid.getInductionVar(0), biasHead = grid.getInductionVar(1);
  Value row0 = math.mul(grid.getInductionVar(2), blockQValue);
  Value rows = math.min(blockQValue, math.sub(queryLen, row0));
  // The (batch, head) pairs the tile stands for.
  Value headMembers = maskBroadcast[1] ? queryHeads : one;
  Value members = math.mul(maskBroadcast[0] ? batchSize : one, headMembers);
  Value iterations = math.mul(math.ceilDiv(keyLen, keyStepValue), members);
  Value querySmem = sharedTile({blockQ, sharedRowLength(headDim, elementType)});
  Value gradOutputSmem =
      sharedTile({blockQ, sharedRowLength(valueDim, elementType)});
  Value keySmem = sharedTile({keyStep, sharedRowLength(headDim, elementType)});
  Value valueSmem =
      sharedTile({keyStep, sharedRowLength(valueDim, elementType)});

  scf::ForallOp loop = threadLoop();
  b.setInsertionPointToStart(loop.getBody());
  Value thread = loop.getInductionVar(0);
  Lane lane = laneOf(math, thread, rowsPerWarp);
  Value lastRow = math.addConstant(queryLen, -1);
  SmallVector<Value> init(mTiles * keyTiles, zeroAccumulator());
  scf::ForOp::create(
      b, loc, math.constant(0), iterations, one, init,
      [&](OpBuilder &lb, Location lloc, Value it, ValueRange state) {
        OpBuilder::InsertionGuard loopGuard(b);
        b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
        IndexMath lm{b, lloc};
        Value member = lm.remU(it, members);
        Value col0 = lm.mul(lm.divU(it, members), keyStepValue);
        Value cols = lm.min(keyStepValue, lm.sub(keyLen, col0));
        Value batch =
            maskBroadcast[0] ? lm.divU(member, headMembers) : biasBatch;
        Value head = maskBroadcast[1] ? lm.remU(member, headMembers) : biasHead;
        Value kvHead = lm.divU(head, groupSize);
        copyTile(query, batch, head, row0, rows, blockQ, headDim, querySmem,
                 Value(), thread);
        copyTile(gradOutput, batch, head, row0, rows, blockQ, valueDim,
                 gradOutputSmem, Value(), thread);
        copyTile(key, batch, kvHead, col0, cols, keyStep, headDim, keySmem,
                 Value(), thread);
        copyTile(value, batch, kvHead, col0, cols, keyStep, valueDim, valueSmem,
                 Value(), thread);
        gpu::BarrierOp::create(b, lloc);

        SmallVector<Value> scores =
            warpProduct(lane, mTiles, querySmem, Value(), lane.warpRow0,
                        keySmem, Value(), keyStep, headDim);
        SmallVector<Value> gradProbs =
            warpProduct(lane, mTiles, gradOutputSmem, Value(), lane.warpRow0,
                        valueSmem, Value(), keyStep, valueDim);
        Value pairColumn = lm.mul(lane.quad, lm.constant(2));
        SmallVector<Value> next(state);
        SmallVector<Value> rowsOf;
        for (int64_t i = 0; i < mTiles; ++i)
          for (int64_t r = 0; r < 2; ++r) {
            Value row = lm.add(
                row0, lm.add(lm.addConstant(lane.warpRow0, i * kMmaM + 8 * r),
                             lane.group));
            rowsOf.push_back(row);
            Value at = lm.min(row, lastRow);
            Value lse = memref::LoadOp::create(b, lloc, logsumexp,
                                               ValueRange{batch, head, at});
            Value term = memref::LoadOp::create(b, lloc, rowTerm,
                                                ValueRange{batch, head, at});
            Value exists = lm.lt(row, queryLen);
            for (int64_t n = 0; n < keyTiles; ++n)
              for (int64_t j = 0; j < 2; ++j) {
                Value col =
                    lm.add(col0, lm.addConstant(pairColumn, n * kMmaN + j));
                Value gradProb =
                    extractElement(b, lloc, gradProbs[i * keyTiles + n], r, j);
                Value raw =
                    extractElement(b, lloc, scores[i * keyTiles + n], r, j);
                // The bias is added after the score_mod: its gradient
                // is dT.
                Value gradScore =
                    probabilityAndGradient(raw, gradProb, lse, term, batch,
                                           head, row, col, exists)
                        .gradModified;
                Value &acc = next[i * keyTiles + n];
                Value sum = contractingAdd(
                    b, lloc, extractElement(b, lloc, acc, r, j), gradScore);
                acc = insertElement(b, lloc, sum, acc, r, j);
              }
          }
        // After the tile's last (batch, head): its key block is complete.
        Value last = lm.eq(member, lm.addConstant(members, -1));
        scf::IfOp::create(b, lloc, last, [&](OpBuilder &sb, Location sloc) {
          for (int64_t i = 0; i < mTiles; ++i)
            for (int64_t r = 0; r < 2; ++r) {
              Value row = rowsOf[i * 2 + r];
              IndexMath sm{sb, sloc};
              scf::IfOp::create(
                  sb, sloc, sm.lt(row, queryLen),
                  [&](OpBuilder &rb, Location rloc) {
                    IndexMath rm{rb, rloc};
                    for (int64_t n = 0; n < keyTiles; ++n)
                      for (int64_t j = 0; j < 2; ++j) {
                        Value col = rm.add(
                            col0, rm.addConstant(pairColumn, n * kMmaN + j));
                        Value element = extractElement(
                            rb, rloc, next[i * keyTiles + n], r, j);
                        if (!biasType.isF32())
                          element = arith::TruncFOp::create(rb, rloc, biasType,
                                                            element);
                        scf::IfOp::create(
                            rb, rloc, rm.lt(col, keyLen),
                            [&](OpBuilder &cb, Location cloc) {
                              memref::StoreOp::create(
                                  cb, cloc, element, gradMask,
                                  ValueRange{biasBatch, biasHead, row, col});
                              scf::YieldOp::create(cb, cloc);
                            });
                      }
                    scf::YieldOp::create(rb, rloc);
                  });
            }
          scf::YieldOp::create(sb, sloc);
        });
        Value zero = zeroAccumulator();
        for (Value &acc : next)
          acc = arith::SelectOp::create(b, lloc, last, zero, acc);
        // Every tile is refilled next iteration.
        gpu::BarrierOp::create(b, lloc);
        scf::YieldOp::create(b, lloc, next);
      });
}

struct FADistributeAttentionBackwardPass
    : fa::impl::FADistributeAttentionBackwardBase<
          FADistributeAttentionBackwardPass> {
  using FADistributeAttentionBackwardBase::FADistributeAttentionBackwardBase;

  void runOnOperation() override {
    KernelOptions options;
    options.asyncCopies = asyncCopies;
    options.tensorCores = tensorCores;
    options.warpgroupMma = warpgroupMma;
    options.tmaProducer = tmaProducer;
    if (failed(lowerEach<AttentionBackwardOp>(
            getOperation(),
            [&](RewriterBase &rewriter, AttentionBackwardOp op) {
              // Left to fa-tile-attention-backward unless the kernel is
              // required (an op without tiling is an error either way).
              if (!requireKernel && op.getTilingAttr() &&
                  !whyNoBackwardKernel(op, options).empty())
                return success();
              return success(succeeded(
                  distributeAttentionBackward(rewriter, op, options)));
            })))
      signalPassFailure();
  }
};

} // namespace

std::string mlir::fa::whyNoBackwardKernel(AttentionBackwardOp op,
                                          const KernelOptions &options) {
  std::string problem = tilingProblem(op, TiledLowering::Kernel);
  if (!problem.empty())
    return problem;
  return unsupportedReason(op, op.getTilingAttr(), options.tensorCores);
}

FailureOr<SmallVector<Value>>
mlir::fa::distributeAttentionBackward(RewriterBase &rewriter,
                                      AttentionBackwardOp op,
                                      const KernelOptions &options) {
  if (failed(prepareLowering(rewriter, op, TiledLowering::Kernel)))
    return failure();
  std::string reason =
      unsupportedReason(op, op.getTilingAttr(), options.tensorCores);
  if (!reason.empty()) {
    op.emitOpError() << "has no GPU kernel here: the backward kernel "
                     << reason;
    return failure();
  }
  LLVM_DEBUG(llvm::dbgs() << "building the backward kernels of " << op << "\n");
  TilingAttr tiling = op.getTilingAttr();
  AttentionShape shape;
  shape.headDim = op.getQuery().getType().getDimSize(3);
  shape.valueDim = op.getValue().getType().getDimSize(3);
  bool warpgroupMma =
      options.warpgroupMma &&
      whyNoWarpgroupBackwardTiling(Tiling{tiling.getBlockQ(),
                                          tiling.getBlockKv(),
                                          tiling.getWarps(),
                                          tiling.getStages()},
                                   shape)
          .empty();
  BackwardKernel kernel(op, rewriter, tiling, options.asyncCopies,
                        warpgroupMma);
  if (warpgroupMma) {
    kernel.columnSplit = warpgroupBackwardColumnSplit(shape);
    // As tile selection decides (warpgroupBackwardProducer).
    AttentionShape described = describeAttentionShape(op);
    std::string noProducer = whyNoWarpgroupBackwardProducer(
        Tiling{tiling.getBlockQ(), tiling.getBlockKv(), tiling.getWarps(),
               tiling.getStages()},
        described);
    kernel.tmaProducer = options.tmaProducer && noProducer.empty();
    if (options.tmaProducer && !noProducer.empty())
      op.emitRemark() << "the wgmma dK/dV kernel loads this op's query "
                         "blocks with cp.async, not TMA: "
                      << noProducer;
  }
  SmallVector<Value> results = kernel.build();
  rewriter.replaceOp(op, results);
  return results;
}
