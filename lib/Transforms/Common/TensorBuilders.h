//===- TensorBuilders.h - Small builders shared by the lowerings -*- C++
//-*-===//
//
// The reference decomposition and the tiled lowerings (forward and backward)
// emit f32 linalg.generic ops on tensors; these are the builders they share.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_TENSORBUILDERS_H
#define FA_TRANSFORMS_COMMON_TENSORBUILDERS_H

#include "Common/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"

#include <limits>

namespace mlir::fa {

/// Widens an f16/bf16 scalar to f32 (identity for f32).
Value castToF32(OpBuilder &b, Location loc, Value scalar);

inline Value createEmpty(OpBuilder &b, Location loc,
                         ArrayRef<OpFoldResult> sizes, Type elementType) {
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}

/// A tensor of `sizes` filled with `fillValue`.
Value createFilled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                   Type elementType, TypedAttr fillValue);

/// Emits a linalg.generic with one output whose body yields `body(args)`.
Value createGeneric(
    OpBuilder &b, Location loc, ValueRange inputs, Value init,
    ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iteratorTypes,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// The body of an f32 contraction: `args[2] + f32(args[0]) * f32(args[1])`
/// (the operands widened from f16/bf16).
Value multiplyAddF32(OpBuilder &b, Location loc, ValueRange args);

/// `max`, or 0 where it is -inf: the shift that keeps exp(-inf - shift) from
/// becoming exp(NaN) on rows that have seen no key.
Value safeRowMax(OpBuilder &b, Location loc, Value max);

/// `acc / sum` rounded once to `elementType`, 0 where `sum` is 0 (a row
/// with no visible key).
Value normalizeRow(OpBuilder &b, Location loc, Value acc, Value sum,
                   Type elementType);

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
  void addMask(Value element);

  void require(Value condition) {
    visible =
        visible ? arith::AndIOp::create(b, loc, visible, condition) : condition;
  }

  /// With a finite hidden score: whether the i1 mask hides this key (its
  /// score is the constant fill, whose gradient is 0). Null otherwise.
  Value filled();

  Value finish();

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
Value scoreGradient(OpBuilder &b, Location loc, Value prob, Value gradProb,
                    Value rowTerm, Value shown);

/// The grid of a tiled lowering's pass: an scf.forall over `sizes` mapped to
/// GPU blocks (z, y, x), whose results are `outputs`.
scf::ForallOp createBlockGrid(OpBuilder &b, Location loc, ValueRange sizes,
                              ValueRange outputs);

/// A kernel's thread loop: an scf.forall over `threads` mapped to
/// #gpu.thread<x>, with no results.
scf::ForallOp createThreadLoop(OpBuilder &b, Location loc, int64_t threads);

/// A [rows, cols] slice of a rank-4 tensor at (b, h, row0, col0), padded
/// with zeros to [tileRows, tileCols]. Dims listed in `broadcast` are read at
/// index 0 with size 1 (and stay size 1).
inline Value loadTile(OpBuilder &b, Location loc, Value source, Value batch,
                      Value head, Value row0, Value rows, int64_t tileRows,
                      Value col0, Value cols, int64_t tileCols,
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
  Value padValue =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return tensor::createPadHighOp(tileType, slice, padValue, /*nofold=*/false,
                                 loc, b);
}

/// The map by which the generic over a [rows, keys] tile reads its mask
/// tile: (i, j) -> (i, j), with 0 for a dim the mask broadcasts (dims 2 and
/// 3 of its [B, H, Nq, Nk] broadcast flags).
AffineMap maskTileMap(MLIRContext *ctx, ArrayRef<bool> maskBroadcast);

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_TENSORBUILDERS_H
