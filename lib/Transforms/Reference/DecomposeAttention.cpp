//===- DecomposeAttention.cpp - fa.attention to unfused linalg ------------===//
//
// Stage: reference lowering. Rewrites fa.attention and fa.attention_backward
// into the textbook, unfused computation on tensors (one linalg.generic per
// step, all in f32). This is the executable definition of the ops: every
// faster lowering is tested against it, so it favours obvious correctness
// over speed and materializes the full [B, Hq, Nq, Nk] scores (and, for the
// backward, P, dP and dS).
//
//===----------------------------------------------------------------------===//

#include "Common/AttentionGeometry.h"
#include "Common/IndexMath.h"
#include "Common/ScoreModifiers.h"
#include "Common/TensorBuilders.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Reference/Reference.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FADECOMPOSEATTENTION
#include "fa/Transforms/Reference/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;

namespace {

using utils::IteratorType;

/// A rank-4 tensor of `sizes` whose element at (i0, i1, i2, i3) is
/// `source` at `sourceIndices(i0, i1, i2, i3)`: the gathers below.
Value gather4D(OpBuilder &b, Location loc, Value source,
               ArrayRef<OpFoldResult> sizes,
               function_ref<SmallVector<Value>(IndexMath &, ArrayRef<Value>)>
                   sourceIndices) {
  Type elementType = cast<RankedTensorType>(source.getType()).getElementType();
  Value init = createEmpty(b, loc, sizes, elementType);
  AffineMap identity = b.getMultiDimIdentityMap(4);
  SmallVector<IteratorType> parallel(4, IteratorType::parallel);
  return createGeneric(
      b, loc, ValueRange{}, init, {identity}, parallel,
      [&](OpBuilder &nb, Location nloc, ValueRange) -> Value {
        SmallVector<Value> at;
        for (int64_t dim = 0; dim < 4; ++dim)
          at.push_back(linalg::IndexOp::create(nb, nloc, dim));
        IndexMath inner{nb, nloc};
        return tensor::ExtractOp::create(nb, nloc, source,
                                         sourceIndices(inner, at));
      });
}

/// Gathers `kv` ([B, Hkv, N, E]) into [B, Hq, N, E], row h holding kv head
/// h / (Hq / Hkv). Only used when the group size is not known statically, so
/// that it cannot be written as an affine index map.
Value gatherPerQueryHead(OpBuilder &b, Location loc, Value kv,
                         OpFoldResult queryHeads) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, kv);
  Value kvHeads = getValueOrCreateConstantIndexOp(b, loc, sizes[1]);
  Value groupSize = arith::DivUIOp::create(
      b, loc, getValueOrCreateConstantIndexOp(b, loc, queryHeads), kvHeads);
  sizes[1] = queryHeads;
  return gather4D(b, loc, kv, sizes,
                  [&](IndexMath &m, ArrayRef<Value> at) -> SmallVector<Value> {
                    return {at[0], m.divU(at[1], groupSize), at[2], at[3]};
                  });
}

/// Gathers a paged cache ([P, S, Hkv, E]) through its page table ([B, M])
/// into the contiguous [B, Hkv, M * S, E] that an unpaged op reads. The
/// reference is an oracle: it may hold the whole gathered cache.
Value gatherPagedCache(OpBuilder &b, Location loc, Value cache,
                       Value pageTable) {
  auto type = cast<RankedTensorType>(cache.getType());
  auto tableType = cast<RankedTensorType>(pageTable.getType());
  // Static sizes stay static: Nk = M * S.
  OpFoldResult keys = b.getIndexAttr(tableType.getDimSize(1) *
                                     type.getDimSize(1));
  if (tableType.isDynamicDim(1) || type.isDynamicDim(1)) {
    IndexMath math{b, loc};
    keys = keyHeadsAndLength(math, cache, pageTable).second;
  }
  SmallVector<OpFoldResult> sizes = {
      tensor::getMixedSize(b, loc, pageTable, 0),
      tensor::getMixedSize(b, loc, cache, 2), keys,
      b.getIndexAttr(type.getDimSize(3))};
  return gather4D(b, loc, cache, sizes,
                  [&](IndexMath &m, ArrayRef<Value> at) -> SmallVector<Value> {
                    auto [page, slot] =
                        pagedSlot(m, cache, pageTable, at[0], at[2]);
                    return {page, slot, at[1], at[3]};
                  });
}

