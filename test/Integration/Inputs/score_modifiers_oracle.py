#!/usr/bin/env python3
"""Float64 statement of the cases of test/Integration/Modifiers/op-modifiers.mlir.

fa.attention with score_mod, mask_mod and sinks, written out by hand from
the op's documented semantics (one loop per index, no libraries), so that
the expected values do not come from fa-opt. Prints each case's output and
logsumexp in the layout compare_outputs.py reads.
"""
import math
import struct

B, H, NQ, NK, D = 1, 2, 6, 11, 4


def f32(x):
    """x rounded to f32: the test computes its inputs in f32."""
    return struct.unpack("f", struct.pack("f", x))[0]


def inputs(seed, rows):
    """The test's @input: 2 sin(0.7 (17 a + c) + seed), each step in f32."""
    def element(a, c):
        x = f32(f32(17 * a + c) * f32(0.7))
        return 2.0 * f32(math.sin(f32(x + seed)))
    return [[element(a, c) for c in range(D)] for a in range(rows)]


QF, KF, VF = inputs(1.0, H * NQ), inputs(2.0, H * NK), inputs(3.0, H * NK)
SLOPES = [0.5, 0.125]
TABLE = [[0.1, -0.2], [0.3, 0.0], [-0.5, 0.25], [1.0, -1.0], [0.0, 0.5],
         [0.7, 0.2], [-0.3, -0.6], [0.2, 0.9], [-1.2, 0.4]]
QDOC = [0, 0, 1, 1, 1, 2]
KDOC = [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3]
SINKS = [0.75, -math.inf]


def attention(scale, score_mod=None, mask_mod=None, sinks=None, causal=False,
              bias=0.0, q_rows=None, k_rows=None, v_rows=None):
    """Output and logsumexp; Q, K and V ([H * N] rows of D) default to the
    test's inputs, `bias` is a number or a function of (i, j)."""
    QR, KR, VR = q_rows or QF, k_rows or KF, v_rows or VF
    out, lse = [], []
    for h in range(H):
        for i in range(NQ):
            q = QR[h * NQ + i]
            scores = []
            for j in range(NK):
                k = KR[h * NK + j]
                s = scale * sum(x * y for x, y in zip(q, k))
                if score_mod:
                    s = score_mod(s, 0, h, i, j)
                s += bias(i, j) if callable(bias) else bias
                visible = True
                if causal and j > i + (NK - NQ):
                    visible = False
                if mask_mod and not mask_mod(0, h, i, j):
                    visible = False
                scores.append(s if visible else -math.inf)
            logits = scores + ([sinks[h]] if sinks else [])
            m = max(logits)
            if m == -math.inf:
                out.append([0.0] * D)
                lse.append(-math.inf)
                continue
            weights = [math.exp(s - m) for s in scores]
            total = sum(weights) + (math.exp(sinks[h] - m) if sinks else 0.0)
            row = [sum(w * VR[h * NK + j][e] for j, w in enumerate(weights)) / total
                   for e in range(D)]
            out.append(row)
            lse.append(m + math.log(total))
    return out, lse


def softcap(cap):
    return lambda s, b, h, i, j: cap * math.tanh(s / cap)


def alibi(s, b, h, i, j):
    return s + SLOPES[h] * (j - i)


def relative_table(s, b, h, i, j):
    return s + TABLE[min(max(j - i + 4, 0), 8)][h]


def prefix_lm(b, h, i, j):
    return j < 3 or j <= i + 5


def documents(b, h, i, j):
    return QDOC[i] == KDOC[j]


def every_third_row_empty(b, h, i, j):
    return i % 3 != 1


def even_keys(b, h, i, j):
    return j % 2 == 0


def everything_score(s, b, h, i, j):
    return softcap(2.0)(alibi(s, b, h, i, j), b, h, i, j)


def main():
    cases = [
        attention(2.0, score_mod=softcap(1.5)),
        attention(0.5, score_mod=alibi),
        attention(0.5, score_mod=relative_table),
        attention(0.5, mask_mod=prefix_lm),
        attention(0.5, mask_mod=documents),
        attention(0.5, mask_mod=every_third_row_empty, sinks=SINKS),
        attention(0.5, score_mod=everything_score, mask_mod=even_keys,
                  sinks=SINKS, causal=True, bias=0.25),
    ]
    for out, lse in cases:
        print("Unranked Memref")
        for row in out:
            print(" ".join(repr(x) for x in row))
        print("Unranked Memref")
        print(" ".join(repr(x) for x in lse))


if __name__ == "__main__":
    main()
