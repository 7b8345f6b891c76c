//===- TensorBuilders.cpp - The score builders the lowerings share --------===//
//
// Stage: shared by the lowerings. The bodies of TensorBuilders.h's functions.
//
//===----------------------------------------------------------------------===//

#include "Common/TensorBuilders.h"

namespace mlir::fa {

Value castToF32(OpBuilder &b, Location loc, Value scalar) {
  if (scalar.getType().isF32())
    return scalar;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), scalar);
}

Value createFilled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                   Type elementType, TypedAttr fillValue) {
  Value empty = createEmpty(b, loc, sizes, elementType);
  Value fill = arith::ConstantOp::create(b, loc, fillValue);
  return linalg::FillOp::create(b, loc, ValueRange{fill}, ValueRange{empty})
      .getResult(0);
}

Value createGeneric(
    OpBuilder &b, Location loc, ValueRange inputs, Value init,
    ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iteratorTypes,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iteratorTypes, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
      });
  return generic.getResult(0);
}

Value multiplyAddF32(OpBuilder &b, Location loc, ValueRange args) {
  // Two statements: the order of function arguments is unspecified, and
  // GCC and Clang would emit the two extensions in different orders.
  Value lhs = castToF32(b, loc, args[0]);
  Value rhs = castToF32(b, loc, args[1]);
  Value product = arith::MulFOp::create(b, loc, lhs, rhs);
  return arith::AddFOp::create(b, loc, args[2], product);
}

Value safeRowMax(OpBuilder &b, Location loc, Value max) {
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  Value isEmpty =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, max, negInf);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  return arith::SelectOp::create(b, loc, isEmpty, zero, max);
}

Value normalizeRow(OpBuilder &b, Location loc, Value acc, Value sum,
                   Type elementType) {
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value isEmpty =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, sum, zero);
  Value quotient = arith::DivFOp::create(b, loc, acc, sum);
  Value result = arith::SelectOp::create(b, loc, isEmpty, zero, quotient);
  if (elementType.isF32())
    return result;
  return arith::TruncFOp::create(b, loc, elementType, result);
}

void MaskedScore::addMask(Value element) {
  if (!element.getType().isInteger(1))
    score = arith::AddFOp::create(b, loc, score, castToF32(b, loc, element));
  else if (std::isinf(hiddenScore) && hiddenScore < 0)
    require(element);
  else
    shown = shown ? arith::AndIOp::create(b, loc, shown, element).getResult()
                  : element;
}

Value MaskedScore::filled() {
  if (!shown)
    return Value();
  Value trueValue = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return arith::XOrIOp::create(b, loc, shown, trueValue);
}

Value MaskedScore::finish() {
  Value result = score;
  if (shown) {
    Value fill = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(static_cast<float>(hiddenScore)));
    result = arith::SelectOp::create(b, loc, shown, score, fill);
  }
  if (!visible)
    return result;
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  return arith::SelectOp::create(b, loc, visible, result, negInf);
}

Value scoreGradient(OpBuilder &b, Location loc, Value prob, Value gradProb,
                    Value rowTerm, Value shown) {
  Value centered = arith::SubFOp::create(b, loc, gradProb, rowTerm);
  Value gradient = arith::MulFOp::create(b, loc, prob, centered);
  if (!shown)
    return gradient;
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  return arith::SelectOp::create(b, loc, shown, gradient, zero);
}

scf::ForallOp createBlockGrid(OpBuilder &b, Location loc, ValueRange sizes,
                              ValueRange outputs) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Attribute> mapping = {
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimZ),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimY),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)};
  return scf::ForallOp::create(b, loc, getAsOpFoldResult(sizes), outputs,
                               b.getArrayAttr(mapping));
}

scf::ForallOp createThreadLoop(OpBuilder &b, Location loc, int64_t threads) {
  return scf::ForallOp::create(
      b, loc, SmallVector<OpFoldResult>{b.getIndexAttr(threads)}, ValueRange{},
      b.getArrayAttr({gpu::GPUThreadMappingAttr::get(b.getContext(),
                                                     gpu::MappingId::DimX)}));
}

AffineMap maskTileMap(MLIRContext *ctx, ArrayRef<bool> maskBroadcast) {
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  return AffineMap::get(2, 0,
                        {maskBroadcast[2] ? zero : getAffineDimExpr(0, ctx),
                         maskBroadcast[3] ? zero : getAffineDimExpr(1, ctx)},
                        ctx);
}

} // namespace mlir::fa
