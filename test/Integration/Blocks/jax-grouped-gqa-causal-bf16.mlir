// jax.nn.dot_product_attention's XLA path with grouped-query attention
// (N = 4 query heads over K = 2 key/value heads) and is_causal=True, bf16,
// as StableHLO lowers to linalg. JAX never repeats K and V: it reshapes the
// query to [B, T, K, G, H] and vmaps its core over G, so both einsums carry
// the group axis: logits = einsum('BTKGH,BSKH->BKGTS') in f32
// (preferred_element_type), * 1/sqrt(H), the causal mask of two iotas
// (unbatched by the vmap, so broadcast over K and G),
// where(mask, logits, -0.7 · finfo(f32).max), jax.nn.softmax in f32, probs
// cast to bf16, encoded = einsum('BKGTS,BSKH->BTKGH'), reshaped to
// [B, T, N, H].
// Raised: one fa.attention with GQA (Hkv = 2, query head k·G + g), the
// causal mask explicit with mask_fill (a finite fill keeps hidden keys'
// weights), the query's [K, G] merged into the op's heads and split back.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 3e-2 --atol 1.5e-2 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 3e-2 --atol 1.5e-2 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 3e-2 --atol 1.5e-2 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 512 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @jax_gqa_causal
// RAISED: tensor.collapse_shape {{.*}} : tensor<1x2x2x8x16xbf16> into tensor<1x4x8x16xbf16>
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x1x8x8xi1>) scale = 2.500000e-01 mask_fill = -2.381976{{[0-9]*}}E+38 : tensor<1x4x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16> -> tensor<1x4x8x16xbf16>
// RAISED-NOT: math.exp
// RAISED: return

#q = affine_map<(b, k, g, t, s, h) -> (b, t, k, g, h)>
#kk = affine_map<(b, k, g, t, s, h) -> (b, s, k, h)>
#logits = affine_map<(b, k, g, t, s, h) -> (b, k, g, t, s)>
#pv_p = affine_map<(b, t, k, g, h, s) -> (b, k, g, t, s)>
#pv_v = affine_map<(b, t, k, g, h, s) -> (b, s, k, h)>
#pv_o = affine_map<(b, t, k, g, h, s) -> (b, t, k, g, h)>
#id5 = affine_map<(b, k, g, t, s) -> (b, k, g, t, s)>
#ts = affine_map<(b, k, g, t, s) -> (t, s)>
#row = affine_map<(b, k, g, t, s) -> (b, k, g, t)>
#id2 = affine_map<(t, s) -> (t, s)>
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#par5 = ["parallel", "parallel", "parallel", "parallel", "parallel"]
#red5 = ["parallel", "parallel", "parallel", "parallel", "reduction"]
#red6 = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]

