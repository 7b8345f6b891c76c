// A BERT-base-style encoder attention block in linalg, as torch-mlir emits
// it (shrunk to B = 2, N = 8, H = 4, D = 4): projections with bias, head
// split (expand_shape + transpose), 4-D contractions, scores divided by
// sqrt(D), the padding mask turned into an additive bias (1 - m) * -10000
// broadcast over heads and query rows, a max/exp/sum/div softmax, P·V, head
// merge and the output projection. Batch 1 pads its last three keys.
//
// Raising finds one fa.attention with the [B, 1, 1, Nk] bias and the exact
// scale 0.5; everything else stays. Both runs must agree to f32 rounding.

#id2 = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(a, b, c) -> (a, b, c)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row4 = affine_map<(b, h, i, j) -> (b, h, i)>
#proj_x = affine_map<(b, n, o, i) -> (b, n, i)>
#proj_w = affine_map<(b, n, o, i) -> (i, o)>
#proj_y = affine_map<(b, n, o, i) -> (b, n, o)>
#bias = affine_map<(b, n, o) -> (o)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @project(%x: tensor<2x8x16xf32>, %w: tensor<16x16xf32>, %b: tensor<16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %y = linalg.generic {indexing_maps = [#proj_x, #proj_w, #proj_y],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id3, #bias, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y, %b : tensor<2x8x16xf32>, tensor<16xf32>) outs(%e : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x8x16xf32>
  return %r : tensor<2x8x16xf32>
}

