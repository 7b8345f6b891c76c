// A sink slice under P's batch reshape is found by the walk from P·V
// (test/Integration/Modifiers/raise-sinks.mlir, @sinks_under_reshape, has
// the positive and its numbers). Near miss: the sink column is indexed by
// the merged [B·H] dim, so it differs between the op's batches B as well as
// its heads H; fa.attention's sinks are one logit per head (gpt-oss's
// per-query-head sinks over a [Hkv, G] split, read as [B, H] = [Hkv, G]).
// RUN: fa-opt %s --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// CHECK-LABEL: func.func @sink_per_batch_and_head
// CHECK-NOT: fa.attention
// CHECK: return

func.func @sink_per_batch_and_head(%q: tensor<4x8x8xf32>, %k: tensor<4x8x8xf32>, %v: tensor<4x8x8xf32>, %sinks: tensor<4xf32>) -> tensor<4x8x8xf32> {
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
  // expected-remark @+1 {{attention not raised: the sink column varies along [batch0]; fa.attention's sinks hold one logit per head}}
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<2x2x8x9xf32>) outs(%e2 : tensor<2x2x8x9xf32>) -> tensor<2x2x8x9xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x9xf32> to tensor<2x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x8x8xf32> into tensor<4x8x8xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%z0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %o : tensor<4x8x8xf32>
}
