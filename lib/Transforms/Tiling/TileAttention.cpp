//===- TileAttention.cpp - fa.attention to a tiled online softmax ---------===//
//
// Stage: tiling. Lowers an fa.attention annotated by fa-select-tiles into
// FlashAttention-2's loop nest on tensors:
//
//   scf.forall (b, h, query block)            -- #gpu.block mapping
//     Q tile [Br, D]; m = -inf, l = 0, acc = 0 (f32, per row)
//     scf.for key block in [first visible, last visible]
//       S   = scale * Q K^T (+ bias) [Br, Bc]; masked where needed -> -inf
//       m'  = max(m, rowmax S)
//       P   = exp(S - m'); alpha = exp(m - m')
//       l'  = alpha * l + rowsum P
//       acc = alpha * acc + P V     (P rounded to the input type first)
//     O = acc / l (0 where l = 0), logsumexp = m + log l
//
// With kv_splits = S > 1 (split-KV, flash-decoding), the grid's last
// dimension runs over (query block, split): split s walks the s-th run of
// the block's visible key blocks (splitVisibleKeys) and writes its output
// in f32 and its logsumexp to a workspace [S, B, Hq, Nq, (Dv)]; a merge
// then computes lse = log sum_s e^lse_s and O = sum_s e^(lse_s - lse) O_s.
// A split that sees no key has lse_s = -inf and weight 0.
//
// Every buffer is tile-sized: the scratch of a query block is
// O(Br * (D + Dv + Bc)); no Nq x Nk tensor exists. Tiles have static shapes
// (tails are padded, and the padding is masked), so that the GPU lowering
// can place them in shared memory and registers. Key blocks that causal or
// window masks hide entirely are never visited, and only blocks on a mask
// boundary (or the tail) evaluate the element mask.
//
//===----------------------------------------------------------------------===//

#include "Common/AttentionGeometry.h"
#include "Common/IndexMath.h"
#include "Common/LoweringDriver.h"
#include "Common/MaskModIntervals.h"
#include "Common/PackQueryGroups.h"
#include "Common/ScoreModifiers.h"
#include "Common/TensorBuilders.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Tiling/Tiling.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fa-tile-attention"

namespace mlir::fa {
#define GEN_PASS_DEF_FATILEATTENTION
#include "fa/Transforms/Tiling/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;

namespace {

using utils::IteratorType;

/// Keys [row0, row0 + rows) of sequence `batch`, head `kvHead`, gathered
/// from a paged cache ([P, S, Hkv, width]) through its page table, so that
/// a tile may straddle pages; padded with zeros to [tileRows, width].
/// `rows` is at least 1.
Value loadPagedTile(OpBuilder &b, Location loc, Value cache, Value pageTable,
                    Value batch, Value kvHead, Value row0, Value rows,
                    int64_t tileRows, int64_t width) {
  Type elementType = cast<RankedTensorType>(cache.getType()).getElementType();
  auto tileType = RankedTensorType::get({tileRows, width}, elementType);
  Value init = tensor::EmptyOp::create(b, loc, tileType.getShape(), elementType);
  AffineMap identity = b.getMultiDimIdentityMap(2);
  auto par = utils::IteratorType::parallel;
  return linalg::GenericOp::create(
             b, loc, tileType, ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{identity},
             ArrayRef<utils::IteratorType>{par, par},
             [&](OpBuilder &nb, Location nloc, ValueRange) {
               IndexMath m{nb, nloc};
               Value r = linalg::IndexOp::create(nb, nloc, 0);
               Value d = linalg::IndexOp::create(nb, nloc, 1);
               // Padding rows read the tile's last key and are zeroed.
               Value lastRow = m.addConstant(rows, -1);
               Value row = m.add(row0, m.min(r, lastRow));
               auto [page, slot] = pagedSlot(m, cache, pageTable, batch, row);
               Value element = tensor::ExtractOp::create(
                   nb, nloc, cache, ValueRange{page, slot, kvHead, d});
               Value zero = arith::ConstantOp::create(
                   nb, nloc, nb.getZeroAttr(elementType));
               Value kept = arith::SelectOp::create(nb, nloc, m.lt(r, rows),
                                                    element, zero);
               linalg::YieldOp::create(nb, nloc, kept);
             })
      .getResult(0);
}

struct TileAttentionLowering {
  AttentionOp op;
  OpBuilder &b;
  Location loc;
  int64_t blockQ, blockKV, warps, kvSplits, headDim, valueDim;
  Type elementType, valueElementType;
  /// The split a grid block computes (null without key splits).
  Value split;
  Type f32;
  TypedAttr negInf, zero;

