// PyTorch's math SDPA path (aten _scaled_dot_product_attention_math, 2.5+)
// with enable_gqa=True and is_causal=True in f16, as torch-mlir lowers it
// to linalg: K and V repeated by repeat_interleave(G, dim=-3) (unsqueeze,
// expand, flatten), the causal mask ones(L, S).tril() turned into an f16
// bias by convert_boolean_attn_mask (where(mask, 0, -inf)), sqrt(scale) on
// Q and on Kᵀ, matmuls that accumulate in f32 and round to f16, the bias
// added, then `_safe_softmax` (softmax in f32, rounded to f16, and
// where(all(x == -inf, -1), 0, softmax)).
// Raised: one fa.attention with GQA read from the unrepeated K and V
// (Hkv = 2), causal = top_left from the bias, no fix-up for empty rows (the
// guard gives 0 as the op does; here no row is empty anyway).
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=gpu-kernel=sm_90" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 512 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @sdpa_math_gqa_causal
// RAISED: fa.attention {{.*}} scale = 2.500000e-01 causal = {{bottom_right|top_left}} : tensor<1x4x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16> -> tensor<1x4x8x16xf16>
// RAISED-NOT: math.exp
// RAISED-NOT: arith.andi
// RAISED: return

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#copy5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, d4)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#row3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#ts = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#mm_a = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#mm_b = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#mm_c = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#par4 = ["parallel", "parallel", "parallel", "parallel"]
#par5 = ["parallel", "parallel", "parallel", "parallel", "parallel"]
#red4 = ["parallel", "parallel", "parallel", "reduction"]
#red5 = ["parallel", "parallel", "parallel", "parallel", "reduction"]

