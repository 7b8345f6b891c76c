//===- Passes.h - Every pass of fa-opt --------------------------*- C++ -*-===//
//
// Every stage's public header and the registration of all passes
// (registerFATransformsPasses). For tools and pipelines; a stage includes the
// headers of the stages it builds on, never this one
// (scripts/check-layering.py).
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_PASSES_H
#define FA_TRANSFORMS_PASSES_H

#include "fa/Transforms/CPU/CPU.h"
#include "fa/Transforms/GPUEmulation/GPUEmulation.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"
#include "fa/Transforms/GPUMapping/GPUMapping.h"
#include "fa/Transforms/Recognition/Recognition.h"
#include "fa/Transforms/Reference/Reference.h"
#include "fa/Transforms/TileSelection/TileSelection.h"
#include "fa/Transforms/Tiling/Tiling.h"

namespace mlir::fa {

#define GEN_PASS_REGISTRATION
#include "fa/Transforms/Passes.h.inc"

} // namespace mlir::fa

#endif // FA_TRANSFORMS_PASSES_H
