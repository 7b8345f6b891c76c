//===- Pipelines.h - End-to-end pass pipelines of fa-opt --------*- C++ -*-===//
//
// Pipelines that take a whole module (frontend dialects plus fa) to a form
// that a runner or a GPU toolchain consumes.
//
//===----------------------------------------------------------------------===//

#ifndef FA_PIPELINES_PIPELINES_H
#define FA_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace fa {

/// Both pipelines' `tosa-validation` option.
inline constexpr const char *kTosaValidationHelp =
    "Check TOSA ops against the TOSA specification's profiles before "
    "lowering them (upstream's tosa-validate); off by default: frontends "
    "emit casts such as i64 or i1 to f32 that the profiles omit and the "
    "conversions lower";

/// The forward kernel's choices that the tile report predicts, declared
/// once for both pipelines. fa-select-tiles and fa-confirm-tiles-with-ptxas
/// declare the same names and defaults (include/fa/Kernel/KernelOptions.td)
/// and receive them by forwardKernelChoices; PipelinesTest checks that the
/// two lists agree.
template <typename PipelineOptionsT>
struct KernelChoiceOptions : public PassPipelineOptions<PipelineOptionsT> {
  mlir::detail::PassOptions::Option<bool> registerFragments{
      *this, "register-fragments",
      llvm::cl::desc("The tensor-core kernel keeps S and P in mma.sync "
                     "fragments (fa-distribute-attention register-fragments; "
                     "fa-cpu-pipeline: with gpu-kernel); false: through "
                     "shared memory"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<bool> tmaProducer{
      *this, "tma-producer",
      llvm::cl::desc("On sm_90a: the wgmma kernel's tiles arrive by TMA from "
                     "a producer warpgroup (fa-distribute-attention "
                     "tma-producer), its roles versioned with setmaxnreg "
                     "(fa-specialize-warpgroups); false: by cp.async from "
                     "every thread"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<bool> overlapSoftmax{
      *this, "overlap-softmax",
      llvm::cl::desc("With the TMA producer kernel: each block's P V runs "
                     "while the next block's softmax does "
                     "(fa-distribute-attention overlap-softmax)"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<bool> pingPong{
      *this, "ping-pong",
      llvm::cl::desc("With the TMA producer kernel: the compute warpgroups "
                     "take turns issuing their matmuls "
                     "(fa-distribute-attention ping-pong)"),
      llvm::cl::init(true)};
};

/// Options of `fa-cpu-pipeline`.
struct CPUPipelineOptions : public KernelChoiceOptions<CPUPipelineOptions> {
  PassOptions::Option<bool> raise{
      *this, "raise",
      llvm::cl::desc("Run fa-raise-attention first, so that attention "
                     "spelled in linalg or TOSA becomes fa.attention"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tosaValidation{
      *this, "tosa-validation",
      llvm::cl::desc(kTosaValidationHelp),
      llvm::cl::init(false)};
  PassOptions::Option<bool> reference{
      *this, "reference",
      llvm::cl::desc("Lower fa.attention and fa.attention_backward "
                     "through the unfused reference (fa-decompose-attention) "
                     "instead of the tiled online softmax (fa-tile-attention) "
                     "and the tiled backward (fa-tile-attention-backward); "
                     "tests compare the two"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> gpuKernel{
      *this, "gpu-kernel",
      llvm::cl::desc("Lower fa.attention, fa.attention_backward and "
                     "fa.linear_attention through their GPU kernels "
                     "(fa-distribute-attention, "
                     "fa-distribute-attention-backward, "
                     "fa-distribute-linear-attention) with the tiles of this "
                     "GPU target, their threads emulated on the CPU "
                     "(fa-emulate-threads-on-cpu); tests compare them with "
                     "the reference. What a kernel cannot take (f32 or a "
                     "chip without tensor cores for the backward and linear "
                     "kernels) takes the host lowering with this target's "
                     "tiles"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> threadOrder{
      *this, "thread-order",
      llvm::cl::desc("With gpu-kernel: the order in which the emulated "
                     "threads of each interval between barriers run "
                     "(forward, reverse or shuffle; fa-emulate-threads-on-cpu), "
                     "so that races show as different numbers"),
      llvm::cl::init("forward")};
  PassOptions::Option<unsigned> threadSeed{
      *this, "thread-seed",
      llvm::cl::desc("The permutation of thread-order=shuffle"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> guardOutputs{
      *this, "guard-outputs",
      llvm::cl::desc("With gpu-kernel: surround every buffer the kernels "
                     "write with a guard that is checked after them "
                     "(fa-guard-kernel-outputs), so that a store out of "
                     "bounds fails with its position"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> maxBlockKV{
      *this, "max-block-kv",
      llvm::cl::desc("Testing aid: cap the block_kv that tile selection "
                     "chooses (fa-select-tiles max-block-kv; 0: no cap), so "
                     "that short sequences cross several key blocks"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> hostCacheBytes{
      *this, "host-cache-bytes",
      llvm::cl::desc("The host's cache per core in bytes, which its tiles "
                     "are chosen for (fa-select-tiles host-cache-bytes; 0: "
                     "read from this machine)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> minStages{
      *this, "min-stages",
      llvm::cl::desc("Testing aid: raise the stages that tile selection "
                     "chooses to at least this many where they fit "
                     "(fa-select-tiles min-stages; 0: as chosen)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> minKVSplits{
      *this, "min-kv-splits",
      llvm::cl::desc("Testing aid: split the keys at least this many ways "
                     "(fa-select-tiles min-kv-splits; 0: as chosen)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> warpgroupTiles{
      *this, "warpgroup-tiles",
      llvm::cl::desc("Testing aid: whole 64-row warpgroups of 16-row warps "
                     "(fa-select-tiles warpgroup-tiles), so that short "
                     "sequences also run sm_90a's wgmma kernels"),
      llvm::cl::init(false)};
};

/// Lowers a module of func, TOSA, linalg, tensor, arith, math and fa ops to
/// the LLVM dialect (raising attention first unless `raise=false`; tiled
/// with the host preset's tiles unless `reference=true`, forward and
/// backward alike), ready for `mlir-runner` with libmlir_runner_utils and
/// libmlir_c_runner_utils. Tensors are bufferized across function boundaries with
/// identity layouts so that callers can pass plain memrefs.
///
/// Example:
///   PassManager pm(ctx);
///   fa::buildCPUPipeline(pm, fa::CPUPipelineOptions());
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Options of `fa-gpu-pipeline`.
struct GPUPipelineOptions : public KernelChoiceOptions<GPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("NVIDIA chip (sm_75, sm_80, sm_86, sm_89, sm_90, "
                     "sm_90a, sm_100, sm_120): the tile preset and the PTX "
                     "target"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu.binary holds: isa (PTX text), bin (cubin, "
                     "through ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<bool> raise{
      *this, "raise",
      llvm::cl::desc("Run fa-raise-attention first"), llvm::cl::init(true)};
  PassOptions::Option<bool> tosaValidation{
      *this, "tosa-validation",
      llvm::cl::desc(kTosaValidationHelp),
      llvm::cl::init(false)};
  PassOptions::Option<bool> barePointers{
      *this, "bare-pointers",
      llvm::cl::desc("Pass kernel memrefs as bare pointers (needs static "
                     "shapes); false passes MLIR's memref descriptors"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> cudaToolkit{
      *this, "cuda-toolkit",
      llvm::cl::desc(
          "CUDA toolkit (libdevice and ptxas); default: "
          "$CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, else /usr/local/cuda"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> indexBitwidth{
      *this, "index-bitwidth",
      llvm::cl::desc("64, or 32: kernels that address fewer than 2^31 "
                     "elements compute indices in 32 bits "
                     "(fa-narrow-kernel-indices) and LLVM's NVPTX backend "
                     "makes shared pointers 32-bit (-nvptx-short-ptr, for "
                     "the whole process); needs bare-pointers"),
      llvm::cl::init(64)};
  PassOptions::Option<bool> confirmTiles{
      *this, "confirm-tiles",
      llvm::cl::desc("Compile each attention's kernels once more right after "
                     "tile selection, assemble them with the toolkit's ptxas "
                     "and retile those that spill registers "
                     "(fa-confirm-tiles-with-ptxas); nothing happens where "
                     "ptxas is not found"),
      llvm::cl::init(true)};
};

/// Why `options` cannot be served ("" when they can): a chip that is not one
/// of the NVIDIA presets, or a format other than isa, bin and fatbin.
/// `fa-gpu-pipeline` reports it when the pipeline is parsed.
std::string checkGPUPipelineOptions(const GPUPipelineOptions &options);

/// The CUDA toolkit `fa-gpu-pipeline` uses: `requested` when given, else
/// $CUDA_ROOT, $CUDA_HOME or $CUDA_PATH, else /usr/local/cuda.
std::string cudaToolkitPath(llvm::StringRef requested);

/// Whether `chip` (an NVIDIA "sm_XX") has cp.async, i.e. is sm_80 or later;
/// the pipelines let fa-distribute-attention prefetch tiles with it then.
bool chipHasAsyncCopy(llvm::StringRef chip);

/// Whether `chip` has the f16 mma.sync m16n8k16 the tensor-core kernel uses
/// (sm_80 and later).
bool chipHasTensorCores(llvm::StringRef chip);
/// Whether the kernel for `chip` multiplies with wgmma where the tiling
/// allows: sm_90a, the only preset with Hopper's warpgroup matmul.
bool chipHasWarpgroupMma(llvm::StringRef chip);

/// The PTX ISA features `fa-gpu-pipeline` asks for on `chip` (the oldest
/// PTX version that knows the chip, at least 8.0), e.g. "+ptx80".
std::string ptxFeaturesFor(llvm::StringRef chip);

/// Takes a module of frontend ops (TOSA, linalg or fa) to LLVM with the
/// attention kernels compiled for an NVIDIA chip: raise, select tiles for the
/// chip's preset (confirmed by ptxas, fa-confirm-tiles-with-ptxas),
/// fa-distribute-attention, bufferize, fa-lower-to-gpu, then
/// upstream's NVVM passes in gpu-lower-to-nvvm-pipeline's order (outlining,
/// NVVM, the host's gpu.launch_func, libdevice from the CUDA toolkit) ending
/// in a gpu.binary of PTX or cubin. The kernel ABI is in docs/GPU.md.
///
/// Example:
///   fa::GPUPipelineOptions options;
///   options.chip = "sm_90";
///   fa::buildGPUPipeline(pm, options);
void buildGPUPipeline(OpPassManager &pm, const GPUPipelineOptions &options);

/// The part of `fa-gpu-pipeline` after tile selection: every tiled op to its
/// kernels and on to the gpu.binary. fa-confirm-tiles-with-ptxas compiles
/// its trial modules with it.
void buildGPUPipelineFromTiles(OpPassManager &pm,
                               const GPUPipelineOptions &options);

/// Registers `fa-cpu-pipeline` and `fa-gpu-pipeline` with the global pass
/// pipeline registry.
void registerPipelines();

} // namespace fa
} // namespace mlir

#endif // FA_PIPELINES_PIPELINES_H
