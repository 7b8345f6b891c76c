#!/usr/bin/env python3
"""Mutation harness: does the test suite catch semantic bugs in the
lowerings and the recognizer?

Each entry of MUTATIONS is one plausible bug, written as a text
substitution, and the named lit tests expected to catch it. The text to
replace is looked up in every source file under lib/ and include/, with any
run of whitespace matching any other, and must occur exactly once in all of
them: no entry names a file, so moving code between files, re-indenting it
or renaming a folder leaves the catalogue intact, and a refactor that does
change a mutated line fails `--check`, which the test suite runs
(test/Tools/mutation-catalogue.test). For each mutation the harness copies
the pristine file into a private copy of the tree, applies the substitution,
rebuilds fa-opt (and the unit tests) incrementally, runs the named tests,
and restores the file. A mutation is caught when at least one named test
fails; the table lists which did.

  scripts/mutate.py                  # every mutation; the first run builds
  scripts/mutate.py --only no-rescale,missing-barrier
  scripts/mutate.py --check          # only that every substitution applies
                                     # once and every named test exists

The copy lives in build-mutate/ (src/ and build/), never in the working
tree, so an interrupted run leaves the tree as it was. Too slow for CI on
two cores (about a minute per mutation once built); docs/Robustness.md
keeps the latest table. Exit status 1 when a mutation survives.
"""
import argparse
import os
import sys
import time

import mutation_harness as harness
# Other scripts reach the shared parts through this one.
from mutation_harness import ROOT, failures_by_cause, prepare, run  # noqa: F401

NARROW_TESTS = ["test/Transforms/GPU/narrow-kernel-indices.mlir",
                "test/GPU/index-bitwidth.mlir"]
JOINT_TESTS = ["test/Transforms/RaiseAttention/joint-graphs.mlir",
               "test/Integration/Backward/raise-joint-graphs.mlir",
               "test/Integration/Backward/raise-joint-graph-masks.mlir",
               "test/Differential/random-joint-graphs.test"]

SWEEP = "test/Integration/Tiling/sweep-"
DIFFERENTIAL = "test/Differential/random-programs.test"
SPLIT_SWEEP = [SWEEP + n + ".mlir" for n in
               ("splits2-decode-mqa", "splits4-nq4-gqa8", "splits7-nq16-causal",
                "splits3-window-empty-rows", "splits2-dynamic",
                "kernel-mma-splits4-gqa4-causal", "kernel-mma-decode-gqa8-splits7")]
PACK_SWEEP = [SWEEP + n + ".mlir" for n in
              ("pack-gqa-decode-causal", "pack-gqa-nq4-bias-splits3",
               "kernel-mma-pack-gqa-splits5")]
BACKWARD = "test/Integration/Backward/"
BACKWARD_SWEEP = [BACKWARD + "sweep-" + n + ".mlir" for n in
                  ("n7-tail", "nq-ne-nk-dv", "tiles-divide-f16", "causal-top-left",
                   "causal-bottom-right-empty-rows", "window",
                   "window-causal-bottom-right", "keep-mask-empty-row-f16",
                   "bias-gqa", "gqa-causal", "mqa-bias-f16", "bf16-causal",
                   "n1000-tails", "bias-gradient", "window-last-row-starts-block",
                   "causal-diagonal-at-block-end")]
BACKWARD_CAUSAL = [BACKWARD + "sweep-" + n + ".mlir" for n in
                   ("causal-top-left", "causal-bottom-right-empty-rows",
                    "causal-diagonal-at-block-end",
                    "window-causal-bottom-right", "gqa-causal", "bf16-causal")]
# Every case of the backward GPU kernels (emulated threads, sm_80).
GPU_BACKWARD = [BACKWARD + "gpu-kernel-" + n + ".mlir" for n in
                ("causal-two-fragment-rows-f16", "tails-dv-bf16",
                 "gqa-window-cp-async-f16", "keep-mask-empty-rows-f16",
                 "mqa-bias-causal-top-left-bf16", "causal-empty-rows-f16",
                 "d128-four-warps-f16", "padded-rows-far-scores")]
GPU_BACKWARD_ASYNC = [GPU_BACKWARD[i] for i in (2, 3, 4, 6)]
GPU_BIAS_GRADIENT = [BACKWARD + "gpu-kernel-" + n + ".mlir" for n in
                     ("bias-gradient-batch-broadcast-gqa-f16",
                      "bias-gradient-head-broadcast-window-bf16")]
MULTI_BLOCK = [SWEEP + n + ".mlir" for n in
               ("decode", "n7-tail", "n127-nq-ne-nk", "f16-d64", "n64-divides",
                "bf16-d128", "gqa", "additive-bias")]


def multi_block_sweep(kernel=None):
    """Every sweep case in which some row sees more than one key block (its
    "// Inputs:" line says so), optionally only those whose GPU kernel is
    the tensor-core one (kernel="mma") or the FMA one (kernel="fma")."""
    folder = os.path.join(ROOT, "test", "Integration", "Tiling")
    cases = []
    for name in sorted(os.listdir(folder)):
        if not name.startswith("sweep-"):
            continue
        text = open(os.path.join(folder, name)).read()
        if "no row sees more than one key block" in text:
            continue
        mma = "--check-prefix=MMA" in text
        if kernel is None or (kernel == "mma") == mma:
            cases.append(SWEEP + name[len("sweep-"):])
    return cases


# Every case on the tensor-core kernel (all cross key blocks).
KERNEL_MMA = multi_block_sweep("mma")

# Every case whose runs include Hopper's kernel (gpu-kernel=sm_90a, wgmma).
KERNEL_WGMMA = sorted(
    os.path.relpath(os.path.join(dirpath, f), ROOT)
    for dirpath, _, files in os.walk(os.path.join(ROOT, "test/Integration/Tiling"))
    for f in files
    if f.endswith(".mlir") and "gpu-kernel=sm_90a" in open(os.path.join(dirpath, f)).read())
WGMMA_UNITS = ["test/Transforms/GPU/emulate-warpgroup-mma.mlir",
               "test/Transforms/GPU/emulate-warpgroup-mma-async.mlir"]

# Mutations the tests are known not to catch yet, and why; the harness
# reports them without failing. None at present: the last one,
# missing-barrier-after-pv (a race between the lanes of one warp, which the
# emulation once ran in full in every thread), has been caught by nine
# sweeps by their numbers since the lane-exact model of issue 16.
KNOWN_GAPS = {}

# Mutations every one of whose named tests must fail: removing the online
# rescale must break every case that crosses key blocks (issue 15).
MUST_FAIL_ALL = {"no-rescale", "kernel-no-rescale", "kernel-mma-no-rescale",
                 "fragment-no-rescale",
                 # issue 31: each held by two tests
                 "merge-max-starts-at-zero", "pack-gqa-top-left-single-row",
                 # issue 35: caught by the output guards in both
                 "fragment-epilogue-row-past-end",
                 # issue 31: caught by the cp.async source check in both
                 "whole-key-blocks-ignores-tail"}
KERNEL_FMA = [SWEEP + n + ".mlir" for n in
              ("kernel-stages2", "kernel-stages3-gqa", "kernel-full-block",
               "kernel-odd-dims")]

# Every case whose kernel prefetches K and V with cp.async (two or more
# stages, on sm_80 or later).
ASYNC_SWEEP = [SWEEP + n + ".mlir" for n in
               ("kernel-stages2", "kernel-stages3-gqa",
                "kernel-mma-stages2-window", "kernel-mma-bf16-gqa-stages2")]

# name, file, old text, new text, tests, what the bug is.
MOD = "test/Integration/Modifiers/"

LINEAR_KERNEL = "test/Integration/LinearAttention/gpu-kernel.test"
LINEAR_NEAR_MISSES = "test/Transforms/RaiseAttention/linear-attention-near-misses.mlir"

