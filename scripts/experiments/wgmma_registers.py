#!/usr/bin/env python3
"""Experiment (issue 32): ptxas's registers for the wgmma kernel beside the
tile model's estimate.

The tile model estimates registers with the mma.sync kernel's formula
(KernelModel.cpp, registersPerThread). This compiles the sm_90a wgmma
kernel for a grid of tilings written on the op (D, Dv in {64/64, 128/128,
256/256, 128/64}, block_q 64 with 4 warps and 128 with 8, block_kv 16 to
128, 1 and 2 stages, causal and not), assembles each with
`ptxas -arch=sm_90a -v` and prints one line per tiling: the tiling, then
(gpu_kernel, estimate, then ptxas registers and spill bytes of the
cp.async wgmma kernel and of the TMA producer kernel), or None where the
model refuses the tiling (estimate above the 240 registers the producer
kernel's compute warpgroups get).

  python3 scripts/experiments/wgmma_registers.py [build/bin/fa-opt]
  python3 scripts/experiments/wgmma_registers.py --tma [build/bin/fa-opt]
  python3 scripts/experiments/wgmma_registers.py --tma-lengths [build/bin/fa-opt]

With --tma it measures the TMA producer kernel instead (the pipeline's
default schedules: P V a block late, ping-pong): for FlashAttention-3-like
tilings the model admits (d = 64, 128, 256; 128 rows with 8 warps and 192
with 12; 32 to 176 keys; causal and not) one line each: the tiling, the
model's estimate and the smallest setmaxnreg.inc with which ptxas
compiles the kernel without a spill (its compute path's need).

With --tma-lengths it measures, for the tilings the selection picks, the
TMA producer kernel's need at sequence lengths from 100 to 8192 and at run
time, with and without key splits (issue 50).

docs/Hopper.md has the result. Not part of the build.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
import pack  # noqa: E402  (the PTX string's unescaping)


def ptx_of(text):
    start = text.index(".version")
    quote = text.rfind('"', 0, start)
    end = quote + 1
    while True:
        end = text.index('"', end)
        if text[end - 1] != "\\":
            return pack.unescape(text[quote + 1:end])
        end += 1


def one(fa_opt, tmp, d, dv, bq, bkv, warps, stages, causal):
    t = f"tensor<2x16x4096x{d}xf16>"
    tv = f"tensor<2x16x4096x{dv}xf16>"
    band = " causal = top_left" if causal else ""
    source = os.path.join(tmp, "attention.mlir")
    with open(source, "w") as f:
        f.write(f"func.func @attention(%q: {t}, %k: {t}, %v: {tv}) -> {tv} {{\n"
                f"  %o = fa.attention %q, %k, %v scale = 0.125{band} tiling = "
                f"<block_q = {bq}, block_kv = {bkv}, warps = {warps}, stages = {stages}>"
                f" : {t}, {t}, {tv} -> {tv}\n  return %o : {tv}\n}}\n")
    report = subprocess.run([fa_opt, source, "--fa-select-tiles=target=sm_90a report=-"],
                            capture_output=True, text=True)
    if report.returncode:
        return None
    decision = json.loads(report.stdout.splitlines()[0])
    results = []
    # The cp.async kernel (every thread computes: ptxas's count is the
    # compute code's), then the TMA producer kernel (ptxas reports the
    # count at entry; what matters is that nothing spills under
    # setmaxnreg's 240).
    for choice in (" tma-producer=false", ""):
        built = subprocess.run([fa_opt, source,
                                f"--fa-gpu-pipeline=chip=sm_90a format=isa{choice}"],
                               capture_output=True, text=True)
        if built.returncode:
            return None
        ptx = os.path.join(tmp, "kernel.ptx")
        with open(ptx, "wb") as f:
            f.write(ptx_of(built.stdout))
        info = subprocess.run(["ptxas", "-v", "-arch=sm_90a", ptx, "-o",
                               os.path.join(tmp, "kernel.cubin")],
                              capture_output=True, text=True).stderr
        registers = int(re.search(r"Used (\d+) registers", info).group(1))
        spills = sum(int(x) for x in re.findall(r"(\d+) bytes spill", info))
        results += [registers, spills]
    return (decision["gpu_kernel"], decision["regs_per_thread_est"], *results)


# Two stages: what the selection prefers on sm_90a (`--one-stage` adds 1).
STAGES = (1, 2) if "--one-stage" in sys.argv else (2,)


def assembles(tmp, ptx_text, compute):
    """Whether ptxas compiles `ptx_text` with the compute warpgroups' count
    set to `compute` without spilling and without ignoring setmaxnreg."""
    text = re.sub(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+\d+;",
                  f"setmaxnreg.inc.sync.aligned.u32 {compute};", ptx_text)
    ptx = os.path.join(tmp, "need.ptx")
    with open(ptx, "w") as f:
        f.write(text)
    info = subprocess.run(["ptxas", "-v", "-arch=sm_90a", ptx, "-o",
                           os.path.join(tmp, "need.cubin")],
                          capture_output=True, text=True).stderr
    spills = sum(int(x) for x in re.findall(r"(\d+) bytes spill", info))
    return spills == 0 and "C7507" not in info and "C7508" not in info


def write_attention(tmp, t, band, tiling):
    """An @attention of Q, K, V of type `t` with `band` and the tiling
    attribute's fields `tiling`; its path."""
    source = os.path.join(tmp, "attention.mlir")
    with open(source, "w") as f:
        f.write(f"func.func @attention(%q: {t}, %k: {t}, %v: {t}) -> {t} {{\n"
                f"  %o = fa.attention %q, %k, %v scale = 0.125{band} tiling = "
                f"<{tiling}> : {t}, {t}, {t} -> {t}\n  return %o : {t}\n}}\n")
    return source


