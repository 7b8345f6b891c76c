//===- Passes.td - Passes of fa-opt -------------------------*- tablegen -*-===//
//
// Every transformation pass of fa-opt, for their registration
// (registerFATransformsPasses) and the pass reference: each stage declares
// its own passes in its Passes.td (include/fa/Transforms/<stage>/), whose
// Passes.h.inc the pass implementations include for their base classes.
// The pipelines' pass (include/fa/Pipelines/Passes.td) is registered and
// documented with the pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_PASSES_TD
#define FA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

include "fa/Transforms/Recognition/Passes.td"
include "fa/Transforms/Reference/Passes.td"
include "fa/Transforms/TileSelection/Passes.td"
include "fa/Transforms/Tiling/Passes.td"
include "fa/Transforms/GPUKernel/Passes.td"
include "fa/Transforms/GPUEmulation/Passes.td"
include "fa/Transforms/GPUMapping/Passes.td"
include "fa/Transforms/CPU/Passes.td"

#endif // FA_TRANSFORMS_PASSES_TD
