#!/usr/bin/env python3
"""Random paged caches on sm_90a's TMA producer kernel, a probe (not a test).

Draws page sizes (4 to 256 slots, most not dividing any key block), head
dims, key lengths, causal or not and kv_lengths or not; for each:

  * compiles the attention with fa-gpu-pipeline (chip=sm_90a, the tile
    model's own tiles: confirm-tiles=false) and assembles every kernel with
    ptxas: no spills, setmaxnreg kept, and TMA in the attention kernel
    exactly where the model says (tmaKeyBoxRows whole swizzle atoms: the
    report's gpu_kernel is "wgmma-tma-ws");
  * for --run of them (small shapes), runs the kernel on the CPU model
    (fa-cpu-pipeline gpu-kernel=sm_90a warpgroup-tiles=true, so that short
    sequences take the wgmma kernels too; threads in a random order) against
    the reference on contiguous K and V with the same values, NaN in every
    slot past a sequence's length.

  scripts/experiments/paged_probe.py [--fa-opt build/bin/fa-opt]
      [--ptxas PATH] [--seed 1] [--count 40] [--run 8]

Prints one line per case and a summary; exits 1 on any failure.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import sweep  # noqa: E402  (ptx_objects)

RUNNER = ["/usr/lib/llvm-22/bin/mlir-runner", "-entry-point-result=void",
          "-shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,"
          "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so"]
COMPARE = os.path.join(ROOT, "test", "Integration", "Inputs", "compare_outputs.py")


def attention(d, nq, pages, slots, hq, hkv, causal, lengths, batch):
    """@paged over a cache [pages * batch, slots, hkv, d] and @contiguous over
    [batch, hkv, pages * slots, d], with @main_paged / @main_contiguous
    building the same values (page p of sequence b holds entry m = p mod
    pages, stored at page (pages * batch - 1 - p), NaN past each length)."""
    nk = pages * slots
    total = pages * batch
    q = f"tensor<{batch}x{hq}x{nq}x{d}xf16>"
    c = f"tensor<{total}x{slots}x{hkv}x{d}xf16>"
    k = f"tensor<{batch}x{hkv}x{nk}x{d}xf16>"
    t = f"tensor<{batch}x{pages}xi32>"
    n = f"tensor<{batch}xi32>"
    o = q
    mask = " causal = bottom_right" if causal else ""
    len_op = f" kv_lengths(%n : {n})" if lengths else ""
    values = ", ".join(str(x) for x in lengths) if lengths else ", ".join([str(nk)] * batch)
    return f"""func.func private @printMemrefF32(tensor<*xf32>)
