// With two stages, K and V tiles are prefetched with cp.async on sm_80 and
// later (16 bytes per copy, bypassing L1), one commit group per key block
// requested a whole block ahead and waited for (wait_group 0) at the end of
// the block before it; sm_75 has no cp.async and copies synchronously. The kernel keeps its bare-pointer parameters: the memrefs
// that cp.async reads are converted inside the kernel (nvgpu is lowered
// after outlining), so K and V are pointers like the other parameters, not
// 88-byte descriptors.
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa" > %t.sm80
// RUN: FileCheck %s --check-prefix=ASYNC < %t.sm80
// RUN: FileCheck %s --check-prefix=COMMIT < %t.sm80
// RUN: FileCheck %s --check-prefix=WAIT < %t.sm80
// RUN: FileCheck %s --check-prefix=ABI < %t.sm80
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_75 format=isa" | FileCheck %s --check-prefix=SYNC
// ASYNC: cp.async.cg.shared.global
// COMMIT: cp.async.commit_group
// WAIT: cp.async.wait_group {{(\\09)?}}0;
// WAIT-NOT: cp.async.wait_group {{(\\09)?}}1;
// ABI: gpu.launch_func @attention_kernel::@attention_kernel {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr)
// ABI: .entry attention_kernel(
// ABI-SAME: .param .u64 .ptr .align 1 attention_kernel_param_0,
// ABI-SAME: .param .u64 .ptr .align 1 attention_kernel_param_1,
// ABI-SAME: .param .u64 .ptr .align 1 attention_kernel_param_2,
// ABI-SAME: .param .u64 .ptr .align 1 attention_kernel_param_3
// SYNC: gpu.binary
// SYNC-NOT: cp.async
func.func @attention(%q: tensor<2x8x1024x64xf16>, %k: tensor<2x8x1024x64xf16>, %v: tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = top_left
      tiling = <block_q = 128, block_kv = 64, warps = 4, stages = 2>
      : tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16> -> tensor<2x8x1024x64xf16>
  return %o : tensor<2x8x1024x64xf16>
}
