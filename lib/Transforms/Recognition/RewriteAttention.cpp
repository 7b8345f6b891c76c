//===- RewriteAttention.cpp - A match emitted as fa ops -------------------===//
//
// Stage: recognition (rewriting). Emits the fa op for a match of the
// matcher (AttentionMatcher.h, LinearAttention.h): Q, K, V and the mask are
// brought to the op's rank-4 [B, H, N, D] form with reshapes that only
// insert unit dims, the op's result is reshaped back (through the moves a
// deferred normalization reads P·V's rows through), and the ops of the old
// pattern are erased once dead. Rows with no visible key keep the
// frontend's value (see FullyMaskedRows). The matcher decides; this file
// only emits.
//
//===----------------------------------------------------------------------===//

#include "RewriteAttention.h"

#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <limits>
#include <numeric>
#include <set>

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::recognition;

namespace {

/// Groups the `missing` leading unit dims of a rank-4 tensor with the first
/// real dim: [[0, ..., missing], [missing + 1], ..., [3]].
SmallVector<ReassociationIndices> leadingUnitReassociation(int64_t missing) {
  SmallVector<ReassociationIndices> reassociation(1);
  for (int64_t dim = 0; dim <= missing; ++dim)
    reassociation.front().push_back(dim);
  for (int64_t dim = missing + 1; dim < 4; ++dim)
    reassociation.push_back({dim});
  return reassociation;
}

/// `tensor` transposed by `permutation` (result dim i is dim p[i]); the
/// tensor itself when the permutation is empty.
Value transpose(OpBuilder &b, Location loc, Value tensor,
                ArrayRef<int64_t> permutation) {
  if (permutation.empty())
    return tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
  SmallVector<OpFoldResult> permutedSizes;
  for (int64_t dim : permutation)
    permutedSizes.push_back(sizes[dim]);
  Value init =
      tensor::EmptyOp::create(b, loc, permutedSizes, type.getElementType());
  return linalg::TransposeOp::create(b, loc, tensor, init, permutation)
      ->getResult(0);
}

/// `tensor` moved as `layout` (a transpose, a transposing copy or a reshape
/// on a tensor of the same shape) moves its operand, in `tensor`'s element
/// type.
Value applyLayout(OpBuilder &b, Location loc, Value tensor, Operation *layout) {
  if (auto transposeOp = dyn_cast<linalg::TransposeOp>(layout))
    return transpose(b, loc, tensor, transposeOp.getPermutation());
  if (auto transposeOp = dyn_cast<tosa::TransposeOp>(layout)) {
    SmallVector<int64_t> permutation(transposeOp.getPerms().begin(),
                                     transposeOp.getPerms().end());
    return transpose(b, loc, tensor, permutation);
  }
  if (auto copy = dyn_cast<linalg::GenericOp>(layout)) {
    // A copy in another order (labelsAfterLayout): input dim j is result
    // dim map(j), so result dim map(j) takes operand dim j.
    AffineMap map = copy.getIndexingMapsArray().front();
    SmallVector<int64_t> permutation(map.getNumResults());
    for (unsigned dim = 0; dim < map.getNumResults(); ++dim)
      permutation[map.getDimPosition(dim)] = dim;
    return transpose(b, loc, tensor, permutation);
  }
  Type element = cast<RankedTensorType>(tensor.getType()).getElementType();
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(layout))
    return tensor::CollapseShapeOp::create(
        b, loc, collapse.getResultType().clone(element), tensor,
        collapse.getReassociationIndices());
  auto expandOp = cast<tensor::ExpandShapeOp>(layout);
  return tensor::ExpandShapeOp::create(
      b, loc, expandOp.getResultType().clone(element), tensor,
      expandOp.getReassociationIndices(), expandOp.getMixedOutputShape());
}

/// [batch..., N, D] (rank 2 to 4) to [B, H, N, D], adding leading unit dims:
/// one batch dim becomes H, none gives B = H = 1.
Value expandToRank4(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  int64_t missing = 4 - type.getRank();
  if (missing == 0)
    return tensor;
  SmallVector<int64_t> shape(missing, 1);
  llvm::append_range(shape, type.getShape());
  SmallVector<OpFoldResult> sizes(missing, b.getIndexAttr(1));
  llvm::append_range(sizes, tensor::getMixedSizes(b, loc, tensor));
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), tensor,
      leadingUnitReassociation(missing), sizes);
}

/// [B*H, N, D] to [B, H, N, D] with the static split `sizes`.
Value splitBatch(OpBuilder &b, Location loc, Value tensor,
                 ArrayRef<int64_t> sizes) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<int64_t> shape(sizes);
  llvm::append_range(shape, type.getShape().drop_front());
  SmallVector<OpFoldResult> outputSizes = {b.getIndexAttr(sizes[0]),
                                           b.getIndexAttr(sizes[1])};
  llvm::append_range(
      outputSizes,
      ArrayRef(tensor::getMixedSizes(b, loc, tensor)).drop_front());
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), tensor,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}}, outputSizes);
}

/// The inverse of expandToRank4 for the op's output.
Value collapseFromRank4(OpBuilder &b, Location loc, Value tensor,
                        int64_t rank) {
  int64_t missing = 4 - rank;
  if (missing == 0)
    return tensor;
  return tensor::CollapseShapeOp::create(b, loc, tensor,
                                         leadingUnitReassociation(missing));
}

/// The grouped queries' [..., Hkv, G, ...] (dims `headDim`, `headDim + 1`)
/// merged into the op's heads [..., Hkv·G, ...]: head k·G + g.
Value mergeGroupIntoHeads(OpBuilder &b, Location loc, Value tensor,
                          int64_t headDim) {
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (dim == headDim)
      reassociation.push_back({dim, dim + 1});
    else if (dim != headDim + 1)
      reassociation.push_back({dim});
  }
  return tensor::CollapseShapeOp::create(b, loc, tensor, reassociation);
}

/// The inverse of mergeGroupIntoHeads for the op's output: dim `headDim`
/// (Hkv·G heads) split into [Hkv, groups].
Value splitHeadsIntoGroups(OpBuilder &b, Location loc, Value tensor,
                           int64_t headDim, int64_t groups) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
  SmallVector<OpFoldResult> outputSizes;
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    int64_t next = shape.size();
    if (dim != headDim) {
      reassociation.push_back({next});
      shape.push_back(type.getDimSize(dim));
      outputSizes.push_back(sizes[dim]);
      continue;
    }
    reassociation.push_back({next, next + 1});
    int64_t heads = type.getDimSize(dim);
    if (ShapedType::isDynamic(heads)) {
      Value groupCount = arith::ConstantIndexOp::create(b, loc, groups);
      outputSizes.push_back(Value(
          arith::DivUIOp::create(b, loc, cast<Value>(sizes[dim]), groupCount)));
      shape.push_back(ShapedType::kDynamic);
    } else {
      outputSizes.push_back(b.getIndexAttr(heads / groups));
      shape.push_back(heads / groups);
    }
    outputSizes.push_back(b.getIndexAttr(groups));
    shape.push_back(groups);
  }
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), tensor,
      reassociation, outputSizes);
}

/// A grouped mask [B, Hkv, G, Nq, Nk] (arrangeMask) as the op's [B, Hkv·G,
/// Nq, Nk]. A mask that varies with only one of the K/V head and the group
/// is broadcast over the other first: a merged dim is either every head or
/// one. `key` is the op's K, for Hkv.
Value mergeMaskGroup(OpBuilder &b, Location loc, Value mask,
                     ArrayRef<Axis> labels, unsigned numBatchDims, Value key,
                     int64_t groups) {
  bool hasHeads =
      llvm::is_contained(labels, Axis{AxisKind::Batch, numBatchDims - 1});
  bool hasGroup = llvm::is_contained(labels, Axis{AxisKind::Group});
  SmallVector<ReassociationIndices> merge = {{0}, {1, 2}, {3}, {4}};
  if (hasHeads != hasGroup) {
    auto type = cast<RankedTensorType>(mask.getType());
    Value compact = tensor::CollapseShapeOp::create(b, loc, mask, merge);
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, mask);
    if (!hasHeads)
      sizes[1] = tensor::getMixedSize(b, loc, key, 1);
    else
      sizes[2] = b.getIndexAttr(groups);
    Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
    mask = linalg::BroadcastOp::create(b, loc, compact, init,
                                       ArrayRef<int64_t>{hasHeads ? 2 : 1})
               ->getResult(0);
  }
  return tensor::CollapseShapeOp::create(b, loc, mask, merge);
}

