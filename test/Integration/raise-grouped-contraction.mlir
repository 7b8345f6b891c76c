// Grouped-query attention as JAX writes it (jax.nn.dot_product_attention's
// XLA path vmaps the core over the group): K and V are never repeated, and
// both contractions carry a group axis G that K and V lack,
// `BTKGH,BSKH->BKGTS` and `BKGTS,BSKH->BTKGH`. The group axis merges into
// the K/V head: query head k·G + g reads K/V head k, fa.attention's GQA.
// Raised and frontend runs agree, through the tiled path and the emulated
// sm_80 kernel.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 960 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @grouped_causal_in_body
// RAISED: tensor.collapse_shape {{.*}} {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x3x8x4xf32> into tensor<1x6x8x4xf32>
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 causal = bottom_right : tensor<1x6x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x6x8x4xf32>
// RAISED: tensor.expand_shape {{.*}} output_shape [1, 2, 3, 8, 4]
// RAISED-LABEL: func.func @grouped_finite_fill
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x1x8x8xi1>) scale = 5.000000e-01 mask_fill = -2.38197{{[0-9]*}}E+38 :
// RAISED-LABEL: func.func @grouped_bias_per_group
// The bias varies with the group only: broadcast over the K/V heads.
// RAISED: linalg.broadcast ins({{.*}} : tensor<1x3x8x8xf32>) outs({{.*}} : tensor<1x2x3x8x8xf32>) dimensions = [1]
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x6x8x8xf32>) scale = 5.000000e-01 :
// RAISED-LABEL: func.func @group_after_sequence
// P is [B, K, T, G, S]: the first reading takes T for the group and keeps
// the mask; the other reading finds it causal.
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 causal = bottom_right : tensor<1x6x8x4xf32>
// RAISED-NOT: mask(
// RAISED-LABEL: func.func @tosa_group_merged_into_rows
// TOSA has no grouped contraction: a TOSA frontend merges the group into
// the query rows ([K, G·T, D] against [K, S, D]), which is plain attention
// with G·T rows per K/V head.
// RAISED: fa.attention {{.*}} : tensor<1x2x24x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x24x4xf32>

#q = affine_map<(b, k, g, t, s, h) -> (b, t, k, g, h)>
#kk = affine_map<(b, k, g, t, s, h) -> (b, s, k, h)>
#sc = affine_map<(b, k, g, t, s, h) -> (b, k, g, t, s)>
#p = affine_map<(b, t, k, g, h, s) -> (b, k, g, t, s)>
#v = affine_map<(b, t, k, g, h, s) -> (b, s, k, h)>
#o = affine_map<(b, t, k, g, h, s) -> (b, t, k, g, h)>
#id5 = affine_map<(b, k, g, t, s) -> (b, k, g, t, s)>
#ts = affine_map<(b, k, g, t, s) -> (t, s)>
#gts = affine_map<(b, k, g, t, s) -> (g, t, s)>
#red6 = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]
#par5 = ["parallel", "parallel", "parallel", "parallel", "parallel"]

func.func private @printMemrefF32(tensor<*xf32>)

// Q·Kᵀ and P·V with the group axis; the scores are [B, K, G, T, S].
func.func @scores(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>) -> tensor<1x2x3x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%q, %k : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%z : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  return %s : tensor<1x2x3x8x8xf32>
}

func.func @grouped_causal_in_body(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>) -> tensor<1x8x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x3x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%q, %k : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%z : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = #par5} ins(%s : tensor<1x2x3x8x8xf32>) outs(%e : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 3 : index
    %j = linalg.index 4 : index
    %c = arith.cmpi ule, %j, %i : index
    %half = arith.constant 0.5 : f32
    %y0 = arith.mulf %a, %half : f32
    %y = arith.select %c, %y0, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<1x2x3x8x8xf32>
  %p = linalg.softmax dimension(4) ins(%x : tensor<1x2x3x8x8xf32>) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %eo = tensor.empty() : tensor<1x8x2x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x3x4xf32>) -> tensor<1x8x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = #red6} ins(%p, %v : tensor<1x2x3x8x8xf32>, tensor<1x8x2x4xf32>) outs(%zo : tensor<1x8x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x3x4xf32>
  return %o : tensor<1x8x2x3x4xf32>
}

