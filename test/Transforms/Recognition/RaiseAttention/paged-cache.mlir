// Gathers that are not a pure page lookup stay gathers: the attention is
// raised on the gathered K and V, without page_table (the exact form, with
// numbers, is test/Integration/raise-paged-cache.mlir).
// RUN: fa-opt %s -split-input-file --fa-raise-attention | FileCheck %s

// -----

// K and V read through different page tables.
// CHECK-LABEL: func.func @two_tables
// CHECK: tensor.extract
// CHECK: fa.attention
// CHECK-NOT: page_table
// CHECK: return
#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, j, h, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, e, j) -> (b, j, h, e)>
#pv_o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#bcast = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
#id2 = affine_map<(b, j) -> (b, j)>
#len1 = affine_map<(b, j) -> (b)>
#table = affine_map<(b, m, s, h, d) -> (b, m)>
#id5 = affine_map<(b, m, s, h, d) -> (b, m, s, h, d)>

func.func @two_tables(%q: tensor<2x2x3x16xf32>, %kcache: tensor<8x8x2x16xf32>, %vcache: tensor<8x8x2x16xf32>,
                 %table: tensor<2x3xi64>, %vtable: tensor<2x3xi64>, %lengths: tensor<2xi64>) -> tensor<2x2x3x16xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  // k = key_cache[block_table].view(B, M * S, H, D), v likewise
  %ge = tensor.empty() : tensor<2x3x8x2x16xf32>
  %kg = linalg.generic {indexing_maps = [#table, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%table : tensor<2x3xi64>) outs(%ge : tensor<2x3x8x2x16xf32>) {
  ^bb0(%p: i64, %o: f32):
    %pi = arith.index_cast %p : i64 to index
    %s = linalg.index 2 : index
    %h = linalg.index 3 : index
    %d = linalg.index 4 : index
    %x = tensor.extract %kcache[%pi, %s, %h, %d] : tensor<8x8x2x16xf32>
    linalg.yield %x : f32
  } -> tensor<2x3x8x2x16xf32>
  %k = tensor.collapse_shape %kg [[0], [1, 2], [3], [4]] : tensor<2x3x8x2x16xf32> into tensor<2x24x2x16xf32>
  %vg = linalg.generic {indexing_maps = [#table, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%vtable : tensor<2x3xi64>) outs(%ge : tensor<2x3x8x2x16xf32>) {
  ^bb0(%p: i64, %o: f32):
    %pi = arith.index_cast %p : i64 to index
    %s = linalg.index 2 : index
    %h = linalg.index 3 : index
    %d = linalg.index 4 : index
    %x = tensor.extract %vcache[%pi, %s, %h, %d] : tensor<8x8x2x16xf32>
    linalg.yield %x : f32
  } -> tensor<2x3x8x2x16xf32>
  %v = tensor.collapse_shape %vg [[0], [1, 2], [3], [4]] : tensor<2x3x8x2x16xf32> into tensor<2x24x2x16xf32>
  // scores = q @ k^T * 0.25, padding keys (j >= length) filled with -inf
  %e = tensor.empty() : tensor<2x2x3x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x3x24xf32>) -> tensor<2x2x3x24xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x24x2x16xf32>) outs(%z : tensor<2x2x3x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x24xf32>
  %me = tensor.empty() : tensor<2x24xi1>
  %keep = linalg.generic {indexing_maps = [#len1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lengths : tensor<2xi64>) outs(%me : tensor<2x24xi1>) {
  ^bb0(%len: i64, %o: i1):
    %jx = linalg.index 1 : index
    %j = arith.index_cast %jx : index to i64
    %c = arith.cmpi slt, %j, %len : i64
    linalg.yield %c : i1
  } -> tensor<2x24xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, 24] : tensor<2x24xi1> into tensor<2x1x1x24xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %keep4 : tensor<2x2x3x24xf32>, tensor<2x1x1x24xi1>) outs(%e : tensor<2x2x3x24xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %y = arith.mulf %a, %scale : f32
    %r = arith.select %m, %y, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x24xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x24xf32>) outs(%e : tensor<2x2x3x24xf32>) -> tensor<2x2x3x24xf32>
  %oe = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x3x24xf32>, tensor<2x24x2x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}


