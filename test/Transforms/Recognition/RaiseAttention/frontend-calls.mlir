// Helpers a frontend keeps as functions (JAX export keeps jitted `softmax`,
// `_where` and `einsum` as private functions): fa-raise-attention inlines
// the calls to private helpers with a body in the functions that compute an
// exponential, then matches; helpers left without a caller are erased. A
// public helper is never inlined (another module may call it): the call
// gets the remark. A module without an exponential keeps its calls.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// RUN: fa-opt %s -split-input-file '--fa-raise-attention=inline-helpers=false explain=true' 2>&1 | FileCheck %s --check-prefix=KEPT
// KEPT: remark: attention not raised: its exponential is computed in @softmax, behind a call
// KEPT-NOT: fa.attention

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// CHECK-LABEL: func.func @attention
// CHECK-NOT: call
// CHECK: fa.attention {{.*}} scale = 2.500000e-01 : tensor<1x2x8x16xf32>
// CHECK-NOT: call
// CHECK-NOT: func.func private
func.func private @softmax(%s: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %e3 = tensor.empty() : tensor<2x8x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e3 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e3 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  return %p : tensor<2x8x8xf32>
}
// The contraction behind a call too, and a helper calling a helper (the
// scale), inlined in a second round.
func.func private @scaled(%s: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %r = func.call @times_quarter(%s) : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %r : tensor<2x8x8xf32>
}
func.func private @times_quarter(%s: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %c = arith.constant 0.25 : f32
  %e3 = tensor.empty() : tensor<2x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%e3 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.mulf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  return %r : tensor<2x8x8xf32>
}
func.func private @einsum_bid_bdj(%a: tensor<2x8x16xf32>, %b: tensor<2x16x8xf32>) -> tensor<2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%a, %b : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %s : tensor<2x8x8xf32>
}
func.func @attention(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %s = func.call @einsum_bid_bdj(%q, %k) : (tensor<2x8x16xf32>, tensor<2x16x8xf32>) -> tensor<2x8x8xf32>
  %ss = func.call @scaled(%s) : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p = func.call @softmax(%ss) : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// A public softmax: the call stays, and it is named.
// CHECK-LABEL: func.func @softmax
// CHECK-LABEL: func.func @public_helper
// CHECK: call @softmax
// CHECK-NOT: fa.attention
#id = affine_map<(b, i, j) -> (b, i, j)>
func.func @softmax(%s: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %e3 = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%e3 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %p : tensor<2x8x8xf32>
}
func.func @public_helper(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: its exponential is computed in @softmax, behind a call fa-raise-attention does not inline (it inlines private functions of one block, with inline-helpers=true; inline it first: --inline)}}
  %p = func.call @softmax(%s) : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// No exponential: the private helper's call stays where it is.
// CHECK-LABEL: func.func private @double
// CHECK-LABEL: func.func @no_attention
// CHECK: call @double
func.func private @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %x, %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @no_attention(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @double(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
