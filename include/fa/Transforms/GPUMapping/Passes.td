//===- Passes.td - GPUMapping passes -----------------------*- tablegen -*-===//
//
// Stage: the GPU mapping: gpu.launch, nvgpu and NVVM, shared memory and occupancy.
// One pass per file under lib/Transforms/GPUMapping/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_GPUMAPPING_PASSES_TD
#define FA_TRANSFORMS_GPUMAPPING_PASSES_TD

include "mlir/Pass/PassBase.td"

def FAAllocateDeviceBuffers : Pass<"fa-allocate-device-buffers",
                                   "::mlir::func::FuncOp"> {
  let summary = "Allocate the buffers the kernels write in device memory, and free the temporaries";
  let description = [{
    After `fa-lower-to-gpu`, in each host function: every `memref.alloc`
    whose buffer (or a view of it) a `gpu.launch` uses, and that no host op
    reads or writes, becomes a `gpu.alloc` (device memory, the runtime's
    `mgpuMemAlloc`): a kernel cannot use a host `malloc`. A buffer the
    function returns (the attention's O and logsumexp) is the caller's to
    free (`mgpuMemFree`, `cudaFree`); every other one (the split-KV
    workspace) gets a `gpu.dealloc` after its last use, which with the
    synchronous launches the pipeline emits is after the last kernel that
    reads it. An allocation that host code also touches is left alone with
    a remark saying why: moving it to the device would make the host read
    device memory.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
  ];
}

def FALowerToGPU : Pass<"fa-lower-to-gpu"> {
  let summary = "Map block- and thread-mapped scf.forall loops onto gpu.launch";
  let description = [{
    Turns each `scf.forall` mapped to `#gpu.block` into a `gpu.launch` whose
    grid is the loop's trip counts (dynamic ones included), inlines the
    `#gpu.thread<x>` loops inside it over `gpu.thread_id x`, and places the
    block's workgroup-memory tiles in static shared memory (workgroup
    attributions) up to 48 KB, or in `gpu.dynamic_shared_memory` with the
    launch's dynamic size above that. Runs on memrefs. With
    `static-buffers=true` (what `fa-gpu-pipeline` sets with its default
    bare-pointer kernel ABI) a buffer of dynamic shape used by a kernel is
    reported at the loop.
  }];
  let options = [
    Option<"staticBuffers", "static-buffers", "bool", /*default=*/"false",
           "Report kernels that use buffers of dynamic shape (needed for the "
           "bare-pointer kernel ABI)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def FAWarpMatmulsToNVGPU : Pass<"fa-warp-matmuls-to-nvgpu"> {
  let summary = "Turn the GPU kernel's warp-level matmuls into nvgpu mma.sync";
  let description = [{
    Converts each `vector.contract` inside a `gpu.launch` or `gpu.func`
    (the 16x16 by 8x16 into 16x8 matmuls of the shared-memory tensor-core
    kernel, `fa-distribute-attention register-fragments=false`, which every
    lane of a warp computes in full before this pass; the default kernel is
    written with nvgpu ops already and has none) into lane-level
    `nvgpu.ldmatrix` (`.trans` for transposed reads of 16-bit tiles) and
    `nvgpu.mma.sync` m16n8k16, and their shared-memory reads and writes into
    per-lane fragment accesses, for f16 and bf16 tiles. It applies upstream's
    vector-to-nvgpu conversion to each contraction's use-def slice rather
    than to the whole kernel, because the upstream pass gives up on a
    function that holds scalar arithmetic of the kinds it converts for WMMA
    (every softmax does); bf16 slices, which upstream's conversion has no
    fragment type for, go through it as f16 and come out retyped. Runs after
    `fa-lower-to-gpu`; a contraction that cannot be converted is reported.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FALowerExp2ToNVVM : Pass<"fa-lower-exp2-to-nvvm"> {
  let summary = "Lower approximate math.exp2 to ex2.approx.ftz.f32";
  let description = [{
    Rewrites each f32 `math.exp2` (scalar or 1-D vector) that carries the
    `afn` fast-math flag into the NVVM intrinsic
    `llvm.nvvm.ex2.approx.ftz.f`: FlashAttention-2's one-instruction
    exponential, which the kernels' softmax asks for. Other exponentials
    are left to upstream's libdevice lowering. Runs in `fa-gpu-pipeline`
    inside the outlined gpu.module, before `convert-gpu-to-nvvm`.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FANarrowKernelIndices : Pass<"fa-narrow-kernel-indices", "ModuleOp"> {
  let summary = "Give gpu.modules whose kernels address less than 2^31 "
                "elements a 32-bit index";
  let description = [{
    Attaches `#dlti.dl_spec<index = 32 : i32>` to each `gpu.module` in
    which 32-bit index arithmetic cannot overflow: every kernel takes its
    memrefs as bare pointers (`gpu.kernel` functions whose arguments are
    statically shaped, identity-layout memrefs, scalars of fixed width, no
    `index` argument, so the host's 64-bit launch ABI is unchanged), and
    every memref the module touches (arguments, workgroup buffers, private
    buffers) holds fewer than 2^31 elements. Index values are then element
    offsets below 2^31 and loop bounds no larger.

    The conversions to NVVM derive their index width from this layout
    (`convert-gpu-to-nvvm`, `fa-convert-kernel-nvgpu-to-nvvm`), so shared
    and global addresses, loop counters and fragment offsets are 32-bit
    integer arithmetic, FlashAttention-2's address math; with
    `-nvptx-short-ptr` shared-memory pointers are 32-bit too. Modules that
    fail a condition keep the 64-bit index (`-debug-only=fa-narrow-kernel-
    indices` says which condition). Only for pipelines that launch kernels
    with bare pointers: a memref descriptor's sizes and strides are `index`
    fields, which the host would still pass as 64-bit values.
  }];
  let dependentDialects = ["::mlir::DLTIDialect"];
}

def FAConvertKernelNVGPUToNVVM
    : Pass<"fa-convert-kernel-nvgpu-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Upstream's nvgpu-to-nvvm patterns at the gpu.module's "
                "index width";
  let description = [{
    Converts the nvgpu ops of one `gpu.module` (ldmatrix, mma.sync,
    cp.async and its groups) to NVVM with upstream's
    `populateNVGPUToNVVMConversionPatterns`, using an LLVM type converter
    whose index width comes from the module's data layout. Upstream's
    `convert-nvgpu-to-nvvm` always converts `index` to i64, which would
    leave every address a 64-bit computation (and a truncation with 32-bit
    shared pointers) in a module `fa-narrow-kernel-indices` made 32-bit.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
  ];
}

def FALowerBF16MmaSync : Pass<"fa-lower-bf16-mma-sync"> {
  let summary = "Lower bf16 nvgpu.mma.sync to nvvm.mma.sync";
  let description = [{
    Rewrites each `nvgpu.mma.sync` m16n8k16 with bf16 multiplicands and an
    f32 accumulator into `nvvm.mma.sync` with bf16 PTX types (A row-major,
    B column-major), its fragments packed two elements to an i32 register
    as PTX wants them. Upstream's `convert-nvgpu-to-nvvm` lowers the f16
    form but cannot deduce PTX types for bf16; this pass runs just before
    it in `fa-gpu-pipeline` and leaves every other op to it. Other bf16
    shapes are reported.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FAAnnotateOccupancy : Pass<"fa-annotate-occupancy", "::mlir::ModuleOp"> {
  let summary = "Tell ptxas how many blocks of each kernel an SM can hold";
  let description = [{
    Sets `nvvm.minctasm` on each outlined kernel (`gpu.func` with a known
    block size) whose shared memory, static workgroup attributions plus the
    constant dynamic size of every `gpu.launch_func` of it, limits the
    chip to so few blocks per SM that they could all run with every thread
    at the register maximum (`minBlocksPerSMHint`, KernelModel.h). ptxas
    does not see dynamic shared memory: without the hint it budgets
    registers for an occupancy the kernel cannot reach, and spills to meet
    that budget. Kernels for which shared memory allows more blocks, or
    whose launches do not state the size, are left alone. Runs after
    `gpu-kernel-outlining` in `fa-gpu-pipeline`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The chip preset whose shared memory, threads and registers per "
           "SM bound the occupancy">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
  ];
}

def FADeduplicateKernels : Pass<"fa-deduplicate-kernels", "::mlir::ModuleOp"> {
  let summary = "Keep one kernel per set of identical outlined kernels";
  let description = [{
    `gpu-kernel-outlining` makes one `gpu.module` per `gpu.launch`, so a
    model whose layers run the same attention (same shapes, types,
    attributes, tiling and chip) gets one identical kernel per layer, each
    lowered and assembled on its own. This pass keeps the first kernel
    module of each set of identical ones, points every `gpu.launch_func` of
    the others at it and erases them: compile time and binary size then
    grow with the number of distinct kernels, not with the model's depth.

    Two kernel modules are identical when they print the same (without
    locations) once the module's name and its functions' names are replaced
    by their position. Modules referred to by anything other than a
    `gpu.launch_func` are left alone. Runs after outlining in
    `fa-gpu-pipeline`.

    Example: three layers of the same attention

    ```mlir
    gpu.launch_func @forward_kernel::@forward_kernel ...
    gpu.launch_func @forward_kernel_0::@forward_kernel ...
    gpu.launch_func @forward_kernel_1::@forward_kernel ...
    // become three launches of @forward_kernel::@forward_kernel, and the
    // modules @forward_kernel_0 and @forward_kernel_1 are erased.
    ```
  }];
  let statistics = [
    Statistic<"numErased", "erased-kernels",
              "Kernel modules erased as duplicates">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
  ];
}

def FAEncodeTensorMaps : Pass<"fa-encode-tensor-maps", "mlir::ModuleOp"> {
  let summary = "Build TMA tensor maps on the host and pass their addresses to the kernels";
  let description = [{
    For the TMA producer kernel: every `nvgpu.tma.create.descriptor` on the
    host becomes upstream's runtime call (`mgpuTensorMapEncodeTiledMemref`,
    which encodes the map with `cuTensorMapEncodeTiled` and copies it to
    device memory), each `gpu.launch_func` passes the returned pointer, and
    each outlined kernel takes `!llvm.ptr` where it took
    `!nvgpu.tensormap.descriptor`. Runs after `gpu-kernel-outlining` in
    `fa-gpu-pipeline`, which converts every other nvgpu op inside the
    kernels.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def FASpecializeWarpgroups : Pass<"fa-specialize-warpgroups"> {
  let summary = "Give each warpgroup role of a warp-specialized kernel its own code and registers";
  let description = [{
    The TMA producer kernel (`fa-distribute-attention` with `tma-producer`)
    is one program that all its threads run, each warpgroup role (the
    producer, the compute warpgroups) doing its part under `scf.if` on a
    predicate marked `fa.warpgroup_role`: the form the CPU model runs in
    lock step. This pass versions every outlined kernel that has such
    predicates: from the first op that asks one to the end, the body is
    cloned into both branches of an `scf.if` on the compute predicate, the
    predicates folded in each clone, and each branch starts with
    `nvvm.setmaxregister`: `decrease` to the producer's count,
    `increase` to the compute warpgroups' (`splitWarpgroupRegisters`:
    24 and 240 with two compute warpgroups, at most the SM's 64K registers
    per block). Each thread runs the same program as before; the roles
    share no code past the split, so ptxas allocates each within its
    count. Needs the kernel's `known_block_size` (a static launch).
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def FAAlignWorkgroupBuffers : Pass<"fa-align-workgroup-buffers"> {
  let summary = "Give the outlined kernels' static shared tiles 16-byte alignment";
  let description = [{
    Sets `llvm.align = 16` on every workgroup attribution of each kernel
    `gpu.func` that has a smaller or no alignment. The kernel form reads and
    writes its shared tiles 16 (and 8) bytes at a time and says so on those
    accesses (`fa-lower-to-gpu` places dynamic shared tiles at 16-byte
    offsets); static tiles become LLVM globals whose alignment, unless the
    attribution states one, is their element's (`.shared .align 2` for f16
    in PTX), which does not guarantee what the accesses claim. Runs after
    `gpu-kernel-outlining` in `fa-gpu-pipeline`: `gpu.launch` has no
    attribution attributes to carry it. In a kernel with warpgroup matmuls
    (`fa.warpgroup_mma`) the alignment is 1024 bytes instead: wgmma (and
    TMA) swizzle absolute shared addresses, a 128-byte swizzle pattern
    starts on a 1024-byte boundary, and the op's descriptors count from
    their buffer's start.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
  ];
}

def FAAlignDynamicSharedMemory : Pass<"fa-align-dynamic-shared-memory",
                                      "::mlir::gpu::GPUModuleOp"> {
  let summary = "Start a wgmma kernel's dynamic shared memory on a 1024-byte boundary";
  let description = [{
    After the GPU-to-NVVM conversion: in a `gpu.module` whose kernels issue
    wgmma (inline PTX that `fa.warpgroup_mma` lowers to), raises the
    alignment of the dynamic shared memory globals (`__dynamic_shmem__*`,
    which upstream's lowering aligns to 16 bytes) to 1024. `fa-lower-to-gpu`
    places the dynamic tiles at offsets that are multiples of their sizes'
    alignment from that base, and the 128-byte swizzle that wgmma reads
    through is a function of the absolute address: a base 16 bytes past a
    1024-byte boundary would read every swizzled tile wrongly. Other
    modules are left alone.
  }];
}

def FAKeepLoopAnnotations : Pass<"fa-keep-loop-annotations",
                                 "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give the kernels' loop annotations to the branches the "
                "translation to LLVM IR reads";
  let description = [{
    After the GPU-to-NVVM conversion: `convert-scf-to-cf` copies an
    `scf.for`'s `llvm.loop_annotation` onto the loop's back edge (an
    unconditional branch) as a discardable attribute, which `llvm.br` keeps through the conversion to
    the LLVM dialect, but the translation to LLVM IR reads only the
    branch's own `loop_annotation` (`!llvm.loop`). This pass moves the one
    into the other, so that a loop the kernel builder marks (the TMA
    producer's per-page boxes: `unroll = <disable = true>`, which LLVM's
    unroller and ptxas honour) stays as marked.
  }];
}

#endif // FA_TRANSFORMS_GPUMAPPING_PASSES_TD
