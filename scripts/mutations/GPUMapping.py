"""The mutations of the stage GPUMapping (lib/Transforms/GPUMapping).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation
from .tests import NARROW_TESTS

MUTATIONS = [
    # Issue 54: scale-d and trans-a in wgmma's PTX.
    Mutation(
        name="wgmma-scale-d-inverted",
        function="WarpgroupMmaLowering::matchAndRewrite",
        old="""    std::string scale = op.getIgnoreAccumulator() ? "0" : "1";""",
        new="""    std::string scale = op.getIgnoreAccumulator() ? "1" : "0";""",
        tests=["test/Transforms/GPUMapping/warpgroup-mma-to-nvvm.mlir"],
        description="scale-d 1 where the wgmma ignores its accumulator (and 0 where it adds to it)"),
    Mutation(
        name="wgmma-trans-a-dropped",
        function="WarpgroupMmaLowering::matchAndRewrite",
        old="""        (fromShared ? (op.getTransposeA() ? "1, " : "0, ") : "") +""",
        new="""        (fromShared ? "0, " : "") +""",
        tests=["test/Transforms/GPUMapping/warpgroup-mma-to-nvvm.mlir"],
        description="an M/N-major A issued as K-major (imm-trans-a 0)"),
    # Issue 53: the paged producer's registers and its rolled loop.
    Mutation(
        name="specialize-ignores-producer-registers",
        function="rolesOf",
        old="""        roles.producerRegisters =
            std::max(roles.producerRegisters, registers.getInt());""",
        new="""        (void)registers;""",
        tests=["test/Transforms/GPUMapping/specialize-warpgroups.mlir", "test/GPU/tma-producer.test"],
        description="a producer that asks for 32 registers gets setmaxnreg.dec 24"),
    Mutation(
        name="loop-annotations-dropped",
        function="FAKeepLoopAnnotationsPass::runOnOperation",
        old="""      branch.setLoopAnnotationAttr(annotation);""",
        new="""      (void)branch;""",
        tests=["test/Transforms/GPUMapping/keep-loop-annotations.mlir", "test/GPU/tma-producer.test"],
        description="the back edge loses its nounroll annotation"),
    # Issue 53: descriptors as a base and an immediate in the wgmma's PTX.
    Mutation(
        name="descriptor-addend-kept-in-llvm",
        function="splitConstantAddend",
        old="""  Operation *sum = descriptor.getDefiningOp();
  if (!sum || !isa<LLVM::AddOp, arith::AddIOp>(sum))""",
        new="""  Operation *sum = descriptor.getDefiningOp();
  if (true)""",
        tests=["test/GPU/shared-probabilities.test"],
        description="each K step's descriptor is a value LLVM hoists and keeps live: 192 x 192 at d = 64 needs 168 registers of 160"),
    # The TMA producer kernel (issue 32): each synchronization point and
    # layout of TmaProducer.cpp and of its CPU model (TmaCopies.cpp).
    Mutation(
        name="ws-producer-keeps-registers",
        function="specialize",
        old="""  NVVM::SetMaxRegisterOp::create(producerStart, loc, producerRegisters,
                                 NVVM::SetMaxRegisterAction::decrease);""",
        new="""""",
        tests=["test/Transforms/GPUMapping/specialize-warpgroups.mlir", "test/GPU/tma-producer.test"],
        description="the producer warpgroup keeps its registers (no setmaxnreg.dec)"),
    Mutation(
        name="ws-compute-sees-producer-work",
        function="specialize",
        old="""  fold(roles.producerLeader, branch.getThenRegion(), no);""",
        new="""""",
        tests=["test/Transforms/GPUMapping/specialize-warpgroups.mlir"],
        description="the compute clone keeps the producer's TMA issue"),
    # (Handing the first turn to the last warpgroup itself instead, barrier
    # 2 with two warpgroups, is no bug: its own arrive and wait complete
    # its barrier, and it goes first. The harness found that equivalent
    # mutant surviving, as it should.)
    Mutation(
        name="wgmma-buffers-16-aligned",
        function="FAAlignWorkgroupBuffersPass::runOnOperation",
        old="""warpgroupMatmuls ? kSwizzle128PatternBytes : kSharedAccessBytes;""",
        new="""kSharedAccessBytes;""",
        tests=["test/Transforms/GPUMapping/align-workgroup-buffers-wgmma.mlir",
               "test/GPU/warpgroup-mma.test"],
        description="wgmma's static tiles start on 16-byte boundaries, not the swizzle pattern's"),
    # 32-bit kernel indices (issue 28): a module that could overflow must
    # keep 64 bits.
    Mutation(
        name="narrow-limit-off-by-one",
        function="elementSpan",
        old="""    if (span >= kIndexLimit)""",
        new="""    if (span > kIndexLimit)""",
        tests=NARROW_TESTS,
        description="a kernel spanning exactly 2^31 elements gets a 32-bit index"),
    Mutation(
        name="narrow-index-arguments",
        function="whyNot64BitOnly",
        old="""      if (argument.getType().isIndex())
        refuse(func, "an index argument");
""",
        new="",
        tests=NARROW_TESTS,
        description="a kernel taking an index argument (passed as i64 by the host) is narrowed"),
    Mutation(
        name="narrow-strides-ignored",
        function="elementSpan",
        old="""    span += static_cast<__int128>(size - 1) * (stride < 0 ? -stride : stride);""",
        new="""    span += static_cast<__int128>(size - 1);""",
        tests=NARROW_TESTS,
        description="a strided kernel argument is measured by its element count, not its largest offset"),
]
