// Selects on the scores whose conditions compare the score itself become
// part of fa.attention's score_mod, computed from the score it is given:
// torch.nan_to_num (x != x, x == -inf, x == +inf: 0, the lowest and the
// largest finite value) in linalg and in TOSA (equal, logical_not), and a
// clamp written as where(s > c, c, s). The inputs hold an inf in one query
// row of each head and a zero in K, so that those rows' scores are +inf,
// -inf and NaN: what nan_to_num is for. The near miss, a condition that
// compares the score with its row's max (a tensor computed from the
// scores), stays as written, with a remark. Raised and unraised runs agree.
// RUN: fa-opt %s --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=4" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 256 values
// RAISED-LABEL: func.func @nan_to_num(
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// RAISED-NEXT: ^bb0(%[[S:[a-z0-9]+]]: f32,
// RAISED-DAG: arith.cmpf uno, %[[S]], %[[S]] : f32
// RAISED-DAG: arith.cmpf oeq, %[[S]], %{{.*}} : f32
// RAISED: fa.yield
// The infinities are only compared with, never yielded: no row can lose
// every key, so no guard restores a frontend's NaN rows.
// RAISED-NOT: 0x7FC00000
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @nan_to_num_tosa(
// RAISED: fa.attention {{.*}} score_mod {
// RAISED-NEXT: ^bb0(%[[S:[a-z0-9]+]]: f32,
// RAISED: %[[EQ:.*]] = arith.cmpf oeq, %[[S]], %[[S]] : f32
// RAISED: arith.xori %[[EQ]], %{{.*}} : i1
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @clamp_where(
// RAISED: fa.attention {{.*}} score_mod {
// RAISED-NEXT: ^bb0(%[[S:[a-z0-9]+]]: f32,
// RAISED-DAG: arith.cmpf ogt, %[[S]], %{{.*}} : f32
// RAISED-DAG: arith.cmpf olt, %[[S]], %{{.*}} : f32
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @near_miss_row_max(
// RAISED-NOT: fa.attention
// RAISED: linalg.softmax

!t = tensor<1x2x8x4xf32>
!s = tensor<1x2x8x8xf32>
!r = tensor<1x2x8xf32>
#q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#sc = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i)>
#w = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#par4 = ["parallel", "parallel", "parallel", "parallel"]
#qk = ["parallel", "parallel", "parallel", "parallel", "reduction"]

func.func private @printMemrefF32(tensor<*xf32>)

// torch.nan_to_num(s * 0.5) as torch-mlir's linalg writes it: one body.
func.func @nan_to_num(%q: !t, %k: !t, %v: !t) -> !t {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %largest = arith.constant 3.40282347E+38 : f32
  %half = arith.constant 0.5 : f32
  %zq = arith.constant 0.0 : f32
  %esq = tensor.empty() : !s
  %zsq = linalg.fill ins(%zq : f32) outs(%esq : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zsq : !s) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %qm = arith.mulf %qa, %kb : f32
    %qr = arith.addf %acc, %qm : f32
    linalg.yield %qr : f32
  } -> !s
  %es = tensor.empty() : !s
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par4}
      ins(%s : !s) outs(%es : !s) {
  ^bb0(%x0: f32, %o: f32):
    %x = arith.mulf %x0, %half : f32
    %isnan = arith.cmpf uno, %x, %x : f32
    %a = arith.select %isnan, %zero, %x : f32
    %isninf = arith.cmpf oeq, %x, %ninf : f32
    %b = arith.select %isninf, %lowest, %a : f32
    %ispinf = arith.cmpf oeq, %x, %pinf : f32
    %c = arith.select %ispinf, %largest, %b : f32
    linalg.yield %c : f32
  } -> !s
  %p = linalg.softmax dimension(3) ins(%n : !s) outs(%es : !s) -> !s
  %zw = arith.constant 0.0 : f32
  %etw = tensor.empty() : !t
  %zow = linalg.fill ins(%zw : f32) outs(%etw : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p, %v : !s, !t) outs(%zow : !t) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %pm = arith.mulf %pa, %vb : f32
    %pr = arith.addf %acc, %pm : f32
    linalg.yield %pr : f32
  } -> !t
  return %out : !t
}

