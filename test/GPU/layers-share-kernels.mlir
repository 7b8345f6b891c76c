// A model whose layers run the same attention compiles one kernel for all
// of them: the three identical layers call one function
// (fa-share-attention-functions), whose kernel is built, lowered and
// assembled once; the layer with another head dim keeps its own. Two
// binaries, one launch each, three calls. (The other layer's tiling is
// written: its 16 blocks would otherwise split their keys, a second
// launch for the merge.)
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa" | FileCheck %s
// CHECK-LABEL: llvm.func @forward
// CHECK-COUNT-3: llvm.call @__fa_attention_0(
// CHECK: gpu.launch_func @[[OTHER:[a-z_0-9]+]]::@forward_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @[[OTHER]] 
// CHECK-LABEL: llvm.func @__fa_attention_0(
// CHECK: gpu.launch_func @[[SHARED:[a-z_0-9]+]]::@__fa_attention_0_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @[[SHARED]] 
// CHECK-NOT: gpu.binary
func.func @forward(%q: tensor<1x4x256x64xf16>, %k: tensor<1x4x256x64xf16>, %v: tensor<1x4x256x64xf16>, %q2: tensor<1x4x256x128xf16>) -> (tensor<1x4x256x64xf16>, tensor<1x4x256x128xf16>) {
  %o0 = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right : tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf16>
  %o1 = fa.attention %o0, %k, %v scale = 0.125 causal = bottom_right : tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf16>
  %o2 = fa.attention %o1, %k, %v scale = 0.125 causal = bottom_right : tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf16>
  %p = fa.attention %q2, %q2, %q2 scale = 0.088 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 1> : tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16>, tensor<1x4x256x128xf16> -> tensor<1x4x256x128xf16>
  return %o2, %p : tensor<1x4x256x64xf16>, tensor<1x4x256x128xf16>
}
