// Several masks on the scores at once, as frontends stack them: a bias
// (ALiBi, relative positions) and a causal masked_fill; a padding mask from
// a sequence length and a causal mask. Every one hides with -inf, so they
// commute: causal becomes the op's attribute, the length kv_lengths, and
// the one mask tensor left (the bias) the op's mask. Raised and frontend
// runs agree, through the tiled path and the emulated kernel (the length 3
// run leaves rows 3.. with keys; the causal rows 0..2 see fewer).
// Masks that do not combine are one score function: test/Transforms/
// RaiseAttention/score-function-tensors.mlir.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 192 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @bias_and_causal
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x1x8x8xf32>) scale = 5.000000e-01 causal = bottom_right :
// RAISED-LABEL: func.func @length_and_causal
// RAISED: fa.attention {{.*}} kv_lengths({{.*}} : tensor<1xi32>) scale = 5.000000e-01 causal = top_left :

func.func private @printMemrefF32(tensor<*xf32>)

func.func @bias_and_causal(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %bias: tensor<1x8x8xf32>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %causal = "tosa.const"() <{values = dense<[[[true, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false], [true, true, true, false, false, false, false, false], [true, true, true, true, false, false, false, false], [true, true, true, true, true, false, false, false], [true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true]]]> : tensor<1x8x8xi1>}> : () -> tensor<1x8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s = tosa.mul %s0, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  // BLOOM/MPT: an ALiBi-style bias, then the causal masked_fill.
  %sb = tosa.add %s, %bias : (tensor<2x8x8xf32>, tensor<1x8x8xf32>) -> tensor<2x8x8xf32>
  %x = tosa.select %causal, %sb, %neginf : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @length_and_causal(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %len: tensor<1xi32>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %causal = "tosa.const"() <{values = dense<[[[true, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false], [true, true, true, false, false, false, false, false], [true, true, true, true, false, false, false, false], [true, true, true, true, true, false, false, false], [true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true]]]> : tensor<1x8x8xi1>}> : () -> tensor<1x8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s = tosa.mul %s0, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  // A padding mask from a length (arange(Nk) < len), then the causal mask.
  %iota = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7]]]> : tensor<1x1x8xi32>}> : () -> tensor<1x1x8xi32>
  %shape = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %len3 = tosa.reshape %len, %shape : (tensor<1xi32>, !tosa.shape<3>) -> tensor<1x1x1xi32>
  %keep = tosa.greater %len3, %iota : (tensor<1x1x1xi32>, tensor<1x1x8xi32>) -> tensor<1x1x8xi1>
  %x1 = tosa.select %keep, %s, %neginf : (tensor<1x1x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
  %x = tosa.select %causal, %x1, %neginf : (tensor<1x8x8xi1>, tensor<2x8x8xf32>, tensor<1x1x1xf32>) -> tensor<2x8x8xf32>
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
  %b16 = call @input(%s3) : (f32) -> tensor<2x8x4xf32>
  %flat = tensor.collapse_shape %b16 [[0, 1, 2]] : tensor<2x8x4xf32> into tensor<64xf32>
  %bias = tensor.expand_shape %flat [[0, 1, 2]] output_shape [1, 8, 8] : tensor<64xf32> into tensor<1x8x8xf32>
  %o1 = call @bias_and_causal(%q, %k, %v, %bias) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1x8x8xf32>) -> tensor<2x8x4xf32>
  call @print(%o1) : (tensor<2x8x4xf32>) -> ()
  %len5 = arith.constant dense<5> : tensor<1xi32>
  %o2 = call @length_and_causal(%q, %k, %v, %len5) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1xi32>) -> tensor<2x8x4xf32>
  call @print(%o2) : (tensor<2x8x4xf32>) -> ()
  %len0 = arith.constant dense<0> : tensor<1xi32>
  %o3 = call @length_and_causal(%q, %k, %v, %len0) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1xi32>) -> tensor<2x8x4xf32>
  call @print(%o3) : (tensor<2x8x4xf32>) -> ()
  return
}
