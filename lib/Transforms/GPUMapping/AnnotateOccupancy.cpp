//===- AnnotateOccupancy.cpp - nvvm.minctasm from shared memory -----------===//
//
// Stage: NVVM lowering, after outlining. A FlashAttention kernel's shared
// memory (tens of KB of Q, K, V, score and P tiles) usually limits an SM to
// one or two of its blocks. ptxas cannot know that: the tiles live in
// dynamic shared memory, sized at launch. Left alone, it budgets registers
// for a higher occupancy and spills to stay within that budget (observed:
// 8 spill bytes at 128 registers for the f16 d = 64 kernel on sm_90, none at
// 150 with the hint). This pass states the occupancy shared memory allows,
// as nvvm.minctasm, at most what costs no registers
// (minBlocksPerSMHint in KernelModel.h decides, for the chip's preset).
//
//===----------------------------------------------------------------------===//

#include "fa/Kernel/KernelModel.h"
#include "fa/Target/TargetDescription.h"
#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAANNOTATEOCCUPANCY
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// Bytes of the kernel's static workgroup attributions; nullopt if one has
/// a dynamic shape.
std::optional<int64_t> staticSharedBytes(gpu::GPUFuncOp kernel) {
  int64_t bytes = 0;
  for (BlockArgument buffer : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape())
      return std::nullopt;
    bytes += type.getNumElements() *
             llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  return bytes;
}

struct FAAnnotateOccupancyPass
    : fa::impl::FAAnnotateOccupancyBase<FAAnnotateOccupancyPass> {
  using FAAnnotateOccupancyBase::FAAnnotateOccupancyBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<fa::TargetDescription> target = fa::lookupTargetPreset(chip);
    // nvvm.minctasm means something to NVIDIA chips only.
    if (!target || !target->isGPU() || !StringRef(chip).starts_with("sm_")) {
      module.emitError() << "fa-annotate-occupancy: '" << chip
                         << "' is not an NVIDIA chip preset (sm_XX)";
      return signalPassFailure();
    }
    // The largest dynamic shared memory each kernel is launched with;
    // nullopt once a launch's size is not a constant.
    llvm::DenseMap<SymbolRefAttr, std::optional<int64_t>> dynamicBytes;
    module.walk([&](gpu::LaunchFuncOp launch) {
      std::optional<int64_t> bytes = 0;
      if (Value size = launch.getDynamicSharedMemorySize()) {
        APInt constant;
        bytes = matchPattern(size, m_ConstantInt(&constant))
                    ? std::optional<int64_t>(constant.getSExtValue())
                    : std::nullopt;
      }
      auto [entry, inserted] =
          dynamicBytes.try_emplace(launch.getKernel(), bytes);
      if (!inserted && entry->second)
        entry->second =
            bytes ? std::optional<int64_t>(std::max(*entry->second, *bytes))
                  : std::nullopt;
    });
    module.walk([&](gpu::GPUModuleOp kernels) {
      for (auto kernel : kernels.getOps<gpu::GPUFuncOp>()) {
        std::optional<ArrayRef<int32_t>> blockSize = kernel.getKnownBlockSize();
        // A kernel that states its occupancy keeps it (a warp-specialized
        // one splits the SM's registers for one block:
        // fa-specialize-warpgroups).
        if (!kernel.isKernel() || !blockSize ||
            kernel->hasAttr("nvvm.minctasm"))
          continue;
        auto symbol =
            SymbolRefAttr::get(kernels.getNameAttr(),
                               {FlatSymbolRefAttr::get(kernel.getNameAttr())});
        auto launched = dynamicBytes.find(symbol);
        std::optional<int64_t> staticBytes = staticSharedBytes(kernel);
        if (launched == dynamicBytes.end() || !launched->second || !staticBytes)
          continue;
        int64_t threads = 1;
        for (int32_t extent : *blockSize)
          threads *= extent;
        if (std::optional<int64_t> blocks = fa::minBlocksPerSMHint(
                *staticBytes + *launched->second, threads, *target))
          kernel->setAttr(
              "nvvm.minctasm",
              IntegerAttr::get(IntegerType::get(&getContext(), 32), *blocks));
      }
    });
  }
};

} // namespace
