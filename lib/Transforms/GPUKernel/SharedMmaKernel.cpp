//===- SharedMmaKernel.cpp - mma.sync through shared S and P tiles -------===//
//
// The variant of fa-distribute-attention's kernel (KernelVariant) for f16
// and bf16 operands on sm_80 and later without register fragments: the two
// matmuls are warp-level. Per key block:
//
//   scores:  each warp multiplies its 16-row tiles of Q_s with K_s
//            (vector.contract on 16x16 and 8x16 shared tiles, which
//            fa-warp-matmuls-to-nvgpu turns into ldmatrix and mma.sync)
//            into the f32 `results` tile in shared memory; barrier
//   fold:    thread t turns row t of `results` into probabilities in
//            `probs` (rounded to V's type); barrier; the warps compute
//            P V into `results`; barrier; thread t folds row t into its
//            accumulator
//
// Every phase reads what the previous one wrote in other warps' rows, hence
// a barrier after each; the last one also frees K_s and V_s for the next
// copies. With block_q = 16 * warps, two threads share a row (rowSplit) and
// combine its max and sum with one warp shuffle.
//
//===----------------------------------------------------------------------===//

#include "Common/TensorBuilders.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

namespace mlir::fa::gpu_kernel {

namespace {

/// The shared-memory tensor-core kernel (KernelPlan::tensorCores without
/// register fragments): per key block, the warps compute S = Q K^T into
/// `results`, thread t turns row t into probabilities in `probs`, the warps
/// compute P V into `results`, thread t folds row t into its accumulator.
class SharedMmaVariant final : public KernelVariant {
public:
  using KernelVariant::KernelVariant;

