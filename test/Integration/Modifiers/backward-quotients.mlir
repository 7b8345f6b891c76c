// The quotient rule of score_mod gradients on operands of both signs,
// against float64 finite differences (score_modifiers_backward_oracle.py
// --cases quotients, which uses no derivative formula): each case runs the
// forward op, then the backward op on its O and logsumexp, and prints dQ,
// dK, dV. The scores take both signs (inputs 2 sin(...), d = 4).
//   @numerator_and_denominator  (s - 1) / (2 + s^2): both vary with s,
//                               the numerator changes sign
//   @constant_over_score        2 / (1 + e^-s): a constant numerator, the
//                               quotient rule's second term alone
//   @negative_denominator       s / (-1 - s^2 / 4): a denominator below
//                               zero everywhere
// backward-modifiers.mlir's @quotient divides by 1 + s^2 / 2; here the
// numerator, then the denominator, carries the sign (issue 50's audit: the
// rule's second term added instead of subtracted passed every case that
// divides by a constant). Paths: the reference decomposition, the tiled
// lowering with its own tiles and with blocks of 4 keys.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %python %S/../Inputs/score_modifiers_backward_oracle.py --cases quotients > %t.oracle
// RUN: %compare %t.reference %t.oracle --atol 2e-5 --rtol 1e-4 | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: %compare %t.tiled %t.oracle --atol 2e-5 --rtol 1e-4 | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline=max-block-kv=4 | %mlir-run > %t.small
// RUN: %compare %t.small %t.oracle --atol 2e-5 --rtol 1e-4 | FileCheck %s
// CHECK: MATCH 672 values

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x11x4xf32>
!lse = tensor<1x2x6xf32>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @numerator_and_denominator(%q: !q, %k: !kv, %v: !kv, %do: !q) -> (!q, !kv, !kv) {
  %o, %l = fa.attention %q, %k, %v scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %n = arith.subf %s, %one : f32
    %ss = arith.mulf %s, %s : f32
    %d = arith.addf %ss, %two : f32
    %r = arith.divf %n, %d : f32
    fa.yield %r : f32
  } : !q, !kv, !kv -> !q, !lse
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %l scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %n = arith.subf %s, %one : f32
    %ss = arith.mulf %s, %s : f32
    %d = arith.addf %ss, %two : f32
    %r = arith.divf %n, %d : f32
    fa.yield %r : f32
  } : !q, !kv, !kv, !q, !q, !lse -> !q, !kv, !kv
  return %dq, %dk, %dv : !q, !kv, !kv
}

func.func @constant_over_score(%q: !q, %k: !kv, %v: !kv, %do: !q) -> (!q, !kv, !kv) {
  %o, %l = fa.attention %q, %k, %v scale = 0.75 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %m = arith.negf %s : f32
    %e = math.exp %m : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %two, %d : f32
    fa.yield %r : f32
  } : !q, !kv, !kv -> !q, !lse
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %l scale = 0.75 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %m = arith.negf %s : f32
    %e = math.exp %m : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %two, %d : f32
    fa.yield %r : f32
  } : !q, !kv, !kv, !q, !q, !lse -> !q, !kv, !kv
  return %dq, %dk, %dv : !q, !kv, !kv
}

func.func @negative_denominator(%q: !q, %k: !kv, %v: !kv, %do: !q) -> (!q, !kv, !kv) {
  %o, %l = fa.attention %q, %k, %v scale = 1.0 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %m1 = arith.constant -1.0 : f32
    %q4 = arith.constant 0.25 : f32
    %ss = arith.mulf %s, %s : f32
    %t = arith.mulf %ss, %q4 : f32
    %d = arith.subf %m1, %t : f32
    %r = arith.divf %s, %d : f32
    fa.yield %r : f32
  } : !q, !kv, !kv -> !q, !lse
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %l scale = 1.0 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %m1 = arith.constant -1.0 : f32
    %q4 = arith.constant 0.25 : f32
    %ss = arith.mulf %s, %s : f32
    %t = arith.mulf %ss, %q4 : f32
    %d = arith.subf %m1, %t : f32
    %r = arith.divf %s, %d : f32
    fa.yield %r : f32
  } : !q, !kv, !kv, !q, !q, !lse -> !q, !kv, !kv
  return %dq, %dk, %dv : !q, !kv, !kv
}

