// Held-out block b05: Stable Diffusion 2.1 UNet cross-attention with
// upcast_attention=True (huggingface/diffusers
// src/diffusers/models/attention_processor.py: AttnProcessor.__call__ with
// Attention.head_to_batch_dim, Attention.get_attention_scores, torch.bmm,
// Attention.batch_to_head_dim), run in float16, exported with torch.export and
// lowered by torch-mlir's TOSA backend.
//
// What torch-mlir turns into TOSA here:
//  - head_to_batch_dim: reshape [B, N, H, D] -> permute(0, 2, 1, 3) -> reshape [B*H, N, D];
//  - upcast_attention: query.float(), key.float() as tosa.cast f16 -> f32 (V stays f16);
//  - torch.baddbmm(torch.empty(...), q, k.transpose(-1, -2), beta=0, alpha=attn.scale):
//    DecomposeAtenBaddbmmOp gives alpha * bmm(q, k^T) + 0 * empty; the empty input and its
//    zero-weighted add fold away, leaving tosa.matmul (f32) times the constant scale;
//  - attention_scores.softmax(dim=-1) in f32 (reduce_max, sub, exp, reduce_sum,
//    reciprocal * mul), attention_probs.to(torch.float16) as tosa.cast f32 -> f16;
//  - torch.bmm(attention_probs, value) with f16 operands (f32 accumulator, cast to f16);
//  - batch_to_head_dim: reshape [B, H, N, D] -> permute -> reshape [B, N, H*D].
//
// Math (cross-attention; B=2 (classifier-free guidance pair), Nq=16 latent positions,
// Nk=8 text tokens, H=2 heads, D=16, scale = D^-0.5 = 0.25):
//   S = 0.25 * f32(Q) f32(K)^T    [B*H, 16, 8]
//   P = f16(softmax(S)),  O = f16(P V)   (V in f16), returned as [B, 16, 32] f16.

func.func @sd21_cross_attention(%query: tensor<2x16x32xf16>, %key: tensor<2x8x32xf16>,
                                %value: tensor<2x8x32xf16>) -> tensor<2x16x32xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp32 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp16 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %alpha = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>

  // query = attn.head_to_batch_dim(query)
  %sq4 = tosa.const_shape {values = dense<[2, 16, 2, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q4 = tosa.reshape %query, %sq4 : (tensor<2x16x32xf16>, !tosa.shape<4>) -> tensor<2x16x2x16xf16>
  %qp = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x16x2x16xf16>) -> tensor<2x2x16x16xf16>
  %sq3 = tosa.const_shape {values = dense<[4, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q = tosa.reshape %qp, %sq3 : (tensor<2x2x16x16xf16>, !tosa.shape<3>) -> tensor<4x16x16xf16>
  // key = attn.head_to_batch_dim(key); value = attn.head_to_batch_dim(value)
  %sk4 = tosa.const_shape {values = dense<[2, 8, 2, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %sk3 = tosa.const_shape {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k4 = tosa.reshape %key, %sk4 : (tensor<2x8x32xf16>, !tosa.shape<4>) -> tensor<2x8x2x16xf16>
  %kp = tosa.transpose %k4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %k = tosa.reshape %kp, %sk3 : (tensor<2x2x8x16xf16>, !tosa.shape<3>) -> tensor<4x8x16xf16>
  %v4 = tosa.reshape %value, %sk4 : (tensor<2x8x32xf16>, !tosa.shape<4>) -> tensor<2x8x2x16xf16>
  %vp = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x8x2x16xf16>) -> tensor<2x2x8x16xf16>
  %v = tosa.reshape %vp, %sk3 : (tensor<2x2x8x16xf16>, !tosa.shape<3>) -> tensor<4x8x16xf16>

  // get_attention_scores: query = query.float(); key = key.float()
  %q32 = tosa.cast %q : (tensor<4x16x16xf16>) -> tensor<4x16x16xf32>
  %k32 = tosa.cast %k : (tensor<4x8x16xf16>) -> tensor<4x8x16xf32>
  // torch.baddbmm(empty, query, key.transpose(-1, -2), beta=0, alpha=attn.scale)
  %kT = tosa.transpose %k32 {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %bmm = tosa.matmul %q32, %kT, %zp32, %zp32 : (tensor<4x16x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x8xf32>
  %scores = tosa.mul %bmm, %alpha, %shift : (tensor<4x16x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x8xf32>
  // attention_probs = attention_scores.softmax(dim=-1).to(dtype)
  %mx = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<4x16x8xf32>) -> tensor<4x16x1xf32>
  %sub = tosa.sub %scores, %mx : (tensor<4x16x8xf32>, tensor<4x16x1xf32>) -> tensor<4x16x8xf32>
  %ex = tosa.exp %sub : (tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<4x16x8xf32>) -> tensor<4x16x1xf32>
  %rcp = tosa.reciprocal %sum : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %probs32 = tosa.mul %ex, %rcp, %shift : (tensor<4x16x8xf32>, tensor<4x16x1xf32>, tensor<1xi8>) -> tensor<4x16x8xf32>
  %probs = tosa.cast %probs32 : (tensor<4x16x8xf32>) -> tensor<4x16x8xf16>

  // hidden_states = torch.bmm(attention_probs, value)
  %pv32 = tosa.matmul %probs, %v, %zp16, %zp16 : (tensor<4x16x8xf16>, tensor<4x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x16x16xf32>
  %pv = tosa.cast %pv32 : (tensor<4x16x16xf32>) -> tensor<4x16x16xf16>

  // hidden_states = attn.batch_to_head_dim(hidden_states)
  %so4 = tosa.const_shape {values = dense<[2, 2, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.reshape %pv, %so4 : (tensor<4x16x16xf16>, !tosa.shape<4>) -> tensor<2x2x16x16xf16>
  %ot = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x2x16x16xf16>) -> tensor<2x16x2x16xf16>
  %so3 = tosa.const_shape {values = dense<[2, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out = tosa.reshape %ot, %so3 : (tensor<2x16x2x16xf16>, !tosa.shape<3>) -> tensor<2x16x32xf16>
  return %out : tensor<2x16x32xf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %sq = arith.constant 0.9 : f32
  %sk = arith.constant 2.1 : f32
  %sv = arith.constant 0.15 : f32
  %q0 = call @input3(%sq, %c2, %c16, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q1 = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x16x32xf32>
  %eq = tensor.empty() : tensor<2x16x32xf16>
  %q = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q1 : tensor<2x16x32xf32>) outs(%eq : tensor<2x16x32xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x16x32xf16>
  %ekv = tensor.empty() : tensor<2x8x32xf16>
  %k0 = call @input3(%sk, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k1 = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<2x8x32xf32>) outs(%ekv : tensor<2x8x32xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x32xf16>
  %v0 = call @input3(%sv, %c2, %c8, %c32) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v1 = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x8x32xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v1 : tensor<2x8x32xf32>) outs(%ekv : tensor<2x8x32xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x32xf16>
  %o = call @sd21_cross_attention(%q, %k, %v) : (tensor<2x16x32xf16>, tensor<2x8x32xf16>, tensor<2x8x32xf16>) -> tensor<2x16x32xf16>
  %eo = tensor.empty() : tensor<2x16x32xf32>
  %of = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x16x32xf16>) outs(%eo : tensor<2x16x32xf32>) {
  ^bb0(%in: f16, %x: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  } -> tensor<2x16x32xf32>
  %u = tensor.cast %of : tensor<2x16x32xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
