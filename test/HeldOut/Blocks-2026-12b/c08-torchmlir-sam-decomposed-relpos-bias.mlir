// Held-out block c08: Segment Anything (SAM) image-encoder attention with
// decomposed relative-position bias (add_decomposed_rel_pos: a height term
// and a width term, each a matmul of the *unscaled* query with gathered
// relative-position tables, broadcast into the [q_h, q_w, k_h, k_w] logits),
// float32, exported with torch.export and lowered by torch-mlir to linalg.
//
// Frontend: torch-mlir FX importer -> torch dialect -> DecomposeComplexOps ->
//   TorchToLinalg, canonicalized.
// Model: facebookresearch/segment-anything ViT-B image encoder, a global-
//   attention block (use_rel_pos=True, window_size=0). Shrunk: B=2, a 4x4
//   token grid (16 tokens), dim=32, 2 heads, head_dim=16 (scale 0.25),
//   rel_pos_h / rel_pos_w of 2*4-1 = 7 rows.
// Sources read:
//   facebookresearch/segment-anything segment_anything/modeling/image_encoder.py
//     Attention.forward:
//       qkv = self.qkv(x).reshape(B, H * W, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
//       q, k, v = qkv.reshape(3, B * self.num_heads, H * W, -1).unbind(0)
//       attn = (q * self.scale) @ k.transpose(-2, -1)
//       attn = add_decomposed_rel_pos(attn, q, self.rel_pos_h, self.rel_pos_w, (H, W), (H, W))
//       attn = attn.softmax(dim=-1)
//       x = (attn @ v).view(B, self.num_heads, H, W, -1).permute(0, 2, 3, 1, 4).reshape(B, H, W, -1)
//     get_rel_pos (no interpolation when rel_pos has 2*max(q,k)-1 rows):
//       relative_coords = (q_coords - k_coords) + (k_size - 1) * max(q_size / k_size, 1.0)
//       return rel_pos_resized[relative_coords.long()]
//     add_decomposed_rel_pos:
//       r_q = q.reshape(B, q_h, q_w, dim)
//       rel_h = torch.matmul(r_q, Rh.permute(0, 2, 1))
//       rel_w = torch.matmul(r_q.permute(0, 2, 1, 3), Rw.permute(0, 2, 1)).permute(0, 2, 1, 3)
//       attn = (attn.view(B, q_h, q_w, k_h, k_w) + rel_h[:, :, :, :, None]
//               + rel_w[:, :, :, None, :]).view(B, q_h * q_w, k_h * k_w)
//   llvm/torch-mlir TorchToLinalg Linear.cpp (matmul rank-4 x rank-3: the
//   rank-3 operand broadcast over the batch, collapsed to batch_matmul),
//   IndexTensor lowering (gather with tensor.extract), getSoftmaxResult.
//
// What each op is:
//   expand_shape/transpose/collapse/extract_slice   qkv reshape/permute/unbind into [B*nh, 16, 16] q, k, v
//   mulf 0.25 + batch_matmul                        (q * scale) @ k^T
//   arange/sitofp/mulf 1.0/subf/addf 3.0/fptosi     get_rel_pos's relative_coords(.long())
//   gather generic                                  rel_pos_h[coords], rel_pos_w[coords] -> [4, 4, 16]
//   broadcast + batch_matmul (+ transposes)         rel_h, rel_w with the unscaled q
//   expand_shape + addf (3 inputs, 2 broadcasts)    attn.view(...) + rel_h[..., None] + rel_w[..., None, :]
//   max/sub/exp/sum/div                             attn.softmax(dim=-1)
//   batch_matmul + view/permute/reshape             (attn @ v) back to [B, 4, 4, 32]
//
// Math, token t = (y, x), key s = (y', x'):
//   S[t, s] = 0.25 q_t.k_s + q_t.Rh[y - y' + 3] + q_t.Rw[x - x' + 3]
//   O = softmax_s(S) V;  returns [2, 4, 4, 32].

