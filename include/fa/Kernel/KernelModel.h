//===- KernelModel.h - What the GPU kernels are, before any IR --*- C++ -*-===//
//
// Stage: the kernel model, below the dialect. Pure C++ that depends only on
// the target description: the problem as the kernels see it
// (AttentionShape), a tiling, the forward kernel's plan (planKernel: which
// matmuls, copies and schedules a tiling gets), the register split of a
// warp-specialized kernel, and each kernel's footprint (the shared-memory
// layout, registers per thread). The kernel builders follow what it
// decides; tile selection (TileSelection.h) searches over it; the dialect's
// verifier and the GPU mapping read its limits. Hopper's register and
// shared-memory layouts are in WarpgroupLayout.h beside it.
//
//===----------------------------------------------------------------------===//

#ifndef FA_KERNEL_KERNELMODEL_H
#define FA_KERNEL_KERNELMODEL_H

#include "fa/Target/TargetDescription.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

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
  /// Per-sequence key lengths (kv_lengths): the kernel masks each
  /// sequence's last key block at run time.
  bool keyLengths = false;
  /// With a page table: the slots of a page (kUnknownSize when known only
  /// at run time); 0 without one.
  int64_t pageSize = 0;
  /// On sm_90a, the wgmma kernel will be the TMA producer kernel where the
  /// tiling allows (the caller's choice; tmaProducerTiling): its compute
  /// warpgroups' registers follow that kernel's model, and it runs one
  /// block per SM (registersPerThread, evaluateTiling).
  bool tmaProducerKernel = false;
  /// The forward kernel keeps S and P in mma.sync fragments where it uses
  /// tensor cores (the caller's register-fragments, default true); false:
  /// they pass through shared memory, which the shared layout counts.
  bool registerFragments = true;
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
  /// The backward pass's dQ: summed by the dK/dV kernel's blocks with f32
  /// atomics (dS^T passes through shared memory), or, with `deterministic`
  /// on the op, by a kernel of its own.
  bool deterministicQueryGradient = false;
};

/// The attention a tiling with packGQA computes: Hkv heads of G * Nq query
/// rows (G = heads / kvHeads), no causal mask (packable ones hide nothing).
/// `shape` itself when it is not packable.
AttentionShape packedShape(const AttentionShape &shape);

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
  /// The tiling planned for, and the bytes of a Q, K and V element.
  Tiling tiling;
  int64_t queryBytes = 2, keyBytes = 2, valueBytes = 2;
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
  /// With tmaProducer: the rows of a K or V box (tmaKeyBoxRows; fewer
  /// than block_kv in a paged cache whose pages do not hold whole key
  /// blocks) and the producer warpgroup's registers (tmaProducerRegisters).
  int64_t keyBoxRows = 0;
  int64_t producerRegisters = 0;
  /// With tmaProducer and two or more stages: each block's P V is issued
  /// in the next block's step, behind that block's Q K^T, and runs while
  /// its softmax does (FlashAttention-3's intra-warpgroup overlap;
  /// wgmma.wait_group 1). The state carries P across blocks.
  bool overlapSoftmax = false;
  /// With overlapSoftmax: P is stored to a shared tile [block_q][block_kv]
  /// (wgmma's core matrices, unswizzled) and P V reads both of its operands
  /// by descriptor, so no P is carried across blocks in registers
  /// (FlashAttention-3's MmaPV_is_RS = false; sharedProbabilitiesTiling).
  bool sharedProbabilities = false;
  /// With tmaProducer and two or more compute warpgroups: the warpgroups
  /// take turns issuing their matmuls (named barriers), so that one's
  /// softmax runs while another's matmuls do (FlashAttention-3's
  /// ping-pong).
  bool pingPong = false;
  /// Under a causal or window band (no mask operand): the key blocks are
  /// walked from the last, the ones the diagonal crosses first, masked,
  /// then those every row sees whole in a loop without element masks, then
  /// (a window) those its left edge crosses, masked again:
  /// FlashAttention-2's and -3's split, in every kernel. On the TMA
  /// producer kernel the unmasked loop costs no register ptxas can measure
  /// once the wgmma descriptors are immediates (192 x 128 at d = 64: 160 at
  /// N = 257 to 4096 and run time, as without the band; docs/Hopper.md).
  /// With a mask operand every block is masked.
  bool splitBandWalk = false;
  /// K/V tiles prefetched with cp.async, 16 bytes per thread and step.
  bool asyncCopies = false;
  /// Threads that share one query row's softmax and accumulator (2 in the
  /// shared-memory tensor-core kernel with twice block_q threads).
  int64_t rowSplit = 1;
  /// Keys whose scores a thread keeps in registers at once (FMA kernel).
  int64_t keyChunk = 1;
  /// One line, e.g. "register fragments, cp.async, 128 threads, 2 stages"
  /// (and ", the band's edge blocks masked apart" with splitBandWalk, ",
  /// K/V boxes of 16 rows (pages)" where a key block is several boxes).
  std::string describe() const;
};

