// Linear attention as a frontend writes it in linalg, the quadratic order
// (φ(Q)·φ(K)ᵀ)·V, raised to fa.linear_attention and run against the
// program as written (fa-cpu-pipeline=raise=false). B = 1, H = 2, N = 16,
// D = Dv = 4, f32:
// - @elu_normalized: φ = elu + 1, the product divided by Σ_j W + 1e-6;
// - @relu_causal_select: φ = relu, select(j <= i, 0.5 · S, 0) in one body,
//   the weights divided by their row sum + 1e-6 before the product;
// - @identity_tril_multiply: no feature map, S times a 0/1 tril tensor
//   computed from positions;
// - @retnet: a decay table select(j <= i, exp((i − j) · ln γ_h), 0) with
//   γ = (0.9, 0.5) as a tensor the table reads.
// Tolerance: the orders round differently (rtol 1e-5), and V is signed, so
// some outputs cancel to near 0 (atol 1e-5, a few ulps of the terms).
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 512 values
// RAISED-LABEL: func.func @elu_normalized
// RAISED: fa.linear_attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.000000e+00 normalize(eps = 9.9999999747524271E-7) : tensor<1x2x16x4xf32>
// RAISED-NOT: linalg.reduce
// RAISED-LABEL: func.func @relu_causal_select
// RAISED: fa.linear_attention %{{.*}}, %{{.*}}, %{{.*}} scale = 5.000000e-01 causal normalize(eps = 9.9999999747524271E-7) :
// RAISED-LABEL: func.func @identity_tril_multiply
// RAISED: fa.linear_attention %arg0, %arg1, %arg2 scale = 1.000000e+00 causal :
// RAISED-LABEL: func.func @retnet
// RAISED: %[[G:.*]] = arith.constant dense<[0.899999976, 5.000000e-01]> : tensor<2xf32>
// RAISED: fa.linear_attention %{{.*}}, %{{.*}}, %{{.*}} decay(%[[G]] : tensor<2xf32>) scale = 1.000000e+00 causal :
// RAISED-NOT: math.exp
// RAISED-LABEL: func.func @input