// JAX's XLA path: a [T, S] mask, broadcast over batch, heads and group,
// filled with -0.7 · max(f32).
func.func @grouped_finite_fill(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>, %mask: tensor<8x8xi1>) -> tensor<1x8x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %fill = arith.constant -2.38197633e+38 : f32
  %e = tensor.empty() : tensor<1x2x3x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%q, %k : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%z : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id5, #ts, #id5], iterator_types = #par5} ins(%s, %mask : tensor<1x2x3x8x8xf32>, tensor<8x8xi1>) outs(%e : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %half = arith.constant 0.5 : f32
    %y0 = arith.mulf %a, %half : f32
    %y = arith.select %m, %y0, %fill : f32
    linalg.yield %y : f32
  } -> tensor<1x2x3x8x8xf32>
  %p = linalg.softmax dimension(4) ins(%x : tensor<1x2x3x8x8xf32>) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %eo = tensor.empty() : tensor<1x8x2x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x3x4xf32>) -> tensor<1x8x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = #red6} ins(%p, %v : tensor<1x2x3x8x8xf32>, tensor<1x8x2x4xf32>) outs(%zo : tensor<1x8x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x3x4xf32>
  return %o : tensor<1x8x2x3x4xf32>
}

// A bias per query head of a group, shared by every K/V head.
func.func @grouped_bias_per_group(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>, %bias: tensor<3x8x8xf32>) -> tensor<1x8x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q, #kk, #sc], iterator_types = #red6} ins(%q, %k : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%z : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id5, #gts, #id5], iterator_types = #par5} ins(%s, %bias : tensor<1x2x3x8x8xf32>, tensor<3x8x8xf32>) outs(%e : tensor<1x2x3x8x8xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %half = arith.constant 0.5 : f32
    %y0 = arith.mulf %a, %half : f32
    %y = arith.addf %y0, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x2x3x8x8xf32>
  %p = linalg.softmax dimension(4) ins(%x : tensor<1x2x3x8x8xf32>) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %eo = tensor.empty() : tensor<1x8x2x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x3x4xf32>) -> tensor<1x8x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = #red6} ins(%p, %v : tensor<1x2x3x8x8xf32>, tensor<1x8x2x4xf32>) outs(%zo : tensor<1x8x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x3x4xf32>
  return %o : tensor<1x8x2x3x4xf32>
}

// The scores as [B, K, T, G, S]: the sequence comes before the group.
func.func @group_after_sequence(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>) -> tensor<1x8x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x8x3x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x8x3x8xf32>) -> tensor<1x2x8x3x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, k, t, g, s, h) -> (b, t, k, g, h)>, affine_map<(b, k, t, g, s, h) -> (b, s, k, h)>, affine_map<(b, k, t, g, s, h) -> (b, k, t, g, s)>], iterator_types = #red6} ins(%q, %k : tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>) outs(%z : tensor<1x2x8x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x3x8xf32>
  %x = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = #par5} ins(%s : tensor<1x2x8x3x8xf32>) outs(%e : tensor<1x2x8x3x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 4 : index
    %c = arith.cmpi ule, %j, %i : index
    %half = arith.constant 0.5 : f32
    %y0 = arith.mulf %a, %half : f32
    %y = arith.select %c, %y0, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x3x8xf32>
  %p = linalg.softmax dimension(4) ins(%x : tensor<1x2x8x3x8xf32>) outs(%e : tensor<1x2x8x3x8xf32>) -> tensor<1x2x8x3x8xf32>
  %eo = tensor.empty() : tensor<1x8x2x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x3x4xf32>) -> tensor<1x8x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, t, k, g, h, s) -> (b, k, t, g, s)>, #v, #o], iterator_types = #red6} ins(%p, %v : tensor<1x2x8x3x8xf32>, tensor<1x8x2x4xf32>) outs(%zo : tensor<1x8x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x3x4xf32>
  return %o : tensor<1x8x2x3x4xf32>
}

