// Mixed-precision training graphs (f16 Q, K, V and dO; f32 scores,
// softmax and its backward; P and dS truncated to f16 before their
// products, as autocast spells them) with score modifications, raised to
// fa.attention and fa.attention_backward and run through the emulated GPU
// kernels (mma.sync, sm_80: the forward and the four backward kernels,
// every thread emulated on the CPU), against the program as the frontend
// wrote it:
// - @softcap: t = cap tanh(s / 4 / cap), autodiff's backward through the
//   saved tanh: a score_mod on both ops, its derivative in the kernel;
// - @documents: doc[q] == doc[k] from per-position ids: a mask_mod on both;
// - @alibi, @t5_buckets: biases from positions (slopes; HF's buckets and a
//   [buckets, H] table read in the body): a score_mod on both;
// - @prefix_lm: k < 5 or k <= q compared in the selects' bodies: mask_mod;
// - @sinks: P sliced then rounded, dP padded, dSinks summed: sinks and
//   grad_sinks (the fifth kernel).
// Nq = Nk = 24 (not a tile multiple), D = 16.
// Tolerance: the frontend accumulates P·V, Pᵀ·dO, dS·K and dSᵀ·Q in f16
// (linalg accumulates in its output's type) where the kernels accumulate
// in f32: a sum of 24 products of magnitude about 1 drifts by about
// √24 · 2^-10 ≈ 5e-3 (atol), and the outputs (up to 4.4) are f16 values,
// 1e-2 relative covers their rounding. The kernels and the reference
// lowering of the raised ops round alike: they are held to 2e-3.
// RUN: fa-opt %s --fa-raise-attention --fa-fold-masks-into-modifiers | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-raise-attention --fa-fold-masks-into-modifiers --fa-select-tiles=target=sm_80 --fa-distribute-attention-backward --fa-distribute-attention | FileCheck %s --check-prefix=KERNEL
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: %compare %t.tiled %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.kernel %t.reference --rtol 1e-2 --atol 2e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 18434 values

// RAISED-LABEL: func.func @softcap
// RAISED: fa.attention {{[^(]*}} scale = 2.500000e-01 score_mod
// RAISED: math.tanh
// RAISED: fa.attention_backward {{[^(]*}} scale = 2.500000e-01 score_mod
// RAISED: math.tanh
// RAISED-LABEL: func.func @documents
// RAISED: fa.attention {{[^(]*}} scale = 2.500000e-01 mask_mod
// RAISED: fa.attention_backward {{[^(]*}} scale = 2.500000e-01 mask_mod
// RAISED-NOT: linalg.softmax
// RAISED-NOT: linalg.batch_matmul
// RAISED-LABEL: func.func @alibi
// RAISED: fa.attention {{[^(]*}} score_mod
// RAISED: fa.attention_backward {{[^(]*}} score_mod
// RAISED-LABEL: func.func @t5_buckets
// RAISED: fa.attention {{[^(]*}} score_mod
// RAISED: tensor.extract %{{.*}} : tensor<8x2xf32>
// RAISED: fa.attention_backward {{[^(]*}} score_mod
// RAISED-LABEL: func.func @prefix_lm
// RAISED: fa.attention {{[^(]*}} mask_mod
// RAISED: fa.attention_backward {{[^(]*}} mask_mod
// RAISED-LABEL: func.func @sinks
// RAISED: fa.attention {{.*}} sinks(
// RAISED: fa.attention_backward {{.*}} sinks({{.*}} grad_sinks(tensor<2xf32>)
// RAISED-NOT: linalg.softmax
// RAISED-NOT: tensor.pad
// RAISED-LABEL: func.func @input

// Every attention became kernels: tensor-core fragments, the cap's tanh
// in the kernel, the document ids read per element.
// KERNEL-LABEL: func.func @softcap
// KERNEL: nvgpu.ldmatrix
// KERNEL: math.tanh
// KERNEL-LABEL: func.func @documents
// KERNEL: memref.load %{{.*}}[%{{.*}}] : memref<24xi32>
// KERNEL-NOT: fa.attention
// KERNEL-LABEL: func.func @input