!t = tensor<1x2x16x4xf32>
!s = tensor<1x2x16x16xf32>
#id = affine_map<(b, h, i, d) -> (b, h, i, d)>
#ids = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i)>
#rowo = affine_map<(b, h, i, e) -> (b, h, i)>
#q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#sc = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#w = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#ij = affine_map<(b, h, i, j) -> (i, j)>
#hij = affine_map<(b, h, i, j) -> (h, i, j)>
#par4 = ["parallel", "parallel", "parallel", "parallel"]
#qk = ["parallel", "parallel", "parallel", "parallel", "reduction"]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @elu_normalized(%q: !t, %k: !t, %v: !t) -> !t {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %et = tensor.empty() : !t
  %fq = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par4}
      ins(%q : !t) outs(%et : !t) {
  ^bb0(%x: f32, %o: f32):
    %p = arith.cmpf ogt, %x, %zero : f32
    %a = arith.addf %x, %one : f32
    %e = math.exp %x : f32
    %r = arith.select %p, %a, %e : f32
    linalg.yield %r : f32
  } -> !t
  %fk = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par4}
      ins(%k : !t) outs(%et : !t) {
  ^bb0(%x: f32, %o: f32):
    %p = arith.cmpf ogt, %x, %zero : f32
    %a = arith.addf %x, %one : f32
    %e = math.exp %x : f32
    %r = arith.select %p, %a, %e : f32
    linalg.yield %r : f32
  } -> !t
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%fq, %fk : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %num = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%s, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  %er = tensor.empty() : tensor<1x2x16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %den = linalg.reduce ins(%s : !s) outs(%zr : tensor<1x2x16xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %out = linalg.generic {indexing_maps = [#id, #rowo, #id], iterator_types = #par4}
      ins(%num, %den : !t, tensor<1x2x16xf32>) outs(%et : !t) {
  ^bb0(%n: f32, %d: f32, %o: f32):
    %de = arith.addf %d, %eps : f32
    %r = arith.divf %n, %de : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

func.func @relu_causal_select(%q: !t, %k: !t, %v: !t) -> !t {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %eps = arith.constant 1.0e-6 : f32
  %et = tensor.empty() : !t
  %fq = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par4}
      ins(%q : !t) outs(%et : !t) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> !t
  %fk = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par4}
      ins(%k : !t) outs(%et : !t) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> !t
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%fq, %fk : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %w = linalg.generic {indexing_maps = [#ids, #ids], iterator_types = #par4}
      ins(%s : !s) outs(%es : !s) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sle, %j, %i : index
    %y = arith.mulf %x, %half : f32
    %r = arith.select %c, %y, %zero : f32
    linalg.yield %r : f32
  } -> !s
  %er = tensor.empty() : tensor<1x2x16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %den = linalg.reduce ins(%w : !s) outs(%zr : tensor<1x2x16xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %wn = linalg.generic {indexing_maps = [#ids, #row, #ids], iterator_types = #par4}
      ins(%w, %den : !s, tensor<1x2x16xf32>) outs(%es : !s) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %de = arith.addf %d, %eps : f32
    %r = arith.divf %x, %de : f32
    linalg.yield %r : f32
  } -> !s
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%wn, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

func.func @identity_tril_multiply(%q: !t, %k: !t, %v: !t) -> !t {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %et = tensor.empty() : !t
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %em = tensor.empty() : tensor<16x16xf32>
  %tril = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%em : tensor<16x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sge, %i, %j : index
    %f = arith.uitofp %c : i1 to f32
    linalg.yield %f : f32
  } -> tensor<16x16xf32>
  %w = linalg.generic {indexing_maps = [#ids, #ij, #ids], iterator_types = #par4}
      ins(%s, %tril : !s, tensor<16x16xf32>) outs(%es : !s) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %r = arith.mulf %x, %m : f32
    linalg.yield %r : f32
  } -> !s
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%w, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

func.func @retnet(%q: !t, %k: !t, %v: !t) -> !t {
  %zero = arith.constant 0.0 : f32
  %gamma = arith.constant dense<[0.9, 0.5]> : tensor<2xf32>
  %et = tensor.empty() : !t
  %es = tensor.empty() : !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %ed = tensor.empty() : tensor<2x16x16xf32>
  %decay = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gamma : tensor<2xf32>) outs(%ed : tensor<2x16x16xf32>) {
  ^bb0(%g: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi sle, %j, %i : index
    %n = arith.subi %i, %j : index
    %ni = arith.index_cast %n : index to i64
    %nf = arith.sitofp %ni : i64 to f32
    %lg = math.log %g : f32
    %x = arith.mulf %nf, %lg : f32
    %p = math.exp %x : f32
    %r = arith.select %c, %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x16x16xf32>
  %w = linalg.generic {indexing_maps = [#ids, #hij, #ids], iterator_types = #par4}
      ins(%s, %decay : !s, tensor<2x16x16xf32>) outs(%es : !s) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %r = arith.mulf %x, %m : f32
    linalg.yield %r : f32
  } -> !s
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%w, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}

// Deterministic inputs: sin(0.7 * (131 h + 17 i + d) + seed).
func.func @input(%seed: f32) -> !t {
  %e = tensor.empty() : !t
  %r = linalg.generic {indexing_maps = [#id], iterator_types = #par4}
      outs(%e : !t) {
  ^bb0(%o: f32):
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %h, %c131 : index
    %b1 = arith.muli %i, %c17 : index
    %s0 = arith.addi %a1, %b1 : index
    %s1 = arith.addi %s0, %d : index
    %ii = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    linalg.yield %z : f32
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
  %q = call @input(%s1) : (f32) -> !t
  %k = call @input(%s2) : (f32) -> !t
  %v = call @input(%s3) : (f32) -> !t
  %o1 = call @elu_normalized(%q, %k, %v) : (!t, !t, !t) -> !t
  call @print(%o1) : (!t) -> ()
  %o2 = call @relu_causal_select(%q, %k, %v) : (!t, !t, !t) -> !t
  call @print(%o2) : (!t) -> ()
  %o3 = call @identity_tril_multiply(%q, %k, %v) : (!t, !t, !t) -> !t
  call @print(%o3) : (!t) -> ()
  %o4 = call @retnet(%q, %k, %v) : (!t, !t, !t) -> !t
  call @print(%o4) : (!t) -> ()
  return
}
