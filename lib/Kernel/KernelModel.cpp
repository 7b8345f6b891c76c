//===- KernelModel.cpp - What the GPU kernels are, before any IR ----------===//
//
// Stage: the kernel model. The forward kernel's plan and every kernel's
// footprint (shared memory, registers per thread), fitted to ptxas where
// docs/GPU.md says so. Pure C++: no IR, so every number here is unit-tested
// directly.
//
//===----------------------------------------------------------------------===//

#include "fa/Kernel/KernelModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir::fa;

int64_t mlir::fa::clampToInt64(double value) {
  constexpr double limit = 9.2e18;
  return value >= limit ? std::numeric_limits<int64_t>::max()
                        : static_cast<int64_t>(value);
}

std::string mlir::fa::describeTiling(const Tiling &tiling) {
  std::string text = std::to_string(tiling.blockQ) + " x " +
                     std::to_string(tiling.blockKV) + ", " +
                     std::to_string(tiling.warps) +
                     (tiling.warps == 1 ? " warp, " : " warps, ") +
                     std::to_string(tiling.stages) +
                     (tiling.stages == 1 ? " stage" : " stages");
  if (tiling.kvSplits > 1)
    text += ", " + std::to_string(tiling.kvSplits) + " key splits";
  if (tiling.packGQA)
    text += ", query groups packed";
  return text;
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
         shape.valueDim <= 256 && tiling.blockQ % warpgroupRows == 0 &&
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

WarpgroupRegisters mlir::fa::splitWarpgroupRegisters(int64_t computeWarpgroups,
                                                     int64_t producer) {
  constexpr int64_t registersPerSM = 64 * 1024, most = 240;
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
  if (sharedProbabilities)
    os << ", P in shared memory";
  if (pingPong)
    os << ", ping-pong";
  os << ", " << threads << " threads, " << stages
     << (stages == 1 ? " stage" : " stages");
  if (rowSplit > 1)
    os << ", " << rowSplit << " threads per row";
  if (!tensorCores)
    os << ", " << keyChunk << " keys per step";
  if (splitBandWalk)
    os << ", the band's edge blocks masked apart";
  if (tmaProducer && keyBoxRows < tiling.blockKV)
    os << ", K/V boxes of " << keyBoxRows << " rows (pages)";
  return text;
}

static int64_t tmaProducerComputeRegisters(const Tiling &tiling,
                                           const AttentionShape &shape,
                                           bool sharedProbabilities);

KernelPlan mlir::fa::planKernel(const Tiling &tiling,
                                const AttentionShape &shape, int64_t keyBytes,
                                int64_t valueBytes,
                                const KernelOptions &options) {
  KernelPlan plan;
  plan.tiling = tiling;
  plan.queryBytes = shape.elementBytes;
  plan.keyBytes = keyBytes;
  plan.valueBytes = valueBytes;
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
  plan.tensorCores = options.tensorCores && tensorCoreKernel(tiling, shape);
  // Block_kv and Dv are multiples of 16 here: whole pairs of 8-column
  // chunks for the two threads of a row.
  plan.registerFragments = plan.tensorCores && options.registerFragments;
  plan.warpgroupMma = plan.registerFragments && options.warpgroupMma &&
                      warpgroupMmaKernel(tiling, shape);
  // The producer warpgroup is a fifth (or third) warpgroup of its own.
  plan.tmaProducer = plan.warpgroupMma && options.tmaProducer &&
                     whyNoTmaProducerTiling(tiling, shape).empty();
  if (plan.tmaProducer) {
    plan.threads += kKernelWarpgroupThreads;
    plan.keyBoxRows = tmaKeyBoxRows(tiling, shape);
    plan.producerRegisters = tmaProducerRegisters(tiling, shape);
  }
  // P V a block late needs a second stage: block i + 1's K and V land while
  // block i's V is still read.
  plan.overlapSoftmax = plan.tmaProducer && options.overlapSoftmax &&
                        tiling.stages >= 2 && !shape.scoreMod;
  plan.sharedProbabilities =
      plan.overlapSoftmax && sharedProbabilitiesTiling(tiling, shape);
  int64_t computeWarpgroups =
      tiling.warps * kKernelWarpSize / kKernelWarpgroupThreads;
  plan.pingPong =
      plan.tmaProducer && options.pingPong && computeWarpgroups >= 2;
  plan.splitBandWalk = splitsBandWalk(tiling, shape);
  plan.asyncCopies = !plan.tmaProducer && options.asyncCopies &&
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

int64_t mlir::fa::sharedRowLength(int64_t width, int64_t elementBytes,
                                  bool swizzle) {
  return swizzle && swizzledSharedRows(width, elementBytes)
             ? width
             : width + kKernelChunkBytes / elementBytes;
}

int64_t SharedLayout::totalBytes() const {
  // Counted in double: absurd tiles give huge numbers, never overflow.
  auto alignUp = [](double bytes) {
    return std::ceil(bytes / double(kKernelChunkBytes)) *
           double(kKernelChunkBytes);
  };
  auto tileBytes = [](const SharedTile &tile) {
    double bytes = double(tile.elementBytes);
    for (int64_t size : tile.shape)
      bytes *= double(size);
    return bytes;
  };
  double offset = double(reservedBytes);
  for (const SharedTile *tile : {&query, &key, &value})
    offset = alignUp(offset) + tileBytes(*tile);
  for (const std::optional<SharedTile> *tile : {&results, &probs})
    if (*tile)
      offset = alignUp(offset) + tileBytes(**tile);
  return clampToInt64(offset);
}

SharedLayout mlir::fa::sharedLayout(const KernelPlan &plan,
                                    const AttentionShape &shape) {
  // The m and n of m16n8k16: the shape of a result fragment.
  constexpr int64_t fragmentRows = 16, fragmentColumns = 8, f32Bytes = 4;
  const Tiling &tiling = plan.tiling;
  bool swizzle = plan.registerFragments;
  auto tile = [&](llvm::SmallVector<int64_t, 4> rows, int64_t width,
                  int64_t bytes) {
    rows.push_back(sharedRowLength(width, bytes, swizzle));
    return SharedTile{rows, bytes};
  };
  SharedLayout layout;
  if (plan.tmaProducer)
    layout.reservedBytes = kTmaBarrierSlotBytes;
  layout.query = tile({tiling.blockQ}, shape.headDim, plan.queryBytes);
  layout.key =
      tile({plan.stages, tiling.blockKV}, shape.headDim, plan.keyBytes);
  layout.value =
      tile({plan.stages, tiling.blockKV}, shape.valueDim, plan.valueBytes);
  // P of P V from shared memory: wgmma's core matrices, addressed as one
  // dimension (WarpgroupMmaKernel.cpp), never padded.
  if (plan.sharedProbabilities)
    layout.probs = SharedTile{{tiling.blockQ, tiling.blockKV}, plan.valueBytes};
  if (plan.tensorCores && !plan.registerFragments) {
    layout.results =
        SharedTile{{tiling.blockQ / fragmentRows,
                    std::max(tiling.blockKV, shape.valueDim) / fragmentColumns,
                    fragmentRows, fragmentColumns},
                   f32Bytes};
    layout.probs = tile({tiling.blockQ}, tiling.blockKV, plan.valueBytes);
  }
  return layout;
}

int64_t mlir::fa::tmaProducerRegisters(const Tiling &tiling,
                                       const AttentionShape &shape) {
  return tmaKeyBoxRows(tiling, shape) < tiling.blockKV ? kPagedProducerRegisters
                                                       : kProducerRegisters;
}

WarpgroupRegisters
mlir::fa::tmaProducerRegisterSplit(const Tiling &tiling,
                                   const AttentionShape &shape) {
  return splitWarpgroupRegisters(tiling.warps * kKernelWarpSize /
                                     kKernelWarpgroupThreads,
                                 tmaProducerRegisters(tiling, shape));
}

int64_t mlir::fa::tmaKeyBoxRows(const Tiling &tiling,
                                const AttentionShape &shape) {
  if (shape.pageSize <= 0 || tiling.blockKV <= 0)
    return tiling.blockKV;
  return std::gcd(shape.pageSize, tiling.blockKV);
}

int64_t mlir::fa::warpgroupBackwardColumnSplit(const AttentionShape &shape) {
  constexpr int64_t widestSplitless = 128;
  return std::max(shape.headDim, shape.valueDim) > widestSplitless ? 2 : 1;
}

std::string mlir::fa::whyNoWarpgroupBackwardTiling(const Tiling &tiling,
                                                   const AttentionShape &shape) {
  constexpr int64_t warpgroupKeys = 64, warpKeys = 16, columnBlock = 64,
                    maxN = 256, queryStep = 16;
  auto text = [](int64_t v) { return std::to_string(v); };
  int64_t split = warpgroupBackwardColumnSplit(shape);
  for (auto [name, width] :
       {std::pair{"D", shape.headDim}, std::pair{"Dv", shape.valueDim}})
    if (width <= 0 || width % (columnBlock * split) != 0 || width > maxN)
      return std::string(name) + " = " + text(width) +
             " is not a multiple of " + text(columnBlock * split) +
             " up to 256 (64-column swizzle blocks" +
             (split > 1 ? " in each warpgroup's half of dK and dV" : "") +
             "; dK's and dV's wgmma N)";
  if (tiling.blockKV % warpgroupKeys != 0)
    return "block_kv = " + text(tiling.blockKV) +
           " is not a multiple of 64 (each warpgroup owns 64 keys)";
  if (tiling.warps != tiling.blockKV / warpKeys * split)
    return "warps = " + text(tiling.warps) + " is not " +
           (split > 1 ? "2 block_kv / 16 = " : "block_kv / 16 = ") +
           text(tiling.blockKV / warpKeys * split) + " (16 keys per warp" +
           (split > 1 ? ", two warpgroups per 64 keys, each with half of dK "
                        "and dV's columns)"
                      : ")");
  if (tiling.blockQ % queryStep != 0 || tiling.blockQ > maxN)
    return "block_q = " + text(tiling.blockQ) +
           " is not a multiple of 16 up to 256 (S^T's wgmma N)";
  return "";
}

bool mlir::fa::warpgroupBackwardKernel(const Tiling &tiling,
                                       const AttentionShape &shape,
                                       const TargetDescription &target) {
  constexpr int64_t operandBytes = 2; // f16, bf16
  return hasWarpgroupMma(target) && shape.elementBytes == operandBytes &&
         whyNoWarpgroupBackwardTiling(tiling, shape).empty();
}

std::string
mlir::fa::whyNoWarpgroupBackwardProducer(const Tiling &tiling,
                                         const AttentionShape &shape) {
  int64_t needed = warpgroupBackwardRegisterCount(tiling, shape);
  int64_t share = splitWarpgroupRegisters(tiling.warps * kKernelWarpSize /
                                          kKernelWarpgroupThreads)
                      .compute;
  if (needed <= share)
    return "";
  return "its compute warpgroups would need about " + std::to_string(needed) +
         " registers per thread, and setmaxnreg leaves them " +
         std::to_string(share);
}

bool mlir::fa::warpgroupBackwardProducer(const Tiling &tiling,
                                         const AttentionShape &shape,
                                         const TargetDescription &target) {
  return shape.tmaProducerKernel &&
         warpgroupBackwardKernel(tiling, shape, target) &&
         whyNoWarpgroupBackwardProducer(tiling, shape).empty();
}

std::string mlir::fa::whyNoTmaProducerTiling(const Tiling &tiling,
                                             const AttentionShape &shape) {
  if (shape.pageSize == 0)
    return "";
  if (shape.pageSize == kUnknownSize)
    return "page_table: the page size (dimension 1 of K and V) is known only "
           "at run time, and the rows of a TMA box are fixed in its tensor "
           "map";
  // A 128-byte swizzle atom is 8 rows of the tile: a box of whole atoms
  // starting on one keeps the swizzle the tile's (the wgmma descriptors')
  // own.
  constexpr int64_t swizzleAtomRows = 8;
  int64_t rows = tmaKeyBoxRows(tiling, shape);
  if (rows % swizzleAtomRows != 0)
    return "page_table: pages of " + std::to_string(shape.pageSize) +
           " keys split key blocks of " + std::to_string(tiling.blockKV) +
           " into TMA boxes of " + std::to_string(rows) +
           " rows, not whole 128-byte swizzle atoms of " +
           std::to_string(swizzleAtomRows) + " rows";
  return "";
}

bool mlir::fa::tmaProducerTiling(const Tiling &tiling,
                                 const AttentionShape &shape) {
  return shape.tmaProducerKernel &&
         whyNoTmaProducerTiling(tiling, shape).empty();
}

bool mlir::fa::sharedProbabilitiesTiling(const Tiling &tiling,
                                         const AttentionShape &shape) {
  constexpr int64_t columnBlock = 64;
  // Not under a band or with a mask operand: causal, 128 x 192 at d = 64
  // needed 208 registers at N = 1000 and over 248 at N = 257 (ptxas,
  // sm_90a) where the model estimated 168 and 216; with an f16 bias over
  // 1000 keys, over 248 against 216. FlashAttention-3 keeps P in registers
  // under its masks too.
  if (!warpgroupMmaKernel(tiling, shape) || shape.valueDim != columnBlock ||
      tiling.stages < 2 || shape.scoreMod || shape.causalOffset ||
      shape.window || shape.maskOperand)
    return false;
  int64_t share = tmaProducerRegisterSplit(tiling, shape).compute;
  return tmaProducerComputeRegisters(tiling, shape, false) > share &&
         tmaProducerComputeRegisters(tiling, shape, true) <= share;
}

bool mlir::fa::everyKeyBlockWhole(const Tiling &tiling,
                                  const AttentionShape &shape) {
  return shape.keyLen != kUnknownSize && tiling.blockKV > 0 &&
         shape.keyLen % tiling.blockKV == 0 && !shape.causalOffset &&
         !shape.window && !shape.maskOperand && !shape.keyLengths &&
         !shape.packedSequences && shape.pageSize == 0 &&
         !shape.scoreModifications;
}

bool mlir::fa::splitsBandWalk(const Tiling &tiling,
                              const AttentionShape &shape) {
  if ((!shape.causalOffset && !shape.window) || shape.maskOperand)
    return false;
  if (!shape.window)
    return true;
  // In double: a window may reach as far as int64_t does.
  double right = double(shape.window->right);
  if (shape.causalOffset)
    right = std::min(right, double(*shape.causalOffset) -
                                double(shape.window->offset));
  return double(shape.window->left) + right + 2 >=
         double(tiling.blockQ) + double(tiling.blockKV);
}

KernelOptions mlir::fa::modelKernelOptions(const AttentionShape &shape,
                                           const TargetDescription &target) {
  KernelOptions options;
  options.asyncCopies = true;
  options.tensorCores = hasMmaSync16816(target);
  options.registerFragments = shape.registerFragments;
  options.warpgroupMma = hasWarpgroupMma(target);
  options.tmaProducer = shape.tmaProducerKernel;
  options.overlapSoftmax = options.pingPong = true;
  return options;
}

int64_t mlir::fa::sharedMemoryBytes(const Tiling &tiling,
                                    const AttentionShape &shape,
                                    const TargetDescription &target) {
  if (target.isGPU()) {
    KernelPlan plan =
        planKernel(tiling, shape, shape.elementBytes, shape.elementBytes,
                   modelKernelOptions(shape, target));
    return sharedLayout(plan, shape).totalBytes();
  }
  double e = shape.elementBytes;
  double stagedRows = double(tiling.stages) * double(tiling.blockKV);
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

/// Per compute thread of the TMA producer kernel (registersPerThread's
/// "TMA producer" case).
static int64_t tmaProducerComputeRegisters(const Tiling &tiling,
                                           const AttentionShape &shape,
                                           bool sharedProbabilities) {
  // Per compute thread of the TMA producer kernel, scheduled as by
  // default (P V a block late, ping-pong): O's accumulator (Dv / 2), S's
  // (Bc / 2), the P carried to the next block (Bc / 4; none where P waits
  // in shared memory, sharedProbabilitiesTiling), 32 for descriptors,
  // addresses, the loop's state and ring positions, 8 more with a window,
  // (D - Dv) / 2 where D exceeds Dv. Fitted to ptxas
  // (CUDA 13, sm_90a): the smallest setmaxnreg.inc that compiles each
  // kernel without a spill (scripts/experiments/wgmma_registers.py
  // --tma). Since each wgmma's descriptor is a base plus an immediate in
  // the PTX (WarpgroupMmaToNVVM.cpp), the descriptors no longer grow with
  // D: at N = 4096 ptxas needs Dv / 2 + 3 Bc / 4 + 32, rounded to its
  // register class, at every d (64, 128, 256), 128 and 192 rows, 32 to 192
  // keys, causal or not (88 to 208 at d = 64, 120 to 240 at d = 128, 184 to
  // 216 at d = 256: 128 x 80 needs 216 and 128 x 64 208, where the count
  // was D / 8 + 24 and they needed 240 and 224 to 232); docs/Hopper.md.
  // A causal band costs nothing measurable with its walk split (masked
  // diagonal blocks, then an unmasked loop): with the model's refusal
  // bypassed, ptxas needs what the kernel without the band does at N =
  // 100 to 4096 and run time (192 x 128 at d = 64: 160; 128 x 128 at
  // d = 128: 192; 128 x 80 at d = 256: 216), but in the two-block case
  // below. A window's walk splits too (splitsBandWalk), into the blocks
  // its right edge crosses (masked), the whole ones (unmasked) and those
  // its left edge crosses (masked again), and that costs more: with the
  // refusal bypassed, ptxas needed up to 28 more than the count without a
  // window at key blocks of 48 to 176 and 32 at 64 (d = 64), and at
  // d = 128, 128 x 128, 248 at N = 600 to 3000 with windows of 300 to 2000
  // keys (192 masking every block); 128 x 112 there needed 200 and
  // 128 x 64 176. B_c / 2 covers every point measured and leaves
  // FlashAttention-3's local tile at d = 256 (128 x 64: 240, needing 208
  // to 240). A window too narrow to split masks every block and counts the
  // 8 fitted to that walk.
  double bands = !shape.window                   ? 0
                 : splitsBandWalk(tiling, shape) ? double(tiling.blockKV) / 2
                                                 : 8;
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
  // more registers (B_c / 4 covers it). Under a band, B_c / 2: the split
  // walk's two blocks needed 32 more at 128 x 128 (d = 64 and 128, N =
  // 200), 40 at 128 x 80 (d = 256, N = 160) and over 60 at 128 x 176
  // (d = 64, N = 177 to 352).
  bool bandOrSplits = shape.causalOffset || shape.window;
  double straightLine = 0;
  if (shape.keyLen != kUnknownSize && tiling.kvSplits <= 1 &&
      (shape.keyLen + tiling.blockKV - 1) / tiling.blockKV == 2)
    straightLine = double(tiling.blockKV) / (bandOrSplits ? 2 : 4);
  // Key splits under a band keep each split's range and its partial
  // output's addresses live beside the band's bases: about Dv / 8 more
  // (32 at d = 256, where 128 x 64 needs over 256 with splits).
  double splitBands =
      bandOrSplits && tiling.kvSplits > 1 ? double(shape.valueDim) / 8 : 0;
  double carriedProbabilities =
      sharedProbabilities ? 0 : double(tiling.blockKV) / 4;
  return clampToInt64(std::ceil(double(shape.valueDim) / 2 +
                                double(tiling.blockKV) / 2 +
                                carriedProbabilities + wideKeys + bands +
                                straightLine + splitBands + 32));
}

int64_t mlir::fa::registersPerThread(const Tiling &tiling,
                                     const AttentionShape &shape,
                                     const TargetDescription &target) {
  if (!target.isGPU())
    return 0;
  if (hasWarpgroupMma(target) && warpgroupMmaKernel(tiling, shape) &&
      tmaProducerTiling(tiling, shape))
    return tmaProducerComputeRegisters(
        tiling, shape, sharedProbabilitiesTiling(tiling, shape));
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
    // (docs/Hopper.md).
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
    double fragments = fragmentRows * (double(shape.valueDim) / 2 +
                                       3 * double(tiling.blockKV) / 4);
    // With one stage, the shared addresses K's and V's ldmatrix read are
    // the same in every key block, so LLVM hoists them out of the key loop
    // and they stay live; with more, they depend on the stage. ptxas
    // measures about 10 registers at the spill frontier (d = 128, 128 x 32,
    // 4 warps: 20 spill bytes with one stage, none with two; docs/GPU-Checks.md).
    double hoistedAddresses = tiling.stages == 1 ? 10 : 0;
    // A packed sequence's row and key bases (and lengths) stay live too:
    // ptxas spills 24 bytes at that frontier on sm_90 without them counted
    // (scripts/gpu-resources.py, packed cases).
    double sequenceBases = shape.packedSequences ? 8 : 0;
    // A causal or window band masks every element against the row's
    // diagonal: its lane-invariant row and column bases stay live (ptxas:
    // 12 spill bytes at d = 128, 128 x 32, two stages, causal, on sm_80
    // without them counted; scripts/ptx-main-loop.py). A window has two
    // edges and masks in two loops (its right edge's blocks first, its left
    // edge's after the unmasked ones): d = 64, 128 x 64, 4 warps, one
    // stage, estimated 239 with 3, spilled 4 to 40 bytes on sm_80 and sm_90
    // at N = 1000 to 8192 and run time (8 to 36 when every block was
    // masked), so a window counts 20.
    double bandBases = shape.window ? 20 : shape.causalOffset ? 3 : 0;
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
    double wideHead = std::max<double>(double(shape.headDim) - 128, 0) *
                      std::max<double>(double(tiling.blockKV) - 16, 0) / 32;
    // Key splits: each split's range and its f32 partial row and logsumexp
    // addresses (d = 256, 16 x 16, one warp, 2 splits spilled 112 bytes on
    // sm_100 at an estimate of 252, and 64 splits 68; issue 50's sweep).
    // Past d = 192, where the count above exceeds ptxas's, the splits cost
    // nothing measurable with two stages when every key block is whole and
    // unmasked: d = 256, 16 x 16, 2 to 64 splits at N = 4096 and 16384
    // used 221 (sm_90a), 234 (sm_80), 235 (sm_120) and 241 (sm_100)
    // against 220 to 242 unsplit; with a masked block (N = 1000, run-time
    // N) 254 to 255, and Blackwell spilled 84 to 124 bytes. With one stage
    // they still cost: 32 x 16, 2 warps, 2 splits at N = 176 spilled 24
    // bytes on sm_100 at an estimate of 252 without them. Nor where the
    // splits do not share the key blocks evenly (the last split's range is
    // clamped): 35 and 74 splits of 1024 blocks spilled 28 bytes on sm_100
    // where 32 and 64 used 241.
    double splitOutputs = tiling.kvSplits > 1 ? double(shape.valueDim) / 16 : 0;
    if (shape.headDim > 192 && tiling.stages >= 2 &&
        everyKeyBlockWhole(tiling, shape) &&
        (shape.keyLen / tiling.blockKV) % tiling.kvSplits == 0)
      splitOutputs = 0;
    // The chip's margin (Blackwell: 32). Not at d = 256, where the count
    // above already exceeds ptxas's by 20 to 28 (128 x 16: 224 to 232 used
    // on sm_100/sm_120 at an estimate of 242 to 252, no spill), which
    // covers the margin; with it, no tile would fit. A static tail there
    // still spills on Blackwell (76 bytes at N = 1000): docs/Robustness.md.
    double margin = shape.headDim <= 192 ? double(target.registerMargin) : 0;
    double inFlight = margin + 5 * double(shape.headDim) / 16 +
                      double(tiling.blockKV) / 4 + 6 + hoistedAddresses +
                      sequenceBases + bandBases + modifications + maskLoads +
                      staticTail + wideHead + splitOutputs + 12 * fragmentRows;
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
  return clampToInt64(rowsPerThread *
                          (double(shape.valueDim) + 2 * double(keyChunk)) +
                      80 + extras + double(target.registerMargin));
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
  // The wgmma kernel takes the tiling's warps as they are (with dK and
  // dV split by columns, two warpgroups per 64 keys).
  kernels.keyWarps = warpgroupBackwardKernel(tiling, shape, target)
                         ? tiling.warps
                         : backwardKernelWarps(tiling.blockKV, tiling.warps);
  kernels.queryWarps = backwardKernelWarps(tiling.blockQ, tiling.warps);
  bool async = hasMmaSync16816(target);
  // A producer's ring has the tiling's stages.
  kernels.queryBuffers =
      warpgroupBackwardProducer(tiling, shape, target)
          ? tiling.stages
          : backwardStreamBuffers(tiling, shape, async, tiling.blockQ,
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
      return swizzledSharedRows(width, shape.elementBytes) ? bytes : bytes + 16;
    };
    auto alignUp = [](double bytes) { return std::ceil(bytes / 16) * 16; };
    BackwardKernels kernels = backwardKernels(tiling, shape, target);
    auto pair = [&](double rows, double buffers) {
      return alignUp(buffers * rows * rowBytes(shape.headDim)) +
             alignUp(buffers * rows * rowBytes(shape.valueDim));
    };
    double keyValue = pair(bc, 1) + pair(br, double(kernels.queryBuffers));
    // The wgmma kernel's tiles are unpadded 64-column blocks (every tile a
    // whole number of 1024-byte swizzle patterns: 16-row multiples of 128
    // bytes), and its dS^T takes whole 64-column blocks.
    bool warpgroup = warpgroupBackwardKernel(tiling, shape, target);
    if (warpgroup)
      keyValue = (bc + br * double(kernels.queryBuffers)) *
                 double(shape.headDim + shape.valueDim) * e;
    // A producer's ring also holds L and D per stage ([2][Br] f32, the
    // last tile: after the others, each a whole number of swizzle
    // patterns), and its mbarriers take a slot of their own.
    if (warpgroupBackwardProducer(tiling, shape, target)) {
      constexpr double f32Bytes = 4;
      keyValue += double(kernels.queryBuffers) * 2 * br * f32Bytes +
                  double(kTmaBarrierSlotBytes);
    }
    // Without `deterministic`, the dK/dV kernel also holds dS^T [Bc][Br]
    // for dQ's product, and there is no dQ kernel.
    if (!shape.deterministicQueryGradient)
      return clampToInt64(
          keyValue + (warpgroup
                          ? bc * double(llvm::alignTo(tiling.blockQ, 64)) * e
                          : alignUp(bc * rowBytes(tiling.blockQ))));
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

namespace {

/// A bias or boolean mask: its element per score and broadcast addresses
/// in both gradient kernels, as in the forward's count (issue 50's sweep:
/// a causal bias spilled 52 to 64 bytes on sm_80/sm_86 at d = 128, a bool
/// mask 16 on sm_100 at d = 64).
double backwardMaskRegisters(const AttentionShape &shape) {
  return shape.maskOperand ? 24 : 0;
}

} // namespace

int64_t mlir::fa::warpgroupBackwardRegisters(const Tiling &tiling,
                                             const AttentionShape &shape,
                                             const TargetDescription &target) {
  if (!warpgroupBackwardKernel(tiling, shape, target))
    return 0;
  return clampToInt64(double(warpgroupBackwardRegisterCount(tiling, shape)) +
                      double(target.registerMargin));
}

int64_t mlir::fa::warpgroupBackwardRegisterCount(const Tiling &tiling,
                                                 const AttentionShape &shape) {
  // dK and dV (D/2 + Dv/2, one 64-row tile per warpgroup); S^T and dP^T
  // (block_q / 2 each), P and dS in f32 and rounded beside them while
  // they are formed (2 block_q in all); descriptors, loop state and dQ's
  // product (22 + block_kv / 8); a causal or window band's per-element
  // tests (16 + block_q / 2). Fitted to ptxas (CUDA 13, sm_90a, f16,
  // N = 1024, 2 stages; D = 64 and 128, block_q 16 to 128, block_kv 64
  // and 128, causal or not, atomic or deterministic dQ; 64 tilings):
  // never below ptxas's count where that is under 255, and none it admits
  // spills. block_q counts as the next power of two: 48 x 128 at D = 64
  // needed 228 registers where 64 x 128 needed 211, and spilled with a
  // causal band. With dK and dV split by columns (D = 256: (D/2 + Dv/2) /
  // 2), ptxas counted 237 where the estimate is 222, and 254 with a causal
  // band (estimated 254); neither spilled.
  double queries = double(llvm::PowerOf2Ceil(tiling.blockQ));
  double band = shape.causalOffset || shape.window ? 16 + queries / 2 : 0;
  return clampToInt64(
      std::ceil(double(shape.headDim + shape.valueDim) / 2 /
                    double(warpgroupBackwardColumnSplit(shape)) +
                2 * queries + 22 + double(tiling.blockKV) / 8 + band +
                backwardMaskRegisters(shape)));
}

int64_t mlir::fa::backwardRegistersPerThread(const Tiling &tiling,
                                             const AttentionShape &shape,
                                             const TargetDescription &target) {
  if (!target.isGPU())
    return 0;
  double maskLoads = backwardMaskRegisters(shape);
  // The wgmma dK/dV kernel (warpgroupBackwardRegisters). The other
  // kernels (the dQ kernel with `deterministic`, the bias gradient's) are
  // mma.sync's: the estimate below, with dK/dV's replaced.
  std::optional<double> warpgroupKeyValue;
  if (warpgroupBackwardKernel(tiling, shape, target))
    warpgroupKeyValue =
        double(warpgroupBackwardRegisters(tiling, shape, target));
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
  // Without `deterministic`, the dK/dV kernel's dQ product: a 16 x 32
  // tile's accumulators and its A and B fragments (28) and their bases,
  // live beside dK and dV: 36, fitted to ptxas (CUDA 13, sm_80, f16, N =
  // 1024, plain, causal and soft-capped): at d = 64 the dK/dV kernel of
  // 32 x 64 and 32 x 128 used 202 to 223 registers without it and 241 to
  // 253 with it, and 64-row blocks (64 x 64, 64 x 128; estimated 256)
  // spilled 8 to 24 bytes; at d = 128, 16 x 128 with 8 warps (248) used
  // 255 and spilled nothing. Without a dQ kernel, only a bias gradient's
  // kernel remains beside it.
  if (!shape.deterministicQueryGradient) {
    keyValue += 36;
    query = shape.maskOperand ? queryTiles * 3 * bc / 2 : 0;
  }
  double others = query + overhead + maskLoads + double(target.registerMargin);
  if (warpgroupKeyValue)
    return clampToInt64(
        std::ceil(std::max(*warpgroupKeyValue, query > 0 ? others : 0)));
  return clampToInt64(std::ceil(std::max(keyValue, query) + overhead +
                                maskLoads + double(target.registerMargin)));
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