#id3 = affine_map<(b, i, j) -> (b, i, j)>
#rowdoc = affine_map<(b, i, j) -> (i)>
#coldoc = affine_map<(b, i, j) -> (j)>

!x = tensor<2x24x16xf16>
!xt = tensor<2x16x24xf16>
!s = tensor<2x24x24xf32>
!s16 = tensor<2x24x24xf16>

func.func @softcap(%q: !x, %k: !x, %v: !x, %do: !x) -> (!x, !x, !x, !x) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %half = arith.constant 0.25 : f32
  %ekt = tensor.empty() : !xt
  %kt = linalg.transpose ins(%k : !x) outs(%ekt : !xt) permutation = [0, 2, 1]
  %es = tensor.empty() : !s
  %es16 = tensor.empty() : !s16
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.batch_matmul ins(%q, %kt : !x, !xt) outs(%zs : !s) -> !s
  %cap = arith.constant 1.5 : f32
  %one = arith.constant 1.0 : f32
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : !s) outs(%es : !s) {
  ^bb0(%a: f32, %unused: f32):
    %y = arith.mulf %a, %half : f32
    %r = arith.divf %y, %cap : f32
    linalg.yield %r : f32
  } -> !s
  %th = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : !s) outs(%es : !s) {
  ^bb0(%a: f32, %unused: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> !s
  %capped = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%th : !s) outs(%es : !s) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %cap : f32
    linalg.yield %r : f32
  } -> !s
  %p = linalg.softmax dimension(2) ins(%capped : !s) outs(%es : !s) -> !s
  %p16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  } -> !s16
  %eo = tensor.empty() : !x
  %zo = linalg.fill ins(%zero16 : f16) outs(%eo : !x) -> !x
  %o = linalg.batch_matmul ins(%p16, %v : !s16, !x) outs(%zo : !x) -> !x
  %pt = linalg.transpose ins(%p16 : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : !s16, !x) outs(%zo : !x) -> !x
  %evt = tensor.empty() : !xt
  %vt = linalg.transpose ins(%v : !x) outs(%evt : !xt) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : !x, !xt) outs(%zs : !s) -> !s
  %pdp = linalg.mul ins(%p, %dp : !s, !s) outs(%es : !s) -> !s
  %er = tensor.empty() : tensor<2x24xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x24xf32>) -> tensor<2x24xf32>
  %rows = linalg.reduce ins(%pdp : !s) outs(%zr : tensor<2x24xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x24xf32>) outs(%es : !s) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : !s, !s) outs(%es : !s) -> !s
  %g = linalg.mul ins(%p, %diff : !s, !s) outs(%es : !s) -> !s
  %dy = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : !s) outs(%es : !s) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %cap : f32
    linalg.yield %r : f32
  } -> !s
  %da = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dy, %th : !s, !s) outs(%es : !s) {
  ^bb0(%a: f32, %y: f32, %unused: f32):
    %yy = arith.mulf %y, %y : f32
    %d = arith.subf %one, %yy : f32
    %r = arith.mulf %a, %d : f32
    linalg.yield %r : f32
  } -> !s
  %gm = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%da : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %y = arith.divf %a, %cap : f32
    %r = arith.mulf %y, %half : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> !s16
  %dq = linalg.batch_matmul ins(%gm, %k : !s16, !x) outs(%zo : !x) -> !x
  %gt = linalg.transpose ins(%gm : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : !s16, !x) outs(%zo : !x) -> !x
  return %o, %dq, %dk, %dv : !x, !x, !x, !x
}

