//===- KeepLoopAnnotations.cpp - loop annotations into llvm.br -----------===//
//
// Stage: NVVM lowering, after the GPU-to-NVVM conversion. The kernel
// builder marks a loop it must keep rolled with `llvm.loop_annotation` on
// the scf.for: the TMA producer's loop over a key block's per-page boxes
// (GPUKernel/TmaProducer.cpp), which LLVM fully unrolls otherwise, after
// which the producer's one thread holds every box's page and coordinates
// at once and spills its 32 registers. convert-scf-to-cf carries the mark
// onto the loop's back edge (a cf.br) as a discardable attribute, where the
// translation to LLVM IR does not look; it reads llvm.br's own
// `loop_annotation` (and emits `!llvm.loop`, which the NVPTX backend turns
// into `.pragma "nounroll"` for ptxas).
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAKEEPLOOPANNOTATIONS
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// The discardable attribute convert-scf-to-cf leaves on a back edge.
constexpr llvm::StringLiteral kLoopAnnotationAttrName = "llvm.loop_annotation";

struct FAKeepLoopAnnotationsPass
    : fa::impl::FAKeepLoopAnnotationsBase<FAKeepLoopAnnotationsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      auto annotation = dyn_cast_or_null<LLVM::LoopAnnotationAttr>(
          op->getDiscardableAttr(kLoopAnnotationAttrName));
      if (!annotation)
        return;
      auto branch = dyn_cast<LLVM::BrOp>(op);
      if (!branch)
        return;
      branch.setLoopAnnotationAttr(annotation);
      op->removeDiscardableAttr(kLoopAnnotationAttrName);
    });
  }
};

} // namespace