  SmallVector<Value> initState() override { return kernel.rowInitState(); }
  SmallVector<Value> scores(const KeyBlockAt &at) override {
    warpScores(self.thread, at.stage, tiles.query, tiles.key, tiles.results);
    gpu::BarrierOp::create(kernel.b, at.loc);
    return {};
  }
  SmallVector<Value> fold(const KeyBlockAt &at, ArrayRef<Value>,
                          ValueRange state) override {
    OpBuilder &b = kernel.b;
    Value one = f32Constant(b, at.loc, 1);
    SmallVector<Value> softmax = kernel.forRowOwner(
        self.ownsRow,
        [&] {
          return softmaxRow(self.thread, self.row, block.batch, block.head,
                            at.col0, tiles.results, tiles.probs, state[0],
                            state[1]);
        },
        {state[0], state[1], one});
    gpu::BarrierOp::create(b, at.loc);
    warpProbsTimesValues(self.thread, at.stage, tiles.probs, tiles.value,
                         tiles.results);
    gpu::BarrierOp::create(b, at.loc);
    SmallVector<Value> accumulated = kernel.forRowOwner(
        self.ownsRow,
        [&] {
          return accumulateRow(self.thread, softmax[2], tiles.results,
                               state.drop_front(2));
        },
        state.drop_front(2));
    SmallVector<Value> next = {softmax[0], softmax[1]};
    next.append(accumulated);
    return next;
  }
  void finish(ValueRange state) override {
    kernel.storeRowResults(block, self, state, /*halves=*/true);
  }
  bool readsKeysOnlyInScores() const override { return true; }
  bool endsWithBarrier() const override { return true; }

private:
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
};

} // namespace

std::unique_ptr<KernelVariant>
makeSharedMmaVariant(KernelBuilder &kernel,
                     const KernelBuilder::QueryBlock &block,
                     const KernelBuilder::SharedTiles &tiles,
                     const KernelBuilder::ThreadRow &self) {
  return std::make_unique<SharedMmaVariant>(kernel, block, tiles, self);
}

Value SharedMmaVariant::warpTileRow(Value thread, int64_t tile) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  int64_t rowsPerWarp =
      kernel.plan.tiling.blockQ / (kernel.threads / kWarpSize);
  AffineExpr t = getAffineDimExpr(0, kernel.ctx);
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
void SharedMmaVariant::warpMatmulTiles(
    Value thread, Value lhs, int64_t k, int64_t n, Value rhs,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value)>
        rhsIndices,
    AffineMap rhsMap, Value results) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  int64_t tiles =
      kernel.plan.tiling.blockQ / (kernel.threads / kWarpSize) / kMmaM;
  Type lhsType = cast<MemRefType>(lhs.getType()).getElementType();
  Type rhsType = cast<MemRefType>(rhs.getType()).getElementType();
  auto aType = VectorType::get({kMmaM, kMmaK}, lhsType);
  auto bType = VectorType::get({kMmaN, kMmaK}, rhsType);
  auto cType = VectorType::get({kMmaM, kMmaN}, kernel.f32);
  Value zeroA = arith::ConstantOp::create(b, loc, b.getZeroAttr(lhsType));
  Value zeroB = arith::ConstantOp::create(b, loc, b.getZeroAttr(rhsType));
  Value zeroC = arith::ConstantOp::create(b, loc, b.getZeroAttr(cType));
  SmallVector<bool> inBounds = {true, true};
  Value zeroIndex = math.constant(0);
  for (int64_t tile = 0; tile < tiles; ++tile) {
    Value tileRow = warpTileRow(thread, tile);
    Value rowTile = affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(1, 0, getAffineDimExpr(0, kernel.ctx).floorDiv(kMmaM)),
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
              AffineMap::get(1, 0,
                             getAffineDimExpr(0, kernel.ctx).floorDiv(kMmaN)),
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
void SharedMmaVariant::warpScores(Value thread, Value stage, Value querySmem,
                                  Value keySmem, Value results) {
  AffineMap rows = AffineMap::get(
      3, 0, {getAffineDimExpr(1, kernel.ctx), getAffineDimExpr(2, kernel.ctx)},
      kernel.ctx);
  warpMatmulTiles(
      thread, querySmem, kernel.headDim, kernel.plan.tiling.blockKV, keySmem,
      [&](OpBuilder &, Location, Value key0, Value d0) {
        return SmallVector<Value>{stage, key0, d0};
      },
      rows, results);
}

/// results[warp rows][0, Dv) = probs[warp rows] V_s[stage]: V's tiles are
/// read transposed (8 value columns x 16 keys), which ldmatrix does with
/// .trans.
void SharedMmaVariant::warpProbsTimesValues(Value thread, Value stage,
                                            Value probs, Value valueSmem,
                                            Value results) {
  // (stage, key, column) -> (column, key).
  AffineMap transposed = AffineMap::get(
      3, 0, {getAffineDimExpr(2, kernel.ctx), getAffineDimExpr(1, kernel.ctx)},
      kernel.ctx);
  warpMatmulTiles(
      thread, probs, kernel.plan.tiling.blockKV, kernel.valueDim, valueSmem,
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
  AffineExpr r = t.floorDiv(plan.rowSplit);
  AffineExpr first = plan.rowSplit == 1
                         ? (t.floorDiv(4) + t.floorDiv(8)) % 2 * half
                         : t % 2 * half;
  assert(rowSplit <= 2 && "half orders are worked out for 1 or 2 threads");
  return {apply(r),
          apply(t % plan.rowSplit),
          apply(r.floorDiv(kMmaM)),
          apply(r % kMmaM),
          {apply(first), apply(half - first)}};
}

/// The sum (or max) of `value` over the rowSplit threads of a row: one
/// butterfly shuffle per halving, so every part ends with the same total.
Value SharedMmaVariant::combineRowParts(Value value,
                                        arith::AtomicRMWKind kind) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  for (int64_t distance = 1; distance < kernel.plan.rowSplit; distance *= 2) {
    Value offset =
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(distance));
    Value width =
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(kWarpSize));
    auto shuffle = gpu::ShuffleOp::create(b, loc, value, offset, width,
                                          gpu::ShuffleMode::XOR);
    value =
        arith::getReductionOp(kind, b, loc, value, shuffle.getShuffleResult());
  }
  return value;
}

