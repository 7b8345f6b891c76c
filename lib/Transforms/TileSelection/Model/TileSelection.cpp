//===- TileSelection.cpp - Tile sizes from a target's SRAM ----------------===//
//
// Stage: tile selection. The FA1 formula, the FA2 search and the cost model
// that ranks its candidates (docs/Targets.md states the model). Pure C++:
// no IR, so every number here is unit-tested directly.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/TileSelection/TileSelection.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

using namespace mlir::fa;

namespace {

/// Whether `shape` is bound by its bytes: at most kMemoryBoundQueryRows
/// query rows per key/value head (G Nq, a decode step's group), each byte
/// of K and V feeding at most that many rows' multiply-adds (64 FLOP per
/// byte at f16), below every tensor-core chip's ridge point (A100 153,
/// H100 295 FLOP per byte of DRAM). Not where Nq is unknown.
bool boundByBytes(const AttentionShape &shape) {
  int64_t group = shape.kvHeads != kUnknownSize && shape.kvHeads > 0 &&
                          shape.heads != kUnknownSize
                      ? shape.heads / shape.kvHeads
                      : 1;
  return shape.queryLen != kUnknownSize &&
         shape.queryLen * group <= kMemoryBoundQueryRows;
}

/// Sizes unknown at compile time are assumed to be these when ranking.
constexpr int64_t kAssumedSequenceLength = 4096;
constexpr int64_t kAssumedCount = 8; // batch or heads
/// Candidate tile edges of the FA2 search: FA2's own {64, 128} first, the
/// rest only when none of those fits.
constexpr int64_t kPreferredBlockSizes[] = {64, 128};
constexpr int64_t kBlockSizes[] = {16, 32, 64, 128, 256};
/// Key blocks FA2's search tries for the tensor-core kernel (see selectFA2).
constexpr int64_t kPreferredKeyBlockSizesMma[] = {32, 64, 128};
/// For sm_90a's TMA producer kernel, FlashAttention-3's tiles join the
/// search: 192-row blocks (three compute warpgroups) and 80-, 176- and
/// 192-key blocks (arXiv 2407.08608; its hopper/tile_size.h).
constexpr int64_t kWarpgroupBlockSizes[] = {64, 128, 192};
constexpr int64_t kWarpgroupKeyBlockSizes[] = {32, 64, 80, 128, 176, 192};
/// The widest key block searched with P carried in registers. Wider ones
/// only with P in shared memory (sharedProbabilitiesTiling), as
/// FlashAttention-3 takes 192 keys only at d = 64 with P V from shared
/// memory: with P in registers they fit with no margin at best (128 x 192
/// at d = 128: 240 of 240 by ptxas at N = 4096), and before the causal
/// band's cap 128 x 192 at d = 64 spilled 112 bytes causal at N = 257.
constexpr int64_t kWidestRegisterProbabilities = 176;
/// The widest key block searched under a causal or window band:
/// FlashAttention-3's causal tiles are 192 x 128 (d = 64), 128 x 128
/// (d = 128) and 128 x 80 (d = 256), its local (sliding window) tiles
/// 192 x 128, 128 x 128 and 128 x 64, narrower than its non-causal 192 and
/// 176 keys, since the blocks a band's edges cross are masked and wider
/// ones mask more keys per query block (hopper/tile_size.h).
constexpr int64_t kWidestBandKeyBlock = 128;
/// Rows of an mma.sync tile: each warp owns at least this many query rows.
constexpr int64_t kRowsPerWarp = 16;
/// Warps (times pipeline stages in flight) an SM needs to hide memory
/// latency.
constexpr int64_t kLatencyHidingWarps = 8;
/// FA2's kernel traits report 8 warps 18-28% slower than 4.
constexpr double kEightWarpPenalty = 1.2;

int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }
int64_t known(int64_t size, int64_t assumed) {
  return size == kUnknownSize ? assumed : size;
}

/// Tiles of the KV sequence are multiples of this.
int64_t tileGranule(const TargetDescription &target) {
  return target.isGPU() ? std::max(kRowsPerWarp, target.mmaGranule()) : 1;
}

std::string formatBytes(int64_t bytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (bytes >= (int64_t(1) << 30))
    os << llvm::format("%.2f GiB", bytes / double(int64_t(1) << 30));
  else if (bytes >= (int64_t(1) << 20))
    os << llvm::format("%.2f MiB", bytes / double(int64_t(1) << 20));
  else
    os << llvm::format("%.1f KiB", bytes / 1024.0);
  return text;
}

/// Key tiles visited by all query blocks of one head: causal and window
/// masks skip tiles that are entirely hidden.
int64_t countVisitedKVTiles(const Tiling &tiling, const AttentionShape &shape) {
  int64_t nq = known(shape.queryLen, kAssumedSequenceLength);
  int64_t nk = known(shape.keyLen, kAssumedSequenceLength);
  int64_t queryBlocks = ceilDiv(nq, tiling.blockQ);
  if (!shape.causalOffset && !shape.window)
    return clampToInt64(double(queryBlocks) * double(ceilDiv(nk, tiling.blockKV)));
  // Count block by block, or on a uniform sample of 65536 blocks when there
  // are more (the result is an estimate either way).
  constexpr int64_t kMaxCounted = 65536;
  int64_t stride = std::max<int64_t>(1, queryBlocks / kMaxCounted);
  double visited = 0;
  for (int64_t block = 0; block < queryBlocks; block += stride) {
    int64_t firstRow = block * tiling.blockQ;
    int64_t lastRow = std::min(nq, firstRow + tiling.blockQ) - 1;
    int64_t lo = 0, hi = nk - 1;
    if (shape.causalOffset)
      hi = std::min(hi, lastRow + *shape.causalOffset);
    if (shape.window) {
      hi = std::min(hi, lastRow + shape.window->offset + shape.window->right);
      lo = std::max(lo, firstRow + shape.window->offset - shape.window->left);
    }
    if (hi < lo || hi < 0)
      continue;
    visited += double(stride) * double(hi / tiling.blockKV - lo / tiling.blockKV + 1);
  }
  return clampToInt64(visited);
}

/// The smallest tile a target could run: the floor of every search.
Tiling smallestTiling(const AttentionShape &shape,
                      const TargetDescription &target) {
  int64_t granule = tileGranule(target);
  Tiling tiling;
  tiling.blockQ = granule;
  tiling.blockKV = granule;
  if (shape.queryLen != kUnknownSize)
    tiling.blockQ = std::min(tiling.blockQ, roundUp(shape.queryLen, granule));
  if (shape.keyLen != kUnknownSize)
    tiling.blockKV =
        std::min(tiling.blockKV, roundUp(std::max<int64_t>(shape.keyLen, 1), granule));
  tiling.warps = 1;
  tiling.stages = 1;
  return tiling;
}

std::string describe(const Tiling &tiling) { return describeTiling(tiling); }

/// Why a tiling does not fit, or "" when it does.
std::string misfit(const Tiling &tiling, const TileCosts &costs,
                   const TargetDescription &target) {
  int64_t threads = target.isGPU() ? tiling.warps * target.warpSize : 1;
  if (costs.sharedMemoryBytes > target.sharedMemoryPerBlock)
    return "needs " + std::to_string(costs.sharedMemoryBytes) +
           " bytes of shared memory; " + target.name + " has " +
           std::to_string(target.sharedMemoryPerBlock) + " per block";
  if (threads > target.maxThreadsPerBlock)
    return "needs " + std::to_string(threads) + " threads; " + target.name +
           " allows " + std::to_string(target.maxThreadsPerBlock) +
           " per block";
  // The wgmma kernel's compute warpgroups have what the TMA producer
  // kernel's register split gives them (setmaxnreg; the cp.async one
  // fits in that too).
  int64_t allowed =
      std::min(target.registersPerThread, target.registersPerSM / threads);
  if (target.isGPU() && hasWarpgroupMma(target) && costs.warpgroupMma)
    allowed = std::min(
        allowed, splitWarpgroupRegisters(threads / kKernelWarpgroupThreads,
                                         costs.producerRegisters)
                     .compute);
  if (costs.registersPerThread > allowed)
    return "needs about " + std::to_string(costs.registersPerThread) +
           " registers per thread; " + target.name + " allows " +
           std::to_string(allowed);
  // fa-distribute-attention gives each thread one query row.
  if (target.isGPU() && tiling.blockQ > threads)
    return "has " + std::to_string(threads) + " threads for block_q = " +
           std::to_string(tiling.blockQ) +
           " rows; the GPU kernel gives each thread one query row";
  return "";
}

