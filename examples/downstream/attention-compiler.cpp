//===- attention-compiler.cpp - A downstream user of fa -------------------===//
//
// A minimal compiler driver built against the installed fa package: it reads
// a module of TOSA/linalg, raises attention with fa's patterns in its own
// pass manager, lowers with fa's CPU pipeline, and prints the LLVM dialect
// for mlir-runner. With --raise-only it prints the module after raising.
//
//   attention-compiler input.mlir [--raise-only] | mlir-runner ...
//
//===----------------------------------------------------------------------===//

#include "fa/InitFA.h"
#include "fa/Pipelines/Pipelines.h"
#include "fa/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: attention-compiler input.mlir [--raise-only]\n";
    return 2;
  }
  bool raiseOnly = argc > 2 && std::strcmp(argv[2], "--raise-only") == 0;

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::fa::registerFADialects(registry);
  mlir::MLIRContext context(registry);

  llvm::SourceMgr sources;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sources, &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  if (raiseOnly) {
    pm.addPass(mlir::fa::createFARaiseAttention());
  } else {
    mlir::fa::CPUPipelineOptions options;
    mlir::fa::buildCPUPipeline(pm, options);
  }
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
