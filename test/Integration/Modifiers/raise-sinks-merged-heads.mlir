// gpt-oss's per-query-head sinks where the softmax splits the merged
// [Hkv·G] heads of both contractions into [Hkv, G] and P is sliced before
// the merge: the op takes the merged dim as its heads (B = 1) with one
// sink each. Raised and unraised runs agree, on the tiled path and the
// emulated GPU kernel (test/Transforms/Recognition/RaiseAttention/
// sinks-under-reshapes.mlir has the near miss).
// RUN: cat %s %S/../Blocks/Inputs/runtime.mlir | fa-opt --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/../Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/../Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/../Blocks/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=4" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 256 values
// RAISED-LABEL: func.func @sink_per_query_head
// RAISED: fa.attention {{.*}} sinks(%{{.*}} : tensor<4xf32>) scale = 1.000000e+00 : tensor<1x4x8x8xf32>
// RAISED-NOT: linalg.softmax

func.func @sink_per_query_head(%q: tensor<4x8x8xf32>, %k: tensor<4x8x8xf32>, %v: tensor<4x8x8xf32>, %sinks: tensor<4xf32>) -> tensor<4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s3 = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%z0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xf32> into tensor<2x2x8x8xf32>
  %s4 = tensor.expand_shape %sinks [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %ec = tensor.empty() : tensor<2x2x8x1xf32>
  %column = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4 : tensor<2x2xf32>) outs(%ec : tensor<2x2x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x8x1xf32>
  %combined = tensor.concat dim(3) %s, %column : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x9xf32>
  %e2 = tensor.empty() : tensor<2x2x8x9xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<2x2x8x9xf32>) outs(%e2 : tensor<2x2x8x9xf32>) -> tensor<2x2x8x9xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x9xf32> to tensor<2x2x8x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x8x8xf32> into tensor<4x8x8xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%z0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %o : tensor<4x8x8xf32>
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input3(%s1, %c4, %c8, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c4, %c8, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c4, %c8, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<4x8x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<4x8x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<4x8x8xf32>
  %sinks = arith.constant dense<[1.25, -0.5, 0.75, 2.0]> : tensor<4xf32>
  %o = call @sink_per_query_head(%q, %k, %v, %sinks) : (tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4xf32>) -> tensor<4x8x8xf32>
  %u = tensor.cast %o : tensor<4x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
