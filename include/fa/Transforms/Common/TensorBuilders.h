//===- TensorBuilders.h - Small builders shared by the lowerings -*- C++ -*-===//
//
// The reference decomposition and the tiled lowerings (forward and backward)
// emit f32 linalg.generic ops on tensors; these are the builders they share.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_TENSORBUILDERS_H
#define FA_TRANSFORMS_COMMON_TENSORBUILDERS_H

#include "fa/Transforms/Common/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"

#include <limits>

namespace mlir::fa {

/// Widens an f16/bf16 scalar to f32 (identity for f32).
inline Value castToF32(OpBuilder &b, Location loc, Value scalar) {
  if (scalar.getType().isF32())
    return scalar;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), scalar);
}

inline Value createEmpty(OpBuilder &b, Location loc,
                         ArrayRef<OpFoldResult> sizes, Type elementType) {
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}

/// A tensor of `sizes` filled with `fillValue`.
inline Value createFilled(OpBuilder &b, Location loc,
                          ArrayRef<OpFoldResult> sizes, Type elementType,
                          TypedAttr fillValue) {
  Value empty = createEmpty(b, loc, sizes, elementType);
  Value fill = arith::ConstantOp::create(b, loc, fillValue);
  return linalg::FillOp::create(b, loc, ValueRange{fill}, ValueRange{empty})
      .getResult(0);
}

/// Emits a linalg.generic with one output whose body yields `body(args)`.
inline Value
createGeneric(OpBuilder &b, Location loc, ValueRange inputs, Value init,
              ArrayRef<AffineMap> maps,
              ArrayRef<utils::IteratorType> iteratorTypes,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iteratorTypes, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
      });
  return generic.getResult(0);
}

/// The body of an f32 contraction: `args[2] + f32(args[0]) * f32(args[1])`
/// (the operands widened from f16/bf16).
inline Value multiplyAddF32(OpBuilder &b, Location loc, ValueRange args) {
  // Two statements: the order of function arguments is unspecified, and
  // GCC and Clang would emit the two extensions in different orders.
  Value lhs = castToF32(b, loc, args[0]);
  Value rhs = castToF32(b, loc, args[1]);
  Value product = arith::MulFOp::create(b, loc, lhs, rhs);
  return arith::AddFOp::create(b, loc, args[2], product);
}

/// `max`, or 0 where it is -inf: the shift that keeps exp(-inf - shift) from
/// becoming exp(NaN) on rows that have seen no key.
inline Value safeRowMax(OpBuilder &b, Location loc, Value max) {
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  Value isEmpty =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, max, negInf);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  return arith::SelectOp::create(b, loc, isEmpty, zero, max);
}

/// `acc / sum` rounded once to `elementType`, 0 where `sum` is 0 (a row
/// with no visible key).
inline Value normalizeRow(OpBuilder &b, Location loc, Value acc, Value sum,
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

/// The scaled, masked score of one element, inside a linalg body: `scale *
/// raw`, plus an additive bias, with every failed visibility condition
/// (keep-mask, causal, window, padding) turning it into -inf. Shared by the
/// reference and the tiled lowering so that both mask the same way.
class MaskedScore {
public:
  /// A null `scale` keeps the raw score (the GPU kernels that apply the
  /// scale in their exponent, SoftmaxExponent in GPU/KernelBuilder.h).
  MaskedScore(OpBuilder &b, Location loc, Value raw, Value scale)
      : b(b), loc(loc),
        score(scale ? arith::MulFOp::create(b, loc, raw, scale).getResult()
                    : raw) {}

  /// Replaces the scaled score by `modified(score)`: fa.attention's
  /// score_mod, which comes before the additive bias (call it before
  /// addMask).
  void modifyScore(function_ref<Value(Value)> modified) {
    score = modified(score);
  }

  /// The score of a key an i1 mask element hides (fa.attention's
  /// mask_fill); -inf by default. Keys hidden by require() (causal, window,
  /// padding, past the tensor) are always -inf.
  void setHiddenScore(double value) { hiddenScore = value; }

  /// A mask element: a keep-flag (i1) or an additive bias (any float).
  void addMask(Value element) {
    if (!element.getType().isInteger(1))
      score = arith::AddFOp::create(b, loc, score, castToF32(b, loc, element));
    else if (std::isinf(hiddenScore) && hiddenScore < 0)
      require(element);
    else
      shown = shown ? arith::AndIOp::create(b, loc, shown, element).getResult()
                    : element;
  }

  void require(Value condition) {
    visible = visible ? arith::AndIOp::create(b, loc, visible, condition)
                      : condition;
  }

  /// With a finite hidden score: whether the i1 mask hides this key (its
  /// score is the constant fill, whose gradient is 0). Null otherwise.
  Value filled() {
    if (!shown)
      return Value();
    Value trueValue = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    return arith::XOrIOp::create(b, loc, shown, trueValue);
  }

  Value finish() {
    Value result = score;
    if (shown) {
      Value fill = arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(static_cast<float>(hiddenScore)));
      result = arith::SelectOp::create(b, loc, shown, score, fill);
    }
    if (!visible)
      return result;
    Value negInf = arith::ConstantOp::create(
        b, loc,
        b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
    return arith::SelectOp::create(b, loc, visible, result, negInf);
  }

private:
  OpBuilder &b;
  Location loc;
  Value score;
  Value visible, shown;
  double hiddenScore = -std::numeric_limits<double>::infinity();
};

/// dS = P (dP - D) of one score, inside a linalg body; 0 where `shown` (the
/// i1 mask element of an op with mask_fill) is false: a filled key's score
/// is a constant, with no gradient. Shared by the reference and the tiled
/// backward.
inline Value scoreGradient(OpBuilder &b, Location loc, Value prob,
                           Value gradProb, Value rowTerm, Value shown) {
  Value centered = arith::SubFOp::create(b, loc, gradProb, rowTerm);
  Value gradient = arith::MulFOp::create(b, loc, prob, centered);
  if (!shown)
    return gradient;
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  return arith::SelectOp::create(b, loc, shown, gradient, zero);
}

/// The grid of a tiled lowering's pass: an scf.forall over `sizes` mapped to GPU blocks
/// (z, y, x), whose results are `outputs`.
inline scf::ForallOp createBlockGrid(OpBuilder &b, Location loc, ValueRange sizes,
                              ValueRange outputs) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Attribute> mapping = {
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimZ),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimY),
      gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)};
  return scf::ForallOp::create(b, loc, getAsOpFoldResult(sizes), outputs,
                               b.getArrayAttr(mapping));
}

