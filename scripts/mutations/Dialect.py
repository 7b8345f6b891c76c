"""The mutations of the stage Dialect (include/fa/Dialect, lib/Dialect).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation

MUTATIONS = [
    # Issue 50: the outside audit's one-line bugs that no test saw, and the
    # session's own rules (the host's tiles, the TMA walk order).
    Mutation(
        name="window-band-sgt-off-by-one",
        function="bandBound",
        old="    return BandBound{false, offset + 1};",
        new="    return BandBound{false, offset};",
        tests=["test/Dialect/FA/canonicalize.mlir", "test/Transforms/Recognition/FoldMasks/bands.mlir"],
        description="k > q + c read as k >= q + c: a window one key wider than the mask_mod"),
]
