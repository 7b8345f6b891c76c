// Frontend: torch-mlir (torch.export -> fx_importer -> torch dialect ->
//   torch-backend-to-linalg-on-tensors-backend-pipeline), model in float16.
// Model: EleutherAI GPT-J-6B, HF transformers GPTJAttention._attn in the
//   version with the `bias` (uint8 tril) and `masked_bias` (-1e9) buffers,
//   plus GPTJModel.forward's padding-mask preparation, with
//   output_attentions=True. Shrunk: B=2, H=4, S=12, head_dim=16,
//   n_positions=16.
// Sources read: huggingface/transformers src/transformers/models/gptj/
//   modeling_gptj.py: the current GPTJAttention._attn (same f32 upcast of Q/K
//   only, one pre-combined 4D mask) and the older form modeled here, with the
//   bias/masked_bias buffers and GPTJModel.forward's (1 - m) * -10000.0 mask
//   in self.dtype (read in a vendored copy of that file).
//     query = query.to(float32); key = key.to(float32)
//     w = matmul(query, key^T)
//     w = where(bias[:, :, kl-ql:kl, :kl].bool(), w, masked_bias)  # -1e9
//     w = w / scale_attn                                           # sqrt(16)
//     w = w + attention_mask             # f16 (1 - m) * -10000.0, [B,1,1,S]
//     w = softmax(w, -1).to(value.dtype) # f16
//     out = matmul(w, value)             # f16
//     return out, w
// The buffers are imported as literals (bias sliced to 12x12, masked_bias
// and scale_attn as 0-d tensors).
//
// Math: Q,K,V f16 [2,4,12,16]; Q and K are widened to f32, V stays f16.
//   S = (causal ? Q.K^T : -1e9) / 4 + ext(pad[b,j] ? 0 : -10000 (f16))
//   P = softmax_j(S) in f32, truncated to f16; O = P.V in f16.
//   Two masks with different fills, applied before and after the scale.
//   Batch 1 is left-padded by 2, so its rows 0 and 1 have every key masked:
//   there the -10000 padding fill beats the -2.5e8 causal fill and the row
//   puts all weight on key 0 (row 0) or on keys 0-1 (row 1).
//   Returns (O f16 [2,4,12,16], P f16 [2,4,12,12]).

