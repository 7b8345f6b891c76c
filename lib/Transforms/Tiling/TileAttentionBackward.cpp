//===- TileAttentionBackward.cpp - fa.attention_backward, tiled -----------===//
//
// Stage: tiling. Lowers an fa.attention_backward annotated by
// fa-select-tiles into FlashAttention-2's backward pass on tensors, by
// recomputation: the forward's output O and logsumexp L are all it keeps,
// and every probability tile is rebuilt as P = exp(S - L).
//
//   D = rowsum(dO * O)                                   [B, Hq, Nq] f32
//   scf.forall (b, kv head, key block)                   -- dK and dV
//     dK = dV = 0 (f32, [Bc, D] and [Bc, Dv])
//     scf.for query head of the kv head's group            (GQA sums here)
//       scf.for query block that sees the key block
//         S  = scale Q K^T (+ bias) [Br, Bc]; masked -> -inf
//         P  = exp(S - L), 0 on rows with L = -inf
//         dV += P^T dO; dP = dO V^T; dS = P * (dP - D); dK += dS^T Q
//     dK *= scale
//   scf.forall (b, head, query block)                    -- dQ
//     dQ = 0 ([Br, D] f32)
//     scf.for key block the query block sees
//       S, P, dP, dS as above; dQ += dS K
//     dQ *= scale
//   scf.forall (bias batch, bias head, bias tile)        -- dBias, if asked
//     scf.for over each dim the bias broadcasts (batch, heads, the key
//       blocks a row block sees, the row blocks that see a key block)
//       S, P, dP, dS as above; dBias tile += dS, summed over broadcast dims
//
// With a score_mod f, dS above is the gradient of t = f(s); the products
// read dS f'(s), the region differentiated op by op where the score is
// formed (ScoreModifiers.h), and dBias stays dS before f'. A mask_mod hides
// elements as the forward pass does, and a tile pair it provably hides is
// skipped (MaskModIntervals.h). Sinks leave P, dP and D as they are (the
// saved L includes them); their gradient is one more pass over L and D:
//   dSink[h] = -sum_{b,i} e^(sink[h] - L[b,h,i]) D[b,h,i]
//
// dQ gets a pass of its own rather than f32 atomics (FlashAttention-2's
// choice, where every key block adds into every query row it sees): each dQ
// row is then summed by one block in a fixed order, so the result is
// deterministic, at the price of recomputing S, P and dP (7 tile matmuls per
// visible tile pair instead of 5). docs/Tiling.md has the trade-off.
//
// As in the forward lowering, every buffer is tile-sized and has a static
// shape; tails are padded and masked; key or query blocks that the causal or
// window mask hides entirely are never visited. P and dS are rounded to the
// input type before the matmuls that read them, as FlashAttention-2 feeds
// them to its tensor cores.
//
//===----------------------------------------------------------------------===//

#include "Common/AttentionGeometry.h"
#include "Common/IndexMath.h"
#include "Common/LoweringDriver.h"
#include "Common/MaskModIntervals.h"
#include "Common/ScoreModifiers.h"
#include "Common/TensorBuilders.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Tiling/Tiling.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>
#include <tuple>

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fa-tile-attention-backward"

namespace mlir::fa {
#define GEN_PASS_DEF_FATILEATTENTIONBACKWARD
#include "fa/Transforms/Tiling/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;

namespace {

using utils::IteratorType;

/// Rows [row0, row0 + rows) of a [B, H, N] tensor at (b, h), padded with
/// zeros to [tileRows].
Value loadRowTile(OpBuilder &b, Location loc, Value source, Value batch,
                  Value head, Value row0, Value rows, int64_t tileRows) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> offsets =
      getAsOpFoldResult(ValueRange{batch, head, row0});
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(1),
                                     getAsOpFoldResult(rows)};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  std::optional<int64_t> staticRows = getConstantIntValue(rows);
  auto sliceType = RankedTensorType::get(
      {staticRows ? *staticRows : ShapedType::kDynamic},
      type.getElementType());
  Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, source,
                                               offsets, sizes, strides);
  auto tileType = RankedTensorType::get({tileRows}, type.getElementType());
  if (sliceType == tileType)
    return slice;
  Value padValue =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return tensor::createPadHighOp(tileType, slice, padValue, /*nofold=*/false,
                                 loc, b);
}

/// Writes the first `rows` rows of `tile` ([tileRows, cols]) into `into` at
/// (b, h, row0, 0), from the terminator of `forall`.
void insertRows(OpBuilder &b, Location loc, scf::ForallOp forall, Value tile,
                Value into, Value batch, Value head, Value row0, Value rows) {
  auto tileType = cast<RankedTensorType>(tile.getType());
  int64_t cols = tileType.getDimSize(1);
  auto one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  Value valid = tensor::ExtractSliceOp::create(
      b, loc,
      RankedTensorType::get({ShapedType::kDynamic, cols},
                            tileType.getElementType()),
      tile, SmallVector<OpFoldResult>{zero, zero},
      SmallVector<OpFoldResult>{getAsOpFoldResult(rows), b.getIndexAttr(cols)},
      SmallVector<OpFoldResult>{one, one});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(forall.getTerminator().getBody());
  SmallVector<OpFoldResult> offsets =
      getAsOpFoldResult(ValueRange{batch, head, row0});
  offsets.push_back(zero);
  tensor::ParallelInsertSliceOp::create(
      b, loc, valid, into, offsets,
      SmallVector<OpFoldResult>{one, one, getAsOpFoldResult(rows),
                                b.getIndexAttr(cols)},
      SmallVector<OpFoldResult>(4, one));
}

