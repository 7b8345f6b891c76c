#!/usr/bin/env python3
"""Position-defined biases and masks on the CPU: folded into fa.attention's
score_mod / mask_mod (what fa-cpu-pipeline does) against the materialized
[B, H, Nq, Nk] tensor the op read before (fa-raise-attention, then the
pipeline without fa-fold-masks-into-modifiers).

Two frontend programs in linalg, each compiled twice and run by mlir-runner
as its own process; peak resident memory (getrusage's ru_maxrss) and wall
time are measured, and each run prints the sum of O^2, which must agree:

  alibi      scores + slope[h] * (k - q), the bias computed from
             linalg.index and a [H] slopes tensor (BLOOM/MPT's ALiBi)
  documents  select(doc[q] == doc[k], scores, -inf) with the document ids a
             constant (packed pretraining), plus the tile report's count of
             visited key blocks (fa-select-tiles report=-)

  bench/cpu/score_modifiers.py [--case alibi|documents|both] [--n 8192]
      [--heads 16] [--d 64] [--documents 8]
"""
import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LLVM = "/usr/lib/llvm-22"


def document_ids(n, documents, seed=7):
    """`documents` runs of unequal lengths covering n positions."""
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, n), documents - 1))
    ids, start = [], 0
    for doc, end in enumerate(cuts + [n]):
        ids += [doc] * (end - start)
        start = end
    return ids


