// Near misses: each function is one change away from attention, and the
// change alters the meaning. None may be raised; with explain=true each
// candidate gets a remark naming the failed check.
// The scores or probabilities returned as well are near misses only with
// share-scores=false (by default they are raised and kept for the return:
// test/Integration/raise-shared-scores.mlir).
// RUN: fa-opt %s -split-input-file "--fa-raise-attention=explain=true share-scores=false" -verify-diagnostics | FileCheck %s
// RUN: fa-opt %s "--fa-raise-attention=print-counts=true share-scores=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNTS
// COUNTS: remark: fa-raise-attention: 9 candidates, 0 raised, 2 rejected (structure), 2 rejected (softmax-axis), 1 rejected (contraction), 3 rejected (external-use), 1 rejected (scale)

// -----

// The row max reduces the query dim (docs/Sources.md §5.2).
// CHECK-LABEL: func.func @max_over_query_dim
// CHECK-NOT: fa.attention
// CHECK: return
func.func @max_over_query_dim(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
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
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %half : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  // expected-remark @+1 {{attention not raised: the row max reduces dim 0 but the key dim of P·V is 1}}
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
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

// The normalizing sum runs over the query dim.
// CHECK-LABEL: func.func @sum_over_query_dim
// CHECK-NOT: fa.attention
// CHECK: return
func.func @sum_over_query_dim(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
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
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %half : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  // expected-remark @+1 {{attention not raised: the row sum reduces dim 0 but the key dim of P·V is 1}}
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%ex : tensor<4x4xf32>) outs(%rz : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.addf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.divf %a0, %a1 : f32
    linalg.yield %d : f32
  } -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----
// -----

// exp(x - max) reaches P·V without its division by the row sum.
// CHECK-LABEL: func.func @exp_without_normalization
// CHECK-NOT: fa.attention
// CHECK: return
func.func @exp_without_normalization(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
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
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %half : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  // expected-remark @+1 {{attention not raised: P·V reads exp(...) that is not normalized by its row sum}}
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<4x4xf32>
  %p = linalg.copy ins(%ex : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----

// The scores are also returned: fusing would drop that use (docs/Sources.md §5.9).
// CHECK-LABEL: func.func @scores_used_elsewhere
// CHECK-NOT: fa.attention
// CHECK: return
func.func @scores_used_elsewhere(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
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
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %half : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  // expected-remark @+1 {{attention not raised: the result of linalg.generic (scores or probabilities) is also used by func.return outside the pattern}}
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
  return %o, %x : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// The probabilities are also returned.
// CHECK-LABEL: func.func @probabilities_used_elsewhere
// CHECK-NOT: fa.attention
// CHECK: return
func.func @probabilities_used_elsewhere(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
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
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %half : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  // expected-remark @+1 {{attention not raised: the result of linalg.generic (scores or probabilities) is also used by func.return outside the pattern}}
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
  return %o, %p : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A scale known only at run time.
// CHECK-LABEL: func.func @dynamic_scale
// CHECK-NOT: fa.attention
// CHECK: return
func.func @dynamic_scale(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>, %scale: f32) -> tensor<4x4xf32> {
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
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %scale : tensor<4x4xf32>, f32) outs(%e : tensor<4x4xf32>) {
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
  // expected-remark @+1 {{attention not raised: the scores are multiplied by a tensor, not a compile-time scalar (a per-head or dynamic scale)}}
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

// A row max that starts at 0 is not the max of negative scores.
// CHECK-LABEL: func.func @max_starts_at_zero
// CHECK-NOT: fa.attention
// CHECK: return
func.func @max_starts_at_zero(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
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
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %half : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rz : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  // expected-remark @+1 {{attention not raised: the row max starts at 0, not -inf, the lowest finite value or NaN with maxnumf}}
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

// P·V accumulates into the caller's tensor: O = C + P·V.
// CHECK-LABEL: func.func @accumulating_output
// CHECK-NOT: fa.attention
// CHECK: return
func.func @accumulating_output(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>, %init: tensor<4x4xf32>) -> tensor<4x4xf32> {
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
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %half : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4xf32>) outs(%rm : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %red = arith.maximumf %a, %acc : f32
    linalg.yield %red : f32
  } -> tensor<4xf32>
  // expected-remark @+1 {{attention not raised: P·V accumulates into a tensor that is not zero}}
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
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%init : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----

// log_softmax (x - max - log(sum)) feeding P·V: there is no exp on P's elementwise path, so it is not a candidate at all (no remark).
// CHECK-LABEL: func.func @log_softmax
// CHECK-NOT: fa.attention
// CHECK: return
func.func @log_softmax(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
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
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %half : f32
    linalg.yield %m : f32
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
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %l = math.log %a2 : f32
    %y = arith.subf %d, %l : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----

// The log-sum-exp softmax with its logsumexp returned (which the op gives),
// and its row sum of exponentials too (which it does not): the sum is used
// outside the pattern, so nothing is raised.
// CHECK-LABEL: func.func @row_sum_used_outside_with_logsumexp
// CHECK-NOT: fa.attention
func.func @row_sum_used_outside_with_logsumexp(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>, tensor<2x8x1xf32>, tensor<2x8x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s = tosa.mul %s0, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %xm = tosa.sub %s, %m : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %xm : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %log = tosa.log %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %lse = tosa.add %m, %log : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %ls = tosa.sub %s, %lse : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the result of tosa.reduce_sum (scores or probabilities) is also used by func.return outside the pattern}}
  %p = tosa.exp %ls : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o, %lse, %sum : tensor<2x8x4xf32>, tensor<2x8x1xf32>, tensor<2x8x1xf32>
}
