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
/// search: 192-row blocks (three compute warpgroups) and 80- and
/// 176-key blocks (arXiv 2407.08608; its hopper/tile_size.h).
constexpr int64_t kWarpgroupBlockSizes[] = {64, 128, 192};
constexpr int64_t kWarpgroupKeyBlockSizes[] = {32, 64, 80, 128, 176};
/// Rows of an mma.sync tile: each warp owns at least this many query rows.
constexpr int64_t kRowsPerWarp = 16;
/// Warps (times pipeline stages in flight) an SM needs to hide memory
/// latency.
constexpr int64_t kLatencyHidingWarps = 8;
/// FA2's kernel traits report 8 warps 18-28% slower than 4.
constexpr double kEightWarpPenalty = 1.2;

int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/// Byte and register counts are computed in double and clamped, so that
/// absurd shapes or tiles give huge numbers (which never fit) instead of
/// overflowing; doubles are exact below 2^53, far beyond any real size.
int64_t clampToInt64(double value) {
  constexpr double limit = 9.2e18;
  return value >= limit ? std::numeric_limits<int64_t>::max()
                        : static_cast<int64_t>(value);
}
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
        allowed,
        splitWarpgroupRegisters(threads / kKernelWarpgroupThreads).compute);
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

std::string mlir::fa::describeTiling(const Tiling &tiling) {
  std::string text =
      std::to_string(tiling.blockQ) + " x " + std::to_string(tiling.blockKV) +
      ", " + std::to_string(tiling.warps) +
      (tiling.warps == 1 ? " warp, " : " warps, ") +
      std::to_string(tiling.stages) + (tiling.stages == 1 ? " stage" : " stages");
  if (tiling.kvSplits > 1)
    text += ", " + std::to_string(tiling.kvSplits) + " key splits";
  if (tiling.packGQA)
    text += ", query groups packed";
  return text;
}

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

bool mlir::fa::hasMmaSync16816(const TargetDescription &target) {
  return target.isGPU() && llvm::is_contained(target.mmaShapes, "m16n8k16");
}

bool mlir::fa::hasWarpgroupMma(const TargetDescription &target) {
  return target.isGPU() && llvm::is_contained(target.mmaShapes, "m64n256k16");
}

bool mlir::fa::warpgroupMmaKernel(const Tiling &tiling,
                                  const AttentionShape &shape) {
  constexpr int64_t warpgroupRows = 64, warpRows = 16;
  return tensorCoreKernel(tiling, shape) && shape.elementBytes == 2 &&
         shape.headDim % 64 == 0 && shape.valueDim % 64 == 0 &&
         shape.valueDim <= 256 &&
         tiling.blockQ % warpgroupRows == 0 &&
         tiling.warps * warpRows == tiling.blockQ && tiling.blockKV >= 16 &&
         tiling.blockKV <= 256;
}

bool mlir::fa::tensorCoreKernel(const Tiling &tiling,
                                const AttentionShape &shape) {
  // The m and k of m16n8k16; each warp multiplies whole 16-row tiles.
  constexpr int64_t edge = 16;
  return shape.mmaOperands && shape.headDim % edge == 0 &&
         shape.valueDim % edge == 0 && tiling.blockKV % edge == 0 &&
         tiling.warps > 0 && tiling.blockQ % (tiling.warps * edge) == 0;
}

WarpgroupRegisters
mlir::fa::splitWarpgroupRegisters(int64_t computeWarpgroups) {
  constexpr int64_t registersPerSM = 64 * 1024, producer = 24, most = 240;
  WarpgroupRegisters split;
  split.producer = producer;
  int64_t perThread = registersPerSM / kKernelWarpgroupThreads; // 512
  int64_t share =
      (perThread - producer) / std::max<int64_t>(computeWarpgroups, 1);
  split.compute = std::min<int64_t>(most, share / 8 * 8);
  return split;
}

std::string KernelPlan::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << (tmaProducer    ? "wgmma, register fragments, TMA producer warpgroup"
         : warpgroupMma ? "wgmma, register fragments"
         : registerFragments ? "mma.sync, register fragments"
         : tensorCores       ? "mma.sync, shared-memory S and P"
                             : "FMA");
  if (!tmaProducer)
    os << (asyncCopies ? ", cp.async" : ", synchronous copies");
  if (overlapSoftmax)
    os << ", P V overlapping the next softmax";
  if (pingPong)
    os << ", ping-pong";
  os << ", " << threads << " threads, " << stages
     << (stages == 1 ? " stage" : " stages");
  if (rowSplit > 1)
    os << ", " << rowSplit << " threads per row";
  if (!tensorCores)
    os << ", " << keyChunk << " keys per step";
  return text;
}