func.func @sam_rel_pos_attention(%qkv_out: tensor<2x4x4x96xf32>, %rel_pos_h: tensor<7x16xf32>,
                                 %rel_pos_w: tensor<7x16xf32>) -> tensor<2x4x4x32xf32> {
  // self.qkv(x).reshape(B, H * W, 3, nh, -1).permute(2, 0, 3, 1, 4)
  %qkv5 = tensor.expand_shape %qkv_out [[0], [1], [2], [3, 4, 5]] output_shape [2, 4, 4, 3, 2, 16] : tensor<2x4x4x96xf32> into tensor<2x4x4x3x2x16xf32>
  %qkv_r = tensor.collapse_shape %qkv5 [[0], [1, 2], [3], [4], [5]] : tensor<2x4x4x3x2x16xf32> into tensor<2x16x3x2x16xf32>
  %perm_e = tensor.empty() : tensor<3x2x2x16x16xf32>
  %qkv_p = linalg.transpose ins(%qkv_r : tensor<2x16x3x2x16xf32>) outs(%perm_e : tensor<3x2x2x16x16xf32>) permutation = [2, 0, 3, 1, 4]
  // qkv.reshape(3, B * nh, H * W, -1).unbind(0)
  %qkv3 = tensor.collapse_shape %qkv_p [[0], [1, 2], [3], [4]] : tensor<3x2x2x16x16xf32> into tensor<3x4x16x16xf32>
  %q_s = tensor.extract_slice %qkv3[0, 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1] : tensor<3x4x16x16xf32> to tensor<1x4x16x16xf32>
  %q = tensor.collapse_shape %q_s [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %k_s = tensor.extract_slice %qkv3[1, 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1] : tensor<3x4x16x16xf32> to tensor<1x4x16x16xf32>
  %k = tensor.collapse_shape %k_s [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %v_s = tensor.extract_slice %qkv3[2, 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1] : tensor<3x4x16x16xf32> to tensor<1x4x16x16xf32>
  %v = tensor.collapse_shape %v_s [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  // attn = (q * self.scale) @ k.transpose(-2, -1)
  %cst_scale = arith.constant 2.500000e-01 : f64
  %qs_e = tensor.empty() : tensor<4x16x16xf32>
  %q_scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                               affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                              iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q : tensor<4x16x16xf32>) outs(%qs_e : tensor<4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.truncf %cst_scale : f64 to f32
    %1 = arith.mulf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<4x16x16xf32>
  %kT_e = tensor.empty() : tensor<4x16x16xf32>
  %k_T = linalg.transpose ins(%k : tensor<4x16x16xf32>) outs(%kT_e : tensor<4x16x16xf32>) permutation = [0, 2, 1]
  %qk_zero = arith.constant 0.000000e+00 : f32
  %qk_e = tensor.empty() : tensor<4x16x16xf32>
  %qk_z = linalg.fill ins(%qk_zero : f32) outs(%qk_e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %attn = linalg.batch_matmul ins(%q_scaled, %k_T : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%qk_z : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // get_rel_pos(4, 4, rel_pos): q_coords = arange(4)[:, None] * 1.0, k_coords = arange(4)[None, :] * 1.0
  %ar_e = tensor.empty() : tensor<4xi64>
  %arange = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
                            iterator_types = ["parallel"]}
      outs(%ar_e : tensor<4xi64>) {
  ^bb0(%out: i64):
    %0 = linalg.index 0 : index
    %1 = arith.index_cast %0 : index to i64
    linalg.yield %1 : i64
  } -> tensor<4xi64>
  %crd_e = tensor.empty() : tensor<4xf32>
  %coords = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                             affine_map<(d0) -> (d0)>],
                            iterator_types = ["parallel"]}
      ins(%arange : tensor<4xi64>) outs(%crd_e : tensor<4xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.sitofp %in : i64 to f32
    %one = arith.constant 1.000000e+00 : f32
    %1 = arith.mulf %0, %one : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  // relative_coords = (q_coords - k_coords) + (k_size - 1) * 1.0;  .long()
  %rc_e = tensor.empty() : tensor<4x4xf32>
  %rel_diff = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>,
                                               affine_map<(d0, d1) -> (d1)>,
                                               affine_map<(d0, d1) -> (d0, d1)>],
                              iterator_types = ["parallel", "parallel"]}
      ins(%coords, %coords : tensor<4xf32>, tensor<4xf32>) outs(%rc_e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.subf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %relative_coords = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                                      affine_map<(d0, d1) -> (d0, d1)>],
                                     iterator_types = ["parallel", "parallel"]}
      ins(%rel_diff : tensor<4x4xf32>) outs(%rc_e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %three = arith.constant 3.000000e+00 : f32
    %0 = arith.addf %in, %three : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %ri_e = tensor.empty() : tensor<4x4xi64>
  %rel_idx = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                              affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
      ins(%relative_coords : tensor<4x4xf32>) outs(%ri_e : tensor<4x4xi64>) {
  ^bb0(%in: f32, %out: i64):
    %0 = arith.fptosi %in : f32 to i64
    linalg.yield %0 : i64
  } -> tensor<4x4xi64>
  // Rh = rel_pos_h[relative_coords.long()], Rw = rel_pos_w[...]  (aten.index.Tensor) -> [4, 4, 16]
  %g_e = tensor.empty() : tensor<4x4x16xf32>
  %Rh = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>,
                                         affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rel_idx : tensor<4x4xi64>) outs(%g_e : tensor<4x4x16xf32>) {
  ^bb0(%in: i64, %out: f32):
    %czero = arith.constant 0 : i64
    %cdim = arith.constant 7 : i64
    %0 = arith.cmpi slt, %in, %czero : i64
    %1 = arith.addi %in, %cdim : i64
    %2 = arith.select %0, %1, %in : i64
    %3 = arith.index_cast %2 : i64 to index
    %4 = linalg.index 2 : index
    %extracted = tensor.extract %rel_pos_h[%3, %4] : tensor<7x16xf32>
    linalg.yield %extracted : f32
  } -> tensor<4x4x16xf32>
  %Rw = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>,
                                         affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rel_idx : tensor<4x4xi64>) outs(%g_e : tensor<4x4x16xf32>) {
  ^bb0(%in: i64, %out: f32):
    %czero = arith.constant 0 : i64
    %cdim = arith.constant 7 : i64
    %0 = arith.cmpi slt, %in, %czero : i64
    %1 = arith.addi %in, %cdim : i64
    %2 = arith.select %0, %1, %in : i64
    %3 = arith.index_cast %2 : i64 to index
    %4 = linalg.index 2 : index
    %extracted = tensor.extract %rel_pos_w[%3, %4] : tensor<7x16xf32>
    linalg.yield %extracted : f32
  } -> tensor<4x4x16xf32>
  // Rh.permute(0, 2, 1), Rw.permute(0, 2, 1)
  %gp_e = tensor.empty() : tensor<4x16x4xf32>
  %Rh_p = linalg.transpose ins(%Rh : tensor<4x4x16xf32>) outs(%gp_e : tensor<4x16x4xf32>) permutation = [0, 2, 1]
  %Rw_p = linalg.transpose ins(%Rw : tensor<4x4x16xf32>) outs(%gp_e : tensor<4x16x4xf32>) permutation = [0, 2, 1]
  // r_q = q.reshape(B, q_h, q_w, dim)   (the unscaled q)
  %r_q = tensor.expand_shape %q [[0], [1, 2], [3]] output_shape [4, 4, 4, 16] : tensor<4x16x16xf32> into tensor<4x4x4x16xf32>
  // rel_h = torch.matmul(r_q, Rh): Rh broadcast over the batch, batch dims collapsed
  %rb_e = tensor.empty() : tensor<4x4x16x4xf32>
  %Rh_b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%Rh_p : tensor<4x16x4xf32>) outs(%rb_e : tensor<4x4x16x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4x16x4xf32>
  %rq3 = tensor.collapse_shape %r_q [[0, 1], [2], [3]] : tensor<4x4x4x16xf32> into tensor<16x4x16xf32>
  %rh3 = tensor.collapse_shape %Rh_b [[0, 1], [2], [3]] : tensor<4x4x16x4xf32> into tensor<16x16x4xf32>
  %rh_zero = arith.constant 0.000000e+00 : f32
  %rh_e = tensor.empty() : tensor<16x4x4xf32>
  %rh_z = linalg.fill ins(%rh_zero : f32) outs(%rh_e : tensor<16x4x4xf32>) -> tensor<16x4x4xf32>
  %relh3 = linalg.batch_matmul ins(%rq3, %rh3 : tensor<16x4x16xf32>, tensor<16x16x4xf32>) outs(%rh_z : tensor<16x4x4xf32>) -> tensor<16x4x4xf32>
  %rel_h = tensor.expand_shape %relh3 [[0, 1], [2], [3]] output_shape [4, 4, 4, 4] : tensor<16x4x4xf32> into tensor<4x4x4x4xf32>
  // rel_w = torch.matmul(r_q.permute(0, 2, 1, 3), Rw).permute(0, 2, 1, 3)
  %rqp_e = tensor.empty() : tensor<4x4x4x16xf32>
  %r_q_p = linalg.transpose ins(%r_q : tensor<4x4x4x16xf32>) outs(%rqp_e : tensor<4x4x4x16xf32>) permutation = [0, 2, 1, 3]
  %Rw_b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%Rw_p : tensor<4x16x4xf32>) outs(%rb_e : tensor<4x4x16x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4x16x4xf32>
  %rqp3 = tensor.collapse_shape %r_q_p [[0, 1], [2], [3]] : tensor<4x4x4x16xf32> into tensor<16x4x16xf32>
  %rw3 = tensor.collapse_shape %Rw_b [[0, 1], [2], [3]] : tensor<4x4x16x4xf32> into tensor<16x16x4xf32>
  %rw_zero = arith.constant 0.000000e+00 : f32
  %rw_e = tensor.empty() : tensor<16x4x4xf32>
  %rw_z = linalg.fill ins(%rw_zero : f32) outs(%rw_e : tensor<16x4x4xf32>) -> tensor<16x4x4xf32>
  %relw3 = linalg.batch_matmul ins(%rqp3, %rw3 : tensor<16x4x16xf32>, tensor<16x16x4xf32>) outs(%rw_z : tensor<16x4x4xf32>) -> tensor<16x4x4xf32>
  %relw4 = tensor.expand_shape %relw3 [[0, 1], [2], [3]] output_shape [4, 4, 4, 4] : tensor<16x4x4xf32> into tensor<4x4x4x4xf32>
  %relw_e = tensor.empty() : tensor<4x4x4x4xf32>
  %rel_w = linalg.transpose ins(%relw4 : tensor<4x4x4x4xf32>) outs(%relw_e : tensor<4x4x4x4xf32>) permutation = [0, 2, 1, 3]
  // attn.view(B, q_h, q_w, k_h, k_w) + rel_h[:, :, :, :, None] + rel_w[:, :, :, None, :]
  %attn5 = tensor.expand_shape %attn [[0], [1, 2], [3, 4]] output_shape [4, 4, 4, 4, 4] : tensor<4x16x16xf32> into tensor<4x4x4x4x4xf32>
  %rh5 = tensor.expand_shape %rel_h [[0], [1], [2], [3, 4]] output_shape [4, 4, 4, 4, 1] : tensor<4x4x4x4xf32> into tensor<4x4x4x4x1xf32>
  %rw5 = tensor.expand_shape %rel_w [[0], [1], [2], [3, 4]] output_shape [4, 4, 4, 1, 4] : tensor<4x4x4x4xf32> into tensor<4x4x4x1x4xf32>
  %a5_e = tensor.empty() : tensor<4x4x4x4x4xf32>
  %attn_h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                             affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, 0)>,
                                             affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%attn5, %rh5 : tensor<4x4x4x4x4xf32>, tensor<4x4x4x4x1xf32>) outs(%a5_e : tensor<4x4x4x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x4x4x4x4xf32>
  %attn_hw = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                              affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, 0, d4)>,
                                              affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%attn_h, %rw5 : tensor<4x4x4x4x4xf32>, tensor<4x4x4x1x4xf32>) outs(%a5_e : tensor<4x4x4x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x4x4x4x4xf32>
  %attn_rel = tensor.collapse_shape %attn_hw [[0], [1, 2], [3, 4]] : tensor<4x4x4x4x4xf32> into tensor<4x16x16xf32>
  // attn = attn.softmax(dim=-1)
  %sm_ninf = arith.constant 0xFF800000 : f32
  %sm_zero = arith.constant 0.000000e+00 : f32
  %sm_re = tensor.empty() : tensor<4x16xf32>
  %sm_mz = linalg.fill ins(%sm_ninf : f32) outs(%sm_re : tensor<4x16xf32>) -> tensor<4x16xf32>
  %sm_c0 = arith.constant 0 : i64
  %sm_ie = tensor.empty() : tensor<4x16xi64>
  %sm_iz = linalg.fill ins(%sm_c0 : i64) outs(%sm_ie : tensor<4x16xi64>) -> tensor<4x16xi64>
  %sm_max:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                               affine_map<(d0, d1, d2) -> (d0, d1)>,
                                               affine_map<(d0, d1, d2) -> (d0, d1)>],
                              iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%attn_rel : tensor<4x16x16xf32>) outs(%sm_mz, %sm_iz : tensor<4x16xf32>, tensor<4x16xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %0 = linalg.index 2 : index
    %1 = arith.index_cast %0 : index to i64
    %2 = arith.maximumf %in, %out : f32
    %3 = arith.cmpf ogt, %in, %out : f32
    %4 = arith.select %3, %1, %out_0 : i64
    linalg.yield %2, %4 : f32, i64
  } -> (tensor<4x16xf32>, tensor<4x16xi64>)
  %sm_maxk = tensor.expand_shape %sm_max#0 [[0], [1, 2]] output_shape [4, 16, 1] : tensor<4x16xf32> into tensor<4x16x1xf32>
  %sm_e = tensor.empty() : tensor<4x16x16xf32>
  %sm_sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                             affine_map<(d0, d1, d2) -> (d0, d1, 0)>,
                                             affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%attn_rel, %sm_maxk : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%sm_e : tensor<4x16x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.subf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x16x16xf32>
  %sm_exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                             affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm_sub : tensor<4x16x16xf32>) outs(%sm_e : tensor<4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x16x16xf32>
  %sm_sz = linalg.fill ins(%sm_zero : f32) outs(%sm_re : tensor<4x16xf32>) -> tensor<4x16xf32>
  %sm_sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                             affine_map<(d0, d1, d2) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sm_exp : tensor<4x16x16xf32>) outs(%sm_sz : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<4x16xf32>
  %sm_sumk = tensor.expand_shape %sm_sum [[0], [1, 2]] output_shape [4, 16, 1] : tensor<4x16xf32> into tensor<4x16x1xf32>
  %attn_sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, 0)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm_exp, %sm_sumk : tensor<4x16x16xf32>, tensor<4x16x1xf32>) outs(%sm_e : tensor<4x16x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.divf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x16x16xf32>
  // x = (attn @ v).view(B, nh, H, W, -1).permute(0, 2, 3, 1, 4).reshape(B, H, W, -1)
  %pv_zero = arith.constant 0.000000e+00 : f32
  %pv_e = tensor.empty() : tensor<4x16x16xf32>
  %pv_z = linalg.fill ins(%pv_zero : f32) outs(%pv_e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %av = linalg.batch_matmul ins(%attn_sm, %v : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%pv_z : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %av5 = tensor.expand_shape %av [[0, 1], [2, 3], [4]] output_shape [2, 2, 4, 4, 16] : tensor<4x16x16xf32> into tensor<2x2x4x4x16xf32>
  %x_e = tensor.empty() : tensor<2x4x4x2x16xf32>
  %x_p = linalg.transpose ins(%av5 : tensor<2x2x4x4x16xf32>) outs(%x_e : tensor<2x4x4x2x16xf32>) permutation = [0, 2, 3, 1, 4]
  %x = tensor.collapse_shape %x_p [[0], [1], [2], [3, 4]] : tensor<2x4x4x2x16xf32> into tensor<2x4x4x32xf32>
  return %x : tensor<2x4x4x32xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c96 = arith.constant 96 : index
  %qkv_s = arith.constant 0.5 : f32
  %qkv_0 = call @input4(%qkv_s, %c2, %c4, %c4, %c96) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %qkv_1 = tensor.cast %qkv_0 : tensor<?x?x?x?xf32> to tensor<2x4x4x96xf32>
  %rh_s = arith.constant 1.25 : f32
  %rh_0 = call @input2(%rh_s, %c7, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %rh_1 = tensor.cast %rh_0 : tensor<?x?xf32> to tensor<7x16xf32>
  %rw_s = arith.constant 2.15 : f32
  %rw_0 = call @input2(%rw_s, %c7, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %rw_1 = tensor.cast %rw_0 : tensor<?x?xf32> to tensor<7x16xf32>
  %o = call @sam_rel_pos_attention(%qkv_1, %rh_1, %rw_1) : (tensor<2x4x4x96xf32>, tensor<7x16xf32>, tensor<7x16xf32>) -> tensor<2x4x4x32xf32>
  %out_u = tensor.cast %o : tensor<2x4x4x32xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  return
}
