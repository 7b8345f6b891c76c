// Held-out block c16: Wav2Vec2 encoder self-attention exported to ONNX with a
// dynamic sequence axis, imported by torch-mlir's ONNX frontend and lowered to
// linalg: the frame count stays '?' and every Reshape carries sizes from
// tensor.dim (after torch-mlir's shape scalarization of the exporter's
// Shape/Gather/Concat chains).
//
// Frontend: torch.onnx.export (TorchScript exporter, opset 14, dynamic_axes =
//   {"hidden_states": {1: "frames"}, "attention_mask": {1: "frames"}}) ->
//   ONNX -> torch-mlir-import-onnx -> convert-torch-onnx-to-torch
//   (onnx.Softmax axis=-1 -> aten.softmax.int; onnx.MatMul on rank 3 ->
//   aten.matmul -> batch_matmul; onnx.Expand -> broadcast) ->
//   torch-backend-to-linalg-on-tensors-backend-pipeline. Dynamic contraction
//   sizes keep torch-mlir's cf.assert checks.
// Model: facebook/wav2vec2-base-960h, one Wav2Vec2EncoderLayer self-attention
//   (the BART-style Wav2Vec2Attention), with Wav2Vec2Encoder's additive mask.
//   Shrunk: B=2, frames = ? (12 at run time), embed 32, 2 heads, head_dim 16
//   (scaling 0.25, an ONNX initializer).
// Sources read:
//   huggingface/transformers src/transformers/models/wav2vec2/modeling_wav2vec2.py
//     Wav2Vec2Attention.forward (transformers 4.3x):
//       query_states = self.q_proj(hidden_states) * self.scaling
//       proj_shape = (bsz * self.num_heads, -1, self.head_dim)
//       attn_weights = torch.bmm(query_states, key_states.transpose(1, 2))
//       attn_weights = attn_weights.view(bsz, self.num_heads, tgt_len, src_len) + attention_mask
//       attn_weights = nn.functional.softmax(attn_weights, dim=-1)
//       attn_probs = nn.functional.dropout(attn_weights, p=self.dropout, training=self.training)
//       attn_output = torch.bmm(attn_probs, value_states)
//       attn_output = attn_output.view(bsz, H, tgt_len, D).transpose(1, 2).reshape(bsz, tgt_len, embed_dim)
//     Wav2Vec2Encoder.forward:
//       extended_attention_mask = 1.0 - attention_mask[:, None, None, :].to(dtype=hidden_states.dtype)
//       extended_attention_mask = extended_attention_mask * torch.finfo(hidden_states.dtype).min
//       extended_attention_mask = extended_attention_mask.expand(B, 1, T, T)
//   llvm/torch-mlir lib/Conversion/TorchOnnxToTorch/DefaultDomainQtoZ.cpp (Softmax),
//   DefaultDomainGtoP.cpp (MatMul, Mul), TorchToLinalg Linear.cpp (bmm: dimension
//   checks), DecomposeComplexOps.cpp (getSoftmaxResult).
//
// What each op is:
//   generic mulf with the 0-d initializer 0.25        Mul(q_proj, scaling)
//   expand_shape [2, %T, 2, 16] + transpose + collapse Reshape/Transpose/Reshape to [B*H, T, D]
//   cf.assert + batch_matmul                          MatMul(q, Transpose(k)) (bmm)
//   sitofp / 1 - m / * finfo.min / broadcast          the encoder's extended mask (Unsqueeze, Cast, Sub, Mul, Expand)
//   expand_shape + addf                               Reshape(B, H, T, T) + mask
//   max/sub/exp/sum/div                               Softmax(axis=-1); Dropout is dropped in inference
//   batch_matmul + reshape/transpose/reshape          MatMul(P, v), back to [B, T, 32]
//
// Math: S = (0.25 q) k^T + (1 - m[b, j]) * finfo(f32).min;  O = softmax_j(S) v.
//   Batch 1's last 4 frames are padding. Returns O [2, T, 32] (T = 12 here).

