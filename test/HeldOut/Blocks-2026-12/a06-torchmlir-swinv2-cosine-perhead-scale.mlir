// Frontend: torch-mlir (torch.export with core-ATen decompositions ->
//   fx_importer -> torch-backend-to-linalg-on-tensors-backend-pipeline), f32.
//   Parameters and buffers are lifted to function arguments by torch.export.
// Model: Swin Transformer V2 (timm swinv2_*), WindowAttention.forward of a
//   shifted-window block: cosine attention with a learned per-head
//   logit_scale, continuous relative position bias from cpb_mlp gathered by
//   relative_position_index and squashed by 16*sigmoid, and the SW-MSA
//   attention mask (0 / -100). Shrunk: 8x8 feature map, window 4 (N=16),
//   shift 2 (4 windows), 2 heads, head_dim 8, cpb hidden 512.
// Source read: huggingface/pytorch-image-models timm/models/swin_transformer_v2.py
//   (WindowAttention.__init__/_make_pair_wise_relative_positions/forward,
//    SwinTransformerV2Block.get_attn_mask).
//     attn = normalize(q) @ normalize(k)^T
//     attn = attn * clamp(logit_scale, max=log(100)).exp()      # [H,1,1]
//     rpb  = cpb_mlp(relative_coords_table).view(-1, H)[relative_position_index.view(-1)]
//     attn = attn + 16*sigmoid(rpb.view(N,N,H).permute(2,0,1)).unsqueeze(0)
//     attn = (attn.view(-1, nW, H, N, N) + mask.unsqueeze(1).unsqueeze(0)).view(-1, H, N, N)
//     x = (softmax(attn) @ v).transpose(1, 2).reshape(B_, N, C)
//   F.normalize: x / clamp_min(||x||_2, 1e-12); linear: view + addmm.
//
// Math: q,k,v [4,2,16,8] (window, head, token, d).
//   s_h = exp(min(logit_scale[h], 4.6051702))   -- a run-time per-head tensor
//   S[w,h,i,j] = s_h * <q/|q|, k/|k|> + 16*sigmoid(T[idx[i,j], h]) + M[w,i,j]
//   T = relu(coords @ W1^T + b1) @ W2^T   (49 x 2), M in {0, -100}
//   O[w,i,h*8+e] = sum_j softmax_j(S)[w,h,i,j] v[w,h,j,e].  Returns [4,16,16].

