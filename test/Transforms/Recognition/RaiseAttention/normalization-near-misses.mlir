// Near misses of the spellings that normalization reads (issue 14): one
// change each that makes the program compute something other than
// attention, or that normalization must not fold. All stay as written,
// each with its remark; test/Transforms/nothing-lost.mlir checks this file
// byte for byte too.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// RUN: fa-opt %s -split-input-file > %t.before
// RUN: fa-opt %s -split-input-file --fa-raise-attention > %t.after
// RUN: diff %t.before %t.after

// Log-sum-exp whose inner sum forgot the max: exp(x - (m + log sum(exp(x))))
// is softmax(x) * e^-m, not softmax(x).
// CHECK-LABEL: func.func @lse_inner_sum_without_max
// CHECK-NOT: fa.attention
func.func @lse_inner_sum_without_max(%s: tensor<2x8x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %e = math.exp %s : tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %log = tosa.log %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %lse = tosa.add %m, %log : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %ls = tosa.sub %s, %lse : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the log-sum-exp sums exp(input(...)), not exp(x - max)}}
  %p = tosa.exp %ls : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// The log-sum-exp softmax under a length bias of the lowest finite value
// (TOSA: keys past the sequence's length get -3.4e38): a sequence of length
// 0 biases every key of its rows, and there the frontend sums V (max +
// log(sum) rounds to max). Lengths are run-time values, so it stays as
// written (found by the differential run, seed 18).
// CHECK-LABEL: func.func @lse_length_bias
// CHECK-NOT: fa.attention
func.func @lse_length_bias(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %len: tensor<1x1x1xi32>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %iota = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7]]]> : tensor<1x1x8xi32>}> : () -> tensor<1x1x8xi32>
  %keep = tosa.greater %len, %iota : (tensor<1x1x1xi32>, tensor<1x1x8xi32>) -> tensor<1x1x8xi1>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %lowest = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %bias = tosa.select %keep, %zero, %lowest : (tensor<1x1x8xi1>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x8xf32>
  %s = tosa.add %s0, %bias : (tensor<2x8x8xf32>, tensor<1x1x8xf32>) -> tensor<2x8x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %xm = tosa.sub %s, %m : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %xm : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %log = tosa.log %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %lse = tosa.add %m, %log : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %ls = tosa.sub %s, %lse : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the log-sum-exp softmax of a row of a length-0 sequence, whose every key the length bias sets to the lowest finite value, rounds max + log(sum) to max, so the frontend sums V there instead of averaging it}}
  %p = tosa.exp %ls : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// The log-sum-exp softmax with masked keys filled with the lowest finite
// value: a row whose every key is filled has max = -3.4e38, and in f32
// max + log(sum) rounds to max, so the frontend gives each key p = 1 and
// returns the sum of V's rows where the op (and the plain softmax) gives
// their mean (found by the differential run, seed 2031).
// CHECK-LABEL: func.func @lse_lowest_fill
// CHECK-NOT: fa.attention
func.func @lse_lowest_fill(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %hide: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %lowest = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s = tosa.select %hide, %lowest, %s0 : (tensor<1x8x8xi1>, tensor<1x1x1xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %xm = tosa.sub %s, %m : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %xm : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %log = tosa.log %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %lse = tosa.add %m, %log : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %ls = tosa.sub %s, %lse : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the log-sum-exp softmax of a row whose every key is filled with the lowest finite value rounds max + log(sum) to max, so the frontend sums V there instead of averaging it}}
  %p = tosa.exp %ls : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// The logsumexp is also returned, and a mask may hide every key of a row:
