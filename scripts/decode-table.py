#!/usr/bin/env python3
"""Prints the decode table of docs/Targets.md: for decode steps (one query
token per sequence; 32 query heads over 8 key/value heads, d = 128, f16),
the tiling fa-select-tiles chooses (with split keys and grouped-query
packing) and the same tile without either (as before them), and what that
changes: blocks in flight, SMs busy, K/V bytes each block reads, and a
model of the decode time against HBM bandwidth.

The model: decode is memory-bound (each key and value is used once per
query head), so the time is the bytes read and written divided by the HBM
bandwidth the busy SMs can draw, taken as proportional to the share of SMs
with a block (busy SMs = min(SMs, blocks)). Bytes: every block reads its
query rows and the K and V of its key run (each query head reads its
group's K and V: no reuse between the heads of a group in L2 is assumed),
writes its output rows, and with splits writes its partial f32 rows and
logsumexps, which the merge reads back. The floor is reading K and V once.
Bandwidths are the datasheets' (A100 SXM 80 GB: 2039 GB/s; H100 SXM:
3352 GB/s). This is a model, not a measurement.

Usage: scripts/decode-table.py [build-dir]   (default: build)
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADS, KV_HEADS, D, DTYPE, E = 32, 8, 128, "f16", 2
BANDWIDTH = {"sm_80": 2039e9, "sm_90": 3352e9}
SMS = {"sm_80": 108, "sm_90": 132}
KEYS = (1024, 4096, 16384, 32768, 131072)


def module(batch, keys, tiling=None):
    q = f"tensor<{batch}x{HEADS}x1x{D}x{DTYPE}>"
    kv = f"tensor<{batch}x{KV_HEADS}x{keys}x{D}x{DTYPE}>"
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


def model(r, batch, keys, target):
    """(blocks in flight, busy SMs, K/V bytes per block, total bytes, time)."""
    splits, bkv, bq = r["kv_splits"], r["block_kv"], r["block_q"]
    blocks = r["blocks"]
    in_flight = min(blocks, SMS[target] * r["occupancy_blocks_per_sm"])
    busy = min(SMS[target], blocks)
    key_blocks = -(-keys // bkv)
    run = -(-key_blocks // splits)
    per_block = run * bkv * 2 * D * E
    rows = batch * HEADS  # Nq = 1
    total = (blocks * per_block + splits * rows * D * E + rows * D * E
             + 2 * r["workspace_bytes"])
    seconds = total / (BANDWIDTH[target] * busy / SMS[target])
    return in_flight, busy, per_block, total, seconds


def mib(x):
    return f"{x / 2**20:.1f}"


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    fa_opt = os.path.join(build, "bin", "fa-opt")
    print("| target | B | Nk | tile | kv_splits | pack_gqa | blocks | in flight | busy SMs "
          "| K/V KiB per block | HBM MiB (model) | K/V once, MiB | time, µs (model) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for target in ("sm_80", "sm_90"):
        for batch in (1, 8):
            for keys in KEYS:
                after = report(fa_opt, target, module(batch, keys))
                tiling = (f"<block_q = {after['block_q']}, block_kv = {after['block_kv']}, "
                          f"warps = {after['warps']}, stages = {after['stages']}>")
                before = report(fa_opt, target, module(batch, keys, tiling))
                b = model(before, batch, keys, target)
                a = model(after, batch, keys, target)
                once = batch * KV_HEADS * keys * 2 * D * E
                tile = (f"{after['block_q']}×{after['block_kv']}, {after['warps']} warp"
                        f"{'s' if after['warps'] > 1 else ''}, {after['stages']} stage"
                        f"{'s' if after['stages'] > 1 else ''}")
                print(f"| {target} | {batch} | {keys} | {tile} | {after['kv_splits']} | "
                      f"{'yes' if after['pack_gqa'] else 'no'} | "
                      f"{before['blocks']} → {after['blocks']} | {b[0]} → {a[0]} | "
                      f"{b[1]} → {a[1]} | {b[2] // 1024} → {a[2] // 1024} | "
                      f"{mib(b[3])} → {mib(a[3])} | {mib(once)} | "
                      f"{b[4] * 1e6:.0f} → {a[4] * 1e6:.0f} |")


if __name__ == "__main__":
    main()
