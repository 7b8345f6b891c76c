"""The mutations of the stage GPUEmulation (lib/Transforms/GPUEmulation).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation
from .tests import KERNEL_MMA, KERNEL_WGMMA, WGMMA_BACKWARD, WGMMA_UNITS

MUTATIONS = [
    # Issue 54: A read M/N-major (transpose_a), dQ^T's K^T.
    Mutation(
        name="wgmma-model-ignores-transpose-a",
        function="Lowering::compute",
        old="""operandAddress(km, *a, op.getTransposeA(), row, k)""",
        new="""operandAddress(km, *a, false, row, k)""",
        tests=WGMMA_BACKWARD,
        description="the CPU model reads an M/N-major A as K-major"),
    # Issue 54: the blocks' order, which atomic sums round in.
    Mutation(
        name="blocks-never-reversed",
        function="FAEmulateThreadsOnCPUPass::runOnOperation",
        old="""        if (fa::isBlockLoop(grid))
          reverseBlocks(grid);""",
        new="""        (void)grid;""",
        tests=["test/Transforms/GPUEmulation/emulate-block-order.mlir"],
        description="thread-order=reverse runs a grid's blocks first to last: an atomic sum rounds as in the forward order"),
    # Issue 50: the outside audit's one-line bugs that no test saw, and the
    # session's own rules (the host's tiles, the TMA walk order).
    Mutation(
        name="wgmma-model-one-past-accepted",
        function="Lowering::load",
        old="      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, index, size);",
        new="      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, index, size);",
        tests=["test/Transforms/GPUEmulation/emulate-warpgroup-mma-async.mlir",
               "test/Transforms/GPUEmulation/emulate-warpgroup-mma-a-edge.mlir"],
        description="the CPU model of wgmma lets a read one element past its buffer through"),
    Mutation(
        name="named-barrier-16-accepted",
        function="Lowering::logOperation",
        old="                      m.le(m.constant(kBarriers), id));",
        new="                      m.lt(m.constant(kBarriers), id));",
        tests=["test/Transforms/GPUEmulation/emulate-named-barriers.mlir",
               "test/Transforms/GPUEmulation/emulate-named-barrier-arrive-ids.mlir"],
        description="the CPU model accepts named barrier 16, which the hardware lacks"),
    # Hopper's kernel (issue 32): its layouts, descriptors and waits, and
    # the CPU model of wgmma they run on.
    Mutation(
        name="wgmma-model-swizzle-64-for-128",
        function="operandAddress",
        old="""  Value xorMask = select(modeIs(1), m.constant(0x70),""",
        new="""  Value xorMask = select(modeIs(1), m.constant(0x30),""",
        tests=KERNEL_WGMMA + WGMMA_UNITS,
        description="the CPU model reads a 128-byte swizzle with the 64-byte one's XOR"),
    Mutation(
        name="wgmma-model-register-holder",
        function="Lowering::compute",
        old="""km.mul(km.remU(row, eight), km.constant(4))),
                           km.divU(km.remU(k, eight), km.constant(2))));""",
        new="""km.mul(km.remU(row, eight), km.constant(4))),
                           km.remU(k, km.constant(4))));""",
        tests=KERNEL_WGMMA + WGMMA_UNITS,
        description="the CPU model takes A(row, k) from the wrong lane of the quad"),
    # The TMA producer kernel (issue 32): each synchronization point and
    # layout of TmaProducer.cpp and of its CPU model (TmaCopies.cpp).
    Mutation(
        name="tma-model-counts-only-for-loops",
        function="Lowering::describe",
        old="""    if (isa<LoopLikeOpInterface>(parent)) {""",
        new="""    if (isa<scf::ForOp>(parent)) {""",
        tests=["test/Transforms/GPUEmulation/emulate-tma-errors.mlir"],
        description="a TMA load in an scf.while below its expect_tx gets room for one load per transaction"),
    Mutation(
        name="tma-model-lands-one-box-per-transaction",
        function="Lowering::land",
        old="""      b, loc, outer.constant(0), inFlight, outer.constant(1), ValueRange{},""",
        new="""      b, loc, outer.constant(0), outer.min(inFlight, outer.constant(1)), outer.constant(1), ValueRange{},""",
        tests=["test/Integration/Tiling/tma-small-pages.mlir"],
        description="the CPU model lands only the first of a transaction's boxes"),
    Mutation(
        name="tma-model-one-load-per-transaction",
        function="Lowering::describe",
        old="""      site.capacity *= std::max<int64_t>((*upper - *lower + *step - 1) / *step, 1);""",
        new="""      (void)upper;""",
        tests=["test/Integration/Tiling/tma-small-pages.mlir"],
        description="the CPU model has room for one load per op and transaction"),
    Mutation(
        name="tma-model-reissue-unchecked",
        function="Lowering::issue",
        old="""       m.andI(m.lt(m.constant(0), inFlight),
              m.notI(m.eq(transaction, current))),""",
        new="""       m.andI(m.lt(m.constant(0), inFlight), m.eq(transaction, m.constant(-1))),""",
        tests=["test/Transforms/GPUEmulation/emulate-tma.mlir"],
        description="a load issued again before the last transaction's landed goes unreported"),
    Mutation(
        name="tma-model-lands-at-issue",
        function="Lowering::lowerWait",
        old="""  scf::IfOp::create(b, loc, pending, [&](OpBuilder &ib, Location iloc) {
    IndexMath im{ib, iloc};
    for (TmaSite &site : sitesOf[wait.getBarriers()])""",
        new="""  scf::IfOp::create(b, loc, pending, [&](OpBuilder &ib, Location iloc) {
    IndexMath im{ib, iloc};
    for (TmaSite &site : MutableArrayRef<TmaSite>())""",
        tests=["test/Transforms/GPUEmulation/emulate-tma.mlir"] + KERNEL_WGMMA,
        description="the CPU model never lands a TMA load (waits see NaN, or never return)"),
    Mutation(
        name="tma-model-ignores-swizzle",
        function="Lowering::land",
        old="""        int64_t bits = swizzleBits(site.map.getSwizzle());
        int64_t elementBytes = site.elementBytes();""",
        new="""        int64_t bits = 0;
        int64_t elementBytes = site.elementBytes();""",
        tests=["test/Transforms/GPUEmulation/emulate-tma.mlir"] + KERNEL_WGMMA,
        description="the CPU model lands TMA boxes unswizzled"),
    # (Handing the first turn to the last warpgroup itself instead, barrier
    # 2 with two warpgroups, is no bug: its own arrive and wait complete
    # its barrier, and it goes first. The harness found that equivalent
    # mutant surviving, as it should.)
    Mutation(
        name="named-barrier-model-sync-never-waits",
        function="Lowering::replay",
        old="""                          scf::IfOp::create(
                              eb, eloc, sync,""",
        new="""                          scf::IfOp::create(
                              eb, eloc, arith::ConstantIntOp::create(eb, eloc, 0, 1),""",
        tests=["test/Transforms/GPUEmulation/emulate-named-barriers.mlir"] + KERNEL_WGMMA,
        description="the CPU model lets bar.sync go on before its generation completes"),
    Mutation(
        name="named-barrier-model-never-resets",
        function="Lowering::replay",
        old="""                          memref::StoreOp::create(cb, cloc, cm.constant(0),
                                                  arrived, id);""",
        new="""""",
        tests=["test/Transforms/GPUEmulation/emulate-named-barriers.mlir"] + KERNEL_WGMMA,
        description="the CPU model keeps counting arrivals past a completed generation"),
    # FlashAttention-2's exponential and copy order (issue 28).
    Mutation(
        name="lane-model-a-rows-swapped",
        function="WaveLowering::compute",
        old="                  ValueRange{sourceA, lm.addConstant(elementA, 2)}))};",
        new="                  ValueRange{sourceA, elementA}))};",
        tests=["test/Transforms/GPUEmulation/emulate-warp-fragments.mlir"] + KERNEL_MMA,
        description="the CPU model of mma.sync reads row g for row g + 8"),
    Mutation(
        name="lane-model-trans-rows",
        function="WaveLowering::compute",
        old="        row = math.addConstant(math.mul(inGroup, math.constant(2)), j);",
        new="        row = math.addConstant(math.mul(inGroup, math.constant(2)), 1 - j);",
        tests=["test/Transforms/GPUEmulation/emulate-warp-fragments.mlir"] + KERNEL_MMA,
        description="the CPU model of ldmatrix.trans swaps a lane's two elements"),
    # Issue 31: operator-mutation survivors (scripts/mutate-operators.py,
    # seed 31) that were missing tests, with the tests that now kill them.
    Mutation(
        name="op31-async-queue-one-copy-short",
        function="ThreadQueues::rewrite",
        old="""      perGroup *= std::max<int64_t>(llvm::divideCeil(*upper - *lower, *step), 1);""",
        new="""      perGroup *= std::max<int64_t>(llvm::divideCeil(*upper - *lower, *step) - 1, 1);""",
        tests=["test/Transforms/GPUEmulation/emulate-async-copies-counted-loops.mlir"],
        description="the CPU model's cp.async queue holds one copy fewer per loop, so copies land before their wait"),
    Mutation(
        name="op31-no-collective-waves",
        function="mlir::fa::mayJoinWave",
        old="""  if (op->getNumRegions() != 0 || isa<gpu::BarrierOp>(op))
    return false;
  if (isMemoryEffectFree(op))""",
        new="""  if (op->getNumRegions() == 0 || isa<gpu::BarrierOp>(op))
    return false;
  if (isMemoryEffectFree(op))""",
        tests=["test/Transforms/GPUEmulation/emulate-warp-fragments.mlir"],
        description="the CPU emulation gives every warp collective its own barrier"),
    # Issue 50: survivors of the partial operator run over the code since
    # 4d6e4b0 (session 31, seed 50), with the tests that now kill them.
    Mutation(
        name="op50-uninitialized-barrier-completes",
        function="Lowering::createState",
        old="""m.constant(c == kPending ? 1 : 0)""",
        new="""m.constant(c != kPending ? 1 : 0)""",
        tests=["test/Transforms/GPUEmulation/emulate-tma.mlir"],
        description="the CPU model reads a barrier no thread initialized as one phase complete (a wait returns, the hardware would hang)"),
]
