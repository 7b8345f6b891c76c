//===- FAOps.cpp - Operations of the fa dialect ---------------------------===//
//
// The verifiers of fa.attention and fa.attention_backward, which share their
// input checks. Every rejection names the operand and states
// the expected versus the actual shape or type, because the op is written by
// passes (the recognizer) as often as by people, and both need to know which
// relation broke.
//
//===----------------------------------------------------------------------===//

#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fa;

#include "fa/Dialect/FA/IR/FAInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "fa/Dialect/FA/IR/FAOps.cpp.inc"

/// A dimension size as written in IR: a number, or `?` when dynamic.
static std::string formatDim(int64_t size) {
  return ShapedType::isDynamic(size) ? "?" : std::to_string(size);
}

static bool areCompatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

static bool isSupportedInputElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32();
}

int64_t AttentionOp::getKeyHeads() {
  return getKey().getType().getDimSize(getKeyHeadsDim());
}

int64_t AttentionOp::getKeyLength() {
  auto keyType = cast<RankedTensorType>(getKey().getType());
  if (!isPaged())
    return keyType.getDimSize(2);
  int64_t pages = cast<RankedTensorType>(getPageTable().getType()).getDimSize(1);
  int64_t slots = keyType.getDimSize(1);
  if (ShapedType::isDynamic(pages) || ShapedType::isDynamic(slots))
    return ShapedType::kDynamic;
  return pages * slots;
}

/// Hq / Hkv, or kDynamic when either is dynamic (or Hkv is 0, which the
/// verifier rejects).
static int64_t groupSize(int64_t queryHeads, int64_t kvHeads) {
  if (ShapedType::isDynamic(queryHeads) || ShapedType::isDynamic(kvHeads) ||
      kvHeads == 0)
    return ShapedType::kDynamic;
  return queryHeads / kvHeads;
}

static bool isBooleanMask(Value mask) {
  return mask && cast<ShapedType>(mask.getType()).getElementType().isInteger(1);
}

int64_t AttentionOp::getGroupSize() {
  return groupSize(getQuery().getType().getDimSize(1), getKeyHeads());
}

bool AttentionOp::hasBooleanMask() { return isBooleanMask(getMask()); }

namespace {

/// The checks fa.attention and fa.attention_backward share: the element
/// types, the head dims and counts, the mask, the scale and the diagonal
/// attributes. Each emits at the op and names what broke.
struct AttentionChecks {
  Operation *op;
  RankedTensorType queryType, keyType, valueType;

  InFlightDiagnostic fail() { return op->emitOpError(); }

  LogicalResult rank(StringRef name, RankedTensorType type, int64_t rank,
                     StringRef layout) {
    if (type.getRank() == rank)
      return success();
    return fail() << name << " must be a rank-" << rank << " tensor "
                  << layout << ", got " << type;
  }

  /// Q, K and V share one supported element type.
  LogicalResult elementTypes() {
    Type elementType = queryType.getElementType();
    if (!isSupportedInputElementType(elementType))
      return fail() << "query element type must be f16, bf16 or f32, got "
                    << elementType;
    for (auto [name, type] :
         {std::pair<StringRef, RankedTensorType>{"key", keyType},
          {"value", valueType}}) {
      if (type.getElementType() != elementType)
        return fail() << name << " element type must be " << elementType
                      << " as in query, got " << type.getElementType();
    }
    return success();
  }

  /// Dim `dim` of `type` agrees with dim `refDim` of `refType`.
  LogicalResult sameDim(StringRef name, RankedTensorType type, int64_t dim,
                        StringRef dimName, StringRef refName,
                        RankedTensorType refType, int64_t refDim) {
    int64_t actual = type.getDimSize(dim);
    int64_t expected = refType.getDimSize(refDim);
    if (areCompatible(actual, expected))
      return success();
    return fail() << name << " dim " << dim << " (" << dimName << ") must be "
                  << expected << " as in " << refName << ", got " << actual;
  }

  /// K and V [B, Hkv, Nk, *] of unpaged keys agree with Q and each other.
  LogicalResult contiguousKeys() {
    if (failed(sameDim("key", keyType, 0, "B", "query", queryType, 0)) ||
        failed(sameDim("value", valueType, 0, "B", "query", queryType, 0)) ||
        failed(sameDim("value", valueType, 1, "Hkv", "key", keyType, 1)) ||
        failed(sameDim("value", valueType, 2, "Nk", "key", keyType, 2)))
      return failure();
    return success();
  }

