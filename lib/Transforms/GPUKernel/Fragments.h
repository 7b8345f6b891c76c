//===- Fragments.h - mma.sync m16n8k16 fragments of a warp -----*- C++ -*-===//
//
// The register fragments of nvgpu.mma.sync m16n8k16 and the lane
// arithmetic around them, shared by the register-resident forward kernel
// (RegisterFragmentKernel.cpp) and the backward kernels
// (DistributeAttentionBackward.cpp). Lane l (g = l / 4, q = l % 4) holds
// rows g and g + 8 of each 16-row accumulator fragment, columns 2q and
// 2q + 1 of each 8-column one. Private to lib/Transforms/GPU.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPU_FRAGMENTS_H
#define FA_LIB_TRANSFORMS_GPU_FRAGMENTS_H

#include "Common/IndexMath.h"
#include "KernelSupport.h"
#include "fa/Kernel/WarpgroupLayout.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::fa::gpu_kernel {

/// Lanes per quad: the lanes that share a fragment row.
constexpr int64_t kQuad = 4;

inline VectorType aFragmentType(Type element) {
  return VectorType::get({4, 2}, element);
}
inline VectorType bFragmentType(Type element) {
  return VectorType::get({2, 2}, element);
}
inline VectorType accumulatorType(MLIRContext *ctx) {
  return VectorType::get({2, 2}, Float32Type::get(ctx));
}

/// The lane's own coordinates, and the row and column each lane gives to an
/// ldmatrix.x4 of four 8x8 matrices.
struct Lane {
  Value warpRow0; // the warp's first row in the block
  Value group;    // g = lane / 4: fragment rows g and g + 8
  Value quad;     // q = lane % 4: fragment columns 2q and 2q + 1
  Value row16;    // lane % 16
  Value row8;     // lane % 8
  Value upper8;   // 8 (lane / 16)
  Value odd8;     // 8 ((lane / 8) % 2)
};

inline Lane laneOf(IndexMath &math, Value thread, int64_t rowsPerWarp) {
  Value lane = math.remU(thread, math.constant(kWarpSize));
  Value warp = math.divU(thread, math.constant(kWarpSize));
  Value eight = math.constant(8);
  Lane result;
  result.warpRow0 = math.mul(warp, math.constant(rowsPerWarp));
  result.group = math.divU(lane, math.constant(kQuad));
  result.quad = math.remU(lane, math.constant(kQuad));
  result.row16 = math.remU(lane, math.constant(16));
  result.row8 = math.remU(lane, eight);
  result.upper8 = math.mul(math.divU(lane, math.constant(16)), eight);
  Value eighth = math.divU(lane, eight);
  result.odd8 = math.mul(math.remU(eighth, math.constant(2)), eight);
  return result;
}

inline Value extractElement(OpBuilder &b, Location loc, Value vector,
                            int64_t row, int64_t column) {
  return vector::ExtractOp::create(b, loc, vector,
                                   ArrayRef<int64_t>{row, column});
}

inline Value insertElement(OpBuilder &b, Location loc, Value element,
                           Value vector, int64_t row, int64_t column) {
  return vector::InsertOp::create(b, loc, element, vector,
                                  ArrayRef<int64_t>{row, column});
}

/// Registers `first` and `first + 1` of an ldmatrix.x4 result: the B
/// fragment of one 8-column tile.
inline Value bFragment(OpBuilder &b, Location loc, Value x4, int64_t first) {
  Type element = getElementTypeOrSelf(x4.getType());
  Value fragment =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(bFragmentType(element)));
  for (int64_t i = 0; i < 2; ++i) {
    Value registerPair =
        vector::ExtractOp::create(b, loc, x4, ArrayRef<int64_t>{first + i});
    fragment = vector::InsertOp::create(b, loc, registerPair, fragment,
                                        ArrayRef<int64_t>{i});
  }
  return fragment;
}

