"""The mutations of the stage TileSelection (include/fa/Transforms/TileSelection, lib/Transforms/TileSelection).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation

MUTATIONS = [
    # Issue 54: D = 256 with fewer query rows than a warpgroup on sm_90a.
    Mutation(
        name="few-queries-no-warpgroup-block",
        function="selectFA2",
        old="""  bool pastRows = !best && wgmmaCapable;""",
        new="""  bool pastRows = false;""",
        tests=["test/Transforms/TileSelection/hopper-few-queries.mlir"],
        description="no tiling for D = 256 with fewer query rows than a warpgroup, where one 64-row block past them fits"),
    # Issue 54: the deterministic kernels where the atomic ones do not fit.
    Mutation(
        name="backward-no-deterministic-fallback",
        function="withQueryGradientFallback",
        old="""  TileSelection fallback = select(separate);""",
        new="""  TileSelection fallback = result;""",
        tests=["unittests", "test/Transforms/TileSelection/backward.mlir"],
        description="d = 160 on sm_80 refused where dQ's own kernel fits"),
    Mutation(
        name="backward-fallback-leaves-op-atomic",
        function="(anonymous namespace)::SelectTiles::selectBackward",
        old="""    if (decision.deterministicQueryGradient)
      op.setDeterministic(true);""",
        new="""    (void)decision.deterministicQueryGradient;""",
        tests=["test/Transforms/TileSelection/backward.mlir"],
        description="the deterministic kernels' tiling on an op the kernel builds with atomics"),
    # Issue 53: a decode step moves within 10% of one read of K and V.
    Mutation(
        name="bound-by-bytes-ignores-the-group",
        function="boundByBytes",
        old="""         shape.queryLen * group <= kMemoryBoundQueryRows;""",
        new="""         shape.queryLen <= kMemoryBoundQueryRows;""",
        tests=["unittests", "test/GPU/confirm-tiles-with-ptxas.mlir"],
        description="37 rows of 4 query heads per key/value head (148) taken for a decode step: the d = 192 prefill's tile changes"),
    Mutation(
        name="memory-bound-ignores-key-reads",
        function="mlir::fa::selectTiles",
        old="""                  memoryBound ? ceilDiv(shape.queryLen, d.tiling.blockQ) : 0;""",
        new="""                  0;""",
        tests=["unittests", "test/Transforms/TileSelection/decode-bytes.test",
               "test/GPU/mqa-decode.test"],
        description="MQA at d = 256: two 16-row blocks each read K and V (2.1 times one read)"),
    Mutation(
        name="workspace-budget-counts-padded-keys",
        function="mlir::fa::splitsWithinWorkspaceBudget",
        old="""    keysRead = std::min(""",
        new="""    keysRead = std::max(""",
        tests=["unittests"],
        description="Nk = 4096 in 80-key blocks counted as 4160 keys: MQA's 4 splits move 1.6% past the budget"),
    Mutation(
        name="pack-gqa-leaves-tensor-cores",
        function="splitAndPack",
        old="""      if (candidate->costs.occupancyBlocksPerSM == 0 || leavesTensorCores)""",
        new="""      if (candidate->costs.occupancyBlocksPerSM == 0)""",
        tests=["unittests"],
        description="2 query heads of 24 rows packed into 48 x 176 with 2 warps: the FMA kernel where 32 x 32 ran on mma.sync"),
    # Issue 53: pages smaller than a key block on the TMA producer kernel.
    Mutation(
        name="paged-tiles-ignore-boxes-per-block",
        function="mlir::fa::selectTiles",
        old="""                      ? std::min(tmaKeyBoxRows(d.tiling, shape), largeBoxRows)""",
        new="""                      ? 0""",
        tests=["unittests"],
        description="128-slot pages get 128 x 176 in 16-row boxes where 128 x 128 takes one box per block"),
    # Issue 53: FlashAttention-3's causal key blocks.
    Mutation(
        name="causal-key-blocks-uncapped",
        function="selectFA2",
        old="""                blockKV > kWidestBandKeyBlock)""",
        new="""                blockKV > 2 * kWidestBandKeyBlock)""",
        tests=["unittests"],
        description="causal d = 128 takes 128 x 176 over FlashAttention-3's causal 128 x 128"),
    Mutation(
        name="window-key-blocks-uncapped",
        function="selectFA2",
        old="""            if (warpgroupTiles && (shape.causalOffset || shape.window) &&""",
        new="""            if (warpgroupTiles && shape.causalOffset &&""",
        tests=["unittests"],
        description="a window's walk searched past 128 keys, which FlashAttention-3's local tiles never take"),
    Mutation(
        name="split-workspace-budget-ignored",
        function="mlir::fa::chooseKVSplits",
        old="  maxSplits = std::min(maxSplits, workspaceCap);",
        new="",
        tests=["unittests", "test/Transforms/TileSelection/pack-gqa.mlir",
               "test/Transforms/TileSelection/decode-bytes.test"],
        description="decode splits whose partial rows move more than 1/16 of K and V's bytes"),
    Mutation(
        name="split-workspace-budget-per-query-head",
        function="mlir::fa::splitsWithinWorkspaceBudget",
        old="""  int64_t keyHeads = shape.kvHeads != kUnknownSize ? shape.kvHeads
                                                   : shape.heads;""",
        new="  int64_t keyHeads = shape.heads;",
        tests=["unittests"],
        description="the workspace budget of an unpacked group counted against its heads' repeated reads"),
    Mutation(
        name="split-workspace-budget-on-prefill",
        function="mlir::fa::splitsWithinWorkspaceBudget",
        old="""  if (!boundByBytes(shape))
    return kMaxKVSplits;""",
        new="""  if (!boundByBytes(shape))
    (void)0;""",
        tests=["unittests"],
        description="a prefill with a small grid denied its splits by a decode step's byte budget"),
    Mutation(
        name="pack-gqa-row-fill-rule-dropped",
        function="splitAndPack",
        old="  bool fillsRows = candidate && plainFill < 0.9 * packedFill;",
        new="  bool fillsRows = false;",
        tests=["unittests", "test/Transforms/TileSelection/pack-gqa.mlir",
               "test/Transforms/TileSelection/decode-bytes.test"],
        description="a decode step's query groups left unpacked where its split grid wins on cost"),
    Mutation(
        name="split-tilings-ranked-unsplit",
        function="selectFA2",
        old="                rankCost = evaluateTiling(split, shape, target).cost;",
        new="                rankCost = costs.cost;",
        tests=["unittests"],
        description="a tile with no room for splits ranked by its unsplit cost and chosen for a decode step"),
    # Issue 50: the outside audit's one-line bugs that no test saw, and the
    # session's own rules (the host's tiles, the TMA walk order).
    Mutation(
        name="host-refuses-for-size",
        function="hostTilesPastCache",
        old="  static constexpr int64_t kHostFallbackBlock = 16;",
        new="  static constexpr int64_t kHostFallbackBlock = 16;\n"
            "  result.error = noTileFits(shape, target, policy);\n"
            "  return result;",
        tests=["test/Transforms/TileSelection/host-never-refuses.mlir",
               "test/Sweep/every-head-dim.test"],
        description="the host refuses an op whose smallest tile exceeds its cache"),
    # Issue 31: operator-mutation survivors (scripts/mutate-operators.py,
    # seed 31) that were missing tests, with the tests that now kill them.
    Mutation(
        name="op31-backward-fused-traffic-unset",
        function="mlir::fa::evaluateBackwardTiling",
        old="""  costs.hbmBytesTiled = clampToInt64(
      double(batch) * double(heads) *
      (double(costs.visitedKVTiles) * perPair + once));""",
        new="""  (void)clampToInt64(
      double(batch) * double(heads) *
      (double(costs.visitedKVTiles) * perPair + once));""",
        tests=["unittests"],
        description="the backward cost model reports no HBM traffic for the fused kernel"),
    Mutation(
        name="op31-register-file-one-short",
        function="misfit",
        old="""      std::min(target.registersPerThread, target.registersPerSM / threads);""",
        new="""      std::min(target.registersPerThread, target.registersPerSM / threads - 1);""",
        tests=["unittests"],
        description="a tiling that uses exactly the whole register file is taken not to fit"),
    # Issue 50: survivors of the partial operator run over the code since
    # 4d6e4b0 (session 31, seed 50), with the tests that now kill them.
    Mutation(
        name="op50-warpgroup-tiles-warps",
        function="FASelectTilesPass::applyTestingAids",
        old="""      tiling.warps = tiling.blockQ / 16;""",
        new="""      tiling.warps = tiling.blockQ / 16 - 1;""",
        tests=["test/Transforms/TileSelection/max-block-kv.mlir"],
        description="the warpgroup-tiles option rounding a tile's rows without its warps"),
    Mutation(
        name="op50-min-kv-splits-met-reported-raised",
        function="FASelectTilesPass::applyTestingAids",
        old="""    if (minKVSplits > 0 && tiling.kvSplits < minKVSplits) {""",
        new="""    if (minKVSplits > 0 && tiling.kvSplits <= minKVSplits) {""",
        tests=["test/Transforms/TileSelection/kv-splits.mlir"],
        description="the min-kv-splits option reporting a raise where the choice already met it"),
    Mutation(
        name="op50-warpgroup-tiles-rounds-whole-warpgroups",
        function="FASelectTilesPass::applyTestingAids",
        old="""        (tiling.blockQ % 64 != 0 || tiling.warps * 16 != tiling.blockQ)) {""",
        new="""        (tiling.blockQ % 64 != 0 || tiling.warps * 16 == tiling.blockQ)) {""",
        tests=["test/Transforms/TileSelection/max-block-kv.mlir"],
        description="the warpgroup-tiles option rounding a tile that is already whole warpgroups of 16-row warps"),
]