/// Whether a tiling written on an op has positive sizes; sets `result`'s
/// error when not.
bool hasPositiveSizes(const Tiling &tiling, TileSelection &result) {
  if (tiling.blockQ > 0 && tiling.blockKV > 0 && tiling.warps > 0 &&
      tiling.stages > 0)
    return true;
  result.error = "the tiling written on the op must have positive sizes";
  return false;
}

/// On the host, a tiling whose scratch exceeds the cache: what the report
/// says about it ("" on GPUs and when it fits).
std::string overHostCache(const TileCosts &costs,
                          const TargetDescription &target) {
  if (target.isGPU() || costs.sharedMemoryBytes <= target.sharedMemoryPerBlock)
    return "";
  return "its " + formatBytes(costs.sharedMemoryBytes) + " of scratch " +
         "exceed the host's " + formatBytes(target.sharedMemoryPerBlock) +
         " of cache, which costs speed, not correctness";
}

} // namespace

std::optional<TilePolicy> mlir::fa::parseTilePolicy(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<TilePolicy>>(text)
      .Case("fa1", TilePolicy::FA1)
      .Case("fa2", TilePolicy::FA2)
      .Case("auto", TilePolicy::Auto)
      .Default(std::nullopt);
}

llvm::StringRef mlir::fa::stringifyTilePolicy(TilePolicy policy) {
  switch (policy) {
  case TilePolicy::FA1:
    return "fa1";
  case TilePolicy::FA2:
    return "fa2";
  case TilePolicy::Auto:
    return "auto";
  case TilePolicy::User:
    return "user";
  }
  return "";
}

int64_t mlir::fa::fa1BlockKV(int64_t sharedMemoryElements, int64_t headDim) {
  return ceilDiv(sharedMemoryElements, 4 * headDim);
}

int64_t mlir::fa::fa1BlockQ(int64_t sharedMemoryElements, int64_t headDim) {
  return std::min(fa1BlockKV(sharedMemoryElements, headDim), headDim);
}

TileCosts mlir::fa::evaluateTiling(const Tiling &tiling,
                                   const AttentionShape &unpacked,
                                   const TargetDescription &target) {
  const AttentionShape shape =
      tiling.packGQA ? packedShape(unpacked) : unpacked;
  TileCosts costs;
  costs.sharedMemoryBytes = sharedMemoryBytes(tiling, shape, target);
  costs.registersPerThread = registersPerThread(tiling, shape, target);
  costs.warpgroupMma =
      hasWarpgroupMma(target) && warpgroupMmaKernel(tiling, shape);
  if (costs.warpgroupMma && tmaProducerTiling(tiling, shape))
    costs.producerRegisters = tmaProducerRegisters(tiling, shape);
  int64_t threads = target.isGPU() ? tiling.warps * target.warpSize : 1;

  int64_t batch = known(shape.batch, kAssumedCount);
  int64_t heads = known(shape.heads, kAssumedCount);
  int64_t nq = known(shape.queryLen, kAssumedSequenceLength);
  int64_t nk = known(shape.keyLen, kAssumedSequenceLength);
  int64_t e = shape.elementBytes;
  double batchHeads = double(batch) * double(heads);
  double features = double(shape.headDim) + double(shape.valueDim);
  double splits = double(std::max<int64_t>(tiling.kvSplits, 1));
  costs.blocks = clampToInt64(batchHeads * double(ceilDiv(nq, tiling.blockQ)) *
                              splits);
  costs.visitedKVTiles = countVisitedKVTiles(tiling, shape);
  // Each split reads its query block again, and writes a partial f32 row
  // and its logsumexp that the merge reads back.
  double workspace =
      splits > 1 ? splits * batchHeads * double(nq) *
                       (double(shape.valueDim) + 1) * 4
                 : 0;
  costs.workspaceBytes = clampToInt64(workspace);
  costs.hbmBytesTiled = clampToInt64(
      batchHeads * (double(nq) * features * e + double(nq) * 4 +
                    (splits - 1) * double(nq) * double(shape.headDim) * e +
                    double(costs.visitedKVTiles) * double(tiling.blockKV) *
                        features * e) +
      2 * workspace);
  double scores = double(nq) * double(nk);
  costs.hbmBytesUnfused = clampToInt64(
      batchHeads * ((double(nq) + double(nk)) * features * e +
                    2 * scores * 4 + 2 * scores * e));

  if (!misfit(tiling, costs, target).empty())
    return costs;
  int64_t occupancy = target.sharedMemoryPerSM / costs.sharedMemoryBytes;
  occupancy = std::min(occupancy, target.maxThreadsPerSM / threads);
  if (target.isGPU())
    occupancy = std::min(occupancy, target.registersPerSM /
                                        (costs.registersPerThread * threads));
  // The TMA producer kernel splits an SM's registers between its
  // warpgroups (setmaxnreg) and states one block per SM: misfit() has
  // checked its compute registers against the split.
  if (costs.warpgroupMma && tmaProducerTiling(tiling, shape))
    occupancy = std::min<int64_t>(
        1, std::min(target.sharedMemoryPerSM / costs.sharedMemoryBytes,
                    target.maxThreadsPerSM / threads));
  costs.occupancyBlocksPerSM = std::max<int64_t>(occupancy, 0);
  if (costs.occupancyBlocksPerSM == 0)
    return costs;

  int64_t concurrent = target.smCount * costs.occupancyBlocksPerSM;
  costs.waves = ceilDiv(costs.blocks, concurrent);
  // The last round of blocks leaves SMs idle; few resident warps with few
  // loads in flight leave memory latency exposed. The rounds are counted
  // per SM, not per block slot: an SM that runs fewer blocks than it could
  // hold in its last round still works (each block runs faster), so only
  // SMs with no block at all are idle. Occupancy counts in the latency
  // term.
  int64_t rounds = ceilDiv(costs.blocks, target.smCount);
  double wavePenalty = double(rounds * target.smCount) /
                       double(std::max<int64_t>(costs.blocks, 1));
  double latencyPenalty = 1.0;
  if (target.isGPU())
    latencyPenalty =
        double(kLatencyHidingWarps) /
        double(std::min(kLatencyHidingWarps, costs.occupancyBlocksPerSM *
                                                 tiling.warps * tiling.stages));
  double warpPenalty = tiling.warps > 4 ? kEightWarpPenalty : 1.0;
  costs.cost =
      double(costs.hbmBytesTiled) * wavePenalty * latencyPenalty * warpPenalty;
  return costs;
}

int64_t mlir::fa::splitsWithinWorkspaceBudget(const Tiling &tiling,
                                              const AttentionShape &unpacked) {
  const AttentionShape shape =
      tiling.packGQA ? packedShape(unpacked) : unpacked;
  // Only a decode-like step is bound by its bytes (boundByBytes). A
  // prefill with a small grid splits for its SMs' compute, and its
  // workspace weighs against that.
  if (!boundByBytes(shape))
    return kMaxKVSplits;
  Tiling whole = tiling;
  whole.kvSplits = 1;
  double rows = double(known(shape.batch, kAssumedCount)) *
                double(known(shape.heads, kAssumedCount)) *
                double(known(shape.queryLen, kAssumedSequenceLength));
  // Written by the split, read back by the merge.
  double perSplit = 2 * rows * (double(shape.valueDim) + 1) * 4;
  // The bytes of K and V the blocks read, once per group of query heads:
  // the budget is against reading K and V, not against the repeats of an
  // unpacked group (which it would otherwise grow with).
  // A last key block past Nk is zero-filled, not read: the keys a query
  // block reads are at most Nk (Nk = 4096 in 80-key blocks counted 4160,
  // and MQA's 4 splits at d = 64 and 128 moved 1.6% more than the budget).
  int64_t keyHeads =
      shape.kvHeads != kUnknownSize ? shape.kvHeads : shape.heads;
  double keysRead =
      double(countVisitedKVTiles(whole, shape)) * double(tiling.blockKV);
  if (shape.keyLen != kUnknownSize)
    keysRead = std::min(
        keysRead, double(ceilDiv(known(shape.queryLen, kAssumedSequenceLength),
                                 tiling.blockQ)) *
                      double(shape.keyLen));
  double keysAndValues = double(known(shape.batch, kAssumedCount)) *
                         double(known(keyHeads, kAssumedCount)) * keysRead *
                         double(shape.headDim + shape.valueDim) *
                         double(shape.elementBytes);
  return int64_t(keysAndValues / double(kWorkspaceBudgetDivisor) / perSplit);
}

