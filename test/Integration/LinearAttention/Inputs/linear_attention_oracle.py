#!/usr/bin/env python3
"""float64 oracle of fa.linear_attention, by the recurrence (a third order
of the sums, after the reference's quadratic one and the lowering's
chunks): for each query row i, S_i = gamma S_{i-1} + k_i v_i^T and
z_i = gamma z_{i-1} + k_i, o_i = scale q_i S_i (/ (scale q_i z_i + eps));
not causal, S and z are the sums over every key.

The inputs are the test's own, as it prints them (`--inputs`: phi(Q),
phi(K) and V in printMemrefF32's format, the f32 values the compiled
program reads), so that the oracle differs from the program by the order
and precision of the sums only. Prints one tensor per op, in the order of
`--ops`, for compare_outputs.py.

  linear_attention_oracle.py --inputs inputs.txt --heads 4 --kv-heads 2 \
      --len 22 --dim 8 --value-dim 4 --ops "plain:0.125:-:-" ...

An op is `kind:scale:normalize:decay` with kind plain or causal,
normalize `-` or `norm=EPS`, decay `-` or comma-separated gammas.
"""
import argparse
import re


NUMBER = re.compile(r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", re.IGNORECASE)


def read_tensors(path):
    """The printed tensors of `path`, each a flat list."""
    tensors = []
    for line in open(path):
        if line.startswith("Unranked Memref"):
            tensors.append([])
            continue
        tensors[-1].extend(float(t) for t in NUMBER.findall(line))
    return tensors


def rows_of(flat, width):
    return [flat[r:r + width] for r in range(0, len(flat), width)]


def run(args, op, q, k, v):
    kind, scale, normalize, decay = op.split(":")[:4]
    scale = float(scale)
    eps = float(normalize.split("=")[1]) if normalize != "-" else None
    gammas = [float(g) for g in decay.split(",")] if decay != "-" else None
    n, d, dv = args.len, args.dim, args.value_dim
    group = args.heads // args.kv_heads
    out = []
    for h in range(args.heads):
        g = h // group
        qs = q[h * n:(h + 1) * n]
        ks = k[g * n:(g + 1) * n]
        vs = v[g * n:(g + 1) * n]
        gamma = gammas[h] if gammas else 1.0
        state = [[0.0] * dv for _ in range(d)]
        sums = [0.0] * d
        if kind == "plain":
            for j in range(n):
                for a in range(d):
                    sums[a] += ks[j][a]
                    for e in range(dv):
                        state[a][e] += ks[j][a] * vs[j][e]
        for i in range(n):
            if kind == "causal":
                for a in range(d):
                    sums[a] = gamma * sums[a] + ks[i][a]
                    for e in range(dv):
                        state[a][e] = gamma * state[a][e] + ks[i][a] * vs[i][e]
            den = scale * sum(qs[i][a] * sums[a] for a in range(d))
            for e in range(dv):
                num = scale * sum(qs[i][a] * state[a][e] for a in range(d))
                out.append(num / (den + eps) if eps is not None else num)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--inputs", required=True)
    p.add_argument("--heads", type=int, required=True)
    p.add_argument("--kv-heads", type=int, required=True)
    p.add_argument("--len", type=int, required=True)
    p.add_argument("--dim", type=int, required=True)
    p.add_argument("--value-dim", type=int, required=True)
    p.add_argument("--ops", nargs="+", required=True)
    args = p.parse_args()
    flat_q, flat_k, flat_v = read_tensors(args.inputs)[:3]
    q = rows_of(flat_q, args.dim)
    k = rows_of(flat_k, args.dim)
    v = rows_of(flat_v, args.value_dim)
    for op in args.ops:
        # The separator compare_outputs.py expects between printed tensors.
        print(f"Unranked Memref (float64 oracle of {op})")
        print(" ".join(f"{x:.9e}" for x in run(args, op, q, k, v)))


if __name__ == "__main__":
    main()
