//===- FADialect.cpp - The fa dialect -------------------------------------===//
//
// Registers the fa dialect's operations and attributes, and verifies the
// attributes that can be checked on their own.
//
//===----------------------------------------------------------------------===//

#include "fa/Dialect/FA/IR/FADialect.h"
#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fa;

#include "fa/Dialect/FA/IR/FAOpsDialect.cpp.inc"

#include "fa/Dialect/FA/IR/FAEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "fa/Dialect/FA/IR/FAAttrs.cpp.inc"

void FADialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "fa/Dialect/FA/IR/FAOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fa/Dialect/FA/IR/FAAttrs.cpp.inc"
      >();
}

LogicalResult WindowAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t left, int64_t right,
                                 DiagonalAlignment) {
  if (left < 0 || right < 0)
    return emitError() << "window bounds must be non-negative, got left = "
                       << left << ", right = " << right;
  return success();
}
