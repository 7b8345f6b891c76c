// A whole TOSA function, written the way a frontend emits it (attention over
// [B*H, N, D] plus a residual add), goes through fa-cpu-pipeline and runs. It
// computes the worked example (docs/Sources.md §1) plus the residual Q, so row 0
// is [0.830, 1.170] + [1, 0]. A second function states the same attention as
// fa.attention, so that both spellings are lowered in one module.
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>)

func.func @tosa_block(%q: tensor<1x4x2xf32>, %k: tensor<1x4x2xf32>,
                      %v: tensor<1x4x2xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.70710678118654757> : tensor<1x1x1xf32>}>
      : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<1x4x2xf32>) -> tensor<1x2x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp
      : (tensor<1x4x2xf32>, tensor<1x2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %scaled = tosa.mul %s, %scale, %shift
      : (tensor<1x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
  %max = tosa.reduce_max %scaled {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  %shifted = tosa.sub %scaled, %max : (tensor<1x4x4xf32>, tensor<1x4x1xf32>) -> tensor<1x4x4xf32>
  %e = tosa.exp %shifted : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %p = tosa.mul %e, %inv, %shift
      : (tensor<1x4x4xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp
      : (tensor<1x4x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  %residual = tosa.add %o, %q : (tensor<1x4x2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  return %residual : tensor<1x4x2xf32>
}

func.func @fa_block(%q: tensor<1x1x4x2xf32>, %k: tensor<1x1x4x2xf32>,
                    %v: tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32> {
  %o = fa.attention %q, %k, %v scale = 0.70710678118654757
      : tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>
      -> tensor<1x1x4x2xf32>
  return %o : tensor<1x1x4x2xf32>
}

func.func @main() {
  %qk = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]]>
      : tensor<1x4x2xf32>
  %v = arith.constant dense<[[[1.0, 1.0], [2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]]>
      : tensor<1x4x2xf32>

  // CHECK-LABEL: sizes = [1, 4, 2]
  // CHECK-NEXT: [1.830{{[0-9]*}}, 1.169{{[0-9]*}}]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [1.772{{[0-9]*}}, 2.227{{[0-9]*}}]
  // CHECK-NEXT: [1, 1]
  %r = call @tosa_block(%qk, %qk, %v)
      : (tensor<1x4x2xf32>, tensor<1x4x2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %pr = tensor.cast %r : tensor<1x4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pr) : (tensor<*xf32>) -> ()

  // CHECK-LABEL: sizes = [1, 1, 4, 2]
  // CHECK-NEXT: [0.830{{[0-9]*}}, 1.169{{[0-9]*}}]
  %qk4 = tensor.expand_shape %qk [[0, 1], [2], [3]] output_shape [1, 1, 4, 2]
      : tensor<1x4x2xf32> into tensor<1x1x4x2xf32>
  %v4 = tensor.expand_shape %v [[0, 1], [2], [3]] output_shape [1, 1, 4, 2]
      : tensor<1x4x2xf32> into tensor<1x1x4x2xf32>
  %o = call @fa_block(%qk4, %qk4, %v4)
      : (tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32>
  %po = tensor.cast %o : tensor<1x1x4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%po) : (tensor<*xf32>) -> ()
  return
}