func.func @documents(%q: !x, %k: !x, %v: !x, %do: !x, %doc: tensor<24xi32>) -> (!x, !x, !x, !x) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %half = arith.constant 0.25 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : !xt
  %kt = linalg.transpose ins(%k : !x) outs(%ekt : !xt) permutation = [0, 2, 1]
  %es = tensor.empty() : !s
  %es16 = tensor.empty() : !s16
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.batch_matmul ins(%q, %kt : !x, !xt) outs(%zs : !s) -> !s
  %eb = tensor.empty() : tensor<2x24x24xi1>
  %same = linalg.generic {indexing_maps = [#rowdoc, #coldoc, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%doc, %doc : tensor<24xi32>, tensor<24xi32>) outs(%eb : tensor<2x24x24xi1>) {
  ^bb0(%a: i32, %c: i32, %unused: i1):
    %r = arith.cmpi eq, %a, %c : i32
    linalg.yield %r : i1
  } -> tensor<2x24x24xi1>
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %same : !s, tensor<2x24x24xi1>) outs(%es : !s) {
  ^bb0(%a: f32, %m: i1, %unused: f32):
    %y = arith.mulf %a, %half : f32
    %r = arith.select %m, %y, %ninf : f32
    linalg.yield %r : f32
  } -> !s
  %p = linalg.softmax dimension(2) ins(%x : !s) outs(%es : !s) -> !s
  %p16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  } -> !s16
  %eo = tensor.empty() : !x
  %zo = linalg.fill ins(%zero16 : f16) outs(%eo : !x) -> !x
  %o = linalg.batch_matmul ins(%p16, %v : !s16, !x) outs(%zo : !x) -> !x
  %pt = linalg.transpose ins(%p16 : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : !s16, !x) outs(%zo : !x) -> !x
  %evt = tensor.empty() : !xt
  %vt = linalg.transpose ins(%v : !x) outs(%evt : !xt) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : !x, !xt) outs(%zs : !s) -> !s
  %pdp = linalg.mul ins(%p, %dp : !s, !s) outs(%es : !s) -> !s
  %er = tensor.empty() : tensor<2x24xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x24xf32>) -> tensor<2x24xf32>
  %rows = linalg.reduce ins(%pdp : !s) outs(%zr : tensor<2x24xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x24xf32>) outs(%es : !s) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : !s, !s) outs(%es : !s) -> !s
  %g = linalg.mul ins(%p, %diff : !s, !s) outs(%es : !s) -> !s
  %gm = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g, %same : !s, tensor<2x24x24xi1>) outs(%es16 : !s16) {
  ^bb0(%a: f32, %m: i1, %unused: f16):
    %y = arith.mulf %a, %half : f32
    %r = arith.select %m, %y, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> !s16
  %dq = linalg.batch_matmul ins(%gm, %k : !s16, !x) outs(%zo : !x) -> !x
  %gt = linalg.transpose ins(%gm : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : !s16, !x) outs(%zo : !x) -> !x
  return %o, %dq, %dk, %dv : !x, !x, !x, !x
}

// ALiBi from positions and per-head slopes (a score_mod on both ops).
func.func @alibi(%q: !x, %k: !x, %v: !x, %do: !x) -> (!x, !x, !x, !x) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %half = arith.constant 0.25 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : !xt
  %kt = linalg.transpose ins(%k : !x) outs(%ekt : !xt) permutation = [0, 2, 1]
  %es = tensor.empty() : !s
  %es16 = tensor.empty() : !s16
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.batch_matmul ins(%q, %kt : !x, !xt) outs(%zs : !s) -> !s
  %slopes = arith.constant dense<[0.5, 0.125]> : tensor<2xf32>
  %alibi = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%slopes : tensor<2xf32>) outs(%es : !s) {
  ^bb0(%slope: f32, %unused: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %r = arith.mulf %slope, %df : f32
    linalg.yield %r : f32
  } -> !s
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %alibi : !s, !s) outs(%es : !s) {
  ^bb0(%a: f32, %bias: f32, %unused: f32):
    %y = arith.mulf %a, %half : f32
    %r = arith.addf %y, %bias : f32
    linalg.yield %r : f32
  } -> !s
  %p = linalg.softmax dimension(2) ins(%x : !s) outs(%es : !s) -> !s
  %p16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  } -> !s16
  %eo = tensor.empty() : !x
  %zo = linalg.fill ins(%zero16 : f16) outs(%eo : !x) -> !x
  %o = linalg.batch_matmul ins(%p16, %v : !s16, !x) outs(%zo : !x) -> !x
  %pt = linalg.transpose ins(%p16 : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : !s16, !x) outs(%zo : !x) -> !x
  %evt = tensor.empty() : !xt
  %vt = linalg.transpose ins(%v : !x) outs(%evt : !xt) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : !x, !xt) outs(%zs : !s) -> !s
  %pdp = linalg.mul ins(%p, %dp : !s, !s) outs(%es : !s) -> !s
  %er = tensor.empty() : tensor<2x24xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x24xf32>) -> tensor<2x24xf32>
  %rows = linalg.reduce ins(%pdp : !s) outs(%zr : tensor<2x24xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x24xf32>) outs(%es : !s) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : !s, !s) outs(%es : !s) -> !s
  %g = linalg.mul ins(%p, %diff : !s, !s) outs(%es : !s) -> !s
  %gm = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %y = arith.mulf %a, %half : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> !s16
  %dq = linalg.batch_matmul ins(%gm, %k : !s16, !x) outs(%zo : !x) -> !x
  %gt = linalg.transpose ins(%gm : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : !s16, !x) outs(%zo : !x) -> !x
  return %o, %dq, %dk, %dv : !x, !x, !x, !x
}