/// A tensor read along the merged heads [Hkv·G] (AxisKind::GroupedHeads)
/// with that dim split into [Hkv, G], labelled as the last batch dim and
/// the group; other tensors as they are.
Value splitGroupedHeads(OpBuilder &b, Location loc, Value tensor,
                        Labels &labels, const AttentionMatch &match) {
  auto found = llvm::find(labels, Axis{AxisKind::GroupedHeads});
  if (found == labels.end())
    return tensor;
  int64_t dim = found - labels.begin();
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<int64_t> shape;
  Labels split;
  for (int64_t d = 0, next = 0; d < type.getRank(); ++d) {
    if (d == dim) {
      reassociation.push_back({next, next + 1});
      next += 2;
      llvm::append_range(shape, match.groupedHeads);
      split.push_back(Axis{AxisKind::Batch, match.numBatchDims - 1});
      split.push_back(Axis{AxisKind::Group});
      continue;
    }
    reassociation.push_back({next++});
    shape.push_back(type.getDimSize(d));
    split.push_back(labels[d]);
  }
  labels = split;
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), tensor,
      reassociation);
}

/// Brings a mask read as `labels` (a subsequence of [batch..., Nq, Nk] plus
/// static unit dims) to the op's rank-4 [B, H, Nq, Nk] form: unit dims are
/// collapsed away, then unit dims are inserted where the mask broadcasts.
/// With grouped queries the labels are a subsequence of [batch..., G, Nq,
/// Nk], and the mask is first brought to [B, Hkv, G, Nq, Nk]
/// (mergeMaskGroup merges it into the op's heads).
Value arrangeMask(OpBuilder &b, Location loc, Value mask, ArrayRef<Axis> labels,
                  unsigned numBatchDims, bool group) {
  auto type = cast<RankedTensorType>(mask.getType());
  int64_t slots = group ? 5 : 4;
  // Target position of each axis in [B, H, (G,) Nq, Nk].
  auto targetPosition = [&](Axis axis) -> int64_t {
    switch (axis.kind) {
    case AxisKind::Batch:
      // Parts of a split batch dim are B and H themselves.
      if (axis.part)
        return axis.part - 1;
      return axis.batchIndex + (2 - numBatchDims);
    case AxisKind::Group:
      return 2;
    case AxisKind::Query:
      return slots - 2;
    case AxisKind::Key:
      return slots - 1;
    default:
      llvm_unreachable("not a score axis");
    }
  };
  SmallVector<int64_t> kept, positions;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Unit)
      continue;
    kept.push_back(dim);
    positions.push_back(targetPosition(axis));
  }
  // A mask in another order ([B, Nk, 1, Nq], say) is first transposed to
  // the op's order of its real dims; its unit dims stay where they are.
  SmallVector<int64_t> byPosition(kept.size());
  std::iota(byPosition.begin(), byPosition.end(), 0);
  llvm::sort(byPosition,
             [&](int64_t a, int64_t b) { return positions[a] < positions[b]; });
  if (!llvm::is_sorted(positions)) {
    SmallVector<int64_t> permutation(labels.size());
    std::iota(permutation.begin(), permutation.end(), 0);
    for (auto [slot, index] : llvm::enumerate(byPosition))
      permutation[kept[slot]] = kept[index];
    mask = transpose(b, loc, mask, permutation);
    type = cast<RankedTensorType>(mask.getType());
    llvm::sort(positions);
  }

  // Drop the unit dims: each kept dim absorbs the unit dims before it, the
  // last one those after it too.
  Value compact = mask;
  if (kept.size() != labels.size()) {
    SmallVector<ReassociationIndices> reassociation;
    int64_t next = 0;
    for (auto [index, dim] : llvm::enumerate(kept)) {
      ReassociationIndices group;
      int64_t end = index + 1 == kept.size() ? type.getRank() - 1 : dim;
      for (int64_t d = next; d <= end; ++d)
        group.push_back(d);
      next = end + 1;
      reassociation.push_back(group);
    }
    SmallVector<int64_t> shape;
    for (int64_t dim : kept)
      shape.push_back(type.getDimSize(dim));
    compact = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get(shape, type.getElementType()), mask,
        reassociation);
  }

  // Insert unit dims at the positions the mask broadcasts over.
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<int64_t> shape(slots, 1);
  SmallVector<OpFoldResult> sizes(slots, b.getIndexAttr(1));
  SmallVector<OpFoldResult> compactSizes =
      tensor::getMixedSizes(b, loc, compact);
  int64_t next = 0;
  for (auto [index, position] : llvm::enumerate(positions)) {
    ReassociationIndices group;
    int64_t end = index + 1 == positions.size() ? slots - 1 : position;
    for (int64_t p = next; p <= end; ++p)
      group.push_back(p);
    next = end + 1;
    reassociation.push_back(group);
    shape[position] =
        cast<RankedTensorType>(compact.getType()).getDimSize(index);
    sizes[position] = compactSizes[index];
  }
  if (static_cast<int64_t>(positions.size()) == slots)
    return compact;
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), compact,
      reassociation, sizes);
}

/// An integer tensor (lengths, page numbers) as i32, for the op's operands:
/// wider values are clamped to [0, INT32_MAX] first, so that no length or
/// page wraps around (the op clamps them into range itself).
Value convertToI32(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Type i32 = b.getI32Type();
  if (type.getElementType() == i32)
    return tensor;
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, tensor), i32);
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  auto convert = linalg::GenericOp::create(
      b, loc, type.clone(i32), ValueRange{tensor}, ValueRange{init},
      ArrayRef<AffineMap>{identity, identity}, parallel,
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value value = args[0];
        if (value.getType().isIndex())
          value = arith::IndexCastOp::create(nested, loc, nested.getI64Type(),
                                             value);
        unsigned width = value.getType().getIntOrFloatBitWidth();
        if (width < 32) {
          value = arith::ExtSIOp::create(nested, loc, i32, value);
        } else if (width > 32) {
          Type wide = value.getType();
          Value zero = arith::ConstantIntOp::create(nested, loc, wide, 0);
          Value most = arith::ConstantIntOp::create(
              nested, loc, wide, std::numeric_limits<int32_t>::max());
          value = arith::MaxSIOp::create(nested, loc, value, zero);
          value = arith::MinSIOp::create(nested, loc, value, most);
          value = arith::TruncIOp::create(nested, loc, i32, value);
        }
        linalg::YieldOp::create(nested, loc, value);
      });
  return convert.getResult(0);
}

/// The op's kv_lengths ([B] i32) from the frontend's lengths: the [B] slice
/// the mask reads (or its one value, splat over B), converted to i32; the
/// clamp keeps `j < L` for every key j (the op clamps to [0, Nk] itself).
Value buildKVLengths(OpBuilder &b, Location loc, const SequenceLengths &lengths,
                     Value query) {
  Value tensor = lengths.tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  int64_t rank = type.getRank();
  Value perSequence;
  if (lengths.sequenceDim < 0) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value scalar = tensor::ExtractOp::create(b, loc, tensor,
                                             SmallVector<Value>(rank, zero));
    OpFoldResult batch = tensor::getMixedSize(b, loc, query, 0);
    auto splatType = RankedTensorType::get(
        {getConstantIntValue(batch).value_or(ShapedType::kDynamic)},
        type.getElementType());
    SmallVector<Value> dynamicSizes;
    if (splatType.isDynamicDim(0))
      dynamicSizes.push_back(cast<Value>(batch));
    perSequence =
        tensor::SplatOp::create(b, loc, splatType, scalar, dynamicSizes);
  } else if (rank == 1) {
    perSequence = tensor;
  } else {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes(rank, b.getIndexAttr(1));
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    sizes[lengths.sequenceDim] =
        tensor::getMixedSize(b, loc, tensor, lengths.sequenceDim);
    auto sliceType = RankedTensorType::get(
        {type.getDimSize(lengths.sequenceDim)}, type.getElementType());
    perSequence = tensor::ExtractSliceOp::create(b, loc, sliceType, tensor,
                                                 offsets, sizes, strides);
  }

  return convertToI32(b, loc, perSequence);
}

