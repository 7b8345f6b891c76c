// Near miss of the merged grouped heads (raise-merged-grouped-heads.mlir
// has the positive): P·V reads the merged heads [Hkv·G] split as [G, Hkv]
// while Q·Kᵀ merged them as [Hkv, G], so query head k·G + g would be
// weighted by the probabilities of head g·Hkv + k. Not attention of one
// head; left alone with a remark.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s
// CHECK: remark: attention not raised
// CHECK-NOT: fa.attention

#q5 = affine_map<(b, t, k, g, s, d) -> (b, t, k, g, d)>
#k4 = affine_map<(b, t, k, g, s, d) -> (b, s, k, d)>
#s5 = affine_map<(b, t, k, g, s, d) -> (b, t, k, g, s)>
#p5 = affine_map<(b, t, k, g, h, s) -> (b, t, g, k, s)>
#v4 = affine_map<(b, t, k, g, h, s) -> (b, s, k, h)>
#o5 = affine_map<(b, t, k, g, h, s) -> (b, t, k, g, h)>
#id = affine_map<(b, t, n, s) -> (b, t, n, s)>
#row = affine_map<(b, t, n, s) -> (b, t, n)>
#bias = affine_map<(b, t, n, s) -> (n, s)>

func.func @merged_heads_split_other_way(%q: tensor<2x8x4x8xf32>, %k: tensor<2x8x2x8xf32>, %v: tensor<2x8x2x8xf32>, %b: tensor<4x8xf32>) -> tensor<2x8x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.353553385 : f32
  %q5 = tensor.expand_shape %q [[0], [1], [2, 3], [4]] output_shape [2, 8, 2, 2, 8] : tensor<2x8x4x8xf32> into tensor<2x8x2x2x8xf32>
  %es = tensor.empty() : tensor<2x8x2x2x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x2x2x8xf32>) -> tensor<2x8x2x2x8xf32>
  %s5 = linalg.generic {indexing_maps = [#q5, #k4, #s5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q5, %k : tensor<2x8x2x2x8xf32>, tensor<2x8x2x8xf32>) outs(%zs : tensor<2x8x2x2x8xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %m = arith.mulf %a, %c : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x2x2x8xf32>
  %s = tensor.collapse_shape %s5 [[0], [1], [2, 3], [4]] : tensor<2x8x2x2x8xf32> into tensor<2x8x4x8xf32>
  %e = tensor.empty() : tensor<2x8x4x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %b : tensor<2x8x4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<2x8x4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %y = arith.mulf %a, %scale : f32
    %z = arith.addf %y, %c : f32
    linalg.yield %z : f32
  } -> tensor<2x8x4x8xf32>
  %er = tensor.empty() : tensor<2x8x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x8x4x8xf32>) outs(%mi : tensor<2x8x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x8x4xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mx : tensor<2x8x4x8xf32>, tensor<2x8x4xf32>) outs(%e : tensor<2x8x4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %d = arith.subf %a, %c : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x8x4x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x8x4x8xf32>) outs(%si : tensor<2x8x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x8x4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x8x4x8xf32>, tensor<2x8x4xf32>) outs(%e : tensor<2x8x4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %y = arith.divf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x8x4x8xf32>
  %p5 = tensor.expand_shape %p [[0], [1], [2, 3], [4]] output_shape [2, 8, 2, 2, 8] : tensor<2x8x4x8xf32> into tensor<2x8x2x2x8xf32>
  %eo = tensor.empty() : tensor<2x8x2x2x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x2x2x8xf32>) -> tensor<2x8x2x2x8xf32>
  %o5 = linalg.generic {indexing_maps = [#p5, #v4, #o5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p5, %v : tensor<2x8x2x2x8xf32>, tensor<2x8x2x8xf32>) outs(%zo : tensor<2x8x2x2x8xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %m = arith.mulf %a, %c : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x2x2x8xf32>
  %o = tensor.collapse_shape %o5 [[0], [1], [2, 3], [4]] : tensor<2x8x2x2x8xf32> into tensor<2x8x4x8xf32>
  return %o : tensor<2x8x4x8xf32>
}
