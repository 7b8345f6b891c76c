//===- APITest.cpp - The C++ API a compiler uses --------------------------===//
//
// What a downstream compiler does with fa from C++: register it, run the
// recognizer as patterns in its own driver, build the CPU and GPU pipelines
// into its own pass manager, and ask the tile selection directly.
//
//===----------------------------------------------------------------------===//

#include "Common/MaskModIntervals.h"
#include "Common/PackQueryGroups.h"
#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/InitFA.h"
#include "fa/Pipelines/Pipelines.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"
#include "fa/Transforms/Passes.h"
#include "fa/Transforms/TileSelection/TileSelection.h"
#include "fa/Transforms/Tiling/Tiling.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

// The worked example of docs/Sources.md §1 as a frontend writes it in TOSA.
constexpr const char *kTosaAttention = R"mlir(
func.func @attention(%q: tensor<1x4x2xf32>, %k: tensor<1x4x2xf32>,
                     %v: tensor<1x4x2xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<1x4x2xf32>) -> tensor<1x2x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<1x4x2xf32>, tensor<1x2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<1x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<1x4x4xf32>, tensor<1x4x1xf32>) -> tensor<1x4x4xf32>
  %e = tosa.exp %d : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<1x4x4xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  return %o : tensor<1x4x2xf32>
}
)mlir";

class APITest : public ::testing::Test {
protected:
  APITest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    // The GPU pipeline serializes gpu.modules through LLVM IR.
    registerAllToLLVMIRTranslations(registry);
    fa::registerFADialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  MLIRContext context;
};

TEST_F(APITest, RecognizerRunsAsPatternsInAForeignDriver) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kTosaAttention, &context);
  ASSERT_TRUE(module);
  RewritePatternSet patterns(&context);
  fa::populateRaiseAttentionPatterns(patterns);
  ASSERT_TRUE(succeeded(applyPatternsGreedily(*module, std::move(patterns))));
  int attentions = 0;
  double scale = 0;
  module->walk([&](fa::AttentionOp op) {
    ++attentions;
    scale = op.getScale().convertToDouble();
  });
  EXPECT_EQ(attentions, 1);
  EXPECT_EQ(scale, 0.5);
  int softmaxOps = 0;
  module->walk([&](Operation *op) {
    softmaxOps += op->getName().getStringRef() == "tosa.reduce_max";
  });
  EXPECT_EQ(softmaxOps, 0);
}

// An fa.attention with and without a tiling, for the lowerings' entry
// points.
constexpr const char *kTiledAttention = R"mlir(
func.func @tiled(%q: tensor<1x2x64x16xf16>, %k: tensor<1x2x64x16xf16>,
                 %v: tensor<1x2x64x16xf16>) -> tensor<1x2x64x16xf16> {
  %o = fa.attention %q, %k, %v scale = 0.25 causal = top_left
      tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 2>
      : tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>
      -> tensor<1x2x64x16xf16>
  return %o : tensor<1x2x64x16xf16>
}
func.func @untiled(%q: tensor<1x2x64x16xf16>, %k: tensor<1x2x64x16xf16>,
                   %v: tensor<1x2x64x16xf16>) -> tensor<1x2x64x16xf16> {
  %o = fa.attention %q, %k, %v scale = 0.25
      : tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>
      -> tensor<1x2x64x16xf16>
  return %o : tensor<1x2x64x16xf16>
}
func.func @unpackable(%q: tensor<1x2x64x16xf16>, %k: tensor<1x2x64x16xf16>,
                      %v: tensor<1x2x64x16xf16>) -> tensor<1x2x64x16xf16> {
  %o = fa.attention %q, %k, %v scale = 0.25
      tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 1, pack_gqa = true>
      : tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>
      -> tensor<1x2x64x16xf16>
  return %o : tensor<1x2x64x16xf16>
}
)mlir";

int countAttentions(ModuleOp module) {
  int count = 0;
  module.walk([&](fa::AttentionOp) { ++count; });
  return count;
}