func.func @swinv2_window_attention(%q: tensor<4x2x16x8xf32>, %k: tensor<4x2x16x8xf32>, %v: tensor<4x2x16x8xf32>,
                                   %logit_scale: tensor<2x1x1xf32>,
                                   %cpb_w1: tensor<512x2xf32>, %cpb_b1: tensor<512xf32>, %cpb_w2: tensor<2x512xf32>,
                                   %relative_coords_table: tensor<1x7x7x2xf32>,
                                   %relative_position_index: tensor<16x16xi64>,
                                   %mask: tensor<4x16x16xf32>) -> tensor<4x16x16xf32> {
  %cst0 = arith.constant 0.000000e+00 : f32
  %e_qk = tensor.empty() : tensor<4x2x16x8xf32>
  %e_n = tensor.empty() : tensor<4x2x16xf32>
  %n_init = linalg.fill ins(%cst0 : f32) outs(%e_n : tensor<4x2x16xf32>) -> tensor<4x2x16xf32>

  // ---- F.normalize(q, dim=-1) ----
  %q_sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                          iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q : tensor<4x2x16x8xf32>) outs(%n_init : tensor<4x2x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %two = arith.constant 2.000000e+00 : f32
    %a = math.absf %in : f32
    %p = math.powf %a, %two : f32
    %0 = arith.addf %p, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16xf32>
  %q_norm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q_sq : tensor<4x2x16xf32>) outs(%e_n : tensor<4x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %half = arith.constant 5.000000e-01 : f32
    %0 = math.powf %in, %half : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16xf32>
  %q_den = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                           iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q_norm : tensor<4x2x16xf32>) outs(%e_n : tensor<4x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %eps = arith.constant 9.99999996E-13 : f32
    %lt = arith.cmpf ult, %in, %eps : f32
    %0 = arith.select %lt, %eps, %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16xf32>
  %q_den_k = tensor.expand_shape %q_den [[0], [1], [2, 3]] output_shape [4, 2, 16, 1] : tensor<4x2x16xf32> into tensor<4x2x16x1xf32>
  %q_hat = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q, %q_den_k : tensor<4x2x16x8xf32>, tensor<4x2x16x1xf32>) outs(%e_qk : tensor<4x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16x8xf32>
  // ---- F.normalize(k, dim=-1) ----
  %k_sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                          iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%k : tensor<4x2x16x8xf32>) outs(%n_init : tensor<4x2x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %two = arith.constant 2.000000e+00 : f32
    %a = math.absf %in : f32
    %p = math.powf %a, %two : f32
    %0 = arith.addf %p, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16xf32>
  %k_norm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k_sq : tensor<4x2x16xf32>) outs(%e_n : tensor<4x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %half = arith.constant 5.000000e-01 : f32
    %0 = math.powf %in, %half : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16xf32>
  %k_den = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                           iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k_norm : tensor<4x2x16xf32>) outs(%e_n : tensor<4x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %eps = arith.constant 9.99999996E-13 : f32
    %lt = arith.cmpf ult, %in, %eps : f32
    %0 = arith.select %lt, %eps, %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16xf32>
  %k_den_k = tensor.expand_shape %k_den [[0], [1], [2, 3]] output_shape [4, 2, 16, 1] : tensor<4x2x16xf32> into tensor<4x2x16x1xf32>
  %k_hat = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k, %k_den_k : tensor<4x2x16x8xf32>, tensor<4x2x16x1xf32>) outs(%e_qk : tensor<4x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16x8xf32>

  // ---- attn = q_hat @ k_hat.transpose(-2, -1) ----
  %e_kt = tensor.empty() : tensor<4x2x8x16xf32>
  %k_hat_t = linalg.transpose ins(%k_hat : tensor<4x2x16x8xf32>) outs(%e_kt : tensor<4x2x8x16xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q_hat [[0, 1], [2], [3]] : tensor<4x2x16x8xf32> into tensor<8x16x8xf32>
  %k3 = tensor.collapse_shape %k_hat_t [[0, 1], [2], [3]] : tensor<4x2x8x16xf32> into tensor<8x8x16xf32>
  %e_s3 = tensor.empty() : tensor<8x16x16xf32>
  %s3_init = linalg.fill ins(%cst0 : f32) outs(%e_s3 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x16x8xf32>, tensor<8x8x16xf32>)
                            outs(%s3_init : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %attn0 = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [4, 2, 16, 16]
      : tensor<8x16x16xf32> into tensor<4x2x16x16xf32>

  // ---- logit_scale = torch.clamp(self.logit_scale, max=log(1/0.01)).exp(); attn = attn * logit_scale ----
  %e_ls = tensor.empty() : tensor<2x1x1xf32>
  %ls_clamped = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                                iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%logit_scale : tensor<2x1x1xf32>) outs(%e_ls : tensor<2x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %max = arith.constant 4.60517025 : f32
    %gt = arith.cmpf ugt, %in, %max : f32
    %0 = arith.select %gt, %max, %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x1xf32>
  %ls_exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ls_clamped : tensor<2x1x1xf32>) outs(%e_ls : tensor<2x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x1xf32>
  %e_s = tensor.empty() : tensor<4x2x16x16xf32>
  %attn1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%attn0, %ls_exp : tensor<4x2x16x16xf32>, tensor<2x1x1xf32>) outs(%e_s : tensor<4x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16x16xf32>

  // ---- relative_position_bias_table = self.cpb_mlp(self.relative_coords_table).view(-1, nH) ----
  %coords2 = tensor.collapse_shape %relative_coords_table [[0, 1, 2], [3]] : tensor<1x7x7x2xf32> into tensor<49x2xf32>
  %e_w1t = tensor.empty() : tensor<2x512xf32>
  %w1_t = linalg.transpose ins(%cpb_w1 : tensor<512x2xf32>) outs(%e_w1t : tensor<2x512xf32>) permutation = [1, 0]
  %e_h = tensor.empty() : tensor<49x512xf32>
  %h_init = linalg.fill ins(%cst0 : f32) outs(%e_h : tensor<49x512xf32>) -> tensor<49x512xf32>
  %h_mm = linalg.matmul ins(%coords2, %w1_t : tensor<49x2xf32>, tensor<2x512xf32>) outs(%h_init : tensor<49x512xf32>) -> tensor<49x512xf32>
  %h_b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%h_mm, %cpb_b1 : tensor<49x512xf32>, tensor<512xf32>) outs(%e_h : tensor<49x512xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<49x512xf32>
  %h_relu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%h_b : tensor<49x512xf32>) outs(%e_h : tensor<49x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ugt, %in, %cst0 : f32
    %0 = arith.select %gt, %in, %cst0 : f32
    linalg.yield %0 : f32
  } -> tensor<49x512xf32>
  %e_w2t = tensor.empty() : tensor<512x2xf32>
  %w2_t = linalg.transpose ins(%cpb_w2 : tensor<2x512xf32>) outs(%e_w2t : tensor<512x2xf32>) permutation = [1, 0]
  %e_tab = tensor.empty() : tensor<49x2xf32>
  %tab_init = linalg.fill ins(%cst0 : f32) outs(%e_tab : tensor<49x2xf32>) -> tensor<49x2xf32>
  %bias_table = linalg.matmul ins(%h_relu, %w2_t : tensor<49x512xf32>, tensor<512x2xf32>)
                              outs(%tab_init : tensor<49x2xf32>) -> tensor<49x2xf32>

  // ---- relative_position_bias_table[self.relative_position_index.view(-1)].view(N, N, -1) ----
  %rpi = tensor.collapse_shape %relative_position_index [[0, 1]] : tensor<16x16xi64> into tensor<256xi64>
  %e_g = tensor.empty() : tensor<256x2xf32>
  %gathered = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                              iterator_types = ["parallel", "parallel"]}
      ins(%rpi : tensor<256xi64>) outs(%e_g : tensor<256x2xf32>) {
  ^bb0(%idx: i64, %out: f32):
    %row = arith.index_cast %idx : i64 to index
    %col = linalg.index 1 : index
    %0 = tensor.extract %bias_table[%row, %col] : tensor<49x2xf32>
    linalg.yield %0 : f32
  } -> tensor<256x2xf32>
  %rpb3 = tensor.expand_shape %gathered [[0, 1], [2]] output_shape [16, 16, 2] : tensor<256x2xf32> into tensor<16x16x2xf32>
  %e_rp = tensor.empty() : tensor<2x16x16xf32>
  %rpb = linalg.transpose ins(%rpb3 : tensor<16x16x2xf32>) outs(%e_rp : tensor<2x16x16xf32>) permutation = [2, 0, 1]
  // 16 * torch.sigmoid(relative_position_bias)
  %rpb_sig = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rpb : tensor<2x16x16xf32>) outs(%e_rp : tensor<2x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.000000e+00 : f32
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %0 = arith.divf %one, %d : f32
    linalg.yield %0 : f32
  } -> tensor<2x16x16xf32>
  %rpb16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                           iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rpb_sig : tensor<2x16x16xf32>) outs(%e_rp : tensor<2x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c16 = arith.constant 1.600000e+01 : f32
    %0 = arith.mulf %in, %c16 : f32
    linalg.yield %0 : f32
  } -> tensor<2x16x16xf32>
  // attn = attn + relative_position_bias.unsqueeze(0)
  %rpb4 = tensor.expand_shape %rpb16 [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : tensor<2x16x16xf32> into tensor<1x2x16x16xf32>
  %attn2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%attn1, %rpb4 : tensor<4x2x16x16xf32>, tensor<1x2x16x16xf32>) outs(%e_s : tensor<4x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16x16xf32>

  // ---- attn.view(-1, nW, nH, N, N) + mask.unsqueeze(1).unsqueeze(0); view(-1, nH, N, N) ----
  %attn5 = tensor.expand_shape %attn2 [[0, 1], [2], [3], [4]] output_shape [1, 4, 2, 16, 16]
      : tensor<4x2x16x16xf32> into tensor<1x4x2x16x16xf32>
  %mask5 = tensor.expand_shape %mask [[0, 1, 2], [3], [4]] output_shape [1, 4, 1, 16, 16]
      : tensor<4x16x16xf32> into tensor<1x4x1x16x16xf32>
  %e_s5 = tensor.empty() : tensor<1x4x2x16x16xf32>
  %attn5m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                             affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>,
                                             affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%attn5, %mask5 : tensor<1x4x2x16x16xf32>, tensor<1x4x1x16x16xf32>) outs(%e_s5 : tensor<1x4x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x16x16xf32>
  %attn3 = tensor.collapse_shape %attn5m [[0, 1], [2], [3], [4]] : tensor<1x4x2x16x16xf32> into tensor<4x2x16x16xf32>

  // ---- self.softmax(attn)  (nn.Softmax(dim=-1)) ----
  %ninf = arith.constant 0xFF800000 : f32
  %e_r = tensor.empty() : tensor<4x2x16xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%e_r : tensor<4x2x16xf32>) -> tensor<4x2x16xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%attn3 : tensor<4x2x16x16xf32>) outs(%max_init : tensor<4x2x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16xf32>
  %max_k = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [4, 2, 16, 1] : tensor<4x2x16xf32> into tensor<4x2x16x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%attn3, %max_k : tensor<4x2x16x16xf32>, tensor<4x2x16x1xf32>) outs(%e_s : tensor<4x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16x16xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sub : tensor<4x2x16x16xf32>) outs(%e_s : tensor<4x2x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16x16xf32>
  %sum_init = linalg.fill ins(%cst0 : f32) outs(%e_r : tensor<4x2x16xf32>) -> tensor<4x2x16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<4x2x16x16xf32>) outs(%sum_init : tensor<4x2x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16xf32>
  %sum_k = tensor.expand_shape %sum [[0], [1], [2, 3]] output_shape [4, 2, 16, 1] : tensor<4x2x16xf32> into tensor<4x2x16x1xf32>
  %probs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum_k : tensor<4x2x16x16xf32>, tensor<4x2x16x1xf32>) outs(%e_s : tensor<4x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4x2x16x16xf32>

  // ---- x = (attn @ v).transpose(1, 2).reshape(B_, N, C) ----
  %p3 = tensor.collapse_shape %probs [[0, 1], [2], [3]] : tensor<4x2x16x16xf32> into tensor<8x16x16xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<4x2x16x8xf32> into tensor<8x16x8xf32>
  %e_o3 = tensor.empty() : tensor<8x16x8xf32>
  %o3_init = linalg.fill ins(%cst0 : f32) outs(%e_o3 : tensor<8x16x8xf32>) -> tensor<8x16x8xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x16x16xf32>, tensor<8x16x8xf32>)
                            outs(%o3_init : tensor<8x16x8xf32>) -> tensor<8x16x8xf32>
  %o4 = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [4, 2, 16, 8] : tensor<8x16x8xf32> into tensor<4x2x16x8xf32>
  %e_ot = tensor.empty() : tensor<4x16x2x8xf32>
  %o_t = linalg.transpose ins(%o4 : tensor<4x2x16x8xf32>) outs(%e_ot : tensor<4x16x2x8xf32>) permutation = [0, 2, 1, 3]
  %x = tensor.collapse_shape %o_t [[0], [1], [2, 3]] : tensor<4x16x2x8xf32> into tensor<4x16x16xf32>
  return %x : tensor<4x16x16xf32>
}

