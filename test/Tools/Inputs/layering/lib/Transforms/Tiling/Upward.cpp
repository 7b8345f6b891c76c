// clang-format off
// A stage reading every pass (the umbrella header) and a later stage's
// private header: both upward.
#include "fa/Transforms/Passes.h"
#include "GPUKernel/KernelBuilder.h"
// Allowed: the stage's own header, a floor's private header, one beside it.
#include "fa/Transforms/Tiling/Tiling.h"
#include "Common/TensorBuilders.h"
#include "Local.h"
