"""The mutations of the stage Tiling (include/fa/Transforms/Tiling, lib/Transforms/Tiling).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation
from .tests import (
    BACKWARD, BACKWARD_SWEEP, DIFFERENTIAL, MOD, MULTI_BLOCK, SPLIT_SWEEP,
    SWEEP, multi_block_sweep)

MUTATIONS = [
    # Linear attention (issue 34): the chunked lowering's carried state and
    # the decay, checked against the reference and the float64 oracle.
    Mutation(
        name="linear-carry-one-power-short",
        function="LinearLowering::lowerChunked",
        old="""              Value since = arith::AddIOp::create(
                  nb, nloc, i, arith::ConstantIndexOp::create(nb, nloc, 1));""",
        new="""              Value since = arith::AddIOp::create(
                  nb, nloc, i, arith::ConstantIndexOp::create(nb, nloc, 0));""",
        tests=["test/Integration/LinearAttention/lowering.mlir"],
        description="the state carried into a chunk weighed by gamma^i instead of gamma^(i + 1)"),
    Mutation(
        name="linear-state-not-decayed",
        function="LinearLowering::lowerChunked",
        old="                return arith::MulFOp::create(nb, nloc, args[1],\n"
            "                                             power(nb, nloc, args[0], rows));",
        new="                return args[1];",
        tests=["test/Integration/LinearAttention/lowering.mlir"],
        description="the carried state not decayed by gamma^C between chunks"),
    Mutation(
        name="linear-denominator-unscaled",
        function="LinearLowering::lowerWhole",
        old="                              arith::MulFOp::create(nb, nloc, args[1], s));",
        new="                              args[1]);",
        tests=["test/Integration/LinearAttention/lowering.mlir"],
        description="the non-causal normalizer Q z without the scale"),
    # Score and mask modifications (issue 33): the regions, sinks, the
    # tiles a mask_mod hides, and their recognition.
    Mutation(
        name="tiled-sink-missing-from-sum",
        function="TileAttentionLowering::computeRows",
        old="""    initSum = linalg::FillOp::create(b, loc, ValueRange{sinkTerm},""",
        new="""    initSum = linalg::FillOp::create(b, loc, ValueRange{shifted},""",
        tests=[MOD + "op-modifiers.mlir"],
        description="tiled lowering: the sum starts at s - m instead of e^(s - m)"),
    Mutation(
        name="tiled-sink-in-every-split",
        function="TileAttentionLowering::computeRows",
        old="      Value first = math.eq(split, zeroIndex);",
        new="      Value first = math.eq(zeroIndex, zeroIndex);",
        tests=[MOD + "op-modifiers.mlir"],
        description="split-KV: every split counts the sink, so the merge counts it S times"),
    Mutation(
        name="mask-mod-interval-off-by-one-block",
        function="TileAttentionLowering::computeRows",
        old="          Value lastCol = lm.addConstant(lm.add(col0, cols), -1);",
        new="          Value lastCol = lm.addConstant(col0, 0);",
        tests=["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
        description="the tile test reads only the block's first key: a tile whose later keys are visible is skipped"),
    Mutation(
        name="mask-mod-skip-ignored",
        function="TileAttentionLowering::computeRows",
        old="        if (!someVisible) {",
        new="        if (someVisible) {",
        tests=[MOD + "mask-mod-tiles.mlir"],
        description="tiles a mask_mod hides are visited anyway (only the NaN test tells: the numbers are the same)"),
    # The backward of score modifications (issue 33): the derivative of the
    # score_mod, dSinks, and training graphs raised with them.
    Mutation(
        name="backward-slope-not-applied-tiled",
        function="BackwardLowering::recompute",
        old="    return {probs, gradScores, gradModified};",
        new="    return {probs, gradModified, gradModified};",
        tests=[MOD + "backward-modifiers.mlir"],
        description="the tiled backward forgets f'(s): dS = dT"),
    Mutation(
        name="backward-bias-gradient-after-slope",
        function="BackwardLowering::gradBias",
        old="                                  .gradModified;\n                          // acc += dT",
        new="                                  .gradScores;\n                          // acc += dT",
        tests=[MOD + "backward-modifiers.mlir"],
        description="the tiled dBias takes dS (after the score_mod's derivative) instead of dT"),
    Mutation(
        name="sink-gradient-sign-tiled",
        function="BackwardLowering::gradSinks",
        old="        return arith::SubFOp::create(nb, nloc, args[2], product);\n      });\n  Type elementType = sinksType.getElementType();",
        new="        return arith::AddFOp::create(nb, nloc, args[2], product);\n      });\n  Type elementType = sinksType.getElementType();",
        tests=[MOD + "backward-modifiers.mlir"],
        description="the tiled dSinks adds P_sink D instead of subtracting it"),
    Mutation(
        name="backward-mask-mod-tile-whole",
        function="BackwardLowering::recompute",
        old="    Value partial = allVisible ? lm.notI(allVisible) : lm.trueValue();",
        new="    Value partial = allVisible ? allVisible : lm.trueValue();",
        tests=[MOD + "backward-mask-mod-tiles.mlir"],
        description="the tiled backward skips the mask_mod's element test on tiles it shows in part"),
    # (Handing the first turn to the last warpgroup itself instead, barrier
    # 2 with two warpgroups, is no bug: its own arrive and wait complete
    # its barrier, and it goes first. The harness found that equivalent
    # mutant surviving, as it should.)
    Mutation(
        name="no-rescale",
        function="TileAttentionLowering::onlineSoftmaxStep",
        old="""oldAcc, {row2, id2}, {par, par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              return arith::MulFOp::create(nb, nloc, args[0], args[1]);""",
        new="""oldAcc, {row2, id2}, {par, par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              return args[1];""",
        tests=multi_block_sweep() + [DIFFERENTIAL, "test/Integration/explicit-masks.mlir",
                                     "test/Integration/position-masks.mlir",
                                     "test/Integration/grouped-heads.mlir"],
        description="the accumulator is not rescaled by alpha (tiled)"),
    Mutation(
        name="sum-not-rescaled",
        function="TileAttentionLowering::onlineSoftmaxStep",
        old="""ValueRange{alpha}, oldSum, {id1, id1}, {par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              return arith::MulFOp::create(nb, nloc, args[0], args[1]);""",
        new="""ValueRange{alpha}, oldSum, {id1, id1}, {par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              return args[1];""",
        tests=MULTI_BLOCK,
        description="the row sum is not rescaled by alpha (tiled)"),
    Mutation(
        name="max-not-updated",
        function="TileAttentionLowering::onlineSoftmaxStep",
        old="""        Value maxState =
            linalg::CopyOp::create(lb, lloc, newMax, oldMax).getResult(0);""",
        new="""        Value maxState = oldMax;""",
        tests=MULTI_BLOCK,
        description="the running max is never written back (tiled)"),
    Mutation(
        name="gqa-head-mapping",
        function="TileAttentionLowering::buildQueryBlock",
        old="""  if (rowStart)
    emptyPastLastRow(math, rows, keyLen);
  Value kvHead = math.divU(head, groupSize);""",
        new="""  if (rowStart)
    emptyPastLastRow(math, rows, keyLen);
  Value kvHead = math.remU(head, groupSize);""",
        tests=[SWEEP + "gqa.mlir", SWEEP + "mqa-f16.mlir",
               "test/Integration/grouped-heads.mlir"],
        description="query head h reads K/V head h mod G instead of h / G (tiled)"),
    Mutation(
        name="lse-without-max",
        function="TileAttentionLowering::computeRows",
        old="""          return arith::AddFOp::create(nb, nloc, safeRowMax(nb, nloc, args[0]),
                                       logSum);""",
        new="""          return logSum;""",
        tests=[SWEEP + "decode.mlir", SWEEP + "n7-tail.mlir", SWEEP + "f16-d64.mlir"],
        description="the logsumexp forgets the row max (tiled)"),
    # Split keys (kv_splits): the runs, the merge on the host and the merge
    # kernel.
    Mutation(
        name="merge-unweighted",
        function="TileAttentionLowering::mergeSplits",
        old="        Value term = arith::MulFOp::create(nb, nloc, w, args[0]);",
        new="        Value term = args[0];",
        tests=SPLIT_SWEEP + [DIFFERENTIAL],
        description="the host merge adds the splits' outputs without their weights"),
    # Per-sequence key lengths.
    Mutation(
        name="lengths-ignored-tiled",
        function="TileAttentionLowering::buildQueryBlock",
        old="""    Value length = tensor::ExtractOp::create(b, loc, lengths, batch);
    applySequenceLength(math, geometry, length, queryLen, keyLen);""",
        new="""    Value length = tensor::ExtractOp::create(b, loc, lengths, batch);
    (void)length;""",
        tests=["test/Integration/kv-lengths.mlir"],
        description="the tiled path ignores kv_lengths"),
    # Paged KV caches (session 10).
    Mutation(
        name="paged-tile-head-as-sequence",
        function="loadPagedTile",
        old="""               auto [page, slot] = pagedSlot(m, cache, pageTable, batch, row);""",
        new="""               auto [page, slot] = pagedSlot(m, cache, pageTable, kvHead, row);""",
        tests=["test/Integration/paged-kv-cache.mlir"],
        description="the tiled path reads the page table's row of the key/value head, not of the sequence"),
    # Packed sequences (session 10).
    Mutation(
        name="packed-diagonal-from-totals",
        function="TileAttentionLowering::buildQueryBlock",
        old="""    applyPackedSequence(math, geometry, sequence, queryLen, keyLen);
    batch = zeroIndex;""",
        new="""    queryLen = sequence.queryLen;
    keyLen = sequence.keyLen;
    batch = zeroIndex;""",
        tests=["test/Integration/packed-sequences.mlir"],
        description="the tiled path aligns a packed sequence's diagonals to the packed totals"),
    # The backward pass (session 11).
    # dS = P (dP - D) is one builder (scoreGradient) for the tiled backward
    # and the reference: dropping D breaks both.
    Mutation(
        name="backward-correction-from-grad-output",
        function="BackwardLowering::computeRowCorrection",
        old="""      b, loc, ValueRange{op.getGradOutput(), op.getOutput()},""",
        new="""      b, loc, ValueRange{op.getGradOutput(), op.getGradOutput()},""",
        tests=BACKWARD_SWEEP[:4],
        description="D = rowsum(dO * dO) instead of rowsum(dO * O)"),
    Mutation(
        name="backward-first-head-of-group",
        function="BackwardLowering::gradKeysAndValues",
        old="""      b, loc, zero, groupSize, one,""",
        new="""      b, loc, zero, one, one,""",
        tests=[BACKWARD + "sweep-gqa-causal.mlir", BACKWARD + "sweep-bias-gqa.mlir",
               BACKWARD + "sweep-mqa-bias-f16.mlir"],
        description="dK and dV of a key/value head sum only its group's first query head"),
    Mutation(
        name="backward-dk-unscaled",
        function="BackwardLowering::gradKeysAndValues",
        old="""  Value gradKeyTile = finish(b, loc, headLoop.getResult(0), /*scaled=*/true);""",
        new="""  Value gradKeyTile = finish(b, loc, headLoop.getResult(0), /*scaled=*/false);""",
        tests=BACKWARD_SWEEP[:4],
        description="dK misses the scale"),
    Mutation(
        name="backward-dq-keys-transposed",
        function="BackwardLowering::gradQueries",
        old="""              return {multiplyAccumulate(vb, vloc, gradScores, keyTile,
                                         state[0], false)};""",
        new="""              return {multiplyAccumulate(vb, vloc, gradScores, keyTile,
                                         state[0], true)};""",
        tests=BACKWARD_SWEEP[:4],
        description="dQ += dS^T K instead of dS K (same shapes when the tiles are square)"),
    Mutation(
        name="backward-bias-gradient-first-batch",
        function="BackwardLowering::gradBias",
        old="""    if (broadcast)
      return {zero, size};""",
        new="""    if (broadcast)
      return {zero, one};""",
        tests=[BACKWARD + "sweep-bias-gradient.mlir",
               BACKWARD + "sweep-bias-gradient-key-padding-causal.mlir",
               BACKWARD + "sweep-bias-gradient-per-row.mlir"],
        description="the tiled bias gradient sums only the first batch entry and head of those the bias broadcasts over"),
    # Issue 29: the frontends' default spellings.
    Mutation(
        name="backward-fill-gradient-kept",
        function="BackwardLowering::recompute",
        old="""  bool filled = maskTile && op.getMaskFillAttr();""",
        new="""  bool filled = false;""",
        tests=["test/Integration/Backward/raise-joint-graph-finite-fills.mlir"],
        description="the tiled backward gives a filled key's constant score a gradient"),
    # Issue 31: two bugs an outside audit wrote that no test caught.
    Mutation(
        name="merge-max-starts-at-zero",
        function="TileAttentionLowering::mergeSplits",
        old="""      createFilled(b, loc, rowSizes, f32, negInf), {lseBySplit, rowOf4},""",
        new="""      createFilled(b, loc, rowSizes, f32, zero), {lseBySplit, rowOf4},""",
        tests=[SWEEP + "splits3-far-bias.mlir", SWEEP + "kernel-mma-far-bias-splits4.mlir"],
        description="the split-KV merge's max starts at 0: rows whose partial logsumexps are all below -88 merge to 0"),
    # Issue 31: operator-mutation survivors (scripts/mutate-operators.py,
    # seed 31) that were missing tests, with the tests that now kill them.
    Mutation(
        name="op31-bias-gradient-batch-range-from-heads",
        function="BackwardLowering::gradBias",
        old="""      range(maskBroadcast[0], gridB, math.dim(query, 0));""",
        new="""      range(maskBroadcast[0], gridB, math.dim(query, 1));""",
        tests=[BACKWARD + "sweep-bias-gradient-batch-broadcast-b3.mlir"],
        description="the tiled backward sums a batch-broadcast bias gradient over H batches, not B"),
    Mutation(
        name="op31-logsumexp-for-one-split",
        function="TileAttentionLowering::wantsLogsumexp",
        old="""  bool wantsLogsumexp() { return op.getLogsumexp() || kvSplits > 1; }""",
        new="""  bool wantsLogsumexp() { return op.getLogsumexp() || kvSplits >= 1; }""",
        tests=["test/Transforms/Tiling/TileAttention/logsumexp-only-when-needed.mlir"],
        description="the tiled forward computes a logsumexp nobody reads when the keys are not split"),
]
