//===- AttentionGeometry.cpp - Which keys each query sees -----------------===//
//
// Stage: shared by the lowerings. The bodies of AttentionGeometry.h's
// functions.
//
//===----------------------------------------------------------------------===//

#include "Common/AttentionGeometry.h"

namespace mlir::fa {

Value diagonalOffset(IndexMath &math, DiagonalAlignment align, Value queryLen,
                     Value keyLen) {
  if (align == DiagonalAlignment::top_left)
    return math.constant(0);
  return math.sub(keyLen, queryLen);
}

AttentionGeometry AttentionGeometry::align(IndexMath &math,
                                           AttentionOpInterface op,
                                           Value queryLen, Value keyLen) {
  AttentionGeometry geometry{op, Value(), Value()};
  geometry.realign(math, queryLen, keyLen);
  return geometry;
}

void AttentionGeometry::realign(IndexMath &math, Value queryLen, Value keyLen) {
  if (std::optional<DiagonalAlignment> causal = op.getCausal())
    causalOffset = diagonalOffset(math, *causal, queryLen, keyLen);
  if (WindowAttr window = op.getWindowAttr())
    windowOffset = diagonalOffset(math, window.getAlign(), queryLen, keyLen);
}

VisibleKeys AttentionGeometry::visibleKeys(IndexMath &math, Value row0,
                                           Value rows, Value keyLen,
                                           int64_t blockKV) const {
  Value rowEnd = math.add(row0, rows);
  Value lastRow = math.addConstant(rowEnd, -1);
  Value keyBegin = math.constant(0), keyEnd = keyLen;
  if (op.getCausal()) {
    Value diagonal = math.add(lastRow, causalOffset);
    Value end = math.addConstant(diagonal, 1);
    keyEnd = math.min(keyEnd, end);
  }
  if (WindowAttr window = op.getWindowAttr()) {
    Value lastDiagonal = math.add(lastRow, windowOffset);
    Value end = math.addConstant(lastDiagonal, window.getRight() + 1);
    keyEnd = math.min(keyEnd, end);
    Value firstDiagonal = math.add(row0, windowOffset);
    Value begin = math.addConstant(firstDiagonal, -window.getLeft());
    keyBegin = math.max(keyBegin, begin);
  }
  Value blockKVValue = math.constant(blockKV);
  Value firstBlock = math.floorDiv(keyBegin, blockKVValue);
  return {math.mul(firstBlock, blockKVValue), keyEnd};
}

VisibleRows AttentionGeometry::visibleQueries(IndexMath &math, Value col0,
                                              Value cols, Value queryLen,
                                              int64_t blockQ) const {
  Value colEnd = math.add(col0, cols);
  Value lastCol = math.addConstant(colEnd, -1);
  Value rowBegin = math.constant(0), rowEnd = queryLen;
  if (op.getCausal())
    rowBegin = math.max(rowBegin, math.sub(col0, causalOffset));
  if (WindowAttr window = op.getWindowAttr()) {
    Value firstDiagonal = math.sub(col0, windowOffset);
    Value begin = math.addConstant(firstDiagonal, -window.getRight());
    rowBegin = math.max(rowBegin, begin);
    Value lastDiagonal = math.sub(lastCol, windowOffset);
    Value end = math.addConstant(lastDiagonal, window.getLeft() + 1);
    rowEnd = math.min(rowEnd, end);
  }
  Value blockQValue = math.constant(blockQ);
  Value firstBlock = math.floorDiv(rowBegin, blockQValue);
  return {math.mul(firstBlock, blockQValue), rowEnd};
}

Value AttentionGeometry::tileCrossesMaskBoundary(IndexMath &math, Value row0,
                                                 Value rows, Value col0,
                                                 Value cols,
                                                 int64_t blockKV) const {
  Value colEnd = math.add(col0, cols);
  Value lastCol = math.addConstant(colEnd, -1);
  Value needsMask = math.lt(cols, math.constant(blockKV));
  if (op.getCausal()) {
    Value diagonal = math.add(row0, causalOffset);
    Value crosses = math.gt(lastCol, diagonal);
    needsMask = math.orI(needsMask, crosses);
  }
  if (WindowAttr window = op.getWindowAttr()) {
    Value rowEnd = math.add(row0, rows);
    Value lastRow = math.addConstant(rowEnd, -1);
    Value lastDiagonal = math.add(lastRow, windowOffset);
    Value lowest = math.addConstant(lastDiagonal, -window.getLeft());
    Value firstDiagonal = math.add(row0, windowOffset);
    Value highest = math.addConstant(firstDiagonal, window.getRight());
    Value below = math.lt(col0, lowest);
    Value above = math.gt(lastCol, highest);
    Value crosses = math.orI(below, above);
    needsMask = math.orI(needsMask, crosses);
  }
  return needsMask;
}

void AttentionGeometry::requireTileElement(MaskedScore &score, IndexMath &m,
                                           Value row0, Value col0,
                                           Value validRows,
                                           Value validCols) const {
  Value localCol = linalg::IndexOp::create(m.b, m.loc, 1);
  Value localRow = linalg::IndexOp::create(m.b, m.loc, 0);
  Value row = m.add(row0, localRow);
  Value col = m.add(col0, localCol);
  if (validRows)
    score.require(m.lt(localRow, validRows)); // padded query rows
  score.require(m.lt(localCol, validCols));   // padded keys
  requireDiagonalBand(score, m, row, col);
}

Value AttentionGeometry::buildMaskedTile(
    OpBuilder &b, Location loc, Value needsMask, Value raw,
    ValueRange rowInputs, Value maskTile, ArrayRef<bool> maskBroadcast,
    Value scale, ArrayRef<OpFoldResult> sizes, const TilePlace &place,
    function_ref<Value(OpBuilder &, Location, MaskedScore &, ValueRange)>
        finish) const {
  MLIRContext *ctx = b.getContext();
  AffineMap id2 = b.getMultiDimIdentityMap(2);
  AffineMap perRow = AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx);
  auto build = [&](OpBuilder &sb, Location sloc, bool elementMask) -> Value {
    SmallVector<Value> inputs = {raw};
    SmallVector<AffineMap> maps = {id2};
    llvm::append_range(inputs, rowInputs);
    maps.append(rowInputs.size(), perRow);
    if (maskTile) {
      inputs.push_back(maskTile);
      maps.push_back(maskTileMap(ctx, maskBroadcast));
    }
    maps.push_back(id2);
    return createGeneric(
        sb, sloc, inputs, createEmpty(sb, sloc, sizes, sb.getF32Type()), maps,
        {utils::IteratorType::parallel, utils::IteratorType::parallel},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          MaskedScore score(nb, nloc, args[0], scale);
          score.setHiddenScore(op.getHiddenScore());
          if (place.batch) {
            IndexMath em{nb, nloc};
            Value localRow = linalg::IndexOp::create(nb, nloc, 0);
            Value localCol = linalg::IndexOp::create(nb, nloc, 1);
            Value row = em.min(em.add(place.row0, localRow), place.lastRow);
            Value col = em.min(em.add(place.col0, localCol), place.lastCol);
            // The mask_mod is an element mask: a tile it shows whole
            // (needsMask false) skips it.
            applyScoreModifiers(score, em, op, place.batch, place.head, row,
                                col, /*captures=*/nullptr, elementMask);
          }
          if (maskTile)
            score.addMask(args[1 + rowInputs.size()]);
          if (elementMask) {
            IndexMath em{nb, nloc};
            requireTileElement(score, em, place.row0, place.col0,
                               place.validRows, place.validCols);
          }
          return finish(nb, nloc, score, args.slice(1, rowInputs.size()));
        });
  };
  auto masked = scf::IfOp::create(
      b, loc, needsMask,
      [&](OpBuilder &tb, Location tloc) {
        scf::YieldOp::create(tb, tloc, build(tb, tloc, true));
      },
      [&](OpBuilder &eb, Location eloc) {
        scf::YieldOp::create(eb, eloc, build(eb, eloc, false));
      });
  return masked.getResult(0);
}