  TileAttentionLowering(AttentionOp op, OpBuilder &b, TilingAttr tiling)
      : op(op), b(b), loc(op.getLoc()), blockQ(tiling.getBlockQ()),
        blockKV(tiling.getBlockKv()), warps(tiling.getWarps()),
        kvSplits(tiling.getKvSplits()) {
    auto queryType = cast<RankedTensorType>(op.getQuery().getType());
    auto valueType = cast<RankedTensorType>(op.getValue().getType());
    headDim = queryType.getDimSize(3);
    valueDim = valueType.getDimSize(3);
    elementType = queryType.getElementType();
    valueElementType = valueType.getElementType();
    f32 = b.getF32Type();
    negInf =
        b.getFloatAttr(f32, -std::numeric_limits<double>::infinity());
    zero = b.getFloatAttr(f32, 0.0);
  }

  /// Q, K and V as the query blocks read them: the op's operands, or, with
  /// packed sequences, views of the block's sequence (set per block).
  Value queryData, keyData, valueData;

  SmallVector<Value> lower();
  /// Output tiles are f32 partial results when the keys are split.
  Type tileOutputType() const { return split ? f32 : valueElementType; }
  bool wantsLogsumexp() { return op.getLogsumexp() || kvSplits > 1; }
  SmallVector<Value> mergeSplits(Value partialOutput, Value partialLse,
                                 ArrayRef<OpFoldResult> outputSizes);
  void buildQueryBlock(scf::ForallOp forall, Value queryLen, Value keyLen,
                       Value groupSize, AttentionGeometry geometry, Value scale,
                       ArrayRef<bool> maskBroadcast);
  /// The last query row of the op (score_mod and mask_mod clamp to it).
  Value lastQueryRow;
  Value blockScores(OpBuilder &lb, Location lloc, Value raw, Value maskTile,
                    Value needsMask, Value batch, Value head, Value keyLen,
                    Value row0, Value col0, Value cols, int64_t tileRows,
                    const AttentionGeometry &geometry, Value scale,
                    ArrayRef<bool> maskBroadcast);
  SmallVector<Value> onlineSoftmaxStep(OpBuilder &lb, Location lloc,
                                       ValueRange state, Value scores,
                                       Value valueTile, int64_t tileRows);
  std::pair<Value, Value> computeRows(Value batch, Value head, Value kvHead,
                                      Value row0, Value rows, int64_t tileRows,
                                      Value keyLen, AttentionGeometry geometry,
                                      Value scale,
                                      ArrayRef<bool> maskBroadcast);
};

SmallVector<Value> TileAttentionLowering::lower() {
  IndexMath math{b, loc};
  Value query = op.getQuery(), key = op.getKey();

  queryData = query;
  keyData = key;
  valueData = op.getValue();
  Value batchSize = math.dim(query, 0), queryHeads = math.dim(query, 1);
  Value queryLen = math.dim(query, 2);
  auto [keyHeads, keyLen] = keyHeadsAndLength(math, key, op.getPageTable());
  // The grid's z: the batch, or the packed sequences.
  Value gridBatch = op.isPacked()
                        ? packedSequenceCount(math, op.getCuSeqlensQ())
                        : batchSize;
  Value groupSize = math.divU(queryHeads, keyHeads);
  Value queryBlocks = math.ceilDiv(queryLen, math.constant(blockQ));

  AttentionGeometry geometry =
      AttentionGeometry::align(math, op, queryLen, keyLen);
  Value scale = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(op.getScale().convertToDouble()));

  SmallVector<bool> maskBroadcast = maskBroadcastDims(op);

  // Results, written one query block at a time; with split keys, the
  // workspace of partial results, with the split as the leading dim.
  SmallVector<OpFoldResult> outputSizes =
      getAsOpFoldResult(ValueRange{batchSize, queryHeads, queryLen});
  outputSizes.push_back(b.getIndexAttr(valueDim));
  SmallVector<OpFoldResult> tileSizes = outputSizes;
  if (kvSplits > 1)
    tileSizes.insert(tileSizes.begin(), b.getIndexAttr(kvSplits));
  SmallVector<Value> outputs = {createEmpty(
      b, loc, tileSizes, kvSplits > 1 ? Type(f32) : valueElementType)};
  if (wantsLogsumexp())
    outputs.push_back(createEmpty(
        b, loc, ArrayRef<OpFoldResult>(tileSizes).drop_back(), f32));

  // Grid: (batch, head, query block [x split]), mapped to GPU blocks
  // (z, y, x).
  Value gridX = queryBlocks;
  if (kvSplits > 1)
    gridX = math.mul(queryBlocks, math.constant(kvSplits));
  auto forall = createBlockGrid(
      b, loc, ValueRange{gridBatch, queryHeads, gridX}, outputs);

