// Training graphs in TOSA (JAX's softmax backward P∘dP − P∘rowsum(P∘dP))
// with score modifications: a soft-cap and autodiff's backward through it
// (raised when its factor is the cap's derivative), and ALiBi, document and
// prefix-LM masks computed from constant aranges and ids (folded into
// score_mod / mask_mod on both ops). Raised and folded, the program equals
// the one written: outputs and gradients, through the tiled lowering.
// RUN: fa-opt %s --fa-raise-attention --fa-fold-masks-into-modifiers | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 1536 values
// RAISED-LABEL: func.func @softcap
// RAISED: fa.attention {{.*}} score_mod {
// RAISED: fa.attention_backward {{.*}} score_mod {
// RAISED: math.tanh
// RAISED-NOT: tosa.tanh
// RAISED-LABEL: func.func @alibi
// RAISED: fa.attention {{[^(]*}} score_mod {
// RAISED: fa.attention_backward {{[^(]*}} score_mod {
// RAISED-NOT: tosa.sub
// RAISED-LABEL: func.func @documents
// RAISED: fa.attention {{[^(]*}} mask_mod {
// RAISED: fa.attention_backward {{[^(]*}} mask_mod {
// RAISED-NOT: tosa.equal
// RAISED-LABEL: func.func @prefix_lm
// RAISED: fa.attention {{[^(]*}} mask_mod {
// RAISED: fa.attention_backward {{[^(]*}} mask_mod {
// RAISED-NOT: tosa.logical_or
// RAISED-LABEL: func.func @input

func.func private @printMemrefF32(tensor<*xf32>)

