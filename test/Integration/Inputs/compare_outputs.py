#!/usr/bin/env python3
"""Compares the numbers two mlir-runner runs printed (printMemref* output).

Used by the raising tests: the same program runs once with fa-raise-attention
and once without, on the same inputs, and every printed value must agree:
|a - b| <= atol + rtol * |b|, NaN only where the other run has NaN, infinities
only where the other has the same infinity.

With --alternative, a value may agree with that run instead: the
differential test passes the frontend computed in f32 (on the same
half-precision inputs) for f16 and bf16 modules, since fa.attention keeps
its scores and softmax in f32 where the frontend rounds them.

With --row-width N, the relative term is rtol times the largest magnitude
in the value's row of N values of the second run, not the value's own: for
a kernel that rounds its operands to f16/bf16 before a product whose terms
cancel, the error follows the row's scale (the linear attention kernel's
long sequences).

--row-relative does the same with each printed tensor's innermost
dimension as its rows (the differential tests' modules print tensors of
several widths).

Usage: compare_outputs.py RAISED FRONTEND [--rtol R] [--atol A] [--alternative RUN]
                          [--row-width N | --row-relative]
"""
import argparse
import math
import re
import sys

NUMBER = re.compile(r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", re.IGNORECASE)


def values(path, widths=None):
    """The printed numbers, a None before each tensor; `widths` (a list)
    gets each tensor's innermost size."""
    result = []
    with open(path) as stream:
        for line in stream:
            if line.startswith("Unranked Memref"):
                result.append(None)  # separates printed tensors
                if widths is not None:
                    sizes = re.search(r"sizes = \[([0-9, ]*)\]", line)
                    last = sizes.group(1).split(",")[-1] if sizes else ""
                    widths.append(int(last) if last.strip() else 1)
                continue
            result.extend(float(token) for token in NUMBER.findall(line))
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("raised")
    parser.add_argument("frontend")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--alternative",
                        help="another run whose values also count as right")
    parser.add_argument("--row-width", type=int, default=0,
                        help="rtol relative to the largest magnitude of each "
                             "row of this many values of the second run")
    parser.add_argument("--row-relative", action="store_true",
                        help="--row-width with each printed tensor's "
                             "innermost size")
    args = parser.parse_args()
    widths = []
    raised, frontend = values(args.raised), values(args.frontend, widths)
    alternative = values(args.alternative) if args.alternative else None
    if alternative is not None and len(alternative) != len(frontend):
        print(f"different number of values: {len(alternative)} in the alternative "
              f"vs {len(frontend)}")
        return 1
    if not raised:
        print("no values printed")
        return 1
    if len(raised) != len(frontend):
        print(f"different number of values: {len(raised)} vs {len(frontend)}")
        return 1
    # The magnitude rtol scales: the value's own, or its row's largest.
    scale = [None if b is None else abs(b) for b in frontend]
    if args.row_width > 0 or args.row_relative:
        row = []  # indices of the current row; tensors start new rows
        tensor = -1
        for index, b in enumerate(frontend + [None]):
            if b is None:
                tensor += 1
            width = (widths[min(tensor, len(widths) - 1)]
                     if args.row_relative and widths else args.row_width)
            if b is not None:
                row.append(index)
            if row and (b is None or len(row) == width):
                largest = max((abs(frontend[i]) for i in row
                               if math.isfinite(frontend[i])), default=0.0)
                for i in row:
                    scale[i] = largest
                row = []

    def fraction(a, b, magnitude):
        """a's error against b as a fraction of the tolerance (inf if the
        NaNs or infinities differ)."""
        if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
            same = (math.isnan(a) and math.isnan(b)) or a == b
            return 0.0 if same else math.inf
        return abs(a - b) / (args.atol + args.rtol * magnitude)

    worst = 0.0
    for index, (a, b) in enumerate(zip(raised, frontend)):
        if a is None or b is None:
            if a is not b:
                print(f"value {index}: tensors are laid out differently")
                return 1
            continue
        error = fraction(a, b, scale[index])
        if alternative is not None and alternative[index] is not None:
            error = min(error, fraction(a, alternative[index],
                                        abs(alternative[index])))
        if error > 1:
            print(f"value {index}: {a} vs {b} (error {abs(a - b):.3g})")
            return 1
        worst = max(worst, error)
    count = sum(v is not None for v in raised)
    print(f"MATCH {count} values, worst error {worst:.3f} of the tolerance")
    return 0


if __name__ == "__main__":
    sys.exit(main())