func.func @jax_gqa_causal(%query: tensor<1x8x4x16xbf16>, %key: tensor<1x8x2x16xbf16>,
                          %value: tensor<1x8x2x16xbf16>) -> tensor<1x8x4x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %zero_bf16 = arith.constant 0.0 : bf16
  %neg_inf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %big_neg = arith.constant -2.38197633E+38 : f32
  // query = jnp.reshape(query, (B, T, K, G, H))
  %q = tensor.expand_shape %query [[0], [1], [2, 3], [4]] output_shape [1, 8, 2, 2, 16] : tensor<1x8x4x16xbf16> into tensor<1x8x2x2x16xbf16>
  %es = tensor.empty() : tensor<1x2x2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x2x8x8xf32>) -> tensor<1x2x2x8x8xf32>
  %logits0 = linalg.generic {indexing_maps = [#q, #kk, #logits], iterator_types = #red6} ins(%q, %key : tensor<1x8x2x2x16xbf16>, tensor<1x8x2x16xbf16>) outs(%zs : tensor<1x2x2x8x8xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %0 = arith.mulf %a32, %b32 : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x2x8x8xf32>
  %logits = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = #par5} ins(%logits0 : tensor<1x2x2x8x8xf32>) outs(%es : tensor<1x2x2x8x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %0 = arith.mulf %a, %scale : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x8x8xf32>
  %em = tensor.empty() : tensor<8x8xi1>
  %mask = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<8x8xi1>) {
  ^bb0(%out: i1):
    %t = linalg.index 0 : index
    %s = linalg.index 1 : index
    %ti = arith.index_cast %t : index to i32
    %si = arith.index_cast %s : index to i32
    %c = arith.cmpi sge, %ti, %si : i32
    linalg.yield %c : i1
  } -> tensor<8x8xi1>
  %padded = linalg.generic {indexing_maps = [#ts, #id5, #id5], iterator_types = #par5} ins(%mask, %logits : tensor<8x8xi1>, tensor<1x2x2x8x8xf32>) outs(%es : tensor<1x2x2x8x8xf32>) {
  ^bb0(%m: i1, %a: f32, %out: f32):
    %0 = arith.select %m, %a, %big_neg : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x8x8xf32>
  %er = tensor.empty() : tensor<1x2x2x8xf32>
  %mi = linalg.fill ins(%neg_inf : f32) outs(%er : tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  %max = linalg.generic {indexing_maps = [#id5, #row], iterator_types = #red5} ins(%padded : tensor<1x2x2x8x8xf32>) outs(%mi : tensor<1x2x2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id5, #row, #id5], iterator_types = #par5} ins(%padded, %max : tensor<1x2x2x8x8xf32>, tensor<1x2x2x8xf32>) outs(%es : tensor<1x2x2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x2x8x8xf32>
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id5, #row], iterator_types = #red5} ins(%ex : tensor<1x2x2x8x8xf32>) outs(%si0 : tensor<1x2x2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x8xf32>
  // probs = softmax(...).astype(key.dtype)
  %ep = tensor.empty() : tensor<1x2x2x8x8xbf16>
  %probs = linalg.generic {indexing_maps = [#id5, #row, #id5], iterator_types = #par5} ins(%ex, %sum : tensor<1x2x2x8x8xf32>, tensor<1x2x2x8xf32>) outs(%ep : tensor<1x2x2x8x8xbf16>) {
  ^bb0(%a: f32, %l: f32, %out: bf16):
    %0 = arith.divf %a, %l : f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<1x2x2x8x8xbf16>
  %eo = tensor.empty() : tensor<1x8x2x2x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x2x16xf32>) -> tensor<1x8x2x2x16xf32>
  %o32 = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = #red6} ins(%probs, %value : tensor<1x2x2x8x8xbf16>, tensor<1x8x2x16xbf16>) outs(%zo : tensor<1x8x2x2x16xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %0 = arith.mulf %a32, %b32 : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x8x2x2x16xf32>
  %eob = tensor.empty() : tensor<1x8x2x2x16xbf16>
  %ob = linalg.generic {indexing_maps = [affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>, affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>], iterator_types = #par5} ins(%o32 : tensor<1x8x2x2x16xf32>) outs(%eob : tensor<1x8x2x2x16xbf16>) {
  ^bb0(%a: f32, %out: bf16):
    %0 = arith.truncf %a : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<1x8x2x2x16xbf16>
  // encoded = jnp.reshape(encoded, (B, T, N, H))
  %o = tensor.collapse_shape %ob [[0], [1], [2, 3], [4]] : tensor<1x8x2x2x16xbf16> into tensor<1x8x4x16xbf16>
  return %o : tensor<1x8x4x16xbf16>
}

func.func @to_bf16(%t: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %t, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %t, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %t, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %t, %c3 : tensor<?x?x?x?xf32>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t : tensor<?x?x?x?xf32>) outs(%e : tensor<?x?x?x?xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<?x?x?x?xbf16>
  return %r : tensor<?x?x?x?xbf16>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c1, %c8, %c4, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c1, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c1, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q1 = call @to_bf16(%q0) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16>
  %k1 = call @to_bf16(%k0) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16>
  %v1 = call @to_bf16(%v0) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xbf16>
  %q = tensor.cast %q1 : tensor<?x?x?x?xbf16> to tensor<1x8x4x16xbf16>
  %k = tensor.cast %k1 : tensor<?x?x?x?xbf16> to tensor<1x8x2x16xbf16>
  %v = tensor.cast %v1 : tensor<?x?x?x?xbf16> to tensor<1x8x2x16xbf16>
  %o = call @jax_gqa_causal(%q, %k, %v) : (tensor<1x8x4x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> tensor<1x8x4x16xbf16>
  %ow = tensor.empty() : tensor<1x8x4x16xf32>
  %w = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : tensor<1x8x4x16xbf16>) outs(%ow : tensor<1x8x4x16xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    linalg.yield %0 : f32
  } -> tensor<1x8x4x16xf32>
  %u = tensor.cast %w : tensor<1x8x4x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
