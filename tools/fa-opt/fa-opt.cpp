//===- fa-opt.cpp - The fa-opt driver -------------------------------------===//
//
// mlir-opt with the fa dialect, its passes and pipelines registered next to
// every upstream dialect and pass, so that one tool runs a frontend module
// from TOSA/linalg through fa to LLVM.
//
//===----------------------------------------------------------------------===//

#include "fa/InitFA.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::fa::registerFAPassesAndPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::fa::registerFADialects(registry);
  // fa-gpu-pipeline serializes gpu.modules to PTX through LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fa-opt: FlashAttention compiler\n",
                        registry));
}
