#!/usr/bin/env python3
"""The main key-block loop of each tensor-core kernel, instruction by instruction.

Compiles one attention per case with `fa-opt --fa-gpu-pipeline=chip=<chip>
format=isa` (B = 1, H = 8, N = 1024, the tiles the target's model picks),
finds in each kernel's PTX the loop that holds the most mma.sync (or, in
sm_90a's kernels, wgmma.mma_async, counted in the same column; FILE.ptx
mode) (the key-
block loop: a strongly connected component of the control-flow graph, so
blocks that LLVM placed after the latch count too), and counts its
instructions by class, statically, one per `;`-terminated statement. The
counts are printed per mma.sync beside FlashAttention-2's own loop compiled
with nvcc 13 (docs/Sources.md §8): the issue-slot cost of the
loop's non-tensor work, which is what separates an mma.sync kernel from
FA2-class speed.

  scripts/ptx-main-loop.py [--fa-opt build/bin/fa-opt] [--ptxas PATH]
                           [--check] [--backward] [--index-bitwidth 32]
                           [FILE.ptx ...]

With --check it exits 1 unless every non-causal case's loop issues at most
1.1x FA2's instructions per mma.sync for its head dim (5.41 at d = 64, 4.60
at d = 128; FA2's counts are of its non-causal loop), and every case's loop
holds ex2.approx and cp.async, no ld.global and no accurate-exp sequence
(fma.rm), and (with ptxas) spills nothing. --backward adds the
backward pass's gradient kernels (the dK/dV kernel adding dQ with atomics,
and with `deterministic` dK/dV and dQ), reported beside FA2's backward loop
per mma.sync (its one kernel per key block, dQ by atomics: 5.42 at d = 64,
128×128; 5.32 at d = 128, 64×128; docs/GPU.md, "Beside FlashAttention-2's
and -3's backward"); --check holds them to the same 1.1x. FILE.ptx
arguments are profiled as they are instead (one row per kernel).
"""
import argparse
import collections
import itertools
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location(
    "gpu_resources", os.path.join(ROOT, "scripts", "gpu-resources.py"))
gpu_resources = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gpu_resources)

# FlashAttention-2's main loop, PTX instructions per mma.sync (docs/Sources.md
# §8): the tile FA2 ships for the head dim on A100/H100 that has the most
# instructions per mma.sync among its spill-free tiles, which is the bar
# the issue sets (d = 64: 128x64, d = 128: 128x32).
FA2_PER_MMA = {64: 5.41, 128: 4.60}
# FlashAttention-2's backward loop (non-causal, divisible shapes, its own
# tiles on sm_80), compiled here with nvcc 13.0.
FA2_BACKWARD_PER_MMA = {64: 5.42, 128: 5.32}
FA2_TILE = {64: "128×64", 128: "128×32"}
LIMIT = 1.1

BATCH, HEADS, SEQ = 1, 8, 1024
CASES = [(chip, dtype, d, causal)
         for chip in ("sm_80", "sm_90")
         for d in (64, 128)
         for dtype in ("f16", "bf16")
         for causal in (False, True)]

# Instruction classes, first match wins (the opcode's dotted prefix).
CLASSES = [
    ("mma", r"mma\.sync|wgmma\.mma_async"),
    ("ldmatrix", r"ldmatrix"),
    ("cp.async", r"cp\.async"),
    ("ld.global", r"ld\.global|ld\.param|ld\.(?!shared)[a-z0-9.]*\s"),
    ("ld.shared", r"ld\.shared"),
    ("st.shared", r"st\.shared"),
    ("st.global", r"st\.global|st\.(?!shared)"),
    ("bar", r"bar\.|barrier"),
    ("shfl", r"shfl"),
    ("ex2", r"ex2\.approx"),
    ("cvt.pack", r"cvt\.rn\.(bf16|f16)x2"),
    ("cvt", r"cvt"),
    ("fma.f32", r"fma\.[a-z.]*f32"),
    ("f32", r"(add|sub|mul|max|min|neg|abs|div|rcp)\.[A-Za-z.]*f32"),
    ("setp/selp", r"setp|selp"),
    ("mov", r"mov"),
    ("branch", r"bra|ret|@"),
    ("integer", r"(add|sub|mul|mad|shl|shr|and|or|xor|not|min|max|cnot|"
                r"bfe|bfi|prmt|rem|div|neg)\.(lo\.|hi\.|wide\.)?"
                r"[subp](8|16|32|64)"),
]


