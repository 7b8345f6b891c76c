// Soft-capping (Gemma 2, Grok-1) between Q·Kᵀ and the softmax becomes
// fa.attention's score_mod. So do a mask applied before the cap (tanh(-inf
// / cap) is -cap: the hidden key counts, in the frontend and in the op, as
// the select is part of the function) and a cap read from a tensor (read by
// the function at the score's position). The near misses stay as they are,
// each with a remark: a function that also reads the transposed score, a
// cap applied after the softmax. A floor on the scores (maxnumf) is a
// score_mod too. Raised and unraised runs agree to f32
// rounding.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=4" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 576 values
// REMARK-DAG: remark: attention not raised: P·V reads mul(...), not exp(x - max) / sum
// REMARK-DAG: remark: attention not raised: the function of the scores reads them twice, through different scales or at different positions (s[i, j] and s[j, i], say); score_mod reads one score
// RAISED-LABEL: func.func @softcap(
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// RAISED-NEXT: ^bb0(%[[S:[a-z0-9]+]]: f32, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// RAISED-NEXT: %[[CAP:.*]] = arith.constant 2.000000e+00 : f32
// RAISED-NEXT: %[[Y:.*]] = arith.divf %[[S]], %[[CAP]] : f32
// RAISED-NEXT: %[[T:.*]] = math.tanh %[[Y]] : f32
// RAISED: arith.mulf %[[T]], %{{.*}} : f32
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @clamp_floor
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// RAISED-NEXT: ^bb0(%[[S:[a-z0-9]+]]: f32, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// RAISED: arith.maxnumf %[[S]], %{{.*}} : f32
// RAISED-LABEL: func.func @clamp_floor_nan_propagating
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// RAISED-NEXT: ^bb0(%[[S:[a-z0-9]+]]: f32, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// RAISED: arith.maximumf %[[S]], %{{.*}} : f32
// RAISED-LABEL: func.func @softcap_causal
// RAISED: fa.attention {{.*}} causal = {{.*}} score_mod {
// RAISED: math.tanh
// RAISED-LABEL: func.func @mask_before_cap
// RAISED: fa.attention {{.*}} score_mod {
// RAISED: arith.select
// RAISED: math.tanh
// RAISED-LABEL: func.func @tensor_cap
// RAISED: fa.attention {{.*}} score_mod {
// RAISED: tensor.extract %{{.*}} : tensor<1x1x12x12xf32>
// RAISED: math.tanh
// RAISED-LABEL: func.func @near_miss_transposed_score
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @near_miss_cap_after_softmax
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @input

func.func private @printMemrefF32(tensor<*xf32>)

// Gemma 2's soft-capping: cap * tanh(s / cap) on the scaled scores.
func.func @softcap(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
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
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %cap = arith.constant 2.0 : f32
    %y = arith.divf %sc, %cap : f32
    %t = math.tanh %y : f32
    %r = arith.mulf %t, %cap : f32
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

// Scores clamped from below (torch.clamp(s, min=0)): maxnumf in score_mod,
// with the score as its first operand.
func.func @clamp_floor(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
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
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %floor = arith.constant 0.0 : f32
    %r = arith.maxnumf %sc, %floor : f32
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

// The same floor with maximumf (NaN-propagating, as jnp.maximum lowers):
// score_mod keeps maximumf.
func.func @clamp_floor_nan_propagating(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
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
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %floor = arith.constant 0.0 : f32
    %r = arith.maximumf %sc, %floor : f32
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

// Soft-capping, then a causal mask: score_mod plus causal = top_left.
func.func @softcap_causal(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32> {
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
    %r = arith.cmpi sle, %j, %i : index
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
    %cap = arith.constant 2.0 : f32
    %y = arith.divf %sc, %cap : f32
    %t = math.tanh %y : f32
    %c = arith.mulf %t, %cap : f32
    %r = arith.select %in0, %c, %neginf : f32
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

// Near miss: the mask before the cap (tanh(-inf) = -1 is a finite score, hidden keys count).
func.func @mask_before_cap(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32> {
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
    %r = arith.cmpi sle, %j, %i : index
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
    %m = arith.select %in0, %sc, %neginf : f32
    %cap = arith.constant 2.0 : f32
    %y = arith.divf %m, %cap : f32
    %t = math.tanh %y : f32
    %r = arith.mulf %t, %cap : f32
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

// Near miss: a cap read from a tensor (per score), which score_mod is not raised from.
func.func @tensor_cap(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>, %caps: tensor<12x12xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
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
      ins(%s, %caps : tensor<1x2x12x12xf32>, tensor<12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %in0: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %y = arith.divf %sc, %in0 : f32
    %t = math.tanh %y : f32
    %r = arith.mulf %t, %in0 : f32
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

// Near miss: the function reads another score too (s[i, j] + s[j, i]): no elementwise score_mod.
func.func @near_miss_transposed_score(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
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
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, j, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %s : tensor<1x2x12x12xf32>, tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %in0: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %o2 = arith.mulf %in0, %scale : f32
    %y = arith.addf %sc, %o2 : f32
    %t = math.tanh %y : f32
    linalg.yield %t : f32
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

// Near miss: the cap applied after the softmax, to P.
func.func @near_miss_cap_after_softmax(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
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
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    linalg.yield %sc : f32
  } -> tensor<1x2x12x12xf32>
  %e2 = tensor.empty() : tensor<1x2x12x12xf32>
  %p0 = linalg.softmax dimension(3) ins(%x : tensor<1x2x12x12xf32>) outs(%e2 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %e9 = tensor.empty() : tensor<1x2x12x12xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p0 : tensor<1x2x12x12xf32>) outs(%e9 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %cap = arith.constant 2.0 : f32
    %y = arith.divf %a, %cap : f32
    %t = math.tanh %y : f32
    %r = arith.mulf %t, %cap : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
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
    %three = arith.constant 3.0 : f32
    %w = arith.mulf %z, %three : f32
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
  %o1 = call @softcap(%q, %k, %v) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o1) : (tensor<1x2x12x4xf32>) -> ()
  %o2 = call @softcap_causal(%q, %k, %v) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o2) : (tensor<1x2x12x4xf32>) -> ()
  %o3 = call @mask_before_cap(%q, %k, %v) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o3) : (tensor<1x2x12x4xf32>) -> ()
  %o4 = call @near_miss_cap_after_softmax(%q, %k, %v) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o4) : (tensor<1x2x12x4xf32>) -> ()
  %o5 = call @clamp_floor(%q, %k, %v) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o5) : (tensor<1x2x12x4xf32>) -> ()
  %o6 = call @clamp_floor_nan_propagating(%q, %k, %v) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o6) : (tensor<1x2x12x4xf32>) -> ()
  return
}
