//===- DistributeLinearAttention.cpp - Linear attention as a GPU kernel ---===//
//
// Stage: GPU kernel, before the hardware mapping. Lowers an
// fa.linear_attention that carries a chunk (fa-select-tiles) into one
// kernel on tensor cores, with the contract of fa-distribute-attention
// (scf.forall over #gpu.block around one over #gpu.thread, tiles in
// workgroup memory), so that it runs on a CPU after
// fa-emulate-threads-on-cpu and maps onto gpu.launch after bufferization:
//
//   scf.forall (b, h) in (B, Hq)           one block per query head: the
//                                          state is a prefix sum over keys
//     Q_s, K_s [C][D], V_s [C][Dv'], (K~_s [C][D] with a decay)
//     S [D][Dv'] f32, S_h [D][Dv'] in Q's type, sigma [Dv'] f32
//     causal, for each chunk c0 of C rows:
//       Q, K, V rows [c0, c0 + C) -> shared (zero past N); V's column Dv = 1
//       16 query rows per warp:
//         O  = (Q S_h) sigma scale g^(i - c0 + 1)    mma.sync; S_h .trans
//         W  = scale Q K^T [j <= i] g^(i - j)         mma.sync, f32 fragments
//         O += W V                                    W rounded in pairs
//         O /= O[:, Dv] + eps                         (normalize)
//       S = g^C S + K~^T V, K~_j = g^(C - 1 - j) K_j  16 columns per warp
//       S_h = S / sigma, sigma[c] a power of two      per column
//     not causal: S over every chunk of keys, then O = (Q S_h) sigma scale
//
// Normalization rides on the products: column Dv of V is 1, so column Dv of
// S is z = sum_j K_j, of W V the row's weight sum and of Q S the carried
// part of it; the kernel never sums a row on its own. Dv' is Dv, plus 16
// columns (one mma.sync pair) when normalized.
//
// Why sigma: mma.sync takes S in Q's type, and an f16 state overflows at
// 65504 where the f32 one does not (a long sequence's state sums N outer
// products). Each column of S_h is S's column divided by a power of two
// that puts its largest magnitude below 2^15 (exactly 1 until then, and
// exact: only the exponent changes), and the products are multiplied back
// on the f32 accumulators. S itself stays f32 in shared memory, updated by
// mma.sync on f32 accumulators, so the carried state loses nothing between
// chunks; only the Q S product sees S rounded to Q's type, as
// flash-linear-attention's kernels do.
//
//===----------------------------------------------------------------------===//

#include "Fragments.h"
#include "KernelSupport.h"

#include "Common/LinearAttention.h"
#include "Common/LoweringDriver.h"
#include "Common/TensorBuilders.h"
#include "Common/WarpMatmul.h"
#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/KernelModel.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FADISTRIBUTELINEARATTENTION
#include "fa/Transforms/GPUKernel/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::gpu_kernel;

namespace {

/// The largest magnitude a column of S_h may have: below f16's 65504 with
/// room for the rounding of the division's result.
constexpr int64_t kStateExponentLimit = 14;

/// Warps of a block: four, each taking 16-row tiles of the chunk's queries
/// and 16-column slabs of the state.
constexpr int64_t kLinearKernelWarps = 4;

struct LinearKernel : TileCopier {
  LinearAttentionOp op;
  int64_t chunk, headDim, valueDim, stateWidth;
  bool causal, normalized;
  Type elementType, f32;
  // K and V are TileCopier's `key` and `value`.
  Value query, decay, output;
  Value queryLen, keyLen, groupSize, scale, epsilon;
  /// Per block: the decay gamma[h] (null without one) and the tiles.
  Value gamma;
  Value querySmem, keySmem, valueSmem, decayedKeySmem, stateSmem,
      roundedStateSmem, sigmaSmem;

  LinearKernel(LinearAttentionOp op, OpBuilder &b)
      : TileCopier(b, op.getLoc(), kLinearKernelWarps * gpu_kernel::kWarpSize),
        op(op) {
    chunk = op.getChunkAttr().getInt();
    headDim = op.getQuery().getType().getDimSize(3);
    valueDim = op.getValue().getType().getDimSize(3);
    normalized = op.isNormalized();
    causal = op.getCausal();
    stateWidth = valueDim + (normalized ? kMmaK : 0);
    elementType = op.getQuery().getType().getElementType();
    f32 = b.getF32Type();
  }

