//===- Passes.td - Recognition passes ----------------------*- tablegen -*-===//
//
// Stage: recognition: attention found in linalg and TOSA, raised to fa.attention.
// One pass per file under lib/Transforms/Recognition/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_PASSES_TD
#define FA_TRANSFORMS_RECOGNITION_PASSES_TD

include "mlir/Pass/PassBase.td"

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

#endif // FA_TRANSFORMS_RECOGNITION_PASSES_TD
