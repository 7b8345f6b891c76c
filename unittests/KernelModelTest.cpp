//===- KernelModelTest.cpp - Unit tests of the kernel model ---------------===//
//
// What a tiling costs the kernels (the shared-memory layout, the register
// estimates), which kernel a tiling gets (planKernel) and the register
// split of the warp-specialized kernel, checked as plain C++ against
// numbers worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "TestShapes.h"

#include "fa/Kernel/KernelModel.h"

#include "gtest/gtest.h"

using namespace mlir::fa;
using namespace mlir::fa::testing;

namespace {

// The forward kernel's plan (planKernel): what fa-distribute-attention
// builds, decided before any IR.
AttentionShape halfShape(int64_t headDim) {
  AttentionShape shape;
  shape.headDim = shape.valueDim = headDim;
  shape.elementBytes = 2;
  shape.mmaOperands = true;
  return shape;
}

TEST(SharedMemory, CountsPaddedTilesTheKernelAllocates) {
  TargetDescription sm80 = preset("sm_80");
  AttentionShape shape = makeShape(4096, 64, 2);
  Tiling tiling{128, 64, 4, 2};
  // Q: 128 x (64 * 2 + 16) = 18432; K and V, two stages:
  // 2 * 64 * (128 * 2 + 32) = 36864; the row max and sum are registers.
  EXPECT_EQ(sharedMemoryBytes(tiling, shape, sm80), 18432 + 36864);
}

TEST(SharedMemory, AlignsEachTileTo16Bytes) {
  TargetDescription sm80 = preset("sm_80");
  // d = 1 in f16: padded rows of 2 + 16 = 18 bytes.
  AttentionShape shape = makeShape(64, 1, 2);
  Tiling tiling{8, 8, 1, 1};
  // Q = 8 * 18 = 144; K = 8 * 18 = 144 -> 288; V = 144 -> 432.
  EXPECT_EQ(sharedMemoryBytes(tiling, shape, sm80), 432);
  Tiling odd{7, 8, 1, 1};
  // Q = 7 * 18 = 126 -> 128; K = 144 -> 272; V = 144 -> 416.
  EXPECT_EQ(sharedMemoryBytes(odd, shape, sm80), 416);
}

TEST(SharedMemory, TensorCoreKernelHoldsOnlyQKVSwizzled) {
  AttentionShape shape = makeShape(4096, 64, 2);
  shape.mmaOperands = true;
  Tiling tiling{128, 64, 4, 2};
  ASSERT_TRUE(tensorCoreKernel(tiling, shape));
  // S and P stay in registers; rows of 64 f16 (8 chunks) are swizzled, not
  // padded: Q 128 x 128 = 16384, K and V 2 x 64 x 128 = 16384 each.
  EXPECT_EQ(sharedMemoryBytes(tiling, shape, preset("sm_80")),
            16384 + 16384 + 16384);
  // sm_75 has no m16n8k16: the FMA kernel's padded rows (144 bytes).
  EXPECT_EQ(sharedMemoryBytes(tiling, shape, preset("sm_75")), 18432 + 36864);
  // Rows of 6 chunks (D = 48) cannot be swizzled inside the row: padded.
  AttentionShape odd = makeShape(4096, 48, 2);
  odd.mmaOperands = true;
  Tiling narrow{64, 32, 4, 1};
  ASSERT_TRUE(tensorCoreKernel(narrow, odd));
  // Q 64 x 112 = 7168; K and V 32 x 112 = 3584 each.
  EXPECT_EQ(sharedMemoryBytes(narrow, odd, preset("sm_90")),
            7168 + 3584 + 3584);
  // FlashAttention-2's bound, (Br d + stages Bc (d + dv)) 2 bytes + 2 KB,
  // holds for d in {64, 128} (docs/GPU-Checks.md).
  for (int64_t d : {64, 128}) {
    AttentionShape square = makeShape(4096, d, 2);
    square.mmaOperands = true;
    for (Tiling t :
         {Tiling{128, 64, 8, 1}, Tiling{64, 64, 4, 2}, Tiling{128, 32, 4, 3}})
      EXPECT_LE(sharedMemoryBytes(t, square, preset("sm_90")),
                (t.blockQ * d + t.stages * t.blockKV * 2 * d) * 2 + 2048);
  }
}

TEST(SharedMemory, SwizzledRows) {
  // 2 or 4 chunks, or a multiple of 8: the XOR key stays inside the row.
  EXPECT_TRUE(swizzledSharedRows(16, 2));
  EXPECT_TRUE(swizzledSharedRows(32, 2));
  EXPECT_TRUE(swizzledSharedRows(64, 2));
  EXPECT_TRUE(swizzledSharedRows(256, 2));
  EXPECT_FALSE(swizzledSharedRows(48, 2));
  EXPECT_FALSE(swizzledSharedRows(8, 2)); // one chunk
  EXPECT_FALSE(swizzledSharedRows(3, 4)); // not whole chunks
}

TEST(Registers, TensorCoreKernelFragments) {
  // Per lane: R / 16 fragment rows of O (Dv / 2), S (Bc / 2) and P (Bc / 4),
  // plus 5 D / 16 + Bc / 4 + 6 + 12 R / 16, and 10 for K's and V's hoisted
  // addresses with one stage.
  AttentionShape shape = makeShape(4096, 128, 2);
  shape.mmaOperands = true;
  // FlashAttention-2's 128 x 64 with 4 warps: two fragment rows, past 255
  // (it spills, docs/GPU.md), so the model refuses it.
  EXPECT_EQ(registersPerThread(Tiling{128, 64, 4, 1}, shape, preset("sm_90")),
            2 * (64 + 48) + 40 + 16 + 16 + 24);
  // The same over 8 warps: one fragment row.
  EXPECT_EQ(registersPerThread(Tiling{128, 64, 8, 1}, shape, preset("sm_90")),
            (64 + 48) + 40 + 16 + 16 + 12);
  // 128 x 32 over 4 warps, FlashAttention-2's spill-free D = 128 tile: one
  // stage needs 264 (ptxas spills 20 bytes on sm_80); two stages keep K's
  // and V's addresses per stage, not hoisted, and fit (255, no spill).
  EXPECT_EQ(registersPerThread(Tiling{128, 32, 4, 1}, shape, preset("sm_80")),
            2 * (64 + 24) + 40 + 8 + 16 + 24);
  EXPECT_EQ(registersPerThread(Tiling{128, 32, 4, 2}, shape, preset("sm_80")),
            2 * (64 + 24) + 40 + 8 + 6 + 24);
  // Packed sequences keep 8 more live (their bases and lengths): that tile
  // no longer fits (ptxas spills 24 bytes on sm_90), and selection moves on.
  shape.packedSequences = true;
  EXPECT_EQ(registersPerThread(Tiling{128, 32, 4, 2}, shape, preset("sm_90")),
            2 * (64 + 24) + 40 + 8 + 6 + 8 + 24);
  EXPECT_GT(registersPerThread(Tiling{128, 32, 4, 2}, shape, preset("sm_90")),
            255);
}

TEST(Registers, AStaticTailBlockCountsHalfAnSRowPerFragmentRow) {
  // N = 1000 is not a multiple of 32: the masked last block is straight-line
  // code after the loop. 128 x 32, 4 warps, 2 stages spilled 264 bytes on
  // sm_80 there and none at N = 1024 (issue 50's sweep): the tail adds half
  // an S row (32 / 2) for each of the two fragment rows and takes the tile
  // past 255. (A model that counted a third of the row survived issue 50's
  // operator sample.)
  AttentionShape whole = makeShape(1024, 128, 2);
  whole.mmaOperands = true;
  AttentionShape tail = makeShape(1000, 128, 2);
  tail.mmaOperands = true;
  Tiling tiling{128, 32, 4, 2};
  int64_t withoutTail = registersPerThread(tiling, whole, preset("sm_80"));
  EXPECT_EQ(withoutTail, 2 * (64 + 24) + 40 + 8 + 6 + 24);
  EXPECT_EQ(registersPerThread(tiling, tail, preset("sm_80")),
            withoutTail + 2 * 32 / 2);
  // With one stage the tail hoists its own K and V addresses too (10 more).
  Tiling oneStage{128, 32, 4, 1};
  EXPECT_EQ(registersPerThread(oneStage, tail, preset("sm_80")) -
                registersPerThread(oneStage, whole, preset("sm_80")),
            2 * 32 / 2 + 10);
  // A causal mask has no static tail of this kind: the diagonal blocks are
  // masked inside the loop.
  tail.causalOffset = 0;
  whole.causalOffset = 0;
  EXPECT_EQ(registersPerThread(tiling, tail, preset("sm_80")) -
                registersPerThread(tiling, whole, preset("sm_80")),
            0);
}

TEST(GPUKernel, TensorCoresNeedHalfOperandsAndWholeWarpTiles) {
  AttentionShape shape = makeShape(4096, 64, 2);
  shape.mmaOperands = true;
  EXPECT_TRUE(tensorCoreKernel(Tiling{64, 64, 4, 1}, shape));
  EXPECT_TRUE(tensorCoreKernel(Tiling{128, 16, 4, 1}, shape)); // 2 tiles/warp
  // 32 rows over 4 warps: 8 rows each, not a 16-row tile.
  EXPECT_FALSE(tensorCoreKernel(Tiling{32, 64, 4, 1}, shape));
  EXPECT_FALSE(tensorCoreKernel(Tiling{80, 64, 4, 1}, shape));
  // Key blocks are the k of the second matmul: multiples of 16.
  EXPECT_FALSE(tensorCoreKernel(Tiling{64, 40, 4, 1}, shape));
  AttentionShape oddHead = shape;
  oddHead.headDim = 72;
  EXPECT_FALSE(tensorCoreKernel(Tiling{64, 64, 4, 1}, oddHead));
  AttentionShape oddValue = shape;
  oddValue.valueDim = 40;
  EXPECT_FALSE(tensorCoreKernel(Tiling{64, 64, 4, 1}, oddValue));
  // f32 and mixed types use FMAs.
  shape.mmaOperands = false;
  EXPECT_FALSE(tensorCoreKernel(Tiling{64, 64, 4, 1}, shape));
  EXPECT_TRUE(hasMmaSync16816(preset("sm_80")));
  EXPECT_TRUE(hasMmaSync16816(preset("sm_120")));
  EXPECT_FALSE(hasMmaSync16816(preset("sm_75")));
  EXPECT_FALSE(hasMmaSync16816(getHostTarget()));
}

TEST(GPUKernel, WgmmaNeedsWarpgroupsOf16RowWarpsAndDimsOf64) {
  AttentionShape shape = makeShape(4096, 64, 2);
  shape.mmaOperands = true;
  // 64-row warpgroups of 4 warps, 16 rows per warp.
  EXPECT_TRUE(warpgroupMmaKernel(Tiling{64, 64, 4, 1}, shape));
  EXPECT_TRUE(warpgroupMmaKernel(Tiling{128, 128, 8, 2}, shape));
  // 32 rows per warp (the mma.sync kernel's 128 x 64, 4 warps).
  EXPECT_FALSE(warpgroupMmaKernel(Tiling{128, 64, 4, 1}, shape));
  // Not whole warpgroups, and key blocks wgmma's N cannot take.
  EXPECT_FALSE(warpgroupMmaKernel(Tiling{32, 64, 2, 1}, shape));
  EXPECT_FALSE(warpgroupMmaKernel(Tiling{64, 272, 4, 1}, shape));
  // D and Dv in whole 64-column blocks; Dv at most 256.
  AttentionShape d128 = makeShape(4096, 128, 2);
  d128.mmaOperands = true;
  EXPECT_TRUE(warpgroupMmaKernel(Tiling{128, 64, 8, 1}, d128));
  AttentionShape d96 = makeShape(4096, 96, 2);
  d96.mmaOperands = true;
  EXPECT_FALSE(warpgroupMmaKernel(Tiling{64, 64, 4, 1}, d96));
  shape.mmaOperands = false;
  EXPECT_FALSE(warpgroupMmaKernel(Tiling{64, 64, 4, 1}, shape));
  EXPECT_TRUE(hasWarpgroupMma(preset("sm_90a")));
  EXPECT_FALSE(hasWarpgroupMma(preset("sm_90")));
  EXPECT_FALSE(hasWarpgroupMma(preset("sm_100")));
}

TEST(GPUKernel, PlanUsesWgmmaOnlyWhenAskedAndAllowed) {
  AttentionShape shape = makeShape(4096, 64, 2);
  shape.mmaOperands = true;
  KernelOptions hopper{true, true, true, true};
  KernelPlan plan = planKernel(Tiling{128, 128, 8, 2}, shape, 2, 2, hopper);
  EXPECT_TRUE(plan.warpgroupMma);
  EXPECT_TRUE(plan.registerFragments);
  EXPECT_EQ(plan.threads, 256);
  EXPECT_EQ(plan.describe(),
            "wgmma, register fragments, cp.async, 256 threads, 2 stages");
  // Not asked (sm_90), or a tiling it cannot take: the mma.sync kernel.
  KernelOptions ampere{true, true, true, false};
  EXPECT_FALSE(
      planKernel(Tiling{128, 128, 8, 2}, shape, 2, 2, ampere).warpgroupMma);
  EXPECT_FALSE(
      planKernel(Tiling{128, 64, 4, 1}, shape, 2, 2, hopper).warpgroupMma);
  // wgmma rides on the register-fragment kernel.
  KernelOptions shared{true, true, false, true};
  EXPECT_FALSE(
      planKernel(Tiling{128, 128, 8, 2}, shape, 2, 2, shared).warpgroupMma);
}

// The walk splits (diagonal blocks masked first, then an unmasked loop, then
// a window's left edge masked) under a causal or window band without a mask
// operand, in every kernel: with the wgmma
// descriptors as immediates the TMA producer kernel's second loop costs no
// register ptxas measures, so the plan no longer asks the register model.
TEST(GPUKernel, BandWalkSplitsUnlessAMaskOperandMasksEveryBlock) {
  KernelOptions tma{true, true, true, true, true};
  KernelOptions mmaSync{true, true, true, false};
  AttentionShape d128 = makeShape(4096, 128, 2);
  d128.mmaOperands = true;
  d128.tmaProducerKernel = true;
  EXPECT_FALSE(
      planKernel(Tiling{128, 128, 8, 2}, d128, 2, 2, tma).splitBandWalk);
  d128.causalOffset = 0;
  EXPECT_TRUE(
      planKernel(Tiling{128, 128, 8, 2}, d128, 2, 2, tma).splitBandWalk);
  EXPECT_TRUE(
      planKernel(Tiling{128, 176, 8, 2}, d128, 2, 2, tma).splitBandWalk);
  EXPECT_TRUE(
      planKernel(Tiling{128, 64, 4, 1}, d128, 2, 2, mmaSync).splitBandWalk);
  AttentionShape windowed = d128;
  windowed.window = AttentionShape::Window{1000, 0, 0};
  EXPECT_TRUE(
      planKernel(Tiling{128, 128, 8, 2}, windowed, 2, 2, tma).splitBandWalk);
  windowed.causalOffset.reset();
  windowed.window = AttentionShape::Window{96, 96, 0};
  EXPECT_TRUE(
      planKernel(Tiling{128, 64, 4, 1}, windowed, 2, 2, mmaSync).splitBandWalk);
  // A window too narrow for any key block to lie whole inside every row's
  // window masks every block: left + right + 2 < B_r + B_c, with the right
  // edge no further than the causal diagonal.
  windowed.window = AttentionShape::Window{95, 94, 0};
  EXPECT_FALSE(
      planKernel(Tiling{128, 64, 4, 1}, windowed, 2, 2, mmaSync).splitBandWalk);
  windowed.window = AttentionShape::Window{100, 1000, 0};
  EXPECT_TRUE(
      planKernel(Tiling{128, 128, 8, 2}, windowed, 2, 2, tma).splitBandWalk);
  windowed.causalOffset = 0;
  EXPECT_FALSE(
      planKernel(Tiling{128, 128, 8, 2}, windowed, 2, 2, tma).splitBandWalk);
  AttentionShape masked = d128;
  masked.maskOperand = true;
  EXPECT_FALSE(
      planKernel(Tiling{128, 64, 4, 1}, masked, 2, 2, mmaSync).splitBandWalk);
}

// The TMA producer kernel's register model under a causal band: what the
// kernel without the band needs (192 x 128 at d = 64: 32 + 96 + 32 = 160,
// FlashAttention-3's causal tile in three warpgroups' 160), but where a
// static walk spans exactly two key blocks, B_c / 2 more (ptxas: over 256
// at 128 x 176, d = 64, N = 257, where 196 + 44 = 240 would have fit).
TEST(Registers, CausalBandCostsOnlyItsTwoBlockWalk) {
  TargetDescription sm90a = preset("sm_90a");
  AttentionShape d64 = makeShape(4096, 64, 2);
  d64.mmaOperands = true;
  d64.tmaProducerKernel = true;
  d64.causalOffset = 0;
  EXPECT_EQ(registersPerThread(Tiling{192, 128, 12, 2}, d64, sm90a), 160);
  AttentionShape twoBlocks = d64;
  twoBlocks.queryLen = twoBlocks.keyLen = 257;
  EXPECT_EQ(registersPerThread(Tiling{128, 176, 8, 2}, twoBlocks, sm90a),
            196 + 88);
  AttentionShape plain = twoBlocks;
  plain.causalOffset.reset();
  EXPECT_EQ(registersPerThread(Tiling{128, 176, 8, 2}, plain, sm90a), 196 + 44);
  // A window too narrow to split its walk (256 + 2 < 192 + 128) keeps the
  // 8 of a walk that masks every block.
  AttentionShape windowed = d64;
  windowed.causalOffset.reset();
  windowed.window = AttentionShape::Window{256, 0, 0};
  EXPECT_EQ(registersPerThread(Tiling{192, 128, 12, 2}, windowed, sm90a), 168);
}

// A window whose walk splits (its right edge's blocks, the whole ones, its
// left edge's after them) costs B_c / 2: 128 x 80 at d = 256, which ptxas
// needs 248 for, no longer fits the 240 of two compute warpgroups, and
// FlashAttention-3's local 128 x 64 (208 to 240 by ptxas) does.
TEST(Registers, SplitWindowCostsHalfAKeyBlock) {
  TargetDescription sm90a = preset("sm_90a");
  AttentionShape d256 = makeShape(4096, 256, 2);
  d256.mmaOperands = true;
  d256.tmaProducerKernel = true;
  d256.causalOffset = 0;
  d256.window = AttentionShape::Window{1000, 0, 0};
  EXPECT_EQ(registersPerThread(Tiling{128, 80, 8, 2}, d256, sm90a),
            128 + 60 + 32 + 40);
  EXPECT_EQ(registersPerThread(Tiling{128, 64, 8, 2}, d256, sm90a), 240);
  // Too narrow to split: 8, as when every block was masked.
  d256.window = AttentionShape::Window{100, 0, 0};
  EXPECT_EQ(registersPerThread(Tiling{128, 80, 8, 2}, d256, sm90a),
            128 + 60 + 32 + 8);
}

// With a page table, a K or V box must lie in one page: a key block where
// block_kv divides the page size (FlashAttention-3's condition, one box),
// else gcd(page, block_kv) rows per box, as long as that is whole 128-byte
// swizzle atoms (8 rows); a page size known only at run time keeps the
// cp.async kernel. The reasons name the sizes.
TEST(GPUKernel, PagedTmaBoxesLieInOnePage) {
  KernelOptions tma{true, true, true, true, true};
  AttentionShape shape = makeShape(4096, 128, 2);
  shape.mmaOperands = true;
  shape.tmaProducerKernel = true;
  shape.pageSize = 128;
  for (int64_t blockKV : {64, 128}) {
    KernelPlan plan = planKernel(Tiling{128, blockKV, 8, 2}, shape, 2, 2, tma);
    EXPECT_TRUE(plan.tmaProducer) << blockKV;
    EXPECT_EQ(plan.keyBoxRows, blockKV);
    EXPECT_EQ(plan.producerRegisters, 24);
  }
  KernelPlan wide = planKernel(Tiling{128, 176, 8, 2}, shape, 2, 2, tma);
  EXPECT_TRUE(wide.tmaProducer);
  EXPECT_EQ(wide.keyBoxRows, 16);
  EXPECT_EQ(wide.producerRegisters, 32);
  EXPECT_EQ(wide.describe(),
            "wgmma, register fragments, TMA producer warpgroup, 384 threads, "
            "2 stages, K/V boxes of 16 rows (pages)");
  // vLLM's 16-slot pages; 24-slot pages in 64-key blocks: 8-row boxes.
  shape.pageSize = 16;
  EXPECT_EQ(tmaKeyBoxRows(Tiling{128, 128, 8, 2}, shape), 16);
  shape.pageSize = 24;
  EXPECT_EQ(tmaKeyBoxRows(Tiling{128, 64, 8, 2}, shape), 8);
  EXPECT_TRUE(tmaProducerTiling(Tiling{128, 64, 8, 2}, shape));
  // 12-slot pages: 4-row boxes, half a swizzle atom.
  shape.pageSize = 12;
  KernelPlan small = planKernel(Tiling{128, 64, 8, 2}, shape, 2, 2, tma);
  EXPECT_FALSE(small.tmaProducer);
  EXPECT_TRUE(small.warpgroupMma);
  EXPECT_TRUE(small.asyncCopies);
  EXPECT_EQ(whyNoTmaProducerTiling(Tiling{128, 64, 8, 2}, shape),
            "page_table: pages of 12 keys split key blocks of 64 into TMA "
            "boxes of 4 rows, not whole 128-byte swizzle atoms of 8 rows");
  shape.pageSize = kUnknownSize;
  EXPECT_FALSE(planKernel(Tiling{128, 64, 8, 2}, shape, 2, 2, tma).tmaProducer);
  shape.pageSize = 0;
  EXPECT_TRUE(tmaProducerTiling(Tiling{128, 176, 8, 2}, shape));
  EXPECT_EQ(tmaKeyBoxRows(Tiling{128, 176, 8, 2}, shape), 176);
}

// The producer of per-page boxes keeps 32 registers: the compute
// warpgroups' share is what it is with 24 (setmaxnreg's steps of 8).
TEST(GPUKernel, PagedProducerKeepsTheComputeShare) {
  AttentionShape shape = makeShape(4096, 128, 2);
  shape.mmaOperands = true;
  shape.tmaProducerKernel = true;
  shape.pageSize = 16;
  for (int64_t warps : {4, 8, 12}) {
    Tiling tiling{64 * warps / 4, 128, warps, 2};
    WarpgroupRegisters paged = tmaProducerRegisterSplit(tiling, shape);
    EXPECT_EQ(paged.producer, 32);
    EXPECT_EQ(paged.compute, splitWarpgroupRegisters(warps / 4).compute)
        << warps;
  }
  shape.pageSize = 128;
  EXPECT_EQ(tmaProducerRegisterSplit(Tiling{128, 128, 8, 2}, shape).producer,
            24);
}

TEST(GPUKernel, TmaProducerAddsAWarpgroupAndReplacesCpAsync) {
  AttentionShape shape = makeShape(4096, 64, 2);
  shape.mmaOperands = true;
  KernelOptions tma{true, true, true, true, true};
  KernelPlan plan = planKernel(Tiling{128, 128, 8, 2}, shape, 2, 2, tma);
  EXPECT_TRUE(plan.tmaProducer);
  EXPECT_FALSE(plan.asyncCopies);
  EXPECT_EQ(plan.threads, 384);
  EXPECT_EQ(plan.describe(), "wgmma, register fragments, TMA producer "
                             "warpgroup, 384 threads, 2 stages");
  // Only on the wgmma kernel.
  EXPECT_FALSE(planKernel(Tiling{128, 64, 4, 1}, shape, 2, 2, tma).tmaProducer);
  KernelOptions ampere{true, true, true, false, true};
  EXPECT_FALSE(
      planKernel(Tiling{128, 128, 8, 2}, shape, 2, 2, ampere).tmaProducer);
}

TEST(GPUKernel, SchedulesNeedStagesAndWarpgroups) {
  AttentionShape shape = makeShape(4096, 64, 2);
  shape.mmaOperands = true;
  KernelOptions all{true, true, true, true, true, true, true};
  KernelPlan plan = planKernel(Tiling{128, 128, 8, 2}, shape, 2, 2, all);
  EXPECT_TRUE(plan.overlapSoftmax);
  EXPECT_TRUE(plan.pingPong);
  EXPECT_EQ(plan.describe(),
            "wgmma, register fragments, TMA producer warpgroup, P V "
            "overlapping the next softmax, ping-pong, 384 threads, 2 stages");
  // P V a block late needs a second stage; turns need a second compute
  // warpgroup.
  KernelPlan oneStage = planKernel(Tiling{128, 128, 8, 1}, shape, 2, 2, all);
  EXPECT_FALSE(oneStage.overlapSoftmax);
  EXPECT_TRUE(oneStage.pingPong);
  KernelPlan oneWarpgroup = planKernel(Tiling{64, 128, 4, 2}, shape, 2, 2, all);
  EXPECT_TRUE(oneWarpgroup.overlapSoftmax);
  EXPECT_FALSE(oneWarpgroup.pingPong);
  // Only on the TMA producer kernel.
  KernelOptions cpAsync{true, true, true, true, false, true, true};
  KernelPlan plain = planKernel(Tiling{128, 128, 8, 2}, shape, 2, 2, cpAsync);
  EXPECT_FALSE(plain.overlapSoftmax);
  EXPECT_FALSE(plain.pingPong);
}

TEST(GPUKernel, WarpgroupRegisterSplitFitsTheSM) {
  // FlashAttention-3's 24 / 240 with two compute warpgroups; every split
  // within 64K registers for the block, in setmaxnreg's steps of 8.
  EXPECT_EQ(splitWarpgroupRegisters(2).producer, 24);
  EXPECT_EQ(splitWarpgroupRegisters(2).compute, 240);
  EXPECT_EQ(splitWarpgroupRegisters(1).compute, 240);
  EXPECT_EQ(splitWarpgroupRegisters(3).compute, 160);
  EXPECT_EQ(splitWarpgroupRegisters(2, 40).compute, 232);
  for (int64_t producer : {24, 32, 40})
    for (int64_t warpgroups = 1; warpgroups <= 6; ++warpgroups) {
      WarpgroupRegisters split = splitWarpgroupRegisters(warpgroups, producer);
      EXPECT_EQ(split.producer, producer);
      EXPECT_LE(128 * (split.producer + warpgroups * split.compute), 65536)
          << warpgroups;
      EXPECT_EQ(split.compute % 8, 0);
      EXPECT_GE(split.compute, 24);
    }
}

TEST(SharedMemory, HostKeepsAccumulatorAndScoresInCache) {
  TargetDescription host = getHostTarget();
  AttentionShape shape = makeShape(4096, 64, 4);
  Tiling tiling{32, 32, 1, 1};
  // No padding; Q 32 * 256, K and V 32 * 512, statistics 256, and the f32
  // accumulator and scores 32 * (64 + 32) * 4.
  EXPECT_EQ(sharedMemoryBytes(tiling, shape, host),
            32 * 256 + 32 * 512 + 256 + 32 * 96 * 4);
}

TEST(GPUKernel, OccupancyHintNeverCapsRegisters) {
  TargetDescription sm90 = preset("sm_90"); // 232448 B, 65536 registers
  // Two blocks of 128 threads fit; both could use 255 registers a thread.
  EXPECT_EQ(minBlocksPerSMHint(88064, 128, sm90), 2);
  EXPECT_EQ(minBlocksPerSMHint(190464, 128, sm90), 1);
  EXPECT_EQ(minBlocksPerSMHint(153600, 256, sm90), 1);
  // Two blocks of 256 threads at 255 registers would need 130560: one.
  EXPECT_EQ(minBlocksPerSMHint(88064, 256, sm90), 1);
  // Eleven (or five) blocks fit, but a promise of more than two would cap
  // registers below 255.
  EXPECT_EQ(minBlocksPerSMHint(20000, 128, sm90), 2);
  EXPECT_EQ(minBlocksPerSMHint(40960, 128, sm90), 2);
  // Nothing known, more than an SM has, or no GPU.
  EXPECT_EQ(minBlocksPerSMHint(0, 128, sm90), std::nullopt);
  EXPECT_EQ(minBlocksPerSMHint(300000, 128, sm90), std::nullopt);
  EXPECT_EQ(minBlocksPerSMHint(88064, 128, preset("host")), std::nullopt);
}

TEST(KernelPlan, F16TakesRegisterFragmentsAndCpAsync) {
  KernelPlan plan =
      planKernel(Tiling{128, 64, 4, 1}, halfShape(64), 2, 2, KernelOptions{});
  EXPECT_EQ(plan.threads, 128);
  EXPECT_TRUE(plan.tensorCores);
  EXPECT_TRUE(plan.registerFragments);
  // The register kernel prefetches in FlashAttention-2's order even at one
  // stage.
  EXPECT_TRUE(plan.asyncCopies);
  EXPECT_EQ(plan.rowSplit, 1);
  EXPECT_EQ(plan.describe(),
            "mma.sync, register fragments, cp.async, 128 threads, 1 stage");
}

TEST(KernelPlan, SharedMemoryKernelSplitsRowsWhenThreadsAreTwiceTheRows) {
  KernelOptions choices;
  choices.registerFragments = false;
  KernelPlan plan =
      planKernel(Tiling{64, 64, 4, 1}, halfShape(64), 2, 2, choices);
  EXPECT_TRUE(plan.tensorCores);
  EXPECT_FALSE(plan.registerFragments);
  EXPECT_EQ(plan.rowSplit, 2);
  // One stage and no register fragments: nothing to prefetch into.
  EXPECT_FALSE(plan.asyncCopies);
  EXPECT_TRUE(planKernel(Tiling{64, 64, 4, 2}, halfShape(64), 2, 2, choices)
                  .asyncCopies);
}

TEST(KernelPlan, WithoutTensorCoresTheFMAKernelChunksKeys) {
  AttentionShape shape = halfShape(64);
  shape.mmaOperands = false;
  shape.elementBytes = 4;
  KernelPlan plan =
      planKernel(Tiling{32, 48, 1, 2}, shape, 4, 4, KernelOptions{});
  EXPECT_FALSE(plan.tensorCores);
  EXPECT_FALSE(plan.registerFragments);
  EXPECT_EQ(plan.keyChunk, 16);
  EXPECT_EQ(
      planKernel(Tiling{32, 24, 1, 2}, shape, 4, 4, KernelOptions{}).keyChunk,
      8);
  EXPECT_EQ(
      planKernel(Tiling{32, 7, 1, 2}, shape, 4, 4, KernelOptions{}).keyChunk,
      1);
  // A chip without mma.sync gets the FMA kernel even for f16.
  KernelOptions noTensorCores;
  noTensorCores.tensorCores = false;
  EXPECT_FALSE(
      planKernel(Tiling{128, 64, 4, 2}, halfShape(64), 2, 2, noTensorCores)
          .tensorCores);
}

TEST(KernelPlan, CopiesStaySynchronousWhenRowsDoNotSplitIntoChunks) {
  // d = 36 halves: rows of 72 bytes are not whole 16-byte chunks.
  AttentionShape shape = halfShape(36);
  shape.mmaOperands = false;
  KernelPlan plan =
      planKernel(Tiling{32, 32, 1, 2}, shape, 2, 2, KernelOptions{});
  EXPECT_FALSE(plan.asyncCopies);
  // Chunks that do not spread evenly over the threads: 8 keys of 64 halves
  // are 64 chunks for 128 threads.
  EXPECT_FALSE(
      planKernel(Tiling{128, 8, 4, 2}, halfShape(64), 2, 2, KernelOptions{})
          .asyncCopies);
  KernelOptions noCopies;
  noCopies.asyncCopies = false;
  EXPECT_FALSE(planKernel(Tiling{128, 64, 4, 2}, halfShape(64), 2, 2, noCopies)
                   .asyncCopies);
}

TEST(SharedLayout, SharedScoresKernelAllocatesSAndP) {
  // register-fragments=false, 64 x 32 at two stages, d = 128 in f16: rows
  // padded by 16 bytes (136 elements), S's f32 results fragment-major
  // [64 / 16][max(32, 128) / 8][16][8] and P [64][32 + 8].
  AttentionShape shape = halfShape(128);
  KernelOptions options;
  options.registerFragments = false;
  KernelPlan plan = planKernel(Tiling{64, 32, 4, 2}, shape, 2, 2, options);
  ASSERT_TRUE(plan.tensorCores);
  ASSERT_FALSE(plan.registerFragments);
  SharedLayout layout = sharedLayout(plan, shape);
  using Shape = llvm::SmallVector<int64_t, 4>;
  EXPECT_EQ(layout.query.shape, (Shape{64, 136}));
  EXPECT_EQ(layout.key.shape, (Shape{2, 32, 136}));
  EXPECT_EQ(layout.value.shape, (Shape{2, 32, 136}));
  ASSERT_TRUE(layout.results && layout.probs);
  EXPECT_EQ(layout.results->shape, (Shape{4, 16, 16, 8}));
  EXPECT_EQ(layout.results->elementBytes, 4);
  EXPECT_EQ(layout.probs->shape, (Shape{64, 40}));
  EXPECT_EQ(layout.totalBytes(), 3 * 17408 + 32768 + 5120);
  // The register kernel swizzles the same rows unpadded and keeps S and P
  // in registers.
  options.registerFragments = true;
  SharedLayout registers = sharedLayout(
      planKernel(Tiling{64, 32, 4, 2}, shape, 2, 2, options), shape);
  EXPECT_EQ(registers.query.shape, (Shape{64, 128}));
  EXPECT_FALSE(registers.results || registers.probs);
  EXPECT_EQ(registers.totalBytes(), 3 * 16384);
}

TEST(SharedLayout, TheReportCountsTheKernelTheCallerChose) {
  TargetDescription sm86 = preset("sm_86");
  AttentionShape shape = makeShape(4096, 128, 2);
  shape.mmaOperands = true;
  Tiling tiling{64, 32, 4, 2};
  EXPECT_EQ(sharedMemoryBytes(tiling, shape, sm86), 3 * 16384);
  shape.registerFragments = false;
  EXPECT_EQ(sharedMemoryBytes(tiling, shape, sm86), 3 * 17408 + 32768 + 5120);
}

TEST(SharedLayout, TmaProducerReservesTheBarrierSlot) {
  // d = 64, 64 x 64 at two stages: 8 KB of Q, 16 KB each of K and V, and
  // the 1024-byte slot in front (ptxas: 41984 bytes).
  AttentionShape shape = halfShape(64);
  KernelOptions options;
  options.warpgroupMma = options.tmaProducer = true;
  KernelPlan plan = planKernel(Tiling{64, 64, 4, 2}, shape, 2, 2, options);
  ASSERT_TRUE(plan.tmaProducer);
  SharedLayout layout = sharedLayout(plan, shape);
  EXPECT_EQ(layout.reservedBytes, kTmaBarrierSlotBytes);
  EXPECT_EQ(layout.totalBytes(), 41984);
}

// FlashAttention-3's 192 x 192 at d = 64: with P carried across blocks in
// registers 32 + 96 + 48 + 8 + 24 = 208 of the 160 three compute
// warpgroups get; with P in shared memory 160 (ptxas: 160, at N = 1000 to
// 8192 and at run time). Its [192][192] tile joins the shared layout.
TEST(GPUKernel, WideKeyBlocksAtD64KeepPInSharedMemory) {
  AttentionShape shape = makeShape(4096, 64, 2);
  shape.mmaOperands = true;
  shape.tmaProducerKernel = true;
  Tiling fa3{192, 192, 12, 2};
  ASSERT_TRUE(sharedProbabilitiesTiling(fa3, shape));
  EXPECT_EQ(registersPerThread(fa3, shape, preset("sm_90a")), 160);
  KernelOptions all{true, true, true, true, true, true, true};
  KernelPlan plan = planKernel(fa3, shape, 2, 2, all);
  EXPECT_TRUE(plan.sharedProbabilities);
  EXPECT_EQ(plan.describe(),
            "wgmma, register fragments, TMA producer warpgroup, P V "
            "overlapping the next softmax, P in shared memory, ping-pong, "
            "512 threads, 2 stages");
  // Q 24 KB, two stages of K and V 96 KB, P 72 KB, the barrier slot.
  EXPECT_EQ(sharedLayout(plan, shape).totalBytes(),
            1024 + 24576 + 2 * 49152 + 73728);
  // P's tile is never padded: 176 keys (22 chunks a row, which Q's or K's
  // rows would pad) are 176 x 2 bytes a row, 67584 bytes at 192 rows.
  KernelPlan keys176 = planKernel(Tiling{192, 176, 12, 2}, shape, 2, 2, all);
  ASSERT_TRUE(keys176.sharedProbabilities);
  EXPECT_EQ(sharedLayout(keys176, shape).probs->shape,
            (llvm::SmallVector<int64_t, 4>{192, 176}));
  EXPECT_EQ(sharedLayout(keys176, shape).totalBytes(),
            1024 + 24576 + 2 * 2 * 22528 + 67584);
  // Only where the carried P does not fit and the stored one does: not at
  // 192 x 128 (32 + 64 + 32 + 8 + 24 = 160 fits as it is), not with one
  // stage (no overlap, nothing carried), not at Dv = 128 (FlashAttention-3
  // keeps P in registers there), not without the overlapped schedule.
  EXPECT_FALSE(sharedProbabilitiesTiling(Tiling{192, 128, 12, 2}, shape));
  EXPECT_FALSE(sharedProbabilitiesTiling(Tiling{192, 192, 12, 1}, shape));
  AttentionShape d128 = makeShape(4096, 128, 2);
  d128.mmaOperands = true;
  d128.tmaProducerKernel = true;
  EXPECT_FALSE(sharedProbabilitiesTiling(Tiling{128, 192, 8, 2}, d128));
  KernelOptions plain = all;
  plain.overlapSoftmax = false;
  EXPECT_FALSE(planKernel(fa3, shape, 2, 2, plain).sharedProbabilities);
  // Nor under a causal band or with a mask operand (measured past the
  // model there), nor with a score_mod (no overlap).
  // (128 x 192 causal at N = 257: two key blocks laid out straight, 48
  // more; 264 with P carried, 216 without, both of 240.)
  AttentionShape causal = makeShape(257, 64, 2);
  causal.mmaOperands = true;
  causal.tmaProducerKernel = true;
  causal.causalOffset = 0;
  EXPECT_FALSE(sharedProbabilitiesTiling(Tiling{128, 192, 8, 2}, causal));
  AttentionShape masked = shape;
  masked.maskOperand = true;
  EXPECT_FALSE(sharedProbabilitiesTiling(Tiling{128, 192, 8, 2}, masked));
  AttentionShape softcap = shape;
  softcap.scoreMod = softcap.scoreModifications = true;
  EXPECT_FALSE(sharedProbabilitiesTiling(fa3, softcap));
}

TEST(SharedLayout, RowsThatDoNotSwizzleArePadded) {
  // 80 f16 columns are 10 chunks: neither 2, 4 nor a multiple of 8.
  EXPECT_EQ(sharedRowLength(80, 2, /*swizzle=*/true), 88);
  EXPECT_EQ(sharedRowLength(64, 2, /*swizzle=*/true), 64);
  EXPECT_EQ(sharedRowLength(64, 2, /*swizzle=*/false), 72);
  EXPECT_EQ(sharedRowLength(64, 4, /*swizzle=*/false), 68);
}

} // namespace
