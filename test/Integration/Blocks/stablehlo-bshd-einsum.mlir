// JAX/Flax dot-product attention through StableHLO -> linalg: Q, K, V and
// the output stay in BSHD [B, N, H, D], the two einsums
// (bqhd,bkhd->bhqk and bhqk,bkhd->bqhd) are linalg.generic contractions,
// flax divides the query by sqrt(depth) before the first einsum (a divf by
// a scalar constant broadcast with linalg.broadcast from tensor<f32>), and
// the softmax is linalg.reduce + linalg.broadcast. Raised: Q, K, V are
// transposed to [B, H, N, D] for the op and its result back to BSHD.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 384 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @dot_product_attention
// RAISED-DAG: %[[QT:.*]] = linalg.transpose ins(%arg0 : tensor<2x12x2x8xf32>) {{.*}} permutation = [0, 2, 1, 3]
// RAISED-DAG: %[[KT:.*]] = linalg.transpose ins(%arg1 : tensor<2x12x2x8xf32>) {{.*}} permutation = [0, 2, 1, 3]
// RAISED-DAG: %[[VT:.*]] = linalg.transpose ins(%arg2 : tensor<2x12x2x8xf32>) {{.*}} permutation = [0, 2, 1, 3]
// RAISED: %[[O:.*]] = fa.attention %[[QT]], %[[KT]], %[[VT]] scale = 0.353553{{[0-9]+}} : tensor<2x2x12x8xf32>
// RAISED: linalg.transpose ins(%[[O]] : tensor<2x2x12x8xf32>) {{.*}} permutation = [0, 2, 1, 3]
// RAISED-NOT: math.exp
// RAISED: return

func.func @dot_product_attention(%query: tensor<2x12x2x8xf32>, %key: tensor<2x12x2x8xf32>, %value: tensor<2x12x2x8xf32>) -> tensor<2x12x2x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %depth = arith.constant dense<2.82842708> : tensor<f32>
  // query = query / sqrt(depth)
  %0 = tensor.empty() : tensor<2x12x2x8xf32>
  %1 = linalg.broadcast ins(%depth : tensor<f32>) outs(%0 : tensor<2x12x2x8xf32>) dimensions = [0, 1, 2, 3]
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%query, %1 : tensor<2x12x2x8xf32>, tensor<2x12x2x8xf32>) outs(%0 : tensor<2x12x2x8xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %20 = arith.divf %in, %in_1 : f32
    linalg.yield %20 : f32
  } -> tensor<2x12x2x8xf32>
  // attn_weights = einsum('...qhd,...khd->...hqk', query, key)
  %3 = tensor.empty() : tensor<2x2x12x12xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<2x2x12x12xf32>) -> tensor<2x2x12x12xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(b, h, q, k, d) -> (b, q, h, d)>, affine_map<(b, h, q, k, d) -> (b, k, h, d)>, affine_map<(b, h, q, k, d) -> (b, h, q, k)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%2, %key : tensor<2x12x2x8xf32>, tensor<2x12x2x8xf32>) outs(%4 : tensor<2x2x12x12xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %20 = arith.mulf %in, %in_1 : f32
    %21 = arith.addf %out, %20 : f32
    linalg.yield %21 : f32
  } -> tensor<2x2x12x12xf32>
  // jax.nn.softmax(attn_weights, axis=-1)
  %6 = tensor.empty() : tensor<2x2x12xf32>
  %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<2x2x12xf32>) -> tensor<2x2x12xf32>
  %reduced = linalg.reduce ins(%5 : tensor<2x2x12x12xf32>) outs(%7 : tensor<2x2x12xf32>) dimensions = [3]
    (%in: f32, %init: f32) {
      %20 = arith.maximumf %in, %init : f32
      linalg.yield %20 : f32
    }
  %8 = linalg.broadcast ins(%reduced : tensor<2x2x12xf32>) outs(%3 : tensor<2x2x12x12xf32>) dimensions = [3]
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %8 : tensor<2x2x12x12xf32>, tensor<2x2x12x12xf32>) outs(%3 : tensor<2x2x12x12xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %20 = arith.subf %in, %in_1 : f32
    %21 = math.exp %20 : f32
    linalg.yield %21 : f32
  } -> tensor<2x2x12x12xf32>
  %10 = linalg.fill ins(%cst : f32) outs(%6 : tensor<2x2x12xf32>) -> tensor<2x2x12xf32>
  %reduced_2 = linalg.reduce ins(%9 : tensor<2x2x12x12xf32>) outs(%10 : tensor<2x2x12xf32>) dimensions = [3]
    (%in: f32, %init: f32) {
      %20 = arith.addf %in, %init : f32
      linalg.yield %20 : f32
    }
  %11 = linalg.broadcast ins(%reduced_2 : tensor<2x2x12xf32>) outs(%3 : tensor<2x2x12x12xf32>) dimensions = [3]
  %12 = linalg.div ins(%9, %11 : tensor<2x2x12x12xf32>, tensor<2x2x12x12xf32>) outs(%3 : tensor<2x2x12x12xf32>) -> tensor<2x2x12x12xf32>
  // einsum('...hqk,...khd->...qhd', attn_weights, value)
  %13 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x12x2x8xf32>) -> tensor<2x12x2x8xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(b, q, h, d, k) -> (b, h, q, k)>, affine_map<(b, q, h, d, k) -> (b, k, h, d)>, affine_map<(b, q, h, d, k) -> (b, q, h, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%12, %value : tensor<2x2x12x12xf32>, tensor<2x12x2x8xf32>) outs(%13 : tensor<2x12x2x8xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %20 = arith.mulf %in, %in_1 : f32
    %21 = arith.addf %out, %20 : f32
    linalg.yield %21 : f32
  } -> tensor<2x12x2x8xf32>
  return %14 : tensor<2x12x2x8xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c2, %c12, %c2, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c2, %c12, %c2, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c2, %c12, %c2, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x12x2x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<2x12x2x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<2x12x2x8xf32>
  %o = call @dot_product_attention(%q, %k, %v) : (tensor<2x12x2x8xf32>, tensor<2x12x2x8xf32>, tensor<2x12x2x8xf32>) -> tensor<2x12x2x8xf32>
  %u = tensor.cast %o : tensor<2x12x2x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