  /// D and Dv are static, K's D is Q's, and Hq is a multiple of Hkv.
  LogicalResult headDimsAndCounts(int64_t kvHeadsDim) {
    // Head dims size the tiles and the MMA shapes, so they are static.
    for (auto [name, type, dimName] :
         {std::tuple<StringRef, RankedTensorType, StringRef>{"query",
                                                             queryType, "D"},
          {"key", keyType, "D"},
          {"value", valueType, "Dv"}}) {
      if (type.isDynamicDim(3))
        return fail() << name << " dim 3 (" << dimName
                      << ") must be static, got " << type;
    }
    if (failed(sameDim("key", keyType, 3, "D", "query", queryType, 3)))
      return failure();
    int64_t queryHeads = queryType.getDimSize(1);
    int64_t kvHeads = keyType.getDimSize(kvHeadsDim);
    if (kvHeads == 0)
      return fail() << "key dim " << kvHeadsDim
                    << " (Hkv) must be at least 1, got 0";
    if (!ShapedType::isDynamic(queryHeads) && !ShapedType::isDynamic(kvHeads) &&
        queryHeads % kvHeads != 0)
      return fail() << "query heads (Hq = " << queryHeads
                    << ") must be a multiple of key/value heads (Hkv = "
                    << kvHeads << ")";
    return success();
  }

  /// [B, Hq, Nq, Dv] with value's element type.
  RankedTensorType expectedOutput() {
    return RankedTensorType::get(
        {queryType.getDimSize(0), queryType.getDimSize(1),
         queryType.getDimSize(2), valueType.getDimSize(3)},
        valueType.getElementType());
  }

  /// `type` is `expected` up to dynamic dims; `what` explains `expected`.
  LogicalResult matches(StringRef name, Type type, RankedTensorType expected,
                        StringRef what) {
    auto actual = cast<RankedTensorType>(type);
    if (actual.getElementType() == expected.getElementType() &&
        succeeded(verifyCompatibleShape(actual, expected)))
      return success();
    return fail() << name << " must be " << expected << " (" << what
                  << "), got " << actual;
  }

  /// The [Hq] sink logits.
  LogicalResult sinks(Value sinks) {
    auto sinksType = cast<RankedTensorType>(sinks.getType());
    if (sinksType.getRank() != 1 ||
        !isSupportedInputElementType(sinksType.getElementType()))
      return op->emitOpError()
             << "sinks must be a rank-1 tensor of f16, bf16 or f32 ([Hq], "
                "one logit per query head), got "
             << sinksType;
    if (!areCompatible(sinksType.getDimSize(0), queryType.getDimSize(1)))
      return op->emitOpError()
             << "sinks dim 0 (Hq) must be "
             << formatDim(queryType.getDimSize(1)) << " as in query, got "
             << formatDim(sinksType.getDimSize(0));
    return success();
  }

  LogicalResult logsumexp(StringRef name, Type type) {
    auto expected = RankedTensorType::get(
        expectedOutput().getShape().take_front(3),
        Float32Type::get(op->getContext()));
    return matches(name, type, expected, "[B, Hq, Nq] in f32");
  }

  /// A rank-4 i1 or float mask that broadcasts to [B, Hq, Nq, Nk].
  LogicalResult mask(Value mask, int64_t keyLength) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    if (failed(rank("mask", maskType, 4, "broadcastable to [B, Hq, Nq, Nk]")))
      return failure();
    Type maskElementType = maskType.getElementType();
    if (!maskElementType.isInteger(1) &&
        !isSupportedInputElementType(maskElementType))
      return fail() << "mask element type must be i1 (keep-mask) or f16, "
                       "bf16 or f32 (additive bias), got "
                    << maskElementType;
    int64_t scoreShape[] = {queryType.getDimSize(0), queryType.getDimSize(1),
                            queryType.getDimSize(2), keyLength};
    static constexpr StringLiteral scoreDimNames[] = {"B", "Hq", "Nq", "Nk"};
    for (int64_t dim = 0; dim < 4; ++dim) {
      int64_t actual = maskType.getDimSize(dim);
      if (actual == 1 || areCompatible(actual, scoreShape[dim]))
        continue;
      return fail() << "mask dim " << dim << " (" << scoreDimNames[dim]
                    << ") must be 1 or " << formatDim(scoreShape[dim])
                    << " to broadcast to [B, Hq, Nq, Nk], got " << actual;
    }
    return success();
  }

  /// A finite scale; a window beside causal agrees with it.
  LogicalResult scaleAndDiagonals(FloatAttr scaleAttr,
                                  std::optional<DiagonalAlignment> causal,
                                  WindowAttr window) {
    double scale = scaleAttr.getValueAsDouble();
    if (!std::isfinite(scale))
      return fail() << "scale must be finite, got " << scaleAttr;
    if (!causal || !window)
      return success();
    if (window.getAlign() != *causal)
      return fail() << "window alignment (" << stringifyEnum(window.getAlign())
                    << ") contradicts causal alignment ("
                    << stringifyEnum(*causal) << ")";
    if (window.getRight() != 0)
      return fail() << "window right = " << window.getRight()
                    << " contradicts causal, which hides every key right of "
                       "the diagonal; expected right = 0";
    return success();
  }
};

} // namespace