func.func @sdpa_math_gqa_causal(%query: tensor<1x4x8x16xf16>, %key: tensor<1x2x8x16xf16>,
                                %value: tensor<1x2x8x16xf16>) -> tensor<1x4x8x16xf16> {
  %zero = arith.constant 0.0 : f32
  %zero_h = arith.constant 0.0 : f16
  %neg_inf_h = arith.constant 0xFC00 : f16
  %neg_inf = arith.constant 0xFF800000 : f32
  %true = arith.constant true
  %root_scale = arith.constant 0.5 : f16
  // key.repeat_interleave(2, dim=-3): unsqueeze, expand, flatten
  %k_rep_u = tensor.expand_shape %key [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 16] : tensor<1x2x8x16xf16> into tensor<1x2x1x8x16xf16>
  %k_rep_e = tensor.empty() : tensor<1x2x2x8x16xf16>
  %k_rep_x = linalg.generic {indexing_maps = [#copy5, #id5], iterator_types = #par5} ins(%k_rep_u : tensor<1x2x1x8x16xf16>) outs(%k_rep_e : tensor<1x2x2x8x16xf16>) {
  ^bb0(%a: f16, %out: f16):
    linalg.yield %a : f16
  } -> tensor<1x2x2x8x16xf16>
  %k_rep = tensor.collapse_shape %k_rep_x [[0], [1, 2], [3], [4]] : tensor<1x2x2x8x16xf16> into tensor<1x4x8x16xf16>
  // value.repeat_interleave(2, dim=-3): unsqueeze, expand, flatten
  %v_rep_u = tensor.expand_shape %value [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 16] : tensor<1x2x8x16xf16> into tensor<1x2x1x8x16xf16>
  %v_rep_e = tensor.empty() : tensor<1x2x2x8x16xf16>
  %v_rep_x = linalg.generic {indexing_maps = [#copy5, #id5], iterator_types = #par5} ins(%v_rep_u : tensor<1x2x1x8x16xf16>) outs(%v_rep_e : tensor<1x2x2x8x16xf16>) {
  ^bb0(%a: f16, %out: f16):
    linalg.yield %a : f16
  } -> tensor<1x2x2x8x16xf16>
  %v_rep = tensor.collapse_shape %v_rep_x [[0], [1, 2], [3], [4]] : tensor<1x2x2x8x16xf16> into tensor<1x4x8x16xf16>
  // attn_mask = ones(L, S, bool).tril(); convert_boolean_attn_mask
  %em = tensor.empty() : tensor<8x8xf16>
  %bias = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<8x8xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sle, %j, %i : index
    %0 = arith.select %keep, %zero_h, %neg_inf_h : f16
    linalg.yield %0 : f16
  } -> tensor<8x8xf16>
  // query * sqrt(scale)
  %eq = tensor.empty() : tensor<1x4x8x16xf16>
  %q = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = #par4} ins(%query : tensor<1x4x8x16xf16>) outs(%eq : tensor<1x4x8x16xf16>) {
  ^bb0(%a: f16, %out: f16):
    %0 = arith.mulf %a, %root_scale : f16
    linalg.yield %0 : f16
  } -> tensor<1x4x8x16xf16>
  // key.transpose(-2, -1) * sqrt(scale)
  %ekt = tensor.empty() : tensor<1x4x16x8xf16>
  %kt0 = linalg.transpose ins(%k_rep : tensor<1x4x8x16xf16>) outs(%ekt : tensor<1x4x16x8xf16>) permutation = [0, 1, 3, 2]
  %kt = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = #par4} ins(%kt0 : tensor<1x4x16x8xf16>) outs(%ekt : tensor<1x4x16x8xf16>) {
  ^bb0(%a: f16, %out: f16):
    %0 = arith.mulf %a, %root_scale : f16
    linalg.yield %0 : f16
  } -> tensor<1x4x16x8xf16>
  %es32 = tensor.empty() : tensor<1x4x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es32 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %s32 = linalg.generic {indexing_maps = [#mm_a, #mm_b, #mm_c], iterator_types = #red5} ins(%q, %kt : tensor<1x4x8x16xf16>, tensor<1x4x16x8xf16>) outs(%zs : tensor<1x4x8x8xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %0 = arith.mulf %a32, %b32 : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x4x8x8xf32>
  // attn (f16) += attn_mask
  %es = tensor.empty() : tensor<1x4x8x8xf16>
  %x = linalg.generic {indexing_maps = [#id4, #ts, #id4], iterator_types = #par4} ins(%s32, %bias : tensor<1x4x8x8xf32>, tensor<8x8xf16>) outs(%es : tensor<1x4x8x8xf16>) {
  ^bb0(%a: f32, %b: f16, %out: f16):
    %0 = arith.truncf %a : f32 to f16
    %1 = arith.addf %0, %b : f16
    linalg.yield %1 : f16
  } -> tensor<1x4x8x8xf16>
  // _safe_softmax(attn, -1): softmax accumulated in f32
  %er = tensor.empty() : tensor<1x4x8xf32>
  %mi = linalg.fill ins(%neg_inf : f32) outs(%er : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %max = linalg.generic {indexing_maps = [#id4, #row3], iterator_types = #red4} ins(%x : tensor<1x4x8x8xf16>) outs(%mi : tensor<1x4x8xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %0 = arith.maximumf %a32, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x8xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #row3, #id4], iterator_types = #par4} ins(%x, %max : tensor<1x4x8x8xf16>, tensor<1x4x8xf32>) outs(%es32 : tensor<1x4x8x8xf32>) {
  ^bb0(%a: f16, %m: f32, %out: f32):
    %a32 = arith.extf %a : f16 to f32
    %0 = arith.subf %a32, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x4x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #row3], iterator_types = #red4} ins(%ex : tensor<1x4x8x8xf32>) outs(%si : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x8xf32>
  %sm = linalg.generic {indexing_maps = [#id4, #row3, #id4], iterator_types = #par4} ins(%ex, %sum : tensor<1x4x8x8xf32>, tensor<1x4x8xf32>) outs(%es : tensor<1x4x8x8xf16>) {
  ^bb0(%a: f32, %l: f32, %out: f16):
    %0 = arith.divf %a, %l : f32
    %1 = arith.truncf %0 : f32 to f16
    linalg.yield %1 : f16
  } -> tensor<1x4x8x8xf16>
  %ei = tensor.empty() : tensor<1x4x8x8xi1>
  %is_inf = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = #par4} ins(%x : tensor<1x4x8x8xf16>) outs(%ei : tensor<1x4x8x8xi1>) {
  ^bb0(%a: f16, %out: i1):
    %0 = arith.cmpf oeq, %a, %neg_inf_h : f16
    linalg.yield %0 : i1
  } -> tensor<1x4x8x8xi1>
  %ea = tensor.empty() : tensor<1x4x8x1xi1>
  %all0 = linalg.fill ins(%true : i1) outs(%ea : tensor<1x4x8x1xi1>) -> tensor<1x4x8x1xi1>
  %all = linalg.generic {indexing_maps = [#id4, #row], iterator_types = #red4} ins(%is_inf : tensor<1x4x8x8xi1>) outs(%all0 : tensor<1x4x8x1xi1>) {
  ^bb0(%a: i1, %acc: i1):
    %0 = arith.andi %a, %acc : i1
    linalg.yield %0 : i1
  } -> tensor<1x4x8x1xi1>
  %p = linalg.generic {indexing_maps = [#row, #id4, #id4], iterator_types = #par4} ins(%all, %sm : tensor<1x4x8x1xi1>, tensor<1x4x8x8xf16>) outs(%es : tensor<1x4x8x8xf16>) {
  ^bb0(%g: i1, %a: f16, %out: f16):
    %0 = arith.select %g, %zero_h, %a : f16
    linalg.yield %0 : f16
  } -> tensor<1x4x8x8xf16>
  // attn @ value
  %eo32 = tensor.empty() : tensor<1x4x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo32 : tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  %o32 = linalg.generic {indexing_maps = [#mm_a, #mm_b, #mm_c], iterator_types = #red5} ins(%p, %v_rep : tensor<1x4x8x8xf16>, tensor<1x4x8x16xf16>) outs(%zo : tensor<1x4x8x16xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %0 = arith.mulf %a32, %b32 : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x4x8x16xf32>
  %eo = tensor.empty() : tensor<1x4x8x16xf16>
  %o = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = #par4} ins(%o32 : tensor<1x4x8x16xf32>) outs(%eo : tensor<1x4x8x16xf16>) {
  ^bb0(%a: f32, %out: f16):
    %0 = arith.truncf %a : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x4x8x16xf16>
  return %o : tensor<1x4x8x16xf16>
}

func.func @to_f16(%t: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %t, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %t, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %t, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %t, %c3 : tensor<?x?x?x?xf32>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = #par4} ins(%t : tensor<?x?x?x?xf32>) outs(%e : tensor<?x?x?x?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<?x?x?x?xf16>
  return %r : tensor<?x?x?x?xf16>
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
  %q0 = call @input4(%s1, %c1, %c4, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c1, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c1, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q1 = call @to_f16(%q0) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf16>
  %k1 = call @to_f16(%k0) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf16>
  %v1 = call @to_f16(%v0) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf16>
  %q = tensor.cast %q1 : tensor<?x?x?x?xf16> to tensor<1x4x8x16xf16>
  %k = tensor.cast %k1 : tensor<?x?x?x?xf16> to tensor<1x2x8x16xf16>
  %v = tensor.cast %v1 : tensor<?x?x?x?xf16> to tensor<1x2x8x16xf16>
  %o = call @sdpa_math_gqa_causal(%q, %k, %v) : (tensor<1x4x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>) -> tensor<1x4x8x16xf16>
  %ow = tensor.empty() : tensor<1x4x8x16xf32>
  %w = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = #par4} ins(%o : tensor<1x4x8x16xf16>) outs(%ow : tensor<1x4x8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<1x4x8x16xf32>
  %u = tensor.cast %w : tensor<1x4x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
