// Held-out block c11: TF ALBERT self-attention (TFAlbertAttention with the
// padding mask of TFAlbertMainLayer and transformers' stable_softmax, which
// adds 1e-9 to the logits), traced as a tf.function with static shapes and
// legalized to TOSA by the TF 2.10-2.11 era tf-to-tosa legalization, whose
// float Softmax lowering is exp / reduce_sum / reciprocal / mul with no max
// subtraction (written here in today's TOSA syntax: const_shape operands,
// mul's shift operand, matmul zero points).
//
// Frontend: TensorFlow tf.function -> tf dialect -> tosa-legalize-tf
//   (tensorflow/compiler/mlir/tosa/transforms/legalize_tf.cc and
//   legalize_common.cc: ConvertTFBatchMatMulV2Op with adj_y as an explicit
//   transpose, RealDiv as reciprocal * mul, convertSoftmaxOp's float path).
// Model: albert-base-v2 (HF TFAlbertModel), one TFAlbertAttention layer.
//   Shrunk: B=2, N=8, hidden=32, 2 heads, head_dim=16 (sqrt_att_head_size = 4).
// Sources read:
//   huggingface/transformers src/transformers/models/albert/modeling_tf_albert.py
//     TFAlbertAttention.transpose_for_scores: tf.reshape(x, (B, -1, H, D)),
//       tf.transpose(perm=[0, 2, 1, 3]);  TFAlbertAttention.call:
//       attention_scores = tf.matmul(query_layer, key_layer, transpose_b=True)
//       dk = tf.cast(self.sqrt_att_head_size, dtype=attention_scores.dtype)
//       attention_scores = tf.divide(attention_scores, dk)
//       attention_scores = tf.add(attention_scores, attention_mask)
//       attention_probs = stable_softmax(logits=attention_scores, axis=-1)
//       attention_probs = self.attention_dropout(inputs=attention_probs, training=training)
//       context_layer = tf.matmul(attention_probs, value_layer)
//       context_layer = tf.transpose(context_layer, perm=[0, 2, 1, 3])
//       context_layer = tf.reshape(tensor=context_layer, shape=(batch_size, -1, self.all_head_size))
//     TFAlbertMainLayer.call: extended mask = reshape(mask, (B, 1, 1, N)), cast,
//       tf.multiply(tf.subtract(one_cst, extended_attention_mask), ten_thousand_cst (-10000.0)).
//   huggingface/transformers src/transformers/tf_utils.py
//     stable_softmax: return tf.nn.softmax(logits=logits + 1e-9, axis=axis, name=name)
//   tensorflow/tensorflow tensorflow/compiler/mlir/tosa/transforms/legalize_common.cc
//     (the llvm::Optional-era convertSoftmaxOp: "Floating-point lowering is
//     more direct: op1 = exp(logits); op2 = reduce_sum(op1, -1);
//     op3 = reciprocal(op2); op4 = mul(op1, op3)").
//
// What each op is:
//   reshape/cast/sub/mul                  TFAlbertMainLayer's (1 - mask) * -10000 on the int32 mask
//   reshape + transpose                   transpose_for_scores on query/key/value
//   transpose + reshape + tosa.matmul     tf.matmul(q, k, transpose_b=True) (BatchMatMulV2, rank 3)
//   reciprocal(4) * mul                   tf.divide(scores, dk)
//   add                                   tf.add(scores, attention_mask)
//   add 1e-9                              stable_softmax's logits + 1e-9
//   exp, reduce_sum, reciprocal, mul      tf.nn.softmax (no max subtraction in this legalization)
//   matmul, transpose, reshape            tf.matmul(probs, v), transpose, reshape (dropout: training=False)
//
// Math: S = q k^T / 4 + (1 - m[b, j]) * -10000 + 1e-9;  P = exp(S) / sum_j exp(S);  O = P v
//   Returns (O [2, 8, 32], P [2, 2, 8, 8]). Batch 1 pads its last 3 tokens.

