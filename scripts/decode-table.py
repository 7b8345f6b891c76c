#!/usr/bin/env python3
"""Prints the decode table of docs/Targets.md: for decode steps (one query
token per sequence; 32 query heads over 4 or 8 key/value heads, d = 128,
f16), the tiling fa-select-tiles chooses (with split keys and grouped-query
packing) and the same tile without either (as before them), and what that
changes: blocks, SMs busy, K/V bytes each block reads, the HBM bytes the
tile report estimates (hbm_bytes_tiled_est) against one read of K and V,
and a model of the decode time.

The bytes are the report's: every block reads its query rows and the K and
V of its key run (each query head of an unpacked group reads its group's K
and V: no reuse between the heads of a group in L2 is assumed), writes its
output rows, and with splits writes its partial f32 rows and logsumexps,
which the merge reads back. The floor is reading K and V once. The time is
the report's hbm_time_us_est (those bytes over the preset's peak DRAM
bandwidth: A100 2039 GB/s, H100 SXM 3350 GB/s) scaled by the share of SMs
with a block (busy SMs = min(SMs, blocks)). This is a model, not a
measurement.

Usage: scripts/decode-table.py [build-dir]   (default: build)

With --sweep it prints instead, over a wider grid (sm_80 and sm_90a; B 1
and 8; Hq = 32 over Hkv = 32, 8, 4 and 1; d = 64, 128 and 256; Nk from 1k
to 128k, with 3000 and 100000 among them; shapes past 32-bit indexing
left out), the report's bytes over one read of K and V for every decode
step, the worst first, and how many exceed 1.10:

  scripts/decode-table.py --sweep [build-dir]
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADS, D, DTYPE, E = 32, 128, "f16", 2
SMS = {"sm_80": 108, "sm_90a": 132}
KEYS = (1024, 4096, 16384, 32768, 131072)


def module(batch, kv_heads, keys, tiling=None, d=D):
    q = f"tensor<{batch}x{HEADS}x1x{d}x{DTYPE}>"
    kv = f"tensor<{batch}x{kv_heads}x{keys}x{d}x{DTYPE}>"
    tile = f" tiling = {tiling}" if tiling else ""
    return (f"func.func @f(%q: {q}, %k: {kv}, %v: {kv}) -> {q} {{\n"
            f"  %o = fa.attention %q, %k, %v scale = 0.08838834764831845{tile} : "
            f"{q}, {kv}, {kv} -> {q}\n  return %o : {q}\n}}\n")


def report(fa_opt, target, text):
    out = subprocess.run([fa_opt, "-", f"--fa-select-tiles=target={target} report=-",
                          "-o", os.devnull], input=text, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(out.stderr)
    return json.loads(out.stdout.splitlines()[0])


def model(r, keys, target):
    """(busy SMs, K/V bytes per block, total bytes, time in µs)."""
    splits, bkv = r["kv_splits"], r["block_kv"]
    busy = min(SMS[target], r["blocks"])
    key_blocks = -(-keys // bkv)
    run = -(-key_blocks // splits)
    per_block = run * bkv * 2 * D * E
    seconds = r["hbm_time_us_est"] * SMS[target] / busy
    return busy, per_block, r["hbm_bytes_tiled_est"], seconds


def mib(x):
    return f"{x / 2**20:.1f}"


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    fa_opt = os.path.join(build, "bin", "fa-opt")
    print("| target | B | Hkv | Nk | tile | kv_splits | pack_gqa | blocks | busy SMs "
          "| K/V KiB per block | HBM MiB (report) | K/V once, MiB | HBM ÷ K/V once "
          "| time, µs (model) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for target in SMS:
        for batch in (1, 8):
            for kv_heads in (4, 8):
                for keys in KEYS:
                    after = report(fa_opt, target, module(batch, kv_heads, keys))
                    tiling = (f"<block_q = {after['block_q']}, block_kv = {after['block_kv']}, "
                              f"warps = {after['warps']}, stages = {after['stages']}>")
                    before = report(fa_opt, target, module(batch, kv_heads, keys, tiling))
                    b = model(before, keys, target)
                    a = model(after, keys, target)
                    once = batch * kv_heads * keys * 2 * D * E
                    tile = (f"{after['block_q']}×{after['block_kv']}, {after['warps']} warp"
                            f"{'s' if after['warps'] > 1 else ''}, {after['stages']} stage"
                            f"{'s' if after['stages'] > 1 else ''}")
                    print(f"| {target} | {batch} | {kv_heads} | {keys} | {tile} | "
                          f"{after['kv_splits']} | {'yes' if after['pack_gqa'] else 'no'} | "
                          f"{before['blocks']} → {after['blocks']} | {b[0]} → {a[0]} | "
                          f"{b[1] // 1024} → {a[1] // 1024} | "
                          f"{mib(b[2])} → {mib(a[2])} | {mib(once)} | "
                          f"{b[2] / once:.2f} → {a[2] / once:.2f} | "
                          f"{b[3]:.0f} → {a[3]:.1f} |")


def sweep(fa_opt):
    """The report's bytes over one read of K and V over a grid of decode
    steps (issue 53: within 10% for B in {1, 8}, Nk 1k-128k)."""
    rows = []
    for target in SMS:
        for batch in (1, 8):
            for kv_heads in (32, 8, 4, 1):
                for keys in (1024, 3000, 4096, 16384, 32768, 65536, 100000, 131072):
                    for d in (64, 128, 256):
                        if batch * max(kv_heads, 1) * keys * d >= 2**31:
                            continue  # 32-bit indexing refuses it
                        r = report(fa_opt, target, module(batch, kv_heads, keys, d=d))
                        once = batch * kv_heads * keys * 2 * d * E
                        rows.append((r["hbm_bytes_tiled_est"] / once, target, batch,
                                     kv_heads, keys, d, r["block_q"], r["block_kv"],
                                     r["warps"], r["kv_splits"], r["pack_gqa"]))
    rows.sort(reverse=True)
    print("| HBM ÷ K/V once | target | B | Hkv | Nk | d | tile | warps | kv_splits | pack_gqa |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row[0]:.3f} | {row[1]} | {row[2]} | {row[3]} | {row[4]} | {row[5]} | "
              f"{row[6]}×{row[7]} | {row[8]} | {row[9]} | {'yes' if row[10] else 'no'} |")
    over = sum(1 for row in rows if row[0] > 1.10)
    print(f"\n{len(rows)} decode steps, {over} over 1.10× one read of K and V")


if __name__ == "__main__":
    if "--sweep" in sys.argv:
        sys.argv.remove("--sweep")
        build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
        sweep(os.path.join(build, "bin", "fa-opt"))
    else:
        main()
