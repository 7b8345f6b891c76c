//===- FADialect.h - The fa dialect -----------------------------*- C++ -*-===//
//
// Declares the fa dialect and its attributes.
//
//===----------------------------------------------------------------------===//

#ifndef FA_DIALECT_FA_IR_FADIALECT_H
#define FA_DIALECT_FA_IR_FADIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "fa/Target/TargetDescription.h"

#include "fa/Dialect/FA/IR/FAOpsDialect.h.inc"

#include "fa/Dialect/FA/IR/FAEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fa/Dialect/FA/IR/FAAttrs.h.inc"

#endif // FA_DIALECT_FA_IR_FADIALECT_H
