//===- LinearAttention.h - Finding linear attention -------------*- C++ -*-===//
//
// Stage: recognition (what is found). Linear attention is attention
// without a softmax: (φ(Q)·φ(K)ᵀ)·V, written in the quadratic order by
// frontends. Starting at the second contraction, the matcher accepts
// between the two products only what fa.linear_attention states — a
// constant scale, a causal mask (a select with 0, or a product with a 0/1
// mask), RetNet's decay γ^(i−j) and the row normalization W / (ΣW + ε),
// before or after the product — and refuses anything else with its
// reason: a nonlinearity on the product (ReLU or sigmoid attention), a
// normalization over another axis, a mask that is not causal. The feature
// maps stay outside: φ(Q) and φ(K) are the op's operands. It never
// changes IR except to materialize a mask it reads, which a refusal
// erases again.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_LINEARATTENTION_H
#define FA_TRANSFORMS_RECOGNITION_LINEARATTENTION_H

#include "AttentionMatcher.h"

namespace mlir::fa::recognition {

/// Everything fa.linear_attention needs, in the frontend's terms.
struct LinearAttentionMatch {
  /// Q, K, V (after their feature maps) with their layouts, grouped heads,
  /// the batch split, the scale and `causal` (always top-left), as for
  /// fa.attention; the mask fields stay empty.
  AttentionMatch operands;
  /// `normalize(eps = ...)`: the frontend divides each row by its weights'
  /// sum plus this.
  std::optional<double> epsilon;
  /// γ per query head of the op (RetNet's decay), empty without one.
  SmallVector<double> decay;
  /// The op whose result the rewrite replaces: the second contraction, or
  /// the division that normalizes its result.
  Operation *output = nullptr;
};

/// True when `op` could be the second product of linear attention: a
/// contraction one of whose operands is computed from another contraction
/// by elementwise ops. (An exp may feed it: in a decay table, say. The
/// softmax matcher is tried first on such a contraction, and a linear
/// reading that fails there is not reported.)
bool isLinearAttentionCandidate(Operation *op);

/// Matches linear attention whose second product is `root`. A refusal of a
/// product chain that may as well be something else (unbatched products,
/// say, or a P·V-shaped contraction that is not one) is NotCandidate: only
/// near misses get a reason.
std::optional<LinearAttentionMatch>
matchLinearAttention(Operation *root, Rejection &rejection);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_LINEARATTENTION_H