  buildQueryBlock(forall, queryLen, keyLen, groupSize, geometry, scale,
                  maskBroadcast);

  SmallVector<Value> results(forall.getResults());
  if (kvSplits > 1) {
    results = mergeSplits(results[0], results[1], outputSizes);
    if (!op.getLogsumexp())
      results.pop_back();
  }
  for (auto [index, original] : llvm::enumerate(op.getResults())) {
    if (results[index].getType() != original.getType())
      results[index] = tensor::CastOp::create(b, loc, original.getType(),
                                              results[index]);
  }
  return results;
}

/// The body of the grid: one query block of one head, all key blocks.
/// The online softmax for `tileRows` query rows starting at `row0` (`rows`
/// of them valid) over every key block they can see: the [tileRows, Dv]
/// output tile and the [tileRows] logsumexp tile (null when not requested).
std::pair<Value, Value>
TileAttentionLowering::computeRows(Value batch, Value head, Value kvHead,
                                   Value row0, Value rows, int64_t tileRows,
                                   Value keyLen, AttentionGeometry geometry,
                                   Value scale, ArrayRef<bool> maskBroadcast) {
  MLIRContext *ctx = b.getContext();
  IndexMath math{b, loc};
  Value query = queryData, key = keyData, value = valueData;
  Value mask = op.getMask();
  Value blockKVValue = math.constant(blockKV);
  Value zeroIndex = math.constant(0);

  Value queryTile = loadTile(b, loc, query, batch, head, row0, rows, tileRows,
                             zeroIndex, math.constant(headDim), headDim);

  // The keys any row of this block can see: causal and window bounds.
  VisibleKeys visible = geometry.visibleKeys(math, row0, rows, keyLen, blockKV);
  if (split)
    visible = splitVisibleKeys(math, visible, split, kvSplits, blockKV);
  Value firstBlockStart = visible.firstBlockStart, keyEnd = visible.keyEnd;

  SmallVector<OpFoldResult> rowSizes = {b.getIndexAttr(tileRows)};
  SmallVector<OpFoldResult> accSizes = {b.getIndexAttr(tileRows),
                                        b.getIndexAttr(valueDim)};
  SmallVector<OpFoldResult> scoreSizes = {b.getIndexAttr(tileRows),
                                          b.getIndexAttr(blockKV)};
  Value initMax = createFilled(b, loc, rowSizes, f32, negInf);
  Value initSum = createFilled(b, loc, rowSizes, f32, zero);
  if (Value sinks = op.getSinks()) {
    // The sink is one more logit with no value: the state starts as if it
    // had been seen, m = s[h] and l = e^(s[h] - m) (1, or 0 for a -inf
    // sink). Split-KV: only split 0 sees it, and the merge weighs it in.
    Value sink = sinkLogit(math, sinks, head);
    if (split) {
      Value first = math.eq(split, zeroIndex);
      Value none = arith::ConstantOp::create(b, loc, negInf);
      sink = arith::SelectOp::create(b, loc, first, sink, none);
    }
    Value shifted =
        arith::SubFOp::create(b, loc, sink, safeRowMax(b, loc, sink));
    Value sinkTerm = math::ExpOp::create(b, loc, shifted);
    initMax =
        linalg::FillOp::create(b, loc, ValueRange{sink},
                               ValueRange{createEmpty(b, loc, rowSizes, f32)})
            .getResult(0);
    initSum =
        linalg::FillOp::create(b, loc, ValueRange{sinkTerm},
                               ValueRange{createEmpty(b, loc, rowSizes, f32)})
            .getResult(0);
  }
  Value initAcc = createFilled(b, loc, accSizes, f32, zero);

  AffineExpr i, j, d;
  bindDims(ctx, i, j, d);
  auto map = [&](unsigned numDims, ArrayRef<AffineExpr> results) {
    return AffineMap::get(numDims, 0, results, ctx);
  };
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  AffineMap id2 = b.getMultiDimIdentityMap(2), row2 = map(2, {i});

  auto loop = scf::ForOp::create(
      b, loc, firstBlockStart, keyEnd, blockKVValue,
      ValueRange{initMax, initSum, initAcc},
      [&](OpBuilder &lb, Location lloc, Value col0, ValueRange state) {
        IndexMath lm{lb, lloc};
        Value cols = lm.min(blockKVValue, lm.sub(keyLen, col0));
        // K and V tiles, the mask tile and raw = Q K^T in f32, built at
        // `pb` (inside the branch that visits the block, with a mask_mod).
        struct BlockData {
          Value valueTile, maskTile, raw;
        };
        auto prepare = [&](OpBuilder &pb, Location ploc) {
          IndexMath pm{pb, ploc};
          Value keyTile, valueTile;
          if (Value table = op.getPageTable()) {
            keyTile = loadPagedTile(pb, ploc, key, table, batch, kvHead, col0,
                                    cols, blockKV, headDim);
            valueTile = loadPagedTile(pb, ploc, value, table, batch, kvHead,
                                      col0, cols, blockKV, valueDim);
          } else {
            keyTile =
                loadTile(pb, ploc, key, batch, kvHead, col0, cols, blockKV,
                         zeroIndex, pm.constant(headDim), headDim);
            valueTile =
                loadTile(pb, ploc, value, batch, kvHead, col0, cols, blockKV,
                         zeroIndex, pm.constant(valueDim), valueDim);
          }
          Value maskTile;
          if (mask)
            maskTile = loadTile(pb, ploc, mask, batch, head, row0, rows,
                                tileRows, col0, cols, blockKV, maskBroadcast);
          Value raw =
              createGeneric(pb, ploc, ValueRange{queryTile, keyTile},
                            createFilled(pb, ploc, scoreSizes, f32, zero),
                            {map(3, {i, d}), map(3, {j, d}), map(3, {i, j})},
                            {par, par, red}, multiplyAddF32);
          return BlockData{valueTile, maskTile, raw};
        };
        std::optional<BlockData> data;
        if (!op.getMaskModBlock())
          data = prepare(lb, lloc);

        // Does this block need the element mask? The tail block, and blocks
        // that a causal or window boundary crosses.
        Value needsMask = geometry.tileCrossesMaskBoundary(lm, row0, rows, col0,
                                                           cols, blockKV);
        // A mask_mod: blocks it provably hides are skipped, and only blocks
        // it may hide in part test it element by element.
        Value someVisible;
        if (Block *maskMod = op.getMaskModBlock()) {
          Value lastRow = lm.addConstant(lm.add(row0, rows), -1);
          Value lastCol = lm.addConstant(lm.add(col0, cols), -1);
          TileVisibility visibility = emitTileVisibility(
              lb, lloc, maskMod,
              {{batch, batch}, {head, head}, {row0, lastRow}, {col0, lastCol}});
          someVisible = visibility.someVisible;
          Value partial =
              visibility.allVisible
                  ? arith::XOrIOp::create(
                        lb, lloc, visibility.allVisible,
                        arith::ConstantIntOp::create(lb, lloc, 1, 1))
                        .getResult()
                  : arith::ConstantIntOp::create(lb, lloc, 1, 1).getResult();
          needsMask = lm.orI(needsMask, partial);
        }

        auto step = [&](OpBuilder &sb, Location sloc) {
          BlockData block = data ? *data : prepare(sb, sloc);
          Value scores =
              blockScores(sb, sloc, block.raw, block.maskTile, needsMask, batch,
                          head, keyLen, row0, col0, cols, tileRows, geometry,
                          scale, maskBroadcast);
          return onlineSoftmaxStep(sb, sloc, state, scores, block.valueTile,
                                   tileRows);
        };
        if (!someVisible) {
          scf::YieldOp::create(lb, lloc, step(lb, lloc));
          return;
        }
        auto visited = scf::IfOp::create(
            lb, lloc, someVisible,
            [&](OpBuilder &tb, Location tloc) {
              scf::YieldOp::create(tb, tloc, step(tb, tloc));
            },
            [&](OpBuilder &eb, Location eloc) {
              scf::YieldOp::create(eb, eloc, state);
            });
        scf::YieldOp::create(lb, lloc, visited.getResults());
      });

  Value finalMax = loop.getResult(0), finalSum = loop.getResult(1);
  Value finalAcc = loop.getResult(2);
  // O = acc / l, 0 where no key was visible; rounded once (after the merge
  // when the keys are split).
  Type outputType = tileOutputType();
  Value outputTile = createGeneric(
      b, loc, ValueRange{finalAcc, finalSum},
      createEmpty(b, loc, accSizes, outputType), {id2, row2, id2},
      {par, par}, [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return normalizeRow(nb, nloc, args[0], args[1], outputType);
      });

  Value lseTile;
  if (wantsLogsumexp()) {
    // logsumexp = m + log l: -inf where no key was visible (log 0).
    AffineMap id1 = b.getMultiDimIdentityMap(1);
    lseTile = createGeneric(
        b, loc, ValueRange{finalMax, finalSum},
        createEmpty(b, loc, rowSizes, f32), {id1, id1, id1}, {par},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          Value logSum = math::LogOp::create(nb, nloc, args[1]);
          return arith::AddFOp::create(nb, nloc, safeRowMax(nb, nloc, args[0]),
                                       logSum);
        });
  }
  return {outputTile, lseTile};
}

