// Held-out block c05: DeBERTa-v2 disentangled self-attention (content-to-
// content plus content-to-position and position-to-content terms gathered by
// relative distance), with XSoftmax and output_attentions=True, exported with
// torch.export and lowered by torch-mlir to linalg on tensors.
//
// Frontend: torch-mlir FX importer -> torch dialect -> DecomposeComplexOps ->
//   TorchToLinalg, canonicalized (aten.gather as a generic over the index
//   tensor with tensor.extract; aten.repeat decomposed to unsqueeze + expand +
//   view; masked_fill as arith.select; bitwise_not as xori with true).
// Model: microsoft/deberta-v2-xlarge style DisentangledSelfAttention with
//   pos_att_type = ["p2c", "c2p"], relative_attention=True, share_att_key=False,
//   position_buckets = -1, in float32. Shrunk: B=2, N=8, 2 heads,
//   head_dim=16, hidden=32, max_relative_positions = 4 (att_span 4, 8
//   relative embeddings). pos_key_proj/pos_query_proj of the relative
//   embeddings arrive as inputs [1, 8, 32].
// Sources read:
//   huggingface/transformers src/transformers/models/deberta_v2/modeling_deberta_v2.py
//     DisentangledSelfAttention.transpose_for_scores (view, permute(0,2,1,3),
//       view(-1, N, d)), .forward:
//       scale = torch.sqrt(torch.tensor(query_layer.size(-1), dtype=torch.float) * scale_factor)
//       attention_scores = torch.bmm(query_layer, key_layer.transpose(-1, -2)) / torch.tensor(scale, dtype=...)
//       attention_scores = attention_scores + rel_att
//       attention_probs = XSoftmax.apply(attention_scores, attention_mask, -1)
//       context_layer = torch.bmm(attention_probs.view(-1, N, N), value_layer)
//     .disentangled_attention_bias (c2p: bmm(q, pos_key^T), gather at
//       clamp(relative_pos + att_span, 0, 2*att_span-1); p2c: bmm(k, pos_query^T),
//       gather at clamp(-r_pos + att_span, ...), transpose(-1, -2); each / scale),
//     build_relative_position (q_ids[:, None] - k_ids[None, :]),
//     XSoftmax.forward (rmask = ~mask.bool(); masked_fill(rmask, finfo.min);
//       softmax; masked_fill_(rmask, 0)), DebertaV2Encoder.get_attention_mask
//       (mask[b,i] * mask[b,j], byte).
//   llvm/torch-mlir DecomposeComplexOps.cpp (getSoftmaxResult, repeat),
//   TorchToLinalg IndirectDataMovement (gather), Linear.cpp (bmm).
//
// What each op is:
//   expand_shape/transpose/collapse                 transpose_for_scores -> [B*H, N, d]
//   broadcast generic + collapse                    .repeat(B, 1, 1) of the positional projections
//   batch_matmul + divf by the 0-d literal sqrt(48) bmm(q, k^T) / scale
//   index generic (i - j), addi/clamp               build_relative_position, c2p_pos / p2c_pos
//   batch_matmul + gather generic (tensor.extract)  c2p_att, p2c_att (p2c read transposed)
//   addf                                            attention_scores + (c2p + p2c) / scale
//   xori/select finfo.min, softmax, select 0        XSoftmax with the [B,1,N,N] byte mask (uint8, i8 after type conversion)
//   batch_matmul + permute/view                     context layer; dropout (StableDropout) off in eval
//
// Math (per b, h; r = i - j, s = sqrt(16 * 3)):
//   S[i,j] = (q_i.k_j + q_i.pk[clamp(r+4, 0, 7)] + k_j.pq[clamp(r+4, 0, 7)]) / s
//   (p2c gathers row j at clamp(-(j-i)+4) and is read transposed, so both terms use r = i - j)
//   P = softmax_j(keep ? S : finfo.min), then P = keep ? P : 0;  O = P V
//   keep[b,i,j] = m[b,i] && m[b,j]; batch 1 pads its last 2 tokens, so its
//   rows 6 and 7 come out all zero. Returns (O [2, 8, 32], P [2, 2, 8, 8]).

