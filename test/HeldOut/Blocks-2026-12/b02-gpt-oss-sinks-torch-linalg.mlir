// Held-out block b02: gpt-oss attention with learned sinks and a sliding window
// (openai/gpt-oss gpt_oss/torch/model.py, `sdpa(Q, K, V, S, sm_scale,
// sliding_window)` as called by AttentionBlock.forward on an even layer),
// exported with torch.export (torch.einsum traced into permute / view / bmm,
// torch.triu / torch.tril / new_full kept as ops) and lowered by torch-mlir's
// linalg-on-tensors backend (TorchToLinalg + DecomposeComplexOps, canonicalized).
//
// What torch-mlir turns into linalg here:
//  - K[:, :, None, :].expand(-1, -1, q_mult, -1) (same for V): broadcast linalg.generic;
//  - S.reshape(n_heads, q_mult, 1, 1).expand(-1, -1, n_tokens, -1): expand_shape + broadcast;
//  - mask = triu(new_full((T, T), -inf), diagonal=1) + tril(new_full((T, T), -inf),
//    diagonal=-sliding_window): linalg.fill + generics comparing linalg.index values
//    (TorchToLinalg createTriangularMatrix), then an add;
//  - einsum("qhmd,khmd->hmqk") as linalg.transpose + collapse_shape + linalg.batch_matmul
//    (bf16 operands, f32 accumulator, truncf back to bf16);
//  - QK *= sm_scale; QK += mask[None, None]; torch.cat([QK, S], dim=-1) as tensor.concat;
//  - torch.softmax on bf16 computed in f32 (DecomposeAten_SoftmaxOp accumulator type):
//    extf, aten.max.dim as a two-result generic (value and unused argmax index),
//    sub, exp, sum, div, truncf;
//  - W[..., :-1] as tensor.extract_slice dropping the sink column;
//  - einsum("hmqk,khmd->qhmd") as transpose + batch_matmul + transpose; reshape(T, -1).
//
// Math (T=8 tokens, Hkv=2 kv heads, G=q_mult=2 query heads per kv head, D=8, bf16):
//   Q: [T, Hkv, G, D], K, V: [T, Hkv, D], S (sinks): [Hkv*G]
//   L[h,m,q,k] = bf16(Q[q,h,m,:].K[k,h,:]) * bf16(1/sqrt(8)) + mask[q,k],
//   mask[q,k] = -inf unless q-3 <= k <= q (causal, sliding window 4)
//   W = softmax_k([L[h,m,q,:], S[h*G+m]]) with the sink column dropped after the softmax
//   O[q,h,m,:] = W[h,m,q,:] . V[:,h,:];  returns O reshaped to [T, Hkv*G*D] (bf16).

