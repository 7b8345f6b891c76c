// Keras 3's MultiHeadAttention with a key padding mask (value_mask) and
// use_causal_mask=True, as its einsums lower to linalg: the query scaled by
// 1/sqrt(key_dim) first, scores = einsum('aecd,abcd->acbe', key, query)
// ([B, N, T, S]), _compute_attention_mask's logical_and of the padding mask
// [B, 1, S] with tril(ones(T, S)), then keras.layers.Softmax with a mask:
// adder = (1 - cast(mask)) * -1e9 (_large_negative_number for f32) added to
// the scores, exp(x - max) / sum, and einsum('acbe,aecd->abcd', P, value).
// Sequence 1 pads its last two keys.
// Raised: one fa.attention whose mask is the computed f32 bias (-1e9 is a
// finite bias, added exactly as the frontend adds it; it is not causal).
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
// RAISED-LABEL: func.func @keras_mha
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<2x1x8x8xf32>) scale = 2.500000e-01 : tensor<2x2x8x16xf32>
// RAISED-NOT: math.exp
// RAISED: return

#btnh = affine_map<(a, c, b, e, d) -> (a, b, c, d)>
#bsnh = affine_map<(a, c, b, e, d) -> (a, e, c, d)>
#bnts = affine_map<(a, c, b, e, d) -> (a, c, b, e)>
#pv_p = affine_map<(a, b, c, d, e) -> (a, c, b, e)>
#pv_v = affine_map<(a, b, c, d, e) -> (a, e, c, d)>
#pv_o = affine_map<(a, b, c, d, e) -> (a, b, c, d)>
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#id3 = affine_map<(a, t, s) -> (a, t, s)>
#keys = affine_map<(a, t, s) -> (a, s)>
#mask4 = affine_map<(a, n, t, s) -> (a, 0, t, s)>
#row = affine_map<(a, n, t, s) -> (a, n, t)>
#par4 = ["parallel", "parallel", "parallel", "parallel"]
#red4 = ["parallel", "parallel", "parallel", "reduction"]
#red5 = ["parallel", "parallel", "parallel", "parallel", "reduction"]

func.func @keras_mha(%query: tensor<2x8x2x16xf32>, %key: tensor<2x8x2x16xf32>,
                     %value: tensor<2x8x2x16xf32>, %value_mask: tensor<2x8xi1>)
    -> tensor<2x8x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %large_negative = arith.constant -1.0e+09 : f32
  %inv_sqrt = arith.constant 0.25 : f32
  // query = ops.multiply(query, 1 / sqrt(key_dim))
  %eq = tensor.empty() : tensor<2x8x2x16xf32>
  %q = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = #par4} ins(%query : tensor<2x8x2x16xf32>) outs(%eq : tensor<2x8x2x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %0 = arith.mulf %a, %inv_sqrt : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x2x16xf32>
  %es = tensor.empty() : tensor<2x2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  // einsum('aecd,abcd->acbe', key, query)
  %scores = linalg.generic {indexing_maps = [#bsnh, #btnh, #bnts], iterator_types = #red5} ins(%key, %q : tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%k: f32, %qv: f32, %acc: f32):
    %0 = arith.mulf %k, %qv : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x8xf32>
  // _compute_attention_mask: logical_and(value_mask[:, None, :], tril)
  %em = tensor.empty() : tensor<2x8x8xi1>
  %mask = linalg.generic {indexing_maps = [#keys, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%value_mask : tensor<2x8xi1>) outs(%em : tensor<2x8x8xi1>) {
  ^bb0(%m: i1, %out: i1):
    %t = linalg.index 1 : index
    %s = linalg.index 2 : index
    %tril = arith.cmpi sge, %t, %s : index
    %0 = arith.andi %m, %tril : i1
    linalg.yield %0 : i1
  } -> tensor<2x8x8xi1>
  %mask4 = tensor.expand_shape %mask [[0, 1], [2], [3]] output_shape [2, 1, 8, 8] : tensor<2x8x8xi1> into tensor<2x1x8x8xi1>
  // Softmax(mask): adder = (1 - cast(mask, float)) * -1e9
  %ea = tensor.empty() : tensor<2x1x8x8xf32>
  %adder = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = #par4} ins(%mask4 : tensor<2x1x8x8xi1>) outs(%ea : tensor<2x1x8x8xf32>) {
  ^bb0(%m: i1, %out: f32):
    %0 = arith.uitofp %m : i1 to f32
    %1 = arith.subf %one, %0 : f32
    %2 = arith.mulf %1, %large_negative : f32
    linalg.yield %2 : f32
  } -> tensor<2x1x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id4, #mask4, #id4], iterator_types = #par4} ins(%scores, %adder : tensor<2x2x8x8xf32>, tensor<2x1x8x8xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  %er = tensor.empty() : tensor<2x2x8xf32>
  %mi = linalg.fill ins(%neg_inf : f32) outs(%er : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %max = linalg.generic {indexing_maps = [#id4, #row], iterator_types = #red4} ins(%x : tensor<2x2x8x8xf32>) outs(%mi : tensor<2x2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = #par4} ins(%x, %max : tensor<2x2x8x8xf32>, tensor<2x2x8xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #row], iterator_types = #red4} ins(%ex : tensor<2x2x8x8xf32>) outs(%si : tensor<2x2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8xf32>
  %p = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = #par4} ins(%ex, %sum : tensor<2x2x8x8xf32>, tensor<2x2x8xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %l: f32, %out: f32):
    %0 = arith.divf %a, %l : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  // einsum('acbe,aecd->abcd', P, value)
  %eo = tensor.empty() : tensor<2x8x2x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x2x16xf32>) -> tensor<2x8x2x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = #red5} ins(%p, %value : tensor<2x2x8x8xf32>, tensor<2x8x2x16xf32>) outs(%zo : tensor<2x8x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x2x16xf32>
  return %o : tensor<2x8x2x16xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c2, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c2, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c2, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x8x2x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<2x8x2x16xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<2x8x2x16xf32>
  %mask = arith.constant dense<[[true, true, true, true, true, true, true, true],
                                [true, true, true, true, true, true, false, false]]> : tensor<2x8xi1>
  %o = call @keras_mha(%q, %k, %v, %mask) : (tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>, tensor<2x8xi1>) -> tensor<2x8x2x16xf32>
  %u = tensor.cast %o : tensor<2x8x2x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
