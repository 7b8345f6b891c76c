//===- LowerLinearAttention.cpp - Linear attention in the cheap order -----===//
//
// Stage: tiling (linear attention's). fa.linear_attention reassociated:
// (Q K^T) V = Q (K^T V), so the [Nq, Nk] weights never exist. Causal, the
// walk goes over chunks of C rows carrying S = sum_j gamma^(c0 - 1 - j)
// K_j^T V_j and z = sum_j gamma^(c0 - 1 - j) K_j (j before the chunk):
//
//   O_i = sum_{c0 <= j <= i} W_ij V_j  +  scale gamma^(i - c0 + 1) Q_i S
//   S  <- gamma^C S + sum_{j in chunk} gamma^(c0 + C - 1 - j) K_j^T V_j
//
// with W the chunk's [C, C] weights (scale Q_i K_j, times gamma^(i - j),
// 0 above the diagonal). See the pass description in Passes.td and
// docs/LinearAttention.md. `lowerLinearAttention` is callable on its own.
//
//===----------------------------------------------------------------------===//

#include "Common/IndexMath.h"
#include "Common/LinearAttention.h"
#include "Common/TensorBuilders.h"

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/Tiling/Tiling.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FALOWERLINEARATTENTION
#include "fa/Transforms/Tiling/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;

namespace {

using utils::IteratorType;
constexpr IteratorType par = IteratorType::parallel;
constexpr IteratorType red = IteratorType::reduction;

/// The lowering of one op: its operands, sizes and the maps they share.
struct LinearLowering {
  LinearAttentionOp op;
  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  int64_t group;
  Type f32;
  float scale;

  /// dims(rank, {i, j, ...}): the map (d0, ..., d_rank-1) -> (d_i, ...),
  /// with -1 standing for the key/value head of query head d1.
  AffineMap map(unsigned rank, ArrayRef<int64_t> dims) {
    SmallVector<AffineExpr> results;
    for (int64_t dim : dims) {
      if (dim >= 0) {
        results.push_back(getAffineDimExpr(dim, ctx));
        continue;
      }
      AffineExpr head = getAffineDimExpr(1, ctx);
      results.push_back(group == 1 ? head : head.floorDiv(group));
    }
    return AffineMap::get(rank, 0, results, ctx);
  }
  Value zeros(ArrayRef<OpFoldResult> sizes) {
    return createFilled(b, loc, sizes, f32, b.getF32FloatAttr(0.0));
  }
  Value scaleValue(OpBuilder &nb, Location nloc) {
    return arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(scale));
  }
  /// The decay weight gamma[h]^n inside a body whose decay argument is
  /// `gamma`; 1 without a decay.
  Value power(OpBuilder &nb, Location nloc, Value gamma, Value n) {
    if (!gamma)
      return arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(1.0));
    return decayPower(nb, nloc, gamma, n);
  }
  /// `numerator / (denominator + eps)`, or `numerator` without normalize.
  Value normalized(OpBuilder &nb, Location nloc, Value numerator,
                   Value denominator) {
    FloatAttr epsilon = op.getEpsilonAttr();
    if (!epsilon)
      return numerator;
    Value eps = arith::ConstantOp::create(
        nb, nloc,
        nb.getF32FloatAttr(static_cast<float>(epsilon.getValueAsDouble())));
    return arith::DivFOp::create(
        nb, nloc, numerator, arith::AddFOp::create(nb, nloc, denominator, eps));
  }
  Value rounded(OpBuilder &nb, Location nloc, Value x) {
    Type elementType = op.getValue().getType().getElementType();
    if (elementType == x.getType())
      return x;
    return arith::TruncFOp::create(nb, nloc, elementType, x);
  }

  Value lowerWhole();
  Value lowerChunked(int64_t chunk);
};

