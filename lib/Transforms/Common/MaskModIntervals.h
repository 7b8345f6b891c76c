//===- MaskModIntervals.h - Which tiles a mask_mod hides --------*- C++ -*-===//
//
// Block sparsity for fa.attention's mask_mod, proved from the region: the
// region is evaluated on intervals (every position argument ranges over the
// tile's rows or keys) instead of numbers, which says whether some element
// of the tile can be visible and whether every element must be. Integer
// arithmetic on positions (add, sub, mul by a constant, min, max, casts,
// comparisons, and, or, not, select) is bounded exactly; a read of a
// captured integer tensor at an interval of one index (doc[q]) is bounded by
// the tensor's min and max over that interval, a loop over the tile's rows
// or keys. Anything else is "unknown", which proves nothing: the tile is
// then visited and masked element by element, as without the analysis.
//
// The same evaluation runs in two modes: with a builder it emits the bounds
// as IR (the tiled lowering's per-tile test), without one it computes them
// from compile-time constants only (the tile report's visited fraction).
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_MASKMODINTERVALS_H
#define FA_TRANSFORMS_COMMON_MASKMODINTERVALS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace mlir::fa {

/// An inclusive range of a position argument: [first, last].
struct PositionRange {
  Value first, last;
};

/// What a tile of a mask_mod can be, as i1 values: whether some element may
/// be visible (false: the tile can be skipped) and whether every element is
/// (true: the tile needs no element test).
struct TileVisibility {
  Value someVisible, allVisible;
};

/// Emits at `b` the visibility of the tile whose (b, h, q, k) range over
/// `ranges` under the mask_mod `block`. `captures` maps tensors the region
/// reads to what they are here (buffers in a kernel). Null values where the
/// region defeats the analysis (then nothing is proved).
TileVisibility emitTileVisibility(OpBuilder &b, Location loc, Block *block,
                                  ArrayRef<PositionRange> ranges,
                                  const IRMapping *captures = nullptr);

/// The walk [first, end) in steps of `step` along position argument
/// `walked` (2: the queries, 3: the keys) of the mask_mod `block`, narrowed
/// to the steps from the first to the last that may show some element
/// while the other arguments range over `ranges` (the walked one's entry is
/// ignored): a scan emitted at `b`, one step at a time. A GPU kernel
/// emits it in front of its thread loop, so that its walk keeps
/// thread-independent bounds. Returns (first, end) unchanged where the
/// region defeats the analysis; an empty walk where no step is visible.
std::pair<Value, Value> narrowWalk(OpBuilder &b, Location loc, Block *block,
                                   ArrayRef<PositionRange> ranges,
                                   unsigned walked, Value first, Value end,
                                   int64_t step,
                                   const IRMapping *captures = nullptr);

/// The same from compile-time ranges [first, last] of (b, h, q, k), on
/// constants only: (someVisible, allVisible), or nullopt where a bound is
/// not a compile-time constant (the region reads a tensor the program
/// passes in, say).
std::optional<std::pair<bool, bool>>
staticTileVisibility(Block *block,
                     ArrayRef<std::pair<int64_t, int64_t>> ranges);

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_MASKMODINTERVALS_H
