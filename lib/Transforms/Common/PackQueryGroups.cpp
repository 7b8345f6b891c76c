//===- PackQueryGroups.cpp - Query heads of a group as one block's rows ---===//
//
// The exactness conditions and the rewrite of grouped-query packing
// (PackQueryGroups.h), shared by tile selection (which decides), the tiled
// lowering and the GPU kernel (which pack before they lower).
//
//===----------------------------------------------------------------------===//

#include "Common/PackQueryGroups.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fa;

std::string mlir::fa::whyNotPackable(AttentionOp op) {
  auto query = cast<RankedTensorType>(op.getQuery().getType());
  int64_t queryHeads = query.getDimSize(1), keyHeads = op.getKeyHeads();
  int64_t queryLen = query.getDimSize(2);
  if (ShapedType::isDynamic(queryHeads) || ShapedType::isDynamic(keyHeads))
    return "the head counts are dynamic";
  if (queryHeads == keyHeads)
    return "every key/value head serves one query head: there is no group "
           "to pack";
  if (op.isPacked())
    return "packed sequences: a packed row would need its own sequence";
  if (op.hasScoreModifications())
    return "score_mod, mask_mod and sinks read a row's head and position, "
           "which a packed row no longer has";
  if (op.getWindowAttr())
    return "a window depends on a query row's position, which a packed row "
           "no longer has";
  // Over a single query row, a bottom-right diagonal passes the last key:
  // it hides nothing.
  bool singleRow = queryLen == 1;
  if (std::optional<DiagonalAlignment> causal = op.getCausal();
      causal && !(singleRow && *causal == DiagonalAlignment::bottom_right))
    return "a causal mask depends on a query row's position, which a packed "
           "row no longer has (only a bottom-right one over one query row "
           "hides nothing)";
  if (Value mask = op.getMask()) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    bool headsBroadcast = maskType.getDimSize(1) == 1;
    bool rowsBroadcast = maskType.getDimSize(2) == 1 && queryLen != 1;
    if (headsBroadcast && !rowsBroadcast && !singleRow)
      return "the mask varies over query rows but not over heads, so a "
             "packed row would need its row within its head";
    if (!headsBroadcast && rowsBroadcast)
      return "the mask varies over heads but not over query rows, so a "
             "packed row would need its head";
  }
  return "";
}

namespace {

/// [B, Hq, N(, X)] -> [B, Hkv, G * N(, X)]: Hq = Hkv * G is major to N,
/// so this is the same memory.
Value packRows(OpBuilder &b, Location loc, Value tensor, int64_t keyHeads,
               int64_t group) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
  SmallVector<int64_t> expandedShape = {type.getDimSize(0), keyHeads, group};
  SmallVector<OpFoldResult> expandedSizes = {sizes[0], b.getIndexAttr(keyHeads),
                                             b.getIndexAttr(group)};
  SmallVector<ReassociationIndices> expand = {{0}, {1, 2}};
  SmallVector<ReassociationIndices> collapse = {{0}, {1}, {2, 3}};
  for (int64_t dim = 2; dim < type.getRank(); ++dim) {
    expandedShape.push_back(type.getDimSize(dim));
    expandedSizes.push_back(sizes[dim]);
    expand.push_back({dim + 1});
    if (dim > 2)
      collapse.push_back({dim + 1});
  }
  auto expandedType = RankedTensorType::get(expandedShape, type.getElementType());
  Value expanded = tensor::ExpandShapeOp::create(b, loc, expandedType, tensor,
                                                 expand, expandedSizes);
  return tensor::CollapseShapeOp::create(b, loc, expanded, collapse);
}

