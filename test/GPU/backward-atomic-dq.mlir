// fa.attention_backward without `deterministic` through fa-gpu-pipeline to
// PTX: D = rowsum(dO O), which also zeroes dQ's f32 sum; dK/dV, which
// stores dS^T to shared memory, reads it back transposed (ldmatrix.trans)
// for dS K and adds each block's share to dQ's sum with f32 atomics; and
// a kernel that rounds scale * the sum into dQ. ptxas assembles the
// tile model's tiling (32 x 128, 8 warps at d = 64) without spills.
// REQUIRES: nvptx, ptxas
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa confirm-tiles=false" > %t
// RUN: FileCheck %s < %t
// RUN: grep "gpu.binary @backward_kernel " %t | FileCheck %s --check-prefix=ROWTERM
// RUN: grep "gpu.binary @backward_kernel_0 " %t | FileCheck %s --check-prefix=GRADIENT
// RUN: grep "gpu.binary @backward_kernel_1 " %t | FileCheck %s --check-prefix=ROUNDING
// RUN: %python %S/Inputs/assemble_each.py %t %ptxas sm_80 | FileCheck %s --check-prefix=PTXAS

// CHECK: gpu.launch_func @backward_kernel::@backward_kernel
// CHECK: gpu.launch_func @backward_kernel_0::@backward_kernel
// CHECK: gpu.launch_func @backward_kernel_1::@backward_kernel
// CHECK-NOT: gpu.launch_func

// ROWTERM-NOT: mma.sync
// ROWTERM: st.global.b32
// ROWTERM: st.global.v4.b32

// GRADIENT: cp.async.cg.shared.global
// GRADIENT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// GRADIENT: st.shared.b32
// GRADIENT: bar.sync
// GRADIENT: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// GRADIENT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// GRADIENT: {{atom|red}}.global.add.f32

// ROUNDING-NOT: mma.sync
// ROUNDING-NOT: .shared
// ROUNDING: ld.global.v4
// ROUNDING: cvt.rn.f16x2.f32
// ROUNDING: st.global

// PTXAS: object 1: {{[0-9]+}} registers, 0 bytes spilled
// PTXAS: 3 objects, 0 spilled

func.func @backward(%q: tensor<1x2x256x64xf16>, %k: tensor<1x2x256x64xf16>,
    %v: tensor<1x2x256x64xf16>, %o: tensor<1x2x256x64xf16>,
    %do: tensor<1x2x256x64xf16>, %l: tensor<1x2x256xf32>)
    -> (tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %l scale = 0.125 causal = bottom_right
      : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>,
        tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256xf32>
      -> tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>
  return %dq, %dk, %dv : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>
}