KernelPlan mlir::fa::planKernel(const Tiling &tiling,
                                const AttentionShape &shape, int64_t keyBytes,
                                int64_t valueBytes,
                                const KernelChoices &choices) {
  KernelPlan plan;
  plan.threads = tiling.warps * kKernelWarpSize;
  plan.stages = tiling.stages;
  // Rows of `width` elements of `bytes` copy as whole 16-byte chunks spread
  // evenly over the threads (else the copies need a guard and stay
  // synchronous).
  auto evenChunks = [&](int64_t width, int64_t bytes) {
    int64_t perChunk = kKernelChunkBytes / bytes;
    int64_t chunk = width % perChunk == 0 ? perChunk : 1;
    return chunk * bytes == kKernelChunkBytes &&
           (tiling.blockKV * (width / chunk)) % plan.threads == 0;
  };
  plan.tensorCores = choices.tensorCores && tensorCoreKernel(tiling, shape);
  // Block_kv and Dv are multiples of 16 here: whole pairs of 8-column
  // chunks for the two threads of a row.
  plan.registerFragments = plan.tensorCores && choices.registerFragments;
  plan.warpgroupMma = plan.registerFragments && choices.warpgroupMma &&
                      warpgroupMmaKernel(tiling, shape);
  // The producer warpgroup is a fifth (or third) warpgroup of its own.
  plan.tmaProducer = plan.warpgroupMma && choices.tmaProducer;
  if (plan.tmaProducer)
    plan.threads += kKernelWarpgroupThreads;
  // P V a block late needs a second stage: block i + 1's K and V land while
  // block i's V is still read.
  plan.overlapSoftmax = plan.tmaProducer && choices.overlapSoftmax &&
                        tiling.stages >= 2 && !shape.scoreMod;
  int64_t computeWarpgroups =
      tiling.warps * kKernelWarpSize / kKernelWarpgroupThreads;
  plan.pingPong = plan.tmaProducer && choices.pingPong && computeWarpgroups >= 2;
  plan.asyncCopies = !plan.tmaProducer && choices.asyncCopies &&
                     (tiling.stages > 1 || plan.registerFragments) &&
                     evenChunks(shape.headDim, keyBytes) &&
                     evenChunks(shape.valueDim, valueBytes);
  if (plan.tensorCores && !plan.registerFragments &&
      plan.threads == 2 * tiling.blockQ)
    plan.rowSplit = 2;
  for (int64_t chunk = kKernelMaxKeyChunk; chunk > 1; chunk /= 2)
    if (tiling.blockKV % chunk == 0) {
      plan.keyChunk = chunk;
      break;
    }
  return plan;
}

bool mlir::fa::swizzledSharedRows(int64_t width, int64_t elementBytes) {
  constexpr int64_t chunkBytes = 16;
  if (elementBytes <= 0 || (width * elementBytes) % chunkBytes != 0)
    return false;
  int64_t chunks = width * elementBytes / chunkBytes;
  return chunks == 2 || chunks == 4 || chunks % 8 == 0;
}

