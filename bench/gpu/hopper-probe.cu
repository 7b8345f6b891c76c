//===- hopper-probe.cu - Hopper's layouts, read off the hardware ----------===//
//
// The CPU model of the sm_90a kernel (issue 32) computes wgmma and TMA from
// include/fa/Kernel/WarpgroupLayout.h: where each thread's
// accumulator registers sit in the 64 x N result, where wgmma reads each
// operand element given a shared-memory descriptor, where an A operand from
// registers comes from, and where TMA puts each element of a box with a
// swizzle. Those functions were written from the PTX ISA; this program asks
// an sm_90 GPU. It places data exactly where the header says the hardware
// will look, runs the instruction, and compares the result with the
// header's prediction and with a host matmul. A wrong model gives wrong
// numbers here, and each check has a negative control (a placement that
// must not match) so that the probe can be seen to fail.
//
// Build and run (a GPU machine with CUDA 12.3 or later):
//   nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a -Iinclude \
//        bench/gpu/hopper-probe.cu -o hopper-probe && ./hopper-probe [DUMP]
// Prints one line per check and exits with the number of failed checks;
// DUMP, if given, receives the encoded accumulator (thread, register, row,
// column) as the GPU computed it.
//
// wgmma and TMA are issued through inline PTX: CUDA C++ has no intrinsic
// for either (CUTLASS does the same).
//
//===----------------------------------------------------------------------===//

#include "fa/Kernel/WarpgroupLayout.h"

#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace mlir::fa;

namespace {

constexpr int kN = 32; // the wgmma's N
constexpr int kK = 64; // K of the probe's matmul: 4 wgmma steps
constexpr int kSteps = kK / 16;
constexpr int kAccumulators = kN / 2;
constexpr int kRegionA = 0, kRegionB = 16384, kSharedBytes = 32768;

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, \
                  __LINE__);                                                   \
      std::exit(100);                                                          \
    }                                                                          \
  } while (0)

__device__ uint32_t sharedAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// 1024-aligned shared memory (a 128-byte swizzle pattern's boundary).
__device__ uint8_t *alignedShared(uint8_t *raw) {
  uint32_t address = sharedAddress(raw);
  return raw + ((1024 - address % 1024) % 1024);
}

// One wgmma m64n32k16 f32 += f16 * f16, A and B from shared memory.
template <int TransB>
__device__ void wgmmaSS(float (&d)[kAccumulators], uint64_t descA,
                        uint64_t descB, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, "
      "%15}, %16, %17, p, 1, 1, 0, %19;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
        "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]),
        "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
      : "l"(descA), "l"(descB), "r"(accumulate), "n"(TransB));
}

// The same with A from registers (four f16x2 per thread).
template <int TransB>
__device__ void wgmmaRS(float (&d)[kAccumulators], const uint32_t (&a)[4],
                        uint64_t descB, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, "
      "%15}, {%16, %17, %18, %19}, %20, p, 1, 1, %22;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
        "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]),
        "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(descB), "r"(accumulate),
        "n"(TransB));
}

// Copies the host-built images of A and B into 1024-aligned shared memory,
// runs kSteps wgmmas (descriptors relative to that base; A from shared
// memory, or from `registers` when it is not null) and stores every
// thread's accumulators.
template <int TransB>
__global__ void runWgmma(const uint8_t *image, const uint64_t *descA,
                         const uint64_t *descB, const uint32_t *registers,
                         float *out) {
  extern __shared__ uint8_t raw[];
  uint8_t *shared = alignedShared(raw);
  for (int i = threadIdx.x; i < kSharedBytes; i += blockDim.x)
    shared[i] = image[i];
  // Generic-proxy stores, read by the async proxy (wgmma).
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  uint64_t base = sharedAddress(shared) >> 4;
  float d[kAccumulators];
  for (float &x : d)
    x = 0.0f;
  // Every A register is written before the fence: wgmma may not read a
  // register written after the last wgmma.fence.
  uint32_t a[kSteps][4];
  for (int step = 0; step < kSteps; ++step)
    for (int r = 0; r < 4; ++r)
      a[step][r] =
          registers ? registers[(step * 128 + threadIdx.x) * 4 + r] : 0;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  for (int step = 0; step < kSteps; ++step) {
    if (registers) {
      wgmmaRS<TransB>(d, a[step], descB[step] + base, step > 0);
    } else {
      wgmmaSS<TransB>(d, descA[step] + base, descB[step] + base, step > 0);
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  for (int r = 0; r < kAccumulators; ++r)
    out[threadIdx.x * kAccumulators + r] = d[r];
}

// One TMA load of a 2-D box into 1024-aligned shared memory, waited for on
// an mbarrier with the box's byte count; the shared bytes are copied out.
__global__ void runTma(const __grid_constant__ CUtensorMap map, int column,
                       int row, int boxBytes, uint8_t *out) {
  extern __shared__ uint8_t raw[];
  uint8_t *shared = alignedShared(raw);
  __shared__ alignas(8) uint64_t barrier;
  uint32_t bar = sharedAddress(&barrier);
  for (int i = threadIdx.x; i < boxBytes; i += blockDim.x)
    shared[i] = 0xAB; // what a missed byte would show
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar));
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar),
        "r"(boxBytes)
        : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
                     sharedAddress(shared)),
                 "l"(&map), "r"(column), "r"(row), "r"(bar)
                 : "memory");
  }
  uint32_t done = 0;
  while (!done)
    asm volatile("{\n.reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                 "selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(bar)
                 : "memory");
  for (int i = threadIdx.x; i < boxBytes; i += blockDim.x)
    out[i] = shared[i];
}

