// An IREE input (from torch via iree-turbine) in half precision with BSHD
// tensors: Q, K, V are f16 [B, N, H, D]; both contractions widen their f16
// operands to f32 in the body; the softmax runs in f32 with the row sum
// kept as [B, H, N, 1]; P is rounded to f16 for P·V, whose f32 result is
// written back BSHD and rounded to f16. Raised: f16 fa.attention on the
// transposed operands, the result transposed back to BSHD.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 512 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @sdpa_f16
// RAISED: fa.attention {{.*}} scale = 2.500000e-01 : tensor<2x2x8x16xf16>, tensor<2x2x8x16xf16>, tensor<2x2x8x16xf16> -> tensor<2x2x8x16xf16>
// RAISED: linalg.transpose {{.*}} permutation = [0, 2, 1, 3]
// RAISED-NOT: math.exp
// RAISED: return

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#keep = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>

func.func @sdpa_f16(%q: tensor<2x8x2x16xf16>, %k: tensor<2x8x2x16xf16>, %v: tensor<2x8x2x16xf16>) -> tensor<2x8x2x16xf16> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %cst_1 = arith.constant 2.500000e-01 : f32
  %0 = tensor.empty() : tensor<2x2x8x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8x2x16xf16>, tensor<2x8x2x16xf16>) outs(%1 : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %3 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<2x2x8x8xf32>) outs(%0 : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %cst_1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %4 = tensor.empty() : tensor<2x2x8x1xf32>
  %5 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %6 = linalg.generic {indexing_maps = [#id4, #keep], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%3 : tensor<2x2x8x8xf32>) outs(%5 : tensor<2x2x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x1xf32>
  %7 = linalg.generic {indexing_maps = [#id4, #keep, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3, %6 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%0 : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x2x8x8xf32>
  %8 = linalg.fill ins(%cst : f32) outs(%4 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %9 = linalg.generic {indexing_maps = [#id4, #keep], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%7 : tensor<2x2x8x8xf32>) outs(%8 : tensor<2x2x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x1xf32>
  %10 = tensor.empty() : tensor<2x2x8x8xf16>
  %11 = linalg.generic {indexing_maps = [#id4, #keep, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %9 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%10 : tensor<2x2x8x8xf16>) {
  ^bb0(%in: f32, %l: f32, %out: f16):
    %p = arith.divf %in, %l : f32
    %ph = arith.truncf %p : f32 to f16
    linalg.yield %ph : f16
  } -> tensor<2x2x8x8xf16>
  %12 = tensor.empty() : tensor<2x8x2x16xf32>
  %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<2x8x2x16xf32>) -> tensor<2x8x2x16xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(b, i, h, e, j) -> (b, h, i, j)>, affine_map<(b, i, h, e, j) -> (b, j, h, e)>, affine_map<(b, i, h, e, j) -> (b, i, h, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%11, %v : tensor<2x2x8x8xf16>, tensor<2x8x2x16xf16>) outs(%13 : tensor<2x8x2x16xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x2x16xf32>
  %15 = tensor.empty() : tensor<2x8x2x16xf16>
  %16 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<2x8x2x16xf32>) outs(%15 : tensor<2x8x2x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<2x8x2x16xf16>
  return %16 : tensor<2x8x2x16xf16>
}

func.func @half(%t: tensor<?x?x?x?xf32>) -> tensor<2x8x2x16xf16> {
  %s = tensor.cast %t : tensor<?x?x?x?xf32> to tensor<2x8x2x16xf32>
  %e = tensor.empty() : tensor<2x8x2x16xf16>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x2x16xf32>) outs(%e : tensor<2x8x2x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<2x8x2x16xf16>
  return %h : tensor<2x8x2x16xf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c2, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c2, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c2, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = call @half(%q0) : (tensor<?x?x?x?xf32>) -> tensor<2x8x2x16xf16>
  %k = call @half(%k0) : (tensor<?x?x?x?xf32>) -> tensor<2x8x2x16xf16>
  %v = call @half(%v0) : (tensor<?x?x?x?xf32>) -> tensor<2x8x2x16xf16>
  %o = call @sdpa_f16(%q, %k, %v) : (tensor<2x8x2x16xf16>, tensor<2x8x2x16xf16>, tensor<2x8x2x16xf16>) -> tensor<2x8x2x16xf16>
  %e = tensor.empty() : tensor<2x8x2x16xf32>
  %w = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : tensor<2x8x2x16xf16>) outs(%e : tensor<2x8x2x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %r = arith.extf %in : f16 to f32
    linalg.yield %r : f32
  } -> tensor<2x8x2x16xf32>
  %u = tensor.cast %w : tensor<2x8x2x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
