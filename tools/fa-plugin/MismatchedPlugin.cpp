//===- MismatchedPlugin.cpp - A plugin built for another plugin API -------===//
//
// Test-only: stands for a libFAPlugin.so built against another MLIR, so that
// test/Plugin/version-mismatch.mlir can show what a user sees when the
// plugin and mlir-opt do not match. Never installed.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION + 1, "FA", "0.0.0", [](DialectRegistry *) {}};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION + 1, "FAPasses", "0.0.0", []() {}};
}
