// Soft-capping in a half-precision frontend (Gemma 2 in f16): Q·Kᵀ and its
// scale in f16, the scaled scores widened to f32 for the cap and the
// softmax, P rounded back to f16 for P·V. The widened scaled scores are the
// score_mod's argument (the op computes the scores in f32 and scales them
// itself; the f16 rounding of the product and of the scale is the
// frontend's, so the runs agree to f16 rounding).
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 2e-2 --atol 2e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 96 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @softcap_widened
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 score_mod {
// RAISED: math.tanh
// RAISED-NOT: math.exp

func.func private @printMemrefF32(tensor<*xf32>)

func.func @softcap_widened(%q: tensor<1x2x12x4xf16>, %k: tensor<1x2x12x4xf16>, %v: tensor<1x2x12x4xf16>) -> tensor<1x2x12x4xf16> {
  %zero = arith.constant 0.0 : f16
  %e0 = tensor.empty() : tensor<1x2x12x12xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%e0 : tensor<1x2x12x12xf16>) -> tensor<1x2x12x12xf16>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf16>, tensor<1x2x12x4xf16>) outs(%z0 : tensor<1x2x12x12xf16>) {
  ^bb0(%qa: f16, %kb: f16, %acc: f16):
    %m = arith.mulf %qa, %kb : f16
    %r = arith.addf %acc, %m : f16
    linalg.yield %r : f16
  } -> tensor<1x2x12x12xf16>
  // scores * 0.5 in f16, then .float()
  %e1 = tensor.empty() : tensor<1x2x12x12xf16>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf16>) outs(%e1 : tensor<1x2x12x12xf16>) {
  ^bb0(%a: f16, %o: f16):
    %half = arith.constant 0.5 : f16
    %r = arith.mulf %a, %half : f16
    linalg.yield %r : f16
  } -> tensor<1x2x12x12xf16>
  // tanh(x / 2) * 2 in f32
  %e2 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sc : tensor<1x2x12x12xf16>) outs(%e2 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f16, %o: f32):
    %w = arith.extf %a : f16 to f32
    %cap = arith.constant 2.0 : f32
    %y = arith.divf %w, %cap : f32
    %t = math.tanh %y : f32
    %r = arith.mulf %t, %cap : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x12xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x12x12xf32>) outs(%e3 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %e4 = tensor.empty() : tensor<1x2x12x12xf16>
  %p16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<1x2x12x12xf32>) outs(%e4 : tensor<1x2x12x12xf16>) {
  ^bb0(%a: f32, %o: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x12x12xf16>
  %e5 = tensor.empty() : tensor<1x2x12x4xf16>
  %z5 = linalg.fill ins(%zero : f16) outs(%e5 : tensor<1x2x12x4xf16>) -> tensor<1x2x12x4xf16>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p16, %v : tensor<1x2x12x12xf16>, tensor<1x2x12x4xf16>) outs(%z5 : tensor<1x2x12x4xf16>) {
  ^bb0(%pa: f16, %vb: f16, %acc: f16):
    %m = arith.mulf %pa, %vb : f16
    %r = arith.addf %acc, %m : f16
    linalg.yield %r : f16
  } -> tensor<1x2x12x4xf16>
  return %o : tensor<1x2x12x4xf16>
}

func.func @input(%seed: f32) -> tensor<1x2x12x4xf16> {
  %e = tensor.empty() : tensor<1x2x12x4xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, h, i, d) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x2x12x4xf16>) {
  ^bb0(%o: f16):
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %d, %c3 : index
    %s = arith.addi %a, %b : index
    %s2 = arith.addi %s, %h : index
    %c11 = arith.constant 11 : index
    %m = arith.remui %s2, %c11 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %c5 = arith.constant 5.0 : f32
    %centered = arith.subf %mf, %c5 : f32
    %x = arith.mulf %centered, %seed : f32
    %x16 = arith.truncf %x : f32 to f16
    linalg.yield %x16 : f16
  } -> tensor<1x2x12x4xf16>
  return %r : tensor<1x2x12x4xf16>
}

func.func @main() {
  %sq = arith.constant 0.37 : f32
  %sk = arith.constant 0.61 : f32
  %sv = arith.constant 0.23 : f32
  %q = call @input(%sq) : (f32) -> tensor<1x2x12x4xf16>
  %k = call @input(%sk) : (f32) -> tensor<1x2x12x4xf16>
  %v = call @input(%sv) : (f32) -> tensor<1x2x12x4xf16>
  %o = call @softcap_widened(%q, %k, %v) : (tensor<1x2x12x4xf16>, tensor<1x2x12x4xf16>, tensor<1x2x12x4xf16>) -> tensor<1x2x12x4xf16>
  %e = tensor.empty() : tensor<1x2x12x4xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d) -> (b, h, i, d)>, affine_map<(b, h, i, d) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : tensor<1x2x12x4xf16>) outs(%e : tensor<1x2x12x4xf32>) {
  ^bb0(%a: f16, %x: f32):
    %w = arith.extf %a : f16 to f32
    linalg.yield %w : f32
  } -> tensor<1x2x12x4xf32>
  %u = tensor.cast %o32 : tensor<1x2x12x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
