// torch-mlir (fx importer, linalg-on-tensors) BERT self-attention over a
// padded batch whose padding mask comes from per-sequence lengths, as
// Hugging Face builds it: key_padding = arange(N) < lengths[:, None], then
// the extended mask (1 - key_padding.to(f32)) * finfo(f32).min as a
// [B, 1, 1, N] bias. The bias is 0 inside each sequence and the lowest f32
// past it, so it is exactly kv_lengths (with a length-0 sequence averaging
// V, as the frontend does).
// Raised: one fa.attention with kv_lengths and no mask.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 384 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @forward
// RAISED: %[[LEN:.*]] = linalg.generic
// RAISED: arith.maxsi
// RAISED: arith.minsi
// RAISED: arith.trunci
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} kv_lengths(%[[LEN]] : tensor<3xi32>) scale = 1.250000e-01 :
// RAISED-NOT: math.exp
// RAISED: return

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#vec = affine_map<(d0) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#qk_q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#qk_k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#qk_s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#pv_p = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#pv_v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#pv_o = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>

func.func @forward(%q: tensor<3x2x8x16xf32>, %k: tensor<3x2x8x16xf32>, %v: tensor<3x2x8x8xf32>,
                   %lengths: tensor<3xi64>) -> tensor<3x2x8x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant -3.40282347E+38 : f32
  %cst_3 = arith.constant 8.000000e+00 : f32
  %c0_i64 = arith.constant 0 : i64
  // key_padding = arange(N)[None, :] < lengths[:, None]
  %ar0 = tensor.empty() : tensor<8xi64>
  %arange = linalg.generic {indexing_maps = [#vec], iterator_types = ["parallel"]} outs(%ar0 : tensor<8xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    linalg.yield %ii : i64
  } -> tensor<8xi64>
  %lt0 = tensor.empty() : tensor<3x8xi1>
  %keep = linalg.generic {indexing_maps = [#col, #row, #map3], iterator_types = ["parallel", "parallel"]} ins(%arange, %lengths : tensor<8xi64>, tensor<3xi64>) outs(%lt0 : tensor<3x8xi1>) {
  ^bb0(%j: i64, %len: i64, %out: i1):
    %c = arith.cmpi slt, %j, %len : i64
    linalg.yield %c : i1
  } -> tensor<3x8xi1>
  // extended_attention_mask = (1.0 - key_padding.to(f32)) * finfo(f32).min, as [B, 1, 1, N]
  %0 = tensor.empty() : tensor<3x8xf32>
  %1 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%keep : tensor<3x8xi1>) outs(%0 : tensor<3x8xf32>) {
  ^bb0(%in: i1, %out: f32):
    %40 = arith.uitofp %in : i1 to f32
    linalg.yield %40 : f32
  } -> tensor<3x8xf32>
  %2 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<3x8xf32>) outs(%0 : tensor<3x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %40 = arith.subf %cst_1, %in : f32
    %41 = arith.mulf %40, %cst_2 : f32
    linalg.yield %41 : f32
  } -> tensor<3x8xf32>
  %expanded = tensor.expand_shape %2 [[0], [1, 2, 3]] output_shape [3, 1, 1, 8] : tensor<3x8xf32> into tensor<3x1x1x8xf32>
  // scores = q @ k.transpose(-1, -2) / 8.0 + extended_attention_mask
  %3 = tensor.empty() : tensor<3x2x8x8xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<3x2x8x8xf32>) -> tensor<3x2x8x8xf32>
  %5 = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<3x2x8x16xf32>, tensor<3x2x8x16xf32>) outs(%4 : tensor<3x2x8x8xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %40 = arith.mulf %in, %in_4 : f32
    %41 = arith.addf %out, %40 : f32
    linalg.yield %41 : f32
  } -> tensor<3x2x8x8xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<3x2x8x8xf32>) outs(%3 : tensor<3x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %40 = arith.divf %in, %cst_3 : f32
    linalg.yield %40 : f32
  } -> tensor<3x2x8x8xf32>
  %7 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %expanded : tensor<3x2x8x8xf32>, tensor<3x1x1x8xf32>) outs(%3 : tensor<3x2x8x8xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %40 = arith.addf %in, %in_4 : f32
    linalg.yield %40 : f32
  } -> tensor<3x2x8x8xf32>
  // softmax(dim=-1): max.dim with its unused argmax
  %8 = tensor.empty() : tensor<3x2x8xi64>
  %9 = linalg.fill ins(%c0_i64 : i64) outs(%8 : tensor<3x2x8xi64>) -> tensor<3x2x8xi64>
  %10 = tensor.empty() : tensor<3x2x8xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<3x2x8xf32>) -> tensor<3x2x8xf32>
  %12:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%7 : tensor<3x2x8x8xf32>) outs(%11, %9 : tensor<3x2x8xf32>, tensor<3x2x8xi64>) {
  ^bb0(%in: f32, %out: f32, %out_4: i64):
    %40 = linalg.index 3 : index
    %41 = arith.index_cast %40 : index to i64
    %42 = arith.maximumf %in, %out : f32
    %43 = arith.cmpf ogt, %in, %out : f32
    %44 = arith.select %43, %41, %out_4 : i64
    linalg.yield %42, %44 : f32, i64
  } -> (tensor<3x2x8xf32>, tensor<3x2x8xi64>)
  %expanded_5 = tensor.expand_shape %12#0 [[0], [1], [2, 3]] output_shape [3, 2, 8, 1] : tensor<3x2x8xf32> into tensor<3x2x8x1xf32>
  %13 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_5 : tensor<3x2x8x8xf32>, tensor<3x2x8x1xf32>) outs(%3 : tensor<3x2x8x8xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %40 = arith.subf %in, %in_4 : f32
    linalg.yield %40 : f32
  } -> tensor<3x2x8x8xf32>
  %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<3x2x8x8xf32>) outs(%3 : tensor<3x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %40 = math.exp %in : f32
    linalg.yield %40 : f32
  } -> tensor<3x2x8x8xf32>
  %15 = tensor.empty() : tensor<3x2x8x1xf32>
  %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<3x2x8x1xf32>) -> tensor<3x2x8x1xf32>
  %17 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%14 : tensor<3x2x8x8xf32>) outs(%16 : tensor<3x2x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %40 = arith.addf %in, %out : f32
    linalg.yield %40 : f32
  } -> tensor<3x2x8x1xf32>
  %18 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %17 : tensor<3x2x8x8xf32>, tensor<3x2x8x1xf32>) outs(%3 : tensor<3x2x8x8xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %40 = arith.extf %in : f32 to f64
    %41 = arith.extf %in_4 : f32 to f64
    %42 = arith.divf %40, %41 : f64
    %43 = arith.truncf %42 : f64 to f32
    linalg.yield %43 : f32
  } -> tensor<3x2x8x8xf32>
  // context = probs @ v
  %19 = tensor.empty() : tensor<3x2x8x8xf32>
  %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<3x2x8x8xf32>) -> tensor<3x2x8x8xf32>
  %21 = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%18, %v : tensor<3x2x8x8xf32>, tensor<3x2x8x8xf32>) outs(%20 : tensor<3x2x8x8xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %40 = arith.mulf %in, %in_4 : f32
    %41 = arith.addf %out, %40 : f32
    linalg.yield %41 : f32
  } -> tensor<3x2x8x8xf32>
  return %21 : tensor<3x2x8x8xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c3, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c3, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c3, %c2, %c8, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<3x2x8x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<3x2x8x16xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<3x2x8x8xf32>
  %lengths = arith.constant dense<[8, 3, 0]> : tensor<3xi64>
  %o = call @forward(%q, %k, %v, %lengths) : (tensor<3x2x8x16xf32>, tensor<3x2x8x16xf32>, tensor<3x2x8x8xf32>, tensor<3xi64>) -> tensor<3x2x8x8xf32>
  %u = tensor.cast %o : tensor<3x2x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
