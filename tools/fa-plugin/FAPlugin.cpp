//===- FAPlugin.cpp - fa as a plugin for upstream mlir-opt ----------------===//
//
// One shared library that upstream tools load with
//   mlir-opt --load-dialect-plugin=libFAPlugin.so \
//            --load-pass-plugin=libFAPlugin.so
// to parse fa IR and run every fa pass and pipeline without fa-opt. The
// library and the tool must come from the same LLVM (the plugin API checks
// its version and the LLVM version string on load).
//
//===----------------------------------------------------------------------===//

#include "fa/InitFA.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "FA", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) { fa::registerFADialects(*registry); }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "FAPasses", LLVM_VERSION_STRING,
          []() { fa::registerFAPassesAndPipelines(); }};
}
