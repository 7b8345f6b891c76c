// An online softmax written out for one tile of keys (IREE's decomposed
// online attention): the running max starts at m0, the sum and the
// accumulator start at zero and are rescaled by exp(m0 - max) before the
// tile is added, and the output is divided by the sum after P·V. The
// rescale lies in [0, 1] because the max starts at m0 itself, so the
// rescaled starts are exactly 0 (isZeroRescale) and the normalization is
// deferred past P·V (deferredRowSum): one fa.attention. Numbers: the held-out
// blocks a04 and b09 (test/HeldOut) and raise-online-softmax.mlir in
// Integration.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true 2>/dev/null | FileCheck %s
// REMARK-NOT: remark
// REMARK: remark: attention not raised: P·V accumulates into a tensor that is not zero

// CHECK-LABEL: func.func @online_one_tile
// CHECK: fa.attention {{.*}} scale = 1.000000e+00
// CHECK-NOT: math.exp
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>
#r2 = affine_map<(b, i) -> (b, i)>
#qk_q = affine_map<(b, i, j, d) -> (b, i, d)>
#qk_k = affine_map<(b, i, j, d) -> (b, j, d)>
#qk_s = affine_map<(b, i, j, d) -> (b, i, j)>
#pv_p = affine_map<(b, i, d, j) -> (b, i, j)>
#pv_v = affine_map<(b, i, d, j) -> (b, j, d)>
#pv_o = affine_map<(b, i, d, j) -> (b, i, d)>
#o_r = affine_map<(b, i, d) -> (b, i)>
#o_id = affine_map<(b, i, d) -> (b, i, d)>
func.func @online_one_tile(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %start = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%z : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %max0 = linalg.fill ins(%start : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %maxinit = linalg.fill ins(%start : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %newmax = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%maxinit : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  // The rescale of the running sum and accumulator: exp(m0 - m).
  %alpha = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%newmax : tensor<2x8xf32>) outs(%max0 : tensor<2x8xf32>) {
  ^bb0(%m: f32, %old: f32):
    %0 = arith.subf %old, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8xf32>
  %sumr = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%alpha : tensor<2x8xf32>) outs(%sum0 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %old: f32):
    %0 = arith.mulf %a, %old : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %newmax : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p : tensor<2x8x8xf32>) outs(%sumr : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %accr = linalg.generic {indexing_maps = [#o_r, #o_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alpha : tensor<2x8xf32>) outs(%acc0 : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %old: f32):
    %0 = arith.mulf %a, %old : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  %acc = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%accr : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x16xf32>
  %out = linalg.generic {indexing_maps = [#o_r, #o_id, #o_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum, %acc : tensor<2x8xf32>, tensor<2x8x16xf32>) outs(%eo : tensor<2x8x16xf32>) {
  ^bb0(%l: f32, %x: f32, %o: f32):
    %0 = arith.divf %x, %l : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  return %out : tensor<2x8x16xf32>
}

// -----

// The exp reads the scores from its destination (`outs(%s)`, as IREE's
// decomposition writes it): an elementwise op's destination read in its
// body is an input like any other.
// CHECK-LABEL: func.func @scores_read_from_destination
// CHECK: fa.attention {{.*}} scale = 1.000000e+00
// CHECK-NOT: math.exp
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>
#r2 = affine_map<(b, i) -> (b, i)>
#qk_q = affine_map<(b, i, j, d) -> (b, i, d)>
#qk_k = affine_map<(b, i, j, d) -> (b, j, d)>
#qk_s = affine_map<(b, i, j, d) -> (b, i, j)>
#pv_p = affine_map<(b, i, d, j) -> (b, i, j)>
#pv_v = affine_map<(b, i, d, j) -> (b, j, d)>
#pv_o = affine_map<(b, i, d, j) -> (b, i, d)>
#o_r = affine_map<(b, i, d) -> (b, i)>
#o_id = affine_map<(b, i, d) -> (b, i, d)>
func.func @scores_read_from_destination(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %start = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%z : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %max0 = linalg.fill ins(%start : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %maxinit = linalg.fill ins(%start : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %newmax = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%maxinit : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  // The rescale of the running sum and accumulator: exp(m0 - m).
  %alpha = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%newmax : tensor<2x8xf32>) outs(%max0 : tensor<2x8xf32>) {
  ^bb0(%m: f32, %old: f32):
    %0 = arith.subf %old, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8xf32>
  %sumr = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%alpha : tensor<2x8xf32>) outs(%sum0 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %old: f32):
    %0 = arith.mulf %a, %old : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%newmax : tensor<2x8xf32>) outs(%s : tensor<2x8x8xf32>) {
  ^bb0(%m: f32, %a: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p : tensor<2x8x8xf32>) outs(%sumr : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %accr = linalg.generic {indexing_maps = [#o_r, #o_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alpha : tensor<2x8xf32>) outs(%acc0 : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %old: f32):
    %0 = arith.mulf %a, %old : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  %acc = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%accr : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x16xf32>
  %out = linalg.generic {indexing_maps = [#o_r, #o_id, #o_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum, %acc : tensor<2x8xf32>, tensor<2x8x16xf32>) outs(%eo : tensor<2x8x16xf32>) {
  ^bb0(%l: f32, %x: f32, %o: f32):
    %0 = arith.divf %x, %l : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  return %out : tensor<2x8x16xf32>
}

// -----

// Near miss: the rescale reads m0 = 0 while the max starts at -inf, so
// exp(0 - max) is not bounded by 1 (a row whose scores all lie below -88
// makes it inf, and inf * 0 NaN): the starts are not known to be zero.
// CHECK-LABEL: func.func @rescale_from_other_start
// CHECK-NOT: fa.attention
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>
#r2 = affine_map<(b, i) -> (b, i)>
#qk_q = affine_map<(b, i, j, d) -> (b, i, d)>
#qk_k = affine_map<(b, i, j, d) -> (b, j, d)>
#qk_s = affine_map<(b, i, j, d) -> (b, i, j)>
#pv_p = affine_map<(b, i, d, j) -> (b, i, j)>
#pv_v = affine_map<(b, i, d, j) -> (b, j, d)>
#pv_o = affine_map<(b, i, d, j) -> (b, i, d)>
#o_r = affine_map<(b, i, d) -> (b, i)>
#o_id = affine_map<(b, i, d) -> (b, i, d)>
func.func @rescale_from_other_start(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %start = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%z : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %max0 = linalg.fill ins(%start : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %maxinit = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %newmax = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%maxinit : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  // The rescale of the running sum and accumulator: exp(m0 - m).
  %alpha = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%newmax : tensor<2x8xf32>) outs(%max0 : tensor<2x8xf32>) {
  ^bb0(%m: f32, %old: f32):
    %0 = arith.subf %old, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8xf32>
  %sumr = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%alpha : tensor<2x8xf32>) outs(%sum0 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %old: f32):
    %0 = arith.mulf %a, %old : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %newmax : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p : tensor<2x8x8xf32>) outs(%sumr : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %accr = linalg.generic {indexing_maps = [#o_r, #o_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alpha : tensor<2x8xf32>) outs(%acc0 : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %old: f32):
    %0 = arith.mulf %a, %old : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  %acc = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%accr : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x16xf32>
  %out = linalg.generic {indexing_maps = [#o_r, #o_id, #o_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum, %acc : tensor<2x8xf32>, tensor<2x8x16xf32>) outs(%eo : tensor<2x8x16xf32>) {
  ^bb0(%l: f32, %x: f32, %o: f32):
    %0 = arith.divf %x, %l : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  return %out : tensor<2x8x16xf32>
}
