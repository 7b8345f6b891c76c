//===- FrontendCalls.cpp - Helpers a frontend keeps as functions ----------===//
//
// Stage: recognition (normalization before matching). Inlines the private
// helpers of an attention; see FrontendCalls.h.
//
//===----------------------------------------------------------------------===//

#include "FrontendCalls.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::fa::recognition;

namespace {

/// Rounds of inlining: a helper calling a helper is inlined in the next
/// round. Bounds the work on recursive private functions, which are never
/// fully inlined.
constexpr unsigned kMaxInliningRounds = 8;
/// How deep exponentialCallee looks through callees calling callees.
constexpr unsigned kMaxCallDepth = 8;

/// The func.func `call` calls, resolved from its nearest symbol table.
func::FuncOp calleeOf(func::CallOp call) {
  return SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
}

/// Whether `function`'s body, or a callee's it calls (down to `depth`
/// levels), holds an exponential. `seen` stops recursion.
bool reachesExponential(func::FuncOp function, unsigned depth,
                        llvm::SmallPtrSetImpl<Operation *> &seen) {
  if (!function || function.isExternal() || !seen.insert(function).second)
    return false;
  bool found = false;
  function.walk([&](Operation *op) {
    if (isExponential(op)) {
      found = true;
      return WalkResult::interrupt();
    }
    auto call = dyn_cast<func::CallOp>(op);
    if (call && depth > 0 && reachesExponential(calleeOf(call), depth - 1, seen)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

bool reachesExponential(func::FuncOp function) {
  llvm::SmallPtrSet<Operation *, 8> seen;
  return reachesExponential(function, kMaxCallDepth, seen);
}

/// A callee whose body can be cloned at its call and no other module can
/// see: private, defined here with one block.
bool isInlinableHelper(func::FuncOp callee) {
  return callee && callee.isPrivate() && !callee.isExternal() &&
         callee.getBody().hasOneBlock();
}

} // namespace

bool mlir::fa::recognition::isExponential(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, tosa::ExpOp, linalg::SoftmaxOp>(op);
}

Operation *mlir::fa::recognition::exponentialCallee(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return nullptr;
  func::FuncOp callee = calleeOf(call);
  return reachesExponential(callee) ? callee.getOperation() : nullptr;
}

unsigned mlir::fa::recognition::inlineAttentionHelpers(Operation *symbolTable) {
  if (!symbolTable->hasTrait<OpTrait::SymbolTable>())
    return 0;
  MLIRContext *context = symbolTable->getContext();
  InlinerInterface interface(context);
  InlinerConfig config;
  unsigned inlined = 0;
  SmallVector<Operation *> helpers;
  for (unsigned round = 0; round < kMaxInliningRounds; ++round) {
    // The calls to inline this round: those in a function that reaches an
    // exponential itself or through its callees, to helpers with a body.
    SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
    llvm::DenseMap<Operation *, bool> attentionFunction;
    symbolTable->walk([&](func::CallOp call) {
      auto caller = call->getParentOfType<func::FuncOp>();
      func::FuncOp callee = calleeOf(call);
      if (!caller || !isInlinableHelper(callee) || callee == caller)
        return;
      auto [entry, inserted] = attentionFunction.try_emplace(caller, false);
      if (inserted)
        entry->second = reachesExponential(caller);
      if (entry->second)
        calls.push_back({call, callee});
    });
    if (calls.empty())
      break;
    for (auto [call, callee] : calls) {
      if (failed(inlineCall(interface, config.getCloneCallback(),
                            cast<CallOpInterface>(call.getOperation()),
                            cast<CallableOpInterface>(callee.getOperation()),
                            &callee.getBody())))
        continue;
      call.erase();
      if (!llvm::is_contained(helpers, callee.getOperation()))
        helpers.push_back(callee);
      ++inlined;
    }
  }
  // Helpers no call reaches any more are dead: a private function has no
  // caller outside this module.
  // A helper called only by a dead helper dies with it: repeat until none
  // is erased.
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&helper : helpers) {
      if (!helper)
        continue;
      auto function = cast<func::FuncOp>(helper);
      if (!SymbolTable::symbolKnownUseEmpty(function, symbolTable))
        continue;
      function.erase();
      helper = nullptr;
      erased = true;
    }
  }
  return inlined;
}
