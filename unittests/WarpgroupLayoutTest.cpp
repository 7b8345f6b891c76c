//===- WarpgroupLayoutTest.cpp - wgmma's accumulator layout ---------------===//
//
// The layout of WarpgroupLayout.h checked against what it must be: a
// bijection between (thread, register) and the 64 x N elements for every N
// wgmma allows, mma.sync m16n8's C fragment inside each warp and 8-column
// slice (written out here from the PTX ISA, independently), quads that
// share rows, and upstream's nvgpu.warpgroup.mma.store formula.
//
//===----------------------------------------------------------------------===//

#include "fa/Kernel/WarpgroupLayout.h"

#include "gtest/gtest.h"

#include <set>
#include <utility>

using namespace mlir::fa;

namespace {

TEST(WarpgroupLayout, EveryElementIsHeldOnceForEveryN) {
  for (int64_t n = 8; n <= 256; n += 8) {
    ASSERT_TRUE(isWgmmaN(n));
    std::set<std::pair<int64_t, int64_t>> seen;
    for (int64_t thread = 0; thread < kWarpgroupThreads; ++thread)
      for (int64_t reg = 0; reg < wgmmaAccumulatorRegisters(n); ++reg) {
        AccumulatorElement e = wgmmaAccumulatorElement(thread, reg);
        ASSERT_GE(e.row, 0);
        ASSERT_LT(e.row, kWgmmaM);
        ASSERT_GE(e.column, 0);
        ASSERT_LT(e.column, n) << "n " << n << " thread " << thread;
        EXPECT_TRUE(seen.insert({e.row, e.column}).second)
            << "n " << n << ": (" << e.row << ", " << e.column
            << ") held twice";
        std::optional<AccumulatorSlot> slot =
            wgmmaAccumulatorSlot(n, e.row, e.column);
        ASSERT_TRUE(slot);
        EXPECT_EQ(slot->thread, thread);
        EXPECT_EQ(slot->reg, reg);
      }
    EXPECT_EQ(static_cast<int64_t>(seen.size()), kWgmmaM * n);
  }
  EXPECT_FALSE(isWgmmaN(0));
  EXPECT_FALSE(isWgmmaN(12));
  EXPECT_FALSE(isWgmmaN(264));
  EXPECT_FALSE(wgmmaAccumulatorSlot(64, 64, 0));
  EXPECT_FALSE(wgmmaAccumulatorSlot(64, 0, 64));
}

// mma.sync.m16n8k16's f32 C fragment (PTX ISA): lane l, g = l / 4,
// q = l % 4, holds c0 = (g, 2q), c1 = (g, 2q + 1), c2 = (g + 8, 2q),
// c3 = (g + 8, 2q + 1).
AccumulatorElement mmaSyncC(int64_t lane, int64_t reg) {
  int64_t g = lane / 4, q = lane % 4;
  return {g + (reg >= 2 ? 8 : 0), 2 * q + reg % 2};
}

TEST(WarpgroupLayout, EachWarpAndSliceIsAnMmaSyncFragment) {
  constexpr int64_t n = 64;
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t slice = 0; slice < n / 8; ++slice)
        for (int64_t c = 0; c < 4; ++c) {
          AccumulatorElement wg =
              wgmmaAccumulatorElement(32 * warp + lane, 4 * slice + c);
          AccumulatorElement mma = mmaSyncC(lane, c);
          EXPECT_EQ(wg.row, 16 * warp + mma.row);
          EXPECT_EQ(wg.column, 8 * slice + mma.column);
        }
}

TEST(WarpgroupLayout, AQuadSharesItsRows) {
  // The row max and sum of a row combine the four lanes of a quad (two
  // butterfly shuffles, xor 1 and xor 2): every lane of the quad holds
  // elements of exactly the same two rows, and no other lane does.
  constexpr int64_t n = 128;
  for (int64_t thread = 0; thread < kWarpgroupThreads; ++thread) {
    std::set<int64_t> rows;
    for (int64_t reg = 0; reg < wgmmaAccumulatorRegisters(n); ++reg)
      rows.insert(wgmmaAccumulatorElement(thread, reg).row);
    EXPECT_EQ(rows.size(), 2u);
    for (int64_t partner : {thread ^ 1, thread ^ 2, thread ^ 3}) {
      std::set<int64_t> partnerRows;
      for (int64_t reg = 0; reg < wgmmaAccumulatorRegisters(n); ++reg)
        partnerRows.insert(wgmmaAccumulatorElement(partner, reg).row);
      EXPECT_EQ(rows, partnerRows);
    }
    // Register pairs (2k, 2k + 1) are adjacent columns of one row: one
    // packed f16x2 or bf16x2 once rounded.
    for (int64_t reg = 0; reg < wgmmaAccumulatorRegisters(n); reg += 2) {
      AccumulatorElement a = wgmmaAccumulatorElement(thread, reg);
      AccumulatorElement b = wgmmaAccumulatorElement(thread, reg + 1);
      EXPECT_EQ(a.row, b.row);
      EXPECT_EQ(a.column + 1, b.column);
      EXPECT_EQ(a.column % 2, 0);
    }
  }
}

