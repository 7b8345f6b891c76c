//===- Passes.h - Passes of fa-opt ------------------------------*- C++ -*-===//
//
// Declares the passes that transform fa.attention and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_PASSES_H
#define FA_TRANSFORMS_PASSES_H

#include "fa/Dialect/FA/IR/FADialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class RewriterBase;

namespace fa {

#define GEN_PASS_DECL
#include "fa/Transforms/Passes.h.inc"

/// Adds the patterns that rewrite fa.attention into the unfused linalg
/// reference computation (what `fa-decompose-attention` applies).
void populateDecomposeAttentionPatterns(RewritePatternSet &patterns);
class LinearAttentionOp;

/// fa.linear_attention in the cheap order (fa-lower-linear-attention): Q (K^T
/// V), causal by chunks of `defaultChunk` rows unless the op says; an error
/// at the op where it cannot (a dynamic group size).
LogicalResult lowerLinearAttention(RewriterBase &rewriter, LinearAttentionOp op,
                                   int64_t defaultChunk);
/// The reference of fa.linear_attention, in the quadratic order (also in
/// populateDecomposeAttentionPatterns).
void populateDecomposeLinearAttentionPatterns(RewritePatternSet &patterns);

/// Adds the recognizer of `fa-raise-attention` as a pattern, for a compiler
/// that runs it in its own driver; refusals are match failures carrying the
/// reason (the pass adds remarks and counts on top). For example:
///
///   RewritePatternSet patterns(context);
///   fa::populateRaiseAttentionPatterns(patterns);
///   (void)applyPatternsGreedily(module, std::move(patterns));
void populateRaiseAttentionPatterns(RewritePatternSet &patterns);

class AttentionOp;
class AttentionOpInterface;

/// What fa-fold-masks-into-modifiers does to one fa.attention or
/// fa.attention_backward: the computation of its mask operand becomes its
/// score_mod (a float mask) or mask_mod (an i1 mask) and the operand is
/// dropped. Fails, with the reason in `why` and the op unchanged, where the
/// mask is not computed from positions and tensors smaller than itself, or
/// (backward) where the op computes the mask's gradient.
LogicalResult foldMaskIntoModifiers(RewriterBase &rewriter,
                                    AttentionOpInterface op, std::string &why);

#define GEN_PASS_REGISTRATION
#include "fa/Transforms/Passes.h.inc"

} // namespace fa
} // namespace mlir

#endif // FA_TRANSFORMS_PASSES_H