// T5's buckets, the [buckets, H] table read in the body (a score_mod).
func.func @t5_buckets(%q: !x, %k: !x, %v: !x, %do: !x) -> (!x, !x, !x, !x) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %half = arith.constant 0.25 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : !xt
  %kt = linalg.transpose ins(%k : !x) outs(%ekt : !xt) permutation = [0, 2, 1]
  %es = tensor.empty() : !s
  %es16 = tensor.empty() : !s16
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.batch_matmul ins(%q, %kt : !x, !xt) outs(%zs : !s) -> !s
  %table = arith.constant dense<[[0.5, -1.0], [0.25, 0.75], [-0.5, 0.125], [1.0, -0.25], [0.0, 0.5], [-0.75, 1.25], [0.375, -0.5], [1.5, 0.0]]> : tensor<8x2xf32>
  // HF's bidirectional buckets: 8 buckets, exact below 2, logarithmic to 16.
  %t5 = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%es : !s) {
  ^bb0(%unused: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %rel = arith.subi %jj, %ii : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %later = arith.cmpi sgt, %rel, %c0 : i32
    %offset = arith.select %later, %c4, %c0 : i32
    %neg = arith.subi %c0, %rel : i32
    %dist = arith.maxsi %rel, %neg : i32
    %small = arith.cmpi slt, %dist, %c2 : i32
    %dist1 = arith.maxsi %dist, %c1 : i32
    %distf = arith.sitofp %dist1 : i32 to f32
    %inv = arith.constant 0.5 : f32
    %ratio = arith.mulf %distf, %inv : f32
    %log = math.log %ratio : f32
    %step = arith.constant 0.961796693 : f32
    %scaled = arith.mulf %log, %step : f32
    %floored = math.floor %scaled : f32
    %steps = arith.fptosi %floored : f32 to i32
    %large = arith.addi %steps, %c2 : i32
    %capped = arith.minsi %large, %c3 : i32
    %inhalf = arith.select %small, %dist, %capped : i32
    %bucket = arith.addi %inhalf, %offset : i32
    %bi = arith.index_cast %bucket : i32 to index
    %r = tensor.extract %table[%bi, %h] : tensor<8x2xf32>
    linalg.yield %r : f32
  } -> !s
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %t5 : !s, !s) outs(%es : !s) {
  ^bb0(%a: f32, %bias: f32, %unused: f32):
    %y = arith.mulf %a, %half : f32
    %r = arith.addf %y, %bias : f32
    linalg.yield %r : f32
  } -> !s
  %p = linalg.softmax dimension(2) ins(%x : !s) outs(%es : !s) -> !s
  %p16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  } -> !s16
  %eo = tensor.empty() : !x
  %zo = linalg.fill ins(%zero16 : f16) outs(%eo : !x) -> !x
  %o = linalg.batch_matmul ins(%p16, %v : !s16, !x) outs(%zo : !x) -> !x
  %pt = linalg.transpose ins(%p16 : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : !s16, !x) outs(%zo : !x) -> !x
  %evt = tensor.empty() : !xt
  %vt = linalg.transpose ins(%v : !x) outs(%evt : !xt) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : !x, !xt) outs(%zs : !s) -> !s
  %pdp = linalg.mul ins(%p, %dp : !s, !s) outs(%es : !s) -> !s
  %er = tensor.empty() : tensor<2x24xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x24xf32>) -> tensor<2x24xf32>
  %rows = linalg.reduce ins(%pdp : !s) outs(%zr : tensor<2x24xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x24xf32>) outs(%es : !s) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : !s, !s) outs(%es : !s) -> !s
  %g = linalg.mul ins(%p, %diff : !s, !s) outs(%es : !s) -> !s
  %gm = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %y = arith.mulf %a, %half : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> !s16
  %dq = linalg.batch_matmul ins(%gm, %k : !s16, !x) outs(%zo : !x) -> !x
  %gt = linalg.transpose ins(%gm : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : !s16, !x) outs(%zo : !x) -> !x
  return %o, %dq, %dk, %dv : !x, !x, !x, !x
}