/// Not causal: O = scale Q (K^T V) [/ (scale Q z + eps)].
Value LinearLowering::lowerWhole() {
  Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
  SmallVector<OpFoldResult> q = tensor::getMixedSizes(b, loc, query);
  SmallVector<OpFoldResult> k = tensor::getMixedSizes(b, loc, key);
  SmallVector<OpFoldResult> v = tensor::getMixedSizes(b, loc, value);
  // KV[b, g, d, e] = sum_j K[b, g, j, d] V[b, g, j, e]: loops (b, g, d, e, j).
  Value keyValue = createGeneric(
      b, loc, ValueRange{key, value}, zeros({k[0], k[1], k[3], v[3]}),
      {map(5, {0, 1, 4, 2}), map(5, {0, 1, 4, 3}), map(5, {0, 1, 2, 3})},
      {par, par, par, par, red},
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        return multiplyAddF32(nb, nloc, args);
      });
  // Q KV: loops (b, h, i, e, d).
  Value products = createGeneric(
      b, loc, ValueRange{query, keyValue}, zeros({q[0], q[1], q[2], v[3]}),
      {map(5, {0, 1, 2, 4}), map(5, {0, -1, 4, 3}), map(5, {0, 1, 2, 3})},
      {par, par, par, par, red},
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        return multiplyAddF32(nb, nloc, args);
      });
  Value denominators;
  if (op.isNormalized()) {
    // z[b, g, d] = sum_j K[b, g, j, d]: loops (b, g, d, j); then Q z.
    Value keySums = createGeneric(
        b, loc, key, zeros({k[0], k[1], k[3]}),
        {map(4, {0, 1, 3, 2}), map(4, {0, 1, 2})}, {par, par, par, red},
        [](OpBuilder &nb, Location nloc, ValueRange args) {
          return arith::AddFOp::create(nb, nloc, castToF32(nb, nloc, args[0]),
                                       args[1])
              .getResult();
        });
    denominators = createGeneric(
        b, loc, ValueRange{query, keySums}, zeros({q[0], q[1], q[2]}),
        {map(4, {0, 1, 2, 3}), map(4, {0, -1, 3}), map(4, {0, 1, 2})},
        {par, par, par, red},
        [](OpBuilder &nb, Location nloc, ValueRange args) {
          return multiplyAddF32(nb, nloc, args);
        });
  }
  SmallVector<Value> inputs{products};
  SmallVector<AffineMap> maps{map(4, {0, 1, 2, 3})};
  if (denominators) {
    inputs.push_back(denominators);
    maps.push_back(map(4, {0, 1, 2}));
  }
  maps.push_back(map(4, {0, 1, 2, 3}));
  Type elementType = op.getValue().getType().getElementType();
  return createGeneric(
      b, loc, inputs,
      createEmpty(b, loc, {q[0], q[1], q[2], v[3]}, elementType), maps,
      {par, par, par, par}, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value s = scaleValue(nb, nloc);
        Value numerator = arith::MulFOp::create(nb, nloc, args[0], s);
        Value result = numerator;
        if (denominators)
          result = normalized(nb, nloc, numerator,
                              arith::MulFOp::create(nb, nloc, args[1], s));
        return rounded(nb, nloc, result);
      });
}

