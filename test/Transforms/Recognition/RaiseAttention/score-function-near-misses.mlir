// Near misses of the score function that reads tensors (score-function-
// tensors.mlir has the positives): each is one edit away from a function
// score_mod computes exactly, and the edit changes what would be read or
// computed, so it stays as it is, with a remark.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// The bias is read at batch 0 for every batch (map (0, i, j) on a dim of
// size 2): reading it at the score's batch would change every batch but
// the first.
// CHECK-LABEL: func.func @bias_read_at_zero
// CHECK-NOT: fa.attention
// CHECK: return
func.func @bias_read_at_zero(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %bias: tensor<2x8x8xf32>, %keep: tensor<8x8xi1>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (0, i, j)>, affine_map<(b, i, j) -> (i, j)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %bias, %keep : tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %kk: i1, %o: f32):
    %fill = arith.constant -1.0e4 : f32
    %sel = arith.select %kk, %a, %fill : f32
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
  // expected-remark @+1 {{attention not raised: mask dim 0 is read at index 0 but its size is not a static 1}}
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


#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// s[i, j] + s[j, i], then a tensor factor: score_mod reads one score.
// CHECK-LABEL: func.func @scores_read_transposed
// CHECK-NOT: fa.attention
// CHECK: return
func.func @scores_read_transposed(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %bias: tensor<2x8x8xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %st = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (b, j, i)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %s0 : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %at: f32, %o: f32):
    %0 = arith.addf %a, %at : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%st, %bias : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %0 = arith.mulf %a, %bb : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  // expected-remark @+1 {{read as one score function instead: the function of the scores reads them twice}}
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

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// An op the score function has no node for (powf) after a finite fill:
// the function would be left without the scores.
// CHECK-LABEL: func.func @unknown_op_after_fill
// CHECK-NOT: fa.attention
// CHECK: return
func.func @unknown_op_after_fill(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %keep : tensor<2x8x8xf32>, tensor<2x8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %kk: i1, %o: f32):
    %fill = arith.constant -1.0e4 : f32
    %sel = arith.select %kk, %a, %fill : f32
    %half = arith.constant 0.5 : f32
    %p = math.powf %sel, %half : f32
    linalg.yield %p : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  // expected-remark @+1 {{attention not raised: unexpected unsupported op on the scores between Q·Kᵀ and the softmax; read as one score function instead: the function of the scores does not read them}}
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

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// A keep-mask filling -10000 and a float bias under the log-sum-exp
// softmax: read as one score function, a row whose bias is about -3.4e38
// everywhere would round max + log(sum) to max (the frontend sums V there,
// the op averages it), and the bias's values are not known.
// CHECK-LABEL: func.func @lse_over_unbounded_bias
// CHECK-NOT: fa.attention
// CHECK: return
func.func @lse_over_unbounded_bias(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %bias: tensor<2x8x8xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %bias, %keep : tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<2x8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %kk: i1, %o: f32):
    %fill = arith.constant -1.0e4 : f32
    %sel = arith.select %kk, %a, %fill : f32
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
  %lse = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>, affine_map<(b, i) -> (b, i)>, affine_map<(b, i) -> (b, i)>], iterator_types = ["parallel", "parallel"]} ins(%m, %sum : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e2 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = math.log %b : f32
    %1 = arith.addf %a, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8xf32>
  // expected-remark-re @+1 {{attention not raised: {{.*}}read as one score function instead: the log-sum-exp softmax of scores a function may set to a huge negative value everywhere in a row rounds max + log(sum) to max, so the frontend sums V there instead of averaging it}}
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %lse : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