func.func @main_graph(%q_proj: tensor<2x?x32xf32>, %k_proj: tensor<2x?x32xf32>, %v_proj: tensor<2x?x32xf32>,
                      %attention_mask: tensor<2x?xi64>) -> tensor<2x?x32xf32> {
  %c1 = arith.constant 1 : index
  %frames = tensor.dim %q_proj, %c1 : tensor<2x?x32xf32>
  // Mul(q_proj, /encoder/layers.0/attention/Constant_output_0 = 0.25)
  %scaling = arith.constant dense<2.500000e-01> : tensor<f32>
  %qs_e = tensor.empty(%frames) : tensor<2x?x32xf32>
  %q_scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                               affine_map<(d0, d1, d2) -> ()>,
                                               affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                              iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q_proj, %scaling : tensor<2x?x32xf32>, tensor<f32>) outs(%qs_e : tensor<2x?x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x?x32xf32>
  %tr_e = tensor.empty(%frames) : tensor<2x2x?x16xf32>
  // Reshape(q_scaled, [2, -1, 2, 16]) -> Transpose(perm=[0, 2, 1, 3]) -> Reshape([4, -1, 16])
  %query_states_4 = tensor.expand_shape %q_scaled [[0], [1], [2, 3]] output_shape [2, %frames, 2, 16] : tensor<2x?x32xf32> into tensor<2x?x2x16xf32>
  %query_states_t = linalg.transpose ins(%query_states_4 : tensor<2x?x2x16xf32>) outs(%tr_e : tensor<2x2x?x16xf32>) permutation = [0, 2, 1, 3]
  %query_states = tensor.collapse_shape %query_states_t [[0, 1], [2], [3]] : tensor<2x2x?x16xf32> into tensor<4x?x16xf32>
  // Reshape(k_proj, [2, -1, 2, 16]) -> Transpose(perm=[0, 2, 1, 3]) -> Reshape([4, -1, 16])
  %key_states_4 = tensor.expand_shape %k_proj [[0], [1], [2, 3]] output_shape [2, %frames, 2, 16] : tensor<2x?x32xf32> into tensor<2x?x2x16xf32>
  %key_states_t = linalg.transpose ins(%key_states_4 : tensor<2x?x2x16xf32>) outs(%tr_e : tensor<2x2x?x16xf32>) permutation = [0, 2, 1, 3]
  %key_states = tensor.collapse_shape %key_states_t [[0, 1], [2], [3]] : tensor<2x2x?x16xf32> into tensor<4x?x16xf32>
  // Reshape(v_proj, [2, -1, 2, 16]) -> Transpose(perm=[0, 2, 1, 3]) -> Reshape([4, -1, 16])
  %value_states_4 = tensor.expand_shape %v_proj [[0], [1], [2, 3]] output_shape [2, %frames, 2, 16] : tensor<2x?x32xf32> into tensor<2x?x2x16xf32>
  %value_states_t = linalg.transpose ins(%value_states_4 : tensor<2x?x2x16xf32>) outs(%tr_e : tensor<2x2x?x16xf32>) permutation = [0, 2, 1, 3]
  %value_states = tensor.collapse_shape %value_states_t [[0, 1], [2], [3]] : tensor<2x2x?x16xf32> into tensor<4x?x16xf32>
  // MatMul(query_states, Transpose(key_states, perm=[0, 2, 1]))
  %kT_e = tensor.empty(%frames) : tensor<4x16x?xf32>
  %key_T = linalg.transpose ins(%key_states : tensor<4x?x16xf32>) outs(%kT_e : tensor<4x16x?xf32>) permutation = [0, 2, 1]
  %cst = arith.constant 0.000000e+00 : f32
  %s_e = tensor.empty(%frames, %frames) : tensor<4x?x?xf32>
  %s_z = linalg.fill ins(%cst : f32) outs(%s_e : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %attn_weights = linalg.batch_matmul ins(%query_states, %key_T : tensor<4x?x16xf32>, tensor<4x16x?xf32>) outs(%s_z : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  // Wav2Vec2Encoder: 1.0 - attention_mask[:, None, None, :].to(f32), * finfo(f32).min, expand(B, 1, T, T)
  %m_dim = tensor.dim %attention_mask, %c1 : tensor<2x?xi64>
  %eq_m = arith.cmpi eq, %m_dim, %frames : index
  cf.assert %eq_m, "mismatched size for broadcast"
  %am4 = tensor.expand_shape %attention_mask [[0], [1, 2, 3]] output_shape [2, 1, 1, %m_dim] : tensor<2x?xi64> into tensor<2x1x1x?xi64>
  %amf_e = tensor.empty(%m_dim) : tensor<2x1x1x?xf32>
  %am_f = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am4 : tensor<2x1x1x?xi64>) outs(%amf_e : tensor<2x1x1x?xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.sitofp %in : i64 to f32
    linalg.yield %0 : f32
  } -> tensor<2x1x1x?xf32>
  %am_inv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am_f : tensor<2x1x1x?xf32>) outs(%amf_e : tensor<2x1x1x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.000000e+00 : f32
    %0 = arith.subf %one, %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x1x?xf32>
  %am_min = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am_inv : tensor<2x1x1x?xf32>) outs(%amf_e : tensor<2x1x1x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %min = arith.constant -3.40282347E+38 : f32
    %0 = arith.mulf %in, %min : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x1x?xf32>
  %ext_e = tensor.empty(%frames, %m_dim) : tensor<2x1x?x?xf32>
  %extended_attention_mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>,
                                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am_min : tensor<2x1x1x?xf32>) outs(%ext_e : tensor<2x1x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x1x?x?xf32>
  // Reshape(attn_weights, [2, 2, T, T]) + extended_attention_mask
  %w4 = tensor.expand_shape %attn_weights [[0, 1], [2], [3]] output_shape [2, 2, %frames, %frames] : tensor<4x?x?xf32> into tensor<2x2x?x?xf32>
  %w_e = tensor.empty(%frames, %frames) : tensor<2x2x?x?xf32>
  %w_masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                               affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                              iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w4, %extended_attention_mask : tensor<2x2x?x?xf32>, tensor<2x1x?x?xf32>) outs(%w_e : tensor<2x2x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x?x?xf32>
  %w3 = tensor.collapse_shape %w_masked [[0, 1], [2], [3]] : tensor<2x2x?x?xf32> into tensor<4x?x?xf32>
  // Softmax(axis=-1)  (opset 13+: aten.softmax.int over the last axis)
  %ninf = arith.constant 0xFF800000 : f32
  %c0_i64 = arith.constant 0 : i64
  %red_e = tensor.empty(%frames) : tensor<4x?xf32>
  %max_z = linalg.fill ins(%ninf : f32) outs(%red_e : tensor<4x?xf32>) -> tensor<4x?xf32>
  %idx_e = tensor.empty(%frames) : tensor<4x?xi64>
  %idx_z = linalg.fill ins(%c0_i64 : i64) outs(%idx_e : tensor<4x?xi64>) -> tensor<4x?xi64>
  %max:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                            affine_map<(d0, d1, d2) -> (d0, d1)>,
                                            affine_map<(d0, d1, d2) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w3 : tensor<4x?x?xf32>) outs(%max_z, %idx_z : tensor<4x?xf32>, tensor<4x?xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %0 = linalg.index 2 : index
    %1 = arith.index_cast %0 : index to i64
    %2 = arith.maximumf %in, %out : f32
    %3 = arith.cmpf ogt, %in, %out : f32
    %4 = arith.select %3, %1, %out_0 : i64
    linalg.yield %2, %4 : f32, i64
  } -> (tensor<4x?xf32>, tensor<4x?xi64>)
  %max_k = tensor.expand_shape %max#0 [[0], [1, 2]] output_shape [4, %frames, 1] : tensor<4x?xf32> into tensor<4x?x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, 0)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w3, %max_k : tensor<4x?x?xf32>, tensor<4x?x1xf32>) outs(%s_e : tensor<4x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.subf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x?x?xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<4x?x?xf32>) outs(%s_e : tensor<4x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x?x?xf32>
  %sum_z = linalg.fill ins(%cst : f32) outs(%red_e : tensor<4x?xf32>) -> tensor<4x?xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<4x?x?xf32>) outs(%sum_z : tensor<4x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<4x?xf32>
  %sum_k = tensor.expand_shape %sum [[0], [1, 2]] output_shape [4, %frames, 1] : tensor<4x?xf32> into tensor<4x?x1xf32>
  %attn_probs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                                 affine_map<(d0, d1, d2) -> (d0, d1, 0)>,
                                                 affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                                iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sum_k : tensor<4x?x?xf32>, tensor<4x?x1xf32>) outs(%s_e : tensor<4x?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.divf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x?x?xf32>
  // MatMul(attn_probs, value_states): the contraction size is checked at run time
  %c2 = arith.constant 2 : index
  %p_k = tensor.dim %attn_probs, %c2 : tensor<4x?x?xf32>
  %v_k = tensor.dim %value_states, %c1 : tensor<4x?x16xf32>
  %eq_k = arith.cmpi eq, %p_k, %v_k : index
  cf.assert %eq_k, "mismatching contracting dimension"
  %o_e = tensor.empty(%frames) : tensor<4x?x16xf32>
  %o_z = linalg.fill ins(%cst : f32) outs(%o_e : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  %attn_output = linalg.batch_matmul ins(%attn_probs, %value_states : tensor<4x?x?xf32>, tensor<4x?x16xf32>) outs(%o_z : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  // Reshape([2, 2, T, 16]) -> Transpose(perm=[0, 2, 1, 3]) -> Reshape([2, T, 32])
  %o4 = tensor.expand_shape %attn_output [[0, 1], [2], [3]] output_shape [2, 2, %frames, 16] : tensor<4x?x16xf32> into tensor<2x2x?x16xf32>
  %ot_e = tensor.empty(%frames) : tensor<2x?x2x16xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x2x?x16xf32>) outs(%ot_e : tensor<2x?x2x16xf32>) permutation = [0, 2, 1, 3]
  %out = tensor.collapse_shape %ot [[0], [1], [2, 3]] : tensor<2x?x2x16xf32> into tensor<2x?x32xf32>
  return %out : tensor<2x?x32xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c12 = arith.constant 12 : index
  %c32 = arith.constant 32 : index
  %q_s = arith.constant 0.6 : f32
  %q_0 = call @input3(%q_s, %c2, %c12, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q_1 = tensor.cast %q_0 : tensor<?x?x?xf32> to tensor<2x12x32xf32>
  %k_s = arith.constant 1.7 : f32
  %k_0 = call @input3(%k_s, %c2, %c12, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k_1 = tensor.cast %k_0 : tensor<?x?x?xf32> to tensor<2x12x32xf32>
  %v_s = arith.constant 2.8 : f32
  %v_0 = call @input3(%v_s, %c2, %c12, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v_1 = tensor.cast %v_0 : tensor<?x?x?xf32> to tensor<2x12x32xf32>
  // batch 1: the last 4 frames are padding
  %am = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]]> : tensor<2x12xi64>
  %qd = tensor.cast %q_1 : tensor<2x12x32xf32> to tensor<2x?x32xf32>
  %kd = tensor.cast %k_1 : tensor<2x12x32xf32> to tensor<2x?x32xf32>
  %vd = tensor.cast %v_1 : tensor<2x12x32xf32> to tensor<2x?x32xf32>
  %amd = tensor.cast %am : tensor<2x12xi64> to tensor<2x?xi64>
  %o = call @main_graph(%qd, %kd, %vd, %amd) : (tensor<2x?x32xf32>, tensor<2x?x32xf32>, tensor<2x?x32xf32>, tensor<2x?xi64>) -> tensor<2x?x32xf32>
  %os = tensor.cast %o : tensor<2x?x32xf32> to tensor<2x12x32xf32>
  %out_u = tensor.cast %os : tensor<2x12x32xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  return
}
