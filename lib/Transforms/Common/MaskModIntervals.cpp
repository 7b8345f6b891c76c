//===- MaskModIntervals.cpp - Which tiles a mask_mod hides ----------------===//
//
// Stage: shared by the tiled lowering and the tile report. See
// MaskModIntervals.h.
//
//===----------------------------------------------------------------------===//

#include "Common/MaskModIntervals.h"

#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::fa;

namespace {

/// A bound: a compile-time integer, or an SSA value (index for integers,
/// i1 for truth values), or neither (nothing known).
struct Bound {
  std::optional<int64_t> known;
  Value value;
  bool exists() const { return known.has_value() || value; }
  bool operator==(const Bound &other) const {
    return exists() && other.exists() &&
           (known ? other.known == known : value == other.value);
  }
};

/// What the evaluation knows of one SSA value of the region: an integer in
/// [lo, hi], or a truth value that can be true (`canTrue`) and can be false
/// (`canFalse`), or nothing.
struct Abstract {
  enum class Kind { Unknown, Int, Bool } kind = Kind::Unknown;
  Bound lo, hi;
  Bound canTrue, canFalse;

  static Abstract integer(Bound lo, Bound hi) {
    if (!lo.exists() || !hi.exists())
      return {};
    Abstract a;
    a.kind = Kind::Int;
    a.lo = lo;
    a.hi = hi;
    return a;
  }
  static Abstract truth(Bound canTrue, Bound canFalse) {
    if (!canTrue.exists() || !canFalse.exists())
      return {};
    Abstract a;
    a.kind = Kind::Bool;
    a.canTrue = canTrue;
    a.canFalse = canFalse;
    return a;
  }
  bool exact() const { return kind == Kind::Int && lo == hi; }
};

class IntervalEvaluator {
public:
  IntervalEvaluator(OpBuilder *b, Location loc, const IRMapping *captures)
      : b(b), loc(loc), captures(captures) {}

  /// (canTrue, canFalse) of the block's yield, the arguments bound to
  /// `arguments`.
  std::pair<Bound, Bound> run(Block *block, ArrayRef<Abstract> arguments);

  Bound known(int64_t value) { return Bound{value, Value()}; }
  Bound ofValue(Value value) { return Bound{std::nullopt, value}; }

private:
  OpBuilder *b;
  Location loc;
  const IRMapping *captures;
  llvm::DenseMap<Value, Abstract> values;

  Abstract lookup(Value value) {
    auto it = values.find(value);
    return it == values.end() ? Abstract() : it->second;
  }

