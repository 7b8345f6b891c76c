// Near miss of attention sinks with grouped queries (raise-sinks-grouped.mlir
// has the positives): a "sink" column that varies along the queries is no
// per-head logit, with a group axis as without one. (Along one of the two
// query-only axes alone it would be: P·V cannot tell the sequence from the
// group, and the reading that takes the sink's axis as the group is the same
// computation. Here it varies along both.)
// RUN: fa-opt %s --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// CHECK-LABEL: func.func @grouped_sink_per_query
// CHECK-NOT: fa.attention
// CHECK: return

#q4 = affine_map<(k, g, t, s, d) -> (k, g, t, d)>
#k3 = affine_map<(k, g, t, s, d) -> (k, s, d)>
#s4 = affine_map<(k, g, t, s, d) -> (k, g, t, s)>
#p4 = affine_map<(k, g, t, e, s) -> (k, g, t, s)>
#v3 = affine_map<(k, g, t, e, s) -> (k, s, e)>
#o4 = affine_map<(k, g, t, e, s) -> (k, g, t, e)>

func.func @grouped_sink_per_query(%q: tensor<2x2x8x8xf32>, %k: tensor<2x8x8xf32>, %v: tensor<2x8x8xf32>, %sinks: tensor<2x8xf32>) -> tensor<2x2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q4, #k3, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x8x8xf32>, tensor<2x8x8xf32>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %ec = tensor.empty() : tensor<2x2x8x1xf32>
  %column = linalg.generic {indexing_maps = [affine_map<(k, g, t, j) -> (g, t)>, affine_map<(k, g, t, j) -> (k, g, t, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sinks : tensor<2x8xf32>) outs(%ec : tensor<2x2x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x8x1xf32>
  %combined = tensor.concat dim(3) %s, %column : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x9xf32>
  %e2 = tensor.empty() : tensor<2x2x8x9xf32>
  // expected-remark @+1 {{attention not raised: the sink column varies along [Nq]; fa.attention's sinks hold one logit per head}}
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<2x2x8x9xf32>) outs(%e2 : tensor<2x2x8x9xf32>) -> tensor<2x2x8x9xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x9xf32> to tensor<2x2x8x8xf32>
  %o = linalg.generic {indexing_maps = [#p4, #v3, #o4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x8x8xf32>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  return %o : tensor<2x2x8x8xf32>
}