func.func @softcap(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>, %do: tensor<2x12x4xf32>)
    -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %invcap = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %cap = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %y = tosa.mul %ss, %invcap, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %t = tosa.tanh %y : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %x = tosa.mul %t, %cap, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; JAX's softmax backward P∘dP − P∘rowsum(P∘dP).
  %pt = tosa.transpose %p {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dv = tosa.matmul %pt, %do, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %dp = tosa.matmul %do, %vt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  // Through the cap (JAX's jvp of tanh transposed): g cap (1 - t t) / cap.
  %gc = tosa.mul %g, %cap, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %tt = tosa.mul %t, %t, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %dt = tosa.sub %one, %tt : (tensor<1x1x1xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %ga = tosa.mul %gc, %dt, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gx = tosa.mul %ga, %invcap, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gs = tosa.mul %gx, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %dq = tosa.matmul %gs, %k, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %gt = tosa.transpose %gs {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dk = tosa.matmul %gt, %q, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>
}

func.func @alibi(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>, %do: tensor<2x12x4xf32>)
    -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %qpos = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kpos = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %slopes = "tosa.const"() <{values = dense<[[[0.25]], [[0.0625]]]> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %rel = tosa.sub %kpos, %qpos : (tensor<1x1x12xi32>, tensor<1x12x1xi32>) -> tensor<1x12x12xi32>
  %relf = tosa.cast %rel : (tensor<1x12x12xi32>) -> tensor<1x12x12xf32>
  %alibi = tosa.mul %slopes, %relf, %shift : (tensor<2x1x1xf32>, tensor<1x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %x = tosa.add %ss, %alibi : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; JAX's softmax backward P∘dP − P∘rowsum(P∘dP).
  %pt = tosa.transpose %p {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dv = tosa.matmul %pt, %do, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %dp = tosa.matmul %do, %vt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %gs = tosa.mul %g, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %dq = tosa.matmul %gs, %k, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %gt = tosa.transpose %gs {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dk = tosa.matmul %gt, %q, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>
}

func.func @documents(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>, %do: tensor<2x12x4xf32>)
    -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %qdoc = "tosa.const"() <{values = dense<[[[0], [0], [0], [1], [1], [2], [2], [2], [2], [3], [3], [3]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kdoc = "tosa.const"() <{values = dense<[[[0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %keep = tosa.equal %qdoc, %kdoc : (tensor<1x12x1xi32>, tensor<1x1x12xi32>) -> tensor<1x12x12xi1>
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; JAX's softmax backward P∘dP − P∘rowsum(P∘dP).
  %pt = tosa.transpose %p {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dv = tosa.matmul %pt, %do, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %dp = tosa.matmul %do, %vt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  // masked_fill's backward: 0 where the mask hides.
  %gx = tosa.select %keep, %g, %zero : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %gs = tosa.mul %gx, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %dq = tosa.matmul %gs, %k, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %gt = tosa.transpose %gs {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dk = tosa.matmul %gt, %q, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>
}

func.func @prefix_lm(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>, %do: tensor<2x12x4xf32>)
    -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %qpos = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kpos = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %plen = "tosa.const"() <{values = dense<4> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %inprefix = tosa.greater %plen, %kpos : (tensor<1x1x1xi32>, tensor<1x1x12xi32>) -> tensor<1x1x12xi1>
  %causal = tosa.greater_equal %qpos, %kpos : (tensor<1x12x1xi32>, tensor<1x1x12xi32>) -> tensor<1x12x12xi1>
  %keep = tosa.logical_or %inprefix, %causal : (tensor<1x1x12xi1>, tensor<1x12x12xi1>) -> tensor<1x12x12xi1>
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; JAX's softmax backward P∘dP − P∘rowsum(P∘dP).
  %pt = tosa.transpose %p {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dv = tosa.matmul %pt, %do, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %dp = tosa.matmul %do, %vt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  // masked_fill's backward: 0 where the mask hides.
  %gx = tosa.select %keep, %g, %zero : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %gs = tosa.mul %gx, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %dq = tosa.matmul %gs, %k, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %gt = tosa.transpose %gs {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dk = tosa.matmul %gt, %q, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>
}

// 2 sin(0.7 (17 a + c) + seed) over the flattened [24, 4] view.
func.func @input(%seed: f32) -> tensor<2x12x4xf32> {
  %e = tensor.empty() : tensor<24x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<24x4xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %c = linalg.index 1 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c17 : index
    %s1 = arith.addi %a1, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<24x4xf32>
  %t = tensor.expand_shape %r [[0, 1], [2]] output_shape [2, 12, 4] : tensor<24x4xf32> into tensor<2x12x4xf32>
  return %t : tensor<2x12x4xf32>
}

func.func @print(%o: tensor<2x12x4xf32>, %dq: tensor<2x12x4xf32>, %dk: tensor<2x12x4xf32>, %dv: tensor<2x12x4xf32>) {
  %a = tensor.cast %o : tensor<2x12x4xf32> to tensor<*xf32>
  call @printMemrefF32(%a) : (tensor<*xf32>) -> ()
  %b = tensor.cast %dq : tensor<2x12x4xf32> to tensor<*xf32>
  call @printMemrefF32(%b) : (tensor<*xf32>) -> ()
  %c = tensor.cast %dk : tensor<2x12x4xf32> to tensor<*xf32>
  call @printMemrefF32(%c) : (tensor<*xf32>) -> ()
  %d = tensor.cast %dv : tensor<2x12x4xf32> to tensor<*xf32>
  call @printMemrefF32(%d) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<2x12x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<2x12x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<2x12x4xf32>
  %do = call @input(%s4) : (f32) -> tensor<2x12x4xf32>
  %softcap_o, %softcap_dq, %softcap_dk, %softcap_dv = call @softcap(%q, %k, %v, %do) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>)
  call @print(%softcap_o, %softcap_dq, %softcap_dk, %softcap_dv) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> ()
  %alibi_o, %alibi_dq, %alibi_dk, %alibi_dv = call @alibi(%q, %k, %v, %do) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>)
  call @print(%alibi_o, %alibi_dq, %alibi_dk, %alibi_dv) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> ()
  %documents_o, %documents_dq, %documents_dk, %documents_dv = call @documents(%q, %k, %v, %do) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>)
  call @print(%documents_o, %documents_dq, %documents_dk, %documents_dv) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> ()
  %prefix_lm_o, %prefix_lm_dq, %prefix_lm_dk, %prefix_lm_dv = call @prefix_lm(%q, %k, %v, %do) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>)
  call @print(%prefix_lm_o, %prefix_lm_dq, %prefix_lm_dk, %prefix_lm_dv) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> ()
  return
}
