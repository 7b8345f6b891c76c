//===- TileSelectionTest.cpp - Unit tests of the tile selection -----------===//
//
// The FA1 formula, its rounding, tile skipping for causal masks, key
// splits, the backward and linear-attention choices, and the FA2 ranking,
// checked as plain C++ against numbers worked out by hand. What a tiling
// costs the kernel is KernelModelTest.cpp's.
//
//===----------------------------------------------------------------------===//

#include "TestShapes.h"

#include "fa/Transforms/TileSelection/TileSelection.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace mlir::fa;
using namespace mlir::fa::testing;

namespace {

/// Whether the FMA kernel (makeShape's operands: no tensor cores) cannot
/// hold a d-wide f32 row with two chunks of 16 scores in the target's
/// registers (KernelModel.cpp's FMA count, with the chip's margin).
bool fmaRowTooWide(const TargetDescription &target, int64_t d) {
  return target.isGPU() &&
         d + 2 * 16 + 80 + target.registerMargin > target.registersPerThread;
}

TEST(FA1Formula, MatchesAlgorithmOne) {
  // M = 227 KiB of f16 = 116224 elements, d = 64: ceil(116224 / 256) = 454.
  EXPECT_EQ(fa1BlockKV(116224, 64), 454);
  EXPECT_EQ(fa1BlockQ(116224, 64), 64);
  // M = 64 KiB of f32 = 16384 elements, d = 128: ceil(16384 / 512) = 32.
  EXPECT_EQ(fa1BlockKV(16384, 128), 32);
  EXPECT_EQ(fa1BlockQ(16384, 128), 32);
  // The ceiling: 1000 / 400 = 2.5 -> 3.
  EXPECT_EQ(fa1BlockKV(1000, 100), 3);
}

TEST(FA1Policy, RoundsToTheGranuleAndStaysWithinM) {
  TargetDescription sm90 = preset("sm_90");
  AttentionShape shape = makeShape(4096, 64, 2);
  TileSelection result = selectTiles(shape, sm90, TilePolicy::FA1);
  ASSERT_TRUE(result.decision) << result.error;
  const TileDecision &decision = *result.decision;
  EXPECT_EQ(decision.fa1BlockKV, 454);
  EXPECT_EQ(decision.fa1BlockQ, 64);
  // Multiples of mma.sync's 16 rows, within the formula's values.
  EXPECT_EQ(decision.tiling.blockKV % 16, 0);
  EXPECT_EQ(decision.tiling.blockQ % 16, 0);
  EXPECT_LE(decision.tiling.blockKV, 448);
  EXPECT_EQ(decision.tiling.blockQ, 64);
  // Four B x d tiles within M.
  EXPECT_LE((2 * decision.tiling.blockQ + 2 * decision.tiling.blockKV) * 64,
            116224);
  // And the kernel's own limits.
  EXPECT_LE(decision.costs.sharedMemoryBytes, sm90.sharedMemoryPerBlock);
  EXPECT_LE(decision.costs.registersPerThread, 255);
  EXPECT_NE(decision.why.find("ceil(M/4d) = 454"), std::string::npos)
      << decision.why;
}

TEST(FA1Policy, ClampsToTheSequenceLength) {
  TileSelection result =
      selectTiles(makeShape(100, 64, 2), preset("sm_90"), TilePolicy::FA1);
  ASSERT_TRUE(result.decision);
  // 100 keys round up to 112, the next multiple of 16.
  EXPECT_EQ(result.decision->tiling.blockKV, 112);
  EXPECT_NE(result.decision->why.find("clamped to Nk"), std::string::npos);
}

TEST(FA2Policy, TmaProducerKernelTakesFlashAttention3Tiles) {
  // The largest tile whose compute registers fit the warpgroups' share:
  // FlashAttention-3's 192 x 192 at d = 64 (three compute warpgroups, 160
  // registers each, P V from shared memory) and 128 x 176 at d = 128, and
  // under a causal mask its 192 x 128 and 128 x 128 (key blocks of at most
  // 128 there).
  struct Case {
    int64_t d, blockQ, blockKV, warps;
    bool causal;
  };
  for (Case c : {Case{64, 192, 192, 12, false}, Case{128, 128, 176, 8, false},
                 Case{64, 192, 128, 12, true}, Case{128, 128, 128, 8, true}}) {
    AttentionShape shape = makeShape(4096, c.d, 2);
    shape.mmaOperands = true;
    shape.tmaProducerKernel = true;
    if (c.causal)
      shape.causalOffset = 0;
    TileSelection hopper =
        selectTiles(shape, preset("sm_90a"), TilePolicy::FA2);
    ASSERT_TRUE(hopper.decision) << hopper.error;
    const Tiling &tiling = hopper.decision->tiling;
    EXPECT_EQ(tiling.blockQ, c.blockQ) << c.d;
    EXPECT_EQ(tiling.blockKV, c.blockKV) << c.d;
    EXPECT_EQ(tiling.warps, c.warps) << c.d;
    EXPECT_LE(hopper.decision->costs.registersPerThread,
              splitWarpgroupRegisters(c.warps / 4).compute)
        << c.d;
    EXPECT_NE(hopper.decision->why.find("largest tile"), std::string::npos);
  }
  // Under a window, key blocks of at most 128 too, as FlashAttention-3's
  // local tiles: where a split walk's B_c / 2 leaves 128 x 176 out anyway,
  // and where a window too narrow to split counts 8, which would admit
  // 128 x 176 at d = 128 (64 + 132 + 32 + 8 = 236). Causal or not.
  for (int64_t edge : {50, 1000})
    for (bool causal : {false, true}) {
      AttentionShape local = makeShape(4096, 128, 2);
      local.mmaOperands = true;
      local.tmaProducerKernel = true;
      if (causal)
        local.causalOffset = 0;
      local.window = AttentionShape::Window{edge, causal ? 0 : edge, 0};
      TileSelection windowed =
          selectTiles(local, preset("sm_90a"), TilePolicy::FA2);
      ASSERT_TRUE(windowed.decision) << windowed.error;
      EXPECT_LE(windowed.decision->tiling.blockKV, 128) << edge << causal;
    }
  // The cp.async wgmma kernel keeps the cost ranking and the 64- and
  // 128-row tiles.
  AttentionShape shape = makeShape(4096, 64, 2);
  shape.mmaOperands = true;
  TileSelection cpAsync = selectTiles(shape, preset("sm_90a"), TilePolicy::FA2);
  ASSERT_TRUE(cpAsync.decision) << cpAsync.error;
  EXPECT_LE(cpAsync.decision->tiling.blockQ, 128);
}

TEST(GPUKernel, ScoreModificationsCostRegistersAndTheOverlap) {
  // A score_mod keeps P V from overlapping the softmax (ptxas serializes
  // the wgmmas around a soft-cap's tanh there); a mask_mod alone does not.
  AttentionShape shape = makeShape(4096, 128, 2);
  shape.mmaOperands = true;
  KernelOptions all{true, true, true, true, true, true, true};
  shape.scoreModifications = true;
  EXPECT_TRUE(
      planKernel(Tiling{128, 128, 8, 2}, shape, 2, 2, all).overlapSoftmax);
  shape.scoreMod = true;
  KernelPlan plan = planKernel(Tiling{128, 128, 8, 2}, shape, 2, 2, all);
  EXPECT_FALSE(plan.overlapSoftmax);
  EXPECT_TRUE(plan.pingPong);
  // Their registers move the d = 128 tiles: 128 x 176 no longer fits the
  // TMA kernel's 240 (ALiBi spills there), nor 128 x 32 with 4 warps the
  // mma.sync kernel's 255.
  shape.tmaProducerKernel = true;
  TileSelection hopper = selectTiles(shape, preset("sm_90a"), TilePolicy::FA2);
  ASSERT_TRUE(hopper.decision) << hopper.error;
  EXPECT_LT(hopper.decision->tiling.blockKV, 176);
  EXPECT_LE(hopper.decision->costs.registersPerThread, 240);
  shape.tmaProducerKernel = false;
  TileSelection ampere = selectTiles(shape, preset("sm_80"), TilePolicy::FA2);
  ASSERT_TRUE(ampere.decision) << ampere.error;
  const Tiling &tiling = ampere.decision->tiling;
  EXPECT_FALSE(tiling.blockQ == 128 && tiling.blockKV == 32 &&
               tiling.warps == 4);
  EXPECT_LE(ampere.decision->costs.registersPerThread, 255);
}

// A paged op on sm_90a gets the TMA producer tile whose boxes are largest
// (up to 64 rows), then the largest tile: with 128-slot pages one whose key
// blocks divide the page (d = 128 without pages takes 128 x 176, which the
// pages would split into 16-row boxes); with 16-slot pages, which no wgmma
// key block fits, the largest tile, in 16-row boxes.
TEST(FA2Policy, PagedTmaTilesFitThePages) {
  AttentionShape shape = makeShape(4096, 128, 2);
  shape.mmaOperands = true;
  shape.tmaProducerKernel = true;
  shape.pageSize = 128;
  TileSelection paged = selectTiles(shape, preset("sm_90a"), TilePolicy::FA2);
  ASSERT_TRUE(paged.decision) << paged.error;
  EXPECT_EQ(128 % paged.decision->tiling.blockKV, 0);
  EXPECT_TRUE(tmaProducerTiling(paged.decision->tiling, shape));
  EXPECT_NE(paged.decision->why.find("TMA boxes of K and V"),
            std::string::npos);
  // 96-slot pages: one box per block only at 32 keys; 128-key blocks of
  // four 32-row boxes rank before it (the larger tile, boxes as large).
  shape.pageSize = 96;
  TileSelection ninetySix =
      selectTiles(shape, preset("sm_90a"), TilePolicy::FA2);
  ASSERT_TRUE(ninetySix.decision) << ninetySix.error;
  EXPECT_GT(ninetySix.decision->tiling.blockKV, 32);
  EXPECT_EQ(tmaKeyBoxRows(ninetySix.decision->tiling, shape), 32);
  shape.pageSize = 16;
  TileSelection small = selectTiles(shape, preset("sm_90a"), TilePolicy::FA2);
  ASSERT_TRUE(small.decision) << small.error;
  EXPECT_TRUE(tmaProducerTiling(small.decision->tiling, shape));
  EXPECT_EQ(small.decision->tiling.blockKV, 176);
  EXPECT_EQ(tmaKeyBoxRows(small.decision->tiling, shape), 16);
  EXPECT_EQ(small.decision->costs.producerRegisters, 32);
  shape.pageSize = 0;
  TileSelection plain = selectTiles(shape, preset("sm_90a"), TilePolicy::FA2);
  ASSERT_TRUE(plain.decision) << plain.error;
  EXPECT_EQ(plain.decision->tiling.blockKV, 176);
}

TEST(FA2Policy, PrefersTwoStageRingsForHopper) {
  for (int64_t d : {64, 128}) {
    AttentionShape shape = makeShape(4096, d, 2);
    shape.mmaOperands = true;
    TileSelection hopper =
        selectTiles(shape, preset("sm_90a"), TilePolicy::FA2);
    ASSERT_TRUE(hopper.decision) << hopper.error;
    EXPECT_GE(hopper.decision->tiling.stages, 2) << d;
  }
}

TEST(FA2Policy, RanksWgmmaTilingsFirstOnSm90a) {
  for (int64_t d : {64, 128}) {
    AttentionShape shape = makeShape(4096, d, 2);
    shape.mmaOperands = true;
    TileSelection hopper =
        selectTiles(shape, preset("sm_90a"), TilePolicy::FA2);
    ASSERT_TRUE(hopper.decision) << hopper.error;
    EXPECT_TRUE(warpgroupMmaKernel(hopper.decision->tiling, shape)) << d;
    EXPECT_NE(hopper.decision->why.find("wgmma"), std::string::npos);
    TileSelection sm90 = selectTiles(shape, preset("sm_90"), TilePolicy::FA2);
    ASSERT_TRUE(sm90.decision) << sm90.error;
    EXPECT_EQ(sm90.decision->tiling.warps, 4) << d;
  }
}

TEST(Registers, FMAKernelHoldsItsRowInRegisters) {
  // The FMA kernel (no tensor cores: f32, or f16 before sm_80): a thread
  // owns a query row, its f32 accumulator (Dv) and two key chunks of 16:
  // 128 + 32 + 80 = 240, whatever block_kv beyond the chunk.
  TargetDescription sm80 = preset("sm_80");
  AttentionShape shape = makeShape(4096, 128, 4);
  EXPECT_EQ(registersPerThread(Tiling{128, 64, 4, 2}, shape, sm80), 240);
  EXPECT_EQ(registersPerThread(Tiling{128, 128, 4, 2}, shape, sm80), 240);
  // Two rows per thread (256 rows over 128 threads) hold two of each.
  EXPECT_EQ(registersPerThread(Tiling{256, 64, 4, 1}, shape, sm80), 400);
  // A key block of 8 keys has chunks of 8.
  EXPECT_EQ(registersPerThread(Tiling{128, 8, 4, 1}, shape, sm80), 224);
  // d = 192: 304 registers, past 255: ptxas spilled 1328 bytes there and
  // 10 KB at d = 256 before the model counted the row (issue 50), so no
  // tiling fits and the op is refused at the op.
  AttentionShape wide = makeShape(4096, 192, 4);
  EXPECT_EQ(registersPerThread(Tiling{64, 64, 4, 1}, wide, sm80), 304);
  EXPECT_EQ(evaluateTiling(Tiling{64, 64, 4, 1}, wide, sm80)
                .occupancyBlocksPerSM,
            0);
  TileSelection refused = selectTiles(wide, sm80, TilePolicy::Auto);
  EXPECT_FALSE(refused.decision);
  EXPECT_NE(refused.error.find("registers per thread"), std::string::npos)
      << refused.error;
}

TEST(Registers, ATilingThatUsesEveryRegisterFits) {
  // 240 registers for each of 128 threads: a register file of exactly
  // 240 * 128 holds one block, one register less holds none.
  TargetDescription exact = preset("sm_80");
  AttentionShape shape = makeShape(4096, 128, 4);
  Tiling tiling{128, 64, 4, 1};
  ASSERT_EQ(registersPerThread(tiling, shape, exact), 240);
  exact.registersPerSM = 240 * 128;
  EXPECT_EQ(evaluateTiling(tiling, shape, exact).occupancyBlocksPerSM, 1);
  TargetDescription short1 = exact;
  short1.registersPerSM = 240 * 128 - 1;
  EXPECT_EQ(evaluateTiling(tiling, shape, short1).occupancyBlocksPerSM, 0);
}

TEST(Costs, CausalSkipsTilesAboveTheDiagonal) {
  TargetDescription sm90 = preset("sm_90");
  AttentionShape full = makeShape(1024, 64, 2);
  AttentionShape causal = full;
  causal.causalOffset = 0;
  Tiling tiling{128, 128, 4, 1};
  // 8 x 8 tiles; causal visits the lower triangle with its diagonal: 36.
  EXPECT_EQ(evaluateTiling(tiling, full, sm90).visitedKVTiles, 64);
  EXPECT_EQ(evaluateTiling(tiling, causal, sm90).visitedKVTiles, 36);
  EXPECT_LT(evaluateTiling(tiling, causal, sm90).hbmBytesTiled,
            evaluateTiling(tiling, full, sm90).hbmBytesTiled);
}

TEST(Costs, WindowVisitsOnlyNearbyTiles) {
  AttentionShape shape = makeShape(1024, 64, 2);
  shape.window = AttentionShape::Window{128, 0, 0};
  // Each 128-row block sees its own tile and the one before: 1 + 7 * 2.
  EXPECT_EQ(evaluateTiling(Tiling{128, 128, 4, 1}, shape, preset("sm_90"))
                .visitedKVTiles,
            15);
}

TEST(Costs, TiledTrafficIsFarBelowUnfused) {
  TileCosts costs = evaluateTiling(Tiling{128, 64, 4, 2},
                                   makeShape(4096, 128, 2), preset("sm_90"));
  // K and V are re-read once per query block (32 of them here), and the
  // unfused program writes and reads S and P: about a third.
  EXPECT_LT(costs.hbmBytesTiled * 2, costs.hbmBytesUnfused);
  // 16 heads x 32 query blocks over 132 SMs at 2 blocks per SM: 2 waves.
  EXPECT_EQ(costs.blocks, 16 * 32);
  EXPECT_EQ(costs.occupancyBlocksPerSM, 2);
  EXPECT_EQ(costs.waves, 2);
}

TEST(FA2Policy, PicksTheMeasuredTensorCoreTilesOnAmpereAndHopper) {
  // The register-resident tensor-core kernel's picks, the tiles measured at
  // FlashAttention-2's speed on an H200 (docs/Benchmarks.md): d = 64 ->
  // 128 x 64, d = 128 -> 128 x 32, both with 4 warps, inside FA2's own
  // {64, 128} x {32, 64, 128} (FA2's released kernels take 128 x 128 and
  // 128 x 64, docs/Sources.md §1, with S and P in more registers than
  // ours fit). This test used to run the FMA formula (no mma operands),
  // whose old count matched FA2's tiles by coincidence.
  for (const char *name : {"sm_80", "sm_90"}) {
    AttentionShape shape64 = makeShape(4096, 64, 2);
    AttentionShape shape128 = makeShape(4096, 128, 2);
    shape64.mmaOperands = shape128.mmaOperands = true;
    TileSelection d64 = selectTiles(shape64, preset(name), TilePolicy::FA2);
    ASSERT_TRUE(d64.decision) << d64.error;
    EXPECT_EQ(d64.decision->tiling.blockQ, 128) << name;
    EXPECT_EQ(d64.decision->tiling.blockKV, 64) << name;
    EXPECT_EQ(d64.decision->tiling.warps, 4) << name;
    TileSelection d128 = selectTiles(shape128, preset(name), TilePolicy::FA2);
    ASSERT_TRUE(d128.decision) << d128.error;
    EXPECT_EQ(d128.decision->tiling.blockQ, 128) << name;
    EXPECT_EQ(d128.decision->tiling.blockKV, 32) << name;
    EXPECT_EQ(d128.decision->tiling.warps, 4) << name;
  }
}

TEST(FA2Policy, EveryChoiceFitsItsTarget) {
  for (const TargetDescription &target : getTargetPresets())
    for (int64_t d : {64, 128, 256})
      for (int64_t bytes : {2, 4}) {
        AttentionShape shape = makeShape(2048, d, bytes);
        TileSelection result = selectTiles(shape, target, TilePolicy::FA2);
        // The FMA kernel cannot hold a 256-wide f32 row in 255 registers
        // (nor a 128-wide one with Blackwell's margin): refused, with the
        // registers named.
        if (fmaRowTooWide(target, d)) {
          EXPECT_FALSE(result.decision) << target.name;
          EXPECT_NE(result.error.find("registers per thread"),
                    std::string::npos)
              << result.error;
          continue;
        }
        ASSERT_TRUE(result.decision) << target.name << " d=" << d;
        const TileDecision &decision = *result.decision;
        EXPECT_LE(decision.costs.sharedMemoryBytes,
                  target.sharedMemoryPerBlock);
        EXPECT_LE(decision.costs.registersPerThread,
                  target.registersPerThread);
        EXPECT_GE(decision.costs.occupancyBlocksPerSM, 1);
        EXPECT_EQ(decision.tiling.blockQ % 16, 0);
        EXPECT_GE(decision.tiling.blockQ, 16 * decision.tiling.warps);
      }
}

TEST(FA2Policy, DecodeUsesOneMMATileOfRows) {
  TileSelection result =
      selectTiles(makeShape(1, 128, 2), preset("sm_90"), TilePolicy::FA2);
  ASSERT_TRUE(result.decision);
  EXPECT_EQ(result.decision->tiling.blockQ, 16);
  EXPECT_EQ(result.decision->tiling.warps, 1);
}

TEST(AutoPolicy, IsFA2WithFA1Beside) {
  TileSelection fa2 =
      selectTiles(makeShape(4096, 128, 2), preset("sm_80"), TilePolicy::FA2);
  TileSelection automatic =
      selectTiles(makeShape(4096, 128, 2), preset("sm_80"), TilePolicy::Auto);
  ASSERT_TRUE(fa2.decision && automatic.decision);
  EXPECT_EQ(automatic.decision->tiling, fa2.decision->tiling);
  EXPECT_EQ(automatic.decision->policy, TilePolicy::Auto);
  EXPECT_EQ(automatic.decision->fa1BlockKV, fa1BlockKV(163 * 1024 / 2, 128));
  EXPECT_NE(automatic.decision->why.find("fa1 would use"), std::string::npos);
}

TEST(GPUKernel, EveryQueryRowHasAThread) {
  // The kernel gives each thread one query row, whatever the policy picks.
  for (const char *name : {"sm_75", "sm_80", "sm_86", "sm_90", "sm_120"})
    for (int64_t n : {1, 7, 48, 100, 1000, 4096})
      for (int64_t d : {16, 64, 128})
        for (TilePolicy policy : {TilePolicy::FA1, TilePolicy::FA2}) {
          TileSelection result =
              selectTiles(makeShape(n, d, 2), preset(name), policy);
          if (fmaRowTooWide(preset(name), d)) {
            EXPECT_FALSE(result.decision) << name << " " << d;
            continue;
          }
          ASSERT_TRUE(result.decision) << name << " " << n << " " << d;
          const Tiling &tiling = result.decision->tiling;
          EXPECT_LE(tiling.blockQ, tiling.warps * 32)
              << name << " N = " << n << " d = " << d << ": "
              << result.decision->why;
        }
}

TEST(Errors, NoTileFitsNamesTheBytes) {
  // d = 512 in f32 on a 64 KiB target: even 16 x 16 needs
  // 16 * (2048 + 16) + 16 * (4096 + 32) = 99072 bytes.
  TileSelection result =
      selectTiles(makeShape(1024, 512, 4), preset("sm_75"), TilePolicy::Auto);
  EXPECT_FALSE(result.decision);
  EXPECT_NE(result.error.find("needs 99072 bytes"), std::string::npos)
      << result.error;
  EXPECT_NE(result.error.find("65536"), std::string::npos);
}

TEST(Errors, UserTilingThatDoesNotFit) {
  TileSelection result = checkTiling(Tiling{256, 256, 8, 3},
                                     makeShape(4096, 128, 2), preset("sm_75"));
  EXPECT_FALSE(result.decision);
  EXPECT_NE(result.error.find("bytes of shared memory"), std::string::npos);
  TileSelection fits = checkTiling(Tiling{64, 64, 4, 1},
                                   makeShape(4096, 64, 2), preset("sm_75"));
  ASSERT_TRUE(fits.decision) << fits.error;
  EXPECT_EQ(fits.decision->policy, TilePolicy::User);
}

TEST(Presets, SourcesAndLimits) {
  TargetDescription sm90 = preset("sm_90");
  EXPECT_EQ(sm90.sharedMemoryPerBlock, 227 * 1024);
  EXPECT_EQ(sm90.sharedMemoryPerSM, 228 * 1024);
  EXPECT_EQ(sm90.smCount, 132);
  EXPECT_EQ(sm90.mmaGranule(), 16);
  EXPECT_EQ(preset("sm_75").sharedMemoryPerBlock, 64 * 1024);
  EXPECT_EQ(preset("gfx950").sharedMemoryPerBlock, 160 * 1024);
  EXPECT_EQ(preset("gfx942").warpSize, 64);
  EXPECT_FALSE(lookupTargetPreset("sm_99").has_value());
  EXPECT_NE(listTargetPresets().find("sm_90a"), std::string::npos);
  for (const TargetDescription &target : getTargetPresets())
    EXPECT_FALSE(target.source.empty()) << target.name;
  TargetDescription host = getHostTarget();
  EXPECT_GT(host.sharedMemoryPerBlock, 0);
  EXPECT_EQ(host.mmaGranule(), 1);
}

TEST(Policies, ParseAndPrint) {
  EXPECT_EQ(parseTilePolicy("fa1"), TilePolicy::FA1);
  EXPECT_EQ(parseTilePolicy("auto"), TilePolicy::Auto);
  EXPECT_FALSE(parseTilePolicy("fa3").has_value());
  EXPECT_EQ(stringifyTilePolicy(TilePolicy::FA2), "fa2");
}

} // namespace

