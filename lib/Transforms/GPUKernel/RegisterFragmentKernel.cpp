//===- RegisterFragmentKernel.cpp - S and P in mma.sync fragments --------===//
//
// FlashAttention-2's key block, as fa-distribute-attention writes it for f16
// and bf16 on sm_80 and later (register-fragments). Only Q, K and V are in
// shared memory; each warp's scores, probabilities and output stay in the
// registers that mma.sync m16n8k16 reads and writes:
//
//   warp w, rows [w R, (w + 1) R) of the block (R = block_q / warps):
//     S[i][n] = sum over D / 16 steps of mma(ldmatrix.x4 Q_s, ldmatrix.x4 K_s)
//     s = scale S (+ mask)                 on the accumulator elements
//     m' = max(m, row max)                 per lane, then shfl.bfly 1 and 2
//     p = e^(s - m'),  l = e^(m - m') l + sum p  (the quad's parts of l)
//     O[i][c] *= e^(m - m')
//     O[i][c] += sum over Bc / 16 steps of
//                mma(P fragments, ldmatrix.x4.trans V_s)
//   end: l summed over the quad (shfl.bfly 1 and 2), O / l stored from the
//   fragments, logsumexp = m + log l.
//
// Lane l (g = l / 4, q = l % 4) holds rows g and g + 8 of each 16-row
// fragment, columns 2q and 2q + 1 of each 8-column one: the four lanes of
// a quad share a row, so a row's max and sum are four partial values
// combined by two butterfly shuffles. The accumulator fragments of S for
// key columns 16j .. 16j + 15, rounded to V's type, are exactly the A
// operand of P V for key step j (no data crosses lanes): A's registers
// (row g, keys 0-7), (row g + 8, keys 0-7), (row g, keys 8-15),
// (row g + 8, keys 8-15) are S tile 2j's registers 0 and 1, then tile
// 2j + 1's.
//
// Shared tiles are unpadded; each row's 16-byte chunks are XOR-swizzled
// (sharedColumn) so that the 8 row addresses of an ldmatrix matrix, and the
// 8 chunks a quarter-warp copies, fall on distinct banks.
//
// The running sum l stays a per-lane partial sum until the end: alpha is
// the same in the four lanes of a quad (they share m), so the quad's sum of
// alpha l + partial sums is the row's l, as in FlashAttention-2.
//
//===----------------------------------------------------------------------===//

#include "Common/TensorBuilders.h"
#include "Fragments.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include <limits>

namespace mlir::fa::gpu_kernel {

namespace {

/// Fragment rows (of 16) per warp.
int64_t rowTiles(const KernelBuilder &kernel) {
  return kernel.plan.tiling.blockQ / (kernel.threads / kWarpSize) / kMmaM;
}

} // namespace

namespace {

/// The register-fragment kernel (KernelPlan::registerFragments): warp w
/// owns rows [w R, (w + 1) R) of the block, R = block_q / warps, as R / 16
/// fragment rows of 16; S, P and O live in mma.sync fragments.
class RegisterFragmentVariant final : public KernelVariant {
public:
  using KernelVariant::KernelVariant;

  SmallVector<Value> initState() override {
    return fragmentInitState(self.thread);
  }
  SmallVector<Value> scores(const KeyBlockAt &at) override {
    return fragmentScores(self.thread, at.stage, tiles.query, tiles.key);
  }
  SmallVector<Value> fold(const KeyBlockAt &at, ArrayRef<Value> scores,
                          ValueRange state) override {
    return fragmentSoftmaxAndValues(self.thread, block.batch, block.head,
                                    block.row0, at.col0, at.stage, tiles.value,
                                    scores, state);
  }
  void finish(ValueRange state) override {
    fragmentEpilogue(self.thread, block.batch, block.head, block.row0, state);
  }
  // Only K_s and V_s are shared between warps: S, P and O stay in each
  // warp's fragments, so a block needs no barrier between its steps.
  bool readsKeysOnlyInScores() const override { return true; }

private:
  /// (m, l) per fragment row and the O fragments, all zero / -inf.
  SmallVector<Value> fragmentInitState(Value thread);
  /// One key block in two steps, so that the copies of FlashAttention-2's
  /// order fit between them: S = Q K^T (reads K_s), then the online softmax
  /// and O += P V (reads V_s), which give the state after the block.
  SmallVector<Value> fragmentScores(Value thread, Value stage, Value querySmem,
                                    Value keySmem);
  SmallVector<Value>
  fragmentSoftmaxAndValues(Value thread, Value batch, Value head, Value row0,
                           Value col0, Value stage, Value valueSmem,
                           ArrayRef<Value> scores, ValueRange state);
  /// O = acc / l and the logsumexp, from the fragments.
  void fragmentEpilogue(Value thread, Value batch, Value head, Value row0,
                        ValueRange state);
};

} // namespace

SmallVector<Value> RegisterFragmentVariant::fragmentInitState(Value thread) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  int64_t fragmentRows = 2 * rowTiles(kernel);
  auto [initMax, initSum] = kernel.quadStartState(thread);
  Value zeroAcc = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(accumulatorType(kernel.ctx)));
  SmallVector<Value> state(fragmentRows, initMax);
  state.append(fragmentRows, initSum);
  state.append(rowTiles(kernel) * (kernel.valueDim / kMmaN), zeroAcc);
  return state;
}