// there the frontend's logsumexp depends on how its row max starts (NaN
// from -inf, -inf from TOSA's lowering, which starts at the lowest finite
// value) and on the fill, so the op's -inf is not it. Returned where every
// row sees a key, it is raised: test/Integration/raise-logsumexp.mlir.
// CHECK-LABEL: func.func @lse_returned_lowest_fill
// CHECK-NOT: fa.attention
func.func @lse_returned_lowest_fill(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %keep: tensor<1x8x8xi1>) -> (tensor<2x8x4xf32>, tensor<2x8x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %lowest = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s = tosa.select %keep, %s0, %lowest : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %xm = tosa.sub %s, %m : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %xm : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %log = tosa.log %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %lse = tosa.add %m, %log : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %ls = tosa.sub %s, %lse : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the logsumexp is used outside the pattern and a row may have no visible key, where the frontend's logsumexp has no exact counterpart in the op}}
  %p = tosa.exp %ls : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o, %lse : tensor<2x8x4xf32>, tensor<2x8x1xf32>
}

// -----

// P + 1.0 is not an identity step.
// CHECK-LABEL: func.func @probabilities_plus_one
// CHECK-NOT: fa.attention
func.func @probabilities_plus_one(%s: tensor<2x8x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<2x8x8xf32>}> : () -> tensor<2x8x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %xm = tosa.sub %s, %m : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: P·V reads add(...), not exp(x - max) / sum}}
  %e = tosa.exp %xm : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %p1 = tosa.add %p, %ones : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p1, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// The row max's argmax is used: the two-result generic is not only a max.
// CHECK-LABEL: func.func @argmax_used
// CHECK-NOT: fa.attention
func.func @argmax_used(%s: tensor<8x8xf32>, %v: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8xi64>) {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<8xi64>
  %zi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<8xi64>) -> tensor<8xi64>
  %er = tensor.empty() : tensor<8xf32>
  %mi = linalg.fill ins(%neginf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x8xf32>) outs(%mi, %zi : tensor<8xf32>, tensor<8xi64>) {
  ^bb0(%a: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %m = arith.maximumf %a, %acc : f32
    %gt = arith.cmpf ogt, %a, %acc : f32
    %sel = arith.select %gt, %ji, %idx : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<8xf32>, tensor<8xi64>)
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @+1 {{attention not raised: the row max is not a max over one dim of the scores}}
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %max#0 : tensor<8x8xf32>, tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<8x8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x8xf32>) outs(%zr : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<8x8xf32>, tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %l: f32, %out: f32):
    %r = arith.divf %a, %l : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %eo = tensor.empty() : tensor<8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x4xf32>) -> tensor<8x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%zo : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o, %max#1 : tensor<8x4xf32>, tensor<8xi64>
}

// -----

// The log-sum-exp adds another tensor's max than the one its sum subtracts
// (here a max of the scores computed twice): not read as the same max.
// CHECK-LABEL: func.func @lse_other_max
// CHECK-NOT: fa.attention
func.func @lse_other_max(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %m2 = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %xm = tosa.sub %s, %m : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %xm : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %log = tosa.log %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %lse = tosa.add %m2, %log : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %ls = tosa.sub %s, %lse : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the log-sum-exp adds a different max than it subtracts inside its sum}}
  %p = tosa.exp %ls : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// The row sum narrows the exponentials to f16 before it adds them (a
// widening cast is read through: a sum in f32 of f16 values only rounds
// less; a narrowing one changes the normalizer by f16 rounding).
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#row3 = affine_map<(b, i, j) -> (b, i)>
func.func @row_sum_narrowed(%s: tensor<2x8x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %zero_h = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %er = tensor.empty() : tensor<2x8xf32>
  %erh = tensor.empty() : tensor<2x8xf16>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x8xf32>) -> tensor<2x8xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  // expected-remark @+1 {{attention not raised: the row sum is not a sum over one dim of the softmax numerator}}
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %max : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero_h : f16) outs(%erh : tensor<2x8xf16>) -> tensor<2x8xf16>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf16>) {
  ^bb0(%a: f32, %acc: f16):
    %0 = arith.truncf %a : f32 to f16
    %1 = arith.addf %0, %acc : f16
    linalg.yield %1 : f16
  } -> tensor<2x8xf16>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf16>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %l: f16, %out: f32):
    %l32 = arith.extf %l : f16 to f32
    %0 = arith.divf %a, %l32 : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}