/// Where the op's logsumexp is -inf (no visible key), replaces the output
/// row by what the frontend computes there: NaN, or the mean of V over all
/// keys (of K/V head h / groupSize, as the op reads them). With Nk = 0 the
/// frontend's P·V is an empty sum, 0 as in the op: `keysExist` (an i1, or
/// null when Nk > 0 is known) keeps those rows.
Value restoreFullyMaskedRows(OpBuilder &b, Location loc, Value output,
                             Value logsumexp, Value value, FullyMaskedRows rows,
                             int64_t groupSize, Value keysExist) {
  MLIRContext *ctx = b.getContext();
  auto outputType = cast<RankedTensorType>(output.getType());
  Type elementType = outputType.getElementType();
  Type f32 = b.getF32Type();
  AffineMap identity = b.getMultiDimIdentityMap(4);
  AffineExpr bIdx, h, i, e;
  bindDims(ctx, bIdx, h, i, e);
  AffineMap rowMap = AffineMap::get(4, 0, {bIdx, h, i}, ctx);
  auto par = utils::IteratorType::parallel;
  auto red = utils::IteratorType::reduction;

  SmallVector<Value> inputs = {output, logsumexp};
  SmallVector<AffineMap> maps = {identity, rowMap};
  if (rows == FullyMaskedRows::MeanOfValues) {
    // mean[b, h, e] = sum_j V[b, h, j, e] / Nk, in f32.
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
    Value keyLen = arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        getValueOrCreateConstantIndexOp(b, loc, sizes[2]));
    Value keyLenF = arith::UIToFPOp::create(b, loc, f32, keyLen);
    Value empty = tensor::EmptyOp::create(
        b, loc, SmallVector<OpFoldResult>{sizes[0], sizes[1], sizes[3]}, f32);
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    Value init =
        linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty})
            .getResult(0);
    AffineExpr j = e; // loops (b, h, e, j)
    AffineExpr col = i;
    Value sum =
        linalg::GenericOp::create(
            b, loc, TypeRange{init.getType()}, ValueRange{value},
            ValueRange{init},
            ArrayRef<AffineMap>{AffineMap::get(4, 0, {bIdx, h, j, col}, ctx),
                                AffineMap::get(4, 0, {bIdx, h, col}, ctx)},
            ArrayRef<utils::IteratorType>{par, par, par, red},
            [&](OpBuilder &nb, Location nloc, ValueRange args) {
              Value element = args[0];
              if (!element.getType().isF32())
                element = arith::ExtFOp::create(nb, nloc, f32, element);
              linalg::YieldOp::create(nb, nloc,
                                      ValueRange{arith::AddFOp::create(
                                          nb, nloc, element, args[1])});
            })
            .getResult(0);
    inputs.push_back(sum);
    maps.push_back(AffineMap::get(4, 0, {bIdx, h.floorDiv(groupSize), e}, ctx));
    inputs.push_back(keyLenF);
    maps.push_back(AffineMap::get(4, 0, {}, ctx));
  }
  maps.push_back(identity);
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, output), elementType);
  return linalg::GenericOp::create(
             b, loc, TypeRange{outputType}, inputs, ValueRange{init}, maps,
             ArrayRef<utils::IteratorType>{par, par, par, par},
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value negInf = arith::ConstantOp::create(
                   nb, nloc,
                   nb.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
               Value empty = arith::CmpFOp::create(
                   nb, nloc, arith::CmpFPredicate::OEQ, args[1], negInf);
               if (keysExist)
                 empty = arith::AndIOp::create(nb, nloc, empty, keysExist);
               Value replacement;
               if (rows == FullyMaskedRows::MeanOfValues) {
                 replacement =
                     arith::DivFOp::create(nb, nloc, args[2], args[3]);
                 if (!elementType.isF32())
                   replacement = arith::TruncFOp::create(nb, nloc, elementType,
                                                         replacement);
               } else {
                 replacement = arith::ConstantOp::create(
                     nb, nloc,
                     nb.getFloatAttr(elementType,
                                     std::numeric_limits<double>::quiet_NaN()));
               }
               Value result = arith::SelectOp::create(nb, nloc, empty,
                                                      replacement, args[0]);
               linalg::YieldOp::create(nb, nloc, ValueRange{result});
             })
      .getResult(0);
}

/// Inserts static unit dims into `tensor` where `isUnit` says (the result
/// has isUnit.size() dims, the others being the tensor's, in order).
Value insertUnitDims(OpBuilder &b, Location loc, Value tensor,
                     ArrayRef<bool> isUnit) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (static_cast<int64_t>(isUnit.size()) == type.getRank())
    return tensor;
  SmallVector<int64_t> real;
  for (auto [dim, unit] : llvm::enumerate(isUnit))
    if (!unit)
      real.push_back(dim);
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<int64_t> shape(isUnit.size(), 1);
  SmallVector<OpFoldResult> sizes(isUnit.size(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> tensorSizes = tensor::getMixedSizes(b, loc, tensor);
  int64_t next = 0;
  for (auto [index, position] : llvm::enumerate(real)) {
    ReassociationIndices group;
    int64_t end = index + 1 == real.size()
                      ? static_cast<int64_t>(isUnit.size()) - 1
                      : position;
    for (int64_t p = next; p <= end; ++p)
      group.push_back(p);
    next = end + 1;
    reassociation.push_back(group);
    shape[position] = type.getDimSize(index);
    sizes[position] = tensorSizes[index];
  }
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), tensor,
      reassociation, sizes);
}

/// The op's logsumexp, [B, H, Nq] f32, in the shape, dim order and type of
/// the frontend's own logsumexp (whose dims `match.logsumexpLabels` name).
/// The matcher takes it only where every row sees a key.
Value frontendLogsumexp(OpBuilder &b, Location loc, Value logsumexp,
                        const AttentionMatch &match) {
  // The row axes the frontend holds, in its order.
  SmallVector<bool> isUnit;
  Labels rowAxes;
  for (const Axis &axis : match.logsumexpLabels) {
    isUnit.push_back(axis.kind == AxisKind::Unit);
    if (axis.kind != AxisKind::Unit)
      rowAxes.push_back(axis);
  }
  // The op's [B, H, Nq] to the frontend's rank: merge a split batch the
  // frontend holds merged, or drop the unit dims the rewrite added.
  Labels canonical;
  bool mergedBatch = llvm::is_contained(rowAxes, Axis{AxisKind::Batch, 0});
  if (!match.batchSplit.empty() && !mergedBatch) {
    canonical = {Axis{AxisKind::Batch, 0, 1}, Axis{AxisKind::Batch, 0, 2}};
  } else {
    unsigned numBatchDims = match.batchSplit.empty() ? match.numBatchDims : 1;
    for (unsigned index = 0; index < numBatchDims; ++index)
      canonical.push_back(Axis{AxisKind::Batch, index});
  }
  canonical.push_back(Axis{AxisKind::Query});
  int64_t missing = 3 - static_cast<int64_t>(canonical.size());
  if (missing > 0) {
    SmallVector<ReassociationIndices> reassociation(1);
    for (int64_t dim = 0; dim <= missing; ++dim)
      reassociation.front().push_back(dim);
    for (int64_t dim = missing + 1; dim < 3; ++dim)
      reassociation.push_back({dim});
    logsumexp =
        tensor::CollapseShapeOp::create(b, loc, logsumexp, reassociation);
  }
  // To the frontend's order, then its unit dims and element type.
  SmallVector<int64_t> permutation;
  for (const Axis &axis : rowAxes)
    permutation.push_back(llvm::find(canonical, axis) - canonical.begin());
  if (!llvm::is_sorted(permutation))
    logsumexp = transpose(b, loc, logsumexp, permutation);
  logsumexp = insertUnitDims(b, loc, logsumexp, isUnit);
  auto targetType = cast<RankedTensorType>(match.logsumexp.getType());
  auto currentType = cast<RankedTensorType>(logsumexp.getType());
  if (currentType.getElementType() != targetType.getElementType()) {
    auto retyped = currentType.clone(targetType.getElementType());
    if (targetType.getElementType().getIntOrFloatBitWidth() < 32)
      logsumexp = arith::TruncFOp::create(b, loc, retyped, logsumexp);
    else
      logsumexp = arith::ExtFOp::create(b, loc, retyped, logsumexp);
  }
  if (logsumexp.getType() != targetType)
    logsumexp = tensor::CastOp::create(b, loc, targetType, logsumexp);
  return logsumexp;
}

