// Training graphs with attention sinks (GPT-OSS), as autodiff writes the
// backward of concat, softmax and slice: dP gets a zero sink column (the
// slice's backward: tensor.pad, or insert_slice into zeros), softmax's
// backward runs over Nk + 1 columns, the concat's backward slices the
// scores' gradient and the sink column's, which the broadcast's backward
// sums over the queries into dSinks (@column_collapsed: after a view that
// drops the column's unit dim). Raised to fa.attention and
// fa.attention_backward with sinks and grad_sinks, and equal to the
// program as written: O, dQ, dK, dV and dSinks.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 582 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @padded
// RAISED: fa.attention {{.*}} sinks(
// RAISED: fa.attention_backward {{.*}} sinks(
// RAISED-SAME: grad_sinks(tensor<2xf32>)
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @column_collapsed
// RAISED: fa.attention_backward {{.*}} sinks(
// RAISED-SAME: grad_sinks(tensor<2xf32>)
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @inserted
// RAISED: fa.attention_backward {{.*}} sinks(
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @input

#id3 = affine_map<(b, i, j) -> (b, i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @padded(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x6x4xf32>, %sinks: tensor<2xf32>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %ec = tensor.empty() : tensor<2x6x1xf32>
  %column = linalg.broadcast ins(%sinks : tensor<2xf32>) outs(%ec : tensor<2x6x1xf32>) dimensions = [1, 2]
  %xc = tensor.concat dim(2) %x, %column : (tensor<2x6x6xf32>, tensor<2x6x1xf32>) -> tensor<2x6x7xf32>
  %e7s = tensor.empty() : tensor<2x6x7xf32>
  %pf = linalg.softmax dimension(2) ins(%xc : tensor<2x6x7xf32>) outs(%e7s : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %p = tensor.extract_slice %pf[0, 0, 0] [2, 6, 6] [1, 1, 1] : tensor<2x6x7xf32> to tensor<2x6x6xf32>
  %eo = tensor.empty() : tensor<2x6x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %evt = tensor.empty() : tensor<2x4x6xf32>
  %vt = linalg.transpose ins(%v : tensor<2x6x4xf32>) outs(%evt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  // The slice's backward: dP with a zero sink column.
  %dpf = tensor.pad %dp low[0, 0, 0] high[0, 0, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index):
    tensor.yield %zero : f32
  } : tensor<2x6x6xf32> to tensor<2x6x7xf32>
  %e7 = tensor.empty() : tensor<2x6x7xf32>
  %pdp = linalg.mul ins(%pf, %dpf : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%e7 : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %er = tensor.empty() : tensor<2x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x6xf32>) -> tensor<2x6xf32>
  %rows = linalg.reduce ins(%pdp : tensor<2x6x7xf32>) outs(%zr : tensor<2x6xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x6xf32>) outs(%e7 : tensor<2x6x7xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dpf, %rb : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%e7 : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %g = linalg.mul ins(%pf, %diff : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%e7 : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  // The concat's backward: the scores' gradient and the sink column's.
  %gx = tensor.extract_slice %g[0, 0, 0] [2, 6, 6] [1, 1, 1] : tensor<2x6x7xf32> to tensor<2x6x6xf32>
  %gc = tensor.extract_slice %g[0, 0, 6] [2, 6, 1] [1, 1, 1] : tensor<2x6x7xf32> to tensor<2x6x1xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gx : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %dq = linalg.batch_matmul ins(%gs, %k : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gs : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  // The broadcast's backward: the column summed over the queries.
  %eds = tensor.empty() : tensor<2xf32>
  %zds = linalg.fill ins(%zero : f32) outs(%eds : tensor<2xf32>) -> tensor<2xf32>
  %dsinks = linalg.reduce ins(%gc : tensor<2x6x1xf32>) outs(%zds : tensor<2xf32>) dimensions = [1, 2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %o, %dq, %dk, %dv, %dsinks : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>
}

// The sink column's gradient with its unit column dropped first (a view to
// [B·H, Nq]), then summed over the queries.
func.func @column_collapsed(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x6x4xf32>, %sinks: tensor<2xf32>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %ec = tensor.empty() : tensor<2x6x1xf32>
  %column = linalg.broadcast ins(%sinks : tensor<2xf32>) outs(%ec : tensor<2x6x1xf32>) dimensions = [1, 2]
  %xc = tensor.concat dim(2) %x, %column : (tensor<2x6x6xf32>, tensor<2x6x1xf32>) -> tensor<2x6x7xf32>
  %e7s = tensor.empty() : tensor<2x6x7xf32>
  %pf = linalg.softmax dimension(2) ins(%xc : tensor<2x6x7xf32>) outs(%e7s : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %p = tensor.extract_slice %pf[0, 0, 0] [2, 6, 6] [1, 1, 1] : tensor<2x6x7xf32> to tensor<2x6x6xf32>
  %eo = tensor.empty() : tensor<2x6x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %evt = tensor.empty() : tensor<2x4x6xf32>
  %vt = linalg.transpose ins(%v : tensor<2x6x4xf32>) outs(%evt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  // The slice's backward: dP with a zero sink column.
  %dpf = tensor.pad %dp low[0, 0, 0] high[0, 0, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index):
    tensor.yield %zero : f32
  } : tensor<2x6x6xf32> to tensor<2x6x7xf32>
  %e7 = tensor.empty() : tensor<2x6x7xf32>
  %pdp = linalg.mul ins(%pf, %dpf : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%e7 : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %er = tensor.empty() : tensor<2x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x6xf32>) -> tensor<2x6xf32>
  %rows = linalg.reduce ins(%pdp : tensor<2x6x7xf32>) outs(%zr : tensor<2x6xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x6xf32>) outs(%e7 : tensor<2x6x7xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dpf, %rb : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%e7 : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %g = linalg.mul ins(%pf, %diff : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%e7 : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  // The concat's backward: the scores' gradient and the sink column's.
  %gx = tensor.extract_slice %g[0, 0, 0] [2, 6, 6] [1, 1, 1] : tensor<2x6x7xf32> to tensor<2x6x6xf32>
  %gc = tensor.extract_slice %g[0, 0, 6] [2, 6, 1] [1, 1, 1] : tensor<2x6x7xf32> to tensor<2x6x1xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gx : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %dq = linalg.batch_matmul ins(%gs, %k : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gs : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  // The broadcast's backward: the column summed over the queries.
  %eds = tensor.empty() : tensor<2xf32>
  %zds = linalg.fill ins(%zero : f32) outs(%eds : tensor<2xf32>) -> tensor<2xf32>
  %gc2 = tensor.collapse_shape %gc [[0], [1, 2]] : tensor<2x6x1xf32> into tensor<2x6xf32>
  %dsinks = linalg.reduce ins(%gc2 : tensor<2x6xf32>) outs(%zds : tensor<2xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %o, %dq, %dk, %dv, %dsinks : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>
}

func.func @inserted(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x6x4xf32>, %sinks: tensor<2xf32>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %ec = tensor.empty() : tensor<2x6x1xf32>
  %column = linalg.broadcast ins(%sinks : tensor<2xf32>) outs(%ec : tensor<2x6x1xf32>) dimensions = [1, 2]
  %xc = tensor.concat dim(2) %x, %column : (tensor<2x6x6xf32>, tensor<2x6x1xf32>) -> tensor<2x6x7xf32>
  %e7s = tensor.empty() : tensor<2x6x7xf32>
  %pf = linalg.softmax dimension(2) ins(%xc : tensor<2x6x7xf32>) outs(%e7s : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %p = tensor.extract_slice %pf[0, 0, 0] [2, 6, 6] [1, 1, 1] : tensor<2x6x7xf32> to tensor<2x6x6xf32>
  %eo = tensor.empty() : tensor<2x6x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %evt = tensor.empty() : tensor<2x4x6xf32>
  %vt = linalg.transpose ins(%v : tensor<2x6x4xf32>) outs(%evt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  // The slice's backward: dP with a zero sink column.
  %e7z = tensor.empty() : tensor<2x6x7xf32>
  %z7 = linalg.fill ins(%zero : f32) outs(%e7z : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %dpf = tensor.insert_slice %dp into %z7[0, 0, 0] [2, 6, 6] [1, 1, 1] : tensor<2x6x6xf32> into tensor<2x6x7xf32>
  %e7 = tensor.empty() : tensor<2x6x7xf32>
  %pdp = linalg.mul ins(%pf, %dpf : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%e7 : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %er = tensor.empty() : tensor<2x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x6xf32>) -> tensor<2x6xf32>
  %rows = linalg.reduce ins(%pdp : tensor<2x6x7xf32>) outs(%zr : tensor<2x6xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x6xf32>) outs(%e7 : tensor<2x6x7xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dpf, %rb : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%e7 : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %g = linalg.mul ins(%pf, %diff : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%e7 : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  // The concat's backward: the scores' gradient and the sink column's.
  %gx = tensor.extract_slice %g[0, 0, 0] [2, 6, 6] [1, 1, 1] : tensor<2x6x7xf32> to tensor<2x6x6xf32>
  %gc = tensor.extract_slice %g[0, 0, 6] [2, 6, 1] [1, 1, 1] : tensor<2x6x7xf32> to tensor<2x6x1xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gx : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %dq = linalg.batch_matmul ins(%gs, %k : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gs : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  // The broadcast's backward: the column summed over the queries.
  %eds = tensor.empty() : tensor<2xf32>
  %zds = linalg.fill ins(%zero : f32) outs(%eds : tensor<2xf32>) -> tensor<2xf32>
  %dsinks = linalg.reduce ins(%gc : tensor<2x6x1xf32>) outs(%zds : tensor<2xf32>) dimensions = [1, 2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %o, %dq, %dk, %dv, %dsinks : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>
}

// 2 sin(0.7 (17 a + c) + seed) over the flattened [12, 4] view.
func.func @input(%seed: f32) -> tensor<2x6x4xf32> {
  %e = tensor.empty() : tensor<12x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<12x4xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %c = linalg.index 1 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c17 : index
    %s1 = arith.addi %a1, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<12x4xf32>
  %t = tensor.expand_shape %r [[0, 1], [2]] output_shape [2, 6, 4] : tensor<12x4xf32> into tensor<2x6x4xf32>
  return %t : tensor<2x6x4xf32>
}

func.func @print(%o: tensor<2x6x4xf32>, %dq: tensor<2x6x4xf32>, %dk: tensor<2x6x4xf32>, %dv: tensor<2x6x4xf32>) {
  %a = tensor.cast %o : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%a) : (tensor<*xf32>) -> ()
  %b = tensor.cast %dq : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%b) : (tensor<*xf32>) -> ()
  %c = tensor.cast %dk : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%c) : (tensor<*xf32>) -> ()
  %d = tensor.cast %dv : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%d) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<2x6x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<2x6x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<2x6x4xf32>
  %do = call @input(%s4) : (f32) -> tensor<2x6x4xf32>
  %sinks = arith.constant dense<[0.75, -1.5]> : tensor<2xf32>
  %a1, %a2, %a3, %a4, %a5 = call @padded(%q, %k, %v, %do, %sinks) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>)
  call @print(%a1, %a2, %a3, %a4) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  %a5u = tensor.cast %a5 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%a5u) : (tensor<*xf32>) -> ()
  %b1, %b2, %b3, %b4, %b5 = call @inserted(%q, %k, %v, %do, %sinks) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>)
  call @print(%b1, %b2, %b3, %b4) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  %b5u = tensor.cast %b5 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%b5u) : (tensor<*xf32>) -> ()
  %c1, %c2, %c3, %c4, %c5 = call @column_collapsed(%q, %k, %v, %do, %sinks) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>)
  call @print(%c1, %c2, %c3, %c4) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  %c5u = tensor.cast %c5 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%c5u) : (tensor<*xf32>) -> ()
  return
}
