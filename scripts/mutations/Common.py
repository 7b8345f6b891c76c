"""The mutations of the stage Common (lib/Transforms/Common).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation
from .tests import (
    BACKWARD, BACKWARD_CAUSAL, BACKWARD_SWEEP, DIFFERENTIAL, MOD,
    PACK_SWEEP, SPLIT_SWEEP, SWEEP)

MUTATIONS = [
    # Issue 53: the model learns of kv_lengths from the op.
    Mutation(
        name="shape-without-key-lengths",
        function="mlir::fa::describeAttentionShape",
        old="  shape.keyLengths = op.getKvLengths() != nullptr;\n",
        new="",
        tests=["test/Transforms/TileSelection/decode-wide-heads.mlir"],
        description="a d = 256 decode step with kv_lengths split where its masked block leaves no registers"),
    # Issue 50: the outside audit's one-line bugs that no test saw, and the
    # session's own rules (the host's tiles, the TMA walk order).
    Mutation(
        name="score-mod-quotient-sign",
        function="mlir::fa::differentiateScoreMod",
        old="              return div(add(x, neg(mul(out, y))), value(1));",
        new="              return div(add(x, mul(out, y)), value(1));",
        tests=["test/Integration/Modifiers/backward-modifiers.mlir",
               "test/Integration/Modifiers/backward-quotients.mlir"],
        description="the quotient rule's second term added: a score_mod dividing by a "
                    "score-dependent value gets the wrong gradient (the reference shares "
                    "the rule; the float64 oracle does not)"),
    Mutation(
        name="mask-mod-negative-factor-unswapped",
        function="IntervalEvaluator::evaluate",
        old="    return Abstract::integer(mul(x.hi, factor), mul(x.lo, factor));",
        new="    return Abstract::integer(mul(x.lo, factor), mul(x.hi, factor));",
        tests=["test/Sweep/mask-mods.test",
               "test/Integration/Modifiers/mask-mod-negative-factors.mlir",
               "test/Integration/Modifiers/mask-mod-negative-factors-f16.mlir"],
        description="an interval times a negative factor keeps its bounds unswapped: tiles "
                    "and key blocks with visible keys are skipped"),
    # Linear attention (issue 34): the chunked lowering's carried state and
    # the decay, checked against the reference and the float64 oracle.
    Mutation(
        name="linear-decay-dropped-everywhere",
        function="mlir::fa::causalWeight",
        old="    weight = arith::MulFOp::create(b, loc, weight,\n"
            "                                   decayPower(b, loc, gamma, distance));",
        new="    weight = weight;",
        tests=["test/Integration/LinearAttention/lowering.mlir"],
        description="the decay dropped from the weights in the reference and the lowering alike (only the float64 oracle tells)"),
    # Score and mask modifications (issue 33): the regions, sinks, the
    # tiles a mask_mod hides, and their recognition.
    Mutation(
        name="score-mod-not-applied",
        function="mlir::fa::applyScoreModifiers",
        old="""  if (Block *scoreMod = op.getScoreModBlock())
    score.modifyScore(""",
        new="""  if (Block *scoreMod = nullptr)
    score.modifyScore(""",
        tests=[MOD + "op-modifiers.mlir"],
        description="score_mod never applied (every lowering, the reference too)"),
    Mutation(
        name="mask-mod-not-applied",
        function="mlir::fa::applyScoreModifiers",
        old="  if (maskMod && withMaskMod)",
        new="  if (maskMod && !withMaskMod)",
        tests=[MOD + "op-modifiers.mlir", MOD + "mask-mod-tiles.mlir"],
        description="mask_mod applied only where a tile is proved whole, never where it is needed"),
    Mutation(
        name="interval-sub-same-ends",
        function="IntervalEvaluator::evaluate",
        old="    return Abstract::integer(sub(x.lo, y.hi), sub(x.hi, y.lo));",
        new="    return Abstract::integer(sub(x.lo, y.lo), sub(x.hi, y.hi));",
        tests=["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
        description="x - y bounded by lo - lo and hi - hi: an interval too narrow, so tiles "
                    "with visible keys are skipped or hidden keys taken as visible"),
    Mutation(
        name="interval-min-too-narrow",
        function="IntervalEvaluator::evaluate",
        old="      return Abstract::integer(min(x.lo, y.lo), min(x.hi, y.hi));",
        new="      return Abstract::integer(max(x.lo, y.lo), min(x.hi, y.hi));",
        tests=["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
        description="min(x, y)'s lower bound taken as the larger of the two"),
    Mutation(
        name="interval-select-first-arm",
        function="IntervalEvaluator::evaluate",
        old="      return Abstract::integer(min(x.lo, y.lo), max(x.hi, y.hi));",
        new="      return Abstract::integer(x.lo, x.hi);",
        tests=["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
        description="an integer select bounded by its first arm alone"),
    Mutation(
        name="interval-not-unswapped",
        function="IntervalEvaluator::evaluate",
        old="        return Abstract::truth(value.canFalse, value.canTrue);",
        new="        return Abstract::truth(value.canTrue, value.canFalse);",
        tests=["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
        description="a negation (xor with true) keeps its operand's truth"),
    Mutation(
        name="mask-mod-whole-when-overlapping",
        function="IntervalEvaluator::compare",
        old="    Bound unequal = negate(single);",
        new="    Bound unequal = known(0);",
        tests=["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir", MOD + "op-modifiers.mlir"],
        description="an equality on intervals is taken as never false: overlapping document ranges count as whole, so hidden keys stay visible"),
    Mutation(
        name="mask-mod-walk-drops-last-block",
        function="mlir::fa::narrowWalk",
        old="        Value newEnd = arith::SelectOp::create(lb, lloc, seen, stop, bounds[1]);",
        new="        Value newEnd = arith::SelectOp::create(lb, lloc, seen, start, bounds[1]);",
        tests=["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir", MOD + "kernels-f16.mlir", MOD + "backward-kernels-f16.mlir"],
        description="a GPU kernel's narrowed walk ends before the last key (or query) block the mask_mod shows"),
    # The backward of score modifications (issue 33): the derivative of the
    # score_mod, dSinks, and training graphs raised with them.
    Mutation(
        name="backward-tanh-derivative-linear",
        function="mlir::fa::differentiateScoreMod",
        old="""              return mul(x, arith::SubFOp::create(b, loc, constant(1.0),
                                                  mul(out, out)));""",
        new="""              return mul(x, arith::SubFOp::create(b, loc, constant(1.0),
                                                  out));""",
        tests=[MOD + "backward-modifiers.mlir", MOD + "backward-kernels-f16.mlir"],
        description="tanh's derivative taken as 1 - t instead of 1 - t^2 (every lowering)"),
    # (Handing the first turn to the last warpgroup itself instead, barrier
    # 2 with two warpgroups, is no bug: its own arrive and wait complete
    # its barrier, and it goes first. The harness found that equivalent
    # mutant surviving, as it should.)
    Mutation(
        name="causal-diagonal-off-by-one",
        function="mlir::fa::AttentionGeometry::requireDiagonalBand",
        old="    score.require(m.le(col, m.add(row, causalOffset)));",
        new="    score.require(m.lt(col, m.add(row, causalOffset)));",
        tests=[SWEEP + "causal-top-left.mlir", SWEEP + "causal-bottom-right.mlir",
               "test/Integration/position-masks.mlir"] + BACKWARD_CAUSAL,
        description="the causal mask hides the diagonal itself (tiled, forward and backward)"),
    Mutation(
        name="window-left-off-by-one",
        function="mlir::fa::AttentionGeometry::requireDiagonalBand",
        old="score.require(m.le(m.addConstant(diagonal, -window.getLeft()), col));",
        new="score.require(m.le(m.addConstant(diagonal, -window.getLeft() + 1), col));",
        tests=[SWEEP + "window.mlir", SWEEP + "window-causal.mlir",
               "test/Integration/position-masks.mlir",
               BACKWARD + "sweep-window.mlir", BACKWARD + "sweep-window-last-row-starts-block.mlir"],
        description="the window's left bound is one key short (tiled, forward and backward)"),
    Mutation(
        name="window-right-off-by-one",
        function="mlir::fa::AttentionGeometry::requireDiagonalBand",
        old="score.require(m.le(col, m.addConstant(diagonal, window.getRight())));",
        new="score.require(m.le(col, m.addConstant(diagonal, window.getRight() + 1)));",
        tests=[SWEEP + "window.mlir", SWEEP + "window-causal.mlir",
               "test/Integration/position-masks.mlir",
               BACKWARD + "sweep-window.mlir", BACKWARD + "sweep-window-last-row-starts-block.mlir"],
        description="the window's right bound is one key too far (tiled, forward and backward)"),
    Mutation(
        name="crossing-block-unmasked",
        function="mlir::fa::AttentionGeometry::tileCrossesMaskBoundary",
        old="""    Value diagonal = math.add(row0, causalOffset);
    Value crosses = math.gt(lastCol, diagonal);""",
        new="""    Value diagonal = math.add(row0, causalOffset);
    Value crosses = math.gt(lastCol, math.addConstant(diagonal, 1));""",
        tests=[SWEEP + "causal-top-left.mlir", SWEEP + "causal-bottom-right.mlir",
               SWEEP + "causal-bf16.mlir", SWEEP + "causal-diagonal-at-block-end.mlir"] +
              BACKWARD_CAUSAL,
        description="a key block the diagonal crosses by one key skips the element mask (forward and backward share the test)"),
    Mutation(
        name="causal-block-skipped-early",
        function="mlir::fa::AttentionGeometry::visibleKeys",
        old="""    Value diagonal = math.add(lastRow, causalOffset);
    Value end = math.addConstant(diagonal, 1);""",
        new="""    Value diagonal = math.add(lastRow, causalOffset);
    Value end = diagonal;""",
        tests=[SWEEP + "causal-top-left.mlir", SWEEP + "causal-bottom-right.mlir",
               SWEEP + "kernel-stages2.mlir", SWEEP + "causal-last-key-starts-block.mlir"],
        description="the last visible key of a causal query block is never loaded"),
    Mutation(
        name="window-block-skipped-late",
        function="mlir::fa::AttentionGeometry::visibleKeys",
        old="  Value firstBlock = math.floorDiv(keyBegin, blockKVValue);",
        new="  Value firstBlock = math.floorDiv(math.addConstant(keyBegin, blockKV - 1), blockKVValue);",
        tests=[SWEEP + "window.mlir", SWEEP + "window-causal.mlir",
               SWEEP + "kernel-stages3-gqa.mlir"],
        description="the first key block of a window starts one block late"),
    Mutation(
        name="tail-block-unmasked",
        function="mlir::fa::AttentionGeometry::requireTileElement",
        old="score.require(m.lt(localCol, validCols)); // padded keys",
        new="// the padded keys are not masked",
        tests=[SWEEP + "n7-tail.mlir", SWEEP + "n127-nq-ne-nk.mlir"],
        description="the padded keys of the last, partial key block are visible"),
    Mutation(
        name="scale-applied-twice",
        function="mlir::fa::MaskedScore::MaskedScore",
        old="        score(scale ? arith::MulFOp::create(b, loc, raw, scale).getResult()",
        new="        score(scale ? arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, raw, scale), scale).getResult()",
        tests=["test/Integration/worked-example.mlir", "test/Integration/raise-linalg.mlir",
               SWEEP + "n7-tail.mlir"],
        description="the scale multiplies the scores twice (reference and tiled alike)"),
    Mutation(
        name="empty-row-nan",
        function="mlir::fa::normalizeRow",
        old="  Value result = arith::SelectOp::create(b, loc, isEmpty, zero, quotient);",
        new="  Value result = quotient;",
        tests=[SWEEP + "window-empty-rows.mlir", SWEEP + "keep-mask-full.mlir",
               "test/Integration/explicit-masks.mlir"],
        description="a row with no visible key gives 0/0 = NaN instead of 0"),
    # Split keys (kv_splits): the runs, the merge on the host and the merge
    # kernel.
    Mutation(
        name="split-runs-overlap",
        function="mlir::fa::splitVisibleKeys",
        old="  Value offset = math.mul(split, runKeys);",
        new="  Value offset = math.mul(split, math.sub(runKeys, blockKVValue));",
        tests=SPLIT_SWEEP + [DIFFERENTIAL],
        description="each key split starts one key block early, so neighbouring runs overlap"),
    Mutation(
        name="split-last-key-dropped",
        function="mlir::fa::splitVisibleKeys",
        old="  return {start, math.min(visible.keyEnd, runEnd)};",
        new="  return {start, math.min(math.addConstant(visible.keyEnd, -1), runEnd)};",
        tests=SPLIT_SWEEP + [DIFFERENTIAL],
        description="the last visible key is in no split"),
    Mutation(
        name="pack-heads-interleaved",
        function="packRows",
        old="""  SmallVector<int64_t> expandedShape = {type.getDimSize(0), keyHeads, group};
  SmallVector<OpFoldResult> expandedSizes = {sizes[0], b.getIndexAttr(keyHeads),
                                             b.getIndexAttr(group)};""",
        new="""  SmallVector<int64_t> expandedShape = {type.getDimSize(0), group, keyHeads};
  SmallVector<OpFoldResult> expandedSizes = {sizes[0], b.getIndexAttr(group),
                                             b.getIndexAttr(keyHeads)};""",
        tests=PACK_SWEEP,
        description="packing groups query heads h, h + Hkv, ... instead of the G heads that share a key/value head"),
    Mutation(
        name="pack-causal-rows",
        function="mlir::fa::whyNotPackable",
        old="      causal && !(singleRow && *causal == DiagonalAlignment::bottom_right))",
        new="      causal && !(*causal == DiagonalAlignment::bottom_right))",
        tests=["test/Transforms/TileSelection/pack-gqa-errors.mlir"],
        description="a bottom-right causal mask over several query rows is packed (and dropped)"),
    # Paged KV caches (session 10).
    Mutation(
        name="paged-first-page-only",
        function="mlir::fa::pagedSlot",
        old="""  Value entry = math.divU(row, slots);""",
        new="""  Value entry = math.constant(0);""",
        tests=["test/Integration/paged-kv-cache.mlir"],
        description="every key row is read from its sequence's first page"),
    # The backward pass (session 11).
    # dS = P (dP - D) is one builder (scoreGradient) for the tiled backward
    # and the reference: dropping D breaks both.
    Mutation(
        name="backward-no-softmax-correction",
        function="mlir::fa::scoreGradient",
        old="""  Value centered = arith::SubFOp::create(b, loc, gradProb, rowTerm);""",
        new="""  Value centered = gradProb;""",
        tests=BACKWARD_SWEEP[:4] + [BACKWARD + "joint-graph.mlir", BACKWARD + "sweep-n7-tail.mlir"],
        description="the tiled and the reference backward drop D from dS = P (dP - D)"),
    Mutation(
        name="backward-causal-rows-from-block-end",
        function="mlir::fa::AttentionGeometry::visibleQueries",
        old="""    rowBegin = math.max(rowBegin, math.sub(col0, causalOffset));""",
        new="""    rowBegin = math.max(rowBegin, math.sub(lastCol, causalOffset));""",
        tests=BACKWARD_CAUSAL,
        description="the dK/dV pass starts at the rows that see the key block's last key, skipping rows that see only its first keys"),
    Mutation(
        name="backward-window-rows-end",
        function="mlir::fa::AttentionGeometry::visibleQueries",
        old="""    Value end = math.addConstant(lastDiagonal, window.getLeft() + 1);""",
        new="""    Value end = math.addConstant(lastDiagonal, window.getLeft());""",
        tests=[BACKWARD + "sweep-window.mlir", BACKWARD + "sweep-window-causal-bottom-right.mlir",
               BACKWARD + "sweep-window-last-row-starts-block.mlir"],
        description="the dK/dV pass stops one query row before the last that sees the key block through the window"),
    Mutation(
        name="backward-bias-gradient-rows-unskipped-wrongly",
        function="mlir::fa::AttentionGeometry::visibleQueries",
        old="""    rowBegin = math.max(rowBegin, begin);""",
        new="""    rowBegin = math.max(rowBegin, math.addConstant(begin, 1));""",
        tests=[BACKWARD + "sweep-window.mlir", BACKWARD + "sweep-window-last-row-starts-block.mlir",
               BACKWARD + "sweep-bias-gradient-full-window-f16.mlir"],
        description="the dK/dV pass (and the bias gradient's row walk) starts one row after the first that sees the key block through the window"),
    # Issue 29: the frontends' default spellings.
    Mutation(
        name="mask-fill-ignored",
        function="mlir::fa::MaskedScore::addMask",
        old="""    else if (std::isinf(hiddenScore) && hiddenScore < 0)
      require(element);""",
        new="""    else if (true)
      require(element);""",
        tests=["test/Integration/raise-finite-fills.mlir"],
        description="mask_fill is ignored: hidden keys become -inf in every lowering"),
    # Issue 31: two bugs an outside audit wrote that no test caught.
    Mutation(
        name="pack-gqa-top-left-single-row",
        function="mlir::fa::whyNotPackable",
        old="""      causal && !(singleRow && *causal == DiagonalAlignment::bottom_right))""",
        new="""      causal && !singleRow)""",
        tests=["test/Integration/pack-gqa-decode-alignments.mlir",
               "test/Integration/pack-gqa-decode-few-keys.mlir"],
        description="a one-row decode under a top-left causal mask is packed: packed rows see keys past key 0"),
    # Issue 31: operator-mutation survivors (scripts/mutate-operators.py,
    # seed 31) that were missing tests, with the tests that now kill them.
    Mutation(
        name="op31-packing-builds-at-the-callers-point",
        function="mlir::fa::packQueryGroups",
        old="""  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  int64_t keyHeads = op.getKeyHeads();""",
        new="""  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  int64_t keyHeads = op.getKeyHeads();""",
        tests=["unittests"],
        description="packQueryGroups builds its reshapes wherever the caller's builder points"),
    # Issue 50: survivors of the partial operator run over the code since
    # 4d6e4b0 (session 31, seed 50), with the tests that now kill them.
    Mutation(
        name="op50-min-interval-upper-bound-widened",
        function="IntervalEvaluator::evaluate",
        old="""      return Abstract::integer(min(x.lo, y.lo), min(x.hi, y.hi));""",
        new="""      return Abstract::integer(min(x.lo, y.lo), max(x.hi, y.hi));""",
        tests=["unittests"],
        description="the interval of min(x, y) bounded above by the larger operand's bound (a tile no key of which is visible is visited)"),
    Mutation(
        name="op50-select-interval-refused",
        function="IntervalEvaluator::evaluate",
        old="""    if (c.kind != Abstract::Kind::Bool)""",
        new="""    if (c.kind == Abstract::Kind::Bool)""",
        tests=["unittests"],
        description="a select on a boolean condition in a mask_mod given no interval"),
]