TEST_F(APITest, TilingIsAFunctionAndAPattern) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kTiledAttention, &context);
  ASSERT_TRUE(module);
  std::string diagnostic;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostic = d.str();
    return success();
  });
  // As patterns: the tiled op is lowered; the untiled one and the one whose
  // pack_gqa would not be exact are match failures, left without an error.
  RewritePatternSet patterns(&context);
  fa::populateTileAttentionPatterns(patterns);
  ASSERT_TRUE(succeeded(applyPatternsGreedily(*module, std::move(patterns))));
  EXPECT_EQ(countAttentions(*module), 2);
  EXPECT_EQ(diagnostic, "");
  // As a function on the untiled op: it fails and says why at the op.
  IRRewriter rewriter(&context);
  fa::AttentionOp untiled;
  module->walk([&](fa::AttentionOp op) {
    if (!op.getTilingAttr())
      untiled = op;
  });
  EXPECT_TRUE(failed(fa::tileAttention(rewriter, untiled)));
  EXPECT_NE(diagnostic.find("has no tiling"), std::string::npos) << diagnostic;
}

// A decode step with four query heads per key/value head, tiled to pack them.
constexpr const char *kPackableAttention = R"mlir(
func.func @decode(%q: tensor<1x8x1x16xf16>, %k: tensor<1x2x64x16xf16>,
                  %v: tensor<1x2x64x16xf16>) -> tensor<1x8x1x16xf16> {
  %o = fa.attention %q, %k, %v scale = 0.25 causal = bottom_right
      tiling = <block_q = 16, block_kv = 32, warps = 1, stages = 1, pack_gqa = true>
      : tensor<1x8x1x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>
      -> tensor<1x8x1x16xf16>
  return %o : tensor<1x8x1x16xf16>
}
)mlir";

TEST_F(APITest, PackingQueryGroupsBuildsAtTheOpWhereverTheBuilderIs) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kPackableAttention, &context);
  ASSERT_TRUE(module);
  fa::AttentionOp op;
  module->walk([&](fa::AttentionOp found) { op = found; });
  ASSERT_TRUE(op);
  ASSERT_EQ(fa::whyNotPackable(op), "");
  // A caller's builder may point anywhere: here after the function's
  // return. The reshapes still go before the op they replace, and the
  // caller's insertion point is left as it was.
  Block *body = op->getBlock();
  OpBuilder builder(&context);
  builder.setInsertionPointToEnd(body);
  fa::AttentionOp packed = fa::packQueryGroups(op, builder);
  EXPECT_EQ(builder.getInsertionBlock(), body);
  EXPECT_EQ(builder.getInsertionPoint(), body->end());
  EXPECT_TRUE(body->back().hasTrait<OpTrait::IsTerminator>());
  ASSERT_TRUE(succeeded(verify(*module)));
  auto packedQuery = cast<RankedTensorType>(packed.getQuery().getType());
  EXPECT_EQ(packedQuery.getShape(), ArrayRef<int64_t>({1, 2, 4, 16}));
  EXPECT_FALSE(packed.getTilingAttr().getPackGqa());
  EXPECT_FALSE(packed.getCausal());
  EXPECT_EQ(countAttentions(*module), 1);
}

// One op with a mask computed from positions (a causal keep-mask) and one
// without.
constexpr const char *kMaskedAndUnmasked = R"mlir(
func.func @two(%q: tensor<1x1x8x16xf16>) -> (tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>) {
  %e = tensor.empty() : tensor<1x1x8x8xi1>
  %keep = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x8x8xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sle, %j, %i : index
    linalg.yield %c : i1
  } -> tensor<1x1x8x8xi1>
  %masked = fa.attention %q, %q, %q mask(%keep : tensor<1x1x8x8xi1>) scale = 0.5
      : tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16> -> tensor<1x1x8x16xf16>
  %plain = fa.attention %q, %q, %q scale = 0.5
      : tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16> -> tensor<1x1x8x16xf16>
  return %masked, %plain : tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>
}
)mlir";

