// Frontend: IREE. An f16 iree_linalg_ext.attention with a run-time scale
//   operand and an f16 additive mask (what iree-turbine makes of
//   torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask,
//   scale=s) for a cross-attention whose key length differs from the query
//   length and whose V head dim differs from the QK head dim; the scale comes
//   in as an f32 function argument truncated to f16, as in iree-test-suites
//   linalg_ops/attention), lowered by IREE's
//   iree-linalg-ext-convert-attention-to-online-attention and
//   iree-linalg-ext-decompose-attention, then canonicalize + cse, with the
//   whole key range as one tile (no tiling), i.e. what the LLVMCPU path
//   decomposes before vectorization.
// Sources read: iree-org/iree
//   compiler/src/iree/compiler/Dialect/LinalgExt/IR/AggregatedOpInterfaceImpl.cpp
//     (computeQKAndElementwise: scale *= log2(e) and Q is pre-multiplied by it
//      in Q's type; QK matmul into f32; mask add scaled by log2(e);
//      OnlineAttentionOp::decomposeOperation: newMax, norm = exp2(oldMax -
//      newMax), normSum, P = exp2(S - newMax), newSum, P truncated to V's
//      type, acc = norm * acc, acc += P.V),
//   compiler/src/iree/compiler/Dialect/LinalgExt/Transforms/
//     ConvertAttentionToOnlineAttention.cpp (acc = 0, max = -FLT_MAX (finite
//     identity), sum = 0; afterwards out = (1 / sum) * acc truncated to f16),
//   compiler/src/iree/compiler/Dialect/LinalgExt/Transforms/test/
//     decompose_online_attention.mlir; iree-org/iree-test-suites
//     linalg_ops/attention/generated/f16_f16_f16_f16/*.mlir.
//
// Math: Q f16 [2,2,16,16], K f16 [2,2,12,16], V f16 [2,2,12,8],
//   mask f16 [2,16,12] (0 or -65504, broadcast over heads), scale f32 (0.25).
//   c    = f16(f16(scale) * f16(log2 e))
//   S    = sum_e f32(f16(c*Q)) * f32(K)  +  f32(mask) * log2(e)
//   m    = max(-FLT_MAX, max_j S)
//   P    = exp2(S - m);  l = sum_j P  (f32);  acc = f16(P) . V  accumulated in f32
//   O    = f16(acc / l)   -- normalization deferred past P.V
//   = softmax(scale * Q K^T + mask) V, in base 2.  Returns O f16 [2,2,16,8].