/// For each of the `rows` packed rows, the sequence it belongs to: the
/// number of the `count` sequences (with the clamped bounds of packedRows)
/// that end at or before it; `count` for rows past the last one.
Value sequenceOfRows(OpBuilder &b, Location loc, Value sums,
                     OpFoldResult rows, Value count) {
  Value total = getValueOrCreateConstantIndexOp(b, loc, rows);
  Value init = createFilled(b, loc, {rows}, b.getIndexType(),
                            b.getIndexAttr(0));
  // A reduction over the entries of `sums` ((row, s) -> row), the last of
  // which ends no sequence.
  MLIRContext *ctx = b.getContext();
  AffineExpr row, entry;
  bindDims(ctx, row, entry);
  return createGeneric(
      b, loc, ValueRange{sums}, init,
      {AffineMap::get(2, 0, {entry}, ctx), AffineMap::get(2, 0, {row}, ctx)},
      {IteratorType::parallel, IteratorType::reduction},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        IndexMath m{nb, nloc};
        Value at = linalg::IndexOp::create(nb, nloc, 0);
        Value s = linalg::IndexOp::create(nb, nloc, 1);
        Value isSequence = m.lt(s, count);
        Value zero = m.constant(0);
        Value last = m.addConstant(count, -1);
        Value safe = m.min(s, m.max(last, zero));
        auto [start, length] = packedRows(m, sums, safe, total);
        Value ended = arith::AndIOp::create(nb, nloc, isSequence,
                                            m.le(m.add(start, length), at));
        Value none = m.constant(0);
        Value single = m.constant(1);
        Value counted = arith::SelectOp::create(nb, nloc, ended, single, none);
        return m.add(args[1], counted);
      });
}

/// Index map of a mask operand over the score loops (b, h, i, j): a static
/// size-1 mask dimension broadcasts, every other one is read as is.
AffineMap getMaskMap(MLIRContext *ctx, RankedTensorType maskType,
                     ArrayRef<int64_t> scoreShape) {
  SmallVector<AffineExpr> results;
  for (int64_t dim = 0; dim < 4; ++dim) {
    bool broadcasts = maskType.getDimSize(dim) == 1 && scoreShape[dim] != 1;
    results.push_back(broadcasts ? getAffineConstantExpr(0, ctx)
                                 : getAffineDimExpr(dim, ctx));
  }
  return AffineMap::get(4, 0, results, ctx);
}

/// The offset `delta` of the diagonal: key column of query row 0.
Value getDiagonalOffset(OpBuilder &b, Location loc, DiagonalAlignment align,
                        Value queryLen, Value keyLen) {
  if (align == DiagonalAlignment::top_left)
    return arith::ConstantIndexOp::create(b, loc, 0);
  return arith::SubIOp::create(b, loc, keyLen, queryLen);
}

/// What the unfused scores read: Q, K (gathered per query head when the
/// group size is dynamic, `kvHead` the index map of its head dim otherwise)
/// and everything that hides or biases a score. Shared by fa.attention and
/// fa.attention_backward, so that the reference masks both the same way.
struct ScoreSpec {
  Value query, key;
  AffineExpr kvHead; // over the dims (b, h, i, j, d)
  Value mask, lengths, packedQueries, packedKeys;
  std::optional<DiagonalAlignment> causal;
  WindowAttr window;
  double scale;
  /// The score of a key the i1 mask hides (mask_fill, or -inf).
  double hiddenScore = -std::numeric_limits<double>::infinity();
  /// The op, whose score_mod and mask_mod (if any) apply to every score.
  AttentionOpInterface op = nullptr;
};