// The same in TOSA, as torch-mlir's TOSA backend spells the reference
// decomposition: isnan as logical_not(equal(x, x)), the infinities by
// equal with broadcast constants.
func.func @nan_to_num_tosa(%q: !t, %k: !t, %v: !t) -> !t {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %pinf = "tosa.const"() <{values = dense<0x7F800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %lowest = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %largest = "tosa.const"() <{values = dense<3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %zq = arith.constant 0.0 : f32
  %esq = tensor.empty() : !s
  %zsq = linalg.fill ins(%zq : f32) outs(%esq : !s) -> !s
  %s0 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zsq : !s) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %qm = arith.mulf %qa, %kb : f32
    %qr = arith.addf %acc, %qm : f32
    linalg.yield %qr : f32
  } -> !s
  %s = tosa.mul %s0, %half, %shift : (!s, tensor<1x1x1x1xf32>, tensor<1xi8>) -> !s
  %same = tosa.equal %s, %s : (!s, !s) -> tensor<1x2x8x8xi1>
  %isnan = tosa.logical_not %same : (tensor<1x2x8x8xi1>) -> tensor<1x2x8x8xi1>
  %n0 = tosa.select %isnan, %zero, %s : (tensor<1x2x8x8xi1>, tensor<1x1x1x1xf32>, !s) -> !s
  %isninf = tosa.equal %s, %ninf : (!s, tensor<1x1x1x1xf32>) -> tensor<1x2x8x8xi1>
  %n1 = tosa.select %isninf, %lowest, %n0 : (tensor<1x2x8x8xi1>, tensor<1x1x1x1xf32>, !s) -> !s
  %ispinf = tosa.equal %s, %pinf : (!s, tensor<1x1x1x1xf32>) -> tensor<1x2x8x8xi1>
  %n2 = tosa.select %ispinf, %largest, %n1 : (tensor<1x2x8x8xi1>, tensor<1x1x1x1xf32>, !s) -> !s
  %es = tensor.empty() : !s
  %p = linalg.softmax dimension(3) ins(%n2 : !s) outs(%es : !s) -> !s
  %zw = arith.constant 0.0 : f32
  %etw = tensor.empty() : !t
  %zow = linalg.fill ins(%zw : f32) outs(%etw : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p, %v : !s, !t) outs(%zow : !t) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %pm = arith.mulf %pa, %vb : f32
    %pr = arith.addf %acc, %pm : f32
    linalg.yield %pr : f32
  } -> !t
  return %out : !t
}

// torch.clamp(s / 2, -2, 2) written with where: s > 2 ? 2 : (s < -2 ? -2 : s).
func.func @clamp_where(%q: !t, %k: !t, %v: !t) -> !t {
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %mtwo = arith.constant -2.0 : f32
  %zq = arith.constant 0.0 : f32
  %esq = tensor.empty() : !s
  %zsq = linalg.fill ins(%zq : f32) outs(%esq : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zsq : !s) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %qm = arith.mulf %qa, %kb : f32
    %qr = arith.addf %acc, %qm : f32
    linalg.yield %qr : f32
  } -> !s
  %es = tensor.empty() : !s
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par4}
      ins(%s : !s) outs(%es : !s) {
  ^bb0(%x0: f32, %o: f32):
    %x = arith.mulf %x0, %half : f32
    %low = arith.cmpf olt, %x, %mtwo : f32
    %a = arith.select %low, %mtwo, %x : f32
    %high = arith.cmpf ogt, %x, %two : f32
    %b = arith.select %high, %two, %a : f32
    linalg.yield %b : f32
  } -> !s
  %p = linalg.softmax dimension(3) ins(%n : !s) outs(%es : !s) -> !s
  %zw = arith.constant 0.0 : f32
  %etw = tensor.empty() : !t
  %zow = linalg.fill ins(%zw : f32) outs(%etw : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p, %v : !s, !t) outs(%zow : !t) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %pm = arith.mulf %pa, %vb : f32
    %pr = arith.addf %acc, %pm : f32
    linalg.yield %pr : f32
  } -> !t
  return %out : !t
}

