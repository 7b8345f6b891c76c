// Soft-capping, sinks and position-defined biases and masks as TOSA computes them (constant
// aranges, tosa.sub / cast / mul / equal / greater / logical_or with
// broadcasts), raised and folded into score_mod / mask_mod, and equal to the
// program as written.
// RUN: fa-opt %s --fa-raise-attention --fa-fold-masks-into-modifiers | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=4" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 576 values
// RAISED-LABEL: func.func @softcap
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// RAISED: math.tanh
// RAISED-NOT: tosa.tanh
// RAISED-LABEL: func.func @alibi
// RAISED-NOT: mask(
// RAISED: score_mod {
// RAISED: arith.subi %{{.*}}, %{{.*}} : i32
// RAISED: arith.sitofp
// RAISED: fa.yield
// RAISED-NOT: tosa.sub
// RAISED-LABEL: func.func @t5_buckets
// RAISED-NOT: mask(
// RAISED: score_mod {
// RAISED: math.log
// RAISED: math.floor
// RAISED: math.roundeven
// RAISED: arith.fptosi
// RAISED: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x8x2xf32>
// RAISED-NOT: arith.divui
// RAISED: fa.yield
// RAISED-NOT: tosa.gather
// RAISED-LABEL: func.func @documents
// RAISED-NOT: mask(
// RAISED: mask_mod {
// RAISED: arith.cmpi eq
// RAISED-NOT: tosa.equal
// RAISED-LABEL: func.func @prefix_lm
// RAISED-NOT: mask(
// RAISED: mask_mod {
// RAISED: arith.ori
// RAISED-LABEL: func.func @sinks
// RAISED: fa.attention {{.*}} sinks(%{{.*}} : tensor<2xf32>) scale = 5.000000e-01 :
// RAISED-NOT: tosa.concat
// RAISED-NOT: tosa.slice
// RAISED-LABEL: func.func @input

func.func private @printMemrefF32(tensor<*xf32>)

// Soft-capping in TOSA: mul by 1 / cap, tanh, mul by cap.
func.func @softcap(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>) -> tensor<2x12x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %invcap = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %cap = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
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
  return %o : tensor<2x12x4xf32>
}

