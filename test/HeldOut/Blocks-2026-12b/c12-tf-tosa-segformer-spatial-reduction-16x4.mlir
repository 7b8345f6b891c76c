// Held-out block c12: TF SegFormer efficient self-attention (spatial-reduction
// attention): queries from all 16 tokens of a 4x4 feature map, keys and values
// from the map reduced 2x by a strided Conv2D (sr) and a LayerNormalization,
// so the score matrix is 16 x 4. One head. Traced as a tf.function with the
// variables frozen into arguments and legalized to TOSA by the current
// tf-to-tosa legalization (softmax with reduce_max, nan_mode PROPAGATE).
//
// Frontend: TensorFlow tf.function -> tf dialect -> tosa-legalize-tf
//   (legalize_tf.cc / legalize_common.cc: Conv2D -> tosa.conv2d in NHWC with
//   an OHWI kernel; Dense MatMul -> rank-3 tosa.matmul; the Keras
//   LayerNormalization graph, moments + batch_normalization, as
//   reduce_sum/mul/sub/rsqrt ops; RealDiv -> reciprocal * mul;
//   convertSoftmaxOp's float path).
// Model: nvidia/mit-b0 (HF TFSegformerModel), stage-1 block: 1 head,
//   sr_ratio > 1. Shrunk: B=2, 4x4 tokens, hidden 16, head_dim 16
//   (sqrt_att_head_size = 4), sr_ratio 2 (4 keys), LayerNorm epsilon 1e-5.
// Sources read:
//   huggingface/transformers src/transformers/models/segformer/modeling_tf_segformer.py
//     TFSegformerEfficientSelfAttention.__init__ (sr = Conv2D(hidden, kernel_size=sr_ratio,
//       strides=sr_ratio), layer_norm = LayerNormalization(epsilon=1e-05)), .transpose_for_scores,
//     .call:
//       query_layer = self.transpose_for_scores(self.query(hidden_states))
//       hidden_states = tf.reshape(hidden_states, (batch_size, height, width, num_channels))
//       hidden_states = self.sr(hidden_states)
//       hidden_states = tf.reshape(hidden_states, (batch_size, -1, num_channels))
//       hidden_states = self.layer_norm(hidden_states)
//       key_layer = self.transpose_for_scores(self.key(hidden_states))
//       value_layer = self.transpose_for_scores(self.value(hidden_states))
//       attention_scores = tf.matmul(query_layer, key_layer, transpose_b=True)
//       attention_scores = tf.divide(attention_scores, scale)
//       attention_probs = stable_softmax(logits=attention_scores, axis=-1)
//       attention_probs = self.dropout(attention_probs, training=training)
//       context_layer = tf.matmul(attention_probs, value_layer)
//       context_layer = tf.reshape(tf.transpose(context_layer, perm=[0, 2, 1, 3]), (batch_size, -1, all_head_size))
//   huggingface/transformers src/transformers/tf_utils.py (stable_softmax: logits + 1e-9)
//   tensorflow/tensorflow tensorflow/compiler/mlir/tosa/transforms/legalize_common.cc
//     (convertSoftmaxOp: reduce_max PROPAGATE, sub, exp, reduce_sum, reciprocal, mul).
//
// What each op is:
//   reshape + matmul + add (x3)           the query / key / value Dense layers (kernel, bias)
//   reshape NHWC + tosa.conv2d stride 2   tf.reshape(B, 4, 4, C) + self.sr
//   reshape + layer-norm ops              tf.reshape(B, -1, C) + self.layer_norm
//   reshape/transpose                     transpose_for_scores (1 head)
//   transpose + matmul                    tf.matmul(q, k, transpose_b=True): [2, 16, 4] scores
//   reciprocal * mul, add 1e-9            / sqrt(16), stable_softmax's + 1e-9
//   reduce_max ... mul                    tf.nn.softmax over the 4 reduced keys
//   matmul + transpose + reshape          context layer [2, 16, 16]
//
// Math: q = x Wq + bq (16 tokens); r = LN(conv2x2/2(x)) (4 tokens); k = r Wk + bk; v = r Wv + bv
//   S = q k^T / 4 + 1e-9 (16 x 4);  O = softmax_j(S) v.  Returns O [2, 16, 16].