func.func @gptj_attn(%query: tensor<2x4x12x16xf16>, %key: tensor<2x4x12x16xf16>,
                     %value: tensor<2x4x12x16xf16>, %attention_mask_2d: tensor<2x12xi64>)
    -> (tensor<2x4x12x16xf16>, tensor<2x4x12x12xf16>) {
  // ---- GPTJModel.forward: attention_mask[:, None, None, :].to(f16); (1 - m) * -10000 ----
  %am = tensor.expand_shape %attention_mask_2d [[0], [1, 2, 3]] output_shape [2, 1, 1, 12]
      : tensor<2x12xi64> into tensor<2x1x1x12xi64>
  %e_am = tensor.empty() : tensor<2x1x1x12xf16>
  %am_h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am : tensor<2x1x1x12xi64>) outs(%e_am : tensor<2x1x1x12xf16>) {
  ^bb0(%in: i64, %out: f16):
    %0 = arith.sitofp %in : i64 to f16
    linalg.yield %0 : f16
  } -> tensor<2x1x1x12xf16>
  %am_inv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am_h : tensor<2x1x1x12xf16>) outs(%e_am : tensor<2x1x1x12xf16>) {
  ^bb0(%in: f16, %out: f16):
    %one = arith.constant 1.000000e+00 : f16
    %0 = arith.subf %one, %in : f16
    linalg.yield %0 : f16
  } -> tensor<2x1x1x12xf16>
  %pad_bias = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am_inv : tensor<2x1x1x12xf16>) outs(%e_am : tensor<2x1x1x12xf16>) {
  ^bb0(%in: f16, %out: f16):
    %neg = arith.constant -1.000000e+04 : f16
    %0 = arith.mulf %in, %neg : f16
    linalg.yield %0 : f16
  } -> tensor<2x1x1x12xf16>

  // ---- GPTJAttention._attn ----
  %bias_buf = arith.constant dense<[[[[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0],
                                      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]]]> : tensor<1x1x16x16xi8>
  %masked_bias = arith.constant dense<-1.000000e+09> : tensor<f32>
  %scale_attn = arith.constant dense<4.000000e+00> : tensor<f32>

  // causal_mask = self.bias[:, :, 0:12, :12].to(torch.bool)
  %bias_sl = tensor.extract_slice %bias_buf[0, 0, 0, 0] [1, 1, 12, 12] [1, 1, 1, 1]
      : tensor<1x1x16x16xi8> to tensor<1x1x12x12xi8>
  %e_cm = tensor.empty() : tensor<1x1x12x12xi1>
  %causal_mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias_sl : tensor<1x1x12x12xi8>) outs(%e_cm : tensor<1x1x12x12xi1>) {
  ^bb0(%in: i8, %out: i1):
    %c0_i8 = arith.constant 0 : i8
    %0 = arith.cmpi ne, %in, %c0_i8 : i8
    linalg.yield %0 : i1
  } -> tensor<1x1x12x12xi1>

  // query.to(torch.float32), key.to(torch.float32)
  %e_qk32 = tensor.empty() : tensor<2x4x12x16xf32>
  %q32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%query : tensor<2x4x12x16xf16>) outs(%e_qk32 : tensor<2x4x12x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x16xf32>
  %k32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%key : tensor<2x4x12x16xf16>) outs(%e_qk32 : tensor<2x4x12x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x16xf32>

  // attn_weights = torch.matmul(query, key.transpose(-1, -2))
  %e_kt = tensor.empty() : tensor<2x4x16x12xf32>
  %k32_t = linalg.transpose ins(%k32 : tensor<2x4x12x16xf32>) outs(%e_kt : tensor<2x4x16x12xf32>)
      permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q32 [[0, 1], [2], [3]] : tensor<2x4x12x16xf32> into tensor<8x12x16xf32>
  %k3 = tensor.collapse_shape %k32_t [[0, 1], [2], [3]] : tensor<2x4x16x12xf32> into tensor<8x16x12xf32>
  %zero32 = arith.constant 0.000000e+00 : f32
  %e_s3 = tensor.empty() : tensor<8x12x12xf32>
  %s3_init = linalg.fill ins(%zero32 : f32) outs(%e_s3 : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x12x16xf32>, tensor<8x16x12xf32>)
                            outs(%s3_init : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
  %scores = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 12, 12]
      : tensor<8x12x12xf32> into tensor<2x4x12x12xf32>

  // torch.where(causal_mask, attn_weights, self.masked_bias.to(f32))
  %e_s = tensor.empty() : tensor<2x4x12x12xf32>
  %w_causal = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> ()>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%causal_mask, %scores, %masked_bias : tensor<1x1x12x12xi1>, tensor<2x4x12x12xf32>, tensor<f32>)
      outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%c: i1, %x: f32, %fill: f32, %out: f32):
    %0 = arith.select %c, %x, %fill : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>
  // attn_weights / self.scale_attn
  %w_scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> ()>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w_causal, %scale_attn : tensor<2x4x12x12xf32>, tensor<f32>) outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%x: f32, %d: f32, %out: f32):
    %0 = arith.divf %x, %d : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>
  // attn_weights + attention_mask  (f32 + f16 promotes to f32)
  %w_masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w_scaled, %pad_bias : tensor<2x4x12x12xf32>, tensor<2x1x1x12xf16>) outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%x: f32, %m: f16, %out: f32):
    %0 = arith.extf %m : f16 to f32
    %1 = arith.addf %x, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x12x12xf32>

  // nn.functional.softmax(attn_weights, dim=-1), decomposed
  %ninf = arith.constant 0xFF800000 : f32
  %e_r = tensor.empty() : tensor<2x4x12xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%e_r : tensor<2x4x12xf32>) -> tensor<2x4x12xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w_masked : tensor<2x4x12x12xf32>) outs(%max_init : tensor<2x4x12xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12xf32>
  %max_k = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 4, 12, 1]
      : tensor<2x4x12xf32> into tensor<2x4x12x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w_masked, %max_k : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sub : tensor<2x4x12x12xf32>) outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>
  %sum_init = linalg.fill ins(%zero32 : f32) outs(%e_r : tensor<2x4x12xf32>) -> tensor<2x4x12xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<2x4x12x12xf32>) outs(%sum_init : tensor<2x4x12xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12xf32>
  %sum_k = tensor.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 4, 12, 1]
      : tensor<2x4x12xf32> into tensor<2x4x12x1xf32>
  %probs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum_k : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>

  // attn_weights.to(value.dtype)
  %e_p16 = tensor.empty() : tensor<2x4x12x12xf16>
  %probs16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%probs : tensor<2x4x12x12xf32>) outs(%e_p16 : tensor<2x4x12x12xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<2x4x12x12xf16>

  // attn_output = torch.matmul(attn_weights, value)   (f16)
  %p3 = tensor.collapse_shape %probs16 [[0, 1], [2], [3]] : tensor<2x4x12x12xf16> into tensor<8x12x12xf16>
  %v3 = tensor.collapse_shape %value [[0, 1], [2], [3]] : tensor<2x4x12x16xf16> into tensor<8x12x16xf16>
  %zero16 = arith.constant 0.000000e+00 : f16
  %e_o3 = tensor.empty() : tensor<8x12x16xf16>
  %o3_init = linalg.fill ins(%zero16 : f16) outs(%e_o3 : tensor<8x12x16xf16>) -> tensor<8x12x16xf16>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x12x12xf16>, tensor<8x12x16xf16>)
                            outs(%o3_init : tensor<8x12x16xf16>) -> tensor<8x12x16xf16>
  %attn_output = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 12, 16]
      : tensor<8x12x16xf16> into tensor<2x4x12x16xf16>
  return %attn_output, %probs16 : tensor<2x4x12x16xf16>, tensor<2x4x12x12xf16>
}

