//===- FoldMasksIntoModifiers.cpp - Masks computed from positions ---------===//
//
// Stage: recognition (after the rewrite). An fa.attention whose mask
// operand the program computes from positions and small tensors (ALiBi, T5
// buckets, prefix-LM and document masks) gets that computation as its
// score_mod or mask_mod instead, so that no [B, H, Nq, Nk] tensor is built
// or read. See the pass description in Passes.td.
//
// The walk reads element `indices` of a tensor by following its producer:
// an elementwise op reads its operands at the same indices (a broadcast
// operand at 0 where it has a unit dim), a transpose permutes them, a
// reshape maps them through the row-major linear index (a unit-dim reshape
// only drops or inserts zeros), a tosa.gather reads its table at the index
// it reads from its indices (TOSA spells a [buckets, H] table lookup that
// way, between two reshapes), and a tensor the walk cannot
// follow is read as it is (tensor.extract), provided it is smaller than the
// mask. The walk runs twice with the same code: once without a builder, to
// decide (nothing is created), then with one, inside the new region.
//
//===----------------------------------------------------------------------===//

#include "Common/MaskModIntervals.h"
#include "Common/ScoreModifiers.h"
#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Recognition/Recognition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAFOLDMASKSINTOMODIFIERS
#include "fa/Transforms/Recognition/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;

namespace {

/// Producers followed from the mask before giving up: a bound on the walk,
/// far above what a frontend's mask needs (ALiBi takes about ten).
constexpr unsigned kMaxOps = 64;

/// Element `indices` of a tensor, computed from what the tensor is computed
/// from. Without a builder (`builder` null) it only decides: every Value it
/// returns is null, and failure carries the reason in `why`.
class ElementWalk {
public:
  ElementWalk(OpBuilder *builder, Location loc, int64_t maskElements)
      : builder(builder), loc(loc), maskElements(maskElements) {}

  FailureOr<Value> element(Value tensor, ArrayRef<Value> indices);

  std::string why;
  /// Ops the walk followed (0: the mask is a tensor it reads as it is).
  unsigned followed = 0;

private:
  OpBuilder *builder;
  Location loc;
  int64_t maskElements;

  FailureOr<Value> fail(const Twine &reason) {
    why = reason.str();
    return failure();
  }
  Value zero() {
    return builder ? arith::ConstantIndexOp::create(*builder, loc, 0) : Value();
  }
  /// The index of dim `dim` of an operand shaped `operand` read by an
  /// elementwise op at result index `index`: 0 where the operand
  /// broadcasts (a static 1 where the result has more).
  Value broadcastIndex(RankedTensorType operand, RankedTensorType result,
                       int64_t dim, Value index) {
    if (operand.getDimSize(dim) == 1 && result.getDimSize(dim) != 1)
      return zero();
    return index;
  }

  FailureOr<Value> read(Value tensor, ArrayRef<Value> indices);
  FailureOr<Value> constant(DenseElementsAttr values, Value tensor,
                            ArrayRef<Value> indices);
  FailureOr<Value> structured(linalg::LinalgOp op, ArrayRef<Value> indices);
  FailureOr<Value> reshape(Value source, RankedTensorType result,
                           ArrayRef<Value> indices);
  FailureOr<Value> tosaGather(tosa::GatherOp gather, ArrayRef<Value> indices);
  Value linearize(ArrayRef<Value> indices, ArrayRef<int64_t> sizes);
  SmallVector<Value> delinearize(Value linear, ArrayRef<int64_t> sizes);