/// The scores of one key block: scale * raw (+ bias, keep-mask), hidden
/// keys -inf; the element masks (the padded tail, causal and window bands)
/// only in the branch taken where `needsMask`.
Value TileAttentionLowering::blockScores(
    OpBuilder &lb, Location lloc, Value raw, Value maskTile, Value needsMask,
    Value batch, Value head, Value keyLen, Value row0, Value col0, Value cols,
    int64_t tileRows, const AttentionGeometry &geometry, Value scale,
    ArrayRef<bool> maskBroadcast) {
  SmallVector<OpFoldResult> scoreSizes = {lb.getIndexAttr(tileRows),
                                          lb.getIndexAttr(blockKV)};
  // Rows past the query length are dropped when the tile is stored; keys
  // past `cols` are the padded tail.
  AttentionGeometry::TilePlace place{row0, col0, Value(), cols};
  if (op.getScoreModBlock() || op.getMaskModBlock()) {
    IndexMath lm{lb, lloc};
    place.batch = batch;
    place.head = head;
    place.lastRow = lastQueryRow;
    place.lastCol = lm.addConstant(keyLen, -1);
  }
  return geometry.buildMaskedTile(lb, lloc, needsMask, raw, ValueRange{},
                                  maskTile, maskBroadcast, scale, scoreSizes,
                                  place,
                                  [](OpBuilder &, Location, MaskedScore &score,
                                     ValueRange) { return score.finish(); });
}

