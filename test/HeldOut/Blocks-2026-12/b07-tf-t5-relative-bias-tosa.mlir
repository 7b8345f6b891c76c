// Held-out block b07: Hugging Face TF T5 encoder self-attention, first layer
// (huggingface/transformers src/transformers/models/t5/modeling_tf_t5.py,
// TFT5Attention.call with has_relative_attention_bias, compute_bias and
// _relative_position_bucket, plus the extended mask of TFT5MainLayer.call,
// (1.0 - mask) * -1e9), traced with static shapes and legalized to TOSA by
// TensorFlow's tf-to-tosa legalization (legalize_tf.cc / legalize_common.cc).
//
// What the TF graph becomes:
//  - shape(): tf.reshape + tf.transpose(0, 2, 1, 3) for q, k, v;
//  - tf.einsum("bnqd,bnkd->bnqk", q, k): a BatchMatMul with k transposed, as rank-3
//    tosa.matmul between reshapes. T5 does not scale the scores (no 1/sqrt(d));
//  - compute_bias(qlen, klen): the relative-position buckets come from tf.range and are
//    constant-folded to an i32 table; tf.gather of the learned relative_attention_bias
//    embedding [num_buckets, H] (a variable, lifted to an argument) becomes
//    reshape + tosa.gather + reshape, then tf.transpose / expand_dims to [1, H, N, N];
//  - position_bias + (1.0 - mask[:, None, None, :]) * -1e9, then scores += position_bias;
//  - tf.nn.softmax (reduce_max nan_mode PROPAGATE, sub, exp, reduce_sum, reciprocal, mul);
//  - tf.matmul(weights, v) and unshape (transpose + reshape).
//
// Math (B=2, N=8, H=2 heads, d_kv=8, 32 buckets, bidirectional, max_distance 128):
//   bucket(q, k) = 16 * (k > q) + |k - q|   (all distances are below max_exact = 8)
//   S[b,h,q,k] = Q K^T + table[bucket(q,k), h] + (1 - m[b,k]) * -1e9
//   O = softmax(S) V, returned as [B, N, H*d_kv]; sequence 1 pads its last three keys.

func.func @tf_t5_self_attention(%q_proj: tensor<2x8x16xf32>, %k_proj: tensor<2x8x16xf32>,
                                %v_proj: tensor<2x8x16xf32>, %relative_attention_bias: tensor<32x2xf32>,
                                %attention_mask: tensor<2x8xf32>) -> tensor<2x8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %one = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %neg1e9 = "tosa.const"() <{values = dense<-1.000000e+09> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %rp_bucket = "tosa.const"() <{values = dense<[[
      0, 17, 18, 19, 20, 21, 22, 23, 1, 0, 17, 18, 19, 20, 21, 22,
      2, 1, 0, 17, 18, 19, 20, 21, 3, 2, 1, 0, 17, 18, 19, 20,
      4, 3, 2, 1, 0, 17, 18, 19, 5, 4, 3, 2, 1, 0, 17, 18,
      6, 5, 4, 3, 2, 1, 0, 17, 7, 6, 5, 4, 3, 2, 1, 0]]> : tensor<1x64xi32>}> : () -> tensor<1x64xi32>

  // TFT5MainLayer: extended_attention_mask = (1.0 - mask[:, None, None, :]) * -1e9
  %sm4 = tosa.const_shape {values = dense<[2, 1, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %am4 = tosa.reshape %attention_mask, %sm4 : (tensor<2x8xf32>, !tosa.shape<4>) -> tensor<2x1x1x8xf32>
  %inv = tosa.sub %one, %am4 : (tensor<1x1x1x1xf32>, tensor<2x1x1x8xf32>) -> tensor<2x1x1x8xf32>
  %ext = tosa.mul %inv, %neg1e9, %shift : (tensor<2x1x1x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1x8xf32>

  // q = shape(self.q(hidden_states)), k, v likewise
  %s4 = tosa.const_shape {values = dense<[2, 8, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q4 = tosa.reshape %q_proj, %s4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<2x8x2x8xf32>
  %q = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
  %k4 = tosa.reshape %k_proj, %s4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<2x8x2x8xf32>
  %k = tosa.transpose %k4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
  %v4 = tosa.reshape %v_proj, %s4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<2x8x2x8xf32>
  %v = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>

  // scores = tf.einsum("bnqd,bnkd->bnqk", q, k)
  %kT = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %q, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %k3 = tosa.reshape %kT, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %sc3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %s4s = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %scores = tosa.reshape %sc3, %s4s : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>

  // position_bias = compute_bias(qlen, klen): tf.gather(relative_attention_bias, rp_bucket)
  %sv3 = tosa.const_shape {values = dense<[1, 32, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %tab3 = tosa.reshape %relative_attention_bias, %sv3 : (tensor<32x2xf32>, !tosa.shape<3>) -> tensor<1x32x2xf32>
  %g = tosa.gather %tab3, %rp_bucket : (tensor<1x32x2xf32>, tensor<1x64xi32>) -> tensor<1x64x2xf32>
  %sg3 = tosa.const_shape {values = dense<[8, 8, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %values = tosa.reshape %g, %sg3 : (tensor<1x64x2xf32>, !tosa.shape<3>) -> tensor<8x8x2xf32>
  // tf.expand_dims(tf.transpose(values, [2, 0, 1]), axis=0)
  %vt = tosa.transpose %values {perms = array<i32: 2, 0, 1>} : (tensor<8x8x2xf32>) -> tensor<2x8x8xf32>
  %sb4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pb = tosa.reshape %vt, %sb4 : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  // position_bias = position_bias + mask
  %pbm = tosa.add %pb, %ext : (tensor<1x2x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x2x8x8xf32>

  // scores += position_bias; weights = tf.nn.softmax(scores, axis=-1)
  %sb = tosa.add %scores, %pbm : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %mx = tosa.reduce_max %sb {axis = 3 : i32, nan_mode = PROPAGATE} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %sub = tosa.sub %sb, %mx : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
  %ex = tosa.exp %sub : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %sum = tosa.reduce_sum %ex {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %rcp = tosa.reciprocal %sum : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %weights = tosa.mul %ex, %rcp, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>

  // context = tf.matmul(weights, v); unshape(context)
  %w3 = tosa.reshape %weights, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %v3 = tosa.reshape %v, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %c3 = tosa.matmul %w3, %v3, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %c4 = tosa.reshape %c3, %s4s : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
  %ct = tosa.transpose %c4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x2x8x8xf32>) -> tensor<2x8x2x8xf32>
  %so = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out = tosa.reshape %ct, %so : (tensor<2x8x2x8xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
  return %out : tensor<2x8x16xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %sq = arith.constant 0.45 : f32
  %sk = arith.constant 1.25 : f32
  %sv = arith.constant 2.05 : f32
  %st = arith.constant 0.8 : f32
  %q0 = call @input3(%sq, %c2, %c8, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x8x16xf32>
  %k0 = call @input3(%sk, %c2, %c8, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x8x16xf32>
  %v0 = call @input3(%sv, %c2, %c8, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x8x16xf32>
  // relative_attention_bias embedding weights [num_buckets=32, n_heads=2]
  %t0 = call @input2(%st, %c32, %c2) : (f32, index, index) -> tensor<?x?xf32>
  %table = tensor.cast %t0 : tensor<?x?xf32> to tensor<32x2xf32>
  %m = arith.constant dense<[[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                             [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]]> : tensor<2x8xf32>
  %o = call @tf_t5_self_attention(%q, %k, %v, %table, %m)
      : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<32x2xf32>, tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %u = tensor.cast %o : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