struct BackwardLowering {
  AttentionBackwardOp op;
  OpBuilder &b;
  Location loc;
  int64_t blockQ, blockKV, headDim, valueDim;
  Type elementType, f32;
  Value scale, queryLen, keyLen, groupSize;
  AttentionGeometry geometry;
  SmallVector<bool> maskBroadcast;
  /// D = rowsum(dO * O), [B, Hq, Nq] in f32.
  Value rowCorrection;

  BackwardLowering(AttentionBackwardOp op, OpBuilder &b, TilingAttr tiling)
      : op(op), b(b), loc(op.getLoc()), blockQ(tiling.getBlockQ()),
        blockKV(tiling.getBlockKv()) {
    headDim = op.getQuery().getType().getDimSize(3);
    valueDim = op.getValue().getType().getDimSize(3);
    elementType = op.getQuery().getType().getElementType();
    f32 = b.getF32Type();
  }

  SmallVector<Value> lower();
  Value computeRowCorrection();
  std::pair<Value, Value> gradKeysAndValues();
  Value gradQueries();
  /// dBias: dS summed over the bias's broadcast dims, in the bias's type.
  Value gradBias();

  /// The tiles of one query block against one key block.
  struct QueryTiles {
    Value query, gradOutput, logsumexp, correction;
  };
  QueryTiles loadQueryTiles(OpBuilder &lb, Location lloc, Value batch,
                            Value head, Value row0, Value rows);
  /// P, dS and (with a score_mod) the gradient dT of the modified score
  /// t = f(s) of the tile pair, [Br, Bc] in f32, all 0 where hidden.
  struct TileGradients {
    Value probs, gradScores, gradModified;
  };
  /// `visibility`: the pair's under the mask_mod, when the caller has it
  /// (ifAnyVisible); else it is emitted here.
  TileGradients recompute(OpBuilder &lb, Location lloc, Value batch, Value head,
                          const QueryTiles &queries, Value row0, Value rows,
                          Value keyTile, Value valueTile, Value col0,
                          Value cols,
                          const TileVisibility *visibility = nullptr);
  /// With a mask_mod, the pair's visibility (null values without one or
  /// where the region defeats the interval analysis).
  TileVisibility maskModVisibility(OpBuilder &lb, Location lloc, Value batch,
                                   Value head, Value row0, Value rows,
                                   Value col0, Value cols);
  /// `body(builder, loc, visibility)` (yielding the new state) where the
  /// mask_mod may show some key of the pair, `state` unchanged where it
  /// hides them all; the body gets the pair's visibility (for recompute).
  SmallVector<Value>
  ifAnyVisible(OpBuilder &lb, Location lloc, Value batch, Value head,
               Value row0, Value rows, Value col0, Value cols, ValueRange state,
               function_ref<SmallVector<Value>(OpBuilder &, Location,
                                               const TileVisibility &)>
                   body);
  /// dSinks: -sum over batches and rows of e^(sink - L) D, per head.
  Value gradSinks();
  /// `acc += lhs^T rhs` (transposeLhs) or `acc += lhs rhs`, with lhs
  /// [Br, Bc] in f32 rounded to the input type first, rhs in the input type.
  Value multiplyAccumulate(OpBuilder &lb, Location lloc, Value lhs, Value rhs,
                           Value acc, bool transposeLhs);
  /// `acc * scale` rounded to the input type.
  Value finish(OpBuilder &lb, Location lloc, Value acc, bool scaled);
};

SmallVector<Value> BackwardLowering::lower() {
  IndexMath math{b, loc};
  Value query = op.getQuery(), key = op.getKey();
  queryLen = math.dim(query, 2);
  keyLen = math.dim(key, 2);
  Value keyHeads = math.dim(key, 1);
  Value queryHeads = math.dim(query, 1);
  groupSize = math.divU(queryHeads, keyHeads);
  geometry = AttentionGeometry::align(math, op, queryLen, keyLen);
  scale = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(op.getScale().convertToDouble()));
  maskBroadcast = maskBroadcastDims(op);
  rowCorrection = computeRowCorrection();
  auto [gradKey, gradValue] = gradKeysAndValues();
  Value gradQuery = gradQueries();
  SmallVector<Value> results = {gradQuery, gradKey, gradValue};
  if (op.getGradMask())
    results.push_back(gradBias());
  if (op.getGradSinks())
    results.push_back(gradSinks());
  for (auto [index, result] : llvm::enumerate(results)) {
    Type declared = op->getResult(index).getType();
    if (result.getType() != declared)
      result = tensor::CastOp::create(b, loc, declared, result);
  }
  return results;
}

