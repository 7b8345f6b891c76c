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


def attention(spec):
    q, k, v = spec["q"], spec["k"], spec["v"]
    scale = spec["scale"]
    mask = spec.get("mask")
    causal = spec.get("causal")
    window = spec.get("window")
    batch, heads, nq = len(q), len(q[0]), len(q[0][0])
    kv_heads, nk, dv = len(k[0]), len(k[0][0]), len(v[0][0][0])
    group = heads // kv_heads

    def offset(align):
        return 0 if align == "top_left" else nk - nq

    out, lse = [], []
    for b in range(batch):
        out_b, lse_b = [], []
        for h in range(heads):
            g = h // group
            out_h, lse_h = [], []
            for i in range(nq):
                scores = []
                for j in range(nk):
                    s = scale * sum(x * y for x, y in zip(q[b][h][i], k[b][g][j]))
                    visible = True
                    if mask is not None:
                        m = pick(mask, (b, h, i, j))
                        if isinstance(m, bool):
                            visible = m
                        else:
                            s += m
                    if causal and j > i + offset(causal):
                        visible = False
                    if window:
                        left, right, align = window
                        diag = i + offset(align)
                        if not (diag - left <= j <= diag + right):
                            visible = False
                    scores.append(s if visible else -math.inf)
                top = max(scores, default=-math.inf)
                if top == -math.inf:
                    out_h.append([0.0] * dv)
                    lse_h.append(-math.inf)
                    continue
                weights = [math.exp(s - top) for s in scores]
                total = sum(weights)
                out_h.append([sum(w * v[b][g][j][e] for j, w in enumerate(weights)) / total
                              for e in range(dv)])
                lse_h.append(top + math.log(total))
            out_b.append(out_h)
            lse_b.append(lse_h)
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