double AttentionOp::getHiddenScore() {
  if (FloatAttr fill = getMaskFillAttr())
    return fill.getValueAsDouble();
  return -std::numeric_limits<double>::infinity();
}

LogicalResult AttentionOp::verify() {
  AttentionChecks check{*this,
                        cast<RankedTensorType>(getQuery().getType()),
                        cast<RankedTensorType>(getKey().getType()),
                        cast<RankedTensorType>(getValue().getType())};
  RankedTensorType queryType = check.queryType, keyType = check.keyType,
                   valueType = check.valueType;

  // Ranks first: every later check indexes dimensions.
  bool paged = isPaged();
  if (failed(check.rank("query", queryType, 4, "[B, Hq, Nq, D]")) ||
      failed(check.rank("key", keyType, 4,
                        paged ? "[P, S, Hkv, D] (a paged cache)"
                              : "[B, Hkv, Nk, D]")) ||
      failed(check.rank("value", valueType, 4,
                        paged ? "[P, S, Hkv, Dv] (a paged cache)"
                              : "[B, Hkv, Nk, Dv]")) ||
      failed(check.elementTypes()))
    return failure();

  if (paged) {
    // K and V share their pages, slots and heads; the table has one row of
    // page numbers per sequence.
    if (failed(check.sameDim("value", valueType, 0, "P", "key", keyType, 0)) ||
        failed(check.sameDim("value", valueType, 1, "S", "key", keyType, 1)) ||
        failed(check.sameDim("value", valueType, 2, "Hkv", "key", keyType, 2)))
      return failure();
    auto tableType = cast<RankedTensorType>(getPageTable().getType());
    if (tableType.getRank() != 2 || !tableType.getElementType().isInteger(32))
      return emitOpError() << "page_table must be a rank-2 tensor of i32 "
                              "([B, M], the pages of each sequence), got "
                           << tableType;
    if (failed(check.sameDim("page_table", tableType, 0, "B", "query",
                             queryType, 0)))
      return failure();
    if (keyType.getDimSize(1) == 0)
      return emitOpError() << "key dim 1 (S, slots per page) must be at "
                              "least 1, got 0";
  } else if (failed(check.contiguousKeys())) {
    return failure();
  }
  if (failed(check.headDimsAndCounts(getKeyHeadsDim())))
    return failure();

  // Results.
  if (failed(check.matches("output", getOutput().getType(),
                           check.expectedOutput(),
                           "[B, Hq, Nq, Dv] with value's element type")))
    return failure();
  if (Value logsumexp = getLogsumexp())
    if (failed(check.logsumexp("logsumexp", logsumexp.getType())))
      return failure();

  if (Value mask = getMask())
    if (failed(check.mask(mask, getKeyLength())))
      return failure();

  if (Value lengths = getKvLengths()) {
    auto lengthsType = cast<RankedTensorType>(lengths.getType());
    if (lengthsType.getRank() != 1 || !lengthsType.getElementType().isInteger(32))
      return emitOpError() << "kv_lengths must be a rank-1 tensor of i32 "
                              "([B], one key length per sequence), got "
                           << lengthsType;
    if (!areCompatible(lengthsType.getDimSize(0), queryType.getDimSize(0)))
      return emitOpError() << "kv_lengths dim 0 (B) must be "
                           << formatDim(queryType.getDimSize(0))
                           << " as in query, got "
                           << formatDim(lengthsType.getDimSize(0));
  }

  Value packedQueries = getCuSeqlensQ(), packedKeys = getCuSeqlensK();
  if (static_cast<bool>(packedQueries) != static_cast<bool>(packedKeys))
    return emitOpError() << "cu_seqlens_q and cu_seqlens_k go together: "
                            "packed sequences pack both their queries and "
                            "their keys";
  if (packedQueries) {
    for (auto [name, sums] :
         {std::pair<StringRef, Value>{"cu_seqlens_q", packedQueries},
          {"cu_seqlens_k", packedKeys}}) {
      auto type = cast<RankedTensorType>(sums.getType());
      if (type.getRank() != 1 || !type.getElementType().isInteger(32) ||
          type.getDimSize(0) == 0)
        return emitOpError()
               << name
               << " must be a non-empty rank-1 tensor of i32 ([B + 1]: each "
                  "sequence's first row, then the end of the last), got "
               << type;
    }
    int64_t queryEntries =
        cast<RankedTensorType>(packedQueries.getType()).getDimSize(0);
    int64_t keyEntries =
        cast<RankedTensorType>(packedKeys.getType()).getDimSize(0);
    if (!areCompatible(queryEntries, keyEntries))
      return emitOpError() << "cu_seqlens_k must have as many entries as "
                              "cu_seqlens_q (one per sequence, plus one), got "
                           << keyEntries << " and " << queryEntries;
    for (auto [name, type] :
         {std::pair<StringRef, RankedTensorType>{"query", queryType},
          {"key", keyType},
          {"value", valueType}})
      if (type.getDimSize(0) != 1)
        return emitOpError() << name
                             << " dim 0 must be 1 with packed sequences "
                                "(they lie one after another along dim 2), "
                                "got "
                             << formatDim(type.getDimSize(0));
    if (getMask())
      return emitOpError() << "packed sequences take no mask (a mask over "
                              "the packed rows would cross sequences)";
    if (getKvLengths())
      return emitOpError() << "packed sequences take no kv_lengths: "
                              "cu_seqlens_k gives each sequence's keys";
    if (getPageTable())
      return emitOpError() << "packed sequences take no page_table: their "
                              "keys are packed, not paged";
  }

  if (Value sinks = getSinks())
    if (failed(check.sinks(sinks)))
      return failure();
  if (isPacked() && hasScoreModifications())
    return emitOpError() << "packed sequences take no score_mod, mask_mod or "
                            "sinks yet: their (b, q, k) would be a sequence "
                            "and positions within it, which no lowering "
                            "computes";

  if (FloatAttr fill = getMaskFillAttr()) {
    if (!std::isfinite(fill.getValueAsDouble()))
      return emitOpError() << "mask_fill must be finite (a hidden key's "
                              "score); -inf is the default, without "
                              "mask_fill";
    if (!getMask() || !hasBooleanMask())
      return emitOpError() << "mask_fill gives the keys an i1 mask hides "
                              "their score; it needs an i1 mask";
    if (getCausal() || getWindowAttr() || getKvLengths() || isPaged() ||
        isPacked())
      return emitOpError()
             << "mask_fill cannot be combined with causal, window, "
                "kv_lengths, page_table or packed sequences: their hidden "
                "keys are skipped, while a filled key still has a weight";
  }
  return check.scaleAndDiagonals(getScaleAttr(), getCausal(), getWindowAttr());
}