TEST_F(APITest, FoldingAMaskSaysWhyNotAndLeavesTheOpAlone) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kMaskedAndUnmasked, &context);
  ASSERT_TRUE(module);
  SmallVector<fa::AttentionOp> ops;
  module->walk([&](fa::AttentionOp op) { ops.push_back(op); });
  ASSERT_EQ(ops.size(), 2u);
  IRRewriter rewriter(&context);
  // Called by a driver of its own on an op with nothing to fold: a failure
  // with the reason, the op as it was.
  std::string why;
  EXPECT_TRUE(failed(fa::foldMaskIntoModifiers(rewriter, ops[1], why)));
  EXPECT_EQ(why, "no mask");
  EXPECT_FALSE(ops[1].getMaskModBlock());
  // The masked one folds: its mask becomes the mask_mod.
  why.clear();
  EXPECT_TRUE(succeeded(fa::foldMaskIntoModifiers(rewriter, ops[0], why)))
      << why;
  fa::AttentionOp folded;
  module->walk([&](fa::AttentionOp op) {
    if (!op.getMask() && op.getMaskModBlock())
      folded = op;
  });
  ASSERT_TRUE(folded);
  ASSERT_TRUE(succeeded(verify(*module)));
}

// A causal mask capped at key 5: keys k <= min(q, 5).
constexpr const char *kCappedCausal = R"mlir(
func.func @capped(%q: tensor<1x1x8x16xf16>) -> tensor<1x1x8x16xf16> {
  %o = fa.attention %q, %q, %q scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c5 = arith.constant 5 : index
    %m = arith.minsi %i, %c5 : index
    %v = arith.cmpi sle, %j, %m : index
    fa.yield %v : i1
  } : tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16> -> tensor<1x1x8x16xf16>
  return %o : tensor<1x1x8x16xf16>
}
)mlir";

/// The mask_mod of the one fa.attention in `module`, or null.
Block *onlyMaskMod(ModuleOp module) {
  fa::AttentionOp op;
  module->walk([&](fa::AttentionOp found) { op = found; });
  return op ? op.getMaskModBlock() : nullptr;
}

TEST_F(APITest, TileVisibilityBoundsAMinimumByBothOperands) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kCappedCausal, &context);
  ASSERT_TRUE(module);
  Block *block = onlyMaskMod(*module);
  ASSERT_TRUE(block);
  // Rows 0..3, keys 4..5: min(q, 5) <= 3 < 4, so no key of the tile is
  // visible and the kernels skip it (an upper bound of min taken as the
  // larger operand's, 5, would visit it).
  std::optional<std::pair<bool, bool>> hidden =
      fa::staticTileVisibility(block, {{0, 0}, {0, 0}, {0, 3}, {4, 5}});
  ASSERT_TRUE(hidden);
  EXPECT_FALSE(hidden->first);
  // Rows 6..7, keys 0..5: min(q, 5) = 5, every key visible.
  std::optional<std::pair<bool, bool>> shown =
      fa::staticTileVisibility(block, {{0, 0}, {0, 0}, {6, 7}, {0, 5}});
  ASSERT_TRUE(shown);
  EXPECT_TRUE(shown->first);
  EXPECT_TRUE(shown->second);
  // Rows 0..3, keys 0..3: some visible, not all (row 0 sees key 0 only).
  std::optional<std::pair<bool, bool>> partial =
      fa::staticTileVisibility(block, {{0, 0}, {0, 0}, {0, 3}, {0, 3}});
  ASSERT_TRUE(partial);
  EXPECT_TRUE(partial->first);
  EXPECT_FALSE(partial->second);
}

