#!/usr/bin/env python3
"""Random mask_mods, run against the reference (issue 50: every rule of the
mask_mod interval analysis on operands of both signs).

Each seed draws a mask_mod body (scripts/sweep.py's random_mask_mod: add,
sub, mul by constants of both signs, min, max, select, every signed
comparison, and, or, xor, and remui, which the analysis leaves unknown)
on an f16 attention of 37 queries over 29 keys, batch 2, two query heads on
one key head, causal one time in three. The analysis decides which tiles
the tiled lowering skips or takes whole and which key blocks the GPU
kernels walk: a rule that bounds an interval wrongly skips visible keys
or lets hidden ones through. Each draw runs through the reference
(element by element, no analysis), the host's tiled lowering with blocks
of 4 keys, and the sm_80 and sm_90 kernels emulated on the CPU with blocks
of 16; every result must equal the reference's.

  mask_mods.py FA_OPT [--seeds 1:25] [--show]
"""
import argparse
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "scripts"))
import sweep  # noqa: E402

PATHS = ["max-block-kv=4", "gpu-kernel=sm_80 max-block-kv=16",
         "gpu-kernel=sm_90 max-block-kv=16"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("fa_opt")
    parser.add_argument("--seeds", default="1:25")
    parser.add_argument("--show", action="store_true")
    cli = parser.parse_args()
    args = sweep.argparse.Namespace(fa_opt=cli.fa_opt)
    failed = 0
    seeds = sweep.seeds_of(cli.seeds)
    for seed in seeds:
        rng = random.Random(f"mask_mod:{seed}")
        draw = sweep.Draw.fixed("forward", "f16", 2, 2, 1, 37, 29, 16, 16,
                                mask_mod=True,
                                causal="bottom_right" if seed % 3 == 0 else None)
        draw.mask_mod_body = sweep.random_mask_mod(rng)
        problems = []
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "draw.mlir")
            with open(source, "w") as f:
                f.write(draw.module(True))
            expected, result = sweep.printed(args, source, "reference=true")
            if expected is None:
                problems.append("the reference did not run: " + result.stderr.strip()[:300])
            for path in PATHS if expected is not None else []:
                got, result = sweep.printed(args, source, path)
                if got is None:
                    problems.append(f"{path} did not run: " + result.stderr.strip()[:300])
                    continue
                problems += sweep.compare(args, tmp, "f16", got, expected, path)
        failed += bool(problems)
        status = "FAIL" if problems else "ok"
        print(f"{status}: seed {seed}{' causal' if draw.causal else ''}" +
              "".join(f"\n  {p}" for p in problems))
        if cli.show or problems:
            print(draw.mask_mod_body)
    print(f"mask-mods: {len(seeds)} draws, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
