// Nothing lost: functions without attention (and near misses of it) are
// byte-for-byte identical after every fa pass. fa-decompose-aggregated-ops is
// not run here: lowering linalg.softmax is what it is for.
// RUN: fa-opt %s > %t.before
// RUN: fa-opt %s --fa-raise-attention > %t.raise
// RUN: diff %t.before %t.raise
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>/dev/null > %t.explain
// RUN: diff %t.before %t.explain
// RUN: fa-opt %s --fa-select-tiles=target=sm_90 > %t.tiles
// RUN: diff %t.before %t.tiles
// RUN: fa-opt %s --fa-tile-attention > %t.tiled
// RUN: diff %t.before %t.tiled
// RUN: fa-opt %s --fa-decompose-attention > %t.decomposed
// RUN: diff %t.before %t.decomposed
// RUN: fa-opt %s --fa-distribute-attention > %t.distributed
// RUN: diff %t.before %t.distributed
// RUN: fa-opt %s --fa-emulate-threads-on-cpu > %t.emulated
// RUN: diff %t.before %t.emulated
// RUN: fa-opt %s --fa-lower-to-gpu > %t.launched
// RUN: diff %t.before %t.launched
// RUN: fa-opt %s --fa-warp-matmuls-to-nvgpu > %t.nvgpu
// RUN: diff %t.before %t.nvgpu
// RUN: fa-opt %s --fa-lower-bf16-mma-sync > %t.bf16mma
// RUN: diff %t.before %t.bf16mma
// RUN: fa-opt %s --fa-annotate-occupancy=chip=sm_90 > %t.occupancy
// RUN: diff %t.before %t.occupancy
// RUN: fa-opt %s --fa-align-workgroup-buffers > %t.aligned
// RUN: diff %t.before %t.aligned

#mlp_x = affine_map<(i, j, k) -> (i, k)>
#mlp_w = affine_map<(i, j, k) -> (k, j)>
#mlp_y = affine_map<(i, j, k) -> (i, j)>

// A projection with GELU-ish elementwise work: contractions and exp, no
// softmax feeding a contraction.
func.func @mlp(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %w2: tensor<32x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    %x2 = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %x2 : f32
    %r = arith.divf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.generic {indexing_maps = [#mlp_x, #mlp_w, #mlp_y], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %w2 : tensor<8x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %h : tensor<8x32xf32>
}

// A softmax that no contraction consumes (a classifier head), in TOSA.
func.func @classifier(%logits: tensor<1x4x10xf32>) -> tensor<1x4x10xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %max = tosa.reduce_max %logits {axis = 2 : i32} : (tensor<1x4x10xf32>) -> tensor<1x4x1xf32>
  %d = tosa.sub %logits, %max : (tensor<1x4x10xf32>, tensor<1x4x1xf32>) -> tensor<1x4x10xf32>
  %e = tosa.exp %d : (tensor<1x4x10xf32>) -> tensor<1x4x10xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x4x10xf32>) -> tensor<1x4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<1x4x10xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x10xf32>
  return %p : tensor<1x4x10xf32>
}

// Control flow and an unused op that was dead before any pass ran.
func.func @loop(%n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dead = arith.constant 42.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f32 {
    %y = arith.mulf %acc, %acc : f32
    scf.yield %y : f32
  }
  return %r : f32
}

// Near misses of attention (test/Transforms/Recognition/RaiseAttention/near-misses.mlir).
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
  // The scores feed another contraction (not only a return: that would be
  // raised with share-scores, keeping the scores for the return).
  %xv = linalg.matmul ins(%x, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o, %xv : tensor<4x4xf32>, tensor<4x4xf32>
}

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

// Workgroup memory and a parallel loop that are not a GPU-mapped kernel:
// the GPU passes leave them alone.
func.func @shared_scratch(%i: index, %out: memref<4xf32>) {
  %a = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
  scf.forall (%t) in (4) {
    %v = memref.load %a[%i] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%t] : memref<4xf32>
  }
  return
}

// A 16x16 by 8x16 f16 contraction on the host, the shape of a warp matmul:
// fa-warp-matmuls-to-nvgpu converts only inside GPU kernels.
func.func @host_contraction(%a: vector<16x16xf16>, %b: vector<8x16xf16>, %c: vector<16x8xf32>) -> vector<16x8xf32> {
  %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
  return %d : vector<16x8xf32>
}

// An f16 mma.sync: upstream's to lower, not fa-lower-bf16-mma-sync's.
func.func @f16_mma_sync(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// Issue 14's inputs that are not attention: elementwise math on whole
// tensors, a tile broadcast, a row max with its argmax, a log-sum-exp
// (log_softmax) feeding a contraction, a scale computed from constants.
func.func @tensor_math_without_attention(%x: tensor<2x8x1xf32>, %y: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %reps = tosa.const_shape {values = dense<[1, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %t = tosa.tile %x, %reps : (tensor<2x8x1xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %c64 = arith.constant 64 : i64
  %f = arith.sitofp %c64 : i64 to f64
  %r = math.sqrt %f : f64
  %s = arith.truncf %r : f64 to f32
  %splat = tensor.splat %s : tensor<2x8x8xf32>
  %e = math.exp %t : tensor<2x8x8xf32>
  %m = arith.mulf %e, %splat : tensor<2x8x8xf32>
  %a = arith.addf %m, %y : tensor<2x8x8xf32>
  return %a : tensor<2x8x8xf32>
}

func.func @argmax_and_log_softmax(%s: tensor<8x8xf32>, %v: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8xi64>) {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<8xi64>
  %zi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<8xi64>) -> tensor<8xi64>
  %er = tensor.empty() : tensor<8xf32>
  %mi = linalg.fill ins(%neginf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x8xf32>) outs(%mi, %zi : tensor<8xf32>, tensor<8xi64>) {
  ^bb0(%a: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %m = arith.maximumf %a, %acc : f32
    %gt = arith.cmpf ogt, %a, %acc : f32
    %sel = arith.select %gt, %ji, %idx : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<8xf32>, tensor<8xi64>)
  %e = tensor.empty() : tensor<8x8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %max#0 : tensor<8x8xf32>, tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<8x8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x8xf32>) outs(%zr : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %ls = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %max#0, %sum : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %l: f32, %out: f32):
    %lg = math.log %l : f32
    %lse = arith.addf %m, %lg : f32
    %y = arith.subf %a, %lse : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %eo = tensor.empty() : tensor<8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x4xf32>) -> tensor<8x4xf32>
  %o = linalg.matmul ins(%ls, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%zo : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o, %max#1 : tensor<8x4xf32>, tensor<8xi64>
}