/// The online softmax after one key block: m' = max(m, rowmax S),
/// P = e^(S - m'), alpha = e^(m - m'), l' = alpha l + rowsum P and
/// acc' = alpha acc + P V; the state (m', l', acc').
SmallVector<Value>
TileAttentionLowering::onlineSoftmaxStep(OpBuilder &lb, Location lloc,
                                         ValueRange state, Value scores,
                                         Value valueTile, int64_t tileRows) {
  MLIRContext *ctx = lb.getContext();
  AffineExpr i, j, d;
  bindDims(ctx, i, j, d);
  auto map = [&](unsigned numDims, ArrayRef<AffineExpr> results) {
    return AffineMap::get(numDims, 0, results, ctx);
  };
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  AffineMap id2 = lb.getMultiDimIdentityMap(2), row2 = map(2, {i});
  SmallVector<OpFoldResult> rowSizes = {lb.getIndexAttr(tileRows)};
  SmallVector<OpFoldResult> scoreSizes = {lb.getIndexAttr(tileRows),
                                          lb.getIndexAttr(blockKV)};
  Value oldMax = state[0], oldSum = state[1], oldAcc = state[2];
  // m' = max(m, rowmax S): the reduction starts from a copy of m, which
  // alpha still needs; m' goes back into m's buffer at the end.
  Value maxCopy = linalg::CopyOp::create(lb, lloc, oldMax,
                                         createEmpty(lb, lloc, rowSizes, f32))
                      .getResult(0);
  Value newMax = createGeneric(
      lb, lloc, ValueRange{scores}, maxCopy, {id2, row2}, {par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::MaximumFOp::create(nb, nloc, args[0], args[1]);
      });
  // P = exp(S - m').
  Value probs = createGeneric(
      lb, lloc, ValueRange{scores, newMax},
      createEmpty(lb, lloc, scoreSizes, f32), {id2, row2, id2}, {par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value shifted = arith::SubFOp::create(nb, nloc, args[0],
                                              safeRowMax(nb, nloc, args[1]));
        return math::ExpOp::create(nb, nloc, shifted);
      });
  // alpha = exp(m - m'): rescales what was summed under the old max.
  AffineMap id1 = lb.getMultiDimIdentityMap(1);
  Value alpha = createGeneric(
      lb, lloc, ValueRange{oldMax, newMax},
      createEmpty(lb, lloc, rowSizes, f32), {id1, id1, id1}, {par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value shifted = arith::SubFOp::create(nb, nloc, args[0],
                                              safeRowMax(nb, nloc, args[1]));
        return math::ExpOp::create(nb, nloc, shifted);
      });
  // l' = alpha * l + rowsum P.
  // The running state is updated in place (destination-passing), so
  // the loop carries the same buffers from iteration to iteration.
  Value scaledSum = createGeneric(
      lb, lloc, ValueRange{alpha}, oldSum, {id1, id1}, {par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::MulFOp::create(nb, nloc, args[0], args[1]);
      });
  Value newSum = createGeneric(
      lb, lloc, ValueRange{probs}, scaledSum, {id2, row2}, {par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::AddFOp::create(nb, nloc, args[0], args[1]);
      });
  // acc' = alpha * acc + P V, with P rounded to the input type first
  // (FlashAttention-2 feeds P to the second MMA in that type).
  Value scaledAcc = createGeneric(
      lb, lloc, ValueRange{alpha}, oldAcc, {row2, id2}, {par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::MulFOp::create(nb, nloc, args[0], args[1]);
      });
  AffineExpr e = j, jj = d; // loops (i, e, j)
  Value newAcc = createGeneric(
      lb, lloc, ValueRange{probs, valueTile}, scaledAcc,
      {map(3, {i, jj}), map(3, {jj, e}), map(3, {i, e})}, {par, par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value p = args[0];
        if (!elementType.isF32())
          p = castToF32(nb, nloc,
                        arith::TruncFOp::create(nb, nloc, elementType, p));
        Value product =
            arith::MulFOp::create(nb, nloc, p, castToF32(nb, nloc, args[1]));
        return arith::AddFOp::create(nb, nloc, args[2], product);
      });
  Value maxState =
      linalg::CopyOp::create(lb, lloc, newMax, oldMax).getResult(0);
  return {maxState, newSum, newAcc};
}

