// Held-out block c01: Falcon-7B self-attention (multi-query, rotary), eager
// path with output_attentions=True, in bfloat16, exported with torch.export
// and lowered by torch-mlir (torch-backend-to-linalg-on-tensors-backend-pipeline).
//
// Frontend: torch-mlir FX importer -> torch dialect -> DecomposeComplexOps ->
//   TorchToLinalg, canonicalized.
// Model: tiiuae/falcon-7b (multi_query=True, new_decoder_architecture=False,
//   alibi=False): 1 shared K/V head for all query heads. Shrunk: B=2, N=8,
//   H=4 query heads, head_dim=16, hidden=64, fused QKV width (H+2)*16 = 96.
// Sources read:
//   huggingface/transformers src/transformers/models/falcon/modeling_falcon.py
//     FalconAttention._split_heads (multi_query branch: view(B, N, H+2, D),
//     query = fused[..., :-2, :], key = fused[..., [-2], :], value = fused[..., [-1], :]),
//     FalconAttention.forward, the `alibi is None` eager branch:
//       attention_scores = query_layer @ key_layer.transpose(-1, -2)
//       attention_scores /= math.sqrt(self.head_dim)
//       attention_scores = F.softmax(attention_scores + attention_mask, dim=-1,
//                                    dtype=hidden_states.dtype)
//       attn_output = attention_scores @ value_layer
//     (no dropout or head_mask on this branch), apply_rotary_pos_emb /
//     rotate_half (q*cos + cat(-x2, x1)*sin, cos/sin unsqueezed at dim 1).
//   llvm/torch-mlir lib/Dialect/Torch/Transforms/DecomposeComplexOps.cpp
//     (DecomposeAtenSoftmaxIntOp / getSoftmaxResult: bf16 softmax accumulated
//     in f32 through getDefaultAccType: max.dim, sub, exp, sum.dim_IntList, div),
//   lib/Conversion/TorchToLinalg/Linear.cpp (ConvertAtenMatmulOp: batch dims
//     broadcast with a linalg.generic, collapsed to one linalg.batch_matmul
//     with an f32 accumulator, truncated back to bf16),
//   lib/Conversion/TorchToLinalg/Reduction.cpp (ConvertAtenMinMaxDimOp: the
//     max keeps its unused i64 argmax result), IndexingUtils / index.Tensor
//     lowering (gather with tensor.extract and negative-index wrap).
//
// What each op is:
//   expand_shape            fused_qkv.view(B, N, H+2, D)
//   extract_slice           fused[..., :-2, :]       (aten.slice.Tensor)
//   generic + tensor.extract fused[..., [-2], :] and fused[..., [-1], :] (aten.index.Tensor)
//   linalg.transpose        .transpose(1, 2)
//   extract_slice/negf/concat/mulf/addf   apply_rotary_pos_emb on Q and on the single K head
//   broadcast generic + batch_matmul      query @ key^T (K's head dim 1 broadcast to 4)
//   divf by 4.0             attention_scores /= sqrt(16)    (in-place div_, functionalized)
//   addf                    + attention_mask  ([B,1,N,N] bf16, 0 or finfo(bf16).min)
//   extf .. truncf          F.softmax(..., dtype=bf16) computed in f32
//   broadcast + batch_matmul attention_scores @ value_layer
//   transpose + collapse    view/permute(0, 2, 1, 3)/reshape(B, N, H*D)
//
// Math: Qr = rope(Q), Kr = rope(K) (K: one head shared by the 4 query heads)
//   S = bf16(Qr Kr^T) / 4 + mask;  P = bf16(softmax_k(f32(S)));  O = bf16(P V)
//   Returns (O merged as [B, N, 64], P [B, H, N, N]); both bf16.
//   Batch 1 is left-padded by 2: its query rows 0 and 1 have every key at
//   finfo.min and average V uniformly (as the eager path does).

