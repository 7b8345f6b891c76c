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

#include "Common/IndexMath.h"
#include "Common/ScoreModifiers.h"
#include "Common/TensorBuilders.h"
#include "fa/Dialect/FA/IR/FAOps.h"

namespace mlir::fa {

/// Where the diagonal of query row 0 sits: 0 top-left, Nk - Nq bottom-right.
Value diagonalOffset(IndexMath &math, DiagonalAlignment align, Value queryLen,
                     Value keyLen);

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
                                 Value queryLen, Value keyLen);

  /// Moves the diagonals to a sequence of `queryLen` queries over `keyLen`
  /// keys (bottom-right diagonals end at its last key).
  void realign(IndexMath &math, Value queryLen, Value keyLen);

  /// The key blocks that query rows [row0, row0 + rows) can see. Key blocks
  /// that the causal or window mask hides from every one of these rows are
  /// outside the range, so they are never loaded.
  VisibleKeys visibleKeys(IndexMath &math, Value row0, Value rows, Value keyLen,
                          int64_t blockKV) const;

  /// The query rows that can see some key of [col0, col0 + cols), the
  /// transpose of visibleKeys for the backward pass's key-block loop. Row i
  /// sees key j under causal iff i >= j - delta, and under a window iff
  /// j - delta - right <= i <= j - delta + left.
  VisibleRows visibleQueries(IndexMath &math, Value col0, Value cols,
                             Value queryLen, int64_t blockQ) const;

  /// Whether the tile of query rows [row0, row0 + rows) and keys [col0,
  /// col0 + cols) needs the element mask: `cols` short of `blockKV` (the
  /// tail), or a causal or window boundary crossing the tile. Otherwise every
  /// key of the tile is visible to every row (apart from an explicit mask).
  Value tileCrossesMaskBoundary(IndexMath &math, Value row0, Value rows,
                                Value col0, Value cols, int64_t blockKV) const;

  /// Inside the linalg body of a [rows, keys] tile whose first element is
  /// (row0, col0): hides the padded elements (rows from `validRows` on,
  /// when given; keys from `validCols` on) and those outside the causal and
  /// window bands. The tiled forward and backward lowerings share it.
  void requireTileElement(MaskedScore &score, IndexMath &m, Value row0,
                          Value col0, Value validRows, Value validCols) const;

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
          finish) const;

  /// The window's left edge alone: hides key `col` from query row `row`
  /// where it lies before the row's window (no-op without a window).
  void requireWindowLeftEdge(MaskedScore &score, IndexMath &m, Value row,
                             Value col) const;
  /// Inside a tile's linalg body: hides key `col` from query row `row` where
  /// the causal or window band does.
  void requireDiagonalBand(MaskedScore &score, IndexMath &m, Value row,
                           Value col) const;
};

/// A sequence's key length from its kv_lengths entry (an i32):
/// clamp(length, 0, Nk).
Value sequenceKeyLength(IndexMath &math, Value length, Value keyLen);

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
std::pair<Value, Value> packedRows(IndexMath &math, Value sums, Value sequence,
                                   Value total);
struct PackedSequence {
  Value queryStart, queryLen, keyStart, keyLen;
};
PackedSequence packedSequence(IndexMath &math, Value cuSeqlensQ,
                              Value cuSeqlensK, Value sequence,
                              Value totalQueries, Value totalKeys);

/// What a query block of packed sequence `sequence` works with: the
/// sequence's query and key counts, and diagonals that are its own.
void applyPackedSequence(IndexMath &math, AttentionGeometry &geometry,
                         const PackedSequence &sequence, Value &queryLen,
                         Value &keyLen);

/// A block past its packed sequence's last row has no rows (`rows` would
/// be negative) and sees no key, so it computes and writes nothing.
void emptyPastLastRow(IndexMath &math, Value &rows, Value &keyLen);

/// The number of sequences of a packed op: one less than its prefix sums.
inline Value packedSequenceCount(IndexMath &math, Value cuSeqlensQ) {
  return math.addConstant(math.dim(cuSeqlensQ, 0), -1);
}

/// Hkv and Nk of `op`'s logical keys as index values, read from `key` and
/// `pageTable` (the op's operands, as tensors or buffers; a null table for
/// an unpaged op): paged caches [P, S, Hkv, D] hold Nk = M * S keys.
std::pair<Value, Value> keyHeadsAndLength(IndexMath &math, Value key,
                                          Value pageTable);

/// The page of entry `entry` of sequence `batch`'s table in a paged cache
/// `cache` ([P, S, Hkv, D]): pageTable[batch, entry] clamped into [0, P) so
/// that a wrong entry never reads out of bounds.
Value pageOfEntry(IndexMath &math, Value cache, Value pageTable, Value batch,
                  Value entry);
/// Where key `row` of sequence `batch` lives in a paged cache `cache`:
/// (page, slot), the page of entry row / S (pageOfEntry).
std::pair<Value, Value> pagedSlot(IndexMath &math, Value cache, Value pageTable,
                                  Value batch, Value row);

/// The mask dims that broadcast: a static 1 where the scores' dim
/// ([B, Hq, Nq, Nk]) is not 1 (see the op's verifier). Such a dim is read at
/// index 0 and never expanded. All false without a mask.
SmallVector<bool> maskBroadcastDims(AttentionOpInterface op);

/// Where the key blocks [firstBlockStart, keyEnd) (starts blockKV apart)
/// stop being whole: one past the last block start whose block ends at or
/// before keyLen, at least firstBlockStart. Without causal or window bands
/// and without a mask, the blocks before it need no element mask.
Value wholeKeyBlocksEnd(IndexMath &math, Value firstBlockStart, Value keyEnd,
                        Value keyLen, int64_t blockKV);

/// The keys that split `split` of `splits` walks (split-KV): the visible
/// key blocks cut into runs of ceil(blocks / splits), in order, so that the
/// last runs are shorter or empty (an empty run is a loop from `keyEnd`
/// or later to `keyEnd`). Every split cuts the same visible range, so the
/// runs cover it exactly once.
VisibleKeys splitVisibleKeys(IndexMath &math, VisibleKeys visible, Value split,
                             int64_t splits, int64_t blockKV);

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_ATTENTIONGEOMETRY_H
