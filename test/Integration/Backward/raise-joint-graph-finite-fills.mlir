// Joint forward + backward graphs whose mask fills hidden keys with a
// finite value, with masked_fill's backward select on the score gradient,
// as autodiff of `where` writes it. A hidden key keeps its weight
// exp(f - m) in P (so in dV and in the row term), and its score, a
// constant, has no gradient: fa.attention and fa.attention_backward both
// take mask_fill. The backward rebuilds P from the logsumexp, which for a
// row with every key filled is f + log(Nk): exact enough for a small fill
// only, so a large fill is raised where the mask provably keeps a key in
// every row:
// - @jax_fill_causal_in_body: JAX's -0.7 · finfo.max with a causal mask
//   computed in both selects' bodies (every row keeps key 0);
// - @minus_one: -1, a fill the visible scores reach, with a runtime mask
//   that hides every key of query 3 (its P row is uniform, no NaN);
// - @minus_1e4_constant_mask: -1e4 with a constant band mask.
// Raised and run through the tiled lowering, the emulated sm_80 backward
// kernel and the reference, each against the graph as written.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.reference %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 576 values
// RUN: not grep -q nan %t.frontend

// RAISED-NOT: remark
// RAISED-LABEL: func.func @jax_fill_causal_in_body
// RAISED: fa.attention {{.*}} mask({{.*}}) scale = 5.000000e-01 mask_fill = -2.381976{{[0-9]*}}E+38
// RAISED: fa.attention_backward {{.*}} mask({{.*}}) scale = 5.000000e-01 mask_fill = -2.381976{{[0-9]*}}E+38
// RAISED-NOT: linalg.softmax
// RAISED-NOT: linalg.batch_matmul
// RAISED-LABEL: func.func @minus_one
// RAISED: fa.attention_backward {{.*}} mask_fill = -1.000000e+00
// RAISED-LABEL: func.func @minus_1e4_constant_mask
// RAISED: fa.attention_backward {{.*}} mask_fill = -1.000000e+04
// RAISED-LABEL: func.func @input