/// The body of the grid: one query block of one head. With more than one
/// warp, the block's rows are split between warps (FlashAttention-2's
/// split-Q): each warp runs its own online softmax over every key block, so
/// warps never exchange partial results.
void TileAttentionLowering::buildQueryBlock(
    scf::ForallOp forall, Value queryLen, Value keyLen, Value groupSize,
    AttentionGeometry geometry, Value scale, ArrayRef<bool> maskBroadcast) {
  MLIRContext *ctx = b.getContext();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  IndexMath math{b, loc};
  Value blockQValue = math.constant(blockQ);
  Value batch = forall.getInductionVar(0), head = forall.getInductionVar(1);
  Value queryBlock = forall.getInductionVar(2);
  if (kvSplits > 1) {
    // The splits of a query block are neighbours in the grid.
    Value splits = math.constant(kvSplits);
    split = math.remU(queryBlock, splits);
    queryBlock = math.divU(queryBlock, splits);
  }
  Value zeroIndex = math.constant(0);
  // Packed sequences: the block works in its sequence's rows and keys, on
  // views of Q, K and V that start there (positions from 0, diagonals per
  // sequence); `batch` was the sequence, the data has one batch entry.
  Value rowStart;
  if (op.isPacked()) {
    PackedSequence sequence =
        packedSequence(math, op.getCuSeqlensQ(), op.getCuSeqlensK(), batch,
                       queryLen, keyLen);
    auto rowsOf = [&](Value tensor, Value start, Value count) -> Value {
      auto type = cast<RankedTensorType>(tensor.getType());
      SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0),
                                           b.getIndexAttr(0), start,
                                           b.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
      sizes[2] = count;
      SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
      auto sliceType = RankedTensorType::get(
          {type.getDimSize(0), type.getDimSize(1), ShapedType::kDynamic,
           type.getDimSize(3)},
          type.getElementType());
      return tensor::ExtractSliceOp::create(b, loc, sliceType, tensor, offsets,
                                            sizes, strides);
    };
    queryData = rowsOf(op.getQuery(), sequence.queryStart, sequence.queryLen);
    keyData = rowsOf(op.getKey(), sequence.keyStart, sequence.keyLen);
    valueData = rowsOf(op.getValue(), sequence.keyStart, sequence.keyLen);
    applyPackedSequence(math, geometry, sequence, queryLen, keyLen);
    batch = zeroIndex;
    rowStart = sequence.queryStart;
  }
  Value row0 = math.mul(queryBlock, blockQValue);
  Value rows = math.min(blockQValue, math.sub(queryLen, row0));
  if (op.getScoreModBlock() || op.getMaskModBlock())
    lastQueryRow = math.addConstant(queryLen, -1);
  if (rowStart)
    emptyPastLastRow(math, rows, keyLen);
  Value kvHead = math.divU(head, groupSize);
  bool wantsLogsumexp = this->wantsLogsumexp();
  if (Value lengths = op.getKvLengths()) {
    // This sequence's keys: the loop stops at its last visible block, and
    // bottom-right diagonals end at its last key.
    Value length = tensor::ExtractOp::create(b, loc, lengths, batch);
    applySequenceLength(math, geometry, length, queryLen, keyLen);
  }

  Value outputTile, lseTile;
  if (warps == 1) {
    std::tie(outputTile, lseTile) =
        computeRows(batch, head, kvHead, row0, rows, blockQ, keyLen, geometry,
                    scale, maskBroadcast);
  } else {
    int64_t warpRows = blockQ / warps;
    SmallVector<Value> blockOutputs = {createEmpty(
        b, loc, {b.getIndexAttr(blockQ), b.getIndexAttr(valueDim)},
        tileOutputType())};
    if (wantsLogsumexp)
      blockOutputs.push_back(
          createEmpty(b, loc, {b.getIndexAttr(blockQ)}, f32));
    auto warpLoop = scf::ForallOp::create(
        b, loc, SmallVector<OpFoldResult>{b.getIndexAttr(warps)}, blockOutputs,
        b.getArrayAttr({gpu::GPUWarpMappingAttr::get(ctx, gpu::MappingId::DimX)}));
    {
      OpBuilder::InsertionGuard warpGuard(b);
      b.setInsertionPointToStart(warpLoop.getBody());
      Value warp = warpLoop.getInductionVar(0);
      Value warpOffset = math.mul(warp, math.constant(warpRows));
      // Rows past the end of Nq (in the last block) are padding.
      Value remaining = math.sub(rows, warpOffset);
      Value warpRowsValue = math.constant(warpRows);
      Value warpValid = math.max(zeroIndex, math.min(warpRowsValue, remaining));
      auto [warpOutput, warpLse] = computeRows(
          batch, head, kvHead, math.add(row0, warpOffset), warpValid, warpRows,
          keyLen, geometry, scale, maskBroadcast);
      b.setInsertionPointToEnd(warpLoop.getTerminator().getBody());
      auto one = b.getIndexAttr(1);
      tensor::ParallelInsertSliceOp::create(
          b, loc, warpOutput, warpLoop.getRegionIterArgs()[0],
          SmallVector<OpFoldResult>{warpOffset, b.getIndexAttr(0)},
          SmallVector<OpFoldResult>{b.getIndexAttr(warpRows),
                                    b.getIndexAttr(valueDim)},
          SmallVector<OpFoldResult>{one, one});
      if (wantsLogsumexp)
        tensor::ParallelInsertSliceOp::create(
            b, loc, warpLse, warpLoop.getRegionIterArgs()[1],
            SmallVector<OpFoldResult>{warpOffset},
            SmallVector<OpFoldResult>{b.getIndexAttr(warpRows)},
            SmallVector<OpFoldResult>{one});
    }
    outputTile = warpLoop.getResult(0);
    if (wantsLogsumexp)
      lseTile = warpLoop.getResult(1);
  }

  // Store the block's valid rows.
  Value firstRow = rowStart ? math.add(rowStart, row0) : row0;
  auto insert = [&](Value tile, Value into, int64_t cols) {
    auto tileType = cast<RankedTensorType>(tile.getType());
    SmallVector<OpFoldResult> sliceSizes = {getAsOpFoldResult(rows)};
    SmallVector<OpFoldResult> sliceOffsets = {zeroIndex};
    SmallVector<int64_t> sliceShape = {ShapedType::kDynamic};
    if (cols) {
      sliceSizes.push_back(b.getIndexAttr(cols));
      sliceOffsets.push_back(zeroIndex);
      sliceShape.push_back(cols);
    }
    SmallVector<OpFoldResult> unitStrides(sliceSizes.size(),
                                          b.getIndexAttr(1));
    Value valid = tensor::ExtractSliceOp::create(
        b, loc,
        RankedTensorType::get(sliceShape, tileType.getElementType()), tile,
        sliceOffsets, sliceSizes, unitStrides);
    OpBuilder::InsertionGuard terminatorGuard(b);
    b.setInsertionPointToEnd(forall.getTerminator().getBody());
    SmallVector<OpFoldResult> offsets =
        getAsOpFoldResult(ValueRange{batch, head, firstRow});
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(1),
                                       getAsOpFoldResult(rows)};
    if (split) {
      offsets.insert(offsets.begin(), split);
      sizes.insert(sizes.begin(), b.getIndexAttr(1));
    }
    if (cols) {
      offsets.push_back(zeroIndex);
      sizes.push_back(b.getIndexAttr(cols));
    }
    SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
    tensor::ParallelInsertSliceOp::create(b, loc, valid, into, offsets, sizes,
                                          strides);
  };
  insert(outputTile, forall.getRegionIterArgs()[0], valueDim);
  if (wantsLogsumexp)
    insert(lseTile, forall.getRegionIterArgs()[1], 0);
}

