//===- GPUKernel.h - The GPU kernels of the fa ops --------------*- C++ -*-===//
//
// Stage 4a (docs/Design.md): fa.attention and fa.attention_backward as GPU
// kernels, written as block- and thread-mapped scf.forall loops on buffers
// with shared tiles, barriers, cp.async and warp-level matmuls; still
// runnable on a CPU (fa-emulate-threads-on-cpu) before fa-lower-to-gpu maps
// them onto gpu.launch. The passes fa-distribute-attention and
// fa-distribute-attention-backward apply these to every op.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_GPUKERNEL_GPUKERNEL_H
#define FA_TRANSFORMS_GPUKERNEL_GPUKERNEL_H

#include "fa/Dialect/FA/IR/FADialect.h"

// The dialects its passes load (their dependentDialects in Passes.td),
// which the pass classes name.
#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/KernelModel.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::fa {

/// The stage's passes (Passes.td): their options and create functions.
#define GEN_PASS_DECL
#include "fa/Transforms/GPUKernel/Passes.h.inc"

/// Marks the role predicates of a warp-specialized kernel (an i1 op
/// result): "compute" (the thread computes) and "producer_leader" (the one
/// producer thread that issues TMA loads). fa-specialize-warpgroups
/// versions the kernel on them.
constexpr llvm::StringLiteral kWarpgroupRoleAttrName = "fa.warpgroup_role";
constexpr llvm::StringLiteral kComputeRole = "compute";
constexpr llvm::StringLiteral kProducerLeaderRole = "producer_leader";
/// On a "producer_leader" predicate: the registers per thread the producer
/// warpgroup keeps (an i64; KernelPlan::producerRegisters), which
/// fa-specialize-warpgroups gives it with setmaxnreg. Without it, the
/// kernel model's kProducerRegisters.
constexpr llvm::StringLiteral kProducerRegistersAttrName =
    "fa.producer_registers";

/// The forward kernel `op`'s tiling gets (planKernel on the op's shape and
/// types). `op` must have a tiling.
KernelPlan planForwardKernel(AttentionOp op, const KernelOptions &options = {});

/// Replaces `op` by the forward kernel of planForwardKernel and returns the
/// results. Fails, with
/// the reason at `op`, when its tiling is missing or does not fit the kernel
/// (tilingProblem), or when its pack_gqa would not be exact.
FailureOr<SmallVector<Value>>
distributeAttention(RewriterBase &rewriter, AttentionOp op,
                    const KernelOptions &options = {});

/// Why the backward kernels cannot take `op` (element types, head dims,
/// the tiling, a chip without tensor cores), or "" when they can.
std::string whyNoBackwardKernel(AttentionBackwardOp op,
                                const KernelOptions &options = {});

/// Replaces `op` by the backward kernels (D, dK/dV, dQ and the bias
/// gradient) and returns dQ, dK, dV (and dBias). Fails, with the reason at
/// `op`, where tileAttentionBackward would, or where whyNoBackwardKernel
/// says.
FailureOr<SmallVector<Value>>
distributeAttentionBackward(RewriterBase &rewriter, AttentionBackwardOp op,
                            const KernelOptions &options = {});

/// Why the linear attention kernel cannot take `op` (element types, head
/// dims, no chunk, a chip without tensor cores), or "" when it can.
std::string whyNoLinearAttentionKernel(LinearAttentionOp op,
                                       const KernelOptions &options = {});

/// Replaces `op` by the linear attention kernel
/// (DistributeLinearAttention.cpp) and returns its output; fails with the
/// reason at `op` where whyNoLinearAttentionKernel says.
FailureOr<Value> distributeLinearAttention(RewriterBase &rewriter,
                                           LinearAttentionOp op,
                                           const KernelOptions &options = {});

/// Patterns that apply distributeAttention and distributeAttentionBackward
/// to the ops the kernels can take (a match failure with the reason
/// otherwise, so that a backward op the kernels cannot take is left for
/// the tiled lowering).
void populateDistributeAttentionPatterns(RewritePatternSet &patterns,
                                         const KernelOptions &options = {});

} // namespace mlir::fa

#endif // FA_TRANSFORMS_GPUKERNEL_GPUKERNEL_H
