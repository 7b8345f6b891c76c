// Attention spelled with linalg in several ways, each run twice on the same
// inputs: raised to fa.attention, and as the frontend wrote it. The outputs
// must agree to f32 rounding (rtol 1e-5), including rows in which every key
// is masked (NaN for a -inf fill, the mean of V for a lowest-finite fill).
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 288 values

// Every function below is raised; the helpers are not.
// RAISED-LABEL: func.func @batch_matmul_chain
// RAISED: fa.attention {{.*}} scale = 5.000000e-01
// RAISED-NOT: linalg.batch_matmul
// RAISED-LABEL: func.func @softmax_op_4d
// RAISED: fa.attention {{.*}} scale = 2.500000e-01
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @matmul_2d_bias
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x1x8x8xf32>) scale = 1.000000e+00
// RAISED-LABEL: func.func @keep_mask_maxnum
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x2x1x8xi1>) scale = 0.30000001192092896
// RAISED-LABEL: func.func @lowest_fill_dynamic
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x?x?x?xi1>)
// RAISED-LABEL: func.func @main

#qk = affine_map<(b, i, j, d) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (b, j, d)>
#s3 = affine_map<(b, i, j, d) -> (b, i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#row3 = affine_map<(b, i, j) -> (b, i)>
#id2 = affine_map<(i, j) -> (i, j)>
#row2 = affine_map<(i, j) -> (i)>

func.func private @printMemrefF32(tensor<*xf32>)

