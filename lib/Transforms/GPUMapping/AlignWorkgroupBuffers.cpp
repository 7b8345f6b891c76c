//===- AlignWorkgroupBuffers.cpp - 16-byte aligned static shared tiles ----===//
//
// Stage: NVVM lowering, after outlining. fa-distribute-attention's kernel
// copies its tiles into shared memory and reads them 16 bytes at a time
// (ld/st.shared.v4), 8 for the tensor-core kernel's fragments and P halves,
// and states that alignment on each access. Dynamic shared tiles are
// placed at 16-byte offsets by fa-lower-to-gpu. Static ones (workgroup
// attributions, up to 48 KB) become LLVM globals that upstream's GPU-to-NVVM
// lowering aligns to their element unless the attribution says otherwise:
// `.shared .align 2` for an f16 tile, which lets ptxas place it where a
// 16-byte access faults. gpu.launch has no attribution attributes, so the
// alignment is stated here, on the outlined kernel.
//
//===----------------------------------------------------------------------===//

#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/WarpgroupLayout.h"
#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAALIGNWORKGROUPBUFFERS
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using mlir::fa::kSwizzle128PatternBytes;

namespace {

/// The widest access the kernel form makes to a shared tile.
constexpr int64_t kSharedAccessBytes = 16;

struct FAAlignWorkgroupBuffersPass
    : fa::impl::FAAlignWorkgroupBuffersBase<FAAlignWorkgroupBuffersPass> {
  void runOnOperation() override {
    StringRef alignName = LLVM::LLVMDialect::getAlignAttrName();
    Builder b(&getContext());
    getOperation()->walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      // wgmma and TMA swizzle on absolute shared addresses: a 128-byte
      // swizzle's pattern starts on a 1024-byte boundary, and the
      // descriptors fa.warpgroup_mma carries count from their buffer's
      // start.
      bool warpgroupMatmuls =
          kernel
              .walk([](fa::WarpgroupMmaOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      int64_t alignment =
          warpgroupMatmuls ? kSwizzle128PatternBytes : kSharedAccessBytes;
      for (unsigned index = 0; index < kernel.getNumWorkgroupAttributions();
           ++index) {
        auto stated = dyn_cast_or_null<IntegerAttr>(
            kernel.getWorkgroupAttributionAttr(index, alignName));
        if (stated && stated.getInt() >= alignment)
          continue;
        kernel.setWorkgroupAttributionAttr(index, alignName,
                                           b.getI64IntegerAttr(alignment));
      }
    });
  }
};

} // namespace
