//===- PackQueryGroups.h - Query heads of a group as one block's rows
//-*-C++-*-===//
//
// Grouped-query packing (pack_gqa in #fa.tiling): the G = Hq / Hkv query
// heads that read one key/value head become the query rows of one
// attention over that head,
//
//   Q [B, Hq, Nq, D] -> [B, Hkv, G, Nq, D] -> [B, Hkv, G * Nq, D]
//   (the same memory: Hq = Hkv * G is major to Nq)
//
// so that one K/V tile serves G * Nq rows instead of Nq: K and V are read
// once per group instead of once per query head, and a decode step
// (Nq = 1) fills G rows of a 16-row mma tile instead of one. The outputs
// are reshaped back. Exact only when no mask depends on the query row's
// position within its head, which a packed row no longer has: see
// whyNotPackable.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_PACKQUERYGROUPS_H
#define FA_TRANSFORMS_COMMON_PACKQUERYGROUPS_H

#include "fa/Dialect/FA/IR/FAOps.h"

#include <string>

namespace mlir::fa {

/// Why `op`'s query groups cannot be packed exactly, or "" when they can:
/// a group of more than one head with static head counts, no window, no
/// causal mask unless Nq = 1 with the bottom-right alignment (where it
/// hides nothing), and a mask that either broadcasts over heads and query
/// rows or has both (or, with Nq = 1, only heads).
std::string whyNotPackable(AttentionOp op);

/// Replaces `op` (whose tiling has pack_gqa) by reshapes around an
/// fa.attention over the packed rows, with the same tiling but pack_gqa,
/// and returns that op. `op` must be packable.
AttentionOp packQueryGroups(AttentionOp op, OpBuilder &builder);

/// Reports at `op` why its tiling's pack_gqa cannot be honoured; success
/// when the tiling does not pack or packing is exact.
LogicalResult checkPackedTiling(AttentionOp op);

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_PACKQUERYGROUPS_H