/// `tensor` times the constant `factor`, in its element type.
Value scaleTensor(OpBuilder &b, Location loc, Value tensor, double factor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, tensor), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{tensor}, ValueRange{init},
             ArrayRef<AffineMap>{identity, identity},
             SmallVector<utils::IteratorType>(type.getRank(),
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value constant = arith::ConstantOp::create(
                   nb, nloc, nb.getFloatAttr(type.getElementType(), factor));
               linalg::YieldOp::create(nb, nloc,
                                       ValueRange{arith::MulFOp::create(
                                           nb, nloc, args[0], constant)});
             })
      .getResult(0);
}

/// Nk > 0 for the op's K ([B, Hkv, Nk, D]), as an i1.
Value keysExist(OpBuilder &b, Location loc, Value key) {
  Value keyLength = getValueOrCreateConstantIndexOp(
      b, loc, tensor::getMixedSize(b, loc, key, 2));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, keyLength,
                               zero);
}

/// Whether an f32 scalar (a logsumexp) is -inf: its row saw no key.
Value isNegInf(OpBuilder &b, Location loc, Value value) {
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, value,
                               negInf);
}

/// [B, H] i1: whether some row of the head has no visible key (the op's
/// logsumexp is -inf there) while keys exist.
Value headsWithEmptyRows(OpBuilder &b, Location loc, Value logsumexp,
                         Value keys) {
  MLIRContext *ctx = b.getContext();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, logsumexp);
  Value empty = tensor::EmptyOp::create(
      b, loc, ArrayRef<OpFoldResult>(sizes).take_front(2), b.getI1Type());
  Value falseValue = arith::ConstantIntOp::create(b, loc, 0, 1);
  Value init =
      linalg::FillOp::create(b, loc, ValueRange{falseValue}, ValueRange{empty})
          .getResult(0);
  AffineExpr bIdx, h, i;
  bindDims(ctx, bIdx, h, i);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{logsumexp},
             ValueRange{init},
             ArrayRef<AffineMap>{AffineMap::get(3, 0, {bIdx, h, i}, ctx),
                                 AffineMap::get(3, 0, {bIdx, h}, ctx)},
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                           utils::IteratorType::parallel,
                                           utils::IteratorType::reduction},
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value isEmpty = isNegInf(nb, nloc, args[0]);
               isEmpty = arith::AndIOp::create(nb, nloc, isEmpty, keys);
               linalg::YieldOp::create(nb, nloc,
                                       ValueRange{arith::OrIOp::create(
                                           nb, nloc, isEmpty, args[1])});
             })
      .getResult(0);
}

/// [B, H, Nk] i1: whether some row i with no visible key (the op's
/// logsumexp is -inf there) keeps key j under a causal mask of diagonal
/// offset `offset` (j <= i + offset).
Value keysKeptByEmptyRows(OpBuilder &b, Location loc, Value logsumexp,
                          Value key, int64_t offset) {
  MLIRContext *ctx = b.getContext();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, logsumexp);
  sizes.back() = tensor::getMixedSize(b, loc, key, 2);
  Value empty = tensor::EmptyOp::create(b, loc, sizes, b.getI1Type());
  Value falseValue = arith::ConstantIntOp::create(b, loc, 0, 1);
  Value init =
      linalg::FillOp::create(b, loc, ValueRange{falseValue}, ValueRange{empty})
          .getResult(0);
  AffineExpr bIdx, h, j, i;
  bindDims(ctx, bIdx, h, j, i);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{logsumexp},
             ValueRange{init},
             ArrayRef<AffineMap>{AffineMap::get(4, 0, {bIdx, h, i}, ctx),
                                 AffineMap::get(4, 0, {bIdx, h, j}, ctx)},
             ArrayRef<utils::IteratorType>{
                 utils::IteratorType::parallel, utils::IteratorType::parallel,
                 utils::IteratorType::parallel, utils::IteratorType::reduction},
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value isEmpty = isNegInf(nb, nloc, args[0]);
               Value row = linalg::IndexOp::create(nb, nloc, 3);
               Value column = linalg::IndexOp::create(nb, nloc, 2);
               Value last = arith::AddIOp::create(
                   nb, nloc, row,
                   arith::ConstantIndexOp::create(nb, nloc, offset));
               Value kept = arith::CmpIOp::create(
                   nb, nloc, arith::CmpIPredicate::sle, column, last);
               Value hit = arith::AndIOp::create(nb, nloc, isEmpty, kept);
               linalg::YieldOp::create(
                   nb, nloc,
                   ValueRange{arith::OrIOp::create(nb, nloc, hit, args[1])});
             })
      .getResult(0);
}

/// The frontend's NaNs in a gradient of the op ([B, H, N, D]): where
/// `flags` (read through `flagsMap` from the gradient's loops) is set, NaN.
Value poisonGradient(OpBuilder &b, Location loc, Value gradient, Value flags,
                     AffineMap flagsMap, Value extraCondition) {
  auto type = cast<RankedTensorType>(gradient.getType());
  AffineMap identity = b.getMultiDimIdentityMap(4);
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, gradient), type.getElementType());
  SmallVector<utils::IteratorType> parallel(4, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{gradient, flags},
             ValueRange{init},
             ArrayRef<AffineMap>{identity, flagsMap, identity}, parallel,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value flag = args[1];
               if (flag.getType().isF32())
                 flag = isNegInf(nb, nloc, flag);
               if (extraCondition)
                 flag = arith::AndIOp::create(nb, nloc, flag, extraCondition);
               Value nan = arith::ConstantOp::create(
                   nb, nloc,
                   nb.getFloatAttr(type.getElementType(),
                                   std::numeric_limits<double>::quiet_NaN()));
               linalg::YieldOp::create(nb, nloc,
                                       ValueRange{arith::SelectOp::create(
                                           nb, nloc, flag, nan, args[0])});
             })
      .getResult(0);
}

/// `tensor` (of the frontend's shape) in the frontend's element type and
/// static shape: a widening or narrowing cast, then a tensor.cast.
Value toFrontendType(OpBuilder &b, Location loc, Value tensor,
                     RankedTensorType frontendType) {
  auto currentType = cast<RankedTensorType>(tensor.getType());
  if (currentType.getElementType() != frontendType.getElementType()) {
    auto retyped = currentType.clone(frontendType.getElementType());
    if (currentType.getElementType().getIntOrFloatBitWidth() <
        frontendType.getElementType().getIntOrFloatBitWidth())
      tensor = arith::ExtFOp::create(b, loc, retyped, tensor);
    else
      tensor = arith::TruncFOp::create(b, loc, retyped, tensor);
  }
  if (tensor.getType() != frontendType)
    tensor = tensor::CastOp::create(b, loc, frontendType, tensor);
  return tensor;
}

