#!/usr/bin/env python3
"""Writes test/Integration/Tiling/sweep-*.mlir: one attention per file, run
through fa-cpu-pipeline three times (the tiled online softmax with the tiling
written on the op; the GPU kernel of fa-distribute-attention with the same
tiling, its threads emulated on the CPU in forward and in reverse order
within each barrier interval; and reference=true, the unfused
definition) on the same inputs, with every printed value compared at the
dtype's tolerance, and each of the three checked on its own against the
float64 oracle (sweep_oracle.py).

Run from the repository root after changing a case:
  python3 test/Integration/Inputs/make_tiling_sweep.py
"""
import math
import os
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tiling")

# Tolerances of tiled vs reference (docs/Tiling.md): f32 differs only by the
# order of rounding; f16/bf16 also by P rounded to the input type before P·V.
TOLERANCE = {"f32": ("1e-5", "1e-6"), "f16": ("2e-3", "1e-3"),
             "bf16": ("1.6e-2", "8e-3")}

# name, B, Hq, Hkv, Nq, Nk, D, Dv, dtype, mask, causal, window, lse,
# dynamic, (block_q, block_kv), what it covers
CASES = [
    ("decode", 1, 2, 2, 1, 64, 16, 16, "f32", None, None, None, True, False, (16, 16),
     "Nq = 1 (decode) against 64 keys in 4 key blocks"),
    ("n7-tail", 1, 1, 1, 7, 7, 16, 16, "f32", None, None, None, True, False, (4, 4),
     "N = 7 with 4 x 4 tiles: a partial query block and a partial key block"),
    ("n64-divides", 2, 2, 2, 64, 64, 64, 64, "f32", None, None, None, False, False, (16, 32),
     "N = 64, D = 64 with tiles that divide N"),
    ("n127-nq-ne-nk", 1, 2, 2, 127, 100, 16, 32, "f32", None, None, None, True, False, (32, 16),
     "Nq = 127 != Nk = 100, Dv != D, tiles that do not divide either"),
    ("n1000-d128", 1, 1, 1, 1000, 1000, 128, 128, "f32", None, None, None, False, False, (64, 128),
     "N = 1000, D = 128"),
    ("f16-d64", 1, 2, 2, 127, 127, 64, 64, "f16", None, None, None, True, False, (32, 32),
     "f16 inputs, f32 accumulation, P rounded to f16"),
    ("bf16-d128", 1, 2, 2, 64, 96, 128, 128, "bf16", None, None, None, True, False, (32, 32),
     "bf16 inputs, D = 128, Nq != Nk"),
    ("additive-bias", 2, 2, 2, 33, 40, 16, 16, "f32", ("bias", (2, 1, 33, 40)), None, None, True, False, (16, 16),
     "an additive bias broadcast over heads, with -inf entries and a row of -inf"),
    ("keep-mask-rows", 1, 2, 2, 40, 33, 16, 16, "f32", ("bool", (1, 1, 1, 33)), None, None, True, False, (16, 16),
     "a boolean keep-mask broadcast over batch, heads and query rows"),
    ("keep-mask-full", 1, 2, 2, 20, 24, 16, 16, "f16", ("bool", (1, 2, 20, 24)), None, None, True, False, (8, 8),
     "a full boolean keep-mask with a fully-masked row (0 and -inf), f16"),
    ("causal-top-left", 1, 2, 2, 100, 130, 16, 16, "f32", None, "top_left", None, True, False, (16, 32),
     "causal top-left with Nq < Nk: key blocks past the diagonal are skipped"),
    ("causal-bottom-right", 1, 2, 2, 130, 100, 16, 16, "f32", None, "bottom_right", None, True, False, (32, 16),
     "causal bottom-right with Nq > Nk: the first 30 rows see no key"),
    ("causal-bf16", 1, 2, 2, 64, 64, 64, 64, "bf16", None, "bottom_right", None, False, False, (16, 16),
     "causal bf16 with Nq = Nk"),
    ("causal-diagonal-at-block-end", 1, 2, 2, 64, 78, 16, 16, "f32", None, "bottom_right", None, True, False, (16, 16),
     "causal bottom-right with Nk - Nq = 14: a query block's first diagonal is one key before the end of a key block, which still needs the element mask (found by scripts/mutate.py)"),
    ("causal-last-key-starts-block", 1, 2, 2, 64, 81, 16, 16, "f32", None, "bottom_right", None, True, False, (16, 16),
     "causal bottom-right with Nk - Nq = 17: a query block's last visible key is the first key of a key block, which must still be visited (found by scripts/mutate.py)"),
    ("window", 1, 2, 2, 100, 100, 16, 16, "f32", None, None, (5, 3, "top_left"), True, False, (16, 4),
     "a sliding window (5 left, 3 right) over key blocks of 4: most are skipped"),
    ("window-causal", 1, 2, 2, 90, 120, 16, 16, "f32", None, "bottom_right", (10, 0, "bottom_right"), True, False, (16, 16),
     "window + causal, bottom-right, Nq != Nk"),
    ("window-empty-rows", 1, 1, 1, 48, 16, 16, 16, "f32", None, None, (0, 0, "top_left"), True, False, (16, 16),
     "a window that leaves rows 16..47 without keys (0 and -inf, no NaN)"),
    ("gqa", 2, 8, 2, 50, 70, 64, 32, "f32", None, "bottom_right", None, True, False, (16, 32),
     "GQA: 8 query heads over 2 key/value heads, Dv != D"),
    ("mqa-f16", 1, 4, 1, 31, 45, 64, 64, "f16", ("bias", (1, 1, 31, 45)), None, None, False, False, (16, 16),
     "MQA (one key/value head) with an f16 bias"),
    ("kernel-stages2", 1, 2, 2, 150, 200, 64, 64, "f16", None, "top_left", None, True, False, (32, 32, 2),
     "two K/V stages (the kernel rotates its shared buffers, one barrier per key block), causal f16"),
    ("kernel-stages3-gqa", 1, 4, 2, 200, 333, 64, 64, "f16", None, None, (40, 8, "bottom_right"), True, False, (64, 32, 3),
     "three K/V stages prefetched with cp.async (emulated), GQA, a bottom-right window, tails in both lengths, f16"),
    ("kernel-full-block", 1, 2, 2, 300, 257, 32, 32, "f32", ("bias", (1, 2, 300, 257)), None, None, True, False, (128, 64),
     "block_q = 128 with 4 warps: every kernel thread owns a query row"),
    ("kernel-odd-dims", 1, 2, 1, 9, 13, 3, 5, "f16", ("bias", (1, 2, 9, 13)), "bottom_right", None, True, False, (16, 16),
     "D = 3 and Dv = 5 (rows that do not split into 16-byte chunks: scalar copies), MQA, f16"),
    ("kernel-mma-causal-d128", 1, 2, 2, 100, 87, 128, 128, "f16", None, "bottom_right", None, True, False, (64, 32),
     "the tensor-core kernel (warp-level 16x8x16 matmuls, one 16-row tile per warp), D = 128, causal bottom-right, tails in both lengths"),
    ("kernel-mma-two-tiles", 2, 2, 1, 130, 70, 32, 16, "f16", ("bool", (2, 1, 130, 70)), None, None, True, False, (128, 16),
     "the tensor-core kernel with two 16-row tiles per warp, Dv = 16 != D, MQA, a keep-mask with an empty row"),
    ("kernel-mma-stages2-window", 1, 2, 2, 100, 100, 64, 64, "f16", ("bias", (1, 2, 100, 100)), None, (20, 5, "top_left"), True, False, (64, 16, 2),
     "the tensor-core kernel with two cp.async stages, a window and a bias"),
    ("kernel-mma-bf16-causal", 1, 2, 2, 100, 130, 64, 64, "bf16", None, "top_left", None, True, False, (64, 32),
     "the tensor-core kernel on bf16 (mma.sync .bf16), causal top-left with Nq < Nk, tails"),
    ("kernel-mma-bf16-gqa-stages2", 1, 4, 2, 77, 90, 128, 64, "bf16", ("bool", (1, 1, 77, 90)), None, None, False, False, (64, 16, 2),
     "the tensor-core kernel on bf16 with two cp.async stages, GQA, D = 128 != Dv, a keep-mask"),
    ("d256", 1, 2, 2, 96, 160, 256, 256, "f32", None, None, None, True, False, (32, 32),
     "D = 256 in f32 over five key blocks"),
    ("kernel-mma-d256-causal", 1, 2, 1, 80, 100, 256, 256, "f16", None, "bottom_right", None, True, False, (64, 16),
     "the tensor-core kernel with D = 256, MQA, causal bottom-right, tails in both lengths"),
    ("dynamic", 2, 4, 2, 77, 61, 16, 16, "f32", ("bool", (2, 1, 77, 61)), "top_left", None, True, True, (16, 16),
     "every size but D dynamic (group size known only at run time)"),
    # Split-KV (the 4th tile entry is kv_splits): each split walks a run of
    # ceil(blocks / splits) of the key blocks its query block sees, and the
    # merge combines the partial results by their logsumexp.
    ("splits2-decode-mqa", 1, 4, 1, 1, 100, 32, 32, "f16", None, None, None, True, False, (16, 16, 2, 2),
     "split-KV decode: Nq = 1, MQA (group of 4), 7 key blocks in 2 splits of 4 and 3"),
    ("splits4-nq4-gqa8", 1, 8, 1, 4, 200, 64, 64, "f16", ("bias", (1, 8, 4, 200)), None, None, False, False, (16, 16, 1, 4),
     "split-KV: Nq = 4, a group of 8 query heads per key/value head, a bias, 13 key blocks in 4 splits of 4, 4, 4 and 1"),
    ("splits7-nq16-causal", 1, 2, 2, 16, 90, 16, 16, "f32", None, "bottom_right", None, True, False, (16, 8, 1, 7),
     "split-KV: Nq = 16, causal bottom-right, 12 key blocks in 7 splits of 2 (the last split sees no key)"),
    ("splits3-window-empty-rows", 1, 1, 1, 48, 40, 16, 16, "f32", None, None, (2, 1, "top_left"), True, False, (16, 8, 1, 3),
     "split-KV with a window: query blocks that see one or two key blocks leave splits empty, and rows 41 to 47 see no key at all (0 and -inf, no NaN)"),
    ("splits2-dynamic", 2, 4, 2, 5, 61, 16, 16, "f32", ("bool", (2, 1, 5, 61)), None, None, True, True, (16, 16, 1, 2),
     "split-KV with every size but D dynamic and a keep-mask with an empty row"),
    ("kernel-mma-splits4-gqa4-causal", 1, 8, 2, 16, 300, 64, 64, "bf16", None, "bottom_right", None, True, False, (64, 32, 2, 4),
     "split-KV in the tensor-core kernel: bf16, GQA (group of 4), causal bottom-right, 10 key blocks in 4 splits of 3, 3, 3 and 1, two cp.async stages"),
    ("kernel-mma-decode-gqa8-splits7", 1, 8, 1, 1, 257, 128, 128, "f16", None, None, None, True, False, (64, 32, 1, 7),
     "split-KV decode in the tensor-core kernel: Nq = 1, D = 128, a group of 8, 9 key blocks in 7 splits of 2 (the last two see no key)"),
    # Rows whose every key carries a large negative finite bias (-10000 on
    # every third row): their logsumexps, whole and per key split, are far
    # below where e^lse underflows, which a running max or a merge max
    # started at 0 instead of -inf turns into rows of zeros (issue 31).
    ("far-bias", 1, 2, 2, 24, 70, 16, 16, "f32", ("far-bias", (1, 2, 24, 70)), None, None, True, False, (16, 16),
     "every key of every third row carries a bias of -10000 (logsumexp about -10000), 5 key blocks, no split"),
    ("splits3-far-bias", 1, 2, 2, 24, 90, 16, 16, "f32", ("far-bias", (1, 2, 24, 90)), None, None, True, False, (16, 16, 1, 3),
     "split-KV with every key of every third row biased by -10000: each split's partial logsumexp is about -10000, 6 key blocks in 3 splits"),
    ("kernel-mma-far-bias-splits4", 1, 4, 2, 20, 200, 64, 64, "f16", ("far-bias", (1, 1, 20, 200)), "bottom_right", None, True, False, (64, 32, 2, 4),
     "split-KV in the tensor-core kernel with every key of every third row biased by -10000, GQA, causal bottom-right, 7 key blocks in 4 splits, two cp.async stages"),
    # Grouped-query packing (the 5th tile entry is pack_gqa): the query
    # heads of a group are one attention's rows.
    ("pack-gqa-decode-causal", 1, 8, 2, 1, 150, 32, 32, "f16", None, "bottom_right", None, True, False, (16, 16, 1, 1, True),
     "grouped-query packing for a decode step: 4 query heads per key/value head become 4 rows of one block; the bottom-right causal mask over one row hides nothing"),
    ("pack-gqa-nq4-bias-splits3", 2, 8, 1, 4, 120, 64, 64, "bf16", ("bias", (2, 8, 4, 120)), None, None, True, False, (32, 16, 1, 3, True),
     "grouped-query packing with Nq = 4: 8 heads x 4 rows packed into 32, a bias over heads and rows packed alike, 3 key splits"),
    ("kernel-wgmma-two-warpgroups", 2, 4, 2, 200, 300, 64, 64, "f16", ("bool", (2, 1, 200, 300)), None, None, True, False, (128, 64, 2, 1, False, 8),
     "Hopper's kernel (wgmma) with two 64-row warpgroups of 4 warps, GQA, a keep-mask, two cp.async stages, tails in both lengths"),
    ("kernel-wgmma-bk128-causal-bf16", 1, 2, 2, 257, 257, 64, 64, "bf16", None, "bottom_right", None, True, False, (128, 128, 2, 1, False, 8),
     "Hopper's kernel (wgmma) on bf16 with 128-key blocks (S in 64 registers per thread), causal, N = 257"),
    # The causal walk of the TMA kernel: its diagonal blocks (masked) first,
    # from the last, then one unmasked loop.
    ("kernel-wgmma-causal-diagonal-blocks", 1, 2, 2, 300, 330, 64, 64, "f16", None, "bottom_right", None, True, False, (128, 32, 2, 1, False, 8),
     "Hopper's kernel under the causal band with 32-key blocks: the diagonal of a 128-row query block crosses 5 key blocks, walked first and masked, before the unmasked loop; Nk - Nq = 30, so the first row of each query block sees all but the last 2 keys of a block (a block too many unmasked shows them); tails in both lengths"),
    ("kernel-wgmma-causal-top-left-splits3", 1, 2, 1, 333, 200, 64, 64, "bf16", None, "top_left", None, True, False, (128, 16, 2, 3, False, 8),
     "Hopper's kernel, causal top-left with Nq > Nk (the last rows see every key, none of their blocks masked), 16-key blocks in 3 key splits, MQA"),
    # The walk under a window, from the last block: the diagonal's blocks
    # masked, those every row sees whole in an unmasked loop, then the
    # blocks the window's left edge crosses, masked again.
    ("kernel-wgmma-window-three-loops", 1, 2, 2, 300, 330, 64, 64, "f16", None, None, (190, 32, "bottom_right"), True, False, (128, 32, 2, 1, False, 8),
     "Hopper's kernel under a two-sided window (190 left, 32 right, bottom-right) with 32-key blocks: the second 128-row query block walks the 5 key blocks its right edge crosses (masked, first), 2 that every row sees whole (unmasked), and 3 its left edge crosses (masked, last); a query block's first row sees all but the last key of a block (a block too many unmasked shows it) and the left edges fall inside blocks; tails in both lengths"),
    ("kernel-mma-window-causal-three-loops", 1, 4, 2, 200, 261, 64, 64, "f16", None, "bottom_right", (150, 0, "bottom_right"), True, False, (64, 16, 2),
     "the tensor-core kernel with causal and a 150-key window (bottom-right), GQA: the second 64-row block walks the 5 key blocks its diagonal crosses masked, 4 unmasked, and the 3 its left edge crosses masked; 261 keys leave a tail"),
    # FlashAttention-3's d = 64 tile: 192 x 192 fits three compute
    # warpgroups' 160 registers only with P V reading P from shared memory.
    ("kernel-wgmma-shared-probabilities", 1, 2, 2, 400, 500, 64, 64, "f16", None, None, None, True, False, (192, 192, 2, 1, False, 12),
     "Hopper's TMA producer kernel at FlashAttention-3's 192 x 192 (three compute warpgroups), where P V reads P from shared memory: 3 key blocks (the first, an overlapped one, the last's P V after the loop), tails in both lengths"),
    ("kernel-mma-pack-gqa-splits5", 1, 16, 2, 1, 300, 128, 128, "f16", ("bias", (1, 1, 1, 300)), None, None, True, False, (64, 32, 2, 5, True),
     "grouped-query packing in the tensor-core kernel: 8 heads of one query row fill half of a 16-row tile, a bias broadcast over heads and rows, 5 key splits, two cp.async stages"),
    # The tiling fa-select-tiles now gives an MQA decode step at d = 256:
    # the 32 packed rows in one block of two warps, which reads K and V
    # once (two 16-row blocks read them twice).
    ("kernel-mma-mqa-d256-two-warps", 1, 32, 1, 1, 192, 256, 256, "f16", None, None, None, True, False, (32, 16, 2, 3, True, 2),
     "MQA decode at d = 256: 32 query heads on one key/value head packed into one 32-row block of two warps, 192 keys in 3 key splits of four 16-key blocks (whole blocks, as the tile model fits this tiling at d = 256: a partial last block needs about 266 registers)"),
]


