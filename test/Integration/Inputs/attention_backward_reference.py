#!/usr/bin/env python3
"""An independent, plain-Python statement of fa.attention_backward.

The gradients of softmax(scale Q K^T + bias) V with respect to Q, K, V and
the bias, given dO, in float64, with no code or formula shared with fa-opt
beyond the definition: P is the row softmax of the masked scores (0 on rows
that see no key), dV = P^T dO, dP = dO V^T, dS = P (dP - rowsum(dP P)),
dQ = scale dS K, dK = scale dS^T Q (both summed over the query heads of a
key/value head), dBias = dS summed over the bias's broadcast dims.

The spec is attention_reference.py's (q, k, v, scale, mask, causal, window)
plus "do" ([B][Hq][Nq][Dv]).
"""
import math

import attention_reference


def visible_scores(spec, b, h, i):
    """Row (b, h, i) of the masked, scaled scores (-inf where hidden)."""
    q, k = spec["q"], spec["k"]
    scale = spec["scale"]
    mask = spec.get("mask")
    causal, window = spec.get("causal"), spec.get("window")
    heads, nq = len(q[0]), len(q[0][0])
    kv_heads, nk = len(k[0]), len(k[0][0])
    g = h // (heads // kv_heads)

    def offset(align):
        return 0 if align == "top_left" else nk - nq

    row = []
    for j in range(nk):
        if causal and j > i + offset(causal):
            row.append(-math.inf)
            continue
        if window:
            left, right, align = window
            diagonal = i + offset(align)
            if not diagonal - left <= j <= diagonal + right:
                row.append(-math.inf)
                continue
        s = scale * sum(x * y for x, y in zip(q[b][h][i], k[b][g][j]))
        if mask is not None:
            m = attention_reference.pick(mask, (b, h, i, j))
            if isinstance(m, bool):
                s = s if m else -math.inf
            else:
                s += m
        row.append(s)
    return row


def gradients(spec):
    """dQ, dK, dV (nested lists like q, k, v) and dBias (the mask's shape,
    or None without a float mask)."""
    q, k, v, do = spec["q"], spec["k"], spec["v"], spec["do"]
    scale = spec["scale"]
    batch, heads, nq, d = len(q), len(q[0]), len(q[0][0]), len(q[0][0][0])
    kv_heads, nk, dv = len(k[0]), len(k[0][0]), len(v[0][0][0])
    group = heads // kv_heads
    mask = spec.get("mask")
    float_mask = mask is not None and not isinstance(
        attention_reference.pick(mask, (0, 0, 0, 0)), bool)

    def zeros(*dims):
        if len(dims) == 1:
            return [0.0] * dims[0]
        return [zeros(*dims[1:]) for _ in range(dims[0])]

    dq = zeros(batch, heads, nq, d)
    dk = zeros(batch, kv_heads, nk, d)
    dvv = zeros(batch, kv_heads, nk, dv)
    dbias = None
    if float_mask:
        shape = (len(mask), len(mask[0]), len(mask[0][0]), len(mask[0][0][0]))
        dbias = zeros(*shape)
    for b in range(batch):
        for h in range(heads):
            g = h // group
            for i in range(nq):
                scores = visible_scores(spec, b, h, i)
                top = max(scores)
                if top == -math.inf:
                    continue  # no visible key: P = 0, no gradient
                weights = [math.exp(s - top) for s in scores]
                total = sum(weights)
                p = [w / total for w in weights]
                dp = [sum(x * y for x, y in zip(do[b][h][i], v[b][g][j]))
                      for j in range(nk)]
                correction = sum(x * y for x, y in zip(dp, p))
                ds = [pj * (dpj - correction) for pj, dpj in zip(p, dp)]
                for j in range(nk):
                    if p[j] == 0.0 and ds[j] == 0.0:
                        continue
                    for e in range(d):
                        dq[b][h][i][e] += scale * ds[j] * k[b][g][j][e]
                        dk[b][g][j][e] += scale * ds[j] * q[b][h][i][e]
                    for e in range(dv):
                        dvv[b][g][j][e] += p[j] * do[b][h][i][e]
                    if dbias is not None:
                        at = [x if len(dim) > 1 else 0 for x, dim in zip(
                            (b, h, i, j), (dbias, dbias[0], dbias[0][0],
                                           dbias[0][0][0]))]
                        dbias[at[0]][at[1]][at[2]][at[3]] += ds[j]
    return dq, dk, dvv, dbias
