// Masks, biases and scales that fa.attention's mask and scale cannot state
// (fills other than -inf, a mask before a scale, a 0/1 mask added or
// multiplied, a scale that varies along the keys, biases and masks under a
// tensor scale, selects whose condition compares the score itself) are
// raised as one score function over the tensors they read, element for
// element (score_mod reads each with tensor.extract at
// the score's position, at 0 where it broadcasts). They were near misses
// of the op's mask form, never of meaning; raise-score-function-tensors.mlir
// checks the numbers.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// -----
// (was a near miss in algebraic-rules-near-misses.mlir)
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// A tensor scale that varies along the keys is no scale of Q.
// CHECK-LABEL: func.func @scale_along_keys
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%c0[_0-9]*}}, {{%c0[_0-9]*}}, {{%arg[0-9]+}}] : tensor<1x1x1x8xf32>
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @scale_along_keys(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %t: tensor<8xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (j)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %t : tensor<2x8x8xf32>, tensor<8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %tt: f32, %o: f32):
    %0 = arith.mulf %tt, %a : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----
// (was a near miss in algebraic-rules-near-misses.mlir)
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// (s + bias)·t[h]: the bias would be scaled by the tensor too.
// CHECK-LABEL: func.func @bias_under_tensor_scale
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%c0[_0-9]*}}, {{%c0[_0-9]*}}] : tensor<1x2x1x1xf32>
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @bias_under_tensor_scale(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %t: tensor<2xf32>, %bias: tensor<2x8x8xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (b)>, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %t, %bias : tensor<2x8x8xf32>, tensor<2xf32>, tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %tt: f32, %bb: f32, %o: f32):
    %sb = arith.addf %a, %bb : f32
    %0 = arith.mulf %tt, %sb : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----
// (was a near miss in algebraic-rules-near-misses.mlir)
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// select(m, s, -inf)·t[h]: the mask is under the tensor scale.
// CHECK-LABEL: func.func @mask_under_tensor_scale
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%c0[_0-9]*}}, {{%c0[_0-9]*}}] : tensor<1x2x1x1xf32>
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x2x8x8xi1>
// CHECK: arith.constant 0xFF800000
// CHECK: arith.select
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @mask_under_tensor_scale(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %t: tensor<2xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (b)>, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %t, %keep : tensor<2x8x8xf32>, tensor<2xf32>, tensor<2x8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %tt: f32, %mm: i1, %o: f32):
    %hide = arith.constant 0xFF800000 : f32
    %sel = arith.select %mm, %a, %hide : f32
    %0 = arith.mulf %tt, %sel : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----
// (was a near miss in algebraic-rules-near-misses.mlir)
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// tanh(s)·t[h]: a score function under the tensor scale.
// CHECK-LABEL: func.func @function_under_tensor_scale
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%c0[_0-9]*}}, {{%c0[_0-9]*}}] : tensor<1x2x1x1xf32>
// CHECK: math.tanh
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @function_under_tensor_scale(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %t: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (b)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %t : tensor<2x8x8xf32>, tensor<2xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %tt: f32, %o: f32):
    %th = math.tanh %a : f32
    %0 = arith.mulf %tt, %th : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----
// (was a near miss in algebraic-rules-near-misses.mlir)
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// (select(m, s, -inf) + bias)·c: a scaled bias and a second mask below it.
// CHECK-LABEL: func.func @scaled_bias_and_select
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x2x8x8xi1>
// CHECK: arith.constant 0xFF800000
// CHECK: arith.select
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.addf
// CHECK: arith.constant 5.000000e-01
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @scaled_bias_and_select(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %bias: tensor<2x8x8xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %bias, %keep : tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<2x8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %mm: i1, %o: f32):
    %hide = arith.constant 0xFF800000 : f32
    %sel = arith.select %mm, %a, %hide : f32
    %sb = arith.addf %sel, %bb : f32
    %0 = arith.mulf %sb, %c : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----