std::pair<int64_t, std::string>
mlir::fa::chooseKVSplits(const Tiling &tiling, const AttentionShape &unpacked,
                         const TargetDescription &target) {
  const AttentionShape shape =
      tiling.packGQA ? packedShape(unpacked) : unpacked;
  if (!target.isGPU())
    return {1, "no key splits: the host runs the grid's blocks one after "
               "another"};
  Tiling whole = tiling;
  whole.kvSplits = 1;
  TileCosts costs = evaluateTiling(whole, unpacked, target);
  if (costs.occupancyBlocksPerSM == 0)
    return {1, "no key splits: the tiling does not fit"};
  int64_t grid = costs.blocks;
  int64_t concurrent = target.smCount * costs.occupancyBlocksPerSM;
  std::string text;
  llvm::raw_string_ostream os(text);
  // FlashAttention-2's num_splits_heuristic, counted in blocks in flight
  // (SMs times blocks per SM) rather than SMs.
  if (double(grid) >= 0.8 * double(concurrent)) {
    os << "no key splits: " << grid << " blocks "
       << (grid >= concurrent ? "fill the " : "fill at least 80% of the ")
       << concurrent << " that " << target.name << " runs at once ("
       << target.smCount << " SMs x " << costs.occupancyBlocksPerSM << ")";
    return {1, text};
  }
  int64_t queryBlocks =
      ceilDiv(known(shape.queryLen, kAssumedSequenceLength), tiling.blockQ);
  int64_t keyBlocks = costs.visitedKVTiles / std::max<int64_t>(queryBlocks, 1);
  int64_t maxSplits =
      std::min(kMaxKVSplits, keyBlocks / kMinKeyBlocksPerSplit);
  std::string assumed = shape.keyLen == kUnknownSize
                            ? " (Nk unknown, assumed " +
                                  std::to_string(kAssumedSequenceLength) + ")"
                            : "";
  // Each split writes a partial f32 row and its logsumexp per query row,
  // which the merge reads back: for a decode step with many query rows per
  // key/value head (a packed group) that workspace grows past a useful
  // share of K and V's bytes, which the splits were meant to read faster.
  int64_t workspaceCap = splitsWithinWorkspaceBudget(tiling, shape);
  bool cappedByWorkspace = workspaceCap < maxSplits;
  maxSplits = std::min(maxSplits, workspaceCap);
  auto share = [&](int64_t blocks) {
    double percent = 100.0 * double(blocks) / double(concurrent);
    std::string text;
    llvm::raw_string_ostream(text)
        << (percent < 1 ? std::string("under 1")
                        : llvm::formatv("{0:F0}", percent).str())
        << "%";
    return text;
  };
  if (maxSplits < 2) {
    os << "no key splits: " << grid
       << (grid == 1 ? " block fills " : " blocks fill ") << share(grid)
       << " of the " << concurrent << " that " << target.name
       << " runs at once, but ";
    if (cappedByWorkspace)
      os << "two splits' partial rows would move more than 1/"
         << kWorkspaceBudgetDivisor << " of K and V's bytes" << assumed;
    else
      os << "a query block sees about " << keyBlocks
         << (keyBlocks == 1 ? " key block" : " key blocks") << assumed
         << ", too few for two splits of " << kMinKeyBlocksPerSplit;
    return {1, text};
  }
  auto efficiency = [&](int64_t splits) {
    double waves = double(grid) * double(splits) / double(concurrent);
    return waves / std::ceil(waves);
  };
  // A split count that gives each split as many key blocks as one split
  // fewer only adds blocks.
  // Splits that change the kernel's registers (the register model's terms
  // for them) must still fit.
  auto fitsSplit = [&](int64_t splits) {
    Tiling split = tiling;
    split.kvSplits = splits;
    return evaluateTiling(split, unpacked, target).occupancyBlocksPerSM > 0;
  };
  auto eligible = [&](int64_t splits) {
    return splits == 1 ||
           (ceilDiv(keyBlocks, splits) != ceilDiv(keyBlocks, splits - 1) &&
            fitsSplit(splits));
  };
  if (!fitsSplit(2)) {
    Tiling split = tiling;
    split.kvSplits = 2;
    os << "no key splits: split, the kernel would need about "
       << evaluateTiling(split, unpacked, target).registersPerThread
       << " registers per thread, more than " << target.name << " gives it";
    return {1, text};
  }
  double best = 0;
  for (int64_t splits = 1; splits <= maxSplits; ++splits)
    if (eligible(splits))
      best = std::max(best, efficiency(splits));
  int64_t chosen = 1;
  for (int64_t splits = 1; splits <= maxSplits; ++splits)
    if (eligible(splits) && efficiency(splits) >= 0.85 * best) {
      chosen = splits;
      break;
    }
  if (chosen == 1) {
    os << "no key splits: " << grid << " blocks already use "
       << llvm::format("%.0f", 100.0 * efficiency(1))
       << "% of their last wave";
    return {1, text};
  }
  os << "kv_splits = " << chosen << ": " << grid << " blocks would fill "
     << share(grid) << " of the " << concurrent << " that " << target.name
     << " runs at once (" << target.smCount << " SMs x "
     << costs.occupancyBlocksPerSM << "); splitting each query block's "
     << keyBlocks << " key blocks" << assumed << " " << chosen
     << " ways (about " << ceilDiv(keyBlocks, chosen) << " each) makes "
     << grid * chosen
     << " blocks, the fewest splits whose last wave is at least 85% as "
        "full as the best count's (FlashAttention-2's heuristic, at most "
     << maxSplits << " splits of " << kMinKeyBlocksPerSplit
     << " or more key blocks";
  if (cappedByWorkspace)
    os << ", whose partial rows move at most 1/" << kWorkspaceBudgetDivisor
       << " of K and V's bytes";
  os << ")";
  return {chosen, text};
}

