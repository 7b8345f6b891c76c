// A decode step: one new query (Nq = 1) against a 64-entry KV cache, with
// grouped heads repeated in linalg (expand_shape, a broadcasting generic,
// collapse_shape) and linalg.softmax. Raising finds fa.attention with
// Nq = 1 and Hkv = 2 for Hq = 4; both runs agree to f32 rounding.

#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#id5 = affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>
#repeat = affine_map<(a, b, c, d, e) -> (a, b, 0, d, e)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @decode(%q: tensor<1x4x1x8xf32>, %kc: tensor<1x2x64x8xf32>,
                  %vc: tensor<1x2x64x8xf32>) -> tensor<1x4x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.35355339059327379 : f32
  // repeat_kv on K and V: [1, 2, 64, 8] -> [1, 2, 1, 64, 8] -> [1, 2, 2, 64, 8] -> [1, 4, 64, 8].
  %kx = tensor.expand_shape %kc [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 64, 8]
      : tensor<1x2x64x8xf32> into tensor<1x2x1x64x8xf32>
  %vx = tensor.expand_shape %vc [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 64, 8]
      : tensor<1x2x64x8xf32> into tensor<1x2x1x64x8xf32>
  %e5 = tensor.empty() : tensor<1x2x2x64x8xf32>
  %kb = linalg.generic {indexing_maps = [#repeat, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%kx : tensor<1x2x1x64x8xf32>) outs(%e5 : tensor<1x2x2x64x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x64x8xf32>
  %vb = linalg.generic {indexing_maps = [#repeat, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%vx : tensor<1x2x1x64x8xf32>) outs(%e5 : tensor<1x2x2x64x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x64x8xf32>
  %k = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x2x2x64x8xf32> into tensor<1x4x64x8xf32>
  %v = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x2x2x64x8xf32> into tensor<1x4x64x8xf32>
  %e0 = tensor.empty() : tensor<1x4x1x64xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x4x1x64xf32>) -> tensor<1x4x1x64xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x4x1x8xf32>, tensor<1x4x64x8xf32>) outs(%z0 : tensor<1x4x1x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x1x64xf32>
  %x = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x4x1x64xf32>) outs(%e0 : tensor<1x4x1x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %scale : f32
    linalg.yield %m : f32
  } -> tensor<1x4x1x64xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x4x1x64xf32>) outs(%e0 : tensor<1x4x1x64xf32>) -> tensor<1x4x1x64xf32>
  %e1 = tensor.empty() : tensor<1x4x1x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x8xf32>) -> tensor<1x4x1x8xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x4x1x64xf32>, tensor<1x4x64x8xf32>) outs(%z1 : tensor<1x4x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x1x8xf32>
  return %o : tensor<1x4x1x8xf32>
}

func.func @fill(%t: tensor<?x?x?x?xf32>, %seed: f32) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %b1 = arith.muli %b, %c131 : index
    %c1 = arith.muli %c, %c17 : index
    %s0 = arith.addi %b1, %c1 : index
    %s1 = arith.addi %s0, %d : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    linalg.yield %z : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %eq = tensor.empty() : tensor<1x4x1x8xf32>
  %ek = tensor.empty() : tensor<1x2x64x8xf32>
  %qd = tensor.cast %eq : tensor<1x4x1x8xf32> to tensor<?x?x?x?xf32>
  %kd = tensor.cast %ek : tensor<1x2x64x8xf32> to tensor<?x?x?x?xf32>
  %q0 = call @fill(%qd, %s1) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %k0 = call @fill(%kd, %s2) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %v0 = call @fill(%kd, %s3) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<1x4x1x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<1x2x64x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<1x2x64x8xf32>
  %o = call @decode(%q, %k, %v) : (tensor<1x4x1x8xf32>, tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>) -> tensor<1x4x1x8xf32>
  %u = tensor.cast %o : tensor<1x4x1x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
