//===- WarpgroupMmaKernel.cpp - the key block on Hopper's wgmma -----------===//
//
// The register-fragment kernel's key block (RegisterFragmentKernel.cpp)
// with its two matmuls on Hopper's warpgroup matmul (fa.warpgroup_mma,
// wgmma.mma_async), for sm_90a. The block's rows are split over warpgroups
// of 128 threads, 64 rows each; warp w of a warpgroup holds rows
// [16 w, 16 w + 16) of it, a thread rows g and g + 8 (g = lane / 4) as in
// mma.sync's fragments (include/fa/Kernel/WarpgroupLayout.h):
//
//   S (64 x Bc, Bc / 2 registers) = 4 wgmmas, A = Q_s, B = K_s, both
//       read from shared memory through descriptors (D = 64: 16 of the
//       head dim per step, the start 32 bytes further into each 128-byte
//       row), then a wait;
//   scale, masks, row max (per lane, then the quad's butterflies), p, l
//       on S's registers, exactly the register-fragment kernel's softmax;
//   O (64 x 64, 32 registers) *= alpha, then O += P V: Bc / 16 wgmmas
//       with A = P from registers (S's registers 8j .. 8j + 7, rounded in
//       pairs, are K step j's A registers: no data crosses lanes) and
//       B = V_s, M/N-major (transpose_b), then a wait;
//   end: l over the quad, O / l stored two columns per register pair.
//
// With KernelPlan::sharedProbabilities (FlashAttention-3's MmaPV_is_RS =
// false, its 192 x 192 tile at d = 64) P is not carried to the next block
// in registers: once the P V that read the previous P has completed, each
// thread stores its rounded pairs to P_s, a [block_q][block_kv] tile of
// wgmma's core matrices unswizzled (storeProbabilities), and P V reads A
// through descriptors. A thread's stores reach wgmma's async proxy after its
// own proxy fence; the warp's lanes then meet at bar.warp.sync, since each
// warp's share of a wgmma reads only its own 16 rows of A (FlashAttention-3
// synchronizes the warp, not the warpgroup, for the same reason). The CPU
// model places a barrier in front of every wgmma that follows a store
// (fa-emulate-threads-on-cpu), so it checks the values and the layout, not
// the fence.
//
// Q_s, K_s and V_s are stored as column blocks of 64 2-byte elements
// (TileCopier::sharedPosition): block c of a tile of R rows is an [R][64]
// tile at byte 128 R c, its rows 128 bytes long with their 16-byte chunks
// XORed with the row's index mod 8, which is wgmma's (and TMA's) 128-byte
// swizzle when the tile starts on a 1024-byte boundary
// (fa-align-workgroup-buffers, fa-align-dynamic-shared-memory). With
// D = 64 that is the register-fragment kernel's own layout. The
// descriptors address them as one-dimensional views, from their first
// byte: fa.warpgroup_mma's contract, which the CPU model runs
// (fa-emulate-threads-on-cpu) and the GPU lowering offsets by the tile's
// shared address.
//
// This is the first Hopper kernel of issue 32: wgmma on the copies and
// schedule of the mma.sync kernel (cp.async, every warpgroup computing).
// TMA, warp specialization and the ping-pong between warpgroups come next.
//
//===----------------------------------------------------------------------===//

#include "Fragments.h"
#include "KernelBuilder.h"
#include "fa/Kernel/WarpgroupLayout.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <limits>

namespace mlir::fa::gpu_kernel {

namespace {

/// Bytes of one column block's row (64 elements of 2 bytes): one 128-byte
/// swizzle row.
constexpr int64_t kRowBytes = kSwizzle128RowBytes;
/// Rows of a warpgroup's share of the block and of one wgmma.
constexpr int64_t kWarpgroupRows = kWgmmaM;
/// K of one wgmma.
constexpr int64_t kStepK = 16;

class WarpgroupMmaVariant final : public KernelVariant {
public:
  using KernelVariant::KernelVariant;

