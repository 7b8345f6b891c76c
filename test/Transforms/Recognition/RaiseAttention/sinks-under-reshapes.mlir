// A sink slice under P's batch reshape is found by the walk from P·V
// (test/Integration/Modifiers/raise-sinks.mlir, @sinks_under_reshape, and
// raise-sinks-merged-heads.mlir have the numbers). Where the softmax
// splits the merged [B·H] dim into [Hkv, G] and the sink varies along the
// whole merged dim (gpt-oss's per-query-head sinks), the op takes the
// merged dim as its heads (B = 1). Near miss: a bias that reads only the
// first part ([Hkv]) as well: the op can take neither the split (the sinks
// would vary along its B) nor the merged heads (the bias would need a copy
// per head).
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// CHECK-LABEL: func.func @sink_per_query_head
// CHECK: fa.attention {{.*}} sinks(%{{.*}} : tensor<4xf32>) scale = 1.000000e+00 : tensor<1x4x8x8xf32>
// CHECK-LABEL: func.func @sink_per_query_head_and_batch_bias
// CHECK-NOT: fa.attention
// CHECK: return

func.func @sink_per_query_head(%q: tensor<4x8x8xf32>, %k: tensor<4x8x8xf32>, %v: tensor<4x8x8xf32>, %sinks: tensor<4xf32>) -> tensor<4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s3 = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%z0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xf32> into tensor<2x2x8x8xf32>
  %s4 = tensor.expand_shape %sinks [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %ec = tensor.empty() : tensor<2x2x8x1xf32>
  %column = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4 : tensor<2x2xf32>) outs(%ec : tensor<2x2x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x8x1xf32>
  %combined = tensor.concat dim(3) %s, %column : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x9xf32>
  %e2 = tensor.empty() : tensor<2x2x8x9xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<2x2x8x9xf32>) outs(%e2 : tensor<2x2x8x9xf32>) -> tensor<2x2x8x9xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x9xf32> to tensor<2x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x8x8xf32> into tensor<4x8x8xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%z0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %o : tensor<4x8x8xf32>
}

// -----

func.func @sink_per_query_head_and_batch_bias(%q: tensor<4x8x8xf32>, %k: tensor<4x8x8xf32>, %v: tensor<4x8x8xf32>, %sinks: tensor<4xf32>, %bias: tensor<2x8x8xf32>) -> tensor<4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s3 = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%z0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sx = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xf32> into tensor<2x2x8x8xf32>
  %es = tensor.empty() : tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sx, %bias : tensor<2x2x8x8xf32>, tensor<2x8x8xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %r = arith.addf %a, %bb : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %s4 = tensor.expand_shape %sinks [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %ec = tensor.empty() : tensor<2x2x8x1xf32>
  %column = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4 : tensor<2x2xf32>) outs(%ec : tensor<2x2x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x8x1xf32>
  %combined = tensor.concat dim(3) %s, %column : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x9xf32>
  %e2 = tensor.empty() : tensor<2x2x8x9xf32>
  // expected-remark @+1 {{attention not raised: the sink column varies along [batch0], which the softmax splits into [B, H]; fa.attention's sinks hold one logit per head}}
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<2x2x8x9xf32>) outs(%e2 : tensor<2x2x8x9xf32>) -> tensor<2x2x8x9xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x9xf32> to tensor<2x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x8x8xf32> into tensor<4x8x8xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%z0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %o : tensor<4x8x8xf32>
}
