// Held-out block c09: StarCoder / GPTBigCode multi-query attention in float16,
// the CPU baddbmm path with the query heads folded into the row dimension
// ([B, T*H, D] x [B, D, S]), and upcast_masked_softmax (cast to f32, multiply
// back by unscale = layer_idx + 1, torch.where with the finfo.min mask_value),
// exported with torch.export and lowered by torch-mlir's TOSA backend
// (TorchToTosa + tosa backend pipeline canonicalization).
//
// Frontend: torch-mlir FX importer -> torch dialect -> DecomposeComplexOps
//   (baddbmm = bmm * alpha + input * beta; softmax = max, sub, exp, sum, div)
//   -> TorchToTosa (div -> reciprocal * mul; bmm -> tosa.matmul with an f32
//   result cast back to f16; where -> tosa.select; .to() -> tosa.cast).
// Model: bigcode/starcoderbase-1b style GPTBigCodeAttention, multi_query=True,
//   attention_softmax_in_fp32=True, scale_attention_softmax_in_fp32=True,
//   layer_idx = 2 (unscale = 3, scale_factor = 1 / (3 * sqrt(16)) = 1/12),
//   output_attentions=True. Shrunk: B=2, T=S=8, 4 heads, head_dim=16, c_attn
//   output width 64 + 2*16 = 96. The jit-scripted helper is inlined by dynamo.
// Sources read:
//   huggingface/transformers src/transformers/models/gpt_bigcode/modeling_gpt_bigcode.py
//     upcast_masked_softmax(x, mask, mask_value, scale, softmax_dtype):
//       x = x.to(softmax_dtype) * scale; x = torch.where(mask, x, mask_value)
//       x = torch.nn.functional.softmax(x, dim=-1).to(input_dtype)
//     GPTBigCodeAttention._get_mask_value (torch.full([], finfo(f32).min)),
//     ._attn (multi_query: query.reshape(B, T * H, D); CPU branch:
//       zeros = torch.zeros(attn_view); attn_weights = torch.baddbmm(zeros, query, key,
//       beta=1, alpha=scale_factor).view(attn_shape); ... attn_output =
//       torch.bmm(attn_weights.view(attn_view), value).view(query_shape)),
//     .forward (c_attn(...).split((embed_dim, 2 * kv_dim), dim=2);
//       key, value = key_value.split((head_dim, head_dim), dim=-1); key.transpose(-1, -2)),
//     GPTBigCodeModel.forward (self.bias tril slice * padding mask, unsqueeze(2) for MQA).
//   llvm/torch-mlir DecomposeComplexOps.cpp (DecomposeAtenBaddbmmOp,
//   getSoftmaxResult), lib/Conversion/TorchToTosa/TorchToTosa.cpp.
//
// What each op is:
//   tosa.slice (x3)                      split of c_attn's output into query, key, value
//   tosa.transpose [0, 2, 1]             key.transpose(-1, -2)
//   tosa.reshape [2, 32, 16]             query.reshape(B, T * H, D)  (heads become rows)
//   tosa.matmul f16 -> f32, tosa.cast    torch.bmm inside baddbmm
//   tosa.mul 0.08333 + tosa.add zeros    alpha * bmm + beta * zeros  (beta = 1)
//   tosa.reshape [2, 8, 4, 8]            .view(attn_shape)
//   tosa.cast f32, tosa.mul 3.0          x.to(float32) * unscale
//   tosa.select                          torch.where(mask [B,T,1,S], x, mask_value)
//   reduce_max/sub/exp/reduce_sum/reciprocal/mul, cast f16   softmax(dim=-1).to(f16)
//   tosa.matmul, cast, reshape           bmm(attn_weights.view(B, T*H, S), value).view(B, T, 64)
//
// Math: row r = t*4 + h of the folded query; one shared K/V head.
//   S = f16(f16(f16(q_r k^T) * (1/12)) + 0);  X = 3 * f32(S);  X = mask ? X : -3.4028235e38
//   P = f16(softmax_s(X));  O = f16(P v).  Returns (O [2, 8, 64], P [2, 8, 4, 8]).
//   Batch 1 is left-padded by 2: rows t = 0, 1 keep no key and average v.

