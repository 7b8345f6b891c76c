#!/usr/bin/env python3
"""Prints the tile table of docs/Targets.md: for every preset, head dim
d in {64, 128, 256} and f16/f32, the tiling fa-select-tiles chooses (policy
auto), FlashAttention-1's formula values and the kernel
fa-distribute-attention builds for it (mma.sync or fma), for one attention of
B = 1, H = 16, N = 4096 (no mask).

Usage: scripts/target-table.py [build-dir]   (default: build)
"""
import json
import os
import subprocess
import sys

PRESETS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100",
           "sm_120", "gfx90a", "gfx942", "gfx950"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def report(fa_opt, target, d, dtype):
    t = f"tensor<1x16x4096x{d}x{dtype}>"
    module = (f"func.func @f(%q: {t}) -> {t} {{\n"
              f"  %o = fa.attention %q, %q, %q scale = 0.125 : {t}, {t}, {t} -> {t}\n"
              f"  return %o : {t}\n}}\n")
    out = subprocess.run([fa_opt, "-", f"--fa-select-tiles=target={target} report=-",
                          "-o", os.devnull], input=module, capture_output=True,
                         text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[0]
    return json.loads(out.stdout.splitlines()[0]), None


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    fa_opt = os.path.join(build, "bin", "fa-opt")
    print("| target | d | dtype | block_q x block_kv | warps | stages | smem bytes (limit) "
          "| regs/thread | blocks/SM | fa1 B_c, B_r (formula) | GPU kernel |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for target in PRESETS:
        for d in (64, 128, 256):
            for dtype in ("f16", "f32"):
                r, error = report(fa_opt, target, d, dtype)
                if r is None:
                    print(f"| {target} | {d} | {dtype} | no tile fits | | | | | | | |")
                    continue
                print(f"| {target} | {d} | {dtype} | {r['block_q']} x {r['block_kv']} "
                      f"| {r['warps']} | {r['stages']} | {r['smem_bytes']} ({r['smem_limit']}) "
                      f"| {r['regs_per_thread_est']} | {r['occupancy_blocks_per_sm']} "
                      f"| {r['fa1_bc']}, {r['fa1_br']} | {r.get('gpu_kernel', '-')} |")


if __name__ == "__main__":
    main()