/// The inverse of packRows, back to `original`'s type, whose dim 2 has
/// `rows` (Nq) entries.
Value unpackRows(OpBuilder &b, Location loc, Value packed, Type original,
                 int64_t keyHeads, int64_t group, OpFoldResult rows) {
  auto type = cast<RankedTensorType>(packed.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, packed);
  auto originalType = cast<RankedTensorType>(original);
  SmallVector<int64_t> expandedShape = {type.getDimSize(0), keyHeads, group,
                                        originalType.getDimSize(2)};
  SmallVector<OpFoldResult> expandedSizes = {sizes[0], b.getIndexAttr(keyHeads),
                                             b.getIndexAttr(group), rows};
  SmallVector<ReassociationIndices> expand = {{0}, {1}, {2, 3}};
  SmallVector<ReassociationIndices> collapse = {{0}, {1, 2}, {3}};
  for (int64_t dim = 3; dim < type.getRank(); ++dim) {
    expandedShape.push_back(type.getDimSize(dim));
    expandedSizes.push_back(sizes[dim]);
    expand.push_back({dim + 1});
    collapse.push_back({dim + 1});
  }
  auto expandedType = RankedTensorType::get(expandedShape, type.getElementType());
  Value expanded = tensor::ExpandShapeOp::create(b, loc, expandedType, packed,
                                                 expand, expandedSizes);
  Value result = tensor::CollapseShapeOp::create(b, loc, expanded, collapse);
  if (result.getType() != original)
    result = tensor::CastOp::create(b, loc, original, result);
  return result;
}

} // namespace

AttentionOp mlir::fa::packQueryGroups(AttentionOp op, OpBuilder &b) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  int64_t keyHeads = op.getKeyHeads();
  int64_t group = op.getGroupSize();

  SmallVector<Value> operands = {
      packRows(b, loc, op.getQuery(), keyHeads, group), op.getKey(),
      op.getValue()};
  if (Value mask = op.getMask()) {
    // A mask that broadcasts over heads (and rows) broadcasts over the
    // packed rows as it is; one with both heads and rows packs like Q.
    auto maskType = cast<RankedTensorType>(mask.getType());
    operands.push_back(maskType.getDimSize(1) == 1
                           ? mask
                           : packRows(b, loc, mask, keyHeads, group));
  }
  // Key lengths are per sequence: the same for every packed row. The
  // operand segments are the op's own.
  if (Value lengths = op.getKvLengths())
    operands.push_back(lengths);
  if (Value table = op.getPageTable())
    operands.push_back(table);
  SmallVector<Type> resultTypes;
  for (Value result : op.getResults()) {
    auto type = cast<RankedTensorType>(result.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[1] = keyHeads;
    shape[2] = ShapedType::isDynamic(shape[2]) ? ShapedType::kDynamic
                                               : shape[2] * group;
    resultTypes.push_back(RankedTensorType::get(shape, type.getElementType()));
  }
  auto packed = AttentionOp::create(b, loc, resultTypes, operands,
                                    op->getAttrs());
  TilingAttr tiling = op.getTilingAttr();
  packed.setTilingAttr(TilingAttr::get(
      op.getContext(), tiling.getBlockQ(), tiling.getBlockKv(),
      tiling.getWarps(), tiling.getStages(), tiling.getSmemBytes(),
      tiling.getKvSplits(), /*pack_gqa=*/false));
  // Packable means a causal mask hides nothing here (whyNotPackable).
  packed.removeCausalAttr();

  OpFoldResult rows = tensor::getMixedSize(b, loc, op.getQuery(), 2);
  SmallVector<Value> results;
  for (auto [original, result] :
       llvm::zip(op.getResults(), packed.getResults()))
    results.push_back(unpackRows(b, loc, result, original.getType(), keyHeads,
                                 group, rows));
  op.replaceAllUsesWith(results);
  op.erase();
  return packed;
}

LogicalResult mlir::fa::checkPackedTiling(AttentionOp op) {
  TilingAttr tiling = op.getTilingAttr();
  if (!tiling || !tiling.getPackGqa())
    return success();
  std::string why = whyNotPackable(op);
  if (why.empty())
    return success();
  return op.emitOpError() << "the tiling packs query groups (pack_gqa), but "
                          << why;
}