  /// The linear indices this walk built, with the indices and sizes they
  /// were built from: a reshape's split of a linear index that an inverse
  /// reshape built (T5's table lookup in TOSA collapses [Nq, Nk] to
  /// [Nq·Nk] and expands it back) reads the original indices instead of
  /// dividing, so the region's index arithmetic stays what the tile
  /// bounds can follow.
  DenseMap<Value, std::pair<SmallVector<Value>, SmallVector<int64_t>>>
      linearized;
  FailureOr<Value> elementwise(Operation *op, ArrayRef<Value> indices);
  FailureOr<Value> tosaElementwise(Operation *op, ArrayRef<Value> indices);
  FailureOr<Value> scalarOp(Operation *op, ValueRange scalars);
};

FailureOr<Value> ElementWalk::element(Value tensor, ArrayRef<Value> indices) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type || !type.hasStaticShape())
    return fail("a tensor on the way has a dynamic shape");
  Operation *def = tensor.getDefiningOp();
  if (!def)
    return read(tensor, indices);
  if (++followed > kMaxOps)
    return fail("the computation takes more than " + Twine(kMaxOps) + " ops");

  DenseElementsAttr values;
  if (matchPattern(tensor, m_Constant(&values)))
    return constant(values, tensor, indices);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(def))
    return structured(linalgOp, indices);
  if (auto cast = dyn_cast<tensor::CastOp>(def))
    return element(cast.getSource(), indices);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
    return reshape(expand.getSrc(), type, indices);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
    return reshape(collapse.getSrc(), type, indices);
  if (auto reshapeOp = dyn_cast<tosa::ReshapeOp>(def))
    return reshape(reshapeOp.getInput1(), type, indices);
  if (auto gather = dyn_cast<tosa::GatherOp>(def))
    return tosaGather(gather, indices);
  if (auto transpose = dyn_cast<tosa::TransposeOp>(def)) {
    // Result dim d is input dim perms[d].
    ArrayRef<int32_t> perms = transpose.getPerms();
    SmallVector<Value> inner(indices.size());
    for (auto [dim, perm] : llvm::enumerate(perms))
      inner[perm] = indices[dim];
    return element(transpose.getInput1(), inner);
  }
  if (def->getDialect() && def->getDialect()->getNamespace() ==
                               tosa::TosaDialect::getDialectNamespace())
    return tosaElementwise(def, indices);
  if (def->hasTrait<OpTrait::Elementwise>() && def->getNumResults() == 1 &&
      def->getNumRegions() == 0 && isMemoryEffectFree(def))
    return elementwise(def, indices);
  // Anything else is read as it is.
  --followed;
  return read(tensor, indices);
}

/// A tensor the walk does not follow: read at `indices`, if it is smaller
/// than the mask (else folding would read as much as the mask does).
FailureOr<Value> ElementWalk::read(Value tensor, ArrayRef<Value> indices) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getNumElements() >= maskElements)
    return fail(Twine("it reads a tensor of ") + Twine(type.getNumElements()) +
                " elements, as many as the mask's " + Twine(maskElements));
  if (!builder)
    return Value();
  return tensor::ExtractOp::create(*builder, loc, tensor, indices).getResult();
}

/// The dim along which a constant is the arange 0, 1, 2, ... (its only dim
/// that is not a unit dim), or -1.
static int64_t arangeDim(DenseElementsAttr values) {
  auto type = cast<RankedTensorType>(values.getType());
  if (!type.getElementType().isSignlessInteger() &&
      !isa<FloatType>(type.getElementType()))
    return -1;
  int64_t dim = -1;
  for (auto [index, size] : llvm::enumerate(type.getShape())) {
    if (size == 1)
      continue;
    if (dim >= 0)
      return -1;
    dim = index;
  }
  if (dim < 0)
    return -1;
  int64_t expected = 0;
  if (type.getElementType().isSignlessInteger()) {
    for (const APInt &value : values.getValues<APInt>())
      if (value.getSExtValue() != expected++)
        return -1;
  } else {
    for (const APFloat &value : values.getValues<APFloat>())
      if (!value.isExactlyValue(static_cast<double>(expected++)))
        return -1;
  }
  return dim;
}

FailureOr<Value> ElementWalk::constant(DenseElementsAttr values, Value tensor,
                                       ArrayRef<Value> indices) {
  if (!values.isSplat()) {
    // An arange (TOSA has no iota) is its own index: reading it as such
    // keeps the region's arithmetic on positions, which the tile skipping
    // can bound.
    int64_t dim = arangeDim(values);
    if (dim < 0)
      return read(tensor, indices);
    if (!builder)
      return Value();
    Type elementType = values.getElementType();
    if (isa<FloatType>(elementType)) {
      Value wide = arith::IndexCastOp::create(
          *builder, loc, builder->getI64Type(), indices[dim]);
      return arith::SIToFPOp::create(*builder, loc, elementType, wide)
          .getResult();
    }
    return arith::IndexCastOp::create(*builder, loc, elementType, indices[dim])
        .getResult();
  }
  if (!builder)
    return Value();
  return arith::ConstantOp::create(
             *builder, loc, cast<TypedAttr>(values.getSplatValue<Attribute>()))
      .getResult();
}

