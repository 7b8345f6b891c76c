// Frontend: torch.onnx (TorchScript exporter, opset 17) -> ONNX -> torch-mlir
//   (torch-mlir-import-onnx, convert-torch-onnx-to-torch, torch-backend-to-
//   linalg-on-tensors-backend-pipeline).
// Model: sentence-transformers all-MiniLM-L6-v2 (HF BertModel with
//   attn_implementation="sdpa"), one self-attention layer, shrunk.
// Sources read:
//   pytorch/pytorch torch/onnx/_internal/torchscript_exporter/symbolic_opset14.py
//     scaled_dot_product_attention + _attention_scale: scale = 1/sqrt(E) is
//     built from Shape(query)[-1] -> Cast -> Sqrt -> Div, and sqrt(scale) is
//     multiplied into Q and into K^T separately before MatMul; a float
//     attn_mask is Add-ed, then Softmax(axis=-1), then MatMul with V.
//   huggingface/transformers modeling_attn_mask_utils.py
//     AttentionMaskConverter._expand_mask: mask[:, None, None, :] expanded to
//     [B,1,T,S], cast to float, inverted = 1 - m, then
//     inverted.masked_fill(inverted.bool(), finfo(f32).min)  (ONNX: Where).
//   The static Shape/Slice/Cast chain is folded by torch-mlir's shape
//   scalarization into the constant 16.0; the Sqrt/Div on that [1] tensor are
//   left as (tiny) linalg ops, as the importer does not constant-fold them.
//
// Math (B=2, H=4, S=12, E=16):
//   bias[b,0,i,j] = attention_mask[b,j] ? 0 : -3.4028235e38
//   r             = sqrt(1/sqrt(16)) = 0.5
//   S[b,h,i,j]    = sum_e (r*Q[b,h,i,e]) * (r*K[b,h,j,e]) + bias[b,0,i,j]
//   O[b,h,i,:]    = softmax_j(S[b,h,i,:]) . V[b,h,:,:]
//   Returns O [2,4,12,16] f32. Batch 1 has its last three keys padded.

