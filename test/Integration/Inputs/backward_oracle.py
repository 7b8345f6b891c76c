#!/usr/bin/env python3
"""Checks a backward-sweep case's printed gradients against the independent
float64 oracle (attention_backward_reference.py), which shares no code with
fa-opt.

The sweep compares the tiled backward with `reference=true`; this script
checks each run on its own, so that a mistake shared by the two lowerings
cannot pass. The inputs are rebuilt the way the case's @fill, @ramp, @keep
and @bias compute them (sweep_oracle.py), dO from @fill with seed 4.

Every value is checked: |printed - oracle| <= atol + rtol * |oracle|, with
rtol and atol per dtype below (f16 and bf16 also carry O and the gradients
rounded to the input type, and P and dS rounded before the tiled matmuls).

Usage: backward_oracle.py sweep-NAME.mlir OUTPUT... (printMemrefF32 output
of dQ, dK, dV and, with grad_mask, dBias); random_backward.py calls check()
with its own cases.
"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import attention_backward_reference  # noqa: E402
import compare_outputs  # noqa: E402
import make_backward_sweep as sweep  # noqa: E402
import make_tiling_sweep  # noqa: E402
import sweep_oracle  # noqa: E402

# Scaled to the gradients' size, which is about 1 here.
TOLERANCE = {"f32": (1e-4, 2e-5), "f16": (3e-2, 8e-3), "bf16": (8e-2, 4e-2)}


def flatten(tensor):
    if isinstance(tensor, list):
        return [x for item in tensor for x in flatten(item)]
    return [tensor]


def check(case, outputs):
    """Checks each printed run in `outputs` against the oracle for `case`
    (a make_backward_sweep.CASES tuple); prints one line per run and
    returns 1 when any run is off."""
    (_, b, hq, hkv, nq, nk, d, dv, dtype, mask, causal, window, _tile,
     grad_mask, _oracle, _what) = case
    fill, ramp, build = sweep_oracle.fill, sweep_oracle.ramp, sweep_oracle.build
    spec = {
        "q": build((b, hq, nq, d), lambda *i: ramp(*i, 1.0, False), dtype),
        "k": build((b, hkv, nk, d), lambda *i: ramp(*i, 2.0, True), dtype),
        "v": build((b, hkv, nk, dv), lambda *i: fill(*i, 3.0), dtype),
        "do": build((b, hq, nq, dv), lambda *i: fill(*i, 4.0), dtype),
        "scale": make_tiling_sweep.SCALE,
    }
    if mask:
        spec["mask"] = sweep_oracle.build_mask(mask, dtype)
    if causal:
        spec["causal"] = causal
    if window:
        spec["window"] = list(window)
    dq, dk, dvv, dbias = attention_backward_reference.gradients(spec)
    expected = [flatten(dq), flatten(dk), flatten(dvv)]
    names = ["dQ", "dK", "dV"]
    if grad_mask:
        expected.append(flatten(dbias))
        names.append("dBias")

    rtol, atol = TOLERANCE[dtype]
    failed = False
    for path in outputs:
        tensors, current = [], None
        for x in compare_outputs.values(path):
            if x is None:
                current = []
                tensors.append(current)
            else:
                current.append(x)
        label = os.path.basename(path).rsplit(".", 1)[-1]
        if [len(t) for t in tensors] != [len(e) for e in expected]:
            print(f"{label}: expected tensors of {[len(e) for e in expected]} "
                  f"values, got {[len(t) for t in tensors]}")
            failed = True
            continue
        worst, bad = 0.0, None
        for which, (got_values, want_values) in enumerate(zip(tensors, expected)):
            for index, (got, want) in enumerate(zip(got_values, want_values)):
                if math.isnan(got) or math.isinf(got):
                    error = math.inf
                else:
                    error = abs(got - want) / (atol + rtol * abs(want))
                if error > worst:
                    worst, bad = error, (names[which], index, got, want)
        if worst > 1.0:
            which, index, got, want = bad
            print(f"{label}: MISMATCH in {which} at flat index {index}: printed "
                  f"{got}, oracle {want} ({worst:.3g} times the tolerance)")
            failed = True
        else:
            count = sum(len(e) for e in expected)
            print(f"{label}: ORACLE MATCH on all {count} values of "
                  f"{', '.join(names)}, worst error {worst:.3f} of the tolerance")
    return 1 if failed else 0


def main():
    case_path, outputs = sys.argv[1], sys.argv[2:]
    base = os.path.basename(case_path)[:-len(".mlir")]
    if base.startswith("gpu-kernel-"):
        # A GPU_CASES (or WGMMA_CASES) case: the same inputs.
        case = next(c for c in sweep.GPU_CASES + sweep.WGMMA_CASES
                    if c[0] == base[len("gpu-kernel-"):])
        case = case[:13] + (len(case) > 14 and case[14], True, case[13])
    else:
        case = next(c for c in sweep.CASES if c[0] == base[len("sweep-"):])
    return check(case, outputs)


if __name__ == "__main__":
    sys.exit(main())