Value BackwardLowering::computeRowCorrection() {
  MLIRContext *ctx = b.getContext();
  SmallVector<OpFoldResult> rowSizes =
      tensor::getMixedSizes(b, loc, op.getLogsumexp());
  AffineMap identity4 = b.getMultiDimIdentityMap(4);
  AffineMap rowMap = AffineMap::get(
      4, 0,
      {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
       getAffineDimExpr(2, ctx)},
      ctx);
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  return createGeneric(
      b, loc, ValueRange{op.getGradOutput(), op.getOutput()},
      createFilled(b, loc, rowSizes, f32, b.getFloatAttr(f32, 0.0)),
      {identity4, identity4, rowMap}, {par, par, par, red},
      multiplyAddF32);
}

BackwardLowering::QueryTiles
BackwardLowering::loadQueryTiles(OpBuilder &lb, Location lloc, Value batch,
                                 Value head, Value row0, Value rows) {
  IndexMath m{lb, lloc};
  Value zero = m.constant(0);
  QueryTiles tiles;
  tiles.query = loadTile(lb, lloc, op.getQuery(), batch, head, row0, rows,
                         blockQ, zero, m.constant(headDim), headDim);
  tiles.gradOutput = loadTile(lb, lloc, op.getGradOutput(), batch, head, row0,
                              rows, blockQ, zero, m.constant(valueDim),
                              valueDim);
  tiles.logsumexp = loadRowTile(lb, lloc, op.getLogsumexp(), batch, head, row0,
                                rows, blockQ);
  tiles.correction =
      loadRowTile(lb, lloc, rowCorrection, batch, head, row0, rows, blockQ);
  return tiles;
}

TileVisibility BackwardLowering::maskModVisibility(OpBuilder &lb, Location lloc,
                                                   Value batch, Value head,
                                                   Value row0, Value rows,
                                                   Value col0, Value cols) {
  Block *maskMod = op.getMaskModBlock();
  if (!maskMod)
    return {};
  IndexMath lm{lb, lloc};
  Value lastRow = lm.addConstant(lm.add(row0, rows), -1);
  Value lastCol = lm.addConstant(lm.add(col0, cols), -1);
  return emitTileVisibility(
      lb, lloc, maskMod,
      {{batch, batch}, {head, head}, {row0, lastRow}, {col0, lastCol}});
}

SmallVector<Value> BackwardLowering::ifAnyVisible(
    OpBuilder &lb, Location lloc, Value batch, Value head, Value row0,
    Value rows, Value col0, Value cols, ValueRange state,
    function_ref<SmallVector<Value>(OpBuilder &, Location,
                                    const TileVisibility &)>
        body) {
  TileVisibility visibility =
      maskModVisibility(lb, lloc, batch, head, row0, rows, col0, cols);
  if (!visibility.someVisible)
    return body(lb, lloc, visibility);
  auto visited = scf::IfOp::create(
      lb, lloc, visibility.someVisible,
      [&](OpBuilder &tb, Location tloc) {
        scf::YieldOp::create(tb, tloc, body(tb, tloc, visibility));
      },
      [&](OpBuilder &eb, Location eloc) {
        scf::YieldOp::create(eb, eloc, state);
      });
  return llvm::to_vector_of<Value>(visited.getResults());
}

Value BackwardLowering::gradSinks() {
  MLIRContext *ctx = b.getContext();
  Value sinks = op.getSinks();
  auto sinksType = cast<RankedTensorType>(sinks.getType());
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  AffineMap identity3 = b.getMultiDimIdentityMap(3);
  AffineMap headMap = AffineMap::get(3, 0, {getAffineDimExpr(1, ctx)}, ctx);
  Value init =
      createFilled(b, loc, {tensor::getMixedSize(b, loc, op.getQuery(), 1)},
                   f32, b.getFloatAttr(f32, 0.0));
  // The sink's probability from the saved L (which includes it), 0 on a
  // row L = -inf (no key and a -inf sink).
  Value sum = createGeneric(
      b, loc, ValueRange{op.getLogsumexp(), rowCorrection}, init,
      {identity3, identity3, headMap}, {red, par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        IndexMath m{nb, nloc};
        Value sink = sinkLogit(m, sinks, linalg::IndexOp::create(nb, nloc, 1));
        Value lse = args[0];
        Value negInf = arith::ConstantOp::create(
            nb, nloc,
            nb.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
        Value noLogit = arith::CmpFOp::create(
            nb, nloc, arith::CmpFPredicate::OEQ, lse, negInf);
        Value shifted =
            arith::SubFOp::create(nb, nloc, sink, safeRowMax(nb, nloc, lse));
        Value prob = math::ExpOp::create(nb, nloc, shifted);
        Value zero = arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(0));
        prob = arith::SelectOp::create(nb, nloc, noLogit, zero, prob);
        Value product = arith::MulFOp::create(nb, nloc, prob, args[1]);
        return arith::SubFOp::create(nb, nloc, args[2], product);
      });
  Type elementType = sinksType.getElementType();
  if (elementType.isF32())
    return sum;
  AffineMap identity1 = b.getMultiDimIdentityMap(1);
  return createGeneric(
      b, loc, ValueRange{sum},
      createEmpty(b, loc, tensor::getMixedSizes(b, loc, sum), elementType),
      {identity1, identity1}, {par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::TruncFOp::create(nb, nloc, elementType, args[0]);
      });
}

