//===- TileSelection.h - Tile sizes from a target's SRAM --------*- C++ -*-===//
//
// Stage: tile selection. A pure function of (shape, element type, target)
// to a tiling plus the reasons for it, with no IR: fa-select-tiles calls it,
// unit tests call it directly, and a compiler may call it to ask what the
// kernel would use.
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

#include "fa/Target/TargetDescription.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace mlir::fa {

/// A size not known at compile time.
constexpr int64_t kUnknownSize = -1;

/// What the NVIDIA kernels of fa-distribute-attention are built from, shared
/// by their plan (planKernel) and their builder: threads per warp, bytes a
/// thread moves per copy step (also the shared tiles' row padding), and the
/// most keys whose scores an FMA-kernel thread keeps in registers at once.
constexpr int64_t kKernelWarpSize = 32;
constexpr int64_t kKernelWarpgroupThreads = 4 * kKernelWarpSize;
constexpr int64_t kKernelChunkBytes = 16;
constexpr int64_t kKernelMaxKeyChunk = 16;
/// Shared memory the TMA producer kernel's mbarriers occupy: a few 8-byte
/// words in a static global, followed by tiles aligned to the 1024-byte
/// start of a 128-byte swizzle pattern.
constexpr int64_t kTmaBarrierSlotBytes = 1024;

/// The problem, as far as tile selection cares. Sizes may be kUnknownSize
/// except the head dims and the element size.
struct AttentionShape {
  int64_t batch = 1, heads = 1, kvHeads = 1;
  int64_t queryLen = 1, keyLen = 1;
  int64_t headDim = 64, valueDim = 64;
  int64_t elementBytes = 2;
  /// Q, K and V are all f16 or all bf16: multiplicands of mma.sync
  /// m16n8k16 (see tensorCoreKernel).
  bool mmaOperands = false;
  /// Diagonal offset delta (0 top-left, Nk - Nq bottom-right) when causal.
  std::optional<int64_t> causalOffset;
  /// Window (left, right, delta) when there is one.
  struct Window {
    int64_t left, right, offset;
  };
  std::optional<Window> window;
  /// The query heads of a group may become one block's rows exactly
  /// (whyNotPackable in lib/Transforms/PackQueryGroups.h): heads and
  /// kvHeads known, and no mask that depends on a row's position.
  bool queryGroupsPackable = false;
  /// Packed sequences (cu_seqlens_q/k): each block keeps its sequence's
  /// bases and lengths live.
  bool packedSequences = false;
  /// On sm_90a, the wgmma kernel will be the TMA producer kernel (the
  /// caller's choice and whyNoTmaProducer allow it): its compute
  /// warpgroups' registers follow that kernel's model, and it runs one
  /// block per SM (registersPerThread, evaluateTiling).
  bool tmaProducerKernel = false;
  /// fa.attention's score modifications: a score_mod region, and any
  /// region or sinks at all. The regions grow the softmax's code per score
  /// element (registersPerThread counts them in the TMA producer kernel),
  /// and a score_mod keeps planKernel from overlapping P V with the
  /// softmax: ptxas (CUDA 13) serializes the wgmmas around a soft-cap's
  /// tanh there (C7519), where the plain schedule compiles clean.
  bool scoreMod = false;
  bool scoreModifications = false;
  /// An additive bias or boolean mask operand: the kernels load its element
  /// for every score and keep its broadcast addresses live.
  bool maskOperand = false;
};

/// The attention a tiling with packGQA computes: Hkv heads of G * Nq query
/// rows (G = heads / kvHeads), no causal mask (packable ones hide nothing).
/// `shape` itself when it is not packable.
AttentionShape packedShape(const AttentionShape &shape);

/// How a tiling was chosen; User: written on the op and only checked.
enum class TilePolicy { FA1, FA2, Auto, User };
std::optional<TilePolicy> parseTilePolicy(llvm::StringRef text);
llvm::StringRef stringifyTilePolicy(TilePolicy policy);

struct Tiling {
  int64_t blockQ = 0, blockKV = 0, warps = 0, stages = 0;
  /// Runs of key blocks computed by separate blocks and merged (split-KV,
  /// flash-decoding); 1: every block walks all the keys it sees.
  int64_t kvSplits = 1;
  /// The query heads of a group are packed into one block's rows (every
  /// cost is then the packed attention's, packedShape).
  bool packGQA = false;
  bool operator==(const Tiling &other) const {
    return blockQ == other.blockQ && blockKV == other.blockKV &&
           warps == other.warps && stages == other.stages &&
           kvSplits == other.kvSplits && packGQA == other.packGQA;
  }
};

