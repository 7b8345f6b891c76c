// Which attentions get tensor cores: f16 and bf16 on sm_80 and later with a
// tiling of whole 16-row warp tiles (the tile report's "gpu_kernel"); sm_75
// (no m16n8k16), f32 and other tilings keep the FMA kernel.
// REQUIRES: nvptx
// Each gpu.binary is one line (the PTX is an escaped string), so a grep for
// the kernel's binary isolates its PTX.
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_90 format=isa" > %t.sm90
// RUN: grep "gpu.binary @f16_kernel" %t.sm90 | FileCheck %s --check-prefix=MMA
// RUN: grep "gpu.binary @f16_kernel" %t.sm90 | FileCheck %s --check-prefix=LOOP
// RUN: grep "gpu.binary @bf16_kernel" %t.sm90 | FileCheck %s --check-prefix=MMA-BF16
// RUN: grep "gpu.binary @f16_narrow_tile_kernel" %t.sm90 | FileCheck %s --check-prefix=FMA
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_75 format=isa" > %t.sm75
// RUN: grep "gpu.binary @f16_kernel" %t.sm75 | FileCheck %s --check-prefix=FMA
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// FlashAttention-2's register-resident kernel: Q and K fragments by
// ldmatrix, S = Q Kᵀ on mma.sync, the row max over a quad with butterfly
// shuffles, P rounded in pairs (cvt.rn.f16x2), V by ldmatrix.trans, P V on
// mma.sync. K and V arrive by cp.async, so once the first mma.sync is
// issued no thread stores to shared memory again: S and P never leave the
// registers. (LLVM lays the rotated key loop out in its own order.)
// MMA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MMA-NOT: st.shared
// LOOP-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// LOOP-DAG: shfl.sync.bfly.b32
// LOOP-DAG: cvt.rn.f16x2.f32
// LOOP-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// LOOP-DAG: ex2.approx.ftz.f32
// LOOP-DAG: cp.async.cg.shared.global
// MMA-BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// MMA-BF16-NOT: st.shared
// FMA-NOT: mma.sync
// FMA: fma.rn.f32
// FMA-NOT: mma.sync

// The report also prints the kernel's plan (planKernel), which the kernel
// builder follows.
// REPORT: "gpu_kernel":"mma.sync-registers"
// REPORT-SAME: "kernel_plan":"mma.sync, register fragments, cp.async, 128 threads, 1 stage"
// REPORT: "gpu_kernel":"mma.sync-registers"
// REPORT-SAME: "kernel_plan":"mma.sync, register fragments, cp.async, 128 threads, 1 stage"
// REPORT: "gpu_kernel":"fma"
// REPORT-SAME: "kernel_plan":"FMA, synchronous copies, 128 threads, 1 stage, 16 keys per step"

func.func @f16(%q: tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125 : tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf16>
  return %o : tensor<1x4x256x64xf16>
}

func.func @bf16(%q: tensor<1x4x256x64xbf16>) -> tensor<1x4x256x64xbf16> {
  %o = fa.attention %q, %q, %q scale = 0.125 : tensor<1x4x256x64xbf16>, tensor<1x4x256x64xbf16>, tensor<1x4x256x64xbf16> -> tensor<1x4x256x64xbf16>
  return %o : tensor<1x4x256x64xbf16>
}

// 32 query rows over 4 warps: not whole 16-row tiles per warp.
func.func @f16_narrow_tile(%q: tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125 tiling = <block_q = 32, block_kv = 32, warps = 4, stages = 1> : tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf16>
  return %o : tensor<1x4x256x64xf16>
}