SmallVector<Value> RegisterFragmentVariant::fragmentScores(Value thread,
                                                           Value stage,
                                                           Value querySmem,
                                                           Value keySmem) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  int64_t mTiles = rowTiles(kernel);
  int64_t nTiles = kernel.plan.tiling.blockKV / kMmaN;
  Lane lane = laneOf(math, thread,
                     kernel.plan.tiling.blockQ / (kernel.threads / kWarpSize));
  Value zeroAcc = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(accumulatorType(kernel.ctx)));

  // S = Q K^T, 16 of the head dim per step. A step's loads are all issued
  // before their registers are regrouped, then its mma.syncs.
  SmallVector<Value> scores(mTiles * nTiles, zeroAcc);
  for (int64_t step = 0; step < kernel.headDim / kMmaK; ++step) {
    SmallVector<Value> queryFragments, keyPairs;
    for (int64_t i = 0; i < mTiles; ++i) {
      Value row = math.add(math.addConstant(lane.warpRow0, i * kMmaM),
                           lane.row16);
      Value column = math.addConstant(lane.upper8, step * kMmaK);
      queryFragments.push_back(kernel.ldmatrix(querySmem, Value(), row, column,
                                               kernel.headDim,
                                               kernel.queryElementType, false));
    }
    // Matrices (keys n..n+7, dims 0-7), (n..n+7, 8-15), (n+8.., 0-7),
    // (n+8.., 8-15): the B fragments of key tiles n / 8 and n / 8 + 1.
    for (int64_t n = 0; n < nTiles; n += 2) {
      Value key = math.add(math.addConstant(lane.row8, n * kMmaN), lane.upper8);
      Value column = math.addConstant(lane.odd8, step * kMmaK);
      keyPairs.push_back(kernel.ldmatrix(keySmem, stage, key, column,
                                         kernel.headDim, kernel.keyElementType,
                                         false));
    }
    multiplyFragments(b, loc, queryFragments, keyPairs, scores);
  }
  return scores;
}

