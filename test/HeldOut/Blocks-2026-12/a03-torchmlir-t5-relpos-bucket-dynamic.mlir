// Frontend: torch-mlir (torch.export with a dynamic sequence length ->
//   fx_importer -> torch-backend-to-linalg-on-tensors-backend-pipeline), f32.
//   Dynamic sizes are read with tensor.dim; torch-mlir's broadcast checks
//   stay as cf.assert.
// Model: T5 encoder (google-t5/t5-small family), first block's
//   T5Attention.forward with has_relative_attention_bias=True, together with
//   T5Stack's extended attention mask. Shrunk: B=2, 4 heads, d_kv=8,
//   32 buckets, max_distance 128, sequence length dynamic (16 at run time).
// Sources read: huggingface/transformers src/transformers/models/t5/
//   modeling_t5.py (T5Attention._relative_position_bucket, compute_bias,
//   forward: scores = matmul(q, k^T) with no 1/sqrt(d) scaling;
//   position_bias = compute_bias(...) + mask; scores += position_bias;
//   softmax(scores.float(), -1).type_as(scores); matmul with V; the layer
//   also returns position_bias for the later blocks), and an FX graph of the
//   same forward (aten.amax/sub/exp/sum/div softmax decomposition).
//
// Math (S = dynamic sequence length):
//   r = j - i;  bucket = 16*(r > 0) + (|r| < 8 ? |r|
//        : min(8 + int(log(|r|/8) / log(16) * 8), 15))
//   bias[b,h,i,j] = table[bucket(i,j), h] + (mask[b,j] ? 0 : -3.4028235e38)
//   S[b,h,i,j]    = Q[b,h,i,:].K[b,h,j,:] + bias[b,h,i,j]       (scale 1)
//   O = softmax_j(S) . V.   Returns (O [2,4,S,8], position_bias [2,4,S,S]).
//   Batch 1 has its last four tokens padded.