def program(case, n, heads, d, documents):
    qt = f"tensor<1x{heads}x{n}x{d}xf32>"
    st = f"tensor<1x{heads}x{n}x{n}xf32>"
    lines = [
        "func.func private @printMemrefF32(tensor<*xf32>)",
        f"func.func @input(%phase: f32) -> {qt} {{",
        f"  %e = tensor.empty() : {qt}",
        "  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],"
        ' iterator_types = ["parallel", "parallel", "parallel", "parallel"]}',
        f"      outs(%e : {qt}) {{",
        "  ^bb0(%o: f32):",
        "    %h = linalg.index 1 : index",
        "    %i = linalg.index 2 : index",
        "    %j = linalg.index 3 : index",
        "    %c = arith.constant 61 : index",
        "    %c7 = arith.constant 7 : index",
        "    %a = arith.muli %i, %c : index",
        "    %hh = arith.muli %h, %c7 : index",
        "    %s0 = arith.addi %a, %j : index",
        "    %s = arith.addi %s0, %hh : index",
        "    %m = arith.index_cast %s : index to i64",
        "    %x = arith.sitofp %m : i64 to f32",
        "    %k = arith.constant 0.37 : f32",
        "    %y = arith.mulf %x, %k : f32",
        "    %z = arith.addf %y, %phase : f32",
        "    %w = math.sin %z : f32",
        "    linalg.yield %w : f32",
        f"  }} -> {qt}",
        f"  return %r : {qt}",
        "}",
    ]
    extra_args, extra_types, pre, transform = "", "", [], []
    if case == "alibi":
        extra_args = f", %slopes: tensor<{heads}xf32>"
        bias = f"tensor<{heads}x{n}x{n}xf32>"
        pre = [
            f"  %eb = tensor.empty() : {bias}",
            "  %bias = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h)>,"
            " affine_map<(h, i, j) -> (h, i, j)>],"
            ' iterator_types = ["parallel", "parallel", "parallel"]}',
            f"      ins(%slopes : tensor<{heads}xf32>) outs(%eb : {bias}) {{",
            "  ^bb0(%slope: f32, %o: f32):",
            "    %i = linalg.index 1 : index",
            "    %j = linalg.index 2 : index",
            "    %dd = arith.subi %j, %i : index",
            "    %di = arith.index_cast %dd : index to i64",
            "    %df = arith.sitofp %di : i64 to f32",
            "    %r = arith.mulf %slope, %df : f32",
            "    linalg.yield %r : f32",
            f"  }} -> {bias}",
        ]
        ins = f"ins(%s, %bias : {st}, {bias})"
        maps = ("affine_map<(b, h, i, j) -> (b, h, i, j)>, "
                "affine_map<(b, h, i, j) -> (h, i, j)>, "
                "affine_map<(b, h, i, j) -> (b, h, i, j)>")
        body = ["  ^bb0(%a: f32, %bb: f32, %o: f32):",
                "    %sc = arith.mulf %a, %scale : f32",
                "    %r = arith.addf %sc, %bb : f32",
                "    linalg.yield %r : f32"]
    else:
        ids = document_ids(n, documents)
        keep = f"tensor<{n}x{n}xi1>"
        pre = [
            f"  %doc = arith.constant dense<[{', '.join(map(str, ids))}]> : tensor<{n}xi32>",
            f"  %ek = tensor.empty() : {keep}",
            "  %keep = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>,"
            " affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],"
            ' iterator_types = ["parallel", "parallel"]}',
            f"      ins(%doc, %doc : tensor<{n}xi32>, tensor<{n}xi32>) outs(%ek : {keep}) {{",
            "  ^bb0(%x: i32, %y: i32, %o: i1):",
            "    %r = arith.cmpi eq, %x, %y : i32",
            "    linalg.yield %r : i1",
            f"  }} -> {keep}",
        ]
        ins = f"ins(%s, %keep : {st}, {keep})"
        maps = ("affine_map<(b, h, i, j) -> (b, h, i, j)>, "
                "affine_map<(b, h, i, j) -> (i, j)>, "
                "affine_map<(b, h, i, j) -> (b, h, i, j)>")
        body = ["  ^bb0(%a: f32, %kk: i1, %o: f32):",
                "    %sc = arith.mulf %a, %scale : f32",
                "    %r = arith.select %kk, %sc, %neginf : f32",
                "    linalg.yield %r : f32"]
    lines += [
        f"func.func @attention(%q: {qt}, %k: {qt}, %v: {qt}{extra_args}) -> {qt} {{",
        "  %zero = arith.constant 0.0 : f32",
        "  %neginf = arith.constant 0xFF800000 : f32",
        f"  %scale = arith.constant {1.0 / d ** 0.5} : f32",
    ] + pre + [
        f"  %e0 = tensor.empty() : {st}",
        f"  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : {st}) -> {st}",
        "  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,"
        " affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],"
        ' iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}',
        f"      ins(%q, %k : {qt}, {qt}) outs(%z0 : {st}) {{",
        "  ^bb0(%qa: f32, %kb: f32, %acc: f32):",
        "    %m = arith.mulf %qa, %kb : f32",
        "    %r = arith.addf %acc, %m : f32",
        "    linalg.yield %r : f32",
        f"  }} -> {st}",
        f"  %e1 = tensor.empty() : {st}",
        f"  %x = linalg.generic {{indexing_maps = [{maps}],"
        ' iterator_types = ["parallel", "parallel", "parallel", "parallel"]}',
        f"      {ins} outs(%e1 : {st}) {{",
    ] + body + [
        f"  }} -> {st}",
        f"  %e2 = tensor.empty() : {st}",
        f"  %p = linalg.softmax dimension(3) ins(%x : {st}) outs(%e2 : {st}) -> {st}",
        f"  %e3 = tensor.empty() : {qt}",
        f"  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : {qt}) -> {qt}",
        "  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,"
        " affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],"
        ' iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}',
        f"      ins(%p, %v : {st}, {qt}) outs(%z3 : {qt}) {{",
        "  ^bb0(%pa: f32, %vb: f32, %acc: f32):",
        "    %m = arith.mulf %pa, %vb : f32",
        "    %r = arith.addf %acc, %m : f32",
        "    linalg.yield %r : f32",
        f"  }} -> {qt}",
        f"  return %o : {qt}",
        "}",
        "func.func @main() {",
        "  %p1 = arith.constant 1.0 : f32",
        "  %p2 = arith.constant 2.0 : f32",
        "  %p3 = arith.constant 3.0 : f32",
        f"  %q = call @input(%p1) : (f32) -> {qt}",
        f"  %k = call @input(%p2) : (f32) -> {qt}",
        f"  %v = call @input(%p3) : (f32) -> {qt}",
    ]
    if case == "alibi":
        slopes = ", ".join(f"{2 ** (-8 * (h + 1) / heads):e}" for h in range(heads))
        lines += [f"  %slopes = arith.constant dense<[{slopes}]> : tensor<{heads}xf32>",
                  f"  %o = call @attention(%q, %k, %v, %slopes) : ({qt}, {qt}, {qt}, tensor<{heads}xf32>) -> {qt}"]
    else:
        lines += [f"  %o = call @attention(%q, %k, %v) : ({qt}, {qt}, {qt}) -> {qt}"]
    lines += [
        "  %zero = arith.constant 0.0 : f32",
        "  %e = tensor.empty() : tensor<f32>",
        "  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>",
        "  %sum = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>,"
        " affine_map<(a, b, c, d) -> ()>],"
        ' iterator_types = ["reduction", "reduction", "reduction", "reduction"]}',
        f"      ins(%o : {qt}) outs(%init : tensor<f32>) {{",
        "  ^bb0(%x: f32, %acc: f32):",
        "    %sq = arith.mulf %x, %x : f32",
        "    %r = arith.addf %acc, %sq : f32",
        "    linalg.yield %r : f32",
        "  } -> tensor<f32>",
        "  %u = tensor.cast %sum : tensor<f32> to tensor<*xf32>",
        "  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()",
        "  return",
        "}",
    ]
    return "\n".join(lines) + "\n"


