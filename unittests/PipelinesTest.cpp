//===- PipelinesTest.cpp - The pipelines' options and their pass's parts -===//
//
// What fa-confirm-tiles-with-ptxas reads from ptxas -v and what it compiles
// each trial with, and the kernel choices the pipelines share with the
// passes that predict their kernel.
//
//===----------------------------------------------------------------------===//

#include "fa/Pipelines/Pipelines.h"
#include "fa/Pipelines/ConfirmTilesWithPtxas.h"
#include "fa/Transforms/TileSelection/TileSelection.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>
#include <map>
#include <string>

using namespace mlir::fa;

// Two kernels, as ptxas -v reports a module with a main and a merge kernel:
// the spills add up, the registers are the larger kernel's (a trial fits
// only when its heaviest kernel does).
TEST(PtxasReport, SpillsAddUpAndRegistersAreTheMostAnyKernelUses) {
  const char *report =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'attention_kernel' for "
      "'sm_90a'\n"
      "ptxas info    : Function properties for attention_kernel\n"
      "    0 bytes stack frame, 52 bytes spill stores, 52 bytes spill loads\n"
      "ptxas info    : Used 168 registers, used 1 barriers, 560 bytes "
      "cmem[0]\n"
      "ptxas info    : Compiling entry function 'merge_kernel' for "
      "'sm_90a'\n"
      "ptxas info    : Function properties for merge_kernel\n"
      "    0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 0 barriers, 392 bytes "
      "cmem[0]\n";
  PtxasReport parsed = parsePtxasReport(report);
  EXPECT_EQ(parsed.spillBytes, 60);
  EXPECT_EQ(parsed.registers, 168);
  // The order of the kernels does not matter.
  PtxasReport second = parsePtxasReport(
      "ptxas info    : Used 40 registers\nptxas info    : Used 255 "
      "registers\nptxas info    : Used 96 registers\n");
  EXPECT_EQ(second.registers, 255);
  EXPECT_EQ(second.spillBytes, 0);
}

TEST(PtxasReport, NothingReportedIsZero) {
  PtxasReport parsed = parsePtxasReport("ptxas info    : 0 bytes gmem\n");
  EXPECT_EQ(parsed.spillBytes, 0);
  EXPECT_EQ(parsed.registers, 0);
}

// Every option that changes the kernels reaches the trial: set each away
// from its default and read it back from the trial's pipeline options.
TEST(ConfirmTilesWithPtxas, TheTrialCompilesWithThePassOptions) {
  FAConfirmTilesWithPtxasOptions pass;
  pass.chip = "sm_90a";
  pass.cudaToolkit = "/opt/cuda-test";
  pass.barePointers = false;
  pass.registerFragments = false;
  pass.tmaProducer = false;
  pass.overlapSoftmax = false;
  pass.pingPong = false;
  pass.indexBitwidth = 32;
  GPUPipelineOptions trial;
  setTrialPipelineOptions(pass, trial);
  EXPECT_EQ(trial.chip.getValue(), "sm_90a");
  EXPECT_EQ(trial.format.getValue(), "isa");
  EXPECT_EQ(trial.cudaToolkit.getValue(), "/opt/cuda-test");
  EXPECT_FALSE(trial.barePointers);
  EXPECT_FALSE(trial.registerFragments);
  EXPECT_FALSE(trial.tmaProducer);
  EXPECT_FALSE(trial.overlapSoftmax);
  EXPECT_FALSE(trial.pingPong);
  EXPECT_EQ(trial.indexBitwidth, 32u);
  // And the defaults stay the defaults.
  GPUPipelineOptions defaults;
  setTrialPipelineOptions(FAConfirmTilesWithPtxasOptions(), defaults);
  EXPECT_TRUE(defaults.barePointers);
  EXPECT_TRUE(defaults.tmaProducer);
  EXPECT_EQ(defaults.indexBitwidth, 64u);
}

