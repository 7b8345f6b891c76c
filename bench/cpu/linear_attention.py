#!/usr/bin/env python3
"""Linear attention on the CPU: fa.linear_attention lowered in the cheap
order (fa-lower-linear-attention: Q (K^T V), causal by chunks carrying the
state) against the quadratic order the frontend writes. By default
(--form frontend) the program is that quadratic order in linalg (S = Q K^T,
the causal select with 0 in a body comparing positions, the row sum, the
division, W V): fa-cpu-pipeline raises it to fa.linear_attention (checked)
and lowers it, and fa-cpu-pipeline=raise=false runs it as written. With
--form op, the program is fa.linear_attention itself, against its
reference decomposition (fa-cpu-pipeline=reference=true).

Each program runs in its own mlir-runner process; peak resident memory
(getrusage's ru_maxrss of that child) and wall time are measured, and each
run prints the sum of O^2, which must agree. Inputs: elu(x) + 1 of a sine
pattern for Q and K, the pattern itself for V, normalized rows
(normalize(eps = 1e-6)), scale 1/sqrt(d).

  bench/cpu/linear_attention.py [--n 8192,32768] [--heads 1] [--d 64]
      [--causal both|yes|no] [--chunk 64] [--skip-quadratic-above N]
      [--form frontend|op] [--host-cache-bytes 32768]

Each N also runs the program without attention (inputs, runtime, the
output's sum); a row's "own" column is its peak above that one.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LLVM = "/usr/lib/llvm-22"


def attention(n, heads, d, causal, attrs, form):
    """@attention: the op itself, or (form "frontend") the quadratic order
    as a frontend writes it in linalg: S = Q·Kᵀ, the causal select with 0
    in a body comparing linalg.index, the row sum, W / (Σ_j W + ε), W·V."""
    t = f"tensor<1x{heads}x{n}x{d}xf32>"
    if form == "baseline":
        # No attention at all: what the process holds for its inputs, the
        # runtime and the output sum, which the rows' "own" column subtracts.
        return f"""func.func @attention(%q: {t}, %k: {t}, %v: {t}) -> {t} {{
  return %v : {t}
}}"""
    if form == "op":
        return f"""func.func @attention(%q: {t}, %k: {t}, %v: {t}) -> {t} {{
  %o = fa.linear_attention %q, %k, %v {attrs} : {t}, {t}, {t} -> {t}
  return %o : {t}
}}"""
    s = f"tensor<1x{heads}x{n}x{n}xf32>"
    r = f"tensor<1x{heads}x{n}xf32>"
    scale = 1.0 / d ** 0.5
    mask = ("""    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sle, %j, %i : index
    %r = arith.select %c, %y, %zero : f32""" if causal else "    %r = arith.addf %y, %zero : f32")
    return f"""func.func @attention(%q: {t}, %k: {t}, %v: {t}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant {scale:.9e} : f32
  %eps = arith.constant 1.0e-06 : f32
  %es = tensor.empty() : {s}
  %zs = linalg.fill ins(%zero : f32) outs(%es : {s}) -> {s}
  %s = linalg.generic {{indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}}
      ins(%q, %k : {t}, {t}) outs(%zs : {s}) {{
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %sum = arith.addf %acc, %m : f32
    linalg.yield %sum : f32
  }} -> {s}
  %w = linalg.generic {{indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%s : {s}) outs(%es : {s}) {{
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %scale : f32
{mask}
    linalg.yield %r : f32
  }} -> {s}
  %er = tensor.empty() : {r}
  %zr = linalg.fill ins(%zero : f32) outs(%er : {r}) -> {r}
  %den = linalg.reduce ins(%w : {s}) outs(%zr : {r}) dimensions = [3]
    (%x: f32, %acc: f32) {{
      %sum = arith.addf %x, %acc : f32
      linalg.yield %sum : f32
    }}
  %et = tensor.empty() : {t}
  %zo = linalg.fill ins(%zero : f32) outs(%et : {t}) -> {t}
  %num = linalg.generic {{indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}}
      ins(%w, %v : {s}, {t}) outs(%zo : {t}) {{
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %sum = arith.addf %acc, %m : f32
    linalg.yield %sum : f32
  }} -> {t}
  %o = linalg.generic {{indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i)>, affine_map<(b, h, i, e) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins(%num, %den : {t}, {r}) outs(%et : {t}) {{
  ^bb0(%x: f32, %dd: f32, %out: f32):
    %de = arith.addf %dd, %eps : f32
    %y = arith.divf %x, %de : f32
    linalg.yield %y : f32
  }} -> {t}
  return %o : {t}
}}"""


def program(n, heads, d, causal, chunk, form="frontend", print_output=False):
    """The module: @main builds Q, K, V, calls @attention and prints the sum
    of O^2 (with `print_output`, O itself: the lit tests compare it)."""
    t = f"tensor<1x{heads}x{n}x{d}xf32>"
    attrs = (f"scale = {1.0 / d ** 0.5}" + (" causal" if causal else "")
             + " normalize(eps = 1.0e-6)" + (f" chunk = {chunk}" if causal else ""))
    return f"""func.func private @printMemrefF32(tensor<*xf32>)

func.func @input(%phase: f32, %phi: i1) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      outs(%e : {t}) {{
  ^bb0(%o: f32):
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c61 = arith.constant 61 : index
    %c7 = arith.constant 7 : index
    %a = arith.muli %i, %c61 : index
    %b = arith.muli %j, %c7 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %h : index
    %n = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %n : i64 to f32
    %k = arith.constant 0.013 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %phase : f32
    %z = math.sin %y : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %positive = arith.cmpf ogt, %z, %zero : f32
    %plus = arith.addf %z, %one : f32
    %ex = math.exp %z : f32
    %elu = arith.select %positive, %plus, %ex : f32
    %w = arith.select %phi, %elu, %z : f32
    linalg.yield %w : f32
  }} -> {t}
  return %r : {t}
}}