BackwardLowering::TileGradients BackwardLowering::recompute(
    OpBuilder &lb, Location lloc, Value batch, Value head,
    const QueryTiles &queries, Value row0, Value rows, Value keyTile,
    Value valueTile, Value col0, Value cols, const TileVisibility *visibility) {
  MLIRContext *ctx = lb.getContext();
  IndexMath lm{lb, lloc};
  AffineExpr i, j, x;
  bindDims(ctx, i, j, x);
  auto map = [&](unsigned numDims, ArrayRef<AffineExpr> results) {
    return AffineMap::get(numDims, 0, results, ctx);
  };
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  AffineMap id2 = lb.getMultiDimIdentityMap(2), row2 = map(2, {i});
  SmallVector<OpFoldResult> scoreSizes = {lb.getIndexAttr(blockQ),
                                          lb.getIndexAttr(blockKV)};
  auto zeros = [&]() {
    return createFilled(lb, lloc, scoreSizes, f32, lb.getFloatAttr(f32, 0.0));
  };

  // raw = Q K^T and dP = dO V^T, in f32.
  Value raw = createGeneric(lb, lloc, ValueRange{queries.query, keyTile},
                            zeros(),
                            {map(3, {i, x}), map(3, {j, x}), map(3, {i, j})},
                            {par, par, red}, multiplyAddF32);
  Value gradProbs = createGeneric(
      lb, lloc, ValueRange{queries.gradOutput, valueTile}, zeros(),
      {map(3, {i, x}), map(3, {j, x}), map(3, {i, j})}, {par, par, red},
      multiplyAddF32);

  Value mask = op.getMask();
  Value maskTile;
  if (mask)
    maskTile = loadTile(lb, lloc, mask, batch, head, row0, rows, blockQ, col0,
                        cols, blockKV, maskBroadcast);
  // The element mask only where the tile is padded (rows or keys) or a
  // causal or window boundary crosses it.
  Value needsMask =
      geometry.tileCrossesMaskBoundary(lm, row0, rows, col0, cols, blockKV);
  needsMask = lm.orI(needsMask, lm.lt(rows, lm.constant(blockQ)));
  // The regions see (batch, head) and positions clamped to the last row
  // and key; the mask_mod's element test runs unless the pair is proved
  // whole.
  AttentionGeometry::TilePlace place{row0, col0, rows, cols};
  if (op.getScoreModBlock() || op.getMaskModBlock()) {
    place.batch = batch;
    place.head = head;
    place.lastRow = lm.addConstant(queryLen, -1);
    place.lastCol = lm.addConstant(keyLen, -1);
  }
  if (op.getMaskModBlock()) {
    Value allVisible = visibility ? visibility->allVisible
                                  : maskModVisibility(lb, lloc, batch, head,
                                                      row0, rows, col0, cols)
                                        .allVisible;
    Value partial = allVisible ? lm.notI(allVisible) : lm.trueValue();
    needsMask = lm.orI(needsMask, partial);
  }
  // P = exp(scale * raw (+ bias) - L), 0 where hidden or where the row saw
  // no key in the forward pass (L = -inf).
  Value probs = geometry.buildMaskedTile(
      lb, lloc, needsMask, raw, ValueRange{queries.logsumexp}, maskTile,
      maskBroadcast, scale, scoreSizes, place,
      [](OpBuilder &nb, Location nloc, MaskedScore &score,
         ValueRange rowValues) -> Value {
        Value lse = rowValues[0];
        Value negInf = arith::ConstantOp::create(
            nb, nloc,
            nb.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
        Value noKey = arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::OEQ,
                                            lse, negInf);
        Value safeLse = safeRowMax(nb, nloc, lse);
        Value shifted =
            arith::SubFOp::create(nb, nloc, score.finish(), safeLse);
        Value prob = math::ExpOp::create(nb, nloc, shifted);
        Value zero = arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(0));
        return arith::SelectOp::create(nb, nloc, noKey, zero, prob);
      });

  // dS = P * (dP - D); 0 where mask_fill gives a hidden key a constant
  // score (its gradient does not reach Q or K).
  bool filled = maskTile && op.getMaskFillAttr();
  SmallVector<Value> gradInputs = {probs, gradProbs, queries.correction};
  SmallVector<AffineMap> gradMaps = {id2, id2, row2};
  if (filled) {
    gradInputs.push_back(maskTile);
    gradMaps.push_back(maskTileMap(ctx, maskBroadcast));
  }
  gradMaps.push_back(id2);
  Value gradScores = createGeneric(
      lb, lloc, gradInputs, createEmpty(lb, lloc, scoreSizes, f32), gradMaps,
      {par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return scoreGradient(nb, nloc, args[0], args[1], args[2],
                             filled ? args[3] : Value());
      });
  Block *scoreMod = op.getScoreModBlock();
  if (!scoreMod)
    return {probs, gradScores, gradScores};
  // dS = dT f'(s), the score_mod differentiated at s = scale * raw.
  Value gradModified = gradScores;
  gradScores = createGeneric(
      lb, lloc, ValueRange{raw, gradModified},
      createEmpty(lb, lloc, scoreSizes, f32), {id2, id2, id2}, {par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        IndexMath em{nb, nloc};
        Value row = em.min(em.add(row0, linalg::IndexOp::create(nb, nloc, 0)),
                           place.lastRow);
        Value col = em.min(em.add(col0, linalg::IndexOp::create(nb, nloc, 1)),
                           place.lastCol);
        Value scaled = arith::MulFOp::create(nb, nloc, args[0], scale);
        FailureOr<std::pair<Value, Value>> modified = differentiateScoreMod(
            nb, scoreMod, ValueRange{scaled, batch, head, row, col});
        Value slope = succeeded(modified)
                          ? modified->second
                          : arith::ConstantOp::create(
                                nb, nloc, nb.getF32FloatAttr(std::nan("")))
                                .getResult();
        return throughScoreMod(nb, nloc, args[1], slope);
      });
  return {probs, gradScores, gradModified};
}

