// Frontend: torch-mlir (torch.export of MistralModel in bfloat16 -> fx_importer ->
//   torch-backend-to-linalg-on-tensors-backend-pipeline); eager attention.
// Model: Mistral-7B-v0.1 (HF transformers MistralAttention.forward, eager path,
//   with MistralModel._update_causal_mask /
//   _prepare_4d_causal_attention_mask_with_cache_position traced into the
//   same graph). Shrunk: B=2, 4 query heads, 2 KV heads (n_rep=2), S=16,
//   head_dim=8, sliding_window=5.
// Source read: huggingface/transformers src/transformers/models/mistral/
//   modeling_mistral.py (repeat_kv, MistralAttention.forward,
//   _prepare_4d_causal_attention_mask_with_cache_position).
//     cache_position = arange(16)
//     causal = full((16,16), finfo(bf16).min)
//     attend_not = arange(16) > cache_position[:,None]
//                | arange(16) <= cache_position[:,None] - sliding_window
//     causal *= attend_not ; causal = causal[None,None].expand(B,1,16,16)
//     padding = (causal + attention_mask[:,None,None,:]) == 0
//     causal[..., :16] = causal[..., :16].masked_fill(padding, min)
//     k, v = repeat_kv(k, 2), repeat_kv(v, 2)  # [:, :, None].expand().reshape()
//     w = matmul(q, k^T) / sqrt(8) + causal
//     w = softmax(w, -1, dtype=float32).to(bf16)
//     out = matmul(w, v)
//
// Math: Q bf16 [2,4,16,8]; K,V bf16 [2,2,16,8]; head h reads KV head h/2.
//   allowed(b,i,j) = j <= i && j > i - 5 && attention_mask[b,j] == 1
//   S = Q.K^T / 2.828125 (bf16) + (allowed ? 0 : -3.3895314e38 (bf16))
//   P = softmax_j(f32(S)) rounded to bf16; O = P.V in bf16.
//   Batch 1 is left-padded by 3: its rows 0-2 have no allowed key; every
//   score there is -3.39e38, so those rows average V over all 16 keys.
//   Returns O bf16 [2,4,16,8].