def smallest_setmaxnreg(tmp, ptx_text, ceiling):
    """The smallest setmaxnreg.inc (a multiple of 8, at most `ceiling`)
    with which ptxas compiles `ptx_text` without a spill, or None."""
    if not assembles(tmp, ptx_text, ceiling):
        return None
    low, high = 1, ceiling // 8
    while low < high:
        middle = (low + high) // 2
        if assembles(tmp, ptx_text, 8 * middle):
            high = middle
        else:
            low = middle + 1
    return 8 * low


def tma_need(fa_opt, tmp, d, bq, bkv, warps, causal):
    """(estimate, need): the tile model's compute registers for the TMA
    producer kernel (the pipeline's default schedules), and the smallest
    setmaxnreg.inc (a multiple of 8) with which ptxas compiles it without
    a spill; None where the model refuses the tiling."""
    source = write_attention(
        tmp, f"tensor<2x16x4096x{d}xf16>", " causal = top_left" if causal else "",
        f"block_q = {bq}, block_kv = {bkv}, warps = {warps}, stages = 2")
    report = subprocess.run([fa_opt, source, "--fa-select-tiles=target=sm_90a report=-"],
                            capture_output=True, text=True)
    if report.returncode:
        return None
    estimate = json.loads(report.stdout.splitlines()[0])["regs_per_thread_est"]
    # The tiling as written: no retile by fa-confirm-tiles-with-ptxas.
    built = subprocess.run([fa_opt, source,
                            "--fa-gpu-pipeline=chip=sm_90a format=isa confirm-tiles=false"],
                           capture_output=True, text=True)
    if built.returncode:
        return (estimate, "build failed")
    need = smallest_setmaxnreg(tmp, ptx_of(built.stdout).decode(), 248)
    return (estimate, need if need else ">248")


