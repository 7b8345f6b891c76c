// Held-out block c04: Qwen2 self-attention on a sliding-window layer
// (grouped-query attention through repeat_kv), with the mask construction of
// transformers' masking_utils traced into the same graph, exported with
// torch.export and lowered by torch-mlir to linalg on tensors.
//
// Frontend: torch-mlir FX importer -> torch dialect -> DecomposeComplexOps ->
//   TorchToLinalg, canonicalized. aten.arange lowers to a linalg.generic over
//   linalg.index; comparisons and logical_and to i1 generics; torch.where to
//   arith.select.
// Model: Qwen/Qwen2-0.5B style config with use_sliding_window=True (the layer
//   is a "sliding_attention" layer), float32. Shrunk: B=2, N=16, 4 query
//   heads, 2 KV heads (num_key_value_groups=2), head_dim=16 (scaling 0.25),
//   sliding_window=6. Q and K arrive after apply_rotary_pos_emb (the rotary
//   part is not repeated here).
// Sources read:
//   huggingface/transformers src/transformers/models/qwen2/modeling_qwen2.py
//     repeat_kv:  hidden_states[:, :, None, :, :].expand(b, kv, n_rep, s, d)
//                 .reshape(b, kv * n_rep, s, d)
//     eager_attention_forward:
//       attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
//       attn_weights = attn_weights + causal_mask
//       attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
//       attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
//       attn_output = torch.matmul(attn_weights, value_states).transpose(1, 2).contiguous()
//     Qwen2Attention.forward: sliding_window=self.sliding_window for
//       layer_type "sliding_attention"; attn_output.reshape(*input_shape, -1).
//   huggingface/transformers src/transformers/masking_utils.py
//     causal_mask_function (kv_idx <= q_idx), sliding_window_overlay
//     (kv_idx > q_idx - sliding_window), padding_mask_function
//     (attention_mask[batch_idx, kv_idx]), and_masks, and the eager conversion
//     torch.where(mask, 0.0, torch.finfo(dtype).min).
//   llvm/torch-mlir DecomposeComplexOps.cpp (getSoftmaxResult), TorchToLinalg
//   (aten.expand as a broadcast generic, aten.matmul as one batch_matmul).
//
// What each op is:
//   index generics on cache_position / kv_idx            causal and sliding-window comparisons (arange)
//   cmpi ne on the i64 attention_mask + andi             padding_mask_function and and_masks
//   select(mask, 0, -3.40282347e38)                      torch.where(mask, 0.0, finfo.min)
//   expand_shape + broadcast generic + collapse          repeat_kv on key and value
//   transpose + batch_matmul + mulf 0.25                 matmul(q, k^T) * scaling
//   addf, max/sub/exp/sum/div                            + causal_mask, softmax(dtype=f32) (.to(f32) is a no-op)
//   batch_matmul, transpose, collapse                    matmul(P, v).transpose(1, 2).reshape(B, N, 64)
//
// Math: head h reads KV head h // 2.
//   allowed(b,i,j) = j <= i && j > i - 6 && attention_mask[b,j] != 0
//   S = 0.25 Q K^T + (allowed ? 0 : -3.4028235e38);  O = softmax_j(S) V
//   Batch 1 is left-padded by 3: its rows 0..2 keep no key and average V
//   uniformly; other rows see at most 6 keys.