// -----

// The cache indexed [page, head, slot, d]: not the layout page_table reads.
// CHECK-LABEL: func.func @heads_before_slots
// CHECK: tensor.extract
// CHECK: fa.attention
// CHECK-NOT: page_table
// CHECK: return
#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, j, h, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, e, j) -> (b, j, h, e)>
#pv_o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#bcast = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
#id2 = affine_map<(b, j) -> (b, j)>
#len1 = affine_map<(b, j) -> (b)>
#table = affine_map<(b, m, s, h, d) -> (b, m)>
#id5 = affine_map<(b, m, s, h, d) -> (b, m, s, h, d)>

func.func @heads_before_slots(%q: tensor<2x2x3x16xf32>, %kcache2: tensor<8x2x8x16xf32>, %vcache: tensor<8x8x2x16xf32>,
                 %table: tensor<2x3xi64>, %lengths: tensor<2xi64>) -> tensor<2x2x3x16xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  // k = key_cache[block_table].view(B, M * S, H, D), v likewise
  %ge = tensor.empty() : tensor<2x3x8x2x16xf32>
  %kg = linalg.generic {indexing_maps = [#table, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%table : tensor<2x3xi64>) outs(%ge : tensor<2x3x8x2x16xf32>) {
  ^bb0(%p: i64, %o: f32):
    %pi = arith.index_cast %p : i64 to index
    %s = linalg.index 2 : index
    %h = linalg.index 3 : index
    %d = linalg.index 4 : index
    %x = tensor.extract %kcache2[%pi, %h, %s, %d] : tensor<8x2x8x16xf32>
    linalg.yield %x : f32
  } -> tensor<2x3x8x2x16xf32>
  %k = tensor.collapse_shape %kg [[0], [1, 2], [3], [4]] : tensor<2x3x8x2x16xf32> into tensor<2x24x2x16xf32>
  %vg = linalg.generic {indexing_maps = [#table, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%table : tensor<2x3xi64>) outs(%ge : tensor<2x3x8x2x16xf32>) {
  ^bb0(%p: i64, %o: f32):
    %pi = arith.index_cast %p : i64 to index
    %s = linalg.index 2 : index
    %h = linalg.index 3 : index
    %d = linalg.index 4 : index
    %x = tensor.extract %vcache[%pi, %s, %h, %d] : tensor<8x8x2x16xf32>
    linalg.yield %x : f32
  } -> tensor<2x3x8x2x16xf32>
  %v = tensor.collapse_shape %vg [[0], [1, 2], [3], [4]] : tensor<2x3x8x2x16xf32> into tensor<2x24x2x16xf32>
  // scores = q @ k^T * 0.25, padding keys (j >= length) filled with -inf
  %e = tensor.empty() : tensor<2x2x3x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x3x24xf32>) -> tensor<2x2x3x24xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x24x2x16xf32>) outs(%z : tensor<2x2x3x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x24xf32>
  %me = tensor.empty() : tensor<2x24xi1>
  %keep = linalg.generic {indexing_maps = [#len1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lengths : tensor<2xi64>) outs(%me : tensor<2x24xi1>) {
  ^bb0(%len: i64, %o: i1):
    %jx = linalg.index 1 : index
    %j = arith.index_cast %jx : index to i64
    %c = arith.cmpi slt, %j, %len : i64
    linalg.yield %c : i1
  } -> tensor<2x24xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, 24] : tensor<2x24xi1> into tensor<2x1x1x24xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %keep4 : tensor<2x2x3x24xf32>, tensor<2x1x1x24xi1>) outs(%e : tensor<2x2x3x24xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %y = arith.mulf %a, %scale : f32
    %r = arith.select %m, %y, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x24xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x24xf32>) outs(%e : tensor<2x2x3x24xf32>) -> tensor<2x2x3x24xf32>
  %oe = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x3x24xf32>, tensor<2x24x2x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}


