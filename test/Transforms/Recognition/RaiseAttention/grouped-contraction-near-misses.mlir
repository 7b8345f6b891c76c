// Near misses of the grouped GQA contraction (JAX's `BTKGH,BSKH->BKGTS`),
// one edit each: each computes something fa.attention does not, so it stays
// as written, with its remark. test/Integration/raise-grouped-contraction.mlir
// runs the positive spellings.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// RUN: fa-opt %s -split-input-file > %t.before
// RUN: fa-opt %s -split-input-file --fa-raise-attention > %t.after
// RUN: diff %t.before %t.after
// CHECK-NOT: fa.attention

#q = affine_map<(b, k, g, t, s, h) -> (b, t, k, g, h)>
#kk = affine_map<(b, k, g, t, s, h) -> (b, s, k, h)>
#sc = affine_map<(b, k, g, t, s, h) -> (b, k, g, t, s)>
#red6 = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]

// P·V also sums over the group: one output row per K/V head, not per query
// head.
func.func @group_contracted_in_pv(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%q, %k : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%z : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  // expected-remark @+1 {{attention not raised: P·V contracts 2 dims; attention contracts the key dim alone}}
  %p = linalg.softmax dimension(4) ins(%s : tensor<1x2x3x8x8xf32>) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %eo = tensor.empty() : tensor<1x8x2x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, t, k, h, g, s) -> (b, k, g, t, s)>, affine_map<(b, t, k, h, g, s) -> (b, s, k, h)>, affine_map<(b, t, k, h, g, s) -> (b, t, k, h)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%p, %v : tensor<1x2x3x8x8xf32>, tensor<1x8x2x4xf32>) outs(%zo : tensor<1x8x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x4xf32>
  return %o : tensor<1x8x2x4xf32>
}

// -----

#q = affine_map<(b, k, g, t, s, h) -> (b, t, k, g, h)>
#kk = affine_map<(b, k, g, t, s, h) -> (b, s, k, h)>
#sc = affine_map<(b, k, g, t, s, h) -> (b, k, g, t, s)>
#red6 = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]

// V is read per group member, K per K/V head: the two matmuls group the
// query heads differently.
func.func @value_read_by_group(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x3x4xf32>) -> tensor<1x8x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%q, %k : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%z : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  // expected-remark @+1 {{attention not raised: K is read as [batch0, Nk, G, D], which is not an order of [batch0, batch1, Nk, D]}}
  %p = linalg.softmax dimension(4) ins(%s : tensor<1x2x3x8x8xf32>) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %eo = tensor.empty() : tensor<1x8x2x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x3x4xf32>) -> tensor<1x8x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, t, k, g, h, s) -> (b, k, g, t, s)>, affine_map<(b, t, k, g, h, s) -> (b, s, g, h)>, affine_map<(b, t, k, g, h, s) -> (b, t, k, g, h)>], iterator_types = #red6} ins(%p, %v : tensor<1x2x3x8x8xf32>, tensor<1x8x3x4xf32>) outs(%zo : tensor<1x8x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x3x4xf32>
  return %o : tensor<1x8x2x3x4xf32>
}

// -----

// Two query axes and no K/V head at all: nothing to group the second under.
func.func @two_query_axes_no_heads(%q: tensor<8x3x4xf32>, %k: tensor<8x4xf32>, %v: tensor<8x4xf32>) -> tensor<8x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x8x8xf32>) -> tensor<3x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(g, t, s, h) -> (t, g, h)>, affine_map<(g, t, s, h) -> (s, h)>, affine_map<(g, t, s, h) -> (g, t, s)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<8x3x4xf32>, tensor<8x4xf32>) outs(%z : tensor<3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x8x8xf32>
  // expected-remark @+1 {{attention not raised: P·V has two query dims and no K/V head dim for the second to group under}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<3x8x8xf32>) outs(%e : tensor<3x8x8xf32>) -> tensor<3x8x8xf32>
  %eo = tensor.empty() : tensor<8x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x3x4xf32>) -> tensor<8x3x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(t, g, h, s) -> (g, t, s)>, affine_map<(t, g, h, s) -> (s, h)>, affine_map<(t, g, h, s) -> (t, g, h)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<3x8x8xf32>, tensor<8x4xf32>) outs(%zo : tensor<8x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<8x3x4xf32>
  return %o : tensor<8x3x4xf32>
}