// Documents from a constant table of ids, read at the query and the key,
// and a select between two conditions: visible iff the ids agree, except
// that rows 6 and 7 see every key.
constexpr const char *kTableAndSelect = R"mlir(
func.func @documents(%q: tensor<1x1x8x16xf16>) -> tensor<1x1x8x16xf16> {
  %ids = arith.constant dense<[0, 0, 0, 1, 1, 2, 2, 2]> : tensor<8xi32>
  %o = fa.attention %q, %q, %q scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %qi = tensor.extract %ids[%i] : tensor<8xi32>
    %kj = tensor.extract %ids[%j] : tensor<8xi32>
    %same = arith.cmpi eq, %qi, %kj : i32
    %c6 = arith.constant 6 : index
    %late = arith.cmpi sge, %i, %c6 : index
    %true = arith.constant true
    %v = arith.select %late, %true, %same : i1
    fa.yield %v : i1
  } : tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16> -> tensor<1x1x8x16xf16>
  return %o : tensor<1x1x8x16xf16>
}
)mlir";

TEST_F(APITest, TileVisibilityReadsConstantTablesAndSelects) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kTableAndSelect, &context);
  ASSERT_TRUE(module);
  Block *block = onlyMaskMod(*module);
  ASSERT_TRUE(block);
  // Rows 0..2 (document 0) and keys 3..4 (document 1): hidden.
  std::optional<std::pair<bool, bool>> hidden =
      fa::staticTileVisibility(block, {{0, 0}, {0, 0}, {0, 2}, {3, 4}});
  ASSERT_TRUE(hidden);
  EXPECT_FALSE(hidden->first);
  // Rows 0..1, keys 0..2: one document, all visible.
  std::optional<std::pair<bool, bool>> same =
      fa::staticTileVisibility(block, {{0, 0}, {0, 0}, {0, 1}, {0, 2}});
  ASSERT_TRUE(same);
  EXPECT_TRUE(same->first);
  EXPECT_TRUE(same->second);
  // Rows 6..7 see every key through the select, documents aside.
  std::optional<std::pair<bool, bool>> late =
      fa::staticTileVisibility(block, {{0, 0}, {0, 0}, {6, 7}, {0, 4}});
  ASSERT_TRUE(late);
  EXPECT_TRUE(late->first);
  EXPECT_TRUE(late->second);
}

TEST_F(APITest, DistributionReturnsTheKernelsResultsAndFollowsItsPlan) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kTiledAttention, &context);
  ASSERT_TRUE(module);
  fa::AttentionOp tiled;
  module->walk([&](fa::AttentionOp op) {
    if (op.getTilingAttr() && !op.getTilingAttr().getPackGqa())
      tiled = op;
  });
  ASSERT_TRUE(tiled);
  fa::KernelPlan plan = fa::planForwardKernel(tiled);
  EXPECT_TRUE(plan.tensorCores);
  EXPECT_TRUE(plan.registerFragments);
  EXPECT_EQ(plan.threads, 128);
  IRRewriter rewriter(&context);
  FailureOr<SmallVector<Value>> results =
      fa::distributeAttention(rewriter, tiled);
  ASSERT_TRUE(succeeded(results));
  EXPECT_EQ(results->size(), 1u);
  EXPECT_EQ(countAttentions(*module), 2);
}

TEST_F(APITest, CPUPipelineBuildsIntoAForeignPassManager) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kTosaAttention, &context);
  ASSERT_TRUE(module);
  PassManager pm(&context);
  fa::CPUPipelineOptions options;
  fa::buildCPUPipeline(pm, options);
  ASSERT_TRUE(succeeded(pm.run(*module)));
  // Everything is in the LLVM dialect now.
  bool onlyLLVM = true;
  module->walk([&](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect != "llvm" && dialect != "builtin")
      onlyLLVM = false;
  });
  EXPECT_TRUE(onlyLLVM);
}

