// Near misses of the empty-row guard (PyTorch's _safe_softmax:
// where(all(x == -inf, keys), 0, softmax(x))), one edit each: every one
// changes what some row computes, so each stays as written, with its remark.
// test/Integration/raise-safe-softmax.mlir runs the positive spellings.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// RUN: fa-opt %s -split-input-file > %t.before
// RUN: fa-opt %s -split-input-file --fa-raise-attention > %t.after
// RUN: diff %t.before %t.after
// CHECK-NOT: fa.attention

// any(x == -inf): zeroes rows with some hidden key, not empty rows.
func.func @any_key_hidden(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %hide: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %x = tosa.select %hide, %neginf, %s : (tensor<1x8x8xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: P is a softmax with some rows set to 0, and the guard asks whether some key is -inf, not whether every key of the row is -inf}}
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %sm = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %isinf = tosa.equal %x, %neginf : (tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xi1>
  %all = tosa.reduce_any %isinf {axis = 2 : i32} : (tensor<2x8x8xi1>) -> tensor<2x8x1xi1>
  %p = tosa.select %all, %zeros, %sm : (tensor<2x8x1xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// The guard reduces the query dim: columns, not rows.
func.func @guard_on_query_dim(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %hide: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %x = tosa.select %hide, %neginf, %s : (tensor<1x8x8xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the row guard reduces dim 1 of the scores but their key dim is 2}}
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %sm = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %isinf = tosa.equal %x, %neginf : (tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xi1>
  %all = tosa.reduce_all %isinf {axis = 1 : i32} : (tensor<2x8x8xi1>) -> tensor<2x1x8xi1>
  %p = tosa.select %all, %zeros, %sm : (tensor<2x1x8xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// The guard tests the scores before the mask, not the softmax's input.
func.func @guard_on_unmasked_scores(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %hide: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %x = tosa.select %hide, %neginf, %s : (tensor<1x8x8xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the row guard compares a different tensor with -inf than the softmax normalizes}}
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %sm = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %isinf = tosa.equal %s, %neginf : (tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xi1>
  %all = tosa.reduce_all %isinf {axis = 2 : i32} : (tensor<2x8x8xi1>) -> tensor<2x8x1xi1>
  %p = tosa.select %all, %zeros, %sm : (tensor<2x8x1xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// Empty rows filled with 1, not 0.
func.func @guard_fills_one(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %hide: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zeros = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %x = tosa.select %hide, %neginf, %s : (tensor<1x8x8xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: P·V reads select(...), not exp(x - max) / sum}}
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %sm = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %isinf = tosa.equal %x, %neginf : (tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xi1>
  %all = tosa.reduce_all %isinf {axis = 2 : i32} : (tensor<2x8x8xi1>) -> tensor<2x8x1xi1>
  %p = tosa.select %all, %zeros, %sm : (tensor<2x8x1xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// Branches swapped: rows with a visible key become 0.
func.func @guard_branches_swapped(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %hide: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %x = tosa.select %hide, %neginf, %s : (tensor<1x8x8xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: P is a softmax with 0 in the rows where some key is visible, not in those where every key is -inf}}
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %sm = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %isinf = tosa.equal %x, %neginf : (tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xi1>
  %all = tosa.reduce_all %isinf {axis = 2 : i32} : (tensor<2x8x8xi1>) -> tensor<2x8x1xi1>
  %p = tosa.select %all, %sm, %zeros : (tensor<2x8x1xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}