// Prefix-LM, compared in the select's body on the scores and on dS
// (a mask_mod on both ops).
func.func @prefix_lm(%q: !x, %k: !x, %v: !x, %do: !x) -> (!x, !x, !x, !x) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %half = arith.constant 0.25 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : !xt
  %kt = linalg.transpose ins(%k : !x) outs(%ekt : !xt) permutation = [0, 2, 1]
  %es = tensor.empty() : !s
  %es16 = tensor.empty() : !s16
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.batch_matmul ins(%q, %kt : !x, !xt) outs(%zs : !s) -> !s
  // Prefix-LM: keys of a 5-key prefix, or k <= q, compared in the body.
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : !s) outs(%es : !s) {
  ^bb0(%a: f32, %unused: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c5 = arith.constant 5 : index
    %inprefix = arith.cmpi slt, %j, %c5 : index
    %past = arith.cmpi sle, %j, %i : index
    %keep = arith.ori %inprefix, %past : i1
    %y = arith.mulf %a, %half : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> !s
  %p = linalg.softmax dimension(2) ins(%x : !s) outs(%es : !s) -> !s
  %p16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  } -> !s16
  %eo = tensor.empty() : !x
  %zo = linalg.fill ins(%zero16 : f16) outs(%eo : !x) -> !x
  %o = linalg.batch_matmul ins(%p16, %v : !s16, !x) outs(%zo : !x) -> !x
  %pt = linalg.transpose ins(%p16 : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : !s16, !x) outs(%zo : !x) -> !x
  %evt = tensor.empty() : !xt
  %vt = linalg.transpose ins(%v : !x) outs(%evt : !xt) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : !x, !xt) outs(%zs : !s) -> !s
  %pdp = linalg.mul ins(%p, %dp : !s, !s) outs(%es : !s) -> !s
  %er = tensor.empty() : tensor<2x24xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x24xf32>) -> tensor<2x24xf32>
  %rows = linalg.reduce ins(%pdp : !s) outs(%zr : tensor<2x24xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x24xf32>) outs(%es : !s) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : !s, !s) outs(%es : !s) -> !s
  %g = linalg.mul ins(%p, %diff : !s, !s) outs(%es : !s) -> !s
  %gm = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c5 = arith.constant 5 : index
    %inprefix = arith.cmpi slt, %j, %c5 : index
    %past = arith.cmpi sle, %j, %i : index
    %keep = arith.ori %inprefix, %past : i1
    %y = arith.mulf %a, %half : f32
    %r = arith.select %keep, %y, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> !s16
  %dq = linalg.batch_matmul ins(%gm, %k : !s16, !x) outs(%zo : !x) -> !x
  %gt = linalg.transpose ins(%gm : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : !s16, !x) outs(%zo : !x) -> !x
  return %o, %dq, %dk, %dv : !x, !x, !x, !x
}

