// Held-out block c18 -- NEAR MISS: sigmoid attention. Looks like attention
// (scaled Q.K^T, causal masked_fill, a contraction with V, and an exp feeding
// that contraction) but the weights are sigmoid(S * exp(temp) + bias) applied
// element by element: rows are not normalized and do not sum to 1, so this is
// NOT softmax(QK^T)V. A correct compiler must not rewrite it as attention.
// Exported with torch.export and lowered by torch-mlir to linalg on tensors.
//
// Frontend: torch-mlir FX importer -> torch dialect -> TorchToLinalg
//   (aten.sigmoid as 1 / (1 + exp(-x)) in a linalg.generic body; aten.exp of
//   the 1-element temperature buffer; masked_fill -> arith.select).
// Model: apple/ml-sigmoid-attention attention_simulator, Attention with
//   attn_activ_fn = torch.sigmoid, attn_bias = -log(n) (the paper's
//   b = -log(seq_len)), attn_temp = 0.0 (used through exp), causal
//   masking_fn (masked_fill(~mask, -finfo.max)). Shrunk: B=2, N=8, dim 32,
//   2 heads, head_dim 16 (scale 0.25), attn_bias = -log(8).
// Sources read:
//   apple/ml-sigmoid-attention attention_simulator/src/attention_simulator/layers/attention.py
//     Attention.forward:
//       qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
//       q, k, v = qkv.unbind(0)
//       q = q * self.scale
//       attn = q @ k.transpose(-2, -1)
//       attn = self.masking_fn(attn=attn, mask=mask)
//       attn = attn * torch.exp(self.attn_temp)      # Scale by temperature [default is 0.0]
//       attn = attn + self.attn_bias                  # Add attention bias
//       attn_matrix = self.attn_activ_fn(attn)
//       attn = self.attn_drop(attn_matrix)
//       attn_times_v = (attn @ v).transpose(1, 2).reshape(B, N, C)
//   attention_simulator/src/attention_simulator/layers/masking.py
//     create_decoder_causal_mask (torch.tril(torch.ones(S, S)).bool()),
//     masking_fn: attn.masked_fill(~mask, -torch.finfo(attn.dtype).max).
//   llvm/torch-mlir lib/Conversion/TorchToLinalg/Uncategorized.cpp (AtenSigmoidOp
//   payload: negf, exp, addf 1, divf 1 / .).
//
// What each op is:
//   expand/transpose/slice/collapse     qkv reshape + permute(2, 0, 3, 1, 4) + unbind
//   mulf 0.25 + batch_matmul            q * self.scale; q @ k^T
//   tril/xori/select -finfo.max         masking_fn with the causal mask
//   exp of the [1] buffer, mulf         attn * torch.exp(self.attn_temp)  (exp(0) = 1)
//   addf -2.0794415                     attn + self.attn_bias
//   negf/exp/addf/divf                  torch.sigmoid (elementwise: no row normalization)
//   batch_matmul, transpose, collapse   (attn @ v).transpose(1, 2).reshape(B, N, C)
//
// Math: W = sigmoid(0.25 q k^T * e^0 - log 8), W = 0 above the diagonal;  O = W v
//   (not a convex combination of v). Returns (O [2, 8, 32], W [2, 2, 8, 8]).

