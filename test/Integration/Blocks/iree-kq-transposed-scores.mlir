// Scores computed as (K·Qᵀ)ᵀ, as an IREE input from a TFLite graph whose
// attention multiplies keys by queries and transposes the product (a
// layout choice of its matmul kernel): batch_matmul(K, Qᵀ) -> [B, Nk, Nq],
// linalg.transpose -> [B, Nq, Nk]. The key-padding mask arrives as
// [B, Nk, 1] f32 bias and is read through the same transpose as the
// scores; the scale is a multiply on the transposed scores.
// Raised: the bias is transposed to the op's [B, H, Nq, Nk] order.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 192 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @serving_default
// RAISED: %[[MT:.*]] = linalg.transpose ins(%arg3 : tensor<2x12x12xf32>) {{.*}} permutation = [0, 2, 1]
// RAISED: %[[M4:.*]] = tensor.expand_shape %[[MT]]
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%[[M4]] : tensor<1x2x12x12xf32>) scale = 5.000000e-01 :
// RAISED-NOT: math.exp
// RAISED: return

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#bias = affine_map<(d0, d1, d2) -> (d0, d2, d1)>

func.func @serving_default(%q: tensor<2x12x8xf32>, %k: tensor<2x12x8xf32>, %v: tensor<2x12x8xf32>, %pad: tensor<2x12x12xf32>) -> tensor<2x12x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %cst_1 = arith.constant 5.000000e-01 : f32
  %0 = tensor.empty() : tensor<2x8x12xf32>
  %qt = linalg.transpose ins(%q : tensor<2x12x8xf32>) outs(%0 : tensor<2x8x12xf32>) permutation = [0, 2, 1]
  %1 = tensor.empty() : tensor<2x12x12xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %kq = linalg.batch_matmul ins(%k, %qt : tensor<2x12x8xf32>, tensor<2x8x12xf32>) outs(%2 : tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %s = linalg.transpose ins(%kq : tensor<2x12x12xf32>) outs(%1 : tensor<2x12x12xf32>) permutation = [0, 2, 1]
  %3 = linalg.generic {indexing_maps = [#id3, #bias, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %pad : tensor<2x12x12xf32>, tensor<2x12x12xf32>) outs(%1 : tensor<2x12x12xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %10 = arith.mulf %in, %cst_1 : f32
    %11 = arith.addf %10, %b : f32
    linalg.yield %11 : f32
  } -> tensor<2x12x12xf32>
  %4 = tensor.empty() : tensor<2x12xf32>
  %5 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<2x12xf32>) -> tensor<2x12xf32>
  %6 = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3 : tensor<2x12x12xf32>) outs(%5 : tensor<2x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %10 = arith.maximumf %in, %out : f32
    linalg.yield %10 : f32
  } -> tensor<2x12xf32>
  %7 = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %6 : tensor<2x12x12xf32>, tensor<2x12xf32>) outs(%1 : tensor<2x12x12xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %10 = arith.subf %in, %m : f32
    %11 = math.exp %10 : f32
    linalg.yield %11 : f32
  } -> tensor<2x12x12xf32>
  %8 = linalg.fill ins(%cst : f32) outs(%4 : tensor<2x12xf32>) -> tensor<2x12xf32>
  %9 = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<2x12x12xf32>) outs(%8 : tensor<2x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %10 = arith.addf %in, %out : f32
    linalg.yield %10 : f32
  } -> tensor<2x12xf32>
  %10 = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %9 : tensor<2x12x12xf32>, tensor<2x12xf32>) outs(%1 : tensor<2x12x12xf32>) {
  ^bb0(%in: f32, %l: f32, %out: f32):
    %11 = arith.divf %in, %l : f32
    linalg.yield %11 : f32
  } -> tensor<2x12x12xf32>
  %11 = tensor.empty() : tensor<2x12x8xf32>
  %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<2x12x8xf32>) -> tensor<2x12x8xf32>
  %13 = linalg.batch_matmul ins(%10, %v : tensor<2x12x12xf32>, tensor<2x12x8xf32>) outs(%12 : tensor<2x12x8xf32>) -> tensor<2x12x8xf32>
  return %13 : tensor<2x12x8xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %q0 = call @input3(%s1, %c2, %c12, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c2, %c12, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c2, %c12, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %p0 = call @input3(%s4, %c2, %c12, %c12) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x12x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x12x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x12x8xf32>
  %p = tensor.cast %p0 : tensor<?x?x?xf32> to tensor<2x12x12xf32>
  %o = call @serving_default(%q, %k, %v, %p) : (tensor<2x12x8xf32>, tensor<2x12x8xf32>, tensor<2x12x8xf32>, tensor<2x12x12xf32>) -> tensor<2x12x8xf32>
  %u = tensor.cast %o : tensor<2x12x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
