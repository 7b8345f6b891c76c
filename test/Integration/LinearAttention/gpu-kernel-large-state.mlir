// The linear attention kernel's carried state outgrows f16: K = 16 and
// V = 64 everywhere make each key add 1024 to every state entry, so after 64
// keys S passes f16's 65504, and after 112 (the state the last chunk reads)
// it is 114688. The kernel keeps S in f32 and rounds it for Q S by columns
// scaled by a power of two (here 4), so the outputs are exact: row i of the
// causal, unnormalized attention is scale (Q . K) 64 (i + 1) = 16 (i + 1)
// (up to 2048, an f16 integer), the same as the reference's; rounded
// straight to f16, S would be inf from the fifth chunk on.
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.kernel
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.kernel %t.reference --rtol 0 --atol 1e-30 | FileCheck %s
// CHECK: MATCH 2048 values
// RUN: FileCheck %s --check-prefix=ROWS < %t.kernel
// ROWS-NOT: inf
// ROWS: [16, 16,
// ROWS: [1024, 1024,
// ROWS: [2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048]]]]
// ROWS-NOT: inf

!t = tensor<1x1x128x16xf16>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @causal(%q: !t, %k: !t, %v: !t) -> !t {
  %o = fa.linear_attention %q, %k, %v scale = 0.0625 causal chunk = 16 : !t, !t, !t -> !t
  return %o : !t
}

func.func @main() {
  %q = arith.constant dense<1.5625e-02> : !t
  %k = arith.constant dense<16.0> : !t
  %v = arith.constant dense<64.0> : !t
  %o = call @causal(%q, %k, %v) : (!t, !t, !t) -> !t
  %wide = arith.extf %o : !t to tensor<1x1x128x16xf32>
  %u = tensor.cast %wide : tensor<1x1x128x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