  Value materialize(const Bound &bound, Type type) {
    if (bound.value)
      return bound.value;
    if (type.isInteger(1))
      return arith::ConstantIntOp::create(*b, loc, *bound.known != 0, 1);
    return arith::ConstantIndexOp::create(*b, loc, *bound.known);
  }
  /// Combines two index bounds: `fold` on constants, else `build` emits.
  template <typename Fold, typename Build>
  Bound combine(const Bound &x, const Bound &y, Fold fold, Build build) {
    if (!x.exists() || !y.exists())
      return {};
    if (x.known && y.known)
      return known(fold(*x.known, *y.known));
    if (!b)
      return {};
    Type index = b->getIndexType();
    return ofValue(build(materialize(x, index), materialize(y, index)));
  }
  Bound add(const Bound &x, const Bound &y) {
    return combine(
        x, y, [](int64_t p, int64_t q) { return p + q; },
        [&](Value p, Value q) { return arith::AddIOp::create(*b, loc, p, q); });
  }
  Bound sub(const Bound &x, const Bound &y) {
    return combine(
        x, y, [](int64_t p, int64_t q) { return p - q; },
        [&](Value p, Value q) { return arith::SubIOp::create(*b, loc, p, q); });
  }
  Bound mul(const Bound &x, int64_t factor) {
    return combine(
        x, known(factor), [](int64_t p, int64_t q) { return p * q; },
        [&](Value p, Value q) { return arith::MulIOp::create(*b, loc, p, q); });
  }
  Bound min(const Bound &x, const Bound &y) {
    return combine(
        x, y, [](int64_t p, int64_t q) { return std::min(p, q); },
        [&](Value p, Value q) {
          return arith::MinSIOp::create(*b, loc, p, q);
        });
  }
  Bound max(const Bound &x, const Bound &y) {
    return combine(
        x, y, [](int64_t p, int64_t q) { return std::max(p, q); },
        [&](Value p, Value q) {
          return arith::MaxSIOp::create(*b, loc, p, q);
        });
  }
  /// x < y and x <= y, as i1 bounds.
  Bound less(const Bound &x, const Bound &y, bool orEqual) {
    if (!x.exists() || !y.exists())
      return {};
    if (x.known && y.known)
      return known(orEqual ? *x.known <= *y.known : *x.known < *y.known);
    if (!b)
      return {};
    Type index = b->getIndexType();
    return ofValue(arith::CmpIOp::create(
        *b, loc,
        orEqual ? arith::CmpIPredicate::sle : arith::CmpIPredicate::slt,
        materialize(x, index), materialize(y, index)));
  }
  /// Truth-value connectives on i1 bounds.
  Bound logic(const Bound &x, const Bound &y, bool isAnd) {
    if (!x.exists() || !y.exists())
      return {};
    if (x.known && y.known)
      return known(isAnd ? (*x.known && *y.known) : (*x.known || *y.known));
    // A known side decides or drops out.
    for (auto [one, other] : {std::pair{x, y}, std::pair{y, x}})
      if (one.known)
        return (*one.known != 0) == isAnd ? other : known(!isAnd);
    if (!b)
      return {};
    if (isAnd)
      return ofValue(arith::AndIOp::create(*b, loc, x.value, y.value));
    return ofValue(arith::OrIOp::create(*b, loc, x.value, y.value));
  }
  Bound negate(const Bound &x) {
    if (x.known)
      return known(!*x.known);
    if (!x.value || !b)
      return {};
    Value one = arith::ConstantIntOp::create(*b, loc, 1, 1);
    return ofValue(arith::XOrIOp::create(*b, loc, x.value, one));
  }

  Abstract compare(arith::CmpIPredicate predicate, const Abstract &x,
                   const Abstract &y);
  Abstract extract(tensor::ExtractOp op);
  Abstract evaluate(Operation &op);
};

/// For x < y: can be true iff x.lo < y.hi; can be false iff x.hi >= y.lo.
Abstract IntervalEvaluator::compare(arith::CmpIPredicate predicate,
                                    const Abstract &x, const Abstract &y) {
  if (x.kind != Abstract::Kind::Int || y.kind != Abstract::Kind::Int)
    return {};
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::slt:
    return Abstract::truth(less(x.lo, y.hi, false), less(y.lo, x.hi, true));
  case P::sle:
    return Abstract::truth(less(x.lo, y.hi, true), less(y.lo, x.hi, false));
  case P::sgt:
    return compare(P::slt, y, x);
  case P::sge:
    return compare(P::sle, y, x);
  case P::eq:
  case P::ne: {
    // Equal is possible where the intervals overlap; unequal unless both
    // are the same single value.
    Bound overlap = logic(less(x.lo, y.hi, true), less(y.lo, x.hi, true),
                          /*isAnd=*/true);
    Bound single = logic(
        logic(less(x.hi, x.lo, true), less(y.hi, y.lo, true), true),
        logic(less(x.lo, y.lo, true), less(y.lo, x.lo, true), true), true);
    Bound unequal = negate(single);
    return predicate == P::eq ? Abstract::truth(overlap, unequal)
                              : Abstract::truth(unequal, overlap);
  }
  default:
    return {}; // unsigned comparisons: positions may be bounded below 0
  }
}