  Value build();

private:
  Value sharedTile(int64_t rows, int64_t width, Type type) {
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    return memref::AllocOp::create(
        b, loc,
        MemRefType::get({rows, paddedWidth(width, type)}, type,
                        MemRefLayoutAttrInterface(), workgroup));
  }
  Value f32Value(double value) { return f32Constant(b, loc, value); }
  /// gamma^n for an index n (1 without a decay).
  Value power(Value n) {
    if (!gamma)
      return f32Value(1.0);
    return decayPower(b, loc, gamma, n);
  }
  Value zeroAccumulator() {
    return arith::ConstantOp::create(b, loc,
                                     b.getZeroAttr(accumulatorType(ctx)));
  }
  /// A loop over [begin, end) in steps of `step` whose body is built by
  /// `body` at the loop's insertion point.
  void forLoop(Value begin, Value end, Value step,
               function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b, loc, begin, end, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    body(loop.getInductionVar());
  }
  /// Items 0 .. count - 1 dealt to the warps: warp w takes w, w + warps,
  /// ... in rounds unrolled here, so that the warp collectives inside stay
  /// directly in the thread loop or its chunk loop (where the CPU model
  /// runs them); a round that not every warp takes is a branch on
  /// `thread < 32 k`, which whole warps take.
  void forWarpItems(int64_t count, Value thread, Value warp,
                    function_ref<void(Value)> body) {
    for (int64_t round = 0; round * kLinearKernelWarps < count; ++round) {
      IndexMath math{b, loc};
      Value item = math.addConstant(warp, round * kLinearKernelWarps);
      int64_t taking =
          std::min(kLinearKernelWarps, count - round * kLinearKernelWarps);
      if (taking == kLinearKernelWarps) {
        body(item);
        continue;
      }
      ifThen(math.lt(thread, math.constant(taking * gpu_kernel::kWarpSize)),
             [&] { body(item); });
    }
  }
  void ifThen(Value condition, function_ref<void()> body) {
    auto branch = scf::IfOp::create(b, loc, condition,
                                    /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(branch.thenBlock()->getTerminator());
    body();
  }

  void zeroState(Value thread);
  void copyChunk(Value batch, Value head, Value keyHead, Value row0,
                 Value thread, bool queries, bool keysAndValues);
  void decayKeys(Value thread);
  void chunkOutputs(const Lane &lane, Value thread, Value warp, Value batch,
                    Value head, Value row0, bool withWeights);
  SmallVector<Value> carriedProduct(const Lane &lane, Value tileRow0);
  void updateState(const Lane &lane, Value thread, Value warp, bool lastDecay);

  /// ldmatrix.x4 of an A fragment (16 rows of the product from
  /// `rowBase`, 16 of the contraction from `k0`) whose rows are the
  /// shared tile's rows.
  Value aFragment(const Lane &lane, Value tile, Value rowBase, Value k0,
                  int64_t width) {
    IndexMath math{b, loc};
    Value row = math.add(rowBase, lane.row16);
    Value column = math.add(k0, lane.upper8);
    return ldmatrix(tile, Value(), row, column, width, elementType, false);
  }
  /// ldmatrix.x4.trans of an A fragment whose rows are the shared tile's
  /// columns (A = T^T for a tile T [k][m]): matrices (k 0-7, m 0-7),
  /// (k 0-7, m 8-15), (k 8-15, m 0-7), (k 8-15, m 8-15) are a0 .. a3.
  Value transposedAFragment(const Lane &lane, Value tile, Value m0, Value k0,
                            int64_t width) {
    IndexMath math{b, loc};
    Value row = math.add(math.add(k0, lane.row8), lane.upper8);
    Value column = math.add(m0, lane.odd8);
    return ldmatrix(tile, Value(), row, column, width, elementType, true);
  }
  /// ldmatrix.x4 of the B fragments of 8-column tiles n / 8 and n / 8 + 1
  /// of B = T^T for a tile T whose rows are B's columns (T [n][k]).
  Value bPairByRows(const Lane &lane, Value tile, int64_t n, Value k0,
                    int64_t width) {
    IndexMath math{b, loc};
    Value row = math.add(math.addConstant(lane.row8, n), lane.upper8);
    Value column = math.add(k0, lane.odd8);
    return ldmatrix(tile, Value(), row, column, width, elementType, false);
  }
  /// ldmatrix.x4.trans of the B fragments of columns [c, c + 16) of a tile
  /// whose rows are the contraction (T [k][n]).
  Value bPairByColumns(const Lane &lane, Value tile, Value k0, Value c,
                       int64_t width) {
    IndexMath math{b, loc};
    Value row = math.add(math.add(k0, lane.row8), lane.odd8);
    Value column = math.add(lane.upper8, c);
    return ldmatrix(tile, Value(), row, column, width, elementType, true);
  }
};

Value LinearKernel::build() {
  IndexMath math{b, loc};
  registerFragments = false; // padded rows: columns are plain indices
  query = readOnlyBuffer(b, loc, op.getQuery());
  key = readOnlyBuffer(b, loc, op.getKey());
  value = readOnlyBuffer(b, loc, op.getValue());
  if (op.getDecay())
    decay = readOnlyBuffer(b, loc, op.getDecay());
  Value batchSize = math.dim(query, 0), queryHeads = math.dim(query, 1);
  queryLen = math.dim(query, 2);
  keyLen = math.dim(key, 2);
  groupSize = math.divU(queryHeads, math.dim(key, 1));
  scale = f32Value(op.getScale().convertToDouble());
  if (normalized)
    epsilon = f32Value(op.getEpsilonAttr().getValueAsDouble());

  auto outputType = cast<RankedTensorType>(op.getOutput().getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0; dim < outputType.getRank(); ++dim)
    if (outputType.isDynamicDim(dim))
      dynamicSizes.push_back(math.dim(query, dim));
  output = memref::AllocOp::create(
      b, loc,
      MemRefType::get(outputType.getShape(), outputType.getElementType()),
      dynamicSizes);

  scf::ForallOp grid = createBlockGrid(
      b, loc, {batchSize, queryHeads, math.constant(1)}, ValueRange{});
  OpBuilder::InsertionGuard gridGuard(b);
  b.setInsertionPointToStart(grid.getBody());
  Value batch = grid.getInductionVar(0), head = grid.getInductionVar(1);
  Value keyHead = math.divU(head, groupSize);
  if (decay)
    gamma = memref::LoadOp::create(b, loc, decay, ValueRange{head});
  querySmem = sharedTile(chunk, headDim, elementType);
  keySmem = sharedTile(chunk, headDim, elementType);
  valueSmem = sharedTile(chunk, stateWidth, elementType);
  if (gamma)
    decayedKeySmem = sharedTile(chunk, headDim, elementType);
  stateSmem = sharedTile(headDim, stateWidth, f32);
  roundedStateSmem = sharedTile(headDim, stateWidth, elementType);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  sigmaSmem = memref::AllocOp::create(
      b, loc,
      MemRefType::get({stateWidth}, f32, MemRefLayoutAttrInterface(),
                      workgroup));

  auto threadLoop = createThreadLoop(b, loc, threads);
  b.setInsertionPointToStart(threadLoop.getBody());
  Value thread = threadLoop.getInductionVar(0);
  IndexMath tm{b, loc};
  Lane lane = laneOf(tm, thread, kMmaM);
  Value warp = tm.divU(thread, tm.constant(gpu_kernel::kWarpSize));
  zeroState(thread);
  Value zero = tm.constant(0), step = tm.constant(chunk);
  if (causal) {
    forLoop(zero, queryLen, step, [&](Value row0) {
      gpu::BarrierOp::create(b, loc);
      copyChunk(batch, head, keyHead, row0, thread, /*queries=*/true,
                /*keysAndValues=*/true);
      gpu::BarrierOp::create(b, loc);
      if (gamma)
        decayKeys(thread);
      chunkOutputs(lane, thread, warp, batch, head, row0, /*withWeights=*/true);
      // Every warp has read S_h before it is overwritten. (The last
      // chunk's update is not needed, but a branch on the chunk would put
      // the warp collectives where the CPU model cannot run them.)
      gpu::BarrierOp::create(b, loc);
      updateState(lane, thread, warp, /*lastDecay=*/true);
    });
  } else {
    forLoop(zero, keyLen, step, [&](Value row0) {
      gpu::BarrierOp::create(b, loc);
      copyChunk(batch, head, keyHead, row0, thread, /*queries=*/false,
                /*keysAndValues=*/true);
      gpu::BarrierOp::create(b, loc);
      updateState(lane, thread, warp, /*lastDecay=*/false);
    });
    forLoop(zero, queryLen, step, [&](Value row0) {
      gpu::BarrierOp::create(b, loc);
      copyChunk(batch, head, keyHead, row0, thread, /*queries=*/true,
                /*keysAndValues=*/false);
      gpu::BarrierOp::create(b, loc);
      chunkOutputs(lane, thread, warp, batch, head, row0,
                   /*withWeights=*/false);
    });
  }
  b.setInsertionPointAfter(grid);
  return bufferization::ToTensorOp::create(b, loc, outputType, output,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

/// S = 0, S_h = 0, sigma = 1: thread t writes elements t, t + threads, ...
void LinearKernel::zeroState(Value thread) {
  IndexMath math{b, loc};
  Value elements = math.constant(headDim * stateWidth);
  Value width = math.constant(stateWidth);
  Value zero = f32Value(0.0);
  Value roundedZero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  forLoop(thread, elements, math.constant(threads), [&](Value index) {
    IndexMath lm{b, loc};
    Value row = lm.divU(index, width), column = lm.remU(index, width);
    memref::StoreOp::create(b, loc, zero, stateSmem, ValueRange{row, column});
    memref::StoreOp::create(b, loc, roundedZero, roundedStateSmem,
                            ValueRange{row, column});
  });
  forLoop(thread, width, math.constant(threads), [&](Value column) {
    memref::StoreOp::create(b, loc, f32Value(1.0), sigmaSmem,
                            ValueRange{column});
  });
}

/// The chunk's rows of Q (`queries`) and of K and V (`keysAndValues`) into
/// their tiles, zero past the sequence; with normalize, V's column Dv is 1
/// (0 past the sequence) and the 15 after it 0.
void LinearKernel::copyChunk(Value batch, Value head, Value keyHead, Value row0,
                             Value thread, bool queries, bool keysAndValues) {
  IndexMath math{b, loc};
  if (queries) {
    Value valid = math.min(math.sub(queryLen, row0), math.constant(chunk));
    copyTile(query, batch, head, row0, valid, chunk, headDim, querySmem,
             Value(), thread);
  }
  if (!keysAndValues)
    return;
  Value valid = math.min(math.sub(keyLen, row0), math.constant(chunk));
  copyTile(key, batch, keyHead, row0, valid, chunk, headDim, keySmem, Value(),
           thread);
  copyTile(value, batch, keyHead, row0, valid, chunk, valueDim, valueSmem,
           Value(), thread);
  if (!normalized)
    return;
  Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, 1));
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  ifThen(math.lt(thread, math.constant(chunk)), [&] {
    IndexMath tm{b, loc};
    Value first =
        arith::SelectOp::create(b, loc, tm.lt(thread, valid), one, zero);
    for (int64_t c = 0; c < kMmaK; ++c)
      memref::StoreOp::create(b, loc, c == 0 ? first : zero, valueSmem,
                              ValueRange{thread, tm.constant(valueDim + c)});
  });
}

/// K~_j = gamma^(C - 1 - j) K_j, rounded to K's type: the keys as the state
/// update weighs them (the chunk's last key by 1).
void LinearKernel::decayKeys(Value thread) {
  IndexMath math{b, loc};
  Value width = math.constant(headDim);
  forLoop(thread, math.constant(chunk * headDim), math.constant(threads),
          [&](Value index) {
            IndexMath lm{b, loc};
            Value row = lm.divU(index, width), column = lm.remU(index, width);
            Value k = memref::LoadOp::create(b, loc, keySmem,
                                             ValueRange{row, column});
            Value weight = power(lm.sub(lm.constant(chunk - 1), row));
            Value weighted = arith::MulFOp::create(
                b, loc, arith::ExtFOp::create(b, loc, f32, k), weight);
            memref::StoreOp::create(
                b, loc, arith::TruncFOp::create(b, loc, elementType, weighted),
                decayedKeySmem, ValueRange{row, column});
          });
}

/// (Q S_h) of 16 chunk rows from `tileRow0`, sigma multiplied back: one f32
/// accumulator per 8 columns of the state.
SmallVector<Value> LinearKernel::carriedProduct(const Lane &lane,
                                                Value tileRow0) {
  IndexMath math{b, loc};
  int64_t tiles = stateWidth / kMmaN;
  SmallVector<Value> acc(tiles, zeroAccumulator());
  for (int64_t k = 0; k < headDim; k += kMmaK) {
    Value k0 = math.constant(k);
    Value a = aFragment(lane, querySmem, tileRow0, k0, headDim);
    SmallVector<Value> pairs;
    for (int64_t c = 0; c < stateWidth; c += 2 * kMmaN)
      pairs.push_back(bPairByColumns(lane, roundedStateSmem, k0,
                                     math.constant(c), stateWidth));
    multiplyFragments(b, loc, {a}, pairs, acc);
  }
  Value pairColumn = math.mul(lane.quad, math.constant(2));
  auto pairType = VectorType::get({2}, f32);
  for (int64_t n = 0; n < tiles; ++n) {
    Value column = math.addConstant(pairColumn, n * kMmaN);
    Value sigma =
        vector::LoadOp::create(b, loc, pairType, sigmaSmem, ValueRange{column});
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t j = 0; j < 2; ++j) {
        Value element = extractElement(b, loc, acc[n], r, j);
        Value factor =
            vector::ExtractOp::create(b, loc, sigma, ArrayRef<int64_t>{j});
        acc[n] = insertElement(b, loc,
                               arith::MulFOp::create(b, loc, element, factor),
                               acc[n], r, j);
      }
  }
  return acc;
}

/// The outputs of the chunk's query rows from `row0`: warp w takes the
/// 16-row tiles w, w + warps, ... of the chunk (forWarpItems).
void LinearKernel::chunkOutputs(const Lane &lane, Value thread, Value warp,
                                Value batch, Value head, Value row0,
                                bool withWeights) {
  int64_t stateTiles = stateWidth / kMmaN;
  forWarpItems(chunk / kMmaM, thread, warp, [&](Value tile) {
    IndexMath lm{b, loc};
    Value tileRow0 = lm.mul(tile, lm.constant(kMmaM));
    SmallVector<Value> acc = carriedProduct(lane, tileRow0);
    // Local rows (within the chunk) of the lane's fragment rows.
    Value rows[2] = {lm.add(tileRow0, lane.group),
                     lm.addConstant(lm.add(tileRow0, lane.group), 8)};
    // The carried part is scale gamma^(i - c0 + 1) (Q S)_i; without a
    // chunk walk (not causal) it is scale (Q S)_i.
    Value factors[2];
    for (int64_t r = 0; r < 2; ++r)
      factors[r] = withWeights && gamma
                       ? arith::MulFOp::create(
                             b, loc, scale, power(lm.addConstant(rows[r], 1)))
                       : scale;
    for (int64_t n = 0; n < stateTiles; ++n)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t j = 0; j < 2; ++j)
          acc[n] = insertElement(
              b, loc,
              arith::MulFOp::create(
                  b, loc, extractElement(b, loc, acc[n], r, j), factors[r]),
              acc[n], r, j);

    if (withWeights) {
      // W = scale Q K^T, [j <= i] gamma^(i - j), on f32 fragments.
      int64_t keyTiles = chunk / kMmaN;
      SmallVector<Value> weights(keyTiles, zeroAccumulator());
      for (int64_t k = 0; k < headDim; k += kMmaK) {
        Value k0 = lm.constant(k);
        Value a = aFragment(lane, querySmem, tileRow0, k0, headDim);
        SmallVector<Value> pairs;
        for (int64_t n = 0; n < chunk; n += 2 * kMmaN)
          pairs.push_back(bPairByRows(lane, keySmem, n, k0, headDim));
        multiplyFragments(b, loc, {a}, pairs, weights);
      }
      Value pairColumn = lm.mul(lane.quad, lm.constant(2));
      SmallVector<Value> rounded;
      for (int64_t n = 0; n < keyTiles; ++n)
        for (int64_t r = 0; r < 2; ++r) {
          auto pairType = VectorType::get({2}, f32);
          Value pair =
              arith::ConstantOp::create(b, loc, b.getZeroAttr(pairType));
          for (int64_t j = 0; j < 2; ++j) {
            Value col = lm.addConstant(pairColumn, n * kMmaN + j);
            Value scaled = arith::MulFOp::create(
                b, loc, extractElement(b, loc, weights[n], r, j), scale);
            Value weight = causalWeight(b, loc, scaled, gamma, rows[r], col);
            pair = vector::InsertOp::create(b, loc, weight, pair,
                                            ArrayRef<int64_t>{j});
          }
          // One cvt.rn.f16x2.f32 (.bf16x2): the A operand's register.
          rounded.push_back(arith::TruncFOp::create(
              b, loc, pairType.clone(elementType), pair));
        }
      // O += W V: W's fragments are A's registers (tiles 2s, 2s + 1 give
      // the 16 keys of step s), V through ldmatrix.trans.
      for (int64_t s = 0; s < chunk / kMmaK; ++s) {
        Value fragment = arith::ConstantOp::create(
            b, loc, b.getZeroAttr(aFragmentType(elementType)));
        for (int64_t reg = 0; reg < 4; ++reg) {
          int64_t n = 2 * s + reg / 2, r = reg % 2;
          fragment = vector::InsertOp::create(b, loc, rounded[n * 2 + r],
                                              fragment, ArrayRef<int64_t>{reg});
        }
        SmallVector<Value> pairs;
        for (int64_t c = 0; c < stateWidth; c += 2 * kMmaN)
          pairs.push_back(bPairByColumns(lane, valueSmem,
                                         lm.constant(s * kMmaK), lm.constant(c),
                                         stateWidth));
        multiplyFragments(b, loc, {fragment}, pairs, acc);
      }
    }

    // Normalize by column Dv (lanes with q = 0 hold it; the quad sums).
    Value denominators[2] = {Value(), Value()};
    if (normalized) {
      Value first = lm.eq(lane.quad, lm.constant(0));
      Value zero = f32Value(0.0);
      SmallVector<Value> mine;
      for (int64_t r = 0; r < 2; ++r)
        mine.push_back(arith::SelectOp::create(
            b, loc, first, extractElement(b, loc, acc[valueDim / kMmaN], r, 0),
            zero));
      SmallVector<Value> sums =
          combineOverQuad(b, loc, mine, arith::AtomicRMWKind::addf);
      for (int64_t r = 0; r < 2; ++r)
        denominators[r] = arith::AddFOp::create(b, loc, sums[r], epsilon);
    }

    // Store the rows inside the sequence, rounded to the output's type.
    Type outType = cast<MemRefType>(output.getType()).getElementType();
    auto outPair = VectorType::get({2}, outType);
    Value pairColumn = lm.mul(lane.quad, lm.constant(2));
    for (int64_t r = 0; r < 2; ++r) {
      Value row = lm.add(row0, rows[r]);
      ifThen(lm.lt(row, queryLen), [&] {
        IndexMath sm{b, loc};
        for (int64_t n = 0; n < valueDim / kMmaN; ++n) {
          Value pair =
              arith::ConstantOp::create(b, loc, b.getZeroAttr(outPair));
          for (int64_t j = 0; j < 2; ++j) {
            Value element = extractElement(b, loc, acc[n], r, j);
            if (denominators[r])
              element = arith::DivFOp::create(b, loc, element, denominators[r]);
            if (outType != f32)
              element = arith::TruncFOp::create(b, loc, outType, element);
            pair = vector::InsertOp::create(b, loc, element, pair,
                                            ArrayRef<int64_t>{j});
          }
          Value column = sm.addConstant(pairColumn, n * kMmaN);
          vector::StoreOp::create(b, loc, pair, output,
                                  ValueRange{batch, head, row, column})
              .setAlignment(2 * elementBytes(outType));
        }
      });
    }
  });
}

