// A joint forward + backward graph of JAX's grouped GQA (its autodiff of
// jax.nn.dot_product_attention's XLA path, which vmaps the core over the
// group): K and V are never repeated, and every contraction carries the
// group axis. dV = einsum('BKGTS,BTKGH->BSKH', P, dO) and dK = einsum(
// 'BKGTS,BTKGH->BSKH', dS, Q) sum over the query and the group at once:
// the K/V head's gradient is its group's, which fa.attention_backward's
// GQA computes. dQ and dO carry the group axis like Q and O.
// - @grouped: no mask;
// - @grouped_causal_in_body: a causal comparison in the select's body and
//   in masked_fill's backward select.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 1024 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @grouped
// RAISED: fa.attention {{.*}} : tensor<1x6x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
// RAISED: fa.attention_backward {{.*}} : tensor<1x6x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x6x8x4xf32>, tensor<1x6x8x4xf32>, tensor<1x6x8xf32> -> tensor<1x6x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
// RAISED-NOT: math.exp
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @grouped_causal_in_body
// RAISED: fa.attention {{.*}} causal =
// RAISED: fa.attention_backward {{.*}} causal =
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @wave

#q = affine_map<(b, k, g, t, s, h) -> (b, t, k, g, h)>
#kk = affine_map<(b, k, g, t, s, h) -> (b, s, k, h)>
#sc = affine_map<(b, k, g, t, s, h) -> (b, k, g, t, s)>
#p = affine_map<(b, t, k, g, h, s) -> (b, k, g, t, s)>
#v = affine_map<(b, t, k, g, h, s) -> (b, s, k, h)>
#o = affine_map<(b, t, k, g, h, s) -> (b, t, k, g, h)>
// dV and dK: loops (b, s, k, e, g, t), reductions g and t.
#kg_p = affine_map<(b, s, k, e, g, t) -> (b, k, g, t, s)>
#kg_x = affine_map<(b, s, k, e, g, t) -> (b, t, k, g, e)>
#kg_o = affine_map<(b, s, k, e, g, t) -> (b, s, k, e)>
#id5 = affine_map<(b, k, g, t, s) -> (b, k, g, t, s)>
#row = affine_map<(b, k, g, t, s) -> (b, k, g, t)>
#red6 = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]
#red6x2 = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
#par5 = ["parallel", "parallel", "parallel", "parallel", "parallel"]
#red5 = ["parallel", "parallel", "parallel", "parallel", "reduction"]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @grouped(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>, %do: tensor<1x8x2x3x4xf32>)
    -> (tensor<1x8x2x3x4xf32>, tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %es = tensor.empty() : tensor<1x2x3x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %s0 = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%q, %k : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%zs : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = #par5} ins(%s0 : tensor<1x2x3x8x8xf32>) outs(%es : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %y = arith.mulf %a, %half : f32
    linalg.yield %y : f32
  } -> tensor<1x2x3x8x8xf32>
  %p = linalg.softmax dimension(4) ins(%s : tensor<1x2x3x8x8xf32>) outs(%es : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %eo = tensor.empty() : tensor<1x8x2x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x3x4xf32>) -> tensor<1x8x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = #red6} ins(%p, %v : tensor<1x2x3x8x8xf32>, tensor<1x8x2x4xf32>) outs(%zo : tensor<1x8x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x3x4xf32>
  // dV = einsum('BKGTS,BTKGH->BSKH', P, dO)
  %ek = tensor.empty() : tensor<1x8x2x4xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>
  %dv = linalg.generic {indexing_maps = [#kg_p, #kg_x, #kg_o], iterator_types = #red6x2} ins(%p, %do : tensor<1x2x3x8x8xf32>, tensor<1x8x2x3x4xf32>) outs(%zk : tensor<1x8x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x4xf32>
  // dP = einsum('BTKGH,BSKH->BKGTS', dO, V)
  %dp = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%do, %v : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%zs : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  // dS = P * (dP - rowsum(dP * P)), times the scale
  %er = tensor.empty() : tensor<1x2x3x8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
  %rs = linalg.generic {indexing_maps = [#id5, #id5, #row], iterator_types = #red5} ins(%dp, %p : tensor<1x2x3x8x8xf32>, tensor<1x2x3x8x8xf32>) outs(%zr : tensor<1x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8xf32>
  %ds = linalg.generic {indexing_maps = [#id5, #id5, #row, #id5], iterator_types = #par5} ins(%p, %dp, %rs : tensor<1x2x3x8x8xf32>, tensor<1x2x3x8x8xf32>, tensor<1x2x3x8xf32>) outs(%es : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %d = arith.subf %b, %c : f32
    %m = arith.mulf %a, %d : f32
    %y = arith.mulf %m, %half : f32
    linalg.yield %y : f32
  } -> tensor<1x2x3x8x8xf32>
  // dQ = einsum('BKGTS,BSKH->BTKGH', dS, K)
  %dq = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = #red6} ins(%ds, %k : tensor<1x2x3x8x8xf32>, tensor<1x8x2x4xf32>) outs(%zo : tensor<1x8x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x3x4xf32>
  // dK = einsum('BKGTS,BTKGH->BSKH', dS, Q)
  %dk = linalg.generic {indexing_maps = [#kg_p, #kg_x, #kg_o], iterator_types = #red6x2} ins(%ds, %q : tensor<1x2x3x8x8xf32>, tensor<1x8x2x3x4xf32>) outs(%zk : tensor<1x8x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x4xf32>
  return %o, %dq, %dk, %dv : tensor<1x8x2x3x4xf32>, tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>
}
func.func @grouped_causal_in_body(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>, %do: tensor<1x8x2x3x4xf32>)
    -> (tensor<1x8x2x3x4xf32>, tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %es = tensor.empty() : tensor<1x2x3x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %s0 = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%q, %k : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%zs : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = #par5} ins(%s0 : tensor<1x2x3x8x8xf32>) outs(%es : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 3 : index
    %j = linalg.index 4 : index
    %c = arith.cmpi ule, %j, %i : index
    %y0 = arith.mulf %a, %half : f32
    %y = arith.select %c, %y0, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<1x2x3x8x8xf32>
  %p = linalg.softmax dimension(4) ins(%s : tensor<1x2x3x8x8xf32>) outs(%es : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %eo = tensor.empty() : tensor<1x8x2x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x3x4xf32>) -> tensor<1x8x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = #red6} ins(%p, %v : tensor<1x2x3x8x8xf32>, tensor<1x8x2x4xf32>) outs(%zo : tensor<1x8x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x3x4xf32>
  // dV = einsum('BKGTS,BTKGH->BSKH', P, dO)
  %ek = tensor.empty() : tensor<1x8x2x4xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>
  %dv = linalg.generic {indexing_maps = [#kg_p, #kg_x, #kg_o], iterator_types = #red6x2} ins(%p, %do : tensor<1x2x3x8x8xf32>, tensor<1x8x2x3x4xf32>) outs(%zk : tensor<1x8x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x4xf32>
  // dP = einsum('BTKGH,BSKH->BKGTS', dO, V)
  %dp = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%do, %v : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%zs : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  // dS = P * (dP - rowsum(dP * P)), times the scale
  %er = tensor.empty() : tensor<1x2x3x8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
  %rs = linalg.generic {indexing_maps = [#id5, #id5, #row], iterator_types = #red5} ins(%dp, %p : tensor<1x2x3x8x8xf32>, tensor<1x2x3x8x8xf32>) outs(%zr : tensor<1x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8xf32>
  %ds = linalg.generic {indexing_maps = [#id5, #id5, #row, #id5], iterator_types = #par5} ins(%p, %dp, %rs : tensor<1x2x3x8x8xf32>, tensor<1x2x3x8x8xf32>, tensor<1x2x3x8xf32>) outs(%es : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %d = arith.subf %b, %c : f32
    %m = arith.mulf %a, %d : f32
    %i = linalg.index 3 : index
    %j = linalg.index 4 : index
    %kept = arith.cmpi ule, %j, %i : index
    %y0 = arith.mulf %m, %half : f32
    %y = arith.select %kept, %y0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<1x2x3x8x8xf32>
  // dQ = einsum('BKGTS,BSKH->BTKGH', dS, K)
  %dq = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = #red6} ins(%ds, %k : tensor<1x2x3x8x8xf32>, tensor<1x8x2x4xf32>) outs(%zo : tensor<1x8x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x3x4xf32>
  // dK = einsum('BKGTS,BTKGH->BSKH', dS, Q)
  %dk = linalg.generic {indexing_maps = [#kg_p, #kg_x, #kg_o], iterator_types = #red6x2} ins(%ds, %q : tensor<1x2x3x8x8xf32>, tensor<1x8x2x3x4xf32>) outs(%zk : tensor<1x8x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x4xf32>
  return %o, %dq, %dk, %dv : tensor<1x8x2x3x4xf32>, tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>
}

// Deterministic inputs: sin(0.7 * (linear index) + seed).
func.func @wave(%seed: f32, %linear: index) -> f32 {
  %i = arith.index_cast %linear : index to i64
  %f = arith.sitofp %i : i64 to f32
  %k = arith.constant 0.7 : f32
  %x = arith.mulf %f, %k : f32
  %y = arith.addf %x, %seed : f32
  %z = math.sin %y : f32
  return %z : f32
}

func.func @query(%seed: f32) -> tensor<1x8x2x3x4xf32> {
  %e = tensor.empty() : tensor<1x8x2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d, f) -> (a, b, c, d, f)>], iterator_types = #par5} outs(%e : tensor<1x8x2x3x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %d = linalg.index 3 : index
    %f = linalg.index 4 : index
    %l = affine.apply affine_map<(b, c, d, f) -> (b * 24 + c * 12 + d * 4 + f)>(%b, %c, %d, %f)
    %z = func.call @wave(%seed, %l) : (f32, index) -> f32
    linalg.yield %z : f32
  } -> tensor<1x8x2x3x4xf32>
  return %r : tensor<1x8x2x3x4xf32>
}

func.func @keys(%seed: f32) -> tensor<1x8x2x4xf32> {
  %e = tensor.empty() : tensor<1x8x2x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x8x2x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %d = linalg.index 3 : index
    %l = affine.apply affine_map<(b, c, d) -> (b * 8 + c * 4 + d)>(%b, %c, %d)
    %z = func.call @wave(%seed, %l) : (f32, index) -> f32
    linalg.yield %z : f32
  } -> tensor<1x8x2x4xf32>
  return %r : tensor<1x8x2x4xf32>
}

func.func @print5(%t: tensor<1x8x2x3x4xf32>) {
  %u = tensor.cast %t : tensor<1x8x2x3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print4(%t: tensor<1x8x2x4xf32>) {
  %u = tensor.cast %t : tensor<1x8x2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %q = call @query(%s1) : (f32) -> tensor<1x8x2x3x4xf32>
  %k = call @keys(%s2) : (f32) -> tensor<1x8x2x4xf32>
  %v = call @keys(%s3) : (f32) -> tensor<1x8x2x4xf32>
  %do = call @query(%s4) : (f32) -> tensor<1x8x2x3x4xf32>
  %o1, %dq1, %dk1, %dv1 = call @grouped(%q, %k, %v, %do) : (tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x3x4xf32>) -> (tensor<1x8x2x3x4xf32>, tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>)
  call @print5(%o1) : (tensor<1x8x2x3x4xf32>) -> ()
  call @print5(%dq1) : (tensor<1x8x2x3x4xf32>) -> ()
  call @print4(%dk1) : (tensor<1x8x2x4xf32>) -> ()
  call @print4(%dv1) : (tensor<1x8x2x4xf32>) -> ()
  %o2, %dq2, %dk2, %dv2 = call @grouped_causal_in_body(%q, %k, %v, %do) : (tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x3x4xf32>) -> (tensor<1x8x2x3x4xf32>, tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>)
  call @print5(%o2) : (tensor<1x8x2x3x4xf32>) -> ()
  call @print5(%dq2) : (tensor<1x8x2x3x4xf32>) -> ()
  call @print4(%dk2) : (tensor<1x8x2x4xf32>) -> ()
  call @print4(%dv2) : (tensor<1x8x2x4xf32>) -> ()
  return
}
