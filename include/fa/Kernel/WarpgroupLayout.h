//===- WarpgroupLayout.h - wgmma's accumulator over a warpgroup -*- C++ -*-===//
//
// Where Hopper's warpgroup matmul (wgmma.mma_async m64nNk16, f32
// accumulator) keeps each element of its 64 x N result: the first piece of
// the sm_90a kernel (issue 32), whose softmax runs on these registers the
// way the register-fragment kernel's runs on mma.sync's.
//
// The PTX ISA ("Matrix fragments for wgmma.mma_async", register layout of
// D for .f32) and upstream MLIR's nvgpu.warpgroup.mma.store lowering agree:
// the 128 threads of a warpgroup are 4 warps, warp w holds rows
// [16 w, 16 w + 16), and inside a warp the layout is mma.sync m16n8's C
// fragment, repeated for each 8-column slice of the N columns. Thread t
// (warp w = t / 32, lane l = t % 32, g = l / 4, q = l % 4) holds N / 2
// registers; register r is
//   row    = 16 w + g + 8 ((r / 2) % 2)
//   column = 8 (r / 4) + 2 q + r % 2
// so the four lanes of a quad share each of their rows (a row max or sum is
// four partial values combined by two butterfly shuffles, as in
// RegisterFragmentKernel.cpp), and a row's 2 registers per 8 columns are
// adjacent columns (one packed pair once rounded to f16 or bf16).
//
// The wgmma matrix descriptor (how wgmma finds a tile in shared memory) is
// here too, encoded and decoded bit by bit, so that the CPU model can read
// a descriptor as the hardware does.
//
// Pure and unit-tested (unittests/WarpgroupLayoutTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FA_KERNEL_WARPGROUPLAYOUT_H
#define FA_KERNEL_WARPGROUPLAYOUT_H

#include <cstdint>
#include <optional>