namespace {

/// Checks a score_mod or mask_mod region: one block with the arguments
/// `argTypes` (named `argNames` in diagnostics), ended by fa.yield of
/// `resultType`, holding only side-effect-free scalar ops without regions,
/// so that every lowering can inline it where it forms a score, on tensors,
/// buffers or one thread's registers alike.
LogicalResult verifyModifierRegion(Operation *op, Region &region,
                                   StringRef name, ArrayRef<Type> argTypes,
                                   StringRef signature, Type resultType) {
  if (region.empty())
    return success();
  Block &block = region.front();
  if (block.getArgumentTypes() != TypeRange(argTypes))
    return op->emitOpError() << name << " must take " << signature << ", got ("
                             << block.getArgumentTypes() << ")";
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError() << name << " must end with fa.yield";
  if (yield.getValue().getType() != resultType)
    return op->emitOpError() << name << " must yield " << resultType << ", got "
                             << yield.getValue().getType();
  for (Operation &inner : block.without_terminator()) {
    auto refuse = [&](StringRef why) {
      InFlightDiagnostic diag = op->emitOpError()
                                << name
                                << " may hold only side-effect-free "
                                   "scalar ops without regions; '"
                                << inner.getName() << "' " << why;
      diag.attachNote(inner.getLoc()) << "here";
      return diag;
    };
    if (inner.getNumRegions() != 0)
      return refuse("has regions (write selects instead of branches)");
    if (!isMemoryEffectFree(&inner))
      return refuse("has side effects");
    for (Type type : inner.getResultTypes())
      if (!type.isIntOrIndexOrFloat())
        return refuse("yields a non-scalar (read tensors with tensor.extract "
                      "of a value defined above the op)");
  }
  return success();
}

/// Both regions of fa.attention or fa.attention_backward.
LogicalResult verifyModifierRegions(Operation *op, Region &scoreMod,
                                    Region &maskMod) {
  MLIRContext *ctx = op->getContext();
  Type index = IndexType::get(ctx), f32 = Float32Type::get(ctx);
  if (failed(verifyModifierRegion(
          op, scoreMod, "score_mod", {f32, index, index, index, index},
          "(score: f32, b: index, h: index, q: index, k: index)", f32)))
    return failure();
  return verifyModifierRegion(
      op, maskMod, "mask_mod", {index, index, index, index},
      "(b: index, h: index, q: index, k: index)", IntegerType::get(ctx, 1));
}

} // namespace

