// The host code fa-gpu-pipeline emits allocates what the kernels write on
// the device and frees its temporaries: no host malloc reaches a launch,
// and a split-KV decode step allocates O and the workspace with
// mgpuMemAlloc and frees the workspace (mgpuMemFree) after the merge
// kernel; O is returned to the caller.
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_90 format=isa" | FileCheck %s

!q = tensor<2x8x1x64xf16>
!kv = tensor<2x2x4096x64xf16>

// O and the workspace (partial outputs and logsumexps): three device
// allocations, the two temporaries freed after both launches.
// CHECK-LABEL: llvm.func @decode
// CHECK-NOT: llvm.call @malloc
// CHECK-COUNT-3: llvm.call @mgpuMemAlloc
// CHECK-NOT: llvm.call @malloc
// CHECK: gpu.launch_func
// CHECK: gpu.launch_func
// CHECK-COUNT-2: llvm.call @mgpuMemFree
// CHECK-NOT: llvm.call @mgpuMemFree
// CHECK: llvm.return
func.func @decode(%q: !q, %k: !kv, %v: !kv) -> !q {
  %o = fa.attention %q, %k, %v scale = 0.125 tiling = <block_q = 16, block_kv = 64, warps = 1, stages = 2, kv_splits = 8>
      : !q, !kv, !kv -> !q
  return %o : !q
}
