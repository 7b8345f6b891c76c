#!/usr/bin/env python3
"""Checks the resources of the generated FlashAttention kernels with ptxas.

For each chip, head dim and element type, compiles one attention with
`fa-opt --fa-gpu-pipeline=chip=<chip> format=isa`, assembles the PTX with
`ptxas -v -arch=<chip>` and checks that the kernel
  * spills nothing (0 bytes of spill stores and loads),
  * uses at most 255 registers per thread,
  * uses exactly the shared memory the tile report states (ptxas's static
    shared memory, or the launch's dynamic size above 48 KB), and at most the
    chip's per-block limit,
  * uses tensor cores (mma.sync m16n8k16 in the PTX, or wgmma.mma_async
    for sm_90a's wgmma kernels) exactly when the tile report's `gpu_kernel`
    says so, TMA (cp.async.bulk.tensor) and setmaxnreg exactly for the
    TMA producer kernel ("wgmma-tma-ws", sm_90a's default, whose
    setmaxnreg ptxas must not ignore; the cp.async wgmma kernel is checked
    too, with tma-producer=false), wgmmas ptxas keeps asynchronous (no
    C7512/C7513/C7517/C7519/C7520 serialization or injected waits), and then
    combines the row statistics
    with butterfly shuffles (shfl.sync.bfly) and keeps its shared memory
    within Q, K and V: at most (block_q d + stages block_kv (d + dv)) e
    bytes + 2 KB (no score tile; block_q block_kv e more where P V reads P
    from shared memory);
and, for decode steps whose keys tile selection splits (kv_splits > 1),
that the merge kernel that follows spills nothing and uses no shared
memory. The backward pass (fa.attention_backward) compiles to three
kernels: D = rowsum(dO O) (which zeroes dQ's f32 sum), dK/dV (which adds
dQ to it with atomics) and dQ's rounding; with `deterministic`, D, dK/dV
and dQ. Each must spill nothing and fit 255 registers, the gradient
kernels must use mma.sync, and cp.async when the report has 2 stages, the
larger of their shared memory must equal the report's, the dK/dV kernel
without `deterministic` must add with atom.global.add.f32 (or red), and
the D and rounding kernels must use no shared memory. Linear attention
(fa.linear_attention) compiles to one kernel, which must spill nothing, fit
255 registers, use mma.sync and use exactly the shared memory of the
report's chunk.
Prints a Markdown table (for docs/GPU-Checks.md) and exits 1 if any check fails.

  scripts/gpu-resources.py [--fa-opt build/bin/fa-opt] [--ptxas PATH]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import block_shared_bytes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# chip, dtype, head dim, causal, tiling written on the op (None: the
# chip's selection)
CASES = [(chip, dtype, d, causal, None)
         for chip in ("sm_80", "sm_90")
         for dtype in ("f16", "bf16")
         for d in (64, 128)
         for causal in (False, True)]
CASES += [("sm_80", "f32", 64, False, None), ("sm_90", "f32", 64, False, None)]
# sm_90a: the wgmma kernel (issue 32) where the tiling allows it.
CASES += [("sm_90a", dtype, d, causal, None)
          for dtype in ("f16", "bf16")
          for d in (64, 128, 256)
          for causal in (False, True)]
# sm_90a with tma-producer=false: the wgmma kernel on cp.async loads (the
# default is the TMA producer kernel, gpu_kernel "wgmma-tma-ws").
CHOICE_CASES = [("sm_90a", "f16", d, causal, "tma-producer=false")
                for d in (64, 128) for causal in (False, True)]
# S and P through shared memory (register-fragments=false): the report
# counts their tiles too, and chooses within the chip's limit with them
# (sm_86: 99 KB).
CHOICE_CASES += [(chip, dtype, d, causal, "register-fragments=false")
                 for chip, dtype, d, causal in
                 (("sm_80", "f16", 64, False), ("sm_86", "f16", 128, True),
                  ("sm_90", "bf16", 128, False))]
# Two stages: K and V prefetched with cp.async.
CASES += [(chip, "f16", d, False, f"<block_q = 64, block_kv = 64, warps = 4, stages = 2>")
          for chip in ("sm_80", "sm_90") for d in (64, 128)]

# Score and mask modifications (issue 33) at d = 128, f16: soft-capping as
# score_mod; and soft-capping with a document mask_mod (ids from an [N]
# argument) and sinks. Entries: chip, head dim, kind.
MODIFIER_CASES = [(chip, 128, kind) for chip in ("sm_80", "sm_90", "sm_90a")
                  for kind in ("softcap", "alibi", "softcap, documents, sinks")]

SEQ, HEADS, BATCH = 4096, 16, 2
# The backward pass: chip, dtype, head dim, causal, `deterministic` (the
# chip's selection).
BACKWARD_CASES = [(chip, "f16", d, causal, deterministic)
                  for chip in ("sm_80", "sm_90")
                  for d in (64, 128)
                  for causal in (False, True)
                  for deterministic in (False, True)]
BACKWARD_CASES += [(chip, "bf16", d, True, False) for chip in ("sm_80", "sm_90")
                   for d in (64, 128)]
# Soft-capping in the backward pass (issue 33): tanh and its derivative in
# the dK/dV and dQ kernels, at d = 128.
BACKWARD_CASES += [(chip, "f16", 128, "softcap", deterministic)
                   for chip in ("sm_80", "sm_90")
                   for deterministic in (False, True)]
# sm_90a: the dK/dV kernel on wgmma (docs/Hopper.md, "The backward's dK/dV
# kernel on wgmma"); with `deterministic` the dQ kernel stays mma.sync's.
BACKWARD_CASES += [("sm_90a", "f16", d, causal, deterministic)
                   for d in (64, 128)
                   for causal in (False, True)
                   for deterministic in (False, True)]
BACKWARD_CASES += [("sm_90a", "bf16", d, True, False) for d in (64, 128)]
BACKWARD_CASES += [("sm_90a", "f16", 128, "softcap", deterministic)
                   for deterministic in (False, True)]
# d = 256: two warpgroups per 64 keys, dK and dV split by columns; dQ by
# atomics only (no deterministic dQ kernel fits a GPU at d = 256).
BACKWARD_CASES += [("sm_90a", "f16", 256, causal, False)
                   for causal in (False, True)]
BACKWARD_CASES += [("sm_90a", "bf16", 256, True, False)]
# Linear attention (fa.linear_attention, issue 34): chip, dtype, head dim
# (D = Dv), form. One kernel; the chunk is the chip's selection.
LINEAR_CASES = [(chip, dtype, d, form)
                for chip in ("sm_80", "sm_90")
                for dtype in ("f16", "bf16")
                for d in (64, 128)
                for form in ("causal, normalized", "causal, decay",
                             "normalized")]
# Decode steps (one query token, 32 query heads over 8 key/value heads):
# tile selection splits the keys, so the split kernel and the merge kernel
# are both checked. Entries: chip, dtype, head dim, Nk.
DECODE_CASES = [(chip, dtype, d, nk)
                for chip in ("sm_80", "sm_90")
                for dtype in ("f16", "bf16")
                for d in (64, 128)
                for nk in (32768,)]
DECODE_CASES += [("sm_90", "f16", 128, 4096), ("sm_90", "f32", 64, 32768)]
DECODE_HEADS, DECODE_KV_HEADS = 32, 8
# Paged decode steps (vLLM's layout): B = 8 sequences over a cache of
# PAGES pages of PAGE_SLOTS slots, M = Nk / PAGE_SLOTS pages each, with
# kv_lengths. Entries: chip, dtype, head dim, Nk.
PAGED_CASES = [(chip, "f16", d, 4096) for chip in ("sm_80", "sm_90") for d in (64, 128)]
PAGED_BATCH, PAGES, PAGE_SLOTS = 8, 4096, 16
# Packed sequences (varlen prefill): 8 sequences in 16384 query and key
# rows, causal per sequence. Entries: chip, dtype, head dim.
PACKED_CASES = [(chip, "f16", d) for chip in ("sm_80", "sm_90") for d in (64, 128)]
# sm_90a: packed sequences keep the cp.async wgmma kernel (no TMA maps of
# views).
PACKED_CASES += [("sm_90a", "f16", 128)]
PACKED_ROWS, PACKED_SEQUENCES = 16384, 8


def packed_attention(dtype, d):
    t = f"tensor<1x{HEADS}x{PACKED_ROWS}x{d}x{dtype}>"
    sums = f"tensor<{PACKED_SEQUENCES + 1}xi32>"
    return (f"func.func @attention(%q: {t}, %k: {t}, %v: {t}, %cq: {sums}, %ck: {sums}) -> {t} {{\n"
            f"  %o = fa.attention %q, %k, %v cu_seqlens_q(%cq : {sums}) cu_seqlens_k(%ck : {sums}) "
            f"scale = {d ** -0.5!r} causal = bottom_right : {t}, {t}, {t} -> {t}\n"
            f"  return %o : {t}\n}}\n")


def paged_attention(dtype, d, nk):
    q = f"tensor<{PAGED_BATCH}x{DECODE_HEADS}x1x{d}x{dtype}>"
    cache = f"tensor<{PAGES}x{PAGE_SLOTS}x{DECODE_KV_HEADS}x{d}x{dtype}>"
    lengths = f"tensor<{PAGED_BATCH}xi32>"
    table = f"tensor<{PAGED_BATCH}x{nk // PAGE_SLOTS}xi32>"
    return (f"func.func @attention(%q: {q}, %k: {cache}, %v: {cache}, %len: {lengths}, "
            f"%t: {table}) -> {q} {{\n"
            f"  %o = fa.attention %q, %k, %v kv_lengths(%len : {lengths}) "
            f"page_table(%t : {table}) scale = {d ** -0.5!r} : "
            f"{q}, {cache}, {cache} -> {q}\n"
            f"  return %o : {q}\n}}\n")


def attention(dtype, d, causal, tiling, batch=BATCH, heads=HEADS,
              kv_heads=HEADS, nq=SEQ, nk=SEQ):
    q = f"tensor<{batch}x{heads}x{nq}x{d}x{dtype}>"
    kv = f"tensor<{batch}x{kv_heads}x{nk}x{d}x{dtype}>"
    mask = " causal = bottom_right" if causal else ""
    if tiling:
        mask += f" tiling = {tiling}"
    return (f"func.func @attention(%q: {q}, %k: {kv}, %v: {kv}) -> {q} {{\n"
            f"  %o = fa.attention %q, %k, %v scale = {d ** -0.5!r}{mask} : "
            f"{q}, {kv}, {kv} -> {q}\n"
            f"  return %o : {q}\n}}\n")


def modified_attention(dtype, d, kind, batch=BATCH, heads=HEADS, n=SEQ):
    """fa.attention with a soft-cap score_mod (cap 50, Gemma 2's), with
    ALiBi computed from the head and the positions, or with the soft-cap
    and a document mask_mod and sinks beside it."""
    q = f"tensor<{batch}x{heads}x{n}x{d}x{dtype}>"
    full = kind.startswith("softcap,")
    args = f", %doc: tensor<{n}xi32>, %sinks: tensor<{heads}xf32>" if full else ""
    sinks = f" sinks(%sinks : tensor<{heads}xf32>)" if full else ""
    mask_mod = ("  } mask_mod {\n"
                "  ^bb0(%b: index, %h: index, %i: index, %j: index):\n"
                f"    %x = tensor.extract %doc[%i] : tensor<{n}xi32>\n"
                f"    %y = tensor.extract %doc[%j] : tensor<{n}xi32>\n"
                "    %same = arith.cmpi eq, %x, %y : i32\n"
                "    fa.yield %same : i1\n") if full else ""
    body = ("    %cap = arith.constant 50.0 : f32\n"
            "    %u = arith.divf %s, %cap : f32\n"
            "    %t = math.tanh %u : f32\n"
            "    %r = arith.mulf %t, %cap : f32\n")
    if kind == "alibi":
        # slope[h] = 2^-(h + 1) / 2, times k - q.
        body = ("    %c1 = arith.constant 1 : index\n"
                "    %e = arith.addi %h, %c1 : index\n"
                "    %ei = arith.index_cast %e : index to i32\n"
                "    %ef = arith.sitofp %ei : i32 to f32\n"
                "    %half = arith.constant -0.5 : f32\n"
                "    %p = arith.mulf %ef, %half : f32\n"
                "    %slope = math.exp2 %p : f32\n"
                "    %dd = arith.subi %j, %i : index\n"
                "    %di = arith.index_cast %dd : index to i32\n"
                "    %df = arith.sitofp %di : i32 to f32\n"
                "    %r = math.fma %slope, %df, %s : f32\n")
    return (f"func.func @attention(%q: {q}, %k: {q}, %v: {q}{args}) -> {q} {{\n"
            f"  %o = fa.attention %q, %k, %v{sinks} scale = {d ** -0.5!r} score_mod {{\n"
            "  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):\n"
            f"{body}"
            "    fa.yield %r : f32\n"
            f"{mask_mod}"
            f"  }} : {q}, {q}, {q} -> {q}\n"
            f"  return %o : {q}\n}}\n")


def attention_backward(dtype, d, causal, batch=BATCH, heads=HEADS, n=SEQ,
                       deterministic=False):
    """`causal` is True, False or "softcap" (causal, with a soft-cap at 30 as
    score_mod); `deterministic` asks for dQ in a kernel of its own."""
    t = f"tensor<{batch}x{heads}x{n}x{d}x{dtype}>"
    lse = f"tensor<{batch}x{heads}x{n}xf32>"
    mask = " causal = bottom_right" if causal else ""
    if deterministic:
        mask += " deterministic"
    region = ""
    if causal == "softcap":
        region = (" score_mod {\n"
                  "  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):\n"
                  "    %cap = arith.constant 30.0 : f32\n"
                  "    %x = arith.divf %s, %cap : f32\n"
                  "    %y = math.tanh %x : f32\n"
                  "    %r = arith.mulf %y, %cap : f32\n"
                  "    fa.yield %r : f32\n  }")
    return (f"func.func @backward(%q: {t}, %k: {t}, %v: {t}, %o: {t}, %do: {t}, "
            f"%l: {lse}) -> ({t}, {t}, {t}) {{\n"
            f"  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %l "
            f"scale = {d ** -0.5!r}{mask}{region} : {t}, {t}, {t}, {t}, {t}, {lse} "
            f"-> {t}, {t}, {t}\n"
            f"  return %dq, %dk, %dv : {t}, {t}, {t}\n}}\n")


def linear_attention(dtype, d, form, batch=BATCH, heads=HEADS, n=SEQ):
    t = f"tensor<{batch}x{heads}x{n}x{d}x{dtype}>"
    decay = (f" decay(%g : tensor<{heads}xf32>)" if "decay" in form else "")
    causal = " causal" if "causal" in form else ""
    normalize = " normalize(eps = 1.0e-6)" if "normalized" in form else ""
    gamma = f", %g: tensor<{heads}xf32>" if decay else ""
    return (f"func.func @linear(%q: {t}, %k: {t}, %v: {t}{gamma}) -> {t} {{\n"
            f"  %o = fa.linear_attention %q, %k, %v{decay} "
            f"scale = {d ** -0.5!r}{causal}{normalize} : {t}, {t}, {t} -> {t}\n"
            f"  return %o : {t}\n}}\n")


def report_and_kernels(args, tmp, chip, name, module, choice=""):
    """The first line of the tile report for `module` on `chip`, the dynamic
    shared memory sizes of its launches and the PTX of its kernels; `choice`
    (" option=value ...") goes to both the selection and the pipeline."""
    source = os.path.join(tmp, name + ".mlir")
    with open(source, "w") as f:
        f.write(module)
    report = run([args.fa_opt, source,
                  f"--fa-select-tiles=target={chip} report=-{choice}"])
    if report.returncode:
        sys.exit(report.stderr)
    decision = json.loads(report.stdout.splitlines()[0])
    compiled = run([args.fa_opt, source,
                    f"--fa-gpu-pipeline=chip={chip} format=isa{choice}",
                    "--mlir-print-ir-after=fa-lower-to-gpu"])
    if compiled.returncode:
        sys.exit(compiled.stderr)
    # Where ptxas found the model's tile spilling, the pipeline retiled
    # (fa-confirm-tiles-with-ptxas): the kernels are the new tile's, so the
    # row reports that tile, marked, from the confirmed module's report.
    if "retiled to" in compiled.stderr:
        confirmed = run([args.fa_opt, source,
                         f"--fa-select-tiles=target={chip}{choice}",
                         f"--fa-confirm-tiles-with-ptxas=chip={chip}{choice}"])
        if confirmed.returncode:
            sys.exit(confirmed.stderr)
        retiled = os.path.join(tmp, name + ".retiled.mlir")
        with open(retiled, "w") as f:
            f.write(confirmed.stdout)
        report = run([args.fa_opt, retiled,
                      f"--fa-select-tiles=target={chip} report=-{choice}"])
        if report.returncode:
            sys.exit(report.stderr)
        decision = json.loads(report.stdout.splitlines()[0])
        decision["retiled"] = True
    dynamic = [int(x) for x in re.findall(
        r"dynamic_shared_memory_size %c(\d+)_i32", compiled.stderr)]
    return decision, dynamic, ptx_objects(compiled.stdout)


def check_linear(args, tmp, chip, dtype, d, form):
    """The kernel of one fa.linear_attention: its table row and whether a
    check failed. It must spill nothing, fit 255 registers, use mma.sync,
    and use exactly the shared memory of the tile report's chunk."""
    decision, dynamic, objects = report_and_kernels(
        args, tmp, chip, "linear", linear_attention(dtype, d, form))
    if len(objects) != 1:
        sys.exit(f"{chip} {dtype} d={d} linear {form}: {len(objects)} kernels")
    ptx_text = objects[0]
    registers, spills, static = assemble(args.ptxas, chip, tmp, ptx_text)
    uses_dynamic = "__dynamic_shmem__" in ptx_text
    shared = block_shared_bytes(static, ptx_text,
                                dynamic[0] if uses_dynamic and dynamic else 0)
    limit, expected = decision["smem_limit"], decision["smem_bytes"]
    ok = (spills == 0 and registers <= 255 and shared <= limit and
          shared == expected and "mma.sync.aligned.m16n8k16" in ptx_text)
    row = (f"| {chip} | {dtype} | {d} | linear, {form} | linear attention | "
           f"chunk {decision['chunk']}, 4 warps | {registers} | {spills} | "
           f"{shared} ({'dynamic' if uses_dynamic else 'static'}) | "
           f"{expected} | — | {limit} | {'ok' if ok else 'FAIL'} |")
    return [row], int(not ok)


def run(cmd, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def ptx_objects(module_text):
    """The PTX texts of every gpu.binary object (format=isa), in order."""
    return [re.sub(r"\\([0-9A-Fa-f]{2})",
                   lambda m: chr(int(m.group(1), 16)), match)
            for match in re.findall(
                r'#gpu\.object<#nvvm\.target<[^>]*>[^"]*"((?:[^"\\]|\\.)*)"',
                module_text, re.S)]


def ptx_of(module_text):
    """The PTX text of the first gpu.binary object (format=isa)."""
    objects = ptx_objects(module_text)
    return objects[0] if objects else None


# What ptxas said about the last kernel it assembled.
LAST_PTXAS_INFO = [""]


def assemble(ptxas, chip, tmp, ptx_text):
    """(registers, spill bytes, static shared bytes) that ptxas reports."""
    ptx = os.path.join(tmp, "kernel.ptx")
    with open(ptx, "w") as f:
        f.write(ptx_text)
    assembled = run([ptxas, "-v", f"-arch={chip}", ptx,
                     "-o", os.path.join(tmp, "kernel.cubin")])
    if assembled.returncode:
        sys.exit(assembled.stderr)
    info = assembled.stderr
    LAST_PTXAS_INFO[0] = info
    registers = int(re.search(r"Used (\d+) registers", info).group(1))
    spills = sum(int(x) for x in re.findall(r"(\d+) bytes spill", info))
    smem = re.search(r"(\d+) bytes smem", info)
    return registers, spills, int(smem.group(1)) if smem else 0


def check(args, tmp, chip, dtype, d, label, module, choice=""):
    """Compiles `module` for `chip` with the pipeline options `choice`
    (" option=value ...", given to the report too); one table row per
    kernel and the number of failed checks."""
    decision, launches, objects = report_and_kernels(
        args, tmp, chip, "attention", module, choice)
    dynamic = launches[0] if launches else None
    splits = decision["kv_splits"]
    rows, failures = [], 0
    # With split keys, a merge kernel follows the attention kernel.
    if len(objects) != (2 if splits > 1 else 1):
        sys.exit(f"{chip} {dtype} d={d} {label}: {len(objects)} kernels "
                 f"for kv_splits = {splits}")
    ptx_text = objects[0]
    # The kernel the report announces is the one in the PTX.
    kernel = decision["gpu_kernel"]
    uses_mma = "mma.sync.aligned.m16n8k16" in ptx_text
    uses_wgmma = "wgmma.mma_async" in ptx_text
    wgmma_kernel = kernel.startswith("wgmma")
    register_kernel = kernel == "mma.sync-registers" or wgmma_kernel
    consistent = (uses_wgmma == wgmma_kernel and
                  uses_mma == kernel.startswith("mma.sync"))
    if register_kernel:
        consistent = consistent and "shfl.sync.bfly" in ptx_text
    # The TMA producer kernel: TMA loads, and the producer's registers given
    # to the compute warpgroups; cp.async nowhere.
    tma_kernel = kernel == "wgmma-tma-ws"
    consistent = consistent and all(
        (op in ptx_text) == tma_kernel
        for op in ("cp.async.bulk.tensor", "setmaxnreg.dec", "setmaxnreg.inc"))
    if tma_kernel:
        consistent = consistent and "cp.async.cg" not in ptx_text
    registers, spills, static = assemble(args.ptxas, chip, tmp, ptx_text)
    # ptxas honours setmaxnreg (C7507/C7508 say it ignored it: the
    # registers at entry unknown, or too few for the producer's code).
    if tma_kernel:
        consistent = consistent and not re.search(r"C750[78]",
                                                  LAST_PTXAS_INFO[0])
    # ptxas keeps the wgmmas asynchronous (C7513, C7519, C7520 say it
    # serialized them: a register a wgmma reads written while it runs;
    # C7512 for want of registers; C7517 that it injected a wait where an
    # accumulator register is read).
    if wgmma_kernel:
        consistent = consistent and not re.search(r"C75(12|13|17|19|20)",
                                                  LAST_PTXAS_INFO[0])
    shared = block_shared_bytes(static, ptx_text, dynamic or 0)
    expected = decision["smem_bytes"]
    limit = decision["smem_limit"]
    e = 4 if dtype == "f32" else 2
    bound = (decision["block_q"] * d +
             decision["stages"] * decision["block_kv"] * 2 * d) * e + 2048
    # P V reading P from shared memory (sm_90a's 192 x 192 at d = 64): P's
    # [block_q][block_kv] tile too.
    if "P in shared memory" in decision.get("kernel_plan", ""):
        bound += decision["block_q"] * decision["block_kv"] * e
    within = not register_kernel or shared <= bound
    ok = (spills == 0 and registers <= 255 and shared == expected
          and shared <= limit and consistent and within)
    failures += not ok
    tile = (f"{decision['block_q']}×{decision['block_kv']}, {decision['warps']} "
            f"warp{'s' if decision['warps'] > 1 else ''}, "
            f"{decision['stages']} stage{'s' if decision['stages'] > 1 else ''}")
    if splits > 1:
        tile += f", {splits} key splits"
    if decision.get("retiled"):
        tile += " (retiled by ptxas)"
    # The producer's and the compute warpgroups' counts after setmaxnreg.
    register_text = str(registers)
    split = [re.search(rf"setmaxnreg\.{way}\.sync\.aligned\.u32\s+(\d+)",
                       ptx_text) for way in ("dec", "inc")]
    if tma_kernel and all(split):
        register_text += (f" (producer {split[0].group(1)}, "
                          f"compute {split[1].group(1)})")
    rows.append(
        f"| {chip} | {dtype} | {d} | {label} | "
        f"{kernel}{'' if consistent else ' (PTX disagrees)'} | {tile} | "
        f"{register_text} | {spills} | "
        f"{shared} ({'dynamic' if dynamic else 'static'}) | {expected} | "
        f"{bound if register_kernel else '—'} | "
        f"{limit} | {'ok' if ok else 'FAIL'} |")
    if splits > 1:
        # The merge: no shared memory, no spills.
        registers, spills, static = assemble(args.ptxas, chip, tmp, objects[1])
        ok = spills == 0 and registers <= 255 and static == 0
        failures += not ok
        rows.append(f"| {chip} | {dtype} | {d} | {label} | merge | "
                    f"{splits} splits | {registers} | {spills} | "
                    f"{static} (static) | — | — | {limit} | "
                    f"{'ok' if ok else 'FAIL'} |")
    return rows, failures


def check_backward(args, tmp, chip, dtype, d, causal, deterministic):
    """The three kernels of one fa.attention_backward: table rows and the
    number of failed checks."""
    label = "backward" + (", causal" if causal else "") + (
        ", softcap" if causal == "softcap" else "") + (
        ", deterministic" if deterministic else "")
    decision, dynamic, objects = report_and_kernels(
        args, tmp, chip, "backward",
        attention_backward(dtype, d, causal, deterministic=deterministic))
    if len(objects) != 3:
        sys.exit(f"{chip} {dtype} d={d} {label}: {len(objects)} kernels, "
                 "expected 3 (D, dK/dV, dQ)")
    tile = (f"{decision['block_q']}×{decision['block_kv']}, {decision['warps']} "
            f"warps, {decision['stages']} stage{'s' if decision['stages'] > 1 else ''}")
    limit, expected = decision["smem_limit"], decision["smem_bytes"]
    rows, failures, gradient_shared = [], 0, []
    names = (("D = rowsum(dO∘O)", "dK, dV", "dQ") if deterministic else
             ("D = rowsum(dO∘O), dQacc = 0", "dK, dV, dQacc += dS·K (atomic)",
              "dQ = scale·dQacc"))
    for name, ptx_text in zip(names, objects):
        registers, spills, static = assemble(args.ptxas, chip, tmp, ptx_text)
        uses_dynamic = "__dynamic_shmem__" in ptx_text
        shared = block_shared_bytes(static, ptx_text,
                                    dynamic.pop(0) if uses_dynamic and dynamic else 0)
        ok = spills == 0 and registers <= 255 and shared <= limit
        if name.startswith("D ") or name.startswith("dQ ="):
            ok = ok and shared == 0 and "mma.sync" not in ptx_text
        else:
            if not deterministic and name.startswith("dK"):
                ok = ok and re.search(r"(atom|red)\.global\.add\.f32",
                                      ptx_text) is not None
            gradient_shared.append(shared)
            if chip == "sm_90a" and name.startswith("dK"):
                # wgmma, kept asynchronous: C7512 (serialized for want of
                # registers), C7513/C7519/C7520 (a register a wgmma reads
                # written while it runs), C7517 (a wait injected where an
                # accumulator register is read).
                ok = ok and "wgmma.mma_async" in ptx_text and not re.search(
                    r"C75(12|13|17|19|20)", LAST_PTXAS_INFO[0])
                # With a producer warpgroup (the report's
                # "backward-wgmma-tma-ws"), Q, dO, L and D by TMA and a
                # setmaxnreg ptxas honours (C7507/C7508: ignored), no
                # cp.async; else neither TMA nor setmaxnreg.
                producer = decision.get("gpu_kernel") == "backward-wgmma-tma-ws"
                ok = ok and all((op in ptx_text) == producer for op in (
                    "cp.async.bulk.tensor", "setmaxnreg.dec",
                    "setmaxnreg.inc")) and not re.search(
                        r"C750[78]", LAST_PTXAS_INFO[0])
                ok = ok and (("cp.async.cg" in ptx_text) ==
                             (not producer and decision["stages"] > 1))
            else:
                ok = ok and "mma.sync.aligned.m16n8k16" in ptx_text
                ok = ok and (("cp.async.cg" in ptx_text) ==
                             (decision["stages"] > 1))
        failures += not ok
        # The producer's and the compute warpgroups' counts after
        # setmaxnreg, where the dK/dV kernel has a producer.
        register_text = str(registers)
        split = [re.search(rf"setmaxnreg\.{way}\.sync\.aligned\.u32\s+(\d+)",
                           ptx_text) for way in ("dec", "inc")]
        if all(split):
            register_text += (f" (producer {split[0].group(1)}, "
                              f"compute {split[1].group(1)})")
        rows.append(f"| {chip} | {dtype} | {d} | {label} | {name} | {tile} | "
                    f"{register_text} | {spills} | "
                    f"{shared} ({'dynamic' if uses_dynamic else 'static'}) | "
                    f"{expected if name.startswith('dK') or deterministic and name == 'dQ' else '—'} | — | "
                    f"{limit} | {'ok' if ok else 'FAIL'} |")
    if max(gradient_shared) != expected:
        failures += 1
        rows.append(f"| {chip} | {dtype} | {d} | {label} | the report's "
                    f"{expected} bytes are not the larger kernel's "
                    f"{max(gradient_shared)} | | | | | | | | FAIL |")
    return rows, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    args = parser.parse_args()

    rows, failures = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for chip, dtype, d, causal, tiling in CASES:
            new_rows, failed = check(args, tmp, chip, dtype, d,
                                     "causal" if causal else "—",
                                     attention(dtype, d, causal, tiling))
            rows += new_rows
            failures += failed
        # The pipeline's options other than its defaults.
        for chip, dtype, d, causal, choice in CHOICE_CASES:
            new_rows, failed = check(
                args, tmp, chip, dtype, d,
                ("causal, " if causal else "") + choice,
                attention(dtype, d, causal, None), choice=" " + choice)
            rows += new_rows
            failures += failed
        for chip, dtype, d, nk in DECODE_CASES:
            module = attention(dtype, d, False, None, batch=1,
                               heads=DECODE_HEADS, kv_heads=DECODE_KV_HEADS,
                               nq=1, nk=nk)
            new_rows, failed = check(args, tmp, chip, dtype, d,
                                     f"decode, Nk = {nk}", module)
            rows += new_rows
            failures += failed
        for chip, dtype, d in PACKED_CASES:
            new_rows, failed = check(args, tmp, chip, dtype, d,
                                     f"packed, {PACKED_SEQUENCES} sequences",
                                     packed_attention(dtype, d))
            rows += new_rows
            failures += failed
        for chip, dtype, d, nk in PAGED_CASES:
            new_rows, failed = check(args, tmp, chip, dtype, d,
                                     f"paged decode, Nk = {nk}",
                                     paged_attention(dtype, d, nk))
            rows += new_rows
            failures += failed
        for chip, d, kind in MODIFIER_CASES:
            new_rows, failed = check(args, tmp, chip, "f16", d, kind,
                                     modified_attention("f16", d, kind))
            rows += new_rows
            failures += failed
        for chip, dtype, d, form in LINEAR_CASES:
            new_rows, failed = check_linear(args, tmp, chip, dtype, d, form)
            rows += new_rows
            failures += failed
        for chip, dtype, d, causal, deterministic in BACKWARD_CASES:
            new_rows, failed = check_backward(args, tmp, chip, dtype, d,
                                              causal, deterministic)
            rows += new_rows
            failures += failed

    print(f"B = {BATCH}, H = {HEADS}, N = {SEQ} (decode: B = 1, Hq = "
          f"{DECODE_HEADS}, Hkv = {DECODE_KV_HEADS}, Nq = 1; paged decode: B = "
          f"{PAGED_BATCH}, pages of {PAGE_SLOTS} slots, kv_lengths; packed: "
          f"{PACKED_SEQUENCES} sequences in {PACKED_ROWS} rows); "
          "`scripts/gpu-resources.py` (ptxas from CUDA 13.0)\n")
    print("| chip | type | d | mask / shape | kernel | tile | registers | spill bytes | "
          "shared memory (bytes) | tile report | Q+K+V bound | limit | check |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
