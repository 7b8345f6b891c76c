// Linearity of P·V in TOSA (raise-linear-combinations.mlir has linalg):
// two softmaxes of TOSA ops, reshaped to [1, 2, 8, 8], combined by
// P₁ − λ·P₂ with λ a run-time [1, 1, 1, 1] tensor (as Diff Transformer's
// lambda_full), reshaped back to [2, 8, 8] for tosa.matmul with V.
// fa-normalize-frontend gives each softmax its own matmul under the same
// reshapes, combined by the same ops (λ reshaped to the matmul's rank), and
// each P·V raises. A weight per key makes u[j]·P₂ a term of its own: the
// matmul is still distributed (exactly), P₁·V raises and u[j]·P₂·V stays a
// matmul. The near miss, a constant added (affine), keeps its form.
// Raised and unraised runs agree.
// RUN: fa-opt %s --fa-raise-attention --fa-normalize-frontend --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 192 values
// RAISED-LABEL: func.func @differential(
// RAISED-COUNT-2: fa.attention
// RAISED: tosa.mul
// RAISED: tosa.sub
// RAISED-NOT: tosa.exp
// RAISED-LABEL: func.func @near_miss_affine(
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @weight_per_key(
// RAISED-COUNT-1: fa.attention
// RAISED: tosa.matmul
// RAISED: tosa.sub
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @input

!t = tensor<2x8x4xf32>
!s = tensor<2x8x8xf32>
!s4 = tensor<1x2x8x8xf32>

func.func private @printMemrefF32(tensor<*xf32>)

// P₁ − λ·P₂.
func.func @differential(%q1: !t, %k1t: tensor<2x4x8xf32>, %q2: !t, %k2t: tensor<2x4x8xf32>, %v: !t, %lambda: tensor<1x1x1x1xf32>, %perkey: tensor<1x1x1x8xf32>) -> !t {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shape4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %shape3 = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sc1 = tosa.matmul %q1, %k1t, %zp, %zp : (!t, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> !s
  %mx1 = tosa.reduce_max %sc1 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %d1 = tosa.sub %sc1, %mx1 : (!s, tensor<2x8x1xf32>) -> !s
  %ex1 = tosa.exp %d1 : (!s) -> !s
  %sm1 = tosa.reduce_sum %ex1 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %rc1 = tosa.reciprocal %sm1 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p1 = tosa.mul %ex1, %rc1, %shift : (!s, tensor<2x8x1xf32>, tensor<1xi8>) -> !s
  %w1 = tosa.reshape %p1, %shape4 : (!s, !tosa.shape<4>) -> !s4
  %sc2 = tosa.matmul %q2, %k2t, %zp, %zp : (!t, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> !s
  %mx2 = tosa.reduce_max %sc2 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %d2 = tosa.sub %sc2, %mx2 : (!s, tensor<2x8x1xf32>) -> !s
  %ex2 = tosa.exp %d2 : (!s) -> !s
  %sm2 = tosa.reduce_sum %ex2 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %rc2 = tosa.reciprocal %sm2 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p2 = tosa.mul %ex2, %rc2, %shift : (!s, tensor<2x8x1xf32>, tensor<1xi8>) -> !s
  %w2 = tosa.reshape %p2, %shape4 : (!s, !tosa.shape<4>) -> !s4
  %lw = tosa.mul %lambda, %w2, %shift : (tensor<1x1x1x1xf32>, !s4, tensor<1xi8>) -> !s4
  %diff = tosa.sub %w1, %lw : (!s4, !s4) -> !s4
  %d3 = tosa.reshape %diff, %shape3 : (!s4, !tosa.shape<3>) -> !s
  %o = tosa.matmul %d3, %v, %zp, %zp : (!s, !t, tensor<1xf32>, tensor<1xf32>) -> !t
  return %o : !t
}

// Near miss: P₁ − λ·P₂ + λ (a constant added: affine).
func.func @near_miss_affine(%q1: !t, %k1t: tensor<2x4x8xf32>, %q2: !t, %k2t: tensor<2x4x8xf32>, %v: !t, %lambda: tensor<1x1x1x1xf32>, %perkey: tensor<1x1x1x8xf32>) -> !t {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shape4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %shape3 = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sc1 = tosa.matmul %q1, %k1t, %zp, %zp : (!t, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> !s
  %mx1 = tosa.reduce_max %sc1 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %d1 = tosa.sub %sc1, %mx1 : (!s, tensor<2x8x1xf32>) -> !s
  %ex1 = tosa.exp %d1 : (!s) -> !s
  %sm1 = tosa.reduce_sum %ex1 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %rc1 = tosa.reciprocal %sm1 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p1 = tosa.mul %ex1, %rc1, %shift : (!s, tensor<2x8x1xf32>, tensor<1xi8>) -> !s
  %w1 = tosa.reshape %p1, %shape4 : (!s, !tosa.shape<4>) -> !s4
  %sc2 = tosa.matmul %q2, %k2t, %zp, %zp : (!t, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> !s
  %mx2 = tosa.reduce_max %sc2 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %d2 = tosa.sub %sc2, %mx2 : (!s, tensor<2x8x1xf32>) -> !s
  %ex2 = tosa.exp %d2 : (!s) -> !s
  %sm2 = tosa.reduce_sum %ex2 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %rc2 = tosa.reciprocal %sm2 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p2 = tosa.mul %ex2, %rc2, %shift : (!s, tensor<2x8x1xf32>, tensor<1xi8>) -> !s
  %w2 = tosa.reshape %p2, %shape4 : (!s, !tosa.shape<4>) -> !s4
  %lw = tosa.mul %lambda, %w2, %shift : (tensor<1x1x1x1xf32>, !s4, tensor<1xi8>) -> !s4
  %diff0 = tosa.sub %w1, %lw : (!s4, !s4) -> !s4
  %diff = tosa.add %diff0, %lambda : (!s4, tensor<1x1x1x1xf32>) -> !s4
  %d3 = tosa.reshape %diff, %shape3 : (!s4, !tosa.shape<3>) -> !s
  %o = tosa.matmul %d3, %v, %zp, %zp : (!s, !t, tensor<1xf32>, tensor<1xf32>) -> !t
  return %o : !t
}

// P₁ − u[j]·P₂, a weight per key: u[j]·P₂ is a term of its own.
func.func @weight_per_key(%q1: !t, %k1t: tensor<2x4x8xf32>, %q2: !t, %k2t: tensor<2x4x8xf32>, %v: !t, %lambda: tensor<1x1x1x1xf32>, %perkey: tensor<1x1x1x8xf32>) -> !t {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shape4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %shape3 = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sc1 = tosa.matmul %q1, %k1t, %zp, %zp : (!t, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> !s
  %mx1 = tosa.reduce_max %sc1 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %d1 = tosa.sub %sc1, %mx1 : (!s, tensor<2x8x1xf32>) -> !s
  %ex1 = tosa.exp %d1 : (!s) -> !s
  %sm1 = tosa.reduce_sum %ex1 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %rc1 = tosa.reciprocal %sm1 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p1 = tosa.mul %ex1, %rc1, %shift : (!s, tensor<2x8x1xf32>, tensor<1xi8>) -> !s
  %w1 = tosa.reshape %p1, %shape4 : (!s, !tosa.shape<4>) -> !s4
  %sc2 = tosa.matmul %q2, %k2t, %zp, %zp : (!t, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> !s
  %mx2 = tosa.reduce_max %sc2 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %d2 = tosa.sub %sc2, %mx2 : (!s, tensor<2x8x1xf32>) -> !s
  %ex2 = tosa.exp %d2 : (!s) -> !s
  %sm2 = tosa.reduce_sum %ex2 {axis = 2 : i32} : (!s) -> tensor<2x8x1xf32>
  %rc2 = tosa.reciprocal %sm2 : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p2 = tosa.mul %ex2, %rc2, %shift : (!s, tensor<2x8x1xf32>, tensor<1xi8>) -> !s
  %w2 = tosa.reshape %p2, %shape4 : (!s, !tosa.shape<4>) -> !s4
  %lw = tosa.mul %perkey, %w2, %shift : (tensor<1x1x1x8xf32>, !s4, tensor<1xi8>) -> !s4
  %diff = tosa.sub %w1, %lw : (!s4, !s4) -> !s4
  %d3 = tosa.reshape %diff, %shape3 : (!s4, !tosa.shape<3>) -> !s
  %o = tosa.matmul %d3, %v, %zp, %zp : (!s, !t, tensor<1xf32>, tensor<1xf32>) -> !t
  return %o : !t
}

func.func @input(%seed: f32, %rows: index, %cols: index) -> tensor<2x?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<2x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x?x?xf32>) {
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
    %three = arith.constant 3.0 : f32
    %w = arith.mulf %z, %three : f32
    linalg.yield %w : f32
  } -> tensor<2x?x?xf32>
  return %r : tensor<2x?x?xf32>
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %s5 = arith.constant 5.0 : f32
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %q1d = call @input(%s1, %c8, %c4) : (f32, index, index) -> tensor<2x?x?xf32>
  %k1d = call @input(%s2, %c4, %c8) : (f32, index, index) -> tensor<2x?x?xf32>
  %q2d = call @input(%s3, %c8, %c4) : (f32, index, index) -> tensor<2x?x?xf32>
  %k2d = call @input(%s4, %c4, %c8) : (f32, index, index) -> tensor<2x?x?xf32>
  %vd = call @input(%s5, %c8, %c4) : (f32, index, index) -> tensor<2x?x?xf32>
  %q1 = tensor.cast %q1d : tensor<2x?x?xf32> to !t
  %k1 = tensor.cast %k1d : tensor<2x?x?xf32> to tensor<2x4x8xf32>
  %q2 = tensor.cast %q2d : tensor<2x?x?xf32> to !t
  %k2 = tensor.cast %k2d : tensor<2x?x?xf32> to tensor<2x4x8xf32>
  %v = tensor.cast %vd : tensor<2x?x?xf32> to !t
  %lambda = arith.constant dense<0.35> : tensor<1x1x1x1xf32>
  %perkey = arith.constant dense<[[[[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]]]]> : tensor<1x1x1x8xf32>
  %o0 = call @differential(%q1, %k1, %q2, %k2, %v, %lambda, %perkey) : (!t, tensor<2x4x8xf32>, !t, tensor<2x4x8xf32>, !t, tensor<1x1x1x1xf32>, tensor<1x1x1x8xf32>) -> !t
  %u0 = tensor.cast %o0 : !t to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %o1 = call @near_miss_affine(%q1, %k1, %q2, %k2, %v, %lambda, %perkey) : (!t, tensor<2x4x8xf32>, !t, tensor<2x4x8xf32>, !t, tensor<1x1x1x1xf32>, tensor<1x1x1x8xf32>) -> !t
  %u1 = tensor.cast %o1 : !t to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %o2 = call @weight_per_key(%q1, %k1, %q2, %k2, %v, %lambda, %perkey) : (!t, tensor<2x4x8xf32>, !t, tensor<2x4x8xf32>, !t, tensor<1x1x1x1xf32>, tensor<1x1x1x8xf32>) -> !t
  %u2 = tensor.cast %o2 : !t to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
