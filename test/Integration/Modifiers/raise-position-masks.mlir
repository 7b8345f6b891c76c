// Position-defined biases and masks as frontends compute them in linalg
// (from linalg.index, small tensors and a table read in a generic's body),
// raised to fa.attention and folded into score_mod / mask_mod: no mask
// operand is left, and nothing [Nq, Nk] is computed. Each runs raised and
// as written on the same inputs; the outputs agree to f32 rounding.
// RUN: fa-opt %s --fa-raise-attention --fa-fold-masks-into-modifiers | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 384 values
// RAISED-LABEL: func.func @alibi
// RAISED-NOT: mask(
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// RAISED: tensor.extract %{{.*}}[%{{.*}}] : tensor<2xf32>
// RAISED: arith.subi
// RAISED: fa.yield
// RAISED-NOT: linalg.generic {{.*}}(h, i, j)
// RAISED-LABEL: func.func @t5_buckets
// RAISED-NOT: mask(
// RAISED: score_mod {
// RAISED: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<9x2xf32>
// RAISED-LABEL: func.func @prefix_lm
// RAISED-NOT: mask(
// RAISED: mask_mod {
// RAISED: arith.ori
// RAISED: fa.yield %{{.*}} : i1
// RAISED-LABEL: func.func @documents
// RAISED-NOT: mask(
// RAISED: mask_mod {
// RAISED: tensor.extract %{{.*}}[%{{.*}}] : tensor<12xi32>
// RAISED: tensor.extract %{{.*}}[%{{.*}}] : tensor<12xi32>
// RAISED: arith.cmpi eq
// RAISED-LABEL: func.func @input

func.func private @printMemrefF32(tensor<*xf32>)

// ALiBi: slope[h] * (j - i) computed from positions, added to the scaled scores.
func.func @alibi(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>, %slopes: tensor<2xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %eb = tensor.empty() : tensor<2x12x12xf32>
  %alibi = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>],
                           iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%slopes : tensor<2xf32>) outs(%eb : tensor<2x12x12xf32>) {
  ^bb0(%slope: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %r = arith.mulf %slope, %df : f32
    linalg.yield %r : f32
  } -> tensor<2x12x12xf32>
  %e0 = tensor.empty() : tensor<1x2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) outs(%z0 : tensor<1x2x12x12xf32>) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %m = arith.mulf %qa, %kb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %alibi : tensor<1x2x12x12xf32>, tensor<2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %in0: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %r = arith.addf %sc, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e2 = tensor.empty() : tensor<1x2x12x12xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x12x12xf32>) outs(%e2 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x12x12xf32>, tensor<1x2x12x4xf32>) outs(%z3 : tensor<1x2x12x4xf32>) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %m = arith.mulf %pa, %vb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  return %o : tensor<1x2x12x4xf32>
}

// T5-style relative buckets: abs, min, select on j - i, then a read of a [buckets, H] table.
func.func @t5_buckets(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>, %table: tensor<9x2xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %eb = tensor.empty() : tensor<2x12x12xf32>
  %t5 = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%eb : tensor<2x12x12xf32>) {
  ^bb0(%o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subi %j, %i : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %neg = arith.subi %c0, %d : index
    %abs = arith.maxsi %d, %neg : index
    %far = arith.cmpi sge, %abs, %c4 : index
    %c1 = arith.constant 1 : index
    %half = arith.divui %abs, %c1 : index
    %near = arith.minsi %half, %c4 : index
    %pos = arith.cmpi sgt, %d, %c0 : index
    %off = arith.select %pos, %c4, %c0 : index
    %b0 = arith.addi %near, %off : index
    %bucket = arith.minsi %b0, %c8 : index
    %bias = tensor.extract %table[%bucket, %h] : tensor<9x2xf32>
    linalg.yield %bias : f32
  } -> tensor<2x12x12xf32>
  %e0 = tensor.empty() : tensor<1x2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) outs(%z0 : tensor<1x2x12x12xf32>) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %m = arith.mulf %qa, %kb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %t5 : tensor<1x2x12x12xf32>, tensor<2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %in0: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %r = arith.addf %sc, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e2 = tensor.empty() : tensor<1x2x12x12xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x12x12xf32>) outs(%e2 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x12x12xf32>, tensor<1x2x12x4xf32>) outs(%z3 : tensor<1x2x12x4xf32>) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %m = arith.mulf %pa, %vb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  return %o : tensor<1x2x12x4xf32>
}