// Small integers: every product and sum is exact in f16 and f32.
float valueAt(int seed, int i, int j) {
  return static_cast<float>(((i * 7 + j * 13 + seed * 5) % 7) - 3);
}

struct Layout {
  WgmmaSwizzle swizzle;
  WgmmaMajor majorB;
  const char *name;
};

const char *swizzleName(WgmmaSwizzle s) {
  switch (s) {
  case WgmmaSwizzle::None:
    return "none";
  case WgmmaSwizzle::Bytes128:
    return "128B";
  case WgmmaSwizzle::Bytes64:
    return "64B";
  case WgmmaSwizzle::Bytes32:
    return "32B";
  }
  return "?";
}

// The descriptor of K step `step` of an operand of `rows` x kK (K-major)
// or kK x `rows` (MN-major) at `region`, for the probe's tile layout:
//   K-major, none:      16-byte chunks of K, each `rows` x 16 B of core
//                       matrices (SBO 128, LBO rows * 16);
//   K-major, swizzled:  columns of S / 2 K elements, each rows x S bytes
//                       (SBO 8 S); a step starts 32 B further in its row;
//   MN-major, none:     16-byte chunks of MN, each kK rows of 16 B
//                       (LBO 128, SBO kK * 16);
//   MN-major, swizzled: atoms of S / 2 MN elements, each kK rows of S
//                       bytes (SBO 8 S, LBO kK * S).
WgmmaDescriptor stepDescriptor(WgmmaSwizzle swizzle, WgmmaMajor major, int rows,
                               int region, int step) {
  int s = static_cast<int>(swizzleRowBytes(swizzle));
  int k0 = 16 * step;
  WgmmaDescriptor d;
  d.swizzle = swizzle;
  if (major == WgmmaMajor::K) {
    if (swizzle == WgmmaSwizzle::None) {
      d.strideByteOffset = 128;
      d.leadingByteOffset = rows * 16;
      d.startAddress = region + (k0 / 8) * d.leadingByteOffset;
    } else {
      int perRow = s / 2;
      d.strideByteOffset = 8 * s;
      d.leadingByteOffset = 16; // unused
      d.startAddress = region + (k0 / perRow) * rows * s + (k0 % perRow) * 2;
    }
  } else {
    if (swizzle == WgmmaSwizzle::None) {
      d.leadingByteOffset = 128;
      d.strideByteOffset = kK * 16;
      d.startAddress = region + (k0 / 8) * 128;
    } else {
      d.strideByteOffset = 8 * s;
      d.leadingByteOffset = kK * s;
      d.startAddress = region + (k0 / 8) * d.strideByteOffset;
    }
  }
  return d;
}