SmallVector<Value> SharedMmaVariant::softmaxRow(Value thread, Value row,
                                                Value batch, Value head,
                                                Value col0, Value results,
                                                Value probs, Value oldMax,
                                                Value oldSum) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  // One 8-column chunk of the results tile per step, in two 16-byte halves
  // (resultHalves); P is stored as two 8-byte halves at the same columns.
  constexpr int64_t half = kMmaN / 2;
  auto halfType = VectorType::get({half}, kernel.f32);
  KernelBuilder::RowHalves at = kernel.resultHalves(thread);
  // Step i takes chunk i * rowSplit + part: its first key, relative to the
  // block, is c0 = 8 * chunk.
  auto chunkOf = [&](IndexMath &m, Value step) {
    return m.add(m.mul(step, m.constant(kernel.plan.rowSplit)), at.part);
  };
  auto resultIndices = [&](Value chunk, Value column) {
    return SmallVector<Value>{at.rowTile, chunk, at.rowInTile, column};
  };
  int64_t steps = kernel.plan.tiling.blockKV / kMmaN / kernel.plan.rowSplit;
  auto aligned = [](auto access, int64_t bytes) {
    access.setAlignment(bytes);
    return access;
  };
  // A loop over this thread's chunks of the row, carrying one f32.
  auto overRowChunks =
      [&](Value init,
          function_ref<Value(IndexMath &, Location, Value, Value, Value)>
              body) {
        Value one = math.constant(1);
        Value end = math.constant(steps);
        Value start = math.constant(0);
        auto loop = scf::ForOp::create(
            b, loc, start, end, one, ValueRange{init},
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
        Value s =
            kernel.scoreOf(raw, batch, head, row, lm.addConstant(firstKey, j));
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
  Value negatedShift = kernel.exponent.negatedShift(b, loc, newMax);
  // alpha = 2^(m c - m' c) rescales what was summed under the old max.
  Value alpha = kernel.exponent.rescale(b, loc, oldMax, negatedShift);
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
          Value p = kernel.exponent.probability(b, lloc, scores, negatedShift);
          sum = vector::ReductionOp::create(b, lloc, vector::CombiningKind::ADD,
                                            p, sum);
          Value rounded = arith::TruncFOp::create(
              b, lloc, halfType.clone(kernel.valueElementType), p);
          aligned(
              vector::StoreOp::create(b, lloc, rounded, probs,
                                      ValueRange{at.row, lm.add(c0, column)}),
              half * elementBytes(kernel.valueElementType));
        }
        return sum;
      });
  Value rowSum = combineRowParts(localSum, arith::AtomicRMWKind::addf);
  Value newSum =
      contractingAdd(b, loc, contractingMul(b, loc, alpha, oldSum), rowSum);
  return {newMax, newSum, alpha};
}

SmallVector<Value> SharedMmaVariant::accumulateRow(Value thread, Value alpha,
                                                   Value results,
                                                   ValueRange acc) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  // Slices are 8 columns (16 bytes of f16/bf16): one chunk of the results
  // tile, read as its two halves in the thread's order.
  constexpr int64_t half = kMmaN / 2;
  assert(accumulatorSlice() == kMmaN && "tensor-core slices are one chunk");
  auto halfType = VectorType::get({half}, kernel.f32);
  auto sliceType = VectorType::get({kMmaN}, kernel.f32);
  KernelBuilder::RowHalves at = kernel.resultHalves(thread);
  Value alphas = vector::BroadcastOp::create(b, loc, sliceType, alpha);
  SmallVector<Value> next;
  IndexMath math{b, loc};
  for (auto [index, part] : llvm::enumerate(acc)) {
    // Slice `index` of this thread is chunk index * rowSplit + part.
    Value chunk = math.add(
        math.constant(static_cast<int64_t>(index) * kernel.plan.rowSplit),
        at.part);
    SmallVector<Value, 2> halves;
    for (Value column : at.halves) {
      auto load = vector::LoadOp::create(
          b, loc, halfType, results,
          ValueRange{at.rowTile, chunk, at.rowInTile, column});
      load.setAlignment(kChunkBytes);
      halves.push_back(load);
    }
    Value slice =
        vector::ShuffleOp::create(b, loc, halves[0], halves[1],
                                  ArrayRef<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
    next.push_back(vector::FMAOp::create(b, loc, part, alphas, slice));
  }
  return next;
}

} // namespace mlir::fa::gpu_kernel