/// The registers per thread a TMA producer warpgroup keeps: 24 where it
/// issues one box per tile and column block (FlashAttention-3's count with
/// two compute warpgroups), 32 where a paged cache's key blocks are
/// several boxes, each through its table entry: with 24, ptxas spilled 4
/// to 40 bytes in the producer (pages of 8 to 128 slots, d = 64 to 256,
/// the boxes' loop kept rolled), with 32 nothing over the same 72 cases.
/// 32 leaves the compute warpgroups' share as it is (240 with two, 160
/// with three: setmaxnreg takes multiples of 8).
constexpr int64_t kProducerRegisters = 24;
constexpr int64_t kPagedProducerRegisters = 32;

/// How a warp-specialized kernel's register file is split (setmaxnreg):
/// the producer warpgroup keeps `producer` registers per thread, each of
/// the compute warpgroups gets `compute`, so that one block holds at most
/// the 64K registers of an SM (FlashAttention-3's 24 / 240 with two
/// compute warpgroups). Counts are multiples of 8 in [24, 256), as
/// setmaxnreg takes them.
struct WarpgroupRegisters {
  int64_t producer = kProducerRegisters, compute = 240;
};
WarpgroupRegisters
splitWarpgroupRegisters(int64_t computeWarpgroups,
                        int64_t producer = kProducerRegisters);

/// What the caller allows the kernels (the options of fa-distribute-attention
/// and fa-gpu-pipeline of the same names); planKernel takes what the tiling
/// and the chip allow from it.
struct KernelOptions {
  /// cp.async prefetch of streamed tiles with two or more stages (sm_80+).
  bool asyncCopies = true;
  /// mma.sync m16n8k16 for f16 and bf16 operands (sm_80+).
  bool tensorCores = true;
  /// Forward only: S and P in mma.sync fragments (FlashAttention-2's
  /// register-resident softmax) rather than through shared memory.
  bool registerFragments = true;
  /// With registerFragments (forward) and in the backward's dK/dV kernel:
  /// Hopper's wgmma where the tiling allows (warpgroupMmaKernel,
  /// whyNoWarpgroupBackwardTiling; sm_90a).
  bool warpgroupMma = false;
  /// With warpgroupMma: Q, K and V by TMA from a producer warpgroup
  /// (KernelPlan::tmaProducer), where the tiling allows
  /// (whyNoTmaProducerTiling).
  bool tmaProducer = false;
  /// With tmaProducer: the schedules KernelPlan::overlapSoftmax and
  /// KernelPlan::pingPong, where the tiling allows.
  bool overlapSoftmax = false, pingPong = false;
};

/// The forward kernel for `tiling` on `shape`, with Q elements of
/// `shape.elementBytes` and K and V elements of `keyBytes` and `valueBytes`
/// bytes. cp.async needs rows that split into
/// whole 16-byte chunks spread evenly over the threads, and a second stage
/// to fill while the first is read (or the register kernel, which copies in
/// FlashAttention-2's order at one stage too).
KernelPlan planKernel(const Tiling &tiling, const AttentionShape &shape,
                      int64_t keyBytes, int64_t valueBytes,
                      const KernelOptions &options);

/// Whether the tensor-core kernel stores a shared tile with rows of `width`
/// elements of `elementBytes` unpadded, its 16-byte chunks XOR-swizzled
/// against bank conflicts: rows of 2 or 4 chunks, or of a multiple of 8
/// (the swizzle stays inside the row). Other rows are padded by 16 bytes.
bool swizzledSharedRows(int64_t width, int64_t elementBytes);

/// Row length, in elements, of a shared tile of `width` columns of
/// `elementBytes`: `width` where `swizzle` (the kernel swizzles its rows)
/// and swizzledSharedRows allow, else `width` and 16 bytes of padding.
int64_t sharedRowLength(int64_t width, int64_t elementBytes, bool swizzle);

/// One shared tile of a kernel: `shape` elements of `elementBytes` each,
/// the last dimension a row (padded or not, sharedRowLength).
struct SharedTile {
  llvm::SmallVector<int64_t, 4> shape;
  int64_t elementBytes = 0;
};