namespace {

TileSelection selectFA2(const AttentionShape &shape,
                        const TargetDescription &target) {
  int64_t granule = tileGranule(target);
  auto clampTo = [&](int64_t size, int64_t length) {
    if (length == kUnknownSize)
      return size;
    return std::min(size, roundUp(std::max<int64_t>(length, 1), granule));
  };
  // f16/bf16 on a chip with m16n8k16: the tensor-core kernel is possible.
  bool mmaCapable = hasMmaSync16816(target) && shape.mmaOperands;
  // On sm_90a with D and Dv multiples of 64, the wgmma kernel is possible
  // for tilings of 16-row warps in 64-row warpgroups (warpgroupMmaKernel).
  bool wgmmaCapable = mmaCapable && hasWarpgroupMma(target) &&
                      shape.headDim % 64 == 0 && shape.valueDim % 64 == 0 &&
                      shape.valueDim <= 256;
  llvm::SmallVector<int64_t> warpCounts =
      target.isGPU() ? llvm::SmallVector<int64_t>{1, 2, 4, 8}
                     : llvm::SmallVector<int64_t>{1};
  // The TMA producer kernel with three compute warpgroups of 16-row warps:
  // 192-row blocks.
  bool warpgroupTiles = wgmmaCapable && shape.tmaProducerKernel;
  if (warpgroupTiles)
    warpCounts.push_back(12);
  llvm::SmallVector<int64_t> stageCounts =
      target.isGPU() ? llvm::SmallVector<int64_t>{1, 2, 3}
                     : llvm::SmallVector<int64_t>{1};

  std::optional<TileDecision> best;
  double bestRankCost = 0;
  int64_t considered = 0, fitting = 0;
  // Query blocks at most the rows there are (rounded to the granule),
  // unless no such tile fits (below).
  bool clampQueries = true;
  auto search = [&](llvm::ArrayRef<int64_t> querySizes,
                    llvm::ArrayRef<int64_t> keySizes) {
    llvm::SmallVector<int64_t> queryBlocks, keyBlocks;
    for (int64_t size : querySizes) {
      int64_t q = clampQueries ? clampTo(size, shape.queryLen) : size;
      if (!llvm::is_contained(queryBlocks, q))
        queryBlocks.push_back(q);
    }
    for (int64_t size : keySizes) {
      int64_t k = clampTo(size, shape.keyLen);
      if (!llvm::is_contained(keyBlocks, k))
        keyBlocks.push_back(k);
    }
    for (int64_t blockQ : queryBlocks)
      for (int64_t blockKV : keyBlocks)
        for (int64_t warps : warpCounts)
          for (int64_t stages : stageCounts) {
            // 4 or 8 warps, fewer only where the block has too few rows for
            // them: every warp owns at least one MMA tile of query rows.
            // Twelve only for the wgmma kernel's three warpgroups.
            if (target.isGPU() &&
                (blockQ < warps * kRowsPerWarp ||
                 (warps < 4 && blockQ >= 4 * kRowsPerWarp)))
              continue;
            if (warps == 12 &&
                (!warpgroupMmaKernel(Tiling{blockQ, blockKV, warps, stages},
                                     shape) ||
                 !tmaProducerTiling(Tiling{blockQ, blockKV, warps, stages},
                                    shape)))
              continue;
            if (warpgroupTiles && blockKV > kWidestRegisterProbabilities &&
                !sharedProbabilitiesTiling(
                    Tiling{blockQ, blockKV, warps, stages}, shape))
              continue;
            if (warpgroupTiles && (shape.causalOffset || shape.window) &&
                blockKV > kWidestBandKeyBlock)
              continue;
            ++considered;
            Tiling tiling{blockQ, blockKV, warps, stages};
            TileCosts costs = evaluateTiling(tiling, shape, target);
            if (costs.occupancyBlocksPerSM == 0)
              continue;
            ++fitting;
            // Where the grid is too small for the chip, the keys are split
            // after the search (splitKeys): such tilings rank by their cost
            // once split, so that one whose registers or workspace leave
            // no room for splits does not win on its unsplit cost.
            double rankCost = costs.cost;
            if (target.isGPU()) {
              Tiling split = tiling;
              split.kvSplits = chooseKVSplits(tiling, shape, target).first;
              if (split.kvSplits > 1)
                rankCost = evaluateTiling(split, shape, target).cost;
            }
            // Tilings that run on tensor cores come first: mma.sync's
            // f16/bf16 throughput is 8 to 16 times the f32 FMA kernel's
            // (A100: 312 vs 19.5 TFLOP/s), far more than any difference in
            // HBM traffic between two tilings.
            // Where wgmma is possible its tilings come first in turn:
            // FlashAttention-3 reports 1.5 to 2 times FlashAttention-2 on
            // H100 (arXiv 2407.08608); our own H200 comparison is still to
            // be run (docs/Benchmarks.md).
            // Among those, a ring of two or more K/V stages: Hopper's
            // kernels load a block ahead into the other stage (cp.async,
            // or the TMA producer warpgroup, which with one stage would
            // wait for the compute warpgroups before every load).
            // Among the TMA producer kernel's tilings, the largest tile
            // ranks first, as FlashAttention-3 picks its tiles: the
            // loop's fixed work per key block (ring waits, turns, O's
            // rescale over Dv / 2 registers per thread) is spread over
            // more keys, and each wgmma is larger, while the kernel runs
            // one block per SM whatever its tile.
            // In a paged cache, the TMA kernel's tilings whose boxes of K
            // and V are larger come first, up to 64 rows (8 KiB at d = 64):
            // where a page holds whole key blocks, a box is a block
            // (FlashAttention-3's paged TMA); else it is a run of rows
            // within a page (tmaKeyBoxRows), and a 176-key block of 16-row
            // boxes is 11 loads per column block where 128 keys of one
            // 128-slot page are one. How small a box TMA moves at full
            // bandwidth is for a GPU to say.
            // A step bound by its bytes (boundByBytes, as a decode step's
            // packed group) reads its K and V once per query block (per
            // head of the group unpacked): the tilings
            // that cover a head's rows in fewer blocks come first. The
            // cost alone ties them, since each block's bytes over the SMs
            // it keeps busy stay the same when two blocks read what one
            // would; MQA at d = 256 (32 packed rows) took two 16-row
            // blocks and moved 2.1 times one read of K and V, where one
            // 32-row block of two warps moves 1.0 to 1.1 with its splits
            // (TileSelection/decode-bytes.test).
            bool memoryBound = target.isGPU() && boundByBytes(shape);
            auto key = [&](const TileDecision &d, double cost) {
              int64_t keyReads =
                  memoryBound ? ceilDiv(shape.queryLen, d.tiling.blockQ) : 0;
              bool fma = mmaCapable && !tensorCoreKernel(d.tiling, shape);
              bool wgmma = warpgroupMmaKernel(d.tiling, shape);
              bool mmaSync = wgmmaCapable && !wgmma;
              bool oneStage = wgmmaCapable && d.tiling.stages < 2;
              bool tma = wgmma && tmaProducerTiling(d.tiling, shape);
              int64_t area = tma ? d.tiling.blockQ * d.tiling.blockKV : 0;
              constexpr int64_t largeBoxRows = 64;
              int64_t boxRows =
                  tma && shape.pageSize > 0
                      ? std::min(tmaKeyBoxRows(d.tiling, shape), largeBoxRows)
                      : 0;
              return std::make_tuple(fma, mmaSync, oneStage, keyReads, -boxRows,
                                     -area, cost, d.tiling.stages,
                                     d.tiling.warps, -d.tiling.blockQ,
                                     -d.tiling.blockKV);
            };
            TileDecision candidate;
            candidate.tiling = tiling;
            candidate.costs = costs;
            if (!best || key(candidate, rankCost) < key(*best, bestRankCost)) {
              best = candidate;
              bestRankCost = rankCost;
            }
          }
  };
  // Key blocks of 32 too, as FlashAttention-2 uses (128 x 32 for D = 128 on
  // sm_86): the register-resident kernel holds each lane's S and P, so its
  // registers, not shared memory, bound the key block.
  if (warpgroupTiles)
    search(kWarpgroupBlockSizes, kWarpgroupKeyBlockSizes);
  else if (mmaCapable)
    search(kPreferredBlockSizes, kPreferredKeyBlockSizesMma);
  else
    search(kPreferredBlockSizes, kPreferredBlockSizes);
  bool widened = !best;
  if (widened)
    search(kBlockSizes, kBlockSizes);
  // Fewer query rows than a warpgroup's 64 where only the wgmma kernel's
  // registers fit (D = 256: O alone is 128 registers in mma.sync's 16-row
  // warps): one 64-row block, its rows past Nq zero-filled and masked as
  // in any tail block.
  bool pastRows = !best && wgmmaCapable;
  if (pastRows) {
    clampQueries = false;
    constexpr int64_t oneWarpgroup[] = {64};
    search(oneWarpgroup, kWarpgroupKeyBlockSizes);
  }
  TileSelection result;
  if (!best)
    return result;
  best->policy = TilePolicy::FA2;
  std::string why;
  llvm::raw_string_ostream os(why);
  os << "fa2 searched " << considered << " candidates"
     << (pastRows
             ? " (64-row blocks past the " + std::to_string(shape.queryLen) +
                   " query rows, as no tile of at most that many rows "
                   "fits)"
         : widened        ? " (16 to 256, as no 64/128 tile fits)"
         : warpgroupTiles ? " ({64, 128, 192} x {32, 64, 80, 128, 176, 192})"
         : mmaCapable     ? " ({64, 128} x {32, 64, 128})"
                          : " ({64, 128} x {64, 128})")
     << ", " << fitting << " fit in " << target.sharedMemoryPerBlock
     << " bytes of shared memory per block";
  if (target.isGPU())
    os << " and " << target.registersPerThread << " registers per thread";
  if (wgmmaCapable)
    os << "; tilings for the wgmma kernels (16-row warps in 64-row "
          "warpgroups) rank first, then the other tensor-core ones, and among "
          "them those of two or more K/V stages rank first (a block loads "
          "while the one before it computes)"
       << (shape.tmaProducerKernel && shape.causalOffset
               ? ", key blocks of at most 128 under the causal band (as "
                 "FlashAttention-3's causal tiles)"
               : "")
       << (shape.tmaProducerKernel && shape.pageSize > 0
               ? ", then those whose TMA boxes of K and V (a key block, or "
                 "its rows within one page) are larger, up to 64 rows"
               : "")
       << (shape.tmaProducerKernel
               ? ", then the largest tile (FlashAttention-3's rule: the key "
                 "block's fixed work spread over more keys, one block per "
                 "SM whatever the tile)"
               : "");
  else if (mmaCapable)
    os << "; tilings for the tensor-core kernel ("
       << (shape.registerFragments ? "mma.sync-registers" : "mma.sync-shared")
       << ") rank first";
  os << "; " << describe(best->tiling) << " has the lowest cost: "
     << formatBytes(best->costs.hbmBytesTiled) << " of HBM traffic, "
     << best->costs.occupancyBlocksPerSM
     << (best->costs.occupancyBlocksPerSM == 1 ? " block" : " blocks")
     << " per SM, "
     << best->costs.waves << (best->costs.waves == 1 ? " wave" : " waves")
     << " over " << target.smCount << " SMs";
  if (shape.causalOffset || shape.window)
    os << ", " << best->costs.visitedKVTiles << " of "
       << ceilDiv(known(shape.queryLen, kAssumedSequenceLength),
                  best->tiling.blockQ) *
              ceilDiv(known(shape.keyLen, kAssumedSequenceLength),
                      best->tiling.blockKV)
       << " key tiles visited (masked tiles skipped)";
  result.decision = best;
  result.decision->why = why;
  return result;
}

TileSelection selectFA1(const AttentionShape &shape,
                        const TargetDescription &target) {
  int64_t granule = tileGranule(target);
  int64_t m = target.sharedMemoryPerBlock / shape.elementBytes;
  int64_t d = shape.headDim;
  int64_t formulaKV = fa1BlockKV(m, d), formulaQ = fa1BlockQ(m, d);
  std::string why;
  llvm::raw_string_ostream os(why);
  os << "fa1: M = " << m << " elements; B_c = ceil(M/4d) = " << formulaKV
     << ", B_r = min(B_c, d) = " << formulaQ;

  // Round down to the MMA granule, then keep the four B x d tiles of
  // Algorithm 1 (Q_i, K_j, V_j, O_i) within M.
  int64_t blockKV = std::max(granule, formulaKV / granule * granule);
  int64_t blockQ = std::max(granule, formulaQ / granule * granule);
  os << "; rounded down to multiples of " << granule << ": " << blockQ
     << " x " << blockKV;
  int64_t before = blockKV;
  while ((2 * blockQ + 2 * blockKV) * d > m && blockKV > granule)
    blockKV -= granule;
  if (blockKV != before)
    os << "; block_kv " << blockKV << " keeps the four tiles within M";
  if (shape.keyLen != kUnknownSize &&
      blockKV > roundUp(std::max<int64_t>(shape.keyLen, 1), granule)) {
    blockKV = roundUp(std::max<int64_t>(shape.keyLen, 1), granule);
    os << "; clamped to Nk: block_kv " << blockKV;
  }
  if (shape.queryLen != kUnknownSize &&
      blockQ > roundUp(std::max<int64_t>(shape.queryLen, 1), granule)) {
    blockQ = roundUp(std::max<int64_t>(shape.queryLen, 1), granule);
    os << "; clamped to Nq: block_q " << blockQ;
  }
  Tiling tiling{blockQ, blockKV, 1, 1};
  auto fitWarps = [&]() {
    if (target.isGPU())
      tiling.warps = std::max(
          std::clamp<int64_t>(tiling.blockQ / kRowsPerWarp, 1, 4),
          ceilDiv(tiling.blockQ, target.warpSize));
  };
  fitWarps();
  // The formula ignores registers and our padding and statistics: shrink
  // block_kv, then block_q, until the kernel can hold the tile.
  Tiling formulaTiling = tiling;
  TileCosts costs = evaluateTiling(tiling, shape, target);
  while (costs.occupancyBlocksPerSM == 0 &&
         (tiling.blockKV > granule || tiling.blockQ > granule)) {
    if (tiling.blockKV > granule)
      tiling.blockKV -= granule;
    else
      tiling.blockQ -= granule;
    fitWarps();
    costs = evaluateTiling(tiling, shape, target);
  }
  if (!(tiling == formulaTiling))
    os << "; shrunk to " << tiling.blockQ << " x " << tiling.blockKV
       << " to fit the registers and shared memory the kernel needs";
  TileSelection result;
  if (costs.occupancyBlocksPerSM == 0)
    return result;
  TileDecision decision;
  decision.tiling = tiling;
  decision.costs = costs;
  decision.policy = TilePolicy::FA1;
  decision.fa1BlockKV = formulaKV;
  decision.fa1BlockQ = formulaQ;
  decision.why = why;
  result.decision = decision;
  return result;
}

std::string noTileFits(const AttentionShape &shape,
                       const TargetDescription &target, TilePolicy policy) {
  Tiling smallest = smallestTiling(shape, target);
  TileCosts costs = evaluateTiling(smallest, shape, target);
  std::string reason = misfit(smallest, costs, target);
  if (reason.empty())
    reason = "fits, but policy " + stringifyTilePolicy(policy).str() +
             " searches no tile that small";
  return "no tiling fits on " + target.name + ": the smallest (" +
         describe(smallest) + ") " + reason;
}

/// The host's tiles when none fits its cache: the cache bounds speed, not
/// correctness, so the host never refuses for size. It takes the
/// smallest tile that still amortizes its loops (16 x 16, or the whole
/// sequence where it is shorter) and says that it runs past the cache. On
/// a GPU, the error that no tiling fits.
TileSelection hostTilesPastCache(const AttentionShape &shape,
                                 const TargetDescription &target,
                                 TilePolicy policy) {
  TileSelection result;
  if (target.isGPU()) {
    result.error = noTileFits(shape, target, policy);
    return result;
  }
  static constexpr int64_t kHostFallbackBlock = 16;
  auto clampTo = [](int64_t length) {
    return length == kUnknownSize
               ? kHostFallbackBlock
               : std::min(kHostFallbackBlock, std::max<int64_t>(length, 1));
  };
  TileDecision decision;
  decision.tiling = Tiling{clampTo(shape.queryLen), clampTo(shape.keyLen), 1, 1};
  decision.costs = evaluateTiling(decision.tiling, shape, target);
  decision.costs.occupancyBlocksPerSM = 1;
  decision.policy = policy;
  int64_t m = target.sharedMemoryPerBlock / shape.elementBytes;
  decision.fa1BlockKV = fa1BlockKV(m, shape.headDim);
  decision.fa1BlockQ = fa1BlockQ(m, shape.headDim);
  std::string pastCache = overHostCache(decision.costs, target);
  decision.why =
      (policy == TilePolicy::FA1
           ? "fa1's formula finds no tile that fits the host's " +
                 formatBytes(target.sharedMemoryPerBlock) +
                 " of cache, even shrunk to the smallest (" +
                 describe(smallestTiling(shape, target)) + ")"
           : "no tile of fa2's search (16 to 256) fits the host's " +
                 formatBytes(target.sharedMemoryPerBlock) + " of cache") +
      "; the host never refuses for size: " + describe(decision.tiling) +
      (pastCache.empty()
           ? " takes " + formatBytes(decision.costs.sharedMemoryBytes)
           : " runs past it: " + pastCache);
  result.decision = decision;
  return result;
}

/// The share of a block's rows that hold query rows, over the blocks of a
/// sequence of `rows` rows.
double rowFill(int64_t rows, int64_t blockQ) {
  int64_t padded = roundUp(std::max<int64_t>(rows, 1), blockQ);
  return double(std::max<int64_t>(rows, 1)) / double(padded);
}

/// Splits the keys of `decision`'s tiling where the grid is too small
/// (chooseKVSplits), updating its costs; returns the reason.
std::string splitKeys(TileDecision &decision, const AttentionShape &shape,
                      const TargetDescription &target) {
  auto [splits, why] = chooseKVSplits(decision.tiling, shape, target);
  decision.tiling.kvSplits = splits;
  decision.costs = evaluateTiling(decision.tiling, shape, target);
  return why;
}

/// Chooses the tiling of `selection` (its key splits, then whether to
/// pack the query groups) and appends the reasons to its why.
///
/// Where the query groups are packable, the packed attention is tiled by
/// the same policy (with its own key splits) and taken when it costs less
/// than 90% of the plain one (a tie keeps the plain kernel), or when the
/// plain blocks' rows are less than 90% as full as the packed ones', but
/// never where the packed tiling leaves the tensor cores the plain one
/// runs on (G query heads times the query rows need not split into whole
/// 16-row warp tiles: 2 x 24 rows got 48 x 176 with 2 warps, the FMA
/// kernel, where the plain 32 x 32 ran on mma.sync).
void splitAndPack(TileSelection &selection, const AttentionShape &shape,
                  const TargetDescription &target, TilePolicy policy) {
  if (!selection.decision)
    return;
  TileDecision &plain = *selection.decision;
  std::string plainSplits = splitKeys(plain, shape, target);
  AttentionShape packed = packedShape(shape);
  std::optional<TileDecision> candidate;
  std::string packedSplits;
  if (shape.queryGroupsPackable && packed.heads != shape.heads) {
    TileSelection alternative = policy == TilePolicy::FA1
                                    ? selectFA1(packed, target)
                                    : selectFA2(packed, target);
    if (alternative.decision) {
      candidate = *alternative.decision;
      packedSplits = splitKeys(*candidate, packed, target);
      // The costs of the packed tiling, seen from the original shape (key
      // splits chosen for the packed shape may change them): it must still
      // fit.
      candidate->tiling.packGQA = true;
      candidate->costs = evaluateTiling(candidate->tiling, shape, target);
      bool leavesTensorCores = hasMmaSync16816(target) && shape.mmaOperands &&
                               tensorCoreKernel(plain.tiling, shape) &&
                               !tensorCoreKernel(candidate->tiling, packed);
      if (candidate->costs.occupancyBlocksPerSM == 0 || leavesTensorCores)
        candidate.reset();
    }
  }
  // FlashAttention-3's rule (should_pack_gqa): pack where the unpacked
  // blocks' rows are less than 90% as full of real query rows as the
  // packed ones'. A decode step's single row per head fills 1/block_q of
  // a block, and its splits, not the rows, would otherwise win the grid.
  double plainFill = 0, packedFill = 0;
  if (candidate && shape.queryLen != kUnknownSize) {
    plainFill = rowFill(shape.queryLen, plain.tiling.blockQ);
    packedFill = rowFill(packed.queryLen, candidate->tiling.blockQ);
  }
  bool fillsRows = candidate && plainFill < 0.9 * packedFill;
  bool costsLess = candidate && candidate->costs.cost < 0.9 * plain.costs.cost;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!costsLess && !fillsRows) {
    if (candidate)
      os << "; packing the " << shape.heads / shape.kvHeads
         << " query heads of each key/value head (pack_gqa) would not cost "
            "less";
    plain.why += "; " + plainSplits + text;
    return;
  }
  Tiling rows = candidate->tiling;
  rows.kvSplits = 1;
  rows.packGQA = false;
  os << "; packing the " << shape.heads / shape.kvHeads
     << " query heads of each key/value head into one block's rows "
        "(pack_gqa) reads K and V once per group: "
     << formatBytes(candidate->costs.hbmBytesTiled) << " of HBM traffic "
     << "instead of " << formatBytes(plain.costs.hbmBytesTiled);
  if (fillsRows && !costsLess)
    os << ", and fills " << llvm::formatv("{0:F0}", 100 * packedFill)
       << "% of a block's rows instead of "
       << llvm::formatv("{0:F0}", 100 * plainFill)
       << "% (FlashAttention-3's rule: pack where the unpacked rows are "
          "under 90% as full)";
  os << ", with " << describe(rows) << " for the " << packed.heads
     << " packed heads; " << packedSplits;
  candidate->why = plain.why + text;
  candidate->policy = plain.policy;
  plain = *candidate;
}

} // namespace