// (was a near miss in multiple-masks.mlir)
// CHECK-LABEL: func.func @finite_fill_and_causal
// CHECK: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x1x8x8xi1>
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x1x8x8xf32>
// CHECK: arith.addf
// CHECK: arith.constant -1.000000e+04
// CHECK: arith.select
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @finite_fill_and_causal(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %bias: tensor<1x8x8xf32>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %causal = "tosa.const"() <{values = dense<[[[true, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false], [true, true, true, false, false, false, false, false], [true, true, true, true, false, false, false, false], [true, true, true, true, true, false, false, false], [true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true]]]> : tensor<1x8x8xi1>}> : () -> tensor<1x8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s = tosa.mul %s0, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  // A bias and a causal mask filled with -1e4: the filled keys keep a
  // weight, so the causal mask cannot become the attribute (which skips
  // them).
  %fill = "tosa.const"() <{values = dense<-1.0e4> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sb = tosa.add %s, %bias : (tensor<2x8x8xf32>, tensor<1x8x8xf32>) -> tensor<2x8x8xf32>
  %x = tosa.select %causal, %sb, %fill : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----
// (was a near miss in near-misses.mlir)
// A per-element scale tensor is not a scalar (docs/Sources.md §5.4).
// CHECK-LABEL: func.func @tensor_scale
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @tensor_scale(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>, %scale: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tensor.empty() : tensor<4xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %rm = linalg.fill ins(%neginf : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %scale : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x4xf32>) outs(%rz : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.addf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.divf %a0, %a1 : f32
    linalg.yield %d : f32
  } -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----
// (was a near miss in near-misses.mlir)
// A boolean mask added to the scores as 0/1 (docs/Sources.md §5.5).
// CHECK-LABEL: func.func @boolean_added
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x1x4x4xi1>
// CHECK: arith.uitofp
// CHECK: arith.addf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @boolean_added(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>, %m: tensor<4x4xi1>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tensor.empty() : tensor<4xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %rm = linalg.fill ins(%neginf : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<4x4xf32>, tensor<4x4xi1>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %f = arith.uitofp %a1 : i1 to f32
    %y = arith.addf %a0, %f : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x4xf32>) outs(%rz : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.addf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.divf %a0, %a1 : f32
    linalg.yield %d : f32
  } -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----
// (was a near miss in near-misses.mlir)
// A mask that multiplies the scores instead of hiding keys (docs/Sources.md §5.6).
// CHECK-LABEL: func.func @mask_multiplies
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x1x4x4xi1>
// CHECK: arith.uitofp
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @mask_multiplies(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>, %m: tensor<4x4xi1>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tensor.empty() : tensor<4xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %rm = linalg.fill ins(%neginf : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<4x4xf32>, tensor<4x4xi1>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %f = arith.uitofp %a1 : i1 to f32
    %y = arith.mulf %a0, %f : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x4xf32>) outs(%rz : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.addf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.divf %a0, %a1 : f32
    linalg.yield %d : f32
  } -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----
// Scores weighted by a tensor that selects between two small constants
// (1 or 0.25 from a boolean): the function can neither hide a key nor fill
// one with a huge value, so no row can lose every key and the op computes
// no logsumexp to restore such rows.
// CHECK-LABEL: func.func @weights_from_boolean
// CHECK-NOT: logsumexp
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: logsumexp
// CHECK: return
func.func @weights_from_boolean(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>, %m: tensor<4x4xi1>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tensor.empty() : tensor<4xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %rm = linalg.fill ins(%neginf : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x4xi1>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a1: i1, %out: f32):
    %one = arith.constant 1.0 : f32
    %quarter = arith.constant 0.25 : f32
    %f = arith.select %a1, %one, %quarter : f32
    linalg.yield %f : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x4xf32>) outs(%rz : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.addf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.divf %a0, %a1 : f32
    linalg.yield %d : f32
  } -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----
// (was a near miss in near-misses.mlir)
// select fills masked keys with -10000 and the result is scaled after: a
// hidden key's score is -10000 * 0.5, not a fill the op states (a fill after
// the scale is raised as mask_fill; test/Integration/raise-finite-fills.mlir).
// CHECK-LABEL: func.func @finite_fill
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x1x4x4xi1>
// CHECK: arith.constant -1.000000e+04
// CHECK: arith.select
// CHECK: arith.constant 5.000000e-01
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @finite_fill(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>, %m: tensor<4x4xi1>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tensor.empty() : tensor<4xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %rm = linalg.fill ins(%neginf : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %s : tensor<4x4xi1>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: i1, %a1: f32, %out: f32):
    %fill = arith.constant -10000.0 : f32
    %y0 = arith.select %a0, %a1, %fill : f32
    %y = arith.mulf %y0, %half : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x4xf32>) outs(%rz : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.addf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.divf %a0, %a1 : f32
    linalg.yield %d : f32
  } -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----
// (was a near miss in near-misses.mlir)
// (s + bias) * c with c < 0: the bias would be scaled by a negative factor
// (a -inf in it would become +inf). (With c > 0 the op's mask is c * bias:
// test/Integration/raise-algebraic-rules.mlir.)
// CHECK-LABEL: func.func @bias_before_scale
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x1x4x4xf32>
// CHECK: arith.addf
// CHECK: arith.constant -5.000000e-01
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @bias_before_scale(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>, %bias: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant -0.5 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tensor.empty() : tensor<4xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %rm = linalg.fill ins(%neginf : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %bias : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %y0 = arith.addf %a0, %a1 : f32
    %y = arith.mulf %y0, %half : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x4xf32>) outs(%rz : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.addf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.divf %a0, %a1 : f32
    linalg.yield %d : f32
  } -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----
// (was a near miss in normalization-near-misses.mlir)
// A scale splat from a runtime value (tensor.splat of an argument) is not
// a compile-time scalar.
// CHECK-LABEL: func.func @runtime_splat_scale
// CHECK: fa.attention {{.*}} score_mod {
// CHECK: tensor.extract %{{.*}}[{{%c0[_0-9]*}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}, {{%arg[0-9]+}}] : tensor<1x2x8x8xf32>
// CHECK: arith.mulf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @runtime_splat_scale(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %c: f32) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = tensor.splat %c : tensor<2x8x8xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %x = arith.mulf %s, %scale : tensor<2x8x8xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %xm = tosa.sub %x, %m : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %xm : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----
// (was a near miss in multiple-masks.mlir)
// CHECK-LABEL: func.func @bias_and_keep_mask
// CHECK: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// CHECK: tensor.extract %{{.*}} : tensor<1x1x8x8xi1>
// CHECK: tensor.extract %{{.*}} : tensor<1x1x8x8xf32>
// CHECK: arith.addf
// CHECK: arith.constant 0xFF800000
// CHECK: arith.select
// CHECK: fa.yield
// CHECK-NOT: tosa.exp
func.func @bias_and_keep_mask(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %bias: tensor<1x8x8xf32>, %keep: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %causal = "tosa.const"() <{values = dense<[[[true, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false], [true, true, true, false, false, false, false, false], [true, true, true, true, false, false, false, false], [true, true, true, true, true, false, false, false], [true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true]]]> : tensor<1x8x8xi1>}> : () -> tensor<1x8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s = tosa.mul %s0, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  // A bias and a run-time keep-mask: two mask tensors, one function.
  %sb = tosa.add %s, %bias : (tensor<2x8x8xf32>, tensor<1x8x8xf32>) -> tensor<2x8x8xf32>
  %x = tosa.select %keep, %sb, %neginf : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// The select's condition compares the score itself (s > 0 ? s : -1e4),
// then a bias tensor is added: score_mod computes the comparison from the
// score it is given and reads the bias at the score's position.
// CHECK-LABEL: func.func @condition_from_scores
// CHECK: fa.attention {{.*}} score_mod {
// CHECK-NEXT: ^bb0(%[[S:[a-z0-9]+]]: f32,
// CHECK: arith.cmpf ogt, %[[S]], %{{.*}} : f32
// CHECK: arith.select
// CHECK: tensor.extract
// CHECK: arith.addf
// CHECK: fa.yield
// CHECK-NOT: math.exp
func.func @condition_from_scores(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %bias: tensor<2x8x8xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %bias : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %fill = arith.constant -1.0e4 : f32
    %pos = arith.cmpf ogt, %a, %zero : f32
    %sel = arith.select %pos, %a, %fill : f32
    %0 = arith.addf %sel, %bb : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
