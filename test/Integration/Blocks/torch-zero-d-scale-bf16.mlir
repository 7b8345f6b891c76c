// torch-mlir (fx importer, linalg-on-tensors) SDPA math path in bf16, with
// the scale computed the way the importer lowers `1 / math.sqrt(q.size(-1))`
// written on tensors: `torch.tensor(64)` is a 0-d i64 constant, and
// `aten.sqrt`, `aten.reciprocal` and the dtype conversion are 0-d
// linalg.generics (`() -> ()` maps), sitofp to f64, sqrt, divf and truncf
// to f32; the scores are then multiplied by that 0-d tensor through a
// broadcasting map. Everything computed only from constants is a constant:
// the scale is evaluated, each step rounded in its own type.
// Raised: a bf16 fa.attention with scale 1/8.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 2048 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @sdpa_math_bf16
// RAISED: fa.attention {{.*}} scale = 1.250000e-01 : tensor<2x2x8x64xbf16>
// RAISED-NOT: math.exp
// RAISED: return

#z = affine_map<() -> ()>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#scalar = affine_map<(d0, d1, d2, d3) -> ()>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#qk_q = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#qk_k = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#qk_s = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#pv_v = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>

func.func @sdpa_math_bf16(%q: tensor<2x2x8x64xbf16>, %k: tensor<2x2x8x64xbf16>,
                          %v: tensor<2x2x8x64xbf16>) -> tensor<2x2x8x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %zero_bf16 = arith.constant 0.0 : bf16
  %neg_inf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f64
  // scale = 1 / sqrt(tensor(64)), in 0-d tensors.
  %d = arith.constant dense<64> : tensor<i64>
  %e64 = tensor.empty() : tensor<f64>
  %df = linalg.generic {indexing_maps = [#z, #z], iterator_types = []} ins(%d : tensor<i64>) outs(%e64 : tensor<f64>) {
  ^bb0(%in: i64, %out: f64):
    %0 = arith.sitofp %in : i64 to f64
    linalg.yield %0 : f64
  } -> tensor<f64>
  %root = linalg.generic {indexing_maps = [#z, #z], iterator_types = []} ins(%df : tensor<f64>) outs(%e64 : tensor<f64>) {
  ^bb0(%in: f64, %out: f64):
    %0 = math.sqrt %in : f64
    linalg.yield %0 : f64
  } -> tensor<f64>
  %inv = linalg.generic {indexing_maps = [#z, #z], iterator_types = []} ins(%root : tensor<f64>) outs(%e64 : tensor<f64>) {
  ^bb0(%in: f64, %out: f64):
    %0 = arith.divf %one, %in : f64
    linalg.yield %0 : f64
  } -> tensor<f64>
  %e32 = tensor.empty() : tensor<f32>
  %scale = linalg.generic {indexing_maps = [#z, #z], iterator_types = []} ins(%inv : tensor<f64>) outs(%e32 : tensor<f32>) {
  ^bb0(%in: f64, %out: f32):
    %0 = arith.truncf %in : f64 to f32
    linalg.yield %0 : f32
  } -> tensor<f32>
  // scores = (q @ k^T) in f32, times the 0-d scale.
  %es = tensor.empty() : tensor<2x2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x64xbf16>, tensor<2x2x8x64xbf16>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %0 = arith.extf %a : bf16 to f32
    %1 = arith.extf %b : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %scale : tensor<2x2x8x8xf32>, tensor<f32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x8xf32>
  // softmax(dim=-1), decomposed with keep-dim reductions.
  %er = tensor.empty() : tensor<2x2x8x1xf32>
  %zm = linalg.fill ins(%neg_inf : f32) outs(%er : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x : tensor<2x2x8x8xf32>) outs(%zm : tensor<2x2x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x1xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %max : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%es : tensor<2x2x8x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x8x8xf32>
  %zsum = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x2x8x8xf32>) outs(%zsum : tensor<2x2x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x1xf32>
  %ep = tensor.empty() : tensor<2x2x8x8xbf16>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%ep : tensor<2x2x8x8xbf16>) {
  ^bb0(%in: f32, %l: f32, %out: bf16):
    %0 = arith.divf %in, %l : f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<2x2x8x8xbf16>
  %eo = tensor.empty() : tensor<2x2x8x64xbf16>
  %zo = linalg.fill ins(%zero_bf16 : bf16) outs(%eo : tensor<2x2x8x64xbf16>) -> tensor<2x2x8x64xbf16>
  %o = linalg.generic {indexing_maps = [#qk_q, #pv_v, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xbf16>, tensor<2x2x8x64xbf16>) outs(%zo : tensor<2x2x8x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %acc: bf16):
    %0 = arith.mulf %a, %b : bf16
    %1 = arith.addf %acc, %0 : bf16
    linalg.yield %1 : bf16
  } -> tensor<2x2x8x64xbf16>
  return %o : tensor<2x2x8x64xbf16>
}

func.func @to_bf16(%t: tensor<?x?x?x?xf32>) -> tensor<2x2x8x64xbf16> {
  %s = tensor.cast %t : tensor<?x?x?x?xf32> to tensor<2x2x8x64xf32>
  %e = tensor.empty() : tensor<2x2x8x64xbf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x64xf32>) outs(%e : tensor<2x2x8x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<2x2x8x64xbf16>
  return %h : tensor<2x2x8x64xbf16>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c2, %c2, %c8, %c64) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c2, %c2, %c8, %c64) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c2, %c2, %c8, %c64) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = call @to_bf16(%q0) : (tensor<?x?x?x?xf32>) -> tensor<2x2x8x64xbf16>
  %k = call @to_bf16(%k0) : (tensor<?x?x?x?xf32>) -> tensor<2x2x8x64xbf16>
  %v = call @to_bf16(%v0) : (tensor<?x?x?x?xf32>) -> tensor<2x2x8x64xbf16>
  %o = call @sdpa_math_bf16(%q, %k, %v) : (tensor<2x2x8x64xbf16>, tensor<2x2x8x64xbf16>, tensor<2x2x8x64xbf16>) -> tensor<2x2x8x64xbf16>
  %e = tensor.empty() : tensor<2x2x8x64xf32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : tensor<2x2x8x64xbf16>) outs(%e : tensor<2x2x8x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    linalg.yield %0 : f32
  } -> tensor<2x2x8x64xf32>
  %u = tensor.cast %w : tensor<2x2x8x64xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