/// Causal: the walk over chunks of `chunk` rows (see the file header).
Value LinearLowering::lowerChunked(int64_t chunk) {
  Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
  Value decay = op.getDecay();
  bool normalize = op.isNormalized();
  SmallVector<OpFoldResult> q = tensor::getMixedSizes(b, loc, query);
  SmallVector<OpFoldResult> k = tensor::getMixedSizes(b, loc, key);
  SmallVector<OpFoldResult> v = tensor::getMixedSizes(b, loc, value);
  Type elementType = op.getValue().getType().getElementType();
  IndexMath math{b, loc};
  Value length = getValueOrCreateConstantIndexOp(b, loc, q[2]);
  Value step = math.constant(chunk);
  // The state per query head (a decay is per query head).
  Value state = zeros({q[0], q[1], q[3], v[3]});
  Value sums = normalize ? zeros({q[0], q[1], q[3]}) : Value();
  Value output = createEmpty(b, loc, {q[0], q[1], q[2], v[3]}, elementType);
  SmallVector<Value> init{output, state};
  if (normalize)
    init.push_back(sums);

  auto loop = scf::ForOp::create(
      b, loc, math.constant(0), length, step, init,
      [&](OpBuilder &lb, Location lloc, Value row0, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
        IndexMath m{b, lloc};
        Value rows = m.min(step, m.sub(length, row0));
        OpFoldResult rowsFold = rows;
        auto slice = [&](Value source, ArrayRef<OpFoldResult> sizes) {
          SmallVector<OpFoldResult> offsets{
              b.getIndexAttr(0), b.getIndexAttr(0), row0, b.getIndexAttr(0)};
          SmallVector<OpFoldResult> shape{sizes[0], sizes[1], rowsFold,
                                          sizes[3]};
          SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
          return tensor::ExtractSliceOp::create(b, lloc, source, offsets, shape,
                                                strides)
              .getResult();
        };
        Value qc = slice(query, q), kc = slice(key, k), vc = slice(value, v);
        Value state = carried[1];
        Value sums = normalize ? carried[2] : Value();

        // W[b, h, i, j] = scale Q_i K_j gamma^(i - j), 0 for j > i: loops
        // (b, h, i, j, d), then the mask and decay.
        Value raw = createGeneric(
            b, lloc, ValueRange{qc, kc}, zeros({q[0], q[1], rows, rows}),
            {map(5, {0, 1, 2, 4}), map(5, {0, -1, 3, 4}), map(5, {0, 1, 2, 3})},
            {par, par, par, par, red},
            [](OpBuilder &nb, Location nloc, ValueRange args) {
              return multiplyAddF32(nb, nloc, args);
            });
        SmallVector<Value> weightInputs{raw};
        SmallVector<AffineMap> weightMaps{map(4, {0, 1, 2, 3})};
        if (decay) {
          weightInputs.push_back(decay);
          weightMaps.push_back(map(4, {1}));
        }
        weightMaps.push_back(map(4, {0, 1, 2, 3}));
        Value weights = createGeneric(
            b, lloc, weightInputs,
            createEmpty(b, lloc, {q[0], q[1], rows, rows}, f32), weightMaps,
            {par, par, par, par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              Value i = linalg::IndexOp::create(nb, nloc, 2);
              Value j = linalg::IndexOp::create(nb, nloc, 3);
              Value weight = arith::MulFOp::create(nb, nloc, args[0],
                                                   scaleValue(nb, nloc));
              return causalWeight(nb, nloc, weight, decay ? args[1] : Value(),
                                  i, j);
            });
        // Within the chunk, W V: loops (b, h, i, e, j).
        Value inner = createGeneric(
            b, lloc, ValueRange{weights, vc}, zeros({q[0], q[1], rows, v[3]}),
            {map(5, {0, 1, 2, 4}), map(5, {0, -1, 4, 3}), map(5, {0, 1, 2, 3})},
            {par, par, par, par, red},
            [](OpBuilder &nb, Location nloc, ValueRange args) {
              return multiplyAddF32(nb, nloc, args);
            });
        // Before the chunk, Q S: loops (b, h, i, e, d).
        Value outer = createGeneric(
            b, lloc, ValueRange{qc, state}, zeros({q[0], q[1], rows, v[3]}),
            {map(5, {0, 1, 2, 4}), map(5, {0, 1, 4, 3}), map(5, {0, 1, 2, 3})},
            {par, par, par, par, red},
            [](OpBuilder &nb, Location nloc, ValueRange args) {
              return multiplyAddF32(nb, nloc, args);
            });
        Value innerSums, outerSums;
        if (normalize) {
          innerSums = createGeneric(
              b, lloc, weights, zeros({q[0], q[1], rows}),
              {map(4, {0, 1, 2, 3}), map(4, {0, 1, 2})}, {par, par, par, red},
              [](OpBuilder &nb, Location nloc, ValueRange args) {
                return arith::AddFOp::create(nb, nloc, args[0], args[1])
                    .getResult();
              });
          outerSums = createGeneric(
              b, lloc, ValueRange{qc, sums}, zeros({q[0], q[1], rows}),
              {map(4, {0, 1, 2, 3}), map(4, {0, 1, 3}), map(4, {0, 1, 2})},
              {par, par, par, red},
              [](OpBuilder &nb, Location nloc, ValueRange args) {
                return multiplyAddF32(nb, nloc, args);
              });
        }
        // O_i = inner + scale gamma^(i + 1) outer, normalized, rounded.
        SmallVector<Value> combineInputs{inner, outer};
        SmallVector<AffineMap> combineMaps{map(4, {0, 1, 2, 3}),
                                           map(4, {0, 1, 2, 3})};
        if (normalize) {
          combineInputs.append({innerSums, outerSums});
          combineMaps.append({map(4, {0, 1, 2}), map(4, {0, 1, 2})});
        }
        if (decay) {
          combineInputs.push_back(decay);
          combineMaps.push_back(map(4, {1}));
        }
        combineMaps.push_back(map(4, {0, 1, 2, 3}));
        Value chunkOut = createGeneric(
            b, lloc, combineInputs,
            createEmpty(b, lloc, {q[0], q[1], rows, v[3]}, elementType),
            combineMaps, {par, par, par, par},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              Value gamma = decay ? args.drop_back().back() : Value();
              Value i = linalg::IndexOp::create(nb, nloc, 2);
              Value since = arith::AddIOp::create(
                  nb, nloc, i, arith::ConstantIndexOp::create(nb, nloc, 1));
              Value carry =
                  arith::MulFOp::create(nb, nloc, scaleValue(nb, nloc),
                                        power(nb, nloc, gamma, since));
              Value numerator = arith::AddFOp::create(
                  nb, nloc, args[0],
                  arith::MulFOp::create(nb, nloc, carry, args[1]));
              Value result = numerator;
              if (normalize)
                result = normalized(
                    nb, nloc, numerator,
                    arith::AddFOp::create(
                        nb, nloc, args[2],
                        arith::MulFOp::create(nb, nloc, carry, args[3])));
              return rounded(nb, nloc, result);
            });
        SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), b.getIndexAttr(0),
                                          row0, b.getIndexAttr(0)};
        SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
        Value nextOutput = tensor::InsertSliceOp::create(
            b, lloc, chunkOut, carried[0], offsets,
            SmallVector<OpFoldResult>{q[0], q[1], rowsFold, v[3]}, strides);

        // The state after the chunk: gamma^rows S + sum_j gamma^(rows - 1 -
        // j) K_j^T V_j, per query head: loops (b, h, d, e, j).
        auto decayed = [&](Value carriedState, unsigned rank) -> Value {
          if (!decay)
            return carriedState;
          SmallVector<int64_t> all;
          for (unsigned dim = 0; dim < rank; ++dim)
            all.push_back(dim);
          // In place (the carried tensor is the generic's init), so that
          // the loop's state bufferizes to one buffer.
          return createGeneric(
              b, lloc, ValueRange{decay}, carriedState,
              {map(rank, {1}), map(rank, all)},
              SmallVector<IteratorType>(rank, par),
              [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
                return arith::MulFOp::create(nb, nloc, args[1],
                                             power(nb, nloc, args[0], rows));
              });
        };
        auto keyWeight = [&](OpBuilder &nb, Location nloc, ValueRange args,
                             unsigned jDim) -> Value {
          Value keyElement = castToF32(nb, nloc, args[0]);
          if (!decay)
            return keyElement;
          Value j = linalg::IndexOp::create(nb, nloc, jDim);
          Value remaining = arith::SubIOp::create(
              nb, nloc,
              arith::SubIOp::create(
                  nb, nloc, rows, arith::ConstantIndexOp::create(nb, nloc, 1)),
              j);
          return arith::MulFOp::create(nb, nloc, keyElement,
                                       power(nb, nloc, args.back(), remaining));
        };
        SmallVector<Value> stateInputs{kc, vc};
        SmallVector<AffineMap> stateMaps{map(5, {0, -1, 4, 2}),
                                         map(5, {0, -1, 4, 3})};
        if (decay) {
          stateInputs.push_back(decay);
          stateMaps.push_back(map(5, {1}));
        }
        stateMaps.push_back(map(5, {0, 1, 2, 3}));
        Value nextState = createGeneric(
            b, lloc, stateInputs, decayed(state, 4), stateMaps,
            {par, par, par, par, red},
            [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
              Value weighted = keyWeight(
                  nb, nloc,
                  decay ? ValueRange{args[0], args[2]} : args.take_front(1), 4);
              Value product = arith::MulFOp::create(
                  nb, nloc, weighted, castToF32(nb, nloc, args[1]));
              return arith::AddFOp::create(nb, nloc, args.back(), product);
            });
        SmallVector<Value> next{nextOutput, nextState};
        if (normalize) {
          // z after the chunk: loops (b, h, d, j).
          SmallVector<Value> sumInputs{kc};
          SmallVector<AffineMap> sumMaps{map(4, {0, -1, 3, 2})};
          if (decay) {
            sumInputs.push_back(decay);
            sumMaps.push_back(map(4, {1}));
          }
          sumMaps.push_back(map(4, {0, 1, 2}));
          next.push_back(createGeneric(
              b, lloc, sumInputs, decayed(sums, 3), sumMaps,
              {par, par, par, red},
              [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
                Value weighted = keyWeight(nb, nloc, args.drop_back(), 3);
                return arith::AddFOp::create(nb, nloc, args.back(), weighted);
              }));
        }
        scf::YieldOp::create(b, lloc, next);
      });
  return loop.getResult(0);
}

} // namespace

