//===- DecomposeLinearAttention.cpp - Linear attention, quadratic order ---===//
//
// Stage: reference. fa.linear_attention as its definition, in the order a
// frontend writes it: the weights W = scale Q K^T [B, Hq, Nq, Nk] (causal:
// 0 above the diagonal, times gamma^(i - j) with a decay), O = W V, and
// with `normalize` the row sums of W and the division, all in f32, rounded
// to V's type once. It materializes the N x N weights: it is the
// executable definition every faster lowering is compared against
// (fa-decompose-attention applies it beside fa.attention's), not a
// lowering to use.
//
//===----------------------------------------------------------------------===//

#include "Common/LinearAttention.h"
#include "Common/TensorBuilders.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Reference/Reference.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::fa;

namespace {

using utils::IteratorType;

/// `value` rounded from f32 to `elementType` (a no-op for f32).
Value roundTensor(OpBuilder &b, Location loc, Value value, Type elementType) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == elementType)
    return value;
  Value init =
      createEmpty(b, loc, tensor::getMixedSizes(b, loc, value), elementType);
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  return createGeneric(
      b, loc, value, init, {identity, identity},
      SmallVector<IteratorType>(type.getRank(), IteratorType::parallel),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return arith::TruncFOp::create(nb, nloc, elementType, args[0])
            .getResult();
      });
}

struct DecomposeLinearAttention : OpRewritePattern<LinearAttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LinearAttentionOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<int64_t> group = staticGroupSize(op);
    if (failed(group))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    OpBuilder &b = rewriter;
    Type f32 = b.getF32Type();
    Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
    SmallVector<OpFoldResult> querySizes = tensor::getMixedSizes(b, loc, query);
    SmallVector<OpFoldResult> keySizes = tensor::getMixedSizes(b, loc, key);
    SmallVector<OpFoldResult> valueSizes = tensor::getMixedSizes(b, loc, value);
    TypedAttr zero = b.getF32FloatAttr(0.0);
    auto par = IteratorType::parallel, red = IteratorType::reduction;

    // Raw products over (b, h, i, j, d); K and V read at the query head's
    // group.
    AffineExpr db, dh, di, dj, dd;
    bindDims(ctx, db, dh, di, dj, dd);
    AffineExpr kvHead = *group == 1 ? dh : dh.floorDiv(*group);
    auto map5 = [&](ArrayRef<AffineExpr> results) {
      return AffineMap::get(5, 0, results, ctx);
    };
    Value weightsInit = createFilled(
        b, loc, {querySizes[0], querySizes[1], querySizes[2], keySizes[2]}, f32,
        zero);
    Value raw =
        createGeneric(b, loc, ValueRange{query, key}, weightsInit,
                      {map5({db, dh, di, dd}), map5({db, kvHead, dj, dd}),
                       map5({db, dh, di, dj})},
                      {par, par, par, par, red},
                      [](OpBuilder &nb, Location nloc, ValueRange args) {
                        return multiplyAddF32(nb, nloc, args);
                      });

    // W = scale * raw, 0 above the diagonal, times gamma[h]^(i - j).
    AffineMap identity4 = b.getMultiDimIdentityMap(4);
    SmallVector<Value> weightInputs{raw};
    SmallVector<AffineMap> weightMaps{identity4};
    if (Value decay = op.getDecay()) {
      weightInputs.push_back(decay);
      weightMaps.push_back(
          AffineMap::get(4, 0, {getAffineDimExpr(1, ctx)}, ctx));
    }
    weightMaps.push_back(identity4);
    double scale = op.getScale().convertToDouble();
    bool causal = op.getCausal();
    Value weights = createGeneric(
        b, loc, weightInputs,
        createEmpty(b, loc, tensor::getMixedSizes(b, loc, raw), f32),
        weightMaps, {par, par, par, par},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          Value scaleValue = arith::ConstantOp::create(
              nb, nloc, nb.getF32FloatAttr(static_cast<float>(scale)));
          Value weight = arith::MulFOp::create(nb, nloc, args[0], scaleValue);
          if (!causal)
            return weight;
          Value i = linalg::IndexOp::create(nb, nloc, 2);
          Value j = linalg::IndexOp::create(nb, nloc, 3);
          return causalWeight(nb, nloc, weight,
                              op.getDecay() ? args[1] : Value(), i, j);
        });

    // O = W V over (b, h, i, e, j).
    Value outputInit = createFilled(
        b, loc, {querySizes[0], querySizes[1], querySizes[2], valueSizes[3]},
        f32, zero);
    Value output =
        createGeneric(b, loc, ValueRange{weights, value}, outputInit,
                      {map5({db, dh, di, dd}), map5({db, kvHead, dd, dj}),
                       map5({db, dh, di, dj})},
                      {par, par, par, par, red},
                      [](OpBuilder &nb, Location nloc, ValueRange args) {
                        return multiplyAddF32(nb, nloc, args);
                      });

    if (FloatAttr epsilon = op.getEpsilonAttr()) {
      // O / (rowsum(W) + eps).
      Value sums = createGeneric(
          b, loc, weights,
          createFilled(b, loc, {querySizes[0], querySizes[1], querySizes[2]},
                       f32, zero),
          {identity4,
           AffineMap::get(4, 0,
                          {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
                           getAffineDimExpr(2, ctx)},
                          ctx)},
          {par, par, par, red},
          [](OpBuilder &nb, Location nloc, ValueRange args) {
            return arith::AddFOp::create(nb, nloc, args[0], args[1])
                .getResult();
          });
      AffineMap rowMap =
          AffineMap::get(4, 0,
                         {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
                          getAffineDimExpr(2, ctx)},
                         ctx);
      float eps = static_cast<float>(epsilon.getValueAsDouble());
      output = createGeneric(
          b, loc, ValueRange{output, sums},
          createEmpty(b, loc, tensor::getMixedSizes(b, loc, output), f32),
          {identity4, rowMap, identity4}, {par, par, par, par},
          [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
            Value epsValue =
                arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(eps));
            Value denominator =
                arith::AddFOp::create(nb, nloc, args[1], epsValue);
            return arith::DivFOp::create(nb, nloc, args[0], denominator);
          });
    }
    Value result =
        roundTensor(b, loc, output, op.getValue().getType().getElementType());
    if (result.getType() != op.getType())
      result = tensor::CastOp::create(b, loc, op.getType(), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::fa::populateDecomposeLinearAttentionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeLinearAttention>(patterns.getContext());
}
