// Held-out block c20 -- NEAR MISS: talking-heads attention. Per-head scaled
// dot products are mixed across heads by a learned [N, N] matrix before the
// softmax and the probabilities are mixed across heads again after it, then
// contracted with V. No head's output is softmax(Q_h K_h^T) V_h: the logits
// of head l are sum_n pre[n, l] Q_n K_n^T and the weights applied to V_l are
// sum_m post[m, l] P_m. A correct compiler must not rewrite it as attention.
// Traced as a tf.function, converted to StableHLO (tf -> mhlo legalization,
// exported as StableHLO) and lowered by stablehlo-legalize-to-linalg.
//
// Frontend: TensorFlow 2 tf.function -> tf dialect -> legalize-tf (to mhlo:
//   tf.Einsum as dot_general plus transposes; tf.nn.softmax as reduce max,
//   subtract, exp, reduce add, divide) -> stablehlo -> stablehlo-legalize-to-linalg.
// Model: tensorflow/models TF Model Garden official/nlp/modeling/layers/
//   talking_heads_attention.py TalkingHeadsAttention (the Talking-Heads
//   Transformer of Shazeer et al. 2020), with the Keras Softmax layer's
//   padding adder. Shrunk: B=2, T=S=8, 4 heads, key_dim 16.
// Sources read:
//   tensorflow/models official/nlp/modeling/layers/talking_heads_attention.py
//     TalkingHeadsAttention._build_attention (talking_heads_equation "BNFT,NL->BLFT"
//     for one attention axis, _pre_softmax_weight / _post_softmax_weight [N, N]),
//     TalkingHeadsAttention._compute_attention:
//       attention_scores = tf.einsum(self._dot_product_equation, key_tensor, query_tensor)
//       attention_scores = tf.multiply(attention_scores, 1.0 / math.sqrt(float(self._key_dim)))
//       attention_scores = tf.einsum(self._talking_heads_equation, attention_scores, self._pre_softmax_weight)
//       attention_scores = self._masked_softmax(attention_scores, attention_mask)
//       attention_scores = tf.einsum(self._talking_heads_equation, attention_scores, self._post_softmax_weight)
//       attention_scores_dropout = self._dropout_layer(attention_scores, training=training)
//       attention_output = tf.einsum(self._combine_equation, attention_scores_dropout, value_tensor)
//   keras-team/keras (tf.keras 2.x) MultiHeadAttention._masked_softmax /
//     _build_attention_equation ("aecd,abcd->acbe", "acbe,aecd->abcd"),
//     layers.Softmax.call: adder = (1.0 - tf.cast(mask, inputs.dtype)) * -1e9; inputs += adder.
//
// What each op is:
//   generic contraction over the key dim            einsum("aecd,abcd->acbe", key, query): [B, N, T, S]
//   mulf 0.25                                       * 1/sqrt(key_dim)
//   generic contraction over N + transpose          einsum("BNFT,NL->BLFT", scores, pre_softmax_weight)
//   expand/subf/mulf -1e9/addf                      Softmax layer's mask adder
//   reduce max, sub, exp, reduce add, div           tf.nn.softmax over S
//   generic contraction over N + transpose          einsum("BNFT,NL->BLFT", probs, post_softmax_weight)
//   generic contraction over S                      einsum("acbe,aecd->abcd", probs, value): [B, T, N, H]
//
// Math: L_l = sum_n pre[n,l] (Q_n K_n^T / 4) + mask;  P_m = softmax_s(L_m);
//   W_l = sum_m post[m,l] P_m;  O_l = W_l V_l.  Returns (O [2, 8, 4, 16], W [2, 4, 8, 8]).
//   Batch 1 pads its last 2 keys.

