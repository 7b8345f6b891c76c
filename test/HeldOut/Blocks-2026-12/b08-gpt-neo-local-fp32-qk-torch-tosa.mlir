// Held-out block b08: GPT-Neo local (sliding-window) self-attention layer in a
// float16 model (huggingface/transformers
// src/transformers/models/gpt_neo/modeling_gpt_neo.py, GPTNeoSelfAttention:
// the `bias` buffer built as tril(ones) xor tril(ones, -window_size) for
// attention_type == "local", and _split_heads/_attn/_merge_heads), exported with
// torch.export (the bool `bias` buffer lifted to an argument) and lowered by
// torch-mlir's TOSA backend.
//
// What torch-mlir turns into TOSA here:
//  - _split_heads: reshape [B, N, H, D] + permute(0, 2, 1, 3);
//  - query.to(torch.float32), key.to(torch.float32): tosa.cast f16 -> f32; value stays f16;
//  - torch.matmul(query, key.transpose(-1, -2)) in f32; GPT-Neo applies no 1/sqrt(d) scale;
//  - causal_mask = self.bias[:, :, k_len - q_len : k_len, :k_len]: tosa.slice on the i1 buffer;
//  - torch.where(causal_mask, attn_weights, torch.tensor(torch.finfo(float32).min)):
//    tosa.select with the constant -3.4028235e38;
//  - attn_weights + attention_mask: the model's 4-D additive mask is float16 (0 or
//    finfo(float16).min = -65504, causal and padding combined); type promotion casts it
//    to f32 before tosa.add;
//  - softmax(dim=-1) in f32 (reduce_max, sub, exp, reduce_sum, reciprocal * mul), then
//    .to(value.dtype) as tosa.cast f32 -> f16;
//  - torch.matmul(attn_weights, value) in f16 (f32 accumulator, cast to f16); _merge_heads.
//
// Math (B=2, N=8, H=2, D=16, window_size=4, bias buffer 16x16):
//   S = f32(Q) f32(K)^T (no scale);  S = local(q,k) ? S : -FLT_MAX,
//   local(q,k) = (k <= q) && (k > q - 4);  S += f32(attention_mask[b, 0, q, k])
//   O = f16(f16(softmax(S)) V), returned merged as [B, N, 32] f16.
//   Sequence 1 of the batch pads its first two positions (left padding).

