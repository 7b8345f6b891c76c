"""The mutations of the stage GPUKernel (include/fa/Transforms/GPUKernel, lib/Transforms/GPUKernel).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation
from .tests import (
    ASYNC_SWEEP, BACKWARD, DIFFERENTIAL, GPU_BACKWARD, GPU_BACKWARD_ASYNC,
    GPU_BIAS_GRADIENT, KERNEL_FMA, KERNEL_MMA, KERNEL_WGMMA, LINEAR_KERNEL,
    MOD, SPLIT_SWEEP, SWEEP, WGMMA_BACKWARD, multi_block_sweep)

MUTATIONS = [
    # Issue 54: the dK/dV kernel on wgmma (sm_90a).
    Mutation(
        name="wgmma-dq-without-barrier",
        function="BackwardKernel::warpgroupQueryBlock",
        old="""    computeBarrier(kGradScoreStoredBarrier);
    warpgroupQueryGradient(""",
        new="""    warpgroupQueryGradient(""",
        tests=WGMMA_BACKWARD,
        description="dQ^T's wgmmas read dS^T_s before every warpgroup has stored its keys' rows"),
    # Issue 54: the dK/dV kernel's producer warpgroup (sm_90a's default):
    # each synchronization point of its ring.
    Mutation(
        name="wgmma-backward-producer-ignores-empty",
        function="BackwardKernel::buildKeyValueGradients",
        old="""            waitOnBarrier(ring.empty(pm, stage), free);""",
        new="""""",
        tests=WGMMA_BACKWARD,
        description="the producer refills a stage of Q and dO before the compute warpgroups are done with it"),
    Mutation(
        name="wgmma-backward-empty-wrong-parity",
        function="BackwardKernel::buildKeyValueGradients",
        old="""            waitOnBarrier(ring.empty(pm, stage), free);""",
        new="""            waitOnBarrier(ring.empty(pm, stage), parity);""",
        tests=WGMMA_BACKWARD,
        description="the producer waits for the empty barrier's phase of the wrong round"),
    Mutation(
        name="wgmma-backward-compute-skips-query-full",
        function="BackwardKernel::buildKeyValueGradients",
        old="""            waitOnBarrier(ring.queryFull(cm, stage), parity);""",
        new="""""",
        tests=WGMMA_BACKWARD,
        description="S^T reads Q_s, L and D before their TMA loads have landed"),
    Mutation(
        name="wgmma-backward-compute-skips-grad-output-full",
        function="BackwardKernel::buildKeyValueGradients",
        old="""            waitOnBarrier(ring.gradOutputFull(cm, stage), parity);""",
        new="""""",
        tests=WGMMA_BACKWARD,
        description="dP^T reads dO_s before its TMA loads have landed"),
    Mutation(
        name="wgmma-backward-no-release",
        function="BackwardKernel::warpgroupQueryBlock",
        old="""  if (tmaProducer)
    nvgpu::MBarrierArriveOp::create(""",
        new="""  if (false)
    nvgpu::MBarrierArriveOp::create(""",
        tests=WGMMA_BACKWARD,
        description="the compute warpgroups never free a stage: the producer's wait never completes"),
    Mutation(
        name="wgmma-backward-ds-not-free",
        function="BackwardKernel::warpgroupQueryBlock",
        old="""    if (tmaProducer)
      computeBarrier(kGradScoreFreeBarrier);""",
        new="""""",
        tests=WGMMA_BACKWARD,
        description="a warpgroup stores the next query block's dS^T while another's dQ^T still reads it"),
    Mutation(
        name="wgmma-backward-stats-expect-short",
        function="BackwardKernel::buildKeyValueGradients",
        old="""            expectBytes(blockQ * headDim * elementBytes(elementType) +
                            2 * blockQ * elementBytes(f32),""",
        new="""            expectBytes(blockQ * headDim * elementBytes(elementType),""",
        tests=WGMMA_BACKWARD,
        description="Q's transaction does not count the L/D box: the stage completes with bytes still missing"),
    Mutation(
        name="wgmma-backward-stats-unpadded",
        function="BackwardKernel::buildRowTerm",
        old="""              memref::StoreOp::create(
                  lb, lloc, none, rowStats,""",
        new="""              memref::StoreOp::create(
                  lb, lloc, f32Constant(lb, lloc, std::nan("")), rowStats,""",
        tests=WGMMA_BACKWARD,
        description="rowStats' padding rows past Nq hold garbage (NaN) that dS = P (dP - D) multiplies by P = 0"),
    Mutation(
        name="wgmma-backward-stats-from-stage-zero",
        function="BackwardKernel::transposedProbabilities",
        old="""        Value at = math.add(math.mul(stage, math.constant(2 * blockQ)),""",
        new="""        Value at = math.add(math.mul(math.constant(0), math.constant(2 * blockQ)),""",
        tests=WGMMA_BACKWARD,
        description="L and D read from the first stage of the ring whatever stage the query block landed in"),
    Mutation(
        name="wgmma-backward-kv-unfenced",
        function="BackwardKernel::buildKeyValueGradients",
        old="""    fenceForAsyncProxy();
    gpu::BarrierOp::create(b, loc);
    compute =""",
        new="""    gpu::BarrierOp::create(b, loc);
    compute =""",
        tests=WGMMA_BACKWARD,
        description="wgmma reads K_s and V_s through the async proxy without the fence after the threads' copies"),
    Mutation(
        name="wgmma-dq-idle-warpgroup-adds",
        function="BackwardKernel::warpgroupQueryGradient",
        old="""        Value row = math.addConstant(firstQuery, c * kMmaN + j);
        Value inRange =
            arith::AndIOp::create(b, loc, adds, math.lt(row, queryLen));""",
        new="""        Value row = math.addConstant(firstQuery, c * kMmaN + j);
        Value inRange = math.lt(row, queryLen);""",
        tests=WGMMA_BACKWARD[:1],
        description="a warpgroup past dQ^T's last tile adds that tile a second time"),
    Mutation(
        name="wgmma-dq-key-not-transposed",
        function="BackwardKernel::warpgroupQueryGradient",
        old="""                                   /*ignore_accumulator=*/step == 0,
                                   /*transpose_a=*/true)""",
        new="""                                   /*ignore_accumulator=*/step == 0,
                                   /*transpose_a=*/false)""",
        tests=WGMMA_BACKWARD,
        description="K_s read K-major as dQ^T's A: K, not K^T"),
    Mutation(
        name="wgmma-dq-head-dim-row",
        function="BackwardKernel::warpgroupQueryGradient",
        old="""                           im.addConstant(dimension, 8 * h)});""",
        new="""                           im.addConstant(dimension, 8 * (1 - h))});""",
        tests=WGMMA_BACKWARD,
        description="an accumulator register's two row halves added to each other's head-dim columns"),
    Mutation(
        name="wgmma-gradient-a-register-order",
        function="BackwardKernel::warpgroupAccumulate",
        old="""        operand = vector::InsertOp::create(b, loc, pairs[4 * step + i],""",
        new="""        operand = vector::InsertOp::create(b, loc, pairs[4 * step + (i ^ 1)],""",
        tests=WGMMA_BACKWARD,
        description="dV's and dK's A registers take the other row half's pair"),
    Mutation(
        name="wgmma-scores-left-in-flight",
        function="BackwardKernel::warpgroupTransposedScores",
        old="""      WarpgroupMmaWaitOp::create(b, loc, ValueRange{scores, gradProbs}, 0);""",
        new="""      WarpgroupMmaWaitOp::create(b, loc, ValueRange{scores, gradProbs}, 1);""",
        tests=WGMMA_BACKWARD[:1],
        description="S^T and dP^T read while their group may still be in flight"),
    Mutation(
        name="wgmma-gradient-tile-layout-leaks",
        function="BackwardKernel::buildKeyValueGradients",
        old="""  llvm::SaveAndRestore<bool> tileLayout(columnBlocks, warpgroupMma);""",
        new="""  columnBlocks = warpgroupMma;""",
        tests=WGMMA_BACKWARD[2:],
        description="the dQ kernel (deterministic, mma.sync) copies its tiles in wgmma's column blocks and reads them as whole rows"),
    # Issue 54: D = 256, dK and dV split by columns between two warpgroups.
    Mutation(
        name="wgmma-split-same-key-rows",
        function="BackwardKernel::buildKeyValueGradients",
        old="""  if (warpgroupMma && columnSplit > 1) {""",
        new="""  if (false) {""",
        tests=WGMMA_BACKWARD[3:],
        description="the second key group's warpgroups take the first's keys"),
    Mutation(
        name="wgmma-split-same-columns-read",
        function="BackwardKernel::warpgroupAccumulate",
        old="""        math.mul(part, math.constant(width / columnSplit / blockColumns *""",
        new="""        math.mul(part, math.constant(0 *""",
        tests=WGMMA_BACKWARD[3:],
        description="both halves of dK and dV accumulate from the first half's columns of Q_s and dO_s"),
    Mutation(
        name="wgmma-split-same-columns-stored",
        function="BackwardKernel::buildKeyValueGradients",
        old="""                 f32Constant(b, loc, 1),
                 math.mul(part, math.constant(valueWidth)));""",
        new="""                 f32Constant(b, loc, 1),
                 math.mul(part, math.constant(0)));""",
        tests=WGMMA_BACKWARD[3:],
        description="both warpgroups store their half of dV into the first half's columns"),
    # Issue 54: dQ added with atomics from the dK/dV kernel.
    Mutation(
        name="atomic-dq-without-barrier",
        function="BackwardKernel::buildKeyValueGradients",
        old="""        if (gradScoreSmem) {
          gpu::BarrierOp::create(b, lloc);""",
        new="""        if (gradScoreSmem) {""",
        tests=GPU_BACKWARD[:3] + ["test/Integration/Backward/gpu-kernel-atomic-dq-idle-warps-f16.mlir"],
        description="dS^T read back before every warp has stored its rows"),
    Mutation(
        name="atomic-dq-idle-warps-add",
        function="BackwardKernel::accumulateQueryGradient",
        old="""          math.add(math.add(row0, q0), math.addConstant(lane.group, 8 * r));
      Value inRange =
          arith::AndIOp::create(b, loc, adds, math.lt(row, queryLen));""",
        new="""          math.add(math.add(row0, q0), math.addConstant(lane.group, 8 * r));
      Value inRange = math.lt(row, queryLen);""",
        tests=["test/Integration/Backward/gpu-kernel-atomic-dq-idle-warps-f16.mlir"],
        description="a warp past the last dQ tile adds the last tile a second time"),
    Mutation(
        name="atomic-dq-accumulator-not-zeroed",
        function="BackwardKernel::buildRowTerm",
        old="""  if (gradQueryAccumulator) {
    constexpr int64_t zeros = 4;""",
        new="""  if (false) {
    constexpr int64_t zeros = 4;""",
        tests=GPU_BACKWARD[:3],
        description="dQ's f32 sum starts from whatever the buffer held"),
    Mutation(
        name="atomic-dq-unscaled",
        function="BackwardKernel::buildQueryGradientRounding",
        old="""        Value scaled = arith::MulFOp::create(lb, lloc, sum, factor);""",
        new="""        Value scaled = sum;""",
        tests=GPU_BACKWARD[:3],
        description="dQ rounded without the softmax scale"),
    Mutation(
        name="atomic-dq-key-rows-one-step",
        function="BackwardKernel::accumulateQueryGradient",
        old="""            ValueRange{sm.addConstant(base, step * kMmaK * rowLength)},""",
        new="""            ValueRange{base},""",
        tests=GPU_BACKWARD[:3],
        description="every 16-key step of dS K reads the block's first 16 keys"),
    # Issue 53: P V reading P from shared memory (FlashAttention-3's
    # 192 x 192 at d = 64).
    Mutation(
        name="shared-p-both-halves-in-one-row-group",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::storeProbabilities",
        old="""    Value at = math.addConstant(threadBase, half * groupElements + 64 * chunk);""",
        new="""    Value at = math.addConstant(threadBase, 64 * chunk);""",
        tests=["test/Integration/Tiling/sweep-kernel-wgmma-shared-probabilities.mlir"],
        description="rows g + 8 of P overwrite rows g in P_s"),
    Mutation(
        name="shared-p-chunks-swapped-in-pairs",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::storeProbabilities",
        old="""    int64_t half = int64_t(i) % 2, chunk = int64_t(i) / 2;""",
        new="""    int64_t half = int64_t(i) % 2, chunk = (int64_t(i) / 2) ^ 1;""",
        tests=["test/Integration/Tiling/sweep-kernel-wgmma-shared-probabilities.mlir"],
        description="each pair of 8-key chunks of P stored in each other's place"),
    Mutation(
        name="shared-p-never-stored",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::nextState",
        old="""  if (kernel.plan.sharedProbabilities)
    storeProbabilities(roundedPairs);""",
        new="""  if (kernel.plan.sharedProbabilities)
    (void)roundedPairs;""",
        tests=["test/Integration/Tiling/sweep-kernel-wgmma-shared-probabilities.mlir"],
        description="P V reads P_s, which nothing wrote"),
    Mutation(
        name="shared-p-descriptor-half-stride",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::valueOperands",
        old="""                     /*leading=*/8 * kChunkBytes, /*stride=*/groupBytes,""",
        new="""                     /*leading=*/8 * kChunkBytes, /*stride=*/groupBytes / 2,""",
        tests=["test/Integration/Tiling/sweep-kernel-wgmma-shared-probabilities.mlir"],
        description="P V's A descriptor puts P_s's 8-row groups half as far apart as they are"),
    Mutation(
        name="shared-p-no-proxy-fence",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::storeProbabilities",
        old="""  NVVM::FenceProxyOp::create(
      b(), loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b().getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::SyncWarpOp""",
        new="""  NVVM::SyncWarpOp""",
        tests=["test/GPU/shared-probabilities.test"],
        description="P's stores are not made visible to wgmma's async proxy before the warp syncs"),
    # Issue 53: kv_lengths and packed sequences on the TMA producer kernel.
    Mutation(
        name="tma-values-past-last-key-kept",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::zeroValuesPastLastKey",
        old="""  if (!kernel.keysPastLengthInTensors())
    return;""",
        new="""  if (true)
    return;""",
        tests=["test/Integration/Tiling/tma-sequence-lengths.mlir"],
        description="V's rows past a sequence's last key (NaN in the test) reach P V: 0 x NaN"),
    Mutation(
        name="tma-values-zeroed-from-one-row-late",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::zeroValuesPastLastKey",
        old="""        Value row = lm.add(firstPast, lm.divU(at, lm.constant(chunksPerRow)));""",
        new="""        Value row = lm.add(lm.addConstant(firstPast, 1), lm.divU(at, lm.constant(chunksPerRow)));""",
        tests=["test/Integration/Tiling/tma-sequence-lengths.mlir"],
        description="the first row past the last key keeps what the box brought"),
    Mutation(
        name="tma-values-zeroed-only-walking-forward",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::walkOverlapped",
        old="""      if (reversed)
        zeroValuesPastLastKey(start, zero);""",
        new="""      if (false)
        zeroValuesPastLastKey(start, zero);""",
        tests=["test/Integration/Tiling/tma-sequence-lengths.mlir"],
        description="the walk from the last block never zeroes its first block's V"),
    Mutation(
        name="tma-values-zeroed-only-walking-back",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::walkOverlapped",
        old="""      if (!reversed)
        zeroValuesPastLastKey(lastStart, lastIndex);""",
        new="""      if (false)
        zeroValuesPastLastKey(lastStart, lastIndex);""",
        tests=["test/Integration/Tiling/tma-sequence-lengths.mlir"],
        description="a windowed walk (first block to last) never zeroes its last block's V"),
    Mutation(
        name="tma-values-zeroed-without-barrier",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::zeroValuesPastLastKey",
        old="""      arith::ConstantIntOp::create(b, loc, kValuesZeroedBarrier, 32),""",
        new="""      arith::ConstantIntOp::create(b, loc, kFirstTurnBarrier, 32),""",
        tests=["test/Transforms/GPUKernel/distribute-tma-producer.mlir"],
        description="the compute threads meet on a ping-pong turn's barrier after zeroing V "
                    "(the CPU model runs stores before the next collective, so only the IR check sees it)"),
    Mutation(
        name="tma-values-zeroed-without-proxy-fence",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::zeroValuesPastLastKey",
        old="""  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,""",
        new="""  if (false) NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,""",
        tests=["test/Transforms/GPUKernel/distribute-tma-producer.mlir"],
        description="the zeroed rows of V reach another warpgroup's wgmma (async proxy) unfenced "
                    "(the CPU model has one proxy, so only the IR check sees it)"),
    Mutation(
        name="tma-packed-keys-from-tensor-start",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::produceBlock",
        old="""        block.sequenceKeyStart ? pm.add(block.sequenceKeyStart, col0) : col0;""",
        new="""        col0;""",
        tests=["test/Integration/Tiling/tma-sequence-lengths.mlir", "test/Transforms/GPUKernel/distribute-tma-producer.mlir"],
        description="a packed sequence's K and V boxes start at row 0 of the tensors"),
    Mutation(
        name="tma-paged-box-at-first-page",
        function="mlir::fa::gpu_kernel::KernelBuilder::keyBoxCoordinates",
        old="""  Value page = pageOfEntry(math, key, pageTable, batch, entry);""",
        new="""  Value page = pageOfEntry(math, key, pageTable, batch, math.constant(0));""",
        tests=["test/Integration/Tiling/tma-paged-kv-cache.mlir"],
        description="every key block of a paged cache read from the sequence's first page"),
    Mutation(
        name="tma-paged-slot-from-page-start",
        function="mlir::fa::gpu_kernel::KernelBuilder::keyBoxCoordinates",
        old="""  return {head, math.sub(row, math.mul(entry, pageSize)), page};""",
        new="""  return {head, math.constant(0), page};""",
        tests=["test/Integration/Tiling/tma-paged-kv-cache.mlir"],
        description="a key block in the second half of a page read from the page's first slot"),
    Mutation(
        name="tma-paged-box-entry-past-table",
        function="mlir::fa::gpu_kernel::KernelBuilder::keyBoxCoordinates",
        old="""  Value entry = math.min(math.divU(row, pageSize), lastEntry);""",
        new="""  Value entry = math.divU(row, pageSize);""",
        tests=["test/Transforms/GPUKernel/distribute-tma-producer.mlir"],
        description="a box past the table's last key reads an entry past the table's row"),
    Mutation(
        name="tma-paged-boxes-land-on-one-row",
        function="mlir::fa::gpu_kernel::KernelBuilder::issueKeyBlockLoads",
        old="""          Value offset = lm.add(tile.elementOffset,
                                lm.mul(first, lm.constant(kBoxColumns)));""",
        new="""          Value offset = tile.elementOffset;""",
        tests=["test/Integration/Tiling/tma-small-pages.mlir"],
        description="every per-page box of a key block lands on the tile's first rows"),
    Mutation(
        name="tma-paged-boxes-one-page",
        function="mlir::fa::gpu_kernel::KernelBuilder::issueKeyBlockLoads",
        old="""              keyBoxCoordinates(lm, batch, head, lm.add(row0, first)));""",
        new="""              keyBoxCoordinates(lm, batch, head, row0));""",
        tests=["test/Integration/Tiling/tma-small-pages.mlir"],
        description="every per-page box of a key block reads the block's first box"),
    Mutation(
        name="tma-paged-boxes-unrolled",
        function="mlir::fa::gpu_kernel::KernelBuilder::issueKeyBlockLoads",
        old="""    boxes->setAttr(
        "llvm.loop_annotation",""",
        new="""    if (false) boxes->setAttr(
        "llvm.loop_annotation",""",
        tests=["test/GPU/tma-producer.test", "test/Integration/Tiling/tma-small-pages.mlir"],
        description="LLVM unrolls the per-page boxes and the producer spills"),
    Mutation(
        name="tma-producer-registers-unmarked",
        function="mlir::fa::gpu_kernel::KernelBuilder::isProducerLeader",
        old="""                  kProducerLeaderRole, plan.producerRegisters);""",
        new="""                  kProducerLeaderRole, 24);""",
        tests=["test/GPU/tma-producer.test", "test/Transforms/GPUKernel/distribute-tma-producer.mlir"],
        description="the producer of per-page boxes is given 24 registers and spills"),
    Mutation(
        name="tma-packed-queries-from-tensor-start",
        function="mlir::fa::gpu_kernel::KernelBuilder::loadQueryByTma",
        old="""    Value row0 = block.sequenceQueryStart
                     ? math.add(block.sequenceQueryStart, block.row0)
                     : block.row0;""",
        new="""    Value row0 = block.row0;""",
        tests=["test/Integration/Tiling/tma-sequence-lengths.mlir"],
        description="a packed sequence's Q box starts at row 0 of the tensor"),
    # Issue 50: the outside audit's one-line bugs that no test saw, and the
    # session's own rules (the host's tiles, the TMA walk order).
    Mutation(
        name="linear-kernel-column-max-half-rows",
        function="LinearKernel::updateState",
        old="          for (int64_t r = 0; r < 2; ++r)\n"
            "            m = arith::MaximumFOp::create(",
        new="          for (int64_t r = 0; r < 1; ++r)\n"
            "            m = arith::MaximumFOp::create(",
        tests=["test/Integration/LinearAttention/gpu-kernel-large-state-rows.mlir",
               "test/Integration/LinearAttention/gpu-kernel-large-state-varying.mlir"],
        description="the linear kernel's state column scale from half of each lane's rows"),
    Mutation(
        name="tma-value-stage-by-head-dim",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::produceBlock",
        old="        slot.stage, pm.constant(kernel.plan.tiling.blockKV * kernel.valueDim));",
        new="        slot.stage, pm.constant(kernel.plan.tiling.blockKV * kernel.headDim));",
        tests=["test/Integration/Tiling/tma-wide-keys-f16.mlir",
               "test/Integration/Tiling/tma-wide-keys-bf16.mlir"],
        description="V's second TMA ring stage placed by D: past the V buffer when D > Dv "
                    "(the CPU model reports the box; it used to hang until a timeout)"),
    # The causal walk of the TMA kernel split as FlashAttention-3 splits it:
    # the diagonal's blocks masked first, then an unmasked loop.
    # The forward schedules' causal walk from the last key block: the
    # diagonal's blocks masked first, then the unmasked loop.
    Mutation(
        name="reversed-walk-prefetches-forward",
        function="mlir::fa::gpu_kernel::KeyTileSchedule::nextWalked",
        old="  return fromLast ? math.sub(start, self.keyStep)",
        new="  return fromLast ? math.add(start, self.keyStep)",
        tests=[SWEEP + "kernel-stages2.mlir", SWEEP + "kernel-mma-causal-d128.mlir",
               SWEEP + "kernel-mma-bf16-causal.mlir"],
        description="walked from the last block, the prefetch still fetches the block after "
                    "the one computed: every later block reads tiles that never arrived"),
    Mutation(
        name="reversed-walk-stage-from-first-block",
        function="mlir::fa::gpu_kernel::KeyTileSchedule::stageOf",
        old="  Value offset = fromLast ? math.sub(bounds.lastBlockStart, start)",
        new="  Value offset = false ? math.sub(bounds.lastBlockStart, start)",
        tests=[SWEEP + "kernel-stages2.mlir"],
        description="walked from the last block, the ring buffer counted from the first: "
                    "with an odd number of blocks a block reads the buffer being refilled"),
    Mutation(
        name="reversed-walk-diagonal-unmasked",
        function="mlir::fa::gpu_kernel::KeyTileSchedule::walk",
        old="keyLoop(first, bounds.unmaskedFrom, init, ElementMasks::all);",
        new="keyLoop(first, bounds.unmaskedFrom, init, ElementMasks::none);",
        tests=[SWEEP + "causal-top-left.mlir", SWEEP + "kernel-mma-causal-d128.mlir"],
        description="the diagonal's blocks walked without the element mask: rows see keys "
                    "past their diagonal"),
    Mutation(
        name="causal-query-blocks-in-grid-order",
        function="mlir::fa::gpu_kernel::KernelBuilder::enterQueryBlock",
        old="    queryBlock = math.sub(math.addConstant(gridBlocks, -1), queryBlock);",
        new="    (void)gridBlocks;",
        tests=["test/Transforms/GPUKernel/distribute-causal-order.mlir"],
        description="causal query blocks started lightest first: the longest blocks start "
                    "last and the launch ends on them"),
    Mutation(
        name="causal-reversed-query-block-one-past",
        function="mlir::fa::gpu_kernel::KernelBuilder::enterQueryBlock",
        old="    queryBlock = math.sub(math.addConstant(gridBlocks, -1), queryBlock);",
        new="    queryBlock = math.sub(gridBlocks, queryBlock);",
        tests=[SWEEP + "kernel-wgmma-causal-diagonal-blocks.mlir",
               SWEEP + "kernel-mma-splits4-gqa4-causal.mlir"],
        description="the reversed causal order one block past the last: the first query "
                    "block is never computed"),
    Mutation(
        name="tma-causal-diagonal-one-block-short",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::walkOverlapped",
        old="unmaskedFrom = outside.max(walk.unmaskedFrom, second);",
        new="unmaskedFrom = outside.max(\n            outside.addConstant(walk.unmaskedFrom, -kernel.plan.tiling.blockKV), second);",
        tests=[SWEEP + "kernel-wgmma-causal-diagonal-blocks.mlir",
               SWEEP + "kernel-wgmma-causal-top-left-splits3.mlir",
               "test/Differential/random-programs-hopper.test",
               "test/Integration/hopper-causal-tile.test"],
        description="one diagonal block too few walked masked: the block nearest the "
                    "unmasked ones shows its rows keys past their diagonal"),
    Mutation(
        name="causal-unmasked-end-one-key-past-diagonal",
        function="mlir::fa::gpu_kernel::KernelBuilder::visibleKeyBlocks",
        old="math.min(seenByEveryRow, math.addConstant(firstRowDiagonal, 1));",
        new="math.min(seenByEveryRow, math.addConstant(firstRowDiagonal, 2));",
        tests=[SWEEP + "kernel-wgmma-causal-diagonal-blocks.mlir"],
        description="a key block whose last key is one past the first row's diagonal "
                    "counted as seen whole: that row sees one hidden key"),
    # The walk under a window (from the last block: the right edge's blocks
    # masked, the whole ones unmasked, the left edge's masked again).
    Mutation(
        name="window-unmasked-end-one-key-past-right-edge",
        function="mlir::fa::gpu_kernel::KernelBuilder::visibleKeyBlocks",
        old="math.addConstant(firstRowDiagonal, window.getRight() + 1));",
        new="math.addConstant(firstRowDiagonal, window.getRight() + 2));",
        tests=["test/Integration/window-walk-edges.mlir"],
        description="a key block whose last key is one past the first row's right "
                    "edge counted as seen whole: that row sees one hidden key"),
    Mutation(
        name="window-unmasked-begin-rounded-down",
        function="mlir::fa::gpu_kernel::KernelBuilder::visibleKeyBlocks",
        old="math.mul(math.ceilDiv(past, blockKV), blockKV));",
        new="math.mul(math.divU(past, blockKV), blockKV));",
        tests=["test/Integration/window-walk-edges.mlir",
               SWEEP + "kernel-wgmma-window-three-loops.mlir",
               SWEEP + "kernel-mma-window-causal-three-loops.mlir"],
        description="the block the last row's left edge crosses walked unmasked: that "
                    "row sees keys before its window"),
    Mutation(
        name="window-left-edge-loop-unmasked",
        function="mlir::fa::gpu_kernel::KeyTileSchedule::walk",
        old="                   ElementMasks::windowLeftEdge);",
        new="                   ElementMasks::none);",
        tests=["test/Integration/window-walk-edges.mlir",
               SWEEP + "kernel-mma-window-causal-three-loops.mlir"],
        description="the mma.sync and cp.async kernels walk the blocks a window's left "
                    "edge crosses without the element mask"),
    Mutation(
        name="tma-window-left-edge-loop-unmasked",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::walkOverlapped",
        old="keyLoop(maskedAgainFrom, end, state, ElementMasks::windowLeftEdge);",
        new="keyLoop(maskedAgainFrom, end, state, ElementMasks::none);",
        tests=["test/Integration/window-walk-edges.mlir",
               SWEEP + "kernel-wgmma-window-three-loops.mlir"],
        description="the TMA kernel walks the blocks a window's left edge crosses "
                    "without the element mask"),
    Mutation(
        name="window-left-edge-mask-dropped",
        function="mlir::fa::gpu_kernel::kernelScore",
        old="    masks.geometry.requireWindowLeftEdge(score, math, row, col);",
        new="    (void)masks;",
        tests=["test/Integration/window-walk-edges.mlir"],
        description="the loop over the blocks a window's left edge crosses masks "
                    "nothing: rows see keys before their window"),
    Mutation(
        name="tma-walk-forward",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::walkOverlapped",
        old="  bool reversed = static_cast<bool>(keys.unmaskedEnd);",
        new="  bool reversed = false && static_cast<bool>(keys.unmaskedEnd);",
        tests=["test/GPU/hopper-lengths.test"],
        description="the TMA kernel walks its keys forward with a masked tail loop: ptxas "
                    "spills at most static lengths"),
    # Linear attention's GPU kernel (issue 34), emulated against the
    # reference.
    Mutation(
        name="linear-kernel-carry-one-power-short",
        function="LinearKernel::chunkOutputs",
        old="b, loc, scale, power(lm.addConstant(rows[r], 1)))",
        new="b, loc, scale, power(rows[r]))",
        tests=[LINEAR_KERNEL],
        description="the kernel weighs the carried state by gamma^(i - c0) instead of gamma^(i - c0 + 1)"),
    Mutation(
        name="linear-kernel-state-not-decayed",
        function="LinearKernel::updateState",
        old="Value carried = gamma && lastDecay ? power(math.constant(chunk)) : Value();",
        new="Value carried = Value();",
        tests=[LINEAR_KERNEL],
        description="the kernel's state not decayed by gamma^C between chunks"),
    Mutation(
        name="linear-kernel-keys-not-decayed",
        function="LinearKernel::updateState",
        old="Value keys = gamma && lastDecay ? decayedKeySmem : keySmem;",
        new="Value keys = keySmem;",
        tests=[LINEAR_KERNEL],
        description="the kernel adds a chunk's keys to the state without gamma^(C - 1 - j)"),
    Mutation(
        name="linear-kernel-no-ones-column",
        function="LinearKernel::copyChunk",
        old="memref::StoreOp::create(b, loc, c == 0 ? first : zero, valueSmem,",
        new="memref::StoreOp::create(b, loc, zero, valueSmem,",
        tests=[LINEAR_KERNEL],
        description="V's column of ones left out: the kernel divides by epsilon alone"),
    Mutation(
        name="linear-kernel-no-column-scales",
        function=None,
        old="constexpr int64_t kStateExponentLimit = 14;",
        new="constexpr int64_t kStateExponentLimit = 200;",
        tests=["test/Integration/LinearAttention/gpu-kernel-large-state.mlir"],
        description="the state rounded to f16 unscaled for Q S: inf past 65504"),
    # Score and mask modifications (issue 33): the regions, sinks, the
    # tiles a mask_mod hides, and their recognition.
    Mutation(
        name="score-mod-on-raw-scores",
        function="mlir::fa::gpu_kernel::SoftmaxExponent::of",
        old="    bool modified = op.getScoreModBlock() || op.getSinks();",
        new="    bool modified = op.getSinks() != nullptr;",
        tests=[MOD + "op-modifiers-f16.mlir", MOD + "raise-softcap.mlir"],
        description="GPU kernels fold the scale into the exponent with a score_mod: the region sees unscaled scores and the max is taken before it"),
    Mutation(
        name="sink-missing-from-sum",
        function="mlir::fa::gpu_kernel::KernelBuilder::startFromSink",
        old="""  initialSum = arith::SelectOp::create(b, loc, seen, f32Constant(b, loc, 1),
                                       f32Constant(b, loc, 0));""",
        new="""  initialSum = arith::SelectOp::create(b, loc, seen, f32Constant(b, loc, 0),
                                       f32Constant(b, loc, 0));""",
        tests=[MOD + "kernels-f16.mlir", MOD + "op-modifiers-f16.mlir"],
        description="GPU kernels: the sink starts the max but not the sum"),
    Mutation(
        name="sink-in-every-quad-lane",
        function="mlir::fa::gpu_kernel::KernelBuilder::quadStartState",
        old="  Value first = math.eq(lane, math.constant(0));",
        new="  Value first = math.eq(lane, lane);",
        tests=[MOD + "kernels-f16.mlir"],
        description="register-fragment and wgmma kernels add the sink's term in all four lanes that share a row"),
    Mutation(
        name="kernel-mask-mod-walk-unnarrowed",
        function="mlir::fa::gpu_kernel::KernelBuilder::visibleKeyBlocks",
        old="  if (Block *maskMod = op.getMaskModBlock()) {\n    Value lastRow = math.addConstant(math.add(row0, rows), -1);",
        new="  if (Block *maskMod = nullptr) {\n    Value lastRow = math.addConstant(math.add(row0, rows), -1);",
        tests=[MOD + "kernels-skip-blocks-f16.mlir", MOD + "mask-mod-tiles.mlir"],
        description="the forward GPU kernels walk every key block of a mask_mod (only the NaN tests tell: the numbers are the same)"),
    # The backward of score modifications (issue 33): the derivative of the
    # score_mod, dSinks, and training graphs raised with them.
    Mutation(
        name="backward-slope-not-applied-kernel",
        function="BackwardKernel::probabilityAndGradient",
        old="  return {prob, throughScoreMod(b, loc, gradScore, slope), gradScore};",
        new="  return {prob, gradScore, gradScore};",
        tests=[MOD + "backward-kernels-f16.mlir"],
        description="the GPU backward kernel forgets f'(s): dS = dT"),
    Mutation(
        name="sink-gradient-one-thread-kernel",
        function="BackwardKernel::buildSinkGradient",
        old="            tb, tloc, tm.constant(0), tm.constant(threads), tm.constant(1),",
        new="            tb, tloc, tm.constant(0), tm.constant(1), tm.constant(1),",
        tests=[MOD + "backward-kernels-f16.mlir"],
        description="the dSinks kernel keeps only thread 0's partial sum"),
    # Hopper's kernel (issue 32): its layouts, descriptors and waits, and
    # the CPU model of wgmma they run on.
    Mutation(
        name="wgmma-no-rescale",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::rescale",
        old="""Value scaled = contractingMul(b(), loc, element, alphas[(r / 2) % 2]);""",
        new="""Value scaled = element;""",
        tests=KERNEL_WGMMA,
        description="the wgmma kernel does not rescale O by e^(m_old - m_new)"),
    Mutation(
        name="wgmma-query-descriptor-stride",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::issueScores",
        old="""        queryStart, columnBlock * kernel.plan.tiling.blockQ * kRowBytes + within,
        /*leading=*/16, /*stride=*/8 * kRowBytes);""",
        new="""        queryStart, columnBlock * kernel.plan.tiling.blockQ * kRowBytes + within,
        /*leading=*/16, /*stride=*/4 * kRowBytes);""",
        tests=KERNEL_WGMMA,
        description="Q's descriptor says 8-row groups are 512 bytes apart, not 1024"),
    Mutation(
        name="wgmma-value-not-transposed",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::issueValues",
        old="""flatValue, /*transpose_b=*/true,""",
        new="""flatValue, /*transpose_b=*/false,""",
        tests=KERNEL_WGMMA,
        description="P V reads V K-major (as if stored transposed)"),
    Mutation(
        name="wgmma-dropped-score-wait",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::scores",
        old="""  auto wait = WarpgroupMmaWaitOp::create(b(), at.loc,
                                         ValueRange{issueScores(at)}, 0);
  return {wait.getResult(0)};""",
        new="""  return {issueScores(at)};""",
        tests=KERNEL_WGMMA,
        description="the softmax reads S before wgmma.wait_group"),
    Mutation(
        name="wgmma-value-wait-pending-1",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::fold",
        old="""WarpgroupMmaWaitOp::create(b(), at.loc, ValueRange{output}, 0);""",
        new="""WarpgroupMmaWaitOp::create(b(), at.loc, ValueRange{output}, 1);""",
        tests=KERNEL_WGMMA,
        description="O's wait leaves its own group in flight (wait_group 1)"),
    Mutation(
        name="wgmma-probability-pairs-crossed",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::valueOperands",
        old="""probPairs[4 * step + 2 * (i / 2) + i % 2]""",
        new="""probPairs[4 * step + (i / 2) + 2 * (i % 2)]""",
        tests=KERNEL_WGMMA,
        description="P's A registers take the row halves and column halves crossed"),
    Mutation(
        name="wgmma-column-blocks-overlap",
        function="mlir::fa::gpu_kernel::TileCopier::sharedPosition",
        old="""math.mul(math.add(math.mul(columnBlock, math.constant(tileRows)), row),""",
        new="""math.mul(math.add(math.mul(columnBlock, math.constant(tileRows / 2)), row),""",
        tests=KERNEL_WGMMA,
        description="the second 64-column block of a tile overlaps the first's rows"),
    # The TMA producer kernel (issue 32): each synchronization point and
    # layout of TmaProducer.cpp and of its CPU model (TmaCopies.cpp).
    Mutation(
        name="tma-key-wait-wrong-parity",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::keyBlock",
        old="""kernel.waitOnBarrier(layout.keyFull(cm, stage), slot.parity);""",
        new="""kernel.waitOnBarrier(layout.keyFull(cm, stage), !slot.parity ? slot.parity : arith::XOrIOp::create(b, loc, slot.parity, arith::ConstantIntOp::create(b, loc, 1, 1)).getResult());""",
        tests=KERNEL_WGMMA,
        description="the compute warpgroups wait for K's phase of the other parity"),
    Mutation(
        name="tma-empty-wait-wrong-parity",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::produceBlock",
        old="""kernel.waitOnBarrier(layout.empty(pm, slot.stage), notParity);""",
        new="""kernel.waitOnBarrier(layout.empty(pm, slot.stage), slot.parity);""",
        tests=KERNEL_WGMMA,
        description="the producer waits for the empty phase of the wrong parity"),
    Mutation(
        name="tma-missing-empty-arrive",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::keyBlock",
        old="""    nvgpu::MBarrierArriveOp::create(b, loc,
                                    nvgpu::MBarrierTokenType::get(kernel.ctx),
                                    kernel.barriers, layout.empty(cm, stage));""",
        new="""""",
        tests=KERNEL_WGMMA,
        description="the compute warpgroups never say a stage is empty"),
    Mutation(
        name="tma-dropped-value-wait",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::keyBlock",
        old="""    kernel.waitOnBarrier(layout.valueFull(cm, stage), slot.parity);""",
        new="""""",
        tests=KERNEL_WGMMA,
        description="P V reads V_s without waiting for its TMA load"),
    Mutation(
        name="tma-expect-tx-half",
        function="mlir::fa::gpu_kernel::TileCopier::expectTileBytes",
        old="""  expectBytes(rows * width * elementBytes(type), barrier);""",
        new="""  expectBytes(rows * width * elementBytes(type) / 2, barrier);""",
        tests=KERNEL_WGMMA,
        description="expect_tx announces half of the boxes' bytes"),
    Mutation(
        name="tma-map-no-swizzle",
        function="mlir::fa::gpu_kernel::tensorMapType",
        old="""      swizzled ? nvgpu::TensorMapSwizzleKind::SWIZZLE_128B""",
        new="""      swizzled ? nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE""",
        tests=KERNEL_WGMMA,
        description="TMA writes the tiles unswizzled where wgmma reads them swizzled"),
    Mutation(
        name="tma-nan-fill",
        function="mlir::fa::gpu_kernel::tensorMapType",
        old="""      nvgpu::TensorMapOOBKind::OOB_ZERO,""",
        new="""      nvgpu::TensorMapOOBKind::OOB_NAN,""",
        tests=KERNEL_WGMMA,
        description="rows past K and V arrive as NaN, which P V multiplies by 0"),
    Mutation(
        name="tma-stages-overlap",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::produceBlock",
        old="""        slot.stage, pm.constant(kernel.plan.tiling.blockKV * kernel.headDim));""",
        new="""        slot.stage, pm.constant(kernel.plan.tiling.blockKV * kernel.headDim / 2));""",
        tests=KERNEL_WGMMA,
        description="K's second stage starts halfway into the first"),
    # P V a block late and the ping-pong (issue 32): TmaProducer.cpp's
    # overlapped walk and turns, WarpgroupMmaKernel.cpp's overlapped block,
    # and the CPU model of named barriers (NamedBarriers.cpp).
    Mutation(
        name="overlap-score-wait-pending-2",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::overlappedBlock",
        old="""      WarpgroupMmaWaitOp::create(b(), loc, ValueRange{issuedScores}, 1)""",
        new="""      WarpgroupMmaWaitOp::create(b(), loc, ValueRange{issuedScores}, 2)""",
        tests=KERNEL_WGMMA,
        description="the softmax reads S while its group may still be in flight"),
    Mutation(
        name="overlap-no-commit-between-groups",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::overlappedBlock",
        old="""  // Commits S's group; with one group in flight, returns at once.
  WarpgroupMmaWaitOp::create(b(), loc, ValueRange{}, 1);""",
        new="""""",
        tests=KERNEL_WGMMA,
        description="S and the previous P V are one group: wait_group 1 leaves S in flight"),
    Mutation(
        name="overlap-waits-for-this-blocks-values",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::walkOverlapped",
        old="""            auto waitValues = [&] { waitFull(true, previousIndex); };""",
        new="""            auto waitValues = [&] { waitFull(true, index); };""",
        tests=KERNEL_WGMMA,
        description="the previous block's P V waits for this block's V, not its own"),
    Mutation(
        name="overlap-releases-this-blocks-stage",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::walkOverlapped",
        old="""            auto releaseValues = [&] { release(previousIndex); };""",
        new="""            auto releaseValues = [&] { release(index); };""",
        tests=KERNEL_WGMMA,
        description="the compute warpgroups free the stage the next loads overwrite too early"),
    Mutation(
        name="overlap-no-rescale-after-pv",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::overlappedBlock",
        old="""  return nextState(step, rescale(waited.getResult(0), step.alphas),""",
        new="""  return nextState(step, waited.getResult(0),""",
        tests=KERNEL_WGMMA,
        description="O is not rescaled by the block's alpha once the previous P V has landed"),
    Mutation(
        name="overlap-last-block-without-pv",
        function="mlir::fa::gpu_kernel::WarpgroupMmaVariant::lastValues",
        old="""  SmallVector<Value> next(state);
  next[4] = output;
  return next;""",
        new="""  SmallVector<Value> next(state);
  return next;""",
        tests=KERNEL_WGMMA,
        description="the last key block's P V never reaches O"),
    Mutation(
        name="pingpong-no-hand-over",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::passTurn",
        old="""  NVVM::BarrierArriveOp::create(
      b, loc, id, arith::ConstantIntOp::create(b, loc, kTurnThreads, 32));""",
        new="""""",
        tests=KERNEL_WGMMA,
        description="a compute warpgroup never hands the turn on (the next waits forever)"),
    Mutation(
        name="pingpong-hands-turn-to-itself",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::passTurn",
        old="""  Value next = math.remU(math.addConstant(warpgroup, 1),
                         math.constant(warpgroups));""",
        new="""  Value next = math.remU(math.addConstant(warpgroup, 0),
                         math.constant(warpgroups));""",
        tests=KERNEL_WGMMA,
        description="a warpgroup arrives on its own turn's barrier, not the next one's"),
    # (Handing the first turn to the last warpgroup itself instead, barrier
    # 2 with two warpgroups, is no bug: its own arrive and wait complete
    # its barrier, and it goes first. The harness found that equivalent
    # mutant surviving, as it should.)
    Mutation(
        name="pingpong-no-first-turn",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::startTurns",
        old="""        arith::ConstantIntOp::create(b, loc, kFirstTurnBarrier, 32),""",
        new="""        arith::ConstantIntOp::create(b, loc, kFirstTurnBarrier + 7, 32),""",
        tests=KERNEL_WGMMA,
        description="the first turn goes to a barrier nobody waits on: every compute warpgroup waits for it"),
    Mutation(
        name="pingpong-no-wait-for-turn",
        function="mlir::fa::gpu_kernel::TmaProducerSchedule::takeTurn",
        old="""  NVVM::BarrierOp::create(
      b, loc, /*res=*/Type(), id,
      arith::ConstantIntOp::create(b, loc, kTurnThreads, 32),
      /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());""",
        new="""""",
        tests=["test/Transforms/GPUKernel/distribute-overlap-ping-pong.mlir"],
        description="a warpgroup issues its matmuls without waiting for its turn (a schedule, "
                    "not a data dependency: the numbers stay right, the kernel's structure "
                    "does not)"),
    Mutation(
        name="kernel-no-rescale",
        function="mlir::fa::gpu_kernel::FMAVariant::computeKeyBlock",
        old="""
          acc.push_back(contractingMul(b, lloc, part, alphas));
        """,
        new="          acc.push_back(part);",
        tests=multi_block_sweep("fma") + [DIFFERENTIAL],
        description="the FMA kernel does not rescale its accumulator"),
    Mutation(
        name="kernel-mma-no-rescale",
        function="mlir::fa::gpu_kernel::SharedMmaVariant::accumulateRow",
        old="""
    next.push_back(vector::FMAOp::create(b, loc, part, alphas, slice));
  """,
        new="    next.push_back(arith::AddFOp::create(b, loc, part, slice));",
        tests=multi_block_sweep("mma"),
        description="the tensor-core kernel does not rescale its accumulator"),
    Mutation(
        name="missing-barrier",
        function="mlir::fa::gpu_kernel::SharedMmaVariant::scores",
        old="""                      tiles.results);
    gpu::BarrierOp::create(kernel.b, at.loc);""",
        new="""                      tiles.results);""",
        tests=KERNEL_MMA,
        description="no barrier between the score matmul and the softmax"),
    # No mutation drops the barrier after the Q copy: it is redundant (the
    # first key block's barrier, after the K/V copy, orders the Q copy
    # before every read of Q, and no read happens without a key block), so
    # dropping it is no bug; the harness showed it (session 6).
    Mutation(
        name="missing-barrier-after-kv-copy",
        function="mlir::fa::gpu_kernel::KeyTileSchedule::computeCopiedBlock",
        old="""  gpu::BarrierOp::create(b, loc);
  KeyBlockAt at{loc, col0, stage};""",
        new="""  KeyBlockAt at{loc, col0, stage};""",
        tests=KERNEL_FMA + KERNEL_MMA,
        description="threads read K/V rows that other threads have not copied yet"),
    Mutation(
        name="missing-barrier-after-softmax",
        function="mlir::fa::gpu_kernel::SharedMmaVariant::fold",
        old="""        {state[0], state[1], one});
    gpu::BarrierOp::create(b, at.loc);""",
        new="""        {state[0], state[1], one});""",
        tests=KERNEL_MMA,
        description="P·V reads probabilities that other rows' threads have not written yet"),
    Mutation(
        name="missing-barrier-after-pv",
        function="mlir::fa::gpu_kernel::SharedMmaVariant::fold",
        old="""                                tiles.results);
    gpu::BarrierOp::create(b, at.loc);""",
        new="""                                tiles.results);""",
        tests=KERNEL_MMA,
        description="rows accumulate P·V results that other warps have not written yet"),
    Mutation(
        name="wrong-cp-async-stage",
        function="mlir::fa::gpu_kernel::PrefetchSchedule::keyBlock",
        old="    Value nextStage = stageOf(math, next);\n    Value group;",
        new="    Value nextStage = stage;\n    Value group;",
        tests=[SWEEP + "kernel-stages2.mlir", SWEEP + "kernel-stages3-gqa.mlir",
               SWEEP + "kernel-mma-stages2-window.mlir"],
        description="the next key block is prefetched into the stage being read"),
    Mutation(
        name="swapped-fragment-halves",
        function="mlir::fa::gpu_kernel::SharedMmaVariant::accumulateRow",
        old="""
    Value slice =
        vector::ShuffleOp::create(b, loc, halves[0], halves[1],
                                  """,
        new="    Value slice = vector::ShuffleOp::create(b, loc, halves[1], halves[0],",
        tests=KERNEL_MMA,
        description="the accumulator reads a result chunk's halves swapped"),
    Mutation(
        name="dropped-shuffle",
        function="mlir::fa::gpu_kernel::SharedMmaVariant::combineRowParts",
        old="""
    value =
        arith::getReductionOp(kind, b, loc, value, shuffle.getShuffleResult());
  """,
        new="    (void)shuffle;",
        tests=KERNEL_MMA,
        description="the two threads of a row never combine their max and sum"),
    # The register-resident kernel (the default tensor-core kernel) and the
    # lane-exact CPU model of its warp collectives.
    Mutation(
        name="fragment-no-rescale",
        function="mlir::fa::gpu_kernel::RegisterFragmentVariant::fragmentSoftmaxAndValues",
        old="""
          Value scaled = contractingMul(
              b, loc, extractElement(b, loc, acc, r, j), alphas[i * 2 + r]);
          """,
        new="          Value scaled = extractElement(b, loc, acc, r, j);",
        tests=KERNEL_MMA,
        description="the register kernel does not rescale its O fragments"),
    Mutation(
        name="fragment-row-halves-swapped",
        function="mlir::fa::gpu_kernel::RegisterFragmentVariant::fragmentSoftmaxAndValues",
        old="""        int64_t n = 2 * step + reg / 2, r = reg % 2;
        fragment = vector::InsertOp::create(b, loc,
                                            probPairs""",
        new="""        int64_t n = 2 * step + reg / 2, r = 1 - reg % 2;
        fragment = vector::InsertOp::create(b, loc,
                                            probPairs""",
        tests=KERNEL_MMA,
        description="P's A fragment takes rows g + 8 and g in swapped registers"),
    Mutation(
        name="quad-shuffle-dropped",
        function="mlir::fa::gpu_kernel::combineOverQuad",
        old="  for (int64_t distance = 1; distance < kQuad; distance *= 2) {",
        new="  for (int64_t distance = 1; distance < kQuad / 2; distance *= 2) {",
        tests=KERNEL_MMA,
        description="a row's max and sum combine two lanes of its quad, not four"),
    Mutation(
        name="fragment-v-not-transposed",
        function="mlir::fa::gpu_kernel::RegisterFragmentVariant::fragmentSoftmaxAndValues",
        old="""
                                           kernel.valueElementType, true));
    """,
        new="                                    kernel.valueElementType, false));",
        tests=KERNEL_MMA,
        description="V's B fragments are loaded without .trans"),
    Mutation(
        name="fragment-swizzle-mismatch",
        function="mlir::fa::gpu_kernel::TileCopier::ldmatrix",
        old="  indices.push_back(sharedColumn(math, row, column, width, type));",
        new="  indices.push_back(column);",
        tests=KERNEL_MMA,
        description="ldmatrix reads unswizzled columns of the swizzled tiles"),
    Mutation(
        name="fragment-missing-end-barrier",
        function=None,
        # The variant claims its steps end with a barrier, so the schedule
        # places none before the buffers are refilled.
        old="""  bool readsKeysOnlyInScores() const override { return true; }

private:
  /// (m, l) per fragment row""",
        new="""  bool readsKeysOnlyInScores() const override { return true; }
  bool endsWithBarrier() const override { return true; }

private:
  /// (m, l) per fragment row""",
        tests=KERNEL_MMA,
        description="a warp refills K/V buffers that another warp still reads"),
    Mutation(
        name="fma-missing-end-barrier",
        function=None,
        old="""    kernel.storeRowResults(block, self, state, /*halves=*/false);
  }

private:""",
        new="""    kernel.storeRowResults(block, self, state, /*halves=*/false);
  }
  bool endsWithBarrier() const override { return true; }

private:""",
        tests=KERNEL_FMA,
        description="the FMA kernel refills K/V buffers that other threads still read"),
    # FlashAttention-2's exponential and copy order (issue 28).
    Mutation(
        name="exp2-without-log2e",
        function="mlir::fa::gpu_kernel::SoftmaxExponent::of",
        old="    result.log2Factor = result.rawScores ? scale * kLog2e : kLog2e;",
        new="    result.log2Factor = result.rawScores ? scale : 1.0;",
        tests=KERNEL_MMA + GPU_BACKWARD[:2],
        description="p = 2^(u c - m c) without log2 e folded into c: e^x computed as 2^x"),
    Mutation(
        name="max-on-scaled-scores",
        function="mlir::fa::gpu_kernel::KernelBuilder::scoreOf",
        old="    return exponent.rawScores ? raw : arith::MulFOp::create(b, loc, raw, scale);",
        new="    return arith::MulFOp::create(b, loc, raw, scale);",
        tests=KERNEL_MMA + KERNEL_FMA,
        description="unmasked blocks take the max on scaled scores while the FMA applies the scale again"),
    Mutation(
        name="masked-max-on-scaled-scores",
        function="mlir::fa::gpu_kernel::KernelBuilder::scoreOf",
        old="                     exponent.rawScores ? Value() : scale, batch, head, row,",
        new="                     scale, batch, head, row,",
        tests=KERNEL_MMA + KERNEL_FMA,
        description="masked blocks scale the scores that the FMA scales again"),
    Mutation(
        name="rescale-without-log2-factor",
        function="mlir::fa::gpu_kernel::SoftmaxExponent::rescale",
        old="""    Value oldShift = arith::MulFOp::create(b, loc, oldMax,
                                           f32Constant(b, loc, log2Factor));""",
        new="""    Value oldShift = arith::MulFOp::create(b, loc, oldMax,
                                           f32Constant(b, loc, 1.0));""",
        tests=KERNEL_MMA,
        description="alpha = 2^(m_old - m_new c): the old max not in base-2 units"),
    Mutation(
        name="raw-max-negative-scale",
        function="mlir::fa::gpu_kernel::SoftmaxExponent::of",
        old="    result.rawScores = scale > 0 && !additiveMask && !filled && !modified;",
        new="    result.rawScores = scale != 0 && !additiveMask && !filled && !modified;",
        tests=["test/Integration/kernel-negative-scale.mlir"],
        description="a negative scale takes the max on raw scores, whose order it reverses"),
    Mutation(
        name="fragment-k-wait-after-scores",
        function="mlir::fa::gpu_kernel::FragmentOrderSchedule::keyBlock",
        old="""  SmallVector<Value> nextState = variant.fold(at, scores, state);
  waitForGroup(b, loc, pending);""",
        new="""  SmallVector<Value> nextState = variant.fold(at, scores, state);""",
        tests=KERNEL_MMA,
        description="the next block's K (and V with two buffers) is waited for only after Q·Kᵀ reads it"),
    Mutation(
        name="fragment-v-wait-dropped",
        function="mlir::fa::gpu_kernel::FragmentOrderSchedule::keyBlock",
        old="""    waitForGroup(b, loc, pending);
    gpu::BarrierOp::create(b, loc);
    pending = requestTilesIfVisible(math, next, stage, true, false);""",
        new="""    gpu::BarrierOp::create(b, loc);
    pending = requestTilesIfVisible(math, next, stage, true, false);""",
        tests=KERNEL_MMA,
        description="P V reads V before its cp.async group is waited for (one buffer)"),
    Mutation(
        name="fragment-k-refill-before-barrier",
        function="mlir::fa::gpu_kernel::FragmentOrderSchedule::keyBlock",
        old="""    waitForGroup(b, loc, pending);
    gpu::BarrierOp::create(b, loc);
    pending = requestTilesIfVisible(math, next, stage, true, false);""",
        new="""    waitForGroup(b, loc, pending);
    pending = requestTilesIfVisible(math, next, stage, true, false);""",
        tests=KERNEL_MMA,
        description="the next K overwrites K_s while other warps may still multiply it"),
    Mutation(
        name="backward-p-without-log2e",
        function="BackwardKernel::probabilityAndGradient",
        old="""  Value prob = exponent.probability(
      b, loc, score, exponent.negatedLogsumexpShift(b, loc, lse));""",
        new="""  Value prob = exponent.probability(
      b, loc, score, safeRowMax(b, loc, lse));""",
        tests=GPU_BACKWARD,
        description="the backward kernels subtract L unscaled (and with the wrong sign) in base 2"),
    Mutation(
        name="cp-async-no-wait",
        function="mlir::fa::gpu_kernel::PrefetchSchedule::keyBlock",
        old="""    nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(1));""",
        new="""    (void)group;""",
        tests=ASYNC_SWEEP,
        description="the kernel reads prefetched K/V tiles without cp.async.wait_group"),
    Mutation(
        name="cp-async-wait-one-too-few",
        function="mlir::fa::gpu_kernel::PrefetchSchedule::keyBlock",
        old="""    nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(1));""",
        new="""    nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(2));""",
        tests=ASYNC_SWEEP,
        description="wait_group 2 leaves the block about to be read in flight"),
    # Split keys (kv_splits): the runs, the merge on the host and the merge
    # kernel.
    Mutation(
        name="merge-kernel-unweighted",
        function="mlir::fa::gpu_kernel::KernelBuilder::buildMerge",
        old="                Value sum = vector::FMAOp::create(lb, lloc, w, part, state[0]);",
        new="                Value sum = arith::AddFOp::create(lb, lloc, part, state[0]);",
        tests=SPLIT_SWEEP + [DIFFERENTIAL],
        description="the merge kernel adds the splits' outputs without their weights"),
    Mutation(
        name="kernel-split-index-swapped",
        function="mlir::fa::gpu_kernel::KernelBuilder::enterQueryBlock",
        old="""    split = math.remU(queryBlock, splits);
    queryBlock = math.divU(queryBlock, splits);
    auto sliceOf""",
        new="""    split = math.divU(queryBlock, splits);
    queryBlock = math.remU(queryBlock, splits);
    auto sliceOf""",
        tests=SPLIT_SWEEP + [DIFFERENTIAL],
        description="the kernel reads its split and query block from the wrong parts of the grid index"),
    # Per-sequence key lengths.
    Mutation(
        name="lengths-static-diagonal-kernel",
        function="mlir::fa::gpu_kernel::KernelBuilder::enterQueryBlock",
        old="""    keyLen = tensorKeyLen;
    applySequenceLength(math, geometry, length, queryLen, keyLen);""",
        new="""    keyLen = sequenceKeyLength(math, length, tensorKeyLen);""",
        tests=["test/Integration/kv-lengths.mlir"],
        description="the kernel aligns a bottom-right causal diagonal to Nk, not to the sequence's length"),
    # Paged KV caches (session 10).
    Mutation(
        name="paged-tile-page-for-straddling-blocks",
        function="mlir::fa::gpu_kernel::TileCopier::tilePage",
        old="""  if (ShapedType::isDynamic(slots) || slots % tileRows != 0)""",
        new="""  if (ShapedType::isDynamic(slots))""",
        tests=["test/Integration/paged-kv-cache.mlir", "test/Transforms/GPUKernel/distribute-paged-copies.mlir"],
        description="a key block that straddles pages is read from its first row's page"),
    Mutation(
        name="paged-tile-page-one-slot",
        function="mlir::fa::gpu_kernel::TileCopier::globalIndices",
        old="""            math.min(math.add(page->firstSlot, tileRow), page->lastSlot), head,""",
        new="""            math.min(page->firstSlot, page->lastSlot), head,""",
        tests=["test/Integration/Tiling/tma-paged-kv-cache.mlir"],
        description="every row of a tile in one page read from the tile's first slot"),
    Mutation(
        name="paged-kernel-value-unpaged",
        function="mlir::fa::gpu_kernel::TileCopier::pagedSource",
        old="""    return pageTable && (source == key || source == value);""",
        new="""    return pageTable && source == key;""",
        tests=["test/Integration/paged-kv-cache.mlir"],
        description="the kernel reads V as if it were not paged"),
    # Packed sequences (session 10).
    Mutation(
        name="packed-key-base-ignored-kernel",
        function="mlir::fa::gpu_kernel::KernelBuilder::enterQueryBlock",
        old="""    key = rowsOf(key, sequence.keyStart, sequence.keyLen);""",
        new="""    key = rowsOf(key, zeroIndex, sequence.keyLen);""",
        tests=["test/Integration/packed-sequences.mlir"],
        description="the kernel reads every sequence's K from the first packed key"),
    # The backward GPU kernels (session 13).
    Mutation(
        name="backward-kernel-no-correction",
        function="BackwardKernel::probabilityAndGradient",
        old="""  Value centered = arith::SubFOp::create(b, loc, gradProb, term);""",
        new="""  Value centered = gradProb;""",
        tests=GPU_BACKWARD,
        description="the kernels drop D from dS = P (dP - D)"),
    Mutation(
        name="backward-kernel-b-not-transposed",
        function="BackwardKernel::accumulateFromRegisters",
        old="""          ldmatrix(rhs, rhsStage, row, column, width, elementType, true));""",
        new="""          ldmatrix(rhs, rhsStage, row, column, width, elementType, false));""",
        tests=GPU_BACKWARD,
        description="dO, Q and K are read without .trans as the B operands of dV, dK and dQ"),
    Mutation(
        name="backward-kernel-fragment-halves-swapped",
        function="BackwardKernel::accumulateFromRegisters",
        old="""        int64_t n = 2 * step + reg / 2, r = reg % 2;
        fragment =
            vector::InsertOp::create(b, loc, pairs[""",
        new="""        int64_t n = 2 * step + reg % 2, r = reg / 2;
        fragment =
            vector::InsertOp::create(b, loc, pairs[""",
        tests=GPU_BACKWARD,
        description="P^T and dS^T's A fragments take the accumulator halves in the wrong order"),
    Mutation(
        name="backward-kernel-first-head-of-group",
        function="BackwardKernel::buildKeyValueGradients",
        old="""  Value iterations = math.mul(groupSize, queryBlocks);""",
        new="""  Value iterations = queryBlocks;""",
        tests=GPU_BACKWARD,
        description="the dK/dV kernel sums only the first query head of a group"),
    Mutation(
        name="backward-kernel-dk-unscaled",
        function="BackwardKernel::buildKeyValueGradients",
        old="""                 gradKey, batch, kvHead, rowBase, keyLen, scale,
                 math.mul(part, math.constant(keyWidth)));""",
        new="""                 gradKey, batch, kvHead, rowBase, keyLen,
                 f32Constant(b, loc, 1), math.mul(part, math.constant(keyWidth)));""",
        tests=GPU_BACKWARD,
        description="dK misses the scale (kernel)"),
    Mutation(
        name="backward-kernel-padded-rows-count",
        function="BackwardKernel::probabilityAndGradient",
        old="""  Value skip = arith::OrIOp::create(
      b, loc, noKey,""",
        new="""  Value skip = noKey;
  (void)arith::OrIOp::create(
      b, loc, noKey,""",
        tests=GPU_BACKWARD,
        description="query rows past Nq (zero-filled Q and dO, L of the last row) add to dK and dV"),
    Mutation(
        name="backward-kernel-dq-kv-head",
        function="BackwardKernel::buildQueryGradients",
        old="""  Value kvHead = math.divU(head, groupSize);
  Value querySmem""",
        new="""  Value kvHead = math.remU(head, groupSize);
  Value querySmem""",
        tests=GPU_BACKWARD,
        description="the dQ kernel reads K/V head h mod G instead of h / G"),
    Mutation(
        name="backward-kernel-no-end-barrier",
        function="BackwardKernel::buildKeyValueGradients",
        old="""        // Before a buffer is filled again, every warp is done with it.
        gpu::BarrierOp::create(b, lloc);""",
        new="""        // Before a buffer is filled again, every warp is done with it.""",
        tests=GPU_BACKWARD,
        description="the dK/dV kernel refills Q_s and dO_s while other warps may still read them"),
    Mutation(
        name="backward-kernel-wait-too-few",
        function="BackwardKernel::buildQueryGradients",
        old="""          Value group = prefetch(lm, next, nextStage);
          nvgpu::DeviceAsyncWaitOp::create(b, lloc, group,
                                           b.getI32IntegerAttr(1));""",
        new="""          Value group = prefetch(lm, next, nextStage);
          nvgpu::DeviceAsyncWaitOp::create(b, lloc, group,
                                           b.getI32IntegerAttr(2));""",
        tests=GPU_BACKWARD_ASYNC,
        description="the dQ kernel computes a key block before its cp.async group has landed"),
    Mutation(
        name="backward-kernel-stream-stage",
        function="BackwardKernel::buildKeyValueGradients",
        old="""        if (async) {
          stage = lm.remU(it, lm.constant(stages));""",
        new="""        if (async) {
          stage = lm.remU(lm.addConstant(it, 1), lm.constant(stages));""",
        tests=GPU_BACKWARD_ASYNC,
        description="the dK/dV kernel reads the buffer being prefetched, not the one that landed"),
    Mutation(
        name="backward-kernel-bias-gradient-one-member",
        function="BackwardKernel::buildBiasGradient",
        old="""  Value members = math.mul(maskBroadcast[0] ? batchSize : one, headMembers);""",
        new="""  Value members = one;""",
        tests=GPU_BIAS_GRADIENT + ["test/Differential/random-backward-kernel.test"],
        description="the bias gradient's kernel sums only the first batch entry or head the bias broadcasts over"),
    Mutation(
        name="backward-kernel-bias-gradient-stored-early",
        function="BackwardKernel::buildBiasGradient",
        old="""        Value last = lm.eq(member, lm.addConstant(members, -1));""",
        new="""        Value last = lm.eq(member, member);""",
        tests=GPU_BIAS_GRADIENT + ["test/Differential/random-backward-kernel.test"],
        description="the bias gradient's kernel stores (and restarts) its sum after every member, keeping only the last one's dS"),
    # Issue 29: the frontends' default spellings.
    Mutation(
        name="mask-fill-fma-exponent",
        function="mlir::fa::gpu_kernel::SoftmaxExponent::of",
        old="""    result.subtractFirst = filled || scoreModMayBeHuge(op);""",
        new="""    result.subtractFirst = scoreModMayBeHuge(op);""",
        tests=["test/Integration/raise-finite-fills.mlir"],
        description="the kernels' exponent scales before subtracting with a fill of -0.7 max (m c overflows)"),
    Mutation(
        name="kernel-backward-fill-gradient-kept",
        function="BackwardKernel::probabilityAndGradient",
        old="""  if (filled)
    gradScore = arith::SelectOp::create(b, loc, filled, zero, gradScore);""",
        new="",
        tests=["test/Integration/Backward/gpu-kernel-mask-fill-empty-rows-f16.mlir"],
        description="the backward kernel gives a filled key's constant score a gradient"),
    Mutation(
        name="kernel-backward-fill-shift",
        function="mlir::fa::gpu_kernel::SoftmaxExponent::negatedLogsumexpShift",
        old="""    if (subtractFirst)
      return arith::NegFOp::create(b, loc, safeRowMax(b, loc, lse));""",
        new="",
        tests=["test/Integration/Backward/gpu-kernel-mask-fill-empty-rows-f16.mlir"],
        description="the backward kernel shifts a filled op's exponent by -L log2 e where it subtracts before scaling"),
    # Issue 35: the register-fragment epilogue's bound, off by one. Before
    # the output guards (fa-guard-kernel-outputs) it corrupted the heap
    # ("double free or corruption") or hung; now each named test fails by
    # the guard check, which reports row Nq of the output.
    Mutation(
        name="fragment-epilogue-row-past-end",
        function="mlir::fa::gpu_kernel::RegisterFragmentVariant::fragmentEpilogue",
        old="""          b, loc, math.lt(row, kernel.queryLen),""",
        new="""          b, loc, math.le(row, kernel.queryLen),""",
        tests=[SWEEP + "kernel-mma-causal-d128.mlir", "test/Integration/packed-sequences.mlir"],
        description="the register-fragment epilogue stores row Nq, one row past the output"),
    # Issue 31: a kernel that takes a partial last key block for a whole
    # one copies it without clamps or zero fill, so cp.async reads past K
    # and V; the CPU model's source check (fa-emulate-threads-on-cpu)
    # reports the copy and its indices in each named test.
    Mutation(
        name="whole-key-blocks-ignores-tail",
        function="mlir::fa::gpu_kernel::KernelBuilder::wholeKeyBlocks",
        old="""    return !operands.kvLengths && !operands.packedKeys &&
           !ShapedType::isDynamic(keys) && keys % plan.tiling.blockKV == 0;""",
        new="""    return !operands.kvLengths && !operands.packedKeys &&
           !ShapedType::isDynamic(keys);""",
        tests=[SWEEP + "kernel-mma-causal-d128.mlir", SWEEP + "kernel-mma-stages2-window.mlir"],
        description="cp.async reads the last, partial key block whole, past the end of K and V"),
    # Issue 31: operator-mutation survivors (scripts/mutate-operators.py,
    # seed 31) that were missing tests, with the tests that now kill them.
    Mutation(
        name="op31-fragment-rows-three-per-tile",
        function="mlir::fa::gpu_kernel::RegisterFragmentVariant::fragmentSoftmaxAndValues",
        old="""
    for (int64_t r = 0; r < 2; ++r)
      rows.push_back(math.add(
          """,
        new="""    for (int64_t r = 0; r <= 2; ++r)
      rows.push_back(math.add(""",
        tests=["test/Integration/Tiling/kernel-mma-two-m-tiles-causal.mlir"],
        description="the register-fragment kernel takes the second m-tile's rows from the wrong tile"),
    Mutation(
        name="op31-bias-gradient-refill-without-barrier",
        function="BackwardKernel::buildBiasGradient",
        old="""        // Every tile is refilled next iteration.
        gpu::BarrierOp::create(b, lloc);""",
        new="""        // Every tile is refilled next iteration.""",
        tests=[BACKWARD + "gpu-kernel-bias-gradient-four-warps-f16.mlir",
               "test/Differential/random-backward-kernel.test"],
        description="the bias-gradient kernel refills its tiles while other warps still read them"),
    # Issue 50: survivors of the partial operator run over the code since
    # 4d6e4b0 (session 31, seed 50), with the tests that now kill them.
    Mutation(
        name="kernel-huge-score-mod-scaled-first",
        function="mlir::fa::gpu_kernel::SoftmaxExponent::of",
        old="""    result.subtractFirst = filled || scoreModMayBeHuge(op);""",
        new="""    result.subtractFirst = filled;""",
        tests=["test/Integration/raise-score-conditions.mlir"],
        description="a score_mod yielding ±FLT_MAX scaled by log2 e before the max is subtracted: inf - inf = NaN in the kernel"),
    Mutation(
        name="kernel-score-mod-tensor-scaled-first",
        function="mlir::fa::gpu_kernel::SoftmaxExponent::scoreModMayBeHuge",
        old="""        huge |= isa<FloatType>(read.getType());""",
        new="""        huge |= false;""",
        tests=[MOD + "score-mod-huge-tensor.mlir"],
        description="a score_mod reading a finfo.min bias scaled by log2 e before the max is subtracted: a fully biased row is NaN in the kernels"),
]