bool mlir::fa::hasScoreDerivative(Operation *op) {
  // The ops ScoreModifiers.cpp (differentiateScoreMod) has a rule for.
  static constexpr StringLiteral differentiable[] = {
      "arith.addf",    "arith.subf",     "arith.mulf",     "arith.divf",
      "arith.negf",    "arith.maximumf", "arith.minimumf", "arith.maxnumf",
      "arith.minnumf", "arith.select",   "arith.extf",     "arith.truncf",
      "math.fma",      "math.tanh",      "math.exp",       "math.exp2",
      "math.expm1",    "math.log",       "math.log2",      "math.log1p",
      "math.sqrt",     "math.rsqrt",     "math.absf"};
  return llvm::is_contained(differentiable, op->getName().getStringRef());
}

LogicalResult AttentionOp::verifyRegions() {
  return verifyModifierRegions(*this, getScoreMod(), getMaskMod());
}

LogicalResult AttentionBackwardOp::verifyRegions() {
  if (failed(verifyModifierRegions(*this, getScoreMod(), getMaskMod())))
    return failure();
  Block *scoreMod = getScoreModBlock();
  if (!scoreMod)
    return success();
  // The backward pass needs f'(s): every float the score reaches must come
  // from an op with a derivative rule. Integers and i1 (comparisons,
  // conversions to int) carry none: their derivative is 0 almost
  // everywhere, as autodiff has it.
  llvm::SmallPtrSet<Value, 8> dependent;
  dependent.insert(scoreMod->getArgument(0));
  for (Operation &inner : scoreMod->without_terminator()) {
    if (llvm::none_of(inner.getOperands(),
                      [&](Value v) { return dependent.contains(v); }))
      continue;
    bool floatResult = llvm::any_of(
        inner.getResultTypes(), [](Type type) { return isa<FloatType>(type); });
    if (!floatResult)
      continue;
    if (!hasScoreDerivative(&inner)) {
      InFlightDiagnostic diag =
          emitOpError() << "score_mod must be differentiable in the score "
                           "for the backward pass; '"
                        << inner.getName()
                        << "' reads it and has no derivative rule (the "
                           "rules: add, sub, mul, div, neg, max, min, "
                           "select, extf, truncf, fma, tanh, exp, exp2, "
                           "expm1, log, log2, log1p, sqrt, rsqrt, abs)";
      diag.attachNote(inner.getLoc()) << "here";
      return diag;
    }
    for (Value result : inner.getResults())
      dependent.insert(result);
  }
  return success();
}

namespace {

/// `value` as `base + c` for a block argument `base` and a constant `c`
/// (addi with a constant on either side, or the argument itself).
std::optional<std::pair<BlockArgument, int64_t>>
argumentPlusConstant(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value))
    return std::pair{argument, int64_t{0}};
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [base, offset] : {std::pair{add.getLhs(), add.getRhs()},
                              std::pair{add.getRhs(), add.getLhs()}}) {
    auto argument = dyn_cast<BlockArgument>(base);
    APInt constant;
    if (argument && matchPattern(offset, m_ConstantInt(&constant)))
      return std::pair{argument, constant.getSExtValue()};
  }
  return std::nullopt;
}

/// One side of a band: key <= query + offset (upper) or key >= query +
/// offset (lower).
struct BandBound {
  bool upper;
  int64_t offset;
};

/// `cmp` as a bound of the key by the query, in any of its spellings (sle,
/// slt, sge, sgt, either side offset by a constant), or nullopt.
std::optional<BandBound> bandBound(arith::CmpIOp cmp, BlockArgument query,
                                   BlockArgument key) {
  auto lhs = argumentPlusConstant(cmp.getLhs());
  auto rhs = argumentPlusConstant(cmp.getRhs());
  if (!lhs || !rhs)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  P predicate = cmp.getPredicate();
  // Normalize to key + a (<=, <, >=, >) query + b.
  if (lhs->first == query && rhs->first == key) {
    // q + b (op) k + a  <=>  k + a (op with its sides swapped) q + b.
    std::swap(lhs, rhs);
    switch (predicate) {
    case P::sle:
      predicate = P::sge;
      break;
    case P::slt:
      predicate = P::sgt;
      break;
    case P::sge:
      predicate = P::sle;
      break;
    case P::sgt:
      predicate = P::slt;
      break;
    default:
      return std::nullopt;
    }
  }
  if (lhs->first != key || rhs->first != query)
    return std::nullopt;
  int64_t offset = rhs->second - lhs->second;
  switch (predicate) {
  case P::sle: // k <= q + offset
    return BandBound{true, offset};
  case P::slt: // k <= q + offset - 1
    return BandBound{true, offset - 1};
  case P::sge: // k >= q + offset
    return BandBound{false, offset};
  case P::sgt: // k >= q + offset + 1
    return BandBound{false, offset + 1};
  default:
    return std::nullopt;
  }
}