// Near miss: keys more than 3 below their row's max are dropped (a
// data-dependent top-k-like mask): the condition reads the row max, a
// tensor computed from the scores, which score_mod cannot read.
func.func @near_miss_row_max(%q: !t, %k: !t, %v: !t) -> !t {
  %ninf = arith.constant 0xFF800000 : f32
  %three = arith.constant 3.0 : f32
  %zq = arith.constant 0.0 : f32
  %esq = tensor.empty() : !s
  %zsq = linalg.fill ins(%zq : f32) outs(%esq : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zsq : !s) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %qm = arith.mulf %qa, %kb : f32
    %qr = arith.addf %acc, %qm : f32
    linalg.yield %qr : f32
  } -> !s
  %er = tensor.empty() : !r
  %init = linalg.fill ins(%ninf : f32) outs(%er : !r) -> !r
  %mx = linalg.reduce ins(%s : !s) outs(%init : !r) dimensions = [3]
    (%a: f32, %acc: f32) {
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %es = tensor.empty() : !s
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = #par4}
      ins(%s, %mx : !s, !r) outs(%es : !s) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %floor = arith.subf %m, %three : f32
    %drop = arith.cmpf olt, %x, %floor : f32
    %r = arith.select %drop, %ninf, %x : f32
    linalg.yield %r : f32
  } -> !s
  // expected-remark@+1 {{attention not raised}}
  %p = linalg.softmax dimension(3) ins(%n : !s) outs(%es : !s) -> !s
  %zw = arith.constant 0.0 : f32
  %etw = tensor.empty() : !t
  %zow = linalg.fill ins(%zw : f32) outs(%etw : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p, %v : !s, !t) outs(%zow : !t) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %pm = arith.mulf %pa, %vb : f32
    %pr = arith.addf %acc, %pm : f32
    linalg.yield %pr : f32
  } -> !t
  return %out : !t
}

func.func @input(%seed: f32) -> !t {
  %e = tensor.empty() : !t
  %r = linalg.generic {indexing_maps = [#id], iterator_types = #par4}
      outs(%e : !t) {
  ^bb0(%o: f32):
    %a = linalg.index 1 : index
    %b = linalg.index 2 : index
    %c = linalg.index 3 : index
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
    %three = arith.constant 3.0 : f32
    %w = arith.mulf %z, %three : f32
    linalg.yield %w : f32
  } -> !t
  return %r : !t
}

func.func @print(%t: !t) {
  %u = tensor.cast %t : !t to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %q0 = call @input(%s1) : (f32) -> !t
  // Row 1 of head 0 reads +inf, row 3 of head 1 reads -inf; key 5 of
  // head 0 has a 0 where row 1 has its inf: a NaN score.
  %q1 = tensor.insert %pinf into %q0[%c0, %c0, %c1, %c0] : !t
  %q = tensor.insert %ninf into %q1[%c0, %c1, %c3, %c2] : !t
  %k0 = call @input(%s2) : (f32) -> !t
  %k = tensor.insert %zero into %k0[%c0, %c0, %c5, %c0] : !t
  %v = call @input(%s3) : (f32) -> !t
  %o1 = call @nan_to_num(%q, %k, %v) : (!t, !t, !t) -> !t
  call @print(%o1) : (!t) -> ()
  %o2 = call @nan_to_num_tosa(%q, %k, %v) : (!t, !t, !t) -> !t
  call @print(%o2) : (!t) -> ()
  %q2 = call @input(%s1) : (f32) -> !t
  %o3 = call @clamp_where(%q2, %k0, %v) : (!t, !t, !t) -> !t
  call @print(%o3) : (!t) -> ()
  %o4 = call @near_miss_row_max(%q2, %k0, %v) : (!t, !t, !t) -> !t
  call @print(%o4) : (!t) -> ()
  return
}