/// tensor[i0, ..., in] with every index exact but one, which ranges over
/// [lo, hi]: the tensor's min and max over that range. Integer tensors only.
Abstract IntervalEvaluator::extract(tensor::ExtractOp op) {
  auto type = op.getTensor().getType();
  if (!type.getElementType().isSignlessInteger() || !type.hasStaticShape())
    return {};
  SmallVector<Abstract> indices;
  int64_t varying = -1;
  for (auto [dim, index] : llvm::enumerate(op.getIndices())) {
    Abstract a = lookup(index);
    if (a.kind != Abstract::Kind::Int)
      return {};
    if (!a.exact()) {
      if (varying >= 0)
        return {};
      varying = dim;
    }
    indices.push_back(a);
  }
  if (!b) {
    // Compile time: a constant tensor, constant indices.
    DenseElementsAttr values;
    if (!matchPattern(op.getTensor(), m_Constant(&values)))
      return {};
    SmallVector<uint64_t> at;
    for (const Abstract &a : indices) {
      if (!a.lo.known || !a.hi.known)
        return {};
      at.push_back(*a.lo.known);
    }
    int64_t first = varying < 0 ? 0 : *indices[varying].lo.known;
    int64_t last = varying < 0 ? 0 : *indices[varying].hi.known;
    int64_t extent = varying < 0 ? 1 : type.getDimSize(varying);
    first = std::max<int64_t>(first, 0);
    last = std::min<int64_t>(last, extent - 1);
    if (first > last)
      return {};
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t i = first; i <= last; ++i) {
      if (varying >= 0)
        at[varying] = i;
      int64_t element = values.getValues<APInt>()[at].getSExtValue();
      lo = std::min(lo, element);
      hi = std::max(hi, element);
    }
    return Abstract::integer(known(lo), known(hi));
  }
  Value source = op.getTensor();
  if (captures)
    source = captures->lookupOrDefault(source);
  Type index = b->getIndexType();
  SmallVector<Value> at;
  for (const Abstract &a : indices)
    at.push_back(materialize(a.lo, index));
  auto load = [&](OpBuilder &lb, Location lloc, ValueRange where) -> Value {
    Value element =
        isa<MemRefType>(source.getType())
            ? memref::LoadOp::create(lb, lloc, source, where).getResult()
            : tensor::ExtractOp::create(lb, lloc, source, where).getResult();
    return arith::IndexCastOp::create(lb, lloc, lb.getIndexType(), element);
  };
  if (varying < 0) {
    Value element = load(*b, loc, at);
    return Abstract::integer(ofValue(element), ofValue(element));
  }
  // min and max over [lo, hi] (within the tensor).
  Value first = materialize(indices[varying].lo, index);
  Value last = materialize(indices[varying].hi, index);
  Value zero = arith::ConstantIndexOp::create(*b, loc, 0);
  Value one = arith::ConstantIndexOp::create(*b, loc, 1);
  Value extent =
      arith::ConstantIndexOp::create(*b, loc, type.getDimSize(varying) - 1);
  first = arith::MinSIOp::create(
      *b, loc, arith::MaxSIOp::create(*b, loc, first, zero), extent);
  last = arith::MinSIOp::create(*b, loc, last, extent);
  Value end = arith::AddIOp::create(*b, loc, last, one);
  at[varying] = first;
  Value seed = load(*b, loc, at);
  auto loop = scf::ForOp::create(
      *b, loc, first, end, one, ValueRange{seed, seed},
      [&](OpBuilder &lb, Location lloc, Value i, ValueRange minMax) {
        SmallVector<Value> where = at;
        where[varying] = i;
        Value element = load(lb, lloc, where);
        Value lo = arith::MinSIOp::create(lb, lloc, minMax[0], element);
        Value hi = arith::MaxSIOp::create(lb, lloc, minMax[1], element);
        scf::YieldOp::create(lb, lloc, ValueRange{lo, hi});
      });
  return Abstract::integer(ofValue(loop.getResult(0)),
                           ofValue(loop.getResult(1)));
}

