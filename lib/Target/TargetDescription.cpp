//===- TargetDescription.cpp - Built-in target presets --------------------===//
//
// Stage: tile selection. The presets' numbers and where they come from. The
// NVIDIA rows follow the CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability" (as collected in docs/Sources.md §2);
// SM counts are those of the named product. AMD rows follow the CDNA ISA
// guides (LDS per workgroup) and the product specifications (CU counts).
//
//===----------------------------------------------------------------------===//

#include "fa/Target/TargetDescription.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <fstream>
#include <thread>
#include <unistd.h>

using namespace mlir::fa;

int64_t TargetDescription::mmaGranule() const {
  // Every MMA shape we know starts with its M (rows): m16n8k16 -> 16. The
  // smallest one is the granule.
  int64_t granule = 0;
  for (const std::string &shape : mmaShapes) {
    llvm::StringRef text(shape);
    if (!text.consume_front("m"))
      continue;
    int64_t rows = 0;
    if (!text.consumeInteger(10, rows) && rows > 0)
      granule = granule == 0 ? rows : std::min(granule, rows);
  }
  return granule == 0 ? 1 : granule;
}

namespace {

constexpr int64_t KiB = 1024;

TargetDescription nvidia(llvm::StringRef name, int64_t smemPerSM,
                         int64_t smemPerBlock, int64_t threadsPerSM,
                         int64_t smCount, llvm::StringRef product,
                         llvm::ArrayRef<const char *> mma) {
  TargetDescription target;
  target.name = name.str();
  target.sharedMemoryPerSM = smemPerSM * KiB;
  target.sharedMemoryPerBlock = smemPerBlock * KiB;
  // Common to every compute capability in the guide's table.
  target.registersPerSM = 64 * KiB;
  target.registersPerThread = 255;
  target.maxThreadsPerBlock = 1024;
  target.maxThreadsPerSM = threadsPerSM;
  target.warpSize = 32;
  target.smCount = smCount;
  for (const char *shape : mma)
    target.mmaShapes.push_back(shape);
  target.source = ("CUDA C++ Programming Guide, compute capability " +
                   name.drop_front(3) + "; " + std::to_string(smCount) +
                   " SMs: " + product)
                      .str();
  return target;
}

TargetDescription amd(llvm::StringRef name, int64_t ldsPerCU, int64_t cuCount,
                      llvm::StringRef product) {
  TargetDescription target;
  target.name = name.str();
  // One workgroup may use the whole LDS of its CU.
  target.sharedMemoryPerSM = ldsPerCU * KiB;
  target.sharedMemoryPerBlock = ldsPerCU * KiB;
  // 4 SIMDs x 512 VGPRs x 64 lanes per CU; 512 VGPRs (arch + acc) per lane.
  target.registersPerSM = 4 * 512 * 64;
  target.registersPerThread = 512;
  target.maxThreadsPerBlock = 1024;
  target.maxThreadsPerSM = 2048;
  target.warpSize = 64;
  target.smCount = cuCount;
  target.mmaShapes = {"m16n16k16", "m32n32k8"};
  target.source = ("AMD CDNA ISA (" + name + "): " +
                   std::to_string(ldsPerCU) + " KB LDS per workgroup; " +
                   std::to_string(cuCount) + " CUs: " + product)
                      .str();
  return target;
}

/// `target` with its product's peak DRAM bandwidth, `gbPerSecond` GB/s
/// (10^9 bytes), as its maker's data sheet states it.
TargetDescription withDramBandwidth(TargetDescription target,
                                    int64_t gbPerSecond) {
  target.dramBytesPerSecond = gbPerSecond * 1000 * 1000 * 1000;
  target.source += "; " + std::to_string(gbPerSecond) + " GB/s DRAM";
  return target;
}

/// `target` with the register margin of its generation (see the field).
TargetDescription withRegisterMargin(TargetDescription target,
                                     int64_t margin) {
  target.registerMargin = margin;
  return target;
}

llvm::SmallVector<TargetDescription> buildPresets() {
  // DRAM bandwidths: the products' data sheets (docs/Sources.md §2); for
  // sm_90 and sm_90a the H100 SXM's (an H200 has 4800 GB/s).
  return {
      withDramBandwidth(
          nvidia("sm_75", 64, 64, 1024, 40, "Tesla T4", {"m16n8k8"}), 320),
      withDramBandwidth(
          nvidia("sm_80", 164, 163, 2048, 108, "A100", {"m16n8k16", "m16n8k8"}),
          2039),
      withDramBandwidth(
          nvidia("sm_86", 100, 99, 1536, 72, "A10", {"m16n8k16", "m16n8k8"}),
          600),
      withDramBandwidth(
          nvidia("sm_89", 100, 99, 1536, 58, "L4", {"m16n8k16", "m16n8k8"}),
          300),
      withDramBandwidth(nvidia("sm_90", 228, 227, 2048, 132, "H100 SXM / H200",
                               {"m16n8k16", "m16n8k8"}),
                        3350),
      // wgmma (m64nNk16) and TMA need sm_90a.
      withDramBandwidth(nvidia("sm_90a", 228, 227, 2048, 132, "H100 SXM / H200",
                               {"m16n8k16", "m16n8k8", "m64n256k16"}),
                        3350),
      // tcgen05 is out of scope; mma.sync remains available.
      withDramBandwidth(
          withRegisterMargin(nvidia("sm_100", 228, 227, 2048, 148, "B200",
                                    {"m16n8k16", "m16n8k8"}),
                             32),
          8000),
      // The guide gives 99 KB per block for 12.0, as for 8.6/8.9; the per-SM
      // figure is taken to be theirs too (docs/Sources.md §2 leaves it to
      // check).
      withDramBandwidth(withRegisterMargin(nvidia("sm_120", 100, 99, 1536, 170,
                                                  "GeForce RTX 5090",
                                                  {"m16n8k16", "m16n8k8"}),
                                           32),
                        1792),
      withDramBandwidth(amd("gfx90a", 64, 110, "MI250X (one GCD)"), 1638),
      withDramBandwidth(amd("gfx942", 64, 304, "MI300X"), 5300),
      withDramBandwidth(amd("gfx950", 160, 256, "MI355X"), 8000),
  };
}

/// Reads a cache size such as "2048K" from sysfs.
std::optional<int64_t> readCacheSize(int index) {
  std::ifstream file("/sys/devices/system/cpu/cpu0/cache/index" +
                     std::to_string(index) + "/size");
  std::string text;
  if (!(file >> text))
    return std::nullopt;
  llvm::StringRef value(text);
  int64_t scale = 1;
  if (value.consume_back("K"))
    scale = 1024;
  else if (value.consume_back("M"))
    scale = 1024 * 1024;
  int64_t size = 0;
  if (value.getAsInteger(10, size))
    return std::nullopt;
  return size * scale;
}

} // namespace

