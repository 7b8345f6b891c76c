//===- InitFA.cpp - Registering fa with a tool or a compiler --------------===//

#include "fa/InitFA.h"

#include "fa/Dialect/FA/IR/FADialect.h"
#include "fa/Pipelines/ConfirmTilesWithPtxas.h"
#include "fa/Pipelines/Pipelines.h"
#include "fa/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::fa::registerFADialects(DialectRegistry &registry) {
  registry.insert<FADialect>();
}

void mlir::fa::registerFAPassesAndPipelines() {
  registerFATransformsPasses();
  registerFAPipelinesPasses();
  registerPipelines();
}
