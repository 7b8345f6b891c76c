//===- TileSelection.h - Tile sizes from a target's SRAM --------*- C++ -*-===//
//
// Stage: tile selection. A pure function of (shape, element type, target)
// to a tiling plus the reasons for it, with no IR: fa-select-tiles calls it,
// unit tests call it directly, and a compiler may call it to ask what the
// kernel would use. The search only: what a tiling costs in shared memory
// and registers is the kernel model's (fa/Kernel/KernelModel.h).
//
//   FA1 (Dao et al. 2022, Alg. 1): B_c = ceil(M / 4d), B_r = min(B_c, d),
//       M the per-block shared memory in elements.
//   FA2 (Dao 2023): a small search over {16..256}^2 x {4, 8} warps x
//       {1, 2, 3} stages, bounded by shared memory and registers, ranked by
//       the cost model documented in docs/Targets.md.
//
// Example:
//   AttentionShape shape{/*batch=*/1, /*heads=*/16, /*kvHeads=*/16,
//                        /*queryLen=*/4096, /*keyLen=*/4096, /*headDim=*/128,
//                        /*valueDim=*/128, /*elementBytes=*/2};
//   TileSelection result = selectTiles(shape, *lookupTargetPreset("sm_90"),
//                                      TilePolicy::FA2);
//   if (result.decision) use(result.decision->tiling);
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_TILESELECTION_H
#define FA_TRANSFORMS_TILESELECTION_H

#include "fa/Dialect/FA/IR/FADialect.h"

// The dialects its passes load (their dependentDialects in Passes.td),
// which the pass classes name.
#include "fa/Kernel/KernelModel.h"
#include "mlir/Pass/Pass.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace mlir::fa {

/// The stage's passes (Passes.td): their options and create functions.
#define GEN_PASS_DECL
#include "fa/Transforms/TileSelection/Passes.h.inc"

/// How a tiling was chosen; User: written on the op and only checked.
enum class TilePolicy { FA1, FA2, Auto, User };
std::optional<TilePolicy> parseTilePolicy(llvm::StringRef text);
llvm::StringRef stringifyTilePolicy(TilePolicy policy);

/// What a tiling costs on a target.
struct TileCosts {
  int64_t sharedMemoryBytes = 0;
  int64_t registersPerThread = 0;
  int64_t occupancyBlocksPerSM = 0; // 0: does not fit
  int64_t blocks = 0;               // B * Hq * ceil(Nq / block_q) * splits
  int64_t waves = 0;
  /// The split-KV workspace: a partial f32 output row and its logsumexp
  /// per split and query row (0 without splits).
  int64_t workspaceBytes = 0;
  int64_t visitedKVTiles = 0;       // over all query blocks of one head
  int64_t hbmBytesTiled = 0;
  int64_t hbmBytesUnfused = 0;
  double cost = 0;                  // the ranking score; lower is better
  /// sm_90a's wgmma kernel takes this tiling: registersPerThread is its
  /// compute threads', bounded by the producer kernel's register split.
  bool warpgroupMma = false;
  /// With warpgroupMma: the registers the producer warpgroup of the TMA
  /// producer kernel keeps (tmaProducerRegisters), which bound the compute
  /// warpgroups' share (the cp.async wgmma kernel fits in the default's).
  int64_t producerRegisters = kProducerRegisters;
};

struct TileDecision {
  Tiling tiling;
  TileCosts costs;
  TilePolicy policy = TilePolicy::FA2;
  /// FlashAttention-1's formula before any rounding.
  int64_t fa1BlockKV = 0, fa1BlockQ = 0;
  /// One sentence: which policy chose the tile, and why.
  std::string why;
  /// A backward tiling chosen for dQ in a kernel of its own where the op
  /// left the order free: no tiling fits the dK/dV kernel that adds dQ
  /// with atomics (fa-select-tiles then marks the op `deterministic`).
  bool deterministicQueryGradient = false;
};

struct TileSelection {
  std::optional<TileDecision> decision;
  /// Set when no tiling fits, or a given one does not.
  std::string error;
};

/// FA1's formula: ceil(M / 4d) with M in elements.
int64_t fa1BlockKV(int64_t sharedMemoryElements, int64_t headDim);
/// FA1's formula: min(ceil(M / 4d), d).
int64_t fa1BlockQ(int64_t sharedMemoryElements, int64_t headDim);

/// Every cost of `tiling`; occupancy 0 when it does not fit.
TileCosts evaluateTiling(const Tiling &tiling, const AttentionShape &shape,
                         const TargetDescription &target);

/// The fewest key blocks a split walks when tile selection splits the keys:
/// shorter splits spend more on the merge than they gain in parallelism.
constexpr int64_t kMinKeyBlocksPerSplit = 4;