/// The scaled, masked scores [B, Hq, Nq, Nk] in f32, -inf where hidden;
/// `rawOut`, when given, receives the unscaled products Q K^T.
Value buildScores(OpBuilder &b, Location loc, const ScoreSpec &spec,
                  Value *rawOut = nullptr) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  Value query = spec.query, key = spec.key;
  auto queryType = cast<RankedTensorType>(query.getType());
  auto keyType = cast<RankedTensorType>(key.getType());
  SmallVector<OpFoldResult> querySizes = tensor::getMixedSizes(b, loc, query);
  OpFoldResult keyLen = tensor::getMixedSize(b, loc, key, 2);
  SmallVector<OpFoldResult> scoreSizes = {querySizes[0], querySizes[1],
                                          querySizes[2], keyLen};
  SmallVector<int64_t> scoreShape = {
      queryType.getDimSize(0), queryType.getDimSize(1),
      queryType.getDimSize(2), keyType.getDimSize(2)};
  AffineExpr bIdx, h, i, j, d;
  bindDims(ctx, bIdx, h, i, j, d);
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  auto map = [&](unsigned numDims, ArrayRef<AffineExpr> results) {
    return AffineMap::get(numDims, 0, results, ctx);
  };

  // raw[b,h,i,j] = sum_d Q[b,h,i,d] * K[b,g(h),j,d], in f32.
  Value raw = createGeneric(
      b, loc, ValueRange{query, key},
      createFilled(b, loc, scoreSizes, f32, b.getFloatAttr(f32, 0.0)),
      {map(5, {bIdx, h, i, d}), map(5, {bIdx, spec.kvHead, j, d}),
       map(5, {bIdx, h, i, j})},
      {par, par, par, par, red},
      multiplyAddF32);
  if (rawOut)
    *rawOut = raw;

  // scores = scale * raw + bias, with hidden keys set to -inf.
  std::optional<DiagonalAlignment> causal = spec.causal;
  WindowAttr window = spec.window;
  Value causalOffset, windowOffset;
  if (causal || window) {
    Value queryLen = getValueOrCreateConstantIndexOp(b, loc, querySizes[2]);
    Value keyLenValue = getValueOrCreateConstantIndexOp(b, loc, keyLen);
    if (causal)
      causalOffset = getDiagonalOffset(b, loc, *causal, queryLen, keyLenValue);
    if (window)
      windowOffset = getDiagonalOffset(b, loc, window.getAlign(), queryLen,
                                       keyLenValue);
  }
  // The scale is applied in f32, the precision of the computation.
  Value scale =
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(spec.scale));

  SmallVector<Value> scoreInputs = {raw};
  AffineMap identity4 = b.getMultiDimIdentityMap(4);
  SmallVector<AffineMap> scoreMaps = {identity4};
  Value mask = spec.mask;
  if (mask) {
    scoreInputs.push_back(mask);
    scoreMaps.push_back(
        getMaskMap(ctx, cast<RankedTensorType>(mask.getType()), scoreShape));
  }
  // Packed sequences: the sequence of every query row and key, so that a
  // score is visible only within one sequence.
  Value packedQueries = spec.packedQueries, packedKeys = spec.packedKeys;
  Value sequenceCount, totalQueries, totalKeys, rowSequences, keySequences;
  if (packedQueries) {
    IndexMath pm{b, loc};
    sequenceCount = packedSequenceCount(pm, packedQueries);
    totalQueries = getValueOrCreateConstantIndexOp(b, loc, querySizes[2]);
    totalKeys = getValueOrCreateConstantIndexOp(b, loc, keyLen);
    rowSequences =
        sequenceOfRows(b, loc, packedQueries, querySizes[2], sequenceCount);
    keySequences = sequenceOfRows(b, loc, packedKeys, keyLen, sequenceCount);
  }
  // Per-sequence key lengths: read at the score's batch index.
  Value lengths = spec.lengths;
  Value queryLenValue, keyLenValue;
  if (lengths) {
    scoreInputs.push_back(lengths);
    scoreMaps.push_back(map(4, {bIdx}));
    queryLenValue = getValueOrCreateConstantIndexOp(b, loc, querySizes[2]);
    keyLenValue = getValueOrCreateConstantIndexOp(b, loc, keyLen);
  }
  scoreMaps.push_back(identity4);
  // The op, when it has a score_mod or mask_mod to apply.
  AttentionOpInterface modified = spec.op;
  if (modified && !modified.getScoreModBlock() && !modified.getMaskModBlock())
    modified = nullptr;
  return createGeneric(
      b, loc, scoreInputs, createEmpty(b, loc, scoreSizes, f32), scoreMaps,
      {par, par, par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        MaskedScore score(nb, nloc, args[0], scale);
        score.setHiddenScore(spec.hiddenScore);
        if (modified) {
          IndexMath em{nb, nloc};
          SmallVector<Value> at;
          for (int64_t dim = 0; dim < 4; ++dim)
            at.push_back(linalg::IndexOp::create(nb, nloc, dim));
          applyScoreModifiers(score, em, modified, at[0], at[1], at[2], at[3]);
        }
        if (mask)
          score.addMask(args[1]);
        // L_b = clamp(len[b], 0, Nk): keys at or past it are hidden, and
        // a bottom-right diagonal ends at the sequence's last key.
        Value sequenceKeys;
        if (lengths) {
          IndexMath em{nb, nloc};
          sequenceKeys =
              sequenceKeyLength(em, args[mask ? 2 : 1], keyLenValue);
          Value col = linalg::IndexOp::create(nb, nloc, 3);
          score.require(arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::slt, col, sequenceKeys));
        }
        Value row = linalg::IndexOp::create(nb, nloc, 2);
        Value col = linalg::IndexOp::create(nb, nloc, 3);
        Value sequenceQueries;
        if (packedQueries) {
          // Row and key of one sequence, at positions counted from its
          // start; the diagonals are the sequence's own.
          IndexMath em{nb, nloc};
          Value rowSequence =
              tensor::ExtractOp::create(nb, nloc, rowSequences, row);
          Value keySequence =
              tensor::ExtractOp::create(nb, nloc, keySequences, col);
          score.require(em.eq(rowSequence, keySequence));
          score.require(em.lt(rowSequence, sequenceCount));
          Value zero = em.constant(0);
          Value lastSequence = em.addConstant(sequenceCount, -1);
          Value sequence = em.min(rowSequence, em.max(lastSequence, zero));
          PackedSequence bounds = packedSequence(
              em, packedQueries, packedKeys, sequence, totalQueries, totalKeys);
          row = em.sub(row, bounds.queryStart);
          col = em.sub(col, bounds.keyStart);
          for (auto [position, count] :
               {std::pair{row, bounds.queryLen}, {col, bounds.keyLen}}) {
            score.require(em.le(em.constant(0), position));
            score.require(em.lt(position, count));
          }
          sequenceKeys = bounds.keyLen;
          sequenceQueries = bounds.queryLen;
        }
        auto offsetFor = [&](DiagonalAlignment align, Value offset) {
          if ((!lengths && !packedQueries) ||
              align == DiagonalAlignment::top_left)
            return offset;
          return arith::SubIOp::create(
                     nb, nloc, sequenceKeys,
                     sequenceQueries ? sequenceQueries : queryLenValue)
              .getResult();
        };
        if (causal || window) {
          auto diagonalPlus = [&](Value offset, int64_t extra) -> Value {
            Value diagonal = arith::AddIOp::create(nb, nloc, row, offset);
            if (extra == 0)
              return diagonal;
            Value extraValue = arith::ConstantIndexOp::create(nb, nloc, extra);
            return arith::AddIOp::create(nb, nloc, diagonal, extraValue);
          };
          auto cmp = [&](arith::CmpIPredicate pred, Value lhs, Value rhs) {
            return arith::CmpIOp::create(nb, nloc, pred, lhs, rhs);
          };
          if (causal)
            score.require(cmp(arith::CmpIPredicate::sle, col,
                              diagonalPlus(offsetFor(*causal, causalOffset), 0)));
          if (window) {
            Value offset = offsetFor(window.getAlign(), windowOffset);
            score.require(cmp(arith::CmpIPredicate::sge, col,
                              diagonalPlus(offset, -window.getLeft())));
            score.require(cmp(arith::CmpIPredicate::sle, col,
                              diagonalPlus(offset, window.getRight())));
          }
        }
        return score.finish();
      });
}

