#!/usr/bin/env python3
"""The tiling sweep's backward cases through the emulated Hopper backward.

Each case of test/Integration/Inputs/make_backward_sweep.py's CASES (the
tiled backward's sweep: tails, Nq != Nk, GQA and MQA, causal either way,
windows, biases and their gradients, boolean masks, empty rows) is lifted
to what sm_90a's wgmma dK/dV kernel takes: f16 where the case is f32
(bf16 stays), D and Dv raised to 64, and a wgmma tiling (16 x 64 with one
compute warpgroup, or 32 x 128 with two, alternating, 2 stages). The case
is written as that script writes its GPU cases for sm_90a
(`module_text(..., chip="sm_90a")`) and its RUN lines are run here, but
for the IR checks: the kernel on `fa-cpu-pipeline=gpu-kernel=sm_90a` (the
producer warpgroup form where the registers fit) in forward and reversed
thread and block order against the reference and the float64 oracle, the
cp.async form, and with `deterministic` bit for bit across orders where
the tiling fits it. A case with a mask takes 16 x 64 (a mask's registers
leave 32 x 128 no room). Too slow for CI (about a minute per case); the
numbers are in docs/Hopper.md.

A case that misses is "at the tolerance's edge" where sm_80's mma.sync
backward kernels, run on the same module, miss the float64 oracle too or
give the same numbers (within 1e-2 relative, 1e-3 absolute): the
rounding of O, P and dS to f16/bf16 that FlashAttention-2 and -3 share,
not the Hopper kernel's (as random_backward.py --hopper classifies).

  scripts/hopper-backward-sweep.py [--fa-opt build/bin/fa-opt] [--only NAME,...]

Prints one line per case and `hopper backward sweep: N cases, M failed`;
exits 1 if any failed.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INPUTS = os.path.join(ROOT, "test", "Integration", "Inputs")
sys.path.insert(0, INPUTS)
import backward_oracle  # noqa: E402
import make_backward_sweep as backward  # noqa: E402

LLVM = "/usr/lib/llvm-22"
RUNNER_LIBS = ",".join(f"{LLVM}/lib/{name}" for name in
                       ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
WARPGROUP_COLUMNS = 64
TILINGS = [(16, 64, 4, 2), (32, 128, 8, 2)]


def lifted(case, index):
    """The GPU case tuple of CASES entry `case` for sm_90a's wgmma kernel."""
    (name, b, hq, hkv, nq, nk, d, dv, dtype, mask, causal, window, _tile,
     grad_mask, _oracle, what) = case
    up = lambda x: max(WARPGROUP_COLUMNS, -(-x // WARPGROUP_COLUMNS) * WARPGROUP_COLUMNS)
    dtype = "f16" if dtype == "f32" else dtype
    return ("hopper-" + name, b, hq, hkv, nq, nk, up(d), up(dv), dtype, mask,
            causal, window, TILINGS[0] if mask else TILINGS[index % len(TILINGS)],
            what + " (lifted to sm_90a's wgmma dK/dV kernel)", grad_mask)



def run_lines(text, path, tmp, fa_opt):
    """The case's RUN lines as shell commands, but for its IR checks."""
    subs = [("%mlir-run", f"{LLVM}/bin/mlir-runner -e main -entry-point-result=void "
                          f"-shared-libs={RUNNER_LIBS}"),
            ("%compare", f"{sys.executable} {os.path.join(INPUTS, 'compare_outputs.py')}"),
            ("%python", sys.executable),
            ("%S/../Inputs", INPUTS),
            ("%s", path), ("%t", os.path.join(tmp, "case"))]
    lines = []
    for line in re.findall(r"^// RUN: (.*)$", text, re.M):
        # The IR checks are the generated tests'; the oracle runs in
        # process (it finds a case by its file's name).
        if "--fa-distribute-attention-backward" in line or "backward_oracle" in line:
            continue
        for key, value in subs:
            line = line.replace(key, value)
        line = re.sub(r"\bfa-opt\b", fa_opt, line)
        line = re.sub(r"\bFileCheck\b", f"{LLVM}/bin/FileCheck", line)
        lines.append(line)
    return lines


def oracle_misses(gpu_case, output, tmp):
    """Whether `output` misses the float64 oracle (its report kept)."""
    oracle_case = gpu_case[:13] + (gpu_case[14], True, gpu_case[13])
    with open(os.path.join(tmp, "oracle.txt"), "w") as log:
        stdout, sys.stdout = sys.stdout, log
        try:
            return bool(backward_oracle.check(oracle_case, [output]))
        finally:
            sys.stdout = stdout


def at_edge(gpu_case, path, tmp, fa_opt):
    """Whether sm_80's mma.sync backward kernels share the miss: they miss
    the oracle too, or give the sm_90a kernel's numbers."""
    bq, bkv, warps, stages = TILINGS[0]
    text = open(path).read()
    text = re.sub(r"tiling = <block_q = \d+, block_kv = \d+, warps = \d+, stages = \d+>",
                  f"tiling = <block_q = {bq}, block_kv = {bkv}, warps = {warps}, "
                  f"stages = {stages}>", text)
    mma_path = os.path.join(tmp, "sm80.mlir")
    with open(mma_path, "w") as f:
        f.write(text)
    mma = os.path.join(tmp, "case.sm80")
    run = subprocess.run(
        ["bash", "-o", "pipefail", "-c",
         f"{fa_opt} {mma_path} --fa-cpu-pipeline=gpu-kernel=sm_80 | "
         f"{LLVM}/bin/mlir-runner -e main -entry-point-result=void "
         f"-shared-libs={RUNNER_LIBS} > {mma}"], capture_output=True, text=True)
    if run.returncode:
        return False
    if oracle_misses(gpu_case, mma, tmp):
        return True
    same = subprocess.run(
        [sys.executable, os.path.join(INPUTS, "compare_outputs.py"),
         os.path.join(tmp, "case.kernel"), mma, "--rtol", "1e-2", "--atol", "1e-3"],
        capture_output=True, text=True)
    return same.returncode == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--only", default="", help="comma-separated case names")
    args = parser.parse_args()
    only = [n for n in args.only.split(",") if n]
    failed = count = edges = 0
    for index, case in enumerate(backward.CASES):
        if only and case[0] not in only:
            continue
        gpu_case = lifted(case, index)
        count += 1
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, gpu_case[0] + ".mlir")
            text = backward.module_text(gpu_case, gpu=True, chip="sm_90a")
            with open(path, "w") as f:
                f.write(text)
            problem = ""
            for command in run_lines(text, path, tmp, args.fa_opt):
                result = subprocess.run(["bash", "-o", "pipefail", "-c", command],
                                        capture_output=True, text=True,
                                        cwd=os.path.join(ROOT, "test", "Integration",
                                                         "Backward"))
                if result.returncode:
                    problem = (command[:160] + ": " +
                               (result.stderr or result.stdout).strip()[-400:])
                    break
            if not problem:
                # The kernel and the reference against the float64 oracle.
                for which in ("reference", "kernel"):
                    if oracle_misses(gpu_case, os.path.join(tmp, "case." + which), tmp):
                        with open(os.path.join(tmp, "oracle.txt")) as log:
                            problem = "the oracle: " + log.read().strip()[-400:]
                        break
            edge = problem and os.path.exists(os.path.join(tmp, "case.kernel")) and \
                at_edge(gpu_case, path, tmp, args.fa_opt)
        tile = gpu_case[12]
        verdict = ("ok" if not problem else
                   "at the tolerance's edge (sm_80's kernels share it): " + problem
                   if edge else "FAIL " + problem)
        print(f"{case[0]}: {verdict} "
              f"({gpu_case[8]}, D = {gpu_case[6]}, Dv = {gpu_case[7]}, "
              f"{tile[0]} x {tile[1]}, {tile[2]} warps)", flush=True)
        failed += bool(problem) and not edge
        edges += bool(edge)
    print(f"hopper backward sweep: {count} cases, {failed} failed, "
          f"{edges} at the tolerance's edge")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
