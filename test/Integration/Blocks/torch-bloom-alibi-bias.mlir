// A BLOOM-style attention with ALiBi through torch-mlir: the bias is
// computed in the function from an iota of key positions times a per-head
// slope (slopes[h] * j, `build_alibi_tensor`), as [H, 1, Nk], and added to
// the scaled scores with baddbmm's beta = 1; the scores are
// batch_matmul(Q, Kᵀ) * (1/sqrt(d)) with the scale a full-shape splat
// constant input of the scaling generic. Raised: the op takes the computed
// bias as its additive mask, [1, H, 1, Nk].
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 320 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @bloom_attention
// RAISED: %[[ALIBI:.*]] = linalg.generic
// RAISED: linalg.index 2
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x4x1x10xf32>) scale = 0.35355338454246521 :
// RAISED-NOT: math.exp
// RAISED: return

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#slope = affine_map<(d0, d1, d2) -> (d0)>
#alibi = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

func.func @bloom_attention(%q: tensor<4x10x8xf32>, %k: tensor<4x10x8xf32>, %v: tensor<4x10x8xf32>) -> tensor<4x10x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %inv_norm = arith.constant dense<0.353553385> : tensor<4x10x10xf32>
  %slopes = arith.constant dense<[0.25, 0.0625, 0.015625, 0.00390625]> : tensor<4xf32>
  // alibi = slopes[:, None] * arange(Nk)[None, :], as [H, 1, Nk]
  %0 = tensor.empty() : tensor<4x1x10xf32>
  %alibi = linalg.generic {indexing_maps = [#slope, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes : tensor<4xf32>) outs(%0 : tensor<4x1x10xf32>) {
  ^bb0(%s: f32, %out: f32):
    %j = linalg.index 2 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %b = arith.mulf %s, %jf : f32
    linalg.yield %b : f32
  } -> tensor<4x1x10xf32>
  %1 = tensor.empty() : tensor<4x8x10xf32>
  %kt = linalg.transpose ins(%k : tensor<4x10x8xf32>) outs(%1 : tensor<4x8x10xf32>) permutation = [0, 2, 1]
  %2 = tensor.empty() : tensor<4x10x10xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4x10x10xf32>) -> tensor<4x10x10xf32>
  %4 = linalg.batch_matmul ins(%q, %kt : tensor<4x10x8xf32>, tensor<4x8x10xf32>) outs(%3 : tensor<4x10x10xf32>) -> tensor<4x10x10xf32>
  // baddbmm(alibi, q, kᵀ, beta=1, alpha=inv_norm)
  %5 = linalg.generic {indexing_maps = [#id3, #id3, #alibi, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %inv_norm, %alibi : tensor<4x10x10xf32>, tensor<4x10x10xf32>, tensor<4x1x10xf32>) outs(%2 : tensor<4x10x10xf32>) {
  ^bb0(%s: f32, %a: f32, %b: f32, %out: f32):
    %m = arith.mulf %s, %a : f32
    %r = arith.addf %m, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x10x10xf32>
  %6 = linalg.softmax dimension(2) ins(%5 : tensor<4x10x10xf32>) outs(%2 : tensor<4x10x10xf32>) -> tensor<4x10x10xf32>
  %7 = tensor.empty() : tensor<4x10x8xf32>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<4x10x8xf32>) -> tensor<4x10x8xf32>
  %9 = linalg.batch_matmul ins(%6, %v : tensor<4x10x10xf32>, tensor<4x10x8xf32>) outs(%8 : tensor<4x10x8xf32>) -> tensor<4x10x8xf32>
  return %9 : tensor<4x10x8xf32>
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input3(%s1, %c4, %c10, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c4, %c10, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c4, %c10, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<4x10x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<4x10x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<4x10x8xf32>
  %o = call @bloom_attention(%q, %k, %v) : (tensor<4x10x8xf32>, tensor<4x10x8xf32>, tensor<4x10x8xf32>) -> tensor<4x10x8xf32>
  %u = tensor.cast %o : tensor<4x10x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