TargetDescription mlir::fa::getHostTarget() {
  TargetDescription target;
  target.name = "host";
  // index0 is usually L1d, index2 the unified L2 (per core on x86).
  int64_t l1 = readCacheSize(0).value_or(32 * KiB);
  int64_t l2 = readCacheSize(2).value_or(0);
  int64_t scratch = l2 > 0 ? l2 : l1;
  target.sharedMemoryPerBlock = scratch;
  target.sharedMemoryPerSM = scratch;
  // A core runs one "block" of one thread; registers are not the limit.
  target.registersPerSM = 1 << 20;
  target.registersPerThread = 1 << 20;
  target.maxThreadsPerBlock = 1;
  target.maxThreadsPerSM = 1;
  target.warpSize = 1;
  target.smCount = std::max(1u, std::thread::hardware_concurrency());
  target.source = "this machine: " + std::to_string(scratch / KiB) +
                  " KB of L2 per core (" + std::to_string(l1 / KiB) +
                  " KB L1d) from /sys/devices/system/cpu/cpu0/cache, " +
                  std::to_string(target.smCount) + " cores";
  return target;
}

std::string
mlir::fa::validateTargetDescription(const TargetDescription &target) {
  std::pair<const char *, int64_t> fields[] = {
      {"shared memory per block", target.sharedMemoryPerBlock},
      {"shared memory per SM", target.sharedMemoryPerSM},
      {"registers per SM", target.registersPerSM},
      {"registers per thread", target.registersPerThread},
      {"threads per block", target.maxThreadsPerBlock},
      {"threads per SM", target.maxThreadsPerSM},
      {"warp size", target.warpSize},
      {"SM count", target.smCount}};
  for (auto [name, value] : fields)
    if (value <= 0)
      return "target " + target.name + " has " + name + " " +
             std::to_string(value) + "; it must be positive";
  if (target.sharedMemoryPerBlock > target.sharedMemoryPerSM)
    return "target " + target.name + " lets a block use " +
           std::to_string(target.sharedMemoryPerBlock) +
           " bytes of shared memory but its SM has " +
           std::to_string(target.sharedMemoryPerSM);
  if (target.maxThreadsPerBlock > target.maxThreadsPerSM)
    return "target " + target.name + " allows " +
           std::to_string(target.maxThreadsPerBlock) +
           " threads per block but " + std::to_string(target.maxThreadsPerSM) +
           " per SM";
  return "";
}

llvm::ArrayRef<TargetDescription> mlir::fa::getTargetPresets() {
  static const llvm::SmallVector<TargetDescription> presets = buildPresets();
  return presets;
}

std::optional<TargetDescription>
mlir::fa::lookupTargetPreset(llvm::StringRef name) {
  if (name == "host")
    return getHostTarget();
  for (const TargetDescription &preset : getTargetPresets())
    if (preset.name == name)
      return preset;
  return std::nullopt;
}

std::string mlir::fa::listTargetPresets() {
  std::string names;
  for (const TargetDescription &preset : getTargetPresets())
    names += preset.name + ", ";
  return names + "host";
}