/// A kernel's thread loop: an scf.forall over `threads` mapped to
/// #gpu.thread<x>, with no results.
inline scf::ForallOp createThreadLoop(OpBuilder &b, Location loc,
                                      int64_t threads) {
  return scf::ForallOp::create(
      b, loc, SmallVector<OpFoldResult>{b.getIndexAttr(threads)}, ValueRange{},
      b.getArrayAttr({gpu::GPUThreadMappingAttr::get(b.getContext(),
                                                     gpu::MappingId::DimX)}));
}

/// A [rows, cols] slice of a rank-4 tensor at (b, h, row0, col0), padded
/// with zeros to [tileRows, tileCols]. Dims listed in `broadcast` are read at
/// index 0 with size 1 (and stay size 1).
inline Value loadTile(OpBuilder &b, Location loc, Value source, Value batch,
               Value head, Value row0, Value rows, int64_t tileRows, Value col0,
               Value cols, int64_t tileCols,
               ArrayRef<bool> broadcast = {false, false, false, false}) {
  auto type = cast<RankedTensorType>(source.getType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  // Constants become static offsets and sizes, so full tiles stay static.
  SmallVector<OpFoldResult> offsets =
      getAsOpFoldResult(ValueRange{batch, head, row0, col0});
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(1),
                                     getAsOpFoldResult(rows),
                                     getAsOpFoldResult(cols)};
  SmallVector<int64_t> tileShape = {tileRows, tileCols};
  for (int64_t dim = 0; dim < 4; ++dim) {
    if (!broadcast[dim])
      continue;
    offsets[dim] = zero;
    sizes[dim] = b.getIndexAttr(1);
    if (dim >= 2)
      tileShape[dim - 2] = 1;
  }
  SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
  SmallVector<int64_t> sliceShape;
  for (int64_t dim = 2; dim < 4; ++dim) {
    std::optional<int64_t> size = getConstantIntValue(sizes[dim]);
    sliceShape.push_back(size ? *size : ShapedType::kDynamic);
  }
  auto sliceType = RankedTensorType::get(sliceShape, type.getElementType());
  Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, source,
                                               offsets, sizes, strides);
  auto tileType = RankedTensorType::get(tileShape, type.getElementType());
  if (sliceType == tileType)
    return slice;
  Value padValue = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(type.getElementType()));
  return tensor::createPadHighOp(tileType, slice, padValue, /*nofold=*/false,
                                 loc, b);
}

/// The map by which the generic over a [rows, keys] tile reads its mask
/// tile: (i, j) -> (i, j), with 0 for a dim the mask broadcasts (dims 2 and
/// 3 of its [B, H, Nq, Nk] broadcast flags).
inline AffineMap maskTileMap(MLIRContext *ctx, ArrayRef<bool> maskBroadcast) {
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  return AffineMap::get(2, 0,
                        {maskBroadcast[2] ? zero : getAffineDimExpr(0, ctx),
                         maskBroadcast[3] ? zero : getAffineDimExpr(1, ctx)},
                        ctx);
}

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_TENSORBUILDERS_H
