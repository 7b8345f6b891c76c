#!/usr/bin/env python3
"""Peak memory and time of the attention backward pass on the CPU: the fused
backward (fa-tile-attention-backward, P rebuilt tile by tile) against the
unfused one (fa-decompose-attention's reference, which stores P, dP and dS
as [B, H, N, N] tensors).

Three programs on the same inputs (sin of the index, in MLIR), each
compiled with fa-opt and run by mlir-runner as its own process, whose peak
resident memory (getrusage's ru_maxrss) and wall time are measured:

  forward   fa.attention (tiled), then a checksum of O
  fused     the same forward, then fa.attention_backward, tiled
  unfused   the same forward (tiled first: --fa-select-tiles
            --fa-tile-attention), then the backward through the reference

So the forward is the same tiled code in all three, and fused - forward and
unfused - forward are the backward's own cost. Each backward run prints the
sums of dQ^2, dK^2 and dV^2; the two must agree to 1e-3.

  bench/cpu/backward_memory.py [--fa-opt build/bin/fa-opt] [--n 8192]
                               [--d 64] [--heads 1] [--dtype f32]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LLVM = "/usr/lib/llvm-22"


def program(n, d, heads, dtype, backward):
    t = f"tensor<1x{heads}x{n}x{d}x{dtype}>"
    lse = f"tensor<1x{heads}x{n}xf32>"
    f32 = f"tensor<1x{heads}x{n}x{d}xf32>"
    lines = [
        "#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>",
        "#all = affine_map<(a, b, c, d) -> ()>",
        "func.func private @printMemrefF32(tensor<*xf32>)",
        f"func.func @input(%phase: f32) -> {t} {{",
        f"  %e = tensor.empty() : {f32}",
        "  %r = linalg.generic {indexing_maps = [#id4], iterator_types = "
        '["parallel", "parallel", "parallel", "parallel"]}',
        f"      outs(%e : {f32}) {{",
        "  ^bb0(%o: f32):",
        "    %i = linalg.index 2 : index",
        "    %j = linalg.index 3 : index",
        "    %c = arith.constant 61 : index",
        "    %a = arith.muli %i, %c : index",
        "    %s = arith.addi %a, %j : index",
        "    %n = arith.index_cast %s : index to i64",
        "    %x = arith.sitofp %n : i64 to f32",
        "    %k = arith.constant 0.37 : f32",
        "    %y = arith.mulf %x, %k : f32",
        "    %z = arith.addf %y, %phase : f32",
        "    %w = math.sin %z : f32",
        "    linalg.yield %w : f32",
        f"  }} -> {f32}",
    ]
    if dtype != "f32":
        lines += [f"  %t = arith.truncf %r : {f32} to {t}", f"  return %t : {t}"]
    else:
        lines += [f"  return %r : {t}"]
    lines += [
        "}",
        # The sum of squares of a gradient, in f32, as a [1] tensor.
        f"func.func @squares(%x: {t}) -> tensor<1xf32> {{",
        "  %z = arith.constant 0.0 : f32",
        "  %e = tensor.empty() : tensor<1xf32>",
        "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>",
        "  %r = linalg.generic {indexing_maps = [#id4, affine_map<(a, b, c, d) -> (0)>], "
        'iterator_types = ["reduction", "reduction", "reduction", "reduction"]}',
        f"      ins(%x : {t}) outs(%f : tensor<1xf32>) {{",
        f"  ^bb0(%v: {dtype}, %acc: f32):",
        ("    %w = arith.extf %v : " + dtype + " to f32") if dtype != "f32" else
        "    %w = arith.addf %v, %z : f32",
        "    %s = arith.mulf %w, %w : f32",
        "    %a = arith.addf %acc, %s : f32",
        "    linalg.yield %a : f32",
        "  } -> tensor<1xf32>",
        "  return %r : tensor<1xf32>",
        "}",
        "func.func @print(%x: tensor<1xf32>) {",
        "  %p = tensor.cast %x : tensor<1xf32> to tensor<*xf32>",
        "  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()",
        "  return",
        "}",
        "func.func @main() {",
    ]
    for name, phase in (("q", "0.1"), ("k", "1.3"), ("v", "2.9"), ("do", "4.2")):
        lines += [f"  %p{name} = arith.constant {phase} : f32",
                  f"  %{name} = call @input(%p{name}) : (f32) -> {t}"]
    scale = 1 / d ** 0.5
    lines += [f"  %o, %lse = fa.attention %q, %k, %v scale = {scale} causal = bottom_right"
              f" : {t}, {t}, {t} -> {t}, {lse}"]
    if backward:
        lines += [
            f"  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse "
            f"scale = {scale} causal = bottom_right : {t}, {t}, {t}, {t}, {t}, {lse} "
            f"-> {t}, {t}, {t}"]
        for g in ("dq", "dk", "dv"):
            lines += [f"  %s{g} = call @squares(%{g}) : ({t}) -> tensor<1xf32>",
                      f"  call @print(%s{g}) : (tensor<1xf32>) -> ()"]
    else:
        lines += [f"  %so = call @squares(%o) : ({t}) -> tensor<1xf32>",
                  "  call @print(%so) : (tensor<1xf32>) -> ()"]
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def run(fa_opt, source, passes, workdir, name):
    """Compiles `source` with each pass list in turn, runs it; returns the
    printed numbers, the peak RSS in MiB and the wall time in seconds."""
    path = os.path.join(workdir, name + ".mlir")
    with open(path, "w") as f:
        f.write(source)
    for index, args in enumerate(passes):
        out = os.path.join(workdir, f"{name}.{index}.mlir")
        subprocess.run([fa_opt, path, *args, "-o", out], check=True)
        path = out
    libs = ",".join(os.path.join(LLVM, "lib", lib) for lib in
                    ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    start = time.perf_counter()
    child = subprocess.Popen(
        [os.path.join(LLVM, "bin", "mlir-runner"), path, "-e", "main",
         "-entry-point-result=void", "-shared-libs=" + libs],
        stdout=subprocess.PIPE, text=True)
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{name}: mlir-runner failed ({status})")
    numbers = [float(line.strip()[1:-1]) for line in output.splitlines()
               if line.startswith("[")]
    return numbers, usage.ru_maxrss / 1024, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--n", type=int, default=8192)
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--heads", type=int, default=1)
    parser.add_argument("--dtype", default="f32")
    args = parser.parse_args()
    tiled = ["--fa-cpu-pipeline"]
    forward_tiled = ["--fa-select-tiles=target=host", "--fa-tile-attention"]
    unfused = ["--fa-cpu-pipeline=reference=true raise=false"]
    with tempfile.TemporaryDirectory() as workdir:
        results = {}
        for name, backward, passes in (
                ("forward", False, [tiled]),
                ("fused", True, [tiled]),
                ("unfused", True, [forward_tiled, unfused])):
            results[name] = run(args.fa_opt,
                                program(args.n, args.d, args.heads, args.dtype, backward),
                                passes, workdir, name)
    fused, unfused_sums = results["fused"][0], results["unfused"][0]
    agree = all(abs(a - b) <= 1e-3 * abs(b) for a, b in zip(fused, unfused_sums))
    base_mib, base_s = results["forward"][1], results["forward"][2]
    print(f"B = 1, H = {args.heads}, N = {args.n}, d = {args.d}, {args.dtype}, "
          "causal bottom-right; one core\n")
    print("| program | peak RSS (MiB) | backward's own (MiB) | wall (s) | backward's own (s) |")
    print("|---|---:|---:|---:|---:|")
    for name in ("forward", "fused", "unfused"):
        _, mib, seconds = results[name]
        own = "" if name == "forward" else f"{mib - base_mib:.0f}"
        own_s = "" if name == "forward" else f"{seconds - base_s:.1f}"
        print(f"| {name} | {mib:.0f} | {own} | {seconds:.1f} | {own_s} |")
    ratio = results["fused"][1] / results["unfused"][1]
    print(f"\nfused / unfused peak RSS: {ratio:.3f}")
    print(f"sums of dQ^2, dK^2, dV^2: fused {fused}, unfused {unfused_sums} "
          f"({'agree' if agree else 'DISAGREE'} to 1e-3)")
    return 0 if agree and len(fused) == 3 else 1


if __name__ == "__main__":
    sys.exit(main())
