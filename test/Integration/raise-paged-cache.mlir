// K and V gathered from paged caches, as a serving frontend writes it in
// torch (key_cache[block_table] is a linalg.generic whose body extracts
// cache[table[b, m], s, h, d], then a view merges pages and slots into the
// key axis, read as [B, N, H, D]), with a padding mask from the sequences'
// lengths: raised to one fa.attention that reads the caches through
// page_table, with kv_lengths; the gathered copies disappear. Raised and
// frontend runs must agree, through the tiled path and the emulated
// kernel. A gather that is not a pure page lookup (a slot read at s + 1)
// stays a gather, and the attention is raised on it.
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=gpu-kernel=sm_75 max-block-kv=4" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 384 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @paged
// RAISED-NOT: tensor.extract
// RAISED: fa.attention %{{.*}}, %arg1, %arg2 kv_lengths(%{{.*}} : tensor<2xi32>) page_table(%{{.*}} : tensor<2x3xi32>) scale = 2.500000e-01 : tensor<2x2x3x16xf32>, tensor<8x8x2x16xf32>, tensor<8x8x2x16xf32> -> tensor<2x2x3x16xf32>
// RAISED-LABEL: func.func @shifted_slot
// RAISED: tensor.extract
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} kv_lengths(%{{.*}} : tensor<2xi32>) scale = 2.500000e-01 : tensor<2x2x3x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>

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

func.func @paged(%q: tensor<2x2x3x16xf32>, %kcache: tensor<8x8x2x16xf32>, %vcache: tensor<8x8x2x16xf32>,
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
    %x = tensor.extract %kcache[%pi, %s, %h, %d] : tensor<8x8x2x16xf32>
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

func.func @shifted_slot(%q: tensor<2x2x3x16xf32>, %kcache: tensor<8x8x2x16xf32>, %vcache: tensor<8x8x2x16xf32>,
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
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %s1 = arith.addi %s, %c1 : index
    %sw = arith.remui %s1, %c8 : index
    %x = tensor.extract %kcache[%pi, %sw, %h, %d] : tensor<8x8x2x16xf32>
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

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c2, %c2, %c3, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c8, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c8, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x2x3x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<8x8x2x16xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<8x8x2x16xf32>
  %table = arith.constant dense<[[5, 0, 3], [2, 7, 1]]> : tensor<2x3xi64>
  %lengths = arith.constant dense<[24, 13]> : tensor<2xi64>
  %o1 = call @paged(%q, %k, %v, %table, %lengths) : (tensor<2x2x3x16xf32>, tensor<8x8x2x16xf32>, tensor<8x8x2x16xf32>, tensor<2x3xi64>, tensor<2xi64>) -> tensor<2x2x3x16xf32>
  %u1 = tensor.cast %o1 : tensor<2x2x3x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %o2 = call @shifted_slot(%q, %k, %v, %table, %lengths) : (tensor<2x2x3x16xf32>, tensor<8x8x2x16xf32>, tensor<8x8x2x16xf32>, tensor<2x3xi64>, tensor<2xi64>) -> tensor<2x2x3x16xf32>
  %u2 = tensor.cast %o2 : tensor<2x2x3x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