SmallVector<Value> RegisterFragmentVariant::fragmentSoftmaxAndValues(
    Value thread, Value batch, Value head, Value row0, Value col0, Value stage,
    Value valueSmem, ArrayRef<Value> scores, ValueRange state) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  int64_t mTiles = rowTiles(kernel);
  int64_t nTiles = kernel.plan.tiling.blockKV / kMmaN,
          vTiles = kernel.valueDim / kMmaN;
  int64_t fragmentRows = 2 * mTiles;
  Lane lane = laneOf(math, thread,
                     kernel.plan.tiling.blockQ / (kernel.threads / kWarpSize));

  // Mask each element (u, see SoftmaxExponent); the row max over this
  // lane's columns.
  SmallVector<Value> rows, masked(mTiles * nTiles * 4);
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t r = 0; r < 2; ++r)
      rows.push_back(math.add(
          row0, math.add(math.addConstant(lane.warpRow0, i * kMmaM + 8 * r),
                         lane.group)));
  Value pairColumn = math.mul(lane.quad, math.constant(2));
  SmallVector<Value> localMax(state.begin(), state.begin() + fragmentRows);
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t n = 0; n < nTiles; ++n)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t j = 0; j < 2; ++j) {
          Value column =
              math.add(col0, math.addConstant(pairColumn, n * kMmaN + j));
          Value raw = extractElement(b, loc, scores[i * nTiles + n], r, j);
          Value u = kernel.scoreOf(raw, batch, head, rows[i * 2 + r], column);
          masked[((i * nTiles + n) * 2 + r) * 2 + j] = u;
          localMax[i * 2 + r] =
              arith::MaximumFOp::create(b, loc, localMax[i * 2 + r], u);
        }
  SmallVector<Value> newMax =
      combineOverQuad(b, loc, localMax, arith::AtomicRMWKind::maximumf);

  // p = 2^(u c - m' c), rounded to V's type for P V; the lane's part of l.
  SmallVector<Value> negatedShifts, alphas, partialSums;
  for (int64_t row = 0; row < fragmentRows; ++row) {
    negatedShifts.push_back(kernel.exponent.negatedShift(b, loc, newMax[row]));
    alphas.push_back(
        kernel.exponent.rescale(b, loc, state[row], negatedShifts.back()));
    partialSums.push_back(contractingMul(b, loc, alphas.back(),
                                         state[fragmentRows + row]));
  }
  // Each lane's two columns of a fragment row are rounded together into
  // one packed register (cvt.rn.f16x2.f32 / .bf16x2), which is also how
  // mma.sync takes them: half the registers of two scalars.
  auto pairType = VectorType::get({2}, kernel.f32);
  SmallVector<Value> probPairs(mTiles * nTiles * 2);
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t n = 0; n < nTiles; ++n)
      for (int64_t r = 0; r < 2; ++r) {
        Value pair = arith::ConstantOp::create(b, loc, b.getZeroAttr(pairType));
        for (int64_t j = 0; j < 2; ++j) {
          int64_t at = ((i * nTiles + n) * 2 + r) * 2 + j;
          Value p = kernel.exponent.probability(b, loc, masked[at],
                                                negatedShifts[i * 2 + r]);
          partialSums[i * 2 + r] =
              contractingAdd(b, loc, partialSums[i * 2 + r], p);
          pair = vector::InsertOp::create(b, loc, p, pair,
                                          ArrayRef<int64_t>{j});
        }
        probPairs[(i * nTiles + n) * 2 + r] = arith::TruncFOp::create(
            b, loc, pairType.clone(kernel.valueElementType), pair);
      }

  // O *= alpha, row by row of each fragment.
  SmallVector<Value> outputs(state.begin() + 2 * fragmentRows, state.end());
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t c = 0; c < vTiles; ++c)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t j = 0; j < 2; ++j) {
          Value &acc = outputs[i * vTiles + c];
          Value scaled = contractingMul(
              b, loc, extractElement(b, loc, acc, r, j), alphas[i * 2 + r]);
          acc = insertElement(b, loc, scaled, acc, r, j);
        }

  // O += P V, 16 keys per step: V's tiles read transposed into B fragments,
  // P's A fragments regrouped from S's accumulators.
  Type pType = kernel.valueElementType;
  for (int64_t step = 0; step < kernel.plan.tiling.blockKV / kMmaK; ++step) {
    SmallVector<Value> valuePairs;
    // Matrices (keys k..k+7, columns c..c+7), (k+8.., c..), (k.., c+8..),
    // (k+8.., c+8..): .trans gives the B fragments of column tiles c / 8
    // and c / 8 + 1.
    for (int64_t c = 0; c < vTiles; c += 2) {
      Value key = math.add(math.addConstant(lane.row8, step * kMmaK), lane.odd8);
      Value column = math.addConstant(lane.upper8, c * kMmaN);
      valuePairs.push_back(kernel.ldmatrix(valueSmem, stage, key, column,
                                           kernel.valueDim,
                                           kernel.valueElementType, true));
    }
    SmallVector<Value> probFragments;
    for (int64_t i = 0; i < mTiles; ++i) {
      Value fragment = arith::ConstantOp::create(
          b, loc, b.getZeroAttr(aFragmentType(pType)));
      for (int64_t reg = 0; reg < 4; ++reg) {
        int64_t n = 2 * step + reg / 2, r = reg % 2;
        fragment = vector::InsertOp::create(b, loc,
                                            probPairs[(i * nTiles + n) * 2 + r],
                                            fragment, ArrayRef<int64_t>{reg});
      }
      probFragments.push_back(fragment);
    }
    multiplyFragments(b, loc, probFragments, valuePairs, outputs);
  }

  SmallVector<Value> next(newMax);
  next.append(partialSums);
  next.append(outputs);
  return next;
}

