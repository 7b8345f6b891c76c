// A DeepSeek-style decoder attention as buddy-mlir's graph importer emits
// it in TOSA, after its rewrites leave steps that change nothing: P + 0.0
// (a dropout of probability 0 folded to an add of zeros), V * 1.0 (a
// unit gate), tosa.cast f32 -> f32 on the scores, and a reshape of P to its
// own shape. The scale is a tosa.mul by the reciprocal of a constant
// sqrt(d) broadcast to [1, 1, 1]. Raised: none of the identity steps
// survive; one fa.attention with scale 1/8.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 768 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @forward
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 :
// RAISED-NOT: tosa.
// RAISED: return

func.func @forward(%q: tensor<2x12x64xf32>, %k: tensor<2x12x64xf32>, %v: tensor<2x12x32xf32>) -> tensor<2x12x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sqrt_d = "tosa.const"() <{values = dense<8.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<2x12x12xf32>}> : () -> tensor<2x12x12xf32>
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shape = tosa.const_shape {values = dense<[2, 12, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.reciprocal %sqrt_d : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %1 = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x64xf32>) -> tensor<2x64x12xf32>
  %2 = tosa.matmul %q, %1, %zp, %zp : (tensor<2x12x64xf32>, tensor<2x64x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %3 = tosa.cast %2 : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %4 = tosa.mul %3, %0, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %5 = tosa.reduce_max %4 {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %6 = tosa.sub %4, %5 : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %7 = tosa.exp %6 : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %8 = tosa.reduce_sum %7 {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %9 = tosa.reciprocal %8 : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %10 = tosa.mul %7, %9, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %11 = tosa.add %10, %zeros : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %12 = tosa.reshape %11, %shape : (tensor<2x12x12xf32>, !tosa.shape<3>) -> tensor<2x12x12xf32>
  %13 = tosa.mul %v, %ones, %shift : (tensor<2x12x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x32xf32>
  %14 = tosa.matmul %12, %13, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x32xf32>
  return %14 : tensor<2x12x32xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c12 = arith.constant 12 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input3(%s1, %c2, %c12, %c64) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c2, %c12, %c64) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c2, %c12, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x12x64xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x12x64xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x12x32xf32>
  %o = call @forward(%q, %k, %v) : (tensor<2x12x64xf32>, tensor<2x12x64xf32>, tensor<2x12x32xf32>) -> tensor<2x12x32xf32>
  %u = tensor.cast %o : tensor<2x12x32xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
