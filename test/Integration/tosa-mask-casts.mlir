// TOSA as torch-mlir's TOSA path emits it for padding and boolean masks:
// an i64 attention_mask and an i1 mask cast to f32 (tosa.cast (i64, f32) and
// (i1, f32), which the TOSA specification's profiles omit but upstream's
// conversions lower) and turned into additive biases. The pipelines lower
// them (strict TOSA validation is off unless tosa-validation=true asks for
// it), and the raised run equals the frontend's. test/GPU/tosa-mask-casts.test
// compiles the same file to PTX.
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: not fa-opt %s --fa-cpu-pipeline=tosa-validation=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// SAME: MATCH 128 values
// STRICT: error: 'tosa.cast' op illegal: operation operand/result data types did not align with any profile or extension, got (i64,f32)

// RAISED-LABEL: func.func @int64_padding
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x1x1x8xf32>) scale = 5.000000e-01
// RAISED-LABEL: func.func @bool_mask
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x1x8x8xf32>) scale = 5.000000e-01

func.func private @printMemrefF32(tensor<*xf32>)

// Hugging Face's extended mask: (1 - attention_mask.to(f32)) * -10000.
func.func @int64_padding(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>, %keep: tensor<1x8xi64>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %fill = "tosa.const"() <{values = dense<-10000.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kf = tosa.cast %keep : (tensor<1x8xi64>) -> tensor<1x8xf32>
  %hidden = tosa.sub %one, %kf : (tensor<1x1xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %bias2 = tosa.mul %hidden, %fill, %shift : (tensor<1x8xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x8xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %bias = tosa.reshape %bias2, %shape : (tensor<1x8xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %ss = tosa.mul %s, %half, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %x = tosa.add %ss, %bias : (tensor<2x8x8xf32>, tensor<1x1x8xf32>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// A boolean mask (true = hidden) cast to f32 and scaled: hide * -1e9.
func.func @bool_mask(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
    %v: tensor<2x8x4xf32>, %hide: tensor<1x8x8xi1>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %fill = "tosa.const"() <{values = dense<-1.0e9> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %hf = tosa.cast %hide : (tensor<1x8x8xi1>) -> tensor<1x8x8xf32>
  %bias = tosa.mul %hf, %fill, %shift : (tensor<1x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x8x8xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xf32>) -> tensor<2x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %ss = tosa.mul %s, %half, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %x = tosa.add %ss, %bias : (tensor<2x8x8xf32>, tensor<1x8x8xf32>) -> tensor<2x8x8xf32>
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
  // Keys 6 and 7 are padding.
  %keep = arith.constant dense<[[1, 1, 1, 1, 1, 1, 0, 0]]> : tensor<1x8xi64>
  %o1 = call @int64_padding(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1x8xi64>) -> tensor<2x8x4xf32>
  call @print(%o1) : (tensor<2x8x4xf32>) -> ()
  // Causal (hide j > i), with row 5 hiding every key: -1e9 everywhere,
  // so the row averages V in both runs.
  %hide = arith.constant dense<[[[false, true, true, true, true, true, true, true],
                                 [false, false, true, true, true, true, true, true],
                                 [false, false, false, true, true, true, true, true],
                                 [false, false, false, false, true, true, true, true],
                                 [false, false, false, false, false, true, true, true],
                                 [true, true, true, true, true, true, true, true],
                                 [false, false, false, false, false, false, false, true],
                                 [false, false, false, false, false, false, false, false]]]> : tensor<1x8x8xi1>
  %o2 = call @bool_mask(%q, %k, %v, %hide) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<1x8x8xi1>) -> tensor<2x8x4xf32>
  call @print(%o2) : (tensor<2x8x4xf32>) -> ()
  return
}