TileSelection mlir::fa::selectTiles(const AttentionShape &shape,
                                    const TargetDescription &target,
                                    TilePolicy policy) {
  int64_t m = target.sharedMemoryPerBlock / shape.elementBytes;
  TileSelection fa1 = selectFA1(shape, target);
  splitAndPack(fa1, shape, target, TilePolicy::FA1);
  if (policy == TilePolicy::FA1) {
    if (!fa1.decision)
      return hostTilesPastCache(shape, target, TilePolicy::FA1);
    return fa1;
  }
  TileSelection fa2 = selectFA2(shape, target);
  if (!fa2.decision) {
    // On the host, FA1's formula could still shrink to a tile of a few
    // rows, but loops over 1 x 1 tiles cost more than a cache miss: the
    // host takes FA2's smallest tile past its cache instead.
    return hostTilesPastCache(shape, target, policy);
  }
  splitAndPack(fa2, shape, target, TilePolicy::FA2);
  fa2.decision->fa1BlockKV = fa1BlockKV(m, shape.headDim);
  fa2.decision->fa1BlockQ = fa1BlockQ(m, shape.headDim);
  if (policy == TilePolicy::Auto) {
    fa2.decision->policy = TilePolicy::Auto;
    std::string why = "auto is fa2: " + fa2.decision->why;
    if (fa1.decision)
      why += "; fa1 would use " + describe(fa1.decision->tiling) + " (" +
             fa1.decision->why + ")";
    fa2.decision->why = why;
  }
  return fa2;
}