def statements(body):
    """(opcode, text) of each instruction of a function body: `;`-terminated
    statements with labels, directives, braces and comments removed."""
    body = re.sub(r"//[^\n]*", "", body)
    result = []
    for raw in body.split(";"):
        text = " ".join(raw.split())
        text = re.sub(r"^(\$?[\w.$]+:\s*)+", "", text)  # labels
        text = text.lstrip("{} ")
        if not text or text.startswith("."):
            continue
        opcode = re.sub(r"^@!?%\w+\s+", "", text).split()[0]
        result.append((opcode, text))
    return result


def classify(opcode, text):
    if text.startswith("@") and opcode.startswith("bra"):
        return "branch"
    for name, pattern in CLASSES:
        if re.match(pattern, opcode):
            return name
    return "other"


def basic_blocks(body):
    """[(label or None, [statement text...])] in order."""
    blocks = [[None, []]]
    pieces = re.split(r"(^\$[\w$]+:)", re.sub(r"//[^\n]*", "", body),
                      flags=re.M)
    blocks[0][1] = pieces[0]
    for index in range(1, len(pieces), 2):
        blocks.append([pieces[index][:-1], pieces[index + 1]])
    # A block ends at a branch as well as before a label.
    split = []
    for label, text in blocks:
        current = []
        for opcode, stmt in statements(text):
            current.append(stmt)
            # Branches inside inline asm (an mbarrier wait's retry loop)
            # name labels of their own, not the function's ($L...).
            if (opcode.startswith("bra") and "$" in stmt) or opcode == "ret":
                split.append((label, current))
                label, current = None, []
        split.append((label, current))
    return split


def loop_statements(body):
    """The statements of the strongly connected component of the CFG that
    holds the most mma.sync (ties: the fewest statements)."""
    blocks = basic_blocks(body)
    index_of = {label: i for i, (label, _) in enumerate(blocks) if label}
    successors = []
    for i, (_, stmts) in enumerate(blocks):
        succ = []
        last = stmts[-1] if stmts else ""
        target = re.search(r"bra(?:\.uni)?\s+(\$[\w$]+)", last)
        if target:
            succ.append(index_of[target.group(1)])
        unconditional = last.startswith("bra") or last.startswith("ret")
        if not unconditional and i + 1 < len(blocks):
            succ.append(i + 1)
        successors.append(succ)
    components = strongly_connected(successors)
    best = None
    for component in components:
        if len(component) == 1 and component[0] not in successors[component[0]]:
            continue
        stmts = [s for i in sorted(component) for s in blocks[i][1]]
        mmas = sum(1 for s in stmts
                   if s.startswith("mma.sync") or s.startswith("wgmma.mma_async"))
        key = (mmas, -len(stmts))
        if mmas and (best is None or key > best[0]):
            best = (key, stmts)
    return best[1] if best else []


