// fa-normalize-frontend: in a function that computes an exponential, the
// private helpers are inlined and the static unit dims of linalg ops are
// dropped (upstream's unit-extent folding); a function without one is left
// exactly as it is. The raising of what this makes matchable is checked by
// numbers in test/HeldOut (a07's [1, H, 2] batch merged after the softmax)
// and through fa-cpu-pipeline, which runs this pass first.
// RUN: fa-opt %s --fa-normalize-frontend | FileCheck %s

#id5 = affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>

// CHECK-NOT: @exponential_helper
// CHECK-LABEL: func.func private @halve
// CHECK-LABEL: func.func @with_exponential
// CHECK-NOT: call
// CHECK: tensor.collapse_shape {{.*}} into tensor<2x2x8x8xf32>
// CHECK: linalg.generic {{.*}} ins({{.*}} : tensor<2x2x8x8xf32>) outs({{.*}} : tensor<2x2x8x8xf32>)
// CHECK: math.exp
// CHECK-NOT: call
// CHECK-LABEL: func.func @without_exponential
// CHECK: call @halve
// CHECK: linalg.generic {{.*}} ins({{.*}} : tensor<1x2x2x8x8xf32>)
func.func private @exponential_helper(%x: tensor<1x2x2x8x8xf32>) -> tensor<1x2x2x8x8xf32> {
  %e = tensor.empty() : tensor<1x2x2x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x2x8x8xf32>) outs(%e : tensor<1x2x2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x8x8xf32>
  return %r : tensor<1x2x2x8x8xf32>
}
func.func private @halve(%x: tensor<1x2x2x8x8xf32>) -> tensor<1x2x2x8x8xf32> {
  %c = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<1x2x2x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x2x8x8xf32>) outs(%e : tensor<1x2x2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.mulf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x8x8xf32>
  return %r : tensor<1x2x2x8x8xf32>
}
func.func @with_exponential(%x: tensor<1x2x2x8x8xf32>) -> tensor<1x2x2x8x8xf32> {
  %r = func.call @exponential_helper(%x) : (tensor<1x2x2x8x8xf32>) -> tensor<1x2x2x8x8xf32>
  return %r : tensor<1x2x2x8x8xf32>
}
func.func @without_exponential(%x: tensor<1x2x2x8x8xf32>) -> tensor<1x2x2x8x8xf32> {
  %h = func.call @halve(%x) : (tensor<1x2x2x8x8xf32>) -> tensor<1x2x2x8x8xf32>
  %e = tensor.empty() : tensor<1x2x2x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<1x2x2x8x8xf32>) outs(%e : tensor<1x2x2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.addf %a, %a : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x8x8xf32>
  return %r : tensor<1x2x2x8x8xf32>
}