def run(fa_opt, source, passes, workdir, name):
    """Compiles `source` with `passes`, runs it; (sum of O^2, peak MiB, s)."""
    compiled = os.path.join(workdir, name + ".mlir")
    subprocess.run([fa_opt, source, *passes, "-o", compiled], check=True)
    libs = ",".join(f"{LLVM}/lib/lib{lib}.so" for lib in ("mlir_runner_utils", "mlir_c_runner_utils"))
    command = [f"{LLVM}/bin/mlir-runner", "-e", "main", "-entry-point-result=void",
               "-O3", "-shared-libs=" + libs, compiled]
    start = time.time()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    out, _ = child.communicate()
    if child.returncode != 0:
        sys.exit(f"{name}: mlir-runner failed")
    elapsed = time.time() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    value = float(out.split("[")[-1].split("]")[0])
    return value, peak, elapsed


def measure(fa_opt, case, n, heads, d, documents):
    with tempfile.TemporaryDirectory() as workdir:
        source = os.path.join(workdir, case + ".mlir")
        with open(source, "w") as stream:
            stream.write(program(case, n, heads, d, documents))
        report = subprocess.run(
            [fa_opt, source, "--fa-raise-attention", "--fa-fold-masks-into-modifiers",
             "--fa-select-tiles=target=host report=-", "-o", os.devnull],
            check=True, capture_output=True, text=True).stdout
        tiles = json.loads(report.splitlines()[0])
        rows = []
        # Each run in a fresh interpreter so that RUSAGE_CHILDREN is its own.
        for label, passes in (("folded (score_mod / mask_mod)", ["--fa-cpu-pipeline"]),
                              ("materialized mask operand",
                               ["--fa-raise-attention", "--fa-cpu-pipeline=raise=false"])):
            result = subprocess.run(
                [sys.executable, __file__, "--one", label, "--case", case, "--n", str(n),
                 "--heads", str(heads), "--d", str(d), "--documents", str(documents),
                 "--fa-opt", fa_opt, "--passes=" + " ".join(passes)],
                check=True, capture_output=True, text=True).stdout
            rows.append(json.loads(result))
        return tiles, rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--case", default="both", choices=["alibi", "documents", "both"])
    parser.add_argument("--n", type=int, default=None)
    parser.add_argument("--heads", type=int, default=None)
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--documents", type=int, default=8)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--passes", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        with tempfile.TemporaryDirectory() as workdir:
            source = os.path.join(workdir, "p.mlir")
            with open(source, "w") as stream:
                stream.write(program(args.case, args.n, args.heads, args.d, args.documents))
            value, peak, elapsed = run(args.fa_opt, source, args.passes.split(), workdir, "c")
        print(json.dumps({"label": args.one, "sum_o2": value, "peak_mib": peak, "seconds": elapsed}))
        return 0
    cases = ["alibi", "documents"] if args.case == "both" else [args.case]
    for case in cases:
        n = args.n or (8192 if case == "alibi" else 4096)
        heads = args.heads or (16 if case == "alibi" else 4)
        tiles, rows = measure(args.fa_opt, case, n, heads, args.d, args.documents)
        print(f"## {case}: N = {n}, H = {heads}, d = {args.d}, f32"
              + (f", {args.documents} documents" if case == "documents" else ""))
        print(f"tiles {tiles['block_q']} x {tiles['block_kv']}; mask_mod_blocks: "
              f"{tiles.get('mask_mod_blocks')}")
        print("| program | peak RSS (MiB) | wall (s) | sum of O^2 |")
        print("|---|---:|---:|---:|")
        for row in rows:
            print(f"| {row['label']} | {row['peak_mib']:.0f} | {row['seconds']:.1f} | {row['sum_o2']:.6g} |")
        a, b = rows[0]["sum_o2"], rows[1]["sum_o2"]
        if abs(a - b) > 1e-4 * abs(b):
            print(f"outputs differ: {a} vs {b}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
