//===- FAOps.cpp - Operations of the fa dialect ---------------------------===//
//
// The verifier of fa.attention. Every rejection names the operand and states
// the expected versus the actual shape or type, because the op is written by
// passes (the recognizer) as often as by people, and both need to know which
// relation broke.
//
//===----------------------------------------------------------------------===//

#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fa;

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

int64_t AttentionOp::getGroupSize() {
  int64_t queryHeads = getQuery().getType().getDimSize(1);
  int64_t kvHeads = getKeyHeads();
  if (ShapedType::isDynamic(queryHeads) || ShapedType::isDynamic(kvHeads) ||
      kvHeads == 0)
    return ShapedType::kDynamic;
  return queryHeads / kvHeads;
}

bool AttentionOp::hasBooleanMask() {
  Value mask = getMask();
  return mask && cast<ShapedType>(mask.getType()).getElementType().isInteger(1);
}

LogicalResult AttentionOp::verify() {
  auto queryType = cast<RankedTensorType>(getQuery().getType());
  auto keyType = cast<RankedTensorType>(getKey().getType());
  auto valueType = cast<RankedTensorType>(getValue().getType());

  // Ranks first: every later check indexes dimensions.
  auto checkRank = [&](StringRef name, RankedTensorType type, int64_t rank,
                       StringRef layout) -> LogicalResult {
    if (type.getRank() == rank)
      return success();
    return emitOpError() << name << " must be a rank-" << rank << " tensor "
                         << layout << ", got " << type;
  };
  bool paged = isPaged();
  if (failed(checkRank("query", queryType, 4, "[B, Hq, Nq, D]")) ||
      failed(checkRank("key", keyType, 4,
                       paged ? "[P, S, Hkv, D] (a paged cache)"
                             : "[B, Hkv, Nk, D]")) ||
      failed(checkRank("value", valueType, 4,
                       paged ? "[P, S, Hkv, Dv] (a paged cache)"
                             : "[B, Hkv, Nk, Dv]")))
    return failure();

  Type elementType = queryType.getElementType();
  if (!isSupportedInputElementType(elementType))
    return emitOpError() << "query element type must be f16, bf16 or f32, got "
                         << elementType;
  for (auto [name, type] : {std::pair<StringRef, RankedTensorType>{"key", keyType},
                            {"value", valueType}}) {
    if (type.getElementType() != elementType)
      return emitOpError() << name << " element type must be " << elementType
                           << " as in query, got " << type.getElementType();
  }

  // Each dimension that two operands share must agree.
  auto checkSameDim = [&](StringRef name, RankedTensorType type, int64_t dim,
                          StringRef dimName, StringRef refName,
                          RankedTensorType refType,
                          int64_t refDim) -> LogicalResult {
    int64_t actual = type.getDimSize(dim);
    int64_t expected = refType.getDimSize(refDim);
    if (areCompatible(actual, expected))
      return success();
    return emitOpError() << name << " dim " << dim << " (" << dimName
                         << ") must be " << expected << " as in " << refName
                         << ", got " << actual;
  };
  if (paged) {
    // K and V share their pages, slots and heads; the table has one row of
    // page numbers per sequence.
    if (failed(checkSameDim("value", valueType, 0, "P", "key", keyType, 0)) ||
        failed(checkSameDim("value", valueType, 1, "S", "key", keyType, 1)) ||
        failed(checkSameDim("value", valueType, 2, "Hkv", "key", keyType, 2)))
      return failure();
    auto tableType = cast<RankedTensorType>(getPageTable().getType());
    if (tableType.getRank() != 2 || !tableType.getElementType().isInteger(32))
      return emitOpError() << "page_table must be a rank-2 tensor of i32 "
                              "([B, M], the pages of each sequence), got "
                           << tableType;
    if (failed(checkSameDim("page_table", tableType, 0, "B", "query",
                            queryType, 0)))
      return failure();
    if (keyType.getDimSize(1) == 0)
      return emitOpError() << "key dim 1 (S, slots per page) must be at "
                              "least 1, got 0";
  } else if (failed(checkSameDim("key", keyType, 0, "B", "query", queryType,
                                 0)) ||
             failed(checkSameDim("value", valueType, 0, "B", "query",
                                 queryType, 0)) ||
             failed(checkSameDim("value", valueType, 1, "Hkv", "key", keyType,
                                 1)) ||
             failed(checkSameDim("value", valueType, 2, "Nk", "key", keyType,
                                 2))) {
    return failure();
  }

  // Head dims size the tiles and the MMA shapes, so they are static.
  for (auto [name, type, dimName] :
       {std::tuple<StringRef, RankedTensorType, StringRef>{"query", queryType,
                                                           "D"},
        {"key", keyType, "D"},
        {"value", valueType, "Dv"}}) {
    if (type.isDynamicDim(3))
      return emitOpError() << name << " dim 3 (" << dimName
                           << ") must be static, got " << type;
  }
  if (failed(checkSameDim("key", keyType, 3, "D", "query", queryType, 3)))
    return failure();

  int64_t queryHeads = queryType.getDimSize(1);
  int64_t kvHeads = getKeyHeads();
  if (kvHeads == 0)
    return emitOpError() << "key dim " << getKeyHeadsDim()
                         << " (Hkv) must be at least 1, got 0";
  if (!ShapedType::isDynamic(queryHeads) && !ShapedType::isDynamic(kvHeads) &&
      queryHeads % kvHeads != 0)
    return emitOpError() << "query heads (Hq = " << queryHeads
                         << ") must be a multiple of key/value heads (Hkv = "
                         << kvHeads << ")";

  // Results.
  SmallVector<int64_t> outputShape = {
      queryType.getDimSize(0), queryType.getDimSize(1),
      queryType.getDimSize(2), valueType.getDimSize(3)};
  auto expectedOutput =
      RankedTensorType::get(outputShape, valueType.getElementType());
  auto outputType = cast<RankedTensorType>(getOutput().getType());
  if (outputType.getElementType() != expectedOutput.getElementType() ||
      failed(verifyCompatibleShape(outputType, expectedOutput)))
    return emitOpError() << "output must be " << expectedOutput
                         << " ([B, Hq, Nq, Dv] with value's element type), got "
                         << outputType;

  if (Value logsumexp = getLogsumexp()) {
    auto expectedLse = RankedTensorType::get(
        ArrayRef<int64_t>(outputShape).take_front(3),
        Float32Type::get(getContext()));
    auto lseType = cast<RankedTensorType>(logsumexp.getType());
    if (lseType.getElementType() != expectedLse.getElementType() ||
        failed(verifyCompatibleShape(lseType, expectedLse)))
      return emitOpError() << "logsumexp must be " << expectedLse
                           << " ([B, Hq, Nq] in f32), got " << lseType;
  }

  if (Value mask = getMask()) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    if (failed(checkRank("mask", maskType, 4,
                         "broadcastable to [B, Hq, Nq, Nk]")))
      return failure();
    Type maskElementType = maskType.getElementType();
    if (!maskElementType.isInteger(1) &&
        !isSupportedInputElementType(maskElementType))
      return emitOpError()
             << "mask element type must be i1 (keep-mask) or f16, bf16 or "
                "f32 (additive bias), got "
             << maskElementType;
    int64_t scoreShape[] = {queryType.getDimSize(0), queryType.getDimSize(1),
                            queryType.getDimSize(2), getKeyLength()};
    static constexpr StringLiteral scoreDimNames[] = {"B", "Hq", "Nq", "Nk"};
    for (int64_t dim = 0; dim < 4; ++dim) {
      int64_t actual = maskType.getDimSize(dim);
      if (actual == 1 || areCompatible(actual, scoreShape[dim]))
        continue;
      return emitOpError() << "mask dim " << dim << " (" << scoreDimNames[dim]
                           << ") must be 1 or " << formatDim(scoreShape[dim])
                           << " to broadcast to [B, Hq, Nq, Nk], got "
                           << actual;
    }
  }

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

  double scale = getScale().convertToDouble();
  if (!std::isfinite(scale))
    return emitOpError() << "scale must be finite, got " << getScaleAttr();

  if (std::optional<DiagonalAlignment> causal = getCausal()) {
    if (WindowAttr window = getWindowAttr()) {
      if (window.getAlign() != *causal)
        return emitOpError()
               << "window alignment (" << stringifyEnum(window.getAlign())
               << ") contradicts causal alignment ("
               << stringifyEnum(*causal) << ")";
      if (window.getRight() != 0)
        return emitOpError()
               << "window right = " << window.getRight()
               << " contradicts causal, which hides every key right of the "
                  "diagonal; expected right = 0";
    }
  }
  return success();
}
