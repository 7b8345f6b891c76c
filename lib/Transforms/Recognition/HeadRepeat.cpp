//===- HeadRepeat.cpp - K/V heads repeated for GQA/MQA --------------------===//
//
// Stage: recognition. Recognizes repeat_kv as frontends write it:
//   K [.., Hkv, N, D] -(expand or reshape: unit dim)-> [.., Hkv, 1, N, D]
//     -(broadcast generic or tosa.tile: G copies)-> [.., Hkv, G, N, D]
//     -(collapse or reshape)-> [.., Hkv*G, N, D]
// or linalg.broadcast adding the G dim directly. Only a repeat whose copies
// are the inner dim of the collapse qualifies: that is the mapping
// h -> h / G of fa.attention; a tile that puts the copies outside (h ->
// h % Hkv) is a different grouping and is left alone.
//
//===----------------------------------------------------------------------===//

#include "HeadRepeat.h"
#include "StructuredView.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::fa::recognition;

namespace {

/// The reassociation of one collapse (tensor.collapse_shape, or a
/// tosa.reshape between static shapes that only merges dims).
std::optional<std::pair<Value, SmallVector<ReassociationIndices>>>
getSingleCollapse(Value value) {
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
    return std::make_pair(collapse.getSrc(),
                          collapse.getReassociationIndices());
  if (auto reshape = value.getDefiningOp<tosa::ReshapeOp>()) {
    auto source = cast<RankedTensorType>(reshape.getInput1().getType());
    auto result = cast<RankedTensorType>(reshape.getType());
    if (!source.hasStaticShape() || !result.hasStaticShape() ||
        source.getRank() <= result.getRank())
      return std::nullopt;
    std::optional<SmallVector<ReassociationIndices>> reassociation =
        getReassociationIndicesForCollapse(source.getShape(),
                                           result.getShape());
    if (!reassociation)
      return std::nullopt;
    return std::make_pair(reshape.getInput1(), *reassociation);
  }
  return std::nullopt;
}

/// A chain of collapses (frontends often reshape twice: [B, Hkv, G, N, D] to
/// [B, Hq, N, D] to [B*Hq, N, D]) as one reassociation.
std::optional<std::pair<Value, SmallVector<ReassociationIndices>>>
getCollapse(Value value) {
  auto collapse = getSingleCollapse(value);
  if (!collapse)
    return std::nullopt;
  while (auto inner = getSingleCollapse(collapse->first)) {
    SmallVector<ReassociationIndices> composed;
    for (const ReassociationIndices &group : collapse->second) {
      ReassociationIndices merged;
      for (int64_t dim : group)
        llvm::append_range(merged, inner->second[dim]);
      composed.push_back(merged);
    }
    collapse = std::make_pair(inner->first, composed);
  }
  return collapse;
}

/// `value` with a unit dim at `dim` removed, if it was inserted by an
/// expand_shape or a tosa.reshape.
Value dropInsertedUnitDim(Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getDimSize(dim) != 1)
    return nullptr;
  Value source;
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>())
    source = expand.getSrc();
  else if (auto reshape = value.getDefiningOp<tosa::ReshapeOp>())
    source = reshape.getInput1();
  if (!source)
    return nullptr;
  auto sourceType = cast<RankedTensorType>(source.getType());
  if (sourceType.getRank() != type.getRank() - 1)
    return nullptr;
  for (int64_t d = 0, s = 0; d < type.getRank(); ++d) {
    if (d == dim)
      continue;
    int64_t expected = type.getDimSize(d), actual = sourceType.getDimSize(s++);
    if (expected != actual)
      return nullptr;
  }
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) {
    // Every other dim must come through unchanged (dynamic dims included).
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      unsigned nonUnit = 0;
      for (int64_t d : group)
        if (d != dim)
          ++nonUnit;
      if (nonUnit != 1)
        return nullptr;
    }
  }
  return source;
}

/// The tensor that `repeated` copies along `dim`, with `dim` removed.
Value findRepeatSource(Value repeated, int64_t dim, int64_t &copies) {
  auto type = cast<RankedTensorType>(repeated.getType());
  copies = type.getDimSize(dim);
  if (ShapedType::isDynamic(copies))
    return nullptr;
  if (auto broadcast = repeated.getDefiningOp<linalg::BroadcastOp>()) {
    if (broadcast.getDimensions() == ArrayRef<int64_t>{dim})
      return broadcast.getInput();
    return nullptr;
  }
  if (auto tile = repeated.getDefiningOp<tosa::TileOp>()) {
    SmallVector<int64_t> multiples;
    if (!tosa::getConstShapeValues(tile.getMultiples().getDefiningOp(),
                                   multiples))
      return nullptr;
    for (auto [d, multiple] : llvm::enumerate(multiples))
      if (multiple != (static_cast<int64_t>(d) == dim ? copies : 1))
        return nullptr;
    return dropInsertedUnitDim(tile.getInput1(), dim);
  }
  // A linalg.generic that copies its input, reading `dim` at index 0 (or
  // not at all).
  std::optional<StructuredView> view = getStructuredView(repeated);
  if (!view || view->hasReduction() || view->inputs.size() != 1 ||
      view->rootNode().kind != ScalarKind::Input ||
      !view->resultMap.isIdentity())
    return nullptr;
  AffineMap map = view->inputMaps[0];
  MLIRContext *ctx = repeated.getContext();
  if (map.getNumResults() == type.getRank()) {
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      AffineExpr expected = static_cast<int64_t>(d) == dim
                                ? getAffineConstantExpr(0, ctx)
                                : getAffineDimExpr(d, ctx);
      if (expr != expected)
        return nullptr;
    }
    return dropInsertedUnitDim(view->inputs[0], dim);
  }
  if (map.getNumResults() == type.getRank() - 1) {
    for (int64_t d = 0, r = 0; d < type.getRank(); ++d) {
      if (d == dim)
        continue;
      if (map.getResult(r++) != getAffineDimExpr(d, ctx))
        return nullptr;
    }
    return view->inputs[0];
  }
  return nullptr;
}

} // namespace

std::optional<HeadRepeat>
mlir::fa::recognition::findHeadRepeat(Value kv, int64_t headDim) {
  auto collapse = getCollapse(kv);
  if (!collapse)
    return std::nullopt;
  auto [repeated, reassociation] = *collapse;
  // Only the head dim is merged, and the copies are its innermost part.
  for (auto [index, group] : llvm::enumerate(reassociation))
    if (static_cast<int64_t>(index) != headDim && group.size() != 1)
      return std::nullopt;
  ReassociationIndices headGroup = reassociation[headDim];
  if (headGroup.size() < 2)
    return std::nullopt;
  int64_t copiesDim = headGroup.back();
  int64_t copies = 0;
  Value source = findRepeatSource(repeated, copiesDim, copies);
  if (!source || copies < 1)
    return std::nullopt;

  HeadRepeat repeat;
  repeat.source = source;
  repeat.groupSize = copies;
  // The source has the head group minus the copies; merge it back.
  if (headGroup.size() > 2) {
    int64_t rank = cast<RankedTensorType>(source.getType()).getRank();
    for (int64_t d = 0; d < rank;) {
      if (d == headGroup.front()) {
        ReassociationIndices merged;
        for (size_t k = 0; k + 1 < headGroup.size(); ++k)
          merged.push_back(d++);
        repeat.collapse.push_back(merged);
      } else {
        repeat.collapse.push_back({d++});
      }
    }
  }
  return repeat;
}
