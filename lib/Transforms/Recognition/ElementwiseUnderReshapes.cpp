//===- ElementwiseUnderReshapes.cpp - Collapsed views ---------------------===//
//
// Stage: recognition (normalization before matching). See
// ElementwiseUnderReshapes.h.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseUnderReshapes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

/// Elementwise: one result written at every loop in order, every loop
/// parallel, static shapes, a body that does not read its position.
bool isElementwise(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      op.getNumReductionLoops() != 0 ||
      !op.getIndexingMapsArray().back().isIdentity() ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.hasStaticShape();
}

/// Whether the chain of single-use elementwise generics that computes
/// `value` through identity-read operands starts at an expand_shape with
/// `reassociation`; sets `start` to it.
bool reachesExpand(Value value, ArrayRef<ReassociationIndices> reassociation,
                   tensor::ExpandShapeOp &start, unsigned depth = 8) {
  if (depth == 0)
    return false;
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) {
    if (expand.getReassociationIndices() != reassociation)
      return false;
    start = expand;
    return true;
  }
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || !isElementwise(generic) || !value.hasOneUse())
    return false;
  for (OpOperand *input : generic.getDpsInputOperands())
    if (generic.getMatchingIndexingMap(input).isIdentity() &&
        reachesExpand(input->get(), reassociation, start, depth - 1))
      return true;
  return false;
}

/// Whether `value` is computed from `from`: its backward slice within the
/// block, up to 512 ops (past that, assumed so).
bool computedFrom(Value value, Operation *from) {
  SmallVector<Value> worklist = {value};
  llvm::DenseSet<Operation *> seen;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (def == from || seen.size() > 512)
      return true;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

struct ComputeUnderCollapse : OpRewritePattern<tensor::CollapseShapeOp> {
  ComputeUnderCollapse(MLIRContext *context, unsigned &count)
      : OpRewritePattern(context), count(count) {}

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto generic = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
    SmallVector<ReassociationIndices> reassociation =
        collapse.getReassociationIndices();
    tensor::ExpandShapeOp start;
    if (!generic || !collapse.getSrc().hasOneUse() ||
        !reachesExpand(collapse.getSrc(), reassociation, start))
      return rewriter.notifyMatchFailure(collapse, "no expanded chain");
    // The other operands must not come from the chain (a reduction of it
    // broadcast back is the softmax's, not a term added to it).
    for (OpOperand *input : generic.getDpsInputOperands()) {
      if (!isa<RankedTensorType>(input->get().getType()))
        return rewriter.notifyMatchFailure(collapse, "a scalar operand");
      if (!generic.getMatchingIndexingMap(input).isIdentity() &&
          computedFrom(input->get(), start))
        return rewriter.notifyMatchFailure(collapse,
                                           "an operand read from the chain");
    }
    Location loc = generic.getLoc();
    auto expandedType = cast<RankedTensorType>(generic->getResult(0).getType());
    SmallVector<Value> inputs;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(input);
      Value value = input->get();
      auto type = cast<RankedTensorType>(value.getType());
      if (!map.isIdentity()) {
        // Broadcast (or permuted) to the expanded shape, as the generic
        // reads it.
        Value empty = tensor::EmptyOp::create(
            rewriter, loc, expandedType.getShape(), type.getElementType());
        SmallVector<AffineMap> maps = {
            map, rewriter.getMultiDimIdentityMap(expandedType.getRank())};
        SmallVector<utils::IteratorType> iterators(
            expandedType.getRank(), utils::IteratorType::parallel);
        value = linalg::GenericOp::create(
                    rewriter, loc, empty.getType(), ValueRange{value},
                    ValueRange{empty}, maps, iterators,
                    [](OpBuilder &b, Location bodyLoc, ValueRange args) {
                      linalg::YieldOp::create(b, bodyLoc, args[0]);
                    })
                    ->getResult(0);
      }
      inputs.push_back(
          tensor::CollapseShapeOp::create(rewriter, loc, value, reassociation));
    }
    auto collapsedType =
        collapse.getResultType().clone(expandedType.getElementType());
    // A body that reads its destination reads it collapsed alike.
    Value init =
        generic.getMatchingBlockArgument(generic.getDpsInitOperand(0))
                .use_empty()
            ? tensor::EmptyOp::create(rewriter, loc, collapsedType.getShape(),
                                      collapsedType.getElementType())
                  .getResult()
            : tensor::CollapseShapeOp::create(
                  rewriter, loc, generic.getDpsInits()[0], reassociation)
                  .getResult();
    SmallVector<AffineMap> maps(
        inputs.size() + 1,
        rewriter.getMultiDimIdentityMap(collapsedType.getRank()));
    SmallVector<utils::IteratorType> iterators(collapsedType.getRank(),
                                               utils::IteratorType::parallel);
    auto rebuilt =
        linalg::GenericOp::create(rewriter, loc, collapsedType, inputs,
                                  ValueRange{init}, maps, iterators);
    // The body is the same scalar function of the same operands.
    rewriter.cloneRegionBefore(generic.getRegion(), rebuilt.getRegion(),
                               rebuilt.getRegion().end());
    rewriter.replaceOp(collapse, rebuilt->getResults());
    rewriter.eraseOp(generic);
    ++count;
    return success();
  }

  unsigned &count;
};

} // namespace

unsigned
mlir::fa::recognition::computeElementwiseUnderReshapes(Operation *root) {
  unsigned count = 0;
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  patterns.add<ComputeUnderCollapse>(context, count);
  // collapse(expand(x)) with the same reassociation folds to x.
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  (void)applyPatternsGreedily(root, std::move(patterns));
  return count;
}