// Upstream MLIR's lowering of nvgpu.warpgroup.mma.store writes struct
// element (i * 2 + j * 4) (and the next) of thread t to row
// 16 (t / 32) + (t % 32) / 4 + 8 i, column 2 (t % 4) + 8 j (and + 1).
TEST(WarpgroupLayout, MatchesUpstreamsStoreOfTheAccumulator) {
  constexpr int64_t n = 256;
  for (int64_t thread = 0; thread < kWarpgroupThreads; ++thread)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < n / 8; ++j)
        for (int64_t next = 0; next < 2; ++next) {
          AccumulatorElement e =
              wgmmaAccumulatorElement(thread, i * 2 + j * 4 + next);
          EXPECT_EQ(e.row, 16 * (thread / 32) + (thread % 32) / 4 + 8 * i);
          EXPECT_EQ(e.column, 2 * (thread % 4) + 8 * j + next);
        }
}

// The descriptor's fields at the bits the PTX ISA gives them, written out
// here with explicit shifts.
TEST(WgmmaDescriptor, FieldsSitAtTheirBits) {
  WgmmaDescriptor d;
  d.startAddress = 0x1230;            // 0x123 in bits [0, 14)
  d.leadingByteOffset = 2048;         // 128 in bits [16, 30)
  d.strideByteOffset = 1024;          // 64 in bits [32, 46)
  d.baseOffset = 5;                   // bits [49, 52)
  d.swizzle = WgmmaSwizzle::Bytes128; // 1 in bits [62, 64)
  uint64_t expected =
      0x123ull | (128ull << 16) | (64ull << 32) | (5ull << 49) | (1ull << 62);
  std::optional<uint64_t> bits = encodeWgmmaDescriptor(d);
  ASSERT_TRUE(bits);
  EXPECT_EQ(*bits, expected);
  EXPECT_EQ(decodeWgmmaDescriptor(expected), d);
  // The three swizzled modes and none.
  EXPECT_EQ(static_cast<int>(decodeWgmmaDescriptor(2ull << 62).swizzle),
            static_cast<int>(WgmmaSwizzle::Bytes64));
  EXPECT_EQ(static_cast<int>(decodeWgmmaDescriptor(3ull << 62).swizzle),
            static_cast<int>(WgmmaSwizzle::Bytes32));
  EXPECT_EQ(static_cast<int>(decodeWgmmaDescriptor(0).swizzle),
            static_cast<int>(WgmmaSwizzle::None));
}

TEST(WgmmaDescriptor, RoundTripsAndRefusesWhatDoesNotFit) {
  for (int64_t start = 0; start < (1 << 18); start += 16 * 97)
    for (int64_t leading : {0, 16, 128, 8192, (1 << 18) - 16})
      for (int64_t stride : {0, 16, 1024, (1 << 18) - 16})
        for (int64_t base = 0; base < 8; base += 3)
          for (WgmmaSwizzle swizzle :
               {WgmmaSwizzle::None, WgmmaSwizzle::Bytes128,
                WgmmaSwizzle::Bytes64, WgmmaSwizzle::Bytes32}) {
            WgmmaDescriptor d{start, leading, stride, base, swizzle};
            std::optional<uint64_t> bits = encodeWgmmaDescriptor(d);
            ASSERT_TRUE(bits);
            EXPECT_EQ(decodeWgmmaDescriptor(*bits), d);
          }
  // Not a multiple of 16 bytes, past 2^18 bytes, negative, a base offset
  // past 7: no descriptor.
  EXPECT_FALSE(encodeWgmmaDescriptor({8, 0, 0, 0, WgmmaSwizzle::None}));
  EXPECT_FALSE(encodeWgmmaDescriptor({0, 1 << 18, 0, 0, WgmmaSwizzle::None}));
  EXPECT_FALSE(encodeWgmmaDescriptor({0, 0, -16, 0, WgmmaSwizzle::None}));
  EXPECT_FALSE(encodeWgmmaDescriptor({0, 0, 0, 8, WgmmaSwizzle::None}));
  // Bits outside the fields are ignored when read.
  uint64_t padded =
      *encodeWgmmaDescriptor({4096, 16, 32, 1, WgmmaSwizzle::Bytes64}) |
      (1ull << 14) | (1ull << 30) | (1ull << 47);
  EXPECT_EQ(decodeWgmmaDescriptor(padded),
            (WgmmaDescriptor{4096, 16, 32, 1, WgmmaSwizzle::Bytes64}));
}