func.func @attention(%query: tensor<2x2x16x16xf16>, %key: tensor<2x2x12x16xf16>,
                     %value: tensor<2x2x12x8xf16>, %mask: tensor<2x16x12xf16>,
                     %scale: f32) -> tensor<2x2x16x8xf16> {
  %scale_f16 = arith.truncf %scale : f32 to f16
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 1.44269504 : f16
  %cst_2 = arith.constant 1.44269502 : f32
  %cst_3 = arith.constant 1.000000e+00 : f32
  %result0 = tensor.empty() : tensor<2x2x16x8xf16>
  %0 = tensor.empty() : tensor<2x2x16x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
  %2 = tensor.empty() : tensor<2x2x16xf32>
  %3 = linalg.fill ins(%cst_0 : f32) outs(%2 : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  // scale * log2(e), folded into Q (in Q's f16 type)
  %5 = arith.mulf %scale_f16, %cst_1 : f16
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%5 : f16) outs(%query : tensor<2x2x16x16xf16>) {
  ^bb0(%in: f16, %out: f16):
    %30 = arith.mulf %in, %out : f16
    linalg.yield %30 : f16
  } -> tensor<2x2x16x16xf16>
  // S = Q @ K^T in f32
  %7 = tensor.empty() : tensor<2x2x16x12xf32>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<2x2x16x12xf32>) -> tensor<2x2x16x12xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%6, %key : tensor<2x2x16x16xf16>, tensor<2x2x12x16xf16>) outs(%8 : tensor<2x2x16x12xf32>) {
  ^bb0(%in: f16, %in_4: f16, %out: f32):
    %30 = arith.extf %in : f16 to f32
    %31 = arith.extf %in_4 : f16 to f32
    %32 = arith.mulf %30, %31 : f32
    %33 = arith.addf %32, %out : f32
    linalg.yield %33 : f32
  } -> tensor<2x2x16x12xf32>
  // S += mask * log2(e)
  %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%mask : tensor<2x16x12xf16>) outs(%9 : tensor<2x2x16x12xf32>) {
  ^bb0(%in: f16, %out: f32):
    %30 = arith.extf %in : f16 to f32
    %31 = arith.mulf %30, %cst_2 : f32
    %32 = arith.addf %out, %31 : f32
    linalg.yield %32 : f32
  } -> tensor<2x2x16x12xf32>
  // newMax = max(oldMax, rowMax(S))
  %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%10 : tensor<2x2x16x12xf32>) outs(%3 : tensor<2x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %30 = arith.maximumf %in, %out : f32
    linalg.yield %30 : f32
  } -> tensor<2x2x16xf32>
  // norm = exp2(oldMax - newMax)
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                         affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%11 : tensor<2x2x16xf32>) outs(%3 : tensor<2x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %30 = arith.subf %out, %in : f32
    %31 = math.exp2 %30 : f32
    linalg.yield %31 : f32
  } -> tensor<2x2x16xf32>
  // normSum = norm * oldSum
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                         affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%12 : tensor<2x2x16xf32>) outs(%4 : tensor<2x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %30 = arith.mulf %in, %out : f32
    linalg.yield %30 : f32
  } -> tensor<2x2x16xf32>
  // P = exp2(S - newMax)
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%11 : tensor<2x2x16xf32>) outs(%10 : tensor<2x2x16x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %30 = arith.subf %out, %in : f32
    %31 = math.exp2 %30 : f32
    linalg.yield %31 : f32
  } -> tensor<2x2x16x12xf32>
  // newSum = normSum + rowSum(P)
  %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%14 : tensor<2x2x16x12xf32>) outs(%13 : tensor<2x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %30 = arith.addf %in, %out : f32
    linalg.yield %30 : f32
  } -> tensor<2x2x16xf32>
  // P truncated to V's type
  %16 = tensor.empty() : tensor<2x2x16x12xf16>
  %17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%14 : tensor<2x2x16x12xf32>) outs(%16 : tensor<2x2x16x12xf16>) {
  ^bb0(%in: f32, %out: f16):
    %30 = arith.truncf %in : f32 to f16
    linalg.yield %30 : f16
  } -> tensor<2x2x16x12xf16>
  // newAcc = norm * oldAcc
  %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%12 : tensor<2x2x16xf32>) outs(%1 : tensor<2x2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %30 = arith.mulf %in, %out : f32
    linalg.yield %30 : f32
  } -> tensor<2x2x16x8xf32>
  // newAcc = P @ V + newAcc
  %19 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>,
                                         affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%17, %value : tensor<2x2x16x12xf16>, tensor<2x2x12x8xf16>) outs(%18 : tensor<2x2x16x8xf32>) {
  ^bb0(%in: f16, %in_4: f16, %out: f32):
    %30 = arith.extf %in : f16 to f32
    %31 = arith.extf %in_4 : f16 to f32
    %32 = arith.mulf %30, %31 : f32
    %33 = arith.addf %32, %out : f32
    linalg.yield %33 : f32
  } -> tensor<2x2x16x8xf32>
  // x = (1 / sum) * x, cast to the attention result type
  %20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%15, %19 : tensor<2x2x16xf32>, tensor<2x2x16x8xf32>) outs(%result0 : tensor<2x2x16x8xf16>) {
  ^bb0(%in: f32, %in_4: f32, %out: f16):
    %30 = arith.divf %cst_3, %in : f32
    %31 = arith.mulf %30, %in_4 : f32
    %32 = arith.truncf %31 : f32 to f16
    linalg.yield %32 : f16
  } -> tensor<2x2x16x8xf16>
  return %20 : tensor<2x2x16x8xf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %sq = arith.constant 0.55 : f32
  %sk = arith.constant 1.45 : f32
  %sv = arith.constant 2.05 : f32
  %q0 = call @input4(%sq, %c2, %c2, %c16, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%sk, %c2, %c2, %c12, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%sv, %c2, %c2, %c12, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q1 = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x2x16x16xf32>
  %k1 = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<2x2x12x16xf32>
  %v1 = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<2x2x12x8xf32>
  %e_q = tensor.empty() : tensor<2x2x16x16xf16>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q1 : tensor<2x2x16x16xf32>) outs(%e_q : tensor<2x2x16x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<2x2x16x16xf16>
  %e_k = tensor.empty() : tensor<2x2x12x16xf16>
  %k = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<2x2x12x16xf32>) outs(%e_k : tensor<2x2x12x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<2x2x12x16xf16>
  %e_v = tensor.empty() : tensor<2x2x12x8xf16>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v1 : tensor<2x2x12x8xf32>) outs(%e_v : tensor<2x2x12x8xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<2x2x12x8xf16>
  // f16 padding mask (torch.finfo(float16).min = -65504 on padded keys):
  // batch 0 sees all 12 keys, batch 1 only the first 8.
  %e_m = tensor.empty() : tensor<2x16x12xf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e_m : tensor<2x16x12xf16>) {
  ^bb0(%out: f16):
    %b = linalg.index 0 : index
    %j = linalg.index 2 : index
    %c1 = arith.constant 1 : index
    %is_b1 = arith.cmpi eq, %b, %c1 : index
    %pad = arith.cmpi sge, %j, %c8 : index
    %masked = arith.andi %is_b1, %pad : i1
    %neg = arith.constant -6.550400e+04 : f16
    %zero = arith.constant 0.000000e+00 : f16
    %0 = arith.select %masked, %neg, %zero : f16
    linalg.yield %0 : f16
  } -> tensor<2x16x12xf16>
  %scale = arith.constant 2.500000e-01 : f32
  %o = call @attention(%q, %k, %v, %mask, %scale)
      : (tensor<2x2x16x16xf16>, tensor<2x2x12x16xf16>, tensor<2x2x12x8xf16>, tensor<2x16x12xf16>, f32)
        -> tensor<2x2x16x8xf16>
  %e_o = tensor.empty() : tensor<2x2x16x8xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x2x16x8xf16>) outs(%e_o : tensor<2x2x16x8xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<2x2x16x8xf32>
  %u = tensor.cast %o32 : tensor<2x2x16x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