// [B*H, N, D]; K transposed through batch_matmul's indexing maps; scale as a
// multiply; max from -inf; sub and exp separate with linalg.broadcast;
// linalg.reduce for the sum; divide.
func.func @batch_matmul_chain(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %e0 = tensor.empty() : tensor<2x8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [#qk, #kt, #s3]
      ins(%q, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>)
      outs(%z0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %e1 = tensor.empty() : tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x8x8xf32>) outs(%e1 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %half : f32
    linalg.yield %m : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %minit = linalg.fill ins(%neginf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %max = linalg.reduce ins(%x : tensor<2x8x8xf32>) outs(%minit : tensor<2x8xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %m = arith.maximumf %a, %acc : f32
      linalg.yield %m : f32
    }
  %e3 = tensor.empty() : tensor<2x8x8xf32>
  %maxb = linalg.broadcast ins(%max : tensor<2x8xf32>) outs(%e3 : tensor<2x8x8xf32>) dimensions = [2]
  %e4 = tensor.empty() : tensor<2x8x8xf32>
  %shifted = linalg.sub ins(%x, %maxb : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%e4 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %e5 = tensor.empty() : tensor<2x8x8xf32>
  %ex = linalg.exp ins(%shifted : tensor<2x8x8xf32>) outs(%e5 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %e6 = tensor.empty() : tensor<2x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e6 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x8x8xf32>) outs(%sinit : tensor<2x8xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %m = arith.addf %a, %acc : f32
      linalg.yield %m : f32
    }
  %e7 = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e7 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<2x8x8xf32>
  %e8 = tensor.empty() : tensor<2x8x4xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>)
      outs(%z8 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// [B, H, N, D] with linalg.generic contractions; the scale divides; the
// softmax is linalg.softmax.
func.func @softmax_op_4d(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>,
    %v: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %e0 = tensor.empty() : tensor<1x2x8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) outs(%z0 : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %e1 = tensor.empty() : tensor<1x2x8x8xf32>
  %x = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x8x8xf32>) outs(%e1 : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.divf %a, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x2x8x8xf32>
  %e2 = tensor.empty() : tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%e2 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %e3 = tensor.empty() : tensor<1x2x8x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x4xf32>) outs(%z3 : tensor<1x2x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x4xf32>
  return %o : tensor<1x2x8x4xf32>
}

// [N, D]: linalg.transpose of K and linalg.matmul; an additive bias (bias
// on the left of the add); max from the lowest finite value; sub and exp
// fused in one generic; multiply by the reciprocal of the sum.
func.func @matmul_2d_bias(%q: tensor<8x4xf32>, %k: tensor<8x4xf32>,
    %v: tensor<8x4xf32>, %bias: tensor<8x8xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %et = tensor.empty() : tensor<4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<8x4xf32>) outs(%et : tensor<4x8xf32>) permutation = [1, 0]
  %e0 = tensor.empty() : tensor<8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%z0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<8x8xf32>
  %x = linalg.add ins(%bias, %s : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %minit = linalg.fill ins(%lowest : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x8xf32>) outs(%minit : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %e3 = tensor.empty() : tensor<8x8xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x8xf32>, tensor<8xf32>) outs(%e3 : tensor<8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<8x8xf32>
  %e4 = tensor.empty() : tensor<8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e4 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x8xf32>) outs(%sinit : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.addf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %e5 = tensor.empty() : tensor<8xf32>
  %inv = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<8xf32>) outs(%e5 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e6 = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %inv : tensor<8x8xf32>, tensor<8xf32>) outs(%e6 : tensor<8x8xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %m = arith.mulf %a, %r : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %e7 = tensor.empty() : tensor<8x4xf32>
  %z7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%z7 : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// The scale on Q before Q·Kᵀ; a keep-mask broadcast over query rows via
// select(mask, s, -inf), with a fully-masked batch (NaN in both runs); the
// max from NaN with maxnumf (linalg.softmax's decomposition does this).
func.func @keep_mask_maxnum(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>, %keep: tensor<2x1x8xi1>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.3 : f32
  %eq = tensor.empty() : tensor<2x8x4xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x8x4xf32>) outs(%eq : tensor<2x8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %c, %a : f32
    linalg.yield %m : f32
  } -> tensor<2x8x4xf32>
  %e0 = tensor.empty() : tensor<2x8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [#qk, #kt, #s3]
      ins(%qs, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>)
      outs(%z0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %e1 = tensor.empty() : tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id3, affine_map<(b, i, j) -> (b, 0, j)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<2x8x8xf32>, tensor<2x1x8xi1>) outs(%e1 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %minit = linalg.fill ins(%nan : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x8x8xf32>) outs(%minit : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x8xf32>
  %e3 = tensor.empty() : tensor<2x8x8xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e3 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x8x8xf32>
  %e4 = tensor.empty() : tensor<2x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x8x8xf32>) outs(%sinit : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.addf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x8xf32>
  %e5 = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e5 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<2x8x8xf32>
  %e6 = tensor.empty() : tensor<2x8x4xf32>
  %z6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>)
      outs(%z6 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// Dynamic shapes; select(mask, lowest, s) fills where the mask is true (as
// masked_fill does); a fully-masked row averages V in both runs.
func.func @lowest_fill_dynamic(%q: tensor<?x?x4xf32>, %k: tensor<?x?x4xf32>,
    %v: tensor<?x?x4xf32>, %hide: tensor<?x?x?xi1>) -> tensor<?x?x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bh = tensor.dim %q, %c0 : tensor<?x?x4xf32>
  %nq = tensor.dim %q, %c1 : tensor<?x?x4xf32>
  %nk = tensor.dim %k, %c1 : tensor<?x?x4xf32>
  %e0 = tensor.empty(%bh, %nq, %nk) : tensor<?x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [#qk, #kt, #s3]
      ins(%q, %k : tensor<?x?x4xf32>, tensor<?x?x4xf32>)
      outs(%z0 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hide, %s : tensor<?x?x?xi1>, tensor<?x?x?xf32>) outs(%e0 : tensor<?x?x?xf32>) {
  ^bb0(%m: i1, %a: f32, %o: f32):
    %r = arith.select %m, %lowest, %a : f32
    linalg.yield %r : f32
  } -> tensor<?x?x?xf32>
  %e2 = tensor.empty(%bh, %nq) : tensor<?x?xf32>
  %minit = linalg.fill ins(%neginf : f32) outs(%e2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<?x?x?xf32>) outs(%minit : tensor<?x?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<?x?x?xf32>, tensor<?x?xf32>) outs(%e0 : tensor<?x?x?xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<?x?x?xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<?x?x?xf32>) outs(%sinit : tensor<?x?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.addf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<?x?x?xf32>, tensor<?x?xf32>) outs(%e0 : tensor<?x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<?x?x?xf32>
  %e6 = tensor.empty(%bh, %nq) : tensor<?x?x4xf32>
  %z6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<?x?x?xf32>, tensor<?x?x4xf32>)
      outs(%z6 : tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  return %o : tensor<?x?x4xf32>
}

// Deterministic inputs: sin(0.7 * (131 a + 17 b + c) + seed).
func.func @fill(%t: tensor<?x?x?xf32>, %seed: f32) -> tensor<?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
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
    linalg.yield %z : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @input(%b: index, %n: index, %d: index, %seed: f32) -> tensor<?x?x?xf32> {
  %e = tensor.empty(%b, %n, %d) : tensor<?x?x?xf32>
  %r = call @fill(%e, %seed) : (tensor<?x?x?xf32>, f32) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @print(%t: tensor<?x?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %qd = call @input(%c2, %c8, %c4, %s1) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %kd = call @input(%c2, %c8, %c4, %s2) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %vd = call @input(%c2, %c8, %c4, %s3) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %q = tensor.cast %qd : tensor<?x?x?xf32> to tensor<2x8x4xf32>
  %k = tensor.cast %kd : tensor<?x?x?xf32> to tensor<2x8x4xf32>
  %v = tensor.cast %vd : tensor<?x?x?xf32> to tensor<2x8x4xf32>

  %o1 = call @batch_matmul_chain(%q, %k, %v) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %p1 = tensor.cast %o1 : tensor<2x8x4xf32> to tensor<?x?x?xf32>
  call @print(%p1) : (tensor<?x?x?xf32>) -> ()

  %q4 = tensor.expand_shape %q [[0, 1], [2], [3]] output_shape [1, 2, 8, 4] : tensor<2x8x4xf32> into tensor<1x2x8x4xf32>
  %k4 = tensor.expand_shape %k [[0, 1], [2], [3]] output_shape [1, 2, 8, 4] : tensor<2x8x4xf32> into tensor<1x2x8x4xf32>
  %v4 = tensor.expand_shape %v [[0, 1], [2], [3]] output_shape [1, 2, 8, 4] : tensor<2x8x4xf32> into tensor<1x2x8x4xf32>
  %o2 = call @softmax_op_4d(%q4, %k4, %v4) : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %p2 = tensor.collapse_shape %o2 [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %p2d = tensor.cast %p2 : tensor<2x8x4xf32> to tensor<?x?x?xf32>
  call @print(%p2d) : (tensor<?x?x?xf32>) -> ()

  %q2 = tensor.extract_slice %q[0, 0, 0] [1, 8, 4] [1, 1, 1] : tensor<2x8x4xf32> to tensor<8x4xf32>
  %k2 = tensor.extract_slice %k[0, 0, 0] [1, 8, 4] [1, 1, 1] : tensor<2x8x4xf32> to tensor<8x4xf32>
  %v2 = tensor.extract_slice %v[0, 0, 0] [1, 8, 4] [1, 1, 1] : tensor<2x8x4xf32> to tensor<8x4xf32>
  %biasd = call @input(%c1, %c8, %c8, %s4) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %bias3 = tensor.cast %biasd : tensor<?x?x?xf32> to tensor<1x8x8xf32>
  %bias = tensor.collapse_shape %bias3 [[0, 1], [2]] : tensor<1x8x8xf32> into tensor<8x8xf32>
  %o3 = call @matmul_2d_bias(%q2, %k2, %v2, %bias) : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x8xf32>) -> tensor<8x4xf32>
  %p3 = tensor.expand_shape %o3 [[0, 1], [2]] output_shape [1, 8, 4] : tensor<8x4xf32> into tensor<1x8x4xf32>
  %p3d = tensor.cast %p3 : tensor<1x8x4xf32> to tensor<?x?x?xf32>
  call @print(%p3d) : (tensor<?x?x?xf32>) -> ()

  // Batch 1 sees keys 0, 2, 4, 6; batch 0 sees none.
  %keep = arith.constant dense<[[[false, false, false, false, false, false, false, false]],
                                [[true, false, true, false, true, false, true, false]]]> : tensor<2x1x8xi1>
  %o4 = call @keep_mask_maxnum(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x1x8xi1>) -> tensor<2x8x4xf32>
  %p4 = tensor.cast %o4 : tensor<2x8x4xf32> to tensor<?x?x?xf32>
  call @print(%p4) : (tensor<?x?x?xf32>) -> ()

  // Row 3 of batch 0 hides every key; the rest hide keys j > i.
  %hide = arith.constant dense<[[[false, true, true, true, true, true, true, true],
                                 [false, false, true, true, true, true, true, true],
                                 [false, false, false, true, true, true, true, true],
                                 [true, true, true, true, true, true, true, true],
                                 [false, false, false, false, false, true, true, true],
                                 [false, false, false, false, false, false, true, true],
                                 [false, false, false, false, false, false, false, true],
                                 [false, false, false, false, false, false, false, false]],
                                [[false, true, true, true, true, true, true, true],
                                 [false, false, true, true, true, true, true, true],
                                 [false, false, false, true, true, true, true, true],
                                 [false, false, false, false, true, true, true, true],
                                 [false, false, false, false, false, true, true, true],
                                 [false, false, false, false, false, false, true, true],
                                 [false, false, false, false, false, false, false, true],
                                 [false, false, false, false, false, false, false, false]]]> : tensor<2x8x8xi1>
  %hided = tensor.cast %hide : tensor<2x8x8xi1> to tensor<?x?x?xi1>
  %vdd = tensor.cast %v : tensor<2x8x4xf32> to tensor<?x?x4xf32>
  %qdd = tensor.cast %q : tensor<2x8x4xf32> to tensor<?x?x4xf32>
  %kdd = tensor.cast %k : tensor<2x8x4xf32> to tensor<?x?x4xf32>
  %o5 = call @lowest_fill_dynamic(%qdd, %kdd, %vdd, %hided) : (tensor<?x?x4xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>, tensor<?x?x?xi1>) -> tensor<?x?x4xf32>
  %p5 = tensor.cast %o5 : tensor<?x?x4xf32> to tensor<?x?x?xf32>
  call @print(%p5) : (tensor<?x?x?xf32>) -> ()
  return
}
