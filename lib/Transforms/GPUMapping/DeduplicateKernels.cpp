//===- DeduplicateKernels.cpp - One kernel per distinct attention ---------===//
//
// Stage: NVVM lowering, after outlining. Outlining makes one gpu.module per
// gpu.launch, so a 128-layer model whose attention layers all have the same
// shape compiled into 128 identical kernels: 128 NVVM lowerings, 128 ptxas
// runs and 128 copies in the output. This pass keeps one module of each set
// of identical ones and retargets the launches of the others to it, as
// IREE deduplicates its executables.
//
// Identity is decided on the printed module, locations left out, with the
// module's name and its symbols' names replaced by placeholders: whatever
// differs in the kernels' code, attributes or types, differs in that text.
// Printing costs a few milliseconds a kernel, far less than lowering one.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FADEDUPLICATEKERNELS
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// The module's text with its own name and its symbols' names replaced by
/// their position, so that two copies outlined under different names
/// compare equal. Empty when the module's symbols cannot be renamed.
std::string canonicalText(gpu::GPUModuleOp module) {
  OwningOpRef<gpu::GPUModuleOp> copy(module.clone());
  SymbolTable::setSymbolName(*copy, "kernels");
  unsigned index = 0;
  for (Operation &op : copy->getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol)
      continue;
    auto placeholder =
        StringAttr::get(module.getContext(), "symbol" + Twine(index++));
    if (failed(SymbolTable::replaceAllSymbolUses(symbol, placeholder,
                                                 copy->getOperation())))
      return "";
    SymbolTable::setSymbolName(symbol, placeholder);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os, OpPrintingFlags().useLocalScope());
  return text;
}

struct FADeduplicateKernelsPass
    : fa::impl::FADeduplicateKernelsBase<FADeduplicateKernelsPass> {
  using FADeduplicateKernelsBase::FADeduplicateKernelsBase;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    // Only modules that nothing but launches refers to can be merged.
    DenseMap<StringAttr, SmallVector<gpu::LaunchFuncOp>> launchesOf;
    DenseSet<StringAttr> pinned;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&top.getBodyRegion());
    if (!uses)
      return;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringAttr root = use.getSymbolRef().getRootReference();
      if (auto launch = dyn_cast<gpu::LaunchFuncOp>(use.getUser()))
        launchesOf[root].push_back(launch);
      else
        pinned.insert(root);
    }

    llvm::StringMap<gpu::GPUModuleOp> kept;
    SmallVector<gpu::GPUModuleOp> erased;
    for (auto module : top.getOps<gpu::GPUModuleOp>()) {
      StringAttr name = module.getSymNameAttr();
      if (pinned.contains(name))
        continue;
      std::string text = canonicalText(module);
      if (text.empty())
        continue;
      auto [it, inserted] = kept.try_emplace(text, module);
      if (inserted)
        continue;
      gpu::GPUModuleOp original = it->second;
      // Same text: the kernel at the same position in both modules.
      for (gpu::LaunchFuncOp launch : launchesOf.lookup(name)) {
        StringAttr kernel = launch.getKernelName();
        Operation *duplicate = SymbolTable::lookupSymbolIn(module, kernel);
        unsigned position = 0;
        for (Operation &op : module.getBody()->getOperations()) {
          if (&op == duplicate)
            break;
          if (isa<SymbolOpInterface>(op))
            ++position;
        }
        Operation *target = nullptr;
        unsigned seen = 0;
        for (Operation &op : original.getBody()->getOperations()) {
          if (!isa<SymbolOpInterface>(op))
            continue;
          if (seen++ == position) {
            target = &op;
            break;
          }
        }
        launch.setKernelAttr(SymbolRefAttr::get(
            original.getSymNameAttr(),
            {FlatSymbolRefAttr::get(SymbolTable::getSymbolName(target))}));
      }
      erased.push_back(module);
    }
    for (gpu::GPUModuleOp module : erased)
      module.erase();
    numErased += erased.size();
  }
};

} // namespace