/// The row statistics of the softmax of `scores` ([B, Hq, Nq, Nk]): its
/// row max and the unnormalised P = exp(scores - max) with its row sum.
struct SoftmaxRows {
  Value rowMax, probs, rowSum;
};
SoftmaxRows buildSoftmaxRows(OpBuilder &b, Location loc, Value scores,
                             Value sinks = Value()) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  SmallVector<OpFoldResult> scoreSizes = tensor::getMixedSizes(b, loc, scores);
  ArrayRef<OpFoldResult> rowSizes = ArrayRef(scoreSizes).drop_back();
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  AffineMap identity4 = b.getMultiDimIdentityMap(4);
  AffineMap rowMap = AffineMap::get(
      4, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
             getAffineDimExpr(2, ctx)},
      ctx);
  auto negInf =
      b.getFloatAttr(f32, APFloat::getInf(APFloat::IEEEsingle(), true));
  // Sinks: one more logit s[h] per row, with no value. It starts the row
  // max, and its term e^(s[h] - max) starts the row sum.
  Value maxInit = createFilled(b, loc, rowSizes, f32, negInf);
  if (sinks) {
    AffineMap identity3 = b.getMultiDimIdentityMap(3);
    maxInit = createGeneric(
        b, loc, ValueRange{}, createEmpty(b, loc, rowSizes, f32), {identity3},
        {par, par, par},
        [&](OpBuilder &nb, Location nloc, ValueRange) -> Value {
          IndexMath m{nb, nloc};
          return sinkLogit(m, sinks, linalg::IndexOp::create(nb, nloc, 1));
        });
  }
  // Row max, with a safe version (0 for rows with no visible key) so that
  // exp(-inf - max) never becomes exp(NaN).
  Value rowMax = createGeneric(
      b, loc, ValueRange{scores}, maxInit, {identity4, rowMap},
      {par, par, par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::MaximumFOp::create(nb, nloc, args[0], args[1]);
      });
  // P = exp(scores - max): unnormalised probabilities.
  Value probs = createGeneric(
      b, loc, ValueRange{scores, rowMax}, createEmpty(b, loc, scoreSizes, f32),
      {identity4, rowMap, identity4}, {par, par, par, par},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value shifted = arith::SubFOp::create(nb, nloc, args[0],
                                              safeRowMax(nb, nloc, args[1]));
        return math::ExpOp::create(nb, nloc, shifted);
      });
  Value sumInit = createFilled(b, loc, rowSizes, f32, b.getFloatAttr(f32, 0.0));
  if (sinks) {
    AffineMap identity3 = b.getMultiDimIdentityMap(3);
    sumInit = createGeneric(
        b, loc, ValueRange{rowMax}, createEmpty(b, loc, rowSizes, f32),
        {identity3, identity3}, {par, par, par},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          IndexMath m{nb, nloc};
          Value sink =
              sinkLogit(m, sinks, linalg::IndexOp::create(nb, nloc, 1));
          Value shifted = arith::SubFOp::create(nb, nloc, sink,
                                                safeRowMax(nb, nloc, args[0]));
          return math::ExpOp::create(nb, nloc, shifted);
        });
  }
  Value rowSum = createGeneric(
      b, loc, ValueRange{probs}, sumInit, {identity4, rowMap},
      {par, par, par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::AddFOp::create(nb, nloc, args[0], args[1]);
      });
  return {rowMax, probs, rowSum};
}

