//===- DecomposeAggregatedOps.cpp - linalg.softmax to generics ------------===//
//
// Stage: CPU execution. Upstream has no pass that applies
// AggregatedOpInterface::decomposeOperation; the CPU pipeline needs one so
// that a linalg.softmax that was not raised still runs.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/CPU/CPU.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FADECOMPOSEAGGREGATEDOPS
#include "fa/Transforms/CPU/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {
struct FADecomposeAggregatedOpsPass
    : fa::impl::FADecomposeAggregatedOpsBase<FADecomposeAggregatedOpsPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        op->emitOpError("could not be decomposed for the CPU pipeline");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