/// A tensor read like a mask (`labels` over the score's axes) in the op's
/// [B, H, Nq, Nk] order, unit dims where it broadcasts: merged grouped
/// heads split, grouped queries' [Hkv, G] merged into the op's heads.
Value arrangeLikeScores(OpBuilder &b, Location loc, Value tensor,
                        ArrayRef<Axis> labels, const AttentionMatch &match,
                        Value key) {
  Labels split(labels.begin(), labels.end());
  tensor = splitGroupedHeads(b, loc, tensor, split, match);
  tensor = arrangeMask(b, loc, tensor, split,
                       match.batchSplit.empty() ? match.numBatchDims : 2,
                       match.groupAxis);
  if (match.groupAxis)
    tensor = mergeMaskGroup(b, loc, tensor, split, match.numBatchDims, key,
                            match.groupSize);
  return tensor;
}

/// The tensors the score function reads, each arranged like a mask to
/// [B, H, Nq, Nk] with unit dims where it broadcasts (null for the nodes
/// that read none). Built before the op, which reads them from above.
SmallVector<Value> arrangeScoreFunctionTensors(OpBuilder &b, Location loc,
                                               const AttentionMatch &match,
                                               Value key) {
  SmallVector<Value> tensors;
  for (const ScoreFunctionNode &node : match.scoreFunction) {
    if (!node.tensor) {
      tensors.push_back(Value());
      continue;
    }
    tensors.push_back(
        arrangeLikeScores(b, loc, node.tensor, node.labels, match, key));
  }
  return tensors;
}

/// The score function the matcher found as `op`'s score_mod region, in f32;
/// `tensors` are arrangeScoreFunctionTensors' (read at the score's
/// position, at 0 along a dim they broadcast).
void buildScoreMod(OpBuilder &b, AttentionOp op,
                   ArrayRef<ScoreFunctionNode> nodes, ArrayRef<Value> tensors) {
  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  Type f32 = b.getF32Type(), index = b.getIndexType();
  Block *block =
      b.createBlock(&op.getScoreMod(), {}, {f32, index, index, index, index},
                    SmallVector<Location>(5, loc));
  b.setInsertionPointToStart(block);
  Value zero; // index 0 along a dim a tensor broadcasts, made once
  SmallVector<Value> values;
  for (auto [number, node] : llvm::enumerate(nodes)) {
    auto operand = [&](unsigned i) { return values[node.operands[i]]; };
    Value value;
    switch (node.kind) {
    case ScalarKind::Input: {
      if (!node.tensor) {
        value = block->getArgument(0);
        break;
      }
      Value tensor = tensors[number];
      auto type = cast<RankedTensorType>(tensor.getType());
      SmallVector<Value, 4> indices;
      for (int64_t dim = 0; dim < 4; ++dim) {
        if (type.getDimSize(dim) != 1) {
          indices.push_back(block->getArgument(1 + dim));
          continue;
        }
        if (!zero)
          zero = arith::ConstantIndexOp::create(b, loc, 0);
        indices.push_back(zero);
      }
      value = tensor::ExtractOp::create(b, loc, tensor, indices);
      if (isa<FloatType>(value.getType()) && value.getType() != f32)
        value = arith::ExtFOp::create(b, loc, f32, value);
      break;
    }
    case ScalarKind::Select:
      value =
          arith::SelectOp::create(b, loc, operand(0), operand(1), operand(2));
      break;
    case ScalarKind::BoolToFloat:
      value = arith::UIToFPOp::create(b, loc, f32, operand(0));
      break;
    case ScalarKind::Compare:
      value = arith::CmpFOp::create(
          b, loc,
          static_cast<arith::CmpFPredicate>(static_cast<int>(node.constant)),
          operand(0), operand(1));
      break;
    case ScalarKind::Not:
      value = arith::XOrIOp::create(
          b, loc, operand(0),
          arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
      break;
    case ScalarKind::Constant:
      value = arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(static_cast<float>(node.constant)));
      break;
    case ScalarKind::Add:
      value = arith::AddFOp::create(b, loc, operand(0), operand(1));
      break;
    case ScalarKind::Sub:
      value = arith::SubFOp::create(b, loc, operand(0), operand(1));
      break;
    case ScalarKind::Mul:
      value = arith::MulFOp::create(b, loc, operand(0), operand(1));
      break;
    case ScalarKind::Div:
      value = arith::DivFOp::create(b, loc, operand(0), operand(1));
      break;
    case ScalarKind::Max:
      value = arith::MaximumFOp::create(b, loc, operand(0), operand(1));
      break;
    case ScalarKind::MaxNum:
      value = arith::MaxNumFOp::create(b, loc, operand(0), operand(1));
      break;
    case ScalarKind::Exp:
      value = math::ExpOp::create(b, loc, operand(0));
      break;
    case ScalarKind::Log:
      value = math::LogOp::create(b, loc, operand(0));
      break;
    case ScalarKind::Neg:
      value = arith::NegFOp::create(b, loc, operand(0));
      break;
    case ScalarKind::Tanh:
      value = math::TanhOp::create(b, loc, operand(0));
      break;
    default:
      llvm_unreachable("the matcher translates only these kinds");
    }
    values.push_back(value);
  }
  YieldOp::create(b, loc, values.back());
}

/// The op's operands from the frontend's tensors.
struct RaisedOperands {
  Value query, key, value, mask, kvLengths, pageTable, sinks;
};

/// The op's sinks [Hq] from the frontend's sink column: arranged like a
/// mask to [1, H or 1, 1, 1], then flattened (and broadcast to every query
/// head where one logit serves them all).
Value arrangeSinks(OpBuilder &b, Location loc, const AttentionMatch &match,
                   Value query, Value key) {
  if (match.sinkSplat) {
    Type f32 = b.getF32Type();
    OpFoldResult heads = tensor::getMixedSize(b, loc, query, 1);
    Value init = tensor::EmptyOp::create(b, loc, {heads}, f32);
    Value logit = arith::ConstantOp::create(
        b, loc, b.getFloatAttr(f32, *match.sinkSplat));
    return linalg::FillOp::create(b, loc, logit, init).getResult(0);
  }
  // [B, H or 1, 1, 1]; with grouped queries, the K/V head and the group
  // merged into the op's heads (k·G + g) as for a mask.
  Value column =
      arrangeLikeScores(b, loc, match.sinks, match.sinkLabels, match, key);
  auto type = cast<RankedTensorType>(column.getType());
  Value flat = tensor::CollapseShapeOp::create(
      b, loc, column, SmallVector<ReassociationIndices>{{0, 1, 2, 3}});
  if (type.getDimSize(1) != 1)
    return flat;
  OpFoldResult heads = tensor::getMixedSize(b, loc, query, 1);
  Value init = tensor::EmptyOp::create(b, loc, {heads}, type.getElementType());
  MLIRContext *ctx = b.getContext();
  AffineMap first = AffineMap::get(1, 0, {getAffineConstantExpr(0, ctx)}, ctx);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{flat}, ValueRange{init},
             ArrayRef<AffineMap>{first, b.getMultiDimIdentityMap(1)},
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, args[0]);
             })
      .getResult(0);
}

