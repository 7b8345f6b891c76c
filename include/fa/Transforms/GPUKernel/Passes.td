//===- Passes.td - GPUKernel passes ------------------------*- tablegen -*-===//
//
// Stage: the GPU kernels as block- and thread-mapped loops, still runnable on a CPU.
// One pass per file under lib/Transforms/GPUKernel/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_GPUKERNEL_PASSES_TD
#define FA_TRANSFORMS_GPUKERNEL_PASSES_TD

include "mlir/Pass/PassBase.td"

def FAShareAttentionFunctions : Pass<"fa-share-attention-functions", "::mlir::ModuleOp"> {
  let summary = "Compile each distinct attention once: identical ones call one function";
  let description = [{
    Groups the module's `fa.attention` ops by signature: operand and result
    types and every attribute (scale, masks, window, tiling, ...). Each
    group of two or more becomes one private function `@__fa_attention_<n>`
    holding a single `fa.attention`, and every op of the group a
    `func.call` of it. Everything after this pass (the kernel, its lowering,
    ptxas) then runs once per distinct attention, not once per layer: a
    model whose 128 layers share one attention shape lowers one kernel.
    Attentions that occur once stay where they are. Runs after
    `fa-select-tiles` in `fa-gpu-pipeline`, so that the tiling is part of
    the signature.

    Example:

    ```mlir
    %o0 = fa.attention %q, %k, %v scale = 0.125 : ...
    %o1 = fa.attention %o0, %k, %v scale = 0.125 : ...
    // becomes
    %o0 = call @__fa_attention_0(%q, %k, %v) : (...) -> ...
    %o1 = call @__fa_attention_0(%o0, %k, %v) : (...) -> ...
    func.func private @__fa_attention_0(%q: ..., %k: ..., %v: ...) -> ... {
      %o = fa.attention %q, %k, %v scale = 0.125 : ...
      return %o : ...
    }
    ```
  }];
  let statistics = [
    Statistic<"numShared", "shared-attentions",
              "fa.attention ops replaced by a call of a shared function">,
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
  ];
}

