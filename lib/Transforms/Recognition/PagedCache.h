//===- PagedCache.h - K and V gathered from a paged cache --------*- C++ -*-===//
//
// Stage: recognition. Serving frontends keep K and V in a paged cache
// ([P, S, Hkv, D], vLLM's layout) and gather each sequence's pages before a
// plain attention: `key_cache[block_table]` (torch's advanced indexing, a
// linalg.generic whose body extracts cache[table[b, m], s, h, d]), then a
// view that merges the pages and their slots into the key axis. When the
// gather is exactly such a page lookup, fa.attention reads the cache
// through its page_table operand instead and the gathered copy disappears.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_PAGEDCACHE_H
#define FA_TRANSFORMS_RECOGNITION_PAGEDCACHE_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace mlir::fa::recognition {

struct PageGather {
  Value cache; // [P, S, Hkv, E]
  Value table; // [B, M], integer page numbers
};

/// When `kv`, read through `permutation` (op dim i is kv's dim
/// permutation[i]; empty: the identity) as [B, Hkv, Nk, E], is the gather of
/// a paged cache through a page table, returns both.
std::optional<PageGather> findPageGather(Value kv,
                                         ArrayRef<int64_t> permutation);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_PAGEDCACHE_H
