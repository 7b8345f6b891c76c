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
  let summary = "Lower fa.attention to unfused linalg on tensors (the reference)";
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
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // FA_TRANSFORMS_PASSES_TD