/// a + c for two rank-4 masks whose dims are each the full size or 1,
/// broadcast to the larger, in the wider element type.
Value addBroadcast(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  Type elementType = lhsType.getElementType().getIntOrFloatBitWidth() >=
                             rhsType.getElementType().getIntOrFloatBitWidth()
                         ? lhsType.getElementType()
                         : rhsType.getElementType();
  MLIRContext *context = b.getContext();
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> lhsResults, rhsResults;
  for (int64_t dim = 0; dim < lhsType.getRank(); ++dim) {
    int64_t l = lhsType.getDimSize(dim), r = rhsType.getDimSize(dim);
    shape.push_back(l == 1 ? r : l);
    lhsResults.push_back(l == 1 && r != 1 ? getAffineConstantExpr(0, context)
                                          : getAffineDimExpr(dim, context));
    rhsResults.push_back(r == 1 && l != 1 ? getAffineConstantExpr(0, context)
                                          : getAffineDimExpr(dim, context));
  }
  unsigned rank = shape.size();
  auto resultType = RankedTensorType::get(shape, elementType);
  Value init = tensor::EmptyOp::create(b, loc, shape, elementType);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{lhs, rhs},
             ValueRange{init},
             ArrayRef<AffineMap>{AffineMap::get(rank, 0, lhsResults, context),
                                 AffineMap::get(rank, 0, rhsResults, context),
                                 b.getMultiDimIdentityMap(rank)},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               auto widen = [&](Value v) -> Value {
                 return v.getType() == elementType
                            ? v
                            : arith::ExtFOp::create(nb, nloc, elementType, v);
               };
               linalg::YieldOp::create(
                   nb, nloc,
                   ValueRange{arith::AddFOp::create(nb, nloc, widen(args[0]),
                                                    widen(args[1]))});
             })
      .getResult(0);
}

/// The op's mask: a constant bias as a [1, 1, 1, 1] tensor, or the
/// frontend's mask arranged to [B, H, Nq, Nk] (groups merged into heads,
/// a keep-mask inverted into a hide-mask); null without one.
Value arrangeOpMask(OpBuilder &b, Location loc, const AttentionMatch &match,
                    Value key) {
  Value mask;
  if (match.constantBias) {
    auto biasType = RankedTensorType::get({1, 1, 1, 1}, b.getF32Type());
    mask = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            biasType, b.getF32FloatAttr(*match.constantBias).getValue()));
  }
  if (match.mask) {
    Labels maskLabels = match.maskLabels;
    mask = splitGroupedHeads(b, loc, match.mask, maskLabels, match);
    mask = arrangeMask(b, loc, mask, maskLabels,
                       match.batchSplit.empty() ? match.numBatchDims : 2,
                       match.groupAxis);
    if (match.maskFactor != 1.0)
      mask = scaleTensor(b, loc, mask, match.maskFactor);
    for (const auto &[bias, biasLabels] : match.extraBiases) {
      Labels labels = biasLabels;
      Value split = splitGroupedHeads(b, loc, bias, labels, match);
      mask = addBroadcast(
          b, loc, mask,
          arrangeMask(b, loc, split, labels,
                      match.batchSplit.empty() ? match.numBatchDims : 2,
                      match.groupAxis));
    }
    if (match.groupAxis)
      mask = mergeMaskGroup(b, loc, mask, maskLabels, match.numBatchDims, key,
                            match.groupSize);
    if (match.invertMask) {
      Value ones = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(
              RankedTensorType::get({}, b.getI1Type())
                  .clone(cast<RankedTensorType>(mask.getType()).getShape()),
              true));
      if (!cast<RankedTensorType>(mask.getType()).hasStaticShape()) {
        // A dynamic keep-mask is inverted elementwise with a broadcast true.
        Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
        Value empty = tensor::EmptyOp::create(
            b, loc, tensor::getMixedSizes(b, loc, mask), b.getI1Type());
        ones = linalg::FillOp::create(b, loc, ValueRange{trueValue},
                                      ValueRange{empty})
                   .getResult(0);
      }
      mask = arith::XOrIOp::create(b, loc, mask, ones);
    }
  }

  return mask;
}

/// Q, K and V as the op reads them ([B, H, N, D], or paged K/V as they
/// are), with the mask, the key lengths and the page table.
/// Q times (or divided by) the tensor scale the scores were multiplied by
/// right after Q·Kᵀ, each element of the scale broadcast over the Q dims it
/// does not follow: (Q·Kᵀ)·t = (t·Q)·Kᵀ for a t constant along the keys.
Value scaleQuery(OpBuilder &b, Location loc, Value query,
                 const AttentionMatch &match) {
  auto queryType = cast<RankedTensorType>(query.getType());
  Type elementType = queryType.getElementType();
  MLIRContext *context = b.getContext();
  SmallVector<AffineExpr> scaleResults;
  for (auto [dim, part] :
       llvm::zip(match.queryScaleDims, match.queryScaleParts)) {
    if (dim < 0) {
      scaleResults.push_back(getAffineConstantExpr(0, context));
      continue;
    }
    AffineExpr index = getAffineDimExpr(dim, context);
    // The outer or inner part of a merged [B·H] dim.
    if (part == 1)
      index = index.floorDiv(match.batchSplit[1]);
    else if (part == 2)
      index = index % match.batchSplit[1];
    scaleResults.push_back(index);
  }
  AffineMap identity = b.getMultiDimIdentityMap(queryType.getRank());
  AffineMap scaleMap =
      AffineMap::get(queryType.getRank(), 0, scaleResults, context);
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, query), elementType);
  return linalg::GenericOp::create(
             b, loc, TypeRange{queryType}, ValueRange{query, match.queryScale},
             ValueRange{init},
             ArrayRef<AffineMap>{identity, scaleMap, identity},
             SmallVector<utils::IteratorType>(queryType.getRank(),
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               // In the wider of the two types, rounded to Q's once.
               Value q = args[0], t = args[1];
               Type wide = q.getType().getIntOrFloatBitWidth() >=
                                   t.getType().getIntOrFloatBitWidth()
                               ? q.getType()
                               : t.getType();
               auto widen = [&](Value v) -> Value {
                 return v.getType() == wide
                            ? v
                            : arith::ExtFOp::create(nb, nloc, wide, v);
               };
               Value product =
                   match.queryScaleDivides
                       ? arith::DivFOp::create(nb, nloc, widen(q), widen(t))
                             .getResult()
                       : arith::MulFOp::create(nb, nloc, widen(q), widen(t))
                             .getResult();
               if (product.getType() != elementType)
                 product =
                     arith::TruncFOp::create(nb, nloc, elementType, product);
               linalg::YieldOp::create(nb, nloc, ValueRange{product});
             })
      .getResult(0);
}

RaisedOperands arrangeOperands(OpBuilder &b, Location loc,
                               const AttentionMatch &match) {
  auto merge = [&](Value tensor,
                   ArrayRef<ReassociationIndices> collapse) -> Value {
    if (collapse.empty())
      return tensor;
    return tensor::CollapseShapeOp::create(b, loc, tensor, collapse);
  };
  // Q, K and V in another order of their dims are transposed first: an
  // O(N·D) copy each, next to the O(N²·D) the fused op saves.
  Value query = match.query;
  if (match.queryScale)
    query = scaleQuery(b, loc, query, match);
  query = transpose(b, loc, query, match.queryPermutation);
  Value key = transpose(b, loc, match.key, match.keyPermutation);
  Value value = transpose(b, loc, match.value, match.valuePermutation);
  if (match.widenValueTo)
    value = arith::ExtFOp::create(
        b, loc,
        cast<RankedTensorType>(value.getType()).clone(match.widenValueTo),
        value);
  if (match.groupAxis)
    query = mergeGroupIntoHeads(b, loc, query, match.numBatchDims - 1);
  if (match.pageTable) {
    // Paged caches are the op's K and V as they are ([P, S, Hkv, E]).
    query = expandToRank4(b, loc, query);
  } else if (match.batchSplit.empty()) {
    query = expandToRank4(b, loc, query);
    key = expandToRank4(b, loc, merge(key, match.keyCollapse));
    value = expandToRank4(b, loc, merge(value, match.valueCollapse));
  } else {
    // The softmax ran on [B, H, N, N]: give the op the same split.
    query = splitBatch(b, loc, query, match.batchSplit);
    auto kvOperand = [&](Value tensor,
                         ArrayRef<ReassociationIndices> collapse) -> Value {
      if (match.groupSize == 1)
        return splitBatch(b, loc, tensor, match.batchSplit);
      // Unrepeated heads: [B, Hkv, N, D] already, or [Hkv, N, D] (B = 1).
      return collapse.empty() ? expandToRank4(b, loc, tensor) : tensor;
    };
    key = kvOperand(key, match.keyCollapse);
    value = kvOperand(value, match.valueCollapse);
  }
  Value mask = arrangeOpMask(b, loc, match, key);
  Value kvLengths;
  if (match.kvLengths)
    kvLengths = buildKVLengths(b, loc, *match.kvLengths, query);
  Value pageTable;
  if (match.pageTable)
    pageTable = convertToI32(b, loc, match.pageTable);

  Value sinks;
  if (match.sinks)
    sinks = arrangeSinks(b, loc, match, query, key);
  return RaisedOperands{query, key, value, mask, kvLengths, pageTable, sinks};
}

