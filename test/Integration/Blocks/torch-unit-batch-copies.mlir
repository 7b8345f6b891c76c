// torch-mlir (linalg-on-tensors) SDPA math path at batch size 1, as
// `aten.expand`, `aten.clone` and `aten.view` lower it: each 4-D tensor is
// copied by a linalg.generic that reads its size-1 batch dim at index 0
// (map (0, d1, d2, d3)) around the collapse to [B·H, N, D] for the batch
// matmuls and the expand back to [B, H, N, N] for the softmax. Reading a
// size-1 dim at index 0 inside a loop of extent 1 is reading it at the loop
// index: every copy is an identity.
// Raised: one fa.attention on [1, 2, 8, 16].
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 256 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @sdpa_batch1
// RAISED: fa.attention {{.*}} scale = 2.500000e-01 : tensor<1x2x8x16xf32>
// RAISED-NOT: linalg.softmax
// RAISED: return

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b0 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#kt = affine_map<(d0, d1, d2, d3) -> (0, d1, d3, d2)>

func.func @sdpa_batch1(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>,
                       %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %e16 = tensor.empty() : tensor<1x2x8x16xf32>
  %e16t = tensor.empty() : tensor<1x2x16x8xf32>
  // aten.expand(q, [1, 2, 8, 16]) and aten.clone: copies at index 0.
  %qc = linalg.generic {indexing_maps = [#b0, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x2x8x16xf32>) outs(%e16 : tensor<1x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x8x16xf32>
  // aten.transpose(k, -2, -1) as a copy, batch dim at index 0.
  %ktc = linalg.generic {indexing_maps = [#kt, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x8x16xf32>) outs(%e16t : tensor<1x2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x16x8xf32>
  %q3 = tensor.collapse_shape %qc [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %k3 = tensor.collapse_shape %ktc [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %e8 = tensor.empty() : tensor<1x2x8x8xf32>
  // aten.mul.Scalar(scores, 0.25) reading the batch dim at index 0.
  %x = linalg.generic {indexing_maps = [#b0, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x8x8xf32>) outs(%e8 : tensor<1x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %quarter : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%e8 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %pc = linalg.generic {indexing_maps = [#b0, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x8x8xf32>) outs(%e8 : tensor<1x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x8x8xf32>
  %vc = linalg.generic {indexing_maps = [#b0, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x8x16xf32>) outs(%e16 : tensor<1x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x8x16xf32>
  %p3 = tensor.collapse_shape %pc [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %v3 = tensor.collapse_shape %vc [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [1, 2, 8, 16] : tensor<2x8x16xf32> into tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c1, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c1, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c1, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<1x2x8x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<1x2x8x16xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<1x2x8x16xf32>
  %o = call @sdpa_batch1(%q, %k, %v) : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %u = tensor.cast %o : tensor<1x2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
