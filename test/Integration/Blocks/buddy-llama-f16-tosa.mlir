// A LLaMA decoder attention from buddy-mlir's TOSA importer in half
// precision: f16 Q, K, V [B*H, N, D]; the scores are widened to f32 by
// tosa.cast; the scale is a tosa.mul by the reciprocal of a full-shape
// constant sqrt(d) (tosa.const of the scores' shape); the causal mask is a
// constant [1, N, N] of 0 and -inf; the probabilities are cast back to f16
// for P·V. Raised: an f16 fa.attention with causal = bottom_right (Nq = Nk)
// and scale 1/8.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 512 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @llama_attention_f16
// RAISED: fa.attention {{.*}} scale = 1.250000e-01 causal = bottom_right : tensor<1x2x4x64xf16>
// RAISED-NOT: tosa.exp
// RAISED: return

func.func @llama_attention_f16(%q: tensor<2x4x64xf16>, %k: tensor<2x4x64xf16>, %v: tensor<2x4x64xf16>) -> tensor<2x4x64xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sqrt_d = "tosa.const"() <{values = dense<8.0> : tensor<2x4x4xf32>}> : () -> tensor<2x4x4xf32>
  %mask = "tosa.const"() <{values = dense<[[[0.0, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0, 0.0]]]> : tensor<1x4x4xf32>}> : () -> tensor<1x4x4xf32>
  %0 = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x64xf16>) -> tensor<2x64x4xf16>
  %1 = tosa.matmul %q, %0, %zp, %zp : (tensor<2x4x64xf16>, tensor<2x64x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x4xf16>
  %2 = tosa.cast %1 : (tensor<2x4x4xf16>) -> tensor<2x4x4xf32>
  %3 = tosa.reciprocal %sqrt_d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %4 = tosa.mul %2, %3, %shift : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %5 = tosa.add %4, %mask : (tensor<2x4x4xf32>, tensor<1x4x4xf32>) -> tensor<2x4x4xf32>
  %6 = tosa.reduce_max %5 {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %7 = tosa.sub %5, %6 : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %8 = tosa.exp %7 : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %9 = tosa.reduce_sum %8 {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %10 = tosa.reciprocal %9 : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %11 = tosa.mul %8, %10, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %12 = tosa.cast %11 : (tensor<2x4x4xf32>) -> tensor<2x4x4xf16>
  %13 = tosa.matmul %12, %v, %zp, %zp : (tensor<2x4x4xf16>, tensor<2x4x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x64xf16>
  return %13 : tensor<2x4x64xf16>
}

func.func @half(%t: tensor<?x?x?xf32>) -> tensor<2x4x64xf16> {
  %s = tensor.cast %t : tensor<?x?x?xf32> to tensor<2x4x64xf32>
  %h = tosa.cast %s : (tensor<2x4x64xf32>) -> tensor<2x4x64xf16>
  return %h : tensor<2x4x64xf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input3(%s1, %c2, %c4, %c64) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c2, %c4, %c64) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c2, %c4, %c64) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = call @half(%q0) : (tensor<?x?x?xf32>) -> tensor<2x4x64xf16>
  %k = call @half(%k0) : (tensor<?x?x?xf32>) -> tensor<2x4x64xf16>
  %v = call @half(%v0) : (tensor<?x?x?xf32>) -> tensor<2x4x64xf16>
  %o = call @llama_attention_f16(%q, %k, %v) : (tensor<2x4x64xf16>, tensor<2x4x64xf16>, tensor<2x4x64xf16>) -> tensor<2x4x64xf16>
  %w = tosa.cast %o : (tensor<2x4x64xf16>) -> tensor<2x4x64xf32>
  %u = tensor.cast %w : tensor<2x4x64xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