/// The splits' workspace (each writes a partial f32 row and logsumexp per
/// query row, which the merge reads back) moves at most 1/kWorkspaceBudget-
/// Divisor of the bytes the blocks read from K and V, so that a split
/// decode step stays within 10% of one read of K and V with its queries
/// and outputs.
constexpr int64_t kWorkspaceBudgetDivisor = 16;

/// The query rows per key/value head (G * Nq) up to which an attention is
/// bound by its bytes, and the workspace budget applies.
constexpr int64_t kMemoryBoundQueryRows = 64;

/// The most key splits of `tiling` whose workspace traffic stays within
/// that budget (0 or 1 where even two would not); kMaxKVSplits where the
/// attention has more than kMemoryBoundQueryRows query rows per key/value
/// head (or Nq is unknown).
int64_t splitsWithinWorkspaceBudget(const Tiling &tiling,
                                    const AttentionShape &shape);

/// The key splits for `tiling` (whose kvSplits is ignored) and one sentence
/// saying why: 1 on the host and when the grid of B * Hq * ceil(Nq /
/// block_q) blocks fills at least 80% of the blocks the chip runs at once;
/// otherwise FlashAttention-2's heuristic: the fewest splits whose waves
/// are at least 85% as full as the best count's, among those that leave
/// every split kMinKeyBlocksPerSplit key blocks or more, at most
/// kMaxKVSplits and within the workspace budget
/// (splitsWithinWorkspaceBudget).
std::pair<int64_t, std::string> chooseKVSplits(const Tiling &tiling,
                                               const AttentionShape &shape,
                                               const TargetDescription &target);

/// Chooses a tiling by `policy` (Auto is FA2, FA1 reported beside it).
/// Where the query groups are packable, the packed attention is tiled too,
/// and chosen when it costs less than 90% of the unpacked one (a decode
/// step with GQA reads K and V G times less); the why says so.
TileSelection selectTiles(const AttentionShape &shape,
                          const TargetDescription &target, TilePolicy policy);

/// Checks a tiling the user wrote; the error names bytes needed and limits.
/// On the host, whose "shared memory" is its cache, a tiling is accepted
/// however much scratch it needs (the why says when it exceeds the cache):
/// the machine's cache size must not decide whether a program compiles.
TileSelection checkTiling(const Tiling &tiling, const AttentionShape &shape,
                          const TargetDescription &target);

//===----------------------------------------------------------------------===//
// The backward pass (fa.attention_backward); its kernels' footprint is the
// kernel model's (KernelModel.h).
//===----------------------------------------------------------------------===//

/// Every cost of a backward tiling (occupancy 0 when it does not fit). The
/// HBM estimate counts both passes: the dK/dV pass reads Q, dO, L and D
/// once per visible key block, the dQ pass reads K and V once per visible
/// query block.
TileCosts evaluateBackwardTiling(const Tiling &tiling,
                                 const AttentionShape &shape,
                                 const TargetDescription &target);

/// The backward tiling: the largest block_q x block_kv over {16, 32, 64,
/// 128} (from 8 on the host; neither past the sequence it tiles) that fits,
/// by tile area, then by block_kv (the dK/dV pass re-reads the query side
/// once per key block), then by stages. On a GPU with one warp per 16 keys
/// of a block (at most 8), and 2 stages (cp.async) where they fit. Policy
/// FA2: FlashAttention-2 tunes its backward by hand within the same bound.
TileSelection selectBackwardTiles(const AttentionShape &shape,
                                  const TargetDescription &target);

/// Checks a backward tiling the user wrote (on the host, as checkTiling).
TileSelection checkBackwardTiling(const Tiling &tiling,
                                  const AttentionShape &shape,
                                  const TargetDescription &target);

//===----------------------------------------------------------------------===//
// Linear attention's chunk (fa.linear_attention)
//===----------------------------------------------------------------------===//

/// The chunk of a linear attention and why: the rows its GPU kernel walks
/// the sequence by (fa-distribute-linear-attention), and the causal host
/// lowering's chunk.
struct LinearChunkDecision {
  int64_t chunk = 0;
  /// What the kernel keeps in shared memory: Q, K (and the decayed K) and
  /// V's rows of a chunk in the input type, the [D, Dv] state in f32 and
  /// rounded to the input type, and its column scales (V and the state with
  /// 16 more columns when normalized).
  int64_t sharedMemoryBytes = 0;
  std::string why;
};

/// C = 64 (flash-linear-attention's chunk: its [C, C] product and the [D,
/// Dv] state update cost alike per row at D = Dv = 64, and it is a whole
/// number of 16-row tensor-core tiles) when its working set fits the
/// target's shared memory (`sramBytes`), else the largest power of two
/// from 16 that fits; nullopt when even 16 rows do not (the error says
/// what would be needed).
std::optional<LinearChunkDecision>
selectLinearChunk(int64_t headDim, int64_t valueDim, int64_t elementBytes,
                  bool normalized, bool decay, int64_t sramBytes,
                  std::string &error);

} // namespace mlir::fa

#endif // FA_TRANSFORMS_TILESELECTION_H
