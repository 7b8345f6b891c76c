// Linear attention whose Q and K are views of [B, H, N, D] tensors merged
// to [B·H, N, D] (as torch-mlir lowers a 4-D matmul): the operands are the
// merged views, read as they are; the reshapes in the weights' chain are
// not the operands' (a walk that went on reading Q through the chain's
// batch reshapes would see [B, H] parts where the product has one dim).
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s
// CHECK-NOT: remark
// CHECK-LABEL: func.func @collapsed_heads
// CHECK: fa.linear_attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.000000e+00 causal : tensor<1x2x16x4xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
#q = affine_map<(b, i, j, d) -> (b, i, d)>
#k = affine_map<(b, i, j, d) -> (b, j, d)>
#sc = affine_map<(b, i, j, d) -> (b, i, j)>
#ids = affine_map<(b, i, j) -> (b, i, j)>
#ij = affine_map<(b, i, j) -> (i, j)>
#w = affine_map<(b, i, e, j) -> (b, i, j)>
#v = affine_map<(b, i, e, j) -> (b, j, e)>
#o = affine_map<(b, i, e, j) -> (b, i, e)>
func.func @collapsed_heads(%q4: tensor<1x2x16x4xf32>, %k4: tensor<1x2x16x4xf32>, %v: tensor<2x16x4xf32>) -> tensor<2x16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x2x16x4xf32> into tensor<2x16x4xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<1x2x16x4xf32> into tensor<2x16x4xf32>
  %es = tensor.empty() : tensor<2x16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x16x4xf32>, tensor<2x16x4xf32>) outs(%zs : tensor<2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x16x16xf32>
  %em = tensor.empty() : tensor<16x16xf32>
  %tril = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%em : tensor<16x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sge, %i, %j : index
    %f = arith.uitofp %c : i1 to f32
    linalg.yield %f : f32
  } -> tensor<16x16xf32>
  %w = linalg.generic {indexing_maps = [#ids, #ij, #ids], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %tril : tensor<2x16x16xf32>, tensor<16x16xf32>) outs(%es : tensor<2x16x16xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %r = arith.mulf %x, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x16x16xf32>
  %et = tensor.empty() : tensor<2x16x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%et : tensor<2x16x4xf32>) -> tensor<2x16x4xf32>
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %v : tensor<2x16x16xf32>, tensor<2x16x4xf32>) outs(%zo : tensor<2x16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x16x4xf32>
  return %out : tensor<2x16x4xf32>
}
