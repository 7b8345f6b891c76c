// fa-gpu-pipeline to cubin through ptxas (an ELF image), with libdevice
// found without any CUDA environment variable.
// REQUIRES: nvptx, ptxas
// RUN: env -u CUDA_ROOT -u CUDA_HOME -u CUDA_PATH fa-opt %s --fa-gpu-pipeline="chip=sm_90 format=bin" | FileCheck %s
// CHECK: gpu.binary @attention_kernel
// CHECK-SAME: #gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">
// CHECK-SAME: bin = "\7FELF
func.func @attention(%q: tensor<1x4x256x128xbf16>, %k: tensor<1x4x256x128xbf16>, %v: tensor<1x4x256x128xbf16>) -> tensor<1x4x256x128xbf16> {
  %o = fa.attention %q, %k, %v scale = 0.088388347648318433 : tensor<1x4x256x128xbf16>, tensor<1x4x256x128xbf16>, tensor<1x4x256x128xbf16> -> tensor<1x4x256x128xbf16>
  return %o : tensor<1x4x256x128xbf16>
}
