// A decode step with a KV cache update: the new token's K and V are
// written into the caches at position %len (tensor.insert_slice), and the
// query attends to the first %len + 1 entries (tensor.extract_slice of a
// dynamic size). Raising finds fa.attention with a dynamic key length; the
// updated caches are returned beside the output. Both runs (raised and
// not) agree to f32 rounding.

#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @decode(%q: tensor<1x4x1x8xf32>, %knew: tensor<1x4x1x8xf32>,
                  %vnew: tensor<1x4x1x8xf32>, %kcache: tensor<1x4x64x8xf32>,
                  %vcache: tensor<1x4x64x8xf32>, %len: index)
    -> (tensor<1x4x1x8xf32>, tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.35355339059327379 : f32
  %c1 = arith.constant 1 : index
  // The cache update, then the visible prefix of each cache.
  %kc = tensor.insert_slice %knew into %kcache[0, 0, %len, 0] [1, 4, 1, 8] [1, 1, 1, 1]
      : tensor<1x4x1x8xf32> into tensor<1x4x64x8xf32>
  %vc = tensor.insert_slice %vnew into %vcache[0, 0, %len, 0] [1, 4, 1, 8] [1, 1, 1, 1]
      : tensor<1x4x1x8xf32> into tensor<1x4x64x8xf32>
  %n = arith.addi %len, %c1 : index
  %k = tensor.extract_slice %kc[0, 0, 0, 0] [1, 4, %n, 8] [1, 1, 1, 1]
      : tensor<1x4x64x8xf32> to tensor<1x4x?x8xf32>
  %v = tensor.extract_slice %vc[0, 0, 0, 0] [1, 4, %n, 8] [1, 1, 1, 1]
      : tensor<1x4x64x8xf32> to tensor<1x4x?x8xf32>
  %e0 = tensor.empty(%n) : tensor<1x4x1x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x4x1x?xf32>) -> tensor<1x4x1x?xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x4x1x8xf32>, tensor<1x4x?x8xf32>) outs(%z0 : tensor<1x4x1x?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x1x?xf32>
  %x = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x4x1x?xf32>) outs(%e0 : tensor<1x4x1x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %scale : f32
    linalg.yield %m : f32
  } -> tensor<1x4x1x?xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x4x1x?xf32>) outs(%e0 : tensor<1x4x1x?xf32>) -> tensor<1x4x1x?xf32>
  %e1 = tensor.empty() : tensor<1x4x1x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x8xf32>) -> tensor<1x4x1x8xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x4x1x?xf32>, tensor<1x4x?x8xf32>) outs(%z1 : tensor<1x4x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x1x8xf32>
  return %o, %kc, %vc : tensor<1x4x1x8xf32>, tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32>
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
  %s4 = arith.constant 4.0 : f32
  %s5 = arith.constant 5.0 : f32
  %len = arith.constant 40 : index
  %et = tensor.empty() : tensor<1x4x1x8xf32>
  %ec = tensor.empty() : tensor<1x4x64x8xf32>
  %td = tensor.cast %et : tensor<1x4x1x8xf32> to tensor<?x?x?x?xf32>
  %cd = tensor.cast %ec : tensor<1x4x64x8xf32> to tensor<?x?x?x?xf32>
  %q0 = call @fill(%td, %s1) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %kn0 = call @fill(%td, %s2) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %vn0 = call @fill(%td, %s3) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %kc0 = call @fill(%cd, %s4) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %vc0 = call @fill(%cd, %s5) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<1x4x1x8xf32>
  %kn = tensor.cast %kn0 : tensor<?x?x?x?xf32> to tensor<1x4x1x8xf32>
  %vn = tensor.cast %vn0 : tensor<?x?x?x?xf32> to tensor<1x4x1x8xf32>
  %kc = tensor.cast %kc0 : tensor<?x?x?x?xf32> to tensor<1x4x64x8xf32>
  %vc = tensor.cast %vc0 : tensor<?x?x?x?xf32> to tensor<1x4x64x8xf32>
  %o, %k1, %v1 = call @decode(%q, %kn, %vn, %kc, %vc, %len) : (tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>, tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32>, index) -> (tensor<1x4x1x8xf32>, tensor<1x4x64x8xf32>, tensor<1x4x64x8xf32>)
  %u = tensor.cast %o : tensor<1x4x1x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  // Row 40 of the updated K cache is the new token's K.
  %row = tensor.extract_slice %k1[0, 0, 40, 0] [1, 4, 1, 8] [1, 1, 1, 1] : tensor<1x4x64x8xf32> to tensor<1x4x1x8xf32>
  %r = tensor.cast %row : tensor<1x4x1x8xf32> to tensor<*xf32>
  call @printMemrefF32(%r) : (tensor<*xf32>) -> ()
  return
}