TileSelection mlir::fa::checkTiling(const Tiling &tiling,
                                    const AttentionShape &shape,
                                    const TargetDescription &target) {
  TileSelection result;
  if (!hasPositiveSizes(tiling, result))
    return result;
  if (tiling.packGQA && !shape.queryGroupsPackable) {
    result.error = "the tiling written on the op packs query groups "
                   "(pack_gqa), which this attention does not allow";
    return result;
  }
  TileCosts costs = evaluateTiling(tiling, shape, target);
  // The host's "shared memory" is its cache, which bounds speed, not
  // correctness: a tiling written on the op runs however large it is.
  std::string overCache = overHostCache(costs, target);
  if (!overCache.empty())
    costs.occupancyBlocksPerSM = 1;
  if (costs.occupancyBlocksPerSM == 0) {
    std::string reason = misfit(tiling, costs, target);
    result.error = "the tiling written on the op (" + describe(tiling) + ") " +
                   (reason.empty() ? "does not fit on " + target.name
                                   : reason);
    return result;
  }
  int64_t m = target.sharedMemoryPerBlock / shape.elementBytes;
  TileDecision decision;
  decision.tiling = tiling;
  decision.costs = costs;
  decision.policy = TilePolicy::User;
  decision.fa1BlockKV = fa1BlockKV(m, shape.headDim);
  decision.fa1BlockQ = fa1BlockQ(m, shape.headDim);
  decision.why = "the tiling written on the op (" + describe(tiling) +
                 ") wins; " +
                 (overCache.empty()
                      ? "it fits " + target.name + " with " +
                            std::to_string(costs.sharedMemoryBytes) + " of " +
                            std::to_string(target.sharedMemoryPerBlock) +
                            " bytes of shared memory"
                      : overCache);
  result.decision = decision;
  return result;
}

//===----------------------------------------------------------------------===//
// The backward pass.
//===----------------------------------------------------------------------===//

