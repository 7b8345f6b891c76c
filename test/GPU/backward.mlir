// fa.attention_backward with `deterministic` through fa-gpu-pipeline to
// PTX: three kernels, launched in order, D = rowsum(dO O), dK/dV and dQ
// (backward-atomic-dq.mlir has the default, dQ added with atomics). The two gradient
// kernels run on tensor cores: the streamed tiles arrive by cp.async (two
// stages), every shared read is an ldmatrix (.trans for the B operands of
// dV += P^T dO, dK += dS^T Q and dQ += dS K), and P and dS go from the
// accumulators of one mma.sync to the A operands of the next without a
// shared store, rounded in pairs (cvt.rn.f16x2.f32).
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa" > %t
// RUN: FileCheck %s < %t
// RUN: grep "gpu.binary @backward_kernel " %t | FileCheck %s --check-prefix=ROWTERM
// RUN: grep "gpu.binary @backward_kernel_0 " %t | FileCheck %s --check-prefix=GRADIENT
// RUN: grep "gpu.binary @backward_kernel_1 " %t | FileCheck %s --check-prefix=GRADIENT
// RUN: grep "gpu.binary @backward_kernel_[01] " %t | FileCheck %s --check-prefix=SHARED

// CHECK: gpu.launch_func @backward_kernel::@backward_kernel
// CHECK: gpu.launch_func @backward_kernel_0::@backward_kernel
// CHECK: gpu.launch_func @backward_kernel_1::@backward_kernel

// D: no shared memory, no tensor cores, one f32 per row.
// ROWTERM-NOT: .shared
// ROWTERM-NOT: mma.sync
// ROWTERM: st.global.b32

// GRADIENT: cp.async.cg.shared.global
// GRADIENT: cp.async.commit_group
// GRADIENT: cp.async.wait_group \091;
// GRADIENT: bar.sync
// GRADIENT: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// GRADIENT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// GRADIENT-NOT: st.shared
// GRADIENT: ex2.approx
// GRADIENT-NOT: st.shared
// GRADIENT: cvt.rn.f16x2.f32
// GRADIENT-NOT: st.shared
// GRADIENT: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// GRADIENT-NOT: st.shared
// GRADIENT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// GRADIENT-NOT: st.shared
// GRADIENT: bar.sync
// The gradients are stored from the fragments, two columns per lane.
// GRADIENT: st.global.b32

// SHARED-NOT: ld.shared

func.func @backward(%q: tensor<1x2x256x64xf16>, %k: tensor<1x2x256x64xf16>,
    %v: tensor<1x2x256x64xf16>, %o: tensor<1x2x256x64xf16>,
    %do: tensor<1x2x256x64xf16>, %l: tensor<1x2x256xf32>)
    -> (tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %l scale = 0.125 causal = bottom_right deterministic
      : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>,
        tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256xf32>
      -> tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>
  return %dq, %dk, %dv : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>
}
