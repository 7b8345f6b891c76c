//===- Passes.td - CPU passes ------------------------------*- tablegen -*-===//
//
// Stage: what the CPU pipeline needs before LLVM.
// One pass per file under lib/Transforms/CPU/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_CPU_PASSES_TD
#define FA_TRANSFORMS_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def FADecomposeAggregatedOps : Pass<"fa-decompose-aggregated-ops"> {
  let summary = "Decompose linalg.softmax and other aggregated linalg ops";
  let description = [{
    Frontend IR may state softmax as `linalg.softmax`, which
    `convert-linalg-to-loops` does not lower. This pass applies upstream's
    `AggregatedOpInterface::decomposeOperation` to every such op left after
    raising, so that the CPU pipeline runs programs that keep one (for
    example because it is not part of an attention, or raising is off).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FAStoreBF16AsI16 : Pass<"fa-store-bf16-as-i16", "::mlir::ModuleOp"> {
  let summary = "Retype bf16 data movement in the LLVM dialect as i16 for "
                "hosts without bf16";
  let description = [{
    Part of `fa-cpu-pipeline`, after the conversion to the LLVM dialect and
    `arith-expand{include-bf16=true}`. On hosts without bf16 arithmetic
    LLVM promotes each bf16 element to f32 and back (one `__truncsfbf2`
    call per element of a `bitcast <16 x bfloat> to <16 x i16>`), which
    made instruction selection take minutes on the emulated bf16 GPU
    kernels. When every remaining operation on bf16 values only moves data
    (loads, stores, GEPs, element and aggregate inserts and extracts,
    shuffles, selects, constants, bitcasts, masked loads and stores,
    branches), this pass gives those values i16 types with the same bits
    and drops the bitcasts that become no-ops. If any operation computes on
    bf16 (arithmetic, fpext, fptrunc, a call), or a function's signature
    holds bf16 (its ABI would change), it changes nothing.

    Example:

    ```mlir
    %v = llvm.load %p : !llvm.ptr -> vector<8xbf16>
    %i = llvm.bitcast %v : vector<8xbf16> to vector<8xi16>
    // becomes
    %v = llvm.load %p : !llvm.ptr -> vector<8xi16>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // FA_TRANSFORMS_CPU_PASSES_TD
