#!/usr/bin/env python3
"""An independent, plain-Python statement of fa.attention's semantics.

The integration tests check fa-opt's numbers against values printed by this
script, so the expected values do not come from the code under test. It is
deliberately naive: one loop per index, float64, no libraries.

Usage (each test names the call that produced its CHECK lines):
  attention_reference.py '<json spec>'
where the spec holds q, k, v (nested lists [B][H][N][D]), scale, and the
optional mask (nested [B][H][Nq][Nk], size-1 dims broadcast; booleans are a
keep-mask, numbers an additive bias), causal ("top_left" | "bottom_right"),
window ([left, right, align]) and lse (print the logsumexp too).
"""
import json
import math
import sys


def pick(tensor, index):
    """Reads a broadcastable nested list: size-1 dims read element 0."""
    for i in index:
        tensor = tensor[0] if len(tensor) == 1 else tensor[i]
    return tensor


def attention_row(spec, b, h, i):
    """Output row (b, h, i) and its logsumexp (-inf for a row that sees no
    key, whose output is 0)."""
    q, k, v = spec["q"], spec["k"], spec["v"]
    scale = spec["scale"]
    mask = spec.get("mask")
    causal = spec.get("causal")
    window = spec.get("window")
    heads, nq = len(q[0]), len(q[0][0])
    kv_heads, nk, dv = len(k[0]), len(k[0][0]), len(v[0][0][0])
    g = h // (heads // kv_heads)

    def offset(align):
        return 0 if align == "top_left" else nk - nq

    scores = []
    for j in range(nk):
        visible = True
        if causal and j > i + offset(causal):
            visible = False
        if window:
            left, right, align = window
            diag = i + offset(align)
            if not (diag - left <= j <= diag + right):
                visible = False
        if not visible:
            scores.append(-math.inf)
            continue
        s = scale * sum(x * y for x, y in zip(q[b][h][i], k[b][g][j]))
        if mask is not None:
            m = pick(mask, (b, h, i, j))
            if isinstance(m, bool):
                if not m:
                    s = -math.inf
            else:
                s += m
        scores.append(s)
    top = max(scores, default=-math.inf)
    if top == -math.inf:
        return [0.0] * dv, -math.inf
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    row = [sum(w * v[b][g][j][e] for j, w in enumerate(weights) if w) / total
           for e in range(dv)]
    return row, top + math.log(total)


def attention(spec):
    q = spec["q"]
    batch, heads, nq = len(q), len(q[0]), len(q[0][0])
    out, lse = [], []
    for b in range(batch):
        out_b, lse_b = [], []
        for h in range(heads):
            rows = [attention_row(spec, b, h, i) for i in range(nq)]
            out_b.append([row for row, _ in rows])
            lse_b.append([l for _, l in rows])
        out.append(out_b)
        lse.append(lse_b)
    return out, lse

def main():
    spec = json.loads(sys.argv[1])
    out, lse = attention(spec)
    for b, out_b in enumerate(out):
        for h, out_h in enumerate(out_b):
            for i, row in enumerate(out_h):
                print(f"O[{b},{h},{i}] =", " ".join(f"{x:.6g}" for x in row))
    if spec.get("lse"):
        for b, lse_b in enumerate(lse):
            for h, lse_h in enumerate(lse_b):
                print(f"lse[{b},{h}] =", " ".join(f"{x:.6g}" for x in lse_h))


if __name__ == "__main__":
    main()
