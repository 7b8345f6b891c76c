//===- LinearAttention.h - Pieces shared by linear attention's lowerings
//-*-===//
//
// What the reference decomposition of fa.linear_attention (the quadratic
// order) and its chunked lowering (fa-lower-linear-attention) must compute
// alike, so that they differ by the order of the sums only: the decay
// weight gamma^n, and the group-size check.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_LINEARATTENTION_H
#define FA_TRANSFORMS_COMMON_LINEARATTENTION_H

#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

namespace mlir::fa {

/// gamma^n in f32 for an index n >= 0: 1 at n = 0 (also for gamma = 0),
/// else exp(n ln gamma), which is 0 for gamma = 0 and underflows to 0 where
/// the true weight is below f32's range. RetNet's gammas lie in (0, 1); a
/// negative gamma gives NaN.
inline Value decayPower(OpBuilder &b, Location loc, Value gamma, Value n) {
  Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, n,
                                     arith::ConstantIndexOp::create(b, loc, 0));
  Value count = arith::IndexCastOp::create(b, loc, b.getI64Type(), n);
  Value countF = arith::SIToFPOp::create(b, loc, b.getF32Type(), count);
  Value logGamma = math::LogOp::create(b, loc, gamma);
  Value power = math::ExpOp::create(
      b, loc, arith::MulFOp::create(b, loc, countF, logGamma));
  Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0));
  return arith::SelectOp::create(b, loc, none, one, power);
}

/// The causal weight of query i and key j from their scaled product
/// `weight`: weight gamma^(i - j) for j <= i (no power without a decay,
/// `gamma` null), 0 for j > i. The reference and the chunked lowering both
/// build it here (in a chunk, i and j are the chunk's own rows).
inline Value causalWeight(OpBuilder &b, Location loc, Value weight, Value gamma,
                          Value i, Value j) {
  Value shown = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, j, i);
  if (gamma) {
    // (i - j where shown, 0 elsewhere: the power stays defined.)
    Value distance = arith::SelectOp::create(
        b, loc, shown, arith::SubIOp::create(b, loc, i, j),
        arith::ConstantIndexOp::create(b, loc, 0));
    weight = arith::MulFOp::create(b, loc, weight,
                                   decayPower(b, loc, gamma, distance));
  }
  Value none = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  return arith::SelectOp::create(b, loc, shown, weight, none);
}

/// Hq / Hkv when it is static (the lowerings read K and V at h floordiv G);
/// an error at the op otherwise.
inline FailureOr<int64_t> staticGroupSize(LinearAttentionOp op) {
  int64_t group = op.getGroupSize();
  if (ShapedType::isDynamic(group)) {
    op.emitOpError() << "is lowered only with a static group size (Hq / "
                        "Hkv); the query or key/value heads are dynamic";
    return failure();
  }
  return group;
}

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_LINEARATTENTION_H
