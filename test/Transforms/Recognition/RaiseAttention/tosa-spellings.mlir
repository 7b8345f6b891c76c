// TOSA spellings, raised directly from TOSA (no conversion to linalg first),
// and their near misses, which stay as written with an explained remark.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// RUN: fa-opt %s --fa-raise-attention=print-counts=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNTS
// COUNTS: remark: fa-raise-attention: 11 candidates, 9 raised, 1 rejected (softmax-axis), 1 rejected (shape)

// -----

// The canonical TOSA chain: raised, and every op of the pattern is gone.
// CHECK-LABEL: func.func @plain
// CHECK: (%[[Q:.*]]: tensor<4x8x4xf32>, %[[K:.*]]: tensor<4x8x4xf32>, %[[V:.*]]: tensor<4x8x4xf32>)
// CHECK: %[[Q4:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1], [2], [3]] output_shape [1, 4, 8, 4]
// CHECK: %[[K4:.*]] = tensor.expand_shape %[[K]]
// CHECK: %[[V4:.*]] = tensor.expand_shape %[[V]]
// CHECK: %[[O4:.*]] = fa.attention %[[Q4]], %[[K4]], %[[V4]] scale = 5.000000e-01 : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
// CHECK: %[[O:.*]] = tensor.collapse_shape %[[O4]] {{\[}}[0, 1], [2], [3]]
// CHECK-NOT: tosa.
// CHECK: return %[[O]]
func.func @plain(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// A -inf bias that is exactly causal becomes the attribute and the mask tensor is gone (Nq = Nk: both alignments agree; bottom-right is written).
// CHECK-LABEL: func.func @causal_constant
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 5.000000e-01 causal = bottom_right :
// CHECK-NOT: mask(
func.func @causal_constant(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mask = "tosa.const"() <{values = dense<[[[0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %x = tosa.add %y, %mask : (tensor<4x8x8xf32>, tensor<1x8x8xf32>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// One entry off the causal pattern (row 7 hides key 0): it stays an explicit mask, with the fix-up for rows with no visible key.
// CHECK-LABEL: func.func @almost_causal
// CHECK: %[[O:.*]], %[[LSE:.*]] = fa.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x1x8x8xf32>) scale = 5.000000e-01 :
// CHECK-NOT: causal
// CHECK: linalg.generic
// CHECK: arith.cmpf oeq
// CHECK: arith.select
func.func @almost_causal(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mask = "tosa.const"() <{values = dense<[[[0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000], [0xFF800000, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %x = tosa.add %mask, %y : (tensor<1x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Nq = 4 < Nk = 8: the constant keeps j <= i + 4, causal aligned bottom-right.
// CHECK-LABEL: func.func @causal_bottom_right
// CHECK: fa.attention {{.*}} scale = 5.000000e-01 causal = bottom_right : tensor<1x4x4x4xf32>, tensor<1x4x8x4xf32>
func.func @causal_bottom_right(%q: tensor<4x4x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %keep = "tosa.const"() <{values = dense<[[[true, true, true, true, true, false, false, false], [true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true]]]> : tensor<1x4x8xi1>}> : () -> tensor<1x4x8xi1>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x4x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4x8xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<4x4x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x4x8xf32>
  %x = tosa.select %keep, %y, %ninf : (tensor<1x4x8xi1>, tensor<4x4x8xf32>, tensor<1x1x1xf32>) -> tensor<4x4x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x4x8xf32>) -> tensor<4x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x4x8xf32>, tensor<4x4x1xf32>) -> tensor<4x4x8xf32>
  %e = tosa.exp %d : (tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x4x8xf32>) -> tensor<4x4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x4x1xf32>) -> tensor<4x4x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x4x8xf32>, tensor<4x4x1xf32>, tensor<1xi8>) -> tensor<4x4x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x4x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

// reduce_max and reduce_sum over axis 1 (the query axis) (docs/Sources.md §5.2).
// CHECK-LABEL: func.func @softmax_over_queries
// CHECK-NOT: fa.attention
// CHECK: tosa.reduce_max
func.func @softmax_over_queries(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x8x8xf32>) -> tensor<4x1x8xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x1x8xf32>) -> tensor<4x8x8xf32>
  // expected-remark @+1 {{attention not raised: the row sum reduces dim 1 but the key dim of P·V is 2}}
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x8x8xf32>) -> tensor<4x1x8xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x1x8xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// K is permuted [2, 1, 0] but its sizes do not fit: the contraction reads K's dim 1 (8) against Q's head dim (4). tosa.matmul does not verify that; the recognizer refuses rather than emit an op that would not verify.
// CHECK-LABEL: func.func @key_permutation
// CHECK-NOT: fa.attention
// CHECK: tosa.matmul
func.func @key_permutation(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x4x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 2, 1, 0>} : (tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<4x8x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x4xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x4xf32>, tensor<4x8x1xf32>) -> tensor<4x8x4xf32>
  // expected-remark @+1 {{attention not raised: the operands disagree on the head dim D: 4 and 8}}
  %e = tosa.exp %d : (tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x4xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x4xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// repeat with the copies outside the heads ([G, Hkv] order, h -> h % Hkv) is not fa.attention's grouping: the repeated K and V are kept (no GQA), which is still exact.
// CHECK-LABEL: func.func @tile_outer_copies
// CHECK: tosa.tile
// CHECK: fa.attention {{.*}} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>
func.func @tile_outer_copies(%q: tensor<4x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %reps = tosa.const_shape {values = dense<[2, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kr = tosa.tile %k, %reps : (tensor<2x8x4xf32>, !tosa.shape<3>) -> tensor<4x8x4xf32>
  %vr = tosa.tile %v, %reps : (tensor<2x8x4xf32>, !tosa.shape<3>) -> tensor<4x8x4xf32>
  %kt = tosa.transpose %kr {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %vr, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// A per-head scale tensor [4, 1, 1] right on Q·Kᵀ: not a scalar, but moved
// onto Q since issue 51, (Q·Kᵀ)·t = (t·Q)·Kᵀ.
// CHECK-LABEL: func.func @tensor_scale
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg3 : tensor<4x8x4xf32>, tensor<4x1x1xf32>)
// CHECK: fa.attention {{.*}} scale = 1.000000e+00
func.func @tensor_scale(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>, %heads: tensor<4x1x1xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %heads, %shift : (tensor<4x8x8xf32>, tensor<4x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// A boolean mask cast to float and added as 0/1 (docs/Sources.md §5.5): a
// bias of 0 or 1, read by the score function.
// CHECK-LABEL: func.func @boolean_added
// CHECK: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// CHECK: tensor.extract %{{.*}} : tensor<1x1x8x8xf32>
// CHECK: arith.addf
// CHECK: fa.yield
func.func @boolean_added(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>, %m: tensor<1x8x8xi1>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %mf = tosa.cast %m : (tensor<1x8x8xi1>) -> tensor<1x8x8xf32>
  %x = tosa.add %y, %mf : (tensor<4x8x8xf32>, tensor<1x8x8xf32>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}


// -----

// Found by the differential test (a 1x1 causal mask folds to a splat): a
// splat constant added to the scores is a bias that broadcasts everywhere.
// CHECK-LABEL: func.func @splat_bias
// CHECK: %[[BIAS:.*]] = arith.constant dense<5.000000e-01> : tensor<1x1x1x1xf32>
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%[[BIAS]] : tensor<1x1x1x1xf32>) scale = 5.000000e-01 :
func.func @splat_bias(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %bias = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %x = tosa.add %y, %bias : (tensor<4x8x8xf32>, tensor<1x1x1xf32>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// The constant is added before the scale, so each score is scale * (s + c):
// one score function (fa.attention adds its mask after the scale).
// CHECK-LABEL: func.func @constant_before_scale
// CHECK: fa.attention {{.*}} scale = 1.000000e+00 score_mod {
// CHECK: arith.constant 5.000000e-01
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: fa.yield
func.func @constant_before_scale(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %bias = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %y = tosa.add %s, %bias : (tensor<4x8x8xf32>, tensor<1x1x1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %y, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}
