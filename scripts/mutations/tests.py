"""The lit tests that catalogue entries name, where several entries share
them: paths from the root (or "unittests" for the unit tests)."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

NARROW_TESTS = ["test/Transforms/GPUMapping/narrow-kernel-indices.mlir",
                "test/GPU/index-bitwidth.mlir"]
JOINT_TESTS = ["test/Transforms/Recognition/RaiseAttention/joint-graphs.mlir",
               "test/Integration/Backward/raise-joint-graphs.mlir",
               "test/Integration/Backward/raise-joint-graph-masks.mlir",
               "test/Differential/random-joint-graphs.test"]

SWEEP = "test/Integration/Tiling/sweep-"
DIFFERENTIAL = "test/Differential/random-programs.test"
SPLIT_SWEEP = [SWEEP + n + ".mlir" for n in
               ("splits2-decode-mqa", "splits4-nq4-gqa8", "splits7-nq16-causal",
                "splits3-window-empty-rows", "splits2-dynamic",
                "kernel-mma-splits4-gqa4-causal", "kernel-mma-decode-gqa8-splits7")]
PACK_SWEEP = [SWEEP + n + ".mlir" for n in
              ("pack-gqa-decode-causal", "pack-gqa-nq4-bias-splits3",
               "kernel-mma-pack-gqa-splits5")]
BACKWARD = "test/Integration/Backward/"
BACKWARD_SWEEP = [BACKWARD + "sweep-" + n + ".mlir" for n in
                  ("n7-tail", "nq-ne-nk-dv", "tiles-divide-f16", "causal-top-left",
                   "causal-bottom-right-empty-rows", "window",
                   "window-causal-bottom-right", "keep-mask-empty-row-f16",
                   "bias-gqa", "gqa-causal", "mqa-bias-f16", "bf16-causal",
                   "n1000-tails", "bias-gradient", "window-last-row-starts-block",
                   "causal-diagonal-at-block-end")]
BACKWARD_CAUSAL = [BACKWARD + "sweep-" + n + ".mlir" for n in
                   ("causal-top-left", "causal-bottom-right-empty-rows",
                    "causal-diagonal-at-block-end",
                    "window-causal-bottom-right", "gqa-causal", "bf16-causal")]
# Every case of the backward GPU kernels (emulated threads, sm_80).
GPU_BACKWARD = [BACKWARD + "gpu-kernel-" + n + ".mlir" for n in
                ("causal-two-fragment-rows-f16", "tails-dv-bf16",
                 "gqa-window-cp-async-f16", "keep-mask-empty-rows-f16",
                 "mqa-bias-causal-top-left-bf16", "causal-empty-rows-f16",
                 "d128-four-warps-f16", "padded-rows-far-scores")]
GPU_BACKWARD_ASYNC = [GPU_BACKWARD[i] for i in (2, 3, 4, 6)]
# The dK/dV kernel on wgmma (sm_90a).
WGMMA_BACKWARD = [BACKWARD + "gpu-kernel-" + n + ".mlir" for n in
                  ("wgmma-d64-gqa-f16", "wgmma-d128-causal-bf16",
                   "wgmma-dv64-window-bias-f16",
                   "wgmma-d256-column-split-causal-f16")]
GPU_BIAS_GRADIENT = [BACKWARD + "gpu-kernel-" + n + ".mlir" for n in
                     ("bias-gradient-batch-broadcast-gqa-f16",
                      "bias-gradient-head-broadcast-window-bf16")]
MULTI_BLOCK = [SWEEP + n + ".mlir" for n in
               ("decode", "n7-tail", "n127-nq-ne-nk", "f16-d64", "n64-divides",
                "bf16-d128", "gqa", "additive-bias")]


def multi_block_sweep(kernel=None):
    """Every sweep case in which some row sees more than one key block (its
    "// Inputs:" line says so), optionally only those whose GPU kernel is
    the tensor-core one (kernel="mma") or the FMA one (kernel="fma")."""
    folder = os.path.join(ROOT, "test", "Integration", "Tiling")
    cases = []
    for name in sorted(os.listdir(folder)):
        if not name.startswith("sweep-"):
            continue
        text = open(os.path.join(folder, name)).read()
        if "no row sees more than one key block" in text:
            continue
        mma = "--check-prefix=MMA" in text
        # A case whose GPU kernel the op refuses (its registers) runs no
        # kernel numerically: no kernel mutation can fail it.
        runs_kernel = re.search(r"^// RUN: fa-opt .*gpu-kernel=.*%mlir-run", text,
                                re.MULTILINE)
        if kernel is None or ((kernel == "mma") == mma and runs_kernel):
            cases.append(SWEEP + name[len("sweep-"):])
    return cases


# Every case on the tensor-core kernel (all cross key blocks).
KERNEL_MMA = multi_block_sweep("mma")

# Every case whose runs include Hopper's kernel (gpu-kernel=sm_90a, wgmma).
KERNEL_WGMMA = sorted(
    os.path.relpath(os.path.join(dirpath, f), ROOT)
    for dirpath, _, files in os.walk(os.path.join(ROOT, "test/Integration/Tiling"))
    for f in files
    if f.endswith(".mlir") and "gpu-kernel=sm_90a" in open(os.path.join(dirpath, f)).read())
WGMMA_UNITS = ["test/Transforms/GPUEmulation/emulate-warpgroup-mma.mlir",
               "test/Transforms/GPUEmulation/emulate-warpgroup-mma-async.mlir"]
KERNEL_FMA = [SWEEP + n + ".mlir" for n in
              ("kernel-stages2", "kernel-stages3-gqa", "kernel-full-block",
               "kernel-odd-dims")]

# Every case whose kernel prefetches K and V with cp.async (two or more
# stages, on sm_80 or later).
ASYNC_SWEEP = [SWEEP + n + ".mlir" for n in
               ("kernel-stages2", "kernel-stages3-gqa",
                "kernel-mma-stages2-window", "kernel-mma-bf16-gqa-stages2")]

MOD = "test/Integration/Modifiers/"

LINEAR_KERNEL = "test/Integration/LinearAttention/gpu-kernel.test"
LINEAR_NEAR_MISSES = "test/Transforms/Recognition/RaiseAttention/linear-attention-near-misses.mlir"
