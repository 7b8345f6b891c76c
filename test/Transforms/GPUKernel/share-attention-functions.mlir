// Attentions with one signature (types and every attribute) call one
// private function; an attention that differs in any of them, or occurs
// once, stays in place.
// RUN: fa-opt %s --fa-share-attention-functions | FileCheck %s

// CHECK-LABEL: func.func @layers
// CHECK: %[[O0:.*]] = call @__fa_attention_0(%arg0, %arg1, %arg2)
// CHECK: %[[O1:.*]] = call @__fa_attention_0(%[[O0]], %arg1, %arg2)
// Another scale: its own computation, used once.
// CHECK: %[[S:.*]] = fa.attention %[[O1]], %arg1, %arg2 scale = 2.500000e-01
// Another causal alignment.
// CHECK: %[[C:.*]] = fa.attention %[[S]], %arg1, %arg2 scale = 1.250000e-01 causal = top_left
// CHECK: %[[O2:.*]] = call @__fa_attention_0(%[[C]], %arg1, %arg2)
// CHECK: return %[[O2]]
// CHECK-LABEL: func.func @other_function
// CHECK: call @__fa_attention_0(%arg0, %arg1, %arg2)
// CHECK-LABEL: func.func private @__fa_attention_0(
// CHECK-SAME: %[[Q:.*]]: tensor<1x2x64x16xf32>, %[[K:.*]]: tensor<1x2x64x16xf32>, %[[V:.*]]: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32>
// CHECK: %[[O:.*]] = fa.attention %[[Q]], %[[K]], %[[V]] scale = 1.250000e-01 causal = bottom_right
// CHECK: return %[[O]]
// CHECK-NOT: func.func private
func.func @layers(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o0 = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  %o1 = fa.attention %o0, %k, %v scale = 0.125 causal = bottom_right : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  %s = fa.attention %o1, %k, %v scale = 0.25 causal = bottom_right : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  %c = fa.attention %s, %k, %v scale = 0.125 causal = top_left : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  %o2 = fa.attention %c, %k, %v scale = 0.125 causal = bottom_right : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o2 : tensor<1x2x64x16xf32>
}

func.func @other_function(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}
