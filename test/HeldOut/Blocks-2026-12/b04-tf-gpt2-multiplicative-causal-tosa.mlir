// Held-out block b04: Hugging Face TF GPT-2 self-attention
// (huggingface/transformers src/transformers/models/gpt2/modeling_tf_gpt2.py,
// TFAttention.split_heads/_attn/merge_heads, with the padding-mask preparation
// of TFGPT2MainLayer.call), traced as a tf.function with static shapes and
// legalized to TOSA by TensorFlow's tf-to-tosa legalization
// (tensorflow/compiler/mlir/tosa/transforms/legalize_tf.cc + legalize_common.cc).
//
// What the TF graph becomes:
//  - split_heads: tf.reshape + tf.transpose(0, 2, 1, 3) -> tosa.reshape + tosa.transpose;
//  - tf.matmul(q, k, transpose_b=True): BatchMatMulV2 with the adjoint made an explicit
//    transpose, reshaped to rank 3 for tosa.matmul (ConvertTFBatchMatMulV2Op);
//  - w / tf.math.sqrt(dk): dk and its sqrt are graph constants, the RealDiv becomes
//    tosa.reciprocal of that constant times w;
//  - causal_attention_mask(nd, ns) = cast(range(nd)[:, None] >= range(ns) - ns + nd) is a
//    constant 0/1 float tensor b, and `w * b - 1e4 * (1 - b)` a multiply by b and a subtract
//    of the folded constant 1e4 * (1 - b) (the mask multiplies the scores, then shifts
//    the masked ones by -10000);
//  - the padding mask from TFGPT2MainLayer: reshape [B, 1, 1, N],
//    (1.0 - mask) * -10000.0, added to w;
//  - tf.nn.softmax: convertSoftmaxOp's float path, reduce_max (nan_mode PROPAGATE), sub,
//    exp, reduce_sum, reciprocal, mul;
//  - tf.matmul(w, v) and merge_heads (transpose + reshape).
//
// Math (B=2, N=8, n_embd=32, H=2 heads, D=16):
//   S = (Q K^T) * (1/4);  S' = S * b - 10000 * (1 - b) + (1 - m[b_, k]) * -10000
//   O = softmax(S') V, returned merged as [B, N, 32].
//   b = lower triangle (k <= q); m = 1 for real tokens, 0 for padding (batch 1 pads its
//   last two keys).

