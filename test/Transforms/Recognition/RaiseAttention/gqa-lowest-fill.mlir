// Found by the differential test: with GQA and a lowest-value fill, a row
// with no visible key must average V of the query head's own K/V head
// (h floordiv 2 here), as the frontend's repeated V does. The whole old
// pattern is erased, linalg.softmax included.
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s
// CHECK-DAG: #[[KV_HEAD:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 2, d3)>
// CHECK-LABEL: func.func @gqa_lowest_fill
// CHECK-NOT: linalg.broadcast
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.softmax
// CHECK: %[[O:.*]], %[[LSE:.*]] = fa.attention
// CHECK-SAME: tensor<1x2x4x8xf32>, tensor<1x2x4xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[KV_HEAD]], #{{.*}}, #{{.*}}]
// CHECK-SAME: ins(%[[O]], %[[LSE]]
func.func @gqa_lowest_fill(%q: tensor<2x4x8xf32>, %k: tensor<1x4x8xf32>, %v: tensor<1x4x8xf32>,
                           %m: tensor<2x4x4xi1>) -> tensor<2x4x8xf32> {
  %ek = tensor.empty() : tensor<1x2x4x8xf32>
  %bk = linalg.broadcast ins(%k : tensor<1x4x8xf32>) outs(%ek : tensor<1x2x4x8xf32>) dimensions = [1]
  %k2 = tensor.collapse_shape %bk [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %ev = tensor.empty() : tensor<1x2x4x8xf32>
  %bv = linalg.broadcast ins(%v : tensor<1x4x8xf32>) outs(%ev : tensor<1x2x4x8xf32>) dimensions = [1]
  %v2 = tensor.collapse_shape %bv [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k2 : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %em = tensor.empty() : tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x4x4xf32>, tensor<2x4x4xi1>) outs(%em : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %keep: i1, %o: f32):
    %lowest = arith.constant -3.40282347E+38 : f32
    %y = arith.select %keep, %a, %lowest : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %ep = tensor.empty() : tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%ep : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %eo = tensor.empty() : tensor<2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%p, %v2 : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%zo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}
