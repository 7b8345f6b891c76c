// Training graphs in TOSA (JAX's softmax backward P∘dP − P∘rowsum(P∘dP))
// with score modifications: a soft-cap and autodiff's backward through it
// (raised when its factor is the cap's derivative); ALiBi, T5 buckets
// (tosa.gather of a [buckets, H] table), document and prefix-LM masks
// computed from constant aranges and ids (folded into score_mod / mask_mod
// on both ops); and sinks (tosa.tile, concat, slice; the backward's
// tosa.pad of dP and its dSinks sum: sinks and grad_sinks). Raised and
// folded, the program equals the one written: outputs and gradients
// (dSinks too), through the tiled lowering and the reference.
// RUN: fa-opt %s --fa-raise-attention --fa-fold-masks-into-modifiers | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.reference %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 2306 values
// RAISED-LABEL: func.func @softcap
// RAISED: fa.attention {{.*}} score_mod {
// RAISED: fa.attention_backward {{.*}} score_mod {
// RAISED: math.tanh
// RAISED-NOT: tosa.tanh
// RAISED-LABEL: func.func @alibi
// RAISED: fa.attention {{[^(]*}} score_mod {
// RAISED: fa.attention_backward {{[^(]*}} score_mod {
// RAISED-NOT: tosa.sub
// RAISED-LABEL: func.func @t5_buckets
// RAISED: fa.attention {{[^(]*}} scale = 5.000000e-01 score_mod
// RAISED: tensor.extract %{{.*}} : tensor<1x8x2xf32>
// RAISED: fa.attention_backward {{[^(]*}} scale = 5.000000e-01 score_mod
// RAISED: tensor.extract %{{.*}} : tensor<1x8x2xf32>
// RAISED-NOT: tosa.gather
// RAISED-LABEL: func.func @sinks
// RAISED: fa.attention {{.*}} sinks(%[[S:.*]] : tensor<2xf32>) scale = 5.000000e-01 :
// RAISED: fa.attention_backward {{.*}} sinks(%[[S]] : tensor<2xf32>) scale = 5.000000e-01 :
// RAISED-SAME: grad_sinks(tensor<2xf32>)
// RAISED-NOT: tosa.pad
// RAISED-NOT: tosa.concat
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

