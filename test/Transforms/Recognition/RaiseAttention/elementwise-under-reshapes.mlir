// fa-normalize-frontend computes elementwise ops on an expanded view of a
// tensor that is collapsed back on the collapsed shape: the chain reads the
// tensor itself, every other operand is broadcast to the view and collapsed
// alike (ElementwiseUnderReshapes). Numbers: Integration/raise-expanded-view-biases.mlir.
// RUN: fa-opt %s --fa-normalize-frontend | FileCheck %s

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id5 = affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>
#h5 = affine_map<(a, b, c, d, e) -> (a, b, c, d)>

// Two terms on the [B, qh, qw, kh, kw] view (SAM): each add reads the
// collapsed scores and its term broadcast to the view and collapsed.
// CHECK-LABEL: func.func @terms_on_view
// CHECK-SAME: (%[[S:[^:]*]]: tensor<2x4x4xf32>, %[[RH:[^:]*]]: tensor<2x2x2x2xf32>
// CHECK-NOT: tensor.expand_shape %[[S]]
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[RH]] : tensor<2x2x2x2xf32>) outs({{.*}} : tensor<2x2x2x2x2xf32>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[B]] {{\[\[}}0], [1, 2], [3, 4]]
// CHECK: %[[H:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[C]] : tensor<2x4x4xf32>, tensor<2x4x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[H]], %{{.*}} : tensor<2x4x4xf32>, tensor<2x4x4xf32>)
// CHECK: math.exp
func.func @terms_on_view(%s: tensor<2x4x4xf32>, %rh: tensor<2x2x2x2xf32>, %rw: tensor<2x2x2x2xf32>) -> tensor<2x4x4xf32> {
  %s5 = tensor.expand_shape %s [[0], [1, 2], [3, 4]] output_shape [2, 2, 2, 2, 2] : tensor<2x4x4xf32> into tensor<2x2x2x2x2xf32>
  %e5 = tensor.empty() : tensor<2x2x2x2x2xf32>
  %h = linalg.generic {indexing_maps = [#id5, #h5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%s5, %rh : tensor<2x2x2x2x2xf32>, tensor<2x2x2x2xf32>) outs(%e5 : tensor<2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x2x2x2xf32>
  %hw = linalg.generic {indexing_maps = [#id5, affine_map<(a, b, c, d, e) -> (a, b, c, e)>, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%h, %rw : tensor<2x2x2x2x2xf32>, tensor<2x2x2x2xf32>) outs(%e5 : tensor<2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x2x2x2xf32>
  %c = tensor.collapse_shape %hw [[0], [1, 2], [3, 4]] : tensor<2x2x2x2x2xf32> into tensor<2x4x4xf32>
  %e = tensor.empty() : tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x4xf32>
  return %x : tensor<2x4x4xf32>
}

// The batch split into [B, H] around a shift by the row max (torch-mlir's
// 4-D softmax between 3-D matmuls): the max is computed from the view, so
// the subtraction is left on it (materializing the max would spell a
// reduction as a copy).
// CHECK-LABEL: func.func @shift_on_split_batch
// CHECK: tensor.expand_shape
// CHECK: linalg.generic {{.*}} ins({{.*}}, {{.*}} : tensor<2x2x4x4xf32>, tensor<2x2x4xf32>)
// CHECK: tensor.collapse_shape
func.func @shift_on_split_batch(%s: tensor<4x4x4xf32>) -> tensor<4x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 2, 4, 4] : tensor<4x4x4xf32> into tensor<2x2x4x4xf32>
  %er = tensor.empty() : tensor<2x2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  %m = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s4 : tensor<2x2x4x4xf32>) outs(%mi : tensor<2x2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x4xf32>
  %e4 = tensor.empty() : tensor<2x2x4x4xf32>
  %x = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4, %m : tensor<2x2x4x4xf32>, tensor<2x2x4xf32>) outs(%e4 : tensor<2x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x4x4xf32>
  %c = tensor.collapse_shape %x [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
  return %c : tensor<4x4x4xf32>
}

// A body that reads its destination reads it collapsed alike (upstream's
// folding then moves it to the inputs).
// CHECK-LABEL: func.func @destination_read
// CHECK-SAME: (%[[S:[^:]*]]: tensor<2x4xf32>, %[[D:[^:]*]]: tensor<2x2x2xf32>)
// CHECK: %[[DC:.*]] = tensor.collapse_shape %[[D]] {{\[\[}}0], [1, 2]]
// CHECK: linalg.generic {{.*}} ins(%[[S]], %[[DC]] : tensor<2x4xf32>, tensor<2x4xf32>)
func.func @destination_read(%s: tensor<2x4xf32>, %d: tensor<2x2x2xf32>) -> tensor<2x4xf32> {
  %s3 = tensor.expand_shape %s [[0], [1, 2]] output_shape [2, 2, 2] : tensor<2x4xf32> into tensor<2x2x2xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s3 : tensor<2x2x2xf32>) outs(%d : tensor<2x2x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.addf %a, %o : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x2xf32>
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<2x2x2xf32> into tensor<2x4xf32>
  return %c : tensor<2x4xf32>
}
