// fa-gpu-pipeline index-bitwidth=32: a kernel that addresses fewer than
// 2^31 elements computes its indices in 32 bits, and its shared memory is
// addressed through 32-bit pointers (ldmatrix [%r...]); the default keeps
// LLVM's 64-bit index and shared pointers (ldmatrix [%rd...]). A dynamic
// key length keeps 64 bits either way. (docs/GPU-Checks.md has what each costs in
// the main loop, counted by scripts/ptx-main-loop.py.)
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa index-bitwidth=32" \
// RUN:   | FileCheck %s --check-prefix=NARROW
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa" \
// RUN:   | FileCheck %s --check-prefix=WIDE

// NARROW-LABEL: gpu.binary @fits_kernel
// NARROW-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{[{]}}%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%r{{[0-9]+}}
// NARROW-NOT: ldmatrix{{[^;]*}}[%rd
// WIDE-LABEL: gpu.binary @fits_kernel
// WIDE-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{[{]}}%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}
func.func @fits(%q: tensor<1x8x1024x64xf16>, %k: tensor<1x8x1024x64xf16>,
                %v: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125
      : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>,
        tensor<1x8x1024x64xf16> -> tensor<1x8x1024x64xf16>
  return %o : tensor<1x8x1024x64xf16>
}
