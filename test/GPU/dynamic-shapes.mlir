// Dynamic shapes: the grid comes from the sizes at run time; kernels take
// MLIR memref descriptors (bare-pointers=false). With the default
// bare-pointer ABI they are reported at the attention.
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa bare-pointers=false" | FileCheck %s
// RUN: not fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa" 2>&1 | FileCheck %s --check-prefix=BARE

// CHECK: gpu.launch_func @attention_kernel::@attention_kernel
// CHECK: gpu.binary @attention_kernel
// BARE: dynamic-shapes.mlir:[[@LINE+3]]:8: error: 'scf.forall' op uses a buffer of dynamic shape 'memref<?x?x?x64xf16>'; the bare-pointer kernel ABI passes only its address
// BARE-NOT: failed to legalize
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right : tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
