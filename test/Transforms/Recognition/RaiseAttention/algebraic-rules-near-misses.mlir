// Near misses of the algebraic rules (raise-algebraic-rules.mlir has the
// positives): each is one edit away from a rule and is not the softmax of
// anything, so it stays as it is, with a remark.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true 2>/dev/null | FileCheck %s
// REMARK: remark: attention not raised: exp is applied to mul(...), not to x - max(x)
// REMARK: remark: attention not raised: the row sum reduces a different tensor than the softmax uses
// REMARK: remark: attention not raised: the row sum is not a sum over one dim of the softmax numerator
// REMARK: remark: attention not raised: the function of the scores reads a tensor computed from the scores themselves (linalg.generic): every score would be computed twice
// REMARK: remark: attention not raised: P·V reads exp(...) that is not normalized by its row sum
// REMARK: remark: attention not raised: the row max is not a max over one dim of the scores
// REMARK-NOT: remark

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// exp2(c·(x - max x)) with c < 0: the factor must be positive (the max of
// c·x is not c·max x).
// CHECK-LABEL: func.func @negative_factor
// CHECK-NOT: fa.attention
func.func @negative_factor(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant -0.625 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
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
    %d = arith.subf %a, %b : f32
    %0 = arith.mulf %d, %c : f32
    %1 = math.exp2 %0 : f32
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

// exp2(x - max x) divided by the row sum of exp(x - max x): not a softmax.
// CHECK-LABEL: func.func @exp2_over_sum_of_exp
// CHECK-NOT: fa.attention
func.func @exp2_over_sum_of_exp(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.360673760 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.mulf %a, %c : f32
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
    %1 = math.exp2 %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %ex1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex1 : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
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

// exp(s - max)·V divided by the row max, not the row sum.
// CHECK-LABEL: func.func @divided_by_row_max
// CHECK-NOT: fa.attention
func.func @divided_by_row_max(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.360673760 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.mulf %a, %c : f32
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
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %u = linalg.batch_matmul ins(%ex, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%u, %m : tensor<2x8x16xf32>, tensor<2x8xf32>) outs(%eo : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o2: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}


// -----

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

// s - max over the queries of s, then a softmax over the keys: the column
// max varies along the keys, so it does not cancel.
// CHECK-LABEL: func.func @shift_by_column_max
// CHECK-NOT: fa.attention
func.func @shift_by_column_max(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.360673760 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.mulf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi0 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m0 = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (b, j)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%mi0 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %y = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (b, j)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m0 : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%y : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
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

// exp(s - max)·V multiplied by the row sum, not divided by it.
// CHECK-LABEL: func.func @multiplied_by_row_sum
// CHECK-NOT: fa.attention
func.func @multiplied_by_row_sum(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.360673760 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.mulf %a, %c : f32
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
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %u = linalg.batch_matmul ins(%ex, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%u, %sum : tensor<2x8x16xf32>, tensor<2x8xf32>) outs(%eo : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o2: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// The row max maxed once more with 0, not -inf: a row whose scores are all
// below 0 is shifted by 0, not by its max (jnp.max's initial must be -inf
// to be the identity).
// CHECK-LABEL: func.func @max_with_zero_initial
// CHECK-NOT: fa.attention
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>
func.func @max_with_zero_initial(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %initial = arith.constant dense<0.0> : tensor<2x8xf32>
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %acc, %a : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>, affine_map<(b, i) -> (b, i)>, affine_map<(b, i) -> (b, i)>], iterator_types = ["parallel", "parallel"]} ins(%initial, %m0 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e2 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.maximumf %a, %b : f32
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
