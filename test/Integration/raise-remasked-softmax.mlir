// DeBERTa's XSoftmax: masked_fill(rmask, lowest) before the softmax and
// masked_fill(rmask, 0) after it, with one [B, 1, N, N] mask that hides the
// padded keys and every key of a padded query's row. Zeroing P where the
// softmax's own mask hides changes only the rows whose every key it hides
// (elsewhere those weights are exp(fill − max) = 0 already): they become
// 0, the op's value for a row with no visible key. Raised with the mask,
// no fill and no row fix-up; with a −inf fill too. Near misses, one edit
// each: the zeroing by another mask, zeroing where the mask keeps, a fill
// of −1e4 (hidden keys keep a weight below a score of −1e4), and a second
// mask (a causal select) on the scores. Raised and unraised runs agree.
// RUN: fa-opt %s --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 768 values
// RAISED-LABEL: func.func @xsoftmax_lowest(
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<2x1x8x8xi1>) scale = 1.000000e+00 :
// RAISED-NOT: mask_fill
// RAISED-NOT: linalg.softmax
// RAISED-NOT: 0x7FC00000
// RAISED-LABEL: func.func @xsoftmax_neginf(
// RAISED: fa.attention {{.*}} mask(
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @near_miss_other_mask(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @near_miss_zero_where_kept(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @near_miss_fill_1e4(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @near_miss_second_mask(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @input

!t = tensor<2x2x8x4xf32>
!s = tensor<2x2x8x8xf32>
!m = tensor<2x1x8x8xi1>
#q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#sc = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#mk = affine_map<(b, h, i, j) -> (b, 0, i, j)>
#w = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#par4 = ["parallel", "parallel", "parallel", "parallel"]
#qk = ["parallel", "parallel", "parallel", "parallel", "reduction"]

func.func private @printMemrefF32(tensor<*xf32>)

// XSoftmax with torch.finfo(f32).min.
func.func @xsoftmax_lowest(%q: !t, %k: !t, %v: !t, %rmask: !m, %other: !m) -> !t {
  %zero = arith.constant 0.0 : f32
  %fill = arith.constant -3.40282347E+38 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %x = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %s : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r0 = arith.select %h, %fill, %a : f32
    linalg.yield %r0 : f32
  } -> !s
  %p = linalg.softmax dimension(3) ins(%x : !s) outs(%es : !s) -> !s
  %p2 = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %p : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r = arith.select %h, %zero, %a : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p2, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// The same with a -inf fill.
func.func @xsoftmax_neginf(%q: !t, %k: !t, %v: !t, %rmask: !m, %other: !m) -> !t {
  %zero = arith.constant 0.0 : f32
  %fill = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %x = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %s : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r0 = arith.select %h, %fill, %a : f32
    linalg.yield %r0 : f32
  } -> !s
  %p = linalg.softmax dimension(3) ins(%x : !s) outs(%es : !s) -> !s
  %p2 = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %p : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r = arith.select %h, %zero, %a : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p2, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Near miss: P zeroed by another mask than the one it was filled by.
func.func @near_miss_other_mask(%q: !t, %k: !t, %v: !t, %rmask: !m, %other: !m) -> !t {
  %zero = arith.constant 0.0 : f32
  %fill = arith.constant -3.40282347E+38 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %x = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %s : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r0 = arith.select %h, %fill, %a : f32
    linalg.yield %r0 : f32
  } -> !s
  // expected-remark@+1 {{P is a softmax with some rows set to 0}}
  %p = linalg.softmax dimension(3) ins(%x : !s) outs(%es : !s) -> !s
  %p2 = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%other, %p : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r = arith.select %h, %zero, %a : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p2, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Near miss: P zeroed where the mask keeps the key.
func.func @near_miss_zero_where_kept(%q: !t, %k: !t, %v: !t, %rmask: !m, %other: !m) -> !t {
  %zero = arith.constant 0.0 : f32
  %fill = arith.constant -3.40282347E+38 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %x = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %s : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r0 = arith.select %h, %fill, %a : f32
    linalg.yield %r0 : f32
  } -> !s
  // expected-remark@+1 {{P is a softmax with some rows set to 0}}
  %p = linalg.softmax dimension(3) ins(%x : !s) outs(%es : !s) -> !s
  %p2 = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %p : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r = arith.select %h, %a, %zero : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p2, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Near miss: a fill of -1e4, above which no score is known to lie.
func.func @near_miss_fill_1e4(%q: !t, %k: !t, %v: !t, %rmask: !m, %other: !m) -> !t {
  %zero = arith.constant 0.0 : f32
  %fill = arith.constant -1.0e4 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %x = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %s : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r0 = arith.select %h, %fill, %a : f32
    linalg.yield %r0 : f32
  } -> !s
  // expected-remark@+1 {{P is a softmax with some rows set to 0}}
  %p = linalg.softmax dimension(3) ins(%x : !s) outs(%es : !s) -> !s
  %p2 = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %p : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r = arith.select %h, %zero, %a : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p2, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Near miss: a causal select as well: a row the two masks hide together
// is not zeroed by the one.
func.func @near_miss_second_mask(%q: !t, %k: !t, %v: !t, %rmask: !m, %other: !m) -> !t {
  %zero = arith.constant 0.0 : f32
  %fill = arith.constant -3.40282347E+38 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %x = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %s : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r0 = arith.select %h, %fill, %a : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %later = arith.cmpi sgt, %j, %i : index
    %ninf = arith.constant 0xFF800000 : f32
    %r1 = arith.select %later, %ninf, %r0 : f32
    linalg.yield %r1 : f32
  } -> !s
  // expected-remark@+1 {{P is a softmax with some rows set to 0}}
  %p = linalg.softmax dimension(3) ins(%x : !s) outs(%es : !s) -> !s
  %p2 = linalg.generic {indexing_maps = [#mk, #id, #id], iterator_types = #par4}
      ins(%rmask, %p : !m, !s) outs(%es : !s) {
  ^bb0(%h: i1, %a: f32, %o: f32):
    %r = arith.select %h, %zero, %a : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%p2, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

func.func @input(%seed: f32) -> !t {
  %e = tensor.empty() : !t
  %r = linalg.generic {indexing_maps = [#id], iterator_types = #par4}
      outs(%e : !t) {
  ^bb0(%o: f32):
    %z0 = linalg.index 0 : index
    %a = linalg.index 1 : index
    %b = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %c57 = arith.constant 57 : index
    %a1 = arith.muli %a, %c131 : index
    %b1 = arith.muli %b, %c17 : index
    %z1 = arith.muli %z0, %c57 : index
    %s0 = arith.addi %a1, %b1 : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %z1 : index
    %i = arith.index_cast %s2 : index to i64
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

// Batch 1 pads its last `from` positions: hidden keys, and every key of a
// padded query's row (DeBERTa's mask is m[i] · m[j]).
func.func @padding(%from: index) -> !m {
  %e = tensor.empty() : !m
  %r = linalg.generic {indexing_maps = [#id], iterator_types = #par4}
      outs(%e : !m) {
  ^bb0(%o: i1):
    %b = linalg.index 0 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c1 = arith.constant 1 : index
    %inb = arith.cmpi eq, %b, %c1 : index
    %pi = arith.cmpi sge, %i, %from : index
    %pj = arith.cmpi sge, %j, %from : index
    %p = arith.ori %pi, %pj : i1
    %h = arith.andi %inb, %p : i1
    linalg.yield %h : i1
  } -> !m
  return %r : !m
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %q = call @input(%s1) : (f32) -> !t
  %k = call @input(%s2) : (f32) -> !t
  %v = call @input(%s3) : (f32) -> !t
  %rmask = call @padding(%c5) : (index) -> !m
  %other = call @padding(%c3) : (index) -> !m
  %o0 = call @xsoftmax_lowest(%q, %k, %v, %rmask, %other) : (!t, !t, !t, !m, !m) -> !t
  %u0 = tensor.cast %o0 : !t to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %o1 = call @xsoftmax_neginf(%q, %k, %v, %rmask, %other) : (!t, !t, !t, !m, !m) -> !t
  %u1 = tensor.cast %o1 : !t to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %o2 = call @near_miss_other_mask(%q, %k, %v, %rmask, %other) : (!t, !t, !t, !m, !m) -> !t
  %u2 = tensor.cast %o2 : !t to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %o3 = call @near_miss_zero_where_kept(%q, %k, %v, %rmask, %other) : (!t, !t, !t, !m, !m) -> !t
  %u3 = tensor.cast %o3 : !t to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %o4 = call @near_miss_fill_1e4(%q, %k, %v, %rmask, %other) : (!t, !t, !t, !m, !m) -> !t
  %u4 = tensor.cast %o4 : !t to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %o5 = call @near_miss_second_mask(%q, %k, %v, %rmask, %other) : (!t, !t, !t, !m, !m) -> !t
  %u5 = tensor.cast %o5 : !t to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  return
}