/// A linalg op with parallel loops only, one init it does not read, and
/// maps that read each operand dim at a loop or at 0: its body at the
/// loops `indices` select.
FailureOr<Value> ElementWalk::structured(linalg::LinalgOp op,
                                         ArrayRef<Value> indices) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0)
    return fail("'" + op->getName().getStringRef() +
                "' is not elementwise (it reduces, or has several results)");
  AffineMap resultMap = op.getIndexingMapMatchingResult(op->getResult(0));
  if (!resultMap.isPermutation())
    return fail("'" + op->getName().getStringRef() +
                "' writes its result through a map that is not a permutation");
  Block *body = op.getBlock();
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingBlockArgument(init).use_empty())
    return fail("'" + op->getName().getStringRef() + "' reads its init");
  // Loop l is result dim d where resultMap's result d is l.
  SmallVector<Value> loops(op.getNumLoops());
  for (auto [dim, expr] : llvm::enumerate(resultMap.getResults()))
    loops[cast<AffineDimExpr>(expr).getPosition()] = indices[dim];

  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument argument = op.getMatchingBlockArgument(input);
    if (!isa<RankedTensorType>(input->get().getType())) {
      mapping.map(argument, input->get()); // a scalar (linalg.fill's value)
      continue;
    }
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<Value> inner;
    for (AffineExpr expr : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        inner.push_back(loops[dim.getPosition()]);
        continue;
      }
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      if (!constant || constant.getValue() != 0)
        return fail("'" + op->getName().getStringRef() +
                    "' reads an operand through an index expression");
      inner.push_back(zero());
    }
    FailureOr<Value> value = element(input->get(), inner);
    if (failed(value))
      return failure();
    mapping.map(argument, *value);
  }
  for (Operation &inner : body->without_terminator()) {
    if (inner.getNumRegions() != 0 || !isMemoryEffectFree(&inner))
      return fail("'" + op->getName().getStringRef() + "' computes with '" +
                  inner.getName().getStringRef() +
                  "', which has regions or side effects");
    if (!builder)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), loops[index.getDim()]);
      continue;
    }
    builder->clone(inner, mapping);
  }
  if (!builder)
    return Value();
  return mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
}

/// A reshape between static shapes. Row-major order is what it keeps: the
/// dims of both sides are grouped where their products agree, and within a
/// group the result's indices are linearized and split again by the
/// source's sizes (a unit-dim reshape reduces to dropping or inserting
/// zeros).
FailureOr<Value> ElementWalk::reshape(Value source, RankedTensorType result,
                                      ArrayRef<Value> indices) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<Value> kept;
  SmallVector<int64_t> keptSizes;
  for (auto [dim, size] : llvm::enumerate(result.getShape()))
    if (size != 1) {
      kept.push_back(indices[dim]);
      keptSizes.push_back(size);
    }
  SmallVector<int64_t> sourceSizes;
  for (int64_t size : sourceType.getShape())
    if (size != 1)
      sourceSizes.push_back(size);
  // Group both sides: [r_i..r_j) and [s_k..s_l) with equal products.
  SmallVector<Value> sourceIndices;
  size_t r = 0, k = 0;
  while (r < keptSizes.size() || k < sourceSizes.size()) {
    size_t rEnd = r, kEnd = k;
    int64_t rProduct = 1, kProduct = 1;
    do {
      if (rProduct <= kProduct && rEnd < keptSizes.size())
        rProduct *= keptSizes[rEnd++];
      else if (kEnd < sourceSizes.size())
        kProduct *= sourceSizes[kEnd++];
      else
        return fail("a reshape on the way changes the element count");
    } while (rProduct != kProduct);
    ArrayRef<int64_t> groupSizes = ArrayRef(sourceSizes).slice(k, kEnd - k);
    if (rEnd - r == 1 && kEnd - k == 1) {
      sourceIndices.push_back(kept[r]);
    } else {
      Value linear = linearize(ArrayRef(kept).slice(r, rEnd - r),
                               ArrayRef(keptSizes).slice(r, rEnd - r));
      llvm::append_range(sourceIndices, delinearize(linear, groupSizes));
    }
    r = rEnd;
    k = kEnd;
  }
  SmallVector<Value> inner;
  unsigned next = 0;
  for (int64_t size : sourceType.getShape())
    inner.push_back(size == 1 ? zero() : sourceIndices[next++]);
  return element(source, inner);
}

