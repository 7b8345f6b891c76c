// The Annotated-Transformer / many Hugging Face ports via torch-mlir
// (linalg-on-tensors): scores = q @ k.T / sqrt(d_k), then
// scores.masked_fill(mask == 0, -1e9) with an i64 padding mask [B, 1, 1, N]
// compared in its own generic, softmax(dim=-1) as linalg.softmax, P @ v.
// Sequence 1 is all padding: every key is filled with -1e9, so the
// frontend averages V over all keys there, which fa.attention's mask_fill
// computes too (no fix-up).
// Raised: one fa.attention with the i1 mask and mask_fill = -1e9.
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
// RAISED-LABEL: func.func @masked_fill_padding
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<2x1x1x8xi1>) scale = 2.500000e-01 mask_fill = -1.000000e+09 :
// RAISED-NOT: linalg.softmax
// RAISED: return

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pad = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#qk_q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#qk_k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#qk_s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#pv_v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>

func.func @masked_fill_padding(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>,
                               %v: tensor<2x2x8x16xf32>, %mask: tensor<2x1x1x8xi64>)
    -> tensor<2x2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %big = arith.constant -1.000000e+09 : f32
  %c0_i64 = arith.constant 0 : i64
  // mask == 0
  %eb = tensor.empty() : tensor<2x1x1x8xi1>
  %is_pad = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mask : tensor<2x1x1x8xi64>) outs(%eb : tensor<2x1x1x8xi1>) {
  ^bb0(%m: i64, %out: i1):
    %0 = arith.cmpi eq, %m, %c0_i64 : i64
    linalg.yield %0 : i1
  } -> tensor<2x1x1x8xi1>
  %es = tensor.empty() : tensor<2x2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x8xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %0 = arith.divf %a, %four : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  %filled = linalg.generic {indexing_maps = [#pad, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%is_pad, %scaled : tensor<2x1x1x8xi1>, tensor<2x2x8x8xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%p: i1, %a: f32, %out: f32):
    %0 = arith.select %p, %big, %a : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  %probs = linalg.softmax dimension(3) ins(%filled : tensor<2x2x8x8xf32>) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %eo = tensor.empty() : tensor<2x2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [#qk_q, #pv_v, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%probs, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%zo : tensor<2x2x8x16xf32>) {
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
  // Sequence 0 has 6 tokens; sequence 1 is all padding.
  %mask = arith.constant dense<[[[[1, 1, 1, 1, 1, 1, 0, 0]]], [[[0, 0, 0, 0, 0, 0, 0, 0]]]]> : tensor<2x1x1x8xi64>
  %o = call @masked_fill_padding(%q, %k, %v, %mask) : (tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x1x1x8xi64>) -> tensor<2x2x8x16xf32>
  %u = tensor.cast %o : tensor<2x2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
