//===- FMAKernel.cpp - the forward kernel's per-thread FMA variant -------===//
//
// The variant of fa-distribute-attention's kernel (KernelVariant) for
// operands without tensor cores (f32, or targets before sm_80): thread t owns
// query row t of the block and computes its scores and P V with f32 FMAs,
// `keyChunk` keys at a time. K and V rows are read by all threads of a warp
// at the same address (a broadcast); Q_s rows are read 16 bytes at a time
// at a stride of D * e + 16 bytes, which puts the 8 threads of each
// quarter-warp on distinct banks. The state is the row's running max, sum
// and f32 accumulator, all in registers.
//
// K and V are read together, chunk by chunk, so the variant does all of a
// key block in fold() and cannot take FlashAttention-2's copy order (which
// refills K_s between scores and fold).
//
//===----------------------------------------------------------------------===//

#include "Common/TensorBuilders.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <limits>

namespace mlir::fa::gpu_kernel {

namespace {

/// The FMA kernel (no tensor cores): a thread per query row, its scores,
/// max and sum in registers, f32 FMAs over the shared K and V tiles.
class FMAVariant final : public KernelVariant {
public:
  using KernelVariant::KernelVariant;

  SmallVector<Value> initState() override { return kernel.rowInitState(); }
  SmallVector<Value> scores(const KeyBlockAt &) override { return {}; }
  SmallVector<Value> fold(const KeyBlockAt &at, ArrayRef<Value>,
                          ValueRange state) override {
    // Threads past the block's rows only help with the copies.
    return kernel.forRowOwner(
        self.ownsRow,
        [&] {
          return computeKeyBlock(self.thread, self.row, block.batch, block.head,
                                 at.col0, at.stage, tiles.query, tiles.key,
                                 tiles.value, state);
        },
        state);
  }
  void finish(ValueRange state) override {
    kernel.storeRowResults(block, self, state, /*halves=*/false);
  }

private:
  /// (m, l, acc slices...) after one key block.
  SmallVector<Value> computeKeyBlock(Value thread, Value row, Value batch,
                                     Value head, Value col0, Value stage,
                                     Value querySmem, Value keySmem,
                                     Value valueSmem, ValueRange state);
};

} // namespace

std::unique_ptr<KernelVariant>
makeFMAVariant(KernelBuilder &kernel, const KernelBuilder::QueryBlock &block,
               const KernelBuilder::SharedTiles &tiles,
               const KernelBuilder::ThreadRow &self) {
  return std::make_unique<FMAVariant>(kernel, block, tiles, self);
}

/// The online softmax of query row `row` (thread `thread`) over one key
/// block, `keyChunk` keys at a time: the scores of a chunk stay in
/// registers, the running max and sum are scalars, the accumulator a vector.
SmallVector<Value>
FMAVariant::computeKeyBlock(Value thread, Value row, Value batch, Value head,
                            Value col0, Value stage, Value querySmem,
                            Value keySmem, Value valueSmem, ValueRange state) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  int64_t qkChunk =
      std::min(chunkElements(kernel.headDim, kernel.queryElementType),
               chunkElements(kernel.headDim, kernel.keyElementType));
  auto scoresType = VectorType::get({kernel.plan.keyChunk}, kernel.f32);
  Value chunkStep = math.constant(kernel.plan.keyChunk);
  Value chunkEnd = math.constant(kernel.plan.tiling.blockKV);
  Value chunkStart = math.constant(0);
  auto chunks = scf::ForOp::create(
      b, loc, chunkStart, chunkEnd, chunkStep, state,
      [&](OpBuilder &lb, Location lloc, Value c0, ValueRange running) {
        OpBuilder::InsertionGuard loopGuard(b);
        b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
        IndexMath lm{b, lloc};
        // raw[j] = Q[row] . K[c0 + j], 16 bytes of the head dim per step.
        Value zeroScores = arith::ConstantOp::create(
            b, lloc, DenseElementsAttr::get(scoresType, 0.0f));
        Value dotStep = lm.constant(qkChunk);
        Value dotEnd = lm.constant(kernel.headDim);
        Value dotStart = lm.constant(0);
        auto dot = scf::ForOp::create(
            b, lloc, dotStart, dotEnd, dotStep, ValueRange{zeroScores},
            [&](OpBuilder &db, Location dloc, Value d, ValueRange partial) {
              OpBuilder::InsertionGuard dotGuard(b);
              b.setInsertionPoint(db.getInsertionBlock(),
                                  db.getInsertionPoint());
              IndexMath dm{b, dloc};
              Value q = extendToF32(
                  b, dloc,
                  loadVector(
                      b, dloc,
                      VectorType::get({qkChunk}, kernel.queryElementType),
                      querySmem, ValueRange{thread, d}));
              Value scores = partial[0];
              for (int64_t j = 0; j < kernel.plan.keyChunk; ++j) {
                Value keyRow = dm.addConstant(c0, j);
                Value k = extendToF32(
                    b, dloc,
                    loadVector(
                        b, dloc,
                        VectorType::get({qkChunk}, kernel.keyElementType),
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
        for (int64_t j = 0; j < kernel.plan.keyChunk; ++j) {
          Value rawJ = vector::ExtractOp::create(b, lloc, raw, j);
          Value col = lm.addConstant(chunkCol0, j);
          Value s = kernel.scoreOf(rawJ, batch, head, row, col);
          scores = vector::InsertOp::create(b, lloc, s, scores, j);
        }
        Value oldMax = running[0], oldSum = running[1];
        Value newMax = vector::ReductionOp::create(
            b, lloc, vector::CombiningKind::MAXIMUMF, scores, oldMax);
        Value negatedShift = kernel.exponent.negatedShift(b, lloc, newMax);
        // alpha = 2^(m c - m' c) rescales what was summed under the old max.
        Value alpha = kernel.exponent.rescale(b, lloc, oldMax, negatedShift);
        Value probs =
            kernel.exponent.probability(b, lloc, scores, negatedShift);
        Value newSum = vector::ReductionOp::create(
            b, lloc, vector::CombiningKind::ADD, probs,
            contractingMul(b, lloc, alpha, oldSum));
        int64_t slice = kernel.accumulatorSlice();
        auto sliceType = VectorType::get({slice}, kernel.f32);
        Value alphas = vector::BroadcastOp::create(b, lloc, sliceType, alpha);
        SmallVector<Value> acc;
        for (Value part : running.drop_front(2))
          acc.push_back(contractingMul(b, lloc, part, alphas));
        // acc += p_j * V[j], p_j rounded to V's type first (as the tiled
        // lowering and FlashAttention-2's second MMA do).
        for (int64_t j = 0; j < kernel.plan.keyChunk; ++j) {
          Value p = vector::ExtractOp::create(b, lloc, probs, j);
          if (!kernel.valueElementType.isF32())
            p = castToF32(
                b, lloc,
                arith::TruncFOp::create(b, lloc, kernel.valueElementType, p));
          Value keyRow = lm.addConstant(c0, j);
          // 16 bytes of V's row at a time: only a slice of the row is live.
          Value ps = vector::BroadcastOp::create(b, lloc, sliceType, p);
          for (int64_t index = 0; index < kernel.accumulatorSlices(); ++index) {
            Value column = lm.constant(index * slice);
            Value v = extendToF32(
                b, lloc,
                loadVector(b, lloc,
                           VectorType::get({slice}, kernel.valueElementType),
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
