"""The mutations of the stage Pipelines (include/fa/Pipelines, lib/Pipelines).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation

MUTATIONS = [
    # The sampled sweep's seed 843: a halved tiling of 24 keys, which the
    # backward kernel refuses.
    Mutation(
        name="retile-halves-past-whole-tiles",
        function="mlir::fa::halvedTiling",
        old="""    return std::max<int64_t>(edge, size / 2 / edge * edge);""",
        new="""    return std::max<int64_t>(edge, size / 2);""",
        tests=["test/GPU/confirm-tiles-backward-whole-tiles.mlir", "unittests"],
        description="a spilled 16 x 48 retries at 16 x 24, which the backward kernel refuses: the pass keeps the spilling tiling"),
    # The operator sample's #200: one retile past max-retiles.
    Mutation(
        name="retile-once-past-max-retiles",
        function="ConfirmTilesWithPtxasPass::confirm",
        old="""        if (attempt >= maxRetiles || next)""",
        new="""        if (attempt > maxRetiles || next)""",
        tests=["test/GPU/confirm-tiles-max-retiles.mlir"],
        description="the pass assembles one lighter tiling more than max-retiles allows"),
    # Issue 53: a retiled decode step keeps its key splits.
    Mutation(
        name="retile-drops-key-splits",
        function="ConfirmTilesWithPtxasPass::confirm",
        old="""      if (split && !llvm::is_contained(spilledTilings, split->tiling))
        chosen = split;""",
        new="      (void)split;",
        tests=["test/GPU/confirm-tiles-keeps-splits.mlir",
               "test/GPU/confirm-tiles-with-ptxas.mlir"],
        description="a retiled decode step left without the key splits the lowered budget had no room for"),
    Mutation(
        name="retile-splits-not-halved",
        function="ConfirmTilesWithPtxasPass::confirm",
        old="        split = smaller(op, split->tiling, shape, target);",
        new="        split.reset();",
        tests=["test/GPU/confirm-tiles-keeps-splits.mlir"],
        description="a split tile that spilled given up for the same tile unsplit instead of halved with its splits"),
    # Issue 50: the outside audit's one-line bugs that no test saw, and the
    # session's own rules (the host's tiles, the TMA walk order).
    Mutation(
        name="confirm-never-retiles",
        function="ConfirmTilesWithPtxasPass::confirm",
        old="      if (assembled->spillBytes == 0) {",
        new="      if (assembled->spillBytes >= 0) {",
        tests=["test/GPU/confirm-tiles-with-ptxas.mlir", "test/Sweep/sweep.test"],
        description="fa-confirm-tiles-with-ptxas accepts a tiling whose kernels spill"),
    Mutation(
        name="confirm-overrides-users-tiling",
        function="ConfirmTilesWithPtxasPass::confirm",
        old="    bool ours = chosen && chosen->tiling == tilingOf(op);",
        new="    bool ours = true;",
        tests=["test/GPU/confirm-tiles-with-ptxas.mlir"],
        description="fa-confirm-tiles-with-ptxas retiles a tiling the user wrote"),
    Mutation(
        name="confirm-step-upward",
        function="ConfirmTilesWithPtxasPass::confirm",
        old="            std::min(budget.registersPerThread, estimated - step);",
        new="            std::min(budget.registersPerThread, estimated + step);",
        tests=["test/GPU/confirm-tiles-with-ptxas.mlir", "test/Sweep/sweep.test"],
        description="fa-confirm-tiles-with-ptxas asks for a heavier tiling after a spill"),
    Mutation(
        name="confirm-never-halves",
        function="ConfirmTilesWithPtxasPass::confirm",
        old="        next = smaller(op, tiling, shape, target);",
        new="        next = std::nullopt;",
        tests=["test/GPU/confirm-tiles-with-ptxas.mlir", "test/Sweep/sweep.test"],
        description="fa-confirm-tiles-with-ptxas gives up where the model has no lighter "
                    "tiling, though a smaller tile would assemble clean"),
    # Issue 50: survivors of the partial operator run over the code since
    # 4d6e4b0 (session 31, seed 50), with the tests that now kill them.
    Mutation(
        name="op50-ptxas-registers-least",
        function="mlir::fa::parsePtxasReport",
        old="""      result.registers = std::max(result.registers, value);""",
        new="""      result.registers = std::min(result.registers, value);""",
        tests=["unittests"],
        description="a trial's registers read from its lightest kernel, not its heaviest"),
    Mutation(
        name="op50-trial-index-bitwidth-dropped",
        function="mlir::fa::setTrialPipelineOptions",
        old="""  options.indexBitwidth = pass.indexBitwidth;
}""",
        new="""}""",
        tests=["unittests"],
        description="fa-confirm-tiles-with-ptxas assembles its trials with 64-bit indices whatever the pipeline's index-bitwidth"),
    Mutation(
        name="op50-halved-rows-inverted",
        function="mlir::fa::halvedTiling",
        old="""    halved.blockQ = half(tiling.blockQ);""",
        new="""    halved.blockQ = 2 / tiling.blockQ;""",
        tests=["unittests"],
        description="a spilled trial at 16 keys retries with 2 / block_q rows, not half"),
    Mutation(
        name="op50-cpu-pipeline-host-cache-dropped",
        function="mlir::fa::buildCPUPipeline",
        old="""    tiles.hostCacheBytes = options.hostCacheBytes;""",
        new="""""",
        tests=["test/Transforms/TileSelection/host-never-refuses.mlir"],
        description="fa-cpu-pipeline's host-cache-bytes not passed to fa-select-tiles (tiles for this machine's cache)"),
]