// Writes `value(mn, k)` of every K step where the header says wgmma reads
// it; returns false if two elements would share a byte (a plan error).
template <typename Value>
bool place(std::vector<uint8_t> &image, std::vector<int> &owner,
           WgmmaSwizzle swizzle, WgmmaMajor major, int rows, int region,
           Value value, std::vector<uint64_t> &descriptors) {
  for (int step = 0; step < kSteps; ++step) {
    WgmmaDescriptor d = stepDescriptor(swizzle, major, rows, region, step);
    descriptors.push_back(*encodeWgmmaDescriptor(d));
    for (int mn = 0; mn < rows; ++mn)
      for (int k = 0; k < 16; ++k) {
        int64_t at = wgmmaOperandByteAddress(d, major, 2, mn, k);
        int id = (mn * kK + 16 * step + k) + 1 + region * 4;
        if (at < 0 || at + 2 > kSharedBytes || owner[at] || owner[at + 1])
          return false;
        owner[at] = owner[at + 1] = id;
        __half h = __float2half(value(mn, 16 * step + k));
        std::memcpy(&image[at], &h, 2);
      }
  }
  return true;
}

struct Result {
  int wrong = 0;
  std::string first;
};

// Runs the probe's matmul D = A B (A 64 x kK, B kK x kN) with A and B
// placed by the header's model and compares every accumulator register
// with the header's (row, column) for it.
Result runMatmul(WgmmaSwizzle swizzle, WgmmaMajor majorB, bool fromRegisters,
                 WgmmaSwizzle descriptorSwizzle, int seedA, int seedB,
                 bool encoded, FILE *dump) {
  auto a = [&](int m, int k) {
    if (encoded)
      return k == 0 ? static_cast<float>(m) : k == 1 ? 1.0f : 0.0f;
    return valueAt(seedA, m, k);
  };
  auto b = [&](int k, int n) {
    if (encoded)
      return k == 0 ? 256.0f : k == 1 ? static_cast<float>(n) : 0.0f;
    return valueAt(seedB, k, n);
  };
  std::vector<uint8_t> image(kSharedBytes, 0);
  std::vector<int> owner(kSharedBytes, 0);
  std::vector<uint64_t> descA, descB;
  bool ok = place(image, owner, swizzle, WgmmaMajor::K, 64, kRegionA, a, descA);
  ok &= place(
      image, owner, swizzle, majorB, kN, kRegionB,
      [&](int n, int k) { return b(k, n); }, descB);
  if (!ok)
    return {-1, "the placement plan overlaps"};
  // The negative control reads through a descriptor whose swizzle differs
  // from the placement's.
  for (std::vector<uint64_t> *ds : {&descA, &descB})
    for (uint64_t &x : *ds) {
      WgmmaDescriptor d = decodeWgmmaDescriptor(x);
      d.swizzle = descriptorSwizzle;
      x = *encodeWgmmaDescriptor(d);
    }
  std::vector<uint32_t> registers;
  if (fromRegisters) {
    registers.resize(kSteps * 128 * 4);
    for (int step = 0; step < kSteps; ++step)
      for (int t = 0; t < 128; ++t)
        for (int r = 0; r < 4; ++r) {
          __half halves[2];
          for (int h = 0; h < 2; ++h) {
            OperandElement e = wgmmaRegisterOperandElement(t, r, h);
            halves[h] = __float2half(a(e.row, 16 * step + e.k));
          }
          std::memcpy(&registers[(step * 128 + t) * 4 + r], halves, 4);
        }
  }
  uint8_t *dImage;
  uint64_t *dDescA, *dDescB;
  uint32_t *dRegisters = nullptr;
  float *dOut;
  CHECK_CUDA(cudaMalloc(&dImage, kSharedBytes));
  CHECK_CUDA(cudaMalloc(&dDescA, kSteps * 8));
  CHECK_CUDA(cudaMalloc(&dDescB, kSteps * 8));
  CHECK_CUDA(cudaMalloc(&dOut, 128 * kAccumulators * 4));
  CHECK_CUDA(
      cudaMemcpy(dImage, image.data(), kSharedBytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dDescA, descA.data(), kSteps * 8, cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dDescB, descB.data(), kSteps * 8, cudaMemcpyHostToDevice));
  if (fromRegisters) {
    CHECK_CUDA(cudaMalloc(&dRegisters, registers.size() * 4));
    CHECK_CUDA(cudaMemcpy(dRegisters, registers.data(), registers.size() * 4,
                          cudaMemcpyHostToDevice));
  }
  int shared = kSharedBytes + 1024;
  if (majorB == WgmmaMajor::MN) {
    CHECK_CUDA(cudaFuncSetAttribute(
        runWgmma<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    runWgmma<1><<<1, 128, shared>>>(dImage, dDescA, dDescB, dRegisters, dOut);
  } else {
    CHECK_CUDA(cudaFuncSetAttribute(
        runWgmma<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    runWgmma<0><<<1, 128, shared>>>(dImage, dDescA, dDescB, dRegisters, dOut);
  }
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> out(128 * kAccumulators);
  CHECK_CUDA(
      cudaMemcpy(out.data(), dOut, out.size() * 4, cudaMemcpyDeviceToHost));
  cudaFree(dImage);
  cudaFree(dDescA);
  cudaFree(dDescB);
  cudaFree(dOut);
  if (dRegisters)
    cudaFree(dRegisters);

  Result result;
  for (int t = 0; t < 128; ++t)
    for (int r = 0; r < kAccumulators; ++r) {
      AccumulatorElement e = wgmmaAccumulatorElement(t, r);
      float want = 0;
      for (int k = 0; k < kK; ++k)
        want += a(e.row, k) * b(k, e.column);
      float got = out[t * kAccumulators + r];
      if (dump)
        std::fprintf(dump, "%d %d %d %d %.0f\n", t, r,
                     static_cast<int>(got) / 256, static_cast<int>(got) % 256,
                     got);
      if (got != want) {
        if (!result.wrong) {
          char text[160];
          std::snprintf(text, sizeof text,
                        "thread %d register %d: model (%lld, %lld) wants %g, "
                        "got %g",
                        t, r, static_cast<long long>(e.row),
                        static_cast<long long>(e.column), want, got);
          result.first = text;
        }
        ++result.wrong;
      }
    }
  return result;
}

using EncodeTiled = CUresult (*)(CUtensorMap *, CUtensorMapDataType, cuuint32_t,
                                 void *, const cuuint64_t *, const cuuint64_t *,
                                 const cuuint32_t *, const cuuint32_t *,
                                 CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion,
                                 CUtensorMapFloatOOBfill);

// A TMA load of a box of 64 rows x S bytes (f16) from a tensor of `rows`
// rows starting at `row`; every byte is compared with the header's
// swizzledByteOffset placement, rows past the tensor's end with 0.
Result runTmaLoad(EncodeTiled encode, WgmmaSwizzle swizzle,
                  WgmmaSwizzle modelSwizzle, int rows, int row) {
  int rowBytes =
      swizzle == WgmmaSwizzle::None ? 128 : int(swizzleRowBytes(swizzle));
  int columns = rowBytes / 2, boxRows = 64;
  std::vector<__half> host(rows * columns);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      host[r * columns + c] = __float2half(float(r * 100 + c));
  __half *global;
  CHECK_CUDA(cudaMalloc(&global, host.size() * 2));
  CHECK_CUDA(
      cudaMemcpy(global, host.data(), host.size() * 2, cudaMemcpyHostToDevice));
  CUtensorMap map;
  cuuint64_t sizes[2] = {cuuint64_t(columns), cuuint64_t(rows)};
  cuuint64_t strides[1] = {cuuint64_t(columns * 2)};
  cuuint32_t box[2] = {cuuint32_t(columns), cuuint32_t(boxRows)};
  cuuint32_t elementStrides[2] = {1, 1};
  CUtensorMapSwizzle mode =
      swizzle == WgmmaSwizzle::Bytes128  ? CU_TENSOR_MAP_SWIZZLE_128B
      : swizzle == WgmmaSwizzle::Bytes64 ? CU_TENSOR_MAP_SWIZZLE_64B
      : swizzle == WgmmaSwizzle::Bytes32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                         : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUresult made = encode(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, global, sizes, strides, box,
      elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, mode,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (made != CUDA_SUCCESS)
    return {-1, "cuTensorMapEncodeTiled failed: " + std::to_string(made)};
  int boxBytes = boxRows * rowBytes;
  uint8_t *out;
  CHECK_CUDA(cudaMalloc(&out, boxBytes));
  int shared = boxBytes + 1024;
  CHECK_CUDA(cudaFuncSetAttribute(
      runTma, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
  runTma<<<1, 128, shared>>>(map, 0, row, boxBytes, out);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<uint8_t> got(boxBytes);
  CHECK_CUDA(cudaMemcpy(got.data(), out, boxBytes, cudaMemcpyDeviceToHost));
  cudaFree(out);
  cudaFree(global);
  Result result;
  for (int r = 0; r < boxRows; ++r)
    for (int c = 0; c < columns; ++c) {
      __half want =
          row + r < rows ? host[(row + r) * columns + c] : __float2half(0.0f);
      int64_t at = swizzledByteOffset(modelSwizzle, r * rowBytes + c * 2);
      if (std::memcmp(&got[at], &want, 2)) {
        if (!result.wrong) {
          __half g;
          std::memcpy(&g, &got[at], 2);
          char text[160];
          std::snprintf(text, sizeof text,
                        "box element (%d, %d) at byte %lld: want %g, got %g", r,
                        c, static_cast<long long>(at), __half2float(want),
                        __half2float(g));
          result.first = text;
        }
        ++result.wrong;
      }
    }
  return result;
}

} // namespace

int main(int argc, char **argv) {
  FILE *dump = argc > 1 ? std::fopen(argv[1], "w") : nullptr;
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, sm_%d%d\n", prop.name, prop.major, prop.minor);
  int failed = 0;
  auto report = [&](const std::string &what, Result r, bool mustMatch) {
    bool pass = r.wrong >= 0 && (mustMatch ? r.wrong == 0 : r.wrong > 0);
    failed += !pass;
    std::printf("%-4s %-62s %s%s\n", pass ? "ok" : "FAIL", what.c_str(),
                r.wrong < 0 ? "not run: "
                : r.wrong == 0
                    ? "all elements match"
                    : (std::to_string(r.wrong) + " wrong; first: ").c_str(),
                r.first.c_str());
  };

  // The accumulator layout alone: D[m][n] = 256 m + n.
  report("accumulator layout (m64n32, D = 256 row + column)",
         runMatmul(WgmmaSwizzle::None, WgmmaMajor::K, false, WgmmaSwizzle::None,
                   0, 0, true, dump),
         true);
  for (WgmmaSwizzle s : {WgmmaSwizzle::None, WgmmaSwizzle::Bytes128,
                         WgmmaSwizzle::Bytes64, WgmmaSwizzle::Bytes32})
    for (WgmmaMajor major : {WgmmaMajor::K, WgmmaMajor::MN}) {
      std::string name = std::string("wgmma SS, swizzle ") + swizzleName(s) +
                         ", A K-major, B " +
                         (major == WgmmaMajor::K ? "K" : "MN") + "-major";
      report(name, runMatmul(s, major, false, s, 1, 2, false, nullptr), true);
      report(std::string("wgmma RS, swizzle ") + swizzleName(s) + ", B " +
                 (major == WgmmaMajor::K ? "K" : "MN") + "-major",
             runMatmul(s, major, true, s, 3, 4, false, nullptr), true);
    }
  // Negative controls: read through the wrong swizzle.
  report("control: placed 128B, read as 64B (must mismatch)",
         runMatmul(WgmmaSwizzle::Bytes128, WgmmaMajor::MN, false,
                   WgmmaSwizzle::Bytes64, 1, 2, false, nullptr),
         false);
  report("control: placed 32B, read unswizzled (must mismatch)",
         runMatmul(WgmmaSwizzle::Bytes32, WgmmaMajor::K, false,
                   WgmmaSwizzle::None, 1, 2, false, nullptr),
         false);

  void *entry = nullptr;
  cudaDriverEntryPointQueryResult found;
  CHECK_CUDA(cudaGetDriverEntryPointByVersion(
      "cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault, &found));
  if (!entry) {
    std::printf("FAIL cuTensorMapEncodeTiled not found\n");
    return failed + 1;
  }
  auto encode = reinterpret_cast<EncodeTiled>(entry);
  for (WgmmaSwizzle s : {WgmmaSwizzle::None, WgmmaSwizzle::Bytes128,
                         WgmmaSwizzle::Bytes64, WgmmaSwizzle::Bytes32}) {
    report(std::string("TMA box 64 rows, swizzle ") + swizzleName(s) +
               ", rows 0..63 of 100",
           runTmaLoad(encode, s, s, 100, 0), true);
    report(std::string("TMA box 64 rows, swizzle ") + swizzleName(s) +
               ", rows 8..71 of 40 (zero fill)",
           runTmaLoad(encode, s, s, 40, 8), true);
  }
  report(
      "control: TMA 128B, model 32B (must mismatch)",
      runTmaLoad(encode, WgmmaSwizzle::Bytes128, WgmmaSwizzle::Bytes32, 100, 0),
      false);
  if (dump)
    std::fclose(dump);
  std::printf("%d checks failed\n", failed);
  return failed;
}
