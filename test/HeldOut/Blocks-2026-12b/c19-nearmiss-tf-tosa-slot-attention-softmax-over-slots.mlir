// Held-out block c19 -- NEAR MISS: Slot Attention's attention step. It has a
// scaled dot product, a softmax and a contraction with the values, but the
// softmax runs over the *slot* (query) axis -- slots compete for each input
// -- and the weights are then shifted by epsilon and renormalized over the
// *input* (key) axis before the weighted mean. That is not softmax(QK^T)V
// over keys; a correct compiler must not rewrite it as attention.
// Traced as a tf.function and legalized to TOSA (current tf-to-tosa
// legalization: softmax with reduce_max PROPAGATE; Keras batch_dot as
// BatchMatMulV2 with adjoint flags turned into explicit transposes).
//
// Frontend: TensorFlow 2 / Keras tf.function -> tf dialect -> tosa-legalize-tf
//   (legalize_tf.cc ConvertTFBatchMatMulV2Op, legalize_common.cc
//   convertSoftmaxOp, RealDiv -> reciprocal * mul).
// Model: google-research slot_attention (object discovery, CLEVR), one
//   iteration of SlotAttention.call's attention, after norm_inputs/project_k/
//   project_v and norm_slots/project_q. Shrunk: B=2, 16 inputs, 4 slots,
//   slot_size 16 (q *= 16 ** -0.5 = 0.25), epsilon 1e-8.
// Sources read:
//   google-research/google-research slot_attention/model.py, SlotAttention.call:
//       q = self.project_q(slots)  # Shape: [batch_size, num_slots, slot_size].
//       q *= self.slot_size ** -0.5  # Normalization.
//       attn_logits = tf.keras.backend.batch_dot(k, q, axes=-1)
//       attn = tf.nn.softmax(attn_logits, axis=-1)
//       # `attn` has shape: [batch_size, num_inputs, num_slots].
//       # Weigted mean.
//       attn += self.epsilon
//       attn /= tf.reduce_sum(attn, axis=-2, keepdims=True)
//       updates = tf.keras.backend.batch_dot(attn, v, axes=-2)
//       # `updates` has shape: [batch_size, num_slots, slot_size].
//   tensorflow/tensorflow tensorflow/compiler/mlir/tosa/transforms/legalize_common.cc
//     (convertSoftmaxOp).
//
// What each op is:
//   mul 0.25                              q *= slot_size ** -0.5
//   transpose(q) + matmul                 batch_dot(k, q, axes=-1) = k q^T: [B, inputs=16, slots=4]
//   reduce_max/sub/exp/reduce_sum/reciprocal/mul over axis 2   softmax over the 4 slots
//   add 1e-8                              attn += epsilon
//   reduce_sum axis 1 + reciprocal + mul  attn /= sum over the 16 inputs
//   transpose(attn) + matmul              batch_dot(attn, v, axes=-2) = attn^T v: [B, 4, 16]
//
// Math: A[n, s] = softmax_s(k_n . q_s / 4) + 1e-8;  W[n, s] = A[n, s] / sum_n' A[n', s]
//   updates[s] = sum_n W[n, s] v_n.  (Each slot's update is a weighted mean of
//   the inputs, but the weights are not softmax over inputs.) Returns
//   (updates [2, 4, 16], A after the epsilon [2, 16, 4]).

func.func @slot_attention_step(%k: tensor<2x16x16xf32>, %v: tensor<2x16x16xf32>, %q_proj: tensor<2x4x16xf32>)
    -> (tensor<2x4x16xf32>, tensor<2x16x4xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // q *= self.slot_size ** -0.5
  %scale = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %q = tosa.mul %q_proj, %scale, %shift : (tensor<2x4x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x16xf32>
  // attn_logits = tf.keras.backend.batch_dot(k, q, axes=-1)  (BatchMatMulV2 adj_y=True)
  %q_t = tosa.transpose %q {perms = array<i32: 0, 2, 1>} : (tensor<2x4x16xf32>) -> tensor<2x16x4xf32>
  %attn_logits = tosa.matmul %k, %q_t, %zp, %zp : (tensor<2x16x16xf32>, tensor<2x16x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x4xf32>
  // attn = tf.nn.softmax(attn_logits, axis=-1)   -- over the slots
  %mx = tosa.reduce_max %attn_logits {axis = 2 : i32, nan_mode = PROPAGATE} : (tensor<2x16x4xf32>) -> tensor<2x16x1xf32>
  %sub = tosa.sub %attn_logits, %mx : (tensor<2x16x4xf32>, tensor<2x16x1xf32>) -> tensor<2x16x4xf32>
  %ex = tosa.exp %sub : (tensor<2x16x4xf32>) -> tensor<2x16x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x16x4xf32>) -> tensor<2x16x1xf32>
  %rcp = tosa.reciprocal %sum : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
  %attn = tosa.mul %ex, %rcp, %shift : (tensor<2x16x4xf32>, tensor<2x16x1xf32>, tensor<1xi8>) -> tensor<2x16x4xf32>
  // attn += self.epsilon
  %eps = "tosa.const"() <{values = dense<9.99999993E-9> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %attn_eps = tosa.add %attn, %eps : (tensor<2x16x4xf32>, tensor<1x1x1xf32>) -> tensor<2x16x4xf32>
  // attn /= tf.reduce_sum(attn, axis=-2, keepdims=True)   -- over the inputs
  %colsum = tosa.reduce_sum %attn_eps {axis = 1 : i32} : (tensor<2x16x4xf32>) -> tensor<2x1x4xf32>
  %rcol = tosa.reciprocal %colsum : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %weights = tosa.mul %attn_eps, %rcol, %shift : (tensor<2x16x4xf32>, tensor<2x1x4xf32>, tensor<1xi8>) -> tensor<2x16x4xf32>
  // updates = tf.keras.backend.batch_dot(attn, v, axes=-2)  (BatchMatMulV2 adj_x=True)
  %w_t = tosa.transpose %weights {perms = array<i32: 0, 2, 1>} : (tensor<2x16x4xf32>) -> tensor<2x4x16xf32>
  %updates = tosa.matmul %w_t, %v, %zp, %zp : (tensor<2x4x16xf32>, tensor<2x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x16xf32>
  return %updates, %attn_eps : tensor<2x4x16xf32>, tensor<2x16x4xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %k_s = arith.constant 0.55 : f32
  %k_0 = call @input3(%k_s, %c2, %c16, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k_1 = tensor.cast %k_0 : tensor<?x?x?xf32> to tensor<2x16x16xf32>
  %v_s = arith.constant 1.65 : f32
  %v_0 = call @input3(%v_s, %c2, %c16, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v_1 = tensor.cast %v_0 : tensor<?x?x?xf32> to tensor<2x16x16xf32>
  %q_s = arith.constant 2.75 : f32
  %q_0 = call @input3(%q_s, %c2, %c4, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q_1 = tensor.cast %q_0 : tensor<?x?x?xf32> to tensor<2x4x16xf32>
  %o:2 = call @slot_attention_step(%k_1, %v_1, %q_1) : (tensor<2x16x16xf32>, tensor<2x16x16xf32>, tensor<2x4x16xf32>) -> (tensor<2x4x16xf32>, tensor<2x16x4xf32>)
  %out_u = tensor.cast %o#0 : tensor<2x4x16xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  %attn_u = tensor.cast %o#1 : tensor<2x16x4xf32> to tensor<*xf32>
  call @printMemrefF32(%attn_u) : (tensor<*xf32>) -> ()
  return
}
