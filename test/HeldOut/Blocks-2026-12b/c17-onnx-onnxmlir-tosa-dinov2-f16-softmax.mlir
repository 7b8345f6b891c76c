// Held-out block c17: DINOv2 self-attention exported to ONNX in float16 and
// lowered by onnx-mlir's ONNX-to-TOSA conversion (--convert-onnx-to-tosa):
// every op, the softmax included, stays in f16 (ONNX Softmax has no upcast),
// while tosa.matmul accumulates into f32 and is cast back to f16.
//
// Frontend: torch.onnx.export of model.half() (TorchScript exporter, opset 17)
//   -> onnx-mlir --EmitONNXIR -> --convert-onnx-to-tosa
//   (src/Conversion/ONNXToTOSA: Math/MatMul.cpp, Math/Elementwise.cpp,
//   Math/Softmax.cpp, Tensor/Reshape.cpp, Tensor/Transpose.cpp).
// Model: facebook/dinov2-small (HF Dinov2Model), one Dinov2SelfAttention on a
//   42x42 image: 9 patches + CLS = 10 tokens. Shrunk: B=2, 10 tokens,
//   hidden 32, 2 heads, head_dim 16 (divisor sqrt(16) = 4, an f16 initializer).
// Sources read:
//   huggingface/transformers src/transformers/models/dinov2/modeling_dinov2.py
//     Dinov2SelfAttention.transpose_for_scores (view(B, N, H, D).permute(0, 2, 1, 3)), .forward:
//       attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
//       attention_scores = attention_scores / math.sqrt(self.attention_head_size)
//       attention_probs = nn.functional.softmax(attention_scores, dim=-1)
//       attention_probs = self.dropout(attention_probs)
//       context_layer = torch.matmul(attention_probs, value_layer)
//       context_layer = context_layer.permute(0, 2, 1, 3).contiguous().view(B, N, all_head_size)
//   onnx/onnx-mlir src/Conversion/ONNXToTOSA/Math/MatMul.cpp (rank-4 MatMul:
//     batch dims squeezed into one, tosa.matmul with an f32 result, cast to
//     the input type, reshaped back), Math/Elementwise.cpp (ONNXDivOpLoweringToTOSA:
//     reciprocal + mul for floats), Math/Softmax.cpp (opset 13: reduce_max,
//     sub, exp, reduce_sum, reciprocal, mul on the given axis).
//
// What each op is:
//   reshape + transpose [0,2,1,3]         Reshape/Transpose of q, k, v (transpose_for_scores)
//   transpose [0,1,3,2]                   Transpose(key) for key.transpose(-1, -2)
//   reshape, matmul (f32), cast, reshape  MatMul(q, k^T) in f16
//   reciprocal(4) + mul                   Div(scores, 4.0)
//   reduce_max ... mul, all f16           Softmax(axis=-1)  (Dropout removed in inference)
//   reshape, matmul, cast, reshape        MatMul(P, v)
//   transpose + reshape                   Transpose(perm=[0,2,1,3]) + Reshape(B, N, 32)
//
// Math: S = f16(f16(q k^T) * f16(1/4));  P = softmax_j(S) in f16;  O = f16(P v).
//   Returns O [2, 10, 32] f16.

