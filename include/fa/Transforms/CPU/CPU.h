//===- CPU.h - The CPU execution of fa-cpu-pipeline -------------*- C++ -*-===//
//
// Stage C (docs/Design.md): what fa-cpu-pipeline adds to upstream's CPU
// lowering: aggregated linalg ops decomposed, bf16 stored as i16 for the
// runner's printing.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_CPU_CPU_H
#define FA_TRANSFORMS_CPU_CPU_H

#include "fa/Dialect/FA/IR/FADialect.h"

// The dialects its passes load (their dependentDialects in Passes.td),
// which the pass classes name.
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fa {

/// The stage's passes (Passes.td): their options and create functions.
#define GEN_PASS_DECL
#include "fa/Transforms/CPU/Passes.h.inc"

} // namespace mlir::fa

#endif // FA_TRANSFORMS_CPU_CPU_H