// Deterministic inputs: 2 sin(0.7 (17 a + c) + seed) over the flattened
// [rows, 4] view (as score_modifiers_oracle.py computes them).
func.func @input(%seed: f32, %rows: index) -> tensor<?x4xf32> {
  %e = tensor.empty(%rows) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x4xf32>) {
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
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

func.func @print4(%t: tensor<1x2x?x4xf32>) {
  %u = tensor.cast %t : tensor<1x2x?x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print(%dq: !q, %dk: !kv, %dv: !kv) {
  %a = tensor.cast %dq : !q to tensor<1x2x?x4xf32>
  call @print4(%a) : (tensor<1x2x?x4xf32>) -> ()
  %b = tensor.cast %dk : !kv to tensor<1x2x?x4xf32>
  call @print4(%b) : (tensor<1x2x?x4xf32>) -> ()
  %c = tensor.cast %dv : !kv to tensor<1x2x?x4xf32>
  call @print4(%c) : (tensor<1x2x?x4xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %c12 = arith.constant 12 : index
  %c22 = arith.constant 22 : index
  %qf = call @input(%s1, %c12) : (f32, index) -> tensor<?x4xf32>
  %kf = call @input(%s2, %c22) : (f32, index) -> tensor<?x4xf32>
  %vf = call @input(%s3, %c22) : (f32, index) -> tensor<?x4xf32>
  %gf = call @input(%s4, %c12) : (f32, index) -> tensor<?x4xf32>
  %qs = tensor.cast %qf : tensor<?x4xf32> to tensor<12x4xf32>
  %ks = tensor.cast %kf : tensor<?x4xf32> to tensor<22x4xf32>
  %vs = tensor.cast %vf : tensor<?x4xf32> to tensor<22x4xf32>
  %gs = tensor.cast %gf : tensor<?x4xf32> to tensor<12x4xf32>
  %q = tensor.expand_shape %qs [[0, 1, 2], [3]] output_shape [1, 2, 6, 4] : tensor<12x4xf32> into !q
  %k = tensor.expand_shape %ks [[0, 1, 2], [3]] output_shape [1, 2, 11, 4] : tensor<22x4xf32> into !kv
  %v = tensor.expand_shape %vs [[0, 1, 2], [3]] output_shape [1, 2, 11, 4] : tensor<22x4xf32> into !kv
  %do = tensor.expand_shape %gs [[0, 1, 2], [3]] output_shape [1, 2, 6, 4] : tensor<12x4xf32> into !q
  %numerator_and_denominator_q, %numerator_and_denominator_k, %numerator_and_denominator_v = call @numerator_and_denominator(%q, %k, %v, %do) : (!q, !kv, !kv, !q) -> (!q, !kv, !kv)
  call @print(%numerator_and_denominator_q, %numerator_and_denominator_k, %numerator_and_denominator_v) : (!q, !kv, !kv) -> ()
  %constant_over_score_q, %constant_over_score_k, %constant_over_score_v = call @constant_over_score(%q, %k, %v, %do) : (!q, !kv, !kv, !q) -> (!q, !kv, !kv)
  call @print(%constant_over_score_q, %constant_over_score_k, %constant_over_score_v) : (!q, !kv, !kv) -> ()
  %negative_denominator_q, %negative_denominator_k, %negative_denominator_v = call @negative_denominator(%q, %k, %v, %do) : (!q, !kv, !kv, !q) -> (!q, !kv, !kv)
  call @print(%negative_denominator_q, %negative_denominator_k, %negative_denominator_v) : (!q, !kv, !kv) -> ()
  return
}