namespace {

AttentionShape decodeShape(int64_t batch, int64_t keyLen) {
  // One query token per sequence, 32 query heads over 8 key/value heads,
  // d = 128, f16: the decode step.
  AttentionShape shape = makeShape(keyLen, 128, 2);
  shape.batch = batch;
  shape.heads = 32;
  shape.kvHeads = 8;
  shape.queryLen = 1;
  shape.mmaOperands = true;
  return shape;
}

TEST(KVSplits, DecodeFillsTheChip) {
  TargetDescription sm90 = preset("sm_90");
  TileSelection result =
      selectTiles(decodeShape(1, 32768), sm90, TilePolicy::FA2);
  ASSERT_TRUE(result.decision.has_value());
  const TileDecision &d = *result.decision;
  // 32 blocks alone would leave 100 of the 132 SMs idle.
  EXPECT_GT(d.tiling.kvSplits, 1);
  EXPECT_GE(d.costs.blocks, sm90.smCount);
  EXPECT_EQ(d.costs.blocks, 32 * d.tiling.kvSplits);
  // Every split walks at least kMinKeyBlocksPerSplit key blocks.
  int64_t keyBlocks = (32768 + d.tiling.blockKV - 1) / d.tiling.blockKV;
  EXPECT_GE(keyBlocks / d.tiling.kvSplits, kMinKeyBlocksPerSplit);
  EXPECT_LE(d.tiling.kvSplits, kMaxKVSplits);
  // The workspace: a partial f32 row of Dv and its logsumexp per split.
  EXPECT_EQ(d.costs.workspaceBytes, d.tiling.kvSplits * 32 * (128 + 1) * 4);
  EXPECT_NE(d.why.find("kv_splits = " + std::to_string(d.tiling.kvSplits)),
            std::string::npos)
      << d.why;
}

TEST(KVSplits, FullGridsAndShortSequencesAreNotSplit) {
  TargetDescription sm90 = preset("sm_90");
  // Prefill: 16 heads x 32 query blocks of 128 fill the chip.
  TileSelection prefill =
      selectTiles(makeShape(4096, 128, 2), sm90, TilePolicy::FA2);
  ASSERT_TRUE(prefill.decision.has_value());
  EXPECT_EQ(prefill.decision->tiling.kvSplits, 1);
  EXPECT_EQ(prefill.decision->costs.workspaceBytes, 0);
  EXPECT_NE(prefill.decision->why.find("no key splits"), std::string::npos);
  // Decode over 64 keys: too few key blocks for two splits of four.
  TileSelection shortCache =
      selectTiles(decodeShape(1, 64), sm90, TilePolicy::FA2);
  ASSERT_TRUE(shortCache.decision.has_value());
  EXPECT_EQ(shortCache.decision->tiling.kvSplits, 1);
  EXPECT_NE(shortCache.decision->why.find("too few"), std::string::npos)
      << shortCache.decision->why;
  // A batch of 64 sequences already fills the chip.
  TileSelection batched =
      selectTiles(decodeShape(64, 32768), sm90, TilePolicy::FA2);
  ASSERT_TRUE(batched.decision.has_value());
  EXPECT_EQ(batched.decision->tiling.kvSplits, 1);
}

TEST(KVSplits, HostNeverSplitsAndUserSplitsAreKept) {
  TileSelection host =
      selectTiles(decodeShape(1, 32768), preset("host"), TilePolicy::FA2);
  ASSERT_TRUE(host.decision.has_value());
  EXPECT_EQ(host.decision->tiling.kvSplits, 1);
  Tiling given{16, 64, 1, 2};
  given.kvSplits = 7;
  TileSelection checked =
      checkTiling(given, decodeShape(1, 1000), preset("sm_80"));
  ASSERT_TRUE(checked.decision.has_value());
  EXPECT_EQ(checked.decision->tiling.kvSplits, 7);
  EXPECT_EQ(checked.decision->costs.blocks, 32 * 7);
  EXPECT_NE(checked.decision->why.find("7 key splits"), std::string::npos);
}

TEST(KVSplits, SplitsMeetTheLastWaveHeuristic) {
  // FlashAttention-2's rule on sm_80 (108 SMs): the chosen count's last
  // wave is at least 85% as full as the best count's.
  TargetDescription sm80 = preset("sm_80");
  for (int64_t keyLen : {1024, 4096, 16384, 131072}) {
    AttentionShape shape = decodeShape(1, keyLen);
    TileSelection result = selectTiles(shape, sm80, TilePolicy::FA2);
    ASSERT_TRUE(result.decision.has_value());
    const TileDecision &d = *result.decision;
    Tiling whole = d.tiling;
    whole.kvSplits = 1;
    TileCosts costs = evaluateTiling(whole, shape, sm80);
    double concurrent = double(sm80.smCount * costs.occupancyBlocksPerSM);
    auto efficiency = [&](int64_t splits) {
      double waves = double(costs.blocks * splits) / concurrent;
      return waves / std::ceil(waves);
    };
    int64_t keyBlocks = (keyLen + d.tiling.blockKV - 1) / d.tiling.blockKV;
    int64_t most = std::min({kMaxKVSplits, keyBlocks / 4,
                             splitsWithinWorkspaceBudget(whole, shape)});
    double best = 0;
    for (int64_t s = 1; s <= most; ++s)
      best = std::max(best, efficiency(s));
    EXPECT_GE(efficiency(d.tiling.kvSplits), 0.85 * best) << keyLen;
    EXPECT_GT(d.tiling.kvSplits, 1) << keyLen;
  }
}

/// Bytes of one read of K and V for a decode shape.
double keysAndValuesOnce(const AttentionShape &shape) {
  return double(shape.batch) * double(shape.kvHeads) * double(shape.keyLen) *
         double(shape.headDim + shape.valueDim) * double(shape.elementBytes);
}

TEST(KVSplits, DecodeMovesWithinTenPercentOfKeysAndValues) {
  // Issue 53: a decode step moves at most 10% more than one read of K and
  // V. The splits' partial rows (written, then read by the merge) are held
  // to 1/16 of it, and grouped heads are packed into a block's rows. MQA
  // (32 query heads on one key/value head) at d = 256 packs 32 rows, which
  // a 16-row block of one warp would split in two, each reading K and V.
  for (const char *chip : {"sm_80", "sm_90", "sm_90a"})
    for (int64_t batch : {1, 8})
      for (int64_t keyLen : {1024, 3000, 4096, 16384, 32768, 131072})
        for (int64_t kvHeads : {1, 4, 8})
          for (int64_t headDim : {64, 128, 256}) {
            AttentionShape shape = decodeShape(batch, keyLen);
            shape.kvHeads = kvHeads;
            shape.headDim = shape.valueDim = headDim;
            shape.queryGroupsPackable = true;
            shape.tmaProducerKernel = std::string(chip) == "sm_90a";
            TargetDescription target = preset(chip);
            TileSelection result = selectTiles(shape, target, TilePolicy::FA2);
            ASSERT_TRUE(result.decision.has_value()) << result.error;
            const TileDecision &d = *result.decision;
            std::string where = std::string(chip) +
                                " B=" + std::to_string(batch) +
                                " Nk=" + std::to_string(keyLen) +
                                " Hkv=" + std::to_string(kvHeads) +
                                " d=" + std::to_string(headDim);
            double once = keysAndValuesOnce(shape);
            EXPECT_TRUE(d.tiling.packGQA) << where;
            EXPECT_GE(d.tiling.blockQ, shape.heads / kvHeads) << where;
            EXPECT_LE(2.0 * double(d.costs.workspaceBytes), once / 16) << where;
            EXPECT_LE(double(d.costs.hbmBytesTiled), 1.10 * once) << where;
          }
}

TEST(KVSplits, WorkspaceBudgetBoundsTheSplits) {
  // Hq = 32 over Hkv = 4 packed (8 rows per head), d = 128, Nk = 1024, B =
  // 1: K and V are 2 MiB, a split's partial rows 32 x 129 x 4 bytes,
  // written and read back: 1/16 of 2 MiB holds 3 splits' worth.
  AttentionShape shape = decodeShape(1, 1024);
  shape.kvHeads = 4;
  shape.queryGroupsPackable = true;
  Tiling tiling{16, 32, 1, 2};
  tiling.packGQA = true;
  EXPECT_EQ(splitsWithinWorkspaceBudget(tiling, shape),
            int64_t(2.0 * 1024 * 1024 / 16 / (2 * 32 * 129 * 4)));
  EXPECT_EQ(splitsWithinWorkspaceBudget(tiling, shape), 3);
  auto [splits, why] = chooseKVSplits(tiling, shape, preset("sm_90"));
  EXPECT_LE(splits, 3);
  EXPECT_NE(why.find("1/16 of K and V's bytes"), std::string::npos) << why;
  // Unpacked, the budget is still against one read of K and V (not the
  // group's eight): the same 3.
  Tiling plain{16, 32, 1, 2};
  EXPECT_EQ(splitsWithinWorkspaceBudget(plain, shape), 3);
}

TEST(KVSplits, SmallPrefillGridsSplitDespiteTheirWorkspace) {
  // A prefill of 4 heads, 4096 rows each, causal: 128 blocks of 128 rows
  // for sm_120's 340 in flight. Its partial rows outweigh 1/16 of K and
  // V, but it splits for its SMs' compute: the workspace budget is a
  // decode step's (at most 64 query rows per key/value head).
  AttentionShape shape = makeShape(4096, 64, 2);
  shape.heads = shape.kvHeads = 4;
  shape.mmaOperands = true;
  shape.causalOffset = 0;
  Tiling tiling{128, 32, 4, 1};
  EXPECT_EQ(splitsWithinWorkspaceBudget(tiling, shape), kMaxKVSplits);
  EXPECT_GT(chooseKVSplits(tiling, shape, preset("sm_120")).first, 1);
  AttentionShape decode = decodeShape(1, 4096);
  EXPECT_LT(splitsWithinWorkspaceBudget(Tiling{16, 32, 1, 2}, decode),
            kMaxKVSplits);
}

// Packing never trades the tensor cores for fuller rows: 2 query heads of
// 24 rows are 48 packed rows, which the search tiles 48 x 176 with 2 warps
// (24 rows a warp: the FMA kernel), where the plain 32 x 32 runs on
// mma.sync.
TEST(PackGQA, KeepsTheTensorCores) {
  AttentionShape shape = makeShape(168, 64, 2);
  shape.batch = 1;
  shape.heads = 4;
  shape.kvHeads = 2;
  shape.queryLen = 24;
  shape.mmaOperands = true;
  shape.queryGroupsPackable = true;
  for (const char *chip : {"sm_80", "sm_90a"}) {
    shape.tmaProducerKernel = std::string(chip) == "sm_90a";
    TileSelection result = selectTiles(shape, preset(chip), TilePolicy::FA2);
    ASSERT_TRUE(result.decision.has_value()) << result.error;
    const Tiling &tiling = result.decision->tiling;
    AttentionShape tiled = tiling.packGQA ? packedShape(shape) : shape;
    EXPECT_TRUE(tensorCoreKernel(tiling, tiled))
        << chip << ": " << describeTiling(tiling);
  }
}

TEST(PackGQA, DecodePacksWhereTheRowsFillTheBlocks) {
  // One query row per head fills 1/16 of a 16-row block; 32 heads of one
  // key/value head (MQA) fill it whole. FlashAttention-3's rule packs,
  // though the unpacked grid, split, has more blocks.
  AttentionShape shape = decodeShape(1, 1024);
  shape.kvHeads = 1;
  shape.queryGroupsPackable = true;
  for (const char *chip : {"sm_80", "sm_90a"}) {
    shape.tmaProducerKernel = std::string(chip) == "sm_90a";
    TileSelection result = selectTiles(shape, preset(chip), TilePolicy::FA2);
    ASSERT_TRUE(result.decision.has_value()) << result.error;
    EXPECT_TRUE(result.decision->tiling.packGQA) << chip;
    EXPECT_NE(result.decision->why.find("FlashAttention-3's rule: pack"),
              std::string::npos)
        << result.decision->why;
  }
  // Over a long cache the packed block also splits its keys: the search
  // ranks tiles by their split cost, so the 32-row one-warp tile (no room
  // for a split's registers at d = 128) does not win unsplit.
  AttentionShape longCache = shape;
  longCache.keyLen = 16384;
  for (const char *chip : {"sm_80", "sm_90a"}) {
    longCache.tmaProducerKernel = std::string(chip) == "sm_90a";
    TileSelection result =
        selectTiles(longCache, preset(chip), TilePolicy::FA2);
    ASSERT_TRUE(result.decision.has_value()) << result.error;
    EXPECT_TRUE(result.decision->tiling.packGQA) << chip;
    EXPECT_GT(result.decision->tiling.kvSplits, 1) << chip;
    EXPECT_GE(result.decision->costs.blocks, 8) << chip;
  }
  // Prefill: 4096 rows per head fill their blocks; packing is decided by
  // cost alone and the why does not cite the rule.
  AttentionShape prefill = makeShape(4096, 128, 2);
  prefill.heads = 32;
  prefill.kvHeads = 8;
  prefill.mmaOperands = true;
  prefill.queryGroupsPackable = true;
  TileSelection result = selectTiles(prefill, preset("sm_80"), TilePolicy::FA2);
  ASSERT_TRUE(result.decision.has_value());
  EXPECT_EQ(result.decision->why.find("FlashAttention-3's rule: pack"),
            std::string::npos);
}

} // namespace