// Sinks: a per-head logit broadcast into a column, the softmax over
// Nk + 1, P sliced then rounded to f16; the slice's backward pads dP with
// a zero column, the concat's backward slices dS and the column's
// gradient, summed over the queries into dSinks (sinks and grad_sinks).
func.func @sinks(%q: !x, %k: !x, %v: !x, %do: !x, %sinks: tensor<2xf32>) -> (!x, !x, !x, !x, tensor<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %half = arith.constant 0.25 : f32
  %ekt = tensor.empty() : !xt
  %kt = linalg.transpose ins(%k : !x) outs(%ekt : !xt) permutation = [0, 2, 1]
  %es = tensor.empty() : !s
  %es16 = tensor.empty() : !s16
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.batch_matmul ins(%q, %kt : !x, !xt) outs(%zs : !s) -> !s
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : !s) outs(%es : !s) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> !s
  %ec = tensor.empty() : tensor<2x24x1xf32>
  %column = linalg.broadcast ins(%sinks : tensor<2xf32>) outs(%ec : tensor<2x24x1xf32>) dimensions = [1, 2]
  %xc = tensor.concat dim(2) %x, %column : (!s, tensor<2x24x1xf32>) -> tensor<2x24x25xf32>
  %e25 = tensor.empty() : tensor<2x24x25xf32>
  %pf = linalg.softmax dimension(2) ins(%xc : tensor<2x24x25xf32>) outs(%e25 : tensor<2x24x25xf32>) -> tensor<2x24x25xf32>
  %p = tensor.extract_slice %pf[0, 0, 0] [2, 24, 24] [1, 1, 1] : tensor<2x24x25xf32> to !s
  %p16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  } -> !s16
  %eo = tensor.empty() : !x
  %zo = linalg.fill ins(%zero16 : f16) outs(%eo : !x) -> !x
  %o = linalg.batch_matmul ins(%p16, %v : !s16, !x) outs(%zo : !x) -> !x
  %pt = linalg.transpose ins(%p16 : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : !s16, !x) outs(%zo : !x) -> !x
  %evt = tensor.empty() : !xt
  %vt = linalg.transpose ins(%v : !x) outs(%evt : !xt) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : !x, !xt) outs(%zs : !s) -> !s
  %dpf = tensor.pad %dp low[0, 0, 0] high[0, 0, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index):
    tensor.yield %zero : f32
  } : !s to tensor<2x24x25xf32>
  %pdp = linalg.mul ins(%pf, %dpf : tensor<2x24x25xf32>, tensor<2x24x25xf32>) outs(%e25 : tensor<2x24x25xf32>) -> tensor<2x24x25xf32>
  %er = tensor.empty() : tensor<2x24xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x24xf32>) -> tensor<2x24xf32>
  %rows = linalg.reduce ins(%pdp : tensor<2x24x25xf32>) outs(%zr : tensor<2x24xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x24xf32>) outs(%e25 : tensor<2x24x25xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dpf, %rb : tensor<2x24x25xf32>, tensor<2x24x25xf32>) outs(%e25 : tensor<2x24x25xf32>) -> tensor<2x24x25xf32>
  %g = linalg.mul ins(%pf, %diff : tensor<2x24x25xf32>, tensor<2x24x25xf32>) outs(%e25 : tensor<2x24x25xf32>) -> tensor<2x24x25xf32>
  %gx = tensor.extract_slice %g[0, 0, 0] [2, 24, 24] [1, 1, 1] : tensor<2x24x25xf32> to !s
  %gc = tensor.extract_slice %g[0, 0, 24] [2, 24, 1] [1, 1, 1] : tensor<2x24x25xf32> to tensor<2x24x1xf32>
  %gm = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gx : !s) outs(%es16 : !s16) {
  ^bb0(%a: f32, %unused: f16):
    %y = arith.mulf %a, %half : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> !s16
  %dq = linalg.batch_matmul ins(%gm, %k : !s16, !x) outs(%zo : !x) -> !x
  %gt = linalg.transpose ins(%gm : !s16) outs(%es16 : !s16) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : !s16, !x) outs(%zo : !x) -> !x
  %eds = tensor.empty() : tensor<2xf32>
  %zds = linalg.fill ins(%zero : f32) outs(%eds : tensor<2xf32>) -> tensor<2xf32>
  %dsinks = linalg.reduce ins(%gc : tensor<2x24x1xf32>) outs(%zds : tensor<2xf32>) dimensions = [1, 2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %o, %dq, %dk, %dv, %dsinks : !x, !x, !x, !x, tensor<2xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

// 2 sin(0.7 (17 a + c) + seed) over the flattened [48, 16] view, in f16.
func.func @input(%seed: f32) -> !x {
  %e = tensor.empty() : tensor<48x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<48x16xf16>) {
  ^bb0(%o: f16):
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
    %h = arith.truncf %w : f32 to f16
    linalg.yield %h : f16
  } -> tensor<48x16xf16>
  %t = tensor.expand_shape %r [[0, 1], [2]] output_shape [2, 24, 16] : tensor<48x16xf16> into !x
  return %t : !x
}