Abstract IntervalEvaluator::evaluate(Operation &op) {
  auto operand = [&](unsigned i) { return lookup(op.getOperand(i)); };
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto integer = dyn_cast<IntegerAttr>(constant.getValue())) {
      if (integer.getType().isInteger(1))
        return Abstract::truth(known(integer.getInt() != 0),
                               known(integer.getInt() == 0));
      return Abstract::integer(known(integer.getInt()),
                               known(integer.getInt()));
    }
    return {};
  }
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
    return operand(0);
  if (isa<arith::AddIOp>(op)) {
    Abstract x = operand(0), y = operand(1);
    if (x.kind != Abstract::Kind::Int || y.kind != Abstract::Kind::Int)
      return {};
    return Abstract::integer(add(x.lo, y.lo), add(x.hi, y.hi));
  }
  if (isa<arith::SubIOp>(op)) {
    Abstract x = operand(0), y = operand(1);
    if (x.kind != Abstract::Kind::Int || y.kind != Abstract::Kind::Int)
      return {};
    return Abstract::integer(sub(x.lo, y.hi), sub(x.hi, y.lo));
  }
  if (isa<arith::MulIOp>(op)) {
    Abstract x = operand(0), y = operand(1);
    if (y.kind == Abstract::Kind::Int && !y.lo.known)
      std::swap(x, y);
    if (x.kind != Abstract::Kind::Int || !y.exact() || !y.lo.known)
      return {};
    int64_t factor = *y.lo.known;
    if (factor >= 0)
      return Abstract::integer(mul(x.lo, factor), mul(x.hi, factor));
    return Abstract::integer(mul(x.hi, factor), mul(x.lo, factor));
  }
  if (isa<arith::MinSIOp, arith::MaxSIOp>(op)) {
    Abstract x = operand(0), y = operand(1);
    if (x.kind != Abstract::Kind::Int || y.kind != Abstract::Kind::Int)
      return {};
    if (isa<arith::MinSIOp>(op))
      return Abstract::integer(min(x.lo, y.lo), min(x.hi, y.hi));
    return Abstract::integer(max(x.lo, y.lo), max(x.hi, y.hi));
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return compare(cmp.getPredicate(), operand(0), operand(1));
  if (isa<arith::AndIOp, arith::OrIOp>(op) &&
      op.getResult(0).getType().isInteger(1)) {
    Abstract x = operand(0), y = operand(1);
    if (x.kind != Abstract::Kind::Bool || y.kind != Abstract::Kind::Bool)
      return {};
    bool isAnd = isa<arith::AndIOp>(op);
    // and: true needs both able to be true; false needs either able.
    return Abstract::truth(logic(x.canTrue, y.canTrue, isAnd),
                           logic(x.canFalse, y.canFalse, !isAnd));
  }
  if (isa<arith::XOrIOp>(op) && op.getResult(0).getType().isInteger(1)) {
    Abstract x = operand(0), y = operand(1);
    // Negation: xor with true.
    for (auto [value, mask] : {std::pair{x, y}, std::pair{y, x}})
      if (value.kind == Abstract::Kind::Bool &&
          mask.kind == Abstract::Kind::Bool && mask.canFalse.known &&
          *mask.canFalse.known == 0)
        return Abstract::truth(value.canFalse, value.canTrue);
    return {};
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    Abstract c = operand(0), x = operand(1), y = operand(2);
    if (c.kind != Abstract::Kind::Bool)
      return {};
    if (x.kind == Abstract::Kind::Int && y.kind == Abstract::Kind::Int)
      return Abstract::integer(min(x.lo, y.lo), max(x.hi, y.hi));
    if (x.kind == Abstract::Kind::Bool && y.kind == Abstract::Kind::Bool)
      return Abstract::truth(logic(logic(c.canTrue, x.canTrue, true),
                                   logic(c.canFalse, y.canTrue, true), false),
                             logic(logic(c.canTrue, x.canFalse, true),
                                   logic(c.canFalse, y.canFalse, true), false));
    return {};
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op))
    return this->extract(extract);
  return {};
}