func.func @qwen2_sliding_attention(%query_states: tensor<2x4x16x16xf32>, %key_states: tensor<2x2x16x16xf32>,
                                   %value_states: tensor<2x2x16x16xf32>, %attention_mask: tensor<2x16xi64>) -> tensor<2x16x64xf32> {
  // create_sliding_window_causal_mask: cache_position = arange(N), kv_idx = arange(N)
  %ar_e = tensor.empty() : tensor<16xi64>
  %cache_position = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                                    iterator_types = ["parallel"]}
      outs(%ar_e : tensor<16xi64>) {
  ^bb0(%out: i64):
    %0 = linalg.index 0 : index
    %1 = arith.index_cast %0 : index to i64
    linalg.yield %1 : i64
  } -> tensor<16xi64>
  %b_e = tensor.empty() : tensor<16x16xi1>
  // causal_mask_function: kv_idx <= q_idx
  %causal = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>,
                                             affine_map<(d0, d1) -> (d0)>,
                                             affine_map<(d0, d1) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%cache_position, %cache_position : tensor<16xi64>, tensor<16xi64>) outs(%b_e : tensor<16x16xi1>) {
  ^bb0(%in: i64, %in_0: i64, %out: i1):
    %0 = arith.cmpi sle, %in, %in_0 : i64
    linalg.yield %0 : i1
  } -> tensor<16x16xi1>
  // sliding_window_overlay(6): kv_idx > q_idx - sliding_window
  %c6_i64 = arith.constant 6 : i64
  %q_e = tensor.empty() : tensor<16xi64>
  %q_minus_w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                                affine_map<(d0) -> (d0)>],
                               iterator_types = ["parallel"]}
      ins(%cache_position : tensor<16xi64>) outs(%q_e : tensor<16xi64>) {
  ^bb0(%in: i64, %out: i64):
    %0 = arith.subi %in, %c6_i64 : i64
    linalg.yield %0 : i64
  } -> tensor<16xi64>
  %window = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>,
                                             affine_map<(d0, d1) -> (d0)>,
                                             affine_map<(d0, d1) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%cache_position, %q_minus_w : tensor<16xi64>, tensor<16xi64>) outs(%b_e : tensor<16x16xi1>) {
  ^bb0(%in: i64, %in_0: i64, %out: i1):
    %0 = arith.cmpi sgt, %in, %in_0 : i64
    linalg.yield %0 : i1
  } -> tensor<16x16xi1>
  %causal_window = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                                    affine_map<(d0, d1) -> (d0, d1)>,
                                                    affine_map<(d0, d1) -> (d0, d1)>],
                                   iterator_types = ["parallel", "parallel"]}
      ins(%causal, %window : tensor<16x16xi1>, tensor<16x16xi1>) outs(%b_e : tensor<16x16xi1>) {
  ^bb0(%in: i1, %in_0: i1, %out: i1):
    %0 = arith.andi %in, %in_0 : i1
    linalg.yield %0 : i1
  } -> tensor<16x16xi1>
  // padding_mask_function: attention_mask[batch_idx, kv_idx].bool(); and_masks(...)
  %m_e = tensor.empty() : tensor<2x1x16x16xi1>
  %mask_bool = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%causal_window, %attention_mask : tensor<16x16xi1>, tensor<2x16xi64>) outs(%m_e : tensor<2x1x16x16xi1>) {
  ^bb0(%in: i1, %in_0: i64, %out: i1):
    %czero = arith.constant 0 : i64
    %0 = arith.cmpi ne, %in_0, %czero : i64
    %1 = arith.andi %in, %0 : i1
    linalg.yield %1 : i1
  } -> tensor<2x1x16x16xi1>
  // eager mask: torch.where(mask, torch.tensor(0.0), torch.finfo(torch.float32).min)
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cm_e = tensor.empty() : tensor<2x1x16x16xf32>
  %causal_mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%mask_bool : tensor<2x1x16x16xi1>) outs(%cm_e : tensor<2x1x16x16xf32>) {
  ^bb0(%in: i1, %out: f32):
    %0 = arith.select %in, %cst, %cst_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x16x16xf32>
  // repeat_kv(key_states, 2): [:, :, None, :, :].expand(B, 2, 2, N, D).reshape(B, 4, N, D)
  %key_rep_u = tensor.expand_shape %key_states [[0], [1, 2], [3], [4]] output_shape [2, 2, 1, 16, 16] : tensor<2x2x16x16xf32> into tensor<2x2x1x16x16xf32>
  %key_rep_e = tensor.empty() : tensor<2x2x2x16x16xf32>
  %key_rep_x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>,
                                                affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%key_rep_u : tensor<2x2x1x16x16xf32>) outs(%key_rep_e : tensor<2x2x2x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x2x16x16xf32>
  %key_rep = tensor.collapse_shape %key_rep_x [[0], [1, 2], [3], [4]] : tensor<2x2x2x16x16xf32> into tensor<2x4x16x16xf32>
  // repeat_kv(value_states, 2): [:, :, None, :, :].expand(B, 2, 2, N, D).reshape(B, 4, N, D)
  %value_rep_u = tensor.expand_shape %value_states [[0], [1, 2], [3], [4]] output_shape [2, 2, 1, 16, 16] : tensor<2x2x16x16xf32> into tensor<2x2x1x16x16xf32>
  %value_rep_e = tensor.empty() : tensor<2x2x2x16x16xf32>
  %value_rep_x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>,
                                                  affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%value_rep_u : tensor<2x2x1x16x16xf32>) outs(%value_rep_e : tensor<2x2x2x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x2x16x16xf32>
  %value_rep = tensor.collapse_shape %value_rep_x [[0], [1, 2], [3], [4]] : tensor<2x2x2x16x16xf32> into tensor<2x4x16x16xf32>
  // attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
  %kT_e = tensor.empty() : tensor<2x4x16x16xf32>
  %key_T = linalg.transpose ins(%key_rep : tensor<2x4x16x16xf32>) outs(%kT_e : tensor<2x4x16x16xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %query_states [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
  %k3 = tensor.collapse_shape %key_T [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
  %qk_zero = arith.constant 0.000000e+00 : f32
  %qk_e = tensor.empty() : tensor<8x16x16xf32>
  %qk_z = linalg.fill ins(%qk_zero : f32) outs(%qk_e : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%qk_z : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %scores = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  %cst_1 = arith.constant 2.500000e-01 : f64
  %s_e = tensor.empty() : tensor<2x4x16x16xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores : tensor<2x4x16x16xf32>) outs(%s_e : tensor<2x4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.truncf %cst_1 : f64 to f32
    %1 = arith.mulf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x16x16xf32>
  // attn_weights + causal_mask[:, :, :, :key_len]  (full-width slice folded)
  %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled, %causal_mask : tensor<2x4x16x16xf32>, tensor<2x1x16x16xf32>) outs(%s_e : tensor<2x4x16x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x16xf32>
  // nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
  %sm_ninf = arith.constant 0xFF800000 : f32
  %sm_re = tensor.empty() : tensor<2x4x16xf32>
  %sm_mz = linalg.fill ins(%sm_ninf : f32) outs(%sm_re : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %sm_c0 = arith.constant 0 : i64
  %sm_ie = tensor.empty() : tensor<2x4x16xi64>
  %sm_iz = linalg.fill ins(%sm_c0 : i64) outs(%sm_ie : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
  %sm_max:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                              iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%masked : tensor<2x4x16x16xf32>) outs(%sm_mz, %sm_iz : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %0 = linalg.index 3 : index
    %1 = arith.index_cast %0 : index to i64
    %2 = arith.maximumf %in, %out : f32
    %3 = arith.cmpf ogt, %in, %out : f32
    %4 = arith.select %3, %1, %out_0 : i64
    linalg.yield %2, %4 : f32, i64
  } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
  %sm_maxk = tensor.expand_shape %sm_max#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
  %sm_e = tensor.empty() : tensor<2x4x16x16xf32>
  %sm_sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%masked, %sm_maxk : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%sm_e : tensor<2x4x16x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.subf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x16xf32>
  %sm_exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm_sub : tensor<2x4x16x16xf32>) outs(%sm_e : tensor<2x4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x16xf32>
  %sm_sz = linalg.fill ins(%cst : f32) outs(%sm_re : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %sm_sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sm_exp : tensor<2x4x16x16xf32>) outs(%sm_sz : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16xf32>
  %sm_sumk = tensor.expand_shape %sm_sum [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
  %attn_weights = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm_exp, %sm_sumk : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%sm_e : tensor<2x4x16x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.divf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x16x16xf32>
  // attn_output = torch.matmul(attn_weights, value_states)  (dropout: identity in eval)
  %p3 = tensor.collapse_shape %attn_weights [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
  %v3 = tensor.collapse_shape %value_rep [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
  %pv_zero = arith.constant 0.000000e+00 : f32
  %pv_e = tensor.empty() : tensor<8x16x16xf32>
  %pv_z = linalg.fill ins(%pv_zero : f32) outs(%pv_e : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%pv_z : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %o4 = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
  // attn_output.transpose(1, 2).contiguous().reshape(*input_shape, -1)
  %ot_e = tensor.empty() : tensor<2x16x4x16xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x4x16x16xf32>) outs(%ot_e : tensor<2x16x4x16xf32>) permutation = [0, 2, 1, 3]
  %attn_output = tensor.collapse_shape %ot [[0], [1], [2, 3]] : tensor<2x16x4x16xf32> into tensor<2x16x64xf32>
  return %attn_output : tensor<2x16x64xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %q_s = arith.constant 0.55 : f32
  %q_0 = call @input4(%q_s, %c2, %c4, %c16, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q_1 = tensor.cast %q_0 : tensor<?x?x?x?xf32> to tensor<2x4x16x16xf32>
  %k_s = arith.constant 1.75 : f32
  %k_0 = call @input4(%k_s, %c2, %c2, %c16, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k_1 = tensor.cast %k_0 : tensor<?x?x?x?xf32> to tensor<2x2x16x16xf32>
  %v_s = arith.constant 2.35 : f32
  %v_0 = call @input4(%v_s, %c2, %c2, %c16, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v_1 = tensor.cast %v_0 : tensor<?x?x?x?xf32> to tensor<2x2x16x16xf32>
  // batch 1 is left-padded by 3 tokens
  %am = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]> : tensor<2x16xi64>
  %o = call @qwen2_sliding_attention(%q_1, %k_1, %v_1, %am) : (tensor<2x4x16x16xf32>, tensor<2x2x16x16xf32>, tensor<2x2x16x16xf32>, tensor<2x16xi64>) -> tensor<2x16x64xf32>
  %out_u = tensor.cast %o : tensor<2x16x64xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  return
}
