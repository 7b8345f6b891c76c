"""The mutations of the stage Kernel (include/fa/Kernel, lib/Kernel).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation

MUTATIONS = [
    Mutation(
        name="op50-static-tail-third-of-a-row",
        function="mlir::fa::registersPerThread",
        old="""      staticTail = fragmentRows * double(tiling.blockKV) / 2;""",
        new="""      staticTail = fragmentRows * double(tiling.blockKV) / 3;""",
        tests=["unittests"],
        description="the static tail block's registers counted as a third of an S row per fragment row (d = 128, 128 x 32 spilled 264 bytes at N = 1000)"),
]
