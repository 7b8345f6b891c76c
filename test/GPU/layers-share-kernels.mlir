// A model whose layers run the same attention compiles one kernel for all
// of them (fa-deduplicate-kernels): three identical layers and one with
// another head dim give two binaries and four launches.
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa" | FileCheck %s
// CHECK: gpu.launch_func @[[SHARED:[a-z_0-9]+]]::@forward_kernel
// CHECK-COUNT-2: gpu.launch_func @[[SHARED]]::@forward_kernel
// CHECK: gpu.launch_func @[[OTHER:[a-z_0-9]+]]::@forward_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @[[SHARED]] 
// CHECK-NEXT: gpu.binary @[[OTHER]] 
// CHECK-NOT: gpu.binary
func.func @forward(%q: tensor<1x4x256x64xf16>, %k: tensor<1x4x256x64xf16>, %v: tensor<1x4x256x64xf16>, %q2: tensor<1x4x256x128xf16>) -> (tensor<1x4x256x64xf16>, tensor<1x4x256x128xf16>) {
  %o0 = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right : tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf16>
  %o1 = fa.attention %o0, %k, %v scale = 0.125 causal = bottom_right : tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf16>
  %o2 = fa.attention %o1, %k, %v scale = 0.125 causal = bottom_right : tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf16>
  %p = fa.attention %q2, %q2, %q2 scale = 0.088 : tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16> -> tensor<1x4x256x128xf16>
  return %o2, %p : tensor<1x4x256x64xf16>, tensor<1x4x256x128xf16>
}