/// The merge of split-KV: from the partial outputs [S, B, Hq, Nq, Dv] (f32,
/// each normalized by its own sum) and logsumexps [S, B, Hq, Nq],
///   M = max_s lse_s, w_s = e^(lse_s - M), W = sum_s w_s,
///   O = sum_s w_s O_s / W (0 where W = 0), lse = M + log W,
/// with M taken as 0 where every split saw nothing (so no -inf - -inf).
SmallVector<Value>
TileAttentionLowering::mergeSplits(Value partialOutput, Value partialLse,
                                   ArrayRef<OpFoldResult> outputSizes) {
  MLIRContext *ctx = b.getContext();
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  auto dims = [&](unsigned count, ArrayRef<unsigned> results) {
    SmallVector<AffineExpr> exprs;
    for (unsigned dim : results)
      exprs.push_back(getAffineDimExpr(dim, ctx));
    return AffineMap::get(count, 0, exprs, ctx);
  };
  ArrayRef<OpFoldResult> rowSizes = outputSizes.drop_back();
  // Loops (b, h, i, s).
  AffineMap lseBySplit = dims(4, {3, 0, 1, 2}), rowOf4 = dims(4, {0, 1, 2});
  Value maxLse = createGeneric(
      b, loc, ValueRange{partialLse},
      createFilled(b, loc, rowSizes, f32, negInf), {lseBySplit, rowOf4},
      {par, par, par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::MaximumFOp::create(nb, nloc, args[0], args[1]);
      });
  auto weight = [&](OpBuilder &nb, Location nloc, Value lse, Value max) {
    Value shifted =
        arith::SubFOp::create(nb, nloc, lse, safeRowMax(nb, nloc, max));
    return math::ExpOp::create(nb, nloc, shifted).getResult();
  };
  Value weightSum = createGeneric(
      b, loc, ValueRange{partialLse, maxLse},
      createFilled(b, loc, rowSizes, f32, zero), {lseBySplit, rowOf4, rowOf4},
      {par, par, par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value w = weight(nb, nloc, args[0], args[1]);
        return arith::AddFOp::create(nb, nloc, args[2], w);
      });
  // Loops (b, h, i, e, s).
  Value weighted = createGeneric(
      b, loc, ValueRange{partialOutput, partialLse, maxLse},
      createFilled(b, loc, outputSizes, f32, zero),
      {dims(5, {4, 0, 1, 2, 3}), dims(5, {4, 0, 1, 2}), dims(5, {0, 1, 2}),
       dims(5, {0, 1, 2, 3})},
      {par, par, par, par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value w = weight(nb, nloc, args[1], args[2]);
        Value term = arith::MulFOp::create(nb, nloc, w, args[0]);
        return arith::AddFOp::create(nb, nloc, args[3], term);
      });
  AffineMap id4 = b.getMultiDimIdentityMap(4), rowOfOutput = dims(4, {0, 1, 2});
  Value output = createGeneric(
      b, loc, ValueRange{weighted, weightSum},
      createEmpty(b, loc, outputSizes, valueElementType),
      {id4, rowOfOutput, id4}, {par, par, par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return normalizeRow(nb, nloc, args[0], args[1], valueElementType);
      });
  AffineMap id3 = b.getMultiDimIdentityMap(3);
  Value lse = createGeneric(
      b, loc, ValueRange{maxLse, weightSum},
      createEmpty(b, loc, rowSizes, f32), {id3, id3, id3}, {par, par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value logSum = math::LogOp::create(nb, nloc, args[1]);
        return arith::AddFOp::create(nb, nloc, safeRowMax(nb, nloc, args[0]),
                                     logSum);
      });
  return {output, lse};
}

} // namespace