#id3 = affine_map<(b, i, j) -> (b, i, j)>
#mask3 = affine_map<(b, i, j) -> (i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @jax_fill_causal_in_body(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x6x4xf32>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ule, %j, %i : index
    %y = arith.mulf %a, %half : f32
    %fill = arith.constant -2.38197633E+38 : f32
    %r = arith.select %c, %y, %fill : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %eo = tensor.empty() : tensor<2x6x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %evt = tensor.empty() : tensor<2x4x6xf32>
  %vt = linalg.transpose ins(%v : tensor<2x6x4xf32>) outs(%evt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %pdp = linalg.mul ins(%p, %dp : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %er = tensor.empty() : tensor<2x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x6xf32>) -> tensor<2x6xf32>
  %rows = linalg.reduce ins(%pdp : tensor<2x6x6xf32>) outs(%zr : tensor<2x6xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x6xf32>) outs(%es : tensor<2x6x6xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %g = linalg.mul ins(%p, %diff : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %gm = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gs : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ule, %j, %i : index
    %r = arith.select %c, %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %dq = linalg.batch_matmul ins(%gm, %k : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gm : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>
}

func.func @minus_one(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x6x4xf32>, %keep: tensor<6x6xi1>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %x = linalg.generic {indexing_maps = [#id3, #mask3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<2x6x6xf32>, tensor<6x6xi1>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %m: i1, %unused: f32):
    %y = arith.mulf %a, %half : f32
    %fill = arith.constant -1.0 : f32
    %r = arith.select %m, %y, %fill : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %eo = tensor.empty() : tensor<2x6x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %evt = tensor.empty() : tensor<2x4x6xf32>
  %vt = linalg.transpose ins(%v : tensor<2x6x4xf32>) outs(%evt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %pdp = linalg.mul ins(%p, %dp : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %er = tensor.empty() : tensor<2x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x6xf32>) -> tensor<2x6xf32>
  %rows = linalg.reduce ins(%pdp : tensor<2x6x6xf32>) outs(%zr : tensor<2x6xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x6xf32>) outs(%es : tensor<2x6x6xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %g = linalg.mul ins(%p, %diff : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %gm = linalg.generic {indexing_maps = [#id3, #mask3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gs, %keep : tensor<2x6x6xf32>, tensor<6x6xi1>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %m: i1, %unused: f32):
    %r = arith.select %m, %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %dq = linalg.batch_matmul ins(%gm, %k : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gm : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>
}

func.func @minus_1e4_constant_mask(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x6x4xf32>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  // A band: every row keeps its own key and the one before it.
  %keep = arith.constant dense<[[true, false, false, false, false, true], [true, true, false, false, false, false], [false, true, true, false, false, false], [false, false, true, true, false, false], [false, false, false, true, true, false], [false, false, false, false, true, true]]> : tensor<6x6xi1>
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %x = linalg.generic {indexing_maps = [#id3, #mask3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<2x6x6xf32>, tensor<6x6xi1>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %m: i1, %unused: f32):
    %y = arith.mulf %a, %half : f32
    %fill = arith.constant -1.0e+04 : f32
    %r = arith.select %m, %y, %fill : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %eo = tensor.empty() : tensor<2x6x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %evt = tensor.empty() : tensor<2x4x6xf32>
  %vt = linalg.transpose ins(%v : tensor<2x6x4xf32>) outs(%evt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %pdp = linalg.mul ins(%p, %dp : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %er = tensor.empty() : tensor<2x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x6xf32>) -> tensor<2x6xf32>
  %rows = linalg.reduce ins(%pdp : tensor<2x6x6xf32>) outs(%zr : tensor<2x6xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x6xf32>) outs(%es : tensor<2x6x6xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %g = linalg.mul ins(%p, %diff : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %gm = linalg.generic {indexing_maps = [#id3, #mask3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gs, %keep : tensor<2x6x6xf32>, tensor<6x6xi1>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %m: i1, %unused: f32):
    %r = arith.select %m, %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %dq = linalg.batch_matmul ins(%gm, %k : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gm : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>
}

func.func @input(%phase: f32) -> tensor<2x6x4xf32> {
  %e = tensor.empty() : tensor<2x6x4xf32>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x6x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %d = linalg.index 2 : index
    %c24 = arith.constant 24 : index
    %c4 = arith.constant 4 : index
    %bb = arith.muli %b, %c24 : index
    %ii = arith.muli %i, %c4 : index
    %s = arith.addi %bb, %ii : index
    %n = arith.addi %s, %d : index
    %ni = arith.index_cast %n : index to i64
    %f = arith.sitofp %ni : i64 to f32
    %c = arith.constant 0.7 : f32
    %x = arith.mulf %f, %c : f32
    %y = arith.addf %x, %phase : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<2x6x4xf32>
  return %r : tensor<2x6x4xf32>
}

func.func @print4(%o: tensor<2x6x4xf32>, %dq: tensor<2x6x4xf32>, %dk: tensor<2x6x4xf32>, %dv: tensor<2x6x4xf32>) {
  %po = tensor.cast %o : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%po) : (tensor<*xf32>) -> ()
  %pq = tensor.cast %dq : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pq) : (tensor<*xf32>) -> ()
  %pk = tensor.cast %dk : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pk) : (tensor<*xf32>) -> ()
  %pv = tensor.cast %dv : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pv) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 0.1 : f32
  %s2 = arith.constant 1.3 : f32
  %s3 = arith.constant 2.9 : f32
  %s4 = arith.constant 4.2 : f32
  %q = call @input(%s1) : (f32) -> tensor<2x6x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<2x6x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<2x6x4xf32>
  %do = call @input(%s4) : (f32) -> tensor<2x6x4xf32>
  %keep = arith.constant dense<[[true, true, true, true, true, false], [true, true, true, true, true, true], [true, false, false, false, false, false], [false, false, false, false, false, false], [true, true, true, true, true, true], [true, false, true, false, true, true]]> : tensor<6x6xi1>
  %a_o, %a_dq, %a_dk, %a_dv = call @jax_fill_causal_in_body(%q, %k, %v, %do) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>)
  call @print4(%a_o, %a_dq, %a_dk, %a_dv) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  %b_o, %b_dq, %b_dk, %b_dv = call @minus_one(%q, %k, %v, %do, %keep) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<6x6xi1>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>)
  call @print4(%b_o, %b_dq, %b_dk, %b_dv) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  %c_o, %c_dq, %c_dk, %c_dv = call @minus_1e4_constant_mask(%q, %k, %v, %do) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>)
  call @print4(%c_o, %c_dq, %c_dk, %c_dv) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  return
}
