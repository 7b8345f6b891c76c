// The kernel ABI of a decode step that tile selection splits and packs
// (docs/GPU.md): the attention kernel takes the split workspace first
// (partial outputs [S, B, Hkv, G * Nq, Dv] and logsumexps [S, B, Hkv, G * Nq],
// f32), then Q viewed as packed rows, K and V; the merge kernel takes the
// logsumexps, the partial outputs and the output (packed rows). The packed
// views are reshapes of the caller's buffers, never copies.
// REQUIRES: nvptx
// RUN: fa-opt %s --split-input-file --fa-gpu-pipeline="chip=sm_90 format=isa" --mlir-print-ir-after=gpu-kernel-outlining -o /dev/null 2>&1 | FileCheck %s
// RUN: fa-opt %s --split-input-file --fa-gpu-pipeline="chip=sm_90 format=isa" --mlir-print-ir-after=gpu-kernel-outlining -o /dev/null 2>&1 | FileCheck %s --check-prefix=LENGTHS

// CHECK: %[[Q:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3], [4]] : memref<1x8x4x1x128xf16> into memref<1x8x4x128xf16>
// CHECK-NOT: memref.copy
// The buffers the kernels write are device allocations
// (fa-allocate-device-buffers); the workspace is freed after the merge.
// CHECK: %[[O:[^,]*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<1x8x4x128xf16>
// CHECK: %[[PO:[^,]*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<114x1x8x4x128xf32>
// CHECK: %[[PL:[^,]*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<114x1x8x4xf32>
// CHECK: gpu.launch_func  @decode_kernel::@decode_kernel blocks in (%c114, %c8, %c1) threads in (%c32, %c1, %c1)  args(%[[PO]] : memref<114x1x8x4x128xf32>, %[[PL]] : memref<114x1x8x4xf32>, %[[Q]] : memref<1x8x4x128xf16>, %arg1 : memref<1x8x32768x128xf16>, %arg2 : memref<1x8x32768x128xf16>)
// CHECK: gpu.launch_func  @decode_kernel_0::@decode_kernel blocks in (%c1, %c8, %c1) threads in (%c128, %c1, %c1)  args(%[[PL]] : memref<114x1x8x4xf32>, %[[PO]] : memref<114x1x8x4x128xf32>, %[[O]] : memref<1x8x4x128xf16>)
// CHECK-DAG: gpu.dealloc async [%{{.*}}] %[[PO]]
// CHECK-DAG: gpu.dealloc async [%{{.*}}] %[[PL]]
// CHECK-NOT: memref.copy
// CHECK: memref.collapse_shape %{{.*}} : memref<1x8x4x1x128xf16> into memref<1x32x1x128xf16>
func.func @decode(%q: tensor<1x32x1x128xf16>, %k: tensor<1x8x32768x128xf16>, %v: tensor<1x8x32768x128xf16>) -> tensor<1x32x1x128xf16> {
  %o = fa.attention %q, %k, %v scale = 0.08838834764831845 : tensor<1x32x1x128xf16>, tensor<1x8x32768x128xf16>, tensor<1x8x32768x128xf16> -> tensor<1x32x1x128xf16>
  return %o : tensor<1x32x1x128xf16>
}

// -----

// With per-sequence key lengths, each block reads its sequence's length
// first: the lengths come before Q (after the workspace, with splits).
// LENGTHS: gpu.launch_func  @prefill_kernel::@prefill_kernel blocks in (%c4, %c8, %c4) threads in (%c128, %c1, %c1)  args(%arg3 : memref<4xi32>, %arg0 : memref<4x8x512x64xf16>, %arg1 : memref<4x8x512x64xf16>, %arg2 : memref<4x8x512x64xf16>, %memref : memref<4x8x512x64xf16>)
func.func @prefill(%q: tensor<4x8x512x64xf16>, %k: tensor<4x8x512x64xf16>, %v: tensor<4x8x512x64xf16>, %len: tensor<4xi32>) -> tensor<4x8x512x64xf16> {
  %o = fa.attention %q, %k, %v kv_lengths(%len : tensor<4xi32>) scale = 0.125 causal = bottom_right : tensor<4x8x512x64xf16>, tensor<4x8x512x64xf16>, tensor<4x8x512x64xf16> -> tensor<4x8x512x64xf16>
  return %o : tensor<4x8x512x64xf16>
}
