// Training graphs (forward and autodiff's backward, as the joint-graph
// tests write them) with score modifications: a score function, or masks
// computed from positions that both raised ops read and
// fa-fold-masks-into-modifiers folds into both, so that neither the
// forward nor the backward reads an N x N tensor.
// - @alibi: s/2 + slope[b] (k - q), the bias computed from linalg.index and
//   the slopes: a score_mod on fa.attention and fa.attention_backward;
// - @softcap: t = cap tanh(s / 2 / cap) in three ops, and autodiff's
//   backward through it (dT cap (1 - y^2) / cap / 2, y the saved tanh):
//   the matcher checks that the factor is the function's derivative, and
//   both ops carry the score_mod;
// - @documents: doc[q] == doc[k] from per-position ids, a select on the
//   scores and masked_fill's select on their gradient: a mask_mod on both.
// The raised and folded program equals the frontend's, outputs and
// gradients, through the tiled lowering and the reference.
// RUN: fa-opt %s --fa-raise-attention --fa-fold-masks-into-modifiers | FileCheck %s --check-prefix=FOLDED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// RUN: %compare %t.reference %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 576 values

// FOLDED-LABEL: func.func @alibi
// FOLDED: fa.attention {{[^(]*}} scale = 5.000000e-01 score_mod
// FOLDED: fa.attention_backward {{[^(]*}} scale = 5.000000e-01 score_mod
// FOLDED-NOT: linalg.softmax
// FOLDED-NOT: linalg.batch_matmul
// FOLDED-LABEL: func.func @softcap
// FOLDED: fa.attention {{[^(]*}} scale = 5.000000e-01 score_mod
// FOLDED: math.tanh
// FOLDED: fa.attention_backward {{[^(]*}} scale = 5.000000e-01 score_mod
// FOLDED: math.tanh
// FOLDED-NOT: linalg.softmax
// FOLDED-NOT: linalg.batch_matmul
// FOLDED-LABEL: func.func @documents
// FOLDED: fa.attention {{[^(]*}} scale = 5.000000e-01 mask_mod
// FOLDED: fa.attention_backward {{[^(]*}} scale = 5.000000e-01 mask_mod
// FOLDED-NOT: linalg.softmax
// FOLDED-NOT: linalg.batch_matmul
// FOLDED-LABEL: func.func @input

#id3 = affine_map<(b, i, j) -> (b, i, j)>
#perb = affine_map<(b, i, j) -> (b)>
#rowdoc = affine_map<(b, i, j) -> (i)>
#coldoc = affine_map<(b, i, j) -> (j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @alibi(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x6x4xf32>, %slopes: tensor<2xf32>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %bias = linalg.generic {indexing_maps = [#perb, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%slopes : tensor<2xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%m: f32, %unused: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %r = arith.mulf %m, %df : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %m: f32, %unused: f32):
    %y = arith.mulf %a, %half : f32
    %r = arith.addf %y, %m : f32
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
    linalg.yield %a : f32
  } -> tensor<2x6x6xf32>
  %dq = linalg.batch_matmul ins(%gm, %k : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gm : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>
}

func.func @softcap(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x6x4xf32>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %cap = arith.constant 1.5 : f32
  %one = arith.constant 1.0 : f32
  // Forward: t = cap tanh(s / 2 / cap), as three ops (torch's decomposition).
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %y = arith.mulf %a, %half : f32
    %r = arith.divf %y, %cap : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %th = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %capped = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%th : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %cap : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %p = linalg.softmax dimension(2) ins(%capped : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
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
  // Backward through the cap: dY = dT cap, dA = dY (1 - y^2) (tanh's
  // backward from its saved output), dS = dA / cap / 2.
  %dy = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %cap : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %da = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dy, %th : tensor<2x6x6xf32>, tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %y: f32, %unused: f32):
    %yy = arith.mulf %y, %y : f32
    %d = arith.subf %one, %yy : f32
    %r = arith.mulf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %gm = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%da : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %y = arith.divf %a, %cap : f32
    %r = arith.mulf %y, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %dq = linalg.batch_matmul ins(%gm, %k : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gm : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>
}


func.func @documents(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x6x4xf32>, %doc: tensor<6xi32>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x6xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %eb = tensor.empty() : tensor<2x6x6xi1>
  %same = linalg.generic {indexing_maps = [#rowdoc, #coldoc, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%doc, %doc : tensor<6xi32>, tensor<6xi32>) outs(%eb : tensor<2x6x6xi1>) {
  ^bb0(%a: i32, %c: i32, %unused: i1):
    %r = arith.cmpi eq, %a, %c : i32
    linalg.yield %r : i1
  } -> tensor<2x6x6xi1>
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %same : tensor<2x6x6xf32>, tensor<2x6x6xi1>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %m: i1, %unused: f32):
    %y = arith.mulf %a, %half : f32
    %r = arith.select %m, %y, %ninf : f32
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
  %gm = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gs, %same : tensor<2x6x6xf32>, tensor<2x6x6xi1>) outs(%es : tensor<2x6x6xf32>) {
  ^bb0(%a: f32, %m: i1, %unused: f32):
    %r = arith.select %m, %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x6x6xf32>
  %dq = linalg.batch_matmul ins(%gm, %k : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gm : tensor<2x6x6xf32>) outs(%es : tensor<2x6x6xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>
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
  %slopes = arith.constant dense<[0.5, 0.125]> : tensor<2xf32>
  %doc = arith.constant dense<[0, 0, 1, 1, 1, 2]> : tensor<6xi32>
  %a1, %a2, %a3, %a4 = call @alibi(%q, %k, %v, %do, %slopes) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2xf32>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>)
  call @print(%a1, %a2, %a3, %a4) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  %c1, %c2, %c3, %c4 = call @softcap(%q, %k, %v, %do) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>)
  call @print(%c1, %c2, %c3, %c4) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  %b1, %b2, %b3, %b4 = call @documents(%q, %k, %v, %do, %doc) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<6xi32>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>)
  call @print(%b1, %b2, %b3, %b4) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  return
}