def strongly_connected(successors):
    """Tarjan's algorithm, iterative."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = 0
    for root in range(len(successors)):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            recurse = False
            for i in range(position, len(successors[node])):
                nxt = successors[node][i]
                if nxt not in index:
                    work.append((node, i + 1))
                    work.append((nxt, 0))
                    recurse = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return result


def kernels(ptx):
    """{name: body} of each .entry of a PTX module."""
    result = {}
    for match in re.finditer(r"\.entry\s+(\w+)\s*\(", ptx):
        start = ptx.index("{", ptx.index(")", match.end()))
        depth, at = 0, start
        while True:
            if ptx[at] == "{":
                depth += 1
            elif ptx[at] == "}":
                depth -= 1
                if depth == 0:
                    break
            at += 1
        result[match.group(1)] = ptx[start + 1:at]
    return result


def innermost_loops(body):
    """The statements of each innermost loop holding matmuls (a backward
    branch and the blocks from its target to it, as laid out, containing no
    other such loop), in layout order: a persistent kernel's key loops
    (a causal kernel's unmasked and masked ones) inside its loop over
    tiles, which loop_statements would count whole."""
    blocks = basic_blocks(body)
    index_of = {label: i for i, (label, _) in enumerate(blocks) if label}
    ranges = []
    for i, (_, stmts) in enumerate(blocks):
        target = re.search(r"bra(?:\.uni)?\s+(\$[\w$]+)", stmts[-1]) if stmts else None
        if not target or index_of.get(target.group(1), len(blocks)) > i:
            continue
        first = index_of[target.group(1)]
        inner = [s for k in range(first, i + 1) for s in blocks[k][1]]
        if any(s.startswith("mma.sync") or s.startswith("wgmma.mma_async")
               for s in inner):
            ranges.append((first, i, inner))
    return [inner for first, last, inner in ranges
            if not any(f >= first and l <= last and (f, l) != (first, last)
                       for f, l, _ in ranges)]


def count(stmts):
    counts = collections.Counter()
    for stmt in stmts:
        opcode = re.sub(r"^@!?%\w+\s+", "", stmt).split()[0]
        counts[classify(opcode, stmt)] += 1
    counts["total"] = len(stmts)
    counts["fma.rm"] = sum(1 for s in stmts if s.startswith("fma.rm"))
    return counts


def profile(body):
    return count(loop_statements(body))


def attention(dtype, d, causal):
    t = f"tensor<{BATCH}x{HEADS}x{SEQ}x{d}x{dtype}>"
    mask = " causal = bottom_right" if causal else ""
    return (f"func.func @attention(%q: {t}, %k: {t}, %v: {t}) -> {t} {{\n"
            f"  %o = fa.attention %q, %k, %v scale = {d ** -0.5!r}{mask} : "
            f"{t}, {t}, {t} -> {t}\n  return %o : {t}\n}}\n")


def tiling_of(fa_opt, source, chip):
    out = gpu_resources.run([fa_opt, source, f"--fa-select-tiles=target={chip}"])
    match = re.search(r"tiling = <block_q = (\d+), block_kv = (\d+), warps = "
                      r"(\d+), stages = (\d+)[^>]*?(?:kv_splits = (\d+))?[^>]*>",
                      out.stdout)
    if not match:
        return "?"
    q, kv, warps, stages, splits = match.groups()
    text = f"{q}×{kv}, {warps} warps, {stages} stage{'s' if stages != '1' else ''}"
    return text + (f", {splits} key splits" if splits and splits != "1" else "")


def spills(ptxas, chip, tmp, ptx):
    if not ptxas:
        return None
    path = os.path.join(tmp, "kernel.ptx")
    with open(path, "w") as f:
        f.write(ptx)
    out = gpu_resources.run([ptxas, "-v", f"-arch={chip}", path,
                             "-o", os.path.join(tmp, "kernel.cubin")])
    found = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                       out.stderr)
    return sum(int(a) + int(b) for a, b in found)


COLUMNS = ["ldmatrix", "ex2", "fma.f32", "f32", "integer", "setp/selp",
           "mov", "cp.async", "bar", "shfl", "cvt.pack", "other"]


def row(label, counts, fa2=None, extra=""):
    mmas = counts["mma"]
    per = counts["total"] / mmas if mmas else float("nan")
    cells = [label, str(counts["total"]), str(mmas), f"{per:.2f}"]
    if fa2 is not None:
        cells += [f"{fa2:.2f}", f"{per / fa2:.2f}"]
    cells += [f"{counts[c] / mmas:.2f}" if mmas else "-" for c in
              ("integer",)]
    cells += [str(counts[c]) for c in COLUMNS]
    cells += [str(counts["ld.global"] + counts["st.global"]), extra]
    return "| " + " | ".join(cells) + " |"


def header(with_fa2):
    cells = ["case", "instructions", "mma.sync", "per mma.sync"]
    if with_fa2:
        cells += ["FA2", "ratio"]
    cells += ["integer per mma"] + COLUMNS + ["global ld/st", "notes"]
    return ("| " + " | ".join(cells) + " |\n|" +
            "---|" * len(cells))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin",
                                                         "fa-opt"))
    parser.add_argument("--ptxas", default=None)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--backward", action="store_true")
    parser.add_argument("--index-bitwidth", type=int, default=64,
                        help="fa-gpu-pipeline's index-bitwidth (64 or 32)")
    parser.add_argument("--innermost", action="store_true",
                        help="with FILE.ptx: count the innermost loop holding "
                             "the most matmuls (a persistent kernel's key loop)")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()

    if args.files:
        print(header(False))
        for path in args.files:
            for name, body in kernels(open(path).read()).items():
                if args.innermost:
                    for k, stmts in enumerate(innermost_loops(body)):
                        print(row(f"{os.path.basename(path)}: {name[-40:]}, "
                                  f"loop {k}", count(stmts)))
                    continue
                counts = profile(body)
                if counts["mma"]:
                    print(row(f"{os.path.basename(path)}: {name}", counts))
        return 0

    ptxas = args.ptxas
    pipeline = f"format=isa index-bitwidth={args.index_bitwidth}"
    failures = []
    print(header(True))
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "attention.mlir")
        for chip, dtype, d, causal in CASES:
            with open(source, "w") as f:
                f.write(attention(dtype, d, causal))
            out = gpu_resources.run(
                [args.fa_opt, source,
                 f"--fa-gpu-pipeline=chip={chip} {pipeline}"])
            label = (f"{chip}, {dtype}, d={d}{', causal' if causal else ''}: "
                     f"{tiling_of(args.fa_opt, source, chip)}")
            ptx = gpu_resources.ptx_of(out.stdout)
            if out.returncode or not ptx:
                failures.append(f"{label}: fa-opt failed: {out.stderr[-400:]}")
                continue
            body = kernels(ptx).get("attention_kernel")
            counts = profile(body or "")
            spilled = spills(ptxas, chip, tmp, ptx)
            notes = [] if spilled is None else [f"{spilled} B spilled"]
            print(row(label, counts, FA2_PER_MMA[d], ", ".join(notes)))
            per = counts["total"] / max(counts["mma"], 1)
            problems = []
            if not counts["mma"]:
                problems.append("no mma.sync loop")
            # FA2's counts are of its non-causal loop; a causal loop here
            # also masks every element (docs/GPU.md), so it is reported.
            if not causal and per > LIMIT * FA2_PER_MMA[d]:
                problems.append(f"{per:.2f} instructions per mma.sync > "
                                f"{LIMIT} x {FA2_PER_MMA[d]}")
            if not counts["ex2"]:
                problems.append("no ex2.approx")
            if counts["fma.rm"]:
                problems.append("an accurate exp (fma.rm)")
            if counts["ld.global"]:
                problems.append("ld.global in the loop")
            if not counts["cp.async"]:
                problems.append("no cp.async")
            if spilled:
                problems.append(f"{spilled} bytes spilled")
            failures += [f"{label}: {p}" for p in problems]
        if args.backward:
            print()
            print(header(True))
            for chip, d, deterministic in itertools.product(
                    ("sm_80", "sm_90"), (64, 128), (False, True)):
                text = gpu_resources.attention_backward(
                    "f16", d, False, batch=BATCH, heads=HEADS, n=SEQ,
                    deterministic=deterministic)
                with open(source, "w") as f:
                    f.write(text)
                out = gpu_resources.run(
                    [args.fa_opt, source,
                     f"--fa-gpu-pipeline=chip={chip} {pipeline}"])
                # The launches in order: D, dK/dV (adding dQ with
                # atomics), dQ's rounding; with `deterministic` D,
                # dK/dV, dQ (those with mma.sync are reported).
                names = iter(["dK, dV", "dQ"] if deterministic
                             else ["dK, dV, dQ (atomic)"])
                for ptx in gpu_resources.ptx_objects(out.stdout):
                    for body in kernels(ptx).values():
                        counts = profile(body)
                        if not counts["mma"]:
                            continue
                        label = (f"{chip}, f16, d={d} backward: "
                                 f"{next(names, '?')}")
                        fa2 = FA2_BACKWARD_PER_MMA[d]
                        print(row(label, counts, fa2))
                        per = counts["total"] / counts["mma"]
                        if per > LIMIT * fa2:
                            failures.append(
                                f"{label}: {per:.2f} per mma.sync > "
                                f"{LIMIT} x {fa2}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    sys.exit(main())
