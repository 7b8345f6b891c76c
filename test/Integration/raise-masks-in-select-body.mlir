// Masks computed inside the select's own body, as fused frontends and
// torch-mlir's elementwise fusion write them: the causal comparison of
// linalg.index values next to the scale (becomes causal = top_left), and a
// banded mask and'ed with a padding-mask input (a mask of its own, built as
// a tensor from the same body). Raised and frontend runs agree.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 128 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @causal_in_body
// RAISED: fa.attention {{.*}} scale = 5.000000e-01 causal = bottom_right :
// RAISED-NOT: linalg.index
// RAISED-LABEL: func.func @window_and_padding_in_body
// RAISED: %[[MASK:.*]] = linalg.generic
// RAISED: linalg.index
// RAISED: arith.andi
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x2x8x8xi1>) scale = 5.000000e-01 :

#id = affine_map<(h, i, j) -> (h, i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @causal_in_body(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %et = tensor.empty() : tensor<2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<2x8x4xf32>) outs(%et : tensor<2x4x8xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ule, %j, %i : index
    %half = arith.constant 0.5 : f32
    %y0 = arith.mulf %a, %half : f32
    %y = arith.select %c, %y0, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @window_and_padding_in_body(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %pad: tensor<2x8xi1>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %et = tensor.empty() : tensor<2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<2x8x4xf32>) outs(%et : tensor<2x4x8xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, affine_map<(h, i, j) -> (h, j)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %pad : tensor<2x8x8xf32>, tensor<2x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m0: i1, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c2 = arith.constant 2 : index
    %lo = arith.addi %j, %c2 : index
    %near = arith.cmpi ult, %i, %lo : index
    %keep = arith.andi %near, %m0 : i1
    %half = arith.constant 0.5 : f32
    %y0 = arith.mulf %a, %half : f32
    %y = arith.select %keep, %y0, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// Deterministic inputs: sin(0.7 * (131 a + 17 b + c) + seed).
func.func @input(%seed: f32) -> tensor<2x8x4xf32> {
  %e = tensor.empty() : tensor<2x8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x8x4xf32>) {
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
  } -> tensor<2x8x4xf32>
  return %r : tensor<2x8x4xf32>
}

func.func @print(%t: tensor<2x8x4xf32>) {
  %u = tensor.cast %t : tensor<2x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<2x8x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<2x8x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<2x8x4xf32>
  %o1 = call @causal_in_body(%q, %k, %v) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  call @print(%o1) : (tensor<2x8x4xf32>) -> ()
  // Head 1 keeps keys 0..4 only (rows 7 see none: NaN in both runs).
  %pad = arith.constant dense<[[true, true, true, true, true, true, true, true],
                               [true, true, true, true, true, false, false, false]]> : tensor<2x8xi1>
  %o2 = call @window_and_padding_in_body(%q, %k, %v, %pad) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8xi1>) -> tensor<2x8x4xf32>
  call @print(%o2) : (tensor<2x8x4xf32>) -> ()
  return
}