void AttentionGeometry::requireWindowLeftEdge(MaskedScore &score, IndexMath &m,
                                              Value row, Value col) const {
  if (WindowAttr window = op.getWindowAttr()) {
    Value diagonal = m.add(row, windowOffset);
    score.require(m.le(m.addConstant(diagonal, -window.getLeft()), col));
  }
}

void AttentionGeometry::requireDiagonalBand(MaskedScore &score, IndexMath &m,
                                            Value row, Value col) const {
  if (op.getCausal())
    score.require(m.le(col, m.add(row, causalOffset)));
  requireWindowLeftEdge(score, m, row, col);
  if (WindowAttr window = op.getWindowAttr()) {
    Value diagonal = m.add(row, windowOffset);
    score.require(m.le(col, m.addConstant(diagonal, window.getRight())));
  }
}

Value sequenceKeyLength(IndexMath &math, Value length, Value keyLen) {
  Value index = arith::IndexCastOp::create(math.b, math.loc,
                                           math.b.getIndexType(), length);
  Value atLeastZero = math.max(index, math.constant(0));
  return math.min(atLeastZero, keyLen);
}

std::pair<Value, Value> packedRows(IndexMath &math, Value sums, Value sequence,
                                   Value total) {
  Value start = loadIndex(math, sums, sequence);
  Value next = math.addConstant(sequence, 1);
  Value end = loadIndex(math, sums, next);
  start = math.min(math.max(start, math.constant(0)), total);
  end = math.min(math.max(end, start), total);
  return {start, math.sub(end, start)};
}

