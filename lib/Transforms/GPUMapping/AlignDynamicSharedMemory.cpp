//===- AlignDynamicSharedMemory.cpp - wgmma kernels' dynamic shared memory ===//
//
// Stage: NVVM lowering, after the GPU-to-NVVM conversion. Upstream lowers
// gpu.dynamic_shared_memory to an external `llvm.mlir.global` aligned to 16
// bytes, which is all the mma.sync kernels' 16-byte accesses need. The
// wgmma kernel's tiles are read through the 128-byte swizzle, whose pattern
// is a function of the absolute shared address and starts on a 1024-byte
// boundary: fa-lower-to-gpu places its dynamic tiles at multiples of 1024
// bytes from the base, so the base must be 1024-aligned too. A module is a
// wgmma module when one of its functions holds an inline asm that issues
// wgmma.mma_async (fa.warpgroup_mma's lowering).
//
//===----------------------------------------------------------------------===//

#include "fa/Kernel/WarpgroupLayout.h"
#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAALIGNDYNAMICSHAREDMEMORY
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using mlir::fa::kSwizzle128PatternBytes;

namespace {

struct FAAlignDynamicSharedMemoryPass
    : fa::impl::FAAlignDynamicSharedMemoryBase<FAAlignDynamicSharedMemoryPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    bool issuesWgmma =
        module
            .walk([](LLVM::InlineAsmOp assembly) {
              return assembly.getAsmString().contains("wgmma.mma_async")
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted();
    if (!issuesWgmma)
      return;
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      if (!global.getSymName().starts_with("__dynamic_shmem__"))
        continue;
      if (global.getAlignment().value_or(0) >= kSwizzle128PatternBytes)
        continue;
      global.setAlignment(kSwizzle128PatternBytes);
    }
  }
};

} // namespace
