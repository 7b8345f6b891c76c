//===- GPUEmulation.h - The GPU kernels run on a CPU ------------*- C++ -*-===//
//
// Stage 4a on a CPU (docs/Design.md): the thread- and warp-distributed
// kernels of GPUKernel.h run by mlir-runner, one thread at a time in a
// chosen order (fa-emulate-threads-on-cpu), with every store checked
// (fa-guard-kernel-outputs): how the kernels are known right without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_GPUEMULATION_GPUEMULATION_H
#define FA_TRANSFORMS_GPUEMULATION_GPUEMULATION_H

#include "fa/Dialect/FA/IR/FADialect.h"

// The dialects its passes load (their dependentDialects in Passes.td),
// which the pass classes name.
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fa {

/// The stage's passes (Passes.td): their options and create functions.
#define GEN_PASS_DECL
#include "fa/Transforms/GPUEmulation/Passes.h.inc"

} // namespace mlir::fa

#endif // FA_TRANSFORMS_GPUEMULATION_GPUEMULATION_H