/// K and V as the scores read them: gathered per query head when the group
/// size is dynamic (then `kvHead` is h itself), else through `h floordiv G`.
AffineExpr readKeysPerQueryHead(OpBuilder &b, Location loc, int64_t groupSize,
                                OpFoldResult queryHeads, Value &key,
                                Value &value) {
  AffineExpr h = getAffineDimExpr(1, b.getContext());
  if (ShapedType::isDynamic(groupSize)) {
    key = gatherPerQueryHead(b, loc, key, queryHeads);
    value = gatherPerQueryHead(b, loc, value, queryHeads);
    return h;
  }
  return groupSize == 1 ? h : h.floorDiv(groupSize);
}

/// Casts `results` to the types the op declares, which may have more static
/// sizes than its operands.
void replaceWithCasts(PatternRewriter &rewriter, Operation *op,
                      SmallVector<Value> results) {
  for (auto [index, original] : llvm::enumerate(op->getResults())) {
    if (results[index].getType() != original.getType())
      results[index] = tensor::CastOp::create(rewriter, op->getLoc(),
                                              original.getType(),
                                              results[index]);
  }
  rewriter.replaceOp(op, results);
}

struct DecomposeAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    OpBuilder &b = rewriter;
    Type f32 = b.getF32Type();
    Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
    if (Value table = op.getPageTable()) {
      key = gatherPagedCache(b, loc, key, table);
      value = gatherPagedCache(b, loc, value, table);
    }
    auto valueType = cast<RankedTensorType>(value.getType());
    SmallVector<OpFoldResult> querySizes = tensor::getMixedSizes(b, loc, query);
    OpFoldResult valueDim = b.getIndexAttr(valueType.getDimSize(3));
    SmallVector<OpFoldResult> outputSizes = {querySizes[0], querySizes[1],
                                             querySizes[2], valueDim};

    AffineExpr kvHead = readKeysPerQueryHead(b, loc, op.getGroupSize(),
                                             querySizes[1], key, value);
    Value scores = buildScores(
        b, loc,
        ScoreSpec{query, key, kvHead, op.getMask(), op.getKvLengths(),
                  op.getCuSeqlensQ(), op.getCuSeqlensK(), op.getCausal(),
                  op.getWindowAttr(), op.getScale().convertToDouble(),
                  op.getHiddenScore(), op});
    auto [rowMax, probs, rowSum] =
        buildSoftmaxRows(b, loc, scores, op.getSinks());

    // unnormalised[b,h,i,e] = sum_j P[b,h,i,j] * V[b,g(h),j,e]; loops are
    // (b, h, i, e, j) so that j is the reduction.
    AffineExpr bIdx, h, i, e, j;
    bindDims(ctx, bIdx, h, i, e, j);
    auto map = [&](ArrayRef<AffineExpr> results) {
      return AffineMap::get(5, 0, results, ctx);
    };
    auto par = IteratorType::parallel, red = IteratorType::reduction;
    Value unnormalised = createGeneric(
        b, loc, ValueRange{probs, value},
        createFilled(b, loc, outputSizes, f32, b.getFloatAttr(f32, 0.0)),
        {map({bIdx, h, i, j}), map({bIdx, kvHead, j, e}),
         map({bIdx, h, i, e})},
        {par, par, par, par, red},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          Value product = arith::MulFOp::create(nb, nloc, args[0],
                                                castToF32(nb, nloc, args[1]));
          return arith::AddFOp::create(nb, nloc, args[2], product);
        });

    // O = unnormalised / rowSum, 0 for fully-masked rows, rounded once to
    // the value type.
    AffineMap identity4 = b.getMultiDimIdentityMap(4);
    AffineMap rowMap = AffineMap::get(4, 0, {bIdx, h, i}, ctx);
    Type outputElementType = valueType.getElementType();
    Value output = createGeneric(
        b, loc, ValueRange{unnormalised, rowSum},
        createEmpty(b, loc, outputSizes, outputElementType),
        {identity4, rowMap, identity4}, {par, par, par, par},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          return normalizeRow(nb, nloc, args[0], args[1], outputElementType);
        });

    SmallVector<Value> results = {output};
    if (op.getLogsumexp()) {
      AffineMap identity3 = b.getMultiDimIdentityMap(3);
      SmallVector<OpFoldResult> rowSizes(querySizes.begin(),
                                         querySizes.begin() + 3);
      // logsumexp = max + log(sum): -inf for fully-masked rows (log 0).
      results.push_back(createGeneric(
          b, loc, ValueRange{rowMax, rowSum},
          createEmpty(b, loc, rowSizes, f32),
          {identity3, identity3, identity3}, {par, par, par},
          [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
            Value logSum = math::LogOp::create(nb, nloc, args[1]);
            return arith::AddFOp::create(
                nb, nloc, safeRowMax(nb, nloc, args[0]), logSum);
          }));
    }
    replaceWithCasts(rewriter, op, results);
    return success();
  }
};