func.func @split_heads(%x: tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32> {
  %x4 = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<2x8x16xf32> into tensor<2x8x4x4xf32>
  %e = tensor.empty() : tensor<2x4x8x4xf32>
  %t = linalg.transpose ins(%x4 : tensor<2x8x4x4xf32>) outs(%e : tensor<2x4x8x4xf32>) permutation = [0, 2, 1, 3]
  return %t : tensor<2x4x8x4xf32>
}

func.func @bert_attention(%x: tensor<2x8x16xf32>, %pad: tensor<2x8xi1>,
    %wq: tensor<16x16xf32>, %bq: tensor<16xf32>, %wk: tensor<16x16xf32>, %bk: tensor<16xf32>,
    %wv: tensor<16x16xf32>, %bv: tensor<16xf32>, %wo: tensor<16x16xf32>, %bo: tensor<16xf32>)
    -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %big = arith.constant -10000.0 : f32
  %sqrtd = arith.constant 2.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %qp = call @project(%x, %wq, %bq) : (tensor<2x8x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
  %kp = call @project(%x, %wk, %bk) : (tensor<2x8x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
  %vp = call @project(%x, %wv, %bv) : (tensor<2x8x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
  %q = call @split_heads(%qp) : (tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32>
  %k = call @split_heads(%kp) : (tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32>
  %v = call @split_heads(%vp) : (tensor<2x8x16xf32>) -> tensor<2x4x8x4xf32>

  // extended_attention_mask = (1 - mask) * -10000
  %em = tensor.empty() : tensor<2x8xf32>
  %ext = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%pad : tensor<2x8xi1>) outs(%em : tensor<2x8xf32>) {
  ^bb0(%m: i1, %o: f32):
    %f = arith.uitofp %m : i1 to f32
    %inv = arith.subf %one, %f : f32
    %b = arith.mulf %inv, %big : f32
    linalg.yield %b : f32
  } -> tensor<2x8xf32>

  %es = tensor.empty() : tensor<2x4x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>) outs(%zs : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %x1 = linalg.generic {indexing_maps = [#id4, affine_map<(b, h, i, j) -> (b, j)>, #id4],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %ext : tensor<2x4x8x8xf32>, tensor<2x8xf32>) outs(%es : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.divf %a, %sqrtd : f32
    %r = arith.addf %d, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  %er = tensor.empty() : tensor<2x4x8xf32>
  %mi = linalg.fill ins(%neginf : f32) outs(%er : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %max = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x1 : tensor<2x4x8x8xf32>) outs(%mi : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x4x8xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x1, %max : tensor<2x4x8x8xf32>, tensor<2x4x8xf32>) outs(%es : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x4x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x4x8x8xf32>) outs(%si : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.addf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x4x8xf32>
  %p = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x8x8xf32>, tensor<2x4x8xf32>) outs(%es : tensor<2x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<2x4x8x8xf32>
  %eo = tensor.empty() : tensor<2x4x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x8x4xf32>) -> tensor<2x4x8x4xf32>
  %ctx = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x8x8xf32>, tensor<2x4x8x4xf32>) outs(%zo : tensor<2x4x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x4xf32>

  // Merge heads, output projection.
  %et = tensor.empty() : tensor<2x8x4x4xf32>
  %ct = linalg.transpose ins(%ctx : tensor<2x4x8x4xf32>) outs(%et : tensor<2x8x4x4xf32>) permutation = [0, 2, 1, 3]
  %merged = tensor.collapse_shape %ct [[0], [1], [2, 3]] : tensor<2x8x4x4xf32> into tensor<2x8x16xf32>
  %y = call @project(%merged, %wo, %bo) : (tensor<2x8x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
  return %y : tensor<2x8x16xf32>
}

func.func @fill(%t: tensor<?x?xf32>, %seed: f32) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%t : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c17 : index
    %s0 = arith.addi %a1, %b : index
    %i = arith.index_cast %s0 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %h = arith.constant 0.5 : f32
    %w = arith.mulf %z, %h : f32
    linalg.yield %w : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @weight(%seed: f32) -> tensor<16x16xf32> {
  %e = tensor.empty() : tensor<16x16xf32>
  %d = tensor.cast %e : tensor<16x16xf32> to tensor<?x?xf32>
  %r = call @fill(%d, %seed) : (tensor<?x?xf32>, f32) -> tensor<?x?xf32>
  %s = tensor.cast %r : tensor<?x?xf32> to tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}

func.func @vector(%seed: f32) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<1x16xf32>
  %d = tensor.cast %e : tensor<1x16xf32> to tensor<?x?xf32>
  %r = call @fill(%d, %seed) : (tensor<?x?xf32>, f32) -> tensor<?x?xf32>
  %s = tensor.cast %r : tensor<?x?xf32> to tensor<1x16xf32>
  %v = tensor.collapse_shape %s [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
  return %v : tensor<16xf32>
}

func.func @main() {
  %s = arith.constant 0.5 : f32
  %w0 = call @weight(%s) : (f32) -> tensor<16x16xf32>
  %xs = tensor.extract_slice %w0[0, 0] [16, 16] [1, 1] : tensor<16x16xf32> to tensor<16x16xf32>
  %x = tensor.expand_shape %xs [[0, 1], [2]] output_shape [2, 8, 16] : tensor<16x16xf32> into tensor<2x8x16xf32>
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %wq = call @weight(%s1) : (f32) -> tensor<16x16xf32>
  %wk = call @weight(%s2) : (f32) -> tensor<16x16xf32>
  %wv = call @weight(%s3) : (f32) -> tensor<16x16xf32>
  %wo = call @weight(%s4) : (f32) -> tensor<16x16xf32>
  %bq = call @vector(%s1) : (f32) -> tensor<16xf32>
  %bk = call @vector(%s2) : (f32) -> tensor<16xf32>
  %bv = call @vector(%s3) : (f32) -> tensor<16xf32>
  %bo = call @vector(%s4) : (f32) -> tensor<16xf32>
  %pad = arith.constant dense<[[true, true, true, true, true, true, true, true],
                               [true, true, true, true, true, false, false, false]]> : tensor<2x8xi1>
  %y = call @bert_attention(%x, %pad, %wq, %bq, %wk, %bk, %wv, %bv, %wo, %bo)
      : (tensor<2x8x16xf32>, tensor<2x8xi1>, tensor<16x16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16xf32>,
         tensor<16x16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
  %u = tensor.cast %y : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