PackedSequence packedSequence(IndexMath &math, Value cuSeqlensQ,
                              Value cuSeqlensK, Value sequence,
                              Value totalQueries, Value totalKeys) {
  auto [queryStart, queryLen] =
      packedRows(math, cuSeqlensQ, sequence, totalQueries);
  auto [keyStart, keyLen] = packedRows(math, cuSeqlensK, sequence, totalKeys);
  return {queryStart, queryLen, keyStart, keyLen};
}

void applyPackedSequence(IndexMath &math, AttentionGeometry &geometry,
                         const PackedSequence &sequence, Value &queryLen,
                         Value &keyLen) {
  queryLen = sequence.queryLen;
  keyLen = sequence.keyLen;
  geometry.realign(math, queryLen, keyLen);
}

void emptyPastLastRow(IndexMath &math, Value &rows, Value &keyLen) {
  Value zero = math.constant(0);
  rows = math.max(rows, zero);
  keyLen = arith::SelectOp::create(math.b, math.loc, math.gt(rows, zero),
                                   keyLen, zero);
}

std::pair<Value, Value> keyHeadsAndLength(IndexMath &math, Value key,
                                          Value pageTable) {
  if (!pageTable)
    return {math.dim(key, 1), math.dim(key, 2)};
  Value pages = math.dim(pageTable, 1);
  Value slots = math.dim(key, 1);
  return {math.dim(key, 2), math.mul(pages, slots)};
}

Value pageOfEntry(IndexMath &math, Value cache, Value pageTable, Value batch,
                  Value entry) {
  Value page = loadIndex(math, pageTable, ValueRange{batch, entry});
  Value lastPage = math.addConstant(math.dim(cache, 0), -1);
  Value firstPage = math.constant(0);
  return math.max(math.min(page, lastPage), firstPage);
}

std::pair<Value, Value> pagedSlot(IndexMath &math, Value cache, Value pageTable,
                                  Value batch, Value row) {
  Value slots = math.dim(cache, 1);
  Value entry = math.divU(row, slots);
  return {pageOfEntry(math, cache, pageTable, batch, entry),
          math.remU(row, slots)};
}

SmallVector<bool> maskBroadcastDims(AttentionOpInterface op) {
  SmallVector<bool> broadcast(4, false);
  if (!op.getMask())
    return broadcast;
  auto maskType = cast<ShapedType>(op.getMask().getType());
  auto queryType = cast<ShapedType>(op.getQuery().getType());
  int64_t scoreShape[] = {queryType.getDimSize(0), queryType.getDimSize(1),
                          queryType.getDimSize(2), op.getKeyLength()};
  for (int64_t dim = 0; dim < 4; ++dim)
    broadcast[dim] = maskType.getDimSize(dim) == 1 && scoreShape[dim] != 1;
  return broadcast;
}

Value wholeKeyBlocksEnd(IndexMath &math, Value firstBlockStart, Value keyEnd,
                        Value keyLen, int64_t blockKV) {
  Value blockKVValue = math.constant(blockKV);
  Value wholeBlocks =
      math.floorDiv(math.sub(keyLen, firstBlockStart), blockKVValue);
  Value end =
      math.add(firstBlockStart,
               math.mul(math.max(wholeBlocks, math.constant(0)), blockKVValue));
  return math.max(math.min(end, keyEnd), firstBlockStart);
}

VisibleKeys splitVisibleKeys(IndexMath &math, VisibleKeys visible, Value split,
                             int64_t splits, int64_t blockKV) {
  Value blockKVValue = math.constant(blockKV);
  Value span = math.sub(visible.keyEnd, visible.firstBlockStart);
  Value nonNegative = math.max(span, math.constant(0));
  Value blocks = math.ceilDiv(nonNegative, blockKVValue);
  Value perSplit = math.ceilDiv(blocks, math.constant(splits));
  Value runKeys = math.mul(perSplit, blockKVValue);
  Value offset = math.mul(split, runKeys);
  Value start = math.add(visible.firstBlockStart, offset);
  Value runEnd = math.add(start, runKeys);
  return {start, math.min(visible.keyEnd, runEnd)};
}

} // namespace mlir::fa
