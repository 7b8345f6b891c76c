// PyTorch 2.5+'s math SDPA path (torch-mlir, linalg-on-tensors) with a
// boolean key-padding mask: attn_bias = zeros.masked_fill(~mask, -inf),
// scores = q @ kᵀ · scale + attn_bias, then `_safe_softmax`:
// where(all(scores == -inf, dim=-1, keepdim=True), 0, softmax(scores)).
// Sequence 1 keeps no key at all, so every one of its rows is -inf: the
// frontend gives 0 there, fa.attention's own value for a row with no
// visible key, so no fix-up is emitted (plain softmax would give NaN).
// Raised: one fa.attention with the bias, and no logsumexp.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 512 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @sdpa_safe_softmax
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<2x1x8x8xf32>) scale = 2.500000e-01 : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32> -> tensor<2x2x8x16xf32>
// RAISED-NOT: linalg.softmax
// RAISED-NOT: arith.andi
// RAISED: return

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#bias = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#qk_q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#qk_k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#qk_s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#pv_v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>

func.func @sdpa_safe_softmax(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>,
                             %v: tensor<2x2x8x16xf32>, %mask: tensor<2x1x8x8xi1>)
    -> tensor<2x2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %true = arith.constant true
  %quarter = arith.constant 0.25 : f32
  // attn_bias.masked_fill_(attn_mask.logical_not(), -inf)
  %eb = tensor.empty() : tensor<2x1x8x8xf32>
  %bias = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mask : tensor<2x1x8x8xi1>) outs(%eb : tensor<2x1x8x8xf32>) {
  ^bb0(%m: i1, %out: f32):
    %0 = arith.select %m, %zero, %neg_inf : f32
    linalg.yield %0 : f32
  } -> tensor<2x1x8x8xf32>
  %es = tensor.empty() : tensor<2x2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id4, #bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x2x8x8xf32>, tensor<2x1x8x8xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %quarter : f32
    %1 = arith.addf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x8xf32>
  // _safe_softmax(x, dim=-1)
  %sm = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %ei = tensor.empty() : tensor<2x2x8x8xi1>
  %is_inf = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x2x8x8xf32>) outs(%ei : tensor<2x2x8x8xi1>) {
  ^bb0(%a: f32, %out: i1):
    %0 = arith.cmpf oeq, %a, %neg_inf : f32
    linalg.yield %0 : i1
  } -> tensor<2x2x8x8xi1>
  %er = tensor.empty() : tensor<2x2x8x1xi1>
  %all0 = linalg.fill ins(%true : i1) outs(%er : tensor<2x2x8x1xi1>) -> tensor<2x2x8x1xi1>
  %all = linalg.generic {indexing_maps = [#id4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%is_inf : tensor<2x2x8x8xi1>) outs(%all0 : tensor<2x2x8x1xi1>) {
  ^bb0(%a: i1, %acc: i1):
    %0 = arith.andi %a, %acc : i1
    linalg.yield %0 : i1
  } -> tensor<2x2x8x1xi1>
  %p = linalg.generic {indexing_maps = [#row, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%all, %sm : tensor<2x2x8x1xi1>, tensor<2x2x8x8xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%g: i1, %a: f32, %out: f32):
    %0 = arith.select %g, %zero, %a : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  %eo = tensor.empty() : tensor<2x2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [#qk_q, #pv_v, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%zo : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c2, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c2, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c2, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x2x8x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<2x2x8x16xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<2x2x8x16xf32>
  // Sequence 0 keeps its first 5 keys; sequence 1 keeps none.
  %e = tensor.empty() : tensor<2x1x8x8xi1>
  %c5 = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  %mask = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<2x1x8x8xi1>) {
  ^bb0(%out: i1):
    %b = linalg.index 0 : index
    %j = linalg.index 3 : index
    %in0 = arith.cmpi ult, %j, %c5 : index
    %first = arith.cmpi eq, %b, %c0 : index
    %keep = arith.andi %in0, %first : i1
    linalg.yield %keep : i1
  } -> tensor<2x1x8x8xi1>
  %o = call @sdpa_safe_softmax(%q, %k, %v, %mask) : (tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x1x8x8xi1>) -> tensor<2x2x8x16xf32>
  %u = tensor.cast %o : tensor<2x2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