func.func @to_f16(%x: tensor<2x4x12x16xf32>) -> tensor<2x4x12x16xf16> {
  %e = tensor.empty() : tensor<2x4x12x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x12x16xf32>) outs(%e : tensor<2x4x12x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<2x4x12x16xf16>
  return %r : tensor<2x4x12x16xf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %sq = arith.constant 0.7 : f32
  %sk = arith.constant 1.9 : f32
  %sv = arith.constant 0.2 : f32
  %q0 = call @input4(%sq, %c2, %c4, %c12, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%sk, %c2, %c4, %c12, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%sv, %c2, %c4, %c12, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q1 = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x4x12x16xf32>
  %k1 = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<2x4x12x16xf32>
  %v1 = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<2x4x12x16xf32>
  %q = call @to_f16(%q1) : (tensor<2x4x12x16xf32>) -> tensor<2x4x12x16xf16>
  %k = call @to_f16(%k1) : (tensor<2x4x12x16xf32>) -> tensor<2x4x12x16xf16>
  %v = call @to_f16(%v1) : (tensor<2x4x12x16xf32>) -> tensor<2x4x12x16xf16>
  // batch 1 is left-padded by two tokens (generation-style batching)
  %mask = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                                [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]> : tensor<2x12xi64>
  %o:2 = call @gptj_attn(%q, %k, %v, %mask)
      : (tensor<2x4x12x16xf16>, tensor<2x4x12x16xf16>, tensor<2x4x12x16xf16>, tensor<2x12xi64>)
        -> (tensor<2x4x12x16xf16>, tensor<2x4x12x12xf16>)
  %e_o = tensor.empty() : tensor<2x4x12x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o#0 : tensor<2x4x12x16xf16>) outs(%e_o : tensor<2x4x12x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x16xf32>
  %e_w = tensor.empty() : tensor<2x4x12x12xf32>
  %w32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o#1 : tensor<2x4x12x12xf16>) outs(%e_w : tensor<2x4x12x12xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>
  %u0 = tensor.cast %o32 : tensor<2x4x12x16xf32> to tensor<*xf32>
  %u1 = tensor.cast %w32 : tensor<2x4x12x12xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}