TEST(ConfirmTilesWithPtxas,
     ASpilledTilingRetriesWithHalfItsKeysThenHalfItsRows) {
  // Keys first: 128 x 64 -> 128 x 32 -> 128 x 16, rows and warps kept.
  std::optional<Tiling> keys = halvedTiling(Tiling{128, 64, 4, 2});
  ASSERT_TRUE(keys);
  EXPECT_EQ(keys->blockQ, 128);
  EXPECT_EQ(keys->blockKV, 32);
  EXPECT_EQ(keys->warps, 4);
  EXPECT_EQ(keys->stages, 2);
  // At 16 keys, rows and warps halve together: 128 x 16, 4 warps -> 64 x 16,
  // 2 warps (each warp keeps its 32 rows' share).
  std::optional<Tiling> rows = halvedTiling(Tiling{128, 16, 4, 1});
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->blockQ, 64);
  EXPECT_EQ(rows->blockKV, 16);
  EXPECT_EQ(rows->warps, 2);
  // One warp stays one warp.
  std::optional<Tiling> oneWarp = halvedTiling(Tiling{32, 16, 1, 1});
  ASSERT_TRUE(oneWarp);
  EXPECT_EQ(oneWarp->blockQ, 16);
  EXPECT_EQ(oneWarp->warps, 1);
  // Splits and packing go with it unchanged.
  Tiling split{64, 16, 2, 1, 4, true};
  std::optional<Tiling> halvedSplit = halvedTiling(split);
  ASSERT_TRUE(halvedSplit);
  EXPECT_EQ(halvedSplit->kvSplits, 4);
  EXPECT_TRUE(halvedSplit->packGQA);
  // Halves round down to whole 16-row tiles: 16 x 48 (the backward's
  // model tile at Nk = 37) becomes 16 x 16, not 16 x 24, which the
  // backward kernel refuses; 48 rows become 16.
  std::optional<Tiling> odd = halvedTiling(Tiling{16, 48, 3, 2});
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->blockKV, 16);
  std::optional<Tiling> oddRows = halvedTiling(Tiling{48, 16, 3, 1});
  ASSERT_TRUE(oddRows);
  EXPECT_EQ(oddRows->blockQ, 16);
  // 16 x 16 is the smallest the retry reaches.
  EXPECT_FALSE(halvedTiling(Tiling{16, 16, 1, 1}));
  EXPECT_FALSE(halvedTiling(Tiling{16, 8, 1, 1}));
}

// The kernel choices the tile report predicts are declared twice, as the
// pipelines' options (KernelChoiceOptions in Pipelines.h) and as the
// passes' (include/fa/Kernel/KernelOptions.td): the same names with the
// same defaults everywhere, read from each one's printed options.
TEST(KernelChoices, PipelinesAndPassesDeclareTheSameNamesAndDefaults) {
  auto optionsOf = [](auto print) {
    std::string text;
    llvm::raw_string_ostream os(text);
    print(os);
    std::map<std::string, std::string> values;
    for (llvm::StringRef name : {"register-fragments", "tma-producer",
                                 "overlap-softmax", "ping-pong"}) {
      size_t at = text.find((" " + name + "=").str());
      if (at == std::string::npos)
        at = text.find(("{" + name + "=").str());
      if (at == std::string::npos)
        continue;
      llvm::StringRef rest =
          llvm::StringRef(text).drop_front(at + name.size() + 2);
      values[name.str()] =
          rest.take_until([](char c) { return c == ' ' || c == '}'; }).str();
    }
    return values;
  };
  auto cpu =
      optionsOf([](llvm::raw_ostream &os) { CPUPipelineOptions().print(os); });
  auto gpu =
      optionsOf([](llvm::raw_ostream &os) { GPUPipelineOptions().print(os); });
  auto selectTiles = optionsOf([](llvm::raw_ostream &os) {
    createFASelectTiles()->printAsTextualPipeline(os);
  });
  auto confirmTiles = optionsOf([](llvm::raw_ostream &os) {
    createFAConfirmTilesWithPtxas()->printAsTextualPipeline(os);
  });
  ASSERT_EQ(gpu.size(), 4u);
  EXPECT_EQ(gpu.at("tma-producer"), "true");
  EXPECT_EQ(cpu, gpu);
  EXPECT_EQ(selectTiles, gpu);
  EXPECT_EQ(confirmTiles, gpu);
}