/// S = gamma^C S + K~^T V over the chunk (K itself without a decay, or
/// `lastDecay` false), then S_h and sigma. Warp w takes the 16-column
/// slabs w, w + warps, ... of S, all D rows of each, so that a column's
/// largest magnitude is the warp's own.
void LinearKernel::updateState(const Lane &lane, Value thread, Value warp,
                               bool lastDecay) {
  IndexMath math{b, loc};
  Value keys = gamma && lastDecay ? decayedKeySmem : keySmem;
  Value carried = gamma && lastDecay ? power(math.constant(chunk)) : Value();
  int64_t rowTiles = headDim / kMmaM;
  auto pairType = VectorType::get({2}, f32);
  forWarpItems(stateWidth / (2 * kMmaN), thread, warp, [&](Value slabIndex) {
    IndexMath lm{b, loc};
    Value slab = lm.mul(slabIndex, lm.constant(2 * kMmaN));
    Value pairColumn = lm.add(slab, lm.mul(lane.quad, lm.constant(2)));
    auto rowOf = [&](int64_t m, int64_t r) {
      return lm.addConstant(lane.group, m * kMmaM + 8 * r);
    };
    auto columnOf = [&](int64_t n) {
      return lm.addConstant(pairColumn, n * kMmaN);
    };
    // acc[m][n]: rows 16 m.., columns slab + 8 n.., from S (decayed).
    SmallVector<Value> acc;
    for (int64_t m = 0; m < rowTiles; ++m)
      for (int64_t n = 0; n < 2; ++n) {
        Value fragment = zeroAccumulator();
        for (int64_t r = 0; r < 2; ++r) {
          Value pair =
              vector::LoadOp::create(b, loc, pairType, stateSmem,
                                     ValueRange{rowOf(m, r), columnOf(n)});
          if (carried)
            pair = arith::MulFOp::create(
                b, loc, pair,
                vector::BroadcastOp::create(b, loc, pairType, carried));
          fragment = vector::InsertOp::create(b, loc, pair, fragment,
                                              ArrayRef<int64_t>{r});
        }
        acc.push_back(fragment);
      }
    for (int64_t k = 0; k < chunk; k += kMmaK) {
      Value k0 = lm.constant(k);
      Value bPair = bPairByColumns(lane, valueSmem, k0, slab, stateWidth);
      SmallVector<Value> aFragments;
      for (int64_t m = 0; m < rowTiles; ++m)
        aFragments.push_back(transposedAFragment(
            lane, keys, lm.constant(m * kMmaM), k0, headDim));
      multiplyFragments(b, loc, aFragments, {bPair}, acc);
    }
    // Each column's largest magnitude over the D rows: the lane's rows,
    // then the 8 lanes of the same quad position (lanes q, q + 4, ...).
    Value largest[2][2];
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t j = 0; j < 2; ++j) {
        Value m = f32Value(0.0);
        for (int64_t t = 0; t < rowTiles; ++t)
          for (int64_t r = 0; r < 2; ++r)
            m = arith::MaximumFOp::create(
                b, loc, m,
                math::AbsFOp::create(
                    b, loc, extractElement(b, loc, acc[t * 2 + n], r, j)));
        largest[n][j] = m;
      }
    for (int64_t distance = kQuad; distance < gpu_kernel::kWarpSize;
         distance *= 2) {
      Value offset =
          arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(distance));
      Value width = arith::ConstantOp::create(
          b, loc, b.getI32IntegerAttr(gpu_kernel::kWarpSize));
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t j = 0; j < 2; ++j) {
          Value theirs = gpu::ShuffleOp::create(b, loc, largest[n][j], offset,
                                                width, gpu::ShuffleMode::XOR)
                             .getShuffleResult();
          largest[n][j] =
              arith::MaximumFOp::create(b, loc, largest[n][j], theirs);
        }
    }
    // sigma = 2^max(0, e - 14) for the largest magnitude 2^e..2^(e+1), and
    // 1 / sigma, from the exponent bits: both exact powers of two.
    Type i32 = b.getI32Type();
    auto i32Constant = [&](int64_t v) {
      return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
    };
    Value sigma[2][2], inverse[2][2];
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t j = 0; j < 2; ++j) {
        Value bits = arith::BitcastOp::create(b, loc, i32, largest[n][j]);
        Value exponent = arith::AndIOp::create(
            b, loc, arith::ShRUIOp::create(b, loc, bits, i32Constant(23)),
            i32Constant(0xff));
        Value shifted = arith::MaxSIOp::create(
            b, loc,
            arith::SubIOp::create(b, loc, exponent,
                                  i32Constant(kStateExponentLimit)),
            i32Constant(127));
        sigma[n][j] = arith::BitcastOp::create(
            b, loc, f32,
            arith::ShLIOp::create(b, loc, shifted, i32Constant(23)));
        inverse[n][j] = arith::BitcastOp::create(
            b, loc, f32,
            arith::ShLIOp::create(
                b, loc,
                arith::SubIOp::create(b, loc, i32Constant(254), shifted),
                i32Constant(23)));
      }
    auto roundedPair = VectorType::get({2}, elementType);
    for (int64_t m = 0; m < rowTiles; ++m)
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t r = 0; r < 2; ++r) {
          Value exact = vector::ExtractOp::create(b, loc, acc[m * 2 + n],
                                                  ArrayRef<int64_t>{r});
          vector::StoreOp::create(b, loc, exact, stateSmem,
                                  ValueRange{rowOf(m, r), columnOf(n)});
          Value scaled =
              arith::ConstantOp::create(b, loc, b.getZeroAttr(pairType));
          for (int64_t j = 0; j < 2; ++j)
            scaled = vector::InsertOp::create(
                b, loc,
                arith::MulFOp::create(b, loc,
                                      vector::ExtractOp::create(
                                          b, loc, exact, ArrayRef<int64_t>{j}),
                                      inverse[n][j]),
                scaled, ArrayRef<int64_t>{j});
          vector::StoreOp::create(
              b, loc, arith::TruncFOp::create(b, loc, roundedPair, scaled),
              roundedStateSmem, ValueRange{rowOf(m, r), columnOf(n)});
        }
    // Lanes 0-3 (g = 0) write the slab's 16 sigmas.
    ifThen(lm.eq(lane.group, lm.constant(0)), [&] {
      for (int64_t n = 0; n < 2; ++n) {
        Value pair = arith::ConstantOp::create(b, loc, b.getZeroAttr(pairType));
        for (int64_t j = 0; j < 2; ++j)
          pair = vector::InsertOp::create(b, loc, sigma[n][j], pair,
                                          ArrayRef<int64_t>{j});
        vector::StoreOp::create(b, loc, pair, sigmaSmem,
                                ValueRange{columnOf(n)});
      }
    });
  });
}