/// Σ indices[i] · Π sizes[i+1..], recorded in `linearized`.
Value ElementWalk::linearize(ArrayRef<Value> indices, ArrayRef<int64_t> sizes) {
  if (!builder)
    return Value();
  if (indices.size() == 1)
    return indices[0];
  Value linear = indices[0];
  for (auto [index, size] :
       llvm::zip(indices.drop_front(), sizes.drop_front())) {
    Value stride = arith::ConstantIndexOp::create(*builder, loc, size);
    Value scaled = arith::MulIOp::create(*builder, loc, linear, stride);
    linear = arith::AddIOp::create(*builder, loc, scaled, index);
  }
  linearized[linear] = {SmallVector<Value>(indices),
                        SmallVector<int64_t>(sizes)};
  return linear;
}

/// The indices in `sizes` of the row-major position `linear`.
SmallVector<Value> ElementWalk::delinearize(Value linear,
                                            ArrayRef<int64_t> sizes) {
  if (!builder)
    return SmallVector<Value>(sizes.size());
  if (sizes.size() == 1)
    return {linear};
  auto known = linearized.find(linear);
  if (known != linearized.end() && ArrayRef(known->second.second) == sizes)
    return known->second.first;
  SmallVector<Value> indices(sizes.size());
  Value rest = linear;
  for (int64_t dim = sizes.size() - 1; dim > 0; --dim) {
    Value size = arith::ConstantIndexOp::create(*builder, loc, sizes[dim]);
    indices[dim] = arith::RemUIOp::create(*builder, loc, rest, size);
    rest = arith::DivUIOp::create(*builder, loc, rest, size);
  }
  indices[0] = rest;
  return indices;
}

/// tosa.gather: out[n, w, c] = values[n, indices[n, w], c].
FailureOr<Value> ElementWalk::tosaGather(tosa::GatherOp gather,
                                         ArrayRef<Value> indices) {
  FailureOr<Value> position =
      element(gather.getIndices(), {indices[0], indices[1]});
  if (failed(position))
    return failure();
  Value row;
  if (builder)
    row = arith::IndexCastOp::create(*builder, loc, builder->getIndexType(),
                                     *position);
  return element(gather.getValues(), {indices[0], row, indices[2]});
}

/// An arith or math op on tensors: the same op on their elements.
FailureOr<Value> ElementWalk::elementwise(Operation *op,
                                          ArrayRef<Value> indices) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Value> scalars;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || type.getShape() != resultType.getShape())
      return fail("'" + op->getName().getStringRef() +
                  "' mixes tensors of different shapes");
    FailureOr<Value> value = element(operand, indices);
    if (failed(value))
      return failure();
    scalars.push_back(*value);
  }
  return scalarOp(op, scalars);
}

/// `op` on scalars: same name and attributes, element types.
FailureOr<Value> ElementWalk::scalarOp(Operation *op, ValueRange scalars) {
  if (!builder)
    return Value();
  OperationState state(loc, op->getName());
  state.addOperands(scalars);
  state.addTypes(getElementTypeOrSelf(op->getResult(0).getType()));
  state.addAttributes(op->getAttrs());
  return builder->create(state)->getResult(0);
}

/// `FloatOp` or `IntOp` on two scalars, by their type.
template <typename FloatOp, typename IntOp>
static Value floatOrInt(OpBuilder &b, Location loc, ValueRange x) {
  if (isa<FloatType>(x[0].getType()))
    return FloatOp::create(b, loc, x[0], x[1]);
  return IntOp::create(b, loc, x[0], x[1]);
}

static Value compare(OpBuilder &b, Location loc, ValueRange x,
                     arith::CmpFPredicate fp, arith::CmpIPredicate ip) {
  if (isa<FloatType>(x[0].getType()))
    return arith::CmpFOp::create(b, loc, fp, x[0], x[1]);
  return arith::CmpIOp::create(b, loc, ip, x[0], x[1]);
}

