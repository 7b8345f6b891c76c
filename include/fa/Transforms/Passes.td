//===- Passes.td - Passes of fa-opt -------------------------*- tablegen -*-===//
//
// The passes that transform fa.attention. One pass per file under
// lib/Transforms/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_PASSES_TD
#define FA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FADecomposeAttention : Pass<"fa-decompose-attention"> {
  let summary = "Lower fa.attention and fa.attention_backward to unfused linalg on tensors (the reference)";
  let description = [{
    Rewrites every `fa.attention` into the textbook computation on tensors:
    the scores `scale * Q * K^T`, the masks, a row max, `exp`, a row sum, the
    `P * V` contraction and the normalisation, each as a `linalg.generic`, all
    in f32. It materializes the full `[B, Hq, Nq, Nk]` score tensor, so it is
    the executable definition of the op and the reference every faster
    lowering is compared against, not a lowering to use for speed.

    Fully-masked rows give an output of 0 and a logsumexp of `-inf`.
    Grouped key/value heads are read through the index map `h floordiv G`
    when the group size `G = Hq / Hkv` is static; when it is dynamic, K and V
    are gathered per query head first.

    `fa.attention_backward` becomes the textbook backward of that forward
    computation: `P = softmax(S)` from the scores again (the saved output
    and logsumexp are not read, so that the reference checks the lowerings
    that rely on them), `dP = dO * V^T`, `dS = P * (dP - rowsum(dP * P))`,
    `dQ = scale * dS * K`, and per query head `scale * dS^T * Q` and
    `P^T * dO`, summed over the heads of each group into dK and dV. The bias
    gradient is dS summed over the bias's broadcast dims. Fully-masked rows
    have P = 0 and contribute nothing.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FADecomposeAggregatedOps : Pass<"fa-decompose-aggregated-ops"> {
  let summary = "Decompose linalg.softmax and other aggregated linalg ops";
  let description = [{
    Frontend IR may state softmax as `linalg.softmax`, which
    `convert-linalg-to-loops` does not lower. This pass applies upstream's
    `AggregatedOpInterface::decomposeOperation` to every such op left after
    raising, so that the CPU pipeline runs programs that keep one (for
    example because it is not part of an attention, or raising is off).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FATileAttention : Pass<"fa-tile-attention"> {
  let summary = "Lower fa.attention to a tiled, fused online-softmax loop nest";
  let description = [{
    Rewrites every `fa.attention` that carries a `tiling` (from
    `fa-select-tiles`) into FlashAttention-2's loop nest on tensors: an
    `scf.forall` over (batch, head, query block), mapped to `#gpu.block<z, y,
    x>`, around an `scf.for` over the key blocks the block can see, carrying
    the running row max, row sum and f32 accumulator. Tiles have static
    shapes `[block_q, D]`, `[block_kv, D]`, `[block_q, block_kv]` (tails are
    padded and masked), so no tensor larger than a tile is ever created.
    With `warps > 1`, an inner `scf.forall` mapped to `#gpu.warp<x>` splits
    the block's query rows between warps (split-Q), each with its own key
    loop and running state. Causal and window masks bound the key loop per
    query block (or warp); only blocks that a boundary crosses (and the tail)
    evaluate the element mask.
    Rows with no visible key give 0 and a logsumexp of `-inf`. For f16/bf16,
    P is rounded to the input type before `P * V`, as FlashAttention-2 does.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FALowerLinearAttention : Pass<"fa-lower-linear-attention"> {
  let summary = "Lower fa.linear_attention in the cheap order: Q (K^T V), causal by chunks";
  let description = [{
    Rewrites every `fa.linear_attention` so that no [Nq, Nk] tensor exists:

    * not causal: `KV = K^T V` ([D, Dv] per key/value head) and, with
      `normalize`, `z = sum_j K_j`, then `O = scale Q KV / (scale Q z +
      eps)`: O(N d Dv) instead of O(N^2 d);
    * causal: an `scf.for` over chunks of C query rows (the op's `chunk`,
      else the pass's `chunk`) carrying the state `S = sum_j gamma^(..) K_j^T
      V_j` ([D, Dv] per query head) and `z`: within a chunk the small
      [C, C] product with the causal mask and the decay, across chunks
      `scale gamma^(i + 1) Q_i S`, then `S <- gamma^C S + sum_j gamma^(C - 1
      - j) K_j^T V_j`. O(N C d + N d Dv).

    Everything accumulates in f32 and the output is rounded to V's type
    once, as in the reference (fa-decompose-attention), which it equals up
    to the order of the sums (docs/LinearAttention.md).
  }];
  let options = [
    Option<"chunk", "chunk", "int64_t", /*default=*/"64",
           "Query rows per chunk of a causal op without a `chunk` attribute">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FATileAttentionBackward : Pass<"fa-tile-attention-backward"> {
  let summary = "Lower fa.attention_backward to FlashAttention-2's tiled backward pass";
  let description = [{
    Rewrites every `fa.attention_backward` that carries a `tiling` (from
    `fa-select-tiles`, or written by hand) into FlashAttention-2's backward
    pass on tensors, by recomputation: `D = rowsum(dO * O)` first, then an
    `scf.forall` over (batch, kv head, key block) that walks the query heads
    of the group and the query blocks that see the key block, rebuilding
    `P = exp(S - L)` from the saved logsumexp and accumulating `dV += P^T dO`
    and `dK += dS^T Q` with `dS = P * (dP - D)`, `dP = dO V^T`. dQ has a
    pass of its own, an `scf.forall` over (batch, head, query block) around
    the key blocks it sees, so that no block adds into another's rows: the
    result is deterministic and needs no atomics, at the price of computing
    S, P and dP twice (docs/Tiling.md). Every tensor is tile-sized apart
    from the [B, Hq, Nq] row term D; causal and window masks skip whole
    blocks in both passes; rows whose logsumexp is `-inf` contribute zero.
    For f16/bf16, P and dS are rounded to the input type before the matmuls
    that read them, as FlashAttention-2 does. The bias gradient
    (`grad_mask`) gets a third grid over the bias's own tiles: each block
    walks what its tile broadcasts over (batch, heads, the key blocks its
    rows see, or the query blocks that see its keys) and sums dS, so it too
    is deterministic.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FAFoldMasksIntoModifiers : Pass<"fa-fold-masks-into-modifiers"> {
  let summary = "Turn an fa.attention (or fa.attention_backward) mask computed from positions into score_mod or mask_mod";
  let description = [{
    A frontend computes ALiBi (`slope[h] * (k - q)`), T5's relative buckets
    (a table read at a bucket of `k - q`), prefix-LM and document masks
    (`doc[q] == doc[k]`) as tensors from position ranges (`linalg.index`,
    constant aranges) and small tensors, then adds or applies them to the
    scores: `[B, H, Nq, Nk]` values that the fused kernel would read in every
    tile. This pass follows the computation of each `fa.attention`'s mask
    operand back through elementwise ops (linalg generics, named
    elementwise ops, `arith` on tensors, TOSA's elementwise ops), transposes,
    broadcasts and unit-dim reshapes, to tensors it can read at an index
    (function arguments, constants) of which none is as large as the mask.
    When it gets there, the element `mask[b, h, q, k]` is computed inline
    instead: a float mask becomes `score_mod` (`s + bias`, after any
    score_mod already there), an i1 keep-mask becomes `mask_mod` (anded with
    any already there), and the mask operand is dropped; the computation
    that only fed it is erased. The result is the same, element for
    element.

    Left as they are (with a remark under `explain`): masks read from
    tensors as large as the mask itself (a materialized bias passed in),
    masks with `mask_fill` (their hidden keys keep a weight, so they are no
    `mask_mod`), dynamic shapes, and computations the pass does not follow.
    `fa-raise-attention`'s pipelines run it right after raising.

    `fa.attention_backward` (a raised training graph's) is folded the same
    way, unless it computes the mask's gradient (`grad_mask`), so that the
    forward and backward ops of one attention read the same regions.

    A folded mask_mod that is a causal mask or a sliding window becomes the
    attribute: by the ops' canonicalization where it is spelled as bounds
    `k <= q + c`, and otherwise, for static shapes (up to 65,536 rows), by
    proving every row causal with the interval evaluation of the tiled
    lowering (each row sees all of [0, q + delta] and none after, delta = 0
    or Nk - Nq).
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark at each mask left as an operand, saying why">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FANormalizeFrontend : Pass<"fa-normalize-frontend", "ModuleOp"> {
  let summary = "Bring a frontend's attention functions to one form before fa-raise-attention matches them";
  let description = [{
    Spellings of one attention that differ only in where a frontend put its
    helpers and its unit dims are made one before matching, in the
    functions that compute an exponential (every other function is left as
    it is):

    - calls to private helpers with a body (JAX export keeps a jitted
      `softmax`, `_where`, `einsum` as functions) are inlined, and helpers
      left without a caller are erased;
    - a linalg contraction whose operand is a linear combination of
      tensors computed from exponentials (P₁ − λ·P₂ of the Differential
      Transformer, a weighted average of two softmaxes) is distributed over
      it: one contraction per tensor, combined elementwise by the same body
      (a contraction is linear in each operand). The combination must be
      linear and homogeneous in those tensors (sums, differences, products
      and quotients with factors that do not depend on them), and every
      factor constant along the dims the contraction sums; in TOSA, a
      `tosa.matmul` operand that is, under reshapes, `add`/`sub`/`negate`
      and `mul` by one-element factors of such tensors;
    - elementwise linalg.generic ops on an expanded view of a tensor that
      is collapsed back with the same reassociation (SAM adds relative-
      position terms to the scores viewed as `[B, qh, qw, kh, kw]`) are
      computed on the collapsed shape: the chain reads the tensor itself,
      every other operand is broadcast to the view and collapsed alike (a
      collapse only renames positions); not where an operand is computed
      from the view (a row max), the body reads `linalg.index`, or a
      transpose lies between;
    - `linalg.transpose` and `linalg.broadcast` become generics, so that
      the unit-dim folding below reaches them too;
    - dims of static size 1 are dropped from linalg ops (upstream's
      unit-extent folding, `linalg-fold-unit-extent-dims`): a `[1, H, N, N]`
      softmax reached through a reshape merging `[1, H, 2]` into one batch
      dim reads as `[H, N, N]`, as the recognizer's batch reshapes expect.

    Each keeps every value the program computes. `fa-cpu-pipeline` and
    `fa-gpu-pipeline` (with raise=true) run `fa-raise-attention`, then this
    pass on what is left unraised, then `fa-raise-attention` again: run it
    the same way in your own pipeline. (Not before the first raise: a
    decode step's Nq = 1 is a unit dim too, and the matcher reads it as the
    query axis.) See docs/Recognition.md ("Normalization before
    matching").
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
    "mlir::arith::ArithDialect", "mlir::affine::AffineDialect",
  ];
}

def FARaiseAttention : Pass<"fa-raise-attention"> {
  let summary = "Recognize attention in linalg and TOSA and rewrite it to fa.attention or fa.linear_attention";
  let description = [{
    Finds `softmax(scale * Q * K^T + mask) * V` spelled with linalg (named
    ops, generics, `linalg.softmax`), TOSA ops, or arith/math ops on whole
    tensors, and rewrites each instance into one `fa.attention` with the
    exact scale and mask. Each op is first read in one normalized form
    (constants folded in each op's own type, identity steps dropped); the
    match is rooted at the `P * V` contraction and checks every axis back to
    `Q * K^T` before anything is rewritten; a candidate that fails any check
    is left exactly as it was. Q, K, V, the mask and the output may hold
    their dims in any order: the rewrite transposes them to the op's
    `[B, H, N, D]` and the result back. See docs/Recognition.md for every
    accepted spelling and every refusal.

    Where the frontend's result on rows with no visible key differs from the
    op's (0), the rewrite keeps the frontend's: NaN for `-inf` masks (and for
    a dynamic key length that is not 0), the mean of V for masks filled with
    the lowest finite value. It does so with an elementwise fix-up on the
    op's logsumexp, so the raised program computes exactly what the input
    did.

    In a training graph P also feeds attention's backward (its autodiff:
    `dV = P^T dO`, `dP = dO V^T`, softmax's backward in torch's or JAX's
    form, the mask's and the scale's backward, `dQ = dS K`, `dK = dS^T Q`).
    Those users are matched too, and the whole joint graph becomes
    `fa.attention` plus `fa.attention_backward` on its O and logsumexp, so
    that P is never materialized; anything else computed from P refuses the
    candidate.

    Linear attention, `(phi(Q) phi(K)^T) V` with no softmax between the
    products, becomes `fa.linear_attention`: between the two products only
    a constant scale, a causal mask (a select with 0 or a product with a 0/1
    mask), RetNet's decay `gamma^(i-j)` and the row normalization
    `W / (sum_j W + eps)` (before or after the product) are accepted;
    anything else is refused with its reason (docs/LinearAttention.md).
  }];
  let options = [
    Option<"inlineHelpers", "inline-helpers", "bool", /*default=*/"true",
           "Before matching, inline the calls to private functions with a "
           "body in functions that compute an exponential (a softmax, "
           "`where` or `einsum` kept as a function by JAX export), and erase "
           "the helpers left without a caller; only where the pass runs on "
           "a module">,
    Option<"shareScores", "share-scores", "bool", /*default=*/"true",
           "Raise attention whose scores or probabilities are also used "
           "outside it (returned as attention weights, read by another op): "
           "their computation stays for those uses and O comes from the "
           "fused op. Exact, but the shared part is computed twice; false "
           "refuses such candidates with a remark instead">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark at each candidate softmax that is not raised, "
           "naming the check that failed, and at every exp or softmax that "
           "reaches a contraction the match never reached">,
    Option<"printCounts", "print-counts", "bool", /*default=*/"false",
           "Emit one remark with the counts of candidates, raised and "
           "rejections by reason: the pass statistics, which a release "
           "build of LLVM (Debian's) compiles out of -mlir-pass-statistics">,
  ];
  let statistics = [
    Statistic<"numCandidates", "candidates",
              "Contractions fed by a softmax (candidate P * V)">,
    Statistic<"numRaised", "raised", "Candidates rewritten to fa.attention">,
    Statistic<"numRejectedStructure", "rejected-structure",
              "Rejected: an op in the chain is not the expected one">,
    Statistic<"numRejectedSoftmaxAxis", "rejected-softmax-axis",
              "Rejected: softmax, max or sum over a dim other than the key dim">,
    Statistic<"numRejectedContraction", "rejected-contraction",
              "Rejected: a contraction over the wrong dims or into a non-zero init">,
    Statistic<"numRejectedLayout", "rejected-layout",
              "Rejected: Q, K, V, mask or output not in [batch..., N, D] order">,
    Statistic<"numRejectedExternalUse", "rejected-external-use",
              "Rejected: scores or probabilities used outside the pattern">,
    Statistic<"numRejectedScale", "rejected-scale",
              "Rejected: scale not a positive compile-time scalar">,
    Statistic<"numRejectedMask", "rejected-mask",
              "Rejected: a mask the op cannot state exactly">,
    Statistic<"numRejectedType", "rejected-type",
              "Rejected: element types fa.attention does not take">,
    Statistic<"numRejectedShape", "rejected-shape",
              "Rejected: ranks or dynamic head dims fa.attention does not take">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::fa::FADialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FAShareAttentionFunctions : Pass<"fa-share-attention-functions", "::mlir::ModuleOp"> {
  let summary = "Compile each distinct attention once: identical ones call one function";
  let description = [{
    Groups the module's `fa.attention` ops by signature: operand and result
    types and every attribute (scale, masks, window, tiling, ...). Each
    group of two or more becomes one private function `@__fa_attention_<n>`
    holding a single `fa.attention`, and every op of the group a
    `func.call` of it. Everything after this pass (the kernel, its lowering,
    ptxas) then runs once per distinct attention, not once per layer: a
    model whose 128 layers share one attention shape lowers one kernel.
    Attentions that occur once stay where they are. Runs after
    `fa-select-tiles` in `fa-gpu-pipeline`, so that the tiling is part of
    the signature.

    Example:

    ```mlir
    %o0 = fa.attention %q, %k, %v scale = 0.125 : ...
    %o1 = fa.attention %o0, %k, %v scale = 0.125 : ...
    // becomes
    %o0 = call @__fa_attention_0(%q, %k, %v) : (...) -> ...
    %o1 = call @__fa_attention_0(%o0, %k, %v) : (...) -> ...
    func.func private @__fa_attention_0(%q: ..., %k: ..., %v: ...) -> ... {
      %o = fa.attention %q, %k, %v scale = 0.125 : ...
      return %o : ...
    }
    ```
  }];
  let statistics = [
    Statistic<"numShared", "shared-attentions",
              "fa.attention ops replaced by a call of a shared function">,
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
  ];
}

def FASelectTiles : Pass<"fa-select-tiles", "::mlir::ModuleOp"> {
  let summary = "Choose the fused kernel's tile sizes from the target's on-chip memory";
  let description = [{
    Annotates every `fa.attention` with `tiling = #fa.tiling<block_q,
    block_kv, warps, stages, smem_bytes>`, chosen for the target:

    * `policy=fa1`: FlashAttention's formula, B_c = ceil(M / 4d) and
      B_r = min(B_c, d) with M the per-block shared memory in elements,
      rounded down to the MMA granule, kept within M and clamped to the
      sequence length;
    * `policy=fa2`: a search over {64, 128}^2 (16 to 256 when none fits),
      1 to 8 warps and 1 to 3 stages, keeping the candidates whose shared
      memory and registers fit and ranking them by the cost model of
      docs/Targets.md;
    * `policy=auto` (default): fa2, with fa1's values reported beside it.

    A tiling already on the op wins but is checked against the target. The
    target comes from the `target` option (a preset name), else the
    module's DLTI (`#dlti.target_system_spec<"GPU" = ...>`, keys in
    docs/Targets.md), else a gpu.module's `#nvvm.target` chip, else sm_80.
    `report=<file>` or `report=-` writes one JSON object per op and line.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Target preset (sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, "
           "sm_120, gfx90a, gfx942, gfx950, host); overrides DLTI and "
           "#nvvm.target">,
    Option<"policy", "policy", "std::string", /*default=*/"\"auto\"",
           "How to choose tiles: fa1, fa2 or auto (fa2 with fa1 reported)">,
    Option<"requireLinearChunk", "require-linear-chunk", "bool",
           /*default=*/"true",
           "A GPU target's linear attention kernel needs a chunk that fits "
           "shared memory: an error at the op when none does; false leaves "
           "such an op without a chunk, for the host's lowering "
           "(fa-cpu-pipeline's gpu-kernel mode)">,
    Option<"hostCacheBytes", "host-cache-bytes", "int64_t", /*default=*/"0",
           "The host target's cache per core in bytes, its \"shared "
           "memory\" (0: read from /sys/devices/system/cpu/cpu0/cache), so "
           "that the host's tiles need not depend on the machine">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write one JSON line per fa.attention to this file (- for stdout)">,
    Option<"maxBlockKV", "max-block-kv", "int64_t", /*default=*/"0",
           "Testing aid: cap the chosen block_kv at this many keys (0: no "
           "cap), so that short sequences cross several key blocks; a "
           "tiling already on the op is left as written">,
    Option<"minStages", "min-stages", "int64_t", /*default=*/"0",
           "Testing aid: raise the chosen stages to at least this many where "
           "the tiling still fits (0: as chosen), so that small shapes also "
           "rotate their K/V buffers (and prefetch with cp.async where the "
           "kernel can); a tiling already on the op is left as written">,
    Option<"minKVSplits", "min-kv-splits", "int64_t", /*default=*/"0",
           "Testing aid: split the keys at least this many ways (0: as "
           "chosen, at most 128), so that small shapes also take the "
           "split-KV path and its merge; a tiling already on the op is left "
           "as written">,
    Option<"warpgroupTiles", "warpgroup-tiles", "bool", /*default=*/"false",
           "Testing aid: round block_q up to whole 64-row warpgroups of "
           "16-row warps (64 or 128 rows, warps = block_q / 16) where the "
           "tiling still fits, so that short sequences also run sm_90a's "
           "wgmma kernels; a tiling already on the op is left as written">,
    Option<"registerFragments", "register-fragments", "bool",
           /*default=*/"true",
           "Count the forward kernel fa-distribute-attention builds with "
           "this register-fragments: false keeps S and P in shared memory, "
           "whose tiles the shared memory then counts (fa-gpu-pipeline "
           "register-fragments)">,
    Option<"tmaProducer", "tma-producer", "bool", /*default=*/"true",
           "On sm_90a, report the kernel fa-gpu-pipeline builds by default: "
           "the TMA producer kernel (gpu_kernel \"wgmma-tma-ws\") where the "
           "op allows it; false: the cp.async wgmma kernel (fa-gpu-pipeline "
           "tma-producer=false)">,
    Option<"overlapSoftmax", "overlap-softmax", "bool", /*default=*/"true",
           "On sm_90a, report the TMA producer kernel's schedule as "
           "fa-gpu-pipeline builds it by default: each key block's P V "
           "overlapping the next block's softmax (fa-distribute-attention "
           "overlap-softmax)">,
    Option<"pingPong", "ping-pong", "bool", /*default=*/"true",
           "On sm_90a, report the compute warpgroups' ping-pong as "
           "fa-gpu-pipeline builds it by default (fa-distribute-attention "
           "ping-pong)">,
  ];
  let dependentDialects = ["::mlir::fa::FADialect"];
}

def FAConfirmTilesWithPtxas
    : Pass<"fa-confirm-tiles-with-ptxas", "::mlir::ModuleOp"> {
  let summary = "Compile each tiled attention's kernels and retile those "
                "ptxas spills";
  let description = [{
    The tile model (docs/Targets.md) estimates a kernel's registers per
    thread from its fragments and loop state; it is fitted to ptxas, not
    derived from it, and a shape it was not fitted on can spill. This pass
    asks ptxas. For every `fa.attention` and `fa.attention_backward` that
    carries a tiling, it compiles a module holding that op alone through
    the rest of fa-gpu-pipeline (with this pass's options), assembles every
    kernel with the toolkit's ptxas (`-v`), and reads the spill bytes. A
    kernel that spills is retiled: the model chooses again with the chip's
    registers per thread lowered below the spilled tiling's estimate (or,
    where no tiling is estimated lighter, takes the spilled tile with half
    its keys, then half its rows), and the new tiling is compiled in turn,
    at most `max-retiles` times. A remark at the op says what spilled and
    what replaced it.

    A tiling that the model would not have chosen (written on the op by
    the user) is kept: a warning says that it spills. Where ptxas is not
    found, or the trial compilation fails (the real one then reports why),
    the op is left as it is.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_80\"",
           "NVIDIA chip: the tile preset, the PTX target and ptxas's -arch">,
    Option<"cudaToolkit", "cuda-toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit whose bin/ptxas assembles the kernels (default: "
           "$CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, else /usr/local/cuda)">,
    Option<"barePointers", "bare-pointers", "bool", /*default=*/"true",
           "As fa-gpu-pipeline's bare-pointers">,
    Option<"registerFragments", "register-fragments", "bool",
           /*default=*/"true", "As fa-gpu-pipeline's register-fragments">,
    Option<"tmaProducer", "tma-producer", "bool", /*default=*/"true",
           "As fa-gpu-pipeline's tma-producer">,
    Option<"overlapSoftmax", "overlap-softmax", "bool", /*default=*/"true",
           "As fa-gpu-pipeline's overlap-softmax">,
    Option<"pingPong", "ping-pong", "bool", /*default=*/"true",
           "As fa-gpu-pipeline's ping-pong">,
    Option<"indexBitwidth", "index-bitwidth", "unsigned", /*default=*/"64",
           "As fa-gpu-pipeline's index-bitwidth">,
    Option<"maxRetiles", "max-retiles", "unsigned", /*default=*/"4",
           "The most tilings tried after the first for one op">,
  ];
}

def FADistributeAttention : Pass<"fa-distribute-attention"> {
  let summary = "Lower fa.attention to a block- and thread-mapped GPU kernel";
  let description = [{
    Rewrites every `fa.attention` that carries a `tiling` into the
    FlashAttention-2 kernel, written with upstream ops (scf, memref, vector,
    gpu.barrier) and with its parallelism stated by mapping attributes: an
    `scf.forall` over (batch, head, query block) mapped to `#gpu.block<z, y,
    x>`, shared tiles of Q, K and V (`stages` K/V buffers, rows padded by 16
    bytes) in `#gpu.address_space<workgroup>`, and an `scf.forall` over
    `32 * warps` threads mapped to `#gpu.thread<x>`. Thread t owns query row
    t (warp w owns rows 32w to 32w + 31: split-Q); its running max, running
    sum and f32 accumulator stay in registers. Tiles are copied 16 bytes per
    thread and step; key blocks hidden by causal or window masks are never
    visited. The result runs on a CPU after `fa-emulate-threads-on-cpu` and
    on a GPU after `fa-lower-to-gpu`. With `stages >= 2` and
    `async-copies` (sm_80 and later), K and V tiles are prefetched with
    `nvgpu.device_async_copy` (cp.async) into the next buffer while the
    current one is computed. With `tensor-cores` (sm_80 and later), f16 or
    bf16 operands and a tiling of whole 16-row tiles per warp, the kernel is
    FlashAttention-2's register-resident one (`register-fragments`, the
    default): warps split the query rows, Q·Kᵀ and P·V are
    `nvgpu.mma.sync` m16n8k16 on fragments loaded by `nvgpu.ldmatrix`
    (`.trans` for V), the scale, masks and online softmax work on S's
    accumulator fragments, a row's max and sum are combined over the four
    lanes of a quad with `gpu.shuffle xor` 1 and 2, P's A fragments are S's
    accumulators rounded in pairs, and O stays in accumulator fragments
    until it is stored; only Q, K and V are in shared memory, unpadded with
    XOR-swizzled 16-byte chunks. With `register-fragments=false` the
    earlier tensor-core kernel: warp-level 16x8x16 `vector.contract`s on
    shared tiles (which `fa-warp-matmuls-to-nvgpu` turns into ldmatrix and
    mma.sync), S and P through shared memory and the softmax by row. See
    docs/GPU.md.
  }];
  let options = [
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"true",
           "Prefetch K/V tiles with cp.async (nvgpu.device_async_copy) when "
           "the tiling has two or more stages (needs sm_80 or later)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Multiply with warp-level 16x8x16 matmuls (nvgpu mma.sync after "
           "fa-warp-matmuls-to-nvgpu) when the operands are f16 or bf16 "
           "and the tiling allows (needs sm_80 or later)">,
    Option<"warpgroupMma", "warpgroup-mma", "bool", /*default=*/"false",
           "With register-fragments: multiply with Hopper's warpgroup "
           "matmul (fa.warpgroup_mma, wgmma; needs sm_90a) where the tiling "
           "allows (D and Dv multiples of 64, warps of 16 rows in 64-row warpgroups)">,
    Option<"tmaProducer", "tma-producer", "bool", /*default=*/"false",
           "With warpgroup-mma: Q, K and V arrive by TMA (nvgpu.tma.async.load) "
           "that one producer warpgroup issues into a ring of K/V stages "
           "guarded by full and empty mbarriers; the op's page_table, "
           "kv_lengths or packed sequences keep the cp.async loads (a remark "
           "says so)">,
    Option<"overlapSoftmax", "overlap-softmax", "bool", /*default=*/"false",
           "With tma-producer and two or more stages: issue each key "
           "block's P V in the next block's step, behind its Q K^T, so "
           "that it runs while that block's softmax does (FlashAttention-3's "
           "intra-warpgroup overlap, wgmma.wait_group 1)">,
    Option<"pingPong", "ping-pong", "bool", /*default=*/"false",
           "With tma-producer and two or more compute warpgroups: the "
           "warpgroups take turns issuing their matmuls (named barriers, "
           "bar.sync / bar.arrive), so that one's softmax runs while "
           "another's matmuls do (FlashAttention-3's ping-pong)">,
    Option<"registerFragments", "register-fragments", "bool", /*default=*/"true",
           "With tensor-cores: keep S and P in mma.sync fragments "
           "(FlashAttention-2's register-resident softmax, quad shuffles) "
           "instead of passing them through shared memory">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FADistributeAttentionBackward : Pass<"fa-distribute-attention-backward"> {
  let summary = "Lower fa.attention_backward to FlashAttention-2's backward "
                "GPU kernels (tensor cores)";
  let description = [{
    Rewrites every `fa.attention_backward` that carries a `tiling` into
    three block- and thread-mapped kernels with the contract of
    `fa-distribute-attention` (`scf.forall` over `#gpu.block<z, y, x>`
    around one over `#gpu.thread<x>`, tiles in workgroup memory):

    1. `D = rowsum(dO * O)`, one thread per query row, into an f32
       workspace `[B, Hq, Nq]`;
    2. dK and dV: a block per (batch, kv head, key block) keeps the key
       block's K and V in shared memory and streams the query blocks that
       see it (of every query head of the group) past them, `cp.async`
       with `stages >= 2`; warps split the keys; `Sᵀ = K·Qᵀ` and
       `dPᵀ = V·dOᵀ` are `nvgpu.mma.sync` m16n8k16 on `nvgpu.ldmatrix`
       fragments, `Pᵀ = exp(scale·Sᵀ + mask − L)` and `dSᵀ = Pᵀ∘(dPᵀ − D)`
       are computed on the accumulator fragments, and `dV += Pᵀ·dO`,
       `dK += dSᵀ·Q` take Pᵀ and dSᵀ as A operands straight from the
       registers (rounded in pairs), dO and Q through `ldmatrix.trans`;
    3. dQ: a block per (batch, head, query block) keeps Q and dO and
       streams the visible key blocks; `S = Q·Kᵀ`, `dP = dO·Vᵀ`, dS as
       above, `dQ += dS·K`.

    4. with `grad_mask`, dBias: a block per tile of the bias walks every
       key block and every (batch, head) the bias broadcasts over, and sums
       dS in f32 fragments (biases broadcast over batch or heads; not over
       query rows or keys).

    dQ has a kernel of its own, so every gradient row is summed by one
    block in a fixed order: deterministic, no atomics (dBias too). Causal
    and window masks skip whole blocks in the dK/dV and dQ kernels; rows
    whose logsumexp is `-inf` contribute zero. The kernels need f16 or
    bf16 operands, `tensor-cores` (sm_80 and later), D and Dv multiples of
    16, block_q and block_kv multiples of 16; each takes the most warps (up
    to the tiling's) that own whole 16-row fragment tiles.
    An op it cannot take is an error, or with `require-kernel=false` is
    left for `fa-tile-attention-backward`. See docs/GPU.md.
  }];
  let options = [
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"true",
           "Prefetch the streamed tiles with cp.async when the tiling has "
           "two or more stages (needs sm_80 or later)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "The chip has mma.sync m16n8k16 (sm_80 or later)">,
    Option<"requireKernel", "require-kernel", "bool", /*default=*/"true",
           "Report an op the kernel cannot take as an error; with false, "
           "leave it for fa-tile-attention-backward">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FADistributeLinearAttention : Pass<"fa-distribute-linear-attention"> {
  let summary = "Lower fa.linear_attention to a chunked GPU kernel (tensor "
                "cores)";
  let description = [{
    Rewrites every `fa.linear_attention` into one block- and thread-mapped
    kernel with the contract of `fa-distribute-attention` (`scf.forall` over
    `#gpu.block<z, y, x>` around one over `#gpu.thread<x>`, tiles in
    workgroup memory), which runs on a CPU after `fa-emulate-threads-on-cpu`:
    one block per (batch, query head) walks the sequence in chunks of the
    op's `chunk` rows (chosen by `fa-select-tiles` from the target's shared
    memory) and carries the state `S = Σ_j γ^(c0−1−j) K_jᵀ V_j` in f32 in
    shared memory. Per chunk, four warps take 16 query rows at a time:
    `Q·S` (S rounded to Q's type, each column scaled by a power of two
    that keeps it in f16's range and multiplied back in f32), the chunk's
    weights `scale·Q·Kᵀ` masked causally and decayed on f32 fragments,
    `W·V` with W's fragments as A operands; then the warps update S by
    16-column slabs, `S = γ^C·S + (γ^(C−1−j) K_j)ᵀ·V`. All products are
    `nvgpu.mma.sync` m16n8k16 on `nvgpu.ldmatrix` fragments. Normalization
    adds a column of ones to V, so that the products also carry the row
    sums and `z`. Not causal: S over all keys first, then `Q·S` chunk by
    chunk. Needs f16 or bf16 Q, K and V, `tensor-cores` (sm_80 and later),
    D and Dv multiples of 16, a chunk that is a multiple of 16 and static
    head counts; an op it cannot take is an error at the op, or with
    `require-kernel=false` is left for `fa-lower-linear-attention`. See
    docs/LinearAttention.md.
  }];
  let options = [
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "The chip has mma.sync m16n8k16 (sm_80 or later)">,
    Option<"requireKernel", "require-kernel", "bool", /*default=*/"true",
           "Report an op the kernel cannot take as an error; with false, "
           "leave it for fa-lower-linear-attention">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FAStoreBF16AsI16 : Pass<"fa-store-bf16-as-i16", "::mlir::ModuleOp"> {
  let summary = "Retype bf16 data movement in the LLVM dialect as i16 for "
                "hosts without bf16";
  let description = [{
    Part of `fa-cpu-pipeline`, after the conversion to the LLVM dialect and
    `arith-expand{include-bf16=true}`. On hosts without bf16 arithmetic
    LLVM promotes each bf16 element to f32 and back (one `__truncsfbf2`
    call per element of a `bitcast <16 x bfloat> to <16 x i16>`), which
    made instruction selection take minutes on the emulated bf16 GPU
    kernels. When every remaining operation on bf16 values only moves data
    (loads, stores, GEPs, element and aggregate inserts and extracts,
    shuffles, selects, constants, bitcasts, masked loads and stores,
    branches), this pass gives those values i16 types with the same bits
    and drops the bitcasts that become no-ops. If any operation computes on
    bf16 (arithmetic, fpext, fptrunc, a call), or a function's signature
    holds bf16 (its ABI would change), it changes nothing.

    Example:

    ```mlir
    %v = llvm.load %p : !llvm.ptr -> vector<8xbf16>
    %i = llvm.bitcast %v : vector<8xbf16> to vector<8xi16>
    // becomes
    %v = llvm.load %p : !llvm.ptr -> vector<8xi16>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def FAEmulateThreadsOnCPU : Pass<"fa-emulate-threads-on-cpu"> {
  let summary = "Split thread-mapped loops at their barriers so they run on a CPU";
  let description = [{
    Makes a kernel written as thread-mapped `scf.forall` loops with
    `gpu.barrier` runnable sequentially: each loop is split at its barriers
    into one loop per phase (barriers inside an `scf.for` directly in the
    thread loop split that loop's body), values that live across a barrier
    move through one private slot per thread, and workgroup memory becomes
    ordinary memory. A loop body that does not end in a barrier runs its
    last phase together with the next iteration's first, as the GPU may
    (loop rotation), so a buffer refilled while another thread still reads
    it shows. cp.async copies (`nvgpu.device_async_copy`) land as late as
    PTX allows: each thread queues its copies, poisons their destinations
    (NaN) and writes them at the `nvgpu.device_async_wait` that retires
    their group. Warp collectives (`nvgpu.ldmatrix`, `nvgpu.mma.sync`
    m16n8k16 with f16/bf16 fragments, `gpu.shuffle xor`) are emulated lane
    by lane as PTX defines them: each lane stores what it contributes in
    its own slot and, after a barrier, computes only its own elements from
    the slots of the lanes that hold them; independent collectives share
    one barrier, which orders one warp's lanes only, so the intervals it
    separates run warp by warp. This is how the GPU kernel's numbers are
    tested with mlir-runner. Barriers and collectives in other places,
    and collectives it does not model, are reported. Each cp.async copy
    that reads any element also checks, when it is issued, that what it
    reads lies in its source (on a GPU a read past a tensor faults or
    returns another tensor's data): the first that does not is reported on
    stderr with its indices and the program exits with status 1
    (`check-async-sources`, default true).

    With `thread-order=reverse` or `thread-order=shuffle` (a permutation
    drawn from `seed`), the threads of every interval between barriers run
    in that order instead of 0, 1, 2, ... (and the warps of warp-by-warp
    intervals too): a kernel without a race computes
    the same numbers in every order, and a missing barrier or a read of
    another thread's data too early shows as a difference.
  }];
  let options = [
    Option<"threadOrder", "thread-order", "std::string", /*default=*/"\"forward\"",
           "The order in which each interval's threads run: forward, reverse "
           "or shuffle (a permutation drawn from seed)">,
    Option<"seed", "seed", "unsigned", /*default=*/"1",
           "The permutation of thread-order=shuffle">,
    Option<"checkAsyncSources", "check-async-sources", "bool",
           /*default=*/"true",
           "Check at run time that each cp.async copy reads within its "
           "source (needs the pass on a module)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FAGuardKernelOutputs : Pass<"fa-guard-kernel-outputs", "::mlir::ModuleOp"> {
  let summary = "Surround the buffers a kernel grid writes with checked guards, on a CPU";
  let description = [{
    For the CPU emulation of the GPU kernels: each buffer allocated outside
    a `#gpu.block`-mapped `scf.forall` and written inside one becomes a view
    into an allocation larger on each side of each dimension (one element;
    64 bytes on the innermost, which keeps rows as aligned as before),
    filled with a sentinel NaN. After the kernel (before the buffer is
    freed, or at the end of its block) every element of that guard is
    compared with the sentinel; one that changed is printed on stderr as a
    position of the output (-1 or the dimension's size on the side that was
    crossed) and the program exits with status 1 (libc's fprintf and exit,
    called through the LLVM dialect). A store one row or one column out of bounds
    thus fails by numbers, saying where, instead of corrupting the
    neighbouring memory unseen. Buffers used in ways that depend on their
    layout (other than loads, stores, vector transfers, cp.async, subviews,
    copies and `bufferization.to_tensor`), or freed other than once in
    their own block, are left as they are.

    Example:

    ```mlir
    %out = memref.alloc() : memref<2x16xf32>
    scf.forall (%b) in (1) { ... memref.store %x, %out[%r, %c] ... }
        {mapping = [#gpu.block<x>]}
    // becomes
    %padded = memref.alloc() {alignment = 64} : memref<4x48xf32>
    linalg.fill ins(%nan : f32) outs(%padded : memref<4x48xf32>)
    %out = memref.subview %padded[1, 16] [2, 16] [1, 1]
    scf.forall ... (unchanged)
    // the guard loop: any element of %padded outside %out that is not
    // %nan prints its position and exits
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def FAAllocateDeviceBuffers : Pass<"fa-allocate-device-buffers",
                                   "::mlir::func::FuncOp"> {
  let summary = "Allocate the buffers the kernels write in device memory, and free the temporaries";
  let description = [{
    After `fa-lower-to-gpu`, in each host function: every `memref.alloc`
    whose buffer (or a view of it) a `gpu.launch` uses, and that no host op
    reads or writes, becomes a `gpu.alloc` (device memory, the runtime's
    `mgpuMemAlloc`): a kernel cannot use a host `malloc`. A buffer the
    function returns (the attention's O and logsumexp) is the caller's to
    free (`mgpuMemFree`, `cudaFree`); every other one (the split-KV
    workspace) gets a `gpu.dealloc` after its last use, which with the
    synchronous launches the pipeline emits is after the last kernel that
    reads it. An allocation that host code also touches is left alone with
    a remark saying why: moving it to the device would make the host read
    device memory.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
  ];
}

def FALowerToGPU : Pass<"fa-lower-to-gpu"> {
  let summary = "Map block- and thread-mapped scf.forall loops onto gpu.launch";
  let description = [{
    Turns each `scf.forall` mapped to `#gpu.block` into a `gpu.launch` whose
    grid is the loop's trip counts (dynamic ones included), inlines the
    `#gpu.thread<x>` loops inside it over `gpu.thread_id x`, and places the
    block's workgroup-memory tiles in static shared memory (workgroup
    attributions) up to 48 KB, or in `gpu.dynamic_shared_memory` with the
    launch's dynamic size above that. Runs on memrefs. With
    `static-buffers=true` (what `fa-gpu-pipeline` sets with its default
    bare-pointer kernel ABI) a buffer of dynamic shape used by a kernel is
    reported at the loop.
  }];
  let options = [
    Option<"staticBuffers", "static-buffers", "bool", /*default=*/"false",
           "Report kernels that use buffers of dynamic shape (needed for the "
           "bare-pointer kernel ABI)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def FAWarpMatmulsToNVGPU : Pass<"fa-warp-matmuls-to-nvgpu"> {
  let summary = "Turn the GPU kernel's warp-level matmuls into nvgpu mma.sync";
  let description = [{
    Converts each `vector.contract` inside a `gpu.launch` or `gpu.func`
    (the 16x16 by 8x16 into 16x8 matmuls of the shared-memory tensor-core
    kernel, `fa-distribute-attention register-fragments=false`, which every
    lane of a warp computes in full before this pass; the default kernel is
    written with nvgpu ops already and has none) into lane-level
    `nvgpu.ldmatrix` (`.trans` for transposed reads of 16-bit tiles) and
    `nvgpu.mma.sync` m16n8k16, and their shared-memory reads and writes into
    per-lane fragment accesses, for f16 and bf16 tiles. It applies upstream's
    vector-to-nvgpu conversion to each contraction's use-def slice rather
    than to the whole kernel, because the upstream pass gives up on a
    function that holds scalar arithmetic of the kinds it converts for WMMA
    (every softmax does); bf16 slices, which upstream's conversion has no
    fragment type for, go through it as f16 and come out retyped. Runs after
    `fa-lower-to-gpu`; a contraction that cannot be converted is reported.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FALowerExp2ToNVVM : Pass<"fa-lower-exp2-to-nvvm"> {
  let summary = "Lower approximate math.exp2 to ex2.approx.ftz.f32";
  let description = [{
    Rewrites each f32 `math.exp2` (scalar or 1-D vector) that carries the
    `afn` fast-math flag into the NVVM intrinsic
    `llvm.nvvm.ex2.approx.ftz.f`: FlashAttention-2's one-instruction
    exponential, which the kernels' softmax asks for. Other exponentials
    are left to upstream's libdevice lowering. Runs in `fa-gpu-pipeline`
    inside the outlined gpu.module, before `convert-gpu-to-nvvm`.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FANarrowKernelIndices : Pass<"fa-narrow-kernel-indices", "ModuleOp"> {
  let summary = "Give gpu.modules whose kernels address less than 2^31 "
                "elements a 32-bit index";
  let description = [{
    Attaches `#dlti.dl_spec<index = 32 : i32>` to each `gpu.module` in
    which 32-bit index arithmetic cannot overflow: every kernel takes its
    memrefs as bare pointers (`gpu.kernel` functions whose arguments are
    statically shaped, identity-layout memrefs, scalars of fixed width, no
    `index` argument, so the host's 64-bit launch ABI is unchanged), and
    every memref the module touches (arguments, workgroup buffers, private
    buffers) holds fewer than 2^31 elements. Index values are then element
    offsets below 2^31 and loop bounds no larger.

    The conversions to NVVM derive their index width from this layout
    (`convert-gpu-to-nvvm`, `fa-convert-kernel-nvgpu-to-nvvm`), so shared
    and global addresses, loop counters and fragment offsets are 32-bit
    integer arithmetic, FlashAttention-2's address math; with
    `-nvptx-short-ptr` shared-memory pointers are 32-bit too. Modules that
    fail a condition keep the 64-bit index (`-debug-only=fa-narrow-kernel-
    indices` says which condition). Only for pipelines that launch kernels
    with bare pointers: a memref descriptor's sizes and strides are `index`
    fields, which the host would still pass as 64-bit values.
  }];
  let dependentDialects = ["::mlir::DLTIDialect"];
}

def FAConvertKernelNVGPUToNVVM
    : Pass<"fa-convert-kernel-nvgpu-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Upstream's nvgpu-to-nvvm patterns at the gpu.module's "
                "index width";
  let description = [{
    Converts the nvgpu ops of one `gpu.module` (ldmatrix, mma.sync,
    cp.async and its groups) to NVVM with upstream's
    `populateNVGPUToNVVMConversionPatterns`, using an LLVM type converter
    whose index width comes from the module's data layout. Upstream's
    `convert-nvgpu-to-nvvm` always converts `index` to i64, which would
    leave every address a 64-bit computation (and a truncation with 32-bit
    shared pointers) in a module `fa-narrow-kernel-indices` made 32-bit.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
  ];
}

def FALowerBF16MmaSync : Pass<"fa-lower-bf16-mma-sync"> {
  let summary = "Lower bf16 nvgpu.mma.sync to nvvm.mma.sync";
  let description = [{
    Rewrites each `nvgpu.mma.sync` m16n8k16 with bf16 multiplicands and an
    f32 accumulator into `nvvm.mma.sync` with bf16 PTX types (A row-major,
    B column-major), its fragments packed two elements to an i32 register
    as PTX wants them. Upstream's `convert-nvgpu-to-nvvm` lowers the f16
    form but cannot deduce PTX types for bf16; this pass runs just before
    it in `fa-gpu-pipeline` and leaves every other op to it. Other bf16
    shapes are reported.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FAAnnotateOccupancy : Pass<"fa-annotate-occupancy", "::mlir::ModuleOp"> {
  let summary = "Tell ptxas how many blocks of each kernel an SM can hold";
  let description = [{
    Sets `nvvm.minctasm` on each outlined kernel (`gpu.func` with a known
    block size) whose shared memory, static workgroup attributions plus the
    constant dynamic size of every `gpu.launch_func` of it, limits the
    chip to so few blocks per SM that they could all run with every thread
    at the register maximum (`minBlocksPerSMHint`, KernelModel.h). ptxas
    does not see dynamic shared memory: without the hint it budgets
    registers for an occupancy the kernel cannot reach, and spills to meet
    that budget. Kernels for which shared memory allows more blocks, or
    whose launches do not state the size, are left alone. Runs after
    `gpu-kernel-outlining` in `fa-gpu-pipeline`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The chip preset whose shared memory, threads and registers per "
           "SM bound the occupancy">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
  ];
}

def FADeduplicateKernels : Pass<"fa-deduplicate-kernels", "::mlir::ModuleOp"> {
  let summary = "Keep one kernel per set of identical outlined kernels";
  let description = [{
    `gpu-kernel-outlining` makes one `gpu.module` per `gpu.launch`, so a
    model whose layers run the same attention (same shapes, types,
    attributes, tiling and chip) gets one identical kernel per layer, each
    lowered and assembled on its own. This pass keeps the first kernel
    module of each set of identical ones, points every `gpu.launch_func` of
    the others at it and erases them: compile time and binary size then
    grow with the number of distinct kernels, not with the model's depth.

    Two kernel modules are identical when they print the same (without
    locations) once the module's name and its functions' names are replaced
    by their position. Modules referred to by anything other than a
    `gpu.launch_func` are left alone. Runs after outlining in
    `fa-gpu-pipeline`.

    Example: three layers of the same attention

    ```mlir
    gpu.launch_func @forward_kernel::@forward_kernel ...
    gpu.launch_func @forward_kernel_0::@forward_kernel ...
    gpu.launch_func @forward_kernel_1::@forward_kernel ...
    // become three launches of @forward_kernel::@forward_kernel, and the
    // modules @forward_kernel_0 and @forward_kernel_1 are erased.
    ```
  }];
  let statistics = [
    Statistic<"numErased", "erased-kernels",
              "Kernel modules erased as duplicates">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
  ];
}

def FAEncodeTensorMaps : Pass<"fa-encode-tensor-maps", "mlir::ModuleOp"> {
  let summary = "Build TMA tensor maps on the host and pass their addresses to the kernels";
  let description = [{
    For the TMA producer kernel: every `nvgpu.tma.create.descriptor` on the
    host becomes upstream's runtime call (`mgpuTensorMapEncodeTiledMemref`,
    which encodes the map with `cuTensorMapEncodeTiled` and copies it to
    device memory), each `gpu.launch_func` passes the returned pointer, and
    each outlined kernel takes `!llvm.ptr` where it took
    `!nvgpu.tensormap.descriptor`. Runs after `gpu-kernel-outlining` in
    `fa-gpu-pipeline`, which converts every other nvgpu op inside the
    kernels.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def FASpecializeWarpgroups : Pass<"fa-specialize-warpgroups"> {
  let summary = "Give each warpgroup role of a warp-specialized kernel its own code and registers";
  let description = [{
    The TMA producer kernel (`fa-distribute-attention` with `tma-producer`)
    is one program that all its threads run, each warpgroup role (the
    producer, the compute warpgroups) doing its part under `scf.if` on a
    predicate marked `fa.warpgroup_role`: the form the CPU model runs in
    lock step. This pass versions every outlined kernel that has such
    predicates: from the first op that asks one to the end, the body is
    cloned into both branches of an `scf.if` on the compute predicate, the
    predicates folded in each clone, and each branch starts with
    `nvvm.setmaxregister`: `decrease` to the producer's count,
    `increase` to the compute warpgroups' (`splitWarpgroupRegisters`:
    24 and 240 with two compute warpgroups, at most the SM's 64K registers
    per block). Each thread runs the same program as before; the roles
    share no code past the split, so ptxas allocates each within its
    count. Needs the kernel's `known_block_size` (a static launch).
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def FAAlignWorkgroupBuffers : Pass<"fa-align-workgroup-buffers"> {
  let summary = "Give the outlined kernels' static shared tiles 16-byte alignment";
  let description = [{
    Sets `llvm.align = 16` on every workgroup attribution of each kernel
    `gpu.func` that has a smaller or no alignment. The kernel form reads and
    writes its shared tiles 16 (and 8) bytes at a time and says so on those
    accesses (`fa-lower-to-gpu` places dynamic shared tiles at 16-byte
    offsets); static tiles become LLVM globals whose alignment, unless the
    attribution states one, is their element's (`.shared .align 2` for f16
    in PTX), which does not guarantee what the accesses claim. Runs after
    `gpu-kernel-outlining` in `fa-gpu-pipeline`: `gpu.launch` has no
    attribution attributes to carry it. In a kernel with warpgroup matmuls
    (`fa.warpgroup_mma`) the alignment is 1024 bytes instead: wgmma (and
    TMA) swizzle absolute shared addresses, a 128-byte swizzle pattern
    starts on a 1024-byte boundary, and the op's descriptors count from
    their buffer's start.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
  ];
}

def FAAlignDynamicSharedMemory : Pass<"fa-align-dynamic-shared-memory",
                                      "::mlir::gpu::GPUModuleOp"> {
  let summary = "Start a wgmma kernel's dynamic shared memory on a 1024-byte boundary";
  let description = [{
    After the GPU-to-NVVM conversion: in a `gpu.module` whose kernels issue
    wgmma (inline PTX that `fa.warpgroup_mma` lowers to), raises the
    alignment of the dynamic shared memory globals (`__dynamic_shmem__*`,
    which upstream's lowering aligns to 16 bytes) to 1024. `fa-lower-to-gpu`
    places the dynamic tiles at offsets that are multiples of their sizes'
    alignment from that base, and the 128-byte swizzle that wgmma reads
    through is a function of the absolute address: a base 16 bytes past a
    1024-byte boundary would read every swizzled tile wrongly. Other
    modules are left alone.
  }];
}

#endif // FA_TRANSFORMS_PASSES_TD