func.func @paged(%q: {q}, %k: {c}, %v: {c}, %t: {t}, %n: {n}) -> {o} {{
  %o = fa.attention %q, %k, %v{len_op} page_table(%t : {t}) scale = {d ** -0.5!r}{mask} : {q}, {c}, {c} -> {o}
  return %o : {o}
}}
func.func @contiguous(%q: {q}, %k: {k}, %v: {k}, %n: {n}) -> {o} {{
  %o = fa.attention %q, %k, %v{len_op} scale = {d ** -0.5!r}{mask} : {q}, {k}, {k} -> {o}
  return %o : {o}
}}
func.func @value(%b: index, %h: index, %r: index, %c: index, %seed: f32) -> f16 {{
  %c7 = arith.constant 7919 : index
  %c5 = arith.constant 131 : index
  %c3 = arith.constant 29 : index
  %x0 = arith.muli %b, %c7 : index
  %x1 = arith.muli %h, %c5 : index
  %x2 = arith.muli %r, %c3 : index
  %s0 = arith.addi %x0, %x1 : index
  %s1 = arith.addi %s0, %x2 : index
  %s2 = arith.addi %s1, %c : index
  %i = arith.index_cast %s2 : index to i64
  %f = arith.sitofp %i : i64 to f32
  %m = arith.constant 0.37 : f32
  %x = arith.mulf %f, %m : f32
  %y = arith.addf %x, %seed : f32
  %z = math.sin %y : f32
  %h16 = arith.truncf %z : f32 to f16
  return %h16 : f16
}}
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @fill(%e: tensor<?x?x?x?xf16>, %seed: f32) -> tensor<?x?x?x?xf16> {{
  %r = linalg.generic {{indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} outs(%e : tensor<?x?x?x?xf16>) {{
  ^bb0(%x: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  }} -> tensor<?x?x?x?xf16>
  return %r : tensor<?x?x?x?xf16>
}}
func.func @fill_pages(%n: {n}, %seed: f32) -> {c} {{
  %e = tensor.empty() : {c}
  %r = linalg.generic {{indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} outs(%e : {c}) {{
  ^bb0(%x: f16):
    %p = linalg.index 0 : index
    %s = linalg.index 1 : index
    %h = linalg.index 2 : index
    %col = linalg.index 3 : index
    %last = arith.constant {total - 1} : index
    %pages = arith.constant {pages} : index
    %slots = arith.constant {slots} : index
    %q = arith.subi %last, %p : index
    %b = arith.divui %q, %pages : index
    %m = arith.remui %q, %pages : index
    %base = arith.muli %m, %slots : index
    %row = arith.addi %base, %s : index
    %v = func.call @value(%b, %h, %row, %col, %seed) : (index, index, index, index, f32) -> f16
    %l32 = tensor.extract %n[%b] : {n}
    %l = arith.index_cast %l32 : i32 to index
    %past = arith.cmpi sge, %row, %l : index
    %nan = arith.constant 0x7E00 : f16
    %w = arith.select %past, %nan, %v : f16
    linalg.yield %w : f16
  }} -> {c}
  return %r : {c}
}}
func.func @table() -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(b, m) -> (b, m)>], iterator_types = ["parallel", "parallel"]}} outs(%e : {t}) {{
  ^bb0(%x: i32):
    %b = linalg.index 0 : index
    %m = linalg.index 1 : index
    %pages = arith.constant {pages} : index
    %last = arith.constant {total - 1} : index
    %y = arith.muli %b, %pages : index
    %z = arith.addi %y, %m : index
    %p = arith.subi %last, %z : index
    %p32 = arith.index_cast %p : index to i32
    linalg.yield %p32 : i32
  }} -> {t}
  return %r : {t}
}}
func.func @inputs() -> ({q}, {n}) {{
  %s1 = arith.constant 1.0 : f32
  %c1 = arith.constant {batch} : index
  %c2 = arith.constant {hq} : index
  %c3 = arith.constant {nq} : index
  %c4 = arith.constant {d} : index
  %eq = tensor.empty(%c1, %c2, %c3, %c4) : tensor<?x?x?x?xf16>
  %fq = call @fill(%eq, %s1) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %q = tensor.cast %fq : tensor<?x?x?x?xf16> to {q}
  %n = arith.constant dense<[{values}]> : {n}
  return %q, %n : {q}, {n}
}}
func.func @print(%o: {o}) {{
  %f = arith.extf %o : {o} to tensor<{batch}x{hq}x{nq}x{d}xf32>
  %u = tensor.cast %f : tensor<{batch}x{hq}x{nq}x{d}xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}}