func.func @gpt_neo_local_attention(%query: tensor<2x8x32xf16>, %key: tensor<2x8x32xf16>, %value: tensor<2x8x32xf16>,
                                   %bias: tensor<1x1x16x16xi1>, %attention_mask: tensor<2x1x8x8xf16>) -> tensor<2x8x32xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp32 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp16 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %mask_value = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>

  // query = self._split_heads(query, self.num_heads, self.head_dim); key, value likewise
  %s4 = tosa.const_shape {values = dense<[2, 8, 2, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q4 = tosa.reshape %query, %s4 : (tensor<2x8x32xf16>, !tosa.shape<4>) -> tensor<2x8x2x16xf16>
  %q = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %k4 = tosa.reshape %key, %s4 : (tensor<2x8x32xf16>, !tosa.shape<4>) -> tensor<2x8x2x16xf16>
  %k = tosa.transpose %k4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %v4 = tosa.reshape %value, %s4 : (tensor<2x8x32xf16>, !tosa.shape<4>) -> tensor<2x8x2x16xf16>
  %v = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>

  // query = query.to(torch.float32); key = key.to(torch.float32)
  %q32 = tosa.cast %q : (tensor<2x2x8x16xf16>) -> tensor<2x2x8x16xf32>
  %k32 = tosa.cast %k : (tensor<2x2x8x16xf16>) -> tensor<2x2x8x16xf32>

  // attn_weights = torch.matmul(query, key.transpose(-1, -2))
  %kT = tosa.transpose %k32 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x2x8x16xf32>) -> tensor<2x2x16x8xf32>
  %sq3 = tosa.const_shape {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sk3 = tosa.const_shape {values = dense<[4, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %q32, %sq3 : (tensor<2x2x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %k3 = tosa.reshape %kT, %sk3 : (tensor<2x2x16x8xf32>, !tosa.shape<3>) -> tensor<4x16x8xf32>
  %w3 = tosa.matmul %q3, %k3, %zp32, %zp32 : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %sw4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %w = tosa.reshape %w3, %sw4 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>

  // causal_mask = self.bias[:, :, key_length - query_length : key_length, :key_length]
  %st = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %sz2 = tosa.const_shape {values = dense<[1, 1, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %cm0 = tosa.slice %bias, %st, %sz2 : (tensor<1x1x16x16xi1>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x8x16xi1>
  %sz3 = tosa.const_shape {values = dense<[1, 1, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %causal_mask = tosa.slice %cm0, %st, %sz3 : (tensor<1x1x8x16xi1>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x8x8xi1>
  // attn_weights = torch.where(causal_mask, attn_weights, mask_value)
  %wsel = tosa.select %causal_mask, %w, %mask_value : (tensor<1x1x8x8xi1>, tensor<2x2x8x8xf32>, tensor<1x1x1x1xf32>) -> tensor<2x2x8x8xf32>

  // attn_weights = attn_weights + attention_mask[:, :, :, : key.shape[-2]]
  %am32 = tosa.cast %attention_mask : (tensor<2x1x8x8xf16>) -> tensor<2x1x8x8xf32>
  %wm = tosa.add %wsel, %am32 : (tensor<2x2x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x2x8x8xf32>

  // attn_weights = nn.functional.softmax(attn_weights, dim=-1).to(value.dtype)
  %mx = tosa.reduce_max %wm {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %sub = tosa.sub %wm, %mx : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
  %ex = tosa.exp %sub : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %sum = tosa.reduce_sum %ex {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %rcp = tosa.reciprocal %sum : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p32 = tosa.mul %ex, %rcp, %shift : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %p = tosa.cast %p32 : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf16>

  // attn_output = torch.matmul(attn_weights, value)
  %sp3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %sp3 : (tensor<2x2x8x8xf16>, !tosa.shape<3>) -> tensor<4x8x8xf16>
  %v3 = tosa.reshape %v, %sq3 : (tensor<2x2x8x16xf16>, !tosa.shape<3>) -> tensor<4x8x16xf16>
  %o3 = tosa.matmul %p3, %v3, %zp16, %zp16 : (tensor<4x8x8xf16>, tensor<4x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x16xf32>
  %so4 = tosa.const_shape {values = dense<[2, 2, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.reshape %o3, %so4 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<2x2x8x16xf32>
  %o16 = tosa.cast %o4 : (tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf16>

  // attn_output = self._merge_heads(attn_output, self.num_heads, self.head_dim)
  %ot = tosa.transpose %o16 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x2x8x16xf16>) -> tensor<2x8x2x16xf16>
  %so3 = tosa.const_shape {values = dense<[2, 8, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out = tosa.reshape %ot, %so3 : (tensor<2x8x2x16xf16>, !tosa.shape<3>) -> tensor<2x8x32xf16>
  return %out : tensor<2x8x32xf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %sq = arith.constant 0.55 : f32
  %sk = arith.constant 1.45 : f32
  %sv = arith.constant 2.35 : f32
  %e = tensor.empty() : tensor<2x8x32xf16>
  %q0 = call @input3(%sq, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q1 = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q1 : tensor<2x8x32xf32>) outs(%e : tensor<2x8x32xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x32xf16>
  %k0 = call @input3(%sk, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k1 = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<2x8x32xf32>) outs(%e : tensor<2x8x32xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x32xf16>
  %v0 = call @input3(%sv, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v1 = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v1 : tensor<2x8x32xf32>) outs(%e : tensor<2x8x32xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x32xf16>
  // GPTNeoSelfAttention.bias for max_positions=16, window_size=4:
  // tril(ones) xor tril(ones, -4), i.e. q - 4 < k <= q.
  %eb = tensor.empty() : tensor<1x1x16x16xi1>
  %bias = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%eb : tensor<1x1x16x16xi1>) {
  ^bb0(%o: i1):
    %r = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c4 = arith.constant 4 : index
    %le = arith.cmpi ule, %c, %r : index
    %c4p = arith.addi %c, %c4 : index
    %gt = arith.cmpi ugt, %c4p, %r : index
    %x = arith.andi %le, %gt : i1
    linalg.yield %x : i1
  } -> tensor<1x1x16x16xi1>
  // The model's 4-D float16 attention mask (_prepare_4d_causal_attention_mask):
  // 0 where allowed, finfo(float16).min where causal-masked or padding (batch 1 is
  // left-padded by two tokens).
  %ninf16 = arith.constant -6.550400e+04 : f16
  %zero16 = arith.constant 0.0 : f16
  %em = tensor.empty() : tensor<2x1x8x8xf16>
  %am = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%em : tensor<2x1x8x8xf16>) {
  ^bb0(%o: f16):
    %bi = linalg.index 0 : index
    %r = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c2i = arith.constant 2 : index
    %causal = arith.cmpi ule, %c, %r : index
    %padlim = arith.muli %bi, %c2i : index
    %notpad = arith.cmpi uge, %c, %padlim : index
    %ok = arith.andi %causal, %notpad : i1
    %x = arith.select %ok, %zero16, %ninf16 : f16
    linalg.yield %x : f16
  } -> tensor<2x1x8x8xf16>
  %o = call @gpt_neo_local_attention(%q, %k, %v, %bias, %am)
      : (tensor<2x8x32xf16>, tensor<2x8x32xf16>, tensor<2x8x32xf16>, tensor<1x1x16x16xi1>, tensor<2x1x8x8xf16>) -> tensor<2x8x32xf16>
  %eo = tensor.empty() : tensor<2x8x32xf32>
  %of = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x8x32xf16>) outs(%eo : tensor<2x8x32xf32>) {
  ^bb0(%in: f16, %x: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  } -> tensor<2x8x32xf32>
  %u = tensor.cast %of : tensor<2x8x32xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
