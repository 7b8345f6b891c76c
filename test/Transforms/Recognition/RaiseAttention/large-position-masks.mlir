// Masks computed from positions that are too large to evaluate at compile
// time (4096 x 4096 and more, past 2^22 elements) are read from the body of
// the generic that computes them (symbolicUpperBand): the band its
// condition keeps, whether the body yields the condition (a keep-mask), or
// selects between a showing and a hiding value in either order (an
// additive mask of 0 and -inf). Recognition only: the programs are too
// large to run in the suite. With Nq = Nk both alignments are the same
// diagonal, which the op prints as bottom_right.
// RUN: fa-opt %s -split-input-file --fa-raise-attention | FileCheck %s

// -----

// An i1 keep-mask j <= i: causal, top-left.
// CHECK-LABEL: func.func @keep_mask
// CHECK: fa.attention {{.*}} causal = bottom_right :
// CHECK-NOT: linalg.softmax
func.func @keep_mask(%q: tensor<1x4096x64xf32>, %k: tensor<1x4096x64xf32>, %v: tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<1x4096x4096xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%em : tensor<1x4096x4096xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ule, %j, %i : index
    linalg.yield %c : i1
  } -> tensor<1x4096x4096xi1>
  %e = tensor.empty() : tensor<1x4096x4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<1x4096x64xf32>, tensor<1x4096x64xf32>) outs(%z : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<1x4096x4096xf32>, tensor<1x4096x4096xi1>) outs(%e : tensor<1x4096x4096xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x4096xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<1x4096x4096xf32>) outs(%e : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %eo = tensor.empty() : tensor<1x4096x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4096x4096xf32>, tensor<1x4096x64xf32>) outs(%zo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  return %o : tensor<1x4096x64xf32>
}

// -----

// An additive mask select(j > i, -inf, 0): the condition hides, so the band
// is its negation, j <= i.
// CHECK-LABEL: func.func @additive_hide_first
// CHECK: fa.attention {{.*}} causal = bottom_right :
// CHECK-NOT: linalg.softmax
func.func @additive_hide_first(%q: tensor<1x4096x64xf32>, %k: tensor<1x4096x64xf32>, %v: tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<1x4096x4096xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%em : tensor<1x4096x4096xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ugt, %j, %i : index
    %r = arith.select %c, %neginf, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x4096xf32>
  %e = tensor.empty() : tensor<1x4096x4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<1x4096x64xf32>, tensor<1x4096x64xf32>) outs(%z : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<1x4096x4096xf32>, tensor<1x4096x4096xf32>) outs(%e : tensor<1x4096x4096xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x4096xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<1x4096x4096xf32>) outs(%e : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %eo = tensor.empty() : tensor<1x4096x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4096x4096xf32>, tensor<1x4096x64xf32>) outs(%zo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  return %o : tensor<1x4096x64xf32>
}

// -----

// The same with the select's values the other way round: select(j <= i, 0, -inf).
// CHECK-LABEL: func.func @additive_keep_first
// CHECK: fa.attention {{.*}} causal = bottom_right :
// CHECK-NOT: linalg.softmax
func.func @additive_keep_first(%q: tensor<1x4096x64xf32>, %k: tensor<1x4096x64xf32>, %v: tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<1x4096x4096xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%em : tensor<1x4096x4096xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ule, %j, %i : index
    %r = arith.select %c, %zero, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x4096xf32>
  %e = tensor.empty() : tensor<1x4096x4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<1x4096x64xf32>, tensor<1x4096x64xf32>) outs(%z : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<1x4096x4096xf32>, tensor<1x4096x4096xf32>) outs(%e : tensor<1x4096x4096xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x4096xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<1x4096x4096xf32>) outs(%e : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %eo = tensor.empty() : tensor<1x4096x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4096x4096xf32>, tensor<1x4096x64xf32>) outs(%zo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  return %o : tensor<1x4096x64xf32>
}

// -----

// Nk = Nq + 4 and the band j <= i + 4: causal, bottom-right.
// CHECK-LABEL: func.func @bottom_right
// CHECK: fa.attention {{.*}} causal = bottom_right :
// CHECK-NOT: linalg.softmax
func.func @bottom_right(%q: tensor<1x4096x64xf32>, %k: tensor<1x4100x64xf32>, %v: tensor<1x4100x64xf32>) -> tensor<1x4096x64xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<1x4096x4100xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%em : tensor<1x4096x4100xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c4 = arith.constant 4 : index
    %i4 = arith.addi %i, %c4 : index
    %c = arith.cmpi ugt, %j, %i4 : index
    %r = arith.select %c, %neginf, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x4100xf32>
  %e = tensor.empty() : tensor<1x4096x4100xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4096x4100xf32>) -> tensor<1x4096x4100xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<1x4096x64xf32>, tensor<1x4100x64xf32>) outs(%z : tensor<1x4096x4100xf32>) -> tensor<1x4096x4100xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<1x4096x4100xf32>, tensor<1x4096x4100xf32>) outs(%e : tensor<1x4096x4100xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x4100xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<1x4096x4100xf32>) outs(%e : tensor<1x4096x4100xf32>) -> tensor<1x4096x4100xf32>
  %eo = tensor.empty() : tensor<1x4096x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4096x4100xf32>, tensor<1x4100x64xf32>) outs(%zo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  return %o : tensor<1x4096x64xf32>
}

// -----

// Near miss: j <= i + 1 with Nq = Nk is not causal (each row sees one key
// past its own): the mask stays a mask.
// CHECK-LABEL: func.func @band_one_past_diagonal
// CHECK-NOT: causal =
// CHECK: return
func.func @band_one_past_diagonal(%q: tensor<1x4096x64xf32>, %k: tensor<1x4096x64xf32>, %v: tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<1x4096x4096xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%em : tensor<1x4096x4096xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c1 = arith.constant 1 : index
    %i1 = arith.addi %i, %c1 : index
    %c = arith.cmpi ugt, %j, %i1 : index
    %r = arith.select %c, %neginf, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x4096xf32>
  %e = tensor.empty() : tensor<1x4096x4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<1x4096x64xf32>, tensor<1x4096x64xf32>) outs(%z : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<1x4096x4096xf32>, tensor<1x4096x4096xf32>) outs(%e : tensor<1x4096x4096xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x4096xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<1x4096x4096xf32>) outs(%e : tensor<1x4096x4096xf32>) -> tensor<1x4096x4096xf32>
  %eo = tensor.empty() : tensor<1x4096x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4096x4096xf32>, tensor<1x4096x64xf32>) outs(%zo : tensor<1x4096x64xf32>) -> tensor<1x4096x64xf32>
  return %o : tensor<1x4096x64xf32>
}

