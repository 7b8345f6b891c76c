//===- AttentionGeometry.h - Which key each query sees ---------*- C++ -*-===//
//
// Everything that decides which key a query row sees, for every lowering
// but the reference: the causal and window diagonals, per-sequence key
// lengths (kv_lengths), packed sequences (cu_seqlens), paged caches, the
// key blocks a run of rows can see (the tile skipping), whether a tile
// needs the element mask, and the element test inside a tile. The tiled
// lowerings (tensors) and the GPU kernels (buffers), forward and backward,
// build their bounds from these, so that all of them skip exactly the same
// blocks and hide exactly the same keys.
//
// The reference lowering (fa-decompose-attention) reads the data the same
// way (paged slots, packed rows, clamped lengths) but deliberately builds
// its own causal and window masks and skips no block: it is the oracle
// every other lowering is compared with, so a mistake in AttentionGeometry
// must show up as a difference from it, not be shared by it.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_ATTENTIONGEOMETRY_H
#define FA_TRANSFORMS_COMMON_ATTENTIONGEOMETRY_H

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Common/IndexMath.h"
#include "fa/Transforms/Common/ScoreModifiers.h"
#include "fa/Transforms/Common/TensorBuilders.h"

namespace mlir::fa {

/// Where the diagonal of query row 0 sits: 0 top-left, Nk - Nq bottom-right.
inline Value diagonalOffset(IndexMath &math, DiagonalAlignment align,
                            Value queryLen, Value keyLen) {
  if (align == DiagonalAlignment::top_left)
    return math.constant(0);
  return math.sub(keyLen, queryLen);
}

/// A run of key blocks: the loop runs from `firstBlockStart` (a multiple of
/// the key block) to `keyEnd`.
struct VisibleKeys {
  Value firstBlockStart, keyEnd;
};

/// A run of query blocks: from `firstBlockStart` (a multiple of the query
/// block) to `rowEnd`.
struct VisibleRows {
  Value firstBlockStart, rowEnd;
};

/// The causal and window bands of an fa.attention or fa.attention_backward
/// for one sequence: where each diagonal of query row 0 sits (null where the
/// op has no such mask), and what follows from it.
struct AttentionGeometry {
  /// Mutable because an op handle's accessors are not const.
  mutable AttentionOpInterface op;
  Value causalOffset, windowOffset;

  /// The bands of `op` for `queryLen` queries over `keyLen` keys.
  static AttentionGeometry align(IndexMath &math, AttentionOpInterface op,
                                 Value queryLen, Value keyLen) {
    AttentionGeometry geometry{op, Value(), Value()};
    geometry.realign(math, queryLen, keyLen);
    return geometry;
  }

  /// Moves the diagonals to a sequence of `queryLen` queries over `keyLen`
  /// keys (bottom-right diagonals end at its last key).
  void realign(IndexMath &math, Value queryLen, Value keyLen) {
    if (std::optional<DiagonalAlignment> causal = op.getCausal())
      causalOffset = diagonalOffset(math, *causal, queryLen, keyLen);
    if (WindowAttr window = op.getWindowAttr())
      windowOffset = diagonalOffset(math, window.getAlign(), queryLen, keyLen);
  }