// T5's relative buckets as TOSA spells them (the forward's lookup is a
// tosa.gather between reshapes; raise-position-masks-tosa.mlir) with
// autodiff's backward: a score_mod on both ops.
func.func @t5_buckets(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>, %do: tensor<2x12x4xf32>)
    -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %qpos = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kpos = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %exact = "tosa.const"() <{values = dense<2> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %halfbuckets = "tosa.const"() <{values = dense<4> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %lastbucket = "tosa.const"() <{values = dense<3> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %invexact = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %logscale = "tosa.const"() <{values = dense<0.961796693> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %table = "tosa.const"() <{values = dense<[[[0.5, -1.0], [0.25, 0.75], [-0.5, 0.125], [1.0, -0.25], [0.0, 0.5], [-0.75, 1.25], [0.375, -0.5], [1.5, 0.0]]]> : tensor<1x8x2xf32>}> : () -> tensor<1x8x2xf32>
  %rel = tosa.sub %kpos, %qpos : (tensor<1x1x12xi32>, tensor<1x12x1xi32>) -> tensor<1x12x12xi32>
  %later = tosa.greater %rel, %zero : (tensor<1x12x12xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi1>
  %offset = tosa.select %later, %halfbuckets, %zero : (tensor<1x12x12xi1>, tensor<1x1x1xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi32>
  %dist = tosa.abs %rel : (tensor<1x12x12xi32>) -> tensor<1x12x12xi32>
  %small = tosa.greater %exact, %dist : (tensor<1x1x1xi32>, tensor<1x12x12xi32>) -> tensor<1x12x12xi1>
  %distf = tosa.cast %dist : (tensor<1x12x12xi32>) -> tensor<1x12x12xf32>
  %ratio = tosa.mul %distf, %invexact, %shift : (tensor<1x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x12x12xf32>
  %logratio = tosa.log %ratio : (tensor<1x12x12xf32>) -> tensor<1x12x12xf32>
  %scaledlog = tosa.mul %logratio, %logscale, %shift : (tensor<1x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x12x12xf32>
  %floored = tosa.floor %scaledlog : (tensor<1x12x12xf32>) -> tensor<1x12x12xf32>
  %steps = tosa.cast %floored : (tensor<1x12x12xf32>) -> tensor<1x12x12xi32>
  %large = tosa.add %steps, %exact : (tensor<1x12x12xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi32>
  %capped = tosa.minimum %large, %lastbucket : (tensor<1x12x12xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi32>
  %inhalf = tosa.select %small, %dist, %capped : (tensor<1x12x12xi1>, tensor<1x12x12xi32>, tensor<1x12x12xi32>) -> tensor<1x12x12xi32>
  %bucket = tosa.add %inhalf, %offset : (tensor<1x12x12xi32>, tensor<1x12x12xi32>) -> tensor<1x12x12xi32>
  %flat = tosa.const_shape {values = dense<[1, 144]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %rows_of_buckets = tosa.reshape %bucket, %flat : (tensor<1x12x12xi32>, !tosa.shape<2>) -> tensor<1x144xi32>
  %looked = tosa.gather %table, %rows_of_buckets : (tensor<1x8x2xf32>, tensor<1x144xi32>) -> tensor<1x144x2xf32>
  %square = tosa.const_shape {values = dense<[12, 12, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %perpos = tosa.reshape %looked, %square : (tensor<1x144x2xf32>, !tosa.shape<3>) -> tensor<12x12x2xf32>
  %alibi = tosa.transpose %perpos {perms = array<i32: 2, 0, 1>} : (tensor<12x12x2xf32>) -> tensor<2x12x12xf32>
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

// Sinks: a per-head logit tiled into a column (the argument's gradient is
// dSinks), the softmax over Nk + 1, and its backward as autodiff writes it.
func.func @sinks(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>, %do: tensor<2x12x4xf32>, %sinks: tensor<2x1x1xf32>)
    -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x1x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %multiples = tosa.const_shape {values = dense<[1, 12, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %column = tosa.tile %sinks, %multiples : (tensor<2x1x1xf32>, !tosa.shape<3>) -> tensor<2x12x1xf32>
  %x = tosa.concat %ss, %column {axis = 2 : i32} : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x13xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x13xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x13xf32>, tensor<2x12x1xf32>) -> tensor<2x12x13xf32>
  %e = tosa.exp %d : (tensor<2x12x13xf32>) -> tensor<2x12x13xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x13xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %pall = tosa.mul %e, %inv, %shift : (tensor<2x12x13xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x13xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[2, 12, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p = tosa.slice %pall, %start, %size : (tensor<2x12x13xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x12x12xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; the slice's backward pads dP with a zero sink
  // column; JAX's softmax backward over Nk + 1; the concat's backward
  // slices the scores' gradient and the column's; the tile's backward sums
  // the column over the queries.
  %pt = tosa.transpose %p {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dv = tosa.matmul %pt, %do, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %dp = tosa.matmul %do, %vt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 1]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %padvalue = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %dpf = tosa.pad %dp, %padding, %padvalue : (tensor<2x12x12xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x12x13xf32>
  %pdp = tosa.mul %pall, %dpf, %shift : (tensor<2x12x13xf32>, tensor<2x12x13xf32>, tensor<1xi8>) -> tensor<2x12x13xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x13xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %pall, %rows, %shift : (tensor<2x12x13xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x13xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x13xf32>, tensor<2x12x13xf32>) -> tensor<2x12x13xf32>
  %gx = tosa.slice %g, %start, %size : (tensor<2x12x13xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x12x12xf32>
  %colstart = tosa.const_shape {values = dense<[0, 0, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %colsize = tosa.const_shape {values = dense<[2, 12, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gc = tosa.slice %g, %colstart, %colsize : (tensor<2x12x13xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x12x1xf32>
  %dsinks = tosa.reduce_sum %gc {axis = 1 : i32} : (tensor<2x12x1xf32>) -> tensor<2x1x1xf32>
  %gs = tosa.mul %gx, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %dq = tosa.matmul %gs, %k, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  %gt = tosa.transpose %gs {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %dk = tosa.matmul %gt, %q, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  return %o, %dq, %dk, %dv, %dsinks : tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x1x1xf32>
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
  %t5_o, %t5_dq, %t5_dk, %t5_dv = call @t5_buckets(%q, %k, %v, %do) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>)
  call @print(%t5_o, %t5_dq, %t5_dk, %t5_dv) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> ()
  %sink_logits = arith.constant dense<[[[1.25]], [[-0.5]]]> : tensor<2x1x1xf32>
  %sinks_o, %sinks_dq, %sinks_dk, %sinks_dv, %sinks_ds = call @sinks(%q, %k, %v, %do, %sink_logits) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x1x1xf32>) -> (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x1x1xf32>)
  call @print(%sinks_o, %sinks_dq, %sinks_dk, %sinks_dv) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> ()
  %ds = tensor.cast %sinks_ds : tensor<2x1x1xf32> to tensor<*xf32>
  call @printMemrefF32(%ds) : (tensor<*xf32>) -> ()
  return
}