// -----

// Keys numbered slot-major (j = s * M + m), not page by page.
// CHECK-LABEL: func.func @slot_major
// CHECK: tensor.extract
// CHECK: fa.attention
// CHECK-NOT: page_table
// CHECK: return
#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, j, h, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, e, j) -> (b, j, h, e)>
#pv_o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#bcast = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
#id2 = affine_map<(b, j) -> (b, j)>
#len1 = affine_map<(b, j) -> (b)>
#table = affine_map<(b, m, s, h, d) -> (b, m)>
#id5 = affine_map<(b, m, s, h, d) -> (b, m, s, h, d)>

func.func @slot_major(%q: tensor<2x2x3x16xf32>, %kcache: tensor<8x8x2x16xf32>, %vcache: tensor<8x8x2x16xf32>,
                 %table: tensor<2x3xi64>, %lengths: tensor<2xi64>) -> tensor<2x2x3x16xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  // k = key_cache[block_table].view(B, M * S, H, D), v likewise
  %ge = tensor.empty() : tensor<2x3x8x2x16xf32>
  %ge2 = tensor.empty() : tensor<2x8x3x2x16xf32>
  %kg = linalg.generic {indexing_maps = [#table, affine_map<(b, m, s, h, d) -> (b, s, m, h, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%table : tensor<2x3xi64>) outs(%ge2 : tensor<2x8x3x2x16xf32>) {
  ^bb0(%p: i64, %o: f32):
    %pi = arith.index_cast %p : i64 to index
    %s = linalg.index 2 : index
    %h = linalg.index 3 : index
    %d = linalg.index 4 : index
    %x = tensor.extract %kcache[%pi, %s, %h, %d] : tensor<8x8x2x16xf32>
    linalg.yield %x : f32
  } -> tensor<2x8x3x2x16xf32>
  %k = tensor.collapse_shape %kg [[0], [1, 2], [3], [4]] : tensor<2x8x3x2x16xf32> into tensor<2x24x2x16xf32>
  %vg = linalg.generic {indexing_maps = [#table, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%table : tensor<2x3xi64>) outs(%ge : tensor<2x3x8x2x16xf32>) {
  ^bb0(%p: i64, %o: f32):
    %pi = arith.index_cast %p : i64 to index
    %s = linalg.index 2 : index
    %h = linalg.index 3 : index
    %d = linalg.index 4 : index
    %x = tensor.extract %vcache[%pi, %s, %h, %d] : tensor<8x8x2x16xf32>
    linalg.yield %x : f32
  } -> tensor<2x3x8x2x16xf32>
  %v = tensor.collapse_shape %vg [[0], [1, 2], [3], [4]] : tensor<2x3x8x2x16xf32> into tensor<2x24x2x16xf32>
  // scores = q @ k^T * 0.25, padding keys (j >= length) filled with -inf
  %e = tensor.empty() : tensor<2x2x3x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x3x24xf32>) -> tensor<2x2x3x24xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x24x2x16xf32>) outs(%z : tensor<2x2x3x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x24xf32>
  %me = tensor.empty() : tensor<2x24xi1>
  %keep = linalg.generic {indexing_maps = [#len1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lengths : tensor<2xi64>) outs(%me : tensor<2x24xi1>) {
  ^bb0(%len: i64, %o: i1):
    %jx = linalg.index 1 : index
    %j = arith.index_cast %jx : index to i64
    %c = arith.cmpi slt, %j, %len : i64
    linalg.yield %c : i1
  } -> tensor<2x24xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, 24] : tensor<2x24xi1> into tensor<2x1x1x24xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %keep4 : tensor<2x2x3x24xf32>, tensor<2x1x1x24xi1>) outs(%e : tensor<2x2x3x24xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %y = arith.mulf %a, %scale : f32
    %r = arith.select %m, %y, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x24xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x24xf32>) outs(%e : tensor<2x2x3x24xf32>) -> tensor<2x2x3x24xf32>
  %oe = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x3x24xf32>, tensor<2x24x2x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}