//===----------------------------------------------------------------------===//
// The backward pass.
//===----------------------------------------------------------------------===//

namespace {

/// The shape of an fa.attention_backward with `deterministic`: dQ in a
/// kernel of its own.
AttentionShape deterministicShape(int64_t n, int64_t d, int64_t bytes) {
  AttentionShape shape = makeShape(n, d, bytes);
  shape.deterministicQueryGradient = true;
  return shape;
}

TEST(Backward, SharedMemoryIsWhatTheLargerKernelAllocates) {
  TargetDescription sm90 = preset("sm_90");
  AttentionShape shape = deterministicShape(4096, 64, 2);
  // d = 64 in f16: 128-byte rows, swizzled, unpadded. One stage: the dK/dV
  // kernel holds K, V [64 rows] and Q, dO [128 rows]; the dQ kernel Q, dO
  // [128] and K, V [64]: the same 4 tiles.
  Tiling tiling{128, 64, 4, 1};
  EXPECT_EQ(backwardSharedMemoryBytes(tiling, shape, sm90),
            2 * 64 * 128 + 2 * 128 * 128);
  // Two stages with cp.async: the dK/dV kernel streams Q and dO through 2
  // buffers, the dQ kernel K and V; the larger kernel decides.
  Tiling staged = tiling;
  staged.stages = 2;
  EXPECT_EQ(backwardSharedMemoryBytes(staged, shape, sm90),
            2 * 64 * 128 + 2 * 2 * 128 * 128);
  // Without cp.async (sm_75) the streamed tiles have one buffer.
  EXPECT_EQ(backwardStreamBuffers(staged, shape, /*asyncCopies=*/false, 128,
                                  128),
            1);
  // Copies that do not spread evenly over the threads stay synchronous:
  // 16 rows of 8 chunks over 256 threads.
  EXPECT_EQ(backwardStreamBuffers(staged, shape, true, 16, 256), 1);
  EXPECT_EQ(backwardStreamBuffers(staged, shape, true, 32, 256), 2);
  // d = 40 (80-byte rows: 5 chunks, no swizzle) pads each row by 16 bytes.
  AttentionShape odd = deterministicShape(4096, 40, 2);
  EXPECT_EQ(backwardSharedMemoryBytes(tiling, odd, sm90),
            2 * 64 * 96 + 2 * 128 * 96);
}

TEST(Backward, AtomicQueryGradientAddsTheTransposedScoresTile) {
  // Without `deterministic` there is no dQ kernel: the dK/dV kernel's
  // tiles and dS^T [Bc][Br] (64 keys of 128 queries, 256-byte rows).
  TargetDescription sm90 = preset("sm_90");
  AttentionShape shape = makeShape(4096, 64, 2);
  Tiling tiling{128, 64, 4, 1};
  EXPECT_EQ(backwardSharedMemoryBytes(tiling, shape, sm90),
            2 * 64 * 128 + 2 * 128 * 128 + 64 * 256);
  // The product's fragments beside dK and dV: at 32 x 128 over 8 warps
  // (d = 64), dK and dV (32 + 32), S^T and dP^T (32), their pairs (16),
  // the product (36) and the kernel's 60; the dQ kernel's 192 + 60 bound
  // the deterministic kernels instead.
  Tiling eightWarps{32, 128, 8, 2};
  EXPECT_EQ(backwardRegistersPerThread(eightWarps, shape, sm90),
            32 + 32 + 32 + 16 + 36 + 60);
  EXPECT_EQ(backwardRegistersPerThread(eightWarps,
                                       deterministicShape(4096, 64, 2), sm90),
            192 + 60);
}

TEST(Backward, AtomicQueryGradientTilesFitPtxas) {
  // ptxas (CUDA 13, sm_80, f16, N = 1024): the dK/dV kernel with dQ's
  // product compiled without spills at 32 x 128 (d = 64, 244 to 253
  // registers) and 16 x 128 (d = 128, 255), and spilled 8 to 24 bytes at
  // 64-row blocks for d = 64.
  TargetDescription sm80 = preset("sm_80");
  for (auto [d, blockQ, blockKV] :
       {std::tuple<int64_t, int64_t, int64_t>{64, 32, 128}, {128, 16, 128}}) {
    TileSelection result = selectBackwardTiles(makeShape(4096, d, 2), sm80);
    ASSERT_TRUE(result.decision) << result.error;
    EXPECT_FALSE(result.decision->deterministicQueryGradient);
    EXPECT_EQ(result.decision->tiling.blockQ, blockQ) << d;
    EXPECT_EQ(result.decision->tiling.blockKV, blockKV) << d;
    EXPECT_EQ(result.decision->tiling.warps, 8) << d;
    EXPECT_NE(result.decision->why.find("f32 atomics"), std::string::npos);
  }
  EXPECT_GT(backwardRegistersPerThread(Tiling{64, 128, 8, 2},
                                       makeShape(4096, 64, 2), sm80),
            sm80.registersPerThread);
}

TEST(Backward, HopperRanksTheWgmmaKernelFirst) {
  // sm_90a: the dK/dV kernel on wgmma needs 64 keys per warpgroup (warps =
  // block_kv / 16) and D, Dv multiples of 64; its registers are D/2 + Dv/2
  // + 2 block_q + 22 + block_kv / 8 (block_q as the next power of two),
  // fitted to ptxas (docs/Hopper.md). d = 64: 64 x 128 (230); d = 128:
  // 32 x 128 (230). sm_90 (no wgmma) keeps mma.sync's tilings.
  TargetDescription sm90a = preset("sm_90a"), sm90 = preset("sm_90");
  AttentionShape d64 = makeShape(4096, 64, 2);
  for (auto [d, blockQ] : {std::pair<int64_t, int64_t>{64, 64}, {128, 32}}) {
    TileSelection result = selectBackwardTiles(makeShape(4096, d, 2), sm90a);
    ASSERT_TRUE(result.decision) << result.error;
    EXPECT_EQ(result.decision->tiling.blockQ, blockQ) << d;
    EXPECT_EQ(result.decision->tiling.blockKV, 128) << d;
    EXPECT_EQ(result.decision->tiling.warps, 8) << d;
    EXPECT_TRUE(warpgroupBackwardKernel(result.decision->tiling,
                                        makeShape(4096, d, 2), sm90a));
    EXPECT_NE(result.decision->why.find("runs on wgmma"), std::string::npos)
        << result.decision->why;
  }
  Tiling wide{64, 128, 8, 2};
  EXPECT_EQ(backwardRegistersPerThread(wide, d64, sm90a),
            32 + 32 + 2 * 64 + 22 + 128 / 8);
  // A block_q of 48 counts as 64; a causal band adds 16 + block_q / 2.
  EXPECT_EQ(backwardRegistersPerThread(Tiling{48, 128, 8, 2}, d64, sm90a),
            backwardRegistersPerThread(wide, d64, sm90a));
  AttentionShape causal = d64;
  causal.causalOffset = 0;
  EXPECT_EQ(backwardRegistersPerThread(wide, causal, sm90a),
            backwardRegistersPerThread(wide, d64, sm90a) + 16 + 32);
  // Shared memory: K, V, two stages of Q and dO, dS^T in whole 64-column
  // blocks (32 queries take 64 columns).
  Tiling narrow{32, 128, 8, 2};
  EXPECT_EQ(backwardSharedMemoryBytes(narrow, d64, sm90a),
            (128 + 2 * 32) * 128 * 2 + 128 * 64 * 2);
  // Not the wgmma kernel: warps not block_kv / 16, D not a multiple of 64,
  // a chip without wgmma, f32.
  EXPECT_FALSE(warpgroupBackwardKernel(Tiling{64, 128, 4, 2}, d64, sm90a));
  EXPECT_FALSE(warpgroupBackwardKernel(wide, makeShape(4096, 96, 2), sm90a));
  EXPECT_FALSE(warpgroupBackwardKernel(wide, d64, sm90));
  EXPECT_FALSE(warpgroupBackwardKernel(wide, makeShape(4096, 64, 4), sm90a));
  EXPECT_NE(whyNoWarpgroupBackwardTiling(Tiling{24, 64, 4, 1}, d64)
                .find("block_q = 24"),
            std::string::npos);
  // d = 256: two warpgroups per 64 keys, each with half of dK's and dV's
  // columns (128 + 2 block_q + 30): 32 x 64 over 8 warps; 4 warps are
  // not the wgmma kernel's.
  AttentionShape d256 = makeShape(4096, 256, 2);
  EXPECT_EQ(warpgroupBackwardColumnSplit(d256), 2);
  EXPECT_EQ(warpgroupBackwardColumnSplit(d64), 1);
  TileSelection wide256 = selectBackwardTiles(d256, sm90a);
  ASSERT_TRUE(wide256.decision) << wide256.error;
  EXPECT_EQ(wide256.decision->tiling, (Tiling{32, 64, 8, 2}));
  EXPECT_EQ(backwardRegistersPerThread(Tiling{32, 64, 8, 2}, d256, sm90a),
            64 + 64 + 2 * 32 + 22 + 64 / 8);
  EXPECT_FALSE(warpgroupBackwardKernel(Tiling{32, 64, 4, 2}, d256, sm90a));
  // Half of Dv = 64 is no whole 64-column block.
  AttentionShape narrowValues = d256;
  narrowValues.valueDim = 64;
  EXPECT_NE(whyNoWarpgroupBackwardTiling(Tiling{32, 64, 8, 2}, narrowValues)
                .find("Dv = 64 is not a multiple of 128"),
            std::string::npos);
}

TEST(Backward, HopperProducerWarpgroupWhereTheRegistersFit) {
  // With tmaProducerKernel (the pipelines' default on sm_90a) the wgmma
  // dK/dV kernel has a TMA producer warpgroup where its register count
  // fits the compute warpgroups' 240 after setmaxnreg: its ring adds L
  // and D ([2][block_q] f32 per stage) and a 1 KiB slot for the
  // mbarriers. Past 240 it keeps cp.async, and says why.
  TargetDescription sm90a = preset("sm_90a");
  AttentionShape d64 = makeShape(4096, 64, 2);
  d64.tmaProducerKernel = true;
  Tiling narrow{32, 128, 8, 2};
  EXPECT_TRUE(warpgroupBackwardProducer(narrow, d64, sm90a));
  EXPECT_EQ(backwardSharedMemoryBytes(narrow, d64, sm90a),
            (128 + 2 * 32) * 128 * 2 + 128 * 64 * 2 + 2 * 2 * 32 * 4 + 1024);
  AttentionShape off = d64;
  off.tmaProducerKernel = false;
  EXPECT_FALSE(warpgroupBackwardProducer(narrow, off, sm90a));
  // d = 256, causal, 32 x 64: 128 + 64 + 22 + 8 + 16 + 16 = 254 > 240.
  AttentionShape d256 = makeShape(4096, 256, 2);
  d256.tmaProducerKernel = true;
  d256.causalOffset = 0;
  Tiling split{32, 64, 8, 2};
  EXPECT_EQ(warpgroupBackwardRegisterCount(split, d256), 254);
  EXPECT_FALSE(warpgroupBackwardProducer(split, d256, sm90a));
  EXPECT_NE(whyNoWarpgroupBackwardProducer(split, d256)
                .find("about 254 registers per thread, and setmaxnreg leaves "
                      "them 240"),
            std::string::npos);
  // Selection ranks by area before the producer: 32 x 64 without it.
  TileSelection chosen = selectBackwardTiles(d256, sm90a);
  ASSERT_TRUE(chosen.decision) << chosen.error;
  EXPECT_EQ(chosen.decision->tiling, split);
  EXPECT_NE(chosen.decision->why.find("on cp.async, not a TMA producer"),
            std::string::npos)
      << chosen.decision->why;
  // Non-causal d = 256 (222) and d = 64 at 64 x 128 (230) have it.
  d256.causalOffset.reset();
  EXPECT_TRUE(warpgroupBackwardProducer(split, d256, sm90a));
  TileSelection d64Chosen = selectBackwardTiles(d64, sm90a);
  ASSERT_TRUE(d64Chosen.decision) << d64Chosen.error;
  EXPECT_TRUE(
      warpgroupBackwardProducer(d64Chosen.decision->tiling, d64, sm90a));
  EXPECT_EQ(d64Chosen.decision->costs.occupancyBlocksPerSM, 1);
  EXPECT_NE(d64Chosen.decision->why.find("with a TMA producer warpgroup"),
            std::string::npos)
      << d64Chosen.decision->why;
}

TEST(Backward, AtomicQueryGradientFallsBackToItsOwnKernel) {
  // d = 160 on sm_80: no tiling leaves the dK/dV kernel room for dQ's
  // product, and the deterministic kernels' 16 x 64 fits: dQ gets its own
  // kernel, and the decision says so (fa-select-tiles marks the op).
  TargetDescription sm80 = preset("sm_80");
  TileSelection result = selectBackwardTiles(makeShape(4096, 160, 2), sm80);
  ASSERT_TRUE(result.decision) << result.error;
  EXPECT_TRUE(result.decision->deterministicQueryGradient);
  EXPECT_NE(result.decision->why.find("dQ in a kernel of its own"),
            std::string::npos)
      << result.decision->why;
  TileSelection separate =
      selectBackwardTiles(deterministicShape(4096, 160, 2), sm80);
  ASSERT_TRUE(separate.decision) << separate.error;
  EXPECT_EQ(result.decision->tiling.blockQ, separate.decision->tiling.blockQ);
  EXPECT_EQ(result.decision->tiling.blockKV, separate.decision->tiling.blockKV);
}

TEST(Backward, RegistersBoundTheTileBeforeSharedMemory) {
  TargetDescription sm90 = preset("sm_90");
  AttentionShape shape = deterministicShape(4096, 64, 2);
  TileSelection result = selectBackwardTiles(shape, sm90);
  ASSERT_TRUE(result.decision) << result.error;
  const Tiling &tiling = result.decision->tiling;
  // d = 64: 64 x 128 with a warp per 16 keys, cp.async (ptxas: 229 and
  // 248 registers, no spills; docs/GPU.md).
  EXPECT_EQ(tiling.blockQ, 64);
  EXPECT_EQ(tiling.blockKV, 128);
  EXPECT_EQ(tiling.warps, 8);
  EXPECT_EQ(tiling.stages, 2);
  // 128 x 128 fits shared memory but not 255 registers per thread: the
  // dK/dV kernel's S^T, dP^T and their packed pairs over 128 queries.
  Tiling square{128, 128, 8, 1};
  EXPECT_LE(backwardSharedMemoryBytes(square, shape, sm90),
            sm90.sharedMemoryPerBlock);
  EXPECT_GT(backwardRegistersPerThread(square, shape, sm90),
            sm90.registersPerThread);
  EXPECT_EQ(evaluateBackwardTiling(square, shape, sm90).occupancyBlocksPerSM,
            0);
  EXPECT_NE(result.decision->why.find("backward pass"), std::string::npos);
  // d = 128: 32 x 64 over 4 warps.
  TileSelection wide =
      selectBackwardTiles(deterministicShape(4096, 128, 2), sm90);
  ASSERT_TRUE(wide.decision) << wide.error;
  EXPECT_EQ(wide.decision->tiling.blockQ, 32);
  EXPECT_EQ(wide.decision->tiling.blockKV, 64);
  EXPECT_EQ(wide.decision->tiling.warps, 4);
}

TEST(Backward, RegisterModelFollowsTheSpillFrontier) {
  // ptxas -v (CUDA 13.0, sm_80, f16, causal; docs/GPU.md): the largest
  // fragment counts that compiled without spills are admitted, the
  // smallest that spilled refused.
  TargetDescription sm80 = preset("sm_80");
  AttentionShape d64 = deterministicShape(4096, 64, 2);
  AttentionShape d128 = deterministicShape(4096, 128, 2);
  auto admitted = [&](Tiling tiling, const AttentionShape &shape) {
    return backwardRegistersPerThread(tiling, shape, sm80) <=
           sm80.registersPerThread;
  };
  // No spills: dQ kernel 192 fragment registers, dK/dV kernel 176.
  EXPECT_TRUE(admitted(Tiling{64, 128, 8, 2}, d64));
  EXPECT_TRUE(admitted(Tiling{32, 64, 4, 2}, d128));
  // Spills: dQ kernel 208 (96 bytes), dK/dV kernel 224 (48 to 600 bytes).
  EXPECT_FALSE(admitted(Tiling{64, 32, 2, 2}, d128));
  EXPECT_FALSE(admitted(Tiling{64, 64, 4, 2}, d128));
  EXPECT_FALSE(admitted(Tiling{128, 64, 4, 2}, d64));
}

TEST(Backward, TilesStayWithinTheSequences) {
  TargetDescription sm80 = preset("sm_80");
  AttentionShape shape = makeShape(20, 64, 2);
  TileSelection result = selectBackwardTiles(shape, sm80);
  ASSERT_TRUE(result.decision) << result.error;
  // 20 rows round up to 32, never to 128.
  EXPECT_EQ(result.decision->tiling.blockQ, 32);
  EXPECT_EQ(result.decision->tiling.blockKV, 32);
}

TEST(Backward, HostTilingsBeyondTheCacheAreKept) {
  // This machine's host, with a 32 KiB cache whatever it really has.
  TargetDescription host = preset("host");
  host.sharedMemoryPerBlock = host.sharedMemoryPerSM = 32 * 1024;
  AttentionShape shape = makeShape(1000, 128, 4);
  Tiling big{64, 64, 1, 1};
  ASSERT_GT(backwardSharedMemoryBytes(big, shape, host), 32 * 1024);
  TileSelection checked = checkBackwardTiling(big, shape, host);
  ASSERT_TRUE(checked.decision) << checked.error;
  EXPECT_NE(checked.decision->why.find("costs speed, not correctness"),
            std::string::npos);
  // The choice itself stays within the cache.
  TileSelection chosen = selectBackwardTiles(shape, host);
  ASSERT_TRUE(chosen.decision) << chosen.error;
  EXPECT_LE(chosen.decision->costs.sharedMemoryBytes, 32 * 1024);
  // A split tiling is not a backward tiling.
  Tiling split = big;
  split.kvSplits = 2;
  EXPECT_FALSE(checkBackwardTiling(split, shape, host).decision);
}

TEST(Backward, FusedTrafficIsBelowTheUnfusedAtLongSequences) {
  TargetDescription sm90 = preset("sm_90");
  AttentionShape shape = makeShape(8192, 64, 2);
  TileCosts costs = evaluateBackwardTiling(Tiling{128, 64, 4, 1}, shape, sm90);
  // The model: about 3.8 times less (P, dP and dS never reach memory).
  EXPECT_LT(costs.hbmBytesTiled * 3, costs.hbmBytesUnfused);
  // And not far less: Q, K, V, O and dO are still read and the gradients
  // written (a model that lost the fused traffic, cost 0, survived issue
  // 31's operator mutation).
  EXPECT_GT(costs.hbmBytesTiled * 10, costs.hbmBytesUnfused);
  EXPECT_EQ(costs.cost, double(costs.hbmBytesTiled));
}

} // namespace