FailureOr<SmallVector<Value>> mlir::fa::tileAttention(RewriterBase &rewriter,
                                                      AttentionOp op) {
  FailureOr<AttentionOp> lowered =
      prepareForwardLowering(rewriter, op, TiledLowering::LoopNest);
  if (failed(lowered))
    return failure();
  op = *lowered;
  LLVM_DEBUG(llvm::dbgs() << "tiling " << op << "\n");
  TileAttentionLowering lowering(op, rewriter, op.getTilingAttr());
  SmallVector<Value> results = lowering.lower();
  rewriter.replaceOp(op, results);
  return results;
}

void mlir::fa::populateTileAttentionPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<LoweringPattern<AttentionOp>>(
      context,
      [](AttentionOp op) { return tilingProblem(op, TiledLowering::LoopNest); },
      tileAttention);
  patterns.add<LoweringPattern<AttentionBackwardOp>>(
      context,
      [](AttentionBackwardOp op) {
        return tilingProblem(op, TiledLowering::LoopNest);
      },
      tileAttentionBackward);
}

namespace {
struct FATileAttentionPass
    : fa::impl::FATileAttentionBase<FATileAttentionPass> {
  void runOnOperation() override {
    if (failed(lowerEach<AttentionOp>(
            getOperation(), [](RewriterBase &rewriter, AttentionOp op) {
              return success(succeeded(tileAttention(rewriter, op)));
            })))
      signalPassFailure();
  }
};
} // namespace
