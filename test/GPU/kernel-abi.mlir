// The kernel ABI of docs/GPU.md: parameters Q, K, V, [mask], O,
// [logsumexp]; grid (ceil(Nq / block_q), Hq, B); 32 * warps threads; the
// tile report's shared memory, dynamic above 48 KB.
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa" --mlir-print-ir-after=gpu-kernel-outlining -o /dev/null 2>&1 | FileCheck %s
// RUN: fa-opt %s --fa-select-tiles="target=sm_80 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// REPORT: "block_q":64,"block_kv":80,"warps":4,"stages":3,"kv_splits":1,"pack_gqa":false,"smem_bytes":54272
// REPORT-SAME: "gpu_kernel":"mma.sync-registers"
// CHECK: gpu.launch_func @attention_kernel::@attention_kernel blocks in (%c2, %c2, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c54272_i32
// CHECK-SAME: args(%arg0 : memref<1x2x100x64xf16>, %arg1 : memref<1x2x80x64xf16>, %arg2 : memref<1x2x80x32xf16>, %arg3 : memref<1x1x100x80xi1>, %{{.*}} : memref<1x2x100x32xf16>, %{{.*}} : memref<1x2x100xf32>)
// 54272 bytes (Q, three stages of K and V, written on the op) exceed
// 48 KB: dynamic.
// CHECK: gpu.func @attention_kernel(%arg0: memref<1x2x100x64xf16>, %arg1: memref<1x2x80x64xf16>, %arg2: memref<1x2x80x32xf16>, %arg3: memref<1x1x100x80xi1>, %arg4: memref<1x2x100x32xf16>, %arg5: memref<1x2x100xf32>)
// CHECK: gpu.dynamic_shared_memory
func.func @attention(%q: tensor<1x2x100x64xf16>, %k: tensor<1x2x80x64xf16>, %v: tensor<1x2x80x32xf16>, %m: tensor<1x1x100x80xi1>) -> (tensor<1x2x100x32xf16>, tensor<1x2x100xf32>) {
  %o, %l = fa.attention %q, %k, %v mask(%m : tensor<1x1x100x80xi1>) scale = 0.125 tiling = <block_q = 64, block_kv = 80, warps = 4, stages = 3> : tensor<1x2x100x64xf16>, tensor<1x2x80x64xf16>, tensor<1x2x80x32xf16> -> tensor<1x2x100x32xf16>, tensor<1x2x100xf32>
  return %o, %l : tensor<1x2x100x32xf16>, tensor<1x2x100xf32>
}