TEST(WgmmaSwizzle, PermutesChunksWithinEachPattern) {
  // Each mode is its own inverse, moves whole 16-byte chunks, and keeps
  // every byte inside its 8-row pattern (8 rows of S bytes).
  for (auto [swizzle, rowBytes] : {std::pair{WgmmaSwizzle::Bytes128, 128},
                                   std::pair{WgmmaSwizzle::Bytes64, 64},
                                   std::pair{WgmmaSwizzle::Bytes32, 32}}) {
    int64_t pattern = 8 * rowBytes;
    std::set<int64_t> seen;
    for (int64_t offset = 0; offset < 4 * pattern; ++offset) {
      int64_t to = swizzledByteOffset(swizzle, offset);
      EXPECT_EQ(swizzledByteOffset(swizzle, to), offset);
      EXPECT_EQ(to / pattern, offset / pattern);
      EXPECT_EQ(to % 16, offset % 16);
      EXPECT_TRUE(seen.insert(to).second);
    }
    // Chunk c of an S-byte row at byte r S lands in chunk
    // c ^ ((r S / 128) mod S/16) of the same row. With 128-byte rows the
    // same chunk of 8 consecutive rows falls in 8 different chunks.
    int64_t chunks = rowBytes / 16;
    for (int64_t row = 0; row < 8; ++row)
      for (int64_t chunk = 0; chunk < chunks; ++chunk) {
        int64_t to = swizzledByteOffset(swizzle, row * rowBytes + chunk * 16);
        EXPECT_EQ(to / rowBytes, row);
        EXPECT_EQ((to % rowBytes) / 16,
                  chunk ^ ((row * rowBytes / 128) % chunks));
      }
  }
  for (int64_t offset = 0; offset < 4096; ++offset)
    EXPECT_EQ(swizzledByteOffset(WgmmaSwizzle::None, offset), offset);
}

// A tile of `rows` x 64 (K-major) or 64 x `rows` (MN-major) f16 elements,
// read by four wgmma K steps, in the layouts the sm_90a kernel uses:
// every element of every step must be read from its own two bytes, all
// inside the tile (the layouts bench/gpu/hopper-probe.cu checks on a GPU).
WgmmaDescriptor tileStep(WgmmaSwizzle swizzle, WgmmaMajor major, int64_t rows,
                         int64_t step) {
  int64_t s = swizzleRowBytes(swizzle), k0 = 16 * step;
  WgmmaDescriptor d;
  d.swizzle = swizzle;
  if (major == WgmmaMajor::K && swizzle == WgmmaSwizzle::None)
    d = {(k0 / 8) * rows * 16, rows * 16, 128, 0, swizzle};
  else if (major == WgmmaMajor::K)
    d = {(k0 / (s / 2)) * rows * s + (k0 % (s / 2)) * 2, 16, 8 * s, 0, swizzle};
  else if (swizzle == WgmmaSwizzle::None)
    d = {(k0 / 8) * 128, 128, 64 * 16, 0, swizzle};
  else
    d = {(k0 / 8) * 8 * s, 64 * s, 8 * s, 0, swizzle};
  return d;
}

