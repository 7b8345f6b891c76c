//===- Passes.td - GPUEmulation passes ---------------------*- tablegen -*-===//
//
// Stage: the GPU kernels run on a CPU: threads, barriers, async copies and their models.
// One pass per file under lib/Transforms/GPUEmulation/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_GPUEMULATION_PASSES_TD
#define FA_TRANSFORMS_GPUEMULATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FAEmulateThreadsOnCPU : Pass<"fa-emulate-threads-on-cpu"> {
  let summary = "Split thread-mapped loops at their barriers so they run on a CPU";
  let description = [{
    Makes a kernel written as thread-mapped `scf.forall` loops with
    `gpu.barrier` runnable sequentially: each loop is split at its barriers
    into one loop per phase (barriers inside an `scf.for` directly in the
    thread loop split that loop's body), values that live across a barrier
    move through one private slot per thread, and workgroup memory becomes
    ordinary memory. A loop body that does not end in a barrier runs its
    last phase together with the next iteration's first, as the GPU may
    (loop rotation), so a buffer refilled while another thread still reads
    it shows. cp.async copies (`nvgpu.device_async_copy`) land as late as
    PTX allows: each thread queues its copies, poisons their destinations
    (NaN) and writes them at the `nvgpu.device_async_wait` that retires
    their group. Warp collectives (`nvgpu.ldmatrix`, `nvgpu.mma.sync`
    m16n8k16 with f16/bf16 fragments, `gpu.shuffle xor`) are emulated lane
    by lane as PTX defines them: each lane stores what it contributes in
    its own slot and, after a barrier, computes only its own elements from
    the slots of the lanes that hold them; independent collectives share
    one barrier, which orders one warp's lanes only, so the intervals it
    separates run warp by warp. This is how the GPU kernel's numbers are
    tested with mlir-runner. Barriers and collectives in other places,
    and collectives it does not model, are reported. Each cp.async copy
    that reads any element also checks, when it is issued, that what it
    reads lies in its source (on a GPU a read past a tensor faults or
    returns another tensor's data): the first that does not is reported on
    stderr with its indices and the program exits with status 1
    (`check-async-sources`, default true).

    With `thread-order=reverse` or `thread-order=shuffle` (a permutation
    drawn from `seed`), the threads of every interval between barriers run
    in that order instead of 0, 1, 2, ... (and the warps of warp-by-warp
    intervals too), and the blocks of every grid run last to first: a
    kernel without a race computes the same numbers in every order (but
    for sums its blocks form with atomics, which round in the order the
    blocks run), and a missing barrier or a read of another thread's data
    too early shows as a difference.
  }];
  let options = [
    Option<"threadOrder", "thread-order", "std::string", /*default=*/"\"forward\"",
           "The order in which each interval's threads run: forward, reverse "
           "or shuffle (a permutation drawn from seed)">,
    Option<"seed", "seed", "unsigned", /*default=*/"1",
           "The permutation of thread-order=shuffle">,
    Option<"checkAsyncSources", "check-async-sources", "bool",
           /*default=*/"true",
           "Check at run time that each cp.async copy reads within its "
           "source (needs the pass on a module)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FAGuardKernelOutputs : Pass<"fa-guard-kernel-outputs", "::mlir::ModuleOp"> {
  let summary = "Surround the buffers a kernel grid writes with checked guards, on a CPU";
  let description = [{
    For the CPU emulation of the GPU kernels: each buffer allocated outside
    a `#gpu.block`-mapped `scf.forall` and written inside one becomes a view
    into an allocation larger on each side of each dimension (one element;
    64 bytes on the innermost, which keeps rows as aligned as before),
    filled with a sentinel NaN. After the kernel (before the buffer is
    freed, or at the end of its block) every element of that guard is
    compared with the sentinel; one that changed is printed on stderr as a
    position of the output (-1 or the dimension's size on the side that was
    crossed) and the program exits with status 1 (libc's fprintf and exit,
    called through the LLVM dialect). A store one row or one column out of bounds
    thus fails by numbers, saying where, instead of corrupting the
    neighbouring memory unseen. Buffers used in ways that depend on their
    layout (other than loads, stores, vector transfers, cp.async, subviews,
    copies and `bufferization.to_tensor`), or freed other than once in
    their own block, are left as they are.

    Example:

    ```mlir
    %out = memref.alloc() : memref<2x16xf32>
    scf.forall (%b) in (1) { ... memref.store %x, %out[%r, %c] ... }
        {mapping = [#gpu.block<x>]}
    // becomes
    %padded = memref.alloc() {alignment = 64} : memref<4x48xf32>
    linalg.fill ins(%nan : f32) outs(%padded : memref<4x48xf32>)
    %out = memref.subview %padded[1, 16] [2, 16] [1, 1]
    scf.forall ... (unchanged)
    // the guard loop: any element of %padded outside %out that is not
    // %nan prints its position and exits
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // FA_TRANSFORMS_GPUEMULATION_PASSES_TD