inline Value mmaSync(OpBuilder &b, Location loc, Value a, Value bFrag,
                     Value acc) {
  return nvgpu::MmaSyncOp::create(b, loc, a, bFrag, acc,
                                  ArrayRef<int64_t>{kMmaM, kMmaN, kMmaK})
      .getResult();
}

/// acc[i][n] += A[i] B[n] for every fragment row i and 8-column tile n, the
/// B fragments taken two per ldmatrix.x4 result in `bPairs`. The pairs are
/// regrouped only here, after all of a step's loads are issued, so that the
/// CPU model exchanges those loads in one wave (WarpCollectives.h).
inline void multiplyFragments(OpBuilder &b, Location loc,
                              ArrayRef<Value> aFragments,
                              ArrayRef<Value> bPairs,
                              MutableArrayRef<Value> acc) {
  SmallVector<Value> bFragments;
  for (Value pair : bPairs) {
    bFragments.push_back(bFragment(b, loc, pair, 0));
    bFragments.push_back(bFragment(b, loc, pair, 2));
  }
  int64_t tiles = static_cast<int64_t>(bFragments.size());
  for (auto [i, a] : llvm::enumerate(aFragments))
    for (int64_t n = 0; n < tiles; ++n) {
      Value &c = acc[i * tiles + n];
      c = mmaSync(b, loc, a, bFragments[n], c);
    }
}

/// Each value combined with `kind` over the four lanes of its quad: one
/// butterfly shuffle per distance, all values of a distance issued together.
inline SmallVector<Value> combineOverQuad(OpBuilder &b, Location loc,
                                          ArrayRef<Value> values,
                                          arith::AtomicRMWKind kind) {
  SmallVector<Value> result(values);
  for (int64_t distance = 1; distance < kQuad; distance *= 2) {
    Value offset =
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(distance));
    Value width =
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(kWarpSize));
    SmallVector<Value> theirs;
    for (Value value : result)
      theirs.push_back(gpu::ShuffleOp::create(b, loc, value, offset, width,
                                              gpu::ShuffleMode::XOR)
                           .getShuffleResult());
    for (size_t i = 0; i < result.size(); ++i)
      result[i] = arith::getReductionOp(kind, b, loc, result[i], theirs[i]);
  }
  return result;
}

/// The wgmma descriptor (fa.warpgroup_mma's contract: start addresses count
/// from the operand's one-dimensional buffer) of the operand at byte
/// `byteBase` + `byteOffset` of its buffer, with the given leading and
/// stride byte offsets and swizzle. It is written as the descriptor of
/// `byteBase` plus a constant: the GPU lowering issues the constant as an
/// immediate of the wgmma's PTX, so the steps of a tile share one live
/// base (WarpgroupMmaToNVVM.cpp). Shared by the forward's and the
/// backward's wgmma kernels.
inline Value wgmmaDescriptor(OpBuilder &b, Location loc, Value byteBase,
                             int64_t byteOffset, int64_t leading,
                             int64_t stride,
                             WgmmaSwizzle swizzle = WgmmaSwizzle::Bytes128) {
  std::optional<uint64_t> fields =
      encodeWgmmaDescriptor(WgmmaDescriptor{0, leading, stride, 0, swizzle});
  assert(fields && "the kernel's strides fit a descriptor");
  IndexMath math{b, loc};
  Value start = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(), math.divU(byteBase, math.constant(16)));
  Value fixed =
      arith::ConstantIntOp::create(b, loc, static_cast<int64_t>(*fields), 64);
  Value base = arith::OrIOp::create(b, loc, fixed, start);
  if (byteOffset == 0)
    return base;
  assert(byteOffset % 16 == 0 && "descriptors count 16-byte units");
  return arith::AddIOp::create(
      b, loc, base, arith::ConstantIntOp::create(b, loc, byteOffset / 16, 64));
}

} // namespace mlir::fa::gpu_kernel

#endif // FA_LIB_TRANSFORMS_GPU_FRAGMENTS_H