func.func @sdpa(%Q: tensor<8x2x2x8xbf16>, %K: tensor<8x2x8xbf16>, %V: tensor<8x2x8xbf16>,
                %S: tensor<4xbf16>) -> tensor<8x32xbf16> {
  %cst_ninf = arith.constant 0xFF80 : bf16
  %cst_zero_bf16 = arith.constant 0.000000e+00 : bf16
  %cst_zero = arith.constant 0.000000e+00 : f32
  %cst_ninf_f32 = arith.constant 0xFF800000 : f32
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %cm4_i64 = arith.constant -4 : i64
  %sm_scale = arith.constant 3.535160e-01 : bf16

  // K = K[:, :, None, :].expand(-1, -1, q_mult, -1); V likewise
  %e0 = tensor.empty() : tensor<8x2x2x8xbf16>
  %Kx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%K : tensor<8x2x8xbf16>) outs(%e0 : tensor<8x2x2x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<8x2x2x8xbf16>
  %Vx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%V : tensor<8x2x8xbf16>) outs(%e0 : tensor<8x2x2x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<8x2x2x8xbf16>

  // S = S.reshape(n_heads, q_mult, 1, 1).expand(-1, -1, n_tokens, -1)
  %S4 = tensor.expand_shape %S [[0, 1, 2, 3]] output_shape [2, 2, 1, 1] : tensor<4xbf16> into tensor<2x2x1x1xbf16>
  %e1 = tensor.empty() : tensor<2x2x8x1xbf16>
  %Sx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%S4 : tensor<2x2x1x1xbf16>) outs(%e1 : tensor<2x2x8x1xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<2x2x8x1xbf16>

  // mask = torch.triu(Q.new_full((T, T), -inf), diagonal=1)
  %e2 = tensor.empty() : tensor<8x8xbf16>
  %full = linalg.fill ins(%cst_ninf : bf16) outs(%e2 : tensor<8x8xbf16>) -> tensor<8x8xbf16>
  %triu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%full : tensor<8x8xbf16>) outs(%e2 : tensor<8x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %r = linalg.index 0 : index
    %ri = arith.index_cast %r : index to i64
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i64
    %lim = arith.addi %ri, %c1_i64 : i64
    %keep = arith.cmpi sge, %ci, %lim : i64
    %v = arith.select %keep, %in, %cst_zero_bf16 : bf16
    linalg.yield %v : bf16
  } -> tensor<8x8xbf16>
  // mask += torch.tril(mask.new_full((T, T), -inf), diagonal=-sliding_window)
  %tril = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%full : tensor<8x8xbf16>) outs(%e2 : tensor<8x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %r = linalg.index 0 : index
    %ri = arith.index_cast %r : index to i64
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i64
    %lim = arith.addi %ri, %cm4_i64 : i64
    %keep = arith.cmpi sle, %ci, %lim : i64
    %v = arith.select %keep, %in, %cst_zero_bf16 : bf16
    linalg.yield %v : bf16
  } -> tensor<8x8xbf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                           affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%triu, %tril : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%e2 : tensor<8x8xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %out: bf16):
    %v = arith.addf %a, %b : bf16
    linalg.yield %v : bf16
  } -> tensor<8x8xbf16>

  // QK = torch.einsum("qhmd,khmd->hmqk", Q, K)
  %e3 = tensor.empty() : tensor<2x2x8x8xbf16>
  %Qp = linalg.transpose ins(%Q : tensor<8x2x2x8xbf16>) outs(%e3 : tensor<2x2x8x8xbf16>) permutation = [1, 2, 0, 3]
  %Kp = linalg.transpose ins(%Kx : tensor<8x2x2x8xbf16>) outs(%e3 : tensor<2x2x8x8xbf16>) permutation = [1, 2, 3, 0]
  %Q3 = tensor.collapse_shape %Qp [[0, 1], [2], [3]] : tensor<2x2x8x8xbf16> into tensor<4x8x8xbf16>
  %K3 = tensor.collapse_shape %Kp [[0, 1], [2], [3]] : tensor<2x2x8x8xbf16> into tensor<4x8x8xbf16>
  %e4 = tensor.empty() : tensor<4x8x8xf32>
  %acc0 = linalg.fill ins(%cst_zero : f32) outs(%e4 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %qk32 = linalg.batch_matmul ins(%Q3, %K3 : tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) outs(%acc0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %e5 = tensor.empty() : tensor<4x8x8xbf16>
  %qk3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk32 : tensor<4x8x8xf32>) outs(%e5 : tensor<4x8x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x8x8xbf16>
  %qk = tensor.expand_shape %qk3 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xbf16> into tensor<2x2x8x8xbf16>

  // QK *= sm_scale; QK += mask[None, None, :, :]
  %qks = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk : tensor<2x2x8x8xbf16>) outs(%e3 : tensor<2x2x8x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %v = arith.mulf %in, %sm_scale : bf16
    linalg.yield %v : bf16
  } -> tensor<2x2x8x8xbf16>
  %mask4 = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 8, 8] : tensor<8x8xbf16> into tensor<1x1x8x8xbf16>
  %qkm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qks, %mask4 : tensor<2x2x8x8xbf16>, tensor<1x1x8x8xbf16>) outs(%e3 : tensor<2x2x8x8xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %out: bf16):
    %v = arith.addf %a, %b : bf16
    linalg.yield %v : bf16
  } -> tensor<2x2x8x8xbf16>

  // QK = torch.cat([QK, S], dim=-1)
  %cat = tensor.concat dim(3) %qkm, %Sx : (tensor<2x2x8x8xbf16>, tensor<2x2x8x1xbf16>) -> tensor<2x2x8x9xbf16>

  // W = torch.softmax(QK, dim=-1)   (computed in f32)
  %e6 = tensor.empty() : tensor<2x2x8x9xf32>
  %x32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cat : tensor<2x2x8x9xbf16>) outs(%e6 : tensor<2x2x8x9xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %v = arith.extf %in : bf16 to f32
    linalg.yield %v : f32
  } -> tensor<2x2x8x9xf32>
  %e7 = tensor.empty() : tensor<2x2x8xi64>
  %idx0 = linalg.fill ins(%c0_i64 : i64) outs(%e7 : tensor<2x2x8xi64>) -> tensor<2x2x8xi64>
  %e8 = tensor.empty() : tensor<2x2x8xf32>
  %max0 = linalg.fill ins(%cst_ninf_f32 : f32) outs(%e8 : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %mx:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                          iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x32 : tensor<2x2x8x9xf32>) outs(%max0, %idx0 : tensor<2x2x8xf32>, tensor<2x2x8xi64>) {
  ^bb0(%in: f32, %acc: f32, %acci: i64):
    %i = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %acc : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %ni = arith.select %gt, %ii, %acci : i64
    linalg.yield %m, %ni : f32, i64
  } -> (tensor<2x2x8xf32>, tensor<2x2x8xi64>)
  %mx4 = tensor.expand_shape %mx#0 [[0], [1], [2, 3]] output_shape [2, 2, 8, 1] : tensor<2x2x8xf32> into tensor<2x2x8x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x32, %mx4 : tensor<2x2x8x9xf32>, tensor<2x2x8x1xf32>) outs(%e6 : tensor<2x2x8x9xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x2x8x9xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sub : tensor<2x2x8x9xf32>) outs(%e6 : tensor<2x2x8x9xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<2x2x8x9xf32>
  %e9 = tensor.empty() : tensor<2x2x8x1xf32>
  %sum0 = linalg.fill ins(%cst_zero : f32) outs(%e9 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<2x2x8x9xf32>) outs(%sum0 : tensor<2x2x8x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<2x2x8x1xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x2x8x9xf32>, tensor<2x2x8x1xf32>) outs(%e6 : tensor<2x2x8x9xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.divf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x2x8x9xf32>
  %e10 = tensor.empty() : tensor<2x2x8x9xbf16>
  %W = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%div : tensor<2x2x8x9xf32>) outs(%e10 : tensor<2x2x8x9xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<2x2x8x9xbf16>

  // W = W[..., :-1]
  %Wk = tensor.extract_slice %W[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x9xbf16> to tensor<2x2x8x8xbf16>

  // attn = torch.einsum("hmqk,khmd->qhmd", W, V)
  %Vp = linalg.transpose ins(%Vx : tensor<8x2x2x8xbf16>) outs(%e3 : tensor<2x2x8x8xbf16>) permutation = [1, 2, 0, 3]
  %W3 = tensor.collapse_shape %Wk [[0, 1], [2], [3]] : tensor<2x2x8x8xbf16> into tensor<4x8x8xbf16>
  %V3 = tensor.collapse_shape %Vp [[0, 1], [2], [3]] : tensor<2x2x8x8xbf16> into tensor<4x8x8xbf16>
  %pv32 = linalg.batch_matmul ins(%W3, %V3 : tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) outs(%acc0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %pv3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%pv32 : tensor<4x8x8xf32>) outs(%e5 : tensor<4x8x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x8x8xbf16>
  %pv = tensor.expand_shape %pv3 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xbf16> into tensor<2x2x8x8xbf16>
  %attn = linalg.transpose ins(%pv : tensor<2x2x8x8xbf16>) outs(%e0 : tensor<8x2x2x8xbf16>) permutation = [2, 0, 1, 3]

  // attn.reshape(n_tokens, -1)
  %out = tensor.collapse_shape %attn [[0], [1, 2, 3]] : tensor<8x2x2x8xbf16> into tensor<8x32xbf16>
  return %out : tensor<8x32xbf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %sq = arith.constant 0.3 : f32
  %sk = arith.constant 1.1 : f32
  %sv = arith.constant 2.2 : f32
  %q0 = call @input4(%sq, %c8, %c2, %c2, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q1 = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<8x2x2x8xf32>
  %k0 = call @input3(%sk, %c8, %c2, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k1 = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<8x2x8xf32>
  %v0 = call @input3(%sv, %c8, %c2, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v1 = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<8x2x8xf32>
  %eq = tensor.empty() : tensor<8x2x2x8xbf16>
  %q = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q1 : tensor<8x2x2x8xf32>) outs(%eq : tensor<8x2x2x8xbf16>) {
  ^bb0(%in: f32, %o: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x2x2x8xbf16>
  %ekv = tensor.empty() : tensor<8x2x8xbf16>
  %k = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<8x2x8xf32>) outs(%ekv : tensor<8x2x8xbf16>) {
  ^bb0(%in: f32, %o: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x2x8xbf16>
  %v = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v1 : tensor<8x2x8xf32>) outs(%ekv : tensor<8x2x8xbf16>) {
  ^bb0(%in: f32, %o: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x2x8xbf16>
  // AttentionBlock.sinks (a bf16 parameter, one logit per query head)
  %sinks = arith.constant dense<[5.000000e-01, -2.500000e-01, 1.000000e+00, 0.000000e+00]> : tensor<4xbf16>
  %o = call @sdpa(%q, %k, %v, %sinks) : (tensor<8x2x2x8xbf16>, tensor<8x2x8xbf16>, tensor<8x2x8xbf16>, tensor<4xbf16>) -> tensor<8x32xbf16>
  %eo = tensor.empty() : tensor<8x32xf32>
  %of = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<8x32xbf16>) outs(%eo : tensor<8x32xf32>) {
  ^bb0(%in: bf16, %x: f32):
    %t = arith.extf %in : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<8x32xf32>
  %u = tensor.cast %of : tensor<8x32xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