def main_tma(fa_opt):
    """`--tma`: the TMA producer kernel's model against ptxas, over
    FlashAttention-3-like tilings (docs/Hopper.md)."""
    with tempfile.TemporaryDirectory() as tmp:
        for d in (64, 128, 256):
            for bq, warps in ((128, 8), (192, 12)):
                for bkv in (32, 64, 80, 96, 128, 176, 192):
                    for causal in (False, True):
                        result = tma_need(fa_opt, tmp, d, bq, bkv, warps, causal)
                        if result is None:
                            continue
                        print(d, bq, bkv, warps, int(causal), *result, flush=True)


def tma_need_at(fa_opt, tmp, d, n, bq, bkv, warps, causal, splits=1):
    """The smallest setmaxnreg.inc (a multiple of 8) with which the TMA
    producer kernel compiles without a spill at sequence length `n` ("?":
    run time), or ">256"."""
    split = f", kv_splits = {splits}" if splits > 1 else ""
    source = write_attention(
        tmp, f"tensor<1x8x{n}x{d}xf16>", " causal = bottom_right" if causal else "",
        f"block_q = {bq}, block_kv = {bkv}, warps = {warps}, stages = 2{split}")
    options = "chip=sm_90a format=isa" + (" bare-pointers=false" if n == "?" else "")
    built = subprocess.run([fa_opt, source, f"--fa-gpu-pipeline={options}"],
                           capture_output=True, text=True)
    if built.returncode:
        return "refused"
    need = smallest_setmaxnreg(tmp, ptx_of(built.stdout).decode(), 256)
    return need if need else ">256"


def main_tma_lengths(fa_opt):
    """`--tma-lengths`: the TMA producer kernel's need at each sequence
    length, for the tilings the selection picks at f16 (issue 50: the need
    must not move with N, or the register model must count what moves)."""
    lengths = [100, 200, 257, 300, 512, 1000, 1024, 1550, 2048, 4096, 8192, "?"]
    tilings = [(64, 192, 128, 12, False), (64, 128, 176, 8, True),
               (128, 128, 176, 8, False), (128, 128, 128, 8, False),
               (128, 128, 128, 8, True), (256, 128, 64, 8, False),
               (256, 128, 64, 8, True)]
    with tempfile.TemporaryDirectory() as tmp:
        for d, bq, bkv, warps, causal in tilings:
            for splits in (1, 2):
                needs = [tma_need_at(fa_opt, tmp, d, n, bq, bkv, warps, causal, splits)
                         for n in lengths]
                print(f"d={d} {bq}x{bkv} {'causal' if causal else 'not causal'}"
                      f"{', 2 splits' if splits > 1 else ''}: " +
                      " ".join(f"{n}:{need}" for n, need in zip(lengths, needs)),
                      flush=True)


def main():
    if "--tma-lengths" in sys.argv:
        sys.argv.remove("--tma-lengths")
        os.environ["PATH"] = "/usr/local/cuda/bin:" + os.environ["PATH"]
        fa_opt = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "fa-opt")
        return main_tma_lengths(fa_opt)
    if "--tma" in sys.argv:
        sys.argv.remove("--tma")
        os.environ["PATH"] = "/usr/local/cuda/bin:" + os.environ["PATH"]
        fa_opt = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "fa-opt")
        return main_tma(fa_opt)
    sys.argv = [a for a in sys.argv if a != "--one-stage"]
    fa_opt = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "fa-opt")
    os.environ["PATH"] = "/usr/local/cuda/bin:" + os.environ["PATH"]
    with tempfile.TemporaryDirectory() as tmp:
        for d, dv in ((64, 64), (128, 128), (256, 256), (128, 64)):
            for bq, warps in ((64, 4), (128, 8)):
                for bkv in (16, 32, 64, 80, 128):
                    for stages in STAGES:
                        for causal in (False, True):
                            result = one(fa_opt, tmp, d, dv, bq, bkv, warps, stages, causal)
                            print(d, dv, bq, bkv, warps, stages, int(causal), result,
                                  flush=True)


if __name__ == "__main__":
    main()
