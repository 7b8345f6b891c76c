// P·V is linear in P: with P a linear combination of softmaxes (the
// Differential Transformer's P₁ − λ·P₂, with λ a run-time scalar; an
// average of two attentions with per-head weights), fa-normalize-frontend
// distributes the contraction, (a·P₁ + b·P₂)·V = a·(P₁·V) + b·(P₂·V), and
// each P·V raises to an fa.attention; the combination is applied to their
// outputs by the same body. Near misses, one edit each, keep their form:
// a constant added (affine, not linear), a product of the two softmaxes,
// a weight that varies along the keys (read from a tensor, or computed
// from the key's position), a second term that is no softmax.
// Raised and unraised runs agree.
// RUN: fa-opt %s --fa-raise-attention --fa-normalize-frontend --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// Each near miss says why the combination was not distributed:
// RUN: fa-opt %s --fa-normalize-frontend --fa-raise-attention=explain=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: attention not raised: P·V reads add(...), not exp(x - max) / sum; as a combination of softmaxes it is not distributed over P·V: the combination is not linear and homogeneous in the softmaxes
// REMARK-DAG: remark: attention not raised: P·V reads mul(...), not exp(x - max) / sum; as a combination of softmaxes it is not distributed over P·V: the combination is not linear and homogeneous in the softmaxes
// REMARK-DAG: remark: attention not raised: P·V reads sub(...), not exp(x - max) / sum; as a combination of softmaxes it is not distributed over P·V: a weight of the combination varies along the keys P·V sums over
// REMARK-DAG: remark: attention not raised: P·V reads sub(...), not exp(x - max) / sum; as a combination of softmaxes it is not distributed over P·V: a weight of the combination is computed from positions (linalg.index)
// REMARK-DAG: remark: attention not raised: P·V reads sub(...), not exp(x - max) / sum{{$}}
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 448 values
// RAISED-LABEL: func.func @differential(
// RAISED-COUNT-2: fa.attention
// RAISED: linalg.generic
// RAISED: arith.mulf
// RAISED: arith.subf
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @per_head_average(
// RAISED-COUNT-2: fa.attention
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @near_miss_affine(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @near_miss_product(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @near_miss_weight_along_keys(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @near_miss_not_a_softmax(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @near_miss_weight_from_positions(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @input

!t = tensor<1x2x8x4xf32>
!s = tensor<1x2x8x8xf32>
#q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#sc = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#scalar = affine_map<(b, h, i, j) -> ()>
#head = affine_map<(b, h, i, j) -> (h)>
#key = affine_map<(b, h, i, j) -> (j)>
#w = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#par4 = ["parallel", "parallel", "parallel", "parallel"]
#qk = ["parallel", "parallel", "parallel", "parallel", "reduction"]

func.func private @printMemrefF32(tensor<*xf32>)

// P₁ − λ·P₂, λ a run-time rank-0 tensor (as Diff Transformer computes it).
func.func @differential(%q1: !t, %k1: !t, %q2: !t, %k2: !t, %v: !t, %lambda: tensor<f32>, %weights: tensor<2xf32>, %keyw: tensor<8xf32>) -> !t {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s1 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q1, %k1 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p1 = linalg.softmax dimension(3) ins(%s1 : !s) outs(%es : !s) -> !s
  %s2 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q2, %k2 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p2 = linalg.softmax dimension(3) ins(%s2 : !s) outs(%es : !s) -> !s
  %d = linalg.generic {indexing_maps = [#id, #id, #scalar, #id], iterator_types = #par4}
      ins(%p1, %p2, %lambda : !s, !s, tensor<f32>) outs(%es : !s) {
  ^bb0(%a: f32, %b: f32, %l: f32, %o: f32):
    %lb = arith.mulf %l, %b : f32
    %r = arith.subf %a, %lb : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%d, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// w[h]·P₁ + (1 − w[h])·P₂: weights per head, and the weight of the
// second computed in the body.
func.func @per_head_average(%q1: !t, %k1: !t, %q2: !t, %k2: !t, %v: !t, %lambda: tensor<f32>, %weights: tensor<2xf32>, %keyw: tensor<8xf32>) -> !t {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s1 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q1, %k1 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p1 = linalg.softmax dimension(3) ins(%s1 : !s) outs(%es : !s) -> !s
  %s2 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q2, %k2 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p2 = linalg.softmax dimension(3) ins(%s2 : !s) outs(%es : !s) -> !s
  %one = arith.constant 1.0 : f32
  %d = linalg.generic {indexing_maps = [#id, #head, #id, #id], iterator_types = #par4}
      ins(%p1, %weights, %p2 : !s, tensor<2xf32>, !s) outs(%es : !s) {
  ^bb0(%a: f32, %w: f32, %b: f32, %o: f32):
    %wa = arith.mulf %a, %w : f32
    %rest = arith.subf %one, %w : f32
    %wb = arith.mulf %rest, %b : f32
    %r = arith.addf %wa, %wb : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%d, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Near miss: P₁ − λ·P₂ + 0.01: a constant added (0.01 · Σ_j V[j]
// per row, not an attention's).
func.func @near_miss_affine(%q1: !t, %k1: !t, %q2: !t, %k2: !t, %v: !t, %lambda: tensor<f32>, %weights: tensor<2xf32>, %keyw: tensor<8xf32>) -> !t {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s1 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q1, %k1 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p1 = linalg.softmax dimension(3) ins(%s1 : !s) outs(%es : !s) -> !s
  %s2 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q2, %k2 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p2 = linalg.softmax dimension(3) ins(%s2 : !s) outs(%es : !s) -> !s
  %c = arith.constant 0.01 : f32
  %d = linalg.generic {indexing_maps = [#id, #id, #scalar, #id], iterator_types = #par4}
      ins(%p1, %p2, %lambda : !s, !s, tensor<f32>) outs(%es : !s) {
  ^bb0(%a: f32, %b: f32, %l: f32, %o: f32):
    %lb = arith.mulf %l, %b : f32
    %r0 = arith.subf %a, %lb : f32
    %r = arith.addf %r0, %c : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%d, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Near miss: P₁ · P₂ elementwise (quadratic).
func.func @near_miss_product(%q1: !t, %k1: !t, %q2: !t, %k2: !t, %v: !t, %lambda: tensor<f32>, %weights: tensor<2xf32>, %keyw: tensor<8xf32>) -> !t {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s1 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q1, %k1 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p1 = linalg.softmax dimension(3) ins(%s1 : !s) outs(%es : !s) -> !s
  %s2 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q2, %k2 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p2 = linalg.softmax dimension(3) ins(%s2 : !s) outs(%es : !s) -> !s
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = #par4}
      ins(%p1, %p2 : !s, !s) outs(%es : !s) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%d, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Near miss: P₁ − u[j]·P₂, a weight per key: not a factor of the sum
// over keys.
func.func @near_miss_weight_along_keys(%q1: !t, %k1: !t, %q2: !t, %k2: !t, %v: !t, %lambda: tensor<f32>, %weights: tensor<2xf32>, %keyw: tensor<8xf32>) -> !t {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s1 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q1, %k1 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p1 = linalg.softmax dimension(3) ins(%s1 : !s) outs(%es : !s) -> !s
  %s2 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q2, %k2 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p2 = linalg.softmax dimension(3) ins(%s2 : !s) outs(%es : !s) -> !s
  %d = linalg.generic {indexing_maps = [#id, #id, #key, #id], iterator_types = #par4}
      ins(%p1, %p2, %keyw : !s, !s, tensor<8xf32>) outs(%es : !s) {
  ^bb0(%a: f32, %b: f32, %u: f32, %o: f32):
    %ub = arith.mulf %u, %b : f32
    %r = arith.subf %a, %ub : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%d, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Near miss: P₁ − λ·S₂, the second term raw scores (no exponential):
// S₂·V is no attention.
func.func @near_miss_not_a_softmax(%q1: !t, %k1: !t, %q2: !t, %k2: !t, %v: !t, %lambda: tensor<f32>, %weights: tensor<2xf32>, %keyw: tensor<8xf32>) -> !t {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s1 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q1, %k1 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p1 = linalg.softmax dimension(3) ins(%s1 : !s) outs(%es : !s) -> !s
  %s2 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q2, %k2 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p2 = linalg.softmax dimension(3) ins(%s2 : !s) outs(%es : !s) -> !s
  %d = linalg.generic {indexing_maps = [#id, #id, #scalar, #id], iterator_types = #par4}
      ins(%p1, %s2, %lambda : !s, !s, tensor<f32>) outs(%es : !s) {
  ^bb0(%a: f32, %b: f32, %l: f32, %o: f32):
    %lb = arith.mulf %l, %b : f32
    %r = arith.subf %a, %lb : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%d, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Near miss: P₁ − w(j)·P₂ with w computed in the body from the key's
// position (linalg.index): a weight per key, however it is spelled.
func.func @near_miss_weight_from_positions(%q1: !t, %k1: !t, %q2: !t, %k2: !t, %v: !t, %lambda: tensor<f32>, %weights: tensor<2xf32>, %keyw: tensor<8xf32>) -> !t {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s1 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q1, %k1 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p1 = linalg.softmax dimension(3) ins(%s1 : !s) outs(%es : !s) -> !s
  %s2 = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q2, %k2 : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %p2 = linalg.softmax dimension(3) ins(%s2 : !s) outs(%es : !s) -> !s
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = #par4}
      ins(%p1, %p2 : !s, !s) outs(%es : !s) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %j = linalg.index 3 : index
    %c4 = arith.constant 4 : index
    %early = arith.cmpi ult, %j, %c4 : index
    %w3 = arith.constant 0.3 : f32
    %w7 = arith.constant 0.7 : f32
    %w = arith.select %early, %w3, %w7 : f32
    %wb = arith.mulf %w, %b : f32
    %r = arith.subf %a, %wb : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%d, %v : !s, !t) outs(%zo : !t) {
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

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %s5 = arith.constant 5.0 : f32
  %q1 = call @input(%s1) : (f32) -> !t
  %k1 = call @input(%s2) : (f32) -> !t
  %q2 = call @input(%s3) : (f32) -> !t
  %k2 = call @input(%s4) : (f32) -> !t
  %v = call @input(%s5) : (f32) -> !t
  %lambda = arith.constant dense<0.35> : tensor<f32>
  %weights = arith.constant dense<[0.25, 0.8]> : tensor<2xf32>
  %keyw = arith.constant dense<[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]> : tensor<8xf32>
  %o0 = call @differential(%q1, %k1, %q2, %k2, %v, %lambda, %weights, %keyw) : (!t, !t, !t, !t, !t, tensor<f32>, tensor<2xf32>, tensor<8xf32>) -> !t
  %u0 = tensor.cast %o0 : !t to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %o1 = call @per_head_average(%q1, %k1, %q2, %k2, %v, %lambda, %weights, %keyw) : (!t, !t, !t, !t, !t, tensor<f32>, tensor<2xf32>, tensor<8xf32>) -> !t
  %u1 = tensor.cast %o1 : !t to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %o2 = call @near_miss_affine(%q1, %k1, %q2, %k2, %v, %lambda, %weights, %keyw) : (!t, !t, !t, !t, !t, tensor<f32>, tensor<2xf32>, tensor<8xf32>) -> !t
  %u2 = tensor.cast %o2 : !t to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %o3 = call @near_miss_product(%q1, %k1, %q2, %k2, %v, %lambda, %weights, %keyw) : (!t, !t, !t, !t, !t, tensor<f32>, tensor<2xf32>, tensor<8xf32>) -> !t
  %u3 = tensor.cast %o3 : !t to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %o4 = call @near_miss_weight_along_keys(%q1, %k1, %q2, %k2, %v, %lambda, %weights, %keyw) : (!t, !t, !t, !t, !t, tensor<f32>, tensor<2xf32>, tensor<8xf32>) -> !t
  %u4 = tensor.cast %o4 : !t to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %o5 = call @near_miss_not_a_softmax(%q1, %k1, %q2, %k2, %v, %lambda, %weights, %keyw) : (!t, !t, !t, !t, !t, tensor<f32>, tensor<2xf32>, tensor<8xf32>) -> !t
  %u5 = tensor.cast %o5 : !t to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  %o6 = call @near_miss_weight_from_positions(%q1, %k1, %q2, %k2, %v, %lambda, %weights, %keyw) : (!t, !t, !t, !t, !t, tensor<f32>, tensor<2xf32>, tensor<8xf32>) -> !t
  %u6 = tensor.cast %o6 : !t to tensor<*xf32>
  call @printMemrefF32(%u6) : (tensor<*xf32>) -> ()
  return
}