int64_t mlir::fa::sharedMemoryBytes(const Tiling &tiling,
                                    const AttentionShape &shape,
                                    const TargetDescription &target) {
  double e = shape.elementBytes;
  double stagedRows = double(tiling.stages) * double(tiling.blockKV);
  if (target.isGPU()) {
    // Exactly what fa-distribute-attention allocates: Q [Br][D'],
    // K [stages][Bc][D'] and V [stages][Bc][Dv'], each tile starting
    // 16-byte aligned, with D' = D + 16 bytes (padded) or D (swizzled, the
    // tensor-core kernel where it can). The row max and sum, and in the
    // tensor-core kernel S, P and O, live in registers.
    bool swizzle = hasMmaSync16816(target) && tensorCoreKernel(tiling, shape);
    auto rowBytes = [&](int64_t width) {
      double bytes = double(width) * e;
      return swizzle && swizzledSharedRows(width, shape.elementBytes)
                 ? bytes
                 : bytes + 16;
    };
    auto alignUp = [](double bytes) { return std::ceil(bytes / 16) * 16; };
    double query = double(tiling.blockQ) * rowBytes(shape.headDim);
    double key = stagedRows * rowBytes(shape.headDim);
    double value = stagedRows * rowBytes(shape.valueDim);
    // The TMA producer kernel's mbarriers (a few words, a static global)
    // take a whole 1024-byte slot: its tiles start on the swizzle
    // pattern's boundary after them (ptxas: 41984 bytes for 40960 of
    // tiles at d = 64, 64 x 64, issue 50's seed 1231).
    double barriers = hasWarpgroupMma(target) &&
                              warpgroupMmaKernel(tiling, shape) &&
                              shape.tmaProducerKernel
                          ? double(kTmaBarrierSlotBytes)
                          : 0.0;
    return clampToInt64(alignUp(alignUp(query) + key) + value + barriers);
  }
  // The host has no registers to spare: the f32 row statistics, the
  // accumulator and the score tile are scratch too.
  double query = double(tiling.blockQ) * double(shape.headDim) * e;
  double keyValue =
      stagedRows * (double(shape.headDim) + double(shape.valueDim)) * e;
  double statistics = 2.0 * double(tiling.blockQ) * 4;
  double scratch = double(tiling.blockQ) *
                   (double(shape.valueDim) + double(tiling.blockKV)) * 4;
  return clampToInt64(query + keyValue + statistics + scratch);
}

std::optional<int64_t>
mlir::fa::minBlocksPerSMHint(int64_t sharedMemoryBytes, int64_t threads,
                             const TargetDescription &target) {
  if (!target.isGPU() || sharedMemoryBytes <= 0 || threads <= 0 ||
      sharedMemoryBytes > target.sharedMemoryPerSM)
    return std::nullopt;
  int64_t atRegisterMaximum =
      target.registersPerSM / (threads * target.registersPerThread);
  int64_t blocks =
      std::min({target.sharedMemoryPerSM / sharedMemoryBytes,
                target.maxThreadsPerSM / threads, atRegisterMaximum});
  if (blocks < 1)
    return std::nullopt;
  return blocks;
}