// Linear attention's chunk: what its GPU kernel keeps in shared memory (Q
// and K rows, the decayed K with a decay, V rows with 16 columns more when
// normalized, the [D, Dv'] state in f32 and in the input type, Dv' f32
// column scales; rows padded by 16 bytes) against the target's.
TEST(LinearChunk, CountsTheKernelsTiles) {
  // f16, D = Dv = 64, normalized (Dv' = 80): 64 rows of Q, K (64 * 2 + 16
  // bytes) and V (80 * 2 + 16), the state 64 x (80 * 4 + 16) and
  // 64 x (80 * 2 + 16), 80 scales.
  int64_t rows = 64 * (2 * 144 + 176), state = 64 * (336 + 176) + 80 * 4;
  EXPECT_EQ(linearChunkBytes(64, 64, 64, 2, true, false), rows + state);
  // A decay adds the decayed K's rows.
  EXPECT_EQ(linearChunkBytes(64, 64, 64, 2, true, true),
            rows + state + 64 * 144);
  // f32, D = 128, Dv = 32, not normalized.
  EXPECT_EQ(linearChunkBytes(16, 128, 32, 4, false, false),
            16 * (2 * 528 + 144) + 128 * (144 + 144) + 32 * 4);
}

TEST(LinearChunk, Prefers64AndHalvesUntilItFits) {
  std::string error;
  auto roomy = selectLinearChunk(64, 64, 2, true, false, 166912, error);
  ASSERT_TRUE(roomy.has_value());
  EXPECT_EQ(roomy->chunk, 64);
  // bf16, d = 128, normalized, on sm_80's 166912 bytes: 64 rows need
  // 169536, 32 need 142400.
  auto tight = selectLinearChunk(128, 128, 2, true, false, 166912, error);
  ASSERT_TRUE(tight.has_value());
  EXPECT_EQ(tight->chunk, 32);
  EXPECT_EQ(tight->sharedMemoryBytes, 142400);
  EXPECT_EQ(linearChunkBytes(64, 128, 128, 2, true, false), 169536);
}