/// Why the kernel cannot take `op`, or "" when it can.
std::string unsupportedReason(LinearAttentionOp op, bool tensorCores) {
  Type element = op.getQuery().getType().getElementType();
  Type keyElement = op.getKey().getType().getElementType();
  Type valueElement = op.getValue().getType().getElementType();
  if (!tensorCores)
    return "needs mma.sync (sm_80 or later)";
  if (!isMmaSyncOperandTypes(element, keyElement, valueElement))
    return "needs f16 or bf16 Q, K and V of one type (mma.sync)";
  int64_t headDim = op.getQuery().getType().getDimSize(3);
  int64_t valueDim = op.getValue().getType().getDimSize(3);
  if (ShapedType::isDynamic(headDim) || headDim % kMmaK != 0 ||
      ShapedType::isDynamic(valueDim) || valueDim % kMmaK != 0)
    return "needs D and Dv to be static multiples of 16";
  if (ShapedType::isDynamic(op.getGroupSize()))
    return "needs static head counts (Hq / Hkv)";
  IntegerAttr chunk = op.getChunkAttr();
  if (!chunk)
    return "needs a chunk (fa-select-tiles chooses one for the target)";
  if (chunk.getInt() % kMmaM != 0)
    return "needs a chunk that is a multiple of 16, got " +
           std::to_string(chunk.getInt());
  return "";
}

