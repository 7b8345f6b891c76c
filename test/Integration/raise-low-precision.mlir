// f16 and bf16 attention with the softmax computed in f32, as frontends
// write it: linalg with extf/truncf (f16) and TOSA with tosa.cast (bf16).
// The raised op accumulates in f32 where the frontend may accumulate P·V in
// the input type and rounds P to it, so the two runs agree to the input
// type's rounding: rtol 1e-2 and atol 5e-3 (docs/Recognition.md).
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 128 values

// RAISED-LABEL: func.func @linalg_f16
// RAISED: fa.attention {{.*}} : tensor<1x2x8x4xf16>, tensor<1x2x8x4xf16>, tensor<1x2x8x4xf16> -> tensor<1x2x8x4xf16>
// RAISED-LABEL: func.func @tosa_bf16
// RAISED: fa.attention {{.*}} : tensor<1x2x8x4xbf16>, tensor<1x2x8x4xbf16>, tensor<1x2x8x4xbf16> -> tensor<1x2x8x4xbf16>

#qk = affine_map<(b, i, j, d) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (b, j, d)>
#s3 = affine_map<(b, i, j, d) -> (b, i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#row3 = affine_map<(b, i, j) -> (b, i)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @linalg_f16(%q: tensor<2x8x4xf16>, %k: tensor<2x8x4xf16>,
                      %v: tensor<2x8x4xf16>) -> tensor<2x8x4xf16> {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %e0 = tensor.empty() : tensor<2x8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [#qk, #kt, #s3]
      ins(%q, %k : tensor<2x8x4xf16>, tensor<2x8x4xf16>)
      outs(%z0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x8x8xf32>) outs(%e0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %half : f32
    linalg.yield %m : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %minit = linalg.fill ins(%neginf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x8x8xf32>) outs(%minit : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x8x8xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x8x8xf32>) outs(%sinit : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.addf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x8xf32>
  %e16 = tensor.empty() : tensor<2x8x8xf16>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e16 : tensor<2x8x8xf16>) {
  ^bb0(%a: f32, %b: f32, %o: f16):
    %d = arith.divf %a, %b : f32
    %t = arith.truncf %d : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x8xf16>
  %e6 = tensor.empty() : tensor<2x8x4xf16>
  %z6 = linalg.fill ins(%zero16 : f16) outs(%e6 : tensor<2x8x4xf16>) -> tensor<2x8x4xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf16>, tensor<2x8x4xf16>)
      outs(%z6 : tensor<2x8x4xf16>) -> tensor<2x8x4xf16>
  return %o : tensor<2x8x4xf16>
}

func.func @tosa_bf16(%q: tensor<2x8x4xbf16>, %k: tensor<2x8x4xbf16>,
                     %v: tensor<2x8x4xbf16>) -> tensor<2x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x4xbf16>) -> tensor<2x4x8xbf16>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x4xbf16>, tensor<2x4x8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x8x8xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x8x8xf32>, tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf32>) -> tensor<2x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p32 = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
  %p = tosa.cast %p32 : (tensor<2x8x8xf32>) -> tensor<2x8x8xbf16>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xbf16>, tensor<2x8x4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

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

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<2x8x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<2x8x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<2x8x4xf32>

  %q16 = arith.truncf %q : tensor<2x8x4xf32> to tensor<2x8x4xf16>
  %k16 = arith.truncf %k : tensor<2x8x4xf32> to tensor<2x8x4xf16>
  %v16 = arith.truncf %v : tensor<2x8x4xf32> to tensor<2x8x4xf16>
  %o16 = call @linalg_f16(%q16, %k16, %v16) : (tensor<2x8x4xf16>, tensor<2x8x4xf16>, tensor<2x8x4xf16>) -> tensor<2x8x4xf16>
  %w16 = arith.extf %o16 : tensor<2x8x4xf16> to tensor<2x8x4xf32>
  %p16 = tensor.cast %w16 : tensor<2x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p16) : (tensor<*xf32>) -> ()

  %qb = arith.truncf %q : tensor<2x8x4xf32> to tensor<2x8x4xbf16>
  %kb = arith.truncf %k : tensor<2x8x4xf32> to tensor<2x8x4xbf16>
  %vb = arith.truncf %v : tensor<2x8x4xf32> to tensor<2x8x4xbf16>
  %ob = call @tosa_bf16(%qb, %kb, %vb) : (tensor<2x8x4xbf16>, tensor<2x8x4xbf16>, tensor<2x8x4xbf16>) -> tensor<2x8x4xf32>
  %pb = tensor.cast %ob : tensor<2x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pb) : (tensor<*xf32>) -> ()
  return
}