// ALiBi from constant aranges: slopes * 2 (kpos - qpos), the doubling an add of one tensor to itself (the fold erases its producer once), cast to f32, added.
func.func @alibi(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>) -> tensor<2x12x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %qpos = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kpos = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %slopes = "tosa.const"() <{values = dense<[[[0.25]], [[0.0625]]]> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %rel = tosa.sub %kpos, %qpos : (tensor<1x1x12xi32>, tensor<1x12x1xi32>) -> tensor<1x12x12xi32>
  %relf = tosa.cast %rel : (tensor<1x12x12xi32>) -> tensor<1x12x12xf32>
  %twice = tosa.add %relf, %relf : (tensor<1x12x12xf32>, tensor<1x12x12xf32>) -> tensor<1x12x12xf32>
  %alibi = tosa.mul %slopes, %twice, %shift : (tensor<2x1x1xf32>, tensor<1x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %x = tosa.add %ss, %alibi : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  return %o : tensor<2x12x4xf32>
}

// T5's relative position buckets as TOSA spells them (HF's bidirectional
// formula, 8 buckets, exact below 2, logarithmic up to distance 16): sub
// of aranges, abs, greater, log, mul, floor, cast to i32, minimum, select,
// then the lookup of a [buckets, H] table: a tosa.gather between reshapes
// ([12, 12] -> [1, 144] -> gather -> [12, 12, 2]) and a transpose to
// [H, Nq, Nk].
func.func @t5_buckets(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>) -> tensor<2x12x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %qpos = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kpos = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %exact = "tosa.const"() <{values = dense<2> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %halfbuckets = "tosa.const"() <{values = dense<4> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %lastbucket = "tosa.const"() <{values = dense<3> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %invexact = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  // (buckets / 2 - exact) / log(16 / exact) = 2 / log 8.
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
  %scaled = tosa.mul %logratio, %logscale, %shift : (tensor<1x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x12x12xf32>
  %floored = tosa.floor %scaled : (tensor<1x12x12xf32>) -> tensor<1x12x12xf32>
  %steps = tosa.cast %floored : (tensor<1x12x12xf32>) -> tensor<1x12x12xi32>
  %large = tosa.add %steps, %exact : (tensor<1x12x12xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi32>
  %capped = tosa.minimum %large, %lastbucket : (tensor<1x12x12xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi32>
  %inhalf = tosa.select %small, %dist, %capped : (tensor<1x12x12xi1>, tensor<1x12x12xi32>, tensor<1x12x12xi32>) -> tensor<1x12x12xi32>
  %bucket = tosa.add %inhalf, %offset : (tensor<1x12x12xi32>, tensor<1x12x12xi32>) -> tensor<1x12x12xi32>
  %flat = tosa.const_shape {values = dense<[1, 144]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %rows = tosa.reshape %bucket, %flat : (tensor<1x12x12xi32>, !tosa.shape<2>) -> tensor<1x144xi32>
  %looked = tosa.gather %table, %rows : (tensor<1x8x2xf32>, tensor<1x144xi32>) -> tensor<1x144x2xf32>
  %square = tosa.const_shape {values = dense<[12, 12, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %perpos = tosa.reshape %looked, %square : (tensor<1x144x2xf32>, !tosa.shape<3>) -> tensor<12x12x2xf32>
  %bias = tosa.transpose %perpos {perms = array<i32: 2, 0, 1>} : (tensor<12x12x2xf32>) -> tensor<2x12x12xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %x = tosa.add %ss, %bias : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  return %o : tensor<2x12x4xf32>
}

// Document mask: tosa.equal of per-position ids, then a -inf select.
func.func @documents(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>) -> tensor<2x12x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %qdoc = "tosa.const"() <{values = dense<[[[0], [0], [0], [1], [1], [2], [2], [2], [2], [3], [3], [3]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kdoc = "tosa.const"() <{values = dense<[[[0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %keep = tosa.equal %qdoc, %kdoc : (tensor<1x12x1xi32>, tensor<1x1x12xi32>) -> tensor<1x12x12xi1>
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  return %o : tensor<2x12x4xf32>
}

// Prefix-LM: k < 3 or q >= k, from constant aranges.
func.func @prefix_lm(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>) -> tensor<2x12x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %qpos = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kpos = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %prefixlen = "tosa.const"() <{values = dense<3> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %inprefix = tosa.greater %prefixlen, %kpos : (tensor<1x1x1xi32>, tensor<1x1x12xi32>) -> tensor<1x1x12xi1>
  %past = tosa.greater_equal %qpos, %kpos : (tensor<1x12x1xi32>, tensor<1x1x12xi32>) -> tensor<1x12x12xi1>
  %keep = tosa.logical_or %inprefix, %past : (tensor<1x1x12xi1>, tensor<1x12x12xi1>) -> tensor<1x12x12xi1>
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x12x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x4xf32>
  return %o : tensor<2x12x4xf32>
}

// Sinks in TOSA: a per-head logit tiled to a column, tosa.concat, the
// softmax over Nk + 1 (reduce_max, sub, exp, reduce_sum, reciprocal, mul),
// tosa.slice dropping the column before P·V.
func.func @sinks(%q: tensor<2x12x4xf32>, %k: tensor<2x12x4xf32>, %v: tensor<2x12x4xf32>) -> tensor<2x12x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sink = "tosa.const"() <{values = dense<[[[1.25]], [[-0.5]]]> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %multiples = tosa.const_shape {values = dense<[1, 12, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %column = tosa.tile %sink, %multiples : (tensor<2x1x1xf32>, !tosa.shape<3>) -> tensor<2x12x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x4xf32>) -> tensor<2x4x12xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x12x4xf32>, tensor<2x4x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
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
  return %o : tensor<2x12x4xf32>
}

func.func @input(%seed: f32) -> tensor<2x12x4xf32> {
  %e = tensor.empty() : tensor<2x12x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x12x4xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c131 : index
    %b1 = arith.muli %b, %c17 : index
    %s0 = arith.addi %a1, %b1 : index
    %s1 = arith.addi %s0, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<2x12x4xf32>
  return %r : tensor<2x12x4xf32>
}

func.func @print(%t: tensor<2x12x4xf32>) {
  %u = tensor.cast %t : tensor<2x12x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<2x12x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<2x12x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<2x12x4xf32>
  %o0 = call @softcap(%q, %k, %v) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
  call @print(%o0) : (tensor<2x12x4xf32>) -> ()
  %o1 = call @alibi(%q, %k, %v) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
  call @print(%o1) : (tensor<2x12x4xf32>) -> ()
  %o2 = call @documents(%q, %k, %v) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
  call @print(%o2) : (tensor<2x12x4xf32>) -> ()
  %o3 = call @prefix_lm(%q, %k, %v) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
  call @print(%o3) : (tensor<2x12x4xf32>) -> ()
  %o4 = call @sinks(%q, %k, %v) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
  call @print(%o4) : (tensor<2x12x4xf32>) -> ()
  %o5 = call @t5_buckets(%q, %k, %v) : (tensor<2x12x4xf32>, tensor<2x12x4xf32>, tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
  call @print(%o5) : (tensor<2x12x4xf32>) -> ()
  return
}
