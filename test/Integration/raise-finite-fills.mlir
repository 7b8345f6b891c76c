// Masked fills, as frontends write them: where(keep, scores, f) for
// f = -inf, the lowest f32 (torch's finfo.min), JAX's -0.7 * finfo.max
// (jax.nn.dot_product_attention's XLA path), -1e4 (BERT-era torch/Keras),
// -1e9, and -1, a fill that visible scores come close to. Row 5 of the
// mask hides every key, row 2 all but one. A masked score *becomes* f:
// -inf and the lowest value keep their forms (a -inf mask, and the
// frontend's NaN or mean of V restored where a row has no visible key);
// any other finite f is fa.attention's mask_fill, exact for every input
// (hidden keys keep their weight exp(f - m); a row of hidden keys averages
// V). The same through the tiled path across key blocks and through the
// emulated GPU kernel.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.sm80
// RUN: %compare %t.sm80 %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90" | %mlir-run > %t.sm90
// RUN: %compare %t.sm90 %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 384 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @neg_inf
// RAISED-NOT: mask_fill
// RAISED-LABEL: func.func @lowest
// RAISED-NOT: mask_fill
// RAISED-LABEL: func.func @jax_0_7_max
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x1x8x8xi1>) scale = 5.000000e-01 mask_fill = -2.381976{{[0-9]*}}E+38 :
// RAISED-LABEL: func.func @minus_1e4
// RAISED: mask_fill = -1.000000e+04 :
// RAISED-LABEL: func.func @minus_1e9
// RAISED: mask_fill = -1.000000e+09 :
// RAISED-LABEL: func.func @minus_one
// RAISED: mask_fill = -1.000000e+00 :

func.func private @printMemrefF32(tensor<*xf32>)

func.func @neg_inf(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>, %keep: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @lowest(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>, %keep: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fill = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @jax_0_7_max(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>, %keep: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fill = "tosa.const"() <{values = dense<-2.38197633E+38> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @minus_1e4(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>, %keep: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fill = "tosa.const"() <{values = dense<-1.000000e+04> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @minus_1e9(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>, %keep: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fill = "tosa.const"() <{values = dense<-1.000000e+09> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @minus_one(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>, %keep: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %fill = "tosa.const"() <{values = dense<-1.000000e+00> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
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
  // Causal keep-mask; row 5 keeps nothing, row 2 only key 0.
  %keep = arith.constant dense<[[[true, false, false, false, false, false, false, false],
                                 [true, true, false, false, false, false, false, false],
                                 [true, false, false, false, false, false, false, false],
                                 [true, true, true, true, false, false, false, false],
                                 [true, true, true, true, true, false, false, false],
                                 [false, false, false, false, false, false, false, false],
                                 [true, true, true, true, true, true, true, false],
                                 [true, true, true, true, true, true, true, true]]]> : tensor<1x8x8xi1>
  %o_neg_inf = call @neg_inf(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1x8x8xi1>) -> tensor<2x8x4xf32>
  call @print(%o_neg_inf) : (tensor<2x8x4xf32>) -> ()
  %o_lowest = call @lowest(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1x8x8xi1>) -> tensor<2x8x4xf32>
  call @print(%o_lowest) : (tensor<2x8x4xf32>) -> ()
  %o_jax_0_7_max = call @jax_0_7_max(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1x8x8xi1>) -> tensor<2x8x4xf32>
  call @print(%o_jax_0_7_max) : (tensor<2x8x4xf32>) -> ()
  %o_minus_1e4 = call @minus_1e4(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1x8x8xi1>) -> tensor<2x8x4xf32>
  call @print(%o_minus_1e4) : (tensor<2x8x4xf32>) -> ()
  %o_minus_1e9 = call @minus_1e9(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1x8x8xi1>) -> tensor<2x8x4xf32>
  call @print(%o_minus_1e9) : (tensor<2x8x4xf32>) -> ()
  %o_minus_one = call @minus_one(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1x8x8xi1>) -> tensor<2x8x4xf32>
  call @print(%o_minus_one) : (tensor<2x8x4xf32>) -> ()
  return
}