func.func @falcon_attention(%fused_qkv: tensor<2x8x96xbf16>, %cos: tensor<2x8x16xbf16>, %sin: tensor<2x8x16xbf16>,
                            %attention_mask: tensor<2x1x8x8xbf16>) -> (tensor<2x8x64xbf16>, tensor<2x4x8x8xbf16>) {
  // _split_heads: fused_qkv.view(batch_size, seq_length, self.num_heads + 2, self.head_dim)
  %qkv = tensor.expand_shape %fused_qkv [[0], [1], [2, 3]] output_shape [2, 8, 6, 16] : tensor<2x8x96xbf16> into tensor<2x8x6x16xbf16>
  // fused_qkv[..., :-2, :]
  %query = tensor.extract_slice %qkv[0, 0, 0, 0] [2, 8, 4, 16] [1, 1, 1, 1] : tensor<2x8x6x16xbf16> to tensor<2x8x4x16xbf16>
  // fused_qkv[..., [-2], :]  (aten.index.Tensor, constant index list)
  %key_idx = arith.constant dense<-2> : tensor<1xi64>
  %key_e = tensor.empty() : tensor<2x8x1x16xbf16>
  %key = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%key_idx : tensor<1xi64>) outs(%key_e : tensor<2x8x1x16xbf16>) {
  ^bb0(%in: i64, %out: bf16):
    %czero = arith.constant 0 : i64
    %cdim = arith.constant 6 : i64
    %0 = arith.cmpi slt, %in, %czero : i64
    %1 = arith.addi %in, %cdim : i64
    %2 = arith.select %0, %1, %in : i64
    %3 = arith.index_cast %2 : i64 to index
    %4 = linalg.index 0 : index
    %5 = linalg.index 1 : index
    %6 = linalg.index 3 : index
    %extracted = tensor.extract %qkv[%4, %5, %3, %6] : tensor<2x8x6x16xbf16>
    linalg.yield %extracted : bf16
  } -> tensor<2x8x1x16xbf16>
  // fused_qkv[..., [-1], :]  (aten.index.Tensor, constant index list)
  %value_idx = arith.constant dense<-1> : tensor<1xi64>
  %value_e = tensor.empty() : tensor<2x8x1x16xbf16>
  %value = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%value_idx : tensor<1xi64>) outs(%value_e : tensor<2x8x1x16xbf16>) {
  ^bb0(%in: i64, %out: bf16):
    %czero = arith.constant 0 : i64
    %cdim = arith.constant 6 : i64
    %0 = arith.cmpi slt, %in, %czero : i64
    %1 = arith.addi %in, %cdim : i64
    %2 = arith.select %0, %1, %in : i64
    %3 = arith.index_cast %2 : i64 to index
    %4 = linalg.index 0 : index
    %5 = linalg.index 1 : index
    %6 = linalg.index 3 : index
    %extracted = tensor.extract %qkv[%4, %5, %3, %6] : tensor<2x8x6x16xbf16>
    linalg.yield %extracted : bf16
  } -> tensor<2x8x1x16xbf16>
  // query_layer = query.transpose(1, 2); key_layer / value_layer likewise (the reshapes are no-ops)
  %qt_e = tensor.empty() : tensor<2x4x8x16xbf16>
  %query_layer = linalg.transpose ins(%query : tensor<2x8x4x16xbf16>) outs(%qt_e : tensor<2x4x8x16xbf16>) permutation = [0, 2, 1, 3]
  %kt_e = tensor.empty() : tensor<2x1x8x16xbf16>
  %key_layer = linalg.transpose ins(%key : tensor<2x8x1x16xbf16>) outs(%kt_e : tensor<2x1x8x16xbf16>) permutation = [0, 2, 1, 3]
  %value_layer = linalg.transpose ins(%value : tensor<2x8x1x16xbf16>) outs(%kt_e : tensor<2x1x8x16xbf16>) permutation = [0, 2, 1, 3]
  // apply_rotary_pos_emb(query_layer, key_layer, cos, sin): cos.unsqueeze(1), sin.unsqueeze(1)
  %cos_u = tensor.expand_shape %cos [[0], [1, 2], [3]] output_shape [2, 1, 8, 16] : tensor<2x8x16xbf16> into tensor<2x1x8x16xbf16>
  %sin_u = tensor.expand_shape %sin [[0], [1, 2], [3]] output_shape [2, 1, 8, 16] : tensor<2x8x16xbf16> into tensor<2x1x8x16xbf16>
  // q_embed = (query_layer * cos) + (rotate_half(query_layer) * sin)
  %q_embed_x1 = tensor.extract_slice %query_layer[0, 0, 0, 0] [2, 4, 8, 8] [1, 1, 1, 1] : tensor<2x4x8x16xbf16> to tensor<2x4x8x8xbf16>
  %q_embed_x2 = tensor.extract_slice %query_layer[0, 0, 0, 8] [2, 4, 8, 8] [1, 1, 1, 1] : tensor<2x4x8x16xbf16> to tensor<2x4x8x8xbf16>
  %q_embed_he = tensor.empty() : tensor<2x4x8x8xbf16>
  %q_embed_neg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q_embed_x2 : tensor<2x4x8x8xbf16>) outs(%q_embed_he : tensor<2x4x8x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %0 = arith.negf %in : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x8x8xbf16>
  %q_embed_rot = tensor.concat dim(3) %q_embed_neg, %q_embed_x1 : (tensor<2x4x8x8xbf16>, tensor<2x4x8x8xbf16>) -> tensor<2x4x8x16xbf16>
  %q_embed_e = tensor.empty() : tensor<2x4x8x16xbf16>
  %q_embed_c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%query_layer, %cos_u : tensor<2x4x8x16xbf16>, tensor<2x1x8x16xbf16>) outs(%q_embed_e : tensor<2x4x8x16xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
    %0 = arith.mulf %in, %in_0 : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x8x16xbf16>
  %q_embed_s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q_embed_rot, %sin_u : tensor<2x4x8x16xbf16>, tensor<2x1x8x16xbf16>) outs(%q_embed_e : tensor<2x4x8x16xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
    %0 = arith.mulf %in, %in_0 : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x8x16xbf16>
  %q_embed = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q_embed_c, %q_embed_s : tensor<2x4x8x16xbf16>, tensor<2x4x8x16xbf16>) outs(%q_embed_e : tensor<2x4x8x16xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
    %0 = arith.addf %in, %in_0 : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x8x16xbf16>
  // k_embed = (key_layer * cos) + (rotate_half(key_layer) * sin)
  %k_embed_x1 = tensor.extract_slice %key_layer[0, 0, 0, 0] [2, 1, 8, 8] [1, 1, 1, 1] : tensor<2x1x8x16xbf16> to tensor<2x1x8x8xbf16>
  %k_embed_x2 = tensor.extract_slice %key_layer[0, 0, 0, 8] [2, 1, 8, 8] [1, 1, 1, 1] : tensor<2x1x8x16xbf16> to tensor<2x1x8x8xbf16>
  %k_embed_he = tensor.empty() : tensor<2x1x8x8xbf16>
  %k_embed_neg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k_embed_x2 : tensor<2x1x8x8xbf16>) outs(%k_embed_he : tensor<2x1x8x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %0 = arith.negf %in : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x1x8x8xbf16>
  %k_embed_rot = tensor.concat dim(3) %k_embed_neg, %k_embed_x1 : (tensor<2x1x8x8xbf16>, tensor<2x1x8x8xbf16>) -> tensor<2x1x8x16xbf16>
  %k_embed_e = tensor.empty() : tensor<2x1x8x16xbf16>
  %k_embed_c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%key_layer, %cos_u : tensor<2x1x8x16xbf16>, tensor<2x1x8x16xbf16>) outs(%k_embed_e : tensor<2x1x8x16xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
    %0 = arith.mulf %in, %in_0 : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x1x8x16xbf16>
  %k_embed_s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k_embed_rot, %sin_u : tensor<2x1x8x16xbf16>, tensor<2x1x8x16xbf16>) outs(%k_embed_e : tensor<2x1x8x16xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
    %0 = arith.mulf %in, %in_0 : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x1x8x16xbf16>
  %k_embed = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k_embed_c, %k_embed_s : tensor<2x1x8x16xbf16>, tensor<2x1x8x16xbf16>) outs(%k_embed_e : tensor<2x1x8x16xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
    %0 = arith.addf %in, %in_0 : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x1x8x16xbf16>
  // attention_scores = query_layer @ key_layer.transpose(-1, -2)
  %kT_e = tensor.empty() : tensor<2x1x16x8xbf16>
  %kT = linalg.transpose ins(%k_embed : tensor<2x1x8x16xbf16>) outs(%kT_e : tensor<2x1x16x8xbf16>) permutation = [0, 1, 3, 2]
  %kTb_e = tensor.empty() : tensor<2x4x16x8xbf16>
  %kT_b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%kT : tensor<2x1x16x8xbf16>) outs(%kTb_e : tensor<2x4x16x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<2x4x16x8xbf16>
  %q3 = tensor.collapse_shape %q_embed [[0, 1], [2], [3]] : tensor<2x4x8x16xbf16> into tensor<8x8x16xbf16>
  %k3 = tensor.collapse_shape %kT_b [[0, 1], [2], [3]] : tensor<2x4x16x8xbf16> into tensor<8x16x8xbf16>
  %cst = arith.constant 0.000000e+00 : f32
  %s3_e = tensor.empty() : tensor<8x8x8xf32>
  %s3_z = linalg.fill ins(%cst : f32) outs(%s3_e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x8x16xbf16>, tensor<8x16x8xbf16>) outs(%s3_z : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %s3h_e = tensor.empty() : tensor<8x8x8xbf16>
  %s3h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s3 : tensor<8x8x8xf32>) outs(%s3h_e : tensor<8x8x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<8x8x8xbf16>
  %scores = tensor.expand_shape %s3h [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xbf16> into tensor<2x4x8x8xbf16>
  // attention_scores /= math.sqrt(self.head_dim)
  %cst_0 = arith.constant 4.000000e+00 : f64
  %sc_e = tensor.empty() : tensor<2x4x8x8xbf16>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores : tensor<2x4x8x8xbf16>) outs(%sc_e : tensor<2x4x8x8xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %0 = arith.truncf %cst_0 : f64 to bf16
    %1 = arith.divf %in, %0 : bf16
    linalg.yield %1 : bf16
  } -> tensor<2x4x8x8xbf16>
  // attention_scores + attention_mask
  %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled, %attention_mask : tensor<2x4x8x8xbf16>, tensor<2x1x8x8xbf16>) outs(%sc_e : tensor<2x4x8x8xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
    %0 = arith.addf %in, %in_0 : bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x8x8xbf16>
  // F.softmax(x, dim=-1, dtype=torch.bfloat16): decomposed with an f32 accumulator
  %x32_e = tensor.empty() : tensor<2x4x8x8xf32>
  %x32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%masked : tensor<2x4x8x8xbf16>) outs(%x32_e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8x8xf32>
  %c0_i64 = arith.constant 0 : i64
  %cst_1 = arith.constant 0xFF800000 : f32
  %mi_e = tensor.empty() : tensor<2x4x8xi64>
  %mi_z = linalg.fill ins(%c0_i64 : i64) outs(%mi_e : tensor<2x4x8xi64>) -> tensor<2x4x8xi64>
  %mv_e = tensor.empty() : tensor<2x4x8xf32>
  %mv_z = linalg.fill ins(%cst_1 : f32) outs(%mv_e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %max:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                           iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x32 : tensor<2x4x8x8xf32>) outs(%mv_z, %mi_z : tensor<2x4x8xf32>, tensor<2x4x8xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %0 = linalg.index 3 : index
    %1 = arith.index_cast %0 : index to i64
    %2 = arith.maximumf %in, %out : f32
    %3 = arith.cmpf ogt, %in, %out : f32
    %4 = arith.select %3, %1, %out_0 : i64
    linalg.yield %2, %4 : f32, i64
  } -> (tensor<2x4x8xf32>, tensor<2x4x8xi64>)
  %max_k = tensor.expand_shape %max#0 [[0], [1], [2, 3]] output_shape [2, 4, 8, 1] : tensor<2x4x8xf32> into tensor<2x4x8x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x32, %max_k : tensor<2x4x8x8xf32>, tensor<2x4x8x1xf32>) outs(%x32_e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.subf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8x8xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sub : tensor<2x4x8x8xf32>) outs(%x32_e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8x8xf32>
  %sum_z = linalg.fill ins(%cst : f32) outs(%mv_e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<2x4x8x8xf32>) outs(%sum_z : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8xf32>
  %sum_k = tensor.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 4, 8, 1] : tensor<2x4x8xf32> into tensor<2x4x8x1xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum_k : tensor<2x4x8x8xf32>, tensor<2x4x8x1xf32>) outs(%x32_e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.divf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8x8xf32>
  %attention_probs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                     iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%div : tensor<2x4x8x8xf32>) outs(%sc_e : tensor<2x4x8x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<2x4x8x8xbf16>
  // attn_output = attention_scores @ value_layer
  %vb_e = tensor.empty() : tensor<2x4x8x16xbf16>
  %v_b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%value_layer : tensor<2x1x8x16xbf16>) outs(%vb_e : tensor<2x4x8x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<2x4x8x16xbf16>
  %p3 = tensor.collapse_shape %attention_probs [[0, 1], [2], [3]] : tensor<2x4x8x8xbf16> into tensor<8x8x8xbf16>
  %v3 = tensor.collapse_shape %v_b [[0, 1], [2], [3]] : tensor<2x4x8x16xbf16> into tensor<8x8x16xbf16>
  %o3_e = tensor.empty() : tensor<8x8x16xf32>
  %o3_z = linalg.fill ins(%cst : f32) outs(%o3_e : tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x8x8xbf16>, tensor<8x8x16xbf16>) outs(%o3_z : tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
  %o3h_e = tensor.empty() : tensor<8x8x16xbf16>
  %o3h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o3 : tensor<8x8x16xf32>) outs(%o3h_e : tensor<8x8x16xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<8x8x16xbf16>
  %attn = tensor.expand_shape %o3h [[0, 1], [2], [3]] output_shape [2, 4, 8, 16] : tensor<8x8x16xbf16> into tensor<2x4x8x16xbf16>
  // attn_output.view(B, H, N, D).permute(0, 2, 1, 3).reshape(B, N, H * D)
  %perm_e = tensor.empty() : tensor<2x8x4x16xbf16>
  %perm = linalg.transpose ins(%attn : tensor<2x4x8x16xbf16>) outs(%perm_e : tensor<2x8x4x16xbf16>) permutation = [0, 2, 1, 3]
  %attn_output = tensor.collapse_shape %perm [[0], [1], [2, 3]] : tensor<2x8x4x16xbf16> into tensor<2x8x64xbf16>
  return %attn_output, %attention_probs : tensor<2x8x64xbf16>, tensor<2x4x8x8xbf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c96 = arith.constant 96 : index
  %qkv_s = arith.constant 0.35 : f32
  %qkv_0 = call @input3(%qkv_s, %c2, %c8, %c96) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %qkv_1 = tensor.cast %qkv_0 : tensor<?x?x?xf32> to tensor<2x8x96xf32>
  %qkv_e = tensor.empty() : tensor<2x8x96xbf16>
  %qkv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qkv_1 : tensor<2x8x96xf32>) outs(%qkv_e : tensor<2x8x96xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x8x96xbf16>
  // FalconRotaryEmbedding (rope_theta 10000): positions 0..7, cos/sin of cat(freqs, freqs), cast to bf16
  %rope_e = tensor.empty() : tensor<2x8x16xbf16>
  %cos = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%rope_e : tensor<2x8x16xbf16>) {
  ^bb0(%out: bf16):
    %0 = linalg.index 1 : index
    %1 = linalg.index 2 : index
    %c8_r = arith.constant 8 : index
    %2 = arith.remui %1, %c8_r : index
    %3 = arith.index_cast %0 : index to i64
    %4 = arith.sitofp %3 : i64 to f32
    %5 = arith.index_cast %2 : index to i64
    %6 = arith.sitofp %5 : i64 to f32
    %k = arith.constant -1.15129256 : f32
    %7 = arith.mulf %6, %k : f32
    %8 = math.exp %7 : f32
    %9 = arith.mulf %4, %8 : f32
    %10 = math.cos %9 : f32
    %11 = arith.truncf %10 : f32 to bf16
    linalg.yield %11 : bf16
  } -> tensor<2x8x16xbf16>
  %sin = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%rope_e : tensor<2x8x16xbf16>) {
  ^bb0(%out: bf16):
    %0 = linalg.index 1 : index
    %1 = linalg.index 2 : index
    %c8_r = arith.constant 8 : index
    %2 = arith.remui %1, %c8_r : index
    %3 = arith.index_cast %0 : index to i64
    %4 = arith.sitofp %3 : i64 to f32
    %5 = arith.index_cast %2 : index to i64
    %6 = arith.sitofp %5 : i64 to f32
    %k = arith.constant -1.15129256 : f32
    %7 = arith.mulf %6, %k : f32
    %8 = math.exp %7 : f32
    %9 = arith.mulf %4, %8 : f32
    %10 = math.sin %9 : f32
    %11 = arith.truncf %10 : f32 to bf16
    linalg.yield %11 : bf16
  } -> tensor<2x8x16xbf16>
  // _update_causal_mask: 0 where k <= q and k is not padding, finfo(bf16).min elsewhere; batch 1 left-padded by 2
  %mask_e = tensor.empty() : tensor<2x1x8x8xbf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%mask_e : tensor<2x1x8x8xbf16>) {
  ^bb0(%out: bf16):
    %0 = linalg.index 0 : index
    %1 = linalg.index 2 : index
    %2 = linalg.index 3 : index
    %c2_r = arith.constant 2 : index
    %3 = arith.muli %0, %c2_r : index
    %4 = arith.cmpi ule, %2, %1 : index
    %5 = arith.cmpi uge, %2, %3 : index
    %6 = arith.andi %4, %5 : i1
    %zero = arith.constant 0.000000e+00 : bf16
    %min = arith.constant -3.38953139E+38 : bf16
    %7 = arith.select %6, %zero, %min : bf16
    linalg.yield %7 : bf16
  } -> tensor<2x1x8x8xbf16>
  %o:2 = call @falcon_attention(%qkv, %cos, %sin, %mask) : (tensor<2x8x96xbf16>, tensor<2x8x16xbf16>, tensor<2x8x16xbf16>, tensor<2x1x8x8xbf16>) -> (tensor<2x8x64xbf16>, tensor<2x4x8x8xbf16>)
  %out_pe = tensor.empty() : tensor<2x8x64xf32>
  %out_p32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o#0 : tensor<2x8x64xbf16>) outs(%out_pe : tensor<2x8x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %t = arith.extf %in : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<2x8x64xf32>
  %out_u = tensor.cast %out_p32 : tensor<2x8x64xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  %probs_pe = tensor.empty() : tensor<2x4x8x8xf32>
  %probs_p32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                               iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o#1 : tensor<2x4x8x8xbf16>) outs(%probs_pe : tensor<2x4x8x8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %t = arith.extf %in : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<2x4x8x8xf32>
  %probs_u = tensor.cast %probs_p32 : tensor<2x4x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%probs_u) : (tensor<*xf32>) -> ()
  return
}