  /// The key blocks that query rows [row0, row0 + rows) can see. Key blocks
  /// that the causal or window mask hides from every one of these rows are
  /// outside the range, so they are never loaded.
  VisibleKeys visibleKeys(IndexMath &math, Value row0, Value rows, Value keyLen,
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

  /// The query rows that can see some key of [col0, col0 + cols), the
  /// transpose of visibleKeys for the backward pass's key-block loop. Row i
  /// sees key j under causal iff i >= j - delta, and under a window iff
  /// j - delta - right <= i <= j - delta + left.
  VisibleRows visibleQueries(IndexMath &math, Value col0, Value cols,
                             Value queryLen, int64_t blockQ) const {
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

  /// Whether the tile of query rows [row0, row0 + rows) and keys [col0,
  /// col0 + cols) needs the element mask: `cols` short of `blockKV` (the
  /// tail), or a causal or window boundary crossing the tile. Otherwise every
  /// key of the tile is visible to every row (apart from an explicit mask).
  Value tileCrossesMaskBoundary(IndexMath &math, Value row0, Value rows,
                                Value col0, Value cols, int64_t blockKV) const {
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

  /// Inside the linalg body of a [rows, keys] tile whose first element is
  /// (row0, col0): hides the padded elements (rows from `validRows` on,
  /// when given; keys from `validCols` on) and those outside the causal and
  /// window bands. The tiled forward and backward lowerings share it.
  void requireTileElement(MaskedScore &score, IndexMath &m, Value row0,
                          Value col0, Value validRows, Value validCols) const {
    Value localCol = linalg::IndexOp::create(m.b, m.loc, 1);
    Value localRow = linalg::IndexOp::create(m.b, m.loc, 0);
    Value row = m.add(row0, localRow);
    Value col = m.add(col0, localCol);
    if (validRows)
      score.require(m.lt(localRow, validRows)); // padded query rows
    score.require(m.lt(localCol, validCols));   // padded keys
    requireDiagonalBand(score, m, row, col);
  }

  /// Where a tile of scores lies and which of its elements exist: its first
  /// element (row0, col0), its valid rows (null: all) and keys. With a
  /// score_mod or mask_mod, also the tile's batch and head and the last
  /// query row and key that exist: the regions see positions clamped to
  /// them, so that a padded element (masked anyway) never makes a region
  /// read past the end of a tensor it indexes by position.
  struct TilePlace {
    Value row0, col0, validRows, validCols;
    Value batch = nullptr, head = nullptr, lastRow = nullptr, lastCol = nullptr;
  };

  /// A [rows, keys] tile of masked scores as the tiled lowerings build it,
  /// twice behind an scf.if on `needsMask`: with the element masks of
  /// requireTileElement and without. Each is a linalg.generic of `sizes`
  /// over `raw` (the f32 products), `rowInputs` (one value per row) and the
  /// mask tile (when given, read through maskTileMap), whose body forms
  /// scale * raw (+ bias, keep-mask), hidden keys at the op's hidden score,
  /// and yields `finish(score, row values)`.
  Value buildMaskedTile(
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

  /// Inside a tile's linalg body: hides key `col` from query row `row` where
  /// the causal or window band does.
  void requireDiagonalBand(MaskedScore &score, IndexMath &m, Value row,
                           Value col) const {
    if (op.getCausal())
      score.require(m.le(col, m.add(row, causalOffset)));
    if (WindowAttr window = op.getWindowAttr()) {
      Value diagonal = m.add(row, windowOffset);
      score.require(m.le(m.addConstant(diagonal, -window.getLeft()), col));
      score.require(m.le(col, m.addConstant(diagonal, window.getRight())));
    }
  }
};

/// A sequence's key length from its kv_lengths entry (an i32):
/// clamp(length, 0, Nk).
inline Value sequenceKeyLength(IndexMath &math, Value length, Value keyLen) {
  Value index = arith::IndexCastOp::create(math.b, math.loc,
                                           math.b.getIndexType(), length);
  Value atLeastZero = math.max(index, math.constant(0));
  return math.min(atLeastZero, keyLen);
}

/// What a query block of one sequence sees with kv_lengths: `keyLen`
/// becomes the sequence's key length (sequenceKeyLength of its entry
/// `length`), and bottom-right causal and window diagonals end at its last
/// key. Shared by the tiled lowering and the GPU kernel.
inline void applySequenceLength(IndexMath &math, AttentionGeometry &geometry,
                                Value length, Value queryLen, Value &keyLen) {
  keyLen = sequenceKeyLength(math, length, keyLen);
  geometry.realign(math, queryLen, keyLen);
}

/// Sequence `sequence` of a packed op: where its query and key rows start
/// in the packed tensors, and how many there are, from cu_seqlens_q and
/// cu_seqlens_k (tensors or buffers). Entries are clamped into [0, total]
/// and each end to at least its start, so that bad prefix sums never
/// address outside the packed rows.
inline std::pair<Value, Value> packedRows(IndexMath &math, Value sums,
                                          Value sequence, Value total) {
  Value start = loadIndex(math, sums, sequence);
  Value next = math.addConstant(sequence, 1);
  Value end = loadIndex(math, sums, next);
  start = math.min(math.max(start, math.constant(0)), total);
  end = math.min(math.max(end, start), total);
  return {start, math.sub(end, start)};
}
struct PackedSequence {
  Value queryStart, queryLen, keyStart, keyLen;
};
inline PackedSequence packedSequence(IndexMath &math, Value cuSeqlensQ,
                                     Value cuSeqlensK, Value sequence,
                                     Value totalQueries, Value totalKeys) {
  auto [queryStart, queryLen] =
      packedRows(math, cuSeqlensQ, sequence, totalQueries);
  auto [keyStart, keyLen] = packedRows(math, cuSeqlensK, sequence, totalKeys);
  return {queryStart, queryLen, keyStart, keyLen};
}

/// What a query block of packed sequence `sequence` works with: the
/// sequence's query and key counts, and diagonals that are its own.
inline void applyPackedSequence(IndexMath &math, AttentionGeometry &geometry,
                                const PackedSequence &sequence, Value &queryLen,
                                Value &keyLen) {
  queryLen = sequence.queryLen;
  keyLen = sequence.keyLen;
  geometry.realign(math, queryLen, keyLen);
}

/// A block past its packed sequence's last row has no rows (`rows` would
/// be negative) and sees no key, so it computes and writes nothing.
inline void emptyPastLastRow(IndexMath &math, Value &rows, Value &keyLen) {
  Value zero = math.constant(0);
  rows = math.max(rows, zero);
  keyLen = arith::SelectOp::create(math.b, math.loc, math.gt(rows, zero),
                                   keyLen, zero);
}

/// The number of sequences of a packed op: one less than its prefix sums.
inline Value packedSequenceCount(IndexMath &math, Value cuSeqlensQ) {
  return math.addConstant(math.dim(cuSeqlensQ, 0), -1);
}

/// Hkv and Nk of `op`'s logical keys as index values, read from `key` and
/// `pageTable` (the op's operands, as tensors or buffers; a null table for
/// an unpaged op): paged caches [P, S, Hkv, D] hold Nk = M * S keys.
inline std::pair<Value, Value> keyHeadsAndLength(IndexMath &math, Value key,
                                                 Value pageTable) {
  if (!pageTable)
    return {math.dim(key, 1), math.dim(key, 2)};
  Value pages = math.dim(pageTable, 1);
  Value slots = math.dim(key, 1);
  return {math.dim(key, 2), math.mul(pages, slots)};
}

/// Where key `row` of sequence `batch` lives in a paged cache `cache`
/// ([P, S, Hkv, D]): (page, slot), with page = pageTable[batch, row / S]
/// clamped into [0, P) so that a wrong entry never reads out of bounds.
inline std::pair<Value, Value> pagedSlot(IndexMath &math, Value cache,
                                         Value pageTable, Value batch,
                                         Value row) {
  Value slots = math.dim(cache, 1);
  Value pageIndex = math.divU(row, slots);
  Value page = loadIndex(math, pageTable, ValueRange{batch, pageIndex});
  Value lastPage = math.addConstant(math.dim(cache, 0), -1);
  Value firstPage = math.constant(0);
  page = math.max(math.min(page, lastPage), firstPage);
  return {page, math.remU(row, slots)};
}

/// The mask dims that broadcast: a static 1 where the scores' dim
/// ([B, Hq, Nq, Nk]) is not 1 (see the op's verifier). Such a dim is read at
/// index 0 and never expanded. All false without a mask.
inline SmallVector<bool> maskBroadcastDims(AttentionOpInterface op) {
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

/// Where the key blocks [firstBlockStart, keyEnd) (starts blockKV apart)
/// stop being whole: one past the last block start whose block ends at or
/// before keyLen, at least firstBlockStart. Without causal or window bands
/// and without a mask, the blocks before it need no element mask.
inline Value wholeKeyBlocksEnd(IndexMath &math, Value firstBlockStart,
                               Value keyEnd, Value keyLen, int64_t blockKV) {
  Value blockKVValue = math.constant(blockKV);
  Value wholeBlocks =
      math.floorDiv(math.sub(keyLen, firstBlockStart), blockKVValue);
  Value end =
      math.add(firstBlockStart,
               math.mul(math.max(wholeBlocks, math.constant(0)), blockKVValue));
  return math.max(math.min(end, keyEnd), firstBlockStart);
}

/// The keys that split `split` of `splits` walks (split-KV): the visible
/// key blocks cut into runs of ceil(blocks / splits), in order, so that the
/// last runs are shorter or empty (an empty run is a loop from `keyEnd`
/// or later to `keyEnd`). Every split cuts the same visible range, so the
/// runs cover it exactly once.
inline VisibleKeys splitVisibleKeys(IndexMath &math, VisibleKeys visible,
                                    Value split, int64_t splits,
                                    int64_t blockKV) {
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

#endif // FA_TRANSFORMS_COMMON_ATTENTIONGEOMETRY_H