func.func @gpt_bigcode_mqa_attention(%c_attn_out: tensor<2x8x96xf16>, %attention_mask: tensor<2x8x1x8xi1>)
    -> (tensor<2x8x64xf16>, tensor<2x8x4x8xf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  // query, key_value = self.c_attn(hidden_states).split((embed_dim, 2 * kv_dim), dim=2);
  // key, value = key_value.split((head_dim, head_dim), dim=-1)
  %st_q = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sz_q = tosa.const_shape {values = dense<[2, 8, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %st_k = tosa.const_shape {values = dense<[0, 0, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sz_k = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %st_v = tosa.const_shape {values = dense<[0, 0, 80]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %query = tosa.slice %c_attn_out, %st_q, %sz_q : (tensor<2x8x96xf16>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x8x64xf16>
  %key = tosa.slice %c_attn_out, %st_k, %sz_k : (tensor<2x8x96xf16>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x8x16xf16>
  %value = tosa.slice %c_attn_out, %st_v, %sz_k : (tensor<2x8x96xf16>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x8x16xf16>
  // key.transpose(-1, -2) -> [B, D, S]
  %key_t = tosa.transpose %key {perms = array<i32: 0, 2, 1>} : (tensor<2x8x16xf16>) -> tensor<2x16x8xf16>
  // _attn: query.reshape(batch_size, query_length * self.num_heads, self.head_dim)
  %s_qr = tosa.const_shape {values = dense<[2, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %query_r = tosa.reshape %query, %s_qr : (tensor<2x8x64xf16>, !tosa.shape<3>) -> tensor<2x32x16xf16>
  // torch.baddbmm(zeros, query, key, beta=1, alpha=scale_factor): bmm, * alpha, + zeros
  %bmm32 = tosa.matmul %query_r, %key_t, %zp, %zp : (tensor<2x32x16xf16>, tensor<2x16x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x32x8xf32>
  %bmm = tosa.cast %bmm32 : (tensor<2x32x8xf32>) -> tensor<2x32x8xf16>
  %alpha = "tosa.const"() <{values = dense<8.331300e-02> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %alpha_bmm = tosa.mul %bmm, %alpha, %shift : (tensor<2x32x8xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<2x32x8xf16>
  %zeros = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x32x8xf16>}> : () -> tensor<2x32x8xf16>
  %baddbmm = tosa.add %alpha_bmm, %zeros : (tensor<2x32x8xf16>, tensor<2x32x8xf16>) -> tensor<2x32x8xf16>
  // .view(attn_shape) = (batch_size, query_length, num_heads, key_length)
  %s_attn = tosa.const_shape {values = dense<[2, 8, 4, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %attn_weights = tosa.reshape %baddbmm, %s_attn : (tensor<2x32x8xf16>, !tosa.shape<4>) -> tensor<2x8x4x8xf16>
  // upcast_masked_softmax: x = x.to(softmax_dtype) * scale   (scale = unscale = 3)
  %x32 = tosa.cast %attn_weights : (tensor<2x8x4x8xf16>) -> tensor<2x8x4x8xf32>
  %unscale = "tosa.const"() <{values = dense<3.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %xs = tosa.mul %x32, %unscale, %shift : (tensor<2x8x4x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x4x8xf32>
  // x = torch.where(mask, x, mask_value)   (mask_value = torch.full([], finfo(float32).min))
  %mask_value = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %xm = tosa.select %attention_mask, %xs, %mask_value : (tensor<2x8x1x8xi1>, tensor<2x8x4x8xf32>, tensor<1x1x1x1xf32>) -> tensor<2x8x4x8xf32>
  // torch.nn.functional.softmax(x, dim=-1): max, sub, exp, sum, div (div = reciprocal * mul)
  %mx = tosa.reduce_max %xm {axis = 3 : i32} : (tensor<2x8x4x8xf32>) -> tensor<2x8x4x1xf32>
  %sub = tosa.sub %xm, %mx : (tensor<2x8x4x8xf32>, tensor<2x8x4x1xf32>) -> tensor<2x8x4x8xf32>
  %ex = tosa.exp %sub : (tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32>
  %sum = tosa.reduce_sum %ex {axis = 3 : i32} : (tensor<2x8x4x8xf32>) -> tensor<2x8x4x1xf32>
  %rcp = tosa.reciprocal %sum : (tensor<2x8x4x1xf32>) -> tensor<2x8x4x1xf32>
  %sm = tosa.mul %ex, %rcp, %shift : (tensor<2x8x4x8xf32>, tensor<2x8x4x1xf32>, tensor<1xi8>) -> tensor<2x8x4x8xf32>
  // .to(input_dtype); attn_dropout is the identity in eval
  %probs = tosa.cast %sm : (tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf16>
  // attn_output = torch.bmm(attn_weights.view(attn_view), value).view(query_shape)
  %s_view = tosa.const_shape {values = dense<[2, 32, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %probs3 = tosa.reshape %probs, %s_view : (tensor<2x8x4x8xf16>, !tosa.shape<3>) -> tensor<2x32x8xf16>
  %out32 = tosa.matmul %probs3, %value, %zp, %zp : (tensor<2x32x8xf16>, tensor<2x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x32x16xf32>
  %out16 = tosa.cast %out32 : (tensor<2x32x16xf32>) -> tensor<2x32x16xf16>
  %s_out = tosa.const_shape {values = dense<[2, 8, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %attn_output = tosa.reshape %out16, %s_out : (tensor<2x32x16xf16>, !tosa.shape<3>) -> tensor<2x8x64xf16>
  return %attn_output, %probs : tensor<2x8x64xf16>, tensor<2x8x4x8xf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c96 = arith.constant 96 : index
  %x_s = arith.constant 0.85 : f32
  %x_0 = call @input3(%x_s, %c2, %c8, %c96) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %x_1 = tensor.cast %x_0 : tensor<?x?x?xf32> to tensor<2x8x96xf32>
  %x_e = tensor.empty() : tensor<2x8x96xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x_1 : tensor<2x8x96xf32>) outs(%x_e : tensor<2x8x96xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x96xf16>
  // self.bias[None, :S, :S] (tril) * attention_mask.view(B, 1, -1).bool(), unsqueeze(2): batch 1 left-padded by 2
  %m_e = tensor.empty() : tensor<2x8x1x8xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%m_e : tensor<2x8x1x8xi1>) {
  ^bb0(%out: i1):
    %0 = linalg.index 0 : index
    %1 = linalg.index 1 : index
    %2 = linalg.index 3 : index
    %c2_r = arith.constant 2 : index
    %3 = arith.muli %0, %c2_r : index
    %4 = arith.cmpi ule, %2, %1 : index
    %5 = arith.cmpi uge, %2, %3 : index
    %6 = arith.andi %4, %5 : i1
    linalg.yield %6 : i1
  } -> tensor<2x8x1x8xi1>
  %o:2 = call @gpt_bigcode_mqa_attention(%x, %mask) : (tensor<2x8x96xf16>, tensor<2x8x1x8xi1>) -> (tensor<2x8x64xf16>, tensor<2x8x4x8xf16>)
  %out_pe = tensor.empty() : tensor<2x8x64xf32>
  %out_p32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o#0 : tensor<2x8x64xf16>) outs(%out_pe : tensor<2x8x64xf32>) {
  ^bb0(%in: f16, %out: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  } -> tensor<2x8x64xf32>
  %out_u = tensor.cast %out_p32 : tensor<2x8x64xf32> to tensor<*xf32>
  call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()
  %w_pe = tensor.empty() : tensor<2x8x4x8xf32>
  %w_p32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                            affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o#1 : tensor<2x8x4x8xf16>) outs(%w_pe : tensor<2x8x4x8xf32>) {
  ^bb0(%in: f16, %out: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  } -> tensor<2x8x4x8xf32>
  %w_u = tensor.cast %w_p32 : tensor<2x8x4x8xf32> to tensor<*xf32>
  call @printMemrefF32(%w_u) : (tensor<*xf32>) -> ()
  return
}