Value BackwardLowering::multiplyAccumulate(OpBuilder &lb, Location lloc,
                                           Value lhs, Value rhs, Value acc,
                                           bool transposeLhs) {
  MLIRContext *ctx = lb.getContext();
  // Loops (r, c, k): acc[r, c] += lhs'[r, k] * rhs[k, c], lhs' = lhs or
  // lhs^T.
  AffineExpr r, c, k;
  bindDims(ctx, r, c, k);
  auto map = [&](ArrayRef<AffineExpr> results) {
    return AffineMap::get(3, 0, results, ctx);
  };
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  Type inputType = elementType;
  return createGeneric(
      lb, lloc, ValueRange{lhs, rhs}, acc,
      {transposeLhs ? map({k, r}) : map({r, k}), map({k, c}), map({r, c})},
      {par, par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value left = args[0];
        if (!inputType.isF32())
          left = castToF32(nb, nloc,
                           arith::TruncFOp::create(nb, nloc, inputType, left));
        Value product = arith::MulFOp::create(nb, nloc, left,
                                              castToF32(nb, nloc, args[1]));
        return arith::AddFOp::create(nb, nloc, args[2], product);
      });
}

Value BackwardLowering::finish(OpBuilder &lb, Location lloc, Value acc,
                               bool scaled) {
  AffineMap id2 = lb.getMultiDimIdentityMap(2);
  auto par = IteratorType::parallel;
  return createGeneric(
      lb, lloc, ValueRange{acc},
      createEmpty(lb, lloc, tensor::getMixedSizes(lb, lloc, acc), elementType),
      {id2, id2}, {par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value result = args[0];
        if (scaled)
          result = arith::MulFOp::create(nb, nloc, result, scale);
        if (elementType.isF32())
          return result;
        return arith::TruncFOp::create(nb, nloc, elementType, result);
      });
}