std::pair<Bound, Bound> IntervalEvaluator::run(Block *block,
                                               ArrayRef<Abstract> arguments) {
  for (auto [argument, abstract] :
       llvm::zip_equal(block->getArguments(), arguments))
    values[argument] = abstract;
  for (Operation &op : block->without_terminator()) {
    if (op.getNumResults() != 1)
      continue;
    values[op.getResult(0)] = evaluate(op);
  }
  Abstract result = lookup(cast<YieldOp>(block->getTerminator()).getValue());
  if (result.kind != Abstract::Kind::Bool)
    return {};
  return {result.canTrue, result.canFalse};
}

} // namespace

TileVisibility mlir::fa::emitTileVisibility(OpBuilder &b, Location loc,
                                            Block *block,
                                            ArrayRef<PositionRange> ranges,
                                            const IRMapping *captures) {
  IntervalEvaluator evaluator(&b, loc, captures);
  SmallVector<Abstract> arguments;
  for (const PositionRange &range : ranges)
    arguments.push_back(Abstract::integer(evaluator.ofValue(range.first),
                                          evaluator.ofValue(range.last)));
  auto [canTrue, canFalse] = evaluator.run(block, arguments);
  if (!canTrue.exists() || !canFalse.exists())
    return {};
  auto asValue = [&](const Bound &bound) -> Value {
    if (bound.value)
      return bound.value;
    return arith::ConstantIntOp::create(b, loc, *bound.known != 0, 1);
  };
  Value allVisible = asValue(canFalse);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 1);
  allVisible = arith::XOrIOp::create(b, loc, allVisible, one);
  return {asValue(canTrue), allVisible};
}

std::optional<std::pair<bool, bool>>
mlir::fa::staticTileVisibility(Block *block,
                               ArrayRef<std::pair<int64_t, int64_t>> ranges) {
  IntervalEvaluator evaluator(nullptr, block->getParentOp()->getLoc(), nullptr);
  SmallVector<Abstract> arguments;
  for (auto [first, last] : ranges)
    arguments.push_back(
        Abstract::integer(evaluator.known(first), evaluator.known(last)));
  auto [canTrue, canFalse] = evaluator.run(block, arguments);
  if (!canTrue.known || !canFalse.known)
    return std::nullopt;
  return std::pair<bool, bool>{*canTrue.known != 0, *canFalse.known == 0};
}

std::pair<Value, Value> mlir::fa::narrowWalk(OpBuilder &b, Location loc,
                                             Block *block,
                                             ArrayRef<PositionRange> ranges,
                                             unsigned walked, Value first,
                                             Value end, int64_t step,
                                             const IRMapping *captures) {
  Value stepValue = arith::ConstantIndexOp::create(b, loc, step);
  bool proved = true;
  auto scan = scf::ForOp::create(
      b, loc, first, end, stepValue, ValueRange{end, first},
      [&](OpBuilder &lb, Location lloc, Value start, ValueRange bounds) {
        Value stop = arith::MinSIOp::create(
            lb, lloc, arith::AddIOp::create(lb, lloc, start, stepValue), end);
        Value last = arith::SubIOp::create(
            lb, lloc, stop, arith::ConstantIndexOp::create(lb, lloc, 1));
        SmallVector<PositionRange> stepRanges(ranges);
        stepRanges[walked] = {start, last};
        TileVisibility visibility =
            emitTileVisibility(lb, lloc, block, stepRanges, captures);
        if (!visibility.someVisible) {
          proved = false;
          scf::YieldOp::create(lb, lloc, bounds);
          return;
        }
        // Ascending: the first visible step sets the start, the last the
        // end.
        Value seen = visibility.someVisible;
        Value newFirst = arith::SelectOp::create(
            lb, lloc, seen, arith::MinSIOp::create(lb, lloc, bounds[0], start),
            bounds[0]);
        Value newEnd = arith::SelectOp::create(lb, lloc, seen, stop, bounds[1]);
        scf::YieldOp::create(lb, lloc, ValueRange{newFirst, newEnd});
      });
  if (!proved) {
    scan.erase();
    return {first, end};
  }
  // No visible step: first = end and end = first, an empty walk.
  Value narrowedFirst = scan.getResult(0);
  return {narrowedFirst,
          arith::MaxSIOp::create(b, loc, scan.getResult(1), narrowedFirst)};
}