/// tosa.cast from float to integer as TOSA defines it (and tosa-to-linalg
/// lowers it): round to nearest even, saturate to the integer's range
/// (NaN to 0 is left to fptosi: positions never make one).
static Value castFloatToInt(OpBuilder &b, Location loc, Value x,
                            IntegerType to) {
  auto floatType = cast<FloatType>(x.getType());
  unsigned width = to.getWidth();
  APFloat low(floatType.getFloatSemantics()), high(low);
  (void)low.convertFromAPInt(APInt::getSignedMinValue(width), true,
                             APFloat::rmTowardZero);
  (void)high.convertFromAPInt(APInt::getSignedMaxValue(width), true,
                              APFloat::rmTowardZero);
  Value rounded = math::RoundEvenOp::create(b, loc, x);
  Value lowValue =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, low));
  Value highValue =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, high));
  Value clamped = arith::MaximumFOp::create(b, loc, rounded, lowValue);
  clamped = arith::MinimumFOp::create(b, loc, clamped, highValue);
  return arith::FPToSIOp::create(b, loc, to, clamped);
}

/// TOSA's elementwise ops (operands of equal rank, unit dims broadcast) as
/// arith and math ops: each data operand is read at the result's indices
/// (0 where it broadcasts), then the scalar op is built.
FailureOr<Value> ElementWalk::tosaElementwise(Operation *op,
                                              ArrayRef<Value> indices) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type elementType = resultType.getElementType();
  bool isFloat = isa<FloatType>(elementType);
  StringRef name = op->getName().getStringRef();
  // The ops followed, and their data operands (tosa.mul's third is its
  // shift, which must be 0 for integers).
  ValueRange data = op->getOperands();
  if (auto mul = dyn_cast<tosa::MulOp>(op)) {
    DenseElementsAttr shift;
    if (!isFloat && (!matchPattern(mul.getShift(), m_Constant(&shift)) ||
                     !shift.isSplat() || shift.getSplatValue<APInt>() != 0))
      return fail("a tosa.mul with a shift");
    data = op->getOperands().take_front(2);
  } else if (!isa<tosa::AddOp, tosa::SubOp, tosa::MinimumOp, tosa::MaximumOp,
                  tosa::GreaterOp, tosa::GreaterEqualOp, tosa::EqualOp,
                  tosa::LogicalAndOp, tosa::LogicalOrOp, tosa::LogicalNotOp,
                  tosa::SelectOp, tosa::AbsOp, tosa::CastOp, tosa::IntDivOp,
                  tosa::LogOp, tosa::ExpOp, tosa::FloorOp, tosa::CeilOp,
                  tosa::ReciprocalOp, tosa::NegateOp>(op)) {
    return fail("'" + name + "' is not among the TOSA ops the fold follows");
  }
  if (auto negate = dyn_cast<tosa::NegateOp>(op)) {
    // The zero points are data operands in TOSA 1.0; a float negate has
    // them 0.
    if (!isFloat)
      return fail("an integer tosa.negate (its zero points)");
    data = op->getOperands().take_front(1);
  }
  Type from = getElementTypeOrSelf(data[0].getType());
  SmallVector<Value> x;
  for (Value operand : data) {
    auto type = cast<RankedTensorType>(operand.getType());
    if (type.getRank() != resultType.getRank())
      return fail("'" + name + "' reads operands of another rank");
    SmallVector<Value> inner;
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      inner.push_back(broadcastIndex(type, resultType, dim, indices[dim]));
    FailureOr<Value> scalar = element(operand, inner);
    if (failed(scalar))
      return failure();
    x.push_back(*scalar);
  }
  if (!builder)
    return Value();
  OpBuilder &b = *builder;
  // NaN-ignoring min and max where the op says so (tosa's nan_mode).
  auto ignoresNaN = [](auto minOrMax) {
    return minOrMax.getNanMode() == tosa::NanPropagationMode::IGNORE;
  };
  using P = arith::CmpIPredicate;
  using F = arith::CmpFPredicate;
  Value result =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case([&](tosa::AddOp) {
            return floatOrInt<arith::AddFOp, arith::AddIOp>(b, loc, x);
          })
          .Case([&](tosa::SubOp) {
            return floatOrInt<arith::SubFOp, arith::SubIOp>(b, loc, x);
          })
          .Case([&](tosa::MulOp) {
            return floatOrInt<arith::MulFOp, arith::MulIOp>(b, loc, x);
          })
          .Case([&](tosa::MinimumOp min) {
            return ignoresNaN(min)
                       ? floatOrInt<arith::MinNumFOp, arith::MinSIOp>(b, loc, x)
                       : floatOrInt<arith::MinimumFOp, arith::MinSIOp>(b, loc,
                                                                       x);
          })
          .Case([&](tosa::MaximumOp max) {
            return ignoresNaN(max)
                       ? floatOrInt<arith::MaxNumFOp, arith::MaxSIOp>(b, loc, x)
                       : floatOrInt<arith::MaximumFOp, arith::MaxSIOp>(b, loc,
                                                                       x);
          })
          .Case([&](tosa::GreaterOp) {
            return compare(b, loc, x, F::OGT, P::sgt);
          })
          .Case([&](tosa::GreaterEqualOp) {
            return compare(b, loc, x, F::OGE, P::sge);
          })
          .Case(
              [&](tosa::EqualOp) { return compare(b, loc, x, F::OEQ, P::eq); })
          .Case([&](tosa::LogicalAndOp) -> Value {
            return arith::AndIOp::create(b, loc, x[0], x[1]);
          })
          .Case([&](tosa::LogicalOrOp) -> Value {
            return arith::OrIOp::create(b, loc, x[0], x[1]);
          })
          .Case([&](tosa::LogicalNotOp) -> Value {
            Value one = arith::ConstantIntOp::create(b, loc, 1, 1);
            return arith::XOrIOp::create(b, loc, x[0], one);
          })
          .Case([&](tosa::SelectOp) -> Value {
            return arith::SelectOp::create(b, loc, x[0], x[1], x[2]);
          })
          .Case([&](tosa::IntDivOp) -> Value {
            return arith::DivSIOp::create(b, loc, x[0], x[1]);
          })
          .Case([&](tosa::LogOp) -> Value {
            return math::LogOp::create(b, loc, x[0]);
          })
          .Case([&](tosa::ExpOp) -> Value {
            return math::ExpOp::create(b, loc, x[0]);
          })
          .Case([&](tosa::FloorOp) -> Value {
            return math::FloorOp::create(b, loc, x[0]);
          })
          .Case([&](tosa::CeilOp) -> Value {
            return math::CeilOp::create(b, loc, x[0]);
          })
          .Case([&](tosa::ReciprocalOp) -> Value {
            Value one = arith::ConstantOp::create(
                b, loc, b.getFloatAttr(elementType, 1.0));
            return arith::DivFOp::create(b, loc, one, x[0]);
          })
          .Case([&](tosa::NegateOp) -> Value {
            return arith::NegFOp::create(b, loc, x[0]);
          })
          .Case([&](tosa::AbsOp) -> Value {
            if (isFloat)
              return math::AbsFOp::create(b, loc, x[0]);
            return math::AbsIOp::create(b, loc, x[0]);
          })
          .Case([&](tosa::CastOp) -> Value {
            unsigned fromWidth = from.getIntOrFloatBitWidth();
            unsigned toWidth = elementType.getIntOrFloatBitWidth();
            if (isa<FloatType>(from) && !isFloat)
              return castFloatToInt(b, loc, x[0],
                                    cast<IntegerType>(elementType));
            if (isa<IntegerType>(from) && isFloat) {
              if (from.isInteger(1))
                return arith::UIToFPOp::create(b, loc, elementType, x[0]);
              return arith::SIToFPOp::create(b, loc, elementType, x[0]);
            }
            if (fromWidth == toWidth)
              return x[0];
            if (isFloat && fromWidth < toWidth)
              return arith::ExtFOp::create(b, loc, elementType, x[0]);
            if (isFloat)
              return arith::TruncFOp::create(b, loc, elementType, x[0]);
            if (fromWidth < toWidth && from.isInteger(1))
              return arith::ExtUIOp::create(b, loc, elementType, x[0]);
            if (fromWidth < toWidth)
              return arith::ExtSIOp::create(b, loc, elementType, x[0]);
            return arith::TruncIOp::create(b, loc, elementType, x[0]);
          })
          .Default([](Operation *) { return Value(); }); // filtered above
  return result;
}