std::pair<Value, Value> BackwardLowering::gradKeysAndValues() {
  IndexMath math{b, loc};
  Value key = op.getKey(), value = op.getValue();
  Value batchSize = math.dim(key, 0), keyHeads = math.dim(key, 1);
  Value keyBlocks = math.ceilDiv(keyLen, math.constant(blockKV));
  SmallVector<Value> outputs = {
      createEmpty(b, loc, tensor::getMixedSizes(b, loc, key), elementType),
      createEmpty(b, loc, tensor::getMixedSizes(b, loc, value), elementType)};
  auto forall = createBlockGrid(
      b, loc, ValueRange{batchSize, keyHeads, keyBlocks}, outputs);

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  Value batch = forall.getInductionVar(0), kvHead = forall.getInductionVar(1);
  Value blockKVValue = math.constant(blockKV);
  Value col0 = math.mul(forall.getInductionVar(2), blockKVValue);
  Value cols = math.min(blockKVValue, math.sub(keyLen, col0));
  Value zero = math.constant(0), one = math.constant(1);
  Value keyTile = loadTile(b, loc, key, batch, kvHead, col0, cols, blockKV,
                           zero, math.constant(headDim), headDim);
  Value valueTile = loadTile(b, loc, value, batch, kvHead, col0, cols, blockKV,
                             zero, math.constant(valueDim), valueDim);
  auto accumulator = [&](int64_t width) {
    return createFilled(b, loc, {b.getIndexAttr(blockKV), b.getIndexAttr(width)},
                        f32, b.getFloatAttr(f32, 0.0));
  };
  VisibleRows rowRange =
      geometry.visibleQueries(math, col0, cols, queryLen, blockQ);
  Value blockQValue = math.constant(blockQ);
  // Every query head of the group, one after another: the group's sum is
  // formed in this block, in a fixed order.
  auto headLoop = scf::ForOp::create(
      b, loc, zero, groupSize, one,
      ValueRange{accumulator(headDim), accumulator(valueDim)},
      [&](OpBuilder &hb, Location hloc, Value member, ValueRange headState) {
        IndexMath hm{hb, hloc};
        Value head = hm.add(hm.mul(kvHead, groupSize), member);
        auto rowLoop = scf::ForOp::create(
            hb, hloc, rowRange.firstBlockStart, rowRange.rowEnd, blockQValue,
            headState,
            [&](OpBuilder &lb, Location lloc, Value row0, ValueRange state) {
              IndexMath lm{lb, lloc};
              Value rows = lm.min(blockQValue, lm.sub(queryLen, row0));
              SmallVector<Value> next = ifAnyVisible(
                  lb, lloc, batch, head, row0, rows, col0, cols, state,
                  [&](OpBuilder &vb, Location vloc,
                      const TileVisibility &visibility) -> SmallVector<Value> {
                    QueryTiles queries =
                        loadQueryTiles(vb, vloc, batch, head, row0, rows);
                    TileGradients tile =
                        recompute(vb, vloc, batch, head, queries, row0, rows,
                                  keyTile, valueTile, col0, cols, &visibility);
                    // dV += P^T dO; dK += dS^T Q.
                    Value gradValue =
                        multiplyAccumulate(vb, vloc, tile.probs,
                                           queries.gradOutput, state[1], true);
                    Value gradKey =
                        multiplyAccumulate(vb, vloc, tile.gradScores,
                                           queries.query, state[0], true);
                    return {gradKey, gradValue};
                  });
              scf::YieldOp::create(lb, lloc, next);
            });
        scf::YieldOp::create(hb, hloc, rowLoop.getResults());
      });
  Value gradKeyTile = finish(b, loc, headLoop.getResult(0), /*scaled=*/true);
  Value gradValueTile =
      finish(b, loc, headLoop.getResult(1), /*scaled=*/false);
  insertRows(b, loc, forall, gradKeyTile, forall.getRegionIterArgs()[0], batch,
             kvHead, col0, cols);
  insertRows(b, loc, forall, gradValueTile, forall.getRegionIterArgs()[1],
             batch, kvHead, col0, cols);
  return {forall.getResult(0), forall.getResult(1)};
}

Value BackwardLowering::gradQueries() {
  IndexMath math{b, loc};
  Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
  Value batchSize = math.dim(query, 0), queryHeads = math.dim(query, 1);
  Value queryBlocks = math.ceilDiv(queryLen, math.constant(blockQ));
  SmallVector<Value> outputs = {
      createEmpty(b, loc, tensor::getMixedSizes(b, loc, query), elementType)};
  auto forall = createBlockGrid(
      b, loc, ValueRange{batchSize, queryHeads, queryBlocks}, outputs);

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  Value batch = forall.getInductionVar(0), head = forall.getInductionVar(1);
  Value blockQValue = math.constant(blockQ);
  Value row0 = math.mul(forall.getInductionVar(2), blockQValue);
  Value rows = math.min(blockQValue, math.sub(queryLen, row0));
  Value kvHead = math.divU(head, groupSize);
  Value zero = math.constant(0);
  QueryTiles queries = loadQueryTiles(b, loc, batch, head, row0, rows);
  VisibleKeys visible = geometry.visibleKeys(math, row0, rows, keyLen, blockKV);
  Value blockKVValue = math.constant(blockKV);
  Value init = createFilled(
      b, loc, {b.getIndexAttr(blockQ), b.getIndexAttr(headDim)}, f32,
      b.getFloatAttr(f32, 0.0));
  auto keyLoop = scf::ForOp::create(
      b, loc, visible.firstBlockStart, visible.keyEnd, blockKVValue,
      ValueRange{init},
      [&](OpBuilder &lb, Location lloc, Value col0, ValueRange state) {
        IndexMath lm{lb, lloc};
        Value cols = lm.min(blockKVValue, lm.sub(keyLen, col0));
        SmallVector<Value> next = ifAnyVisible(
            lb, lloc, batch, head, row0, rows, col0, cols, state,
            [&](OpBuilder &vb, Location vloc,
                const TileVisibility &visibility) -> SmallVector<Value> {
              IndexMath vm{vb, vloc};
              Value keyTile =
                  loadTile(vb, vloc, key, batch, kvHead, col0, cols, blockKV,
                           zero, vm.constant(headDim), headDim);
              Value valueTile =
                  loadTile(vb, vloc, value, batch, kvHead, col0, cols, blockKV,
                           zero, vm.constant(valueDim), valueDim);
              Value gradScores =
                  recompute(vb, vloc, batch, head, queries, row0, rows, keyTile,
                            valueTile, col0, cols, &visibility)
                      .gradScores;
              // dQ += dS K.
              return {multiplyAccumulate(vb, vloc, gradScores, keyTile,
                                         state[0], false)};
            });
        scf::YieldOp::create(lb, lloc, next);
      });
  Value gradQueryTile = finish(b, loc, keyLoop.getResult(0), /*scaled=*/true);
  insertRows(b, loc, forall, gradQueryTile, forall.getRegionIterArgs()[0],
             batch, head, row0, rows);
  return forall.getResult(0);
}