def FADistributeAttention : Pass<"fa-distribute-attention"> {
  let summary = "Lower fa.attention to a block- and thread-mapped GPU kernel";
  let description = [{
    Rewrites every `fa.attention` that carries a `tiling` into the
    FlashAttention-2 kernel, written with upstream ops (scf, memref, vector,
    gpu.barrier) and with its parallelism stated by mapping attributes: an
    `scf.forall` over (batch, head, query block) mapped to `#gpu.block<z, y,
    x>`, shared tiles of Q, K and V (`stages` K/V buffers, rows padded by 16
    bytes) in `#gpu.address_space<workgroup>`, and an `scf.forall` over
    `32 * warps` threads mapped to `#gpu.thread<x>`. Thread t owns query row
    t (warp w owns rows 32w to 32w + 31: split-Q); its running max, running
    sum and f32 accumulator stay in registers. Tiles are copied 16 bytes per
    thread and step; key blocks hidden by causal or window masks are never
    visited. The result runs on a CPU after `fa-emulate-threads-on-cpu` and
    on a GPU after `fa-lower-to-gpu`. With `stages >= 2` and
    `async-copies` (sm_80 and later), K and V tiles are prefetched with
    `nvgpu.device_async_copy` (cp.async) into the next buffer while the
    current one is computed. With `tensor-cores` (sm_80 and later), f16 or
    bf16 operands and a tiling of whole 16-row tiles per warp, the kernel is
    FlashAttention-2's register-resident one (`register-fragments`, the
    default): warps split the query rows, Q·Kᵀ and P·V are
    `nvgpu.mma.sync` m16n8k16 on fragments loaded by `nvgpu.ldmatrix`
    (`.trans` for V), the scale, masks and online softmax work on S's
    accumulator fragments, a row's max and sum are combined over the four
    lanes of a quad with `gpu.shuffle xor` 1 and 2, P's A fragments are S's
    accumulators rounded in pairs, and O stays in accumulator fragments
    until it is stored; only Q, K and V are in shared memory, unpadded with
    XOR-swizzled 16-byte chunks. With `register-fragments=false` the
    earlier tensor-core kernel: warp-level 16x8x16 `vector.contract`s on
    shared tiles (which `fa-warp-matmuls-to-nvgpu` turns into ldmatrix and
    mma.sync), S and P through shared memory and the softmax by row. See
    docs/GPU.md.
  }];
  let options = [
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"true",
           "Prefetch K/V tiles with cp.async (nvgpu.device_async_copy) when "
           "the tiling has two or more stages (needs sm_80 or later)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Multiply with warp-level 16x8x16 matmuls (nvgpu mma.sync after "
           "fa-warp-matmuls-to-nvgpu) when the operands are f16 or bf16 "
           "and the tiling allows (needs sm_80 or later)">,
    Option<"warpgroupMma", "warpgroup-mma", "bool", /*default=*/"false",
           "With register-fragments: multiply with Hopper's warpgroup "
           "matmul (fa.warpgroup_mma, wgmma; needs sm_90a) where the tiling "
           "allows (D and Dv multiples of 64, warps of 16 rows in 64-row warpgroups)">,
    Option<"tmaProducer", "tma-producer", "bool", /*default=*/"false",
           "With warpgroup-mma: Q, K and V arrive by TMA (nvgpu.tma.async.load) "
           "that one producer warpgroup issues into a ring of K/V stages "
           "guarded by full and empty mbarriers; a page table whose pages "
           "do not hold whole key blocks keeps the cp.async loads (a remark "
           "says so)">,
    Option<"overlapSoftmax", "overlap-softmax", "bool", /*default=*/"false",
           "With tma-producer and two or more stages: issue each key "
           "block's P V in the next block's step, behind its Q K^T, so "
           "that it runs while that block's softmax does (FlashAttention-3's "
           "intra-warpgroup overlap, wgmma.wait_group 1)">,
    Option<"pingPong", "ping-pong", "bool", /*default=*/"false",
           "With tma-producer and two or more compute warpgroups: the "
           "warpgroups take turns issuing their matmuls (named barriers, "
           "bar.sync / bar.arrive), so that one's softmax runs while "
           "another's matmuls do (FlashAttention-3's ping-pong)">,
    Option<"registerFragments", "register-fragments", "bool", /*default=*/"true",
           "With tensor-cores: keep S and P in mma.sync fragments "
           "(FlashAttention-2's register-resident softmax, quad shuffles) "
           "instead of passing them through shared memory">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FADistributeAttentionBackward : Pass<"fa-distribute-attention-backward"> {
  let summary = "Lower fa.attention_backward to FlashAttention-2's backward "
                "GPU kernels (tensor cores)";
  let description = [{
    Rewrites every `fa.attention_backward` that carries a `tiling` into
    three block- and thread-mapped kernels with the contract of
    `fa-distribute-attention` (`scf.forall` over `#gpu.block<z, y, x>`
    around one over `#gpu.thread<x>`, tiles in workgroup memory):

    1. `D = rowsum(dO * O)`, one thread per query row, into an f32
       workspace `[B, Hq, Nq]`;
    2. dK and dV: a block per (batch, kv head, key block) keeps the key
       block's K and V in shared memory and streams the query blocks that
       see it (of every query head of the group) past them, `cp.async`
       with `stages >= 2`; warps split the keys; `Sᵀ = K·Qᵀ` and
       `dPᵀ = V·dOᵀ` are `nvgpu.mma.sync` m16n8k16 on `nvgpu.ldmatrix`
       fragments, `Pᵀ = exp(scale·Sᵀ + mask − L)` and `dSᵀ = Pᵀ∘(dPᵀ − D)`
       are computed on the accumulator fragments, and `dV += Pᵀ·dO`,
       `dK += dSᵀ·Q` take Pᵀ and dSᵀ as A operands straight from the
       registers (rounded in pairs), dO and Q through `ldmatrix.trans`;
    3. dQ: a block per (batch, head, query block) keeps Q and dO and
       streams the visible key blocks; `S = Q·Kᵀ`, `dP = dO·Vᵀ`, dS as
       above, `dQ += dS·K`.

    4. with `grad_mask`, dBias: a block per tile of the bias walks every
       key block and every (batch, head) the bias broadcasts over, and sums
       dS in f32 fragments (biases broadcast over batch or heads; not over
       query rows or keys).

    dQ has a kernel of its own, so every gradient row is summed by one
    block in a fixed order: deterministic, no atomics (dBias too). Causal
    and window masks skip whole blocks in the dK/dV and dQ kernels; rows
    whose logsumexp is `-inf` contribute zero. The kernels need f16 or
    bf16 operands, `tensor-cores` (sm_80 and later), D and Dv multiples of
    16, block_q and block_kv multiples of 16; each takes the most warps (up
    to the tiling's) that own whole 16-row fragment tiles.
    An op it cannot take is an error, or with `require-kernel=false` is
    left for `fa-tile-attention-backward`. See docs/GPU.md.
  }];
  let options = [
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"true",
           "Prefetch the streamed tiles with cp.async when the tiling has "
           "two or more stages (needs sm_80 or later)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "The chip has mma.sync m16n8k16 (sm_80 or later)">,
    Option<"requireKernel", "require-kernel", "bool", /*default=*/"true",
           "Report an op the kernel cannot take as an error; with false, "
           "leave it for fa-tile-attention-backward">,
    Option<"warpgroupMma", "warpgroup-mma", "bool", /*default=*/"false",
           "The chip has wgmma (sm_90a): the dK/dV kernel's matmuls on "
           "wgmma where the tiling allows (warps = block_kv / 16, block_kv "
           "a multiple of 64, D and Dv multiples of 64 up to 256, block_q a "
           "multiple of 16 up to 256)">,
    Option<"tmaProducer", "tma-producer", "bool", /*default=*/"false",
           "With warpgroup-mma: the dK/dV kernel's Q, dO, L and D arrive by "
           "TMA that one producer warpgroup issues into a ring of `stages` "
           "query blocks guarded by full and empty mbarriers (K and V stay "
           "resident, copied once per block)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::fa::FADialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FADistributeLinearAttention : Pass<"fa-distribute-linear-attention"> {
  let summary = "Lower fa.linear_attention to a chunked GPU kernel (tensor "
                "cores)";
  let description = [{
    Rewrites every `fa.linear_attention` into one block- and thread-mapped
    kernel with the contract of `fa-distribute-attention` (`scf.forall` over
    `#gpu.block<z, y, x>` around one over `#gpu.thread<x>`, tiles in
    workgroup memory), which runs on a CPU after `fa-emulate-threads-on-cpu`:
    one block per (batch, query head) walks the sequence in chunks of the
    op's `chunk` rows (chosen by `fa-select-tiles` from the target's shared
    memory) and carries the state `S = Σ_j γ^(c0−1−j) K_jᵀ V_j` in f32 in
    shared memory. Per chunk, four warps take 16 query rows at a time:
    `Q·S` (S rounded to Q's type, each column scaled by a power of two
    that keeps it in f16's range and multiplied back in f32), the chunk's
    weights `scale·Q·Kᵀ` masked causally and decayed on f32 fragments,
    `W·V` with W's fragments as A operands; then the warps update S by
    16-column slabs, `S = γ^C·S + (γ^(C−1−j) K_j)ᵀ·V`. All products are
    `nvgpu.mma.sync` m16n8k16 on `nvgpu.ldmatrix` fragments. Normalization
    adds a column of ones to V, so that the products also carry the row
    sums and `z`. Not causal: S over all keys first, then `Q·S` chunk by
    chunk. Needs f16 or bf16 Q, K and V, `tensor-cores` (sm_80 and later),
    D and Dv multiples of 16, a chunk that is a multiple of 16 and static
    head counts; an op it cannot take is an error at the op, or with
    `require-kernel=false` is left for `fa-lower-linear-attention`. See
    docs/LinearAttention.md.
  }];
  let options = [
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "The chip has mma.sync m16n8k16 (sm_80 or later)">,
    Option<"requireKernel", "require-kernel", "bool", /*default=*/"true",
           "Report an op the kernel cannot take as an error; with false, "
           "leave it for fa-lower-linear-attention">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // FA_TRANSFORMS_GPUKERNEL_PASSES_TD
