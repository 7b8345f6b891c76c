// Held-out block b09: BEiT self-attention with a shared relative position bias
// through F.scaled_dot_product_attention (huggingface/transformers
// src/transformers/models/beit/modeling_beit.py, BeitSdpaSelfAttention.forward:
// attn_mask = relative_position_bias [1, H, N, N], scale = 1/sqrt(head_size)),
// in float16, imported by IREE's torch frontend and taken through IREE's
// LinalgExt attention lowering: iree_linalg_ext.attention ->
// ConvertAttentionToOnlineAttention (acc/max/sum fills, then x = (1/sum) * acc)
// -> OnlineAttentionOp::decomposeOperation with useExp2 = true
// (iree-org/iree compiler/src/iree/compiler/Dialect/LinalgExt/IR/
// AggregatedOpInterfaceImpl.cpp and Transforms/ConvertAttentionToOnlineAttention.cpp),
// for a single key block (no tiling), canonicalized.
//
// What the decomposition spells:
//  - transpose_for_scores: expand_shape [B, N, H, D] + linalg.transpose to [B, H, N, D];
//  - the softmax scale folded with log2(e) (f16 constant) and applied to Q in f16 through a
//    scalar linalg.generic input;
//  - S = Q K^T as a contraction linalg.generic, f16 operands extended to an f32 accumulator;
//  - the float mask (the relative position bias) added as S += f32(bias) * log2(e);
//  - online softmax from the initial state acc = 0, max = -FLT_MAX (finite identity),
//    sum = 0: newMax = max(oldMax, rowmax S), norm = exp2(oldMax - newMax),
//    P = exp2(S - newMax), newSum = norm * oldSum + rowsum P, P truncated to f16,
//    newAcc = norm * oldAcc + P V (f32 accumulator);
//  - the normalization deferred past P V: out = f16((1 / sum) * acc);
//  - context_layer.permute(0, 2, 1, 3) and the reshape to [B, N, H*D].
//
// Math (B=1, N=16 tokens, H=2 heads, D=8, f16 in and out):
//   O = softmax(Q K^T / sqrt(8) + bias[0, h]) V, computed as
//   S2 = (Q * f16(f16(1/sqrt 8) * log2 e)) K^T + bias * log2 e;  P = exp2(S2 - max S2);
//   O = (P V) / rowsum(P); returned as [B, N, H*D] f16.