# The inputs' row multiplier: fill() is sin(0.37 (7919 b + 131 h + ROW r
# + d) + seed). 17 made 0.37 * 17 within 0.007 of 2 pi, so neighbouring
# rows were nearly the same vector and row maxima never moved (issue 15);
# with 29 the rows differ and Q K^T has maxima spread over the keys.
ROW = 29
# K[j, 0] += KEY_RAMP * j (see @ramp).
KEY_RAMP = 0.08
SCALE = 0.25


def fill_value(b, h, r, d, seed):
    """What @fill computes (in double; the IR computes in f32)."""
    return math.sin(0.37 * (7919 * b + 131 * h + ROW * r + d) + seed)


def ramp_value(b, h, r, d, seed, is_key):
    """What @ramp computes: fill plus the ramp on feature 0."""
    x = fill_value(b, h, r, d, seed)
    if d == 0:
        x += KEY_RAMP * r if is_key else (1.0 if (b + h + r) % 2 else -1.0)
    return x


def keep_value(i, j):
    return (3 * i + 7 * j) % 5 != 0 and i != 2


def bias_value(b, h, i, j):
    if (i + 2 * j) % 7 == 0 or i == 1:
        return -math.inf
    return fill_value(b, h, i, j, 5.0)


# A "far" bias puts FAR_BIAS on every key of every third row (BERT's
# padding bias is -10000): a softmax does not move, but the row's
# logsumexp, and each key split's, is about -10000, far below where
# e^(lse - 0) underflows in f32 (about -88): a merge or a running max that
# starts at 0 instead of -inf zeroes such rows (issue 31).
FAR_BIAS = -10000.0
FAR_BIAS_TOLERANCE = ("2e-3", "1e-3")


