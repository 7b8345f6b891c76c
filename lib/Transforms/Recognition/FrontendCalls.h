//===- FrontendCalls.h - Helpers a frontend keeps as functions --*- C++ -*-===//
//
// Stage: recognition (normalization before matching). JAX export and other
// tracing frontends keep the helpers of an attention as private functions:
// `@softmax`, `@_where`, `@einsum` called with func.call. The attention is
// the same function whether or not its softmax sits behind a call, so before
// anything is matched, the calls to private helpers that take part in an
// attention are inlined (the callee's body is cloned at the call, exactly
// what the call computes), and helpers left without a caller are erased.
//
// Only calls in a function that holds, or calls a helper that holds, an
// exponential (math.exp/exp2, tosa.exp, linalg.softmax) are inlined: a
// module with no attention keeps its calls. Public and external callees are
// never inlined (another module may call or define them); a softmax behind
// such a call is named by fa-raise-attention's remark instead.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_FRONTENDCALLS_H
#define FA_TRANSFORMS_RECOGNITION_FRONTENDCALLS_H

#include "mlir/IR/Operation.h"

namespace mlir::fa::recognition {

/// Whether `op` computes an exponential of a tensor or a scalar (math.exp,
/// math.exp2, tosa.exp, linalg.softmax); an exp inside a linalg body is
/// such an op too, found by walking the body.
bool isExponential(Operation *op);

/// Inlines, in the functions `symbolTable` (a module) holds, every call to
/// a private function with a body of one block that is part of an attention
/// (see the file comment), until no such call is left or after a bounded
/// number of rounds (recursion), and erases the private helpers no call
/// reaches any more. Returns the number of calls inlined.
unsigned inlineAttentionHelpers(Operation *symbolTable);

/// The private or public callee of `call` when its body (or a callee it
/// calls, a few levels down) holds an exponential; null otherwise.
Operation *exponentialCallee(Operation *call);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_FRONTENDCALLS_H
