// Held-out block c13: Flax BART decoder self-attention (FlaxBartAttention,
// causal=True) with the padding mask combined into the causal mask and turned
// into an additive bias by lax.select, then flax.linen's
// dot_product_attention_weights (query divided by sqrt(depth) before the
// einsum, bias added, jax.nn.softmax). Exported with jax.jit(...).lower() as
// StableHLO and lowered by stablehlo-legalize-to-linalg in its
// "primitive ops" mode (linalg.map / linalg.reduce / linalg.broadcast /
// linalg.transpose; dot_general as a linalg.generic contraction).
//
// Frontend: JAX 0.4.3x (jax.nn.softmax's custom_jvp inlined in the export;
//   jnp.max with initial=-inf is a reduce then a max with -inf) -> StableHLO
//   -> stablehlo-legalize-to-linalg (enable-primitive-ops).
// Model: facebook/bart-base decoder layer, HF FlaxBartDecoderLayer.self_attn,
//   deterministic=True (no dropout rng). Shrunk: B=2, T=8, d_model=32,
//   2 heads, head_dim=16; make_causal_mask over max_position_embeddings=8.
// Sources read:
//   huggingface/transformers src/transformers/models/bart/modeling_flax_bart.py
//     FlaxBartAttention.setup (self.causal_mask = make_causal_mask(jnp.ones((1, max_pos)), dtype="bool")),
//     FlaxBartAttention.__call__:
//       causal_mask = self.causal_mask[:, :, :query_length, :key_length]
//       attention_mask = jnp.broadcast_to(jnp.expand_dims(attention_mask, axis=(-3, -2)), causal_mask.shape)
//       attention_mask = combine_masks(attention_mask, causal_mask)
//       attention_bias = lax.select(attention_mask > 0,
//           jnp.full(attention_mask.shape, 0.0).astype(self.dtype),
//           jnp.full(attention_mask.shape, jnp.finfo(self.dtype).min).astype(self.dtype))
//       attn_weights = dot_product_attention_weights(query_states, key_states, bias=attention_bias,
//           dropout_rng=None, dropout_rate=self.dropout, broadcast_dropout=True,
//           deterministic=deterministic, dtype=self.dtype, precision=None)
//       attn_output = jnp.einsum("...hqk,...khd->...qhd", attn_weights, value_states)
//       attn_output = self._merge_heads(attn_output)
//   google/flax flax/linen/attention.py
//     dot_product_attention_weights: query = query / jnp.sqrt(depth).astype(dtype);
//       attn_weights = jnp.einsum('...qhd,...khd->...hqk', query, key, precision=precision);
//       attn_weights = attn_weights + bias; attn_weights = jax.nn.softmax(attn_weights).astype(dtype)
//     make_causal_mask / make_attention_mask (iota, greater_equal), combine_masks
//     (logical_and, astype(float32)).
//   jax-ml/jax jax/_src/nn/functions.py (softmax: max with initial -inf, exp(x - max), / sum).
//
// What each op is:
//   index generic >=, map andi, map uitofp       make_causal_mask, combine_masks(...).astype(f32)
//   map cmpf ogt + select(0, finfo.min)          attention_mask > 0 -> lax.select bias
//   map divf by 4                                query / jnp.sqrt(16)
//   generic contraction over d (b, h batch)      einsum('...qhd,...khd->...hqk')
//   map addf (bias broadcast over heads)         attn_weights + bias
//   reduce max, map max(-inf), broadcast, sub,   jax.nn.softmax
//   exp, reduce add, broadcast, div
//   generic contraction over k + transpose       einsum('...hqk,...khd->...qhd'), then _merge_heads
//
// Math: S = (q / 4) k^T + bias, bias = 0 where k <= q and token k is not padding,
//   finfo(f32).min elsewhere;  O = softmax_k(S) v.  Batch 1 pads its last 2 tokens.
//   Returns O merged as [2, 8, 32].

