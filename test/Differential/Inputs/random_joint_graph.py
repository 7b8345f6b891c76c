#!/usr/bin/env python3
"""Randomized test of joint-graph recognition: random spellings of the
unfused attention and its autodiff (a training step's joint graph), drawn
from a seed, each

  1. raised with fa-raise-attention, which must emit fa.attention_backward
     and leave no exp, softmax or matmul behind (P is not materialized), or,
     for a near miss, must leave the graph as written and say why in a
     remark, and
  2. run through fa-cpu-pipeline raised and with raise=false on the same
     inputs: O, dQ, dK and dV must agree (NaN where the frontend has NaN,
     elsewhere to the f32 backward tolerance of docs/Tiling.md, 1e-4
     relative and 5e-5 absolute: a gradient is a sum of O(1) products that
     cancel, summed in another order by the tiled backward).

What is drawn, each the way some frontend writes it:
  - the matmuls: linalg.batch_matmul on [B*H, N, D] with linalg.transpose,
    TOSA (tosa.matmul, tosa.transpose), linalg.generic contractions on
    [B, H, N, D], or torch-mlir's 4-D lowering (collapse_shape,
    batch_matmul, expand_shape around each matmul);
  - the softmax: linalg.softmax or max/sub/exp/sum/div;
  - softmax's backward: torch's P*(dP - rowsum(dP*P)), the row term
    rowsum(dO*O), or JAX's P*dP - P*rowsum(P*dP);
  - where the scale is: on the scores, on Q, or split between Q and K (the
    backward carries it as autodiff does: on dS, or on dQ after its matmul
    and read through the scaled Q for dK);
  - dK as dS^T*Q or as (Q^T*dS)^T;
  - masks: none, causal (an iota keep-mask), an additive bias with -inf
    entries and an empty row, a keep-mask with an empty row, with or without
    masked_fill's backward select on dS;
  - Nq != Nk, D != Dv, B and H; grouped K/V heads (repeat_kv) whose
    dK and dV the program sums over each group;
  - a constant on dS beyond the forward's scale (a loss scale), which the
    rewrite keeps as a factor;
  - one time in eight a near miss (no rowsum term, P also returned, dK
    contracting dS^T with K), which must not be raised;
  - issue 29's rules, drawn from a generator of their own so that the
    other draws of a seed stay as they were (linalg styles): a causal mask
    computed in the selects' own bodies; a finite fill (-1 with a runtime
    keep-mask, JAX's -0.7 max with the iota causal mask) with masked_fill's
    backward select; PyTorch's _safe_softmax guard on P; a bias and a
    causal mask together. Their near misses: -0.7 max with a runtime mask
    (a filled row's weights cannot be rebuilt from the logsumexp), a fill
    whose score gradient skips the select;
  - issue 33's soft-cap cap·tanh(s/cap) before the masks, and its backward
    through the saved tanh (its own generator); near misses: 1 − y for the
    derivative, or no derivative.

  random_joint_graph.py show --seed S
  random_joint_graph.py run --seeds A:B --fa-opt build/bin/fa-opt
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "..", "..", "Integration", "Inputs")
LLVM = "/usr/lib/llvm-22"
NINF = "0xFF800000"
PARALLEL = '"parallel"'


def draw(seed):
    rng = random.Random(seed)
    style = rng.choice(["bmm", "tosa", "generic4", "torch4"])
    case = {
        "seed": seed,
        "style": style,
        "b": rng.choice([1, 2]),
        "h": rng.choice([1, 2, 3]),
        "nq": rng.randint(2, 9),
        "nk": rng.randint(2, 9),
        "d": rng.choice([2, 4, 6]),
        "dv": rng.choice([2, 4, 5]),
        "softmax": rng.choice(["op", "decomposed"]) if style in ("bmm", "generic4") else "decomposed",
        "backward": rng.choice(["torch", "torch-o", "jax"]),
        "scale": rng.choice(["scores", "scores", "query", "split"]),
        "dk": rng.choice(["direct", "transposed"]),
        "mask": rng.choice(["none", "none", "causal", "bias", "keep"]),
        "grad_select": rng.random() < 0.5,
        # A constant on dS beyond the forward's scale (a loss scale): kept.
        "extra_scale": rng.choice([1.0, 1.0, 1.0, 2.0, 0.125]),
        "near_miss": None,
    }
    if case["mask"] == "causal":
        case["nk"] = max(case["nk"], case["nq"])  # top-left: no empty row
    if style == "tosa" and case["mask"] in ("causal", "keep"):
        case["mask"] = "bias"
    # Grouped K/V heads (repeat_kv), on [B*H, N, D] batch_matmuls.
    case["group"] = 1
    if style == "bmm" and rng.random() < 0.3:
        case["h"], case["group"] = 2 * rng.choice([1, 2]), 2
    if rng.random() < 0.125:
        case["near_miss"] = rng.choice(["no-rowsum", "p-returned", "k-for-q"])
        if case["near_miss"] == "k-for-q":
            case["nk"] = case["nq"]  # dK = dSᵀ·K type-checks
    # Issue 33's soft-cap, from a generator of its own: cap tanh(s / cap)
    # before the masks, and autodiff's backward through it from the saved
    # tanh; near misses: 1 - y for the derivative, or none.
    soft = random.Random(f"joint-softcap-{seed}")
    case["softcap"] = None
    if soft.random() < 0.3:
        case["softcap"] = soft.choice([2.0, 5.0, 30.0])
        case["softcap_grad"] = soft.choice(["saved", "saved", "saved", "linear", "none"])
        if case["near_miss"] is None and case["softcap_grad"] != "saved":
            case["near_miss"] = "softcap-" + case["softcap_grad"]
        elif case["softcap_grad"] != "saved":
            case["softcap_grad"] = "saved"
    # Issue 29's rules, from a generator of their own.
    extra = random.Random(f"joint-29-{seed}")
    case["fill"] = None
    case["guard"] = False
    case["causal_in_body"] = False
    case["bias_and_causal"] = False
    if style != "tosa" and extra.random() < 0.5:
        kind = extra.choice(["in-body", "fill", "guard", "bias+causal"])
        if kind == "in-body":
            case["mask"] = "causal"
            case["nk"] = max(case["nk"], case["nq"])
            case["causal_in_body"] = True
        elif kind == "fill":
            case["mask"] = extra.choice(["keep", "causal"])
            if case["mask"] == "causal":
                case["nk"] = max(case["nk"], case["nq"])
            case["fill"] = "-1.0" if case["mask"] == "keep" else "-2.38197633E+38"
            case["grad_select"] = True
            if case["near_miss"] is None and extra.random() < 0.25:
                case["near_miss"] = extra.choice(["large-fill-runtime-mask", "fill-no-grad-select"])
                if case["near_miss"] == "large-fill-runtime-mask":
                    case["mask"], case["fill"] = "keep", "-2.38197633E+38"
                else:
                    case["grad_select"] = False
        elif kind == "guard":
            case["mask"] = extra.choice(["keep", "bias"])
            case["guard"] = True
        else:
            case["mask"] = "bias"
            case["nk"] = max(case["nk"], case["nq"])
            case["bias_and_causal"] = True
            case["causal_in_body"] = extra.random() < 0.5
    return case


class Emitter:
    """Writes one function; tensors are [B*H, N, X] (rank 3) or
    [B, H, N, X] (rank 4) depending on the style."""

    def __init__(self, case):
        self.c = case
        self.lines = []
        self.n = 0
        self.rank4 = case["style"] in ("generic4", "torch4")

    def fresh(self, stem="t"):
        self.n += 1
        return f"%{stem}{self.n}"

    def ty(self, rows, cols):
        c = self.c
        if self.rank4:
            return f"tensor<{c['b']}x{c['h']}x{rows}x{cols}xf32>"
        return f"tensor<{c['b'] * c['h']}x{rows}x{cols}xf32>"

    def row_ty(self, rows):
        c = self.c
        if self.rank4:
            return f"tensor<{c['b']}x{c['h']}x{rows}xf32>"
        return f"tensor<{c['b'] * c['h']}x{rows}xf32>"

    def emit(self, line):
        self.lines.append("  " + line)

    def ids(self):
        return ["b", "h"] if self.rank4 else ["b"]

    def loops(self, extra):
        return "(" + ", ".join(self.ids() + extra) + ")"

    def amap(self, extra_loops, dims):
        return f"affine_map<{self.loops(extra_loops)} -> ({', '.join(self.ids() + dims)})>"

    def mask_map(self):
        """The [Nq, Nk] keep-mask read from the score loops."""
        return f"affine_map<{self.loops(['i', 'j'])} -> (i, j)>"

    def causal_iota(self, nq, nk):
        """A top-left causal keep-mask [Nq, Nk] built from linalg.index."""
        e, keep = self.fresh("e"), self.fresh("keep")
        self.emit(f"{e} = tensor.empty() : tensor<{nq}x{nk}xi1>")
        self.emit(f"{keep} = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]}} outs({e} : tensor<{nq}x{nk}xi1>) {{")
        self.emit("^bb0(%o: i1):")
        self.emit("  %i = linalg.index 0 : index")
        self.emit("  %j = linalg.index 1 : index")
        self.emit("  %c = arith.cmpi ule, %j, %i : index")
        self.emit("  linalg.yield %c : i1")
        self.emit(f"}} -> tensor<{nq}x{nk}xi1>")
        return keep

    def zeros(self, t):
        e, z = self.fresh("e"), self.fresh("z")
        self.emit(f"{e} = tensor.empty() : {t}")
        self.emit(f"{z} = linalg.fill ins(%zero : f32) outs({e} : {t}) -> {t}")
        return z

    # --- elementwise, on full tensors of type t (2 inputs at most) -------
    def ewise(self, t, inputs, body, input_maps=None):
        """body: list of lines using %a0, %a1 ... and yielding %r."""
        c = self.c
        if c["style"] == "tosa":
            raise AssertionError("tosa uses its own ops")
        rank = 4 if self.rank4 else 3
        idx = ["i", "j"]
        ident = self.amap(idx, idx)
        maps = input_maps or [ident] * len(inputs)
        e, r = self.fresh("e"), self.fresh()
        self.emit(f"{e} = tensor.empty() : {t}")
        args = ", ".join(f"%a{k}: f32" if "i1" not in ty else f"%a{k}: i1"
                         for k, (_, ty) in enumerate(inputs))
        self.emit(f"{r} = linalg.generic {{indexing_maps = [{', '.join(maps + [ident])}], "
                  f"iterator_types = [{', '.join([PARALLEL] * rank)}]}}")
        self.emit(f"    ins({', '.join(v for v, _ in inputs)} : {', '.join(ty for _, ty in inputs)}) outs({e} : {t}) {{")
        self.emit(f"^bb0({args}, %unused: f32):")
        for line in body:
            self.emit("  " + line)
        self.emit("  linalg.yield %r : f32")
        self.emit(f"}} -> {t}")
        return r

    def scale(self, x, t, s):
        if self.c["style"] == "tosa":
            k = self.fresh("c")
            self.emit(f'{k} = "tosa.const"() <{{values = dense<{s!r}> : tensor<1x1x1xf32>}}> : () -> tensor<1x1x1xf32>')
            r = self.fresh()
            self.emit(f"{r} = tosa.mul {x}, {k}, %shift : ({t}, tensor<1x1x1xf32>, tensor<1xi8>) -> {t}")
            return r
        return self.ewise(t, [(x, t)], [f"%sc = arith.constant {s!r} : f32", "%r = arith.mulf %a0, %sc : f32"])

    def mul(self, x, y, t, ty=None):
        ty = ty or t
        if self.c["style"] == "tosa":
            r = self.fresh()
            self.emit(f"{r} = tosa.mul {x}, {y}, %shift : ({t}, {ty}, tensor<1xi8>) -> {t}")
            return r
        return self.ewise(t, [(x, t), (y, t)], ["%r = arith.mulf %a0, %a1 : f32"])

    # --- matmuls ----------------------------------------------------------
    def transpose(self, x, rows, cols):
        """x: [.., rows, cols] -> [.., cols, rows]."""
        out = self.ty(cols, rows)
        r = self.fresh()
        if self.c["style"] == "tosa":
            self.emit(f"{r} = tosa.transpose {x} {{perms = array<i32: 0, 2, 1>}} : ({self.ty(rows, cols)}) -> {out}")
            return r
        e = self.fresh("e")
        perm = "[0, 1, 3, 2]" if self.rank4 else "[0, 2, 1]"
        self.emit(f"{e} = tensor.empty() : {out}")
        self.emit(f"{r} = linalg.transpose ins({x} : {self.ty(rows, cols)}) outs({e} : {out}) permutation = {perm}")
        return r

    def matmul(self, x, y, m, k, n):
        """x: [.., m, k] times y: [.., k, n]."""
        c = self.c
        out = self.ty(m, n)
        style = c["style"]
        r = self.fresh()
        if style == "tosa":
            self.emit(f"{r} = tosa.matmul {x}, {y}, %zp, %zp : ({self.ty(m, k)}, {self.ty(k, n)}, tensor<1xf32>, tensor<1xf32>) -> {out}")
            return r
        if style == "bmm":
            z = self.zeros(out)
            self.emit(f"{r} = linalg.batch_matmul ins({x}, {y} : {self.ty(m, k)}, {self.ty(k, n)}) outs({z} : {out}) -> {out}")
            return r
        if style == "generic4":
            z = self.zeros(out)
            loops = ["i", "j", "l"]
            maps = [self.amap(loops, ["i", "l"]), self.amap(loops, ["l", "j"]), self.amap(loops, ["i", "j"])]
            self.emit(f"{r} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = "
                      f"[\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"reduction\"]}}")
            self.emit(f"    ins({x}, {y} : {self.ty(m, k)}, {self.ty(k, n)}) outs({z} : {out}) {{")
            self.emit("^bb0(%ma: f32, %mb: f32, %macc: f32):")
            self.emit("  %mp = arith.mulf %ma, %mb : f32")
            self.emit("  %ms = arith.addf %macc, %mp : f32")
            self.emit("  linalg.yield %ms : f32")
            self.emit(f"}} -> {out}")
            return r
        # torch4: [B, H] merged for a batch_matmul and split back.
        bh = c["b"] * c["h"]
        x3, y3, r3 = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{x3} = tensor.collapse_shape {x} [[0, 1], [2], [3]] : {self.ty(m, k)} into tensor<{bh}x{m}x{k}xf32>")
        self.emit(f"{y3} = tensor.collapse_shape {y} [[0, 1], [2], [3]] : {self.ty(k, n)} into tensor<{bh}x{k}x{n}xf32>")
        out3 = f"tensor<{bh}x{m}x{n}xf32>"
        z = self.zeros(out3)
        self.emit(f"{r3} = linalg.batch_matmul ins({x3}, {y3} : tensor<{bh}x{m}x{k}xf32>, tensor<{bh}x{k}x{n}xf32>) outs({z} : {out3}) -> {out3}")
        self.emit(f"{r} = tensor.expand_shape {r3} [[0, 1], [2], [3]] output_shape [{c['b']}, {c['h']}, {m}, {n}] : {out3} into {out}")
        return r

    # --- row reductions and broadcasts --------------------------------------
    def rowsum(self, x, rows, cols, kind="add"):
        """Sum (or max) over the last dim; returns a tensor the elementwise
        ops can broadcast: [.., rows] (linalg) or [.., rows, 1] (TOSA)."""
        c = self.c
        if c["style"] == "tosa":
            r = self.fresh()
            op = "tosa.reduce_sum" if kind == "add" else "tosa.reduce_max"
            self.emit(f"{r} = {op} {x} {{axis = 2 : i32}} : ({self.ty(rows, cols)}) -> {self.ty(rows, 1)}")
            return r
        t = self.row_ty(rows)
        e, init, r = self.fresh("e"), self.fresh("z"), self.fresh()
        self.emit(f"{e} = tensor.empty() : {t}")
        start = "%zero" if kind == "add" else "%ninf"
        self.emit(f"{init} = linalg.fill ins({start} : f32) outs({e} : {t}) -> {t}")
        loops = ["i", "j"]
        rank = 4 if self.rank4 else 3
        self.emit(f"{r} = linalg.generic {{indexing_maps = [{self.amap(loops, loops)}, {self.amap(loops, ['i'])}], "
                  f"iterator_types = [{', '.join([PARALLEL] * (rank - 1))}, \"reduction\"]}}")
        self.emit(f"    ins({x} : {self.ty(rows, cols)}) outs({init} : {t}) {{")
        self.emit("^bb0(%ra: f32, %racc: f32):")
        self.emit("  %rs = arith.addf %ra, %racc : f32" if kind == "add" else "  %rs = arith.maximumf %ra, %racc : f32")
        self.emit("  linalg.yield %rs : f32")
        self.emit(f"}} -> {t}")
        return r

    def with_row(self, x, row, rows, cols, op):
        """x op row, the row broadcast over the last dim."""
        c = self.c
        t = self.ty(rows, cols)
        if c["style"] == "tosa":
            r = self.fresh()
            if op == "mul":
                self.emit(f"{r} = tosa.mul {x}, {row}, %shift : ({t}, {self.ty(rows, 1)}, tensor<1xi8>) -> {t}")
            else:
                self.emit(f"{r} = tosa.{op} {x}, {row} : ({t}, {self.ty(rows, 1)}) -> {t}")
            return r
        idx = ["i", "j"]
        arith = {"sub": "arith.subf", "mul": "arith.mulf", "div": "arith.divf"}[op]
        return self.ewise(t, [(x, t), (row, self.row_ty(rows))], [f"%r = {arith} %a0, %a1 : f32"],
                          input_maps=[self.amap(idx, idx), self.amap(idx, ["i"])])


def function(case):
    c = case
    em = Emitter(c)
    nq, nk, d, dv = c["nq"], c["nk"], c["d"], c["dv"]
    tq, tk, tv, to = em.ty(nq, d), em.ty(nk, d), em.ty(nk, dv), em.ty(nq, dv)
    ts = em.ty(nq, nk)
    tosa = c["style"] == "tosa"
    mask_ty = {"bias": ts, "keep": f"tensor<{nq}x{nk}xi1>"}.get(c["mask"])
    group = c["group"]
    hkv = c["h"] // group
    # With grouped heads, K and V come as [B, Hkv, Nk, X] and are repeated
    # into the query heads; dK and dV go back summed over each group.
    tk_in = f"tensor<{c['b']}x{hkv}x{nk}x{d}xf32>" if group > 1 else tk
    tv_in = f"tensor<{c['b']}x{hkv}x{nk}x{dv}xf32>" if group > 1 else tv
    k_arg, v_arg = ("%kh", "%vh") if group > 1 else ("%k", "%v")
    args = [f"%q: {tq}", f"{k_arg}: {tk_in}", f"{v_arg}: {tv_in}", f"%do: {to}"]
    if mask_ty:
        args.append(f"%mask: {mask_ty}")
    results = [to, tq, tk_in, tv_in] + ([ts] if c["near_miss"] == "p-returned" else [])
    em.emit("%zero = arith.constant 0.0 : f32")
    em.emit(f"%ninf = arith.constant {NINF} : f32")
    if tosa:
        em.emit('%zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>')
        em.emit('%shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>')
    if group > 1:
        for arg, name, cols in ((k_arg, "%k", d), (v_arg, "%v", dv)):
            t5 = f"tensor<{c['b']}x{hkv}x{group}x{nk}x{cols}xf32>"
            e, rep = em.fresh("e"), em.fresh("rep")
            em.emit(f"{e} = tensor.empty() : {t5}")
            em.emit(f"{rep} = linalg.broadcast ins({arg} : tensor<{c['b']}x{hkv}x{nk}x{cols}xf32>) outs({e} : {t5}) dimensions = [2]")
            em.emit(f"{name} = tensor.collapse_shape {rep} [[0, 1, 2], [3], [4]] : {t5} into {em.ty(nk, cols)}")
    s = 1.0 / (d ** 0.5)
    # Forward. Where the scale goes.
    q_used, k_used, q_scale, k_scale, score_scale = "%q", "%k", 1.0, 1.0, 1.0
    if c["scale"] == "scores":
        score_scale = s
    elif c["scale"] == "query":
        q_scale = s
        q_used = em.scale("%q", tq, s)
    else:
        q_scale, k_scale = 0.25, 4 * s
        q_used = em.scale("%q", tq, q_scale)
        k_used = em.scale("%k", tk, k_scale)
    kt = em.transpose(k_used, nk, d)
    scores = em.matmul(q_used, kt, nq, d, nk)
    if score_scale != 1.0:
        scores = em.scale(scores, ts, score_scale)
    tanh = None
    if c.get("softcap"):
        cap = c["softcap"]
        inner = em.scale(scores, ts, 1.0 / cap)
        if tosa:
            tanh = em.fresh()
            em.emit(f"{tanh} = tosa.tanh {inner} : ({ts}) -> {ts}")
        else:
            tanh = em.ewise(ts, [(inner, ts)], ["%r = math.tanh %a0 : f32"])
        scores = em.scale(tanh, ts, cap)
    keep = None
    rank = 4 if em.rank4 else 3
    row_dim, col_dim = rank - 2, rank - 1
    causal_body = [f"%ci = linalg.index {row_dim} : index", f"%cj = linalg.index {col_dim} : index",
                   "%cv = arith.cmpi ule, %cj, %ci : index"]
    fill = c.get("fill") or NINF
    if c.get("fill"):
        em.emit(f"%fill = arith.constant {fill} : f32")
    if c.get("causal_in_body") and not c.get("bias_and_causal"):
        scores = em.ewise(ts, [(scores, ts)], causal_body + ["%r = arith.select %cv, %a0, %ninf : f32"])
    elif c["mask"] == "causal":
        keep = em.causal_iota(nq, nk)
    elif c["mask"] == "keep":
        keep = "%mask"
    if keep:
        idx = ["i", "j"]
        fill_name = "%fill" if c.get("fill") else "%ninf"
        scores = em.ewise(ts, [(scores, ts), (keep, f"tensor<{nq}x{nk}xi1>")],
                          [f"%r = arith.select %a1, %a0, {fill_name} : f32"],
                          input_maps=[em.amap(idx, idx), em.mask_map()])
    elif c["mask"] == "bias":
        if tosa:
            r = em.fresh()
            em.emit(f"{r} = tosa.add {scores}, %mask : ({ts}, {ts}) -> {ts}")
            scores = r
        else:
            scores = em.ewise(ts, [(scores, ts), ("%mask", ts)], ["%r = arith.addf %a0, %a1 : f32"])
        # A causal masked_fill after the bias (BLOOM, MPT): an iota mask, or
        # the comparison in the select's body.
        if c.get("bias_and_causal"):
            if c.get("causal_in_body"):
                scores = em.ewise(ts, [(scores, ts)], causal_body + ["%r = arith.select %cv, %a0, %ninf : f32"])
            else:
                keep = em.causal_iota(nq, nk)
                idx = ["i", "j"]
                scores = em.ewise(ts, [(scores, ts), (keep, f"tensor<{nq}x{nk}xi1>")],
                                  ["%r = arith.select %a1, %a0, %ninf : f32"],
                                  input_maps=[em.amap(idx, idx), em.mask_map()])
    # Softmax.
    if c["softmax"] == "op":
        e, p = em.fresh("e"), em.fresh("p")
        em.emit(f"{e} = tensor.empty() : {ts}")
        em.emit(f"{p} = linalg.softmax dimension({3 if em.rank4 else 2}) ins({scores} : {ts}) outs({e} : {ts}) -> {ts}")
    else:
        mx = em.rowsum(scores, nq, nk, kind="max")
        shifted = em.with_row(scores, mx, nq, nk, "sub")
        if tosa:
            ex = em.fresh()
            em.emit(f"{ex} = tosa.exp {shifted} : ({ts}) -> {ts}")
            sm = em.rowsum(ex, nq, nk)
            inv = em.fresh()
            em.emit(f"{inv} = tosa.reciprocal {sm} : ({em.ty(nq, 1)}) -> {em.ty(nq, 1)}")
            p = em.with_row(ex, inv, nq, nk, "mul")
        else:
            ex = em.ewise(ts, [(shifted, ts)], ["%r = math.exp %a0 : f32"])
            sm = em.rowsum(ex, nq, nk)
            p = em.with_row(ex, sm, nq, nk, "div")
    if c.get("guard"):
        # PyTorch's _safe_softmax: rows whose every score is -inf become 0.
        t_row = em.row_ty(nq)
        ti = ts.replace("xf32>", "xi1>")
        row_i1 = t_row.replace("xf32>", "xi1>")
        e1, isinf = em.fresh("e"), em.fresh("isinf")
        idx = ["i", "j"]
        em.emit(f"{e1} = tensor.empty() : {ti}")
        em.emit(f"{isinf} = linalg.generic {{indexing_maps = [{em.amap(idx, idx)}, {em.amap(idx, idx)}], "
                f"iterator_types = [{', '.join([PARALLEL] * rank)}]}} ins({scores} : {ts}) outs({e1} : {ti}) {{")
        em.emit("^bb0(%ga: f32, %gu: i1):")
        em.emit("  %gc = arith.cmpf oeq, %ga, %ninf : f32")
        em.emit("  linalg.yield %gc : i1")
        em.emit(f"}} -> {ti}")
        e2, all0, allr = em.fresh("e"), em.fresh("z"), em.fresh("all")
        em.emit("%gtrue = arith.constant true")
        em.emit(f"{e2} = tensor.empty() : {row_i1}")
        em.emit(f"{all0} = linalg.fill ins(%gtrue : i1) outs({e2} : {row_i1}) -> {row_i1}")
        em.emit(f"{allr} = linalg.generic {{indexing_maps = [{em.amap(idx, idx)}, {em.amap(idx, ['i'])}], "
                f"iterator_types = [{', '.join([PARALLEL] * (rank - 1))}, \"reduction\"]}} ins({isinf} : {ti}) outs({all0} : {row_i1}) {{")
        em.emit("^bb0(%gx: i1, %gacc: i1):")
        em.emit("  %gy = arith.andi %gx, %gacc : i1")
        em.emit("  linalg.yield %gy : i1")
        em.emit(f"}} -> {row_i1}")
        p = em.ewise(ts, [(allr, row_i1), (p, ts)], ["%r = arith.select %a0, %zero, %a1 : f32"],
                     input_maps=[em.amap(idx, ["i"]), em.amap(idx, idx)])
    o = em.matmul(p, "%v", nq, nk, dv)
    # Backward.
    pt = em.transpose(p, nq, nk)
    dV = em.matmul(pt, "%do", nk, nq, dv)
    vt = em.transpose("%v", nk, dv)
    dp = em.matmul("%do", vt, nq, dv, nk)
    if c["near_miss"] == "no-rowsum":
        g = em.mul(p, dp, ts)
    elif c["backward"] == "jax":
        pdp = em.mul(p, dp, ts)
        r = em.rowsum(pdp, nq, nk)
        pr = em.with_row(p, r, nq, nk, "mul")
        if tosa:
            g = em.fresh()
            em.emit(f"{g} = tosa.sub {pdp}, {pr} : ({ts}, {ts}) -> {ts}")
        else:
            g = em.ewise(ts, [(pdp, ts), (pr, ts)], ["%r = arith.subf %a0, %a1 : f32"])
    else:
        if c["backward"] == "torch-o":
            r = em.rowsum(em.mul("%do", o, to), nq, dv)
        else:
            r = em.rowsum(em.mul(dp, p, ts), nq, nk)
        diff = em.with_row(dp, r, nq, nk, "sub")
        g = em.mul(p, diff, ts)
    if c.get("causal_in_body") and c["grad_select"]:
        g = em.ewise(ts, [(g, ts)], causal_body + ["%r = arith.select %cv, %a0, %zero : f32"])
    elif keep and c["grad_select"]:
        idx = ["i", "j"]
        g = em.ewise(ts, [(g, ts), (keep, f"tensor<{nq}x{nk}xi1>")],
                     ["%r = arith.select %a1, %a0, %zero : f32"],
                     input_maps=[em.amap(idx, idx), em.mask_map()])
    if tanh and c["softcap_grad"] != "none":
        # Through the cap: g cap (1 - y^2) / cap (near miss: 1 - y).
        cap = c["softcap"]
        g = em.scale(g, ts, cap)
        if tosa:
            one = em.fresh("c")
            em.emit(f'{one} = "tosa.const"() <{{values = dense<1.0> : tensor<1x1x1xf32>}}> : () -> tensor<1x1x1xf32>')
            yy = tanh if c["softcap_grad"] == "linear" else em.mul(tanh, tanh, ts)
            deriv = em.fresh()
            em.emit(f"{deriv} = tosa.sub {one}, {yy} : (tensor<1x1x1xf32>, {ts}) -> {ts}")
        else:
            square = "%yy = arith.mulf %a0, %a0 : f32" if c["softcap_grad"] == "saved" else "%yy = arith.addf %a0, %zero : f32"
            deriv = em.ewise(ts, [(tanh, ts)], ["%one = arith.constant 1.0 : f32", square,
                                               "%r = arith.subf %one, %yy : f32"])
        g = em.mul(g, deriv, ts)
        g = em.scale(g, ts, 1.0 / cap)
    extra = c["extra_scale"]
    if score_scale != 1.0 or extra != 1.0:
        g = em.scale(g, ts, score_scale * extra)
    # dQ = q_scale * (dS * k_used); dK = k_scale * d(k_used).
    dq = em.matmul(g, k_used, nq, nk, d)
    if q_scale != 1.0:
        dq = em.scale(dq, tq, q_scale)
    # A near miss: dK contracts dSᵀ with K instead of Q.
    dk_operand = k_used if c["near_miss"] == "k-for-q" else q_used
    if c["dk"] == "direct":
        gt = em.transpose(g, nq, nk)
        dk = em.matmul(gt, dk_operand, nk, nq, d)
    else:
        qt = em.transpose(dk_operand, nq, d)
        dkt = em.matmul(qt, g, d, nq, nk)
        dk = em.transpose(dkt, d, nk)
    if k_scale != 1.0:
        dk = em.scale(dk, tk, k_scale)
    if group > 1:
        summed = []
        for grad, cols in ((dk, d), (dV, dv)):
            t5 = f"tensor<{c['b']}x{hkv}x{group}x{nk}x{cols}xf32>"
            t4 = f"tensor<{c['b']}x{hkv}x{nk}x{cols}xf32>"
            g5, total = em.fresh(), em.fresh()
            em.emit(f"{g5} = tensor.expand_shape {grad} [[0, 1, 2], [3], [4]] output_shape [{c['b']}, {hkv}, {group}, {nk}, {cols}] : {em.ty(nk, cols)} into {t5}")
            z = em.zeros(t4)
            em.emit(f"{total} = linalg.reduce ins({g5} : {t5}) outs({z} : {t4}) dimensions = [2]")
            em.emit("  (%ga: f32, %gacc: f32) {")
            em.emit("    %gs = arith.addf %ga, %gacc : f32")
            em.emit("    linalg.yield %gs : f32")
            em.emit("  }")
            summed.append(total)
        dk, dV = summed
    returned = [o, dq, dk, dV] + ([p] if c["near_miss"] == "p-returned" else [])
    em.emit(f"return {', '.join(returned)} : {', '.join(results)}")
    head = f"func.func @joint({', '.join(args)}) -> ({', '.join(results)}) {{"
    return "\n".join([head] + em.lines + ["}"])


def module(case):
    c = case
    em = Emitter(c)
    nq, nk, d, dv = c["nq"], c["nk"], c["d"], c["dv"]
    shapes = {"q": (nq, d), "k": (nk, d), "v": (nk, dv), "do": (nq, dv)}
    group = c.get("group", 1)
    kv_dims = [c["b"], c["h"] // group] if group > 1 else None
    lines = ["func.func private @printMemrefF32(tensor<*xf32>)", "", function(c), ""]
    # Inputs: 2*sin(0.7*(linear index) + phase), one function per shape.
    main = ["func.func @main() {"]
    dims = [c["b"], c["h"]] if em.rank4 else [c["b"] * c["h"]]
    input_types = {}
    for index, (name, (rows, cols)) in enumerate(shapes.items()):
        lead = kv_dims if kv_dims and name in ("k", "v") else dims
        t = f"tensor<{'x'.join(str(x) for x in lead + [rows, cols])}xf32>"
        input_types[name] = t
        rank = len(lead) + 2
        loops = ", ".join(f"d{k}" for k in range(rank))
        lines += [f"func.func @input_{name}() -> {t} {{",
                  f"  %e = tensor.empty() : {t}",
                  f"  %r = linalg.generic {{indexing_maps = [affine_map<({loops}) -> ({loops})>], iterator_types = [{', '.join([PARALLEL] * rank)}]}} outs(%e : {t}) {{",
                  "  ^bb0(%o: f32):"]
        sizes = lead + [rows, cols]
        lines.append("    %n0 = arith.constant 0 : index")
        for k in range(rank):
            lines += [f"    %i{k} = linalg.index {k} : index",
                      f"    %s{k} = arith.constant {sizes[k]} : index",
                      f"    %m{k} = arith.muli %n{k}, %s{k} : index",
                      f"    %n{k + 1} = arith.addi %m{k}, %i{k} : index"]
        lines += [f"    %ni = arith.index_cast %n{rank} : index to i64",
                  "    %f = arith.sitofp %ni : i64 to f32",
                  "    %c = arith.constant 0.7 : f32",
                  "    %x = arith.mulf %f, %c : f32",
                  f"    %phase = arith.constant {0.1 + 1.3 * index} : f32",
                  "    %y = arith.addf %x, %phase : f32",
                  "    %z = math.sin %y : f32",
                  "    %two = arith.constant 2.0 : f32",
                  "    %w = arith.mulf %z, %two : f32",
                  "    linalg.yield %w : f32",
                  f"  }} -> {t}",
                  f"  return %r : {t}",
                  "}", ""]
        main.append(f"  %{name} = call @input_{name}() : () -> {t}")
    args = ["%q", "%k", "%v", "%do"]
    arg_types = [input_types[n] for n in ("q", "k", "v", "do")]
    if c["mask"] == "bias":
        # -inf entries, and one row of -inf (the first sequence's last row).
        rows = []
        for batch in range(c["b"] * c["h"]):
            block = []
            for i in range(nq):
                block.append([NINF if (i == nq - 1 and batch == 0) or (i + 2 * j + batch) % 7 == 3 else "0.0"
                              for j in range(nk)])
            rows.append(block)
        if em.rank4:
            rows = [rows[bi * c["h"]:(bi + 1) * c["h"]] for bi in range(c["b"])]
        text = repr(rows).replace("'", "")
        main.append(f"  %mask = arith.constant dense<{text}> : {em.ty(nq, nk)}")
        args.append("%mask")
        arg_types.append(em.ty(nq, nk))
    elif c["mask"] == "keep":
        keep = [["false" if i == nq // 2 or (i * 3 + j) % 5 == 4 else "true" for j in range(nk)]
                for i in range(nq)]
        main.append(f"  %mask = arith.constant dense<{repr(keep).replace(chr(39), '')}> : tensor<{nq}x{nk}xi1>")
        args.append("%mask")
        arg_types.append(f"tensor<{nq}x{nk}xi1>")
    results = [em.ty(nq, dv), em.ty(nq, d), input_types["k"], input_types["v"]]
    if c["near_miss"] == "p-returned":
        results.append(em.ty(nq, nk))
    names = [f"%r{k}" for k in range(len(results))]
    main.append(f"  {', '.join(names)} = call @joint({', '.join(args)}) : ({', '.join(arg_types)}) -> ({', '.join(results)})")
    for name, t in zip(names[:4], results[:4]):
        main.append(f"  {name}u = tensor.cast {name} : {t} to tensor<*xf32>")
        main.append(f"  call @printMemrefF32({name}u) : (tensor<*xf32>) -> ()")
    main += ["  return", "}"]
    return "\n".join(lines + main) + "\n"


def run_pipeline(fa_opt, path, options):
    libs = ",".join(os.path.join(LLVM, "lib", lib) for lib in
                    ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    compiled = subprocess.run([fa_opt, path, "--fa-cpu-pipeline=" + options],
                              capture_output=True, text=True)
    if compiled.returncode:
        return None, compiled.stderr
    ran = subprocess.run([os.path.join(LLVM, "bin", "mlir-runner"), "-e", "main",
                          "-entry-point-result=void", "-shared-libs=" + libs],
                         input=compiled.stdout, capture_output=True, text=True)
    if ran.returncode:
        return None, ran.stderr
    return ran.stdout, ""


def run_seed(seed, fa_opt, workdir):
    case = draw(seed)
    path = os.path.join(workdir, f"joint{seed}.mlir")
    with open(path, "w") as f:
        f.write(module(case))
    raised = subprocess.run([fa_opt, path, "--fa-raise-attention=explain=true"],
                            capture_output=True, text=True)
    if raised.returncode:
        return case, "fa-raise-attention failed: " + raised.stderr[-400:]
    is_raised = "fa.attention_backward" in raised.stdout
    if case["near_miss"]:
        if is_raised:
            return case, f"near miss {case['near_miss']} was raised"
        if "attention not raised" not in raised.stderr:
            return case, "near miss left without a remark"
    else:
        if not is_raised:
            return case, "not raised: " + raised.stderr.strip().splitlines()[0][-300:] if raised.stderr.strip() else "not raised, no remark"
        # P is not materialized: no exp, softmax or matmul is left.
        body = raised.stdout.split("func.func @joint")[1].split("func.func @input")[0]
        left = [op for op in ("math.exp", "tosa.exp", "softmax", "matmul")
                if op in body]
        if left:
            return case, "left after raising: " + ", ".join(left)
    outputs = []
    for options in ("", "raise=false"):
        out, err = run_pipeline(fa_opt, path, options)
        if out is None:
            return case, f"pipeline '{options}' failed: {err[-400:]}"
        outputs.append(out)
    paths = []
    for name, text in zip(("raised", "frontend"), outputs):
        paths.append(f"{path}.{name}")
        with open(paths[-1], "w") as f:
            f.write(text)
    compared = subprocess.run(
        [sys.executable, os.path.join(INPUTS, "compare_outputs.py"), *paths,
         "--rtol", "1e-4", "--atol", "5e-5"], capture_output=True, text=True)
    if compared.returncode:
        return case, "MISMATCH: " + compared.stdout.strip()[:300]
    return case, None


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show")
    show.add_argument("--seed", type=int, required=True)
    run = sub.add_parser("run")
    run.add_argument("--seeds", required=True, help="A:B, B excluded")
    run.add_argument("--fa-opt", required=True)
    args = parser.parse_args()
    if args.command == "show":
        print("//", draw(args.seed))
        print(module(draw(args.seed)))
        return 0
    first, last = (int(x) for x in args.seeds.split(":"))
    failing = 0
    near = 0
    # Issue 29's and 33's classes: graphs raised / near misses / failing.
    classes = {}
    with tempfile.TemporaryDirectory() as workdir:
        for seed in range(first, last):
            case, problem = run_seed(seed, args.fa_opt, workdir)
            near += bool(case["near_miss"])
            names = [name for name, on in (
                ("causal-in-body", case["causal_in_body"]),
                ("finite-fill", case["fill"]), ("guard", case["guard"]),
                ("bias+causal", case["bias_and_causal"]),
                ("softcap", case["softcap"])) if on]
            for name in names:
                counts = classes.setdefault(name, [0, 0, 0])
                counts[1 if case["near_miss"] else 0] += 1
                counts[2] += bool(problem)
            if problem:
                failing += 1
                print(f"seed {seed}: FAILED: {problem}\n  {case}")
    for name, (raised, missed, wrong) in sorted(classes.items()):
        print(f"class {name}: {raised} raised, {missed} near misses, {wrong} failing")
    print(f"seeds {first}..{last - 1}: {last - first} joint graphs "
          f"({near} near misses), {failing} failing seeds")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
