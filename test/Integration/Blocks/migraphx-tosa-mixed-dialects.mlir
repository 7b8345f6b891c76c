// A MIGraphX -> TOSA attention (rocMLIR's mixr attention tests) after a
// frontend cleanup that left part of the elementwise work in arith/math on
// whole tensors: the scale is an arith.mulf by a full-shape dense constant,
// the exp is math.exp on a tensor, the subtraction of the row max an
// arith.subf after an explicit broadcast, and the 1/sum a tensor.splat'ed
// one divided by the sums. Raised: one fa.attention with scale 0.125.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 384 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @mlir_attention
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 :
// RAISED-NOT: math.exp
// RAISED: return

func.func @mlir_attention(%arg0: tensor<3x16x8xf32>, %arg1: tensor<3x16x8xf32>, %arg2: tensor<3x16x8xf32>) -> tensor<3x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = arith.constant dense<1.250000e-01> : tensor<3x16x16xf32>
  %one = arith.constant 1.000000e+00 : f32
  %multiples = tosa.const_shape {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.transpose %arg1 {perms = array<i32: 0, 2, 1>} : (tensor<3x16x8xf32>) -> tensor<3x8x16xf32>
  %1 = tosa.matmul %arg0, %0, %zp, %zp : (tensor<3x16x8xf32>, tensor<3x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x16x16xf32>
  %2 = arith.mulf %1, %scale : tensor<3x16x16xf32>
  %3 = tosa.reduce_max %2 {axis = 2 : i32} : (tensor<3x16x16xf32>) -> tensor<3x16x1xf32>
  %4 = tosa.tile %3, %multiples : (tensor<3x16x1xf32>, !tosa.shape<3>) -> tensor<3x16x16xf32>
  %5 = arith.subf %2, %4 : tensor<3x16x16xf32>
  %6 = math.exp %5 : tensor<3x16x16xf32>
  %7 = tosa.reduce_sum %6 {axis = 2 : i32} : (tensor<3x16x16xf32>) -> tensor<3x16x1xf32>
  %ones = tensor.splat %one : tensor<3x16x1xf32>
  %8 = arith.divf %ones, %7 : tensor<3x16x1xf32>
  %9 = tosa.mul %6, %8, %shift : (tensor<3x16x16xf32>, tensor<3x16x1xf32>, tensor<1xi8>) -> tensor<3x16x16xf32>
  %10 = tosa.matmul %9, %arg2, %zp, %zp : (tensor<3x16x16xf32>, tensor<3x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x16x8xf32>
  return %10 : tensor<3x16x8xf32>
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input3(%s1, %c3, %c16, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c3, %c16, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c3, %c16, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<3x16x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<3x16x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<3x16x8xf32>
  %o = call @mlir_attention(%q, %k, %v) : (tensor<3x16x8xf32>, tensor<3x16x8xf32>, tensor<3x16x8xf32>) -> tensor<3x16x8xf32>
  %u = tensor.cast %o : tensor<3x16x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
