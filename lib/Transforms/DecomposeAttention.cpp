//===- DecomposeAttention.cpp - fa.attention to unfused linalg ------------===//
//
// Stage: reference lowering. Rewrites fa.attention into the textbook,
// unfused computation on tensors (one linalg.generic per step, all in f32).
// This is the executable definition of the op: every faster lowering is
// tested against it, so it favours obvious correctness over speed and
// materializes the full [B, Hq, Nq, Nk] scores.
//
//===----------------------------------------------------------------------===//

#include "IndexMath.h"
#include "TensorBuilders.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FADECOMPOSEATTENTION
#include "fa/Transforms/Passes.h.inc"
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
        Value safe = m.min(s, m.max(m.addConstant(count, -1), m.constant(0)));
        auto [start, length] = packedRows(m, sums, safe, total);
        Value ended = arith::AndIOp::create(nb, nloc, isSequence,
                                            m.le(m.add(start, length), at));
        Value one = arith::SelectOp::create(nb, nloc, ended, m.constant(1),
                                            m.constant(0));
        return m.add(args[1], one);
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
    auto queryType = cast<RankedTensorType>(query.getType());
    auto keyType = cast<RankedTensorType>(key.getType());
    auto valueType = cast<RankedTensorType>(value.getType());

    SmallVector<OpFoldResult> querySizes = tensor::getMixedSizes(b, loc, query);
    SmallVector<OpFoldResult> keySizes = tensor::getMixedSizes(b, loc, key);
    OpFoldResult keyLen = keySizes[2];
    OpFoldResult valueDim = b.getIndexAttr(valueType.getDimSize(3));
    SmallVector<OpFoldResult> rowSizes(querySizes.begin(),
                                       querySizes.begin() + 3);
    SmallVector<OpFoldResult> scoreSizes = {querySizes[0], querySizes[1],
                                            querySizes[2], keyLen};
    SmallVector<OpFoldResult> outputSizes = {querySizes[0], querySizes[1],
                                             querySizes[2], valueDim};
    SmallVector<int64_t> scoreShape = {
        queryType.getDimSize(0), queryType.getDimSize(1),
        queryType.getDimSize(2), keyType.getDimSize(2)};

    // Key/value head of query head h: h floordiv G when G is static,
    // otherwise K and V are gathered per query head first.
    AffineExpr bIdx, h, i, j, d;
    bindDims(ctx, bIdx, h, i, j, d);
    AffineExpr kvHead = h;
    int64_t groupSize = op.getGroupSize();
    if (ShapedType::isDynamic(groupSize)) {
      key = gatherPerQueryHead(b, loc, key, querySizes[1]);
      value = gatherPerQueryHead(b, loc, value, querySizes[1]);
    } else if (groupSize != 1) {
      kvHead = h.floorDiv(groupSize);
    }

    auto negInf =
        b.getFloatAttr(f32, APFloat::getInf(APFloat::IEEEsingle(), true));
    auto zero = b.getFloatAttr(f32, 0.0);
    auto par = IteratorType::parallel, red = IteratorType::reduction;
    auto map = [&](unsigned numDims, ArrayRef<AffineExpr> results) {
      return AffineMap::get(numDims, 0, results, ctx);
    };

    // raw[b,h,i,j] = sum_d Q[b,h,i,d] * K[b,g(h),j,d], in f32.
    Value raw = createGeneric(
        b, loc, ValueRange{query, key},
        createFilled(b, loc, scoreSizes, f32, zero),
        {map(5, {bIdx, h, i, d}), map(5, {bIdx, kvHead, j, d}),
         map(5, {bIdx, h, i, j})},
        {par, par, par, par, red},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          Value product =
              arith::MulFOp::create(nb, nloc, castToF32(nb, nloc, args[0]),
                                    castToF32(nb, nloc, args[1]));
          return arith::AddFOp::create(nb, nloc, args[2], product);
        });

    // scores = scale * raw + bias, with hidden keys set to -inf.
    std::optional<DiagonalAlignment> causal = op.getCausal();
    WindowAttr window = op.getWindowAttr();
    Value causalOffset, windowOffset;
    if (causal || window) {
      Value queryLen = getValueOrCreateConstantIndexOp(b, loc, querySizes[2]);
      Value keyLenValue = getValueOrCreateConstantIndexOp(b, loc, keyLen);
      if (causal)
        causalOffset =
            getDiagonalOffset(b, loc, *causal, queryLen, keyLenValue);
      if (window)
        windowOffset = getDiagonalOffset(b, loc, window.getAlign(), queryLen,
                                         keyLenValue);
    }
    // The scale is applied in f32, the precision of the computation.
    Value scale = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(op.getScale().convertToDouble()));

    SmallVector<Value> scoreInputs = {raw};
    AffineMap identity4 = b.getMultiDimIdentityMap(4);
    SmallVector<AffineMap> scoreMaps = {identity4};
    Value mask = op.getMask();
    if (mask) {
      scoreInputs.push_back(mask);
      scoreMaps.push_back(getMaskMap(
          ctx, cast<RankedTensorType>(mask.getType()), scoreShape));
    }
    // Packed sequences: the sequence of every query row and key, so that a
    // score is visible only within one sequence.
    Value packedQueries = op.getCuSeqlensQ(), packedKeys = op.getCuSeqlensK();
    Value sequenceCount, totalQueries, totalKeys, rowSequences, keySequences;
    if (packedQueries) {
      IndexMath pm{b, loc};
      sequenceCount = packedSequenceCount(pm, packedQueries);
      totalQueries = getValueOrCreateConstantIndexOp(b, loc, querySizes[2]);
      totalKeys = getValueOrCreateConstantIndexOp(b, loc, keyLen);
      rowSequences = sequenceOfRows(b, loc, packedQueries, querySizes[2],
                                    sequenceCount);
      keySequences =
          sequenceOfRows(b, loc, packedKeys, keyLen, sequenceCount);
    }
    // Per-sequence key lengths: read at the score's batch index.
    Value lengths = op.getKvLengths();
    Value queryLenValue, keyLenValue;
    if (lengths) {
      scoreInputs.push_back(lengths);
      scoreMaps.push_back(map(4, {bIdx}));
      queryLenValue = getValueOrCreateConstantIndexOp(b, loc, querySizes[2]);
      keyLenValue = getValueOrCreateConstantIndexOp(b, loc, keyLen);
    }
    scoreMaps.push_back(identity4);
    Value scores = createGeneric(
        b, loc, scoreInputs, createEmpty(b, loc, scoreSizes, f32), scoreMaps,
        {par, par, par, par},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          MaskedScore score(nb, nloc, args[0], scale);
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
            Value sequence = em.min(
                rowSequence, em.max(em.addConstant(sequenceCount, -1),
                                    em.constant(0)));
            PackedSequence bounds =
                packedSequence(em, packedQueries, packedKeys, sequence,
                               totalQueries, totalKeys);
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

    // Row max, with a safe version (0 for rows with no visible key) so that
    // exp(-inf - max) never becomes exp(NaN).
    AffineMap rowMap = map(4, {bIdx, h, i});
    Value rowMax = createGeneric(
        b, loc, ValueRange{scores}, createFilled(b, loc, rowSizes, f32, negInf),
        {identity4, rowMap}, {par, par, par, red},
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

    Value rowSum = createGeneric(
        b, loc, ValueRange{probs}, createFilled(b, loc, rowSizes, f32, zero),
        {identity4, rowMap}, {par, par, par, red},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          return arith::AddFOp::create(nb, nloc, args[0], args[1]);
        });

    // unnormalised[b,h,i,e] = sum_j P[b,h,i,j] * V[b,g(h),j,e]; loops are
    // (b, h, i, e, j) so that j is the reduction.
    AffineExpr e = j, jRed = d;
    Value unnormalised = createGeneric(
        b, loc, ValueRange{probs, value},
        createFilled(b, loc, outputSizes, f32, zero),
        {map(5, {bIdx, h, i, jRed}), map(5, {bIdx, kvHead, jRed, e}),
         map(5, {bIdx, h, i, e})},
        {par, par, par, par, red},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          Value product = arith::MulFOp::create(nb, nloc, args[0],
                                                castToF32(nb, nloc, args[1]));
          return arith::AddFOp::create(nb, nloc, args[2], product);
        });

    // O = unnormalised / rowSum, 0 for fully-masked rows, rounded once to
    // the value type.
    Type outputElementType = valueType.getElementType();
    Value output = createGeneric(
        b, loc, ValueRange{unnormalised, rowSum},
        createEmpty(b, loc, outputSizes, outputElementType),
        {identity4, rowMap, identity4}, {par, par, par, par},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          return normalizeRow(nb, nloc, args[0], args[1], outputElementType);
        });

    SmallVector<Value> results = {output};
    if (Value logsumexp = op.getLogsumexp()) {
      AffineMap identity3 = b.getMultiDimIdentityMap(3);
      // logsumexp = max + log(sum): -inf for fully-masked rows (log 0).
      results.push_back(createGeneric(
          b, loc, ValueRange{rowMax, rowSum}, createEmpty(b, loc, rowSizes, f32),
          {identity3, identity3, identity3}, {par, par, par},
          [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
            Value logSum = math::LogOp::create(nb, nloc, args[1]);
            return arith::AddFOp::create(nb, nloc, safeRowMax(nb, nloc, args[0]),
                                         logSum);
          }));
    }

    // The op may declare more static sizes than its operands do.
    for (auto [index, original] : llvm::enumerate(op.getResults())) {
      if (results[index].getType() != original.getType())
        results[index] =
            tensor::CastOp::create(b, loc, original.getType(), results[index]);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct FADecomposeAttentionPass
    : fa::impl::FADecomposeAttentionBase<FADecomposeAttentionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDecomposeAttentionPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void mlir::fa::populateDecomposeAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeAttention>(patterns.getContext());
}
