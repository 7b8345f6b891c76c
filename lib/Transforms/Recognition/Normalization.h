//===- Normalization.h - One form for the spellings of a candidate -*- C++ -*-===//
//
// Stage: recognition (how it is found). Frontends spell the same attention
// in many ways that compute the same numbers: a scale written as
// `1 / sqrt(64)` in f64 and truncated, a constant broadcast or reshaped to
// [1, 1, 1, 1], `x + 0.0` on P, `x * 1.0` on V, a cast or reshape to the same
// type. Normalization reads each of them as its one canonical form, so that
// the matcher sees one spelling. It never changes IR: it only shapes the
// StructuredView the matcher reads.
//
// Example. The scale of
//
//   %c64  = arith.constant 64 : i64
//   %f    = arith.sitofp %c64 : i64 to f64
//   %r    = math.sqrt %f : f64
//   %inv  = arith.divf %one, %r : f64
//   %s    = arith.truncf %inv : f64 to f32
//   %st   = tensor.splat %s : tensor<1x1xf32>
//   %cst  = tosa.reshape %st ... -> tensor<1x1x1x1xf32>
//   %x    = tosa.mul %scores, %cst, %shift
//   %y    = tosa.add %x, %zeros        // dense<0.0>
//
// is viewed as `mul(scores, 0.125)`: evaluateConstant folds the scalar chain
// step by step in each op's own type (so the f64 result is exactly what the
// program computes), looks through the splat and the reshape, and
// simplifyIdentity drops the `+ 0.0`.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_NORMALIZATION_H
#define FA_TRANSFORMS_RECOGNITION_NORMALIZATION_H

#include "StructuredView.h"

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::fa::recognition {

/// The compile-time value of `value` when it is a float scalar, or a tensor
/// that holds that one value everywhere: constants and splats (arith,
/// tosa.const, tensor.splat, linalg.fill), ops that only reshape, broadcast
/// or copy such a tensor, and scalar arith/math arithmetic on constants
/// (integer constants converted with sitofp/uitofp included). Each step is
/// rounded to its result type. Nullopt otherwise.
std::optional<double> evaluateConstant(Value value);

/// The result of the scalar operation `kind` on constant operands, rounded
/// to `resultType`, when it is exactly what a program computes (add, sub,
/// mul, div, max, neg and float casts; not exp or log, whose rounding
/// depends on the math library).
std::optional<double> foldScalar(ScalarKind kind, ArrayRef<double> operands,
                                 Type resultType);

/// Whether `value` is zero whatever the program's inputs, though no
/// constant: the first rescale of an online softmax, `exp(m0 - m) * 0`
/// where m is a row max that starts at m0 (IREE's decomposed online
/// attention starts its accumulator and its sum this way). exp(m0 - m) lies
/// in [0, 1] since m >= m0, so the product is 0 (NaN only where the scores
/// hold NaN, which makes the frontend's output NaN there too).
bool isZeroRescale(Value value);

/// The ops computing a zero rescale (isZeroRescale): the product and the
/// exp of its factor. They only start the softmax's sum and accumulator,
/// so they belong to the attention's pattern.
SmallVector<Operation *, 2> zeroRescaleOps(Value value);

/// When `kind` applied to `operands` (node indices of `view`) is an identity
/// step (x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1), the index of x.
std::optional<unsigned> simplifyIdentity(const StructuredView &view,
                                         ScalarKind kind,
                                         ArrayRef<unsigned> operands);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_NORMALIZATION_H