/// Sums `perHead` ([B, Hq, N, E], one gradient per query head) over the
/// heads of each group into [B, Hkv, N, E]: head g gets heads
/// g * G .. g * G + G - 1. The group runs as a reduction loop of its own
/// (its extent from a [G] operand), so that G may be dynamic.
Value sumOverGroups(OpBuilder &b, Location loc, Value perHead,
                    OpFoldResult kvHeads, Value groupSize) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, perHead);
  sizes[1] = kvHeads;
  Value groupExtent = createEmpty(b, loc, {getAsOpFoldResult(groupSize)}, f32);
  AffineExpr bIdx, g, n, e, r;
  bindDims(ctx, bIdx, g, n, e, r);
  auto par = IteratorType::parallel, red = IteratorType::reduction;
  return createGeneric(
      b, loc, ValueRange{groupExtent},
      createFilled(b, loc, sizes, f32, b.getFloatAttr(f32, 0.0)),
      {AffineMap::get(5, 0, {r}, ctx),
       AffineMap::get(5, 0, {bIdx, g, n, e}, ctx)},
      {par, par, par, par, red},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        IndexMath m{nb, nloc};
        SmallVector<Value> at;
        for (int64_t dim = 0; dim < 5; ++dim)
          at.push_back(linalg::IndexOp::create(nb, nloc, dim));
        Value head = m.add(m.mul(at[1], groupSize), at[4]);
        Value element = tensor::ExtractOp::create(
            nb, nloc, perHead, ValueRange{at[0], head, at[2], at[3]});
        return arith::AddFOp::create(nb, nloc, args[1], element);
      });
}

/// `tensor` ([..] f32) rounded to `elementType`.
Value roundTo(OpBuilder &b, Location loc, Value tensor, Type elementType) {
  if (elementType.isF32())
    return tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  return createGeneric(
      b, loc, ValueRange{tensor},
      createEmpty(b, loc, tensor::getMixedSizes(b, loc, tensor), elementType),
      {identity, identity},
      SmallVector<IteratorType>(type.getRank(), IteratorType::parallel),
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::TruncFOp::create(nb, nloc, elementType, args[0]);
      });
}

