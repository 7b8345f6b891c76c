#!/usr/bin/env python3
"""Checks a tiling-sweep case's printed results against the independent
float64 oracle (attention_reference.py), which shares no code with fa-opt.

The sweep's RUN lines compare the tiled and kernel paths with
`reference=true`; this script checks each of those outputs, the reference's
included, against the oracle on its own, so that a mistake shared by the
reference and the tiled lowering (they share TensorBuilders.h) cannot pass.

The inputs are rebuilt here the way the case's @fill, @ramp, @keep and @bias
compute them in f32 (each step rounded to f32, then to f16 or bf16 for the
case's dtype), from the parameters in make_tiling_sweep.py's CASES. Pure
Python is slow, so it checks an evenly spaced sample of (batch, head, row)
triples, always including each head's first and last rows, sized to about
FA_ORACLE_BUDGET (default 4e6) multiply-adds; the output names the count.

Usage: sweep_oracle.py sweep-NAME.mlir OUTPUT... (printMemrefF32 output of
the output tensor, then the logsumexp when the case returns it).
"""
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import attention_reference  # noqa: E402
import compare_outputs  # noqa: E402
import make_tiling_sweep as sweep  # noqa: E402

# |oracle - printed| <= atol + rtol |oracle|: f32 rounding for f32 cases;
# for f16 and bf16 also P rounded to the input type and the output's
# rounding (half an ulp: 2^-11 and 2^-8).
TOLERANCE = {"f32": (2e-5, 2e-6), "f16": (4e-3, 2e-3), "bf16": (2.4e-2, 1.2e-2)}


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def to_dtype(x, dtype):
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<e", x))[0]
    if dtype == "bf16":  # round to nearest even on the f32 bits
        bits = struct.unpack("<I", struct.pack("<f", x))[0]
        if (bits & 0x7F800000) != 0x7F800000:
            bits += 0x7FFF + ((bits >> 16) & 1)
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFF0000))[0]
    return x


def fill(b, h, r, d, seed):
    """@fill in f32: sin(0.37 n + seed), every step rounded."""
    n = 7919 * b + 131 * h + sweep.ROW * r + d
    return f32(math.sin(f32(f32(f32(n) * f32(0.37)) + f32(seed))))


def ramp(b, h, r, d, seed, is_key):
    x = fill(b, h, r, d, seed)
    if d == 0:
        shift = f32(f32(r) * f32(sweep.KEY_RAMP)) if is_key else (
            1.0 if (b + h + r) % 2 else -1.0)
        x = f32(x + shift)
    return x


def build(dims, value, dtype):
    b, h, n, d = dims
    return [[[[to_dtype(value(bb, hh, r, e), dtype) for e in range(d)]
              for r in range(n)] for hh in range(h)] for bb in range(b)]


def build_mask(mask, dtype):
    """The case's mask as @keep or @bias computes it: booleans, or the bias
    in f32 rounded to `dtype`."""
    kind, shape = mask
    if kind == "bool":
        return build(shape, lambda bb, hh, i, j: sweep.keep_value(i, j), "bool")

    def bias(bb, hh, i, j):
        if (i + 2 * j) % 7 == 0 or i == 1:
            return -math.inf
        return fill(bb, hh, i, j, 5.0)

    def far_bias(bb, hh, i, j):
        return f32(fill(bb, hh, i, j, 5.0) + (sweep.FAR_BIAS if i % 3 == 0 else 0.0))
    return build(shape, far_bias if kind == "far-bias" else bias, dtype)


def main():
    case_path, outputs = sys.argv[1], sys.argv[2:]
    name = os.path.basename(case_path)[len("sweep-"):-len(".mlir")]
    case = next(c for c in sweep.CASES if c[0] == name)
    (_, b, hq, hkv, nq, nk, d, dv, dtype, mask, causal, window, lse,
     _dynamic, _tile, _what) = case
    spec = {
        "q": build((b, hq, nq, d), lambda *i: ramp(*i, 1.0, False), dtype),
        "k": build((b, hkv, nk, d), lambda *i: ramp(*i, 2.0, True), dtype),
        "v": build((b, hkv, nk, dv), lambda *i: fill(*i, 3.0), dtype),
        "scale": sweep.SCALE,
    }
    if mask:
        spec["mask"] = build_mask(mask, dtype)
    if causal:
        spec["causal"] = causal
    if window:
        spec["window"] = list(window)

    # An odd stride over the flattened (b, h, i) visits every head and both
    # parities of the ramp; each head's first and last rows are added.
    cost = max(1, nk * (d + dv))
    budget = float(os.environ.get("FA_ORACLE_BUDGET", "4e6"))
    total = b * hq * nq
    stride = max(1, math.ceil(total * cost / budget))
    stride += stride % 2 == 0 and stride > 1
    picked = set(range(0, total, stride))
    for bb in range(b):
        for h in range(hq):
            picked |= {(bb * hq + h) * nq, (bb * hq + h) * nq + nq - 1}
    expected = {flat: attention_reference.attention_row(
        spec, flat // (hq * nq), flat // nq % hq, flat % nq) for flat in sorted(picked)}

    rtol, atol = TOLERANCE[dtype]
    if mask and mask[0] == "far-bias":
        # s + FAR_BIAS is rounded to f32 in the IR, where the oracle adds in
        # double: near -10000 an f32 step is 2^-10, so probabilities carry
        # a relative error of about 5e-4 on every path.
        rtol, atol = max(rtol, 4e-3), max(atol, 2e-3)
    failed = False
    for path in outputs:
        printed = compare_outputs.values(path)
        tensors, current = [], None
        for x in printed:
            if x is None:
                current = []
                tensors.append(current)
            else:
                current.append(x)
        want = 2 if lse else 1
        if len(tensors) != want or len(tensors[0]) != total * dv or (
                lse and len(tensors[1]) != total):
            print(f"{path}: expected {want} tensor(s) of {total * dv}"
                  f"{f' and {total}' if lse else ''} values, got "
                  f"{[len(t) for t in tensors]}")
            failed = True
            continue
        worst, bad = 0.0, None
        for flat, (row, row_lse) in expected.items():
            pairs = [(tensors[0][flat * dv + e], row[e]) for e in range(dv)]
            if lse:
                pairs.append((tensors[1][flat], row_lse))
            for got, ref in pairs:
                if math.isinf(ref) or math.isnan(got):
                    ok = got == ref
                    error = 0.0 if ok else math.inf
                else:
                    error = abs(got - ref) / (atol + rtol * abs(ref))
                if error > worst:
                    worst, bad = error, (flat, got, ref)
        if worst > 1.0:
            flat, got, ref = bad
            where = (flat // (hq * nq), flat // nq % hq, flat % nq)
            print(f"{path}: MISMATCH at (b, h, row) = {where}: printed {got}, "
                  f"oracle {ref} ({worst:.3g} times the tolerance)")
            failed = True
        else:
            print(f"{os.path.basename(path)}: ORACLE MATCH on {len(expected)} of "
                  f"{total} rows, worst error {worst:.3f} of the tolerance")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