TEST(LinearChunk, RefusesWhenSixteenRowsDoNotFit) {
  std::string error;
  EXPECT_FALSE(
      selectLinearChunk(128, 128, 4, false, false, 65536, error).has_value());
  EXPECT_NE(error.find("16 rows need 161024"), std::string::npos) << error;
}

TEST(HostPolicy, NeverRefusesForSize) {
  // Issue 50: f32 at d = 128 with a 32 KiB cache (L1d where sysfs reports
  // no L2) was refused: FA2's smallest tile, 16 x 16, needs 33920 bytes.
  // The host's cache bounds speed, not correctness: every head dim, type,
  // length and policy gets a tiling, within the cache where one fits.
  TargetDescription host = preset("host");
  for (int64_t cache : {4 * 1024, 32 * 1024, 2 * 1024 * 1024}) {
    host.sharedMemoryPerBlock = host.sharedMemoryPerSM = cache;
    for (int64_t d : {32, 64, 80, 96, 128, 192, 256, 1024})
      for (int64_t bytes : {2, 4})
        for (int64_t n : {int64_t(1), int64_t(64), int64_t(1000),
                          kUnknownSize})
          for (TilePolicy policy :
               {TilePolicy::Auto, TilePolicy::FA1, TilePolicy::FA2}) {
            AttentionShape shape = makeShape(n, d, bytes);
            TileSelection forward = selectTiles(shape, host, policy);
            ASSERT_TRUE(forward.decision)
                << forward.error << " (cache " << cache << ", d " << d << ")";
            const Tiling &tiling = forward.decision->tiling;
            EXPECT_GE(tiling.blockQ, 1);
            EXPECT_GE(tiling.blockKV, 1);
            if (n != kUnknownSize) {
              EXPECT_LE(tiling.blockQ, n);
              EXPECT_LE(tiling.blockKV, n);
            }
            bool fits = forward.decision->costs.sharedMemoryBytes <= cache;
            bool says = forward.decision->why.find(
                            "the host never refuses for size") !=
                        std::string::npos;
            // A tile past the cache always says so.
            EXPECT_TRUE(fits || says) << forward.decision->why;
            TileSelection backward = selectBackwardTiles(shape, host);
            ASSERT_TRUE(backward.decision) << backward.error;
          }
  }
  // Where FA2's 16 x 16 fits it is FA2's choice, as before.
  host.sharedMemoryPerBlock = host.sharedMemoryPerSM = 32 * 1024;
  TileSelection f16 = selectTiles(makeShape(1000, 128, 2), host,
                                  TilePolicy::Auto);
  ASSERT_TRUE(f16.decision);
  EXPECT_LE(f16.decision->costs.sharedMemoryBytes, 32 * 1024);
  EXPECT_EQ(f16.decision->why.find("never refuses"), std::string::npos);
  // f32 at d = 128: 16 x 16 past the cache, not FA1's shrunk 16 x 14.
  TileSelection f32 = selectTiles(makeShape(1000, 128, 4), host,
                                  TilePolicy::Auto);
  ASSERT_TRUE(f32.decision);
  EXPECT_EQ(f32.decision->tiling.blockQ, 16);
  EXPECT_EQ(f32.decision->tiling.blockKV, 16);
  EXPECT_EQ(f32.decision->costs.sharedMemoryBytes, 33920);
  // A GPU still refuses what does not fit, and says why (not an empty
  // reason).
  TileSelection sm75 = selectTiles(makeShape(1000, 2048, 4), preset("sm_75"),
                                   TilePolicy::Auto);
  EXPECT_FALSE(sm75.decision);
  EXPECT_NE(sm75.error.find("bytes of shared memory"), std::string::npos)
      << sm75.error;
}