{attention(n, heads, d, causal, attrs, form)}

func.func @main() {{
  %p1 = arith.constant 0.1 : f32
  %p2 = arith.constant 0.7 : f32
  %p3 = arith.constant 1.3 : f32
  %yes = arith.constant true
  %no = arith.constant false
  %q = call @input(%p1, %yes) : (f32, i1) -> {t}
  %k = call @input(%p2, %yes) : (f32, i1) -> {t}
  %v = call @input(%p3, %no) : (f32, i1) -> {t}
  %o = call @attention(%q, %k, %v) : ({t}, {t}, {t}) -> {t}
{PRINT_OUTPUT.format(t=t) if print_output else SUM_OUTPUT.format(t=t)}"""


# The sum of O^2, the number the benchmark compares.
SUM_OUTPUT = """  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<f32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {{indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}}
      ins(%o : {t}) outs(%filled : tensor<f32>) {{
  ^bb0(%x: f32, %acc: f32):
    %sq = arith.mulf %x, %x : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }} -> tensor<f32>
  %u = tensor.cast %sum : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}}
"""


# O itself, before the sum of its squares.
PRINT_OUTPUT = """  %all = tensor.cast %o : {t} to tensor<*xf32>
  call @printMemrefF32(%all) : (tensor<*xf32>) -> ()
  return
}}
"""


def run_one(fa_opt, n, heads, d, causal, chunk, passes, form):
    with tempfile.TemporaryDirectory() as workdir:
        source = os.path.join(workdir, "p.mlir")
        compiled = os.path.join(workdir, "c.mlir")
        with open(source, "w") as stream:
            stream.write(program(n, heads, d, causal, chunk, form))
        if form == "frontend" and "raise=false" not in " ".join(passes):
            # The frontend's program must have been raised, or the row
            # measures the quadratic order under another name.
            raised = subprocess.run([fa_opt, source, "--fa-raise-attention"], check=True,
                                    capture_output=True, text=True).stdout
            if "fa.linear_attention" not in raised:
                sys.exit(f"N = {n}: the frontend's program was not raised")
        subprocess.run([fa_opt, source, *passes, "-o", compiled], check=True)
        libs = ",".join(f"{LLVM}/lib/lib{lib}.so"
                        for lib in ("mlir_runner_utils", "mlir_c_runner_utils"))
        command = [f"{LLVM}/bin/mlir-runner", "-e", "main", "-entry-point-result=void",
                   f"-shared-libs={libs}", compiled]
        start = time.time()
        child = subprocess.run(command, capture_output=True, text=True)
        elapsed = time.time() - start
        if child.returncode != 0:
            sys.exit(f"mlir-runner failed: {child.stderr[-500:]}")
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        value = float(child.stdout.split("[")[-1].split("]")[0])
        return {"sum_o2": value, "peak_mib": peak, "seconds": elapsed}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--n", default="8192,32768")
    parser.add_argument("--heads", type=int, default=1)
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--causal", default="both", choices=["both", "yes", "no"])
    parser.add_argument("--chunk", type=int, default=64)
    parser.add_argument("--skip-quadratic-above", type=int, default=1 << 30)
    parser.add_argument("--form", default="frontend", choices=["frontend", "op", "baseline"],
                        help="frontend: the quadratic order as linalg, raised by "
                             "fa-cpu-pipeline and run as written with raise=false; "
                             "op: fa.linear_attention, against the reference decomposition")
    parser.add_argument("--host-cache-bytes", type=int, default=0,
                        help="the host's cache its chunk is chosen for (0: this machine's)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        n, causal, passes = json.loads(args.one)
        print(json.dumps(run_one(args.fa_opt, n, args.heads, args.d, causal, args.chunk,
                                 passes, args.form)))
        return 0
    causals = {"both": [False, True], "yes": [True], "no": [False]}[args.causal]
    print(f"| N | causal | program | peak RSS (MiB) | own (MiB) | wall (s) | sum of O^2 |")
    print("|---:|---|---|---:|---:|---:|---:|")
    status = 0
    for n in (int(x) for x in args.n.split(",")):
        # The process without attention: inputs, runtime, the output's sum.
        base = json.loads(subprocess.run(
            [sys.executable, __file__, "--fa-opt", args.fa_opt, "--heads",
             str(args.heads), "--d", str(args.d), "--chunk", str(args.chunk),
             "--form", "baseline", "--one",
             json.dumps([n, False, ["--fa-cpu-pipeline=raise=false"]])],
            check=True, capture_output=True, text=True).stdout)
        print(f"| {n} | | no attention (inputs, runtime, sum) | {base['peak_mib']:.0f} "
              f"| 0 | {base['seconds']:.1f} | |", flush=True)
        for causal in causals:
            rows = []
            host = (f"--fa-cpu-pipeline=host-cache-bytes={args.host_cache_bytes}"
                    if args.host_cache_bytes else "--fa-cpu-pipeline")
            if args.form == "frontend":
                runs = (("frontend's (Q K^T) V, raised: Q (K^T V)", [host]),
                        ("frontend's (Q K^T) V, as written (quadratic)",
                         ["--fa-cpu-pipeline=raise=false"]))
            else:
                runs = (("Q (K^T V), fa-lower-linear-attention", ["--fa-cpu-pipeline"]),
                        ("(Q K^T) V, quadratic", ["--fa-cpu-pipeline=reference=true"]))
            for label, passes in runs:
                if "quadratic" in label and n > args.skip_quadratic_above:
                    continue
                # A fresh interpreter per run: RUSAGE_CHILDREN is its own.
                out = subprocess.run(
                    [sys.executable, __file__, "--fa-opt", args.fa_opt, "--heads",
                     str(args.heads), "--d", str(args.d), "--chunk", str(args.chunk),
                     "--form", args.form, "--one", json.dumps([n, causal, passes])],
                    check=True, capture_output=True, text=True).stdout
                row = json.loads(out)
                rows.append(row)
                own = max(row['peak_mib'] - base['peak_mib'], 0)
                print(f"| {n} | {'yes' if causal else 'no'} | {label} | {row['peak_mib']:.0f} "
                      f"| {own:.0f} | {row['seconds']:.1f} | {row['sum_o2']:.7g} |", flush=True)
            if len(rows) == 2 and abs(rows[0]["sum_o2"] - rows[1]["sum_o2"]) > 1e-4 * abs(rows[1]["sum_o2"]):
                print(f"outputs differ at N = {n}: {rows[0]['sum_o2']} vs {rows[1]['sum_o2']}")
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
