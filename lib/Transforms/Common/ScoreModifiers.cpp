//===- ScoreModifiers.cpp - score_mod, mask_mod and sinks -----------------===//
//
// Stage: shared by every lowering. See ScoreModifiers.h.
//
//===----------------------------------------------------------------------===//

#include "Common/ScoreModifiers.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fa;

namespace {
/// inlineModifier's work: the clones' values stay in `mapping`.
Value inlineInto(OpBuilder &b, Block *block, ValueRange args,
                 const IRMapping *captures, IRMapping &mapping) {
  if (captures)
    mapping = *captures;
  for (auto [argument, value] : llvm::zip_equal(block->getArguments(), args))
    mapping.map(argument, value);
  for (Operation &inner : block->without_terminator()) {
    // A captured tensor that is a buffer where the region is inlined (a
    // kernel's): its reads become loads.
    if (auto extract = dyn_cast<tensor::ExtractOp>(inner)) {
      Value source = mapping.lookupOrDefault(extract.getTensor());
      if (isa<MemRefType>(source.getType())) {
        SmallVector<Value> indices;
        for (Value index : extract.getIndices())
          indices.push_back(mapping.lookupOrDefault(index));
        Value loaded =
            memref::LoadOp::create(b, extract.getLoc(), source, indices);
        mapping.map(extract.getResult(), loaded);
        continue;
      }
    }
    b.clone(inner, mapping);
  }
  auto yield = cast<YieldOp>(block->getTerminator());
  return mapping.lookupOrDefault(yield.getValue());
}
} // namespace

Value mlir::fa::inlineModifier(OpBuilder &b, Block *block, ValueRange args,
                               const IRMapping *captures) {
  IRMapping mapping;
  return inlineInto(b, block, args, captures, mapping);
}

FailureOr<std::pair<Value, Value>>
mlir::fa::differentiateScoreMod(OpBuilder &b, Block *block, ValueRange args,
                                const IRMapping *captures) {
  IRMapping mapping;
  Value result = inlineInto(b, block, args, captures, mapping);
  // Forward mode: the derivative in the score of every value the score
  // reaches, built after the clones from their values. Null: no
  // dependence (a derivative of 0).
  DenseMap<Value, Value> derivative;
  Location loc = block->getParentOp()->getLoc();
  derivative[block->getArgument(0)] =
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0));
  for (Operation &inner : block->without_terminator()) {
    auto d = [&](Value original) { return derivative.lookup(original); };
    if (llvm::none_of(inner.getOperands(), d) || inner.getNumResults() != 1 ||
        !isa<FloatType>(inner.getResult(0).getType()))
      continue; // a constant in the score, or an integer or i1
    Value out = mapping.lookup(inner.getResult(0));
    Type type = out.getType();
    auto value = [&](unsigned i) {
      return mapping.lookupOrDefault(inner.getOperand(i));
    };
    auto constant = [&](double c) -> Value {
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, c));
    };
    auto orZero = [&](Value v) { return v ? v : constant(0.0); };
    auto add = [&](Value x, Value y) -> Value {
      if (!x || !y)
        return x ? x : y;
      return arith::AddFOp::create(b, loc, x, y);
    };
    auto mul = [&](Value x, Value y) -> Value {
      if (!x || !y)
        return Value();
      return arith::MulFOp::create(b, loc, x, y);
    };
    auto div = [&](Value x, Value y) -> Value {
      return x ? arith::DivFOp::create(b, loc, x, y).getResult() : Value();
    };
    auto neg = [&](Value x) -> Value {
      return x ? arith::NegFOp::create(b, loc, x).getResult() : Value();
    };
    auto pick = [&](Value condition, Value x, Value y) -> Value {
      return arith::SelectOp::create(b, loc, condition, orZero(x), orZero(y));
    };
    auto compare = [&](arith::CmpFPredicate predicate, Value x, Value y) {
      return arith::CmpFOp::create(b, loc, predicate, x, y).getResult();
    };
    Value x = d(inner.getOperand(0));
    Value y = inner.getNumOperands() > 1 ? d(inner.getOperand(1)) : Value();
    Value dOut =
        llvm::TypeSwitch<Operation *, Value>(&inner)
            .Case([&](arith::AddFOp) { return add(x, y); })
            .Case([&](arith::SubFOp) { return add(x, neg(y)); })
            .Case([&](arith::MulFOp) {
              return add(mul(x, value(1)), mul(value(0), y));
            })
            .Case([&](arith::DivFOp) {
              // (x' - out y') / b
              return div(add(x, neg(mul(out, y))), value(1));
            })
            .Case([&](arith::NegFOp) { return neg(x); })
            .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](Operation *) {
              return pick(
                  compare(arith::CmpFPredicate::OGE, value(0), value(1)), x, y);
            })
            .Case<arith::MinimumFOp, arith::MinNumFOp>([&](Operation *) {
              return pick(
                  compare(arith::CmpFPredicate::OLE, value(0), value(1)), x, y);
            })
            .Case([&](arith::SelectOp select) {
              return pick(value(0), d(select.getTrueValue()),
                          d(select.getFalseValue()));
            })
            .Case([&](arith::ExtFOp) {
              return arith::ExtFOp::create(b, loc, type, x).getResult();
            })
            .Case([&](arith::TruncFOp) {
              return arith::TruncFOp::create(b, loc, type, x).getResult();
            })
            .Case([&](math::FmaOp) {
              Value z = d(inner.getOperand(2));
              return add(add(mul(x, value(1)), mul(value(0), y)), z);
            })
            .Case([&](math::TanhOp) {
              return mul(x, arith::SubFOp::create(b, loc, constant(1.0),
                                                  mul(out, out)));
            })
            .Case([&](math::ExpOp) { return mul(x, out); })
            .Case(
                [&](math::Exp2Op) { return mul(x, mul(out, constant(M_LN2))); })
            .Case(
                [&](math::ExpM1Op) { return mul(x, add(out, constant(1.0))); })
            .Case([&](math::LogOp) { return div(x, value(0)); })
            .Case([&](math::Log2Op) {
              return div(x, mul(value(0), constant(M_LN2)));
            })
            .Case([&](math::Log1pOp) {
              return div(x, add(value(0), constant(1.0)));
            })
            .Case([&](math::SqrtOp) { return div(x, mul(out, constant(2.0))); })
            .Case([&](math::RsqrtOp) {
              // -r^3 / 2
              return mul(x, mul(mul(out, mul(out, out)), constant(-0.5)));
            })
            .Case([&](math::AbsFOp) {
              return pick(
                  compare(arith::CmpFPredicate::OLT, value(0), constant(0.0)),
                  neg(x), x);
            })
            .Default([](Operation *) { return Value(); });
    if (!dOut)
      return inner.emitOpError()
             << "has no derivative rule in the score (fa.attention_backward's "
                "verifier admits only ops with one)";
    derivative[inner.getResult(0)] = dOut;
  }
  Value slope =
      derivative.lookup(cast<YieldOp>(block->getTerminator()).getValue());
  if (!slope) // the result does not depend on the score
    slope = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  return std::make_pair(result, slope);
}