MUTATIONS = [
    # Issue 50: the outside audit's one-line bugs that no test saw, and the
    # session's own rules (the host's tiles, the TMA walk order).
    ("score-mod-quotient-sign",
     "              return div(add(x, neg(mul(out, y))), value(1));",
     "              return div(add(x, mul(out, y)), value(1));",
     ["test/Integration/Modifiers/backward-modifiers.mlir",
      "test/Integration/Modifiers/backward-quotients.mlir"],
     "the quotient rule's second term added: a score_mod dividing by a "
     "score-dependent value gets the wrong gradient (the reference shares "
     "the rule; the float64 oracle does not)"),
    ("mask-mod-negative-factor-unswapped",
     "    return Abstract::integer(mul(x.hi, factor), mul(x.lo, factor));",
     "    return Abstract::integer(mul(x.lo, factor), mul(x.hi, factor));",
     ["test/Sweep/mask-mods.test",
      "test/Integration/Modifiers/mask-mod-negative-factors.mlir",
      "test/Integration/Modifiers/mask-mod-negative-factors-f16.mlir"],
     "an interval times a negative factor keeps its bounds unswapped: tiles "
     "and key blocks with visible keys are skipped"),
    ("tosa-intdiv-floors",
     "            return arith::DivSIOp::create(b, loc, x[0], x[1]);",
     "            return arith::FloorDivSIOp::create(b, loc, x[0], x[1]);",
     ["test/Transforms/FoldMasks/tosa-casts.mlir",
      "test/Integration/Modifiers/tosa-intdiv-f16.mlir"],
     "tosa.intdiv folded as floor division (TOSA truncates toward zero)"),
    ("linear-kernel-column-max-half-rows",
     "          for (int64_t r = 0; r < 2; ++r)\n"
     "            m = arith::MaximumFOp::create(",
     "          for (int64_t r = 0; r < 1; ++r)\n"
     "            m = arith::MaximumFOp::create(",
     ["test/Integration/LinearAttention/gpu-kernel-large-state-rows.mlir",
      "test/Integration/LinearAttention/gpu-kernel-large-state-varying.mlir"],
     "the linear kernel's state column scale from half of each lane's rows"),
    ("wgmma-model-one-past-accepted",
     "      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, index, size);",
     "      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, index, size);",
     ["test/Transforms/GPU/emulate-warpgroup-mma-async.mlir",
      "test/Transforms/GPU/emulate-warpgroup-mma-a-edge.mlir"],
     "the CPU model of wgmma lets a read one element past its buffer through"),
    ("named-barrier-16-accepted",
     "                      m.le(m.constant(kBarriers), id));",
     "                      m.lt(m.constant(kBarriers), id));",
     ["test/Transforms/GPU/emulate-named-barriers.mlir",
      "test/Transforms/GPU/emulate-named-barrier-arrive-ids.mlir"],
     "the CPU model accepts named barrier 16, which the hardware lacks"),
    ("tma-value-stage-by-head-dim",
     "        pm.mul(slot.stage, pm.constant(kernel.blockKV * kernel.valueDim));",
     "        pm.mul(slot.stage, pm.constant(kernel.blockKV * kernel.headDim));",
     ["test/Integration/Tiling/tma-wide-keys-f16.mlir",
      "test/Integration/Tiling/tma-wide-keys-bf16.mlir"],
     "V's second TMA ring stage placed by D: past the V buffer when D > Dv "
     "(the CPU model reports the box; it used to hang until a timeout)"),
    ("tma-walk-forward",
     "  bool reversed = static_cast<bool>(keys.unmaskedEnd);",
     "  bool reversed = false && static_cast<bool>(keys.unmaskedEnd);",
     ["test/GPU/hopper-lengths.test"],
     "the TMA kernel walks its keys forward with a masked tail loop: ptxas "
     "spills at most static lengths"),
    ("host-refuses-for-size",
     "  static constexpr int64_t kHostFallbackBlock = 16;",
     "  static constexpr int64_t kHostFallbackBlock = 16;\n"
     "  result.error = noTileFits(shape, target, policy);\n"
     "  return result;",
     ["test/Transforms/SelectTiles/host-never-refuses.mlir",
      "test/Sweep/every-head-dim.test"],
     "the host refuses an op whose smallest tile exceeds its cache"),
    ("confirm-never-retiles",
     "      if (assembled->spillBytes == 0) {",
     "      if (assembled->spillBytes >= 0) {",
     ["test/GPU/confirm-tiles-with-ptxas.mlir", "test/Sweep/sweep.test"],
     "fa-confirm-tiles-with-ptxas accepts a tiling whose kernels spill"),
    ("confirm-overrides-users-tiling",
     "    bool ours = chosen && chosen->tiling == tilingOf(op);",
     "    bool ours = true;",
     ["test/GPU/confirm-tiles-with-ptxas.mlir"],
     "fa-confirm-tiles-with-ptxas retiles a tiling the user wrote"),
    ("confirm-step-upward",
     "            std::min(budget.registersPerThread, estimated - step);",
     "            std::min(budget.registersPerThread, estimated + step);",
     ["test/GPU/confirm-tiles-with-ptxas.mlir", "test/Sweep/sweep.test"],
     "fa-confirm-tiles-with-ptxas asks for a heavier tiling after a spill"),
    ("confirm-never-halves",
     "        next = smaller(op, tiling, shape, target);",
     "        next = std::nullopt;",
     ["test/GPU/confirm-tiles-with-ptxas.mlir", "test/Sweep/sweep.test"],
     "fa-confirm-tiles-with-ptxas gives up where the model has no lighter "
     "tiling, though a smaller tile would assemble clean"),
    ("window-band-sgt-off-by-one",
     "    return BandBound{false, offset + 1};",
     "    return BandBound{false, offset};",
     ["test/Dialect/FA/canonicalize.mlir", "test/Transforms/FoldMasks/bands.mlir"],
     "k > q + c read as k >= q + c: a window one key wider than the mask_mod"),
    # Linear attention (issue 34): the chunked lowering's carried state and
    # the decay, checked against the reference and the float64 oracle.
    ("linear-carry-one-power-short",
     """              Value since = arith::AddIOp::create(
                  nb, nloc, i, arith::ConstantIndexOp::create(nb, nloc, 1));""",
     """              Value since = arith::AddIOp::create(
                  nb, nloc, i, arith::ConstantIndexOp::create(nb, nloc, 0));""",
     ["test/Integration/LinearAttention/lowering.mlir"],
     "the state carried into a chunk weighed by gamma^i instead of gamma^(i + 1)"),
    ("linear-state-not-decayed",
     "                return arith::MulFOp::create(nb, nloc, args[1],\n"
     "                                             power(nb, nloc, args[0], rows));",
     "                return args[1];",
     ["test/Integration/LinearAttention/lowering.mlir"],
     "the carried state not decayed by gamma^C between chunks"),
    ("linear-denominator-unscaled",
     "                              arith::MulFOp::create(nb, nloc, args[1], s));",
     "                              args[1]);",
     ["test/Integration/LinearAttention/lowering.mlir"],
     "the non-causal normalizer Q z without the scale"),
    ("linear-decay-dropped-everywhere",
     "    weight = arith::MulFOp::create(b, loc, weight,\n"
     "                                   decayPower(b, loc, gamma, distance));",
     "    weight = weight;",
     ["test/Integration/LinearAttention/lowering.mlir"],
     "the decay dropped from the weights in the reference and the lowering alike (only the float64 oracle tells)"),
    # Linear attention's GPU kernel (issue 34), emulated against the
    # reference.
    ("linear-kernel-carry-one-power-short",
     "b, loc, scale, power(lm.addConstant(rows[r], 1)))",
     "b, loc, scale, power(rows[r]))",
     [LINEAR_KERNEL],
     "the kernel weighs the carried state by gamma^(i - c0) instead of gamma^(i - c0 + 1)"),
    ("linear-kernel-state-not-decayed",
     "Value carried = gamma && lastDecay ? power(math.constant(chunk)) : Value();",
     "Value carried = Value();",
     [LINEAR_KERNEL],
     "the kernel's state not decayed by gamma^C between chunks"),
    ("linear-kernel-keys-not-decayed",
     "Value keys = gamma && lastDecay ? decayedKeySmem : keySmem;",
     "Value keys = keySmem;",
     [LINEAR_KERNEL],
     "the kernel adds a chunk's keys to the state without gamma^(C - 1 - j)"),
    ("linear-kernel-no-ones-column",
     "memref::StoreOp::create(b, loc, c == 0 ? first : zero, valueSmem,",
     "memref::StoreOp::create(b, loc, zero, valueSmem,",
     [LINEAR_KERNEL],
     "V's column of ones left out: the kernel divides by epsilon alone"),
    ("linear-kernel-no-column-scales",
     "constexpr int64_t kStateExponentLimit = 14;",
     "constexpr int64_t kStateExponentLimit = 200;",
     ["test/Integration/LinearAttention/gpu-kernel-large-state.mlir"],
     "the state rounded to f16 unscaled for Q S: inf past 65504"),
    # Linear attention's recognition: each near miss must stay refused.
    ("linear-anti-causal-accepted",
     """      if (value != 0.0)
        return notCausal(llvm::formatv("it keeps key {0} of query {1}", j, i)""",
     """      if (value != value)
        return notCausal(llvm::formatv("it keeps key {0} of query {1}", j, i)""",
     [LINEAR_NEAR_MISSES, "test/Differential/linear-programs.test"],
     "a mask that keeps later keys read as causal (an anti-causal mask as a decay of 0)"),
    ("linear-decay-tolerance-widened",
     "double tolerance = (1e-6 + 2e-7 * double(n)) * expected + 1e-35;",
     "double tolerance = 1e-1 * expected + 1e-35;",
     [LINEAR_NEAR_MISSES, "test/Differential/linear-programs.test"],
     "a decay table within 10% of gamma^n accepted as gamma^n"),
    ("linear-normalizer-axis-unchecked",
     """  if (!matchRowReduction(sum, weights, /*isMax=*/false,
                         "normalizer of the weights"))
    return false;""",
     """  (void)sum;""",
     [LINEAR_NEAR_MISSES, "test/Differential/linear-programs.test"],
     "any sum of the weights (over the queries too) taken as the row normalizer"),
    # Score and mask modifications (issue 33): the regions, sinks, the
    # tiles a mask_mod hides, and their recognition.
    ("score-mod-not-applied",
     """  if (Block *scoreMod = op.getScoreModBlock())
    score.modifyScore(""",
     """  if (Block *scoreMod = nullptr)
    score.modifyScore(""",
     [MOD + "op-modifiers.mlir"],
     "score_mod never applied (every lowering, the reference too)"),
    ("mask-mod-not-applied",
     "  if (maskMod && withMaskMod)",
     "  if (maskMod && !withMaskMod)",
     [MOD + "op-modifiers.mlir", MOD + "mask-mod-tiles.mlir"],
     "mask_mod applied only where a tile is proved whole, never where it is needed"),
    ("score-mod-on-raw-scores",
     "    bool modified = op.getScoreModBlock() || op.getSinks();",
     "    bool modified = op.getSinks() != nullptr;",
     [MOD + "op-modifiers-f16.mlir", MOD + "raise-softcap.mlir"],
     "GPU kernels fold the scale into the exponent with a score_mod: the region sees unscaled scores and the max is taken before it"),
    ("sink-missing-from-sum",
     """  initialSum = arith::SelectOp::create(b, loc, seen, f32Constant(b, loc, 1),
                                       f32Constant(b, loc, 0));""",
     """  initialSum = arith::SelectOp::create(b, loc, seen, f32Constant(b, loc, 0),
                                       f32Constant(b, loc, 0));""",
     [MOD + "kernels-f16.mlir", MOD + "op-modifiers-f16.mlir"],
     "GPU kernels: the sink starts the max but not the sum"),
    ("sink-in-every-quad-lane",
     "  Value first = math.eq(lane, math.constant(0));",
     "  Value first = math.eq(lane, lane);",
     [MOD + "kernels-f16.mlir"],
     "register-fragment and wgmma kernels add the sink's term in all four lanes that share a row"),
    ("tiled-sink-missing-from-sum",
     """    initSum = linalg::FillOp::create(b, loc, ValueRange{sinkTerm},""",
     """    initSum = linalg::FillOp::create(b, loc, ValueRange{shifted},""",
     [MOD + "op-modifiers.mlir"],
     "tiled lowering: the sum starts at s - m instead of e^(s - m)"),
    ("tiled-sink-in-every-split",
     "      Value first = math.eq(split, zeroIndex);",
     "      Value first = math.eq(zeroIndex, zeroIndex);",
     [MOD + "op-modifiers.mlir"],
     "split-KV: every split counts the sink, so the merge counts it S times"),
    ("reference-sink-missing",
     """    auto [rowMax, probs, rowSum] =
        buildSoftmaxRows(b, loc, scores, op.getSinks());""",
     """    auto [rowMax, probs, rowSum] =
        buildSoftmaxRows(b, loc, scores, Value());""",
     [MOD + "op-modifiers.mlir"],
     "the reference ignores sinks (checked against the float64 oracle)"),
    ("interval-sub-same-ends",
     "    return Abstract::integer(sub(x.lo, y.hi), sub(x.hi, y.lo));",
     "    return Abstract::integer(sub(x.lo, y.lo), sub(x.hi, y.hi));",
     ["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
     "x - y bounded by lo - lo and hi - hi: an interval too narrow, so tiles "
     "with visible keys are skipped or hidden keys taken as visible"),
    ("interval-min-too-narrow",
     "      return Abstract::integer(min(x.lo, y.lo), min(x.hi, y.hi));",
     "      return Abstract::integer(max(x.lo, y.lo), min(x.hi, y.hi));",
     ["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
     "min(x, y)'s lower bound taken as the larger of the two"),
    ("interval-select-first-arm",
     "      return Abstract::integer(min(x.lo, y.lo), max(x.hi, y.hi));",
     "      return Abstract::integer(x.lo, x.hi);",
     ["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
     "an integer select bounded by its first arm alone"),
    ("interval-not-unswapped",
     "        return Abstract::truth(value.canFalse, value.canTrue);",
     "        return Abstract::truth(value.canTrue, value.canFalse);",
     ["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
     "a negation (xor with true) keeps its operand's truth"),
    ("mask-mod-interval-off-by-one-block",
     "          Value lastCol = lm.addConstant(lm.add(col0, cols), -1);",
     "          Value lastCol = lm.addConstant(col0, 0);",
     ["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir"],
     "the tile test reads only the block's first key: a tile whose later keys are visible is skipped"),
    ("mask-mod-whole-when-overlapping",
     "    Bound unequal = negate(single);",
     "    Bound unequal = known(0);",
     ["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir", MOD + "op-modifiers.mlir"],
     "an equality on intervals is taken as never false: overlapping document ranges count as whole, so hidden keys stay visible"),
    ("mask-mod-skip-ignored",
     "        if (!someVisible) {",
     "        if (someVisible) {",
     [MOD + "mask-mod-tiles.mlir"],
     "tiles a mask_mod hides are visited anyway (only the NaN test tells: the numbers are the same)"),
    ("fold-broadcast-read-at-index",
     """    if (operand.getDimSize(dim) == 1 && result.getDimSize(dim) != 1)
      return zero();""",
     """    if (operand.getDimSize(dim) == 0 && result.getDimSize(dim) != 1)
      return zero();""",
     [MOD + "raise-position-masks-tosa.mlir"],
     "the fold reads a broadcast TOSA operand at the result's index instead of 0"),
    ("fold-arange-wrong-dim",
     "    return arith::IndexCastOp::create(*builder, loc, elementType, indices[dim])",
     "    return arith::IndexCastOp::create(*builder, loc, elementType, indices[0])",
     [MOD + "raise-position-masks-tosa.mlir"],
     "an arange constant read as the index of its first dim, not of the dim it runs along"),
    ("fold-split-divides-twice",
     "    indices[dim] = arith::RemUIOp::create(*builder, loc, rest, size);",
     "    indices[dim] = arith::DivUIOp::create(*builder, loc, rest, size);",
     ["test/Transforms/FoldMasks/reshapes.mlir"],
     "a reshape's split of a linear index divides where it should take the remainder"),
    ("fold-merge-wrong-stride",
     "    Value stride = arith::ConstantIndexOp::create(*builder, loc, size);",
     "    Value stride = arith::ConstantIndexOp::create(*builder, loc, size + 1);",
     ["test/Transforms/FoldMasks/reshapes.mlir"],
     "a reshape's merge of dims linearizes with a stride one too large"),
    ("fold-gather-first-column",
     "  return element(gather.getValues(), {indices[0], row, indices[2]});",
     "  return element(gather.getValues(), {indices[0], row, zero()});",
     [MOD + "raise-position-masks-tosa.mlir", MOD + "raise-joint-graphs-tosa.mlir"],
     "tosa.gather folded to read the table's first column: every head gets head 0's T5 bias"),
    ("fold-float-to-int-truncates",
     "  Value rounded = math::RoundEvenOp::create(b, loc, x);",
     "  Value rounded = x;",
     ["test/Transforms/FoldMasks/tosa-casts.mlir"],
     "tosa.cast from float to integer folded as truncation, not round-to-nearest-even"),
    ("sink-splat-logit-dropped",
     "        b, loc, b.getFloatAttr(f32, *match.sinkSplat));",
     "        b, loc, b.getFloatAttr(f32, 0.0));",
     [MOD + "raise-sinks.mlir", DIFFERENTIAL],
     "a splat sink column raised as sinks of 0 instead of its logit"),
    ("kernel-mask-mod-walk-unnarrowed",
     "  if (Block *maskMod = op.getMaskModBlock()) {\n    Value lastRow = math.addConstant(math.add(row0, rows), -1);",
     "  if (Block *maskMod = nullptr) {\n    Value lastRow = math.addConstant(math.add(row0, rows), -1);",
     [MOD + "kernels-skip-blocks-f16.mlir", MOD + "mask-mod-tiles.mlir"],
     "the forward GPU kernels walk every key block of a mask_mod (only the NaN tests tell: the numbers are the same)"),
    ("mask-mod-walk-drops-last-block",
     "        Value newEnd = arith::SelectOp::create(lb, lloc, seen, stop, bounds[1]);",
     "        Value newEnd = arith::SelectOp::create(lb, lloc, seen, start, bounds[1]);",
     ["test/Sweep/mask-mods.test", MOD + "mask-mod-tiles.mlir", MOD + "kernels-f16.mlir", MOD + "backward-kernels-f16.mlir"],
     "a GPU kernel's narrowed walk ends before the last key (or query) block the mask_mod shows"),
    ("sink-rounded-slice-not-peeled",
     "  if (Value source = floatCastSource(probs->first)) {",
     "  if (Value source = Value()) {",
     ["test/Transforms/RaiseAttention/sinks-spellings.mlir"],
     "sinks refused when P is rounded to V's type after the slice (a false negative)"),
    ("score-function-select-dropped",
     "    return node(ScalarKind::Select, 0, std::move(*operands));",
     "    return (*operands)[1];",
     [MOD + "raise-softcap.mlir",
      "test/Integration/raise-score-function-tensors.mlir"],
     "a mask inside a score function dropped: hidden keys keep their score"),
    ("score-function-tensor-from-scores",
     "      if (def == contraction) {",
     "      if (false) {",
     ["test/Transforms/RaiseAttention/algebraic-rules-near-misses.mlir"],
     "a score function reading a tensor computed from the scores (a "
     "column max) raised: every score computed twice"),
    ("score-function-empty-rows",
     "  rowsCanBeEmpty |= functionHidesKeys;",
     "  rowsCanBeEmpty |= false;",
     ["test/Integration/raise-score-function-tensors.mlir"],
     "a score function that may hide a whole row with -inf: the frontend's "
     "NaN rows become the op's 0"),
    ("shared-scores-read-by-contraction",
     "      isContraction(user) || user->getNumResults() == 0)",
     "      user->getNumResults() == 0)",
     ["test/Transforms/nothing-lost.mlir"],
     "scores read by another contraction taken as only returned: the N×N "
     "contraction kept beside the op"),
    ("max-initial-any-constant",
     "             std::isinf(resolved->constant) && resolved->constant < 0;",
     "             true;",
     ["test/Transforms/RaiseAttention/algebraic-rules-near-misses.mlir"],
     "max(m, c) read as the row max for any constant c: rows below c are "
     "shifted by c"),
    ("grouped-sinks-group-not-head",
     "                   (axis.kind == AxisKind::Group && groupAxis) ||",
     "                   false ||",
     ["test/Integration/Modifiers/raise-sinks-grouped.mlir"],
     "a sink column along the group of grouped queries refused as not per "
     "head (JAX's GQA with sinks left unraised)"),
    ("merged-heads-split-swapped",
     "      split.push_back(Axis{AxisKind::Batch, match.numBatchDims - 1});\n"
     "      split.push_back(Axis{AxisKind::Group});",
     "      split.push_back(Axis{AxisKind::Group});\n"
     "      split.push_back(Axis{AxisKind::Batch, match.numBatchDims - 1});",
     ["test/Integration/raise-merged-grouped-heads.mlir"],
     "a bias along the merged [Hkv·G] heads split as [G, Hkv]: each head "
     "reads another head's bias"),
    ("sink-merged-heads-despite-part",
     "  if (numBatchDims != 1 || partRead || match.kvLengths || match.backward ||",
     "  if (numBatchDims != 1 || match.kvLengths || match.backward ||",
     ["test/Transforms/RaiseAttention/sinks-under-reshapes.mlir"],
     "sinks per merged [Hkv·G] head taken as the op's heads while a bias "
     "reads only [Hkv]: the bias read at the wrong heads"),
    ("sink-column-per-query-raised",
     "    if (!perHead)\n      return fail(RejectCategory::Mask,",
     "    if (false)\n      return fail(RejectCategory::Mask,",
     [MOD + "raise-sinks.mlir"],
     "a column that varies along the queries raised as a per-head sink"),
    # The backward of score modifications (issue 33): the derivative of the
    # score_mod, dSinks, and training graphs raised with them.
    ("backward-tanh-derivative-linear",
     """              return mul(x, arith::SubFOp::create(b, loc, constant(1.0),
                                                  mul(out, out)));""",
     """              return mul(x, arith::SubFOp::create(b, loc, constant(1.0),
                                                  out));""",
     [MOD + "backward-modifiers.mlir", MOD + "backward-kernels-f16.mlir"],
     "tanh's derivative taken as 1 - t instead of 1 - t^2 (every lowering)"),
    ("backward-slope-not-applied-tiled",
     "    return {probs, gradScores, gradModified};",
     "    return {probs, gradModified, gradModified};",
     [MOD + "backward-modifiers.mlir"],
     "the tiled backward forgets f'(s): dS = dT"),
    ("backward-slope-not-applied-kernel",
     "  return {prob, throughScoreMod(b, loc, gradScore, slope), gradScore};",
     "  return {prob, gradScore, gradScore};",
     [MOD + "backward-kernels-f16.mlir"],
     "the GPU backward kernel forgets f'(s): dS = dT"),
    ("backward-bias-gradient-after-slope",
     "                                  .gradModified;\n                          // acc += dT",
     "                                  .gradScores;\n                          // acc += dT",
     [MOD + "backward-modifiers.mlir"],
     "the tiled dBias takes dS (after the score_mod's derivative) instead of dT"),
    ("sink-gradient-sign-tiled",
     "        return arith::SubFOp::create(nb, nloc, args[2], product);\n      });\n  Type elementType = sinksType.getElementType();",
     "        return arith::AddFOp::create(nb, nloc, args[2], product);\n      });\n  Type elementType = sinksType.getElementType();",
     [MOD + "backward-modifiers.mlir"],
     "the tiled dSinks adds P_sink D instead of subtracting it"),
    ("sink-gradient-one-thread-kernel",
     "            tb, tloc, tm.constant(0), tm.constant(threads), tm.constant(1),",
     "            tb, tloc, tm.constant(0), tm.constant(1), tm.constant(1),",
     [MOD + "backward-kernels-f16.mlir"],
     "the dSinks kernel keeps only thread 0's partial sum"),
    ("backward-mask-mod-tile-whole",
     "    Value partial = allVisible ? lm.notI(allVisible) : lm.trueValue();",
     "    Value partial = allVisible ? allVisible : lm.trueValue();",
     [MOD + "backward-mask-mod-tiles.mlir"],
     "the tiled backward skips the mask_mod's element test on tiles it shows in part"),
    ("joint-score-derivative-unchecked",
     "    if (!defined)\n      return fail(RejectCategory::Structure,",
     "    if (!defined || true)\n      return true;\n    if (!defined)\n      return fail(RejectCategory::Structure,",
     ["test/Transforms/RaiseAttention/joint-graph-score-functions.mlir"],
     "any function of the scores accepted as the score function's derivative"),
    ("joint-score-derivative-missing-accepted",
     "  if (!match.scoreFunction.empty() && !scoreDerivativeSeen)",
     "  if (false && !scoreDerivativeSeen)",
     ["test/Transforms/RaiseAttention/joint-graph-score-functions.mlir"],
     "a backward without the score function's derivative raised"),
    ("joint-sink-pad-nonzero-accepted",
     "    if (!padding || !isZero(padding))\n      return nullptr;",
     "    if (!padding)\n      return nullptr;",
     ["test/Transforms/RaiseAttention/joint-graph-sinks.mlir"],
     "dP padded with a nonzero sink column taken as the slice's backward"),
    ("joint-sink-gradient-over-heads",
     "      if (reduced && (!(*loops)[loop] || isHead(*(*loops)[loop])))",
     "      if (reduced && !(*loops)[loop])",
     ["test/Transforms/RaiseAttention/joint-graph-sinks.mlir"],
     "a sink gradient summed over the heads taken as dSinks"),
    ("fold-backward-mask-kept",
     "  if (backward && backward.getGradMask()) {",
     "  if (backward) {",
     [MOD + "raise-joint-graphs.mlir", MOD + "raise-joint-graphs-tosa.mlir"],
     "fa-fold-masks-into-modifiers leaves the backward op's mask as an N x N operand"),
    # Hopper's kernel (issue 32): its layouts, descriptors and waits, and
    # the CPU model of wgmma they run on.
    ("wgmma-no-rescale",
     """Value scaled = contractingMul(b(), loc, element, alphas[(r / 2) % 2]);""",
     """Value scaled = element;""",
     KERNEL_WGMMA, "the wgmma kernel does not rescale O by e^(m_old - m_new)"),
    ("wgmma-query-descriptor-stride",
     """columnBlock * kernel.blockQ * kRowBytes + within),
        /*leading=*/16, /*stride=*/8 * kRowBytes);""",
     """columnBlock * kernel.blockQ * kRowBytes + within),
        /*leading=*/16, /*stride=*/4 * kRowBytes);""",
     KERNEL_WGMMA, "Q's descriptor says 8-row groups are 512 bytes apart, not 1024"),
    ("wgmma-value-not-transposed",
     """flatValue, /*transpose_b=*/true,""",
     """flatValue, /*transpose_b=*/false,""",
     KERNEL_WGMMA, "P V reads V K-major (as if stored transposed)"),
    ("wgmma-dropped-score-wait",
     """  auto wait = WarpgroupMmaWaitOp::create(b(), at.loc,
                                         ValueRange{issueScores(at)}, 0);
  return {wait.getResult(0)};""",
     """  return {issueScores(at)};""",
     KERNEL_WGMMA, "the softmax reads S before wgmma.wait_group"),
    ("wgmma-value-wait-pending-1",
     """WarpgroupMmaWaitOp::create(b(), at.loc, ValueRange{output}, 0);""",
     """WarpgroupMmaWaitOp::create(b(), at.loc, ValueRange{output}, 1);""",
     KERNEL_WGMMA, "O's wait leaves its own group in flight (wait_group 1)"),
    ("wgmma-probability-pairs-crossed",
     """probPairs[4 * step + 2 * (i / 2) + i % 2]""",
     """probPairs[4 * step + (i / 2) + 2 * (i % 2)]""",
     KERNEL_WGMMA, "P's A registers take the row halves and column halves crossed"),
    ("wgmma-column-blocks-overlap",
     """math.mul(math.add(math.mul(columnBlock, math.constant(tileRows)), row),""",
     """math.mul(math.add(math.mul(columnBlock, math.constant(tileRows / 2)), row),""",
     KERNEL_WGMMA, "the second 64-column block of a tile overlaps the first's rows"),
    ("wgmma-model-swizzle-64-for-128",
     """  Value xorMask = select(modeIs(1), m.constant(0x70),""",
     """  Value xorMask = select(modeIs(1), m.constant(0x30),""",
     KERNEL_WGMMA + WGMMA_UNITS,
     "the CPU model reads a 128-byte swizzle with the 64-byte one's XOR"),
    ("wgmma-model-register-holder",
     """km.mul(km.remU(row, eight), km.constant(4))),
                           km.divU(km.remU(k, eight), km.constant(2))));""",
     """km.mul(km.remU(row, eight), km.constant(4))),
                           km.remU(k, km.constant(4))));""",
     KERNEL_WGMMA + WGMMA_UNITS,
     "the CPU model takes A(row, k) from the wrong lane of the quad"),
    # The TMA producer kernel (issue 32): each synchronization point and
    # layout of TmaProducer.cpp and of its CPU model (TmaCopies.cpp).
    ("tma-key-wait-wrong-parity",
     """kernel.waitOnBarrier(layout.keyFull(cm, stage), slot.parity);""",
     """kernel.waitOnBarrier(layout.keyFull(cm, stage), !slot.parity ? slot.parity : arith::XOrIOp::create(b, loc, slot.parity, arith::ConstantIntOp::create(b, loc, 1, 1)).getResult());""",
     KERNEL_WGMMA, "the compute warpgroups wait for K's phase of the other parity"),
    ("tma-empty-wait-wrong-parity",
     """kernel.waitOnBarrier(layout.empty(pm, slot.stage), notParity);""",
     """kernel.waitOnBarrier(layout.empty(pm, slot.stage), slot.parity);""",
     KERNEL_WGMMA, "the producer waits for the empty phase of the wrong parity"),
    ("tma-missing-empty-arrive",
     """    nvgpu::MBarrierArriveOp::create(b, loc,
                                    nvgpu::MBarrierTokenType::get(kernel.ctx),
                                    kernel.barriers, layout.empty(cm, stage));""",
     """""",
     KERNEL_WGMMA, "the compute warpgroups never say a stage is empty"),
    ("tma-dropped-value-wait",
     """    kernel.waitOnBarrier(layout.valueFull(cm, stage), slot.parity);""",
     """""",
     KERNEL_WGMMA, "P V reads V_s without waiting for its TMA load"),
    ("tma-expect-tx-half",
     """  int64_t bytes = rows * width * elementBytes(type);""",
     """  int64_t bytes = rows * width * elementBytes(type) / 2;""",
     KERNEL_WGMMA, "expect_tx announces half of the boxes' bytes"),
    ("tma-map-no-swizzle",
     """      ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,""",
     """      ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE,""",
     KERNEL_WGMMA, "TMA writes the tiles unswizzled where wgmma reads them swizzled"),
    ("tma-nan-fill",
     """      nvgpu::TensorMapOOBKind::OOB_ZERO,""",
     """      nvgpu::TensorMapOOBKind::OOB_NAN,""",
     KERNEL_WGMMA, "rows past K and V arrive as NaN, which P V multiplies by 0"),
    ("tma-stages-overlap",
     """        pm.mul(slot.stage, pm.constant(kernel.blockKV * kernel.headDim));""",
     """        pm.mul(slot.stage, pm.constant(kernel.blockKV * kernel.headDim / 2));""",
     KERNEL_WGMMA, "K's second stage starts halfway into the first"),
    ("tma-model-lands-at-issue",
     """  scf::IfOp::create(b, loc, pending, [&](OpBuilder &ib, Location iloc) {
    IndexMath im{ib, iloc};
    for (TmaSite &site : sitesOf[wait.getBarriers()])""",
     """  scf::IfOp::create(b, loc, pending, [&](OpBuilder &ib, Location iloc) {
    IndexMath im{ib, iloc};
    for (TmaSite &site : MutableArrayRef<TmaSite>())""",
     ["test/Transforms/GPU/emulate-tma.mlir"] + KERNEL_WGMMA,
     "the CPU model never lands a TMA load (waits see NaN, or never return)"),
    ("tma-model-ignores-swizzle",
     """        int64_t bits = swizzleBits(site.map.getSwizzle());
        int64_t elementBytes = site.elementBytes();""",
     """        int64_t bits = 0;
        int64_t elementBytes = site.elementBytes();""",
     ["test/Transforms/GPU/emulate-tma.mlir"] + KERNEL_WGMMA,
     "the CPU model lands TMA boxes unswizzled"),
    ("ws-producer-keeps-registers",
     """  NVVM::SetMaxRegisterOp::create(producerStart, loc, producerRegisters,
                                 NVVM::SetMaxRegisterAction::decrease);""",
     """""",
     ["test/Transforms/GPU/specialize-warpgroups.mlir", "test/GPU/tma-producer.test"],
     "the producer warpgroup keeps its registers (no setmaxnreg.dec)"),
    ("ws-compute-sees-producer-work",
     """  fold(roles.producerLeader, branch.getThenRegion(), no);""",
     """""",
     ["test/Transforms/GPU/specialize-warpgroups.mlir"],
     "the compute clone keeps the producer's TMA issue"),
    # P V a block late and the ping-pong (issue 32): TmaProducer.cpp's
    # overlapped walk and turns, WarpgroupMmaKernel.cpp's overlapped block,
    # and the CPU model of named barriers (NamedBarriers.cpp).
    ("overlap-score-wait-pending-2",
     """      WarpgroupMmaWaitOp::create(b(), loc, ValueRange{issuedScores}, 1)""",
     """      WarpgroupMmaWaitOp::create(b(), loc, ValueRange{issuedScores}, 2)""",
     KERNEL_WGMMA, "the softmax reads S while its group may still be in flight"),
    ("overlap-no-commit-between-groups",
     """  // Commits S's group; with one group in flight, returns at once.
  WarpgroupMmaWaitOp::create(b(), loc, ValueRange{}, 1);""",
     """""",
     KERNEL_WGMMA, "S and the previous P V are one group: wait_group 1 leaves S in flight"),
    ("overlap-waits-for-this-blocks-values",
     """            auto waitValues = [&] { waitFull(true, previousIndex); };""",
     """            auto waitValues = [&] { waitFull(true, index); };""",
     KERNEL_WGMMA, "the previous block's P V waits for this block's V, not its own"),
    ("overlap-releases-this-blocks-stage",
     """            auto releaseValues = [&] { release(previousIndex); };""",
     """            auto releaseValues = [&] { release(index); };""",
     KERNEL_WGMMA, "the compute warpgroups free the stage the next loads overwrite too early"),
    ("overlap-no-rescale-after-pv",
     """                             rescale(waited.getResult(0), step.alphas)};""",
     """                             waited.getResult(0)};""",
     KERNEL_WGMMA, "O is not rescaled by the block's alpha once the previous P V has landed"),
    ("overlap-last-block-without-pv",
     """  SmallVector<Value> next(state);
  next[4] = output;
  return next;""",
     """  SmallVector<Value> next(state);
  return next;""",
     KERNEL_WGMMA, "the last key block's P V never reaches O"),
    ("pingpong-no-hand-over",
     """  NVVM::BarrierArriveOp::create(
      b, loc, id, arith::ConstantIntOp::create(b, loc, kTurnThreads, 32));""",
     """""",
     KERNEL_WGMMA, "a compute warpgroup never hands the turn on (the next waits forever)"),
    ("pingpong-hands-turn-to-itself",
     """  Value next = math.remU(math.addConstant(warpgroup, 1),
                         math.constant(warpgroups));""",
     """  Value next = math.remU(math.addConstant(warpgroup, 0),
                         math.constant(warpgroups));""",
     KERNEL_WGMMA, "a warpgroup arrives on its own turn's barrier, not the next one's"),
    # (Handing the first turn to the last warpgroup itself instead, barrier
    # 2 with two warpgroups, is no bug: its own arrive and wait complete
    # its barrier, and it goes first. The harness found that equivalent
    # mutant surviving, as it should.)
    ("pingpong-no-first-turn",
     """        arith::ConstantIntOp::create(b, loc, kFirstTurnBarrier, 32),""",
     """        arith::ConstantIntOp::create(b, loc, kFirstTurnBarrier + 7, 32),""",
     KERNEL_WGMMA, "the first turn goes to a barrier nobody waits on: every compute warpgroup waits for it"),
    ("pingpong-no-wait-for-turn",
     """  NVVM::BarrierOp::create(
      b, loc, /*res=*/Type(), id,
      arith::ConstantIntOp::create(b, loc, kTurnThreads, 32),
      /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());""",
     """""",
     ["test/Transforms/GPU/distribute-overlap-ping-pong.mlir"],
     "a warpgroup issues its matmuls without waiting for its turn (a schedule, "
     "not a data dependency: the numbers stay right, the kernel's structure "
     "does not)"),
    ("named-barrier-model-sync-never-waits",
     """                          scf::IfOp::create(
                              eb, eloc, sync,""",
     """                          scf::IfOp::create(
                              eb, eloc, arith::ConstantIntOp::create(eb, eloc, 0, 1),""",
     ["test/Transforms/GPU/emulate-named-barriers.mlir"] + KERNEL_WGMMA,
     "the CPU model lets bar.sync go on before its generation completes"),
    ("named-barrier-model-never-resets",
     """                          memref::StoreOp::create(cb, cloc, cm.constant(0),
                                                  arrived, id);""",
     """""",
     ["test/Transforms/GPU/emulate-named-barriers.mlir"] + KERNEL_WGMMA,
     "the CPU model keeps counting arrivals past a completed generation"),
    ("wgmma-buffers-16-aligned",
     """warpgroupMatmuls ? kSwizzle128PatternBytes : kSharedAccessBytes;""",
     """kSharedAccessBytes;""",
     ["test/Transforms/GPU/align-workgroup-buffers-wgmma.mlir",
      "test/GPU/warpgroup-mma.test"],
     "wgmma's static tiles start on 16-byte boundaries, not the swizzle pattern's"),
    ("no-rescale",
     """oldAcc, {row2, id2}, {par, par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              return arith::MulFOp::create(nb, nloc, args[0], args[1]);""",
     """oldAcc, {row2, id2}, {par, par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              return args[1];""",
     multi_block_sweep() + [DIFFERENTIAL, "test/Integration/explicit-masks.mlir",
                            "test/Integration/position-masks.mlir",
                            "test/Integration/grouped-heads.mlir"],
     "the accumulator is not rescaled by alpha (tiled)"),
    ("sum-not-rescaled",
     """ValueRange{alpha}, oldSum, {id1, id1}, {par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              return arith::MulFOp::create(nb, nloc, args[0], args[1]);""",
     """ValueRange{alpha}, oldSum, {id1, id1}, {par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              return args[1];""",
     MULTI_BLOCK, "the row sum is not rescaled by alpha (tiled)"),
    ("max-not-updated",
     """        Value maxState =
            linalg::CopyOp::create(lb, lloc, newMax, oldMax).getResult(0);""",
     """        Value maxState = oldMax;""",
     MULTI_BLOCK, "the running max is never written back (tiled)"),
    ("causal-diagonal-off-by-one",
     "    score.require(m.le(col, m.add(row, causalOffset)));",
     "    score.require(m.lt(col, m.add(row, causalOffset)));",
     [SWEEP + "causal-top-left.mlir", SWEEP + "causal-bottom-right.mlir",
      "test/Integration/position-masks.mlir"] + BACKWARD_CAUSAL,
     "the causal mask hides the diagonal itself (tiled, forward and backward)"),
    ("window-left-off-by-one",
     "score.require(m.le(m.addConstant(diagonal, -window.getLeft()), col));",
     "score.require(m.le(m.addConstant(diagonal, -window.getLeft() + 1), col));",
     [SWEEP + "window.mlir", SWEEP + "window-causal.mlir",
      "test/Integration/position-masks.mlir",
      BACKWARD + "sweep-window.mlir", BACKWARD + "sweep-window-last-row-starts-block.mlir"],
     "the window's left bound is one key short (tiled, forward and backward)"),
    ("window-right-off-by-one",
     "score.require(m.le(col, m.addConstant(diagonal, window.getRight())));",
     "score.require(m.le(col, m.addConstant(diagonal, window.getRight() + 1)));",
     [SWEEP + "window.mlir", SWEEP + "window-causal.mlir",
      "test/Integration/position-masks.mlir",
      BACKWARD + "sweep-window.mlir", BACKWARD + "sweep-window-last-row-starts-block.mlir"],
     "the window's right bound is one key too far (tiled, forward and backward)"),
    ("crossing-block-unmasked",
     """    Value diagonal = math.add(row0, causalOffset);
    Value crosses = math.gt(lastCol, diagonal);""",
     """    Value diagonal = math.add(row0, causalOffset);
    Value crosses = math.gt(lastCol, math.addConstant(diagonal, 1));""",
     [SWEEP + "causal-top-left.mlir", SWEEP + "causal-bottom-right.mlir",
      SWEEP + "causal-bf16.mlir", SWEEP + "causal-diagonal-at-block-end.mlir"] +
     BACKWARD_CAUSAL,
     "a key block the diagonal crosses by one key skips the element mask (forward and backward share the test)"),
    ("causal-block-skipped-early",
     """    Value diagonal = math.add(lastRow, causalOffset);
    Value end = math.addConstant(diagonal, 1);""",
     """    Value diagonal = math.add(lastRow, causalOffset);
    Value end = diagonal;""",
     [SWEEP + "causal-top-left.mlir", SWEEP + "causal-bottom-right.mlir",
      SWEEP + "kernel-stages2.mlir", SWEEP + "causal-last-key-starts-block.mlir"],
     "the last visible key of a causal query block is never loaded"),
    ("window-block-skipped-late",
     "  Value firstBlock = math.floorDiv(keyBegin, blockKVValue);",
     "  Value firstBlock = math.floorDiv(math.addConstant(keyBegin, blockKV - 1), blockKVValue);",
     [SWEEP + "window.mlir", SWEEP + "window-causal.mlir",
      SWEEP + "kernel-stages3-gqa.mlir"],
     "the first key block of a window starts one block late"),
    ("tail-block-unmasked",
     "score.require(m.lt(localCol, validCols)); // padded keys",
     "// the padded keys are not masked",
     [SWEEP + "n7-tail.mlir", SWEEP + "n127-nq-ne-nk.mlir"],
     "the padded keys of the last, partial key block are visible"),
    ("gqa-head-mapping",
     """  if (rowStart)
    emptyPastLastRow(math, rows, keyLen);
  Value kvHead = math.divU(head, groupSize);""",
     """  if (rowStart)
    emptyPastLastRow(math, rows, keyLen);
  Value kvHead = math.remU(head, groupSize);""",
     [SWEEP + "gqa.mlir", SWEEP + "mqa-f16.mlir",
      "test/Integration/grouped-heads.mlir"],
     "query head h reads K/V head h mod G instead of h / G (tiled)"),
    ("scale-applied-twice",
     "        score(scale ? arith::MulFOp::create(b, loc, raw, scale).getResult()",
     "        score(scale ? arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, raw, scale), scale).getResult()",
     ["test/Integration/worked-example.mlir", "test/Integration/raise-linalg.mlir",
      SWEEP + "n7-tail.mlir"],
     "the scale multiplies the scores twice (reference and tiled alike)"),
    ("lse-without-max",
     """          return arith::AddFOp::create(nb, nloc, safeRowMax(nb, nloc, args[0]),
                                       logSum);""",
     """          return logSum;""",
     [SWEEP + "decode.mlir", SWEEP + "n7-tail.mlir", SWEEP + "f16-d64.mlir"],
     "the logsumexp forgets the row max (tiled)"),
    ("empty-row-nan",
     "  Value result = arith::SelectOp::create(b, loc, isEmpty, zero, quotient);",
     "  Value result = quotient;",
     [SWEEP + "window-empty-rows.mlir", SWEEP + "keep-mask-full.mlir",
      "test/Integration/explicit-masks.mlir"],
     "a row with no visible key gives 0/0 = NaN instead of 0"),
    ("reference-causal-off-by-one",
     """            score.require(cmp(arith::CmpIPredicate::sle, col,
                              diagonalPlus(offsetFor(*causal, causalOffset), 0)));""",
     """            score.require(cmp(arith::CmpIPredicate::slt, col,
                              diagonalPlus(offsetFor(*causal, causalOffset), 0)));""",
     [SWEEP + "causal-top-left.mlir", SWEEP + "causal-bottom-right.mlir"],
     "the reference lowering hides the causal diagonal"),
    ("kernel-no-rescale",
     "          acc.push_back(contractingMul(b, lloc, part, alphas));",
     "          acc.push_back(part);",
     multi_block_sweep("fma") + [DIFFERENTIAL],
     "the FMA kernel does not rescale its accumulator"),
    ("kernel-mma-no-rescale",
     "    next.push_back(vector::FMAOp::create(b, loc, part, alphas, slice));",
     "    next.push_back(arith::AddFOp::create(b, loc, part, slice));",
     multi_block_sweep("mma"), "the tensor-core kernel does not rescale its accumulator"),
    ("missing-barrier",
     """                      tiles.results);
    gpu::BarrierOp::create(kernel.b, at.loc);""",
     """                      tiles.results);""",
     KERNEL_MMA, "no barrier between the score matmul and the softmax"),
    # No mutation drops the barrier after the Q copy: it is redundant (the
    # first key block's barrier, after the K/V copy, orders the Q copy
    # before every read of Q, and no read happens without a key block), so
    # dropping it is no bug; the harness showed it (session 6).
    ("missing-barrier-after-kv-copy",
     """  gpu::BarrierOp::create(b, loc);
  KeyBlockAt at{loc, col0, stage};""",
     """  KeyBlockAt at{loc, col0, stage};""",
     KERNEL_FMA + KERNEL_MMA, "threads read K/V rows that other threads have not copied yet"),
    ("missing-barrier-after-softmax",
     """        {state[0], state[1], one});
    gpu::BarrierOp::create(b, at.loc);""",
     """        {state[0], state[1], one});""",
     KERNEL_MMA, "P·V reads probabilities that other rows' threads have not written yet"),
    ("missing-barrier-after-pv",
     """                                tiles.results);
    gpu::BarrierOp::create(b, at.loc);""",
     """                                tiles.results);""",
     KERNEL_MMA, "rows accumulate P·V results that other warps have not written yet"),
    ("wrong-cp-async-stage",
     "    Value nextStage = math.remU(index, math.constant(stages));",
     "    Value nextStage = stage;",
     [SWEEP + "kernel-stages2.mlir", SWEEP + "kernel-stages3-gqa.mlir",
      SWEEP + "kernel-mma-stages2-window.mlir"],
     "the next key block is prefetched into the stage being read"),
    ("swapped-fragment-halves",
     """    Value slice = vector::ShuffleOp::create(b, loc, halves[0], halves[1],""",
     """    Value slice = vector::ShuffleOp::create(b, loc, halves[1], halves[0],""",
     KERNEL_MMA, "the accumulator reads a result chunk's halves swapped"),
    ("dropped-shuffle",
     """    value = arith::getReductionOp(kind, b, loc, value,
                                  shuffle.getShuffleResult());""",
     """    (void)shuffle;""",
     KERNEL_MMA, "the two threads of a row never combine their max and sum"),
    # The register-resident kernel (the default tensor-core kernel) and the
    # lane-exact CPU model of its warp collectives.
    ("fragment-no-rescale",
     """          Value scaled = contractingMul(
              b, loc, extractElement(b, loc, acc, r, j), alphas[i * 2 + r]);""",
     """          Value scaled = extractElement(b, loc, acc, r, j);""",
     KERNEL_MMA, "the register kernel does not rescale its O fragments"),
    ("fragment-row-halves-swapped",
     """        int64_t n = 2 * step + reg / 2, r = reg % 2;
        fragment = vector::InsertOp::create(
            b, loc, probPairs""",
     """        int64_t n = 2 * step + reg / 2, r = 1 - reg % 2;
        fragment = vector::InsertOp::create(
            b, loc, probPairs""",
     KERNEL_MMA, "P's A fragment takes rows g + 8 and g in swapped registers"),
    ("quad-shuffle-dropped",
     "  for (int64_t distance = 1; distance < kQuad; distance *= 2) {",
     "  for (int64_t distance = 1; distance < kQuad / 2; distance *= 2) {",
     KERNEL_MMA, "a row's max and sum combine two lanes of its quad, not four"),
    ("fragment-v-not-transposed",
     """                                    valueElementType, true));""",
     """                                    valueElementType, false));""",
     KERNEL_MMA, "V's B fragments are loaded without .trans"),
    ("fragment-swizzle-mismatch",
     "  indices.push_back(sharedColumn(math, row, column, width, type));",
     "  indices.push_back(column);",
     KERNEL_MMA, "ldmatrix reads unswizzled columns of the swizzled tiles"),
    ("fragment-missing-end-barrier",
     # The variant claims its steps end with a barrier, so the schedule
     # places none before the buffers are refilled.
     """  bool readsKeysOnlyInScores() const override { return true; }
};""",
     """  bool readsKeysOnlyInScores() const override { return true; }
  bool endsWithBarrier() const override { return true; }
};""",
     KERNEL_MMA, "a warp refills K/V buffers that another warp still reads"),
    ("fma-missing-end-barrier",
     """    kernel.storeRowResults(block, self, state, /*halves=*/false);
  }
};""",
     """    kernel.storeRowResults(block, self, state, /*halves=*/false);
  }
  bool endsWithBarrier() const override { return true; }
};""",
     KERNEL_FMA, "the FMA kernel refills K/V buffers that other threads still read"),
    # FlashAttention-2's exponential and copy order (issue 28).
    ("exp2-without-log2e",
     "    result.log2Factor = result.rawScores ? scale * kLog2e : kLog2e;",
     "    result.log2Factor = result.rawScores ? scale : 1.0;",
     KERNEL_MMA + GPU_BACKWARD[:2],
     "p = 2^(u c - m c) without log2 e folded into c: e^x computed as 2^x"),
    ("max-on-scaled-scores",
     "    return exponent.rawScores ? raw : arith::MulFOp::create(b, loc, raw, scale);",
     "    return arith::MulFOp::create(b, loc, raw, scale);",
     KERNEL_MMA + KERNEL_FMA,
     "unmasked blocks take the max on scaled scores while the FMA applies the scale again"),
    ("masked-max-on-scaled-scores",
     "                     exponent.rawScores ? Value() : scale, batch, head, row,",
     "                     scale, batch, head, row,",
     KERNEL_MMA + KERNEL_FMA,
     "masked blocks scale the scores that the FMA scales again"),
    ("rescale-without-log2-factor",
     """    Value oldShift = arith::MulFOp::create(b, loc, oldMax,
                                           f32Constant(b, loc, log2Factor));""",
     """    Value oldShift = arith::MulFOp::create(b, loc, oldMax,
                                           f32Constant(b, loc, 1.0));""",
     KERNEL_MMA,
     "alpha = 2^(m_old - m_new c): the old max not in base-2 units"),
    ("raw-max-negative-scale",
     "    result.rawScores = scale > 0 && !additiveMask && !filled && !modified;",
     "    result.rawScores = scale != 0 && !additiveMask && !filled && !modified;",
     ["test/Integration/kernel-negative-scale.mlir"],
     "a negative scale takes the max on raw scores, whose order it reverses"),
    ("fragment-k-wait-after-scores",
     """  SmallVector<Value> nextState = variant.fold(at, scores, state);
  waitForGroup(b, loc, pending);""",
     """  SmallVector<Value> nextState = variant.fold(at, scores, state);""",
     KERNEL_MMA,
     "the next block's K (and V with two buffers) is waited for only after Q·Kᵀ reads it"),
    ("fragment-v-wait-dropped",
     """    waitForGroup(b, loc, pending);
    gpu::BarrierOp::create(b, loc);
    pending = requestTilesIfVisible(math, next, stage, true, false);""",
     """    gpu::BarrierOp::create(b, loc);
    pending = requestTilesIfVisible(math, next, stage, true, false);""",
     KERNEL_MMA,
     "P V reads V before its cp.async group is waited for (one buffer)"),
    ("fragment-k-refill-before-barrier",
     """    waitForGroup(b, loc, pending);
    gpu::BarrierOp::create(b, loc);
    pending = requestTilesIfVisible(math, next, stage, true, false);""",
     """    waitForGroup(b, loc, pending);
    pending = requestTilesIfVisible(math, next, stage, true, false);""",
     KERNEL_MMA,
     "the next K overwrites K_s while other warps may still multiply it"),
    ("backward-p-without-log2e",
     """  Value prob = exponent.probability(
      b, loc, score, exponent.negatedLogsumexpShift(b, loc, lse));""",
     """  Value prob = exponent.probability(
      b, loc, score, safeRowMax(b, loc, lse));""",
     GPU_BACKWARD,
     "the backward kernels subtract L unscaled (and with the wrong sign) in base 2"),
    ("cp-async-no-wait",
     """        b, loc, nvgpu::DeviceAsyncTokenType::get(kernel.ctx), tokens);
    nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(1));""",
     """        b, loc, nvgpu::DeviceAsyncTokenType::get(kernel.ctx), tokens);
    (void)group;""",
     ASYNC_SWEEP, "the kernel reads prefetched K/V tiles without cp.async.wait_group"),
    ("cp-async-wait-one-too-few",
     """        b, loc, nvgpu::DeviceAsyncTokenType::get(kernel.ctx), tokens);
    nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(1));""",
     """        b, loc, nvgpu::DeviceAsyncTokenType::get(kernel.ctx), tokens);
    nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(2));""",
     ASYNC_SWEEP, "wait_group 2 leaves the block about to be read in flight"),
    ("lane-model-a-rows-swapped",
     "                  ValueRange{sourceA, lm.addConstant(elementA, 2)}))};",
     "                  ValueRange{sourceA, elementA}))};",
     ["test/Transforms/GPU/emulate-warp-fragments.mlir"] + KERNEL_MMA,
     "the CPU model of mma.sync reads row g for row g + 8"),
    ("lane-model-trans-rows",
     "        row = math.addConstant(math.mul(inGroup, math.constant(2)), j);",
     "        row = math.addConstant(math.mul(inGroup, math.constant(2)), 1 - j);",
     ["test/Transforms/GPU/emulate-warp-fragments.mlir"] + KERNEL_MMA,
     "the CPU model of ldmatrix.trans swaps a lane's two elements"),
    ("raise-divide-as-multiply",
     "      match.scale *= isDiv ? 1.0 / rhs->constant : rhs->constant;",
     "      match.scale *= rhs->constant;",
     ["test/Integration/Blocks/bert-encoder-linalg.test",
      "test/Integration/Blocks/torch-bert-argmax-f64-div.mlir",
      "test/Integration/raise-linalg.mlir"],
     "a divided scale is raised as a multiply"),
    ("raise-mask-not-inverted",
     "      match.invertMask = invert;",
     "      match.invertMask = false;",
     ["test/Integration/raise-tosa.mlir", "test/Integration/raise-masks-and-groups.mlir"],
     "masked_fill's hide-mask is raised as a keep-mask"),
    ("identity-drops-any-add",
     """  case ScalarKind::Add:
    if (isConstant(view, rhs, 0.0))""",
     """  case ScalarKind::Add:
    if (view.node(rhs).kind == ScalarKind::Constant)""",
     ["test/Transforms/RaiseAttention/normalization-near-misses.mlir"],
     "x + c is read as x for any constant c"),
    ("fold-without-rounding",
     """  rounded.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);""",
     """  (void)floatType;""",
     ["unittests"], "constants are folded in f64, not in each op's type"),
    ("transposes-dropped",
     """  if (permutation.empty())
    return tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);""",
     """  return tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);""",
     ["test/Integration/Blocks/fairseq-sequence-first.mlir",
      "test/Integration/Blocks/iree-kq-transposed-scores.mlir",
      "test/Transforms/RaiseAttention/layouts.mlir"],
     "operands held in another order reach the op untransposed"),
    ("silent-misses",
     "          uses.push_back(use);\n          continue;\n        }\n        if (!stopsTheWalk(user))",
     "          (void)use;\n          continue;\n        }\n        if (!stopsTheWalk(user))",
     ["test/Transforms/RaiseAttention/no-silent-misses.mlir"],
     "an exp that reaches a contraction unseen gets no remark"),
    # Split keys (kv_splits): the runs, the merge on the host and the merge
    # kernel.
    ("split-runs-overlap",
     "  Value offset = math.mul(split, runKeys);",
     "  Value offset = math.mul(split, math.sub(runKeys, blockKVValue));",
     SPLIT_SWEEP + [DIFFERENTIAL],
     "each key split starts one key block early, so neighbouring runs overlap"),
    ("split-last-key-dropped",
     "  return {start, math.min(visible.keyEnd, runEnd)};",
     "  return {start, math.min(math.addConstant(visible.keyEnd, -1), runEnd)};",
     SPLIT_SWEEP + [DIFFERENTIAL],
     "the last visible key is in no split"),
    ("merge-unweighted",
     "        Value term = arith::MulFOp::create(nb, nloc, w, args[0]);",
     "        Value term = args[0];",
     SPLIT_SWEEP + [DIFFERENTIAL],
     "the host merge adds the splits' outputs without their weights"),
    ("merge-kernel-unweighted",
     "                Value sum = vector::FMAOp::create(lb, lloc, w, part, state[0]);",
     "                Value sum = arith::AddFOp::create(lb, lloc, part, state[0]);",
     SPLIT_SWEEP + [DIFFERENTIAL],
     "the merge kernel adds the splits' outputs without their weights"),
    ("kernel-split-index-swapped",
     """    split = math.remU(queryBlock, splits);
    queryBlock = math.divU(queryBlock, splits);
    auto sliceOf""",
     """    split = math.divU(queryBlock, splits);
    queryBlock = math.remU(queryBlock, splits);
    auto sliceOf""",
     SPLIT_SWEEP + [DIFFERENTIAL],
     "the kernel reads its split and query block from the wrong parts of the grid index"),
    ("pack-heads-interleaved",
     """  SmallVector<int64_t> expandedShape = {type.getDimSize(0), keyHeads, group};
  SmallVector<OpFoldResult> expandedSizes = {sizes[0], b.getIndexAttr(keyHeads),
                                             b.getIndexAttr(group)};""",
     """  SmallVector<int64_t> expandedShape = {type.getDimSize(0), group, keyHeads};
  SmallVector<OpFoldResult> expandedSizes = {sizes[0], b.getIndexAttr(group),
                                             b.getIndexAttr(keyHeads)};""",
     PACK_SWEEP,
     "packing groups query heads h, h + Hkv, ... instead of the G heads that share a key/value head"),
    ("pack-causal-rows",
     "      causal && !(singleRow && *causal == DiagonalAlignment::bottom_right))",
     "      causal && !(*causal == DiagonalAlignment::bottom_right))",
     ["test/Transforms/SelectTiles/pack-gqa-errors.mlir"],
     "a bottom-right causal mask over several query rows is packed (and dropped)"),
    # Per-sequence key lengths.
    ("lengths-ignored-tiled",
     """    Value length = tensor::ExtractOp::create(b, loc, lengths, batch);
    applySequenceLength(math, geometry, length, queryLen, keyLen);""",
     """    Value length = tensor::ExtractOp::create(b, loc, lengths, batch);
    (void)length;""",
     ["test/Integration/kv-lengths.mlir"],
     "the tiled path ignores kv_lengths"),
    ("lengths-static-diagonal-kernel",
     """    keyLen = tensorKeyLen;
    applySequenceLength(math, geometry, length, queryLen, keyLen);""",
     """    keyLen = sequenceKeyLength(math, length, tensorKeyLen);""",
     ["test/Integration/kv-lengths.mlir"],
     "the kernel aligns a bottom-right causal diagonal to Nk, not to the sequence's length"),
    ("lengths-unclamped-reference",
     """          sequenceKeys =
              sequenceKeyLength(em, args[mask ? 2 : 1], keyLenValue);""",
     """          sequenceKeys = arith::IndexCastOp::create(
              nb, nloc, nb.getIndexType(), args[mask ? 2 : 1]);""",
     ["test/Integration/kv-lengths.mlir"],
     "the reference does not clamp a length to [0, Nk] (past Nk, its diagonal moves)"),
    # Paged KV caches (session 10).
    ("paged-first-page-only",
     """  Value pageIndex = math.divU(row, slots);""",
     """  Value pageIndex = math.constant(0);""",
     ["test/Integration/paged-kv-cache.mlir"],
     "every key row is read from its sequence's first page"),
    ("paged-tile-head-as-sequence",
     """               auto [page, slot] = pagedSlot(m, cache, pageTable, batch, row);""",
     """               auto [page, slot] = pagedSlot(m, cache, pageTable, kvHead, row);""",
     ["test/Integration/paged-kv-cache.mlir"],
     "the tiled path reads the page table's row of the key/value head, not of the sequence"),
    ("paged-kernel-value-unpaged",
     """  if (!pageTable || (source != key && source != value))""",
     """  if (!pageTable || source != key)""",
     ["test/Integration/paged-kv-cache.mlir"],
     "the kernel reads V as if it were not paged"),
    # Recognition of length masks and page gathers (session 10).
    ("length-mask-less-equal",
     """      if (op == ScalarOp::Less && keyThenLength) { // j < L""",
     """      if ((op == ScalarOp::Less || op == ScalarOp::LessEq) &&
          keyThenLength) { // j < L""",
     ["test/Transforms/RaiseAttention/length-masks.mlir",
      "test/Integration/raise-length-masks.mlir"],
     "j <= L is taken for j < L (one key fewer than the frontend shows)"),
    ("length-mask-hide-polarity",
     """      if (op == ScalarOp::LessEq && lengthThenKey) { // L <= j
        step.inside = 0;
        step.outside = 1;""",
     """      if (op == ScalarOp::LessEq && lengthThenKey) { // L <= j
        step.inside = 1;
        step.outside = 0;""",
     ["test/Transforms/RaiseAttention/length-masks.mlir",
      "test/Integration/raise-length-masks.mlir"],
     "L <= j is read as j < L"),
    ("length-mask-finite-bias",
     """  if (maskShows(meaning, outside) == false)
    return sym->lengths;""",
     """  if (maskShows(meaning, outside) == false || outside < 0)
    return sym->lengths;""",
     ["test/Transforms/RaiseAttention/length-masks.mlir",
      "test/Integration/raise-length-masks.mlir"],
     "a -10000 bias from a length is taken for -inf"),
    ("paged-slot-major",
     """    if (group.size() != 2 || gathered[group[0]] != GatherAxis::Page ||
        gathered[group[1]] != GatherAxis::Slot)""",
     """    if (group.size() != 2)""",
     ["test/Transforms/RaiseAttention/paged-cache.mlir",
      "test/Integration/raise-paged-cache.mlir"],
     "keys numbered slot-major are taken for page-major"),
    ("paged-two-tables",
     """    if (keyPages && valuePages && keyPages->table == valuePages->table) {""",
     """    if (keyPages && valuePages) {""",
     ["test/Transforms/RaiseAttention/paged-cache.mlir",
      "test/Integration/raise-paged-cache.mlir"],
     "K and V gathered through different tables are given K's table"),
    # Packed sequences (session 10).
    ("packed-diagonal-from-totals",
     """    applyPackedSequence(math, geometry, sequence, queryLen, keyLen);
    batch = zeroIndex;""",
     """    queryLen = sequence.queryLen;
    keyLen = sequence.keyLen;
    batch = zeroIndex;""",
     ["test/Integration/packed-sequences.mlir"],
     "the tiled path aligns a packed sequence's diagonals to the packed totals"),
    ("packed-key-base-ignored-kernel",
     """    key = rowsOf(key, sequence.keyStart, sequence.keyLen);""",
     """    key = rowsOf(key, zeroIndex, sequence.keyLen);""",
     ["test/Integration/packed-sequences.mlir"],
     "the kernel reads every sequence's K from the first packed key"),
    ("packed-reference-global-rows",
     """          row = em.sub(row, bounds.queryStart);""",
     """          (void)bounds.queryStart;""",
     ["test/Integration/packed-sequences.mlir"],
     "the reference counts query positions from the packed tensor's start"),
    # The backward pass (session 11).
    # dS = P (dP - D) is one builder (scoreGradient) for the tiled backward
    # and the reference: dropping D breaks both.
    ("backward-no-softmax-correction",
     """  Value centered = arith::SubFOp::create(b, loc, gradProb, rowTerm);""",
     """  Value centered = gradProb;""",
     BACKWARD_SWEEP[:4] + [BACKWARD + "joint-graph.mlir", BACKWARD + "sweep-n7-tail.mlir"],
     "the tiled and the reference backward drop D from dS = P (dP - D)"),
    ("backward-correction-from-grad-output",
     """      b, loc, ValueRange{op.getGradOutput(), op.getOutput()},""",
     """      b, loc, ValueRange{op.getGradOutput(), op.getGradOutput()},""",
     BACKWARD_SWEEP[:4],
     "D = rowsum(dO * dO) instead of rowsum(dO * O)"),
    ("backward-first-head-of-group",
     """      b, loc, zero, groupSize, one,""",
     """      b, loc, zero, one, one,""",
     [BACKWARD + "sweep-gqa-causal.mlir", BACKWARD + "sweep-bias-gqa.mlir",
      BACKWARD + "sweep-mqa-bias-f16.mlir"],
     "dK and dV of a key/value head sum only its group's first query head"),
    ("backward-dk-unscaled",
     """  Value gradKeyTile = finish(b, loc, headLoop.getResult(0), /*scaled=*/true);""",
     """  Value gradKeyTile = finish(b, loc, headLoop.getResult(0), /*scaled=*/false);""",
     BACKWARD_SWEEP[:4],
     "dK misses the scale"),
    ("backward-causal-rows-from-block-end",
     """    rowBegin = math.max(rowBegin, math.sub(col0, causalOffset));""",
     """    rowBegin = math.max(rowBegin, math.sub(lastCol, causalOffset));""",
     BACKWARD_CAUSAL,
     "the dK/dV pass starts at the rows that see the key block's last key, skipping rows that see only its first keys"),
    ("backward-window-rows-end",
     """    Value end = math.addConstant(lastDiagonal, window.getLeft() + 1);""",
     """    Value end = math.addConstant(lastDiagonal, window.getLeft());""",
     [BACKWARD + "sweep-window.mlir", BACKWARD + "sweep-window-causal-bottom-right.mlir",
      BACKWARD + "sweep-window-last-row-starts-block.mlir"],
     "the dK/dV pass stops one query row before the last that sees the key block through the window"),
    ("backward-dq-keys-transposed",
     """              return {multiplyAccumulate(vb, vloc, gradScores, keyTile,
                                         state[0], false)};""",
     """              return {multiplyAccumulate(vb, vloc, gradScores, keyTile,
                                         state[0], true)};""",
     BACKWARD_SWEEP[:4],
     "dQ += dS^T K instead of dS K (same shapes when the tiles are square)"),
    ("backward-bias-gradient-first-batch",
     """    if (broadcast)
      return {zero, size};""",
     """    if (broadcast)
      return {zero, one};""",
     [BACKWARD + "sweep-bias-gradient.mlir",
      BACKWARD + "sweep-bias-gradient-key-padding-causal.mlir",
      BACKWARD + "sweep-bias-gradient-per-row.mlir"],
     "the tiled bias gradient sums only the first batch entry and head of those the bias broadcasts over"),
    ("backward-bias-gradient-rows-unskipped-wrongly",
     """    rowBegin = math.max(rowBegin, begin);""",
     """    rowBegin = math.max(rowBegin, math.addConstant(begin, 1));""",
     [BACKWARD + "sweep-window.mlir", BACKWARD + "sweep-window-last-row-starts-block.mlir",
      BACKWARD + "sweep-bias-gradient-full-window-f16.mlir"],
     "the dK/dV pass (and the bias gradient's row walk) starts one row after the first that sees the key block through the window"),
    ("reference-bias-gradient-from-probs",
     """          b, loc, ValueRange{gradModified}, zeros(maskSizes),""",
     """          b, loc, ValueRange{probs}, zeros(maskSizes),""",
     [BACKWARD + "sweep-bias-gradient.mlir"],
     "the bias gradient sums P instead of dS"),
    ("joint-row-term-unchecked",
     """    return matchGradProbabilities(difference->operands[0]) &&
           matchRowCorrection(difference->operands[1]);""",
     """    return matchGradProbabilities(difference->operands[0]);""",
     JOINT_TESTS, "softmax's backward is accepted whatever its row term sums"),
    ("joint-gradient-factor-inverted",
     """    double ratio = sameScale(factor, match.scale) ? 1.0 : factor / match.scale;""",
     """    double ratio = sameScale(factor, match.scale) ? 1.0 : match.scale / factor;""",
     JOINT_TESTS, "a gradient scaled beyond the forward's scale gets the inverse factor"),
    ("joint-any-gradient-select",
     """        if (conditionTensor && sameMask(conditionTensor, mask.condition) &&""",
     """        if (conditionTensor &&""",
     JOINT_TESTS, "the gradient may be masked by any tensor, not only the forward's mask"),
    ("joint-k-operand-unchecked",
     """    if (!sameTensor(read, forward))
      return fail(RejectCategory::Contraction,""",
     """    if (false)
      return fail(RejectCategory::Contraction,""",
     JOINT_TESTS, "dQ and dK may contract the score gradient with any tensor"),
    ("joint-two-grad-outputs",
     """  if (gradOutput != source->value ||
      !sameAxes(gradOutputLabels, source->labels))""",
     """  if (false)""",
     JOINT_TESTS, "dV and dP may read different tensors as dO"),
    ("joint-gradient-factor-dropped",
     """      if (use->factor != 1.0)
        gradient = scaleTensor(b, loc, gradient, use->factor);""",
     """      (void)scaleTensor;""",
     JOINT_TESTS, "a scaled Pᵀ·dO (or dS) is raised without its extra factor"),
    ("joint-gradients-swapped",
     """    replaceGradient(backward.gradQuery, gradQuery, /*queryRows=*/true);
    replaceGradient(backward.gradKey, gradKey, /*queryRows=*/false);""",
     """    replaceGradient(backward.gradQuery, gradKey, /*queryRows=*/true);
    replaceGradient(backward.gradKey, gradQuery, /*queryRows=*/false);""",
     JOINT_TESTS, "the raised dQ and dK are swapped"),
    ("joint-gradient-layout-dropped",
     """      gradient = transpose(b, loc, gradient, use->permutation);""",
     """      gradient = transpose(b, loc, gradient, {});""",
     JOINT_TESTS, "a gradient the frontend writes transposed is returned in the op's order"),
    ("joint-backward-before-grad-output",
     """    rewriter.setInsertionPoint(backward.insertionPoint);""",
     """    rewriter.setInsertionPoint(forwardPoint);""",
     JOINT_TESTS, "the backward op is emitted before a dO computed from O"),
    ("joint-merge-reads-other-batch",
     """  Labels guess = {Axis{AxisKind::Batch, 0}};""",
     """  Labels guess = {Axis{AxisKind::Batch, 1}};""",
     JOINT_TESTS, "a merged [B·H] dim is labelled as another batch dim"),
    ("joint-dq-factor-from-read-only",
     """    factor *= readScale / forwardScale;""",
     """    factor *= readScale;""",
     JOINT_TESTS, "the scale of the forward's own Q or K is counted twice"),
    ("joint-nan-heads-dropped",
     """      gradValue = poisonGradient(b, loc, gradValue, heads, perHead, Value());""",
     """      (void)perHead;""",
     JOINT_TESTS, "dV keeps the op's 0 where the frontend's is NaN (a head with an empty row)"),
    ("joint-nan-rows-despite-select",
     """      if (!backward.gradQuery || !backward.gradQuery->maskedGradient)""",
     """      if (true)""",
     JOINT_TESTS, "dQ gets NaN rows even where masked_fill's backward zeroed them"),
    # The backward GPU kernels (session 13).
    ("backward-kernel-no-correction",
     """  Value centered = arith::SubFOp::create(b, loc, gradProb, term);""",
     """  Value centered = gradProb;""",
     GPU_BACKWARD, "the kernels drop D from dS = P (dP - D)"),
    ("backward-kernel-b-not-transposed",
     """          ldmatrix(rhs, rhsStage, row, column, width, elementType, true));""",
     """          ldmatrix(rhs, rhsStage, row, column, width, elementType, false));""",
     GPU_BACKWARD, "dO, Q and K are read without .trans as the B operands of dV, dK and dQ"),
    ("backward-kernel-fragment-halves-swapped",
     """        int64_t n = 2 * step + reg / 2, r = reg % 2;
        fragment =
            vector::InsertOp::create(b, loc, pairs[""",
     """        int64_t n = 2 * step + reg % 2, r = reg / 2;
        fragment =
            vector::InsertOp::create(b, loc, pairs[""",
     GPU_BACKWARD, "P^T and dS^T's A fragments take the accumulator halves in the wrong order"),
    ("backward-kernel-first-head-of-group",
     """  Value iterations = math.mul(groupSize, queryBlocks);""",
     """  Value iterations = queryBlocks;""",
     GPU_BACKWARD, "the dK/dV kernel sums only the first query head of a group"),
    ("backward-kernel-dk-unscaled",
     """                 gradKey, batch, kvHead, rowBase, keyLen, scale);""",
     """                 gradKey, batch, kvHead, rowBase, keyLen,
                 f32Constant(b, loc, 1));""",
     GPU_BACKWARD, "dK misses the scale (kernel)"),
    ("backward-kernel-padded-rows-count",
     """  Value skip = arith::OrIOp::create(
      b, loc, noKey,""",
     """  Value skip = noKey;
  (void)arith::OrIOp::create(
      b, loc, noKey,""",
     GPU_BACKWARD, "query rows past Nq (zero-filled Q and dO, L of the last row) add to dK and dV"),
    ("backward-kernel-dq-kv-head",
     """  Value kvHead = math.divU(head, groupSize);
  Value querySmem""",
     """  Value kvHead = math.remU(head, groupSize);
  Value querySmem""",
     GPU_BACKWARD, "the dQ kernel reads K/V head h mod G instead of h / G"),
    ("backward-kernel-no-end-barrier",
     """        // Before a buffer is filled again, every warp is done with it.
        gpu::BarrierOp::create(b, lloc);""",
     """        // Before a buffer is filled again, every warp is done with it.""",
     GPU_BACKWARD, "the dK/dV kernel refills Q_s and dO_s while other warps may still read them"),
    ("backward-kernel-wait-too-few",
     """          Value group = prefetch(lm, next, nextStage);
          nvgpu::DeviceAsyncWaitOp::create(b, lloc, group,
                                           b.getI32IntegerAttr(1));""",
     """          Value group = prefetch(lm, next, nextStage);
          nvgpu::DeviceAsyncWaitOp::create(b, lloc, group,
                                           b.getI32IntegerAttr(2));""",
     GPU_BACKWARD_ASYNC, "the dQ kernel computes a key block before its cp.async group has landed"),
    ("backward-kernel-stream-stage",
     """          stage = lm.remU(it, lm.constant(stages));""",
     """          stage = lm.remU(lm.addConstant(it, 1), lm.constant(stages));""",
     GPU_BACKWARD_ASYNC, "the dK/dV kernel reads the buffer being prefetched, not the one that landed"),
    ("backward-kernel-bias-gradient-one-member",
     """  Value members = math.mul(maskBroadcast[0] ? batchSize : one, headMembers);""",
     """  Value members = one;""",
     GPU_BIAS_GRADIENT + ["test/Differential/random-backward-kernel.test"],
     "the bias gradient's kernel sums only the first batch entry or head the bias broadcasts over"),
    ("backward-kernel-bias-gradient-stored-early",
     """        Value last = lm.eq(member, lm.addConstant(members, -1));""",
     """        Value last = lm.eq(member, member);""",
     GPU_BIAS_GRADIENT + ["test/Differential/random-backward-kernel.test"],
     "the bias gradient's kernel stores (and restarts) its sum after every member, keeping only the last one's dS"),
    # 32-bit kernel indices (issue 28): a module that could overflow must
    # keep 64 bits.
    ("narrow-limit-off-by-one",
     """    if (span >= kIndexLimit)""",
     """    if (span > kIndexLimit)""",
     NARROW_TESTS, "a kernel spanning exactly 2^31 elements gets a 32-bit index"),
    ("narrow-index-arguments",
     """      if (argument.getType().isIndex())
        refuse(func, "an index argument");
""",
     "",
     NARROW_TESTS, "a kernel taking an index argument (passed as i64 by the host) is narrowed"),
    ("narrow-strides-ignored",
     """    span += static_cast<__int128>(size - 1) * (stride < 0 ? -stride : stride);""",
     """    span += static_cast<__int128>(size - 1);""",
     NARROW_TESTS, "a strided kernel argument is measured by its element count, not its largest offset"),
    # Issue 29: the frontends' default spellings.
    ("guard-any-accepted",
     """  if (!everyKeyNegInf && !someKeyVisible) {""",
     """  if (false) {""",
     ["test/Transforms/RaiseAttention/empty-row-guard-near-misses.mlir"],
     "a guard that zeroes rows with some hidden key (any) is taken for _safe_softmax's"),
    ("guard-rows-restored-as-nan",
     """  if (emptyRowsGuarded && match.fullyMaskedRows == FullyMaskedRows::NaN)
    match.fullyMaskedRows = FullyMaskedRows::Zero;""",
     "",
     ["test/Integration/raise-safe-softmax.mlir",
      "test/Integration/Blocks/torch-safe-softmax-padding.mlir",
      "test/Integration/Backward/raise-joint-graph-safe-softmax.mlir"],
     "under _safe_softmax's guard the empty rows still get the NaN fix-up"),
    ("mask-fill-ignored",
     """    else if (std::isinf(hiddenScore) && hiddenScore < 0)
      require(element);""",
     """    else if (true)
      require(element);""",
     ["test/Integration/raise-finite-fills.mlir"],
     "mask_fill is ignored: hidden keys become -inf in every lowering"),
    ("mask-fill-fma-exponent",
     """    result.subtractFirst = filled || scoreModMayBeHuge(op);""",
     """    result.subtractFirst = scoreModMayBeHuge(op);""",
     ["test/Integration/raise-finite-fills.mlir"],
     "the kernels' exponent scales before subtracting with a fill of -0.7 max (m c overflows)"),
    ("combined-causal-stays-bottom-right",
     """      match.causal = DiagonalAlignment::top_left;
    else if (*match.causal == DiagonalAlignment::bottom_right)""",
     """      ;
    else if (*match.causal == DiagonalAlignment::bottom_right)""",
     ["test/Integration/raise-multiple-masks.mlir"],
     "a causal mask combined with kv_lengths keeps bottom-right, which the op aligns per sequence"),
    ("in-body-condition-reads-scores",
     """    if (!inputLabels || dependsOnContraction(leaf(input, *inputLabels)))
      return Value();""",
     """    if (!inputLabels)
      return Value();""",
     ["test/Transforms/RaiseAttention/mask-in-select-body.mlir"],
     "a select whose in-body condition reads the scores is taken for a mask"),
    ("grouped-second-reading-skipped",
     """  if (!twoQueryLoops || (match && !match->mask))""",
     """  if (true)""",
     ["test/Integration/raise-grouped-contraction.mlir"],
     "a grouped contraction whose sequence comes after its group keeps its causal mask as a tensor"),
    ("grouped-mask-not-broadcast",
     """  if (hasHeads != hasGroup) {""",
     """  if (false) {""",
     ["test/Integration/raise-grouped-contraction.mlir"],
     "a grouped mask that varies with the group only is merged as if it varied with the heads"),
    ("joint-masks-never-compared",
     """bool sameMask(Value a, Value b) {
  if (a == b)
    return true;""",
     """bool sameMask(Value a, Value b) {
  return true;""",
     ["test/Transforms/RaiseAttention/joint-graphs.mlir"],
     "the backward's select is taken for the forward's mask whatever its condition"),
    ("joint-causal-dk-window-off-by-one",
     """                   nb, nloc, arith::CmpIPredicate::sle, column, last);""",
     """                   nb, nloc, arith::CmpIPredicate::slt, column, last);""",
     ["test/Integration/Backward/raise-joint-graph-several-masks.mlir"],
     "dK's NaNs under a causal gradient select stop one key short of an empty row's window"),
    ("joint-several-masks-any-select",
     """      if (condition != causalMask || !causalKeepsARow)""",
     """      if (false)""",
     ["test/Transforms/RaiseAttention/joint-graphs.mlir"],
     "a gradient select whose mask may empty rows by itself is taken beside another mask"),
    ("backward-fill-gradient-kept",
     """  bool filled = maskTile && op.getMaskFillAttr();""",
     """  bool filled = false;""",
     ["test/Integration/Backward/raise-joint-graph-finite-fills.mlir"],
     "the tiled backward gives a filled key's constant score a gradient"),
    ("kernel-backward-fill-gradient-kept",
     """  if (filled)
    gradScore = arith::SelectOp::create(b, loc, filled, zero, gradScore);""",
     "",
     ["test/Integration/Backward/gpu-kernel-mask-fill-empty-rows-f16.mlir"],
     "the backward kernel gives a filled key's constant score a gradient"),
    ("kernel-backward-fill-shift",
     """    if (subtractFirst)
      return arith::NegFOp::create(b, loc, safeRowMax(b, loc, lse));""",
     "",
     ["test/Integration/Backward/gpu-kernel-mask-fill-empty-rows-f16.mlir"],
     "the backward kernel shifts a filled op's exponent by -L log2 e where it subtracts before scaling"),
    ("joint-large-fill-any-mask",
     """  if (match.backward && match.maskFill && std::abs(*match.maskFill) > 16.0 &&""",
     """  if (match.backward && match.maskFill && false &&""",
     ["test/Transforms/RaiseAttention/joint-graphs.mlir"],
     "a joint graph with -0.7 max and a runtime mask is raised, whose filled rows the backward rebuilds as weight 1"),
    ("one-key-length-not-read",
     """      if (keyLen == 1)
        for (Sym &operand : operands)""",
     """      if (false)
        for (Sym &operand : operands)""",
     ["test/Transforms/RaiseAttention/length-masks.mlir"],
     "with one key the length compared with 0 stays a mask, not kv_lengths"),
    ("grouped-joint-empty-rows-accepted",
     """  if (match.backward && match.groupAxis &&
      match.fullyMaskedRows == FullyMaskedRows::NaN)""",
     """  if (false)""",
     ["test/Transforms/RaiseAttention/joint-graphs.mlir"],
     "a grouped joint graph whose rows may empty is raised, its NaNs restored per query head on per-K/V-head gradients"),
    ("grouped-joint-dk-group-kept",
     """          if (kindOf(query) == AxisKind::Query &&
              kindOf(group) == AxisKind::Group) {""",
     """          if (false) {""",
     ["test/Integration/Backward/raise-joint-graph-grouped.mlir"],
     "dK and dV of grouped queries, summed over the group, are not read as gradients"),
    ("peel-drops-unit-head",
     """      if (isOrderOfAxes(current->labels) && keepsEveryAxis(current->labels)) {""",
     """      if (isOrderOfAxes(current->labels)) {""",
     ["test/Differential/random-programs.test"],
     "Q peeled through the reshape that inserted a K/V head of size 1 loses that axis"),
    ("reduction-reads-narrowing",
     """    while (view->node(node).kind == ScalarKind::ExtF)""",
     """    while (view->node(node).kind == ScalarKind::ExtF ||
           view->node(node).kind == ScalarKind::TruncF)""",
     ["test/Transforms/RaiseAttention/normalization-near-misses.mlir"],
     "a row sum of exponentials narrowed to f16 is taken for the softmax's sum"),
    # Issue 31: two bugs an outside audit wrote that no test caught.
    ("merge-max-starts-at-zero",
     """      createFilled(b, loc, rowSizes, f32, negInf), {lseBySplit, rowOf4},""",
     """      createFilled(b, loc, rowSizes, f32, zero), {lseBySplit, rowOf4},""",
     [SWEEP + "splits3-far-bias.mlir", SWEEP + "kernel-mma-far-bias-splits4.mlir"],
     "the split-KV merge's max starts at 0: rows whose partial logsumexps are all below -88 merge to 0"),
    ("pack-gqa-top-left-single-row",
     """      causal && !(singleRow && *causal == DiagonalAlignment::bottom_right))""",
     """      causal && !singleRow)""",
     ["test/Integration/pack-gqa-decode-alignments.mlir",
      "test/Integration/pack-gqa-decode-few-keys.mlir"],
     "a one-row decode under a top-left causal mask is packed: packed rows see keys past key 0"),
    # Issue 35: the register-fragment epilogue's bound, off by one. Before
    # the output guards (fa-guard-kernel-outputs) it corrupted the heap
    # ("double free or corruption") or hung; now each named test fails by
    # the guard check, which reports row Nq of the output.
    ("fragment-epilogue-row-past-end",
     """          b, loc, math.lt(row, queryLen), [&](OpBuilder &tb, Location tloc) {""",
     """          b, loc, math.le(row, queryLen), [&](OpBuilder &tb, Location tloc) {""",
     [SWEEP + "kernel-mma-causal-d128.mlir", "test/Integration/packed-sequences.mlir"],
     "the register-fragment epilogue stores row Nq, one row past the output"),
    # Issue 31: a kernel that takes a partial last key block for a whole
    # one copies it without clamps or zero fill, so cp.async reads past K
    # and V; the CPU model's source check (fa-emulate-threads-on-cpu)
    # reports the copy and its indices in each named test.
    ("whole-key-blocks-ignores-tail",
     """    return !kvLengths && !packedKeys && !ShapedType::isDynamic(keys) &&
           keys % blockKV == 0;""",
     """    return !kvLengths && !packedKeys && !ShapedType::isDynamic(keys);""",
     [SWEEP + "kernel-mma-causal-d128.mlir", SWEEP + "kernel-mma-stages2-window.mlir"],
     "cp.async reads the last, partial key block whole, past the end of K and V"),
    # Issue 31: operator-mutation survivors (scripts/mutate-operators.py,
    # seed 31) that were missing tests, with the tests that now kill them.
    ("op31-empty-row-keys-offset-subtracted",
     """               Value last = arith::AddIOp::create(
                   nb, nloc, row,""",
     """               Value last = arith::SubIOp::create(
                   nb, nloc, row,""",
     [BACKWARD + "raise-joint-graph-several-masks-offset.mlir"],
     "dK's NaNs restored at keys j <= i - (Nk - Nq), not j <= i + (Nk - Nq)"),
    ("op31-constant-mask-key-stride",
     """  for (int64_t dim = type.getRank() - 1; dim > keyDim && keyDim >= 0; --dim)""",
     """  for (int64_t dim = type.getRank() - 1; dim > keyDim + 1 && keyDim >= 0; --dim)""",
     ["test/Transforms/RaiseAttention/joint-graph-constant-mask-rows.mlir"],
     "a constant mask stored [key, query] is read along the wrong dim for empty rows"),
    ("op31-async-queue-one-copy-short",
     """      perGroup *= std::max<int64_t>(llvm::divideCeil(*upper - *lower, *step), 1);""",
     """      perGroup *= std::max<int64_t>(llvm::divideCeil(*upper - *lower, *step) - 1, 1);""",
     ["test/Transforms/GPU/emulate-async-copies-counted-loops.mlir"],
     "the CPU model's cp.async queue holds one copy fewer per loop, so copies land before their wait"),
    ("op31-dp-operands-in-order",
     """  unsigned gradIndex = llvm::is_contained(*lhs, Axis{AxisKind::Query}) ? 0 : 1;""",
     """  unsigned gradIndex = 0;""",
     [BACKWARD + "raise-joint-graphs.mlir"],
     "dP = dO·Vᵀ is only matched with dO as the first operand"),
    ("op31-several-masks-query-length-unpermuted",
     """    int64_t queryLen = queryType.getDimSize(
        match.queryPermutation.empty()""",
     """    int64_t queryLen = queryType.getDimSize(
        true""",
     [BACKWARD + "raise-joint-graph-several-masks-offset.mlir"],
     "Nq of a joint graph with several masks read without Q's permutation"),
    ("op31-several-masks-key-length-unpermuted",
     """    int64_t keyLen = keyType.getDimSize(
        match.keyPermutation.empty()""",
     """    int64_t keyLen = keyType.getDimSize(
        true""",
     [BACKWARD + "raise-joint-graph-several-masks-offset.mlir"],
     "Nk of a joint graph with several masks read without K's permutation"),
    ("op31-guard-reshape-types-swapped",
     """      reshapes.emplace_back(cast<ShapedType>(def->getOperand(0).getType()),
                            cast<ShapedType>(current.getType()));""",
     """      reshapes.emplace_back(cast<ShapedType>(current.getType()),
                            cast<ShapedType>(def->getOperand(0).getType()));""",
     ["test/Integration/raise-safe-softmax.mlir"],
     "an empty-row guard behind reshapes is read through them backwards"),
    ("op31-length-step-max-as-min",
     """    double picked = op == ScalarOp::Max ? std::max(args[0], args[1])""",
     """    double picked = op == ScalarOp::Max ? std::min(args[0], args[1])""",
     ["test/Transforms/RaiseAttention/length-masks-clamped.mlir"],
     "a padding bias clamped below (max) is folded as min: it stays a mask"),
    ("op31-length-step-min-as-max",
     """                                        : std::min(args[0], args[1]);""",
     """                                        : std::max(args[0], args[1]);""",
     ["test/Transforms/RaiseAttention/length-masks-clamped.mlir"],
     "a padding bias clamped above (min) is folded as max: it stays a mask"),
    ("op31-bias-gradient-batch-range-from-heads",
     """      range(maskBroadcast[0], gridB, math.dim(query, 0));""",
     """      range(maskBroadcast[0], gridB, math.dim(query, 1));""",
     [BACKWARD + "sweep-bias-gradient-batch-broadcast-b3.mlir"],
     "the tiled backward sums a batch-broadcast bias gradient over H batches, not B"),
    ("op31-logsumexp-for-one-split",
     """  bool wantsLogsumexp() { return op.getLogsumexp() || kvSplits > 1; }""",
     """  bool wantsLogsumexp() { return op.getLogsumexp() || kvSplits >= 1; }""",
     ["test/Transforms/TileAttention/logsumexp-only-when-needed.mlir"],
     "the tiled forward computes a logsumexp nobody reads when the keys are not split"),
    ("op31-backward-fused-traffic-unset",
     """  costs.hbmBytesTiled = clampToInt64(
      double(batch) * double(heads) *
      (double(costs.visitedKVTiles) * perPair + once));""",
     """  (void)clampToInt64(
      double(batch) * double(heads) *
      (double(costs.visitedKVTiles) * perPair + once));""",
     ["unittests"],
     "the backward cost model reports no HBM traffic for the fused kernel"),
    ("op31-rsqrt-of-zero-is-a-scale",
     """        if (!x || *x <= 0)
          return std::nullopt;
        double root = std::sqrt(*x);""",
     """        if (!x && *x <= 0)
          return std::nullopt;
        double root = std::sqrt(*x);""",
     ["unittests"],
     "rsqrt of 0 or of a negative constant is taken as an exact scale"),
    ("op31-paged-gather-one-key-too-many",
     """  OpFoldResult keys = b.getIndexAttr(tableType.getDimSize(1) *
                                     type.getDimSize(1));""",
     """  OpFoldResult keys = b.getIndexAttr(tableType.getDimSize(1) *
                                     type.getDimSize(1) + 1);""",
     ["test/Integration/paged-kv-cache.mlir"],
     "the reference gathers a paged cache into M*S + 1 keys"),
    ("op31-paged-gather-heads-from-head-dim",
     """      tensor::getMixedSize(b, loc, cache, 2), keys,""",
     """      tensor::getMixedSize(b, loc, cache, 3), keys,""",
     ["test/Integration/paged-kv-cache.mlir"],
     "the reference's paged gather takes its head count from the head dim"),
    ("op31-packing-builds-at-the-callers-point",
     """  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  int64_t keyHeads = op.getKeyHeads();""",
     """  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  int64_t keyHeads = op.getKeyHeads();""",
     ["unittests"],
     "packQueryGroups builds its reshapes wherever the caller's builder points"),
    ("op31-no-collective-waves",
     """  if (op->getNumRegions() != 0 || isa<gpu::BarrierOp>(op))
    return false;
  if (isMemoryEffectFree(op))""",
     """  if (op->getNumRegions() == 0 || isa<gpu::BarrierOp>(op))
    return false;
  if (isMemoryEffectFree(op))""",
     ["test/Transforms/GPU/emulate-warp-fragments.mlir"],
     "the CPU emulation gives every warp collective its own barrier"),
    ("op31-backward-fill-mask-map-from-head-dim",
     """          queryType.getDimSize(2), op.getKey().getType().getDimSize(2)};
      gradInputs.push_back(op.getMask());""",
     """          queryType.getDimSize(3), op.getKey().getType().getDimSize(2)};
      gradInputs.push_back(op.getMask());""",
     ["test/Transforms/decompose-attention.mlir"],
     "the reference backward broadcasts a filled mask by comparing it with the head dim"),
    ("op31-dynamic-key-length-fits-anything",
     """                              ? std::numeric_limits<int32_t>::max()
                              : keyLen - 1;""",
     """                              ? std::numeric_limits<int32_t>::min()
                              : keyLen - 1;""",
     ["test/Transforms/RaiseAttention/length-masks.mlir"],
     "a key position narrowed to i16 on a dynamic key length is still taken for j"),
    ("op31-generic-repeat-keeps-wrong-dims",
     """      if (d == dim)
        continue;
      if (map.getResult(r++) != getAffineDimExpr(d, ctx))""",
     """      if (d != dim)
        continue;
      if (map.getResult(r++) != getAffineDimExpr(d, ctx))""",
     ["test/Transforms/RaiseAttention/linalg-spellings.mlir"],
     "a GQA repeat written as a generic copy without the group dim is not found"),
    ("op31-reference-shows-key-at-length",
     """              nb, nloc, arith::CmpIPredicate::slt, col, sequenceKeys));""",
     """              nb, nloc, arith::CmpIPredicate::sle, col, sequenceKeys));""",
     ["test/Integration/kv-lengths.mlir"],
     "the reference shows key L_b of a sequence with kv_lengths (hidden only by a causal mask)"),
    ("op31-reference-batch-from-heads",
     """  SmallVector<int64_t> scoreShape = {
      queryType.getDimSize(0), queryType.getDimSize(1),""",
     """  SmallVector<int64_t> scoreShape = {
      queryType.getDimSize(1), queryType.getDimSize(1),""",
     ["test/Transforms/decompose-attention.mlir"],
     "the reference decides a mask's batch broadcast by the head count"),
    ("op31-narrowing-as-unsigned",
     """        bool fits = to >= 64 || largest < (int64_t(1) << (to - 1));""",
     """        bool fits = to >= 64 || largest < (int64_t(1) << to);""",
     ["test/Transforms/RaiseAttention/length-masks.mlir"],
     "a key position truncated to i8 with Nk = 200 is still taken for j (it wraps negative)"),
    ("op31-fragment-rows-three-per-tile",
     """    for (int64_t r = 0; r < 2; ++r)
      rows.push_back(math.add(""",
     """    for (int64_t r = 0; r <= 2; ++r)
      rows.push_back(math.add(""",
     ["test/Integration/Tiling/kernel-mma-two-m-tiles-causal.mlir"],
     "the register-fragment kernel takes the second m-tile's rows from the wrong tile"),
    ("op31-bias-gradient-refill-without-barrier",
     """        // Every tile is refilled next iteration.
        gpu::BarrierOp::create(b, lloc);""",
     """        // Every tile is refilled next iteration.""",
     [BACKWARD + "gpu-kernel-bias-gradient-four-warps-f16.mlir",
      "test/Differential/random-backward-kernel.test"],
     "the bias-gradient kernel refills its tiles while other warps still read them"),
    ("op31-constant-mask-row-dim-defaults-to-batch",
     """  int64_t rowDim = -1, colDim = -1;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Query)""",
     """  int64_t rowDim = 0, colDim = -1;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Query)""",
     ["test/Transforms/RaiseAttention/constant-mask-near-misses.mlir"],
     "a constant mask triangular over the batch is raised as bottom-right causal"),
    ("op31-register-file-one-short",
     """      std::min(target.registersPerThread, target.registersPerSM / threads);""",
     """      std::min(target.registersPerThread, target.registersPerSM / threads - 1);""",
     ["unittests"],
     "a tiling that uses exactly the whole register file is taken not to fit"),
    ("op31-row-term-other-factor",
     """    return isGradOutput(factors[1 - outputIndex]);""",
     """    return isGradOutput(factors[outputIndex - 1]);""",
     [BACKWARD + "raise-joint-graphs.mlir"],
     "rowsum(O∘dO), its factors the other way round, reads a factor that is not there"),
    ("op31-constant-mask-key-dim-defaults-to-batch",
     """  int64_t rowDim = -1, colDim = -1;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Query)""",
     """  int64_t rowDim = -1, colDim = 0;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Query)""",
     ["test/Transforms/RaiseAttention/constant-mask-near-misses.mlir"],
     "a constant mask with no key dim, triangular over the batch, is raised as bottom-right causal"),
    # Issue 51's algebraic rules (docs/Recognition.md, "Normalization
    # before matching").
    ("exp2-without-ln2",
     "  unsigned ln2 = addConstant(view, std::log(2.0));",
     "  unsigned ln2 = addConstant(view, 1.0);",
     ["test/Integration/raise-algebraic-rules.mlir", "test/HeldOut/held-out.test"],
     "exp2(y) read as exp(y): the scale loses its ln 2"),
    ("shift-by-any-row-max-of-it",
     "  if (!matchRowReduction(max, inner, /*isMax=*/true, \"shifted row max\"))\n    return nullptr;",
     "  (void)max;",
     ["test/Transforms/RaiseAttention/algebraic-rules-near-misses.mlir"],
     "x - max over the queries of x dropped under the softmax as if a row max"),
    ("deferred-product-taken-for-division",
     "        sum = reciprocalOf(divided->operands[1 - side]);",
     "        sum = divided->operands[1 - side];",
     ["test/Transforms/RaiseAttention/algebraic-rules-near-misses.mlir"],
     "P·V multiplied by the row sum read as divided by it"),
    ("zero-start-any-max",
     "  return max->initConstant && *max->initConstant == *start;",
     "  return max->initConstant.has_value();",
     ["test/Transforms/RaiseAttention/online-softmax.mlir", "test/HeldOut/held-out.test"],
     "exp(m0 - max)·0 taken for 0 when the max starts elsewhere"),
    ("bias-factor-dropped",
     "    if (match.maskFactor != 1.0)\n      mask = scaleTensor(b, loc, mask, match.maskFactor);",
     "    (void)match.maskFactor;",
     ["test/Integration/raise-algebraic-rules.mlir", "test/HeldOut/held-out.test"],
     "a bias under a scale added unscaled"),
    ("query-scale-divides-multiplies",
     "                   match.queryScaleDivides\n                       ? arith::DivFOp",
     "                   !match.queryScaleDivides\n                       ? arith::DivFOp",
     ["test/Integration/raise-algebraic-rules.mlir", "test/HeldOut/held-out.test"],
     "a tensor scale on the scores divides Q instead of multiplying it"),
    ("tensor-scale-over-bias",
     "  if (tensorScale)\n    return fail(RejectCategory::Scale,\n                \"a bias is added under a scale held in a tensor; only a \"",
     "  if (false)\n    return fail(RejectCategory::Scale,\n                \"a bias is added under a scale held in a tensor; only a \"",
     ["test/Transforms/RaiseAttention/algebraic-rules-near-misses.mlir"],
     "a bias under a tensor scale is not scaled by it"),
    ("widened-value-not-widened",
     "  if (match.widenValueTo)\n    value = arith::ExtFOp::create(",
     "  if (false)\n    value = arith::ExtFOp::create(",
     ["test/Integration/raise-mixed-element-types.mlir"],
     "V kept in f16 beside f32 Q and K"),
    ("unit-factor-taken-for-scale",
     "  return std::abs(factor - 1.0) <= 1e-6 ? 1.0 : factor;",
     "  return factor;",
     ["test/Differential/random-programs-algebra.test"],
     "exp2(y·log2 e)'s factor 1 + 2e-8 read as a scale (a finite fill below it refused, the log-sum-exp spelling missed)"),
    ("op31-external-uses-ignored-with-logsumexp",
     """      if ((match.logsumexp && op == logsumexpOp) ||
          op == match.normalization)
        continue;""",
     """      if ((match.logsumexp || op == logsumexpOp) ||
          op == match.normalization)
        continue;""",
     ["test/Transforms/RaiseAttention/near-misses.mlir"],
     "with a logsumexp matched, no intermediate's use outside the pattern is seen"),
    # Issue 50: survivors of the partial operator run over the code since
    # 4d6e4b0 (session 31, seed 50), with the tests that now kill them.
    ("op50-linear-reference-eps-subtracted",
     """                arith::AddFOp::create(nb, nloc, args[1], epsValue);""",
     """                arith::SubFOp::create(nb, nloc, args[1], epsValue);""",
     ["test/Integration/LinearAttention/lowering.mlir"],
     "the reference linear attention divides by Σ − ε instead of Σ + ε"),
    ("op50-ptxas-registers-least",
     """      result.registers = std::max(result.registers, value);""",
     """      result.registers = std::min(result.registers, value);""",
     ["unittests"],
     "a trial's registers read from its lightest kernel, not its heaviest"),
    ("op50-trial-index-bitwidth-dropped",
     """  options.indexBitwidth = pass.indexBitwidth;
}""",
     """}""",
     ["unittests"],
     "fa-confirm-tiles-with-ptxas assembles its trials with 64-bit indices whatever the pipeline's index-bitwidth"),
    ("op50-score-mod-maxnum-first-operand",
     """      value = arith::MaxNumFOp::create(b, loc, operand(0), operand(1));""",
     """      value = arith::MaxNumFOp::create(b, loc, operand(1), operand(1));""",
     [MOD + "raise-softcap.mlir"],
     "a floor on the scores (maxnumf) rebuilt in score_mod without the score"),
    ("proven-causal-ignores-later-keys",
     """    return hidden && !hidden->first;
  };""",
     """    return true;
  };""",
     ["test/Transforms/FoldMasks/bands.mlir"],
     "a mask_mod read as causal once every row sees [0, q], whatever it shows after q"),
    ("score-condition-refused",
     """    if (term->kind == ScalarKind::Compare || term->kind == ScalarKind::Not) {
      // A condition on the score itself""",
     """    if (false) {
      // A condition on the score itself""",
     ["test/Integration/raise-score-conditions.mlir"],
     "a select whose condition compares the score (nan_to_num, a clamp) left unraised"),
    ("score-read-twice-by-pointer",
     """    if (argument && !sameComputation(argument, term)) {""",
     """    if (argument && argument != term) {""",
     ["test/Integration/raise-score-conditions.mlir"],
     "TOSA's score, read through a new leaf at each comparison, taken for a second score"),
    ("comparison-constants-yielded",
     """    if (node.kind == ScalarKind::Constant && !yieldable[number])
      continue;""",
     """    (void)yieldable[number];""",
     ["test/Integration/raise-score-conditions.mlir"],
     "nan_to_num's compared infinities read as scores the function yields: a needless NaN-row guard"),
    ("kernel-huge-score-mod-scaled-first",
     """    result.subtractFirst = filled || scoreModMayBeHuge(op);""",
     """    result.subtractFirst = filled;""",
     ["test/Integration/raise-score-conditions.mlir"],
     "a score_mod yielding ±FLT_MAX scaled by log2 e before the max is subtracted: inf - inf = NaN in the kernel"),
    ("linear-combination-affine",
     """                      [&](Operation *) { return linearOperands == 2; })""",
     """                      [&](Operation *) { return linearOperands >= 1; })""",
     ["test/Integration/raise-linear-combinations.mlir"],
     "P·V distributed over P₁ − λP₂ + c, which is affine (c·ΣV lost)"),
    ("linear-combination-product",
     """                  .Case([&](arith::MulFOp) { return linearOperands == 1; })""",
     """                  .Case([&](arith::MulFOp) { return linearOperands >= 1; })""",
     ["test/Integration/raise-linear-combinations.mlir"],
     "P·V distributed over P₁ · P₂ elementwise"),
    ("linear-combination-weight-along-keys",
     """        if (to < 0) // varies along what the contraction sums
          return refuse("a weight of the combination varies along the keys "
                        "P·V sums over");""",
     """        if (to < 0) // varies along what the contraction sums
          to = 0;""",
     ["test/Integration/raise-linear-combinations.mlir"],
     "a weight per key taken out of the sum over keys"),
    ("remask-by-another-mask",
     """        match.mask == remask.condition &&""",
     """        true &&""",
     ["test/Integration/raise-remasked-softmax.mlir"],
     "P zeroed by a mask other than the softmax's own read as XSoftmax"),
    ("remask-where-kept",
     """        selectMasks.front().hidesWhenTrue == remask.zeroWhenTrue &&""",
     """        true &&""",
     ["test/Integration/raise-remasked-softmax.mlir"],
     "P zeroed where the softmax's mask keeps the key read as XSoftmax"),
    ("remask-any-fill",
     """        (fill == -std::numeric_limits<double>::infinity() ||
         isLowestFinite(fill)) &&""",
     """        true &&""",
     ["test/Integration/raise-remasked-softmax.mlir"],
     "XSoftmax read under a fill of -1e4, above which no score is known to lie"),
    ("op50-uninitialized-barrier-completes",
     """m.constant(c == kPending ? 1 : 0)""",
     """m.constant(c != kPending ? 1 : 0)""",
     ["test/Transforms/GPU/emulate-tma.mlir"],
     "the CPU model reads a barrier no thread initialized as one phase complete (a wait returns, the hardware would hang)"),
    ("tosa-combination-factor-per-key",
     """  return type && type.hasStaticShape() && type.getNumElements() == 1;""",
     """  return type && type.hasStaticShape() && type.getNumElements() >= 1;""",
     ["test/Integration/raise-linear-combinations-tosa.mlir"],
     "a TOSA weight per key taken out of the sum over keys as if it were one scalar"),
    ("op50-static-tail-third-of-a-row",
     """      staticTail = fragmentRows * double(tiling.blockKV) / 2;""",
     """      staticTail = fragmentRows * double(tiling.blockKV) / 3;""",
     ["unittests"],
     "the static tail block's registers counted as a third of an S row per fragment row (d = 128, 128 x 32 spilled 264 bytes at N = 1000)"),
    ("op50-evaluated-oge-strict",
     """          case P::UGE:
            return double(*lhs >= *rhs);""",
     """          case P::UGE:
            return double(*lhs > *rhs);""",
     ["test/Transforms/RaiseAttention/linalg-spellings.mlir"],
     "a mask evaluated from positions reads cmpf oge as strict (the diagonal hidden)"),
    ("op50-fold-no-mask-silent",
     """    why = "no mask";""",
     """""",
     ["unittests"],
     "foldMaskIntoModifiers called on an op without a mask fails without saying why"),
    ("op50-halved-rows-inverted",
     """    halved.blockQ = tiling.blockQ / 2;""",
     """    halved.blockQ = 2 / tiling.blockQ;""",
     ["unittests"],
     "a spilled trial at 16 keys retries with 2 / block_q rows, not half"),
    ("deferred-layout-any-head-merge",
     """    return groupAxis && numBatchDims >= 1 && outer == lastBatch &&
           inner.kind == AxisKind::Group;""",
     """    return groupAxis && numBatchDims >= 1 &&
           (outer.kind == AxisKind::Group || inner.kind == AxisKind::Group);""",
     ["test/Integration/raise-deferred-normalization-layout.mlir"],
     "P·V's heads merged group-major (g·Hkv + kh) read as fa.attention's grouped heads (kh·G + g) on the way to a deferred division"),
    ("deferred-layout-permutation-inverted",
     """      result[view->inputMaps[0].getDimPosition(dim)] = label;""",
     """      result[dim] = labels[view->inputMaps[0].getDimPosition(dim)];""",
     ["test/Integration/raise-deferred-normalization-layout.mlir"],
     "a transposing copy between P·V and a deferred division labelled by the inverse permutation"),
    ("under-reshapes-operand-from-chain",
     """      if (!generic.getMatchingIndexingMap(input).isIdentity() &&
          computedFrom(input->get(), start))""",
     """      if (!generic.getMatchingIndexingMap(input).isIdentity() &&
          false)""",
     ["test/Transforms/RaiseAttention/elementwise-under-reshapes.mlir"],
     "a softmax's row max, computed from the expanded view, materialized as if it were a term added to it"),
    ("under-reshapes-positions-in-body",
     """      !op.getIndexingMapsArray().back().isIdentity() ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())""",
     """      !op.getIndexingMapsArray().back().isIdentity())""",
     ["test/Integration/raise-expanded-view-biases.mlir"],
     "an elementwise body reading the expanded view's positions recomputed on the collapsed loops"),
    ("under-reshapes-destination-dropped",
     """        generic.getMatchingBlockArgument(generic.getDpsInitOperand(0))
                .use_empty()""",
     """        true""",
     ["test/Transforms/RaiseAttention/elementwise-under-reshapes.mlir"],
     "a body that reads its destination given an empty one on the collapsed shape"),
    ("op50-large-mask-hiding-condition",
     """      negate = !*showsTrue;""",
     """""",
     ["test/Transforms/RaiseAttention/large-position-masks.mlir"],
     "a mask too large to evaluate, select(j > i, -inf, 0), read as if its condition kept the key"),
    ("op50-score-mod-maximumf-as-minimum",
     """      value = arith::MaximumFOp::create(b, loc, operand(0), operand(1));""",
     """      value = arith::MinimumFOp::create(b, loc, operand(0), operand(1));""",
     ["test/Integration/Modifiers/raise-softcap.mlir"],
     "a score function's maximumf rebuilt in score_mod as minimumf"),
    ("op50-fold-leaves-dead-producers",
     """        (dead->getNumRegions() != 0 && !isa<linalg::LinalgOp>(dead)))""",
     """        (dead->getNumRegions() != 0 || !isa<linalg::LinalgOp>(dead)))""",
     ["test/Transforms/FoldMasks/reshapes.mlir"],
     "the ops that only fed a folded mask left behind unless they are linalg ops"),
    ("op50-small-constants-unbounded",
     """           std::isfinite(term->constant) && std::abs(term->constant) < 1e30;""",
     """           std::isfinite(term->constant) && std::abs(term->constant) < 0.0;""",
     ["test/Transforms/RaiseAttention/score-function-tensors.mlir"],
     "a score function weighting by a select of two small constants taken as one that may hide every key of a row"),
    ("op50-sink-gradient-view-dim-misread",
     """            sourceType.getDimSize(llvm::find(labels, kept[used]) -
                                  labels.begin()) != size)""",
     """            sourceType.getDimSize(labels.begin() -
                                  llvm::find(labels, kept[used])) != size)""",
     ["test/Integration/Modifiers/raise-joint-graph-sinks.mlir"],
     "the sink column gradient's reshape checked against the wrong source dim"),
    ("op50-linear-operands-read-in-chain-mode",
     """  collecting = false;
  inChain = false;
  if (!matchQueryKey(contraction))
    return refuse();""",
     """  collecting = false;
  if (!matchQueryKey(contraction))
    return refuse();""",
     ["test/Transforms/RaiseAttention/linear-attention-reshaped-operands.mlir"],
     "linear attention's Q and K read through the chain's batch reshapes (a merged [B·H] view split again)"),
    ("linear-combination-refusal-unexplained",
     """    std::string combination = whyNotDistributed(root);""",
     """    std::string combination;""",
     ["test/Integration/raise-linear-combinations.mlir"],
     "a combination of softmaxes left undistributed without saying why"),
    ("op50-min-interval-upper-bound-widened",
     """      return Abstract::integer(min(x.lo, y.lo), min(x.hi, y.hi));""",
     """      return Abstract::integer(min(x.lo, y.lo), max(x.hi, y.hi));""",
     ["unittests"],
     "the interval of min(x, y) bounded above by the larger operand's bound (a tile no key of which is visible is visited)"),
    ("deferred-layout-tosa-transpose-inverted",
     """  if (auto transposeOp = dyn_cast<tosa::TransposeOp>(op)) {
    SmallVector<int64_t> permutation(transposeOp.getPerms().begin(),
                                     transposeOp.getPerms().end());
    return permuted(permutation);
  }""",
     """  if (auto transposeOp = dyn_cast<tosa::TransposeOp>(op)) {
    SmallVector<int64_t> permutation(transposeOp.getPerms().rbegin(),
                                     transposeOp.getPerms().rend());
    return permuted(permutation);
  }""",
     ["test/Integration/raise-deferred-normalization-layout.mlir"],
     "a tosa.transpose between P·V and a deferred division labelled by a reversed permutation"),
    ("op50-select-interval-refused",
     """    if (c.kind != Abstract::Kind::Bool)""",
     """    if (c.kind == Abstract::Kind::Bool)""",
     ["unittests"],
     "a select on a boolean condition in a mask_mod given no interval"),
    ("op50-warpgroup-tiles-warps",
     """      tiling.warps = tiling.blockQ / 16;""",
     """      tiling.warps = tiling.blockQ / 16 - 1;""",
     ["test/Transforms/SelectTiles/max-block-kv.mlir"],
     "the warpgroup-tiles option rounding a tile's rows without its warps"),
    ("op50-min-kv-splits-met-reported-raised",
     """    if (minKVSplits > 0 && tiling.kvSplits < minKVSplits) {""",
     """    if (minKVSplits > 0 && tiling.kvSplits <= minKVSplits) {""",
     ["test/Transforms/SelectTiles/kv-splits.mlir"],
     "the min-kv-splits option reporting a raise where the choice already met it"),
    ("op50-warpgroup-tiles-rounds-whole-warpgroups",
     """        (tiling.blockQ % 64 != 0 || tiling.warps * 16 != tiling.blockQ)) {""",
     """        (tiling.blockQ % 64 != 0 || tiling.warps * 16 == tiling.blockQ)) {""",
     ["test/Transforms/SelectTiles/max-block-kv.mlir"],
     "the warpgroup-tiles option rounding a tile that is already whole warpgroups of 16-row warps"),
    ("op50-cpu-pipeline-host-cache-dropped",
     """    tiles.hostCacheBytes = options.hostCacheBytes;""",
     """""",
     ["test/Transforms/SelectTiles/host-never-refuses.mlir"],
     "fa-cpu-pipeline's host-cache-bytes not passed to fa-select-tiles (tiles for this machine's cache)"),
    ("linear-combination-positions-ignored",
     """  if (!body->getOps<linalg::IndexOp>().empty())
    return refuse("a weight of the combination is computed from positions "
                  "(linalg.index)");""",
     """""",
     ["test/Integration/raise-linear-combinations.mlir"],
     "a weight computed from the key's position moved out of the sum over keys (linalg.index then reads the output's loops)"),
    ("kernel-score-mod-tensor-scaled-first",
     """        huge |= isa<FloatType>(read.getType());""",
     """        huge |= false;""",
     [MOD + "score-mod-huge-tensor.mlir"],
     "a score_mod reading a finfo.min bias scaled by log2 e before the max is subtracted: a fully biased row is NaN in the kernels"),
]


def locate(old, texts):
    """The (path, start, end) of the one place in `texts` (path -> text)
    where `old` occurs, or the number of places when that is not one. The
    exact text is tried first (its indentation may tell two copies apart),
    then the text with whitespace relaxed."""
    for exact in (True, False):
        found = [(path, start, end) for path, text in texts.items()
                 for start, end in harness.find_text(old, text)[0 if exact else 1]]
        if found:
            break
    return found[0] if len(found) == 1 else len(found)


# What a mutation rebuilds: the tool and the unit tests.
TARGETS = ["fa-opt", "FAUnitTests"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workdir", default=os.path.join(ROOT, "build-mutate"))
    parser.add_argument("--only", default="", help="comma-separated names")
    parser.add_argument("--check", action="store_true",
                        help="only check that every substitution applies once")
    args = parser.parse_args()
    # In catalogue order, or in the order --only names them.
    chosen = MUTATIONS
    if args.only:
        by_name = {m[0]: m for m in MUTATIONS}
        unknown = [n for n in args.only.split(",") if n not in by_name]
        if unknown:
            sys.exit("mutate: no mutation " + ", ".join(unknown))
        chosen = [by_name[n] for n in args.only.split(",")]

    texts = {path: open(os.path.join(ROOT, path)).read()
             for path in harness.source_files()}
    problems, sites = [], {}
    for name, old, new, tests, _ in chosen:
        site = locate(old, texts)
        if isinstance(site, int):
            problems.append(f"{name}: the text to replace occurs {site} times "
                            "under lib/ and include/ (it must occur once)")
        else:
            sites[name] = site
        for test in tests:
            if test != "unittests" and not os.path.exists(os.path.join(ROOT, test)):
                problems.append(f"{name}: no test {test}")
    if problems:
        sys.exit("mutate: " + "\n  ".join(problems))
    if args.check:
        print(f"{len(chosen)} mutations apply, each at one place")
        return 0

    src, build = prepare(args.workdir)
    print(f"mutate: building the unmutated copy in {build} ...", flush=True)
    if harness.build(build, TARGETS).returncode:
        sys.exit("mutate: the unmutated copy does not build")
    rows, survived = [], 0
    for name, old, new, tests, what in chosen:
        start = time.time()
        path, begin, end = sites[name]
        pristine = texts[path]
        with harness.substituted(os.path.join(src, path), pristine,
                                 pristine[:begin] + new + pristine[end:]):
            if harness.build(build, TARGETS).returncode:
                caught = ["(does not build)"]
            else:
                caught = harness.lit_failures(build, tests)
                if name in MUST_FAIL_ALL and len(caught) < len(tests):
                    missed = [t for t in tests
                              if not any(t.endswith(c.split(" ")[0]) for c in caught)]
                    caught = []  # survived where it had to fail everywhere
                    print(f"  {name}: these still pass: {', '.join(missed)}")
        seconds = time.time() - start
        survived += not caught and name not in KNOWN_GAPS
        rows.append((name, what, caught, seconds))
        print(f"  {name}: {'caught by ' + ', '.join(caught) if caught else 'SURVIVED'}"
              f" ({seconds:.0f} s)", flush=True)
    harness.build(build, TARGETS)  # leave the copy unmutated

    print("\n| mutation | what it breaks | tests that failed | time |")
    print("|---|---|---|---|")
    for name, what, caught, seconds in rows:
        if caught and name in MUST_FAIL_ALL:
            shown = f"all {len(caught)} named: " + ", ".join(caught)
        elif not caught and name in KNOWN_GAPS:
            shown = "none: a known gap (" + KNOWN_GAPS[name] + ")"
        else:
            shown = ", ".join(caught) if caught else "**none: survived**"
        print(f"| `{name}` | {what} | {shown} | {seconds:.0f} s |")
    gaps = sum(1 for name, _, caught, _ in rows if not caught and name in KNOWN_GAPS)
    print(f"\n{len(rows) - survived - gaps} of {len(rows)} mutations caught"
          + (f", {gaps} known gap(s)" if gaps else ""))
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