func.func @flax_bart_decoder_self_attention(%query_states: tensor<2x8x2x16xf32>, %key_states: tensor<2x8x2x16xf32>,
    %value_states: tensor<2x8x2x16xf32>, %attention_mask: tensor<2x8xi32>) -> tensor<2x8x32xf32> {
  // make_causal_mask(jnp.ones((1, 8), 'bool')): iota >= iota, [1, 1, 8, 8]; sliced [:, :, :8, :8] (whole)
  %cm_e = tensor.empty() : tensor<1x1x8x8xi1>
  %causal_mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                                 iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%cm_e : tensor<1x1x8x8xi1>) {
  ^bb0(%out: i1):
    %0 = linalg.index 2 : index
    %1 = linalg.index 3 : index
    %2 = arith.index_cast %0 : index to i32
    %3 = arith.index_cast %1 : index to i32
    %4 = arith.cmpi sge, %2, %3 : i32
    linalg.yield %4 : i1
  } -> tensor<1x1x8x8xi1>
  // jnp.broadcast_to(causal_mask, (batch_size, 1, 8, 8)); attention_mask expanded to the same shape
  %bm_e = tensor.empty() : tensor<2x1x8x8xi1>
  %cm2 = tensor.collapse_shape %causal_mask [[0, 1, 2], [3]] : tensor<1x1x8x8xi1> into tensor<8x8xi1>
  %causal_b = linalg.broadcast ins(%cm2 : tensor<8x8xi1>) outs(%bm_e : tensor<2x1x8x8xi1>) dimensions = [0, 1]
  %am_e = tensor.empty() : tensor<2x1x8x8xi32>
  %am_b = linalg.broadcast ins(%attention_mask : tensor<2x8xi32>) outs(%am_e : tensor<2x1x8x8xi32>) dimensions = [1, 2]
  // combine_masks: logical_and of (attention_mask != 0) and causal_mask, .astype(float32)
  %am_bool = linalg.map ins(%am_b : tensor<2x1x8x8xi32>) outs(%bm_e : tensor<2x1x8x8xi1>)
      (%a0: i32, %init: i1) {
        %c0_i32 = arith.constant 0 : i32
        %0 = arith.cmpi ne, %a0, %c0_i32 : i32
        linalg.yield %0 : i1
      }
  %combined = linalg.map ins(%am_bool, %causal_b : tensor<2x1x8x8xi1>, tensor<2x1x8x8xi1>) outs(%bm_e : tensor<2x1x8x8xi1>)
      (%a0: i1, %a1: i1, %init: i1) {
        %0 = arith.andi %a0, %a1 : i1
        linalg.yield %0 : i1
      }
  %mf_e = tensor.empty() : tensor<2x1x8x8xf32>
  %mask_f = linalg.map ins(%combined : tensor<2x1x8x8xi1>) outs(%mf_e : tensor<2x1x8x8xf32>)
      (%a0: i1, %init: f32) {
        %0 = arith.uitofp %a0 : i1 to f32
        linalg.yield %0 : f32
      }
  // attention_bias = lax.select(attention_mask > 0, full(0.0), full(finfo(f32).min))
  %attention_bias = linalg.map ins(%mask_f : tensor<2x1x8x8xf32>) outs(%mf_e : tensor<2x1x8x8xf32>)
      (%a0: f32, %init: f32) {
        %zero = arith.constant 0.000000e+00 : f32
        %min = arith.constant -3.40282347E+38 : f32
        %0 = arith.cmpf ogt, %a0, %zero : f32
        %1 = arith.select %0, %zero, %min : f32
        linalg.yield %1 : f32
      }
  // dot_product_attention_weights: query = query / jnp.sqrt(depth)
  %q_e = tensor.empty() : tensor<2x8x2x16xf32>
  %query = linalg.map ins(%query_states : tensor<2x8x2x16xf32>) outs(%q_e : tensor<2x8x2x16xf32>)
      (%a0: f32, %init: f32) {
        %c4 = arith.constant 4.000000e+00 : f32
        %0 = arith.divf %a0, %c4 : f32
        linalg.yield %0 : f32
      }
  // jnp.einsum('...qhd,...khd->...hqk', query, key): dot_general batch (b, h), contracting d
  %cst = arith.constant 0.000000e+00 : f32
  %s_e = tensor.empty() : tensor<2x2x8x8xf32>
  %s_z = linalg.fill ins(%cst : f32) outs(%s_e : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %attn_weights = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>,
                                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>,
                                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%query, %key_states : tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>) outs(%s_z : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x8xf32>
  // attn_weights = attn_weights + bias  (bias broadcast over the head axis)
  %bias3 = tensor.collapse_shape %attention_bias [[0, 1], [2], [3]] : tensor<2x1x8x8xf32> into tensor<2x8x8xf32>
  %bias_b = linalg.broadcast ins(%bias3 : tensor<2x8x8xf32>) outs(%s_e : tensor<2x2x8x8xf32>) dimensions = [1]
  %biased = linalg.map ins(%attn_weights, %bias_b : tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) outs(%s_e : tensor<2x2x8x8xf32>)
      (%a0: f32, %a1: f32, %init: f32) {
        %0 = arith.addf %a0, %a1 : f32
        linalg.yield %0 : f32
      }
  // jax.nn.softmax(attn_weights): x_max = jnp.max(x, -1, initial=-inf, keepdims=True)
  %ninf = arith.constant 0xFF800000 : f32
  %r_e = tensor.empty() : tensor<2x2x8xf32>
  %r_ninf = linalg.fill ins(%ninf : f32) outs(%r_e : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %red_max = linalg.reduce ins(%biased : tensor<2x2x8x8xf32>) outs(%r_ninf : tensor<2x2x8xf32>) dimensions = [3]
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
  %x_max = linalg.map ins(%red_max, %r_ninf : tensor<2x2x8xf32>, tensor<2x2x8xf32>) outs(%r_e : tensor<2x2x8xf32>)
      (%a0: f32, %a1: f32, %init: f32) {
        %0 = arith.maximumf %a1, %a0 : f32
        linalg.yield %0 : f32
      }
  // unnormalized = jnp.exp(x - lax.stop_gradient(x_max))
  %x_max_b = linalg.broadcast ins(%x_max : tensor<2x2x8xf32>) outs(%s_e : tensor<2x2x8x8xf32>) dimensions = [3]
  %shifted = linalg.map ins(%biased, %x_max_b : tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) outs(%s_e : tensor<2x2x8x8xf32>)
      (%a0: f32, %a1: f32, %init: f32) {
        %0 = arith.subf %a0, %a1 : f32
        linalg.yield %0 : f32
      }
  %unnormalized = linalg.map ins(%shifted : tensor<2x2x8x8xf32>) outs(%s_e : tensor<2x2x8x8xf32>)
      (%a0: f32, %init: f32) {
        %0 = math.exp %a0 : f32
        linalg.yield %0 : f32
      }
  // result = unnormalized / jnp.sum(unnormalized, -1, keepdims=True)
  %r_zero = linalg.fill ins(%cst : f32) outs(%r_e : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %denom = linalg.reduce ins(%unnormalized : tensor<2x2x8x8xf32>) outs(%r_zero : tensor<2x2x8xf32>) dimensions = [3]
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
  %denom_b = linalg.broadcast ins(%denom : tensor<2x2x8xf32>) outs(%s_e : tensor<2x2x8x8xf32>) dimensions = [3]
  %probs = linalg.map ins(%unnormalized, %denom_b : tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) outs(%s_e : tensor<2x2x8x8xf32>)
      (%a0: f32, %a1: f32, %init: f32) {
        %0 = arith.divf %a0, %a1 : f32
        linalg.yield %0 : f32
      }
  // jnp.einsum('...hqk,...khd->...qhd', attn_weights, value_states): dot_general -> [b, h, q, d], then transpose
  %o_e = tensor.empty() : tensor<2x2x8x16xf32>
  %o_z = linalg.fill ins(%cst : f32) outs(%o_e : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o_bhqd = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                             affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>,
                                             affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%probs, %value_states : tensor<2x2x8x8xf32>, tensor<2x8x2x16xf32>) outs(%o_z : tensor<2x2x8x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x16xf32>
  %ot_e = tensor.empty() : tensor<2x8x2x16xf32>
  %attn_output = linalg.transpose ins(%o_bhqd : tensor<2x2x8x16xf32>) outs(%ot_e : tensor<2x8x2x16xf32>) permutation = [0, 2, 1, 3]
  // _merge_heads: reshape (B, T, 32)
  %merged = tensor.collapse_shape %attn_output [[0], [1], [2, 3]] : tensor<2x8x2x16xf32> into tensor<2x8x32xf32>
  return %merged : tensor<2x8x32xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %q_s = arith.constant 0.95 : f32
  %q_0 = call @input4(%q_s, %c2, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q_1 = tensor.cast %q_0 : tensor<?x?x?x?xf32> to tensor<2x8x2x16xf32>
  %k_s = arith.constant 1.85 : f32
  %k_0 = call @input4(%k_s, %c2, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k_1 = tensor.cast %k_0 : tensor<?x?x?x?xf32> to tensor<2x8x2x16xf32>
  %v_s = arith.constant 0.05 : f32
  %v_0 = call @input4(%v_s, %c2, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v_1 = tensor.cast %v_0 : tensor<?x?x?x?xf32> to tensor<2x8x2x16xf32>
  // decoder_attention_mask: batch 1 pads its last 2 tokens
  %mask = arith.constant dense<[[1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 0, 0]]> : tensor<2x8xi32>
  %o = call @flax_bart_decoder_self_attention(%q_1, %k_1, %v_1, %mask) : (tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>, tensor<2x8xi32>) -> tensor<2x8x32xf32>
  %out_u = tensor.cast %o : tensor<2x8x32xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  return
}
