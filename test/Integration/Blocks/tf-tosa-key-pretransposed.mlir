// A TensorFlow Keras MultiHeadAttention lowered by tf-to-tosa, with the key
// cache kept transposed, [B*H, D, Nk], as a function argument (the graph
// computes einsum('aecd,abcd->acbe') on a pre-transposed key). The scale is
// a full-shape constant 1/sqrt(d) reached through tosa.reciprocal of
// sqrt(d), and the additive mask is an argument broadcast over heads.
// Raised: K is transposed to [B, H, Nk, D] for the op.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 640 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @multi_head_attention
// RAISED: %[[KT:.*]] = linalg.transpose ins(%arg1 : tensor<4x16x10xf32>) {{.*}} permutation = [0, 2, 1]
// RAISED: %[[K4:.*]] = tensor.expand_shape %[[KT]]
// RAISED: fa.attention %{{.*}}, %[[K4]], %{{.*}} mask(%{{.*}} : tensor<1x1x10x10xf32>) scale = 2.500000e-01 :
// RAISED-NOT: tosa.exp
// RAISED: return

func.func @multi_head_attention(%query: tensor<4x10x16xf32>, %key_t: tensor<4x16x10xf32>, %value: tensor<4x10x16xf32>, %mask: tensor<1x10x10xf32>) -> tensor<4x10x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sqrt_d = "tosa.const"() <{values = dense<4.0> : tensor<4x10x10xf32>}> : () -> tensor<4x10x10xf32>
  %0 = tosa.reciprocal %sqrt_d : (tensor<4x10x10xf32>) -> tensor<4x10x10xf32>
  %1 = tosa.matmul %query, %key_t, %zp, %zp : (tensor<4x10x16xf32>, tensor<4x16x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x10x10xf32>
  %2 = tosa.mul %1, %0, %shift : (tensor<4x10x10xf32>, tensor<4x10x10xf32>, tensor<1xi8>) -> tensor<4x10x10xf32>
  %3 = tosa.add %2, %mask : (tensor<4x10x10xf32>, tensor<1x10x10xf32>) -> tensor<4x10x10xf32>
  %4 = tosa.reduce_max %3 {axis = 2 : i32} : (tensor<4x10x10xf32>) -> tensor<4x10x1xf32>
  %5 = tosa.sub %3, %4 : (tensor<4x10x10xf32>, tensor<4x10x1xf32>) -> tensor<4x10x10xf32>
  %6 = tosa.exp %5 : (tensor<4x10x10xf32>) -> tensor<4x10x10xf32>
  %7 = tosa.reduce_sum %6 {axis = 2 : i32} : (tensor<4x10x10xf32>) -> tensor<4x10x1xf32>
  %8 = tosa.reciprocal %7 : (tensor<4x10x1xf32>) -> tensor<4x10x1xf32>
  %9 = tosa.mul %6, %8, %shift : (tensor<4x10x10xf32>, tensor<4x10x1xf32>, tensor<1xi8>) -> tensor<4x10x10xf32>
  %10 = tosa.matmul %9, %value, %zp, %zp : (tensor<4x10x10xf32>, tensor<4x10x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x10x16xf32>
  return %10 : tensor<4x10x16xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %q0 = call @input3(%s1, %c4, %c10, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c4, %c16, %c10) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c4, %c10, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %m0 = call @input3(%s4, %c1, %c10, %c10) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<4x10x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<4x16x10xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<4x10x16xf32>
  %m = tensor.cast %m0 : tensor<?x?x?xf32> to tensor<1x10x10xf32>
  %o = call @multi_head_attention(%q, %k, %v, %m) : (tensor<4x10x16xf32>, tensor<4x16x10xf32>, tensor<4x10x16xf32>, tensor<1x10x10xf32>) -> tensor<4x10x16xf32>
  %u = tensor.cast %o : tensor<4x10x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