// The same grouped queries in TOSA: Q [B, T, K, G, D] transposed to
// [B, K, G, T, D] and reshaped to [K, G·T, D], K and V to [K, S, D].
func.func @tosa_group_merged_into_rows(%q: tensor<1x8x2x3x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>) -> tensor<1x8x2x3x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %qt = tosa.transpose %q {perms = array<i32: 0, 2, 3, 1, 4>} : (tensor<1x8x2x3x4xf32>) -> tensor<1x2x3x8x4xf32>
  %qs = tosa.const_shape {values = dense<[2, 24, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %qr = tosa.reshape %qt, %qs : (tensor<1x2x3x8x4xf32>, !tosa.shape<3>) -> tensor<2x24x4xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x2x4xf32>) -> tensor<1x2x4x8xf32>
  %ks = tosa.const_shape {values = dense<[2, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kr = tosa.reshape %kt, %ks : (tensor<1x2x4x8xf32>, !tosa.shape<3>) -> tensor<2x4x8xf32>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x2x4xf32>) -> tensor<1x2x8x4xf32>
  %vs = tosa.const_shape {values = dense<[2, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %vr = tosa.reshape %vt, %vs : (tensor<1x2x8x4xf32>, !tosa.shape<3>) -> tensor<2x8x4xf32>
  %s = tosa.matmul %qr, %kr, %zp, %zp : (tensor<2x24x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x24x8xf32>
  %x = tosa.mul %s, %half, %shift : (tensor<2x24x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x24x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x24x8xf32>) -> tensor<2x24x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x24x8xf32>, tensor<2x24x1xf32>) -> tensor<2x24x8xf32>
  %e = tosa.exp %d : (tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x24x8xf32>) -> tensor<2x24x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x24x1xf32>) -> tensor<2x24x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x24x8xf32>, tensor<2x24x1xf32>, tensor<1xi8>) -> tensor<2x24x8xf32>
  %o = tosa.matmul %p, %vr, %zp, %zp : (tensor<2x24x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x24x4xf32>
  %os = tosa.const_shape {values = dense<[1, 2, 3, 8, 4]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %or = tosa.reshape %o, %os : (tensor<2x24x4xf32>, !tosa.shape<5>) -> tensor<1x2x3x8x4xf32>
  %ot = tosa.transpose %or {perms = array<i32: 0, 3, 1, 2, 4>} : (tensor<1x2x3x8x4xf32>) -> tensor<1x8x2x3x4xf32>
  return %ot : tensor<1x8x2x3x4xf32>
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

func.func @print(%t: tensor<1x8x2x3x4xf32>) {
  %u = tensor.cast %t : tensor<1x8x2x3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @query(%s1) : (f32) -> tensor<1x8x2x3x4xf32>
  %k = call @keys(%s2) : (f32) -> tensor<1x8x2x4xf32>
  %v = call @keys(%s3) : (f32) -> tensor<1x8x2x4xf32>
  %o1 = call @grouped_causal_in_body(%q, %k, %v) : (tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x2x3x4xf32>
  call @print(%o1) : (tensor<1x8x2x3x4xf32>) -> ()
  // Row 7 sees no key: the finite fill averages V there, as JAX computes.
  %mask = arith.constant dense<[[true, false, false, false, false, false, false, false],
                                [true, true, false, false, false, false, false, false],
                                [true, true, true, false, false, false, false, false],
                                [true, true, true, true, false, false, false, false],
                                [false, true, true, true, true, false, false, false],
                                [false, false, true, true, true, true, false, false],
                                [false, false, false, true, true, true, true, false],
                                [false, false, false, false, false, false, false, false]]> : tensor<8x8xi1>
  %o2 = call @grouped_finite_fill(%q, %k, %v, %mask) : (tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<8x8xi1>) -> tensor<1x8x2x3x4xf32>
  call @print(%o2) : (tensor<1x8x2x3x4xf32>) -> ()
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<3x8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(g, t, s) -> (g, t, s)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<3x8x8xf32>) {
  ^bb0(%o: f32):
    %g = linalg.index 0 : index
    %t = linalg.index 1 : index
    %s = linalg.index 2 : index
    %l = affine.apply affine_map<(g, t, s) -> (g * 64 + t * 8 + s)>(%g, %t, %s)
    %z = func.call @wave(%s3, %l) : (f32, index) -> f32
    linalg.yield %z : f32
  } -> tensor<3x8x8xf32>
  %o3 = call @grouped_bias_per_group(%q, %k, %v, %bias) : (tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<3x8x8xf32>) -> tensor<1x8x2x3x4xf32>
  call @print(%o3) : (tensor<1x8x2x3x4xf32>) -> ()
  %o4 = call @group_after_sequence(%q, %k, %v) : (tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x2x3x4xf32>
  call @print(%o4) : (tensor<1x8x2x3x4xf32>) -> ()
  %o5 = call @tosa_group_merged_into_rows(%q, %k, %v) : (tensor<1x8x2x3x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x2x3x4xf32>
  call @print(%o5) : (tensor<1x8x2x3x4xf32>) -> ()
  return
}