TileCosts mlir::fa::evaluateBackwardTiling(const Tiling &tiling,
                                           const AttentionShape &shape,
                                           const TargetDescription &target) {
  TileCosts costs;
  costs.sharedMemoryBytes = backwardSharedMemoryBytes(tiling, shape, target);
  costs.registersPerThread = backwardRegistersPerThread(tiling, shape, target);
  int64_t threads = target.isGPU() ? tiling.warps * target.warpSize : 1;
  bool fits = costs.sharedMemoryBytes <= target.sharedMemoryPerBlock &&
              threads <= target.maxThreadsPerBlock &&
              costs.registersPerThread <= target.registersPerThread &&
              costs.registersPerThread * threads <= target.registersPerSM;
  // With a producer warpgroup (where its compute warpgroups' share of the
  // registers fits the kernel), the dK/dV block runs alone on its SM.
  bool producer = warpgroupBackwardProducer(tiling, shape, target);
  if (fits && producer) {
    costs.occupancyBlocksPerSM = 1;
  } else if (fits) {
    int64_t bySharedMemory =
        target.sharedMemoryPerSM / std::max<int64_t>(1, costs.sharedMemoryBytes);
    int64_t byThreads = target.maxThreadsPerSM / threads;
    int64_t byRegisters =
        target.isGPU()
            ? target.registersPerSM /
                  std::max<int64_t>(1, costs.registersPerThread * threads)
            : byThreads;
    costs.occupancyBlocksPerSM =
        std::max<int64_t>(1, std::min({bySharedMemory, byThreads, byRegisters}));
  }
  int64_t batch = known(shape.batch, 1), heads = known(shape.heads, 1);
  int64_t kvHeads = known(shape.kvHeads, heads);
  int64_t nq = known(shape.queryLen, kAssumedSequenceLength);
  int64_t nk = known(shape.keyLen, kAssumedSequenceLength);
  costs.visitedKVTiles = countVisitedKVTiles(tiling, shape);
  costs.blocks = clampToInt64(double(batch) * double(kvHeads) *
                                  double(ceilDiv(nk, tiling.blockKV)) +
                              double(batch) * double(heads) *
                                  double(ceilDiv(nq, tiling.blockQ)));
  double e = shape.elementBytes;
  double widths = double(shape.headDim) + double(shape.valueDim);
  // Per head, every visited tile pair reads a query block's Q, dO, L and D
  // in the dK/dV pass and a key block's K and V in the dQ pass; then the
  // gradients are written once and O, dO read once for D.
  double perPair = double(tiling.blockQ) * (widths * e + 8) +
                   double(tiling.blockKV) * widths * e;
  double once = double(nq) * (widths * e * 3) + double(nk) * widths * e * 2;
  costs.hbmBytesTiled = clampToInt64(
      double(batch) * double(heads) *
      (double(costs.visitedKVTiles) * perPair + once));
  // The unfused backward writes and reads P, dP and dS [Nq, Nk] in f32.
  costs.hbmBytesUnfused = clampToInt64(
      double(batch) * double(heads) *
      (double(nq) * double(nk) * 4 * 6 + once));
  costs.cost = double(costs.hbmBytesTiled);
  return costs;
}

namespace {

std::string describeBackward(const Tiling &tiling) {
  return std::to_string(tiling.blockQ) + " x " +
         std::to_string(tiling.blockKV) + ", " +
         std::to_string(tiling.warps) +
         (tiling.warps == 1 ? " warp" : " warps") +
         (tiling.stages > 1 ? ", " + std::to_string(tiling.stages) + " stages"
                            : "");
}

/// Fills a decision's FA1 columns: FlashAttention-1's forward formula, for
/// comparison in the report.
void fillFA1(TileDecision &decision, const AttentionShape &shape,
             const TargetDescription &target) {
  int64_t m = target.sharedMemoryPerBlock / shape.elementBytes;
  decision.fa1BlockKV = fa1BlockKV(m, shape.headDim);
  decision.fa1BlockQ = fa1BlockQ(m, shape.headDim);
}

} // namespace

namespace {

TileSelection selectBackwardTilesFor(const AttentionShape &shape,
                                     const TargetDescription &target);
TileSelection checkBackwardTilingFor(const Tiling &tiling,
                                     const AttentionShape &shape,
                                     const TargetDescription &target);

/// `select(shape)`, a backward tiling for `shape`'s dQ as it asks; where
/// it leaves the order free (atomics) and no tiling fits the dK/dV kernel
/// that adds dQ, `select` again with dQ in a kernel of its own.
TileSelection withQueryGradientFallback(
    const AttentionShape &shape, const TargetDescription &target,
    llvm::function_ref<TileSelection(const AttentionShape &)> select) {
  // The host's tiled backward and a GPU's without the mma.sync kernels
  // (fa-tile-attention-backward) sum dQ in order.
  if (!target.isGPU() || !hasMmaSync16816(target) ||
      shape.deterministicQueryGradient) {
    AttentionShape ordered = shape;
    ordered.deterministicQueryGradient = true;
    return select(ordered);
  }
  TileSelection result = select(shape);
  if (result.decision) {
    result.decision->why += "; dQ added with f32 atomics from the dK/dV "
                            "kernel (FlashAttention-2's and -3's default; "
                            "`deterministic` on the op sums it in a kernel of "
                            "its own)";
    return result;
  }
  // The dK/dV kernel that adds dQ holds its product's fragments beside dK
  // and dV; where no tiling leaves room for them, dQ gets its own kernel.
  AttentionShape separate = shape;
  separate.deterministicQueryGradient = true;
  TileSelection fallback = select(separate);
  // Where neither fits, the lighter kernels' shortfall is the one to state.
  if (!fallback.decision)
    return fallback;
  fallback.decision->deterministicQueryGradient = true;
  fallback.decision->why +=
      "; dQ in a kernel of its own (deterministic): " + result.error +
      " with dQ's atomic product in the dK/dV kernel";
  return fallback;
}

} // namespace

TileSelection mlir::fa::selectBackwardTiles(const AttentionShape &shape,
                                            const TargetDescription &target) {
  return withQueryGradientFallback(
      shape, target, [&](const AttentionShape &asked) {
        return selectBackwardTilesFor(asked, target);
      });
}

TileSelection mlir::fa::checkBackwardTiling(const Tiling &tiling,
                                            const AttentionShape &shape,
                                            const TargetDescription &target) {
  return withQueryGradientFallback(
      shape, target, [&](const AttentionShape &asked) {
        return checkBackwardTilingFor(tiling, asked, target);
      });
}