int64_t mlir::fa::registersPerThread(const Tiling &tiling,
                                     const AttentionShape &shape,
                                     const TargetDescription &target) {
  if (!target.isGPU())
    return 0;
  if (hasWarpgroupMma(target) && warpgroupMmaKernel(tiling, shape) &&
      shape.tmaProducerKernel) {
    // Per compute thread of the TMA producer kernel, scheduled as by
    // default (P V a block late, ping-pong): O's accumulator (Dv / 2), S's
    // (Bc / 2), the P carried to the next block (Bc / 4), D / 8 for
    // descriptors and addresses, 24 for the loop's state and ring
    // positions, 8 more with a causal or window band, (D - Dv) / 2 where D
    // exceeds Dv. Fitted to ptxas (CUDA 13, sm_90a): the smallest
    // setmaxnreg.inc that compiles each kernel without a spill
    // (scripts/experiments/wgmma_registers.py --tma). Over the 40 tilings
    // it admits there (d = 64, 128, 256; 128 and 192 rows; 32 to 176 keys;
    // causal or not) it is within 16 of ptxas either way (ptxas's counts
    // move by a register class with the shape), and every one of them
    // compiles within its warpgroups' share, 240 or 160 (docs/GPU.md,
    // "Hopper").
    double bands = shape.causalOffset || shape.window ? 8 : 0;
    // score_mod, mask_mod and sinks: their positions, captured buffers
    // and temporaries; ALiBi at d = 128 spills 28 bytes at 128 x 176 and
    // none at 128 x 128 (docs/GPU.md).
    if (shape.scoreModifications)
      bands += 16;
    // A bias or boolean mask operand's element per score and addresses:
    // about B_c / 4 + 8 (issue 50's sweep: d = 64 with a [4095, 4095] bias
    // spilled 4 bytes at 192 x 128, estimated 160, and 28 at 128 x 176,
    // estimated 204 of 240).
    if (shape.maskOperand)
      bands += double(tiling.blockKV) / 4 + 8;
    double wideKeys =
        std::max<double>(double(shape.headDim) - double(shape.valueDim), 0) / 2;
    // What changes with N (issue 50; scripts/experiments/wgmma_registers.py
    // --tma-lengths measures each tiling at N from 100 to 8192 and at run
    // time). The non-causal walk goes from the last key block to the first
    // so that its one masked block is the first (FlashAttention-3's order),
    // which keeps the need flat in N, except where Nk is known and spans
    // exactly two key blocks: the loop then runs once and LLVM lays the
    // blocks out as straight-line code, which ptxas schedules into 16 to 40
    // more registers (B_c / 4 covers it).
    bool bandOrSplits = shape.causalOffset || shape.window;
    double straightLine = 0;
    if (shape.keyLen != kUnknownSize && tiling.kvSplits <= 1 &&
        (shape.keyLen + tiling.blockKV - 1) / tiling.blockKV == 2)
      straightLine = double(tiling.blockKV) / 4;
    // Key splits under a band keep each split's range and its partial
    // output's addresses live beside the band's bases: about Dv / 8 more
    // (32 at d = 256, where 128 x 64 needs over 256 with splits).
    double splitBands =
        bandOrSplits && tiling.kvSplits > 1 ? double(shape.valueDim) / 8 : 0;
    return clampToInt64(std::ceil(
        double(shape.valueDim) / 2 + 3 * double(tiling.blockKV) / 4 +
        double(shape.headDim) / 8 + wideKeys + bands + straightLine +
        splitBands + 24));
  }
  if (hasWarpgroupMma(target) && warpgroupMmaKernel(tiling, shape)) {
    // Per compute thread of the cp.async wgmma kernel: O's accumulator (Dv / 2:
    // a warpgroup's 64 rows of wgmma m64nDv over 128 threads), S's (Bc / 2), P
    // packed in pairs (Bc / 4) and about as much again in flight while P V is
    // issued; D / 4 for descriptors and addresses (Q and K are read from shared
    // memory, not held: the mma.sync kernel's 5 D / 16 of Q fragments are
    // gone), and (D - Dv) / 2 more where D exceeds Dv (ptxas keeps more of
    // Q K^T's operands live then); a causal or window band's bases and
    // masks. Fitted to ptxas (CUDA 13, sm_90a) on the cp.async wgmma
    // kernel: over the 64 tilings of scripts/experiments/wgmma_registers.py
    // it never falls short of ptxas and exceeds it by at most 72
    // (docs/GPU.md, "Hopper").
    double bands = shape.causalOffset || shape.window ? 24 : 0;
    double packed = shape.packedSequences ? 8 : 0;
    packed += shape.scoreModifications ? 8 : 0; // as in the TMA kernel
    double oneStage = tiling.stages == 1 ? 10 : 0;
    double wideKeys =
        std::max<double>(double(shape.headDim) - double(shape.valueDim), 0) / 2;
    return clampToInt64(std::ceil(
        double(shape.valueDim) / 2 + double(tiling.blockKV) +
        double(shape.headDim) / 4 + wideKeys + bands + packed + oneStage + 14));
  }
  if (hasMmaSync16816(target) && tensorCoreKernel(tiling, shape)) {
    double fragmentRows = double(tiling.blockQ) / double(tiling.warps) / 16;
    double fragments =
        fragmentRows * (double(shape.valueDim) / 2 +
                        3 * double(tiling.blockKV) / 4);
    // With one stage, the shared addresses K's and V's ldmatrix read are
    // the same in every key block, so LLVM hoists them out of the key loop
    // and they stay live; with more, they depend on the stage. ptxas
    // measures about 10 registers at the spill frontier (d = 128, 128 x 32,
    // 4 warps: 20 spill bytes with one stage, none with two; docs/GPU.md).
    double hoistedAddresses = tiling.stages == 1 ? 10 : 0;
    // A packed sequence's row and key bases (and lengths) stay live too:
    // ptxas spills 24 bytes at that frontier on sm_90 without them counted
    // (scripts/gpu-resources.py, packed cases).
    double sequenceBases = shape.packedSequences ? 8 : 0;
    // A causal or window band masks every element against the row's
    // diagonal: its lane-invariant row and column bases stay live (ptxas:
    // 12 spill bytes at d = 128, 128 x 32, two stages, causal, on sm_80
    // without them counted; scripts/ptx-main-loop.py).
    double bandBases = shape.causalOffset || shape.window ? 3 : 0;
    // score_mod, mask_mod, sinks: positions and captured buffers stay live
    // (ptxas: ALiBi spills 8 bytes at d = 128, 128 x 32, two stages, on
    // sm_80 and sm_90 without them counted; scripts/gpu-resources.py).
    double modifications = shape.scoreModifications ? 6 : 0;
    // A mask operand: its element per score and its broadcast addresses
    // (ptxas: 40 to 60 bytes of spills at d = 64, 128 x 64, 4 warps, one
    // stage, sm_80, with a bool or bias mask, none without; issue 50's
    // sweep).
    double maskLoads = shape.maskOperand ? 24 : 0;
    // Without a band or a mask, blocks of whole keys run unmasked and the
    // one with the sequence's last keys runs masked after them. Where Nk is
    // known and not a multiple of block_kv, that masked block is straight-
    // line code after the loop, which ptxas schedules into more registers:
    // d = 128, 128 x 32, 4 warps, 2 stages spills 264 bytes on sm_80 at
    // N = 1000 and none at 1024 or at run-time N (issue 50's sweep);
    // d = 256, 128 x 16, one stage spills 20 bytes and two stages none.
    // Half an S row per fragment row covers what was measured.
    double staticTail = 0;
    if (shape.keyLen != kUnknownSize && shape.keyLen % tiling.blockKV != 0 &&
        !shape.causalOffset && !shape.window && !shape.maskOperand)
      staticTail = fragmentRows * double(tiling.blockKV) / 2;
    // With one stage, that straight-line block hoists its own copy of K's
    // and V's ldmatrix addresses beside the loop's: d = 96, 128 x 32, 4
    // warps, one stage spilled 4 bytes on sm_90a at N = 4095 (estimate
    // 254) and none with two stages (shape-probe, issue 50).
    if (staticTail > 0)
      hoistedAddresses *= 2;
    // Head dims past 128 with key blocks past 16 hold more of K's
    // fragments than the 5 D / 16 above counts: d = 192, 128 x 64, 8 warps
    // spills 252 bytes at an estimate of 248 (128 x 32: 241 used, 128 x
    // 16: 192). Fitted to those points (sm_80, f16); d = 256 at 16 keys is
    // unchanged (its estimate already exceeds ptxas's count there).
    double wideHead =
        std::max<double>(double(shape.headDim) - 128, 0) *
        std::max<double>(double(tiling.blockKV) - 16, 0) / 32;
    // Key splits: each split's range and its f32 partial row and logsumexp
    // addresses (d = 256, 16 x 16, one warp, 2 splits spilled 112 bytes on
    // sm_100 at an estimate of 252, and 64 splits 68; issue 50's sweep).
    double splitOutputs =
        tiling.kvSplits > 1 ? double(shape.valueDim) / 16 : 0;
    // The chip's margin (Blackwell: 32). Not at d = 256, where the count
    // above already exceeds ptxas's by 20 to 28 (128 x 16: 224 to 232 used
    // on sm_100/sm_120 at an estimate of 242 to 252, no spill), which
    // covers the margin; with it, no tile would fit. A static tail there
    // still spills on Blackwell (76 bytes at N = 1000): docs/Robustness.md.
    double margin =
        shape.headDim <= 192 ? double(target.registerMargin) : 0;
    double inFlight = margin + 5 * double(shape.headDim) / 16 +
                      double(tiling.blockKV) / 4 + 6 + hoistedAddresses +
                      sequenceBases + bandBases + modifications + maskLoads +
                      staticTail + wideHead + splitOutputs +
                      12 * fragmentRows;
    return clampToInt64(std::ceil(fragments + inFlight));
  }
  // The FMA kernel (FMAKernel.cpp): a thread owns a query row and keeps its
  // f32 accumulator (Dv) and a chunk of scores and probabilities (2 x the
  // key chunk) in registers; 80 more for the row's addresses, Q's and K's
  // 16-byte loads and the loop. Fitted to ptxas (CUDA 13, sm_80/sm_90a, f32,
  // issue 50's sweep): Dv = 128 uses 250 with no spill, Dv = 192 spills
  // 1328 bytes and Dv = 256 10 KB, which this count refuses (> 255). It
  // used to spread the row over the block's threads and admitted both.
  double threads = double(tiling.warps) * double(target.warpSize);
  double rowsPerThread =
      std::max(1.0, std::ceil(double(tiling.blockQ) / threads));
  int64_t keyChunk = 1;
  for (int64_t chunk = kKernelMaxKeyChunk; chunk > 1; chunk /= 2)
    if (tiling.blockKV % chunk == 0) {
      keyChunk = chunk;
      break;
    }
  // A band's bases, score modifications' positions and captures, a mask's
  // addresses: f32, d = 80, 16 x 64, causal with sinks spilled 4 bytes on
  // sm_90a at 255 registers (issue 50's sweep, seed 35), where the count
  // without these terms was 192; 56 for the modifications places it past
  // 255.
  double extras = (shape.causalOffset || shape.window ? 8 : 0) +
                  (shape.scoreModifications ? 56 : 0) +
                  (shape.maskOperand ? 8 : 0);
  return clampToInt64(
      rowsPerThread * (double(shape.valueDim) + 2 * double(keyChunk)) + 80 +
      extras + double(target.registerMargin));
}

