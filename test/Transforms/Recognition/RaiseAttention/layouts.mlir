// Layouts: Q, K, V, the mask and the output in any order of their dims
// (issue 14). The matcher names each dim by its role, so a K held as
// [..., D, Nk], BSHD tensors, sequence-first tensors and scores computed
// as (K·Qᵀ)ᵀ are all attention; the rewrite transposes each operand to the
// op's [B, H, N, D] and the result back. Near misses whose axes do not fit
// (a contraction over the wrong dim, shapes that disagree) stay in
// near-misses.mlir and tosa-spellings.mlir. Numerics: test/Integration/Blocks.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s

// Q·K contracts Q's head dim with K's dim 0: that is attention with K stored
// transposed, [D, Nk]. Until issue 14 this was refused as docs/Sources.md §5.1;
// §5.1's bug was reading such a K as Kᵀ without a transpose. The rewrite
// transposes it, which is exact.
// CHECK-LABEL: func.func @key_stored_transposed
// CHECK: %[[KT:.*]] = linalg.transpose ins(%arg1 : tensor<4x4xf32>) {{.*}} permutation = [1, 0]
// CHECK: %[[K4:.*]] = tensor.expand_shape %[[KT]]
// CHECK: fa.attention %{{.*}}, %[[K4]], %{{.*}} scale = 5.000000e-01
// CHECK-NOT: math.exp
func.func @key_stored_transposed(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tensor.empty() : tensor<4xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %rm = linalg.fill ins(%neginf : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (d, j)>, affine_map<(i, j, d) -> (i, j)>]
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
  return %o : tensor<4x4xf32>
}


// -----

// batch_matmul(Q, K) on a K held as [B, D, Nk]: attention with K transposed.
// CHECK-LABEL: func.func @batch_matmul_key_dn
// CHECK: %[[KT:.*]] = linalg.transpose ins(%arg1 : tensor<2x8x8xf32>) {{.*}} permutation = [0, 2, 1]
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.000000e+00
// CHECK-NOT: linalg.softmax
func.func @batch_matmul_key_dn(%q: tensor<2x8x8xf32>, %k: tensor<2x8x8xf32>,
                               %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x8x8xf32>, tensor<2x8x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}


// -----

// K permuted [2, 1, 0] by tosa.transpose, with sizes that fit: K is held as
// [Nk, D, B] and transposed to [B, Nk, D].
// CHECK-LABEL: func.func @tosa_key_reversed
// CHECK: linalg.transpose ins(%arg1 : tensor<4x8x4xf32>) {{.*}} permutation = [2, 0, 1]
// CHECK: fa.attention {{.*}} scale = 5.000000e-01 : tensor<1x4x8x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x4xf32>
// CHECK-NOT: tosa.exp
func.func @tosa_key_reversed(%q: tensor<4x8x8xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x4x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 2, 1, 0>} : (tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<4x8x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x4xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x4xf32>, tensor<4x8x1xf32>) -> tensor<4x8x4xf32>
  %e = tosa.exp %d : (tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x4xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x4xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// P·V writes [Nq, B, Dv] (sequence-first output) and the bias is held as
// [Nk, Nq]: the op's result is transposed back, the bias to [Nq, Nk].
// CHECK-LABEL: func.func @sequence_first_output
// CHECK: %[[BT:.*]] = linalg.transpose ins(%arg3 : tensor<8x8xf32>) {{.*}} permutation = [1, 0]
// CHECK: %[[O:.*]], %{{.*}} = fa.attention
// CHECK: %[[O3:.*]] = tensor.collapse_shape
// CHECK: linalg.transpose ins(%[[O3]] : tensor<2x8x4xf32>) {{.*}} permutation = [1, 0, 2]
func.func @sequence_first_output(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %bias: tensor<8x8xf32>) -> tensor<8x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<2x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<8x2x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x2x4xf32>) -> tensor<8x2x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, i, e, j) -> (b, i, j)>, affine_map<(b, i, e, j) -> (b, j, e)>, affine_map<(b, i, e, j) -> (i, b, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<8x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<8x2x4xf32>
  return %o : tensor<8x2x4xf32>
}
