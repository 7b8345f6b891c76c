//===- Candidates.cpp - Where attention may be ----------------------------===//
//
// Stage: recognition (how it is found). A forward walk from every exp and
// softmax to the contractions it reaches; see Candidates.h.
//
//===----------------------------------------------------------------------===//

#include "Candidates.h"
#include "FrontendCalls.h"
#include "AttentionMatcher.h"
#include "StructuredView.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <deque>

using namespace mlir;
using namespace mlir::fa::recognition;

namespace {

/// How far the forward walk goes; the matcher's walk back goes 8 ops.
constexpr unsigned kMaxForwardOps = 16;
constexpr unsigned kMatcherDepth = 8;

/// An op whose result holds exponentials: linalg.softmax, or any
/// elementwise op (in any dialect) whose body computes an exp.
bool isSoftmaxSource(Operation *op) {
  if (isa<linalg::SoftmaxOp>(op) || exponentialCallee(op))
    return true;
  if (op->getNumResults() != 1)
    return false;
  std::optional<StructuredView> view = getStructuredView(op->getResult(0));
  return view && !view->hasReduction() &&
         llvm::any_of(view->nodes, [](const ScalarNode &node) {
           return node.kind == ScalarKind::Exp;
         });
}

/// Ops the walk back from P·V looks through (AttentionMatcher's
/// findSoftmax): reshapes and elementwise ops.
bool isLookedThrough(Operation *op) {
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tosa::ReshapeOp>(op))
    return true;
  if (op->getNumResults() != 1)
    return false;
  std::optional<StructuredView> view = getStructuredView(op->getResult(0));
  return view && !view->hasReduction();
}

/// Ops the forward walk does not pass: reductions (a row sum is part of
/// every softmax, and what lies behind it is another computation), calls
/// and control flow.
bool stopsTheWalk(Operation *op) {
  if (isa<RegionBranchOpInterface, CallOpInterface>(op) ||
      op->hasTrait<OpTrait::IsTerminator>())
    return true;
  if (op->getNumResults() == 0)
    return true;
  for (OpResult result : op->getResults()) {
    std::optional<StructuredView> view = getStructuredView(result);
    if (view && view->hasReduction())
      return true;
  }
  return false;
}

} // namespace

SmallVector<SoftmaxUse>
mlir::fa::recognition::findSoftmaxUses(Operation *scope) {
  SmallVector<SoftmaxUse> uses;
  scope->walk([&](Operation *source) {
    if (!isSoftmaxSource(source))
      return;
    // Breadth first, so that the path to each contraction is a shortest
    // one; `parent` gives it back.
    llvm::DenseMap<Operation *, Operation *> parent;
    llvm::DenseMap<Operation *, unsigned> distance;
    std::deque<Operation *> queue = {source};
    distance[source] = 0;
    llvm::DenseSet<Operation *> reported;
    while (!queue.empty()) {
      Operation *op = queue.front();
      queue.pop_front();
      if (distance[op] >= kMaxForwardOps)
        continue;
      for (Operation *user : op->getUsers()) {
        if (distance.count(user))
          continue;
        distance[user] = distance[op] + 1;
        parent[user] = op;
        if (isContraction(user)) {
          if (!reported.insert(user).second)
            continue;
          SoftmaxUse use{source, user, ""};
          if (Operation *callee = exponentialCallee(source)) {
            // inlineAttentionHelpers inlined every private helper (when
            // asked to): this one is public, external or of several blocks.
            use.unreachedBecause =
                "its exponential is computed in @" +
                SymbolTable::getSymbolName(callee).str() +
                ", behind a call fa-raise-attention does not inline (it "
                "inlines private functions of one block, with "
                "inline-helpers=true; inline it first: --inline)";
            use.behindCall = true;
            uses.push_back(use);
            continue;
          }
          // Walk back as the matcher does: the first op it would not pass.
          unsigned steps = 0;
          for (Operation *on = parent[user]; on != source; on = parent[on]) {
            ++steps;
            if (use.unreachedBecause.empty() && !isLookedThrough(on))
              use.unreachedBecause =
                  "it reaches " + user->getName().getStringRef().str() +
                  " only through " + on->getName().getStringRef().str() +
                  ", which the recognizer does not look through";
          }
          if (use.unreachedBecause.empty() && steps + 1 > kMatcherDepth)
            use.unreachedBecause =
                "it reaches " + user->getName().getStringRef().str() +
                " through " + std::to_string(steps) +
                " ops, more than the recognizer follows";
          uses.push_back(use);
          continue;
        }
        if (!stopsTheWalk(user))
          queue.push_back(user);
      }
    }
  });
  return uses;
}