TEST(Registers, SplitsPastD192CostNothingOnWholeKeyBlocks) {
  // d = 256, 16 x 16, one warp: ptxas used 221 to 241 registers with 2 to
  // 64 splits at N = 4096 and 16384 (whole blocks), 254 to 255 with a
  // masked block (Blackwell spilled). The model counts the splits only
  // where a block is masked.
  AttentionShape shape = makeShape(16384, 256, 2);
  shape.mmaOperands = true;
  Tiling unsplit{16, 16, 1, 2};
  Tiling split = unsplit;
  split.kvSplits = 4;
  for (const char *chip : {"sm_80", "sm_90", "sm_100"}) {
    TargetDescription target = preset(chip);
    EXPECT_EQ(registersPerThread(split, shape, target),
              registersPerThread(unsplit, shape, target))
        << chip;
    AttentionShape lengths = shape;
    lengths.keyLengths = true;
    EXPECT_GT(registersPerThread(split, lengths, target),
              registersPerThread(unsplit, lengths, target))
        << chip;
    // A mask_mod or score_mod: the kernel's code per score grows, and
    // only the plain kernel was measured.
    AttentionShape modified = shape;
    modified.scoreModifications = true;
    EXPECT_GT(registersPerThread(split, modified, target),
              registersPerThread(unsplit, modified, target))
        << chip;
    AttentionShape tail = shape;
    tail.keyLen = 16376;
    EXPECT_GT(registersPerThread(split, tail, target),
              registersPerThread(unsplit, tail, target))
        << chip;
  }
  // Splits that do not share the 1024 key blocks evenly still cost (35
  // and 74 spilled 28 bytes on sm_100).
  Tiling uneven = unsplit;
  uneven.kvSplits = 35;
  EXPECT_GT(registersPerThread(uneven, shape, preset("sm_100")),
            registersPerThread(unsplit, shape, preset("sm_100")));
  // With one stage the splits still cost (32 x 16, 2 warps, 2 splits
  // spilled 24 bytes on sm_100 at N = 176 without their term).
  Tiling oneStage{32, 16, 2, 1};
  Tiling oneStageSplit = oneStage;
  oneStageSplit.kvSplits = 2;
  EXPECT_GT(registersPerThread(oneStageSplit, shape, preset("sm_100")),
            registersPerThread(oneStage, shape, preset("sm_100")));
  // At d = 128 the splits' term stays.
  AttentionShape narrow = makeShape(16384, 128, 2);
  narrow.mmaOperands = true;
  Tiling narrowSplit{16, 32, 1, 2};
  narrowSplit.kvSplits = 4;
  EXPECT_GT(registersPerThread(narrowSplit, narrow, preset("sm_90")),
            registersPerThread(Tiling{16, 32, 1, 2}, narrow, preset("sm_90")));
}