func.func @main() {
  %c0_idx = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %sq = arith.constant 0.35 : f32
  %sk = arith.constant 1.05 : f32
  %sv = arith.constant 1.95 : f32
  %sw1 = arith.constant 0.65 : f32
  %sb1 = arith.constant 2.45 : f32
  %sw2 = arith.constant 3.35 : f32
  %q0 = call @input4(%sq, %c4, %c2, %c16, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%sk, %c4, %c2, %c16, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%sv, %c4, %c2, %c16, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<4x2x16x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<4x2x16x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<4x2x16x8xf32>
  %w1_0 = call @input2(%sw1, %c512, %c2) : (f32, index, index) -> tensor<?x?xf32>
  %w1 = tensor.cast %w1_0 : tensor<?x?xf32> to tensor<512x2xf32>
  %b1_0 = call @input2(%sb1, %c512, %c1) : (f32, index, index) -> tensor<?x?xf32>
  %b1_1 = tensor.cast %b1_0 : tensor<?x?xf32> to tensor<512x1xf32>
  %b1_2 = tensor.collapse_shape %b1_1 [[0, 1]] : tensor<512x1xf32> into tensor<512xf32>
  // cpb_mlp biases are small after training; scale the generator by 0.1
  %e_b1 = tensor.empty() : tensor<512xf32>
  %b1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b1_2 : tensor<512xf32>) outs(%e_b1 : tensor<512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.constant 0.1 : f32
    %0 = arith.mulf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<512xf32>
  // cpb_mlp[2].weight [nH, 512], generated as [512, nH] and transposed, scaled by 0.002
  %w2_0 = call @input2(%sw2, %c512, %c2) : (f32, index, index) -> tensor<?x?xf32>
  %w2_c = tensor.cast %w2_0 : tensor<?x?xf32> to tensor<512x2xf32>
  %e_w2 = tensor.empty() : tensor<2x512xf32>
  %w2_1 = linalg.transpose ins(%w2_c : tensor<512x2xf32>) outs(%e_w2 : tensor<2x512xf32>) permutation = [1, 0]
  %w2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%w2_1 : tensor<2x512xf32>) outs(%e_w2 : tensor<2x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.constant 0.002 : f32
    %0 = arith.mulf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<2x512xf32>
  // learned per-head temperatures (the second exceeds log(100) and is clamped)
  %logit_scale = arith.constant dense<[[[2.30258512]], [[5.0]]]> : tensor<2x1x1xf32>
  // relative_coords_table buffer: sign(x) * log2(|x| + 1) / log2(8), x = 8 * (i - 3) / 3
  %e_ct = tensor.empty() : tensor<1x7x7x2xf32>
  %coords = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e_ct : tensor<1x7x7x2xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c0 = arith.constant 0 : index
    %is0 = arith.cmpi eq, %c, %c0 : index
    %ij = arith.select %is0, %i, %j : index
    %ii = arith.index_cast %ij : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %three = arith.constant 3.0 : f32
    %eight = arith.constant 8.0 : f32
    %one = arith.constant 1.0 : f32
    %log2_8 = arith.constant 3.0 : f32
    %d = arith.subf %f, %three : f32
    %n = arith.divf %d, %three : f32
    %x = arith.mulf %n, %eight : f32
    %ax = math.absf %x : f32
    %ax1 = arith.addf %ax, %one : f32
    %l = math.log2 %ax1 : f32
    %l3 = arith.divf %l, %log2_8 : f32
    %r = math.copysign %l3, %x : f32
    linalg.yield %r : f32
  } -> tensor<1x7x7x2xf32>
  // relative_position_index buffer: (ha - hb + 3) * 7 + (wa - wb + 3)
  %e_ri = tensor.empty() : tensor<16x16xi64>
  %rpi = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e_ri : tensor<16x16xi64>) {
  ^bb0(%out: i64):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %ha = arith.divui %a, %c4 : index
    %wa = arith.remui %a, %c4 : index
    %hb = arith.divui %b, %c4 : index
    %wb = arith.remui %b, %c4 : index
    %ha_i = arith.index_cast %ha : index to i64
    %wa_i = arith.index_cast %wa : index to i64
    %hb_i = arith.index_cast %hb : index to i64
    %wb_i = arith.index_cast %wb : index to i64
    %c3_i = arith.constant 3 : i64
    %c7_i = arith.constant 7 : i64
    %dh = arith.subi %ha_i, %hb_i : i64
    %dh3 = arith.addi %dh, %c3_i : i64
    %dw = arith.subi %wa_i, %wb_i : i64
    %dw3 = arith.addi %dw, %c3_i : i64
    %r0 = arith.muli %dh3, %c7_i : i64
    %r = arith.addi %r0, %dw3 : i64
    linalg.yield %r : i64
  } -> tensor<16x16xi64>
  // SW-MSA mask (shift 2 on an 8x8 map): -100 between tokens of different shifted regions
  %e_m = tensor.empty() : tensor<4x16x16xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e_m : tensor<4x16x16xf32>) {
  ^bb0(%out: f32):
    %w = linalg.index 0 : index
    %a = linalg.index 1 : index
    %b = linalg.index 2 : index
    %c6 = arith.constant 6 : index
    %c3 = arith.constant 3 : index
    %wh = arith.divui %w, %c2 : index
    %ww = arith.remui %w, %c2 : index
    %wh4 = arith.muli %wh, %c4 : index
    %ww4 = arith.muli %ww, %c4 : index
    // region id of token a
    %ar = arith.divui %a, %c4 : index
    %ac = arith.remui %a, %c4 : index
    %arow = arith.addi %wh4, %ar : index
    %acol = arith.addi %ww4, %ac : index
    %ar_lt4 = arith.cmpi ult, %arow, %c4 : index
    %ar_lt6 = arith.cmpi ult, %arow, %c6 : index
    %ar_12 = arith.select %ar_lt6, %c1, %c2 : index
    %ar_reg = arith.select %ar_lt4, %c0_idx, %ar_12 : index
    %ac_lt4 = arith.cmpi ult, %acol, %c4 : index
    %ac_lt6 = arith.cmpi ult, %acol, %c6 : index
    %ac_12 = arith.select %ac_lt6, %c1, %c2 : index
    %ac_reg = arith.select %ac_lt4, %c0_idx, %ac_12 : index
    %a_id0 = arith.muli %ar_reg, %c3 : index
    %a_id = arith.addi %a_id0, %ac_reg : index
    // region id of token b
    %br = arith.divui %b, %c4 : index
    %bc = arith.remui %b, %c4 : index
    %brow = arith.addi %wh4, %br : index
    %bcol = arith.addi %ww4, %bc : index
    %br_lt4 = arith.cmpi ult, %brow, %c4 : index
    %br_lt6 = arith.cmpi ult, %brow, %c6 : index
    %br_12 = arith.select %br_lt6, %c1, %c2 : index
    %br_reg = arith.select %br_lt4, %c0_idx, %br_12 : index
    %bc_lt4 = arith.cmpi ult, %bcol, %c4 : index
    %bc_lt6 = arith.cmpi ult, %bcol, %c6 : index
    %bc_12 = arith.select %bc_lt6, %c1, %c2 : index
    %bc_reg = arith.select %bc_lt4, %c0_idx, %bc_12 : index
    %b_id0 = arith.muli %br_reg, %c3 : index
    %b_id = arith.addi %b_id0, %bc_reg : index
    %same = arith.cmpi eq, %a_id, %b_id : index
    %zero = arith.constant 0.0 : f32
    %neg100 = arith.constant -100.0 : f32
    %0 = arith.select %same, %zero, %neg100 : f32
    linalg.yield %0 : f32
  } -> tensor<4x16x16xf32>
  %x = call @swinv2_window_attention(%q, %k, %v, %logit_scale, %w1, %b1, %w2, %coords, %rpi, %mask)
      : (tensor<4x2x16x8xf32>, tensor<4x2x16x8xf32>, tensor<4x2x16x8xf32>, tensor<2x1x1xf32>,
         tensor<512x2xf32>, tensor<512xf32>, tensor<2x512xf32>, tensor<1x7x7x2xf32>, tensor<16x16xi64>,
         tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %u = tensor.cast %x : tensor<4x16x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