func.func @minilm_sdpa_attention(%query: tensor<2x4x12x16xf32>, %key: tensor<2x4x12x16xf32>,
                                 %value: tensor<2x4x12x16xf32>,
                                 %attention_mask: tensor<2x12xi64>) -> tensor<2x4x12x16xf32> {
  // ---- AttentionMaskConverter._expand_mask (traced into the ONNX graph) ----
  %m_unsq = tensor.expand_shape %attention_mask [[0], [1, 2, 3]] output_shape [2, 1, 1, 12]
      : tensor<2x12xi64> into tensor<2x1x1x12xi64>
  %e_i64 = tensor.empty() : tensor<2x1x12x12xi64>
  %m_exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%m_unsq : tensor<2x1x1x12xi64>) outs(%e_i64 : tensor<2x1x12x12xi64>) {
  ^bb0(%in: i64, %out: i64):
    linalg.yield %in : i64
  } -> tensor<2x1x12x12xi64>
  %e_f32 = tensor.empty() : tensor<2x1x12x12xf32>
  %m_f = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%m_exp : tensor<2x1x12x12xi64>) outs(%e_f32 : tensor<2x1x12x12xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.sitofp %in : i64 to f32
    linalg.yield %0 : f32
  } -> tensor<2x1x12x12xf32>
  %one_t = arith.constant dense<1.000000e+00> : tensor<f32>
  %inverted = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ()>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%one_t, %m_f : tensor<f32>, tensor<2x1x12x12xf32>) outs(%e_f32 : tensor<2x1x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x12x12xf32>
  %e_i1 = tensor.empty() : tensor<2x1x12x12xi1>
  %inv_bool = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%inverted : tensor<2x1x12x12xf32>) outs(%e_i1 : tensor<2x1x12x12xi1>) {
  ^bb0(%in: f32, %out: i1):
    %zero = arith.constant 0.000000e+00 : f32
    %0 = arith.cmpf une, %in, %zero : f32
    linalg.yield %0 : i1
  } -> tensor<2x1x12x12xi1>
  %fmin_t = arith.constant dense<-3.40282347E+38> : tensor<f32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> ()>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%inv_bool, %fmin_t, %inverted : tensor<2x1x12x12xi1>, tensor<f32>, tensor<2x1x12x12xf32>)
      outs(%e_f32 : tensor<2x1x12x12xf32>) {
  ^bb0(%c: i1, %fill: f32, %x: f32, %out: f32):
    %0 = arith.select %c, %fill, %x : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x12x12xf32>

  // ---- _attention_scale: 1 / Sqrt(Cast(Shape(query)[-1])) ----
  %emb = arith.constant dense<1.600000e+01> : tensor<1xf32>
  %one1 = arith.constant dense<1.000000e+00> : tensor<1xf32>
  %e1 = tensor.empty() : tensor<1xf32>
  %sqrt_e = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                            iterator_types = ["parallel"]}
      ins(%emb : tensor<1xf32>) outs(%e1 : tensor<1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.sqrt %in : f32
    linalg.yield %0 : f32
  } -> tensor<1xf32>
  %scale = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                            affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}
      ins(%one1, %sqrt_e : tensor<1xf32>, tensor<1xf32>) outs(%e1 : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<1xf32>
  // Sqrt(scale), multiplied into Q and into K^T.
  %sqrt_scale = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                                iterator_types = ["parallel"]}
      ins(%scale : tensor<1xf32>) outs(%e1 : tensor<1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.sqrt %in : f32
    linalg.yield %0 : f32
  } -> tensor<1xf32>

  %e_k_t = tensor.empty() : tensor<2x4x16x12xf32>
  %key_t = linalg.transpose ins(%key : tensor<2x4x12x16xf32>) outs(%e_k_t : tensor<2x4x16x12xf32>)
      permutation = [0, 1, 3, 2]
  %e_q = tensor.empty() : tensor<2x4x12x16xf32>
  %q_scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (0)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%query, %sqrt_scale : tensor<2x4x12x16xf32>, tensor<1xf32>) outs(%e_q : tensor<2x4x12x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x16xf32>
  %k_t_scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                 affine_map<(d0, d1, d2, d3) -> (0)>,
                                                 affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%key_t, %sqrt_scale : tensor<2x4x16x12xf32>, tensor<1xf32>) outs(%e_k_t : tensor<2x4x16x12xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x12xf32>

  // ---- MatMul(query_scaled, key_transposed_scaled) ----
  %cst0 = arith.constant 0.000000e+00 : f32
  %q3 = tensor.collapse_shape %q_scaled [[0, 1], [2], [3]] : tensor<2x4x12x16xf32> into tensor<8x12x16xf32>
  %k3 = tensor.collapse_shape %k_t_scaled [[0, 1], [2], [3]] : tensor<2x4x16x12xf32> into tensor<8x16x12xf32>
  %e_s3 = tensor.empty() : tensor<8x12x12xf32>
  %s3_init = linalg.fill ins(%cst0 : f32) outs(%e_s3 : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x12x16xf32>, tensor<8x16x12xf32>)
                            outs(%s3_init : tensor<8x12x12xf32>) -> tensor<8x12x12xf32>
  %qk = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 12, 12]
      : tensor<8x12x12xf32> into tensor<2x4x12x12xf32>

  // ---- Add(mul_qk, attn_mask) ----
  %e_s = tensor.empty() : tensor<2x4x12x12xf32>
  %qk_add = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk, %bias : tensor<2x4x12x12xf32>, tensor<2x1x12x12xf32>) outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>

  // ---- Softmax(axis=-1): aten.softmax.int, decomposed by torch-mlir ----
  %ninf = arith.constant 0xFF800000 : f32
  %e_r = tensor.empty() : tensor<2x4x12xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%e_r : tensor<2x4x12xf32>) -> tensor<2x4x12xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%qk_add : tensor<2x4x12x12xf32>) outs(%max_init : tensor<2x4x12xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12xf32>
  %max_k = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 4, 12, 1]
      : tensor<2x4x12xf32> into tensor<2x4x12x1xf32>
  %shifted = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk_add, %max_k : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>
  %exps = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%shifted : tensor<2x4x12x12xf32>) outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>
  %sum_init = linalg.fill ins(%cst0 : f32) outs(%e_r : tensor<2x4x12xf32>) -> tensor<2x4x12xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exps : tensor<2x4x12x12xf32>) outs(%sum_init : tensor<2x4x12xf32>) {
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
      ins(%exps, %sum_k : tensor<2x4x12x12xf32>, tensor<2x4x12x1xf32>) outs(%e_s : tensor<2x4x12x12xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x12x12xf32>

  // ---- MatMul(attn_weight, value) ----
  %p3 = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<2x4x12x12xf32> into tensor<8x12x12xf32>
  %v3 = tensor.collapse_shape %value [[0, 1], [2], [3]] : tensor<2x4x12x16xf32> into tensor<8x12x16xf32>
  %e_o3 = tensor.empty() : tensor<8x12x16xf32>
  %o3_init = linalg.fill ins(%cst0 : f32) outs(%e_o3 : tensor<8x12x16xf32>) -> tensor<8x12x16xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x12x12xf32>, tensor<8x12x16xf32>)
                            outs(%o3_init : tensor<8x12x16xf32>) -> tensor<8x12x16xf32>
  %out = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 12, 16]
      : tensor<8x12x16xf32> into tensor<2x4x12x16xf32>
  return %out : tensor<2x4x12x16xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %sq = arith.constant 0.3 : f32
  %sk = arith.constant 1.1 : f32
  %sv = arith.constant 2.3 : f32
  %q0 = call @input4(%sq, %c2, %c4, %c12, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%sk, %c2, %c4, %c12, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%sv, %c2, %c4, %c12, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x4x12x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<2x4x12x16xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<2x4x12x16xf32>
  // tokenizer attention_mask: batch 0 full, batch 1 padded after 9 tokens
  %mask = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                                [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0]]> : tensor<2x12xi64>
  %o = call @minilm_sdpa_attention(%q, %k, %v, %mask)
      : (tensor<2x4x12x16xf32>, tensor<2x4x12x16xf32>, tensor<2x4x12x16xf32>, tensor<2x12xi64>) -> tensor<2x4x12x16xf32>
  %u = tensor.cast %o : tensor<2x4x12x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
