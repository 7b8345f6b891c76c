//===- NormalizeFrontend.cpp - fa-normalize-frontend ----------------------===//
//
// Stage: recognition (normalization before matching). Inlines an
// attention's private helpers (FrontendCalls.h), distributes P·V over a
// linear combination of softmaxes (LinearCombinations.h) and drops the
// static unit dims of its linalg ops with upstream's unit-extent folding,
// in the functions that compute an exponential only, so that the matcher
// sees one form of batch and head dims whatever unit dims a frontend kept.
//
//===----------------------------------------------------------------------===//

#include "FrontendCalls.h"
#include "LinearCombinations.h"

#include "fa/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FANORMALIZEFRONTEND
#include "fa/Transforms/Passes.h.inc"
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
      if (failed(runPipeline(unitDims, function)))
        return signalPassFailure();
    }
  }
};

} // namespace