namespace {

/// Why no tiling runs the dK/dV kernel on wgmma for `shape` on a wgmma
/// target: the head dims, or else the registers of its smallest tiling.
std::string whyNoWarpgroupBackward(const AttentionShape &shape,
                                   const TargetDescription &target) {
  constexpr int64_t smallestQ = 16, smallestKV = 64;
  if (shape.elementBytes != 2)
    return "wgmma takes f16 or bf16 operands";
  Tiling smallest{smallestQ, smallestKV, smallestKV / 16, 1};
  std::string reason = whyNoWarpgroupBackwardTiling(smallest, shape);
  if (!reason.empty())
    return reason;
  return "even 16 x 64 needs about " +
         std::to_string(backwardRegistersPerThread(smallest, shape, target)) +
         " registers per thread, or more shared memory than it has";
}

TileSelection selectBackwardTilesFor(const AttentionShape &shape,
                                     const TargetDescription &target) {
  TileSelection result;
  int64_t granule = target.isGPU() ? 16 : 8;
  std::vector<int64_t> sizes;
  for (int64_t size = granule; size <= 128; size *= 2)
    sizes.push_back(size);
  auto capped = [&](int64_t size, int64_t length) {
    if (length == kUnknownSize)
      return size;
    return std::min(size, roundUp(std::max<int64_t>(length, 1), granule));
  };
  std::optional<TileDecision> best;
  int64_t considered = 0;
  // Stages beyond 1 only where the kernels stream through cp.async.
  llvm::SmallVector<int64_t> stageCounts = {1};
  if (target.isGPU() && hasMmaSync16816(target))
    stageCounts.push_back(2);
  for (int64_t blockQ : sizes) {
    for (int64_t blockKV : sizes) {
      // One warp per 16 keys of the dK/dV kernel's block (each owns one
      // fragment tile of keys), at most 8; on sm_90a also the wgmma
      // kernel's with dK and dV split by columns (two warpgroups per 64
      // keys), where its head dims need it.
      int64_t cappedKV = capped(blockKV, shape.keyLen);
      llvm::SmallVector<int64_t, 2> warpCounts = {
          target.isGPU()
              ? std::max<int64_t>(1, std::min<int64_t>(8, cappedKV / 16))
              : 1};
      int64_t split = warpgroupBackwardColumnSplit(shape);
      if (hasWarpgroupMma(target) && split > 1)
        warpCounts.push_back(cappedKV / 16 * split);
      for (int64_t stages : stageCounts)
        for (int64_t warps : warpCounts) {
          Tiling tiling;
          tiling.blockQ = capped(blockQ, shape.queryLen);
          tiling.blockKV = cappedKV;
          tiling.warps = warps;
          tiling.stages = stages;
          ++considered;
          TileCosts costs = evaluateBackwardTiling(tiling, shape, target);
          if (costs.occupancyBlocksPerSM == 0)
            continue;
          // On sm_90a the tilings whose dK/dV kernel runs on wgmma first.
          auto key = [&](const Tiling &t) {
            return std::make_tuple(warpgroupBackwardKernel(t, shape, target),
                                   t.blockQ * t.blockKV,
                                   warpgroupBackwardProducer(t, shape, target),
                                   t.blockKV, t.stages);
          };
          if (best && key(tiling) <= key(best->tiling))
            continue;
          TileDecision decision;
          decision.tiling = tiling;
          decision.costs = costs;
          decision.policy = TilePolicy::FA2;
          best = decision;
        }
    }
  }
  if (!best && !target.isGPU()) {
    // The host's cache bounds speed, not correctness (hostTilesPastCache).
    TileDecision decision;
    decision.tiling = Tiling{capped(16, shape.queryLen),
                             capped(16, shape.keyLen), 1, 1};
    decision.costs = evaluateBackwardTiling(decision.tiling, shape, target);
    decision.costs.occupancyBlocksPerSM = 1;
    decision.policy = TilePolicy::FA2;
    fillFA1(decision, shape, target);
    decision.why = "backward pass: no tile over {" + std::to_string(granule) +
                   "..128}^2 fits the host's " +
                   formatBytes(target.sharedMemoryPerBlock) +
                   " of cache; the host never refuses for size: " +
                   describeBackward(decision.tiling) + " runs past it (" +
                   formatBytes(decision.costs.sharedMemoryBytes) +
                   " of scratch), which costs speed, not correctness";
    result.decision = decision;
    return result;
  }
  if (!best) {
    Tiling smallest{granule, granule, 1, 1};
    TileCosts costs = evaluateBackwardTiling(smallest, shape, target);
    std::string reason;
    if (costs.sharedMemoryBytes > target.sharedMemoryPerBlock)
      reason = "need " + std::to_string(costs.sharedMemoryBytes) +
               " bytes of shared memory; it has " +
               std::to_string(target.sharedMemoryPerBlock) + " per block";
    else
      reason = "need about " + std::to_string(costs.registersPerThread) +
               " registers per thread; it allows " +
               std::to_string(target.registersPerThread);
    result.error = "no backward tiling fits " + target.name + ": even " +
                   std::to_string(granule) + " x " + std::to_string(granule) +
                   " tiles " + reason;
    return result;
  }
  fillFA1(*best, shape, target);
  best->why =
      "backward pass: the largest of " + std::to_string(considered) +
      " tiles over {" + std::to_string(granule) + "..128}^2 that fits (" +
      describeBackward(best->tiling) + ", " +
      formatBytes(best->costs.sharedMemoryBytes) + " of " +
      formatBytes(target.sharedMemoryPerBlock) +
      (target.isGPU()
           ? std::string(shape.deterministicQueryGradient
                             ? " for K, V, Q and dO"
                             : " for K, V, Q, dO and dS^T") +
                 "; about " + std::to_string(best->costs.registersPerThread) +
                 " of " + std::to_string(target.registersPerThread) +
                 " registers per thread"
           : " for K, V, Q, dO, P and dS, the f32 accumulators and "
             "scores") +
      "), by area, then block_kv, then stages" +
      (hasWarpgroupMma(target)
           ? warpgroupBackwardKernel(best->tiling, shape, target)
                 ? std::string("; first the tilings whose dK/dV kernel runs "
                               "on wgmma (64 keys per warpgroup)") +
                       (!shape.tmaProducerKernel ? std::string()
                        : warpgroupBackwardProducer(best->tiling, shape, target)
                            ? ", with a TMA producer warpgroup (about " +
                                  std::to_string(warpgroupBackwardRegisters(
                                      best->tiling, shape, target)) +
                                  " of the compute warpgroups' " +
                                  std::to_string(
                                      splitWarpgroupRegisters(
                                          best->tiling.warps * target.warpSize /
                                          kKernelWarpgroupThreads)
                                          .compute) +
                                  " registers after setmaxnreg)"
                            : ", on cp.async, not a TMA producer warpgroup: " +
                                  whyNoWarpgroupBackwardProducer(best->tiling,
                                                                 shape))
                 : "; no tiling fits the dK/dV kernel on wgmma (" +
                       whyNoWarpgroupBackward(shape, target) + "): mma.sync's"
           : std::string());
  result.decision = best;
  return result;
}

TileSelection checkBackwardTilingFor(const Tiling &tiling,
                                     const AttentionShape &shape,
                                     const TargetDescription &target) {
  TileSelection result;
  if (!hasPositiveSizes(tiling, result))
    return result;
  if (tiling.kvSplits != 1 || tiling.packGQA) {
    result.error = "the backward pass takes no kv_splits or pack_gqa (they "
                   "are decode-step forms of the forward pass)";
    return result;
  }
  TileCosts costs = evaluateBackwardTiling(tiling, shape, target);
  std::string overCache = overHostCache(costs, target);
  if (!overCache.empty())
    costs.occupancyBlocksPerSM = 1;
  if (costs.occupancyBlocksPerSM == 0) {
    result.error = "the backward tiling written on the op (" +
                   describeBackward(tiling) + ") needs " +
                   std::to_string(costs.sharedMemoryBytes) +
                   " bytes of shared memory and about " +
                   std::to_string(costs.registersPerThread) +
                   " registers per thread; " + target.name + " has " +
                   std::to_string(target.sharedMemoryPerBlock) +
                   " bytes per block and " +
                   std::to_string(target.registersPerThread) +
                   " registers per thread";
    return result;
  }
  TileDecision decision;
  decision.tiling = tiling;
  decision.costs = costs;
  decision.policy = TilePolicy::User;
  fillFA1(decision, shape, target);
  decision.why = "the backward tiling written on the op (" +
                 describeBackward(tiling) + ") wins; " +
                 (overCache.empty()
                      ? "it fits " + target.name + " with " +
                            std::to_string(costs.sharedMemoryBytes) + " of " +
                            std::to_string(target.sharedMemoryPerBlock) +
                            " bytes of shared memory"
                      : overCache);
  result.decision = decision;
  return result;
}

} // namespace

std::optional<LinearChunkDecision>
mlir::fa::selectLinearChunk(int64_t headDim, int64_t valueDim,
                            int64_t elementBytes, bool normalized, bool decay,
                            int64_t sramBytes, std::string &error) {
  constexpr int64_t kPreferred = 64, kSmallest = 16;
  for (int64_t chunk = kPreferred; chunk >= kSmallest; chunk /= 2) {
    int64_t bytes = linearChunkBytes(chunk, headDim, valueDim, elementBytes,
                                     normalized, decay);
    if (bytes > sramBytes)
      continue;
    LinearChunkDecision decision;
    decision.chunk = chunk;
    decision.sharedMemoryBytes = bytes;
    decision.why =
        chunk == kPreferred
            ? "chunk 64 (flash-linear-attention's): Q, K and V's rows and the "
              "state take " +
                  std::to_string(bytes) + " of " + std::to_string(sramBytes) +
                  " bytes"
            : "chunk " + std::to_string(chunk) +
                  ", the largest power of two whose rows and state (" +
                  std::to_string(bytes) + " bytes) fit " +
                  std::to_string(sramBytes) + " bytes (64 would need " +
                  std::to_string(linearChunkBytes(kPreferred, headDim, valueDim,
                                                  elementBytes, normalized,
                                                  decay)) +
                  ")";
    return decision;
  }
  error = "no chunk of linear attention fits the target's " +
          std::to_string(sramBytes) + " bytes of shared memory: 16 rows need " +
          std::to_string(linearChunkBytes(kSmallest, headDim, valueDim,
                                          elementBytes, normalized, decay)) +
          " (D = " + std::to_string(headDim) +
          ", Dv = " + std::to_string(valueDim) + ")";
  return std::nullopt;
}
