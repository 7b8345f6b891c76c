//===- FAOps.h - Operations of the fa dialect -------------------*- C++ -*-===//
//
// Declares fa.attention, fa.attention_backward and AttentionOpInterface.
//
//===----------------------------------------------------------------------===//

#ifndef FA_DIALECT_FA_IR_FAOPS_H
#define FA_DIALECT_FA_IR_FAOPS_H

#include "fa/Dialect/FA/IR/FADialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "fa/Dialect/FA/IR/FAInterfaces.h.inc"

#define GET_OP_CLASSES
#include "fa/Dialect/FA/IR/FAOps.h.inc"

namespace mlir::fa {
/// True when the lowerings can differentiate `op` inside a score_mod (for
/// fa.attention_backward): its name is one of the ops with a derivative
/// rule in Transforms/Common/ScoreModifiers.cpp.
bool hasScoreDerivative(Operation *op);
} // namespace mlir::fa

#endif // FA_DIALECT_FA_IR_FAOPS_H