func.func @tf_gpt2_attn(%query: tensor<2x8x32xf32>, %key: tensor<2x8x32xf32>, %value: tensor<2x8x32xf32>,
                        %attention_mask: tensor<2x8xf32>) -> tensor<2x8x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %one = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %neg1e4 = "tosa.const"() <{values = dense<-1.000000e+04> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %sqrt_dk = "tosa.const"() <{values = dense<4.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %causal_b = "tosa.const"() <{values = dense<[[[
      [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0],
      [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
      [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0],
      [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0],
      [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]]]> : tensor<1x1x8x8xf32>}> : () -> tensor<1x1x8x8xf32>
  %causal_shift = "tosa.const"() <{values = dense<[[[
      [0.0, 1.0e4, 1.0e4, 1.0e4, 1.0e4, 1.0e4, 1.0e4, 1.0e4],
      [0.0, 0.0, 1.0e4, 1.0e4, 1.0e4, 1.0e4, 1.0e4, 1.0e4],
      [0.0, 0.0, 0.0, 1.0e4, 1.0e4, 1.0e4, 1.0e4, 1.0e4],
      [0.0, 0.0, 0.0, 0.0, 1.0e4, 1.0e4, 1.0e4, 1.0e4],
      [0.0, 0.0, 0.0, 0.0, 0.0, 1.0e4, 1.0e4, 1.0e4],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0e4, 1.0e4],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0e4],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]]> : tensor<1x1x8x8xf32>}> : () -> tensor<1x1x8x8xf32>

  // TFGPT2MainLayer: attention_mask = (1.0 - reshape(mask, [B, 1, 1, N])) * -10000.0
  %sm4 = tosa.const_shape {values = dense<[2, 1, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %am4 = tosa.reshape %attention_mask, %sm4 : (tensor<2x8xf32>, !tosa.shape<4>) -> tensor<2x1x1x8xf32>
  %inv = tosa.sub %one, %am4 : (tensor<1x1x1x1xf32>, tensor<2x1x1x8xf32>) -> tensor<2x1x1x8xf32>
  %ext = tosa.mul %inv, %neg1e4, %shift : (tensor<2x1x1x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1x8xf32>

  // split_heads(query / key / value)
  %s4 = tosa.const_shape {values = dense<[2, 8, 2, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q4 = tosa.reshape %query, %s4 : (tensor<2x8x32xf32>, !tosa.shape<4>) -> tensor<2x8x2x16xf32>
  %q = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf32>) -> tensor<2x2x8x16xf32>
  %k4 = tosa.reshape %key, %s4 : (tensor<2x8x32xf32>, !tosa.shape<4>) -> tensor<2x8x2x16xf32>
  %k = tosa.transpose %k4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf32>) -> tensor<2x2x8x16xf32>
  %v4 = tosa.reshape %value, %s4 : (tensor<2x8x32xf32>, !tosa.shape<4>) -> tensor<2x8x2x16xf32>
  %v = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf32>) -> tensor<2x2x8x16xf32>

  // w = tf.matmul(q, k, transpose_b=True)
  %kT = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x2x8x16xf32>) -> tensor<2x2x16x8xf32>
  %sq3 = tosa.const_shape {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sk3 = tosa.const_shape {values = dense<[4, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %q, %sq3 : (tensor<2x2x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %k3 = tosa.reshape %kT, %sk3 : (tensor<2x2x16x8xf32>, !tosa.shape<3>) -> tensor<4x16x8xf32>
  %w3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %sw4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %w = tosa.reshape %w3, %sw4 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>

  // w = w / tf.math.sqrt(dk)
  %rdk = tosa.reciprocal %sqrt_dk : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %ws = tosa.mul %w, %rdk, %shift : (tensor<2x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>

  // w = w * b - 1e4 * (1 - b)
  %wb = tosa.mul %ws, %causal_b, %shift : (tensor<2x2x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %wc = tosa.sub %wb, %causal_shift : (tensor<2x2x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<2x2x8x8xf32>

  // w = w + attention_mask
  %wm = tosa.add %wc, %ext : (tensor<2x2x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x2x8x8xf32>

  // w = tf.nn.softmax(w, axis=-1)
  %mx = tosa.reduce_max %wm {axis = 3 : i32, nan_mode = PROPAGATE} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %sub = tosa.sub %wm, %mx : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
  %ex = tosa.exp %sub : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %sum = tosa.reduce_sum %ex {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %rcp = tosa.reciprocal %sum : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %ex, %rcp, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>

  // a = tf.matmul(w, v)
  %sp3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %sp3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %v3 = tosa.reshape %v, %sq3 : (tensor<2x2x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %a3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  %sa4 = tosa.const_shape {values = dense<[2, 2, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %a = tosa.reshape %a3, %sa4 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<2x2x8x16xf32>

  // merge_heads(a)
  %at = tosa.transpose %a {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x2x8x16xf32>) -> tensor<2x8x2x16xf32>
  %so = tosa.const_shape {values = dense<[2, 8, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out = tosa.reshape %at, %so : (tensor<2x8x2x16xf32>, !tosa.shape<3>) -> tensor<2x8x32xf32>
  return %out : tensor<2x8x32xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %sq = arith.constant 0.4 : f32
  %sk = arith.constant 1.3 : f32
  %sv = arith.constant 2.6 : f32
  %q0 = call @input3(%sq, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %k0 = call @input3(%sk, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %v0 = call @input3(%sv, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  // input attention_mask: sequence 0 full, sequence 1 has two padding tokens at the end.
  %m = arith.constant dense<[[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                             [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]]> : tensor<2x8xf32>
  %o = call @tf_gpt2_attn(%q, %k, %v, %m) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8x32xf32>, tensor<2x8xf32>) -> tensor<2x8x32xf32>
  %u = tensor.cast %o : tensor<2x8x32xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