/// The bounds a mask_mod's yielded i1 is the conjunction of (cmpi ops in
/// its block, joined by andi), or failure for anything else.
LogicalResult collectBands(Value value, Block *block, BlockArgument query,
                           BlockArgument key, SmallVector<BandBound> &bounds) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != block)
    return failure();
  if (auto both = dyn_cast<arith::AndIOp>(def))
    return success(
        succeeded(collectBands(both.getLhs(), block, query, key, bounds)) &&
        succeeded(collectBands(both.getRhs(), block, query, key, bounds)));
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp)
    return failure();
  std::optional<BandBound> bound = bandBound(cmp, query, key);
  if (!bound)
    return failure();
  bounds.push_back(*bound);
  return success();
}

/// A mask_mod that is exactly a causal mask or a sliding window becomes the
/// op's attribute. Causal, `k <= q + c`: c = 0 is top_left; c = Nk - Nq
/// (static Nk and Nq, no kv_lengths, whose bottom-right diagonal is per
/// sequence) is bottom_right. A band `q + lo <= k <= q + hi` is a window
/// around the diagonal delta (0, or Nk - Nq as above) with left = delta -
/// lo and right = hi - delta, both at least 0. Any other mask_mod stays a
/// region. Both the forward and the backward op: a raised training graph
/// folds its mask on both, and the two must keep agreeing on which keys
/// are hidden.
template <typename OpTy> struct MaskModToBands : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Block *block = op.getMaskModBlock();
    // (mask_fill takes no causal: its hidden keys keep a weight.)
    if (!block || op.getCausal() || op.getWindowAttr() || op.getMaskFillAttr())
      return failure();
    BlockArgument query = block->getArgument(2), key = block->getArgument(3);
    SmallVector<BandBound> bounds;
    if (failed(collectBands(cast<YieldOp>(block->getTerminator()).getValue(),
                            block, query, key, bounds)))
      return failure();
    std::optional<int64_t> upper, lower;
    for (BandBound bound : bounds) {
      std::optional<int64_t> &side = bound.upper ? upper : lower;
      // Several bounds on one side: the tightest holds.
      side = !side ? bound.offset
             : bound.upper ? std::min(*side, bound.offset)
                           : std::max(*side, bound.offset);
    }
    if (!upper)
      return failure(); // keys unbounded above: no attribute says that
    int64_t queryLen = op.getQuery().getType().getDimSize(2);
    int64_t keyLen = op.getKeyLength();
    std::optional<int64_t> bottomRight;
    if (!op.getKvLengths() && !op.isPacked() &&
        !ShapedType::isDynamic(queryLen) && !ShapedType::isDynamic(keyLen))
      bottomRight = keyLen - queryLen;
    MLIRContext *ctx = op.getContext();
    if (!lower) {
      std::optional<DiagonalAlignment> align;
      if (*upper == 0)
        align = DiagonalAlignment::top_left;
      else if (bottomRight && *upper == *bottomRight)
        align = DiagonalAlignment::bottom_right;
      if (!align)
        return failure();
      rewriter.modifyOpInPlace(op, [&] {
        op.setCausalAttr(DiagonalAlignmentAttr::get(ctx, *align));
      });
      rewriter.eraseBlock(block);
      return success();
    }
    // A window around a diagonal whose left and right are not negative.
    for (auto [delta, align] :
         {std::pair{std::optional<int64_t>{0}, DiagonalAlignment::top_left},
          std::pair{bottomRight, DiagonalAlignment::bottom_right}}) {
      if (!delta || *delta - *lower < 0 || *upper - *delta < 0)
        continue;
      // Built outside the lambda: C++17 lambdas cannot capture structured
      // bindings.
      auto window =
          WindowAttr::get(ctx, *delta - *lower, *upper - *delta, align);
      rewriter.modifyOpInPlace(op, [&] { op.setWindowAttr(window); });
      rewriter.eraseBlock(block);
      return success();
    }
    return failure();
  }
};

} // namespace

void AttentionOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<MaskModToBands<AttentionOp>>(context);
}

void AttentionBackwardOp::getCanonicalizationPatterns(
    RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<MaskModToBands<AttentionBackwardOp>>(context);
}

int64_t AttentionBackwardOp::getGroupSize() {
  return groupSize(getQuery().getType().getDimSize(1), getKeyHeads());
}

bool AttentionBackwardOp::hasBooleanMask() { return isBooleanMask(getMask()); }

double AttentionBackwardOp::getHiddenScore() {
  if (FloatAttr fill = getMaskFillAttr())
    return fill.getValueAsDouble();
  return -std::numeric_limits<double>::infinity();
}