func.func @print1(%t: !x) {
  %e = tensor.empty() : tensor<2x24x16xf32>
  %w = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t : !x) outs(%e : tensor<2x24x16xf32>) {
  ^bb0(%a: f16, %unused: f32):
    %r = arith.extf %a : f16 to f32
    linalg.yield %r : f32
  } -> tensor<2x24x16xf32>
  %c = tensor.cast %w : tensor<2x24x16xf32> to tensor<*xf32>
  call @printMemrefF32(%c) : (tensor<*xf32>) -> ()
  return
}

func.func @print(%o: !x, %dq: !x, %dk: !x, %dv: !x) {
  call @print1(%o) : (!x) -> ()
  call @print1(%dq) : (!x) -> ()
  call @print1(%dk) : (!x) -> ()
  call @print1(%dv) : (!x) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %q = call @input(%s1) : (f32) -> !x
  %k = call @input(%s2) : (f32) -> !x
  %v = call @input(%s3) : (f32) -> !x
  %do = call @input(%s4) : (f32) -> !x
  %doc = arith.constant dense<[0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3]> : tensor<24xi32>
  %c1, %c2, %c3, %c4 = call @softcap(%q, %k, %v, %do) : (!x, !x, !x, !x) -> (!x, !x, !x, !x)
  call @print(%c1, %c2, %c3, %c4) : (!x, !x, !x, !x) -> ()
  %b1, %b2, %b3, %b4 = call @documents(%q, %k, %v, %do, %doc) : (!x, !x, !x, !x, tensor<24xi32>) -> (!x, !x, !x, !x)
  call @print(%b1, %b2, %b3, %b4) : (!x, !x, !x, !x) -> ()
  %a1, %a2, %a3, %a4 = call @alibi(%q, %k, %v, %do) : (!x, !x, !x, !x) -> (!x, !x, !x, !x)
  call @print(%a1, %a2, %a3, %a4) : (!x, !x, !x, !x) -> ()
  %t1, %t2, %t3, %t4 = call @t5_buckets(%q, %k, %v, %do) : (!x, !x, !x, !x) -> (!x, !x, !x, !x)
  call @print(%t1, %t2, %t3, %t4) : (!x, !x, !x, !x) -> ()
  %p1, %p2, %p3, %p4 = call @prefix_lm(%q, %k, %v, %do) : (!x, !x, !x, !x) -> (!x, !x, !x, !x)
  call @print(%p1, %p2, %p3, %p4) : (!x, !x, !x, !x) -> ()
  %logits = arith.constant dense<[1.25, -0.5]> : tensor<2xf32>
  %s1o, %s2o, %s3o, %s4o, %s5o = call @sinks(%q, %k, %v, %do, %logits) : (!x, !x, !x, !x, tensor<2xf32>) -> (!x, !x, !x, !x, tensor<2xf32>)
  call @print(%s1o, %s2o, %s3o, %s4o) : (!x, !x, !x, !x) -> ()
  %ds = tensor.cast %s5o : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%ds) : (tensor<*xf32>) -> ()
  return
}
