//===- PagedCache.cpp - K and V gathered from a paged cache ---------------===//
//
// Stage: recognition. Checks, op by op, that a K or V operand is a pure page
// lookup: a collapse_shape that merges (page, slot) into the key axis, of a
// linalg.generic whose only computation is
//   cache[cast(table[b, m]), s, h, e]
// with s, h and e its own loop indices and (b, m) the loops that read the
// table. Anything else in the body, another operand, or another order of
// the cache's indices is not a page lookup.
//
//===----------------------------------------------------------------------===//

#include "PagedCache.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fa::recognition;

namespace {

/// What a loop of the gather is: the sequence b, its page m, the slot s
/// within the page, the head h, the feature e.
enum class GatherAxis { Sequence, Page, Slot, Head, Feature, Key };

/// The loop that `value` (a linalg.index) reads, or -1.
int64_t indexLoop(Value value) {
  auto index = value.getDefiningOp<linalg::IndexOp>();
  return index ? static_cast<int64_t>(index.getDim()) : -1;
}

} // namespace

std::optional<PageGather>
mlir::fa::recognition::findPageGather(Value kv,
                                      ArrayRef<int64_t> permutation) {
  auto collapse = kv.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse)
    return std::nullopt;
  auto gather = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
  if (!gather || gather.getNumDpsInputs() != 1 || gather.getNumResults() != 1 ||
      gather.getNumReductionLoops() != 0 || !gather.hasPureTensorSemantics() ||
      gather.getNumLoops() != 5)
    return std::nullopt;
  OpOperand *tableOperand = gather.getDpsInputOperand(0);
  Value table = tableOperand->get();
  auto tableType = dyn_cast<RankedTensorType>(table.getType());
  if (!tableType || tableType.getRank() != 2 ||
      !isa<IntegerType, IndexType>(tableType.getElementType()))
    return std::nullopt;
  AffineMap outputMap =
      gather.getMatchingIndexingMap(gather.getDpsInitOperand(0));
  AffineMap tableMap = gather.getMatchingIndexingMap(tableOperand);
  if (!outputMap.isPermutation() || !tableMap.isProjectedPermutation() ||
      tableMap.getNumResults() != 2)
    return std::nullopt;

  // The body: yield(extract(cache, cast(table element), index s, h, e)).
  Block &body = gather.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto extract = yield.getOperand(0).getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract->getBlock() != &body)
    return std::nullopt;
  Value cache = extract.getTensor();
  auto cacheType = dyn_cast<RankedTensorType>(cache.getType());
  if (!cacheType || cacheType.getRank() != 4 || cache.getParentBlock() == &body)
    return std::nullopt;
  // Every op of the body is the extract, its page cast or an index.
  for (Operation &op : body.without_terminator())
    if (!isa<tensor::ExtractOp, linalg::IndexOp, arith::IndexCastOp>(op))
      return std::nullopt;
  if (!body.getArgument(1).use_empty())
    return std::nullopt;
  // The page: the table element, cast to index (signed: a negative entry is
  // as wrong in the frontend as in the op).
  auto pageCast =
      extract.getIndices()[0].getDefiningOp<arith::IndexCastOp>();
  Value element = pageCast ? pageCast.getIn() : extract.getIndices()[0];
  if (element != body.getArgument(0))
    return std::nullopt;

  // Loop roles: the table is read at (b, m); the cache at (., s, h, e).
  SmallVector<std::optional<GatherAxis>> loops(5);
  auto assign = [&](int64_t loop, GatherAxis axis) {
    if (loop < 0 || loops[loop])
      return false;
    loops[loop] = axis;
    return true;
  };
  if (!assign(cast<AffineDimExpr>(tableMap.getResult(0)).getPosition(),
              GatherAxis::Sequence) ||
      !assign(cast<AffineDimExpr>(tableMap.getResult(1)).getPosition(),
              GatherAxis::Page) ||
      !assign(indexLoop(extract.getIndices()[1]), GatherAxis::Slot) ||
      !assign(indexLoop(extract.getIndices()[2]), GatherAxis::Head) ||
      !assign(indexLoop(extract.getIndices()[3]), GatherAxis::Feature))
    return std::nullopt;
  // The gathered tensor's dims, then the collapse: (page, slot) merged into
  // the key axis, every other dim alone.
  SmallVector<GatherAxis> gathered;
  for (AffineExpr expr : outputMap.getResults())
    gathered.push_back(*loops[cast<AffineDimExpr>(expr).getPosition()]);
  auto gatheredType = cast<RankedTensorType>(collapse.getSrcType());
  SmallVector<GatherAxis> collapsed;
  for (const ReassociationIndices &group : collapse.getReassociationIndices()) {
    if (group.size() == 1) {
      collapsed.push_back(gathered[group[0]]);
      continue;
    }
    if (group.size() != 2 || gathered[group[0]] != GatherAxis::Page ||
        gathered[group[1]] != GatherAxis::Slot)
      return std::nullopt;
    collapsed.push_back(GatherAxis::Key);
  }
  // The slot dim spans the whole page, so page m holds keys [m S, m S + S).
  for (auto [dim, axis] : llvm::enumerate(gathered))
    if (axis == GatherAxis::Slot &&
        gatheredType.getDimSize(dim) != cacheType.getDimSize(1))
      return std::nullopt;
  // And the heads and features are the cache's own, all of them.
  for (auto [dim, axis] : llvm::enumerate(gathered)) {
    if ((axis == GatherAxis::Head &&
         gatheredType.getDimSize(dim) != cacheType.getDimSize(2)) ||
        (axis == GatherAxis::Feature &&
         gatheredType.getDimSize(dim) != cacheType.getDimSize(3)))
      return std::nullopt;
  }
  // Read through the matcher's permutation, the op's [B, Hkv, Nk, E].
  const GatherAxis expected[] = {GatherAxis::Sequence, GatherAxis::Head,
                                 GatherAxis::Key, GatherAxis::Feature};
  if (collapsed.size() != 4)
    return std::nullopt;
  for (int64_t dim = 0; dim < 4; ++dim) {
    int64_t source = permutation.empty() ? dim : permutation[dim];
    if (collapsed[source] != expected[dim])
      return std::nullopt;
  }
  if (ShapedType::isDynamic(cacheType.getDimSize(1)) ||
      cacheType.isDynamicDim(2) || cacheType.isDynamicDim(3))
    return std::nullopt;
  return PageGather{cache, table};
}
