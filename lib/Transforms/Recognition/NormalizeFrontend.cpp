//===- NormalizeFrontend.cpp - fa-normalize-frontend ----------------------===//
//
// Stage: recognition (normalization before matching). Inlines an
// attention's private helpers (FrontendCalls.h), distributes P·V over a
// linear combination of softmaxes (LinearCombinations.h), computes
// elementwise ops on an expanded view collapsed back on the collapsed
// shape (ElementwiseUnderReshapes.h), writes its
// transposes and broadcasts as generics and drops the static unit dims of
// its linalg ops with upstream's unit-extent folding,
// in the functions that compute an exponential only, so that the matcher
// sees one form of batch and head dims whatever unit dims a frontend kept.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseUnderReshapes.h"
#include "FrontendCalls.h"
#include "LinearCombinations.h"

#include "fa/Transforms/Recognition/Recognition.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FANORMALIZEFRONTEND
#include "fa/Transforms/Recognition/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

struct FANormalizeFrontendPass
    : fa::impl::FANormalizeFrontendBase<FANormalizeFrontendPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    fa::recognition::inlineAttentionHelpers(module);

    // Upstream's pass, as it is (its patterns and the reshape folding it
    // adds), run on each function that computes an exponential.
    OpPassManager unitDims(func::FuncOp::getOperationName());
    unitDims.addPass(createLinalgFoldUnitExtentDimsPass());
    for (auto function : module.getOps<func::FuncOp>()) {
      bool computesExponential = false;
      function.walk([&](Operation *op) {
        if (fa::recognition::isExponential(op)) {
          computesExponential = true;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (!computesExponential)
        continue;
      fa::recognition::distributeOverLinearCombinations(function);
      fa::recognition::computeElementwiseUnderReshapes(function);
      // Transposes and broadcasts as generics, so that the unit-dim
      // folding below drops their unit dims too (MaxText moves a keepdims
      // row sum [.., t, 1] with a transpose before merging its heads).
      IRRewriter rewriter(function.getContext());
      SmallVector<linalg::LinalgOp> copies;
      function.walk([&](Operation *op) {
        if (isa<linalg::TransposeOp, linalg::BroadcastOp>(op))
          copies.push_back(cast<linalg::LinalgOp>(op));
      });
      for (linalg::LinalgOp copy : copies) {
        rewriter.setInsertionPoint(copy);
        (void)linalg::generalizeNamedOp(rewriter, copy);
      }
      if (failed(runPipeline(unitDims, function)))
        return signalPassFailure();
    }
  }
};

} // namespace
