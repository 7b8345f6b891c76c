//===- GPUMapping.h - The kernels on gpu, nvgpu and NVVM --------*- C++ -*-===//
//
// Stages 4b-5 (docs/Design.md): the distributed kernels mapped onto
// gpu.launch, nvgpu's tensor-core ops and NVVM, ready for the NVPTX backend
// and ptxas; buildGPUPipeline (fa/Pipelines/Pipelines.h) runs them in order.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_GPUMAPPING_GPUMAPPING_H
#define FA_TRANSFORMS_GPUMAPPING_GPUMAPPING_H

#include "fa/Dialect/FA/IR/FADialect.h"

// The dialects its passes load (their dependentDialects in Passes.td),
// which the pass classes name.
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fa {

/// The stage's passes (Passes.td): their options and create functions.
#define GEN_PASS_DECL
#include "fa/Transforms/GPUMapping/Passes.h.inc"

} // namespace mlir::fa

#endif // FA_TRANSFORMS_GPUMAPPING_GPUMAPPING_H
