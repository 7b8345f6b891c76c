#!/usr/bin/env python3
"""Writes test/Integration/Backward/sweep-*.mlir: one attention backward per
file. Each runs the forward op (for O and the logsumexp) and then
fa.attention_backward with the case's tiles through fa-cpu-pipeline twice:
the tiled backward (fa-tile-attention-backward) and reference=true (the
unfused textbook backward); every printed gradient is compared at the
dtype's tolerance, and both runs are checked on their own against the
float64 oracle (backward_oracle.py, attention_backward_reference.py).

The inputs are make_tiling_sweep.py's (@fill, @ramp, @keep, @bias), with dO
from @fill too.

Run from the repository root after changing a case:
  python3 test/Integration/Inputs/make_backward_sweep.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_tiling_sweep as sweep  # noqa: E402

OUT = os.path.join(HERE, "..", "Backward")

# Tolerances of the tiled backward vs the reference (docs/Tiling.md): f32
# differs by the order of rounding and by D = rowsum(dO O) (from the saved,
# rounded O) instead of rowsum(dP P); f16 and bf16 also by P and dS rounded
# to the input type before the matmuls that read them, and by O rounded to
# the input type.
TOLERANCE = {"f32": ("1e-4", "5e-5"), "f16": ("2e-2", "4e-3"),
             "bf16": ("6e-2", "3e-2")}

# At N = 1000 the keys' ramp (K[j, 0] += 0.08 j, up to 80) makes dQ's column
# 0 a sum of terms 80 times its size; both lowerings then differ from the
# float64 oracle by about 4e-5 (in opposite directions), so that case has a
# wider atol.
TOLERANCE_OVERRIDE = {"n1000-tails": ("1e-4", "2e-4")}

# name, B, Hq, Hkv, Nq, Nk, D, Dv, dtype, mask, causal, window,
# (block_q, block_kv), grad_mask, oracle, what
CASES = [
    ("n7-tail", 1, 2, 2, 7, 7, 16, 16, "f32", None, None, None, (4, 4), False, True,
     "N = 7 with 4 x 4 tiles: partial query and key blocks in both passes"),
    ("nq-ne-nk-dv", 1, 2, 2, 37, 50, 16, 8, "f32", None, None, None, (16, 8), False, True,
     "Nq = 37 != Nk = 50, Dv = 8 != D = 16, tiles that divide neither"),
    ("tiles-divide-f16", 1, 2, 2, 64, 64, 64, 64, "f16", None, None, None, (32, 32), False, True,
     "f16 inputs with f32 accumulation, N = 64 and D = 64 with tiles that divide them"),
    ("causal-top-left", 1, 2, 2, 40, 56, 16, 16, "f32", None, "top_left", None, (16, 16), False, True,
     "causal top-left, Nq < Nk: key blocks past the diagonal skipped in the dQ pass, query blocks before it in the dK/dV pass"),
    ("causal-bottom-right-empty-rows", 1, 2, 2, 56, 40, 16, 16, "f32", None, "bottom_right", None, (8, 16), False, True,
     "causal bottom-right with Nq > Nk: rows 0..15 see no key (logsumexp -inf) and contribute no gradient, no NaN"),
    ("causal-diagonal-at-block-end", 1, 2, 2, 64, 78, 16, 16, "f32", None, "bottom_right", None, (16, 16), False, True,
     "causal bottom-right with Nk - Nq = 14: a query block's first diagonal is one key before the end of a key block, which still needs the element mask in both passes (found by scripts/mutate.py)"),
    ("window", 1, 1, 1, 60, 60, 16, 16, "f32", None, None, (5, 3, "top_left"), (8, 8), False, True,
     "a sliding window (5 left, 3 right) over 8 x 8 tiles: most tile pairs skipped in both passes"),
    ("window-last-row-starts-block", 1, 2, 2, 40, 40, 16, 16, "f32", None, None, (1, 1, "top_left"), (8, 8), False, True,
     "a window of 1 left and 1 right over 8 x 8 tiles: the first row that sees a key block is the previous query block's last row, and the last row that sees its last key is the next query block's first row; the dK/dV pass must visit both blocks (found by scripts/mutate.py)"),
    ("window-causal-bottom-right", 1, 2, 2, 30, 45, 16, 16, "f32", None, "bottom_right", (7, 0, "bottom_right"), (8, 8), False, True,
     "a bottom-right window with causal, Nq != Nk"),
    ("keep-mask-empty-row-f16", 1, 2, 2, 20, 24, 16, 16, "f16", ("bool", (1, 2, 20, 24)), None, None, (8, 8), False, True,
     "a full boolean keep-mask whose row 2 hides every key, f16"),
    ("bias-gqa", 2, 4, 2, 21, 26, 16, 16, "f32", ("bias", (2, 1, 21, 26)), None, None, (8, 16), False, True,
     "an additive bias broadcast over heads with -inf entries and a row of -inf, GQA (group of 2)"),
    ("gqa-causal", 2, 8, 2, 33, 41, 32, 16, "f32", None, "bottom_right", None, (16, 16), False, True,
     "GQA: 8 query heads over 2 key/value heads (dK and dV summed over each group of 4), causal bottom-right, Dv != D"),
    ("mqa-bias-f16", 1, 4, 1, 31, 45, 64, 64, "f16", ("bias", (1, 1, 31, 45)), None, None, (16, 16), False, True,
     "MQA (one key/value head for 4 query heads) with an f16 bias"),
    ("bf16-causal", 1, 2, 2, 64, 64, 64, 64, "bf16", None, "bottom_right", None, (16, 32), False, True,
     "bf16 inputs, causal with Nq = Nk"),
    ("n1000-tails", 1, 1, 1, 1000, 1000, 32, 32, "f32", None, "bottom_right", None, (64, 48), False, False,
     "N = 1000 with tiles that divide neither length (64 x 48), causal; the oracle is too slow at this size, so only tiled vs reference"),
    ("bias-gradient", 2, 2, 2, 20, 24, 16, 16, "f32", ("bias", (1, 2, 20, 24)), None, None, (8, 8), True, True,
     "the bias gradient (grad_mask), summed over the batch the bias broadcasts over"),
    ("bias-gradient-key-padding-causal", 2, 4, 2, 30, 37, 16, 8, "f32", ("bias", (2, 1, 1, 37)), "bottom_right", None, (8, 16), True, True,
     "the gradient of a key-padding bias [B, 1, 1, Nk]: summed over heads and query rows, the rows of each key block walked from the first that sees it (causal), GQA"),
    ("bias-gradient-full-window-f16", 1, 2, 2, 26, 26, 32, 32, "f16", ("bias", (1, 2, 26, 26)), None, (4, 2, "top_left"), (8, 8), True, True,
     "the gradient of a full bias in f16, with a window: one tile pair per block"),
    ("bias-gradient-per-row", 1, 2, 1, 19, 33, 16, 16, "f32", ("bias", (1, 1, 19, 1)), "top_left", None, (8, 8), True, True,
     "the gradient of a per-row bias [1, 1, Nq, 1], summed over heads and the keys each row sees (causal), MQA: it is 0 up to rounding, since softmax ignores a shift per row (dS sums to 0 over a row)"),
    ("bias-gradient-batch-broadcast-b3", 3, 2, 1, 17, 23, 16, 16, "f32", ("bias", (1, 2, 17, 23)), None, None, (8, 8), True, True,
     "the gradient of a bias broadcast over a batch of 3 with 2 heads (B != Hq, so a sum over the wrong dim's extent shows; issue 31's operator mutation found B = Hq in every case), MQA"),
]


# The GPU backward kernels (fa-distribute-attention-backward) under the
# emulated threads of fa-cpu-pipeline=gpu-kernel=sm_80, as gpu-kernel-*.mlir:
# name, B, Hq, Hkv, Nq, Nk, D, Dv, dtype, mask, causal, window,
# (block_q, block_kv, warps, stages), what[, grad_mask]. Every case is f16
# or bf16 (the kernel's mma.sync operands).
GPU_CASES = [
    ("causal-two-fragment-rows-f16", 1, 2, 2, 64, 64, 32, 32, "f16", None, "bottom_right", None, (16, 64, 2, 1),
     "causal, 2 warps: the dK/dV kernel's warps own two 16-row fragment tiles of keys each, the dQ kernel's one warp its one"),
    ("tails-dv-bf16", 1, 2, 2, 37, 50, 32, 16, "bf16", None, None, None, (16, 32, 1, 1),
     "bf16, Nq = 37 != Nk = 50 and Dv = 16 != D = 32: partial query and key blocks in both kernels"),
    ("gqa-window-cp-async-f16", 2, 4, 2, 45, 45, 16, 16, "f16", None, None, (5, 3, "top_left"), (16, 16, 1, 2),
     "GQA (groups of 2) with a sliding window, two stages: the streamed tiles through cp.async in both kernels"),
    ("keep-mask-empty-rows-f16", 1, 2, 2, 20, 24, 16, 16, "f16", ("bool", (1, 2, 20, 24)), None, None, (16, 16, 1, 2),
     "a boolean keep-mask whose row 2 hides every key: that row contributes no gradient, no NaN"),
    ("mqa-bias-causal-top-left-bf16", 1, 4, 1, 31, 45, 64, 64, "bf16", ("bias", (1, 1, 31, 45)), "top_left", None, (32, 32, 2, 2),
     "MQA with a bf16 bias and causal top-left, 2 warps and two cp.async stages"),
    ("causal-empty-rows-f16", 1, 2, 2, 56, 40, 16, 16, "f16", None, "bottom_right", None, (16, 16, 1, 1),
     "causal bottom-right with Nq > Nk: rows 0..15 see no key (logsumexp -inf) and contribute nothing"),
    ("d128-four-warps-f16", 1, 1, 1, 96, 80, 128, 128, "f16", None, "bottom_right", None, (16, 64, 4, 2),
     "D = 128 at 16 x 64, 4 warps, two cp.async stages, which both forms fit (fa-select-tiles chooses 16 x 128, 8 warps, for dQ added with atomics and 32 x 64, 4 warps, with `deterministic`), causal, tails in both kernels"),
    ("atomic-dq-idle-warps-f16", 1, 2, 1, 40, 70, 32, 32, "f16", None, None, None, (16, 64, 4, 2),
     "dQ added with atomics where its product has fewer 16 x 16 tiles (2) than the dK/dV kernel has warps (4): the idle warps compute the last tile again and add nothing; GQA, tails in both lengths"),
    ("bias-gradient-batch-broadcast-gqa-f16", 2, 4, 2, 37, 45, 32, 16, "f16", ("bias", (1, 4, 37, 45)), "bottom_right", None, (16, 32, 2, 2),
     "the bias gradient of a bias broadcast over the batch (summed over both entries in one block), GQA, causal, tails", True),
    ("bias-gradient-head-broadcast-window-bf16", 2, 2, 2, 26, 30, 32, 32, "bf16", ("bias", (2, 1, 26, 30)), None, (4, 2, "top_left"), (16, 16, 1, 1),
     "the bias gradient of a bf16 bias broadcast over heads, with a window: hidden key blocks are written as zeros", True),
    ("bias-gradient-four-warps-f16", 1, 2, 2, 64, 80, 32, 32, "f16", ("bias", (1, 2, 64, 80)), "bottom_right", None, (64, 32, 4, 1),
     "the bias gradient with 4 warps over 64 rows and five key steps: each step's tiles are refilled only after every warp has read them", True),
]


# The same on sm_90a, where the dK/dV kernel runs its five matmuls on
# wgmma (fa-distribute-attention-backward warpgroup-mma=true, which both
# pipelines set there): every tiling is one fa-select-tiles admits for that
# kernel (warps = block_kv / 16, 64 keys per warpgroup), as
# gpu-kernel-wgmma-*.mlir. With `deterministic` the dQ kernel stays
# mma.sync's.
WGMMA_CASES = [
    ("wgmma-d64-gqa-f16", 1, 4, 2, 100, 140, 64, 64, "f16", None, None, None, (64, 128, 8, 2),
     "D = 64 at 64 x 128 with two warpgroups, GQA (groups of 2), tails in both lengths: dQ^T's one 64-row tile computed by the first warpgroup, the second computing it again and adding nothing"),
    ("wgmma-d128-causal-bf16", 1, 2, 2, 70, 100, 128, 128, "bf16", None, "bottom_right", None, (16, 128, 8, 2),
     "D = 128, causal bottom-right with Nq < Nk, bf16, 16 x 128 (fa-select-tiles' causal D = 128 tile): dQ^T's two 64-row tiles, one per warpgroup"),
    ("wgmma-dv64-window-bias-f16", 2, 2, 1, 45, 77, 128, 64, "f16", ("bias", (2, 1, 45, 77)), None, (9, 4, "top_left"), (16, 64, 4, 1),
     "D = 128, Dv = 64, one warpgroup, one stage (synchronous copies; with a producer, a ring of one stage), a sliding window and a bias broadcast over heads, MQA: dQ^T's two tiles both by the one warpgroup"),
    ("wgmma-d256-column-split-causal-f16", 1, 4, 2, 40, 70, 256, 256, "f16", None, "bottom_right", None, (16, 64, 8, 2),
     "D = 256: two warpgroups per 64 keys, each forming S^T and dP^T and holding half of dK's and dV's columns, the first storing dS^T; dQ^T's four 64-row tiles two per warpgroup; causal, GQA, tails"),
]


# Cases whose tiling fits only the atomic dQ: with `deterministic` the dQ
# kernel (mma.sync) needs about 284 registers at 16 rows of 128 keys and
# D = 128, and more at D = 256, and fa-select-tiles refuses the tiling
# written on the op.
ATOMIC_ONLY = {"wgmma-d128-causal-bf16", "wgmma-d256-column-split-causal-f16"}

# The case that also runs the cp.async form of the wgmma dK/dV kernel
# (tma-producer=false): two warpgroups, two cp.async stages.
CP_ASYNC_RUNS = {"wgmma-d64-gqa-f16"}


def module_text(case, gpu=False, chip="sm_80"):
    """The test file of one case (a CASES tuple, or with `gpu` a GPU_CASES
    one)."""
    if gpu:
        (name, b, hq, hkv, nq, nk, d, dv, dtype, mask, causal, window, tile,
         what) = case[:14]
        grad_mask, oracle = len(case) > 14 and case[14], True
        bq, bkv, warps, stages = tile
    else:
        (name, b, hq, hkv, nq, nk, d, dv, dtype, mask, causal, window, tile,
         grad_mask, oracle, what) = case
        bq, bkv = tile
        warps, stages = 1, 1
    rtol, atol = TOLERANCE_OVERRIDE.get(name, TOLERANCE[dtype])
    tensor = sweep.tensor
    qd, kd, vd, od = [b, hq, nq, d], [b, hkv, nk, d], [b, hkv, nk, dv], [b, hq, nq, dv]
    qt, kt, vt, ot = (tensor(x, dtype) for x in (qd, kd, vd, od))
    lt = tensor(od[:3], "f32")
    mt = None
    if mask:
        kind, shape = mask
        mt = tensor(shape, "i1" if kind == "bool" else dtype)
    attrs = ""
    if causal:
        attrs += f" causal = {causal}"
    if window:
        attrs += f" window = <left = {window[0]}, right = {window[1]}, align = {window[2]}>"
    tiling = (f" tiling = <block_q = {bq}, block_kv = {bkv}, warps = {warps}, "
              f"stages = {stages}>")
    grads = [qt, kt, vt] + ([mt] if grad_mask else [])
    if gpu:
        lines = gpu_run_lines(case, bq, bkv, warps, stages, rtol, atol, chip)
    else:
        lines = [f"// The tiled backward vs the reference: {what}.\n",
                 f"// B = {b}, Hq = {hq}, Hkv = {hkv}, Nq = {nq}, Nk = {nk}, D = {d}, "
                 f"Dv = {dv}, {dtype}, tiles {bq} x {bkv}.\n",
                 "// Generated by test/Integration/Inputs/make_backward_sweep.py.\n"]
        lines.append("// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled\n")
        lines.append("// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference\n")
        lines.append(f"// RUN: %compare %t.tiled %t.reference --rtol {rtol} --atol {atol}\n")
        if oracle:
            lines.append("// RUN: %python %S/../Inputs/backward_oracle.py %s %t.reference %t.tiled"
                         " | FileCheck %s --check-prefix=ORACLE\n")
            lines.append("// ORACLE: reference: ORACLE MATCH\n")
            lines.append("// ORACLE: tiled: ORACLE MATCH\n")
        # The tiled form: both passes (and the bias gradient's), nothing of
        # [Nq, Nk] beyond the operands and results: no scores, per head or
        # whole, anywhere in @backward (unless the bias itself has that shape).
        lines.append("// RUN: fa-opt %s --fa-select-tiles=target=host "
                     "--fa-tile-attention-backward | FileCheck %s\n")
        never = f"// CHECK-NOT: tensor<{nq}x{nk}xf32>\n"
        if not (mask and tuple(mask[1][1:]) == (hq, nq, nk)):
            never += f"// CHECK-NOT: x{hq}x{nq}x{nk}xf32>\n"
        lines.append("// CHECK-LABEL: func.func @backward\n")
        steps = ["scf.forall", "scf.for", "scf.for", "scf.forall", "scf.for"]
        if grad_mask:
            steps += ["scf.forall", "scf.for", "scf.for", "scf.for", "scf.for"]
        for step in steps:
            lines.append(never + f"// CHECK: {step}\n")
        lines.append(never + "// CHECK-NOT: fa.attention_backward\n"
                     "// CHECK: func.func @fill\n")
    lines.append("\nfunc.func private @printMemrefF32(tensor<*xf32>)\n\n")
    margs = f", %m: {mt}" if mt else ""
    mop = f" mask(%m : {mt})" if mt else ""
    lhs = "%dq, %dk, %dv" + (", %db" if grad_mask else "")
    lines.append(f"func.func @backward(%q: {qt}, %k: {kt}, %v: {vt}, %do: {ot}{margs}) "
                 f"-> ({', '.join(grads)}) {{\n")
    lines.append(f"  %o, %l = fa.attention %q, %k, %v{mop} scale = 0.25{attrs}\n"
                 f"      : {qt}, {kt}, {vt} -> {ot}, {lt}\n")
    lines.append(f"  {lhs} = fa.attention_backward %q, %k, %v, %o, %do, %l{mop} "
                 f"scale = 0.25{attrs}{tiling}\n"
                 f"      : {qt}, {kt}, {vt}, {ot}, {ot}, {lt}\n"
                 f"      -> {', '.join(grads)}\n")
    lines.append(f"  return {lhs} : {', '.join(grads)}\n}}\n\n")
    lines.append(sweep.INPUT_FUNCTIONS)
    consts = sorted({b, hq, hkv, nq, nk, d, dv, 1} | (set(mask[1]) if mask else set()))
    lines.append("func.func @main() {\n")
    for c in consts:
        lines.append(f"  %c{c} = arith.constant {c} : index\n")
    lines.append("  %isQuery = arith.constant false\n  %isKey = arith.constant true\n")
    args = []
    for dims, seed, ramp in ((qd, 1, "isQuery"), (kd, 2, "isKey"), (vd, 3, None),
                             (od, 4, None)):
        text, value = sweep.make_input(dims, seed, dtype, ramp)
        lines.append(text)
        args.append(value)
    if mask:
        text, value, _ = sweep.make_mask_input(mask, dtype)
        lines.append(text)
        args.append(value)
    types = [qt, kt, vt, ot] + ([mt] if mt else [])
    lines.append(f"  {lhs} = call @backward({', '.join(args)}) : "
                 f"({', '.join(types)}) -> ({', '.join(grads)})\n")
    for n, (value, t) in enumerate(zip(lhs.split(", "), grads)):
        if not t.endswith("f32>"):
            wide = t[:t.rindex("x") + 1] + "f32>"
            lines.append(f"  %w{n} = arith.extf {value} : {t} to {wide}\n")
            value, t = f"%w{n}", wide
        lines.append(f"  %p{n} = tensor.cast {value} : {t} to tensor<*xf32>\n")
        lines.append(f"  call @printMemrefF32(%p{n}) : (tensor<*xf32>) -> ()\n")
    lines.append("  return\n}\n")
    return "".join(lines)


# The op with `deterministic` (dQ by a kernel of its own, summed in a
# fixed order), from the same file.
DETERMINISTIC = "sed 's/ tiling = <block_q/ deterministic tiling = <block_q/' %s | fa-opt"


def gpu_run_lines(case, bq, bkv, warps, stages, rtol, atol, chip="sm_80"):
    """The header of a GPU_CASES file: the kernels with their threads (and
    blocks) run forward and in reverse, against the reference and the
    oracle, and the kernel's form. dQ's atomic sums may round differently
    in the two orders; with `deterministic` the two agree bit for bit (the
    kernels have no race)."""
    (name, b, hq, hkv, nq, nk, d, dv, dtype, mask, causal, window, tile,
     what) = case[:14]
    wgmma = chip == "sm_90a"
    wgmma_option = "=warpgroup-mma=true" if wgmma else ""
    lines = [f"// The GPU backward kernels vs the reference: {what}.\n",
             f"// B = {b}, Hq = {hq}, Hkv = {hkv}, Nq = {nq}, Nk = {nk}, D = {d}, "
             f"Dv = {dv}, {dtype}, tiles {bq} x {bkv}, {warps} warps, "
             f"{stages} stages.\n",
             "// Generated by test/Integration/Inputs/make_backward_sweep.py.\n",
             f"// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel={chip} | %mlir-run > %t.kernel\n",
             f"// RUN: fa-opt %s \"--fa-cpu-pipeline=gpu-kernel={chip} thread-order=reverse\""
             " | %mlir-run > %t.reverse\n",
             "// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference\n",
             f"// RUN: %compare %t.kernel %t.reference --rtol {rtol} --atol {atol}\n",
             f"// RUN: %compare %t.reverse %t.reference --rtol {rtol} --atol {atol}\n",
             f"// RUN: {DETERMINISTIC} --fa-cpu-pipeline=gpu-kernel={chip} | %mlir-run > %t.fixed\n",
             f"// RUN: {DETERMINISTIC} \"--fa-cpu-pipeline=gpu-kernel={chip} thread-order=reverse\""
             " | %mlir-run > %t.fixed-reverse\n",
             f"// RUN: %compare %t.fixed %t.reference --rtol {rtol} --atol {atol}\n",
             # Bit for bit, apart from the buffers' addresses.
             "// RUN: grep -v base@ %t.fixed > %t.fixed.data\n",
             "// RUN: grep -v base@ %t.fixed-reverse > %t.fixed-reverse.data\n",
             "// RUN: diff %t.fixed-reverse.data %t.fixed.data\n",
             "// RUN: %python %S/../Inputs/backward_oracle.py %s %t.reference %t.kernel"
             " | FileCheck %s --check-prefix=ORACLE\n",
             "// ORACLE: reference: ORACLE MATCH\n",
             "// ORACLE: kernel: ORACLE MATCH\n",
             # The kernels, tensor cores in the gradient kernels: D, dK/dV
             # (adding dQ's share with atomics) and dQ's rounding; with
             # `deterministic`, D, dK/dV and dQ, no atomics.
             f"// RUN: fa-opt %s --fa-select-tiles=target={chip} "
             f"--fa-distribute-attention-backward{wgmma_option} | FileCheck %s\n",
             f"// RUN: {DETERMINISTIC} --fa-select-tiles=target={chip} "
             f"--fa-distribute-attention-backward{wgmma_option} | FileCheck %s --check-prefix=FIXED"
             " --implicit-check-not=memref.atomic_rmw\n"]
    if wgmma:
        # The pipelines' default there is the TMA producer kernel; both
        # forms' IR is checked, and one case also runs the cp.async wgmma
        # kernel (tma-producer=false; the random programs run both).
        lines[6:6] = [] if name not in CP_ASYNC_RUNS else [
            f"// RUN: fa-opt %s \"--fa-cpu-pipeline=gpu-kernel={chip} tma-producer=false\""
            " | %mlir-run > %t.cp-async\n",
            f"// RUN: %compare %t.cp-async %t.reference --rtol {rtol} --atol {atol}\n"]
        lines.append(
            f"// RUN: fa-opt %s --fa-select-tiles=target={chip} "
            "\"--fa-distribute-attention-backward=warpgroup-mma=true tma-producer=true\""
            " | FileCheck %s --check-prefix=PRODUCER\n")
    fixed = name not in ATOMIC_ONLY
    if not fixed:
        lines = [line for line in lines
                 if DETERMINISTIC not in line and "%t.fixed" not in line]
    def kernel_warps(rows):
        w = warps
        while w > 1 and rows % (16 * w):
            w -= 1
        return w

    def streams_async(rows, threads):
        # backwardStreamBuffers (KernelModel.h): 16-byte chunks that
        # spread evenly over the kernel's threads.
        return stages > 1 and all(
            (width * 2) % 16 == 0 and (rows * width * 2 // 16) % threads == 0
            for width in (d, dv))
    def gradient_kernel(prefix, rows, threads):
        text = f"// {prefix}: scf.forall\n"
        if streams_async(rows, threads):
            text += f"// {prefix}: nvgpu.device_async_copy\n"
        text += (f"// {prefix}: gpu.barrier\n// {prefix}: nvgpu.ldmatrix\n"
                 f"// {prefix}: nvgpu.mma.sync\n"
                 f"// {prefix}: nvgpu.ldmatrix {{{{.*}}}} {{numTiles = 4 : i32, transpose = true}}\n"
                 f"// {prefix}: nvgpu.mma.sync\n")
        return text
    bias = len(case) > 14 and case[14]
    # dK/dV streams Q and dO (block_q rows), dQ streams K and V.
    key_stream = (bq, 32 * kernel_warps(bkv))
    query_stream = (bkv, 32 * kernel_warps(bq))
    # D or Dv above 128: two warpgroups per 64 keys, each with half of dK's
    # and dV's columns (warpgroupBackwardColumnSplit).
    split = 2 if max(d, dv) > 128 else 1

    def wgmma_kernel(prefix):
        # S^T and dP^T from shared memory, then dV and dK with A from
        # registers (B M/N-major), each chain waited for.
        text = f"// {prefix}: scf.forall\n"
        if streams_async(*key_stream):
            text += f"// {prefix}: nvgpu.device_async_copy\n"
        text += (f"// {prefix}: gpu.barrier\n"
                 f"// {prefix}: fa.warpgroup_mma {{{{.*}}}} {{ignore_accumulator}} : vector<{bq // 2}xf32>, i64 in\n"
                 f"// {prefix}: fa.warpgroup_mma_wait\n")
        if prefix == "CHECK":
            # dS^T to shared memory, fenced for the async proxy (dQ's B).
            text += "// CHECK: nvvm.fence.proxy\n"
        text += (f"// {prefix}: fa.warpgroup_mma {{{{.*}}}} {{transpose_b}} : vector<{dv // 2 // split}xf32>, vector<4x2x{dtype}>\n"
                 f"// {prefix}: fa.warpgroup_mma {{{{.*}}}} {{transpose_b}} : vector<{d // 2 // split}xf32>, vector<4x2x{dtype}>\n"
                 f"// {prefix}: fa.warpgroup_mma_wait\n")
        return text
    for prefix in ("CHECK", "FIXED") if fixed else ("CHECK",):
        lines.append(f"// {prefix}-LABEL: func.func @backward\n"
                     f"// {prefix}: scf.forall\n// {prefix}: vector.reduction <add>\n")
        if wgmma:
            lines.append(wgmma_kernel(prefix))
            # dQ^T = K^T dS^T once every warpgroup's dS^T is stored, both
            # M/N-major; the sums added with atomics.
            dq_product = ("// CHECK: gpu.barrier\n"
                          "// CHECK: fa.warpgroup_mma {{.*}} {ignore_accumulator, transpose_a, transpose_b}\n"
                          "// CHECK: fa.warpgroup_mma_wait\n")
        else:
            lines.append(gradient_kernel(prefix, *key_stream))
            # dS^T through shared memory, read back transposed.
            dq_product = ("// CHECK: gpu.barrier\n"
                          "// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}\n"
                          "// CHECK: nvgpu.mma.sync\n")
        if prefix == "CHECK":
            # The sums added with atomics, then rounded by a kernel of
            # their own.
            lines.append(dq_product + "// CHECK: memref.atomic_rmw addf\n"
                         "// CHECK: scf.forall\n// CHECK: arith.truncf\n")
        else:
            lines.append(gradient_kernel(prefix, *query_stream))
        if bias:
            # The bias gradient's kernel: dS summed in fragments, stored per
            # element.
            lines.append(f"// {prefix}: scf.forall\n// {prefix}: gpu.barrier\n"
                         f"// {prefix}: nvgpu.mma.sync\n// {prefix}: math.exp\n"
                         f"// {prefix}: memref.store\n")
        lines.append(f"// {prefix}-NOT: fa.attention_backward\n// {prefix}: func.func @fill\n")
    if wgmma:
        lines.append(producer_kernel(bq))
    return lines


def producer_kernel(bq):
    """The dK/dV kernel with a producer warpgroup (tma-producer=true): Q's,
    dO's and L/D's tensor maps on the host, the ring's barriers initialized
    and K/V copied before the roles part; per query block the producer
    waits for a free stage and loads Q with L/D, then dO; the compute
    warpgroups wait on both, and meet at named barriers around dS^T."""
    return ("// PRODUCER-LABEL: func.func @backward\n"
            "// PRODUCER-COUNT-3: nvgpu.tma.create.descriptor\n"
            "// PRODUCER: nvgpu.mbarrier.create\n"
            "// PRODUCER: nvgpu.mbarrier.init\n"
            "// PRODUCER: nvvm.fence.proxy\n"
            "// PRODUCER-NEXT: gpu.barrier\n"
            "// PRODUCER: fa.warpgroup_role = \"compute\"\n"
            "// PRODUCER: fa.warpgroup_role = \"producer_leader\"\n"
            "// PRODUCER: scf.for\n"
            "// PRODUCER: nvgpu.mbarrier.try_wait.parity\n"
            "// PRODUCER: nvgpu.mbarrier.arrive.expect_tx\n"
            f"// PRODUCER: nvgpu.tma.async.load {{{{.*}}}} memref<1x1x{bq}x64x\n"
            f"// PRODUCER: nvgpu.tma.async.load {{{{.*}}}} memref<1x1x2x{bq}xf32\n"
            "// PRODUCER: nvgpu.mbarrier.arrive.expect_tx\n"
            "// PRODUCER: nvgpu.tma.async.load\n"
            "// PRODUCER: nvgpu.mbarrier.try_wait.parity\n"
            "// PRODUCER: nvgpu.mbarrier.try_wait.parity\n"
            "// PRODUCER-NOT: gpu.barrier\n"
            "// PRODUCER: nvvm.barrier id = %c1_i32\n"
            "// PRODUCER: nvgpu.mbarrier.arrive %\n"
            "// PRODUCER: nvvm.barrier id = %c2_i32\n"
            "// PRODUCER: fa.warpgroup_mma {{.*}} {ignore_accumulator, transpose_a, transpose_b}\n"
            "// PRODUCER: memref.atomic_rmw addf\n"
            "// PRODUCER: scf.yield\n"
            "// PRODUCER: scf.forall\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    for case in CASES:
        with open(os.path.join(OUT, f"sweep-{case[0]}.mlir"), "w") as f:
            f.write(module_text(case))
    for case in GPU_CASES:
        with open(os.path.join(OUT, f"gpu-kernel-{case[0]}.mlir"), "w") as f:
            f.write(module_text(case, gpu=True))
    for case in WGMMA_CASES:
        with open(os.path.join(OUT, f"gpu-kernel-{case[0]}.mlir"), "w") as f:
            f.write(module_text(case, gpu=True, chip="sm_90a"))


if __name__ == "__main__":
    main()