func.func @tf_segformer_efficient_self_attention(%hidden_states: tensor<2x16x16xf32>,
    %query_kernel: tensor<16x16xf32>, %query_bias: tensor<16xf32>, %key_kernel: tensor<16x16xf32>, %key_bias: tensor<16xf32>,
    %value_kernel: tensor<16x16xf32>, %value_bias: tensor<16xf32>, %sr_kernel: tensor<16x2x2x16xf32>, %sr_bias: tensor<16xf32>,
    %ln_gamma: tensor<16xf32>, %ln_beta: tensor<16xf32>) -> tensor<2x16x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // self.query(hidden_states): Dense as a rank-3 matmul plus bias
  %s_32x16 = tosa.const_shape {values = dense<[32, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x2 = tosa.reshape %hidden_states, %s_32x16 : (tensor<2x16x16xf32>, !tosa.shape<2>) -> tensor<32x16xf32>
  %s_1x32x16 = tosa.const_shape {values = dense<[1, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %query_x3 = tosa.reshape %x2, %s_1x32x16 : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
  %s_1x16x16 = tosa.const_shape {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %query_w3 = tosa.reshape %query_kernel, %s_1x16x16 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %query_mm = tosa.matmul %query_x3, %query_w3, %zp, %zp : (tensor<1x32x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x16xf32>
  %s_1x1x16 = tosa.const_shape {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %query_b3 = tosa.reshape %query_bias, %s_1x1x16 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
  %query = tosa.add %query_mm, %query_b3 : (tensor<1x32x16xf32>, tensor<1x1x16xf32>) -> tensor<1x32x16xf32>
  // tf.reshape(hidden_states, (batch_size, height, width, num_channels)); self.sr(...)  (Conv2D k=2, s=2)
  %s_2x4x4x16 = tosa.const_shape {values = dense<[2, 4, 4, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %x_nhwc = tosa.reshape %hidden_states, %s_2x4x4x16 : (tensor<2x16x16xf32>, !tosa.shape<4>) -> tensor<2x4x4x16xf32>
  %sr = tosa.conv2d %x_nhwc, %sr_kernel, %sr_bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x4x4x16xf32>, tensor<16x2x2x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x2x16xf32>
  // tf.reshape(hidden_states, (batch_size, -1, num_channels)); self.layer_norm(...) (moments + batch_normalization)
  %s_2x4x16 = tosa.const_shape {values = dense<[2, 4, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sr3 = tosa.reshape %sr, %s_2x4x16 : (tensor<2x2x2x16xf32>, !tosa.shape<3>) -> tensor<2x4x16xf32>
  %inv_c = "tosa.const"() <{values = dense<6.250000e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ln_eps = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ln_sum = tosa.reduce_sum %sr3 {axis = 2 : i32} : (tensor<2x4x16xf32>) -> tensor<2x4x1xf32>
  %ln_mean = tosa.mul %ln_sum, %inv_c, %shift : (tensor<2x4x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x1xf32>
  %ln_diff = tosa.sub %sr3, %ln_mean : (tensor<2x4x16xf32>, tensor<2x4x1xf32>) -> tensor<2x4x16xf32>
  %ln_sq = tosa.mul %ln_diff, %ln_diff, %shift : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<1xi8>) -> tensor<2x4x16xf32>
  %ln_vsum = tosa.reduce_sum %ln_sq {axis = 2 : i32} : (tensor<2x4x16xf32>) -> tensor<2x4x1xf32>
  %ln_var = tosa.mul %ln_vsum, %inv_c, %shift : (tensor<2x4x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x1xf32>
  %ln_ve = tosa.add %ln_var, %ln_eps : (tensor<2x4x1xf32>, tensor<1x1x1xf32>) -> tensor<2x4x1xf32>
  %ln_rs = tosa.rsqrt %ln_ve : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %gamma3 = tosa.reshape %ln_gamma, %s_1x1x16 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
  %beta3 = tosa.reshape %ln_beta, %s_1x1x16 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
  %ln_inv = tosa.mul %ln_rs, %gamma3, %shift : (tensor<2x4x1xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<2x4x16xf32>
  %ln_xs = tosa.mul %sr3, %ln_inv, %shift : (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<1xi8>) -> tensor<2x4x16xf32>
  %ln_ms = tosa.mul %ln_mean, %ln_inv, %shift : (tensor<2x4x1xf32>, tensor<2x4x16xf32>, tensor<1xi8>) -> tensor<2x4x16xf32>
  %ln_off = tosa.sub %beta3, %ln_ms : (tensor<1x1x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %reduced = tosa.add %ln_xs, %ln_off : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  // self.key(hidden_states), self.value(hidden_states) on the reduced sequence
  %s_8x16 = tosa.const_shape {values = dense<[8, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r2 = tosa.reshape %reduced, %s_8x16 : (tensor<2x4x16xf32>, !tosa.shape<2>) -> tensor<8x16xf32>
  %s_1x8x16 = tosa.const_shape {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %key_x3 = tosa.reshape %r2, %s_1x8x16 : (tensor<8x16xf32>, !tosa.shape<3>) -> tensor<1x8x16xf32>
  %key_w3 = tosa.reshape %key_kernel, %s_1x16x16 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %key_mm = tosa.matmul %key_x3, %key_w3, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32>
  %key_b3 = tosa.reshape %key_bias, %s_1x1x16 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
  %key = tosa.add %key_mm, %key_b3 : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  %value_x3 = tosa.reshape %r2, %s_1x8x16 : (tensor<8x16xf32>, !tosa.shape<3>) -> tensor<1x8x16xf32>
  %value_w3 = tosa.reshape %value_kernel, %s_1x16x16 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %value_mm = tosa.matmul %value_x3, %value_w3, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32>
  %value_b3 = tosa.reshape %value_bias, %s_1x1x16 : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
  %value = tosa.add %value_mm, %value_b3 : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  // transpose_for_scores: reshape (B, -1, 1, 16), transpose [0, 2, 1, 3]
  %s_2x16x1x16 = tosa.const_shape {values = dense<[2, 16, 1, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %query_4 = tosa.reshape %query, %s_2x16x1x16 : (tensor<1x32x16xf32>, !tosa.shape<4>) -> tensor<2x16x1x16xf32>
  %query_layer = tosa.transpose %query_4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x16x1x16xf32>) -> tensor<2x1x16x16xf32>
  %s_2x4x1x16 = tosa.const_shape {values = dense<[2, 4, 1, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %key_4 = tosa.reshape %key, %s_2x4x1x16 : (tensor<1x8x16xf32>, !tosa.shape<4>) -> tensor<2x4x1x16xf32>
  %key_layer = tosa.transpose %key_4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x1x16xf32>) -> tensor<2x1x4x16xf32>
  %value_4 = tosa.reshape %value, %s_2x4x1x16 : (tensor<1x8x16xf32>, !tosa.shape<4>) -> tensor<2x4x1x16xf32>
  %value_layer = tosa.transpose %value_4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x1x16xf32>) -> tensor<2x1x4x16xf32>
  // attention_scores = tf.matmul(query_layer, key_layer, transpose_b=True)
  %kT = tosa.transpose %key_layer {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x1x4x16xf32>) -> tensor<2x1x16x4xf32>
  %s_2x16x16 = tosa.const_shape {values = dense<[2, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %query_layer, %s_2x16x16 : (tensor<2x1x16x16xf32>, !tosa.shape<3>) -> tensor<2x16x16xf32>
  %s_2x16x4 = tosa.const_shape {values = dense<[2, 16, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.reshape %kT, %s_2x16x4 : (tensor<2x1x16x4xf32>, !tosa.shape<3>) -> tensor<2x16x4xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<2x16x16xf32>, tensor<2x16x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x4xf32>
  %s_2x1x16x4 = tosa.const_shape {values = dense<[2, 1, 16, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %scores = tosa.reshape %s3, %s_2x1x16x4 : (tensor<2x16x4xf32>, !tosa.shape<4>) -> tensor<2x1x16x4xf32>
  // attention_scores = tf.divide(attention_scores, scale)
  %scale = "tosa.const"() <{values = dense<4.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %rscale = tosa.reciprocal %scale : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %scaled = tosa.mul %scores, %rscale, %shift : (tensor<2x1x16x4xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x16x4xf32>
  // stable_softmax(logits=attention_scores, axis=-1) = tf.nn.softmax(logits + 1e-9)
  %eps = "tosa.const"() <{values = dense<9.99999971E-10> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %logits = tosa.add %scaled, %eps : (tensor<2x1x16x4xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x16x4xf32>
  %mx = tosa.reduce_max %logits {axis = 3 : i32, nan_mode = PROPAGATE} : (tensor<2x1x16x4xf32>) -> tensor<2x1x16x1xf32>
  %sub = tosa.sub %logits, %mx : (tensor<2x1x16x4xf32>, tensor<2x1x16x1xf32>) -> tensor<2x1x16x4xf32>
  %ex = tosa.exp %sub : (tensor<2x1x16x4xf32>) -> tensor<2x1x16x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 3 : i32} : (tensor<2x1x16x4xf32>) -> tensor<2x1x16x1xf32>
  %rcp = tosa.reciprocal %sum : (tensor<2x1x16x1xf32>) -> tensor<2x1x16x1xf32>
  %probs = tosa.mul %ex, %rcp, %shift : (tensor<2x1x16x4xf32>, tensor<2x1x16x1xf32>, tensor<1xi8>) -> tensor<2x1x16x4xf32>
  // context_layer = tf.matmul(attention_probs, value_layer)  (dropout with training=False)
  %p3 = tosa.reshape %probs, %s_2x16x4 : (tensor<2x1x16x4xf32>, !tosa.shape<3>) -> tensor<2x16x4xf32>
  %v3 = tosa.reshape %value_layer, %s_2x4x16 : (tensor<2x1x4x16xf32>, !tosa.shape<3>) -> tensor<2x4x16xf32>
  %c3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<2x16x4xf32>, tensor<2x4x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x16xf32>
  %s_2x1x16x16 = tosa.const_shape {values = dense<[2, 1, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c4 = tosa.reshape %c3, %s_2x1x16x16 : (tensor<2x16x16xf32>, !tosa.shape<4>) -> tensor<2x1x16x16xf32>
  %ct = tosa.transpose %c4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x1x16x16xf32>) -> tensor<2x16x1x16xf32>
  %context_layer = tosa.reshape %ct, %s_2x16x16 : (tensor<2x16x1x16xf32>, !tosa.shape<3>) -> tensor<2x16x16xf32>
  return %context_layer : tensor<2x16x16xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %x_s = arith.constant 0.75 : f32
  %x_0 = call @input3(%x_s, %c2, %c16, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %x_1 = tensor.cast %x_0 : tensor<?x?x?xf32> to tensor<2x16x16xf32>
  // frozen variables: the inputs' pattern scaled by 0.1 (kernels) and 0.05 (biases); LayerNorm gamma around 1
  %wq_raw_s = arith.constant 0.1 : f32
  %wq_raw_0 = call @input2(%wq_raw_s, %c16, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %wq_raw_1 = tensor.cast %wq_raw_0 : tensor<?x?xf32> to tensor<16x16xf32>
  %wq_e = tensor.empty() : tensor<16x16xf32>
  %wq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%wq_raw_1 : tensor<16x16xf32>) outs(%wq_e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 1.000000e-01 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<16x16xf32>
  %wk_raw_s = arith.constant 0.7 : f32
  %wk_raw_0 = call @input2(%wk_raw_s, %c16, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %wk_raw_1 = tensor.cast %wk_raw_0 : tensor<?x?xf32> to tensor<16x16xf32>
  %wk_e = tensor.empty() : tensor<16x16xf32>
  %wk = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%wk_raw_1 : tensor<16x16xf32>) outs(%wk_e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 1.000000e-01 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<16x16xf32>
  %wv_raw_s = arith.constant 1.3 : f32
  %wv_raw_0 = call @input2(%wv_raw_s, %c16, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %wv_raw_1 = tensor.cast %wv_raw_0 : tensor<?x?xf32> to tensor<16x16xf32>
  %wv_e = tensor.empty() : tensor<16x16xf32>
  %wv = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%wv_raw_1 : tensor<16x16xf32>) outs(%wv_e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 1.000000e-01 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<16x16xf32>
  %srk_raw_s = arith.constant 1.9 : f32
  %srk_raw_0 = call @input4(%srk_raw_s, %c16, %c2, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %srk_raw_1 = tensor.cast %srk_raw_0 : tensor<?x?x?x?xf32> to tensor<16x2x2x16xf32>
  %srk_e = tensor.empty() : tensor<16x2x2x16xf32>
  %srk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%srk_raw_1 : tensor<16x2x2x16xf32>) outs(%srk_e : tensor<16x2x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 5.000000e-02 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<16x2x2x16xf32>
  %bq_raw_s = arith.constant 0.4 : f32
  %bq_raw_0 = call @input2(%bq_raw_s, %c1, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %bq_raw_1 = tensor.cast %bq_raw_0 : tensor<?x?xf32> to tensor<1x16xf32>
  %bq_e = tensor.empty() : tensor<1x16xf32>
  %bq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%bq_raw_1 : tensor<1x16xf32>) outs(%bq_e : tensor<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 5.000000e-02 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x16xf32>
  %bk_raw_s = arith.constant 1.0 : f32
  %bk_raw_0 = call @input2(%bk_raw_s, %c1, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %bk_raw_1 = tensor.cast %bk_raw_0 : tensor<?x?xf32> to tensor<1x16xf32>
  %bk_e = tensor.empty() : tensor<1x16xf32>
  %bk = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%bk_raw_1 : tensor<1x16xf32>) outs(%bk_e : tensor<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 5.000000e-02 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x16xf32>
  %bv_raw_s = arith.constant 1.6 : f32
  %bv_raw_0 = call @input2(%bv_raw_s, %c1, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %bv_raw_1 = tensor.cast %bv_raw_0 : tensor<?x?xf32> to tensor<1x16xf32>
  %bv_e = tensor.empty() : tensor<1x16xf32>
  %bv = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%bv_raw_1 : tensor<1x16xf32>) outs(%bv_e : tensor<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 5.000000e-02 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x16xf32>
  %bs_raw_s = arith.constant 2.2 : f32
  %bs_raw_0 = call @input2(%bs_raw_s, %c1, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %bs_raw_1 = tensor.cast %bs_raw_0 : tensor<?x?xf32> to tensor<1x16xf32>
  %bs_e = tensor.empty() : tensor<1x16xf32>
  %bs = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%bs_raw_1 : tensor<1x16xf32>) outs(%bs_e : tensor<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 5.000000e-02 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x16xf32>
  %gm_raw_s = arith.constant 2.8 : f32
  %gm_raw_0 = call @input2(%gm_raw_s, %c1, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %gm_raw_1 = tensor.cast %gm_raw_0 : tensor<?x?xf32> to tensor<1x16xf32>
  %gm_e = tensor.empty() : tensor<1x16xf32>
  %gm = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%gm_raw_1 : tensor<1x16xf32>) outs(%gm_e : tensor<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 1.000000e-01 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x16xf32>
  %bt_raw_s = arith.constant 0.6 : f32
  %bt_raw_0 = call @input2(%bt_raw_s, %c1, %c16) : (f32, index, index) -> tensor<?x?xf32>
  %bt_raw_1 = tensor.cast %bt_raw_0 : tensor<?x?xf32> to tensor<1x16xf32>
  %bt_e = tensor.empty() : tensor<1x16xf32>
  %bt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%bt_raw_1 : tensor<1x16xf32>) outs(%bt_e : tensor<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = arith.constant 1.000000e-01 : f32
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x16xf32>
  %bq1 = tensor.collapse_shape %bq [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
  %bk1 = tensor.collapse_shape %bk [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
  %bv1 = tensor.collapse_shape %bv [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
  %bs1 = tensor.collapse_shape %bs [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
  %bt1 = tensor.collapse_shape %bt [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
  %gm_e1 = tensor.empty() : tensor<16xf32>
  %gm1c = tensor.collapse_shape %gm [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
  %gm1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                          affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
      ins(%gm1c : tensor<16xf32>) outs(%gm_e1 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.000000e+00 : f32
    %0 = arith.addf %in, %one : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  %o = call @tf_segformer_efficient_self_attention(%x_1, %wq, %bq1, %wk, %bk1, %wv, %bv1, %srk, %bs1, %gm1, %bt1)
      : (tensor<2x16x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16x2x2x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x16x16xf32>
  %out_u = tensor.cast %o : tensor<2x16x16xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  return
}