TEST_F(APITest, GPUPipelineBuildsIntoAForeignPassManager) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kTosaAttention, &context);
  ASSERT_TRUE(module);
  PassManager pm(&context);
  fa::GPUPipelineOptions options;
  options.chip = "sm_90";
  options.format = "isa";
  ASSERT_EQ(fa::checkGPUPipelineOptions(options), "");
  fa::buildGPUPipeline(pm, options);
  ASSERT_TRUE(succeeded(pm.run(*module)));
  // One kernel, as PTX for sm_90, launched from the host function.
  int binaries = 0, launches = 0;
  std::string assembly;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "gpu.binary") {
      ++binaries;
      llvm::raw_string_ostream os(assembly);
      op->print(os);
    }
    launches += op->getName().getStringRef() == "gpu.launch_func";
  });
  EXPECT_EQ(binaries, 1);
  EXPECT_EQ(launches, 1);
  EXPECT_NE(assembly.find(".target sm_90"), std::string::npos);
  EXPECT_NE(assembly.find(".entry attention_kernel"), std::string::npos);
}

TEST(GPUPipelineAPI, OptionsAreCheckedBeforeBuilding) {
  fa::GPUPipelineOptions options;
  EXPECT_EQ(fa::checkGPUPipelineOptions(options), "");
  options.chip = "gfx942";
  EXPECT_NE(fa::checkGPUPipelineOptions(options).find("unknown chip 'gfx942'"),
            std::string::npos);
  options.chip = "sm_80";
  options.format = "elf";
  EXPECT_NE(fa::checkGPUPipelineOptions(options).find("unknown format 'elf'"),
            std::string::npos);
  EXPECT_EQ(fa::ptxFeaturesFor("sm_90a"), "+ptx80");
  EXPECT_EQ(fa::ptxFeaturesFor("sm_100"), "+ptx86");
  EXPECT_EQ(fa::cudaToolkitPath("/opt/cuda"), "/opt/cuda");
  // What the pipelines tell fa-distribute-attention about the chip.
  EXPECT_TRUE(fa::chipHasAsyncCopy("sm_80"));
  EXPECT_FALSE(fa::chipHasAsyncCopy("sm_75"));
  EXPECT_TRUE(fa::chipHasTensorCores("sm_80"));
  EXPECT_TRUE(fa::chipHasTensorCores("sm_120"));
  EXPECT_FALSE(fa::chipHasTensorCores("sm_75"));
  EXPECT_FALSE(fa::chipHasTensorCores("gfx942"));
  EXPECT_FALSE(fa::chipHasTensorCores("host"));
}

TEST_F(APITest, PassesAreRegisteredForTextualPipelines) {
  fa::registerFAPassesAndPipelines();
  PassManager pm(&context);
  EXPECT_TRUE(succeeded(parsePassPipeline(
      "builtin.module(fa-raise-attention,fa-select-tiles{target=sm_90},"
      "fa-tile-attention)",
      pm)));
}

TEST(TileSelectionAPI, PlainFunctionOfShapeAndTarget) {
  fa::AttentionShape shape;
  shape.heads = 16;
  shape.kvHeads = 16;
  shape.queryLen = 4096;
  shape.keyLen = 4096;
  shape.headDim = 128;
  shape.valueDim = 128;
  shape.mmaOperands = true; // f16
  fa::TileSelection result = fa::selectTiles(
      shape, *fa::lookupTargetPreset("sm_90"), fa::TilePolicy::Auto);
  ASSERT_TRUE(result.decision);
  // The tile of docs/Targets.md's sm_90, d = 128, f16 row, exactly.
  fa::Tiling expected;
  expected.blockQ = 128;
  expected.blockKV = 32;
  expected.warps = 4;
  expected.stages = 2;
  EXPECT_EQ(result.decision->tiling, expected);
  EXPECT_EQ(result.decision->policy, fa::TilePolicy::Auto);
  // Q (128 x 128) and two stages of K and V (32 x 128 each), f16.
  EXPECT_EQ(result.decision->costs.sharedMemoryBytes, 65536);
  // Two blocks per SM, as FlashAttention-2's 128 x 64 (docs/GPU-Checks.md).
  EXPECT_EQ(result.decision->costs.occupancyBlocksPerSM, 2);
  EXPECT_EQ(result.decision->fa1BlockKV, 227);
  EXPECT_EQ(result.decision->fa1BlockQ, 128);
  EXPECT_FALSE(result.decision->why.empty());
}

} // namespace