func.func @tf_albert_attention(%mixed_query_layer: tensor<2x8x32xf32>, %mixed_key_layer: tensor<2x8x32xf32>,
                               %mixed_value_layer: tensor<2x8x32xf32>, %attention_mask: tensor<2x8xi32>)
    -> (tensor<2x8x32xf32>, tensor<2x2x8x8xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %one_cst = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ten_thousand_cst = "tosa.const"() <{values = dense<-1.000000e+04> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %dk = "tosa.const"() <{values = dense<4.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<9.99999971E-10> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  // TFAlbertMainLayer: extended_attention_mask = tf.cast(tf.reshape(attention_mask, (B, 1, 1, N)), f32)
  // (1.0 - extended_attention_mask) * -10000.0
  %s_2x1x1x8 = tosa.const_shape {values = dense<[2, 1, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %am4 = tosa.reshape %attention_mask, %s_2x1x1x8 : (tensor<2x8xi32>, !tosa.shape<4>) -> tensor<2x1x1x8xi32>
  %am_f = tosa.cast %am4 : (tensor<2x1x1x8xi32>) -> tensor<2x1x1x8xf32>
  %inv = tosa.sub %one_cst, %am_f : (tensor<1x1x1x1xf32>, tensor<2x1x1x8xf32>) -> tensor<2x1x1x8xf32>
  %ext_mask = tosa.mul %inv, %ten_thousand_cst, %shift : (tensor<2x1x1x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1x8xf32>
  // query_layer = self.transpose_for_scores(mixed_query_layer, batch_size)
  %s_2x8x2x16 = tosa.const_shape {values = dense<[2, 8, 2, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %query_layer_4 = tosa.reshape %mixed_query_layer, %s_2x8x2x16 : (tensor<2x8x32xf32>, !tosa.shape<4>) -> tensor<2x8x2x16xf32>
  %query_layer = tosa.transpose %query_layer_4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf32>) -> tensor<2x2x8x16xf32>
  // key_layer = self.transpose_for_scores(mixed_key_layer, batch_size)
  %key_layer_4 = tosa.reshape %mixed_key_layer, %s_2x8x2x16 : (tensor<2x8x32xf32>, !tosa.shape<4>) -> tensor<2x8x2x16xf32>
  %key_layer = tosa.transpose %key_layer_4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf32>) -> tensor<2x2x8x16xf32>
  // value_layer = self.transpose_for_scores(mixed_value_layer, batch_size)
  %value_layer_4 = tosa.reshape %mixed_value_layer, %s_2x8x2x16 : (tensor<2x8x32xf32>, !tosa.shape<4>) -> tensor<2x8x2x16xf32>
  %value_layer = tosa.transpose %value_layer_4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf32>) -> tensor<2x2x8x16xf32>
  // attention_scores = tf.matmul(query_layer, key_layer, transpose_b=True)
  %kT = tosa.transpose %key_layer {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x2x8x16xf32>) -> tensor<2x2x16x8xf32>
  %s_4x8x16 = tosa.const_shape {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %query_layer, %s_4x8x16 : (tensor<2x2x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %s_4x16x8 = tosa.const_shape {values = dense<[4, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.reshape %kT, %s_4x16x8 : (tensor<2x2x16x8xf32>, !tosa.shape<3>) -> tensor<4x16x8xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %s_2x2x8x8 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %scores = tosa.reshape %s3, %s_2x2x8x8 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
  // attention_scores = tf.divide(attention_scores, dk)
  %rdk = tosa.reciprocal %dk : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %scaled = tosa.mul %scores, %rdk, %shift : (tensor<2x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  // attention_scores = tf.add(attention_scores, attention_mask)
  %masked = tosa.add %scaled, %ext_mask : (tensor<2x2x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x2x8x8xf32>
  // stable_softmax: tf.nn.softmax(logits=logits + 1e-9, axis=-1)
  %logits = tosa.add %masked, %eps : (tensor<2x2x8x8xf32>, tensor<1x1x1x1xf32>) -> tensor<2x2x8x8xf32>
  %ex = tosa.exp %logits : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %sum = tosa.reduce_sum %ex {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %rcp = tosa.reciprocal %sum : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %attention_probs = tosa.mul %ex, %rcp, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  // context_layer = tf.matmul(attention_probs, value_layer)   (attention_dropout with training=False)
  %s_4x8x8 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %attention_probs, %s_4x8x8 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %v3 = tosa.reshape %value_layer, %s_4x8x16 : (tensor<2x2x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %c3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  %s_2x2x8x16 = tosa.const_shape {values = dense<[2, 2, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c4 = tosa.reshape %c3, %s_2x2x8x16 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<2x2x8x16xf32>
  // tf.transpose(context_layer, perm=[0, 2, 1, 3]); tf.reshape(..., (batch_size, -1, all_head_size))
  %ct = tosa.transpose %c4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x2x8x16xf32>) -> tensor<2x8x2x16xf32>
  %s_2x8x32 = tosa.const_shape {values = dense<[2, 8, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %context_layer = tosa.reshape %ct, %s_2x8x32 : (tensor<2x8x2x16xf32>, !tosa.shape<3>) -> tensor<2x8x32xf32>
  return %context_layer, %attention_probs : tensor<2x8x32xf32>, tensor<2x2x8x8xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %q_s = arith.constant 0.2 : f32
  %q_0 = call @input3(%q_s, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q_1 = tensor.cast %q_0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %k_s = arith.constant 1.1 : f32
  %k_0 = call @input3(%k_s, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k_1 = tensor.cast %k_0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %v_s = arith.constant 2.2 : f32
  %v_0 = call @input3(%v_s, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v_1 = tensor.cast %v_0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  // input attention_mask (int32): batch 1 pads its last 3 tokens
  %mask = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 0, 0, 0]]> : tensor<2x8xi32>
  %o:2 = call @tf_albert_attention(%q_1, %k_1, %v_1, %mask) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8xi32>) -> (tensor<2x8x32xf32>, tensor<2x2x8x8xf32>)
  %out_u = tensor.cast %o#0 : tensor<2x8x32xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  %probs_u = tensor.cast %o#1 : tensor<2x2x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%probs_u) : (tensor<*xf32>) -> ()
  return
}
