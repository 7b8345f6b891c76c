//===- WarpMatmul.h - The warp-level matmul of the tensor-core kernel -----===//
//
// What fa-distribute-attention writes and fa-warp-matmuls-to-nvgpu converts:
// a vector.contract (m, k) x (n, k) -> (m, n) of a 16x16 A tile and an 8x16
// B tile, both f16 or both bf16, into a 16x8 f32 tile: one mma.sync
// m16n8k16. Both passes, and fa-select-tiles, take the shape and the
// operand types from here.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_WARPMATMUL_H
#define FA_TRANSFORMS_COMMON_WARPMATMUL_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::fa {

/// The m, n and k of mma.sync m16n8k16.
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;

/// The indexing maps of the warp matmul: A (m, k), B (n, k), C (m, n).
inline SmallVector<AffineMap, 3> warpMatmulMaps(MLIRContext *ctx) {
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  auto map = [&](AffineExpr x, AffineExpr y) {
    return AffineMap::get(3, 0, {x, y}, ctx);
  };
  return {map(m, k), map(n, k), map(m, n)};
}

/// Whether Q, K and V can be the multiplicands of mma.sync m16n8k16 with
/// f32 accumulation: all f16 or all bf16.
inline bool isMmaSyncOperandTypes(Type query, Type key, Type value) {
  return (query.isF16() || query.isBF16()) && key == query && value == query;
}

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_WARPMATMUL_H