func.func @t5_block0_self_attention(%query_states: tensor<2x4x?x8xf32>, %key_states: tensor<2x4x?x8xf32>,
                                    %value_states: tensor<2x4x?x8xf32>, %attention_mask: tensor<2x?xi64>,
                                    %relative_attention_bias: tensor<32x4xf32>)
    -> (tensor<2x4x?x8xf32>, tensor<2x4x?x?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cst0 = arith.constant 0.000000e+00 : f32
  %seq_len = tensor.dim %query_states, %c2 : tensor<2x4x?x8xf32>
  %key_len = tensor.dim %key_states, %c2 : tensor<2x4x?x8xf32>
  %mask_len = tensor.dim %attention_mask, %c1 : tensor<2x?xi64>

  // ---- T5Stack: extended_attention_mask = (1.0 - mask[:, None, None, :]) * finfo(f32).min ----
  %am4 = tensor.expand_shape %attention_mask [[0], [1, 2, 3]] output_shape [2, 1, 1, %mask_len]
      : tensor<2x?xi64> into tensor<2x1x1x?xi64>
  %e_am = tensor.empty(%mask_len) : tensor<2x1x1x?xf32>
  %am_f = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am4 : tensor<2x1x1x?xi64>) outs(%e_am : tensor<2x1x1x?xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.sitofp %in : i64 to f32
    linalg.yield %0 : f32
  } -> tensor<2x1x1x?xf32>
  %am_inv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am_f : tensor<2x1x1x?xf32>) outs(%e_am : tensor<2x1x1x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.000000e+00 : f32
    %0 = arith.subf %one, %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x1x?xf32>
  %ext_mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am_inv : tensor<2x1x1x?xf32>) outs(%e_am : tensor<2x1x1x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %fmin = arith.constant -3.40282347E+38 : f32
    %0 = arith.mulf %in, %fmin : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x1x?xf32>

  // ---- scores = torch.matmul(query_states, key_states.transpose(3, 2)) ----
  %e_kt = tensor.empty(%key_len) : tensor<2x4x8x?xf32>
  %key_t = linalg.transpose ins(%key_states : tensor<2x4x?x8xf32>) outs(%e_kt : tensor<2x4x8x?xf32>)
      permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %query_states [[0, 1], [2], [3]] : tensor<2x4x?x8xf32> into tensor<8x?x8xf32>
  %k3 = tensor.collapse_shape %key_t [[0, 1], [2], [3]] : tensor<2x4x8x?xf32> into tensor<8x8x?xf32>
  %e_s3 = tensor.empty(%seq_len, %key_len) : tensor<8x?x?xf32>
  %s3_init = linalg.fill ins(%cst0 : f32) outs(%e_s3 : tensor<8x?x?xf32>) -> tensor<8x?x?xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x?x8xf32>, tensor<8x8x?xf32>)
                            outs(%s3_init : tensor<8x?x?xf32>) -> tensor<8x?x?xf32>
  %scores = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, %seq_len, %key_len]
      : tensor<8x?x?xf32> into tensor<2x4x?x?xf32>

  // ---- compute_bias(query_length, key_length) ----
  %e_ctx = tensor.empty(%seq_len) : tensor<?xi64>
  %context_position = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e_ctx : tensor<?xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %0 = arith.index_cast %i : index to i64
    linalg.yield %0 : i64
  } -> tensor<?xi64>
  %e_mem = tensor.empty(%key_len) : tensor<?xi64>
  %memory_position = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e_mem : tensor<?xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %0 = arith.index_cast %i : index to i64
    linalg.yield %0 : i64
  } -> tensor<?xi64>
  %ctx2 = tensor.expand_shape %context_position [[0, 1]] output_shape [%seq_len, 1] : tensor<?xi64> into tensor<?x1xi64>
  %mem2 = tensor.expand_shape %memory_position [[0, 1]] output_shape [1, %key_len] : tensor<?xi64> into tensor<1x?xi64>
  %e_rel = tensor.empty(%seq_len, %key_len) : tensor<?x?xi64>
  %relative_position = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, 0)>,
                                                        affine_map<(d0, d1) -> (d0, d1)>],
                                       iterator_types = ["parallel", "parallel"]}
      ins(%mem2, %ctx2 : tensor<1x?xi64>, tensor<?x1xi64>) outs(%e_rel : tensor<?x?xi64>) {
  ^bb0(%m: i64, %c: i64, %out: i64):
    %0 = arith.subi %m, %c : i64
    linalg.yield %0 : i64
  } -> tensor<?x?xi64>
  // relative_buckets = (relative_position > 0).to(torch.long) * num_buckets   (num_buckets //= 2 -> 16)
  %rb_pos = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%relative_position : tensor<?x?xi64>) outs(%e_rel : tensor<?x?xi64>) {
  ^bb0(%in: i64, %out: i64):
    %zero = arith.constant 0 : i64
    %c16_i64 = arith.constant 16 : i64
    %gt = arith.cmpi sgt, %in, %zero : i64
    %0 = arith.extui %gt : i1 to i64
    %1 = arith.muli %0, %c16_i64 : i64
    linalg.yield %1 : i64
  } -> tensor<?x?xi64>
  // relative_position = torch.abs(relative_position)
  %rel_abs = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
      ins(%relative_position : tensor<?x?xi64>) outs(%e_rel : tensor<?x?xi64>) {
  ^bb0(%in: i64, %out: i64):
    %0 = math.absi %in : i64
    linalg.yield %0 : i64
  } -> tensor<?x?xi64>
  // is_small = relative_position < max_exact (8)
  %e_b = tensor.empty(%seq_len, %key_len) : tensor<?x?xi1>
  %is_small = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                              iterator_types = ["parallel", "parallel"]}
      ins(%rel_abs : tensor<?x?xi64>) outs(%e_b : tensor<?x?xi1>) {
  ^bb0(%in: i64, %out: i1):
    %c8_i64 = arith.constant 8 : i64
    %0 = arith.cmpi slt, %in, %c8_i64 : i64
    linalg.yield %0 : i1
  } -> tensor<?x?xi1>
  // max_exact + (log(rp.float() / max_exact) / log(max_distance / max_exact) * (num_buckets - max_exact)).to(long)
  %e_rf = tensor.empty(%seq_len, %key_len) : tensor<?x?xf32>
  %rp_f = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%rel_abs : tensor<?x?xi64>) outs(%e_rf : tensor<?x?xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.sitofp %in : i64 to f32
    linalg.yield %0 : f32
  } -> tensor<?x?xf32>
  %rp_div = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%rp_f : tensor<?x?xf32>) outs(%e_rf : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c8_f = arith.constant 8.000000e+00 : f32
    %0 = arith.divf %in, %c8_f : f32
    linalg.yield %0 : f32
  } -> tensor<?x?xf32>
  %rp_log = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%rp_div : tensor<?x?xf32>) outs(%e_rf : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.log %in : f32
    linalg.yield %0 : f32
  } -> tensor<?x?xf32>
  %rp_norm = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
      ins(%rp_log : tensor<?x?xf32>) outs(%e_rf : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %log16 = arith.constant 2.77258873 : f32
    %0 = arith.divf %in, %log16 : f32
    linalg.yield %0 : f32
  } -> tensor<?x?xf32>
  %rp_scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                               iterator_types = ["parallel", "parallel"]}
      ins(%rp_norm : tensor<?x?xf32>) outs(%e_rf : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c8_f = arith.constant 8.000000e+00 : f32
    %0 = arith.mulf %in, %c8_f : f32
    linalg.yield %0 : f32
  } -> tensor<?x?xf32>
  %rp_long = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
      ins(%rp_scaled : tensor<?x?xf32>) outs(%e_rel : tensor<?x?xi64>) {
  ^bb0(%in: f32, %out: i64):
    %0 = arith.fptosi %in : f32 to i64
    linalg.yield %0 : i64
  } -> tensor<?x?xi64>
  %rp_large = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                              iterator_types = ["parallel", "parallel"]}
      ins(%rp_long : tensor<?x?xi64>) outs(%e_rel : tensor<?x?xi64>) {
  ^bb0(%in: i64, %out: i64):
    %c8_i64 = arith.constant 8 : i64
    %0 = arith.addi %in, %c8_i64 : i64
    linalg.yield %0 : i64
  } -> tensor<?x?xi64>
  // torch.min(relative_position_if_large, torch.full_like(..., num_buckets - 1))
  %rp_large_c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                                iterator_types = ["parallel", "parallel"]}
      ins(%rp_large : tensor<?x?xi64>) outs(%e_rel : tensor<?x?xi64>) {
  ^bb0(%in: i64, %out: i64):
    %c15_i64 = arith.constant 15 : i64
    %0 = arith.minsi %in, %c15_i64 : i64
    linalg.yield %0 : i64
  } -> tensor<?x?xi64>
  // relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
  %bucket_sel = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                                 affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                                iterator_types = ["parallel", "parallel"]}
      ins(%is_small, %rel_abs, %rp_large_c : tensor<?x?xi1>, tensor<?x?xi64>, tensor<?x?xi64>)
      outs(%e_rel : tensor<?x?xi64>) {
  ^bb0(%c: i1, %a: i64, %b: i64, %out: i64):
    %0 = arith.select %c, %a, %b : i64
    linalg.yield %0 : i64
  } -> tensor<?x?xi64>
  %bucket = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                             affine_map<(d0, d1) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%rb_pos, %bucket_sel : tensor<?x?xi64>, tensor<?x?xi64>) outs(%e_rel : tensor<?x?xi64>) {
  ^bb0(%a: i64, %b: i64, %out: i64):
    %0 = arith.addi %a, %b : i64
    linalg.yield %0 : i64
  } -> tensor<?x?xi64>
  // values = self.relative_attention_bias(relative_position_bucket)    (aten.embedding)
  %e_vals = tensor.empty(%seq_len, %key_len) : tensor<?x?x4xf32>
  %values = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bucket : tensor<?x?xi64>) outs(%e_vals : tensor<?x?x4xf32>) {
  ^bb0(%idx: i64, %out: f32):
    %row = arith.index_cast %idx : i64 to index
    %col = linalg.index 2 : index
    %0 = tensor.extract %relative_attention_bias[%row, %col] : tensor<32x4xf32>
    linalg.yield %0 : f32
  } -> tensor<?x?x4xf32>
  // values.permute([2, 0, 1]).unsqueeze(0)
  %e_vp = tensor.empty(%seq_len, %key_len) : tensor<4x?x?xf32>
  %values_p = linalg.transpose ins(%values : tensor<?x?x4xf32>) outs(%e_vp : tensor<4x?x?xf32>) permutation = [2, 0, 1]
  %bias4 = tensor.expand_shape %values_p [[0, 1], [2], [3]] output_shape [1, 4, %seq_len, %key_len]
      : tensor<4x?x?xf32> into tensor<1x4x?x?xf32>

  // ---- position_bias = position_bias + mask ----
  %same_k = arith.cmpi eq, %key_len, %mask_len : index
  cf.assert %same_k, "mismatched size for broadcast"
  %e_pb = tensor.empty(%seq_len, %key_len) : tensor<2x4x?x?xf32>
  %position_bias = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>,
                                                    affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>,
                                                    affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                   iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias4, %ext_mask : tensor<1x4x?x?xf32>, tensor<2x1x1x?xf32>) outs(%e_pb : tensor<2x4x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x?x?xf32>

  // ---- scores += position_bias_masked ----
  %scores_plus = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores, %position_bias : tensor<2x4x?x?xf32>, tensor<2x4x?x?xf32>) outs(%e_pb : tensor<2x4x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x?x?xf32>

  // ---- nn.functional.softmax(scores.float(), dim=-1).type_as(scores) ----
  %ninf = arith.constant 0xFF800000 : f32
  %e_r = tensor.empty(%seq_len) : tensor<2x4x?xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%e_r : tensor<2x4x?xf32>) -> tensor<2x4x?xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%scores_plus : tensor<2x4x?x?xf32>) outs(%max_init : tensor<2x4x?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x?xf32>
  %max_k = tensor.expand_shape %max [[0], [1], [2, 3]] output_shape [2, 4, %seq_len, 1]
      : tensor<2x4x?xf32> into tensor<2x4x?x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores_plus, %max_k : tensor<2x4x?x?xf32>, tensor<2x4x?x1xf32>) outs(%e_pb : tensor<2x4x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x?x?xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sub : tensor<2x4x?x?xf32>) outs(%e_pb : tensor<2x4x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x?x?xf32>
  %sum_init = linalg.fill ins(%cst0 : f32) outs(%e_r : tensor<2x4x?xf32>) -> tensor<2x4x?xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<2x4x?x?xf32>) outs(%sum_init : tensor<2x4x?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x?xf32>
  %sum_k = tensor.expand_shape %sum [[0], [1], [2, 3]] output_shape [2, 4, %seq_len, 1]
      : tensor<2x4x?xf32> into tensor<2x4x?x1xf32>
  %attn_weights = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>,
                                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum_k : tensor<2x4x?x?xf32>, tensor<2x4x?x1xf32>) outs(%e_pb : tensor<2x4x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x?x?xf32>

  // ---- torch.matmul(attn_weights, value_states) ----
  %val_len = tensor.dim %value_states, %c2 : tensor<2x4x?x8xf32>
  %same_v = arith.cmpi eq, %key_len, %val_len : index
  cf.assert %same_v, "mismatching contracting dimension"
  %p3 = tensor.collapse_shape %attn_weights [[0, 1], [2], [3]] : tensor<2x4x?x?xf32> into tensor<8x?x?xf32>
  %v3 = tensor.collapse_shape %value_states [[0, 1], [2], [3]] : tensor<2x4x?x8xf32> into tensor<8x?x8xf32>
  %e_o3 = tensor.empty(%seq_len) : tensor<8x?x8xf32>
  %o3_init = linalg.fill ins(%cst0 : f32) outs(%e_o3 : tensor<8x?x8xf32>) -> tensor<8x?x8xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x?x?xf32>, tensor<8x?x8xf32>)
                            outs(%o3_init : tensor<8x?x8xf32>) -> tensor<8x?x8xf32>
  %attn_output = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, %seq_len, 8]
      : tensor<8x?x8xf32> into tensor<2x4x?x8xf32>
  return %attn_output, %position_bias : tensor<2x4x?x8xf32>, tensor<2x4x?x?xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %sq = arith.constant 0.45 : f32
  %sk = arith.constant 1.25 : f32
  %sv = arith.constant 2.15 : f32
  %st = arith.constant 3.05 : f32
  %q0 = call @input4(%sq, %c2, %c4, %c16, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%sk, %c2, %c4, %c16, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%sv, %c2, %c4, %c16, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %t0 = call @input2(%st, %c32, %c4) : (f32, index, index) -> tensor<?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x4x?x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<2x4x?x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<2x4x?x8xf32>
  %table = tensor.cast %t0 : tensor<?x?xf32> to tensor<32x4xf32>
  %mask_s = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                                  [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]]> : tensor<2x16xi64>
  %mask = tensor.cast %mask_s : tensor<2x16xi64> to tensor<2x?xi64>
  %o:2 = call @t5_block0_self_attention(%q, %k, %v, %mask, %table)
      : (tensor<2x4x?x8xf32>, tensor<2x4x?x8xf32>, tensor<2x4x?x8xf32>, tensor<2x?xi64>, tensor<32x4xf32>)
        -> (tensor<2x4x?x8xf32>, tensor<2x4x?x?xf32>)
  %u0 = tensor.cast %o#0 : tensor<2x4x?x8xf32> to tensor<*xf32>
  %u1 = tensor.cast %o#1 : tensor<2x4x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}