/// The block of a new score_mod or mask_mod region of `op`.
Block *createModifierBlock(OpBuilder &b, Region &region, Location loc,
                           bool withScore) {
  Type index = b.getIndexType();
  SmallVector<Type> types;
  if (withScore)
    types.push_back(b.getF32Type());
  types.append(4, index);
  SmallVector<Location> locs(types.size(), loc);
  return b.createBlock(&region, region.end(), types, locs);
}

} // namespace

/// Folds `op`'s mask into a score_mod or mask_mod (see the pass); `why`
/// says why not on failure.
LogicalResult mlir::fa::foldMaskIntoModifiers(RewriterBase &rewriter,
                                              AttentionOpInterface op,
                                              std::string &why) {
  Value mask = op.getMask();
  if (!mask) {
    why = "no mask";
    return failure();
  }
  if (!std::isinf(op.getHiddenScore())) {
    why = "the mask has mask_fill: its hidden keys keep a weight";
    return failure();
  }
  auto backward = dyn_cast<AttentionBackwardOp>(op.getOperation());
  if (backward && backward.getGradMask()) {
    why = "the op computes the mask's gradient (grad_mask)";
    return failure();
  }
  auto maskType = cast<RankedTensorType>(mask.getType());
  if (!maskType.hasStaticShape()) {
    why = "the mask has a dynamic shape";
    return failure();
  }
  if (!mask.getDefiningOp()) {
    why = "the mask is a tensor the program passes in, not a computation";
    return failure();
  }
  Location loc = op.getLoc();
  // Decide first, creating nothing.
  ElementWalk decide(nullptr, loc, maskType.getNumElements());
  SmallVector<Value> none(4);
  if (failed(decide.element(mask, none))) {
    why = decide.why;
    return failure();
  }
  if (decide.followed == 0) {
    why = "the mask is a tensor the program passes in, not a computation";
    return failure();
  }

  bool additive = !maskType.getElementType().isInteger(1);
  // Both ops declare score_mod, then mask_mod.
  Region &region = op->getRegion(additive ? 0 : 1);
  // The region being replaced, if any, moves into a block of its own.
  Block *previous = region.empty() ? nullptr : &region.front();
  OpBuilder::InsertionGuard guard(rewriter);
  Block *block = createModifierBlock(rewriter, region, loc, additive);
  rewriter.setInsertionPointToStart(block);
  ValueRange positions = block->getArguments().take_back(4);
  // A broadcast dim of the mask is read at 0.
  SmallVector<Value> indices;
  for (int64_t dim = 0; dim < 4; ++dim)
    indices.push_back(
        maskType.getDimSize(dim) == 1
            ? arith::ConstantIndexOp::create(rewriter, loc, 0).getResult()
            : positions[dim]);
  ElementWalk emit(&rewriter, loc, maskType.getNumElements());
  Value element = *emit.element(mask, indices);
  Value result;
  if (additive) {
    Value score = block->getArgument(0);
    if (previous)
      score = inlineModifier(rewriter, previous, block->getArguments());
    Value bias = castToF32(rewriter, loc, element);
    result = arith::AddFOp::create(rewriter, loc, score, bias);
  } else {
    result = element;
    if (previous) {
      Value kept = inlineModifier(rewriter, previous, block->getArguments());
      result = arith::AndIOp::create(rewriter, loc, kept, result);
    }
  }
  YieldOp::create(rewriter, loc, result);
  if (previous)
    rewriter.eraseBlock(previous);

  rewriter.modifyOpInPlace(op, [&] {
    if (backward)
      backward.getMaskMutable().clear();
    else
      cast<AttentionOp>(op.getOperation()).getMaskMutable().clear();
  });
  // What only fed the mask is dead now. (An op may be reached through two
  // operands of one consumer: each is erased once.)
  SmallVector<Operation *> worklist;
  llvm::SmallPtrSet<Operation *, 16> erased;
  if (Operation *def = mask.getDefiningOp())
    worklist.push_back(def);
  while (!worklist.empty()) {
    Operation *dead = worklist.pop_back_val();
    if (erased.contains(dead) || !dead->use_empty() ||
        !isMemoryEffectFree(dead) ||
        (dead->getNumRegions() != 0 && !isa<linalg::LinalgOp>(dead)))
      continue;
    for (Value operand : dead->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        worklist.push_back(producer);
    erased.insert(dead);
    rewriter.eraseOp(dead);
  }
  return success();
}

/// A mask_mod that hides exactly what a causal mask hides, whatever its
/// spelling (`k < 1 || k <= q`, positions compared in i32, a query
/// position folded to a constant when Nq = 1), becomes the causal
/// attribute: each row b, h, q is proven, by the interval evaluation the
/// tiled lowering uses to skip tiles, to show every key in [0, q + delta]
/// and none after it, for delta = 0 (top_left) or Nk - Nq (bottom_right).
/// Only for static shapes with at most kMaxProvenRows rows, no kv_lengths,
/// packing or mask_fill, and no row left without keys (where the two
/// forms could differ in what an empty row computes). Exact: nothing is
/// assumed that was not proven for every row.
template <typename OpTy>
static LogicalResult provenCausal(OpTy op, DiagonalAlignment &alignment) {
  constexpr int64_t kMaxProvenRows = 1 << 16;
  Block *block = op.getMaskModBlock();
  if (!block || op.getCausal() || op.getWindowAttr() || op.getMaskFillAttr() ||
      op.getKvLengths() || op.isPacked())
    return failure();
  auto queryType = cast<RankedTensorType>(op.getQuery().getType());
  if (!queryType.hasStaticShape())
    return failure();
  int64_t batch = queryType.getDimSize(0), heads = queryType.getDimSize(1);
  int64_t queryLen = queryType.getDimSize(2), keyLen = op.getKeyLength();
  if (ShapedType::isDynamic(keyLen) || keyLen < 1 ||
      batch * heads * queryLen > kMaxProvenRows)
    return failure();
  auto rowIsCausal = [&](int64_t b, int64_t h, int64_t q, int64_t delta) {
    int64_t last = std::min(q + delta, keyLen - 1);
    if (last < 0)
      return false; // an empty row
    std::optional<std::pair<bool, bool>> seen =
        staticTileVisibility(block, {{b, b}, {h, h}, {q, q}, {0, last}});
    if (!seen || !seen->second)
      return false;
    if (last == keyLen - 1)
      return true;
    std::optional<std::pair<bool, bool>> hidden = staticTileVisibility(
        block, {{b, b}, {h, h}, {q, q}, {last + 1, keyLen - 1}});
    return hidden && !hidden->first;
  };
  for (auto [delta, align] :
       {std::pair{int64_t{0}, DiagonalAlignment::top_left},
        std::pair{keyLen - queryLen, DiagonalAlignment::bottom_right}}) {
    bool causal = true;
    for (int64_t b = 0; causal && b < batch; ++b)
      for (int64_t h = 0; causal && h < heads; ++h)
        for (int64_t q = 0; causal && q < queryLen; ++q)
          causal = rowIsCausal(b, h, q, delta);
    if (causal) {
      alignment = align;
      return success();
    }
  }
  return failure();
}

template <typename OpTy>
static bool foldProvenCausal(RewriterBase &rewriter, Operation *operation) {
  auto op = dyn_cast<OpTy>(operation);
  DiagonalAlignment alignment;
  if (!op || failed(provenCausal(op, alignment)))
    return false;
  rewriter.modifyOpInPlace(op, [&] {
    op.setCausalAttr(DiagonalAlignmentAttr::get(op.getContext(), alignment));
  });
  rewriter.eraseBlock(op.getMaskModBlock());
  return true;
}

namespace {
struct FAFoldMasksIntoModifiersPass
    : fa::impl::FAFoldMasksIntoModifiersBase<FAFoldMasksIntoModifiersPass> {
  using FAFoldMasksIntoModifiersBase::FAFoldMasksIntoModifiersBase;

  void runOnOperation() override {
    SmallVector<AttentionOpInterface> ops;
    getOperation()->walk([&](AttentionOpInterface op) {
      if (op.getMask())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> folded;
    for (AttentionOpInterface op : ops) {
      std::string why;
      if (succeeded(foldMaskIntoModifiers(rewriter, op, why)))
        folded.push_back(op);
      else if (explain)
        op.emitRemark() << "mask left as an operand: " << why;
    }
    // A folded mask_mod that is exactly causal or a sliding window becomes
    // the attribute (the ops' canonicalization), whose tile bounds every
    // lowering computes in closed form.
    RewritePatternSet patterns(&getContext());
    AttentionOp::getCanonicalizationPatterns(patterns, &getContext());
    AttentionBackwardOp::getCanonicalizationPatterns(patterns, &getContext());
    (void)applyOpPatternsGreedily(folded, std::move(patterns));
    // What the patterns did not read as a band, proven causal row by row.
    for (Operation *op : folded)
      if (!foldProvenCausal<AttentionOp>(rewriter, op))
        (void)foldProvenCausal<AttentionBackwardOp>(rewriter, op);
  }
};
} // namespace
