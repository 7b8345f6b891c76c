"""The mutations of the stage Kernel (include/fa/Kernel, lib/Kernel).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation

MUTATIONS = [
    # Issue 54: the dK/dV kernel holding dQ's atomic product.
    Mutation(
        name="atomic-dq-product-registers-uncounted",
        function="mlir::fa::backwardRegistersPerThread",
        old="""    keyValue += 36;""",
        new="""    keyValue += 0;""",
        tests=["unittests"],
        description="64 x 128 at d = 64 admitted with dQ's product, where ptxas spills 8 to 24 bytes"),
    Mutation(
        name="atomic-dq-scores-tile-uncounted",
        function="mlir::fa::backwardSharedMemoryBytes",
        old="""                          : alignUp(bc * rowBytes(tiling.blockQ))));""",
        new="""                          : 0));""",
        tests=["unittests"],
        description="the report's shared memory leaves out dS^T [Bc][Br]"),
    # Issue 54: the wgmma dK/dV kernel's model (sm_90a).
    Mutation(
        name="wgmma-backward-band-uncounted",
        function="mlir::fa::backwardRegistersPerThread",
        old="""    double band = shape.causalOffset || shape.window ? 16 + queries / 2 : 0;""",
        new="""    double band = 0;""",
        tests=["unittests", "test/Transforms/TileSelection/backward.mlir"],
        description="the causal band's per-element tests left out of the wgmma dK/dV kernel's registers"),
    Mutation(
        name="wgmma-backward-block-q-as-written",
        function="mlir::fa::backwardRegistersPerThread",
        old="""    double queries = double(llvm::PowerOf2Ceil(tiling.blockQ));""",
        new="""    double queries = double(tiling.blockQ);""",
        tests=["unittests"],
        description="block_q = 48 counted as 48, not 64: ptxas needed 228 registers at 48 x 128, more than at 64 x 128"),
    Mutation(
        name="wgmma-backward-scores-tile-unpadded",
        function="mlir::fa::backwardSharedMemoryBytes",
        old="""                          ? bc * double(llvm::alignTo(tiling.blockQ, 64)) * e""",
        new="""                          ? bc * double(tiling.blockQ) * e""",
        tests=["unittests", "test/Transforms/TileSelection/backward.mlir"],
        description="dS^T counted as block_q columns where the kernel allocates whole 64-column blocks"),
    Mutation(
        name="wgmma-backward-warps-unchecked",
        function="mlir::fa::whyNoWarpgroupBackwardTiling",
        old="""  if (tiling.warps != tiling.blockKV / warpKeys * split)""",
        new="""  if (false)""",
        tests=["unittests"],
        description="a tiling whose warps are not block_kv / 16 taken for the wgmma kernel (warpgroups would not own 64 keys)"),
    Mutation(
        name="wgmma-backward-split-unshared",
        function="mlir::fa::warpgroupBackwardRegisters",
        old="""      double(shape.headDim + shape.valueDim) / 2 /
          double(warpgroupBackwardColumnSplit(shape)) +""",
        new="""      double(shape.headDim + shape.valueDim) / 2 +""",
        tests=["unittests"],
        description="each warpgroup of a column split counted with all of dK's and dV's columns: no tiling at D = 256"),
    # Issue 53: the causal band in the TMA producer kernel's registers.
    Mutation(
        name="causal-band-counted-again",
        function="tmaProducerComputeRegisters",
        old="""  double bands = !shape.window                   ? 0""",
        new="""  double bands = !shape.window                   ? (shape.causalOffset ? 8 : 0)""",
        tests=["unittests"],
        description="the causal band's 8 registers, which ptxas no longer measures: FlashAttention-3's causal 192 x 128 at d = 64 no longer fits 160"),
    Mutation(
        name="split-window-counted-as-masked",
        function="tmaProducerComputeRegisters",
        old="""                 : splitsBandWalk(tiling, shape) ? double(tiling.blockKV) / 2""",
        new="""                 : splitsBandWalk(tiling, shape) ? 8""",
        tests=["unittests", "test/GPU/hopper-lengths.test"],
        description="a window's split walk counted as one that masks every block: 128 x 80 at d = 256 admitted at 228 where ptxas needs 248"),
    Mutation(
        name="narrow-window-walk-split",
        function="mlir::fa::splitsBandWalk",
        old="""  return double(shape.window->left) + right + 2 >=""",
        new="""  return true || double(shape.window->left) + right + 2 >=""",
        tests=["unittests"],
        description="a window too narrow for any key block to lie whole inside it splits its walk: loops that only cost registers"),
    Mutation(
        name="window-split-ignores-causal-diagonal",
        function="mlir::fa::splitsBandWalk",
        old="""  if (shape.causalOffset)
    right = std::min(right, double(*shape.causalOffset) -
                                double(shape.window->offset));""",
        new="""""",
        tests=["unittests"],
        description="a causal window's right edge taken past the diagonal: a window that the diagonal leaves too narrow splits"),
    Mutation(
        name="mma-sync-window-bases-as-causal",
        function="mlir::fa::registersPerThread",
        old="""    double bandBases = shape.window ? 20 : shape.causalOffset ? 3 : 0;""",
        new="""    double bandBases = shape.window || shape.causalOffset ? 3 : 0;""",
        tests=["test/GPU/hopper-lengths.test"],
        description="a window's bases counted as a causal band's in the mma.sync model: d = 64, 128 x 64, 4 warps spills 4 to 40 bytes under a window"),
    Mutation(
        name="causal-two-block-walk-quarter-row",
        function="tmaProducerComputeRegisters",
        old="""    straightLine = double(tiling.blockKV) / (bandOrSplits ? 2 : 4);""",
        new="""    straightLine = double(tiling.blockKV) / 4;""",
        tests=["unittests"],
        description="a causal walk of two static key blocks counted as the plain one: 128 x 176 at d = 64, N = 257 admitted at 240 where ptxas needs over 256"),
    # Issue 53: P in shared memory only where measured.
    Mutation(
        name="shared-p-under-a-band",
        function="mlir::fa::sharedProbabilitiesTiling",
        old="""      shape.causalOffset || shape.window || shape.maskOperand)""",
        new="""      shape.window || shape.maskOperand)""",
        tests=["unittests"],
        description="causal tiles keep P in shared memory: 128 x 192 at d = 64 needed over 248 registers at N = 257"),
    Mutation(
        name="shared-p-at-any-value-dim",
        function="mlir::fa::sharedProbabilitiesTiling",
        old="""      shape.valueDim != columnBlock || tiling.stages < 2 || shape.scoreMod ||""",
        new="""      tiling.stages < 2 || shape.scoreMod ||""",
        tests=["unittests"],
        description="P V from shared memory where FlashAttention-3 keeps P in registers (d = 128: 128 x 192)"),
    Mutation(
        name="shared-p-carried-p-still-counted",
        function="tmaProducerComputeRegisters",
        old="""      sharedProbabilities ? 0 : double(tiling.blockKV) / 4;""",
        new="""      double(tiling.blockKV) / 4;""",
        tests=["unittests", "test/GPU/shared-probabilities.test"],
        description="the model counts P carried in registers where it waits in shared memory: 192 x 192 never fits"),
    # Issue 53: key splits past d = 192 cost no registers only with two
    # stages, whole unmasked key blocks and an even share of them.
    Mutation(
        name="split-registers-waived-with-one-stage",
        function="mlir::fa::registersPerThread",
        old="    if (shape.headDim > 192 && tiling.stages >= 2 &&",
        new="    if (shape.headDim > 192 && tiling.stages >= 1 &&",
        tests=["unittests"],
        description="d = 256 splits with one stage estimated free (ptxas spilled 24 bytes on sm_100)"),
    Mutation(
        name="split-registers-waived-uneven",
        function="mlir::fa::registersPerThread",
        old="""        everyKeyBlockWhole(tiling, shape) &&
        (shape.keyLen / tiling.blockKV) % tiling.kvSplits == 0)""",
        new="        everyKeyBlockWhole(tiling, shape))",
        tests=["unittests"],
        description="d = 256 splits that share the key blocks unevenly estimated free (28 bytes spilled on sm_100)"),
    Mutation(
        name="whole-key-blocks-ignores-lengths",
        function="mlir::fa::everyKeyBlockWhole",
        old="         !shape.window && !shape.maskOperand && !shape.keyLengths &&",
        new="         !shape.window && !shape.maskOperand &&",
        tests=["unittests", "test/Transforms/TileSelection/decode-wide-heads.mlir"],
        description="kv_lengths' run-time masked block taken for whole blocks"),
    Mutation(
        name="whole-key-blocks-ignores-score-mods",
        function="mlir::fa::everyKeyBlockWhole",
        old="""         !shape.packedSequences && shape.pageSize == 0 &&
         !shape.scoreModifications;""",
        new="         !shape.packedSequences && shape.pageSize == 0;",
        tests=["unittests"],
        description="a score_mod's or mask_mod's blocks taken for plain whole blocks at d = 256"),
    Mutation(
        name="tma-paged-boxes-across-pages",
        function="mlir::fa::tmaKeyBoxRows",
        old="""  return std::gcd(shape.pageSize, tiling.blockKV);""",
        new="""  return tiling.blockKV;""",
        tests=["test/Integration/Tiling/tma-small-pages.mlir", "unittests"],
        description="a key block's one TMA box crosses pages: its rows past the first page read the page after it in the cache"),
    Mutation(
        name="tma-paged-boxes-of-part-atoms",
        function="mlir::fa::whyNoTmaProducerTiling",
        old="""  if (rows % swizzleAtomRows != 0)""",
        new="""  if (false)""",
        tests=["test/Transforms/GPUKernel/distribute-tma-producer.mlir", "unittests"],
        description="4-row boxes of 12-slot pages land off the 128-byte swizzle's 8-row pattern"),
    Mutation(
        name="tma-paged-producer-keeps-24",
        function="mlir::fa::tmaProducerRegisters",
        old="""             ? kPagedProducerRegisters""",
        new="""             ? kProducerRegisters""",
        tests=["test/GPU/tma-producer.test", "unittests"],
        description="the producer of per-page boxes keeps 24 registers and spills"),
    Mutation(
        name="op50-static-tail-third-of-a-row",
        function="mlir::fa::registersPerThread",
        old="""      staticTail = fragmentRows * double(tiling.blockKV) / 2;""",
        new="""      staticTail = fragmentRows * double(tiling.blockKV) / 3;""",
        tests=["unittests"],
        description="the static tail block's registers counted as a third of an S row per fragment row (d = 128, 128 x 32 spilled 264 bytes at N = 1000)"),
    Mutation(
        name="shared-layout-without-score-tiles",
        function="mlir::fa::sharedLayout",
        old="""  if (plan.tensorCores && !plan.registerFragments) {""",
        new="""  if (false) {""",
        tests=["unittests", "test/Transforms/TileSelection/shared-scores.mlir",
               "test/Transforms/GPUKernel/distribute.mlir"],
        description="the shared layout leaves out S's results and P of the register-fragments=false kernel: the report undercounts its shared memory (sm_86 chose a tile needing 153,600 of 101,376 bytes)"),
    Mutation(
        name="shared-layout-swizzles-every-tensor-core-kernel",
        function="mlir::fa::sharedLayout",
        old="""  bool swizzle = plan.registerFragments;""",
        new="""  bool swizzle = plan.tensorCores;""",
        tests=["unittests", "test/Transforms/TileSelection/shared-scores.mlir"],
        description="the shared-memory tensor-core kernel's rows swizzled in the layout, which it reads padded"),
]
