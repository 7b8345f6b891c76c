// GPT-2-style causal self-attention in f16, as torch-mlir lowers
// scaled_dot_product_attention(q, k, v, is_causal=True) of a half-precision
// model: [1, 4, 128, 64] heads merged to [4, 128, 64] for batch_matmul,
// scores in f32, the causal mask built from linalg.index comparisons,
// linalg.softmax, P rounded to f16 for the second matmul. Raising finds
// fa.attention with causal = bottom_right (the same as top_left for
// Nq = Nk); for sm_80 and later the GPU kernel multiplies on tensor cores
// (mma.sync m16n8k16, docs/GPU.md).

#id3 = affine_map<(b, i, j) -> (b, i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @gpt2_attention(%q4: tensor<1x4x128x64xf16>, %k4: tensor<1x4x128x64xf16>,
                          %v4: tensor<1x4x128x64xf16>) -> tensor<1x4x128x64xf16> {
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x4x128x64xf16> into tensor<4x128x64xf16>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<1x4x128x64xf16> into tensor<4x128x64xf16>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<1x4x128x64xf16> into tensor<4x128x64xf16>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x128x128xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  // S = Q·Kᵀ, K read through the contraction's map.
  %s = linalg.batch_matmul
      indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>,
                       affine_map<(b, i, j, d) -> (b, j, d)>,
                       affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<4x128x64xf16>, tensor<4x128x64xf16>)
      outs(%zs : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  // 1 / sqrt(64).
  %scaled = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x128x128xf32>) outs(%es : tensor<4x128x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x128x128xf32>
  // keep(i, j) = j <= i, as torch builds the causal mask.
  %em = tensor.empty() : tensor<1x128x128xi1>
  %keep = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%em : tensor<1x128x128xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi sle, %j, %i : index
    linalg.yield %c : i1
  } -> tensor<1x128x128xi1>
  %masked = linalg.generic {indexing_maps = [#id3, affine_map<(b, i, j) -> (0, i, j)>, #id3],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scaled, %keep : tensor<4x128x128xf32>, tensor<1x128x128xi1>) outs(%es : tensor<4x128x128xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %m, %a, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<4x128x128xf32>
  %p = linalg.softmax dimension(2) ins(%masked : tensor<4x128x128xf32>) outs(%es : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %eh = tensor.empty() : tensor<4x128x128xf16>
  %ph = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : tensor<4x128x128xf32>) outs(%eh : tensor<4x128x128xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x128x128xf16>
  %zh = arith.constant 0.0 : f16
  %eo = tensor.empty() : tensor<4x128x64xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<4x128x64xf16>) -> tensor<4x128x64xf16>
  %o = linalg.batch_matmul ins(%ph, %v : tensor<4x128x128xf16>, tensor<4x128x64xf16>)
      outs(%zo : tensor<4x128x64xf16>) -> tensor<4x128x64xf16>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 4, 128, 64]
      : tensor<4x128x64xf16> into tensor<1x4x128x64xf16>
  return %o4 : tensor<1x4x128x64xf16>
}

func.func @fill(%t: tensor<?x?x?x?xf32>, %seed: f32) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
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

func.func @input(%seed: f32) -> tensor<1x4x128x64xf16> {
  %e = tensor.empty() : tensor<1x4x128x64xf32>
  %d = tensor.cast %e : tensor<1x4x128x64xf32> to tensor<?x?x?x?xf32>
  %f = call @fill(%d, %seed) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %s = tensor.cast %f : tensor<?x?x?x?xf32> to tensor<1x4x128x64xf32>
  %h = arith.truncf %s : tensor<1x4x128x64xf32> to tensor<1x4x128x64xf16>
  return %h : tensor<1x4x128x64xf16>
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<1x4x128x64xf16>
  %k = call @input(%s2) : (f32) -> tensor<1x4x128x64xf16>
  %v = call @input(%s3) : (f32) -> tensor<1x4x128x64xf16>
  %o = call @gpt2_attention(%q, %k, %v) : (tensor<1x4x128x64xf16>, tensor<1x4x128x64xf16>, tensor<1x4x128x64xf16>) -> tensor<1x4x128x64xf16>
  %w = arith.extf %o : tensor<1x4x128x64xf16> to tensor<1x4x128x64xf32>
  %u = tensor.cast %w : tensor<1x4x128x64xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