AttentionShape mlir::fa::packedShape(const AttentionShape &shape) {
  if (!shape.queryGroupsPackable || shape.heads == kUnknownSize ||
      shape.kvHeads == kUnknownSize || shape.kvHeads <= 0)
    return shape;
  AttentionShape packed = shape;
  int64_t group = shape.heads / shape.kvHeads;
  packed.heads = shape.kvHeads;
  packed.queryLen =
      shape.queryLen == kUnknownSize ? kUnknownSize : shape.queryLen * group;
  packed.causalOffset.reset();
  packed.queryGroupsPackable = false;
  return packed;
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
  if (costs.warpgroupMma && shape.tmaProducerKernel)
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
    os << "no key splits: " << grid << " blocks fill " << share(grid)
       << " of the " << concurrent << " that " << target.name
       << " runs at once, but a query block sees about " << keyBlocks
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
     << share(grid) << " of the "
     << concurrent << " that " << target.name << " runs at once ("
     << target.smCount << " SMs x " << costs.occupancyBlocksPerSM
     << "); splitting each query block's " << keyBlocks << " key blocks"
     << assumed << " " << chosen << " ways (about "
     << ceilDiv(keyBlocks, chosen) << " each) makes " << grid * chosen
     << " blocks, the fewest splits whose last wave is at least 85% as "
        "full as the best count's (FlashAttention-2's heuristic, at most "
     << maxSplits << " splits of " << kMinKeyBlocksPerSplit
     << " or more key blocks)";
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
  int64_t considered = 0, fitting = 0;
  auto search = [&](llvm::ArrayRef<int64_t> querySizes,
                    llvm::ArrayRef<int64_t> keySizes) {
    llvm::SmallVector<int64_t> queryBlocks, keyBlocks;
    for (int64_t size : querySizes) {
      int64_t q = clampTo(size, shape.queryLen);
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
                !warpgroupMmaKernel(Tiling{blockQ, blockKV, warps, stages},
                                    shape))
              continue;
            ++considered;
            Tiling tiling{blockQ, blockKV, warps, stages};
            TileCosts costs = evaluateTiling(tiling, shape, target);
            if (costs.occupancyBlocksPerSM == 0)
              continue;
            ++fitting;
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
            auto key = [&](const TileDecision &d) {
              bool fma = mmaCapable && !tensorCoreKernel(d.tiling, shape);
              bool wgmma = warpgroupMmaKernel(d.tiling, shape);
              bool mmaSync = wgmmaCapable && !wgmma;
              bool oneStage = wgmmaCapable && d.tiling.stages < 2;
              int64_t area = wgmma && shape.tmaProducerKernel
                                 ? d.tiling.blockQ * d.tiling.blockKV
                                 : 0;
              return std::make_tuple(
                  fma, mmaSync, oneStage, -area, d.costs.cost, d.tiling.stages,
                  d.tiling.warps, -d.tiling.blockQ, -d.tiling.blockKV);
            };
            TileDecision candidate;
            candidate.tiling = tiling;
            candidate.costs = costs;
            if (!best || key(candidate) < key(*best))
              best = candidate;
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
  TileSelection result;
  if (!best)
    return result;
  best->policy = TilePolicy::FA2;
  std::string why;
  llvm::raw_string_ostream os(why);
  os << "fa2 searched " << considered << " candidates"
     << (widened          ? " (16 to 256, as no 64/128 tile fits)"
         : warpgroupTiles ? " ({64, 128, 192} x {32, 64, 80, 128, 176})"
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
       << (shape.tmaProducerKernel
               ? ", then the largest tile (FlashAttention-3's rule: the key "
                 "block's fixed work spread over more keys, one block per "
                 "SM whatever the tile)"
               : "");
  else if (mmaCapable)
    os << "; tilings for the tensor-core kernel (mma.sync-registers) rank "
          "first";
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
/// than 90% of the plain one (a tie keeps the plain kernel).
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
      if (candidate->costs.occupancyBlocksPerSM == 0)
        candidate.reset();
    }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!candidate || candidate->costs.cost >= 0.9 * plain.costs.cost) {
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
     << "instead of " << formatBytes(plain.costs.hbmBytesTiled)
     << ", with " << describe(rows) << " for the " << packed.heads
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

int64_t mlir::fa::backwardKernelWarps(int64_t rows, int64_t warps) {
  constexpr int64_t fragmentRows = 16;
  int64_t result = std::max<int64_t>(1, warps);
  while (result > 1 && rows % (fragmentRows * result) != 0)
    --result;
  return result;
}

int64_t mlir::fa::backwardStreamBuffers(const Tiling &tiling,
                                        const AttentionShape &shape,
                                        bool asyncCopies, int64_t rows,
                                        int64_t threads) {
  constexpr int64_t chunkBytes = 16;
  auto even = [&](int64_t width) {
    int64_t bytes = width * shape.elementBytes;
    return bytes % chunkBytes == 0 &&
           (rows * (bytes / chunkBytes)) % std::max<int64_t>(1, threads) == 0;
  };
  bool async = asyncCopies && tiling.stages > 1 && even(shape.headDim) &&
               even(shape.valueDim);
  return async ? tiling.stages : 1;
}

namespace {

/// The two gradient kernels of fa-distribute-attention-backward: their
/// warps, and the buffers each streams through.
struct BackwardKernels {
  int64_t keyWarps, queryWarps, queryBuffers, keyBuffers;
};

BackwardKernels backwardKernels(const Tiling &tiling,
                                const AttentionShape &shape,
                                const TargetDescription &target) {
  BackwardKernels kernels;
  kernels.keyWarps = backwardKernelWarps(tiling.blockKV, tiling.warps);
  kernels.queryWarps = backwardKernelWarps(tiling.blockQ, tiling.warps);
  bool async = hasMmaSync16816(target);
  kernels.queryBuffers =
      backwardStreamBuffers(tiling, shape, async, tiling.blockQ,
                            kernels.keyWarps * target.warpSize);
  kernels.keyBuffers =
      backwardStreamBuffers(tiling, shape, async, tiling.blockKV,
                            kernels.queryWarps * target.warpSize);
  return kernels;
}

} // namespace

int64_t mlir::fa::backwardSharedMemoryBytes(const Tiling &tiling,
                                            const AttentionShape &shape,
                                            const TargetDescription &target) {
  double e = shape.elementBytes;
  double br = tiling.blockQ, bc = tiling.blockKV;
  if (target.isGPU()) {
    // Rows unpadded where their chunks can be swizzled, else padded by 16
    // bytes; each tile a whole number of 16-byte chunks.
    auto rowBytes = [&](int64_t width) {
      double bytes = double(width) * e;
      return swizzledSharedRows(width, shape.elementBytes) ? bytes
                                                           : bytes + 16;
    };
    auto alignUp = [](double bytes) { return std::ceil(bytes / 16) * 16; };
    BackwardKernels kernels = backwardKernels(tiling, shape, target);
    auto pair = [&](double rows, double buffers) {
      return alignUp(buffers * rows * rowBytes(shape.headDim)) +
             alignUp(buffers * rows * rowBytes(shape.valueDim));
    };
    double keyValue = pair(bc, 1) + pair(br, double(kernels.queryBuffers));
    double query = pair(br, 1) + pair(bc, double(kernels.keyBuffers));
    return clampToInt64(std::max(keyValue, query));
  }
  // The host: K, V, Q, dO and the P and dS tiles in the input type, L and
  // D, the f32 accumulators and the S, P, dP and dS tiles.
  double widths = double(shape.headDim) + double(shape.valueDim);
  double keyValue = bc * widths * e;
  double queryRows = double(tiling.stages) * br * widths * e;
  double scoreTiles = 2 * br * bc * e;
  double rowTerms = 2 * br * 4; // L and D
  double total = keyValue + queryRows + scoreTiles + rowTerms +
                 bc * widths * 4 + 4 * br * bc * 4;
  return clampToInt64(total);
}

int64_t mlir::fa::backwardRegistersPerThread(const Tiling &tiling,
                                             const AttentionShape &shape,
                                             const TargetDescription &target) {
  if (!target.isGPU())
    return 0;
  constexpr int64_t fragmentRows = 16;
  constexpr double overhead = 60;
  BackwardKernels kernels = backwardKernels(tiling, shape, target);
  double d = shape.headDim, dv = shape.valueDim;
  double br = tiling.blockQ, bc = tiling.blockKV;
  // A lane holds 1/32 of each 16 x 8 f32 fragment (4 registers), and a
  // pair of rounded elements per register.
  double keyTiles = std::max<double>(
      1, std::floor(bc / double(fragmentRows * kernels.keyWarps)));
  double queryTiles = std::max<double>(
      1, std::floor(br / double(fragmentRows * kernels.queryWarps)));
  double keyValue = keyTiles * (d / 2 + dv / 2 + br + br / 2);
  // The dQ kernel; the bias gradient's kernel holds an f32 sum of dS
  // instead of dQ and dS's pairs: 3·Bc/2, at most as much unless d is small.
  double query = queryTiles * std::max(d / 2 + bc + bc / 4, 3 * bc / 2);
  // A bias or boolean mask: its element per score and broadcast addresses
  // in both gradient kernels, as in the forward's count (issue 50's sweep:
  // a causal bias spilled 52 to 64 bytes on sm_80/sm_86 at d = 128, a bool
  // mask 16 on sm_100 at d = 64).
  double maskLoads = shape.maskOperand ? 24 : 0;
  return clampToInt64(std::ceil(std::max(keyValue, query) + overhead +
                                maskLoads + double(target.registerMargin)));
}

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
  if (fits) {
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

TileSelection mlir::fa::selectBackwardTiles(const AttentionShape &shape,
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
      for (int64_t stages : stageCounts) {
        Tiling tiling;
        tiling.blockQ = capped(blockQ, shape.queryLen);
        tiling.blockKV = capped(blockKV, shape.keyLen);
        // One warp per 16 keys of the dK/dV kernel's block (each owns one
        // fragment tile of keys), at most 8.
        tiling.warps = target.isGPU() ? std::max<int64_t>(
                                            1, std::min<int64_t>(
                                                   8, tiling.blockKV / 16))
                                      : 1;
        tiling.stages = stages;
        ++considered;
        TileCosts costs = evaluateBackwardTiling(tiling, shape, target);
        if (costs.occupancyBlocksPerSM == 0)
          continue;
        auto key = [](const Tiling &t) {
          return std::make_tuple(t.blockQ * t.blockKV, t.blockKV, t.stages);
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
  best->why = "backward pass: the largest of " + std::to_string(considered) +
              " tiles over {" + std::to_string(granule) +
              "..128}^2 that fits (" + describeBackward(best->tiling) + ", " +
              formatBytes(best->costs.sharedMemoryBytes) + " of " +
              formatBytes(target.sharedMemoryPerBlock) +
              (target.isGPU()
                   ? " for K, V, Q and dO; about " +
                         std::to_string(best->costs.registersPerThread) +
                         " of " + std::to_string(target.registersPerThread) +
                         " registers per thread"
                   : " for K, V, Q, dO, P and dS, the f32 accumulators and "
                     "scores") +
              "), by area, then block_kv, then stages";
  result.decision = best;
  return result;
}

TileSelection mlir::fa::checkBackwardTiling(const Tiling &tiling,
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

int64_t mlir::fa::linearChunkBytes(int64_t chunk, int64_t headDim,
                                   int64_t valueDim, int64_t elementBytes,
                                   bool normalized, bool decay) {
  // The kernel's tiles (DistributeLinearAttention.cpp): rows padded by 16
  // bytes; V and the state carry 16 more columns when normalized (the
  // column of ones that gives the row sums and z).
  auto padded = [](int64_t width, int64_t bytes) { return width * bytes + 16; };
  int64_t stateWidth = valueDim + (normalized ? 16 : 0);
  int64_t keyTiles = decay ? 3 : 2; // Q, K (and the decayed K)
  int64_t rows = chunk * (keyTiles * padded(headDim, elementBytes) +
                          padded(stateWidth, elementBytes));
  int64_t state =
      headDim * (padded(stateWidth, 4) + padded(stateWidth, elementBytes)) +
      stateWidth * 4; // f32, rounded, and the column scales
  return rows + state;
}

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
