// Scales held in tensors right on Q·Kᵀ (issue 51): a 0-d scale computed
// at run time, or through an exponential whose value depends on the math
// library, is no compile-time constant, but (Q·Kᵀ)·t = (t·Q)·Kᵀ for a t
// constant along the keys: the rewrite multiplies Q by it. (These two were
// near misses before; numbers: test/Integration/raise-algebraic-rules.mlir,
// @per_head_scale and @run_time_scale; near misses:
// algebraic-rules-near-misses.mlir.)
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true 2>&1 | FileCheck %s
// CHECK-NOT: remark
// A 0-d scale computed from a runtime value (the head dim passed in): no
// compile-time constant, but a scale right on Q·Kᵀ, moved onto Q since
// issue 51 (its numbers: test/Integration/raise-algebraic-rules.mlir,
// @run_time_scale).
// CHECK-LABEL: func.func @zero_d_scale_from_argument
// CHECK: linalg.generic {{.*}} ins(%arg0, {{.*}} : tensor<2x8x4xf32>, tensor<1x1x1xf32>)
// CHECK: fa.attention {{.*}} scale = 1.000000e+00
func.func @zero_d_scale_from_argument(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %d: tensor<i64>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %e32 = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%d : tensor<i64>) outs(%e32 : tensor<f32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.sitofp %in : i64 to f32
    %1 = math.sqrt %0 : f32
    linalg.yield %1 : f32
  } -> tensor<f32>
  %scale = tensor.expand_shape %r [] output_shape [1, 1, 1] : tensor<f32> into tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %sub = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %sub : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// A constant scale computed with an exponential: its value depends on the
// math library's rounding, so it is not evaluated at compile time; it is
// a tensor scale right on Q·Kᵀ, moved onto Q (issue 51).
// CHECK-LABEL: func.func @zero_d_scale_through_exp
// CHECK: linalg.generic {{.*}} ins(%arg0, {{.*}} : tensor<2x8x4xf32>, tensor<1x1x1xf32>)
// CHECK: fa.attention {{.*}} scale = 1.000000e+00
func.func @zero_d_scale_through_exp(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = arith.constant dense<-2.0> : tensor<f32>
  %e32 = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%c : tensor<f32>) outs(%e32 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<f32>
  %scale = tensor.expand_shape %r [] output_shape [1, 1, 1] : tensor<f32> into tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %sub = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %sub : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}
