//===- Passes.td - Reference passes ------------------------*- tablegen -*-===//
//
// Stage: the reference lowering: fa ops as the unfused linalg they state.
// One pass per file under lib/Transforms/Reference/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_REFERENCE_PASSES_TD
#define FA_TRANSFORMS_REFERENCE_PASSES_TD

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

#endif // FA_TRANSFORMS_REFERENCE_PASSES_TD
