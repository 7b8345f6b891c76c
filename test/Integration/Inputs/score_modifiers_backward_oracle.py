#!/usr/bin/env python3
"""Float64 gradients of the cases of test/Integration/Modifiers/backward-modifiers.mlir
(or, with --cases quotients, of backward-quotients.mlir).

The gradients of L = sum(O * dO) with respect to Q, K, V, the additive bias
and the sink logits, by central finite differences of the float64 forward
pass in score_modifiers_oracle.py (written from fa.attention's documented
semantics). No derivative formula is used, so the check covers the
backward lowerings' chain rule through the score_mod and the sink term
dSink = -sum P_sink D at once. Prints each case's dQ, dK, dV (then dBias
and dSinks where the case asks for them) in the layout compare_outputs.py
reads.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score_modifiers_oracle as fw  # noqa: E402

STEP = 1e-5
GRAD_OUTPUT = fw.inputs(4.0, fw.H * fw.NQ)


def rules(s, b, h, i, j):
    """The score_mod of @rules: max, exp, log1p, sqrt, select, neg."""
    top = max(s, -0.5) + 0.5 * math.exp(s * 0.25) - 0.25 * math.log1p(s * s)
    low = -(0.75 * s) + math.sqrt(s * s + 1.0)
    return top if s > 1.0 else low


def more_rules(s, b, h, i, j):
    """The score_mod of @more_rules: abs, min, exp2, log, rsqrt, expm1,
    log2, fma, maxnum, minnum."""
    return (min(abs(s), 2.0) * 0.5 + math.log(2.0 ** (s * 0.5) + 1.0)
            + 1.0 / math.sqrt(s * s + 4.0) + math.expm1(s * 0.1)
            - math.log2(s * s + 2.0) * 0.25 + max(s, 0.0) * 0.1
            + min(s, 0.3) * 0.2)


def loss(case, q, k, v, bias, sinks):
    out, _ = fw.attention(case["scale"], score_mod=case.get("score_mod"),
                          mask_mod=case.get("mask_mod"), sinks=sinks,
                          causal=case.get("causal", False),
                          bias=(lambda i, j: bias[i][j]) if bias else 0.0,
                          q_rows=q, k_rows=k, v_rows=v)
    return sum(o * g for row, grow in zip(out, GRAD_OUTPUT)
               for o, g in zip(row, grow))


def gradient(case, which):
    """d loss / d (each element of `which`), row-major."""
    state = {"q": [r[:] for r in fw.QF], "k": [r[:] for r in fw.KF],
             "v": [r[:] for r in fw.VF],
             "bias": [r[:] for r in case["bias"]] if case.get("bias") else None,
             "sinks": [[x] for x in case["sinks"]] if case.get("sinks") else None}
    rows = state[which]
    grads = []
    for r in range(len(rows)):
        for c in range(len(rows[r])):
            original = rows[r][c]
            if math.isinf(original):  # a -inf sink: no gradient
                grads.append(0.0)
                continue
            values = []
            for delta in (STEP, -STEP):
                rows[r][c] = original + delta
                sinks = [x[0] for x in state["sinks"]] if state["sinks"] else None
                values.append(loss(case, state["q"], state["k"], state["v"],
                                   state["bias"], sinks))
            rows[r][c] = original
            grads.append((values[0] - values[1]) / (2 * STEP))
    return grads


def quotient(s, b, h, i, j):
    """The score_mod of @quotient: a division by a score-dependent value."""
    return 3.0 * s / (1.0 + 0.5 * s * s)


CASES = [
    {"scale": 2.0, "score_mod": fw.softcap(1.5)},
    {"scale": 0.5, "score_mod": rules, "mask_mod": fw.documents},
    {"scale": 0.5, "score_mod": more_rules},
    {"scale": 0.5, "mask_mod": fw.every_third_row_empty, "sinks": fw.SINKS,
     "grads": ["sinks"]},
    {"scale": 0.5, "score_mod": fw.everything_score, "mask_mod": fw.even_keys,
     "sinks": fw.SINKS, "causal": True,
     "bias": [[fw.f32(round(0.25 - 0.05 * ((i + 2 * j) % 7), 2))
               for j in range(fw.NK)]
              for i in range(fw.NQ)],
     "grads": ["bias", "sinks"]},
    {"scale": 1.5, "score_mod": quotient},
]

# test/Integration/Modifiers/backward-quotients.mlir: quotients whose
# numerator, then denominator, carries the sign.
QUOTIENTS = [
    {"scale": 0.5, "score_mod": lambda s, b, h, i, j: (s - 1.0) / (2.0 + s * s)},
    {"scale": 0.75, "score_mod": lambda s, b, h, i, j: 2.0 / (1.0 + math.exp(-s))},
    {"scale": 1.0, "score_mod": lambda s, b, h, i, j: s / (-1.0 - 0.25 * s * s)},
]


def main():
    cases = QUOTIENTS if sys.argv[1:] == ["--cases", "quotients"] else CASES
    for case in cases:
        for which in ["q", "k", "v"] + case.get("grads", []):
            print("Unranked Memref")
            print(" ".join(repr(x) for x in gradient(case, which)))


if __name__ == "__main__":
    main()
