//===- ShareAttentionFunctions.cpp - One function per distinct attention --===//
//
// Stage: before the kernel is built (fa-gpu-pipeline, after tile
// selection). A model's layers usually repeat one attention: the same
// shapes, types, scale, masks and tiling. Lowered in place, each layer
// carries its own copy of the kernel through every later pass, so compile
// time grows with depth. Calling one private function per distinct
// attention instead makes that work once per signature; the launches stay
// one per layer (each call launches the kernel). fa-deduplicate-kernels
// catches what is left (the same kernel reached from different functions
// after they were lowered apart).
//
//===----------------------------------------------------------------------===//

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FASHAREATTENTIONFUNCTIONS
#include "fa/Transforms/GPUKernel/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// What makes two attention ops the same computation on different values:
/// the op's name, operand and result types, and attributes, as printed.
std::string signatureOf(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << "(";
  llvm::interleaveComma(op->getOperandTypes(), os);
  os << ")->(";
  llvm::interleaveComma(op->getResultTypes(), os);
  os << ")" << op->getRawDictionaryAttrs() << op->getPropertiesAsAttribute();
  return text;
}

struct FAShareAttentionFunctionsPass
    : fa::impl::FAShareAttentionFunctionsBase<FAShareAttentionFunctionsPass> {
  using FAShareAttentionFunctionsBase::FAShareAttentionFunctionsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // In program order; the map owns the signatures the groups point to.
    llvm::StringMap<unsigned> seen;
    llvm::MapVector<StringRef, SmallVector<Operation *>> groups;
    module.walk([&](fa::AttentionOp op) {
      auto it = seen.try_emplace(signatureOf(op), 0).first;
      groups[it->first()].push_back(op);
    });

    SymbolTable symbols(module);
    OpBuilder b(module.getContext());
    unsigned index = 0;
    for (auto &[signature, ops] : groups) {
      if (ops.size() < 2)
        continue;
      Operation *first = ops.front();
      Location loc = first->getLoc();
      auto type = b.getFunctionType(first->getOperandTypes(),
                                    first->getResultTypes());
      b.setInsertionPointToEnd(module.getBody());
      auto function = func::FuncOp::create(
          b, loc, "__fa_attention_" + std::to_string(index++), type);
      function.setPrivate();
      symbols.insert(function); // uniques the name if it is taken
      Block *body = function.addEntryBlock();
      b.setInsertionPointToStart(body);
      IRMapping mapping;
      mapping.map(first->getOperands(), body->getArguments());
      Operation *copy = b.clone(*first, mapping);
      func::ReturnOp::create(b, loc, copy->getResults());
      for (Operation *op : ops) {
        OpBuilder at(op);
        auto call = func::CallOp::create(at, op->getLoc(), function,
                                         op->getOperands());
        op->replaceAllUsesWith(call.getResults());
        op->erase();
      }
      numShared += ops.size();
    }
  }
};

} // namespace