namespace mlir::fa {

/// Threads of a warpgroup, and the rows of one wgmma.
constexpr int64_t kWarpgroupThreads = 128;
constexpr int64_t kWgmmaM = 64;

/// The N a wgmma may have (8 to 256 in steps of 8).
constexpr bool isWgmmaN(int64_t n) { return n >= 8 && n <= 256 && n % 8 == 0; }

/// f32 accumulator registers per thread of an m64nN wgmma: N / 2.
constexpr int64_t wgmmaAccumulatorRegisters(int64_t n) { return n / 2; }

/// An element of the 64 x N accumulator.
struct AccumulatorElement {
  int64_t row = 0, column = 0;
  friend bool operator==(AccumulatorElement a, AccumulatorElement b) {
    return a.row == b.row && a.column == b.column;
  }
};

/// The element that register `reg` of warpgroup thread `thread` holds.
constexpr AccumulatorElement wgmmaAccumulatorElement(int64_t thread,
                                                     int64_t reg) {
  int64_t warp = thread / 32, lane = thread % 32;
  int64_t group = lane / 4, inQuad = lane % 4;
  return {16 * warp + group + 8 * ((reg / 2) % 2),
          8 * (reg / 4) + 2 * inQuad + reg % 2};
}

/// Which thread holds element (row, column), and in which register; none
/// outside 64 x N.
struct AccumulatorSlot {
  int64_t thread = 0, reg = 0;
};
constexpr std::optional<AccumulatorSlot>
wgmmaAccumulatorSlot(int64_t n, int64_t row, int64_t column) {
  if (row < 0 || row >= kWgmmaM || column < 0 || column >= n)
    return std::nullopt;
  int64_t warp = row / 16, inWarp = row % 16;
  int64_t group = inWarp % 8, half = inWarp / 8;
  int64_t slice = column / 8, inSlice = column % 8;
  int64_t thread = 32 * warp + 4 * group + inSlice / 2;
  int64_t reg = 4 * slice + 2 * half + inSlice % 2;
  return AccumulatorSlot{thread, reg};
}

/// How wgmma reads a shared-memory tile: its 64-bit matrix descriptor
/// (PTX ISA, "Matrix Descriptor Format"; upstream's
/// nvgpu.warpgroup.generate.descriptor lowering writes the same fields).
/// Byte addresses and offsets are stored divided by 16 in 14-bit fields:
///   [0, 14)   start address          [16, 30)  leading dimension byte offset
///   [32, 46)  stride dimension byte offset
///   [49, 52)  base offset (of a swizzle pattern that does not start at a
///             pattern boundary)      [62, 64)  swizzle mode
enum class WgmmaSwizzle : uint8_t {
  None = 0,
  Bytes128 = 1,
  Bytes64 = 2,
  Bytes32 = 3
};

struct WgmmaDescriptor {
  int64_t startAddress = 0;      // bytes, in shared memory
  int64_t leadingByteOffset = 0; // bytes
  int64_t strideByteOffset = 0;  // bytes
  int64_t baseOffset = 0;        // 0 to 7
  WgmmaSwizzle swizzle = WgmmaSwizzle::None;
  friend bool operator==(const WgmmaDescriptor &a, const WgmmaDescriptor &b) {
    return a.startAddress == b.startAddress &&
           a.leadingByteOffset == b.leadingByteOffset &&
           a.strideByteOffset == b.strideByteOffset &&
           a.baseOffset == b.baseOffset && a.swizzle == b.swizzle;
  }
};

/// Where the byte at `offset` (from a pattern-aligned base) of a tile stored
/// with `swizzle` sits: TMA writes and wgmma reads shared memory through the
/// same XOR pattern, on 16-byte chunks. With an S-byte swizzle (S = 128,
/// 64, 32), the chunk index inside each S-byte row is XORed with the index
/// of the 128-byte line the row is in, modulo S / 16; the pattern repeats
/// every 8 S bytes: offset bits [4, 4 + k) ^= bits [7, 7 + k), k = 3, 2, 1
/// (CUTLASS's Swizzle<3,4,3>, <2,4,3>, <1,4,3>).
constexpr int64_t swizzledByteOffset(WgmmaSwizzle swizzle, int64_t offset) {
  int64_t bits = swizzle == WgmmaSwizzle::Bytes128  ? 3
                 : swizzle == WgmmaSwizzle::Bytes64 ? 2
                 : swizzle == WgmmaSwizzle::Bytes32 ? 1
                                                    : 0;
  int64_t mask = ((int64_t(1) << bits) - 1) << 4;
  return offset ^ ((offset >> 3) & mask);
}

/// A row of the 128-byte swizzle, and its whole pattern of 8 rows: where a
/// pattern must start for its descriptor's base offset to be 0 (the
/// boundary the wgmma kernel's tiles are aligned to).
constexpr int64_t kSwizzle128RowBytes = 128;
constexpr int64_t kSwizzle128PatternBytes = 8 * kSwizzle128RowBytes;

/// The bytes of one swizzle pattern row (S), 16 without a swizzle.
constexpr int64_t swizzleRowBytes(WgmmaSwizzle swizzle) {
  return swizzle == WgmmaSwizzle::Bytes128  ? 128
         : swizzle == WgmmaSwizzle::Bytes64 ? 64
         : swizzle == WgmmaSwizzle::Bytes32 ? 32
                                            : 16;
}

/// Which dimension of a wgmma operand is contiguous in shared memory:
/// K (imm-trans 0; Q and K of S = Q Kᵀ) or M/N (imm-trans 1, f16 and bf16
/// only; V of O = P V).
enum class WgmmaMajor : uint8_t { K, MN };

/// The shared-memory byte from which wgmma reads element (mn, k) of an
/// operand (mn < 64 for A, < N for B; k < 16, one instruction's K) of
/// `elementBytes` bytes, as the descriptor `d` describes it. Core matrices
/// are 8 rows of 16 bytes (T = 16 / elementBytes elements); a swizzle atom
/// is 8 rows of S bytes (S = 128, 64, 32), stored contiguously:
///   K-major,  no swizzle: rows (mn) 16 B apart, 8-row groups SBO apart,
///                         16-byte chunks of K LBO apart;
///   K-major,  swizzled:   rows S bytes apart, 8-row groups SBO apart, K
///                         contiguous inside the row (LBO unused);
///   MN-major, no swizzle: k rows 16 B apart, groups of 8 k LBO apart,
///                         16-byte chunks of MN SBO apart;
///   MN-major, swizzled:   k rows S bytes apart, groups of 8 k SBO apart,
///                         atoms of S / elementBytes MN elements LBO apart;
/// then the swizzle permutes the address's 16-byte chunks as
/// swizzledByteOffset does, on the absolute address (start included: a
/// descriptor whose start is advanced 32 bytes into a 128-byte row reads
/// the next 16 columns of K). PTX ISA "Shared Memory Matrix Layout" and
/// tcgen05's "Leading Dimension Stride" table; CUTLASS's GMMA descriptor
/// comments say the same. Checked on an H200 by bench/gpu/hopper-probe.cu.
/// The base offset is not modeled: callers start patterns on their own
/// boundary and keep it 0.
constexpr int64_t wgmmaOperandByteAddress(const WgmmaDescriptor &d,
                                          WgmmaMajor major,
                                          int64_t elementBytes, int64_t mn,
                                          int64_t k) {
  int64_t chunkElements = 16 / elementBytes;
  int64_t linear = 0;
  if (d.swizzle == WgmmaSwizzle::None) {
    if (major == WgmmaMajor::K)
      linear = (mn / 8) * d.strideByteOffset +
               (k / chunkElements) * d.leadingByteOffset + (mn % 8) * 16 +
               (k % chunkElements) * elementBytes;
    else
      linear = (mn / chunkElements) * d.strideByteOffset +
               (k / 8) * d.leadingByteOffset + (k % 8) * 16 +
               (mn % chunkElements) * elementBytes;
  } else {
    int64_t rowBytes = swizzleRowBytes(d.swizzle);
    int64_t atomElements = rowBytes / elementBytes;
    if (major == WgmmaMajor::K)
      linear = (mn / 8) * d.strideByteOffset + (mn % 8) * rowBytes +
               k * elementBytes;
    else
      linear = (mn / atomElements) * d.leadingByteOffset +
               (k / 8) * d.strideByteOffset + (k % 8) * rowBytes +
               (mn % atomElements) * elementBytes;
  }
  return swizzledByteOffset(d.swizzle, d.startAddress + linear);
}

/// A (64 x 16, f16 or bf16) from registers (wgmma's RS form, P of O = P V):
/// thread t (warp w, g = lane / 4, q = lane % 4) holds 4 registers of two
/// halves each, mma.sync m16n8k16's A fragment for rows [16 w, 16 w + 16):
/// register r, half h is A[16 w + g + 8 (r % 2)][8 (r / 2) + 2 q + h].
/// So the accumulator registers 8j .. 8j+7 of a thread (its elements in
/// columns [16 j, 16 j + 16)) are its A registers for K step j, register r
/// packing accumulator registers 8 j + 4 (r / 2) + 2 (r % 2) and the next:
/// S's accumulator becomes P's operand without a shuffle. Checked on an
/// H200 by bench/gpu/hopper-probe.cu.
struct OperandElement {
  int64_t row = 0, k = 0;
  friend bool operator==(OperandElement a, OperandElement b) {
    return a.row == b.row && a.k == b.k;
  }
};
constexpr OperandElement
wgmmaRegisterOperandElement(int64_t thread, int64_t reg, int64_t half) {
  int64_t warp = thread / 32, lane = thread % 32;
  int64_t group = lane / 4, inQuad = lane % 4;
  return {16 * warp + group + 8 * (reg % 2), 8 * (reg / 2) + 2 * inQuad + half};
}

/// The descriptor's 64 bits; none where a byte field is not a multiple of
/// 16 or does not fit its 14 bits (2^18 bytes: all of a block's shared
/// memory), or the base offset does not fit 3 bits.
constexpr std::optional<uint64_t>
encodeWgmmaDescriptor(const WgmmaDescriptor &d) {
  auto field = [](int64_t bytes) -> std::optional<uint64_t> {
    if (bytes < 0 || bytes % 16 != 0 || bytes >= (int64_t(1) << 18))
      return std::nullopt;
    return static_cast<uint64_t>(bytes / 16);
  };
  std::optional<uint64_t> start = field(d.startAddress);
  std::optional<uint64_t> leading = field(d.leadingByteOffset);
  std::optional<uint64_t> stride = field(d.strideByteOffset);
  if (!start || !leading || !stride || d.baseOffset < 0 || d.baseOffset > 7)
    return std::nullopt;
  return *start | (*leading << 16) | (*stride << 32) |
         (static_cast<uint64_t>(d.baseOffset) << 49) |
         (static_cast<uint64_t>(d.swizzle) << 62);
}

/// The fields of a descriptor, as the hardware reads them (bits outside
/// the fields are ignored).
constexpr WgmmaDescriptor decodeWgmmaDescriptor(uint64_t bits) {
  auto bytes = [&](int shift) {
    return static_cast<int64_t>((bits >> shift) & 0x3fff) * 16;
  };
  WgmmaDescriptor d;
  d.startAddress = bytes(0);
  d.leadingByteOffset = bytes(16);
  d.strideByteOffset = bytes(32);
  d.baseOffset = static_cast<int64_t>((bits >> 49) & 0x7);
  d.swizzle = static_cast<WgmmaSwizzle>((bits >> 62) & 0x3);
  return d;
}

} // namespace mlir::fa

#endif // FA_KERNEL_WARPGROUPLAYOUT_H