void mlir::fa::applyScoreModifiers(MaskedScore &score, IndexMath &math,
                                   AttentionOpInterface op, Value batch,
                                   Value head, Value row, Value col,
                                   const IRMapping *captures, bool withMaskMod,
                                   Value *slope) {
  if (Block *scoreMod = op.getScoreModBlock())
    score.modifyScore([&](Value scaled) {
      // An array, not a ValueRange of a braced list: that range would point
      // into a temporary that is gone after this statement (a Clang build
      // crashed on every score_mod here).
      Value args[] = {scaled, batch, head, row, col};
      if (!slope)
        return inlineModifier(math.b, scoreMod, args, captures);
      // The verifier admits only differentiable regions into
      // fa.attention_backward; an op without a rule has been reported,
      // and its slope is NaN rather than a silent 0.
      FailureOr<std::pair<Value, Value>> modified =
          differentiateScoreMod(math.b, scoreMod, args, captures);
      if (failed(modified)) {
        *slope = arith::ConstantOp::create(
            math.b, math.loc, math.b.getF32FloatAttr(std::nan("")));
        return inlineModifier(math.b, scoreMod, args, captures);
      }
      *slope = modified->second;
      return modified->first;
    });
  Block *maskMod = op.getMaskModBlock();
  if (maskMod && withMaskMod)
    score.require(inlineModifier(math.b, maskMod,
                                 ValueRange{batch, head, row, col}, captures));
}

Value mlir::fa::throughScoreMod(OpBuilder &b, Location loc, Value gradScore,
                                Value slope) {
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value none =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, gradScore, zero);
  Value chained = arith::MulFOp::create(b, loc, gradScore, slope);
  return arith::SelectOp::create(b, loc, none, zero, chained);
}

SmallVector<Value> mlir::fa::capturedTensors(AttentionOpInterface op) {
  llvm::SetVector<Value> captured;
  for (Block *block : {op.getScoreModBlock(), op.getMaskModBlock()}) {
    if (!block)
      continue;
    for (Operation &inner : *block)
      for (Value operand : inner.getOperands())
        if (isa<RankedTensorType>(operand.getType()) &&
            operand.getParentRegion() != block->getParent())
          captured.insert(operand);
  }
  return captured.takeVector();
}

Value mlir::fa::sinkLogit(IndexMath &math, Value sinks, Value head) {
  Value element;
  if (isa<MemRefType>(sinks.getType()))
    element = memref::LoadOp::create(math.b, math.loc, sinks, head);
  else
    element = tensor::ExtractOp::create(math.b, math.loc, sinks, head);
  return castToF32(math.b, math.loc, element);
}