func.func @main_paged() {{
  %q, %n = call @inputs() : () -> ({q}, {n})
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %k = call @fill_pages(%n, %s2) : ({n}, f32) -> {c}
  %v = call @fill_pages(%n, %s3) : ({n}, f32) -> {c}
  %t = call @table() : () -> {t}
  %o = call @paged(%q, %k, %v, %t, %n) : ({q}, {c}, {c}, {t}, {n}) -> {o}
  call @print(%o) : ({o}) -> ()
  return
}}
func.func @main_contiguous() {{
  %q, %n = call @inputs() : () -> ({q}, {n})
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %c1 = arith.constant {batch} : index
  %c2 = arith.constant {hkv} : index
  %c3 = arith.constant {nk} : index
  %c4 = arith.constant {d} : index
  %e = tensor.empty(%c1, %c2, %c3, %c4) : tensor<?x?x?x?xf16>
  %fk = call @fill(%e, %s2) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %fv = call @fill(%e, %s3) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %k = tensor.cast %fk : tensor<?x?x?x?xf16> to {k}
  %v = tensor.cast %fv : tensor<?x?x?x?xf16> to {k}
  %o = call @contiguous(%q, %k, %v, %n) : ({q}, {k}, {k}, {n}) -> {o}
  call @print(%o) : ({o}) -> ()
  return
}}
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--run", type=int, default=8)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    failures = tma = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(args.count):
            runs = case < args.run
            slots = rng.choice([4, 8, 12, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 256])
            d = rng.choice([64, 128] if runs else [64, 128, 256])
            hkv = rng.choice([1, 2])
            hq = hkv * rng.choice([1, 2, 4])
            batch = rng.choice([1, 2])
            nk_wanted = rng.randint(40, 300) if runs else rng.randint(200, 8192)
            pages = max(1, -(-nk_wanted // slots))
            nk = pages * slots
            nq = rng.randint(1, 130) if runs else rng.choice([1, 64, 1000, 4096])
            causal = rng.random() < 0.5 and nq <= nk
            lengths = ([rng.randint(max(1, nk // 3), nk) for _ in range(batch)]
                       if rng.random() < 0.6 else None)
            if causal and lengths and min(lengths) < nq:
                causal = False
            label = (f"case {case}: pages of {slots}, d={d}, Hq={hq}, Hkv={hkv}, "
                     f"B={batch}, Nq={nq}, Nk={nk}{', causal' if causal else ''}"
                     f"{', kv_lengths' if lengths else ''}")
            source = os.path.join(tmp, "a.mlir")
            with open(source, "w") as f:
                f.write(attention(d, nq, pages, slots, hq, hkv, causal, lengths, batch))
            problems = []
            report = subprocess.run([args.fa_opt, source, "--fa-select-tiles=target=sm_90a report=-"
                                     + (" warpgroup-tiles=true" if runs else ""),
                                     "-o", os.devnull], capture_output=True, text=True)
            kernel = plan = "?"
            if report.returncode:
                problems.append(f"selection: {report.stderr.strip()[:200]}")
            else:
                first = json.loads(report.stdout.splitlines()[0])
                kernel, plan = first.get("gpu_kernel"), first.get("kernel_plan", "")
                tma += kernel == "wgmma-tma-ws"
            built = subprocess.run([args.fa_opt, source,
                                    "--fa-gpu-pipeline=chip=sm_90a format=isa confirm-tiles=false"],
                                   capture_output=True, text=True)
            if built.returncode:
                problems.append(f"gpu pipeline: {built.stderr.strip()[:200]}")
            else:
                for i, ptx in enumerate(sweep.ptx_objects(built.stdout)):
                    path = os.path.join(tmp, f"k{i}.ptx")
                    with open(path, "w") as f:
                        f.write(ptx)
                    info = subprocess.run([args.ptxas, "-v", "-arch=sm_90a", path, "-o", os.devnull],
                                          capture_output=True, text=True).stderr
                    spills = sum(int(x) for x in re.findall(r"(\d+) bytes spill stores", info))
                    if spills:
                        problems.append(f"kernel {i} spills {spills} bytes")
                    if re.search(r"C750[78]", info):
                        problems.append(f"kernel {i}: setmaxnreg ignored")
            if runs and not problems:
                order = rng.choice(["forward", "reverse"])
                outputs = []
                for entry, options in (("main_paged", "gpu-kernel=sm_90a warpgroup-tiles=true "
                                                      f"thread-order={order}"),
                                       ("main_contiguous", "reference=true")):
                    lowered = subprocess.run([args.fa_opt, source, f"--fa-cpu-pipeline={options}"],
                                             capture_output=True, text=True)
                    if lowered.returncode:
                        problems.append(f"{entry}: {lowered.stderr.strip()[:200]}")
                        break
                    ran = subprocess.run(RUNNER + ["-e", entry], input=lowered.stdout,
                                         capture_output=True, text=True)
                    if ran.returncode:
                        problems.append(f"{entry} failed: {ran.stderr.strip()[:200]}")
                        break
                    path = os.path.join(tmp, entry + ".txt")
                    with open(path, "w") as f:
                        f.write(ran.stdout)
                    outputs.append(path)
                if len(outputs) == 2:
                    compared = subprocess.run([sys.executable, COMPARE, *outputs, "--rtol", "1e-2",
                                               "--atol", "5e-3"], capture_output=True, text=True)
                    verdict = (compared.stdout + compared.stderr).strip().splitlines()
                    if compared.returncode or not verdict or not verdict[-1].startswith("MATCH"):
                        problems.append("CPU model: " + " ".join(verdict[-2:]))
                    else:
                        label += f"; {verdict[-1]} ({order} threads)"
            failures += bool(problems)
            print(f"{'FAIL' if problems else 'ok'} {label}: {kernel}, {plan}"
                  + "".join(f"; {p}" for p in problems), flush=True)
    print(f"paged-probe: {args.count} cases ({args.run} run on the CPU model), "
          f"{tma} on the TMA producer kernel, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