Value BackwardLowering::gradBias() {
  MLIRContext *ctx = b.getContext();
  IndexMath math{b, loc};
  Value mask = op.getMask();
  auto maskType = cast<RankedTensorType>(mask.getType());
  Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
  Value blockQValue = math.constant(blockQ), blockKVValue = math.constant(blockKV);
  Value zero = math.constant(0), one = math.constant(1);
  // The tile of dBias one block writes: [Br, Bc], with a broadcast row or
  // key dim of size 1 (summed over).
  bool rowsBroadcast = maskBroadcast[2], keysBroadcast = maskBroadcast[3];
  int64_t tileRows = rowsBroadcast ? 1 : blockQ;
  int64_t tileCols = keysBroadcast ? 1 : blockKV;
  // Grid: the bias's batch and heads (1 where they broadcast), and its
  // (query block, key block) pairs.
  Value gridBatch = maskBroadcast[0] ? one : math.dim(query, 0);
  Value gridHeads = maskBroadcast[1] ? one : math.dim(query, 1);
  Value rowBlocks = rowsBroadcast ? one : math.ceilDiv(queryLen, blockQValue);
  Value keyBlocks = keysBroadcast ? one : math.ceilDiv(keyLen, blockKVValue);
  SmallVector<Value> outputs = {createEmpty(
      b, loc, tensor::getMixedSizes(b, loc, mask), f32)};
  Value pairs = math.mul(rowBlocks, keyBlocks);
  auto forall = createBlockGrid(
      b, loc, ValueRange{gridBatch, gridHeads, pairs}, outputs);

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  Value gridB = forall.getInductionVar(0), gridH = forall.getInductionVar(1);
  Value pair = forall.getInductionVar(2);
  Value blockRow0 = math.mul(math.divU(pair, keyBlocks), blockQValue);
  Value blockCol0 = math.mul(math.remU(pair, keyBlocks), blockKVValue);
  Value blockRows = math.min(blockQValue, math.sub(queryLen, blockRow0));
  Value blockCols = math.min(blockKVValue, math.sub(keyLen, blockCol0));
  Value init = createFilled(
      b, loc, {b.getIndexAttr(tileRows), b.getIndexAttr(tileCols)}, f32,
      b.getFloatAttr(f32, 0.0));
  // A broadcast dim of the bias is a loop over all of that dim; another is
  // the grid's one index.
  auto range = [&](bool broadcast, Value gridIndex, Value size)
      -> std::pair<Value, Value> {
    if (broadcast)
      return {zero, size};
    return {gridIndex, math.add(gridIndex, one)};
  };
  // std::tie, not structured bindings: the loop bodies below capture them.
  Value batchBegin, batchEnd, headBegin, headEnd;
  std::tie(batchBegin, batchEnd) =
      range(maskBroadcast[0], gridB, math.dim(query, 0));
  std::tie(headBegin, headEnd) =
      range(maskBroadcast[1], gridH, math.dim(query, 1));
  AffineExpr i, j;
  bindDims(ctx, i, j);
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  AffineMap sumMap = AffineMap::get(
      2, 0,
      {rowsBroadcast ? getAffineConstantExpr(0, ctx) : i,
       keysBroadcast ? getAffineConstantExpr(0, ctx) : j},
      ctx);
  auto batchLoop = scf::ForOp::create(
      b, loc, batchBegin, batchEnd, one, ValueRange{init},
      [&](OpBuilder &bb, Location bloc, Value batch, ValueRange batchState) {
        auto headLoop = scf::ForOp::create(
            bb, bloc, headBegin, headEnd, one, batchState,
            [&](OpBuilder &hb, Location hloc, Value head, ValueRange headState) {
              IndexMath hm{hb, hloc};
              Value kvHead = hm.divU(head, groupSize);
              // Keys: this block's, or every key block its rows see.
              Value keyBegin = blockCol0, keyEnd = hm.add(blockCol0, blockCols);
              if (keysBroadcast) {
                VisibleKeys visible =
                    rowsBroadcast
                        ? VisibleKeys{zero, keyLen}
                        : geometry.visibleKeys(hm, blockRow0, blockRows, keyLen,
                                               blockKV);
                keyBegin = visible.firstBlockStart;
                keyEnd = visible.keyEnd;
              }
              auto keyLoop = scf::ForOp::create(
                  hb, hloc, keyBegin, keyEnd, blockKVValue, headState,
                  [&](OpBuilder &kb, Location kloc, Value col0,
                      ValueRange keyState) {
                    IndexMath km{kb, kloc};
                    Value cols = km.min(blockKVValue, km.sub(keyLen, col0));
                    Value keyTile =
                        loadTile(kb, kloc, key, batch, kvHead, col0, cols,
                                 blockKV, zero, km.constant(headDim), headDim);
                    Value valueTile = loadTile(kb, kloc, value, batch, kvHead,
                                               col0, cols, blockKV, zero,
                                               km.constant(valueDim), valueDim);
                    // Rows: this block's, or every query block that sees
                    // the key block.
                    Value rowBegin = blockRow0;
                    Value rowEnd = km.add(blockRow0, blockRows);
                    if (rowsBroadcast) {
                      VisibleRows rowsSeeing = geometry.visibleQueries(
                          km, col0, cols, queryLen, blockQ);
                      rowBegin = rowsSeeing.firstBlockStart;
                      rowEnd = rowsSeeing.rowEnd;
                    }
                    auto rowLoop = scf::ForOp::create(
                        kb, kloc, rowBegin, rowEnd, blockQValue, keyState,
                        [&](OpBuilder &lb, Location lloc, Value row0,
                            ValueRange state) {
                          IndexMath lm{lb, lloc};
                          Value rows =
                              lm.min(blockQValue, lm.sub(queryLen, row0));
                          QueryTiles queries =
                              loadQueryTiles(lb, lloc, batch, head, row0, rows);
                          // The bias is added after the score_mod: its
                          // gradient is dT.
                          Value gradBiasTile =
                              recompute(lb, lloc, batch, head, queries, row0,
                                        rows, keyTile, valueTile, col0, cols)
                                  .gradModified;
                          // acc += dT, summed over the broadcast dims.
                          Value sum = createGeneric(
                              lb, lloc, ValueRange{gradBiasTile}, state[0],
                              {lb.getMultiDimIdentityMap(2), sumMap},
                              {rowsBroadcast ? red : par,
                               keysBroadcast ? red : par},
                              [&](OpBuilder &nb, Location nloc,
                                  ValueRange args) -> Value {
                                return arith::AddFOp::create(nb, nloc, args[1],
                                                             args[0]);
                              });
                          scf::YieldOp::create(lb, lloc, sum);
                        });
                    scf::YieldOp::create(kb, kloc, rowLoop.getResults());
                  });
              scf::YieldOp::create(hb, hloc, keyLoop.getResults());
            });
        scf::YieldOp::create(bb, bloc, headLoop.getResults());
      });
  // Store the valid part of the tile at (b, h, row0, col0) of the bias.
  Value acc = batchLoop.getResult(0);
  auto oneAttr = b.getIndexAttr(1), zeroAttr = b.getIndexAttr(0);
  OpFoldResult validRows =
      rowsBroadcast ? OpFoldResult(oneAttr) : OpFoldResult(blockRows);
  OpFoldResult validCols =
      keysBroadcast ? OpFoldResult(oneAttr) : OpFoldResult(blockCols);
  Value valid = tensor::ExtractSliceOp::create(
      b, loc,
      RankedTensorType::get({rowsBroadcast ? 1 : ShapedType::kDynamic,
                             keysBroadcast ? 1 : ShapedType::kDynamic},
                            f32),
      acc, SmallVector<OpFoldResult>{zeroAttr, zeroAttr},
      SmallVector<OpFoldResult>{validRows, validCols},
      SmallVector<OpFoldResult>{oneAttr, oneAttr});
  b.setInsertionPointToEnd(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      b, loc, valid, forall.getRegionIterArgs()[0],
      getAsOpFoldResult(ValueRange{gridB, gridH, rowsBroadcast ? zero : blockRow0,
                                   keysBroadcast ? zero : blockCol0}),
      SmallVector<OpFoldResult>{oneAttr, oneAttr, validRows, validCols},
      SmallVector<OpFoldResult>(4, oneAttr));
  b.setInsertionPointAfter(forall);
  // Rounded once to the bias's type.
  Type maskElementType = maskType.getElementType();
  Value result = forall.getResult(0);
  if (maskElementType.isF32())
    return result;
  AffineMap identity = b.getMultiDimIdentityMap(4);
  return createGeneric(
      b, loc, ValueRange{result},
      createEmpty(b, loc, tensor::getMixedSizes(b, loc, result),
                  maskElementType),
      {identity, identity}, SmallVector<IteratorType>(4, par),
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::TruncFOp::create(nb, nloc, maskElementType, args[0]);
      });
}

} // namespace

FailureOr<SmallVector<Value>>
mlir::fa::tileAttentionBackward(RewriterBase &rewriter,
                                AttentionBackwardOp op) {
  if (failed(prepareLowering(rewriter, op, TiledLowering::LoopNest)))
    return failure();
  LLVM_DEBUG(llvm::dbgs() << "tiling " << op << "\n");
  BackwardLowering lowering(op, rewriter, op.getTilingAttr());
  SmallVector<Value> results = lowering.lower();
  rewriter.replaceOp(op, results);
  return results;
}

namespace {
struct FATileAttentionBackwardPass
    : fa::impl::FATileAttentionBackwardBase<FATileAttentionBackwardPass> {
  void runOnOperation() override {
    if (failed(lowerEach<AttentionBackwardOp>(
            getOperation(), [](RewriterBase &rewriter, AttentionBackwardOp op) {
              return success(succeeded(tileAttentionBackward(rewriter, op)));
            })))
      signalPassFailure();
  }
};
} // namespace