/// The forward kernel's shared memory, tile by tile, as
/// fa-distribute-attention allocates it and as the tile report counts it:
/// Q [Br][D'], `stages` K [Bc][D'] and V [Bc][Dv'] tiles, and in the
/// shared-memory tensor-core kernel (register-fragments=false) S's f32
/// results, fragment-major [Br / 16][max(Bc, Dv) / 8][16][8], and P
/// [Br][Bc']. Rows are swizzled in the register-fragment kernels where they
/// can be, padded by 16 bytes otherwise. The row max and sum, and in the
/// register-fragment kernels S, P and O, live in registers.
struct SharedLayout {
  /// Bytes in front of the tiles: the TMA producer kernel's mbarriers (a
  /// few words, a static global) take a whole kTmaBarrierSlotBytes slot,
  /// since its tiles start on the 128-byte swizzle pattern's boundary.
  int64_t reservedBytes = 0;
  SharedTile query, key, value;
  /// `probs` is also P of the TMA producer kernel's P V from shared memory
  /// (KernelPlan::sharedProbabilities), [block_q][block_kv] unpadded.
  std::optional<SharedTile> results, probs;
  /// Everything, each tile at the next 16-byte aligned offset.
  int64_t totalBytes() const;
};

/// The shared layout of the forward kernel `plan` (planKernel) for
/// `shape`'s head dims.
SharedLayout sharedLayout(const KernelPlan &plan, const AttentionShape &shape);

/// The rows of the TMA producer kernel's K and V boxes for `tiling` and
/// `shape`: a key block (block_kv), or in a paged cache whose pages do not
/// hold whole key blocks, the largest run of rows that never crosses a page
/// boundary from a block's start: gcd(page size, block_kv). A key block is
/// then block_kv / rows boxes, each through its own table entry.
int64_t tmaKeyBoxRows(const Tiling &tiling, const AttentionShape &shape);
/// The producer warpgroup's registers in the TMA producer kernel of
/// `tiling` (kProducerRegisters, or kPagedProducerRegisters where a key
/// block is several boxes), and the register split that leaves the
/// compute warpgroups.
int64_t tmaProducerRegisters(const Tiling &tiling, const AttentionShape &shape);
WarpgroupRegisters tmaProducerRegisterSplit(const Tiling &tiling,
                                            const AttentionShape &shape);
/// Why `tiling`'s wgmma kernel cannot load by TMA where `shape` asks for
/// the TMA producer kernel (empty if it can): with a page table, the page
/// size must be known when the kernel is built (a box's rows are fixed in
/// its tensor map), and the boxes of tmaKeyBoxRows must be whole 128-byte
/// swizzle atoms (8 rows), so that each lands where the swizzled tile has
/// its rows.
/// The warpgroups that share each 64 keys in the backward's wgmma dK/dV
/// kernel: 1, or 2 where D or Dv is above 128 (each then holds half of dK's
/// and dV's columns, whose registers one thread could not hold, and forms
/// S^T and dP^T too: FlashAttention-3's d = 256 split).
int64_t warpgroupBackwardColumnSplit(const AttentionShape &shape);

/// Why the backward's dK/dV kernel cannot run its matmuls on wgmma with
/// `tiling` (empty when it can): each warpgroup owns 64 keys of the block
/// (warps = block_kv / 16 times the column split, block_kv a multiple of
/// 64), Sᵀ's N is block_q (a multiple of 16 up to 256: dV's and dK's K
/// steps are 16 queries), and the tiles are 64-column blocks of the
/// 128-byte swizzle (D and Dv multiples of 64 times the column split, up
/// to 256: dK's and dV's N).
std::string whyNoWarpgroupBackwardTiling(const Tiling &tiling,
                                         const AttentionShape &shape);

/// Whether fa-distribute-attention-backward builds the dK/dV kernel on
/// wgmma for `tiling` on `target`, as both pipelines ask on sm_90a
/// (hasWarpgroupMma; f16 or bf16; whyNoWarpgroupBackwardTiling allows it).
/// The backward's model counts that kernel's shared memory and registers.
bool warpgroupBackwardKernel(const Tiling &tiling, const AttentionShape &shape,
                             const TargetDescription &target);

/// Why the wgmma dK/dV kernel of `tiling` cannot have a TMA producer
/// warpgroup (empty when it can): its compute warpgroups get setmaxnreg's
/// share (splitWarpgroupRegisters, 240 with two), which the kernel's
/// register count (warpgroupBackwardRegisterCount) must fit. Target-free,
/// so that fa-distribute-attention-backward decides as tile selection does.
std::string whyNoWarpgroupBackwardProducer(const Tiling &tiling,
                                           const AttentionShape &shape);