LogicalResult mlir::fa::lowerLinearAttention(RewriterBase &rewriter,
                                             LinearAttentionOp op,
                                             int64_t defaultChunk) {
  FailureOr<int64_t> group = staticGroupSize(op);
  if (failed(group))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  LinearLowering lowering{op,
                          rewriter,
                          op.getLoc(),
                          op.getContext(),
                          *group,
                          rewriter.getF32Type(),
                          static_cast<float>(op.getScale().convertToDouble())};
  int64_t chunk = op.getChunkAttr() ? op.getChunkAttr().getInt() : defaultChunk;
  Value result =
      op.getCausal() ? lowering.lowerChunked(chunk) : lowering.lowerWhole();
  if (result.getType() != op.getType())
    result =
        tensor::CastOp::create(rewriter, op.getLoc(), op.getType(), result);
  rewriter.replaceOp(op, result);
  return success();
}

namespace {

struct FALowerLinearAttentionPass
    : fa::impl::FALowerLinearAttentionBase<FALowerLinearAttentionPass> {
  using FALowerLinearAttentionBase::FALowerLinearAttentionBase;

  void runOnOperation() override {
    if (chunk < 1) {
      getOperation()->emitError() << "fa-lower-linear-attention: chunk must "
                                     "be at least 1, got "
                                  << static_cast<int64_t>(chunk);
      return signalPassFailure();
    }
    SmallVector<LinearAttentionOp> ops;
    getOperation()->walk([&](LinearAttentionOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (LinearAttentionOp op : ops)
      if (failed(lowerLinearAttention(rewriter, op, chunk)))
        return signalPassFailure();
  }
};

} // namespace