TEST(Registers, BlackwellAddsItsMargin) {
  // Blackwell's ptxas took 20 to 45 more registers than sm_80's for the
  // same mma.sync kernel (d = 128, 128 x 32, 4 warps, 2 stages: 0 spills
  // on sm_80 and sm_90, 340 bytes on sm_120, 40 on sm_100; issue 50): the
  // model counts 32 more there, and so no longer admits that tile.
  AttentionShape shape = makeShape(4096, 128, 2);
  shape.mmaOperands = true;
  Tiling tiling{128, 32, 4, 2};
  int64_t sm90 = registersPerThread(tiling, shape, preset("sm_90"));
  EXPECT_EQ(registersPerThread(tiling, shape, preset("sm_100")), sm90 + 32);
  EXPECT_EQ(registersPerThread(tiling, shape, preset("sm_120")), sm90 + 32);
  EXPECT_GT(evaluateTiling(tiling, shape, preset("sm_90")).occupancyBlocksPerSM,
            0);
  EXPECT_EQ(
      evaluateTiling(tiling, shape, preset("sm_120")).occupancyBlocksPerSM, 0);
  TileSelection chosen = selectTiles(shape, preset("sm_120"), TilePolicy::Auto);
  ASSERT_TRUE(chosen.decision) << chosen.error;
  EXPECT_LE(chosen.decision->costs.registersPerThread, 255);
}