/// The frontend's dSinks `use` replaced by the op's [Hq] `gradSinks`: the
/// frontend's one non-unit dim is the head, or (a logit shared by every
/// head) it has one element, the heads' sum.
void replaceSinkGradient(OpBuilder &b, Location loc, RewriterBase &rewriter,
                         Value use, Value gradSinks) {
  auto frontendType = cast<RankedTensorType>(use.getType());
  auto opType = cast<RankedTensorType>(gradSinks.getType());
  Type f32 = b.getF32Type();
  if (frontendType.getNumElements() == 1 && opType.getDimSize(0) != 1) {
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    Value init = linalg::FillOp::create(b, loc, ValueRange{zero},
                                        ValueRange{tensor::EmptyOp::create(
                                            b, loc, ArrayRef<int64_t>{1}, f32)})
                     .getResult(0);
    Value wide = toFrontendType(b, loc, gradSinks, opType.clone(f32));
    MLIRContext *ctx = b.getContext();
    gradSinks =
        linalg::GenericOp::create(
            b, loc, init.getType(), ValueRange{wide}, ValueRange{init},
            ArrayRef<AffineMap>{
                b.getMultiDimIdentityMap(1),
                AffineMap::get(1, 0, {getAffineConstantExpr(0, ctx)}, ctx)},
            ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
            [](OpBuilder &nb, Location nloc, ValueRange args) {
              linalg::YieldOp::create(nb, nloc,
                                      ValueRange{arith::AddFOp::create(
                                          nb, nloc, args[0], args[1])});
            })
            .getResult(0);
  }
  auto flatType = cast<RankedTensorType>(gradSinks.getType());
  if (frontendType.getRank() == 0) {
    gradSinks = tensor::CollapseShapeOp::create(
        b, loc, flatType.clone(ArrayRef<int64_t>{}), gradSinks,
        SmallVector<ReassociationIndices>{});
  } else if (frontendType.getRank() != 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t dim = 0; dim < frontendType.getRank(); ++dim)
      all[0].push_back(dim);
    gradSinks = tensor::ExpandShapeOp::create(
        b, loc, frontendType.clone(flatType.getElementType()), gradSinks, all);
  }
  rewriter.replaceAllUsesWith(use,
                              toFrontendType(b, loc, gradSinks, frontendType));
}

/// A joint graph's gradients: fa.attention_backward reads the forward op's
/// O and logsumexp, so P is never materialized; each frontend gradient is
/// replaced by the op's, in the frontend's layout.
void raiseBackward(const AttentionMatch &match, RewriterBase &rewriter,
                   AttentionOp attention, const RaisedOperands &operands) {
  OpBuilder &b = rewriter;
  Location loc = match.root->getLoc();
  Value query = operands.query, key = operands.key, value = operands.value;
  Value mask = operands.mask;
  // The joint graph's gradients: fa.attention_backward reads the op's O
  // and logsumexp, so P is never materialized.
  // It goes before the first gradient, after dO (which may be computed
  // from O).
  const BackwardMatch &backward = *match.backward;
  rewriter.setInsertionPoint(backward.insertionPoint);
  Value gradOutput =
      transpose(b, loc, backward.gradOutput, backward.gradOutputPermutation);
  if (match.groupAxis)
    gradOutput =
        mergeGroupIntoHeads(b, loc, gradOutput, match.numBatchDims - 1);
  if (!backward.gradOutputSplitBatch) {
    gradOutput = match.batchSplit.empty()
                     ? expandToRank4(b, loc, gradOutput)
                     : splitBatch(b, loc, gradOutput, match.batchSplit);
  }
  auto gradOutputType = cast<RankedTensorType>(gradOutput.getType());
  gradOutput =
      toFrontendType(b, loc, gradOutput,
                     gradOutputType.clone(
                         cast<RankedTensorType>(attention.getOutput().getType())
                             .getElementType()));
  Value sinks = operands.sinks;
  Type gradSinksType = sinks && backward.gradSinks ? sinks.getType() : Type();
  auto gradients = AttentionBackwardOp::create(
      b, loc, query.getType(), key.getType(), value.getType(),
      /*grad_mask=*/Type(), gradSinksType, query, key, value,
      attention.getOutput(), gradOutput, attention.getLogsumexp(), mask, sinks,
      attention.getScaleAttr(), attention.getMaskFillAttr(),
      attention.getCausalAttr(),
      /*window=*/nullptr, /*deterministic=*/nullptr, /*tiling=*/nullptr);
  // The forward's score function: the backward differentiates the same
  // region (the matcher checked that the frontend's backward multiplies
  // by its derivative).
  IRMapping regionMapping;
  attention.getScoreMod().cloneInto(&gradients.getScoreMod(), regionMapping);
  attention.getMaskMod().cloneInto(&gradients.getMaskMod(), regionMapping);
  auto replaceGradient = [&](const std::optional<GradientUse> &use,
                             Value gradient, bool queryRows) {
    if (!use)
      return;
    auto frontendType = cast<RankedTensorType>(use->value.getType());
    if (use->factor != 1.0)
      gradient = scaleTensor(b, loc, gradient, use->factor);
    // dQ of grouped queries: the op's heads split back into [Hkv, G].
    bool grouped = match.groupAxis && queryRows;
    if (use->splitBatch)
      ; // [B, H] as the op's
    else if (!match.batchSplit.empty())
      gradient = tensor::CollapseShapeOp::create(
          b, loc, gradient,
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
    else
      gradient = collapseFromRank4(b, loc, gradient,
                                   frontendType.getRank() - (grouped ? 1 : 0));
    if (grouped)
      gradient = splitHeadsIntoGroups(b, loc, gradient, match.numBatchDims - 1,
                                      match.groupSize);
    gradient = transpose(b, loc, gradient, use->permutation);
    rewriter.replaceAllUsesWith(use->value,
                                toFrontendType(b, loc, gradient, frontendType));
  };
  Value gradQuery = gradients.getGradQuery();
  Value gradKey = gradients.getGradKey();
  Value gradValue = gradients.getGradValue();
  if (match.fullyMaskedRows == FullyMaskedRows::NaN) {
    // A row with no visible key is NaN in the frontend's P, so in every
    // sum that reads it: the whole head's dV and (unless masked_fill's
    // backward zeroes the row first) dK, and that row of dQ.
    MLIRContext *ctx = b.getContext();
    AffineExpr bIdx, h, i, d;
    bindDims(ctx, bIdx, h, i, d);
    Value lse = attention.getLogsumexp();
    Value keys = keysExist(b, loc, key);
    Value heads = headsWithEmptyRows(b, loc, lse, keys);
    AffineMap perHead = AffineMap::get(4, 0, {bIdx, h}, ctx);
    gradValue = poisonGradient(b, loc, gradValue, heads, perHead, Value());
    if (!backward.gradKey || !backward.gradKey->maskedGradient)
      gradKey = poisonGradient(b, loc, gradKey, heads, perHead, Value());
    else if (backward.causalGradientOffset)
      gradKey = poisonGradient(
          b, loc, gradKey,
          keysKeptByEmptyRows(b, loc, lse, key, *backward.causalGradientOffset),
          AffineMap::get(4, 0, {bIdx, h, i}, ctx), Value());
    if (!backward.gradQuery || !backward.gradQuery->maskedGradient)
      gradQuery = poisonGradient(b, loc, gradQuery, lse,
                                 AffineMap::get(4, 0, {bIdx, h, i}, ctx), keys);
  }
  replaceGradient(backward.gradQuery, gradQuery, /*queryRows=*/true);
  replaceGradient(backward.gradKey, gradKey, /*queryRows=*/false);
  replaceGradient(backward.gradValue, gradValue, /*queryRows=*/false);
  if (Value gradSinks = gradients.getGradSinks())
    replaceSinkGradient(b, loc, rewriter, backward.gradSinks, gradSinks);
}

/// Erases what became dead: the pattern, then whatever only it used; adds
/// it to `erased`.
void eraseMatchedOps(const AttentionMatch &match, RewriterBase &rewriter,
                     llvm::DenseSet<Operation *> &erased) {
  Operation *root = match.root;
  SmallVector<Operation *> worklist(match.patternOps.begin(),
                                    match.patternOps.end());
  if (match.backward)
    llvm::append_range(worklist, match.backward->patternOps);
  worklist.push_back(root);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    // wouldOpBeTriviallyDead also accepts ops that only have effects on
    // memref operands, such as linalg.softmax on tensors.
    if (erased.contains(op) || !op->use_empty() ||
        !(isPure(op) || wouldOpBeTriviallyDead(op)))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    erased.insert(op);
    rewriter.eraseOp(op);
  }
}

} // namespace

