// Held-out block b03: Whisper text-decoder self-attention in half precision
// (openai/whisper whisper/model.py, MultiHeadAttention.qkv_attention, the
// non-SDPA path), exported with torch.export and lowered by torch-mlir's TOSA
// backend (TorchToTosa + tosa backend pipeline canonicalization).
//
// Whisper keeps its weights in f32 and casts them to the activation dtype in
// Linear.forward, so with f16 activations q, k, v arrive in f16 while the
// TextDecoder `mask` buffer (torch.empty(n_ctx, n_ctx).fill_(-inf).triu_(1))
// stays f32; torch.export lifts that buffer to a function argument.
// What torch-mlir turns into TOSA here:
//  - q.view(B, T, H, -1).permute(0, 2, 1, 3) * scale and
//    k.view(B, T, H, -1).permute(0, 2, 3, 1) * scale, scale = d ** -0.25 on both Q and K
//    (a mul.Scalar on f16 tensors, scalar materialized as an f16 constant);
//  - qk = q @ k: reshape to rank 3, tosa.matmul f16 x f16 -> f32 accumulator, cast to f16;
//  - qk + mask[:T, :T]: two tosa.slice ops on the buffer, and type promotion f16 + f32 -> f32
//    (tosa.cast of qk to f32 before tosa.add);
//  - F.softmax(qk.float(), dim=-1) decomposed (reduce_max, sub, exp, reduce_sum,
//    reciprocal * mul) in f32, then .to(q.dtype) as tosa.cast to f16;
//  - (w @ v) in f16 through an f32 accumulator, .permute(0, 2, 1, 3).flatten(start_dim=2).
//
// Math (B=2, T=n_ctx=8 tokens, n_state=24, H=3 heads, d=8, mask buffer 12x12):
//   Qh = f16(q_h * 8^-0.25), Kh = f16(k_h * 8^-0.25)
//   S = f32(f16(Qh Kh^T)) + mask[:8, :8]   (mask = -inf strictly above the diagonal: causal)
//   W = f16(softmax(S)), O = f16(W Vh); returns O as [B, T, H*d] in f16.