func.func @deberta_v2_disentangled_attention(%query_proj: tensor<2x8x32xf32>, %key_proj: tensor<2x8x32xf32>, %value_proj: tensor<2x8x32xf32>,
                                              %pos_key_proj: tensor<1x8x32xf32>, %pos_query_proj: tensor<1x8x32xf32>,
                                              %attention_mask: tensor<2x1x8x8xi8>) -> (tensor<2x8x32xf32>, tensor<2x2x8x8xf32>) {
  %tr_e = tensor.empty() : tensor<2x2x8x16xf32>
  // query_layer = self.transpose_for_scores(query_proj, self.num_attention_heads)
  %query_layer_4 = tensor.expand_shape %query_proj [[0], [1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<2x8x32xf32> into tensor<2x8x2x16xf32>
  %query_layer_t = linalg.transpose ins(%query_layer_4 : tensor<2x8x2x16xf32>) outs(%tr_e : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %query_layer = tensor.collapse_shape %query_layer_t [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
  // key_layer = self.transpose_for_scores(key_proj, self.num_attention_heads)
  %key_layer_4 = tensor.expand_shape %key_proj [[0], [1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<2x8x32xf32> into tensor<2x8x2x16xf32>
  %key_layer_t = linalg.transpose ins(%key_layer_4 : tensor<2x8x2x16xf32>) outs(%tr_e : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %key_layer = tensor.collapse_shape %key_layer_t [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
  // value_layer = self.transpose_for_scores(value_proj, self.num_attention_heads)
  %value_layer_4 = tensor.expand_shape %value_proj [[0], [1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<2x8x32xf32> into tensor<2x8x2x16xf32>
  %value_layer_t = linalg.transpose ins(%value_layer_4 : tensor<2x8x2x16xf32>) outs(%tr_e : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %value_layer = tensor.collapse_shape %value_layer_t [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
  %ptr_e = tensor.empty() : tensor<1x2x8x16xf32>
  %rep_e = tensor.empty() : tensor<2x2x8x16xf32>
  // pos_key_layer = self.transpose_for_scores(pos_key_proj(rel_embeddings), H).repeat(B, 1, 1)
  %pos_key_layer_4 = tensor.expand_shape %pos_key_proj [[0], [1], [2, 3]] output_shape [1, 8, 2, 16] : tensor<1x8x32xf32> into tensor<1x8x2x16xf32>
  %pos_key_layer_t = linalg.transpose ins(%pos_key_layer_4 : tensor<1x8x2x16xf32>) outs(%ptr_e : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %pos_key_layer_x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>,
                                                      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                     iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pos_key_layer_t : tensor<1x2x8x16xf32>) outs(%rep_e : tensor<2x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x8x16xf32>
  %pos_key_layer = tensor.collapse_shape %pos_key_layer_x [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
  // pos_query_layer = self.transpose_for_scores(pos_query_proj(rel_embeddings), H).repeat(B, 1, 1)
  %pos_query_layer_4 = tensor.expand_shape %pos_query_proj [[0], [1], [2, 3]] output_shape [1, 8, 2, 16] : tensor<1x8x32xf32> into tensor<1x8x2x16xf32>
  %pos_query_layer_t = linalg.transpose ins(%pos_query_layer_4 : tensor<1x8x2x16xf32>) outs(%ptr_e : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %pos_query_layer_x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>,
                                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pos_query_layer_t : tensor<1x2x8x16xf32>) outs(%rep_e : tensor<2x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x8x16xf32>
  %pos_query_layer = tensor.collapse_shape %pos_query_layer_x [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
  // scale = torch.sqrt(torch.tensor(16, dtype=torch.float) * 3)  (folded to a 0-d literal)
  %scale = arith.constant dense<6.92820311> : tensor<f32>
  // attention_scores = torch.bmm(query_layer, key_layer.transpose(-1, -2)) / torch.tensor(scale)
  %kT_e = tensor.empty() : tensor<4x16x8xf32>
  %key_T = linalg.transpose ins(%key_layer : tensor<4x8x16xf32>) outs(%kT_e : tensor<4x16x8xf32>) permutation = [0, 2, 1]
  %qk_zero = arith.constant 0.000000e+00 : f32
  %qk_e = tensor.empty() : tensor<4x8x8xf32>
  %qk_z = linalg.fill ins(%qk_zero : f32) outs(%qk_e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %qk = linalg.batch_matmul ins(%query_layer, %key_T : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%qk_z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s_e = tensor.empty() : tensor<4x8x8xf32>
  %attention_scores = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                                       affine_map<(d0, d1, d2) -> ()>,
                                                       affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                                      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk, %scale : tensor<4x8x8xf32>, tensor<f32>) outs(%s_e : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.divf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x8x8xf32>
  // build_relative_position(N, N): q_ids[:, None] - k_ids[None, :], unsqueeze -> [1, 1, N, N]
  %rp_e = tensor.empty() : tensor<1x1x8x8xi64>
  %relative_pos = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%rp_e : tensor<1x1x8x8xi64>) {
  ^bb0(%out: i64):
    %0 = linalg.index 2 : index
    %1 = linalg.index 3 : index
    %2 = arith.index_cast %0 : index to i64
    %3 = arith.index_cast %1 : index to i64
    %4 = arith.subi %2, %3 : i64
    linalg.yield %4 : i64
  } -> tensor<1x1x8x8xi64>
  // c2p_pos = torch.clamp(relative_pos + att_span, 0, att_span * 2 - 1); p2c_pos = torch.clamp(-r_pos + att_span, ...)
  %c2p_pos = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%relative_pos : tensor<1x1x8x8xi64>) outs(%rp_e : tensor<1x1x8x8xi64>) {
  ^bb0(%in: i64, %out: i64):
    %cspan = arith.constant 4 : i64
    %clo = arith.constant 0 : i64
    %chi = arith.constant 7 : i64
    %0 = arith.addi %in, %cspan : i64
    %1 = arith.maxsi %0, %clo : i64
    %2 = arith.minsi %1, %chi : i64
    linalg.yield %2 : i64
  } -> tensor<1x1x8x8xi64>
  %neg_rel = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%relative_pos : tensor<1x1x8x8xi64>) outs(%rp_e : tensor<1x1x8x8xi64>) {
  ^bb0(%in: i64, %out: i64):
    %czero = arith.constant 0 : i64
    %0 = arith.subi %czero, %in : i64
    linalg.yield %0 : i64
  } -> tensor<1x1x8x8xi64>
  %p2c_pos = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%neg_rel : tensor<1x1x8x8xi64>) outs(%rp_e : tensor<1x1x8x8xi64>) {
  ^bb0(%in: i64, %out: i64):
    %cspan = arith.constant 4 : i64
    %clo = arith.constant 0 : i64
    %chi = arith.constant 7 : i64
    %0 = arith.addi %in, %cspan : i64
    %1 = arith.maxsi %0, %clo : i64
    %2 = arith.minsi %1, %chi : i64
    linalg.yield %2 : i64
  } -> tensor<1x1x8x8xi64>
  // c2p_att = torch.bmm(query_layer, pos_key_layer.transpose(-1, -2))
  %pkT_e = tensor.empty() : tensor<4x16x8xf32>
  %pos_key_T = linalg.transpose ins(%pos_key_layer : tensor<4x8x16xf32>) outs(%pkT_e : tensor<4x16x8xf32>) permutation = [0, 2, 1]
  %c2p_zero = arith.constant 0.000000e+00 : f32
  %c2p_e = tensor.empty() : tensor<4x8x8xf32>
  %c2p_z = linalg.fill ins(%c2p_zero : f32) outs(%c2p_e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %c2p_full = linalg.batch_matmul ins(%query_layer, %pos_key_T : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%c2p_z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  // c2p_att = torch.gather(c2p_att, dim=-1, index=c2p_pos.squeeze(0).expand([B*H, N, N]))
  %c2p_idx = tensor.collapse_shape %c2p_pos [[0, 1, 2], [3]] : tensor<1x1x8x8xi64> into tensor<8x8xi64>
  %g_e = tensor.empty() : tensor<4x8x8xf32>
  %c2p_att = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c2p_idx : tensor<8x8xi64>) outs(%g_e : tensor<4x8x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.index_cast %in : i64 to index
    %1 = linalg.index 0 : index
    %2 = linalg.index 1 : index
    %extracted = tensor.extract %c2p_full[%1, %2, %0] : tensor<4x8x8xf32>
    linalg.yield %extracted : f32
  } -> tensor<4x8x8xf32>
  // p2c_att = torch.bmm(key_layer, pos_query_layer.transpose(-1, -2))
  %pqT = linalg.transpose ins(%pos_query_layer : tensor<4x8x16xf32>) outs(%pkT_e : tensor<4x16x8xf32>) permutation = [0, 2, 1]
  %p2c_zero = arith.constant 0.000000e+00 : f32
  %p2c_e = tensor.empty() : tensor<4x8x8xf32>
  %p2c_z = linalg.fill ins(%p2c_zero : f32) outs(%p2c_e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p2c_full = linalg.batch_matmul ins(%key_layer, %pqT : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%p2c_z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  // p2c_att = torch.gather(p2c_att, dim=-1, index=p2c_pos.squeeze(0).expand([B*H, N, N])).transpose(-1, -2)
  %p2c_idx = tensor.collapse_shape %p2c_pos [[0, 1, 2], [3]] : tensor<1x1x8x8xi64> into tensor<8x8xi64>
  %p2c_g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>,
                                            affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                           iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p2c_idx : tensor<8x8xi64>) outs(%g_e : tensor<4x8x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.index_cast %in : i64 to index
    %1 = linalg.index 0 : index
    %2 = linalg.index 1 : index
    %extracted = tensor.extract %p2c_full[%1, %2, %0] : tensor<4x8x8xf32>
    linalg.yield %extracted : f32
  } -> tensor<4x8x8xf32>
  %p2c_att = linalg.transpose ins(%p2c_g : tensor<4x8x8xf32>) outs(%g_e : tensor<4x8x8xf32>) permutation = [0, 2, 1]
  // score = c2p_att / scale + p2c_att / scale
  %c2p_s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                            affine_map<(d0, d1, d2) -> ()>,
                                            affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                           iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c2p_att, %scale : tensor<4x8x8xf32>, tensor<f32>) outs(%g_e : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.divf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x8x8xf32>
  %p2c_s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                            affine_map<(d0, d1, d2) -> ()>,
                                            affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                           iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p2c_att, %scale : tensor<4x8x8xf32>, tensor<f32>) outs(%g_e : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.divf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x8x8xf32>
  %rel_att = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c2p_s, %p2c_s : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%g_e : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x8x8xf32>
  // attention_scores = attention_scores + rel_att; .view(-1, H, N, N)
  %scores3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%attention_scores, %rel_att : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%s_e : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x8x8xf32>
  %scores = tensor.expand_shape %scores3 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xf32> into tensor<2x2x8x8xf32>
  // XSoftmax.forward: rmask = ~(mask.to(torch.bool))
  %rm_e = tensor.empty() : tensor<2x1x8x8xi1>
  %rmask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%attention_mask : tensor<2x1x8x8xi8>) outs(%rm_e : tensor<2x1x8x8xi1>) {
  ^bb0(%in: i8, %out: i1):
    %czero = arith.constant 0 : i8
    %0 = arith.cmpi ne, %in, %czero : i8
    %true = arith.constant true
    %1 = arith.xori %0, %true : i1
    linalg.yield %1 : i1
  } -> tensor<2x1x8x8xi1>
  // output = input.masked_fill(rmask, torch.tensor(torch.finfo(input.dtype).min))
  %finfo_min = arith.constant dense<-3.40282347E+38> : tensor<f32>
  %x_e = tensor.empty() : tensor<2x2x8x8xf32>
  %filled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> ()>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%rmask, %finfo_min, %scores : tensor<2x1x8x8xi1>, tensor<f32>, tensor<2x2x8x8xf32>) outs(%x_e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: i1, %in_0: f32, %in_1: f32, %out: f32):
    %0 = arith.select %in, %in_0, %in_1 : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  // output = torch.softmax(output, self.dim)
  %sm_ninf = arith.constant 0xFF800000 : f32
  %sm_zero = arith.constant 0.000000e+00 : f32
  %sm_re = tensor.empty() : tensor<2x2x8xf32>
  %sm_mz = linalg.fill ins(%sm_ninf : f32) outs(%sm_re : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %sm_c0 = arith.constant 0 : i64
  %sm_ie = tensor.empty() : tensor<2x2x8xi64>
  %sm_iz = linalg.fill ins(%sm_c0 : i64) outs(%sm_ie : tensor<2x2x8xi64>) -> tensor<2x2x8xi64>
  %sm_max:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                              iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%filled : tensor<2x2x8x8xf32>) outs(%sm_mz, %sm_iz : tensor<2x2x8xf32>, tensor<2x2x8xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %0 = linalg.index 3 : index
    %1 = arith.index_cast %0 : index to i64
    %2 = arith.maximumf %in, %out : f32
    %3 = arith.cmpf ogt, %in, %out : f32
    %4 = arith.select %3, %1, %out_0 : i64
    linalg.yield %2, %4 : f32, i64
  } -> (tensor<2x2x8xf32>, tensor<2x2x8xi64>)
  %sm_maxk = tensor.expand_shape %sm_max#0 [[0], [1], [2, 3]] output_shape [2, 2, 8, 1] : tensor<2x2x8xf32> into tensor<2x2x8x1xf32>
  %sm_e = tensor.empty() : tensor<2x2x8x8xf32>
  %sm_sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%filled, %sm_maxk : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%sm_e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.subf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  %sm_exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm_sub : tensor<2x2x8x8xf32>) outs(%sm_e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  %sm_sz = linalg.fill ins(%sm_zero : f32) outs(%sm_re : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %sm_sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sm_exp : tensor<2x2x8x8xf32>) outs(%sm_sz : tensor<2x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8xf32>
  %sm_sumk = tensor.expand_shape %sm_sum [[0], [1], [2, 3]] output_shape [2, 2, 8, 1] : tensor<2x2x8xf32> into tensor<2x2x8x1xf32>
  %softmax = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm_exp, %sm_sumk : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%sm_e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.divf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  // output.masked_fill_(rmask, 0)
  %cst_zero = arith.constant 0.000000e+00 : f32
  %pr_e = tensor.empty() : tensor<2x2x8x8xf32>
  %attention_probs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                                      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                     iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%rmask, %softmax : tensor<2x1x8x8xi1>, tensor<2x2x8x8xf32>) outs(%pr_e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: i1, %in_0: f32, %out: f32):
    %0 = arith.select %in, %cst_zero, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  // context_layer = torch.bmm(attention_probs.view(-1, N, N), value_layer)  (StableDropout: identity in eval)
  %p3 = tensor.collapse_shape %attention_probs [[0, 1], [2], [3]] : tensor<2x2x8x8xf32> into tensor<4x8x8xf32>
  %pv_zero = arith.constant 0.000000e+00 : f32
  %pv_e = tensor.empty() : tensor<4x8x16xf32>
  %pv_z = linalg.fill ins(%pv_zero : f32) outs(%pv_e : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %ctx3 = linalg.batch_matmul ins(%p3, %value_layer : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%pv_z : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  // context_layer.view(-1, H, N, d).permute(0, 2, 1, 3).contiguous().view(B, N, H * d)
  %ctx4 = tensor.expand_shape %ctx3 [[0, 1], [2], [3]] output_shape [2, 2, 8, 16] : tensor<4x8x16xf32> into tensor<2x2x8x16xf32>
  %ct_e = tensor.empty() : tensor<2x8x2x16xf32>
  %ctxt = linalg.transpose ins(%ctx4 : tensor<2x2x8x16xf32>) outs(%ct_e : tensor<2x8x2x16xf32>) permutation = [0, 2, 1, 3]
  %context_layer = tensor.collapse_shape %ctxt [[0], [1], [2, 3]] : tensor<2x8x2x16xf32> into tensor<2x8x32xf32>
  return %context_layer, %attention_probs : tensor<2x8x32xf32>, tensor<2x2x8x8xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %q_s = arith.constant 0.3 : f32
  %q_0 = call @input3(%q_s, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q_1 = tensor.cast %q_0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %k_s = arith.constant 1.4 : f32
  %k_0 = call @input3(%k_s, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k_1 = tensor.cast %k_0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %v_s = arith.constant 2.5 : f32
  %v_0 = call @input3(%v_s, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v_1 = tensor.cast %v_0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %pk_s = arith.constant 0.8 : f32
  %pk_0 = call @input3(%pk_s, %c1, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %pk_1 = tensor.cast %pk_0 : tensor<?x?x?xf32> to tensor<1x8x32xf32>
  %pq_s = arith.constant 1.9 : f32
  %pq_0 = call @input3(%pq_s, %c1, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %pq_1 = tensor.cast %pq_0 : tensor<?x?x?xf32> to tensor<1x8x32xf32>
  // get_attention_mask: mask[b,i] * mask[b,j] as a byte tensor; batch 1 pads its last two tokens
  %m_e = tensor.empty() : tensor<2x1x8x8xi8>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%m_e : tensor<2x1x8x8xi8>) {
  ^bb0(%out: i8):
    %0 = linalg.index 0 : index
    %1 = linalg.index 2 : index
    %2 = linalg.index 3 : index
    %c6_r = arith.constant 6 : index
    %3 = arith.cmpi ult, %1, %c6_r : index
    %4 = arith.cmpi ult, %2, %c6_r : index
    %5 = arith.andi %3, %4 : i1
    %c0_r = arith.constant 0 : index
    %6 = arith.cmpi eq, %0, %c0_r : index
    %7 = arith.ori %5, %6 : i1
    %8 = arith.extui %7 : i1 to i8
    linalg.yield %8 : i8
  } -> tensor<2x1x8x8xi8>
  %o:2 = call @deberta_v2_disentangled_attention(%q_1, %k_1, %v_1, %pk_1, %pq_1, %mask) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<1x8x32xf32>, tensor<1x8x32xf32>, tensor<2x1x8x8xi8>) -> (tensor<2x8x32xf32>, tensor<2x2x8x8xf32>)
  %out_u = tensor.cast %o#0 : tensor<2x8x32xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  %probs_u = tensor.cast %o#1 : tensor<2x2x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%probs_u) : (tensor<*xf32>) -> ()
  return
}