func.func @talking_heads_compute_attention(%query: tensor<2x8x4x16xf32>, %key: tensor<2x8x4x16xf32>, %value: tensor<2x8x4x16xf32>,
    %pre_softmax_weight: tensor<4x4xf32>, %post_softmax_weight: tensor<4x4xf32>, %attention_mask: tensor<2x8x8xf32>)
    -> (tensor<2x8x4x16xf32>, tensor<2x4x8x8xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  // tf.einsum("aecd,abcd->acbe", key, query): dot_general batch (a, c), contracting d -> [B, N, T, S]
  %s_e = tensor.empty() : tensor<2x4x8x8xf32>
  %s_z = linalg.fill ins(%cst : f32) outs(%s_e : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %attention_scores = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>,
                                                       affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>,
                                                       affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                                      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%key, %query : tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>) outs(%s_z : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x8x8xf32>
  // tf.multiply(attention_scores, 1.0 / math.sqrt(float(self._key_dim)))
  %cst_0 = arith.constant dense<2.500000e-01> : tensor<f32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> ()>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%attention_scores, %cst_0 : tensor<2x4x8x8xf32>, tensor<f32>) outs(%s_e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8x8xf32>
  // tf.einsum("BNFT,NL->BLFT", attention_scores, self._pre_softmax_weight): dot_general -> [B, F, T, L], transpose
  %pre_mixed_e = tensor.empty() : tensor<2x8x8x4xf32>
  %pre_mixed_z = linalg.fill ins(%cst : f32) outs(%pre_mixed_e : tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
  %pre_mixed_dg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d2)>,
                                                   affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>,
                                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%scaled, %pre_softmax_weight : tensor<2x4x8x8xf32>, tensor<4x4xf32>) outs(%pre_mixed_z : tensor<2x8x8x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8x4xf32>
  %pre_mixed = linalg.transpose ins(%pre_mixed_dg : tensor<2x8x8x4xf32>) outs(%s_e : tensor<2x4x8x8xf32>) permutation = [0, 3, 1, 2]
  // _masked_softmax: mask expanded at axis 1; Softmax layer: adder = (1.0 - mask) * -1e9; inputs += adder
  %m4 = tensor.expand_shape %attention_mask [[0], [1, 2], [3]] output_shape [2, 1, 8, 8] : tensor<2x8x8xf32> into tensor<2x1x8x8xf32>
  %ad_e = tensor.empty() : tensor<2x1x8x8xf32>
  %adder = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%m4 : tensor<2x1x8x8xf32>) outs(%ad_e : tensor<2x1x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.000000e+00 : f32
    %neg = arith.constant -1.000000e+09 : f32
    %0 = arith.subf %one, %in : f32
    %1 = arith.mulf %0, %neg : f32
    linalg.yield %1 : f32
  } -> tensor<2x1x8x8xf32>
  %logits = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>,
                                             affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pre_mixed, %adder : tensor<2x4x8x8xf32>, tensor<2x1x8x8xf32>) outs(%s_e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8x8xf32>
  // tf.nn.softmax(inputs, axis=-1)  (mhlo: reduce max, subtract, exp, reduce add, divide)
  %ninf = arith.constant 0xFF800000 : f32
  %r_e = tensor.empty() : tensor<2x4x8xf32>
  %r_ninf = linalg.fill ins(%ninf : f32) outs(%r_e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%logits : tensor<2x4x8x8xf32>) outs(%r_ninf : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8xf32>
  %shifted = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%logits, %mx : tensor<2x4x8x8xf32>, tensor<2x4x8xf32>) outs(%s_e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.subf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8x8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%shifted : tensor<2x4x8x8xf32>) outs(%s_e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8x8xf32>
  %r_zero = linalg.fill ins(%cst : f32) outs(%r_e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                         affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x4x8x8xf32>) outs(%r_zero : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8xf32>
  %probs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x4x8x8xf32>, tensor<2x4x8xf32>) outs(%s_e : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.divf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8x8xf32>
  // tf.einsum("BNFT,NL->BLFT", attention_scores, self._post_softmax_weight)  (dropout: training=False)
  %post_mixed_e = tensor.empty() : tensor<2x8x8x4xf32>
  %post_mixed_z = linalg.fill ins(%cst : f32) outs(%post_mixed_e : tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
  %post_mixed_dg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d2)>,
                                                    affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>,
                                                    affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                                   iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%probs, %post_softmax_weight : tensor<2x4x8x8xf32>, tensor<4x4xf32>) outs(%post_mixed_z : tensor<2x8x8x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8x4xf32>
  %post_mixed = linalg.transpose ins(%post_mixed_dg : tensor<2x8x8x4xf32>) outs(%s_e : tensor<2x4x8x8xf32>) permutation = [0, 3, 1, 2]
  // attention_output = tf.einsum("acbe,aecd->abcd", attention_scores, value_tensor): dot_general -> [B, N, T, H], transpose
  %o_e = tensor.empty() : tensor<2x4x8x16xf32>
  %o_z = linalg.fill ins(%cst : f32) outs(%o_e : tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  %o_dg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                           affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>,
                                           affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%post_mixed, %value : tensor<2x4x8x8xf32>, tensor<2x8x4x16xf32>) outs(%o_z : tensor<2x4x8x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x8x16xf32>
  %ot_e = tensor.empty() : tensor<2x8x4x16xf32>
  %attention_output = linalg.transpose ins(%o_dg : tensor<2x4x8x16xf32>) outs(%ot_e : tensor<2x8x4x16xf32>) permutation = [0, 2, 1, 3]
  return %attention_output, %post_mixed : tensor<2x8x4x16xf32>, tensor<2x4x8x8xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %q_s = arith.constant 0.45 : f32
  %q_0 = call @input4(%q_s, %c2, %c8, %c4, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q_1 = tensor.cast %q_0 : tensor<?x?x?x?xf32> to tensor<2x8x4x16xf32>
  %k_s = arith.constant 1.55 : f32
  %k_0 = call @input4(%k_s, %c2, %c8, %c4, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k_1 = tensor.cast %k_0 : tensor<?x?x?x?xf32> to tensor<2x8x4x16xf32>
  %v_s = arith.constant 2.65 : f32
  %v_0 = call @input4(%v_s, %c2, %c8, %c4, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v_1 = tensor.cast %v_0 : tensor<?x?x?x?xf32> to tensor<2x8x4x16xf32>
  // learned head-mixing matrices: near the identity plus a 0.1-scaled (pre) / 0.05-scaled (post) pattern
  %pre_raw_s = arith.constant 0.3 : f32
  %pre_raw_0 = call @input2(%pre_raw_s, %c4, %c4) : (f32, index, index) -> tensor<?x?xf32>
  %pre_raw_1 = tensor.cast %pre_raw_0 : tensor<?x?xf32> to tensor<4x4xf32>
  %pre_e = tensor.empty() : tensor<4x4xf32>
  %pre = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%pre_raw_1 : tensor<4x4xf32>) outs(%pre_e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = linalg.index 0 : index
    %1 = linalg.index 1 : index
    %2 = arith.cmpi eq, %0, %1 : index
    %d = arith.constant 1.000000e+00 : f32
    %z = arith.constant 0.000000e+00 : f32
    %3 = arith.select %2, %d, %z : f32
    %k = arith.constant 1.000000e-01 : f32
    %4 = arith.mulf %in, %k : f32
    %5 = arith.addf %3, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<4x4xf32>
  %post_raw_s = arith.constant 1.3 : f32
  %post_raw_0 = call @input2(%post_raw_s, %c4, %c4) : (f32, index, index) -> tensor<?x?xf32>
  %post_raw_1 = tensor.cast %post_raw_0 : tensor<?x?xf32> to tensor<4x4xf32>
  %post_e = tensor.empty() : tensor<4x4xf32>
  %post = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                           affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%post_raw_1 : tensor<4x4xf32>) outs(%post_e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = linalg.index 0 : index
    %1 = linalg.index 1 : index
    %2 = arith.cmpi eq, %0, %1 : index
    %d = arith.constant 8.000000e-01 : f32
    %z = arith.constant 0.000000e+00 : f32
    %3 = arith.select %2, %d, %z : f32
    %k = arith.constant 5.000000e-02 : f32
    %4 = arith.mulf %in, %k : f32
    %5 = arith.addf %3, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<4x4xf32>
  // attention_mask [B, T, S]: 1 = attend; batch 1 pads its last 2 keys
  %mk_e = tensor.empty() : tensor<2x8x8xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%mk_e : tensor<2x8x8xf32>) {
  ^bb0(%out: f32):
    %0 = linalg.index 0 : index
    %1 = linalg.index 2 : index
    %c6_r = arith.constant 6 : index
    %2 = arith.cmpi ult, %1, %c6_r : index
    %c0_r = arith.constant 0 : index
    %3 = arith.cmpi eq, %0, %c0_r : index
    %4 = arith.ori %2, %3 : i1
    %5 = arith.uitofp %4 : i1 to f32
    linalg.yield %5 : f32
  } -> tensor<2x8x8xf32>
  %o:2 = call @talking_heads_compute_attention(%q_1, %k_1, %v_1, %pre, %post, %mask) : (tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x8x8xf32>) -> (tensor<2x8x4x16xf32>, tensor<2x4x8x8xf32>)
  %out_u = tensor.cast %o#0 : tensor<2x8x4x16xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  %w_u = tensor.cast %o#1 : tensor<2x4x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%w_u) : (tensor<*xf32>) -> ()
  return
}