/// fa.attention_backward as the textbook backward of the unfused forward:
/// P = softmax(S) from the scores again (the saved O and logsumexp are not
/// read: the reference checks the lowerings that rely on them),
/// dP = dO V^T, dS = P * (dP - rowsum(dP * P)), then the three (or four)
/// contractions, all in f32, each gradient rounded once.
struct DecomposeAttentionBackward
    : OpRewritePattern<AttentionBackwardOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AttentionBackwardOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    OpBuilder &b = rewriter;
    Type f32 = b.getF32Type();
    Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
    Value gradOutput = op.getGradOutput();
    Type elementType = op.getQuery().getType().getElementType();
    SmallVector<OpFoldResult> querySizes = tensor::getMixedSizes(b, loc, query);
    SmallVector<OpFoldResult> keySizes = tensor::getMixedSizes(b, loc, key);
    SmallVector<OpFoldResult> scoreSizes = {querySizes[0], querySizes[1],
                                            querySizes[2], keySizes[2]};
    ArrayRef<OpFoldResult> rowSizes = ArrayRef(scoreSizes).take_front(3);
    int64_t headDim = op.getQuery().getType().getDimSize(3);
    int64_t valueDim = op.getValue().getType().getDimSize(3);
    AffineExpr kvHead = readKeysPerQueryHead(b, loc, op.getGroupSize(),
                                             querySizes[1], key, value);
    double scaleValue = op.getScale().convertToDouble();
    ScoreSpec spec{query, key, kvHead, op.getMask(), Value(), Value(), Value(),
                   op.getCausal(), op.getWindowAttr(), scaleValue};
    spec.hiddenScore = op.getHiddenScore();
    spec.op = op;
    Value raw;
    Value scores = buildScores(b, loc, spec, &raw);
    SoftmaxRows softmax = buildSoftmaxRows(b, loc, scores, op.getSinks());

    auto par = IteratorType::parallel, red = IteratorType::reduction;
    AffineMap identity4 = b.getMultiDimIdentityMap(4);
    AffineExpr bIdx, h, i, j, x;
    bindDims(ctx, bIdx, h, i, j, x);
    AffineMap rowMap = AffineMap::get(4, 0, {bIdx, h, i}, ctx);
    auto map = [&](ArrayRef<AffineExpr> results) {
      return AffineMap::get(5, 0, results, ctx);
    };
    auto zeros = [&](ArrayRef<OpFoldResult> sizes) {
      return createFilled(b, loc, sizes, f32, b.getFloatAttr(f32, 0.0));
    };
  
    // P = exp(S - max) / sum: 0 on rows with no visible key.
    Value probs = createGeneric(
        b, loc, ValueRange{softmax.probs, softmax.rowSum},
        createEmpty(b, loc, scoreSizes, f32), {identity4, rowMap, identity4},
        {par, par, par, par},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          return normalizeRow(nb, nloc, args[0], args[1], f32);
        });
    // dP[b,h,i,j] = sum_e dO[b,h,i,e] * V[b,g(h),j,e]; loops (b,h,i,j,e).
    Value gradProbs = createGeneric(
        b, loc, ValueRange{gradOutput, value}, zeros(scoreSizes),
        {map({bIdx, h, i, x}), map({bIdx, kvHead, j, x}),
         map({bIdx, h, i, j})},
        {par, par, par, par, red}, multiplyAddF32);
    // rowsum(dP * P), the softmax backward's correction.
    Value correction = createGeneric(
        b, loc, ValueRange{gradProbs, probs}, zeros(rowSizes),
        {identity4, identity4, rowMap}, {par, par, par, red}, multiplyAddF32);
    // dS = P * (dP - correction); 0 where mask_fill gives a hidden key a
    // constant score.
    SmallVector<Value> gradInputs = {probs, gradProbs, correction};
    SmallVector<AffineMap> gradMaps = {identity4, identity4, rowMap};
    bool filled = op.getMaskFillAttr() != nullptr;
    if (filled) {
      auto queryType = op.getQuery().getType();
      SmallVector<int64_t> scoreShape = {
          queryType.getDimSize(0), queryType.getDimSize(1),
          queryType.getDimSize(2), op.getKey().getType().getDimSize(2)};
      gradInputs.push_back(op.getMask());
      gradMaps.push_back(getMaskMap(
          ctx, cast<RankedTensorType>(op.getMask().getType()), scoreShape));
    }
    gradMaps.push_back(identity4);
    Value gradScores = createGeneric(
        b, loc, gradInputs, createEmpty(b, loc, scoreSizes, f32), gradMaps,
        {par, par, par, par},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          return scoreGradient(nb, nloc, args[0], args[1], args[2],
                               filled ? args[3] : Value());
        });
    Value scale = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(scaleValue));
    // With a score_mod f, the gradient above is that of t = f(s); the
    // products need that of s: dS = dT * f'(s), f' from the region
    // differentiated where s = scale * raw.
    Value gradModified = gradScores;
    if (Block *scoreMod = op.getScoreModBlock()) {
      gradScores = createGeneric(
          b, loc, ValueRange{raw, gradModified},
          createEmpty(b, loc, scoreSizes, f32),
          {identity4, identity4, identity4}, {par, par, par, par},
          [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
            Value scaledScore = arith::MulFOp::create(nb, nloc, args[0], scale);
            SmallVector<Value> at = {scaledScore};
            for (int64_t dim = 0; dim < 4; ++dim)
              at.push_back(linalg::IndexOp::create(nb, nloc, dim));
            FailureOr<std::pair<Value, Value>> modified =
                differentiateScoreMod(nb, scoreMod, at);
            Value slope = succeeded(modified)
                              ? modified->second
                              : arith::ConstantOp::create(
                                    nb, nloc, nb.getF32FloatAttr(std::nan("")));
            return throughScoreMod(nb, nloc, args[1], slope);
          });
    }
    auto scaled = [&](Value tensor) {
      auto type = cast<RankedTensorType>(tensor.getType());
      AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
      return createGeneric(
          b, loc, ValueRange{tensor},
          createEmpty(b, loc, tensor::getMixedSizes(b, loc, tensor), f32),
          {identity, identity},
          SmallVector<IteratorType>(type.getRank(), par),
          [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
            return arith::MulFOp::create(nb, nloc, args[0], scale);
          });
    };

    // dQ[b,h,i,d] = scale * sum_j dS[b,h,i,j] * K[b,g(h),j,d]; loops
    // (b,h,i,d,j).
    SmallVector<OpFoldResult> gradQuerySizes = querySizes;
    AffineExpr dLoop = j, jLoop = x;
    Value gradQuery = createGeneric(
        b, loc, ValueRange{gradScores, key}, zeros(gradQuerySizes),
        {map({bIdx, h, i, jLoop}), map({bIdx, kvHead, jLoop, dLoop}),
         map({bIdx, h, i, dLoop})},
        {par, par, par, par, red}, multiplyAddF32);
    // Per query head: dK_h[b,h,j,d] = scale * sum_i dS[b,h,i,j] Q[b,h,i,d]
    // and dV_h[b,h,j,e] = sum_i P[b,h,i,j] dO[b,h,i,e]; loops (b,h,j,d,i).
    AffineExpr jOut = i, dOut = j, iLoop = x;
    auto perHeadKeyGradient = [&](Value scoreLike, Value rows, int64_t width) {
      SmallVector<OpFoldResult> sizes = {querySizes[0], querySizes[1],
                                         keySizes[2], b.getIndexAttr(width)};
      return createGeneric(
          b, loc, ValueRange{scoreLike, rows}, zeros(sizes),
          {map({bIdx, h, iLoop, jOut}), map({bIdx, h, iLoop, dOut}),
           map({bIdx, h, jOut, dOut})},
          {par, par, par, par, red}, multiplyAddF32);
    };
    Value gradKeyPerHead = perHeadKeyGradient(gradScores, query, headDim);
    Value gradValuePerHead = perHeadKeyGradient(probs, gradOutput, valueDim);
    IndexMath math{b, loc};
    Value keyHeads = math.dim(op.getKey(), 1);
    Value queryHeads = math.dim(query, 1);
    Value groupSize = math.divU(queryHeads, keyHeads);
    OpFoldResult kvHeads = tensor::getMixedSize(b, loc, op.getKey(), 1);
    Value gradKey = sumOverGroups(b, loc, gradKeyPerHead, kvHeads, groupSize);
    Value gradValue =
        sumOverGroups(b, loc, gradValuePerHead, kvHeads, groupSize);

    SmallVector<Value> results = {
        roundTo(b, loc, scaled(gradQuery), elementType),
        roundTo(b, loc, scaled(gradKey), elementType),
        roundTo(b, loc, gradValue, elementType)};
    if (op.getGradMask()) {
      // dBias = dS summed over the bias's broadcast dims.
      auto maskType = cast<RankedTensorType>(op.getMask().getType());
      auto queryType = op.getQuery().getType();
      SmallVector<int64_t> scoreShape = {
          queryType.getDimSize(0), queryType.getDimSize(1),
          queryType.getDimSize(2), op.getKeyLength()};
      AffineMap maskMap = getMaskMap(ctx, maskType, scoreShape);
      SmallVector<IteratorType> iterators;
      SmallVector<OpFoldResult> maskSizes;
      for (int64_t dim = 0; dim < 4; ++dim) {
        bool broadcasts = isa<AffineConstantExpr>(maskMap.getResult(dim));
        iterators.push_back(broadcasts ? red : par);
        maskSizes.push_back(broadcasts ? b.getIndexAttr(1) : scoreSizes[dim]);
      }
      Value gradMask = createGeneric(
          b, loc, ValueRange{gradModified}, zeros(maskSizes),
          {identity4, maskMap}, iterators,
          [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
            return arith::AddFOp::create(nb, nloc, args[0], args[1]);
          });
      results.push_back(
          roundTo(b, loc, gradMask, maskType.getElementType()));
    }
    if (op.getGradSinks()) {
      // dSink[h] = -sum_{b,i} P_sink[b,h,i] * D[b,h,i]: the sink has no
      // value (dP_sink = 0), so its score gradient is P_sink (0 - D).
      // P_sink = e^(sink - max) / sum, as the rows' other probabilities.
      Value sinks = op.getSinks();
      auto sinksType = cast<RankedTensorType>(sinks.getType());
      AffineMap identity3 = b.getMultiDimIdentityMap(3);
      AffineMap headMap = AffineMap::get(3, 0, {getAffineDimExpr(1, ctx)}, ctx);
      Value gradSinks = createGeneric(
          b, loc, ValueRange{softmax.rowMax, softmax.rowSum, correction},
          zeros({querySizes[1]}), {identity3, identity3, identity3, headMap},
          {red, par, red},
          [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
            IndexMath m{nb, nloc};
            Value sink =
                sinkLogit(m, sinks, linalg::IndexOp::create(nb, nloc, 1));
            Value shifted = arith::SubFOp::create(
                nb, nloc, sink, safeRowMax(nb, nloc, args[0]));
            Value term = math::ExpOp::create(nb, nloc, shifted);
            Value prob = normalizeRow(nb, nloc, term, args[1], f32);
            Value product = arith::MulFOp::create(nb, nloc, prob, args[2]);
            return arith::SubFOp::create(nb, nloc, args[3], product);
          });
      results.push_back(roundTo(b, loc, gradSinks, sinksType.getElementType()));
    }
    replaceWithCasts(rewriter, op, results);
    return success();
  }
};

struct FADecomposeAttentionPass
    : fa::impl::FADecomposeAttentionBase<FADecomposeAttentionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDecomposeAttentionPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // A linear attention the pattern could not lower said why at the op.
    if (getOperation()
            ->walk([](LinearAttentionOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::fa::populateDecomposeAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeAttention, DecomposeAttentionBackward>(
      patterns.getContext());
  populateDecomposeLinearAttentionPatterns(patterns);
}
