// Mixed element types that no widening makes one: Q and K in f16 (widened
// to f32 for the scores), V in bf16. f16 does not widen exactly to bf16 nor
// bf16 to f16, so the block is left alone (raise-mixed-element-types.mlir
// in Integration has the positives).
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s
// CHECK: remark: attention not raised: Q, K and V have different element types, and V's bf16 does not widen exactly to Q's and K's f16
// CHECK-LABEL: func.func @bf16_values
// CHECK-NOT: fa.attention

#qk_q = affine_map<(b, i, j, d) -> (b, i, d)>
#qk_k = affine_map<(b, i, j, d) -> (b, j, d)>
#qk_s = affine_map<(b, i, j, d) -> (b, i, j)>

func.func private @softmax(%s: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %e = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %p : tensor<2x8x8xf32>
}

func.func @bf16_values(%q: tensor<2x8x16xf16>, %k: tensor<2x8x16xf16>, %v: tensor<2x8x16xbf16>) -> tensor<2x8x16xbf16> {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : bf16
  %q32 = arith.extf %q : tensor<2x8x16xf16> to tensor<2x8x16xf32>
  %k32 = arith.extf %k : tensor<2x8x16xf16> to tensor<2x8x16xf32>
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q32, %k32 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%z : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %p = func.call @softmax(%s) : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p16 = arith.truncf %p : tensor<2x8x8xf32> to tensor<2x8x8xbf16>
  %eo = tensor.empty() : tensor<2x8x16xbf16>
  %zo = linalg.fill ins(%zero16 : bf16) outs(%eo : tensor<2x8x16xbf16>) -> tensor<2x8x16xbf16>
  %o = linalg.batch_matmul ins(%p16, %v : tensor<2x8x8xbf16>, tensor<2x8x16xbf16>) outs(%zo : tensor<2x8x16xbf16>) -> tensor<2x8x16xbf16>
  return %o : tensor<2x8x16xbf16>
}