LogicalResult AttentionBackwardOp::verify() {
  AttentionChecks check{*this, getQuery().getType(), getKey().getType(),
                        getValue().getType()};
  if (failed(check.rank("query", check.queryType, 4, "[B, Hq, Nq, D]")) ||
      failed(check.rank("key", check.keyType, 4, "[B, Hkv, Nk, D]")) ||
      failed(check.rank("value", check.valueType, 4, "[B, Hkv, Nk, Dv]")) ||
      failed(check.elementTypes()) || failed(check.contiguousKeys()) ||
      failed(check.headDimsAndCounts(/*kvHeadsDim=*/1)))
    return failure();

  // The forward results and the output gradient.
  RankedTensorType output = check.expectedOutput();
  StringRef outputShape = "[B, Hq, Nq, Dv] with value's element type, as "
                          "fa.attention's output";
  if (failed(check.matches("output", getOutput().getType(), output,
                           outputShape)) ||
      failed(check.matches("grad_output", getGradOutput().getType(), output,
                           outputShape)) ||
      failed(check.logsumexp("logsumexp", getLogsumexp().getType())))
    return failure();

  // Each gradient has its input's type.
  for (auto [name, gradient, input] :
       {std::tuple<StringRef, Value, Value>{"grad_query", getGradQuery(),
                                            getQuery()},
        {"grad_key", getGradKey(), getKey()},
        {"grad_value", getGradValue(), getValue()}})
    if (failed(check.matches(name, gradient.getType(),
                             cast<RankedTensorType>(input.getType()),
                             "the type of the input it is the gradient of")))
      return failure();

  Value mask = getMask();
  if (mask && failed(check.mask(mask, getKeyLength())))
    return failure();
  if (FloatAttr fill = getMaskFillAttr()) {
    if (!std::isfinite(fill.getValueAsDouble()))
      return emitOpError() << "mask_fill must be finite (a hidden key's "
                              "score); -inf is the default, without "
                              "mask_fill";
    if (!mask || !hasBooleanMask())
      return emitOpError() << "mask_fill gives the keys an i1 mask hides "
                              "their score; it needs an i1 mask";
    if (getCausal() || getWindowAttr())
      return emitOpError()
             << "mask_fill cannot be combined with causal or window: their "
                "hidden keys are skipped, while a filled key still has a "
                "weight";
  }
  if (Value gradMask = getGradMask()) {
    if (!mask)
      return emitOpError() << "grad_mask needs a mask: it is the gradient of "
                              "the additive bias";
    if (hasBooleanMask())
      return emitOpError() << "grad_mask needs an additive (float) mask; a "
                              "boolean keep-mask has no gradient";
    if (failed(check.matches("grad_mask", gradMask.getType(),
                             cast<RankedTensorType>(mask.getType()),
                             "the mask's type: broadcast dims are summed")))
      return failure();
  }
  if (Value sinks = getSinks())
    if (failed(check.sinks(sinks)))
      return failure();
  if (Value gradSinks = getGradSinks()) {
    if (!getSinks())
      return emitOpError() << "grad_sinks needs sinks: it is the gradient of "
                              "the sink logits";
    if (failed(check.matches("grad_sinks", gradSinks.getType(),
                             cast<RankedTensorType>(getSinks().getType()),
                             "the sinks' type")))
      return failure();
  }
  return check.scaleAndDiagonals(getScaleAttr(), getCausal(), getWindowAttr());
}

//===----------------------------------------------------------------------===//
// WarpgroupMmaOp, WarpgroupMmaWaitOp
//===----------------------------------------------------------------------===//

namespace {

/// Refuses a wgmma operand buffer that is not a contiguous run of workgroup
/// memory: descriptors address it by byte offset from its first element.
LogicalResult verifyWgmmaBuffer(Operation *op, StringRef which,
                                MemRefType type) {
  if (!type.getLayout().isIdentity())
    return op->emitOpError() << which
                             << " must have the identity layout: descriptors "
                                "address it by byte offset, got "
                             << type;
  Attribute space = type.getMemorySpace();
  auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space);
  if (space && !(gpuSpace && gpuSpace.getValue() ==
                                 gpu::GPUDialect::getWorkgroupAddressSpace()))
    return op->emitOpError() << which
                             << " must be in workgroup memory (wgmma reads "
                                "shared memory), got "
                             << type;
  return success();
}

} // namespace