func.func @beit_sdpa_attention(%query_layer: tensor<1x16x16xf16>, %key_layer: tensor<1x16x16xf16>,
                               %value_layer: tensor<1x16x16xf16>,
                               %relative_position_bias: tensor<1x2x16x16xf16>) -> tensor<1x16x16xf16> {
  %cst_zero = arith.constant 0.000000e+00 : f32
  %cst_max_init = arith.constant -3.40282347E+38 : f32
  %cst_one = arith.constant 1.000000e+00 : f32
  %cst_log2e = arith.constant 1.44269502 : f32
  // scale = 1/sqrt(head_size) in f16, times log2(e) (both f16), folded
  %scale_log2e = arith.constant 5.097660e-01 : f16

  // transpose_for_scores(query / key / value): view(B, N, H, D).permute(0, 2, 1, 3)
  %q4 = tensor.expand_shape %query_layer [[0], [1], [2, 3]] output_shape [1, 16, 2, 8] : tensor<1x16x16xf16> into tensor<1x16x2x8xf16>
  %k4 = tensor.expand_shape %key_layer [[0], [1], [2, 3]] output_shape [1, 16, 2, 8] : tensor<1x16x16xf16> into tensor<1x16x2x8xf16>
  %v4 = tensor.expand_shape %value_layer [[0], [1], [2, 3]] output_shape [1, 16, 2, 8] : tensor<1x16x16xf16> into tensor<1x16x2x8xf16>
  %e_h = tensor.empty() : tensor<1x2x16x8xf16>
  %q = linalg.transpose ins(%q4 : tensor<1x16x2x8xf16>) outs(%e_h : tensor<1x2x16x8xf16>) permutation = [0, 2, 1, 3]
  %k = linalg.transpose ins(%k4 : tensor<1x16x2x8xf16>) outs(%e_h : tensor<1x2x16x8xf16>) permutation = [0, 2, 1, 3]
  %v = linalg.transpose ins(%v4 : tensor<1x16x2x8xf16>) outs(%e_h : tensor<1x2x16x8xf16>) permutation = [0, 2, 1, 3]

  // ConvertAttentionToOnlineAttention: acc, max and sum initial values
  %e_acc = tensor.empty() : tensor<1x2x16x8xf32>
  %acc0 = linalg.fill ins(%cst_zero : f32) outs(%e_acc : tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  %e_row = tensor.empty() : tensor<1x2x16xf32>
  %max0 = linalg.fill ins(%cst_max_init : f32) outs(%e_row : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %sum0 = linalg.fill ins(%cst_zero : f32) outs(%e_row : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>

  // Q = Q * (scale * log2e)
  %qs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scale_log2e : f16) outs(%q : tensor<1x2x16x8xf16>) {
  ^bb0(%s: f16, %x: f16):
    %r = arith.mulf %s, %x : f16
    linalg.yield %r : f16
  } -> tensor<1x2x16x8xf16>

  // S = Q @ K^T  (f32)
  %e_s = tensor.empty() : tensor<1x2x16x16xf32>
  %s0 = linalg.fill ins(%cst_zero : f32) outs(%e_s : tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%qs, %k : tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) outs(%s0 : tensor<1x2x16x16xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x16xf32>

  // S += mask (float mask, rescaled for the base-2 softmax)
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%relative_position_bias : tensor<1x2x16x16xf16>) outs(%s : tensor<1x2x16x16xf32>) {
  ^bb0(%mk: f16, %x: f32):
    %me = arith.extf %mk : f16 to f32
    %ms = arith.mulf %me, %cst_log2e : f32
    %r = arith.addf %x, %ms : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x16xf32>

  // newMax = max(oldMax, rowMax(S))
  %newmax = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sm : tensor<1x2x16x16xf32>) outs(%max0 : tensor<1x2x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16xf32>

  // norm = exp2(oldMax - newMax)
  %norm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                           affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%newmax : tensor<1x2x16xf32>) outs(%max0 : tensor<1x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.subf %out, %in : f32
    %r = math.exp2 %d : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16xf32>

  // normSum = norm * oldSum
  %normsum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%norm : tensor<1x2x16xf32>) outs(%sum0 : tensor<1x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16xf32>

  // P = exp2(S - newMax)
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%newmax : tensor<1x2x16xf32>) outs(%sm : tensor<1x2x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.subf %out, %in : f32
    %r = math.exp2 %d : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x16xf32>

  // newSum = normSum + rowSum(P)
  %newsum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p : tensor<1x2x16x16xf32>) outs(%normsum : tensor<1x2x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16xf32>

  // P = truncf(P) to V's element type
  %e_p16 = tensor.empty() : tensor<1x2x16x16xf16>
  %p16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<1x2x16x16xf32>) outs(%e_p16 : tensor<1x2x16x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x16x16xf16>

  // newAcc = norm * oldAcc
  %accn = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%norm : tensor<1x2x16xf32>) outs(%acc0 : tensor<1x2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x8xf32>

  // newAcc = P @ V + newAcc
  %acc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                          affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>,
                                          affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p16, %v : tensor<1x2x16x16xf16>, tensor<1x2x16x8xf16>) outs(%accn : tensor<1x2x16x8xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %m, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x8xf32>

  // x = (1 / sum) * x, cast to the attention output type
  %e_o = tensor.empty() : tensor<1x2x16x8xf16>
  %ctx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%newsum, %acc : tensor<1x2x16xf32>, tensor<1x2x16x8xf32>) outs(%e_o : tensor<1x2x16x8xf16>) {
  ^bb0(%sum: f32, %x: f32, %out: f16):
    %rcp = arith.divf %cst_one, %sum : f32
    %r = arith.mulf %rcp, %x : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x16x8xf16>

  // context_layer.permute(0, 2, 1, 3).view(B, N, all_head_size)
  %e_t = tensor.empty() : tensor<1x16x2x8xf16>
  %ct = linalg.transpose ins(%ctx : tensor<1x2x16x8xf16>) outs(%e_t : tensor<1x16x2x8xf16>) permutation = [0, 2, 1, 3]
  %out = tensor.collapse_shape %ct [[0], [1], [2, 3]] : tensor<1x16x2x8xf16> into tensor<1x16x16xf16>
  return %out : tensor<1x16x16xf16>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %sq = arith.constant 0.35 : f32
  %sk = arith.constant 1.05 : f32
  %sv = arith.constant 2.45 : f32
  %sb = arith.constant 0.6 : f32
  %e = tensor.empty() : tensor<1x16x16xf16>
  %q0 = call @input3(%sq, %c1, %c16, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q1 = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<1x16x16xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q1 : tensor<1x16x16xf32>) outs(%e : tensor<1x16x16xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x16x16xf16>
  %k0 = call @input3(%sk, %c1, %c16, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k1 = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<1x16x16xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<1x16x16xf32>) outs(%e : tensor<1x16x16xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x16x16xf16>
  %v0 = call @input3(%sv, %c1, %c16, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v1 = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<1x16x16xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v1 : tensor<1x16x16xf32>) outs(%e : tensor<1x16x16xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x16x16xf16>
  // The shared relative position bias [1, H, N, N] (gathered from the bias table by
  // BeitRelativePositionBias upstream of the layer).
  %b0 = call @input4(%sb, %c1, %c2, %c16, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b1 = tensor.cast %b0 : tensor<?x?x?x?xf32> to tensor<1x2x16x16xf32>
  %eb = tensor.empty() : tensor<1x2x16x16xf16>
  %bias = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b1 : tensor<1x2x16x16xf32>) outs(%eb : tensor<1x2x16x16xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x16x16xf16>
  %o = call @beit_sdpa_attention(%q, %k, %v, %bias)
      : (tensor<1x16x16xf16>, tensor<1x16x16xf16>, tensor<1x16x16xf16>, tensor<1x2x16x16xf16>) -> tensor<1x16x16xf16>
  %eo = tensor.empty() : tensor<1x16x16xf32>
  %of = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<1x16x16xf16>) outs(%eo : tensor<1x16x16xf32>) {
  ^bb0(%in: f16, %x: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  } -> tensor<1x16x16xf32>
  %u = tensor.cast %of : tensor<1x16x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