TEST(WgmmaOperand, TileLayoutsReadEveryElementOnce) {
  for (WgmmaSwizzle swizzle : {WgmmaSwizzle::None, WgmmaSwizzle::Bytes128,
                               WgmmaSwizzle::Bytes64, WgmmaSwizzle::Bytes32})
    for (WgmmaMajor major : {WgmmaMajor::K, WgmmaMajor::MN})
      for (int64_t rows : {32, 64}) {
        // An MN-major tile narrower than its atom leaves part of it unused.
        int64_t atomElements = swizzleRowBytes(swizzle) / 2;
        int64_t width = major == WgmmaMajor::MN && rows < atomElements
                            ? atomElements
                            : rows;
        int64_t bytes = width * 64 * 2;
        std::set<int64_t> seen;
        for (int64_t step = 0; step < 4; ++step) {
          WgmmaDescriptor d = tileStep(swizzle, major, rows, step);
          for (int64_t mn = 0; mn < rows; ++mn)
            for (int64_t k = 0; k < 16; ++k) {
              int64_t at = wgmmaOperandByteAddress(d, major, 2, mn, k);
              EXPECT_EQ(at % 2, 0);
              EXPECT_GE(at, 0);
              EXPECT_LT(at, bytes);
              EXPECT_TRUE(seen.insert(at).second)
                  << "swizzle " << int(swizzle) << " major " << int(major)
                  << " rows " << rows << " step " << step << " (" << mn << ", "
                  << k << ")";
            }
        }
      }
}

TEST(WgmmaOperand, UnswizzledKMajorIsCoreMatrices) {
  // Element (mn, k) of a K-major operand without swizzle: row mn % 8 of
  // core matrix (mn / 8, k / 8), written out from the PTX ISA's figure.
  WgmmaDescriptor d{1024, 2048, 128, 0, WgmmaSwizzle::None};
  EXPECT_EQ(wgmmaOperandByteAddress(d, WgmmaMajor::K, 2, 0, 0), 1024);
  EXPECT_EQ(wgmmaOperandByteAddress(d, WgmmaMajor::K, 2, 1, 0), 1024 + 16);
  EXPECT_EQ(wgmmaOperandByteAddress(d, WgmmaMajor::K, 2, 0, 7), 1024 + 14);
  EXPECT_EQ(wgmmaOperandByteAddress(d, WgmmaMajor::K, 2, 0, 8), 1024 + 2048);
  EXPECT_EQ(wgmmaOperandByteAddress(d, WgmmaMajor::K, 2, 9, 9),
            1024 + 128 + 2048 + 16 + 2);
}

TEST(WgmmaOperand, SwizzledRowsPermuteTheirChunks) {
  // 128-byte swizzle, K-major: row r's chunk c is read from chunk c ^ r of
  // the same row; a start 32 bytes into the row reads its chunks 2 and 3.
  WgmmaDescriptor d{0, 16, 1024, 0, WgmmaSwizzle::Bytes128};
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t k = 0; k < 16; ++k)
      EXPECT_EQ(wgmmaOperandByteAddress(d, WgmmaMajor::K, 2, r, k),
                r * 128 + ((k / 8) ^ r) * 16 + (k % 8) * 2);
  d.startAddress = 32;
  EXPECT_EQ(wgmmaOperandByteAddress(d, WgmmaMajor::K, 2, 3, 0),
            3 * 128 + (2 ^ 3) * 16);
}

TEST(WgmmaOperand, RegisterOperandIsTheAccumulatorOfTheSameColumns) {
  // Each A register element of K step j is the accumulator element of
  // columns [16 j, 16 j + 16) that the same thread holds: the register
  // and half the header's comment names.
  for (int64_t thread = 0; thread < kWarpgroupThreads; ++thread)
    for (int64_t step = 0; step < 4; ++step)
      for (int64_t reg = 0; reg < 4; ++reg)
        for (int64_t half = 0; half < 2; ++half) {
          OperandElement a = wgmmaRegisterOperandElement(thread, reg, half);
          AccumulatorElement c = wgmmaAccumulatorElement(
              thread, 8 * step + 4 * (reg / 2) + 2 * (reg % 2) + half);
          EXPECT_EQ(c.row, a.row);
          EXPECT_EQ(c.column, 16 * step + a.k);
        }
  std::set<std::pair<int64_t, int64_t>> seen;
  for (int64_t thread = 0; thread < kWarpgroupThreads; ++thread)
    for (int64_t reg = 0; reg < 4; ++reg)
      for (int64_t half = 0; half < 2; ++half) {
        OperandElement a = wgmmaRegisterOperandElement(thread, reg, half);
        EXPECT_TRUE(seen.insert({a.row, a.k}).second);
      }
  EXPECT_EQ(seen.size(), 64u * 16u);
}

} // namespace
