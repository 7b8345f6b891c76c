//===- AttentionShapeOf.h - An attention op as tile selection sees it -*- C++ -*-===//
//
// Stage: tile selection. The bridge from IR to the pure model of
// TileSelection.h: fa-select-tiles describes each op with it, and so does
// fa-confirm-tiles-with-ptxas when it asks the model for another tiling.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_TILESELECTION_ATTENTIONSHAPEOF_H
#define FA_TRANSFORMS_TILESELECTION_ATTENTIONSHAPEOF_H

#include "fa/Transforms/TileSelection/TileSelection.h"

namespace mlir::fa {

class AttentionOpInterface;

/// The shape of an fa.attention or fa.attention_backward as tile selection
/// sees it: sizes (kUnknownSize where only known at run time), element
/// types, masks, modifications and packing. `tmaProducerKernel` is left
/// false: it is the pipeline's choice, not the op's.
AttentionShape describeAttentionShape(AttentionOpInterface op);

} // namespace mlir::fa

#endif // FA_TRANSFORMS_TILESELECTION_ATTENTIONSHAPEOF_H