  SmallVector<Value> initState() override;
  SmallVector<Value> scores(const KeyBlockAt &at) override;
  SmallVector<Value> fold(const KeyBlockAt &at, ArrayRef<Value> scores,
                          ValueRange state) override;
  void finish(ValueRange state) override;
  SmallVector<Value> firstBlock(const KeyBlockAt &at, const OverlapHooks &hooks,
                                ValueRange state) override;
  SmallVector<Value> overlappedBlock(const KeyBlockAt &at,
                                     const KeyBlockAt &previous,
                                     const OverlapHooks &hooks,
                                     ValueRange state) override;
  SmallVector<Value> lastValues(const KeyBlockAt &previous,
                                const OverlapHooks &hooks,
                                ValueRange state) override;
  // S is waited for before scores() returns: K_s is then free, and the
  // next block's K may be copied while the softmax and P V run.
  bool readsKeysOnlyInScores() const override { return true; }

private:
  /// A block's softmax on its scores: the rows' new maxima and sums, the
  /// factors that rescale O, and P in f32 pairs of adjacent columns.
  struct Softmax {
    SmallVector<Value> newMax, sums, alphas, pairs;
  };
  OpBuilder &b() { return kernel.b; }
  /// S = Q K^T of the block, issued; its value is in flight.
  Value issueScores(const KeyBlockAt &at);
  Softmax softmax(const KeyBlockAt &at, Value scores, ValueRange state);
  /// O *= alpha, register by register.
  Value rescale(Value output, ArrayRef<Value> alphas);
  /// P V's operands, per K step of 16 keys: A (P's registers, or P_s's
  /// descriptors and P_s itself as aBuffer) and V_s's descriptors of
  /// `stage`.
  struct ValueOperands {
    SmallVector<Value> fragments, descriptors;
    Value aBuffer;
  };
  ValueOperands valueOperands(ArrayRef<Value> probPairs, Value stage);
  /// O += P V, issued; in flight.
  Value issueValues(Value output, const ValueOperands &operands);
  /// P's pairs rounded to V's type: one packed register each, as wgmma
  /// takes A.
  SmallVector<Value> rounded(ArrayRef<Value> pairs);
  /// P's rounded pairs, this thread's, to P_s; fenced for wgmma and synced
  /// over the warp (sharedProbabilities).
  void storeProbabilities(ArrayRef<Value> roundedPairs);
  /// The state after a block's softmax: (m, m', l, l', O), and the rounded
  /// P carried to the next block unless it went to P_s.
  SmallVector<Value> nextState(const Softmax &step, Value output,
                               ArrayRef<Value> probPairs);
  /// The P a state carries (its pairs of V's type, one register each).
  static ValueRange carriedPairs(ValueRange state) {
    return state.drop_front(kCarriedPairs);
  }
  /// Where the carried P starts in the state: after (m, m', l, l', O).
  static constexpr size_t kCarriedPairs = 5;
  /// The tile as one dimension of elements, what descriptors address.
  Value flat(Value tile);
  /// wgmmaDescriptor (Fragments.h) in this kernel's builder.
  Value descriptor(Value byteBase, int64_t byteOffset, int64_t leading,
                   int64_t stride,
                   WgmmaSwizzle swizzle = WgmmaSwizzle::Bytes128) {
    return wgmmaDescriptor(b(), kernel.loc, byteBase, byteOffset, leading,
                           stride, swizzle);
  }
  /// The first byte of buffer `stage` of K_s or V_s (rows of `width`).
  Value stageOffset(Value stage, int64_t width);
  /// The two block rows this thread's registers hold (g and g + 8 of its
  /// warp's 16), as rows of the sequence.
  std::array<Value, 2> threadRows();
  Value quadColumn(); // 2 (lane % 4)