def far_bias_value(b, h, i, j):
    return fill_value(b, h, i, j, 5.0) + (FAR_BIAS if i % 3 == 0 else 0.0)


def moving_maxima(case, max_rows=96):
    """For the case's inputs and key blocks: the fraction of query rows (at
    most `max_rows` per head, evenly spaced) whose maximum score first
    appears after key block 0, and the largest rescale factor
    e^(m_new - m_old) a row's running max sees from one block to the next.
    The fraction counts rows that see keys in at least two key blocks (a
    causal or window mask leaves some rows one block). Returns (moved, such
    rows, rows measured, largest factor, blocks, rows whose maximum is in
    the first block they see, rows whose maximum is in the last)."""
    (name, b, hq, hkv, nq, nk, d, dv, dtype, mask, causal, window, lse,
     dynamic, tile, what) = case
    bkv = tile[1]
    group = hq // hkv
    keys = {}
    moved = rows = measured = in_first = in_last = 0
    largest = 1.0
    step = max(1, nq // max_rows)
    step += step % 2 == 0 and step > 1  # odd: both parities of the ramp
    for bb in range(b):
        for h in range(hq):
            kh = h // group
            if (bb, kh) not in keys:
                keys[(bb, kh)] = [[ramp_value(bb, kh, j, e, 2.0, True) for e in range(d)]
                                  for j in range(nk)]
            kmat = keys[(bb, kh)]
            for i in range(0, nq, step):
                q = [ramp_value(bb, h, i, e, 1.0, False) for e in range(d)]
                scores = []
                for j in range(nk):
                    s = SCALE * sum(a * c for a, c in zip(q, kmat[j]))
                    visible = True
                    if mask:
                        kind, shape = mask
                        mb = 0 if shape[0] == 1 else bb
                        mh = 0 if shape[1] == 1 else h
                        mi = 0 if shape[2] == 1 else i
                        if kind == "bool":
                            visible = keep_value(mi, j)
                        elif kind == "far-bias":
                            s += far_bias_value(mb, mh, mi, j)
                        else:
                            s += bias_value(mb, mh, mi, j)
                    delta = 0
                    if causal:
                        delta = 0 if causal == "top_left" else nk - nq
                        visible = visible and j <= i + delta
                    if window:
                        wd = 0 if window[2] == "top_left" else nk - nq
                        visible = visible and i + wd - window[0] <= j <= i + wd + window[1]
                    scores.append(s if visible else -math.inf)
                measured += 1
                best = max(scores)
                visible_blocks = sum(1 for j0 in range(0, nk, bkv)
                                     if max(scores[j0:j0 + bkv]) != -math.inf)
                if visible_blocks < 2:
                    continue
                rows += 1
                first = scores.index(best)
                # The running max block by block, from the first block a
                # row sees.
                running = -math.inf
                started = False
                first_block = None
                for j0 in range(0, nk, bkv):
                    block = max(scores[j0:j0 + bkv])
                    if block == -math.inf:
                        continue
                    if first_block is None:
                        first_block = j0
                    if running != -math.inf and block > running:
                        largest = max(largest, math.exp(block - running))
                    running = max(running, block)
                if first_block is not None and first >= first_block + bkv:
                    moved += 1
                last_block = max(j0 for j0 in range(0, nk, bkv)
                                 if max(scores[j0:j0 + bkv]) != -math.inf)
                in_first += first < first_block + bkv
                in_last += first >= last_block
    blocks = -(-nk // bkv)
    return moved, rows, measured, largest, blocks, in_first, in_last


def tensor(dims, dtype, dynamic=False, keep=()):
    shape = "x".join("?" if dynamic and i not in keep else str(d)
                     for i, d in enumerate(dims))
    return f"tensor<{shape}x{dtype}>"


# The input builders every sweep case calls from @main (also used by
# make_backward_sweep.py).
INPUT_FUNCTIONS = '''#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

func.func @fill(%t: tensor<?x?x?x?xf32>, %seed: f32) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c7 = arith.constant 7919 : index
    %c5 = arith.constant 131 : index
    %c3 = arith.constant ROW_MULTIPLIER : index
    %a = arith.muli %i0, %c7 : index
    %b = arith.muli %i1, %c5 : index
    %c = arith.muli %i2, %c3 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %i3 : index
    %n = arith.index_cast %s2 : index to i64
    %f = arith.sitofp %n : i64 to f32
    %k = arith.constant 0.37 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    linalg.yield %z : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// Q and K with a ramp on feature 0: K[j, 0] += KEY_RAMP j and Q[i, 0] += +-1
// by the parity of b + h + i, so that rows whose scores rise with the key
// find their max in late key blocks (the running max moves and the online
// rescaling is exercised), beside rows whose maxima the sine spreads.
func.func @ramp(%t: tensor<?x?x?x?xf32>, %seed: f32, %isKey: i1) -> tensor<?x?x?x?xf32> {
  %f = call @fill(%t, %seed) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%f : tensor<?x?x?x?xf32>) outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %batch = linalg.index 0 : index
    %head = linalg.index 1 : index
    %row = linalg.index 2 : index
    %feature = linalg.index 3 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %first = arith.cmpi eq, %feature, %c0 : index
    %n = arith.index_cast %row : index to i64
    %nf = arith.sitofp %n : i64 to f32
    %step = arith.constant KEY_RAMP : f32
    %keyRamp = arith.mulf %nf, %step : f32
    %bh = arith.addi %batch, %head : index
    %bhr = arith.addi %bh, %row : index
    %parity = arith.remui %bhr, %c2 : index
    %odd = arith.cmpi ne, %parity, %c0 : index
    %plus = arith.constant 1.0 : f32
    %minus = arith.constant -1.0 : f32
    %sign = arith.select %odd, %plus, %minus : f32
    %shift = arith.select %isKey, %keyRamp, %sign : f32
    %zero = arith.constant 0.0 : f32
    %add = arith.select %first, %shift, %zero : f32
    %y = arith.addf %x, %add : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// keep(i, j) unless (3 i + 7 j) % 5 == 0, and never on row 2.
func.func @keep(%t: tensor<?x?x?x?xi1>) -> tensor<?x?x?x?xi1> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %a = arith.muli %i, %c3 : index
    %b = arith.muli %j, %c7 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c5 : index
    %hit = arith.cmpi ne, %m, %c0 : index
    %row = arith.cmpi ne, %i, %c2 : index
    %k = arith.andi %hit, %row : i1
    linalg.yield %k : i1
  } -> tensor<?x?x?x?xi1>
  return %r : tensor<?x?x?x?xi1>
}

// bias(i, j) = sin(...), -inf where (i + 2 j) % 7 == 0 and on all of row 1.
func.func @bias(%t: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %s = arith.constant 5.0 : f32
  %f = call @fill(%t, %s) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%f : tensor<?x?x?x?xf32>) outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %b = arith.muli %j, %c2 : index
    %s1 = arith.addi %i, %b : index
    %m = arith.remui %s1, %c7 : index
    %hit = arith.cmpi eq, %m, %c0 : index
    %row = arith.cmpi eq, %i, %c1 : index
    %hide = arith.ori %hit, %row : i1
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

'''.replace("ROW_MULTIPLIER", str(ROW)).replace("KEY_RAMP", str(KEY_RAMP))

# Only in the files whose mask is a far bias.
FAR_BIAS_FUNCTION = '''// far_bias(i, j) = sin(...) + FAR_BIAS on every third row (i % 3 == 0).
func.func @far_bias(%t: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %s = arith.constant 5.0 : f32
  %f = call @fill(%t, %s) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%f : tensor<?x?x?x?xf32>) outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %m = arith.remui %i, %c3 : index
    %far = arith.cmpi eq, %m, %c0 : index
    %offset = arith.constant FAR_BIAS : f32
    %zero = arith.constant 0.0 : f32
    %add = arith.select %far, %offset, %zero : f32
    %y = arith.addf %x, %add : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

'''.replace("FAR_BIAS", f"{FAR_BIAS:e}")


def make_input(dims, seed, dt, ramp=None):
    """MLIR for @main that builds an input of `dims` with @fill (or @ramp,
    `ramp` naming its i1 flag) from `seed`, in dtype `dt`: (text, value)."""
    shape = ", ".join(f"%c{x}" for x in dims)
    static = tensor(dims, "f32")
    if ramp is None:
        call = f"call @fill(%e{seed}, %s{seed}) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>"
    else:
        call = (f"call @ramp(%e{seed}, %s{seed}, %{ramp}) : "
                "(tensor<?x?x?x?xf32>, f32, i1) -> tensor<?x?x?x?xf32>")
    text = (f"  %e{seed} = tensor.empty({shape}) : tensor<?x?x?x?xf32>\n"
            f"  %s{seed} = arith.constant {seed}.0 : f32\n"
            f"  %f{seed} = {call}\n"
            f"  %g{seed} = tensor.cast %f{seed} : tensor<?x?x?x?xf32> to {static}\n")
    out = f"%g{seed}"
    if dt != "f32":
        text += f"  %t{seed} = arith.truncf %g{seed} : {static} to {tensor(dims, dt)}\n"
        out = f"%t{seed}"
    return text, out


def make_mask_input(mask, dtype):
    """MLIR for @main that builds the case's mask (@keep for a boolean one,
    @bias rounded to `dtype` for an additive one): (text, value, type)."""
    kind, shape = mask
    mshape = ", ".join(f"%c{x}" for x in shape)
    if kind == "bool":
        return (f"  %me = tensor.empty({mshape}) : tensor<?x?x?x?xi1>\n"
                "  %mk = call @keep(%me) : (tensor<?x?x?x?xi1>) -> tensor<?x?x?x?xi1>\n"
                f"  %mm = tensor.cast %mk : tensor<?x?x?x?xi1> to {tensor(shape, 'i1')}\n",
                "%mm", tensor(shape, "i1"))
    function = "@far_bias" if kind == "far-bias" else "@bias"
    text = (f"  %me = tensor.empty({mshape}) : tensor<?x?x?x?xf32>\n"
            f"  %mb = call {function}(%me) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>\n"
            f"  %mm = tensor.cast %mb : tensor<?x?x?x?xf32> to {tensor(shape, 'f32')}\n")
    if dtype == "f32":
        return text, "%mm", tensor(shape, "f32")
    text += f"  %mt = arith.truncf %mm : {tensor(shape, 'f32')} to {tensor(shape, dtype)}\n"
    return text, "%mt", tensor(shape, dtype)


def main():
    os.makedirs(OUT, exist_ok=True)
    failures = []
    for case in CASES:
        (name, b, hq, hkv, nq, nk, d, dv, dtype, mask, causal, window, lse,
         dynamic, tile, what) = case
        bq, bkv = tile[:2]
        stages = tile[2] if len(tile) > 2 else 1
        splits = tile[3] if len(tile) > 3 else 1
        pack = tile[4] if len(tile) > 4 else False
        # Split-Q: several warps per block where the block has the rows (at
        # most 4 unless the case names its warps).
        warps = tile[5] if len(tile) > 5 else max(1, min(4, bq // 8))
        rtol, atol = TOLERANCE[dtype]
        if mask and mask[0] == "far-bias":
            # Near -10000 an f32 step is 2^-10: a score summed in another
            # order rounds s + bias to a neighbouring step, so the paths
            # differ by about 5e-4 relative (a merge gone wrong zeroes the
            # row instead).
            rtol, atol = FAR_BIAS_TOLERANCE
        qd, kd, vd, od = [b, hq, nq, d], [b, hkv, nk, d], [b, hkv, nk, dv], [b, hq, nq, dv]
        keep4 = (3,)
        qt = tensor(qd, dtype, dynamic, keep4)
        kt = tensor(kd, dtype, dynamic, keep4)
        vt = tensor(vd, dtype, dynamic, keep4)
        ot = tensor(od, dtype, dynamic, keep4)
        lt = tensor(od[:3], "f32", dynamic)
        mt = None
        if mask:
            kind, shape = mask
            mdtype = "i1" if kind == "bool" else dtype
            keep_static = tuple(i for i, s in enumerate(shape) if s == 1)
            mt = tensor(shape, mdtype, dynamic, keep_static)
        attrs = ""
        if causal:
            attrs += f" causal = {causal}"
        if window:
            attrs += f" window = <left = {window[0]}, right = {window[1]}, align = {window[2]}>"
        split_attr = f", kv_splits = {splits}" if splits > 1 else ""
        split_attr += ", pack_gqa = true" if pack else ""
        attrs += (f" tiling = <block_q = {bq}, block_kv = {bkv}, warps = {warps}, "
                  f"stages = {stages}{split_attr}>")
        results = f"{ot}, {lt}" if lse else ot
        lines = []
        lines.append(f"// Tiled and GPU kernel vs reference: {what}.\n")
        lines.append(f"// B = {b}, Hq = {hq}, Hkv = {hkv}, Nq = {nq}, Nk = {nk}, D = {d}, "
                     f"Dv = {dv}, {dtype}, tiles {bq} x {bkv}, "
                     f"{warps} warp(s) splitting the query rows.\n")
        moved, rows, measured, largest, blocks, in_first, in_last = moving_maxima(case)
        if rows and moved < 0.3 * rows:
            failures.append(f"sweep-{name}: only {moved} of {rows} rows find "
                            "their maximum after key block 0 (want >= 30%)")
        # Both ends (issue 31): a row whose first block holds its maximum
        # never rescales; one whose last block does rescales at the end.
        # Decode cases (16 rows or fewer) need not have both.
        if rows > 16 and not (in_first and in_last):
            failures.append(f"sweep-{name}: {in_first} rows keep the first block's "
                            f"maximum and {in_last} find it in the last (want both)")
        if rows:
            lines.append(f"// Inputs: {moved} of {rows} rows that see more than one of the "
                         f"{blocks} key blocks ({measured} measured) find their maximum "
                         f"after key block 0; the largest rescale of a running max is "
                         f"e^(m_new - m_old) = {largest:.3g}; {in_first} keep the maximum of "
                         f"their first key block, {in_last} find it in their last.\n")
        else:
            lines.append(f"// Inputs: no row sees more than one key block ({blocks} in all).\n")
        lines.append("// Generated by test/Integration/Inputs/make_tiling_sweep.py.\n")
        lines.append("// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled\n")
        lines.append("// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference\n")
        lines.append(f"// RUN: %compare %t.tiled %t.reference --rtol {rtol} --atol {atol}\n")
        # Which kernel the GPU run checks: tensor cores when the operands are
        # f16 or bf16 and the tiling splits into whole 16-row tiles per warp
        # (KernelModel.h, tensorCoreKernel).
        mma = (dtype in ("f16", "bf16") and d % 16 == 0 and dv % 16 == 0 and bkv % 16 == 0
               and bq % (16 * warps) == 0)
        # The FMA kernel keeps a row's f32 accumulator (Dv) and two key
        # chunks in registers, 80 more for the rest (KernelModel.cpp): past
        # 255 ptxas would spill (10 KB at Dv = 256), so the GPU kernel is
        # refused at the op and only the host paths run (issue 50).
        chunk = next(c for c in (16, 8, 4, 2, 1) if bkv % c == 0)
        fma_refused = not mma and dv + 2 * chunk + 80 > 255
        # Hopper's kernels (WarpgroupMmaKernel.cpp, KernelModel.h's
        # warpgroupMmaKernel): S = Q Kᵀ and P V on wgmma where D and Dv are multiples of 64
        # and every warp holds 16 rows of 64-row warpgroups; by default with
        # TMA loads from a producer warpgroup (TmaProducer.cpp), and with
        # tma-producer=false on cp.async from every thread.
        wgmma = (mma and d % 64 == 0 and dv % 64 == 0 and dv <= 256 and bq % 64 == 0
                 and bq == 16 * warps and 16 <= bkv <= 256)
        # ... and within the compute warpgroups' 240 registers by the wgmma
        # register model (KernelModel.cpp, registersPerThread).
        banded = causal or window
        wgmma_registers = (dv / 2 + bkv + d / 4 + max(d - dv, 0) / 2 +
                           (24 if banded else 0) + (10 if stages == 1 else 0) + 14)
        wgmma_tiling = wgmma
        wgmma = wgmma and wgmma_registers <= 240
        # The TMA producer kernel alone where its own model admits what the
        # cp.async one refuses: P V reading P from shared memory
        # (KernelModel.cpp, sharedProbabilitiesTiling) at Dv = 64 with the
        # overlapped schedule (two or more stages), no band and no mask,
        # where P carried in registers (Dv / 2 + 3 Bc / 4 + 32, and
        # (D - Dv) / 2 where D is wider) exceeds the share of 3 compute
        # warpgroups (160) or fewer (240) and P stored (Bc / 4 less) fits it.
        share = 160 if warps == 12 else 240
        carried_p = dv / 2 + 3 * bkv / 4 + 32 + max(d - dv, 0) / 2
        shared_p = (wgmma_tiling and not wgmma and dv == 64 and stages >= 2
                    and not banded and not mask and carried_p > share
                    and carried_p - bkv / 4 <= share)
        if fma_refused:
            lines.append("// RUN: not fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90 -o /dev/null 2>&1"
                         " | FileCheck %s --check-prefix=REFUSED\n")
            lines.append(f"// REFUSED: error: 'fa.attention' op the tiling written on the op "
                         f"({bq} x {bkv}, {warps} warp{'s' if warps > 1 else ''}, {stages} stage"
                         f"{'s' if stages > 1 else ''}) needs about {dv + 2 * chunk + 80} "
                         "registers per thread; sm_90 allows 255\n")
        elif shared_p:
            # The tiling is the TMA producer kernel's alone: the mma.sync
            # kernel's warps hold a whole 192-key S each, past sm_90's
            # registers for 12 warps (the message's numbers are the mma.sync
            # model's; the check stops before them).
            lines.append("// RUN: not fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90 -o /dev/null 2>&1"
                         " | FileCheck %s --check-prefix=REFUSED\n")
            lines.append(f"// REFUSED: error: 'fa.attention' op the tiling written on the op "
                         f"({bq} x {bkv}, {warps} warps, {stages} stage"
                         f"{'s' if stages > 1 else ''}) needs about\n")
        else:
            lines.append("// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90 | %mlir-run > %t.kernel\n")
            lines.append(f"// RUN: %compare %t.kernel %t.reference --rtol {rtol} --atol {atol}\n")
            # The kernel's threads in reverse order within each barrier
            # interval: a race shows as a difference (fa-emulate-threads-on-cpu).
            lines.append('// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90 thread-order=reverse"'
                         " | %mlir-run > %t.reverse\n")
            lines.append(f"// RUN: %compare %t.reverse %t.reference --rtol {rtol} --atol {atol}\n")
        if shared_p:
            lines.append("// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90a | %mlir-run > %t.wgmma\n")
            lines.append(f"// RUN: %compare %t.wgmma %t.reference --rtol {rtol} --atol {atol}\n")
            lines.append('// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a thread-order=reverse"'
                         " | %mlir-run > %t.wgmma-reverse\n")
            lines.append(f"// RUN: %compare %t.wgmma-reverse %t.reference --rtol {rtol} --atol {atol}\n")
            lines.append("// RUN: fa-opt %s --fa-select-tiles=target=sm_90a "
                         '"--fa-distribute-attention=warpgroup-mma=true tma-producer=true overlap-softmax=true"'
                         " | FileCheck %s --check-prefix=SHARED-P\n")
            # P's pairs stored to its own tile, fenced for the async proxy,
            # the warp synced; P V's A read through a descriptor from it.
            lines.append(f"// SHARED-P: memref.alloc() : memref<{bq}x{bkv}x{dtype}, #gpu.address_space<workgroup>>\n")
            lines.append("// SHARED-P: vector.store\n")
            lines.append("// SHARED-P: nvvm.fence.proxy\n")
            lines.append("// SHARED-P: nvvm.bar.warp.sync\n")
            lines.append("// SHARED-P: fa.warpgroup_mma {{.*}} in {{.*}} in {{.*}} {transpose_b}\n")
        if wgmma:
            lines.append("// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90a | %mlir-run > %t.wgmma\n")
            lines.append(f"// RUN: %compare %t.wgmma %t.reference --rtol {rtol} --atol {atol}\n")
            lines.append('// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a thread-order=reverse"'
                         " | %mlir-run > %t.wgmma-reverse\n")
            lines.append(f"// RUN: %compare %t.wgmma-reverse %t.reference --rtol {rtol} --atol {atol}\n")
            # The TMA producer kernel's plain schedule (P V in its own
            # block's step, no turns; the default overlaps P V with the
            # next softmax and takes turns between compute warpgroups).
            lines.append('// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a overlap-softmax=false ping-pong=false"'
                         " | %mlir-run > %t.wgmma-plain\n")
            lines.append(f"// RUN: %compare %t.wgmma-plain %t.reference --rtol {rtol} --atol {atol}\n")
            lines.append('// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a tma-producer=false"'
                         " | %mlir-run > %t.wgmma-cp-async\n")
            lines.append(f"// RUN: %compare %t.wgmma-cp-async %t.reference --rtol {rtol} --atol {atol}\n")
            lines.append("// RUN: fa-opt %s --fa-select-tiles=target=sm_90a "
                         '"--fa-distribute-attention=warpgroup-mma=true tma-producer=true"'
                         " | FileCheck %s --check-prefix=WGMMA\n")
            lines.append("// WGMMA: nvgpu.tma.async.load\n")
            lines.append("// WGMMA: fa.warpgroup_mma {{.*}} {ignore_accumulator}\n")
            lines.append("// WGMMA: fa.warpgroup_mma_wait\n")
            lines.append("// WGMMA: fa.warpgroup_mma {{.*}} {transpose_b}\n")
        if mma and not shared_p:
            # The earlier tensor-core kernel (S and P through shared memory),
            # kept as the baseline the register-resident one is measured
            # against, stays numerically checked.
            lines.append('// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90 register-fragments=false"'
                         " | %mlir-run > %t.shared\n")
            lines.append(f"// RUN: %compare %t.shared %t.reference --rtol {rtol} --atol {atol}\n")
        # Each path on its own against the float64 oracle, which shares no
        # code with fa-opt (the reference and the tiled path share builders).
        checked = ("reference", "tiled") + (() if fma_refused else
                                            ("wgmma",) if shared_p else ("kernel",))
        lines.append("// RUN: %python %S/../Inputs/sweep_oracle.py %s "
                     + " ".join(f"%t.{o}" for o in checked)
                     + " | FileCheck %s --check-prefix=ORACLE\n")
        lines.append("// RUN: fa-opt %s --fa-distribute-attention | FileCheck %s "
                     f"--check-prefix={'MMA' if mma else 'FMA'}\n")
        lines.append("// RUN: fa-opt %s --fa-select-tiles=target=host --fa-tile-attention | FileCheck %s\n")
        for output in checked:
            lines.append(f"// ORACLE: {output}: ORACLE MATCH on\n")
        if mma:
            # FlashAttention-2's register-resident kernel: no f32 tile in
            # shared memory, fragments loaded by ldmatrix, both matmuls on
            # mma.sync, the row statistics combined over a quad by shuffles.
            lines.append("// MMA-NOT: xf32, #gpu.address_space<workgroup>>\n")
            lines.append(f"// MMA: nvgpu.ldmatrix {{{{.*}}}} -> vector<4x2x{dtype}>\n")
            lines.append("// MMA: nvgpu.mma.sync\n// MMA: gpu.shuffle xor\n")
        else:
            lines.append("// FMA-NOT: vector.contract\n")
        if warps > 1:
            lines.append("// CHECK: scf.forall\n// CHECK: scf.forall\n// CHECK: scf.for\n"
                         "// CHECK: {mapping = [#gpu.warp<x>]}\n"
                         "// CHECK: {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}\n"
                         "// CHECK-NOT: fa.attention\n\n")
        else:
            lines.append("// CHECK: scf.forall\n// CHECK: scf.for\n// CHECK-NOT: fa.attention\n\n")
        lines.append("func.func private @printMemrefF32(tensor<*xf32>)\n\n")
        margs = f", %m: {mt}" if mt else ""
        mop = f" mask(%m : {mt})" if mt else ""
        rets = f"({results})" if lse else results
        lines.append(f"func.func @attention(%q: {qt}, %k: {kt}, %v: {vt}{margs}) -> {rets} {{\n")
        lhs = "%o, %l" if lse else "%o"
        lines.append(f"  {lhs} = fa.attention %q, %k, %v{mop} scale = 0.25{attrs}\n")
        lines.append(f"      : {qt}, {kt}, {vt} -> {results}\n")
        lines.append(f"  return {lhs} : {results}\n}}\n\n")
        # Inputs: sin of the linear index; masks from index patterns.
        lines.append(INPUT_FUNCTIONS)
        if mask and mask[0] == "far-bias":
            lines.append(FAR_BIAS_FUNCTION)
        consts = sorted({b, hq, hkv, nq, nk, d, dv, 1} | (set(mask[1]) if mask else set()))
        lines.append("func.func @main() {\n")
        for c in consts:
            lines.append(f"  %c{c} = arith.constant {c} : index\n")
        lines.append("  %isQuery = arith.constant false\n  %isKey = arith.constant true\n")
        tq, vq = make_input(qd, 1, dtype, "isQuery")
        tk, vk = make_input(kd, 2, dtype, "isKey")
        tv, vv = make_input(vd, 3, dtype)
        lines += [tq, tk, tv]
        args = [vq, vk, vv]
        types = [tensor(qd, dtype), tensor(kd, dtype), tensor(vd, dtype)]
        if mask:
            text, value, mtype = make_mask_input(mask, dtype)
            lines.append(text)
            args.append(value)
            types.append(mtype)
        # Cast to the function's (possibly dynamic) types.
        ftypes = [qt, kt, vt] + ([mt] if mt else [])
        call_args = []
        for n, (a, t, ft) in enumerate(zip(args, types, ftypes)):
            if t != ft:
                lines.append(f"  %a{n} = tensor.cast {a} : {t} to {ft}\n")
                call_args.append(f"%a{n}")
            else:
                call_args.append(a)
        res_lhs = "%o, %l" if lse else "%o"
        lines.append(f"  {res_lhs} = call @attention({', '.join(call_args)}) : ({', '.join(ftypes)}) -> {rets}\n")
        ostatic = tensor(od, dtype)
        oval = "%o"
        if ot != ostatic:
            lines.append(f"  %os = tensor.cast %o : {ot} to {ostatic}\n")
            oval = "%os"
        if dtype != "f32":
            lines.append(f"  %ow = arith.extf {oval} : {ostatic} to {tensor(od, 'f32')}\n")
            oval = "%ow"
        lines.append(f"  %op = tensor.cast {oval} : {tensor(od, 'f32')} to tensor<*xf32>\n")
        lines.append("  call @printMemrefF32(%op) : (tensor<*xf32>) -> ()\n")
        if lse:
            lines.append(f"  %lp = tensor.cast %l : {lt} to tensor<*xf32>\n")
            lines.append("  call @printMemrefF32(%lp) : (tensor<*xf32>) -> ()\n")
        lines.append("  return\n}\n")
        with open(os.path.join(OUT, f"sweep-{name}.mlir"), "w") as f:
            f.write("".join(lines))
    if failures:
        sys.exit("inputs whose maxima do not move:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()