func.func @sigmoid_attention(%qkv_out: tensor<2x8x96xf32>, %attn_temp: tensor<1xf32>, %attn_bias: tensor<1xf32>)
    -> (tensor<2x8x32xf32>, tensor<2x2x8x8xf32>) {
  // self.qkv(x).reshape(B, N, 3, H, D).permute(2, 0, 3, 1, 4); q, k, v = qkv.unbind(0)
  %qkv5 = tensor.expand_shape %qkv_out [[0], [1], [2, 3, 4]] output_shape [2, 8, 3, 2, 16] : tensor<2x8x96xf32> into tensor<2x8x3x2x16xf32>
  %perm_e = tensor.empty() : tensor<3x2x2x8x16xf32>
  %qkv_p = linalg.transpose ins(%qkv5 : tensor<2x8x3x2x16xf32>) outs(%perm_e : tensor<3x2x2x8x16xf32>) permutation = [2, 0, 3, 1, 4]
  %q_s = tensor.extract_slice %qkv_p[0, 0, 0, 0, 0] [1, 2, 2, 8, 16] [1, 1, 1, 1, 1] : tensor<3x2x2x8x16xf32> to tensor<1x2x2x8x16xf32>
  %q = tensor.collapse_shape %q_s [[0, 1], [2], [3], [4]] : tensor<1x2x2x8x16xf32> into tensor<2x2x8x16xf32>
  %k_s = tensor.extract_slice %qkv_p[1, 0, 0, 0, 0] [1, 2, 2, 8, 16] [1, 1, 1, 1, 1] : tensor<3x2x2x8x16xf32> to tensor<1x2x2x8x16xf32>
  %k = tensor.collapse_shape %k_s [[0, 1], [2], [3], [4]] : tensor<1x2x2x8x16xf32> into tensor<2x2x8x16xf32>
  %v_s = tensor.extract_slice %qkv_p[2, 0, 0, 0, 0] [1, 2, 2, 8, 16] [1, 1, 1, 1, 1] : tensor<3x2x2x8x16xf32> to tensor<1x2x2x8x16xf32>
  %v = tensor.collapse_shape %v_s [[0, 1], [2], [3], [4]] : tensor<1x2x2x8x16xf32> into tensor<2x2x8x16xf32>
  // q = q * self.scale
  %cst_scale = arith.constant 2.500000e-01 : f64
  %qs_e = tensor.empty() : tensor<2x2x8x16xf32>
  %q_scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x2x8x16xf32>) outs(%qs_e : tensor<2x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.truncf %cst_scale : f64 to f32
    %1 = arith.mulf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x16xf32>
  // attn = q @ k.transpose(-2, -1)
  %kT_e = tensor.empty() : tensor<2x2x16x8xf32>
  %k_T = linalg.transpose ins(%k : tensor<2x2x8x16xf32>) outs(%kT_e : tensor<2x2x16x8xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q_scaled [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
  %k3 = tensor.collapse_shape %k_T [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %qk_zero = arith.constant 0.000000e+00 : f32
  %qk_e = tensor.empty() : tensor<4x8x8xf32>
  %qk_z = linalg.fill ins(%qk_zero : f32) outs(%qk_e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%qk_z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %attn = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xf32> into tensor<2x2x8x8xf32>
  // create_decoder_causal_mask: torch.tril(torch.ones(S, S)).bool()
  %cst_one = arith.constant 1.000000e+00 : f32
  %cst = arith.constant 0.000000e+00 : f32
  %o_e = tensor.empty() : tensor<8x8xf32>
  %ones = linalg.fill ins(%cst_one : f32) outs(%o_e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %diagonal = arith.constant 0 : i64
  %tril = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                           affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%ones : tensor<8x8xf32>) outs(%o_e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = linalg.index 0 : index
    %1 = arith.index_cast %0 : index to i64
    %2 = linalg.index 1 : index
    %3 = arith.index_cast %2 : index to i64
    %4 = arith.addi %1, %diagonal : i64
    %5 = arith.cmpi sle, %3, %4 : i64
    %6 = arith.select %5, %in, %cst : f32
    linalg.yield %6 : f32
  } -> tensor<8x8xf32>
  %m_e = tensor.empty() : tensor<8x8xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                           affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%tril : tensor<8x8xf32>) outs(%m_e : tensor<8x8xi1>) {
  ^bb0(%in: f32, %out: i1):
    %0 = arith.cmpf une, %in, %cst : f32
    linalg.yield %0 : i1
  } -> tensor<8x8xi1>
  // masking_fn: attn.masked_fill(~mask, -torch.finfo(attn.dtype).max)  (mask expanded to [B, H, S, S])
  %true = arith.constant true
  %neg_max = arith.constant -3.40282347E+38 : f32
  %a_e = tensor.empty() : tensor<2x2x8x8xf32>
  %attn_masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%mask, %attn : tensor<8x8xi1>, tensor<2x2x8x8xf32>) outs(%a_e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: i1, %in_0: f32, %out: f32):
    %0 = arith.xori %in, %true : i1
    %1 = arith.select %0, %neg_max, %in_0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x8xf32>
  // attn = attn * torch.exp(self.attn_temp)
  %t_e = tensor.empty() : tensor<1xf32>
  %temp_exp = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                               affine_map<(d0) -> (d0)>],
                              iterator_types = ["parallel"]}
      ins(%attn_temp : tensor<1xf32>) outs(%t_e : tensor<1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<1xf32>
  %attn_t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (0)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%attn_masked, %temp_exp : tensor<2x2x8x8xf32>, tensor<1xf32>) outs(%a_e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  // attn = attn + self.attn_bias
  %attn_b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (0)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%attn_t, %attn_bias : tensor<2x2x8x8xf32>, tensor<1xf32>) outs(%a_e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  // attn_matrix = torch.sigmoid(attn)   (attn_drop: identity in eval)
  %attn_matrix = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                                  affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%attn_b : tensor<2x2x8x8xf32>) outs(%a_e : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    %one = arith.constant 1.000000e+00 : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<2x2x8x8xf32>
  // attn_times_v = (attn @ v).transpose(1, 2).reshape(B, N, C)
  %p3 = tensor.collapse_shape %attn_matrix [[0, 1], [2], [3]] : tensor<2x2x8x8xf32> into tensor<4x8x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
  %pv_zero = arith.constant 0.000000e+00 : f32
  %pv_e = tensor.empty() : tensor<4x8x16xf32>
  %pv_z = linalg.fill ins(%pv_zero : f32) outs(%pv_e : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%pv_z : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o4 = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 2, 8, 16] : tensor<4x8x16xf32> into tensor<2x2x8x16xf32>
  %ot_e = tensor.empty() : tensor<2x8x2x16xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x2x8x16xf32>) outs(%ot_e : tensor<2x8x2x16xf32>) permutation = [0, 2, 1, 3]
  %attn_times_v = tensor.collapse_shape %ot [[0], [1], [2, 3]] : tensor<2x8x2x16xf32> into tensor<2x8x32xf32>
  return %attn_times_v, %attn_matrix : tensor<2x8x32xf32>, tensor<2x2x8x8xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c96 = arith.constant 96 : index
  %x_s = arith.constant 0.25 : f32
  %x_0 = call @input3(%x_s, %c2, %c8, %c96) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %x_1 = tensor.cast %x_0 : tensor<?x?x?xf32> to tensor<2x8x96xf32>
  // buffers: attn_temp = [0.0], attn_bias = [-log(8)]
  %temp = arith.constant dense<0.000000e+00> : tensor<1xf32>
  %bias = arith.constant dense<-2.07944155> : tensor<1xf32>
  %o:2 = call @sigmoid_attention(%x_1, %temp, %bias) : (tensor<2x8x96xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<2x8x32xf32>, tensor<2x2x8x8xf32>)
  %out_u = tensor.cast %o#0 : tensor<2x8x32xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  %w_u = tensor.cast %o#1 : tensor<2x2x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%w_u) : (tensor<*xf32>) -> ()
  return
}
