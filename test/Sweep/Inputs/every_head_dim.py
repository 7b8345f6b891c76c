#!/usr/bin/env python3
"""Issue 50's first defect, as a test: a plain fa.attention (no mask, Hq = 2
over Hkv = 1) through the default fa-cpu-pipeline for every head dim in
{32, 64, 80, 96, 128, 192, 256}, f32, f16 and bf16, and N in {64, 1000},
with the host's cache fixed at 32 KiB (where f32 at d = 128 was refused),
run by mlir-runner and compared with reference=true.

  every_head_dim.py FA_OPT [--dims 32,64] [--dtypes f32] [--lengths 64]

Prints one line per case and `every-head-dim: N cases, M failed`.
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import sweep  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("fa_opt")
    parser.add_argument("--dims", default="32,64,80,96,128,192,256")
    parser.add_argument("--dtypes", default="f32,f16,bf16")
    parser.add_argument("--lengths", default="64,1000")
    parser.add_argument("--host-cache-bytes", type=int, default=32768)
    cli = parser.parse_args()
    args = argparse.Namespace(fa_opt=cli.fa_opt, ptxas=None, no_run=False,
                              show=False, model=False,
                              host_cache_bytes=cli.host_cache_bytes)
    cases = failed = 0
    for dtype in cli.dtypes.split(","):
        for d in map(int, cli.dims.split(",")):
            for n in map(int, cli.lengths.split(",")):
                draw = sweep.Draw.fixed("forward", dtype, 1, 2, 1, n, n, d, d)
                draw, problems, ran, _, _ = sweep.check(args, draw)
                cases += 1
                failed += bool(problems) or not ran
                status = "ok" if ran and not problems else "FAIL"
                print(f"{status}: {dtype} d={d} N={n}" +
                      "".join(f"\n  {p}" for p in problems) +
                      ("" if ran else "\n  not run"))
    print(f"every-head-dim: {cases} cases, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