func.func @main_graph(%query: tensor<2x10x32xf16>, %key: tensor<2x10x32xf16>, %value: tensor<2x10x32xf16>) -> tensor<2x10x32xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  // /attention/Reshape + Transpose(perm=[0, 2, 1, 3]) of query
  %s_2x10x2x16 = tosa.const_shape {values = dense<[2, 10, 2, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %query_layer_4 = tosa.reshape %query, %s_2x10x2x16 : (tensor<2x10x32xf16>, !tosa.shape<4>) -> tensor<2x10x2x16xf16>
  %query_layer = tosa.transpose %query_layer_4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x10x2x16xf16>) -> tensor<2x2x10x16xf16>
  // /attention/Reshape + Transpose(perm=[0, 2, 1, 3]) of key
  %key_layer_4 = tosa.reshape %key, %s_2x10x2x16 : (tensor<2x10x32xf16>, !tosa.shape<4>) -> tensor<2x10x2x16xf16>
  %key_layer = tosa.transpose %key_layer_4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x10x2x16xf16>) -> tensor<2x2x10x16xf16>
  // /attention/Reshape + Transpose(perm=[0, 2, 1, 3]) of value
  %value_layer_4 = tosa.reshape %value, %s_2x10x2x16 : (tensor<2x10x32xf16>, !tosa.shape<4>) -> tensor<2x10x2x16xf16>
  %value_layer = tosa.transpose %value_layer_4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x10x2x16xf16>) -> tensor<2x2x10x16xf16>
  // Transpose(key_layer, perm=[0, 1, 3, 2]); MatMul(query_layer, .)
  %key_t = tosa.transpose %key_layer {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x2x10x16xf16>) -> tensor<2x2x16x10xf16>
  %s_4x10x16 = tosa.const_shape {values = dense<[4, 10, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %query_layer, %s_4x10x16 : (tensor<2x2x10x16xf16>, !tosa.shape<3>) -> tensor<4x10x16xf16>
  %s_4x16x10 = tosa.const_shape {values = dense<[4, 16, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.reshape %key_t, %s_4x16x10 : (tensor<2x2x16x10xf16>, !tosa.shape<3>) -> tensor<4x16x10xf16>
  %qk32 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x10x16xf16>, tensor<4x16x10xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x10x10xf32>
  %qk16 = tosa.cast %qk32 : (tensor<4x10x10xf32>) -> tensor<4x10x10xf16>
  %s_2x2x10x10 = tosa.const_shape {values = dense<[2, 2, 10, 10]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %scores = tosa.reshape %qk16, %s_2x2x10x10 : (tensor<4x10x10xf16>, !tosa.shape<4>) -> tensor<2x2x10x10xf16>
  // Div(attention_scores, /attention/Constant_output_0 = 4.0)
  %sqrt_d = "tosa.const"() <{values = dense<4.000000e+00> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %rcp_d = tosa.reciprocal %sqrt_d : (tensor<1x1x1x1xf16>) -> tensor<1x1x1x1xf16>
  %scaled = tosa.mul %scores, %rcp_d, %shift : (tensor<2x2x10x10xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x2x10x10xf16>
  // Softmax(axis=-1) in f16
  %mx = tosa.reduce_max %scaled {axis = 3 : i32} : (tensor<2x2x10x10xf16>) -> tensor<2x2x10x1xf16>
  %sub = tosa.sub %scaled, %mx : (tensor<2x2x10x10xf16>, tensor<2x2x10x1xf16>) -> tensor<2x2x10x10xf16>
  %ex = tosa.exp %sub : (tensor<2x2x10x10xf16>) -> tensor<2x2x10x10xf16>
  %sum = tosa.reduce_sum %ex {axis = 3 : i32} : (tensor<2x2x10x10xf16>) -> tensor<2x2x10x1xf16>
  %rcp = tosa.reciprocal %sum : (tensor<2x2x10x1xf16>) -> tensor<2x2x10x1xf16>
  %probs = tosa.mul %ex, %rcp, %shift : (tensor<2x2x10x10xf16>, tensor<2x2x10x1xf16>, tensor<1xi8>) -> tensor<2x2x10x10xf16>
  // MatMul(attention_probs, value_layer)
  %s_4x10x10 = tosa.const_shape {values = dense<[4, 10, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %probs, %s_4x10x10 : (tensor<2x2x10x10xf16>, !tosa.shape<3>) -> tensor<4x10x10xf16>
  %v3 = tosa.reshape %value_layer, %s_4x10x16 : (tensor<2x2x10x16xf16>, !tosa.shape<3>) -> tensor<4x10x16xf16>
  %ctx32 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x10x10xf16>, tensor<4x10x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x10x16xf32>
  %ctx16 = tosa.cast %ctx32 : (tensor<4x10x16xf32>) -> tensor<4x10x16xf16>
  %s_2x2x10x16 = tosa.const_shape {values = dense<[2, 2, 10, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %ctx4 = tosa.reshape %ctx16, %s_2x2x10x16 : (tensor<4x10x16xf16>, !tosa.shape<4>) -> tensor<2x2x10x16xf16>
  // Transpose(perm=[0, 2, 1, 3]) + Reshape(B, N, 32)
  %ctx_t = tosa.transpose %ctx4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x2x10x16xf16>) -> tensor<2x10x2x16xf16>
  %s_2x10x32 = tosa.const_shape {values = dense<[2, 10, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %context_layer = tosa.reshape %ctx_t, %s_2x10x32 : (tensor<2x10x2x16xf16>, !tosa.shape<3>) -> tensor<2x10x32xf16>
  return %context_layer : tensor<2x10x32xf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %c32 = arith.constant 32 : index
  %q_s = arith.constant 0.4 : f32
  %q_0 = call @input3(%q_s, %c2, %c10, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q_1 = tensor.cast %q_0 : tensor<?x?x?xf32> to tensor<2x10x32xf32>
  %q_e = tensor.empty() : tensor<2x10x32xf16>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q_1 : tensor<2x10x32xf32>) outs(%q_e : tensor<2x10x32xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x10x32xf16>
  %k_s = arith.constant 1.5 : f32
  %k_0 = call @input3(%k_s, %c2, %c10, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k_1 = tensor.cast %k_0 : tensor<?x?x?xf32> to tensor<2x10x32xf32>
  %k_e = tensor.empty() : tensor<2x10x32xf16>
  %k = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k_1 : tensor<2x10x32xf32>) outs(%k_e : tensor<2x10x32xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x10x32xf16>
  %v_s = arith.constant 2.6 : f32
  %v_0 = call @input3(%v_s, %c2, %c10, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v_1 = tensor.cast %v_0 : tensor<?x?x?xf32> to tensor<2x10x32xf32>
  %v_e = tensor.empty() : tensor<2x10x32xf16>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v_1 : tensor<2x10x32xf32>) outs(%v_e : tensor<2x10x32xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x10x32xf16>
  %o = call @main_graph(%q, %k, %v) : (tensor<2x10x32xf16>, tensor<2x10x32xf16>, tensor<2x10x32xf16>) -> tensor<2x10x32xf16>
  %out_pe = tensor.empty() : tensor<2x10x32xf32>
  %out_p32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x10x32xf16>) outs(%out_pe : tensor<2x10x32xf32>) {
  ^bb0(%in: f16, %out: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  } -> tensor<2x10x32xf32>
  %out_u = tensor.cast %out_p32 : tensor<2x10x32xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  return
}