  Value flatQuery, flatKey, flatValue, flatProbs;
};

Value WarpgroupMmaVariant::flat(Value tile) {
  // In front of the thread loop: a view every thread shares, not a value
  // each thread would carry across the loop's barriers.
  OpBuilder::InsertionGuard guard(b());
  Operation *threadLoop =
      cast<BlockArgument>(self.thread).getOwner()->getParentOp();
  b().setInsertionPoint(threadLoop);
  auto type = cast<MemRefType>(tile.getType());
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return memref::CollapseShapeOp::create(b(), kernel.loc, tile,
                                         ArrayRef<ReassociationIndices>{all});
}

Value WarpgroupMmaVariant::stageOffset(Value stage, int64_t width) {
  IndexMath math{b(), kernel.loc};
  if (!stage)
    return math.constant(0);
  return math.mul(stage, math.constant(kernel.plan.tiling.blockKV * width * 2));
}

std::array<Value, 2> WarpgroupMmaVariant::threadRows() {
  IndexMath math{b(), kernel.loc};
  Lane lane = laneOf(math, self.thread, kMmaM);
  Value first = math.add(block.row0, math.add(lane.warpRow0, lane.group));
  return {first, math.addConstant(first, 8)};
}

Value WarpgroupMmaVariant::quadColumn() {
  IndexMath math{b(), kernel.loc};
  Lane lane = laneOf(math, self.thread, kMmaM);
  return math.mul(lane.quad, math.constant(2));
}

SmallVector<Value> WarpgroupMmaVariant::initState() {
  Location loc = kernel.loc;
  flatQuery = flat(tiles.query);
  flatKey = flat(tiles.key);
  flatValue = flat(tiles.value);
  if (kernel.plan.sharedProbabilities)
    flatProbs = flat(tiles.probs);
  auto [max, sum] = kernel.quadStartState(self.thread);
  auto outputType =
      VectorType::get({wgmmaAccumulatorRegisters(kernel.valueDim)}, kernel.f32);
  Value zeroOutput =
      arith::ConstantOp::create(b(), loc, b().getZeroAttr(outputType));
  // (m, m', l, l') of the thread's two rows, then O; when P V is issued a
  // block late, then the pending P, pair by pair: each pair is one packed
  // register, carried as it is (one vector of them costs a move per
  // element at every block).
  SmallVector<Value> state = {max, max, sum, sum, zeroOutput};
  if (kernel.plan.overlapSoftmax && !kernel.plan.sharedProbabilities) {
    auto pairType = VectorType::get({2}, kernel.valueElementType);
    Value noPair =
        arith::ConstantOp::create(b(), loc, b().getZeroAttr(pairType));
    state.append(wgmmaAccumulatorRegisters(kernel.plan.tiling.blockKV) / 2,
                 noPair);
  }
  return state;
}

Value WarpgroupMmaVariant::issueScores(const KeyBlockAt &at) {
  Location loc = at.loc;
  IndexMath math{b(), loc};
  auto scoreType = VectorType::get(
      {wgmmaAccumulatorRegisters(kernel.plan.tiling.blockKV)}, kernel.f32);
  // This warpgroup's 64 rows of Q_s, and the stage's K_s; 8-row groups of
  // the 128-byte swizzle 1024 bytes apart. Step s reads column block
  // 16 s / 64 (each [rows][128 B]), 32 bytes further into its rows per
  // step within the block.
  Value warpgroup = math.divU(self.thread, math.constant(kWarpgroupThreads));
  Value queryStart =
      math.mul(warpgroup, math.constant(kWarpgroupRows * kRowBytes));
  Value keyStart = stageOffset(at.stage, kernel.headDim);
  Value scores =
      arith::ConstantOp::create(b(), loc, b().getZeroAttr(scoreType));
  int64_t blockColumns = kRowBytes / 2;
  for (int64_t step = 0; step < kernel.headDim / kStepK; ++step) {
    int64_t column = step * kStepK;
    int64_t within = (column % blockColumns) * 2;
    int64_t columnBlock = column / blockColumns;
    Value queryDesc =
        descriptor(queryStart,
                   columnBlock * kernel.plan.tiling.blockQ * kRowBytes + within,
                   /*leading=*/16, /*stride=*/8 * kRowBytes);
    Value keyDesc = descriptor(
        keyStart, columnBlock * kernel.plan.tiling.blockKV * kRowBytes + within,
        /*leading=*/16, /*stride=*/8 * kRowBytes);
    auto mma = WarpgroupMmaOp::create(b(), loc, scoreType, scores, queryDesc,
                                      flatQuery, keyDesc, flatKey,
                                      /*transpose_b=*/false,
                                      /*ignore_accumulator=*/step == 0);
    scores = mma.getResult();
  }
  return scores;
}

SmallVector<Value> WarpgroupMmaVariant::scores(const KeyBlockAt &at) {
  auto wait = WarpgroupMmaWaitOp::create(b(), at.loc,
                                         ValueRange{issueScores(at)}, 0);
  return {wait.getResult(0)};
}

WarpgroupMmaVariant::Softmax
WarpgroupMmaVariant::softmax(const KeyBlockAt &at, Value scores,
                             ValueRange state) {
  Location loc = at.loc;
  IndexMath math{b(), loc};
  const SoftmaxExponent &exponent = kernel.exponent;
  int64_t scoreRegisters =
      wgmmaAccumulatorRegisters(kernel.plan.tiling.blockKV);
  std::array<Value, 2> rows = threadRows();
  Value pairColumn = quadColumn();

  // Register r: row half (r / 2) % 2, column 8 (r / 4) + 2 q + r % 2.
  auto half = [](int64_t r) { return (r / 2) % 2; };
  SmallVector<Value> masked(scoreRegisters);
  SmallVector<Value> localMax = {state[0], state[1]};
  for (int64_t r = 0; r < scoreRegisters; ++r) {
    Value column =
        math.add(at.col0, math.addConstant(pairColumn, 8 * (r / 4) + r % 2));
    Value raw =
        vector::ExtractOp::create(b(), loc, scores, ArrayRef<int64_t>{r});
    Value u =
        kernel.scoreOf(raw, block.batch, block.head, rows[half(r)], column);
    masked[r] = u;
    localMax[half(r)] =
        arith::MaximumFOp::create(b(), loc, localMax[half(r)], u);
  }
  Softmax result;
  result.newMax =
      combineOverQuad(b(), loc, localMax, arith::AtomicRMWKind::maximumf);

  SmallVector<Value> negatedShifts;
  for (int64_t h = 0; h < 2; ++h) {
    negatedShifts.push_back(exponent.negatedShift(b(), loc, result.newMax[h]));
    result.alphas.push_back(
        exponent.rescale(b(), loc, state[h], negatedShifts[h]));
    result.sums.push_back(
        contractingMul(b(), loc, result.alphas[h], state[2 + h]));
  }
  // p in pairs of adjacent columns (registers r, r + 1).
  auto pairType = VectorType::get({2}, kernel.f32);
  for (int64_t r = 0; r < scoreRegisters; r += 2) {
    Value pair = arith::ConstantOp::create(b(), loc, b().getZeroAttr(pairType));
    for (int64_t j = 0; j < 2; ++j) {
      Value p =
          exponent.probability(b(), loc, masked[r + j], negatedShifts[half(r)]);
      result.sums[half(r)] = contractingAdd(b(), loc, result.sums[half(r)], p);
      pair = vector::InsertOp::create(b(), loc, p, pair, ArrayRef<int64_t>{j});
    }
    result.pairs.push_back(pair);
  }
  return result;
}

SmallVector<Value> WarpgroupMmaVariant::rounded(ArrayRef<Value> pairs) {
  auto type = VectorType::get({2}, kernel.valueElementType);
  SmallVector<Value> result;
  for (Value pair : pairs)
    result.push_back(arith::TruncFOp::create(b(), kernel.loc, type, pair));
  return result;
}

Value WarpgroupMmaVariant::rescale(Value output, ArrayRef<Value> alphas) {
  Location loc = kernel.loc;
  // Register r of O is in row half (r / 2) % 2.
  for (int64_t r = 0; r < wgmmaAccumulatorRegisters(kernel.valueDim); ++r) {
    Value element =
        vector::ExtractOp::create(b(), loc, output, ArrayRef<int64_t>{r});
    Value scaled = contractingMul(b(), loc, element, alphas[(r / 2) % 2]);
    output = vector::InsertOp::create(b(), loc, scaled, output,
                                      ArrayRef<int64_t>{r});
  }
  return output;
}

WarpgroupMmaVariant::ValueOperands
WarpgroupMmaVariant::valueOperands(ArrayRef<Value> probPairs, Value stage) {
  Location loc = kernel.loc;
  IndexMath math{b(), loc};
  // 16 keys per step: V_s rows 16 j .. 16 j + 15 (2048 bytes further),
  // M/N-major; Dv's column blocks (64 columns, one 128-byte swizzle atom
  // wide) block_kv * 128 bytes apart (the leading byte offset). P's
  // register i of step j packs S's registers 8 j + 4 (i / 2) + 2 (i % 2)
  // and the next: pair 4 j + 2 (i / 2) + i % 2.
  Value valueStart = stageOffset(stage, kernel.valueDim);
  auto aType = aFragmentType(kernel.valueElementType);
  ValueOperands operands;
  // P_s as A, K-major and unswizzled (storeProbabilities): core matrices
  // of 8 rows of 16 bytes, the next 8 keys 128 bytes on (the leading byte
  // offset), the next 8 rows one 8-row group of block_kv * 16 bytes on
  // (the stride byte offset); this warpgroup's 64 rows start 8 groups per
  // warpgroup in, each K step of 16 keys 2 core matrices further.
  Value probsStart;
  int64_t groupBytes = kernel.plan.tiling.blockKV * kChunkBytes;
  if (kernel.plan.sharedProbabilities) {
    operands.aBuffer = flatProbs;
    Value warpgroup = math.divU(self.thread, math.constant(kWarpgroupThreads));
    probsStart =
        math.mul(warpgroup, math.constant(kWarpgroupRows / 8 * groupBytes));
  }
  for (int64_t step = 0; step < kernel.plan.tiling.blockKV / kStepK; ++step) {
    if (operands.aBuffer) {
      operands.fragments.push_back(
          descriptor(probsStart, step * 2 * 8 * kChunkBytes,
                     /*leading=*/8 * kChunkBytes, /*stride=*/groupBytes,
                     WgmmaSwizzle::None));
    } else {
      Value operand =
          arith::ConstantOp::create(b(), loc, b().getZeroAttr(aType));
      for (int64_t i = 0; i < 4; ++i)
        operand = vector::InsertOp::create(
            b(), loc, probPairs[4 * step + 2 * (i / 2) + i % 2], operand,
            ArrayRef<int64_t>{i});
      operands.fragments.push_back(operand);
    }
    operands.descriptors.push_back(
        descriptor(valueStart, step * kStepK * kRowBytes,
                   /*leading=*/kernel.plan.tiling.blockKV * kRowBytes,
                   /*stride=*/8 * kRowBytes));
  }
  return operands;
}

Value WarpgroupMmaVariant::issueValues(Value output,
                                       const ValueOperands &operands) {
  for (auto [fragment, valueDesc] :
       llvm::zip(operands.fragments, operands.descriptors))
    output = WarpgroupMmaOp::create(b(), kernel.loc, output.getType(), output,
                                    fragment, operands.aBuffer, valueDesc,
                                    flatValue, /*transpose_b=*/true,
                                    /*ignore_accumulator=*/false)
                 .getResult();
  return output;
}

void WarpgroupMmaVariant::storeProbabilities(ArrayRef<Value> roundedPairs) {
  Location loc = kernel.loc;
  IndexMath math{b(), loc};
  Lane lane = laneOf(math, self.thread, kMmaM);
  // P_s holds wgmma's core matrices unswizzled (valueOperands' descriptors):
  // element (row, column) at 8 block_kv (row / 8) + 64 (column / 8) +
  // 8 (row % 8) + column % 8. A thread's rows g and g + 8 of its warp are
  // in consecutive 8-row groups at row % 8 = g, so each of its pairs is at
  // one per-thread base plus a constant: no address per store (LLVM would
  // hoist each out of the key loop and keep it live, as with the 128-byte
  // swizzle's XORs: 8 to 16 registers). A warp's 32 lanes store 128
  // contiguous bytes per pair: no bank conflict.
  int64_t blockKV = kernel.plan.tiling.blockKV;
  int64_t groupElements = 8 * blockKV; // one 8-row group of P_s
  Value threadBase =
      math.add(math.mul(math.divU(lane.warpRow0, math.constant(8)),
                        math.constant(groupElements)),
               math.add(math.mul(lane.group, math.constant(8)), quadColumn()));
  // Pair i holds S's registers 2i and 2i + 1: row half i % 2, columns
  // 8 (i / 2) + 2 q and the next (softmax()'s register order).
  for (auto [i, pair] : llvm::enumerate(roundedPairs)) {
    int64_t half = int64_t(i) % 2, chunk = int64_t(i) / 2;
    Value at = math.addConstant(threadBase, half * groupElements + 64 * chunk);
    vector::StoreOp::create(b(), loc, pair, flatProbs, ValueRange{at})
        .setAlignment(2 * elementBytes(kernel.valueElementType));
  }
  NVVM::FenceProxyOp::create(
      b(), loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b().getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::SyncWarpOp::create(
      b(), loc, arith::ConstantIntOp::create(b(), loc, 0xffffffff, 32));
}

SmallVector<Value> WarpgroupMmaVariant::nextState(const Softmax &step,
                                                  Value output,
                                                  ArrayRef<Value> probPairs) {
  SmallVector<Value> next = {step.newMax[0], step.newMax[1], step.sums[0],
                             step.sums[1], output};
  SmallVector<Value> roundedPairs = rounded(probPairs);
  if (kernel.plan.sharedProbabilities)
    storeProbabilities(roundedPairs);
  else
    llvm::append_range(next, roundedPairs);
  return next;
}

SmallVector<Value> WarpgroupMmaVariant::fold(const KeyBlockAt &at,
                                             ArrayRef<Value> scoreValues,
                                             ValueRange state) {
  Softmax step = softmax(at, scoreValues[0], state);
  Value output = issueValues(rescale(state[4], step.alphas),
                             valueOperands(rounded(step.pairs), at.stage));
  auto wait = WarpgroupMmaWaitOp::create(b(), at.loc, ValueRange{output}, 0);
  return {step.newMax[0], step.newMax[1], step.sums[0], step.sums[1],
          wait.getResult(0)};
}

// FlashAttention-3's intra-warpgroup overlap. The first block has no P V
// before it: its softmax only (O is still zero, nothing to rescale).
SmallVector<Value> WarpgroupMmaVariant::firstBlock(const KeyBlockAt &at,
                                                   const OverlapHooks &hooks,
                                                   ValueRange state) {
  hooks.waitForKeys();
  if (hooks.beforeMatmuls)
    hooks.beforeMatmuls();
  Value issued = issueScores(at);
  if (hooks.afterMatmuls)
    hooks.afterMatmuls();
  Value scores =
      WarpgroupMmaWaitOp::create(b(), at.loc, ValueRange{issued}, 0)
          .getResult(0);
  Softmax step = softmax(at, scores, state);
  return nextState(step, state[4], step.pairs);
}

// S of this block and P V of the previous one are two commit groups in
// flight at once; the wait that commits P V's group (pending = 1) leaves
// it running and returns S, whose softmax then overlaps it. O of the
// previous blocks is relative to their max, so P V adds to it before the
// rescale by this block's alpha: O = alpha (O + P_prev V_prev).
SmallVector<Value> WarpgroupMmaVariant::overlappedBlock(
    const KeyBlockAt &at, const KeyBlockAt &previous,
    const OverlapHooks &hooks, ValueRange state) {
  Location loc = at.loc;
  // Everything P V reads is ready before S is issued: no wait (a loop) and
  // no instruction that defines a wgmma's registers sits between the two
  // groups, which would make ptxas serialize the wgmmas (C7513, C7520).
  hooks.waitForKeys();
  hooks.waitForPreviousValues();
  ValueOperands operands =
      valueOperands(SmallVector<Value>(carriedPairs(state)), previous.stage);
  if (hooks.beforeMatmuls)
    hooks.beforeMatmuls();
  Value issuedScores = issueScores(at);
  // Commits S's group; with one group in flight, returns at once.
  WarpgroupMmaWaitOp::create(b(), loc, ValueRange{}, 1);
  Value issuedOutput = issueValues(state[4], operands);
  if (hooks.afterMatmuls)
    hooks.afterMatmuls();
  Value scores =
      WarpgroupMmaWaitOp::create(b(), loc, ValueRange{issuedScores}, 1)
          .getResult(0);
  Softmax step = softmax(at, scores, state);
  // P is rounded into the registers (or P_s) P V reads only once P V has
  // completed: wgmma reads its A operand while it runs. The f32 values
  // pass through the wait, which keeps the rounding below it.
  SmallVector<Value> inFlight = {issuedOutput};
  llvm::append_range(inFlight, step.pairs);
  auto waited = WarpgroupMmaWaitOp::create(b(), loc, inFlight, 0);
  hooks.releasePreviousValues();
  return nextState(step, rescale(waited.getResult(0), step.alphas),
                   SmallVector<Value>(waited.getResults().drop_front()));
}

SmallVector<Value> WarpgroupMmaVariant::lastValues(const KeyBlockAt &previous,
                                                   const OverlapHooks &hooks,
                                                   ValueRange state) {
  hooks.waitForPreviousValues();
  ValueOperands operands =
      valueOperands(SmallVector<Value>(carriedPairs(state)), previous.stage);
  if (hooks.beforeMatmuls)
    hooks.beforeMatmuls();
  Value issued = issueValues(state[4], operands);
  if (hooks.afterMatmuls)
    hooks.afterMatmuls();
  Value output =
      WarpgroupMmaWaitOp::create(b(), previous.loc, ValueRange{issued}, 0)
          .getResult(0);
  hooks.releasePreviousValues();
  SmallVector<Value> next(state);
  next[4] = output;
  return next;
}

void WarpgroupMmaVariant::finish(ValueRange state) {
  Location loc = kernel.loc;
  IndexMath math{b(), loc};
  SmallVector<Value> sums =
      combineOverQuad(b(), loc, SmallVector<Value>{state[2], state[3]},
                      arith::AtomicRMWKind::addf);
  std::array<Value, 2> rows = threadRows();
  Value pairColumn = quadColumn();
  Lane lane = laneOf(math, self.thread, kMmaM);
  Value zero = f32Constant(b(), loc, 0);
  Type outputType = kernel.outputElementType;
  auto pairType = VectorType::get({2}, outputType);
  Value output = state[4];
  for (int64_t h = 0; h < 2; ++h) {
    Value row = rows[h], sum = sums[h];
    scf::IfOp::create(
        b(), loc, math.lt(row, kernel.queryLen),
        [&](OpBuilder &tb, Location tloc) {
          IndexMath tm{tb, tloc};
          // O = acc / l, 0 where no key was visible; registers 4c + 2h and
          // 4c + 2h + 1 are columns 8c + 2q and 8c + 2q + 1 of row h.
          Value isEmpty = arith::CmpFOp::create(
              tb, tloc, arith::CmpFPredicate::OEQ, sum, zero);
          for (int64_t c = 0; c < kernel.valueDim / 8; ++c) {
            Value pair =
                arith::ConstantOp::create(tb, tloc, tb.getZeroAttr(pairType));
            for (int64_t j = 0; j < 2; ++j) {
              Value element = vector::ExtractOp::create(
                  tb, tloc, output, ArrayRef<int64_t>{4 * c + 2 * h + j});
              Value quotient = arith::DivFOp::create(tb, tloc, element, sum);
              Value normalized =
                  arith::SelectOp::create(tb, tloc, isEmpty, zero, quotient);
              if (!outputType.isF32())
                normalized =
                    arith::TruncFOp::create(tb, tloc, outputType, normalized);
              pair = vector::InsertOp::create(tb, tloc, normalized, pair,
                                              ArrayRef<int64_t>{j});
            }
            Value column = tm.addConstant(pairColumn, 8 * c);
            vector::StoreOp::create(
                tb, tloc, pair, kernel.operands.output,
                ValueRange{block.batch, block.head, row, column})
                .setAlignment(2 * elementBytes(outputType));
          }
          if (kernel.operands.logsumexp) {
            // The quad's lanes hold the same m and l: lane q = 0 writes.
            scf::IfOp::create(
                tb, tloc, tm.eq(lane.quad, tm.constant(0)),
                [&](OpBuilder &sb, Location sloc) {
                  Value logSum = math::LogOp::create(sb, sloc, sum);
                  Value max = kernel.exponent.naturalMax(sb, sloc, state[h]);
                  Value lse = arith::AddFOp::create(sb, sloc, max, logSum);
                  memref::StoreOp::create(
                      sb, sloc, lse, kernel.operands.logsumexp,
                      ValueRange{block.batch, block.head, row});
                  scf::YieldOp::create(sb, sloc);
                });
          }
          scf::YieldOp::create(tb, tloc);
        });
  }
}

} // namespace

std::unique_ptr<KernelVariant>
makeWarpgroupMmaVariant(KernelBuilder &kernel,
                        const KernelBuilder::QueryBlock &block,
                        const KernelBuilder::SharedTiles &tiles,
                        const KernelBuilder::ThreadRow &self) {
  return std::make_unique<WarpgroupMmaVariant>(kernel, block, tiles, self);
}

} // namespace mlir::fa::gpu_kernel