struct FADistributeLinearAttentionPass
    : fa::impl::FADistributeLinearAttentionBase<
          FADistributeLinearAttentionPass> {
  using FADistributeLinearAttentionBase::FADistributeLinearAttentionBase;

  void runOnOperation() override {
    KernelOptions options;
    options.tensorCores = tensorCores;
    if (failed(lowerEach<LinearAttentionOp>(
            getOperation(), [&](RewriterBase &rewriter, LinearAttentionOp op) {
              if (!requireKernel &&
                  !whyNoLinearAttentionKernel(op, options).empty())
                return success();
              return success(
                  succeeded(distributeLinearAttention(rewriter, op, options)));
            })))
      signalPassFailure();
  }
};

} // namespace

std::string mlir::fa::whyNoLinearAttentionKernel(LinearAttentionOp op,
                                                 const KernelOptions &options) {
  return unsupportedReason(op, options.tensorCores);
}

FailureOr<Value>
mlir::fa::distributeLinearAttention(RewriterBase &rewriter,
                                    LinearAttentionOp op,
                                    const KernelOptions &options) {
  std::string reason = unsupportedReason(op, options.tensorCores);
  if (!reason.empty()) {
    op.emitOpError() << "has no GPU kernel here: the linear attention kernel "
                     << reason
                     << "; fa-cpu-pipeline lowers it on the host "
                        "(fa-lower-linear-attention)";
    return failure();
  }
  LinearKernel kernel(op, rewriter);
  Value result = kernel.build();
  rewriter.replaceOp(op, result);
  return result;
}