func.func @qkv_attention(%q: tensor<2x8x24xf16>, %k: tensor<2x8x24xf16>, %v: tensor<2x8x24xf16>,
                         %mask: tensor<12x12xf32>) -> tensor<2x8x24xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %scale = "tosa.const"() <{values = dense<5.947270e-01> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
  %s4 = tosa.const_shape {values = dense<[2, 8, 3, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[6, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4h = tosa.const_shape {values = dense<[2, 3, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>

  // q = q.view(*q.shape[:2], self.n_head, -1).permute(0, 2, 1, 3) * scale
  %q4 = tosa.reshape %q, %s4 : (tensor<2x8x24xf16>, !tosa.shape<4>) -> tensor<2x8x3x8xf16>
  %qp = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x3x8xf16>) -> tensor<2x3x8x8xf16>
  %qs = tosa.mul %qp, %scale, %shift : (tensor<2x3x8x8xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x3x8x8xf16>
  // k = k.view(*k.shape[:2], self.n_head, -1).permute(0, 2, 3, 1) * scale
  %k4 = tosa.reshape %k, %s4 : (tensor<2x8x24xf16>, !tosa.shape<4>) -> tensor<2x8x3x8xf16>
  %kp = tosa.transpose %k4 {perms = array<i32: 0, 2, 3, 1>} : (tensor<2x8x3x8xf16>) -> tensor<2x3x8x8xf16>
  %ks = tosa.mul %kp, %scale, %shift : (tensor<2x3x8x8xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x3x8x8xf16>
  // v = v.view(*v.shape[:2], self.n_head, -1).permute(0, 2, 1, 3)
  %v4 = tosa.reshape %v, %s4 : (tensor<2x8x24xf16>, !tosa.shape<4>) -> tensor<2x8x3x8xf16>
  %vp = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x3x8xf16>) -> tensor<2x3x8x8xf16>

  // qk = q @ k
  %q3 = tosa.reshape %qs, %s3 : (tensor<2x3x8x8xf16>, !tosa.shape<3>) -> tensor<6x8x8xf16>
  %k3 = tosa.reshape %ks, %s3 : (tensor<2x3x8x8xf16>, !tosa.shape<3>) -> tensor<6x8x8xf16>
  %qk3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<6x8x8xf16>, tensor<6x8x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<6x8x8xf32>
  %qk4 = tosa.reshape %qk3, %s4h : (tensor<6x8x8xf32>, !tosa.shape<4>) -> tensor<2x3x8x8xf32>
  %qk = tosa.cast %qk4 : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf16>

  // qk = qk + mask[:n_ctx, :n_ctx]
  %st = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sz0 = tosa.const_shape {values = dense<[8, 12]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m0 = tosa.slice %mask, %st, %sz0 : (tensor<12x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x12xf32>
  %sz1 = tosa.const_shape {values = dense<8> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m1 = tosa.slice %m0, %st, %sz1 : (tensor<8x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x8xf32>
  %s1188 = tosa.const_shape {values = dense<[1, 1, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %m4 = tosa.reshape %m1, %s1188 : (tensor<8x8xf32>, !tosa.shape<4>) -> tensor<1x1x8x8xf32>
  %qkf = tosa.cast %qk : (tensor<2x3x8x8xf16>) -> tensor<2x3x8x8xf32>
  %qkm = tosa.add %qkf, %m4 : (tensor<2x3x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<2x3x8x8xf32>

  // w = F.softmax(qk.float(), dim=-1).to(q.dtype)
  %mx = tosa.reduce_max %qkm {axis = 3 : i32} : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x1xf32>
  %sub = tosa.sub %qkm, %mx : (tensor<2x3x8x8xf32>, tensor<2x3x8x1xf32>) -> tensor<2x3x8x8xf32>
  %ex = tosa.exp %sub : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %sum = tosa.reduce_sum %ex {axis = 3 : i32} : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x1xf32>
  %rcp = tosa.reciprocal %sum : (tensor<2x3x8x1xf32>) -> tensor<2x3x8x1xf32>
  %sm = tosa.mul %ex, %rcp, %shift : (tensor<2x3x8x8xf32>, tensor<2x3x8x1xf32>, tensor<1xi8>) -> tensor<2x3x8x8xf32>
  %w = tosa.cast %sm : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf16>

  // (w @ v).permute(0, 2, 1, 3).flatten(start_dim=2)
  %w3 = tosa.reshape %w, %s3 : (tensor<2x3x8x8xf16>, !tosa.shape<3>) -> tensor<6x8x8xf16>
  %v3 = tosa.reshape %vp, %s3 : (tensor<2x3x8x8xf16>, !tosa.shape<3>) -> tensor<6x8x8xf16>
  %wv3 = tosa.matmul %w3, %v3, %zp, %zp : (tensor<6x8x8xf16>, tensor<6x8x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<6x8x8xf32>
  %wv4 = tosa.reshape %wv3, %s4h : (tensor<6x8x8xf32>, !tosa.shape<4>) -> tensor<2x3x8x8xf32>
  %wv = tosa.cast %wv4 : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf16>
  %wvt = tosa.transpose %wv {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x3x8x8xf16>) -> tensor<2x8x3x8xf16>
  %so = tosa.const_shape {values = dense<[2, 8, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out = tosa.reshape %wvt, %so : (tensor<2x8x3x8xf16>, !tosa.shape<3>) -> tensor<2x8x24xf16>
  return %out : tensor<2x8x24xf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c24 = arith.constant 24 : index
  %sq = arith.constant 0.7 : f32
  %sk = arith.constant 1.9 : f32
  %sv = arith.constant 3.1 : f32
  %e = tensor.empty() : tensor<2x8x24xf16>
  %q0 = call @input3(%sq, %c2, %c8, %c24) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q1 = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x8x24xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q1 : tensor<2x8x24xf32>) outs(%e : tensor<2x8x24xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x24xf16>
  %k0 = call @input3(%sk, %c2, %c8, %c24) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k1 = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x8x24xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<2x8x24xf32>) outs(%e : tensor<2x8x24xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x24xf16>
  %v0 = call @input3(%sv, %c2, %c8, %c24) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v1 = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x8x24xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v1 : tensor<2x8x24xf32>) outs(%e : tensor<2x8x24xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x24xf16>
  // TextDecoder.mask buffer for n_text_ctx = 12: -inf strictly above the diagonal.
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<12x12xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]}
      outs(%em : tensor<12x12xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %up = arith.cmpi ugt, %j, %i : index
    %x = arith.select %up, %ninf, %zero : f32
    linalg.yield %x : f32
  } -> tensor<12x12xf32>
  %o = call @qkv_attention(%q, %k, %v, %mask) : (tensor<2x8x24xf16>, tensor<2x8x24xf16>, tensor<2x8x24xf16>, tensor<12x12xf32>) -> tensor<2x8x24xf16>
  %eo = tensor.empty() : tensor<2x8x24xf32>
  %of = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x8x24xf16>) outs(%eo : tensor<2x8x24xf32>) {
  ^bb0(%in: f16, %x: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  } -> tensor<2x8x24xf32>
  %u = tensor.cast %of : tensor<2x8x24xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