/// "128 x 64, 4 warps, 2 stages" (and key splits, packed query groups), as
/// reports and diagnostics write a tiling.
std::string describeTiling(const Tiling &tiling);

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
};

struct TileDecision {
  Tiling tiling;
  TileCosts costs;
  TilePolicy policy = TilePolicy::FA2;
  /// FlashAttention-1's formula before any rounding.
  int64_t fa1BlockKV = 0, fa1BlockQ = 0;
  /// One sentence: which policy chose the tile, and why.
  std::string why;
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

/// Whether `target` has the m16n8k16 f16/bf16 mma.sync of sm_80 and later.
bool hasMmaSync16816(const TargetDescription &target);

/// Whether `target` has Hopper's warpgroup matmul (wgmma m64nNk16, sm_90a).
bool hasWarpgroupMma(const TargetDescription &target);

/// Whether the register-fragment kernel can multiply with wgmma instead of
/// mma.sync for this tiling (the sm_90a kernel, WarpgroupMmaKernel.cpp):
/// a tensor-core tiling (tensorCoreKernel) of 64-row warpgroups whose warps
/// hold 16 rows each (warps = block_q / 16), a key block of 16 to 256 keys,
/// and D and Dv multiples of 64 (Dv at most 256, wgmma's largest N) of
/// 2-byte elements: the tiles are stored in column blocks of 64 elements,
/// 128-byte rows in the 128-byte swizzle wgmma reads.
bool warpgroupMmaKernel(const Tiling &tiling, const AttentionShape &shape);

/// Whether fa-distribute-attention's kernel multiplies Q K^T and P V with
/// tensor cores (warp-level 16x8x16 matmuls that become nvgpu.ldmatrix and
/// nvgpu.mma.sync) for this tiling, on a target with m16n8k16: f16 or bf16
/// Q, K and V, head dims and key blocks multiples of 16, and a query block
/// of whole 16-row tiles per warp.
/// Otherwise the kernel computes with f32 FMAs.
bool tensorCoreKernel(const Tiling &tiling, const AttentionShape &shape);

/// What fa-distribute-attention's forward kernel will be for a tiling: the
/// decisions made before any IR is built, in one place, so that the kernel
/// builder only follows them and the tile report can print them.
struct KernelPlan {
  /// Threads per block: 32 per warp.
  int64_t threads = 0;
  int64_t stages = 1;
  /// Q K^T and P V as warp-level m16n8k16 matmuls (tensorCoreKernel).
  bool tensorCores = false;
  /// S, P and O in mma.sync fragments (FlashAttention-2's register-resident
  /// softmax); else S and P pass through shared memory.
  bool registerFragments = false;
  /// With registerFragments: Q K^T and P V as Hopper's warpgroup matmuls
  /// (wgmma, warpgroupMmaKernel) on the same fragment layout.
  bool warpgroupMma = false;
  /// With warpgroupMma: Q, K and V arrive by TMA, issued by one producer
  /// warpgroup (128 more threads) into a ring of `stages` K/V buffers, each
  /// guarded by full and empty mbarriers (warp specialization,
  /// TmaProducer.cpp); the compute warpgroups only wait and compute.
  bool tmaProducer = false;
  /// With tmaProducer and two or more stages: each block's P V is issued
  /// in the next block's step, behind that block's Q K^T, and runs while
  /// its softmax does (FlashAttention-3's intra-warpgroup overlap;
  /// wgmma.wait_group 1). The state carries P across blocks.
  bool overlapSoftmax = false;
  /// With tmaProducer and two or more compute warpgroups: the warpgroups
  /// take turns issuing their matmuls (named barriers), so that one's
  /// softmax runs while another's matmuls do (FlashAttention-3's
  /// ping-pong).
  bool pingPong = false;
  /// K/V tiles prefetched with cp.async, 16 bytes per thread and step.
  bool asyncCopies = false;
  /// Threads that share one query row's softmax and accumulator (2 in the
  /// shared-memory tensor-core kernel with twice block_q threads).
  int64_t rowSplit = 1;
  /// Keys whose scores a thread keeps in registers at once (FMA kernel).
  int64_t keyChunk = 1;
  /// One line, e.g. "register fragments, cp.async, 128 threads, 2 stages".
  std::string describe() const;
};

/// How a warp-specialized kernel's register file is split (setmaxnreg):
/// the producer warpgroup keeps `producer` registers per thread, each of
/// the compute warpgroups gets `compute`, so that one block holds at most
/// the 64K registers of an SM (FlashAttention-3's 24 / 240 with two
/// compute warpgroups). Counts are multiples of 8 in [24, 256), as
/// setmaxnreg takes them.
struct WarpgroupRegisters {
  int64_t producer = 24, compute = 240;
};
WarpgroupRegisters splitWarpgroupRegisters(int64_t computeWarpgroups);

/// What the caller allows (fa-distribute-attention's options).
struct KernelChoices {
  bool asyncCopies = true, tensorCores = true, registerFragments = true;
  /// wgmma where the tiling allows (sm_90a only).
  bool warpgroupMma = false;
  /// With wgmma: TMA loads from a producer warpgroup (KernelPlan).
  bool tmaProducer = false;
  /// With the TMA producer: its schedules (KernelPlan), where the tiling
  /// allows.
  bool overlapSoftmax = false, pingPong = false;
};

/// The forward kernel for `tiling` on `shape`, with K and V elements of
/// `keyBytes` and `valueBytes` bytes. cp.async needs rows that split into
/// whole 16-byte chunks spread evenly over the threads, and a second stage
/// to fill while the first is read (or the register kernel, which copies in
/// FlashAttention-2's order at one stage too).
KernelPlan planKernel(const Tiling &tiling, const AttentionShape &shape,
                      int64_t keyBytes, int64_t valueBytes,
                      const KernelChoices &choices);

/// Whether the tensor-core kernel stores a shared tile with rows of `width`
/// elements of `elementBytes` unpadded, its 16-byte chunks XOR-swizzled
/// against bank conflicts: rows of 2 or 4 chunks, or of a multiple of 8
/// (the swizzle stays inside the row). Other rows are padded by 16 bytes.
bool swizzledSharedRows(int64_t width, int64_t elementBytes);

/// Bytes of shared memory a tiling needs. On GPUs, exactly what the kernel
/// of fa-distribute-attention allocates: the Q tile and `stages` K and V
/// tiles, each tile 16-byte aligned (the row max and sum live in
/// registers). The FMA kernel pads each row by 16 bytes against bank
/// conflicts; the tensor-core kernel, whose S and P stay in mma.sync
/// fragments, swizzles rows instead where it can (swizzledSharedRows). On
/// the host, unpadded tiles plus the f32 row statistics, accumulator and
/// score tile, which have no registers to live in.
int64_t sharedMemoryBytes(const Tiling &tiling, const AttentionShape &shape,
                          const TargetDescription &target);

/// Registers per thread. FMA kernel: the f32 O accumulator and the scores
/// spread over the block's threads, plus 24 for addresses and loop state.
/// Tensor-core kernel, per lane: R / 16 fragment rows (R = block_q / warps)
/// of O (Dv / 2), S (Bc / 2) and P (Bc / 4, two per register), plus
/// 5 D / 16 + Bc / 4 + 16 + 12 R / 16 for fragments in flight, addresses
/// and the row statistics, fitted to ptxas (CUDA 13) on sm_80 and sm_90 so
/// that every tiling it admits compiles without spills (docs/GPU.md).
/// sm_90a's wgmma kernel (warpgroupMmaKernel), per compute thread: Dv / 2
/// + Bc + D / 4 + (D - Dv) / 2 where D > Dv, + 24 with a causal or window
/// band, + 10 with one stage, + 8 for packed sequences, + 14; fitted to
/// ptxas on sm_90a, and bounded by the TMA producer kernel's compute
/// registers (splitWarpgroupRegisters) where the tiling is checked.
int64_t registersPerThread(const Tiling &tiling, const AttentionShape &shape,
                           const TargetDescription &target);

/// The blocks per SM to promise ptxas (nvvm.minctasm) for a kernel of
/// `threads` threads that uses `sharedMemoryBytes` of shared memory: the
/// number shared memory allows, at most as many as could all run with every
/// thread at the per-thread register maximum. ptxas does not see dynamic
/// shared memory, and left to itself it budgets registers for an occupancy
/// of its own choosing (observed: 128 registers and 4 spill bytes for an
/// f16 d = 64 kernel on sm_90 that needs 148); the hint removes that budget
/// and never caps registers below the maximum. None when nothing is known.
std::optional<int64_t> minBlocksPerSMHint(int64_t sharedMemoryBytes,
                                          int64_t threads,
                                          const TargetDescription &target);

/// Every cost of `tiling`; occupancy 0 when it does not fit.
TileCosts evaluateTiling(const Tiling &tiling, const AttentionShape &shape,
                         const TargetDescription &target);

/// The most key splits a tiling may have (#fa.tiling's verifier enforces
/// it; FlashAttention-2 caps num_splits at 128 too): the merge reads every
/// split's partial row.
constexpr int64_t kMaxKVSplits = 128;

/// The fewest key blocks a split walks when tile selection splits the keys:
/// shorter splits spend more on the merge than they gain in parallelism.
constexpr int64_t kMinKeyBlocksPerSplit = 4;

/// The key splits for `tiling` (whose kvSplits is ignored) and one sentence
/// saying why: 1 on the host and when the grid of B * Hq * ceil(Nq /
/// block_q) blocks fills at least 80% of the blocks the chip runs at once;
/// otherwise FlashAttention-2's heuristic: the fewest splits whose waves
/// are at least 85% as full as the best count's, among those that leave
/// every split kMinKeyBlocksPerSplit key blocks or more (and at most
/// kMaxKVSplits).
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
// The backward pass (fa.attention_backward, FlashAttention-2's backward by
// recomputation). A block of its dK/dV pass keeps a key block's K and V
// resident and streams query blocks past them, so it holds more at once
// than a forward block. On a GPU (fa-distribute-attention-backward) the
// dK/dV kernel's shared memory is K and V [Bc, D + Dv] and Q and dO
// [Br, D + Dv] per streamed buffer, the dQ kernel's Q and dO once and K
// and V per buffer; S, P, dP, dS and the f32 gradients live in mma.sync
// fragments. On the host the f32 accumulators and the S, P, dP and dS
// tiles are scratch too.
//===----------------------------------------------------------------------===//

/// Warps of a backward GPU kernel whose warps split `rows` rows (block_kv
/// for the dK/dV kernel, block_q for the dQ kernel): the most, up to
/// `warps`, that own whole 16-row fragment tiles.
int64_t backwardKernelWarps(int64_t rows, int64_t warps);

/// Buffers a backward GPU kernel streams its tiles of `rows` rows through
/// (Q and dO in the dK/dV kernel, K and V in the dQ kernel): the tiling's
/// stages when they go through cp.async (`asyncCopies`, stages >= 2, rows
/// of 16-byte chunks that spread evenly over `threads`), else 1.
int64_t backwardStreamBuffers(const Tiling &tiling, const AttentionShape &shape,
                              bool asyncCopies, int64_t rows, int64_t threads);

/// Bytes of shared memory (GPU: the larger of the two gradient kernels',
/// exactly what they allocate) or scratch (host) of one block of the
/// backward pass.
int64_t backwardSharedMemoryBytes(const Tiling &tiling,
                                  const AttentionShape &shape,
                                  const TargetDescription &target);

/// Registers per thread of the backward pass on a GPU: the larger of the
/// two gradient kernels', each a lane's fragments (dK/dV kernel: the f32
/// dK and dV accumulators, S^T and dP^T, and P^T and dS^T packed in pairs,
/// for each of its 16-row key tiles; dQ kernel: dQ, S, dP and dS packed,
/// for each 16-row query tile; the bias gradient's kernel, when larger, its
/// f32 dBias sums, S and dP), plus 60 for addresses and loop state,
/// fitted to ptxas so that what it admits compiles without spills
/// (docs/GPU.md). 0 on the host.
int64_t backwardRegistersPerThread(const Tiling &tiling,
                                   const AttentionShape &shape,
                                   const TargetDescription &target);

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

/// Bytes the linear attention kernel keeps in shared memory with chunks of
/// `chunk` rows (see LinearChunkDecision).
int64_t linearChunkBytes(int64_t chunk, int64_t headDim, int64_t valueDim,
                         int64_t elementBytes, bool normalized, bool decay);

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