func.func @mistral_attention(%query_states: tensor<2x4x16x8xbf16>, %key_states: tensor<2x2x16x8xbf16>,
                             %value_states: tensor<2x2x16x8xbf16>,
                             %attention_mask: tensor<2x16xi64>) -> tensor<2x4x16x8xbf16> {
  %min_bf16 = arith.constant -3.38953139E+38 : bf16
  %c5_i64 = arith.constant 5 : i64

  // cache_position = torch.arange(0, 16)
  %e_pos = tensor.empty() : tensor<16xi64>
  %cache_position = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e_pos : tensor<16xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %0 = arith.index_cast %i : index to i64
    linalg.yield %0 : i64
  } -> tensor<16xi64>
  // torch.arange(0, target_length)
  %kv_pos = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e_pos : tensor<16xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %0 = arith.index_cast %i : index to i64
    linalg.yield %0 : i64
  } -> tensor<16xi64>
  %cp_col = tensor.expand_shape %cache_position [[0, 1]] output_shape [16, 1] : tensor<16xi64> into tensor<16x1xi64>

  // causal_mask = torch.full((16, 16), min_dtype)
  %e_cm = tensor.empty() : tensor<16x16xbf16>
  %full = linalg.fill ins(%min_bf16 : bf16) outs(%e_cm : tensor<16x16xbf16>) -> tensor<16x16xbf16>
  // diagonal_attend_mask = arange > cache_position.reshape(-1, 1)
  %e_b = tensor.empty() : tensor<16x16xi1>
  %diag = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, 0)>,
                                           affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%kv_pos, %cp_col : tensor<16xi64>, tensor<16x1xi64>) outs(%e_b : tensor<16x16xi1>) {
  ^bb0(%k: i64, %q: i64, %out: i1):
    %0 = arith.cmpi sgt, %k, %q : i64
    linalg.yield %0 : i1
  } -> tensor<16x16xi1>
  // cache_position.reshape(-1, 1) - config.sliding_window
  %e_c = tensor.empty() : tensor<16x1xi64>
  %cp_minus_w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                                iterator_types = ["parallel", "parallel"]}
      ins(%cp_col : tensor<16x1xi64>) outs(%e_c : tensor<16x1xi64>) {
  ^bb0(%in: i64, %out: i64):
    %0 = arith.subi %in, %c5_i64 : i64
    linalg.yield %0 : i64
  } -> tensor<16x1xi64>
  // sliding_attend_mask = arange <= (cache_position - sliding_window)
  %sliding = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, 0)>,
                                              affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
      ins(%kv_pos, %cp_minus_w : tensor<16xi64>, tensor<16x1xi64>) outs(%e_b : tensor<16x16xi1>) {
  ^bb0(%k: i64, %q: i64, %out: i1):
    %0 = arith.cmpi sle, %k, %q : i64
    linalg.yield %0 : i1
  } -> tensor<16x16xi1>
  // diagonal_attend_mask.bitwise_or_(sliding_attend_mask)
  %not_attend = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                                 affine_map<(d0, d1) -> (d0, d1)>],
                                iterator_types = ["parallel", "parallel"]}
      ins(%diag, %sliding : tensor<16x16xi1>, tensor<16x16xi1>) outs(%e_b : tensor<16x16xi1>) {
  ^bb0(%a: i1, %b: i1, %out: i1):
    %0 = arith.ori %a, %b : i1
    linalg.yield %0 : i1
  } -> tensor<16x16xi1>
  // causal_mask *= diagonal_attend_mask
  %causal2d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                               affine_map<(d0, d1) -> (d0, d1)>],
                              iterator_types = ["parallel", "parallel"]}
      ins(%full, %not_attend : tensor<16x16xbf16>, tensor<16x16xi1>) outs(%e_cm : tensor<16x16xbf16>) {
  ^bb0(%a: bf16, %b: i1, %out: bf16):
    %0 = arith.uitofp %b : i1 to bf16
    %1 = arith.mulf %a, %0 : bf16
    linalg.yield %1 : bf16
  } -> tensor<16x16xbf16>
  // causal_mask[None, None, :, :].expand(batch_size, 1, -1, -1).clone()
  %c4d = tensor.expand_shape %causal2d [[0, 1, 2], [3]] output_shape [1, 1, 16, 16]
      : tensor<16x16xbf16> into tensor<1x1x16x16xbf16>
  %e_m4 = tensor.empty() : tensor<2x1x16x16xbf16>
  %causal4d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c4d : tensor<1x1x16x16xbf16>) outs(%e_m4 : tensor<2x1x16x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<2x1x16x16xbf16>
  // padding_mask = causal_mask[:, :, :, :16] + attention_mask[:, None, None, :] ; == 0
  %am4 = tensor.expand_shape %attention_mask [[0], [1, 2, 3]] output_shape [2, 1, 1, 16]
      : tensor<2x16xi64> into tensor<2x1x1x16xi64>
  %cm_sl = tensor.extract_slice %causal4d[0, 0, 0, 0] [2, 1, 16, 16] [1, 1, 1, 1]
      : tensor<2x1x16x16xbf16> to tensor<2x1x16x16xbf16>
  %padding_sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cm_sl, %am4 : tensor<2x1x16x16xbf16>, tensor<2x1x1x16xi64>) outs(%e_m4 : tensor<2x1x16x16xbf16>) {
  ^bb0(%a: bf16, %b: i64, %out: bf16):
    %0 = arith.sitofp %b : i64 to bf16
    %1 = arith.addf %a, %0 : bf16
    linalg.yield %1 : bf16
  } -> tensor<2x1x16x16xbf16>
  %e_p4 = tensor.empty() : tensor<2x1x16x16xi1>
  %padding_mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%padding_sum : tensor<2x1x16x16xbf16>) outs(%e_p4 : tensor<2x1x16x16xi1>) {
  ^bb0(%in: bf16, %out: i1):
    %zero = arith.constant 0.000000e+00 : bf16
    %0 = arith.cmpf oeq, %in, %zero : bf16
    linalg.yield %0 : i1
  } -> tensor<2x1x16x16xi1>
  %filled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%padding_mask, %cm_sl : tensor<2x1x16x16xi1>, tensor<2x1x16x16xbf16>) outs(%e_m4 : tensor<2x1x16x16xbf16>) {
  ^bb0(%c: i1, %x: bf16, %out: bf16):
    %0 = arith.select %c, %min_bf16, %x : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x1x16x16xbf16>
  // the slice assignment, functionalized to slice_scatter
  %causal_mask = tensor.insert_slice %filled into %causal4d[0, 0, 0, 0] [2, 1, 16, 16] [1, 1, 1, 1]
      : tensor<2x1x16x16xbf16> into tensor<2x1x16x16xbf16>

  // ---- repeat_kv(key_states, 2), repeat_kv(value_states, 2) ----
  %k5 = tensor.expand_shape %key_states [[0], [1, 2], [3], [4]] output_shape [2, 2, 1, 16, 8]
      : tensor<2x2x16x8xbf16> into tensor<2x2x1x16x8xbf16>
  %e_kv5 = tensor.empty() : tensor<2x2x2x16x8xbf16>
  %k5x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>,
                                          affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k5 : tensor<2x2x1x16x8xbf16>) outs(%e_kv5 : tensor<2x2x2x16x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<2x2x2x16x8xbf16>
  %key_rep = tensor.collapse_shape %k5x [[0], [1, 2], [3], [4]] : tensor<2x2x2x16x8xbf16> into tensor<2x4x16x8xbf16>
  %v5 = tensor.expand_shape %value_states [[0], [1, 2], [3], [4]] output_shape [2, 2, 1, 16, 8]
      : tensor<2x2x16x8xbf16> into tensor<2x2x1x16x8xbf16>
  %v5x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>,
                                          affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%v5 : tensor<2x2x1x16x8xbf16>) outs(%e_kv5 : tensor<2x2x2x16x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<2x2x2x16x8xbf16>
  %value_rep = tensor.collapse_shape %v5x [[0], [1, 2], [3], [4]] : tensor<2x2x2x16x8xbf16> into tensor<2x4x16x8xbf16>

  // ---- attn_weights = matmul(q, k.transpose(2, 3)) / math.sqrt(head_dim) ----
  %e_kt = tensor.empty() : tensor<2x4x8x16xbf16>
  %key_t = linalg.transpose ins(%key_rep : tensor<2x4x16x8xbf16>) outs(%e_kt : tensor<2x4x8x16xbf16>)
      permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %query_states [[0, 1], [2], [3]] : tensor<2x4x16x8xbf16> into tensor<8x16x8xbf16>
  %k3 = tensor.collapse_shape %key_t [[0, 1], [2], [3]] : tensor<2x4x8x16xbf16> into tensor<8x8x16xbf16>
  %zero_bf16 = arith.constant 0.000000e+00 : bf16
  %e_s3 = tensor.empty() : tensor<8x16x16xbf16>
  %s3_init = linalg.fill ins(%zero_bf16 : bf16) outs(%e_s3 : tensor<8x16x16xbf16>) -> tensor<8x16x16xbf16>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x16x8xbf16>, tensor<8x8x16xbf16>)
                            outs(%s3_init : tensor<8x16x16xbf16>) -> tensor<8x16x16xbf16>
  %scores = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16]
      : tensor<8x16x16xbf16> into tensor<2x4x16x16xbf16>
  %e_s = tensor.empty() : tensor<2x4x16x16xbf16>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores : tensor<2x4x16x16xbf16>) outs(%e_s : tensor<2x4x16x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %sqrt_d = arith.constant 2.82842712 : bf16
    %0 = arith.divf %in, %sqrt_d : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x16x16xbf16>
  // attention_mask[:, :, :, : key_states.shape[-2]] ; attn_weights + causal_mask
  %cm_k = tensor.extract_slice %causal_mask[0, 0, 0, 0] [2, 1, 16, 16] [1, 1, 1, 1]
      : tensor<2x1x16x16xbf16> to tensor<2x1x16x16xbf16>
  %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled, %cm_k : tensor<2x4x16x16xbf16>, tensor<2x1x16x16xbf16>) outs(%e_s : tensor<2x4x16x16xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %out: bf16):
    %0 = arith.addf %a, %b : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x16x16xbf16>

  // ---- softmax(attn_weights, dim=-1, dtype=torch.float32).to(bf16) ----
  %e_s32 = tensor.empty() : tensor<2x4x16x16xf32>
  %w32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%masked : tensor<2x4x16x16xbf16>) outs(%e_s32 : tensor<2x4x16x16xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero32 = arith.constant 0.000000e+00 : f32
  %e_r = tensor.empty() : tensor<2x4x16xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%e_r : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w32 : tensor<2x4x16x16xf32>) outs(%max_init : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16xf32>
  %max_k = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 4, 16, 1]
      : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w32, %max_k : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%e_s32 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x16xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sub : tensor<2x4x16x16xf32>) outs(%e_s32 : tensor<2x4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x16xf32>
  %sum_init = linalg.fill ins(%zero32 : f32) outs(%e_r : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<2x4x16x16xf32>) outs(%sum_init : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16xf32>
  %sum_k = tensor.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 4, 16, 1]
      : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
  %probs32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum_k : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%e_s32 : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x16xf32>
  %probs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%probs32 : tensor<2x4x16x16xf32>) outs(%e_s : tensor<2x4x16x16xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x16x16xbf16>

  // ---- attn_output = matmul(attn_weights, value_states) ----
  %p3 = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<2x4x16x16xbf16> into tensor<8x16x16xbf16>
  %v3 = tensor.collapse_shape %value_rep [[0, 1], [2], [3]] : tensor<2x4x16x8xbf16> into tensor<8x16x8xbf16>
  %e_o3 = tensor.empty() : tensor<8x16x8xbf16>
  %o3_init = linalg.fill ins(%zero_bf16 : bf16) outs(%e_o3 : tensor<8x16x8xbf16>) -> tensor<8x16x8xbf16>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x16x16xbf16>, tensor<8x16x8xbf16>)
                            outs(%o3_init : tensor<8x16x8xbf16>) -> tensor<8x16x8xbf16>
  %attn_output = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 8]
      : tensor<8x16x8xbf16> into tensor<2x4x16x8xbf16>
  return %attn_output : tensor<2x4x16x8xbf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %sq = arith.constant 0.4 : f32
  %sk = arith.constant 1.3 : f32
  %sv = arith.constant 2.9 : f32
  %q0 = call @input4(%sq, %c2, %c4, %c16, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%sk, %c2, %c2, %c16, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%sv, %c2, %c2, %c16, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q1 = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x4x16x8xf32>
  %k1 = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<2x2x16x8xf32>
  %v1 = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<2x2x16x8xf32>
  %e_q = tensor.empty() : tensor<2x4x16x8xbf16>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q1 : tensor<2x4x16x8xf32>) outs(%e_q : tensor<2x4x16x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x16x8xbf16>
  %e_kv = tensor.empty() : tensor<2x2x16x8xbf16>
  %k = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<2x2x16x8xf32>) outs(%e_kv : tensor<2x2x16x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<2x2x16x8xbf16>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v1 : tensor<2x2x16x8xf32>) outs(%e_kv : tensor<2x2x16x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<2x2x16x8xbf16>
  // batch 1 left-padded by three tokens
  %mask = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                                [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]> : tensor<2x16xi64>
  %o = call @mistral_attention(%q, %k, %v, %mask)
      : (tensor<2x4x16x8xbf16>, tensor<2x2x16x8xbf16>, tensor<2x2x16x8xbf16>, tensor<2x16xi64>) -> tensor<2x4x16x8xbf16>
  %e_o = tensor.empty() : tensor<2x4x16x8xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x4x16x8xbf16>) outs(%e_o : tensor<2x4x16x8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x8xf32>
  %u = tensor.cast %o32 : tensor<2x4x16x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