// Prefix-LM: keys of a 3-key prefix, or k <= q.
func.func @prefix_lm(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %ek = tensor.empty() : tensor<12x12xi1>
  %keep = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      outs(%ek : tensor<12x12xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %prefix = arith.cmpi slt, %j, %c3 : index
    %causal = arith.cmpi sle, %j, %i : index
    %r = arith.ori %prefix, %causal : i1
    linalg.yield %r : i1
  } -> tensor<12x12xi1>
  %e0 = tensor.empty() : tensor<1x2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) outs(%z0 : tensor<1x2x12x12xf32>) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %m = arith.mulf %qa, %kb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<1x2x12x12xf32>, tensor<12x12xi1>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %in0: i1, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %r = arith.select %in0, %sc, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e2 = tensor.empty() : tensor<1x2x12x12xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x12x12xf32>) outs(%e2 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x12x12xf32>, tensor<1x2x12x4xf32>) outs(%z3 : tensor<1x2x12x4xf32>) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %m = arith.mulf %pa, %vb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  return %o : tensor<1x2x12x4xf32>
}

// Document mask: doc[q] == doc[k] from per-position document ids.
func.func @documents(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>, %doc: tensor<12xi32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %ek = tensor.empty() : tensor<12x12xi1>
  %keep = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%doc, %doc : tensor<12xi32>, tensor<12xi32>) outs(%ek : tensor<12x12xi1>) {
  ^bb0(%a: i32, %c: i32, %o: i1):
    %r = arith.cmpi eq, %a, %c : i32
    linalg.yield %r : i1
  } -> tensor<12x12xi1>
  %e0 = tensor.empty() : tensor<1x2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) outs(%z0 : tensor<1x2x12x12xf32>) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %m = arith.mulf %qa, %kb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<1x2x12x12xf32>, tensor<12x12xi1>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %in0: i1, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %r = arith.select %in0, %sc, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e2 = tensor.empty() : tensor<1x2x12x12xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x12x12xf32>) outs(%e2 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x12x12xf32>, tensor<1x2x12x4xf32>) outs(%z3 : tensor<1x2x12x4xf32>) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %m = arith.mulf %pa, %vb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  return %o : tensor<1x2x12x4xf32>
}

func.func @input(%seed: f32) -> tensor<1x2x12x4xf32> {
  %e = tensor.empty() : tensor<1x2x12x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x2x12x4xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 1 : index
    %b = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c131 : index
    %b1 = arith.muli %b, %c17 : index
    %s0 = arith.addi %a1, %b1 : index
    %s1 = arith.addi %s0, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<1x2x12x4xf32>
  return %r : tensor<1x2x12x4xf32>
}

func.func @print(%t: tensor<1x2x12x4xf32>) {
  %u = tensor.cast %t : tensor<1x2x12x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<1x2x12x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<1x2x12x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<1x2x12x4xf32>
  %slopes = arith.constant dense<[0.5, 0.125]> : tensor<2xf32>
  %table = arith.constant dense<[[0.1, -0.2], [0.3, 0.0], [-0.5, 0.25], [1.0, -1.0], [0.0, 0.5],
                                 [0.7, 0.2], [-0.3, -0.6], [0.2, 0.9], [-1.2, 0.4]]> : tensor<9x2xf32>
  %doc = arith.constant dense<[0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3]> : tensor<12xi32>
  %o1 = call @alibi(%q, %k, %v, %slopes) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<2xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o1) : (tensor<1x2x12x4xf32>) -> ()
  %o2 = call @t5_buckets(%q, %k, %v, %table) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<9x2xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o2) : (tensor<1x2x12x4xf32>) -> ()
  %o3 = call @prefix_lm(%q, %k, %v) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o3) : (tensor<1x2x12x4xf32>) -> ()
  %o4 = call @documents(%q, %k, %v, %doc) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<12xi32>) -> tensor<1x2x12x4xf32>
  call @print(%o4) : (tensor<1x2x12x4xf32>) -> ()
  return
}
