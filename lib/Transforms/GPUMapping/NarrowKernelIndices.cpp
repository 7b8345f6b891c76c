//===- NarrowKernelIndices.cpp - 32-bit index in kernels that fit ---------===//
//
// Stage: NVVM lowering, after outlining. MLIR lowers `index` to the data
// layout's width, 64 bits by default, so every shared-memory address the
// kernel forms for ldmatrix and cp.async is 64-bit integer arithmetic (two
// SASS instructions per add), while FlashAttention-2 forms them in 32 bits
// from pointers it advances. Where the stage of a two-buffer pipeline picks
// the address, LLVM cannot hoist it and the main loop pays for it every key
// block (docs/GPU-Checks.md, "The main loop against FlashAttention-2's").
//
// A 32-bit index is exact when no index value can reach 2^31. The kernels
// compute indices from thread and block ids, constants and i32 lengths, and
// use them as element offsets into their memrefs, so it suffices that every
// memref a kernel touches spans fewer than 2^31 elements. Scalar `index`
// kernel arguments would change the launch ABI (the host passes i64) and
// keep a module 64-bit; so do descriptors, which is why the pipeline runs
// this pass only with bare-pointer launches.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fa-narrow-kernel-indices"

namespace mlir::fa {
#define GEN_PASS_DEF_FANARROWKERNELINDICES
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

constexpr int64_t kIndexLimit = int64_t(1) << 31;

/// The largest element offset `type` can address, plus one; nullopt when it
/// is not known at compile time.
std::optional<int64_t> elementSpan(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  // Wide enough that no product of a static shape below overflows.
  __int128 span = offset + 1;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
    if (size == 0)
      return 0;
    span += static_cast<__int128>(size - 1) * (stride < 0 ? -stride : stride);
    if (span >= kIndexLimit)
      return std::nullopt;
  }
  return static_cast<int64_t>(span);
}

/// Why `module` must keep a 64-bit index ("" when it need not).
std::string whyNot64BitOnly(gpu::GPUModuleOp module) {
  std::string why;
  auto refuse = [&](Operation *op, Twine reason) {
    if (why.empty())
      why = (reason + " (" + op->getName().getStringRef() + ")").str();
  };
  auto checkMemRef = [&](Operation *op, Type type, StringRef what) {
    auto memref = dyn_cast<MemRefType>(type);
    if (memref && !elementSpan(memref))
      refuse(op, Twine(what) + " spans 2^31 elements or an unknown number");
  };
  module.walk([&](gpu::GPUFuncOp func) {
    for (BlockArgument argument : func.getArguments()) {
      if (argument.getType().isIndex())
        refuse(func, "an index argument");
      checkMemRef(func, argument.getType(), "a memref argument");
    }
    for (Value buffer : func.getWorkgroupAttributions())
      checkMemRef(func, buffer.getType(), "a workgroup buffer");
    for (Value buffer : func.getPrivateAttributions())
      checkMemRef(func, buffer.getType(), "a private buffer");
  });
  // Buffers made in the kernel. Views of them and of the arguments
  // (subview, view, cast) address no more than what they view; dynamic
  // shared memory is bounded by the chip (kilobytes).
  module.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp>(op))
      checkMemRef(op, op->getResult(0).getType(), "a buffer");
  });
  return why;
}

struct FANarrowKernelIndicesPass
    : fa::impl::FANarrowKernelIndicesBase<FANarrowKernelIndicesPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    getOperation().walk([&](gpu::GPUModuleOp module) {
      if (module->hasAttr(DLTIDialect::kDataLayoutAttrName))
        return; // Someone chose this module's layout already.
      std::string why = whyNot64BitOnly(module);
      if (!why.empty()) {
        LLVM_DEBUG(llvm::dbgs() << "gpu.module @" << module.getName()
                                << " keeps a 64-bit index: " << why << "\n");
        return;
      }
      auto index = DataLayoutEntryAttr::get(
          IndexType::get(context), IntegerAttr::get(IntegerType::get(context, 32), 32));
      module->setAttr(DLTIDialect::kDataLayoutAttrName,
                      DataLayoutSpecAttr::get(context, {index}));
    });
  }
};

} // namespace