/// Emits fa.attention for `match` before its root, replaces the root and
/// erases the ops that became dead; adds them to `erased`.
void mlir::fa::recognition::rewriteAttention(
    const AttentionMatch &match, RewriterBase &rewriter,
    llvm::DenseSet<Operation *> &erased) {
  Operation *root = match.root;
  OpBuilder::InsertionGuard guard(rewriter);
  // The forward op goes before its first use: O, or a gradient computed
  // before it.
  Operation *forwardPoint = root;
  if (match.backward && match.backward->insertionPoint->isBeforeInBlock(root))
    forwardPoint = match.backward->insertionPoint;
  rewriter.setInsertionPoint(forwardPoint);
  OpBuilder &b = rewriter;
  Location loc = root->getLoc();
  RaisedOperands operands = arrangeOperands(b, loc, match);
  Value query = operands.query, key = operands.key, value = operands.value;
  Value mask = operands.mask, kvLengths = operands.kvLengths,
        pageTable = operands.pageTable;
  auto queryType = cast<RankedTensorType>(query.getType());
  auto valueType = cast<RankedTensorType>(value.getType());
  auto outputType =
      RankedTensorType::get({queryType.getDimSize(0), queryType.getDimSize(1),
                             queryType.getDimSize(2), valueType.getDimSize(3)},
                            valueType.getElementType());
  // Rows with no visible key need the frontend's value put back, except
  // where the frontend zeroes them as the op does.
  bool restoreRows = match.fullyMaskedRows != FullyMaskedRows::NotPossible &&
                     match.fullyMaskedRows != FullyMaskedRows::Zero;
  bool needsLogsumexp = restoreRows || match.logsumexp || match.backward;
  SmallVector<Type> resultTypes = {outputType};
  if (needsLogsumexp)
    resultTypes.push_back(RankedTensorType::get(
        outputType.getShape().drop_back(), b.getF32Type()));
  SmallVector<Value> scoreTensors =
      arrangeScoreFunctionTensors(b, loc, match, key);
  auto attention = AttentionOp::create(
      b, loc, resultTypes, query, key, value, mask, kvLengths, pageTable,
      /*cu_seqlens_q=*/Value(), /*cu_seqlens_k=*/Value(), operands.sinks,
      b.getF64FloatAttr(match.scale),
      match.maskFill ? b.getF64FloatAttr(*match.maskFill) : nullptr,
      match.causal ? DiagonalAlignmentAttr::get(b.getContext(), *match.causal)
                   : nullptr,
      /*window=*/nullptr, /*tiling=*/nullptr);

  if (!match.scoreFunction.empty())
    buildScoreMod(b, attention, match.scoreFunction, scoreTensors);

  Value output = attention.getOutput();
  if (match.logsumexp) {
    // The program's other uses of its logsumexp read the op's.
    Value logsumexp =
        frontendLogsumexp(b, loc, attention.getLogsumexp(), match);
    llvm::SmallPtrSet<Operation *, 16> pattern(match.patternOps.begin(),
                                               match.patternOps.end());
    pattern.insert(root);
    rewriter.replaceUsesWithIf(match.logsumexp, logsumexp, [&](OpOperand &use) {
      return !pattern.contains(use.getOwner());
    });
  }
  if (restoreRows)
    output = restoreFullyMaskedRows(
        b, loc, output, attention.getLogsumexp(), value, match.fullyMaskedRows,
        match.groupSize, match.pageTable ? Value() : keysExist(b, loc, key));

  // With the normalization deferred past P·V, the op's output is the
  // normalized rows: it replaces the division's result.
  Value replaced = match.normalization ? match.normalization->getResult(0)
                                       : root->getResult(0);
  auto rootType = cast<RankedTensorType>(root->getResult(0).getType());
  output = collapseFromRank4(b, loc, output,
                             rootType.getRank() - (match.groupAxis ? 1 : 0));
  if (match.groupAxis)
    output = splitHeadsIntoGroups(b, loc, output, match.numBatchDims - 1,
                                  match.groupSize);
  output = transpose(b, loc, output, match.outputPermutation);
  for (Operation *layout : match.normalizationLayout)
    output = applyLayout(b, loc, output, layout);
  rewriter.replaceAllUsesWith(
      replaced, toFrontendType(b, loc, output,
                               cast<RankedTensorType>(replaced.getType())));

  if (match.backward)
    raiseBackward(match, rewriter, attention, operands);
  eraseMatchedOps(match, rewriter, erased);
}

/// Emits fa.linear_attention for `linear` before the op it replaces (the
/// second product, or the division normalizing it), replaces that op and
/// erases what became dead; adds it to `erased`.
void mlir::fa::recognition::rewriteLinearAttention(
    const LinearAttentionMatch &linear, RewriterBase &rewriter,
    llvm::DenseSet<Operation *> &erased) {
  const AttentionMatch &match = linear.operands;
  Operation *replaced = match.root;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(replaced);
  OpBuilder &b = rewriter;
  Location loc = replaced->getLoc();
  RaisedOperands operands = arrangeOperands(b, loc, match);
  auto queryType = cast<RankedTensorType>(operands.query.getType());
  auto valueType = cast<RankedTensorType>(operands.value.getType());
  auto outputType =
      RankedTensorType::get({queryType.getDimSize(0), queryType.getDimSize(1),
                             queryType.getDimSize(2), valueType.getDimSize(3)},
                            valueType.getElementType());
  Value decay;
  if (!linear.decay.empty()) {
    SmallVector<float> gammas(linear.decay.begin(), linear.decay.end());
    auto decayType = RankedTensorType::get(
        {static_cast<int64_t>(gammas.size())}, b.getF32Type());
    decay = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(decayType, ArrayRef<float>(gammas)));
  }
  auto op = LinearAttentionOp::create(
      b, loc, outputType, operands.query, operands.key, operands.value, decay,
      b.getF64FloatAttr(match.scale), match.causal ? b.getUnitAttr() : nullptr,
      linear.epsilon ? b.getF64FloatAttr(*linear.epsilon) : nullptr,
      /*chunk=*/nullptr);
  auto replacedType = cast<RankedTensorType>(replaced->getResult(0).getType());
  Value output =
      collapseFromRank4(b, loc, op.getOutput(),
                        replacedType.getRank() - (match.groupAxis ? 1 : 0));
  if (match.groupAxis)
    output = splitHeadsIntoGroups(b, loc, output, match.numBatchDims - 1,
                                  match.groupSize);
  output = transpose(b, loc, output, match.outputPermutation);
  rewriter.replaceAllUsesWith(replaced->getResult(0),
                              toFrontendType(b, loc, output, replacedType));
  eraseMatchedOps(match, rewriter, erased);
}