/// Whether that wgmma dK/dV kernel has a TMA producer warpgroup
/// (shape.tmaProducerKernel, as both pipelines ask on sm_90a by default,
/// and whyNoWarpgroupBackwardProducer allows it): Q, dO, L and D arrive
/// through a ring of the tiling's stages, the block has one warpgroup
/// more and runs alone on its SM. Elsewhere it loads them with cp.async.
bool warpgroupBackwardProducer(const Tiling &tiling,
                               const AttentionShape &shape,
                               const TargetDescription &target);

std::string whyNoTmaProducerTiling(const Tiling &tiling,
                                   const AttentionShape &shape);
/// Whether the wgmma kernel of `tiling` is the TMA producer kernel:
/// shape.tmaProducerKernel, and whyNoTmaProducerTiling allows it.
bool tmaProducerTiling(const Tiling &tiling, const AttentionShape &shape);

/// Whether the TMA producer kernel of `tiling` keeps P in shared memory
/// for P V (KernelPlan::sharedProbabilities), as the model assumes with
/// the default schedules: only where P carried in registers across blocks
/// does not fit the compute warpgroups' register share and P in shared
/// memory does, with two or more stages and no score_mod (the overlapped
/// schedule), and no causal band, window or mask operand (measured past
/// the model there; KernelModel.cpp). Only at Dv = 64:
/// FlashAttention-3 reads P from shared memory only at d <= 64, for its
/// 192 x 192 tile (hopper/tile_size.h), and keeps 128 x 176 with P in
/// registers at d = 128; P V's extra shared-memory traffic (the stores,
/// and 64 rows of P read beside block_kv rows of V) has no measurement of
/// ours that would rank it anywhere else.
bool sharedProbabilitiesTiling(const Tiling &tiling,
                               const AttentionShape &shape);

/// Whether every key block of `tiling` is whole and unmasked: Nk known and
/// a multiple of block_kv, and nothing masks keys or changes their scores
/// (no causal band, window, mask operand, kv_lengths, packed sequences,
/// page table, score_mod, mask_mod or sinks).
bool everyKeyBlockWhole(const Tiling &tiling, const AttentionShape &shape);

/// Whether the kernels split the key walk under a band
/// (KernelPlan::splitBandWalk): a causal or window band, no mask operand,
/// and a window (where there is one) wide enough that a query block of
/// B_r rows can see some key block of B_c keys whole: left + right + 2 >=
/// B_r + B_c, with right no further than the causal diagonal. A narrower
/// window crosses every key block it reaches, and the split's loops would
/// only cost registers (left = 100, causal, 128 x 128 at d = 128: ptxas
/// needed 248 split and 192 to 200 masking every block).
bool splitsBandWalk(const Tiling &tiling, const AttentionShape &shape);

/// The kernel options the tile model assumes for `shape` on `target`:
/// everything the chip has (cp.async, mma.sync, wgmma), the caller's choice
/// of register fragments and TMA producer as `shape` records them, and
/// fa-gpu-pipeline's default schedules.
KernelOptions modelKernelOptions(const AttentionShape &shape,
                                 const TargetDescription &target);

/// Bytes of shared memory a tiling needs. On GPUs, exactly what the kernel
/// of fa-distribute-attention allocates (sharedLayout of the kernel
/// planKernel plans with modelKernelOptions). On the host, unpadded tiles
/// plus the f32 row statistics, accumulator and score tile, which have no
/// registers to live in.
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

/// The most key splits a tiling may have (#fa.tiling's verifier enforces
/// it; FlashAttention-2 caps num_splits at 128 too): the merge reads every
/// split's partial row.
constexpr int64_t kMaxKVSplits = 128;

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

/// Registers per thread of the wgmma dK/dV kernel's compute warps
/// (warpgroupBackwardKernel; 0 where the kernel is another), fitted to
/// ptxas (docs/Hopper.md): warpgroupBackwardRegisterCount and the
/// target's margin.
int64_t warpgroupBackwardRegisters(const Tiling &tiling,
                                   const AttentionShape &shape,
                                   const TargetDescription &target);
/// The same count, for any target (no margin).
int64_t warpgroupBackwardRegisterCount(const Tiling &tiling,
                                       const AttentionShape &shape);

/// Bytes the linear attention kernel keeps in shared memory with chunks of
/// `chunk` rows (see LinearChunkDecision).
int64_t linearChunkBytes(int64_t chunk, int64_t headDim, int64_t valueDim,
                         int64_t elementBytes, bool normalized, bool decay);

/// Byte and register counts are computed in double and clamped, so that
/// absurd shapes or tiles give huge numbers (which never fit) instead of
/// overflowing; doubles are exact below 2^53, far beyond any real size.
int64_t clampToInt64(double value);

} // namespace mlir::fa

#endif // FA_KERNEL_KERNELMODEL_H
