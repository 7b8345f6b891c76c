// A joint graph with a large finite fill (JAX's -0.7 · finfo.max) and a
// constant mask stored [key, query], so that the key dim is not the
// innermost: the rewrite needs every query row to keep a key (the backward
// rebuilds P from L = f + log(Nk), which rounds to f), and reads that from
// the mask's values along the key dim, at its stride.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s

// Query 1 sees no key (a column of the stored mask), though every stored
// row holds a kept element: refused.
// CHECK-LABEL: func.func @query_row_without_keys
// CHECK-NOT: fa.attention
// CHECK: return
func.func @query_row_without_keys(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %do: tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %keep = arith.constant dense<[[true, false, true, true], [true, false, true, true], [true, false, true, true], [true, false, true, true]]> : tensor<4x4xi1>
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s0 = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s0, %keep : tensor<2x4x4xf32>, tensor<4x4xi1>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %m: i1, %unused: f32):
    %ninf = arith.constant -2.38197633E+38 : f32
    %y = arith.select %m, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  // expected-remark@+1 {{attention not raised: P feeds attention's backward, its mask fills hidden keys with -2.38197633e+38, and a row may have every key hidden: the backward rebuilds P from the logsumexp f + log(Nk), which rounds to f in f32, so such a row's weights would be 1, not 1/Nk}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %vt = linalg.transpose ins(%v : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %pdp = linalg.mul ins(%p, %dp : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.reduce ins(%pdp : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %sum = arith.addf %a, %acc : f32
      linalg.yield %sum : f32
    }
  %rb = linalg.broadcast ins(%r : tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %g0 = linalg.mul ins(%p, %diff : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g0, %keep : tensor<2x4x4xf32>, tensor<4x4xi1>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %m: i1, %unused: f32):
    %zero0 = arith.constant 0.0 : f32
    %y = arith.select %m, %x, %zero0 : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %dq = linalg.batch_matmul ins(%g, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %gt = linalg.transpose ins(%g : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>
}

// -----

// Every query keeps a key, though key 1 (a row of the stored mask) is
// hidden from all: raised.
// CHECK-LABEL: func.func @every_query_keeps_a_key
// CHECK: fa.attention
// CHECK: fa.attention_backward
// CHECK: return
func.func @every_query_keeps_a_key(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %do: tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %keep = arith.constant dense<[[true, true, true, true], [false, false, false, false], [true, false, true, true], [true, true, false, true]]> : tensor<4x4xi1>
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s0 = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s0, %keep : tensor<2x4x4xf32>, tensor<4x4xi1>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %m: i1, %unused: f32):
    %ninf = arith.constant -2.38197633E+38 : f32
    %y = arith.select %m, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %vt = linalg.transpose ins(%v : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %pdp = linalg.mul ins(%p, %dp : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.reduce ins(%pdp : tensor<2x4x4xf32>) outs(%zr : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %sum = arith.addf %a, %acc : f32
      linalg.yield %sum : f32
    }
  %rb = linalg.broadcast ins(%r : tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %g0 = linalg.mul ins(%p, %diff : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g0, %keep : tensor<2x4x4xf32>, tensor<4x4xi1>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%x: f32, %m: i1, %unused: f32):
    %zero0 = arith.constant 0.0 : f32
    %y = arith.select %m, %x, %zero0 : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %dq = linalg.batch_matmul ins(%g, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %gt = linalg.transpose ins(%g : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>
}
