"""The mutations of the stage Reference (lib/Transforms/Reference).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation
from .tests import BACKWARD, MOD, SWEEP

MUTATIONS = [
    # Score and mask modifications (issue 33): the regions, sinks, the
    # tiles a mask_mod hides, and their recognition.
    Mutation(
        name="reference-sink-missing",
        function="DecomposeAttention::matchAndRewrite",
        old="""    auto [rowMax, probs, rowSum] =
        buildSoftmaxRows(b, loc, scores, op.getSinks());""",
        new="""    auto [rowMax, probs, rowSum] =
        buildSoftmaxRows(b, loc, scores, Value());""",
        tests=[MOD + "op-modifiers.mlir"],
        description="the reference ignores sinks (checked against the float64 oracle)"),
    # (Handing the first turn to the last warpgroup itself instead, barrier
    # 2 with two warpgroups, is no bug: its own arrive and wait complete
    # its barrier, and it goes first. The harness found that equivalent
    # mutant surviving, as it should.)
    Mutation(
        name="reference-causal-off-by-one",
        function="buildScores",
        old="""            score.require(cmp(arith::CmpIPredicate::sle, col,
                              diagonalPlus(offsetFor(*causal, causalOffset), 0)));""",
        new="""            score.require(cmp(arith::CmpIPredicate::slt, col,
                              diagonalPlus(offsetFor(*causal, causalOffset), 0)));""",
        tests=[SWEEP + "causal-top-left.mlir", SWEEP + "causal-bottom-right.mlir"],
        description="the reference lowering hides the causal diagonal"),
    # Per-sequence key lengths.
    Mutation(
        name="lengths-unclamped-reference",
        function="buildScores",
        old="""          sequenceKeys =
              sequenceKeyLength(em, args[mask ? 2 : 1], keyLenValue);""",
        new="""          sequenceKeys = arith::IndexCastOp::create(
              nb, nloc, nb.getIndexType(), args[mask ? 2 : 1]);""",
        tests=["test/Integration/kv-lengths.mlir"],
        description="the reference does not clamp a length to [0, Nk] (past Nk, its diagonal moves)"),
    # Packed sequences (session 10).
    Mutation(
        name="packed-reference-global-rows",
        function="buildScores",
        old="""          row = em.sub(row, bounds.queryStart);""",
        new="""          (void)bounds.queryStart;""",
        tests=["test/Integration/packed-sequences.mlir"],
        description="the reference counts query positions from the packed tensor's start"),
    # The backward pass (session 11).
    # dS = P (dP - D) is one builder (scoreGradient) for the tiled backward
    # and the reference: dropping D breaks both.
    Mutation(
        name="reference-bias-gradient-from-probs",
        function="DecomposeAttentionBackward::matchAndRewrite",
        old="""          b, loc, ValueRange{gradModified}, zeros(maskSizes),""",
        new="""          b, loc, ValueRange{probs}, zeros(maskSizes),""",
        tests=[BACKWARD + "sweep-bias-gradient.mlir"],
        description="the bias gradient sums P instead of dS"),
    # Issue 31: operator-mutation survivors (scripts/mutate-operators.py,
    # seed 31) that were missing tests, with the tests that now kill them.
    Mutation(
        name="op31-paged-gather-one-key-too-many",
        function="gatherPagedCache",
        old="""  OpFoldResult keys = b.getIndexAttr(tableType.getDimSize(1) *
                                     type.getDimSize(1));""",
        new="""  OpFoldResult keys = b.getIndexAttr(tableType.getDimSize(1) *
                                     type.getDimSize(1) + 1);""",
        tests=["test/Integration/paged-kv-cache.mlir"],
        description="the reference gathers a paged cache into M*S + 1 keys"),
    Mutation(
        name="op31-paged-gather-heads-from-head-dim",
        function="gatherPagedCache",
        old="""      tensor::getMixedSize(b, loc, cache, 2), keys,""",
        new="""      tensor::getMixedSize(b, loc, cache, 3), keys,""",
        tests=["test/Integration/paged-kv-cache.mlir"],
        description="the reference's paged gather takes its head count from the head dim"),
    Mutation(
        name="op31-backward-fill-mask-map-from-head-dim",
        function="DecomposeAttentionBackward::matchAndRewrite",
        old="""          queryType.getDimSize(2), op.getKey().getType().getDimSize(2)};
      gradInputs.push_back(op.getMask());""",
        new="""          queryType.getDimSize(3), op.getKey().getType().getDimSize(2)};
      gradInputs.push_back(op.getMask());""",
        tests=["test/Transforms/Reference/decompose-attention.mlir"],
        description="the reference backward broadcasts a filled mask by comparing it with the head dim"),
    Mutation(
        name="op31-reference-shows-key-at-length",
        function="buildScores",
        old="""              nb, nloc, arith::CmpIPredicate::slt, col, sequenceKeys));""",
        new="""              nb, nloc, arith::CmpIPredicate::sle, col, sequenceKeys));""",
        tests=["test/Integration/kv-lengths.mlir"],
        description="the reference shows key L_b of a sequence with kv_lengths (hidden only by a causal mask)"),
    Mutation(
        name="op31-reference-batch-from-heads",
        function="buildScores",
        old="""  SmallVector<int64_t> scoreShape = {
      queryType.getDimSize(0), queryType.getDimSize(1),""",
        new="""  SmallVector<int64_t> scoreShape = {
      queryType.getDimSize(1), queryType.getDimSize(1),""",
        tests=["test/Transforms/Reference/decompose-attention.mlir"],
        description="the reference decides a mask's batch broadcast by the head count"),
    # Issue 50: survivors of the partial operator run over the code since
    # 4d6e4b0 (session 31, seed 50), with the tests that now kill them.
    Mutation(
        name="op50-linear-reference-eps-subtracted",
        function="DecomposeLinearAttention::matchAndRewrite",
        old="""                arith::AddFOp::create(nb, nloc, args[1], epsValue);""",
        new="""                arith::SubFOp::create(nb, nloc, args[1], epsValue);""",
        tests=["test/Integration/LinearAttention/lowering.mlir"],
        description="the reference linear attention divides by Σ − ε instead of Σ + ε"),
]