LogicalResult WarpgroupMmaOp::verify() {
  int64_t n = getN();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError() << "accumulator of " << n / 2
                         << " elements per thread is no wgmma m64nN: N = " << n
                         << " must be a multiple of 8 from 8 to 256";
  Type element = getOperandElementType();
  if (failed(verifyWgmmaBuffer(*this, "B's buffer", getBBuffer().getType())))
    return failure();
  if (getA().getType().isInteger(64)) {
    if (!getABuffer())
      return emitOpError()
             << "takes A from shared memory (an i64 descriptor) but names no "
                "buffer for it: write `%desc in %buffer`";
    if (failed(verifyWgmmaBuffer(*this, "A's buffer", getABuffer().getType())))
      return failure();
    if (getABuffer().getType().getElementType() != element)
      return emitOpError() << "multiplies A of "
                           << getABuffer().getType().getElementType()
                           << " by B of " << element
                           << ": both must be f16 or both bf16";
    return success();
  }
  auto registers = cast<VectorType>(getA().getType());
  if (getTransposeA())
    return emitOpError()
           << "reads A M/N-major (transpose_a), which wgmma allows only "
              "for A from shared memory, not from registers";
  if (getABuffer())
    return emitOpError() << "takes A from registers (" << registers
                         << ") and from a buffer: name one";
  if (registers.getShape() != ArrayRef<int64_t>{4, 2})
    return emitOpError() << "takes A from registers as "
                         << VectorType::get({4, 2}, element)
                         << " (4 registers of 2 halves per thread), got "
                         << registers;
  if (registers.getElementType() != element)
    return emitOpError() << "multiplies A of " << registers.getElementType()
                         << " by B of " << element
                         << ": both must be f16 or both bf16";
  return success();
}

LogicalResult WarpgroupMmaWaitOp::verify() {
  if (getValues().empty() && getPending() == 0)
    return emitOpError() << "waits for nothing: name the accumulators whose "
                            "wgmmas it waits for (only a wait that leaves "
                            "groups in flight, pending > 0, may name none: it "
                            "then only commits a group)";
  return success();
}

//===----------------------------------------------------------------------===//
// LinearAttentionOp
//===----------------------------------------------------------------------===//

int64_t LinearAttentionOp::getGroupSize() {
  return groupSize(getQuery().getType().getDimSize(1),
                   getKey().getType().getDimSize(1));
}

LogicalResult LinearAttentionOp::verify() {
  AttentionChecks checks{*this, getQuery().getType(), getKey().getType(),
                         getValue().getType()};
  for (auto [name, type, layout] :
       {std::tuple<StringRef, RankedTensorType, StringRef>{
            "query", checks.queryType, "[B, Hq, Nq, D]"},
        {"key", checks.keyType, "[B, Hkv, Nk, D]"},
        {"value", checks.valueType, "[B, Hkv, Nk, Dv]"}})
    if (failed(checks.rank(name, type, 4, layout)))
      return failure();
  if (failed(checks.elementTypes()) || failed(checks.contiguousKeys()) ||
      failed(checks.headDimsAndCounts(/*kvHeadsDim=*/1)) ||
      failed(checks.matches("output", getOutput().getType(),
                            checks.expectedOutput(),
                            "[B, Hq, Nq, Dv] with value's element type")))
    return failure();
  double scale = getScale().convertToDouble();
  if (!std::isfinite(scale))
    return emitOpError() << "scale must be finite, got " << scale;
  if (FloatAttr epsilon = getEpsilonAttr()) {
    double eps = epsilon.getValueAsDouble();
    if (!std::isfinite(eps) || eps < 0)
      return emitOpError()
             << "normalize's eps must be finite and at least 0, got " << eps;
  }
  if (getCausal()) {
    int64_t queryLen = checks.queryType.getDimSize(2);
    int64_t keyLen = checks.keyType.getDimSize(2);
    if (!areCompatible(queryLen, keyLen))
      return emitOpError()
             << "causal linear attention needs as many queries as keys (the "
                "diagonal is top-left), got Nq = "
             << queryLen << " and Nk = " << keyLen;
  }
  if (Value decay = getDecay()) {
    if (!getCausal())
      return emitOpError() << "decay needs causal: gamma^(i - j) weighs key j "
                              "for query i >= j only";
    auto decayType = cast<RankedTensorType>(decay.getType());
    if (decayType.getRank() != 1 || !decayType.getElementType().isF32())
      return emitOpError() << "decay must be a rank-1 tensor of f32 ([Hq], "
                              "one gamma per query head), got "
                           << decayType;
    if (!areCompatible(decayType.getDimSize(0), checks.queryType.getDimSize(1)))
      return emitOpError() << "decay dim 0 (Hq) must be "
                           << formatDim(checks.queryType.getDimSize(1))
                           << " as in query, got "
                           << formatDim(decayType.getDimSize(0));
  }
  if (IntegerAttr chunk = getChunkAttr(); chunk && chunk.getInt() < 1)
    return emitOpError() << "chunk must be at least 1, got " << chunk.getInt();
  return success();
}
