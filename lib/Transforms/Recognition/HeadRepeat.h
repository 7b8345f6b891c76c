//===- HeadRepeat.h - K/V heads repeated for GQA/MQA ------------*- C++ -*-===//
//
// Stage: recognition. Frontends implement grouped-query attention by
// repeating each key/value head G times (repeat_kv: expand, broadcast or
// tile, collapse) before a plain attention. fa.attention states the grouping
// instead, so the recognizer looks through the repeat and hands the op the
// unrepeated K and V.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_RECOGNITION_HEADREPEAT_H
#define FA_TRANSFORMS_RECOGNITION_HEADREPEAT_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::fa::recognition {

/// A [batch..., N, D] tensor whose last batch dim is `source`'s head dim
/// with every head repeated `groupSize` times in a row (query head h reads
/// head h / groupSize). `collapse`, when not empty, merges `source`'s
/// leading dims so that it has the rank of the repeated tensor.
struct HeadRepeat {
  Value source;
  int64_t groupSize = 1;
  SmallVector<ReassociationIndices> collapse;
};

/// Finds the repeat that produced `kv`, whose head dim is `headDim`.
std::optional<HeadRepeat> findHeadRepeat(Value kv, int64_t headDim);

} // namespace mlir::fa::recognition

#endif // FA_TRANSFORMS_RECOGNITION_HEADREPEAT_H