void RegisterFragmentVariant::fragmentEpilogue(Value thread, Value batch,
                                               Value head, Value row0,
                                               ValueRange state) {
  OpBuilder &b = kernel.b;
  Location loc = kernel.loc;
  IndexMath math{b, loc};
  int64_t mTiles = rowTiles(kernel), vTiles = kernel.valueDim / kMmaN;
  int64_t fragmentRows = 2 * mTiles;
  Lane lane = laneOf(math, thread,
                     kernel.plan.tiling.blockQ / (kernel.threads / kWarpSize));
  SmallVector<Value> sums =
      combineOverQuad(b, loc,
                      SmallVector<Value>(state.begin() + fragmentRows,
                                         state.begin() + 2 * fragmentRows),
                      arith::AtomicRMWKind::addf);
  Value pairColumn = math.mul(lane.quad, math.constant(2));
  Value zero = f32Constant(b, loc, 0);
  auto pairType = VectorType::get({2}, kernel.outputElementType);
  for (int64_t i = 0; i < mTiles; ++i)
    for (int64_t r = 0; r < 2; ++r) {
      Value localRow = math.add(
          math.addConstant(lane.warpRow0, i * kMmaM + 8 * r), lane.group);
      Value row = math.add(row0, localRow);
      Value sum = sums[i * 2 + r];
      scf::IfOp::create(
          b, loc, math.lt(row, kernel.queryLen),
          [&](OpBuilder &tb, Location tloc) {
            IndexMath tm{tb, tloc};
            // O = acc / l, 0 where no key was visible; two columns per
            // lane and fragment (4 or 8 bytes, one store).
            Value isEmpty = arith::CmpFOp::create(
                tb, tloc, arith::CmpFPredicate::OEQ, sum, zero);
            for (int64_t c = 0; c < vTiles; ++c) {
              Value acc = state[2 * fragmentRows + i * vTiles + c];
              Value pair = arith::ConstantOp::create(
                  tb, tloc, tb.getZeroAttr(pairType));
              for (int64_t j = 0; j < 2; ++j) {
                Value quotient = arith::DivFOp::create(
                    tb, tloc, extractElement(tb, tloc, acc, r, j), sum);
                Value normalized =
                    arith::SelectOp::create(tb, tloc, isEmpty, zero, quotient);
                if (!kernel.outputElementType.isF32())
                  normalized = arith::TruncFOp::create(
                      tb, tloc, kernel.outputElementType, normalized);
                pair = vector::InsertOp::create(tb, tloc, normalized, pair,
                                                ArrayRef<int64_t>{j});
              }
              Value column = tm.addConstant(pairColumn, c * kMmaN);
              vector::StoreOp::create(tb, tloc, pair, kernel.operands.output,
                                      ValueRange{batch, head, row, column})
                  .setAlignment(2 * elementBytes(kernel.outputElementType));
            }
            if (kernel.operands.logsumexp) {
              // The quad's lanes hold the same m and l: lane q = 0 writes.
              scf::IfOp::create(
                  tb, tloc, tm.eq(lane.quad, tm.constant(0)),
                  [&](OpBuilder &sb, Location sloc) {
                    Value logSum = math::LogOp::create(sb, sloc, sum);
                    Value max =
                        kernel.exponent.naturalMax(sb, sloc, state[i * 2 + r]);
                    Value lse = arith::AddFOp::create(sb, sloc, max, logSum);
                    memref::StoreOp::create(sb, sloc, lse,
                                            kernel.operands.logsumexp,
                                            ValueRange{batch, head, row});
                    scf::YieldOp::create(sb, sloc);
                  });
            }
            scf::YieldOp::create(tb, tloc);
          });
    }
}

std::unique_ptr<KernelVariant>
makeRegisterFragmentVariant(KernelBuilder &kernel,
                            const KernelBuilder::QueryBlock &block,
                            const KernelBuilder::SharedTiles &tiles,
                            const KernelBuilder::ThreadRow &self) {
  return std::make_unique<RegisterFragmentVariant>(kernel, block, tiles, self);
}

} // namespace mlir::fa::gpu_kernel
