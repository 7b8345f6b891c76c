// Mixed element types where a widening is exact (GPT-NeoX, GPT-Neo and
// diffusers' upcast_attention widen Q and K to f32 for the scores while V
// stays f16):
//   @upcast_qk      Q and K widened from f16, softmax in f32, P rounded to
//                   f16, P·V in f16: raised on the f16 Q and K (products of
//                   f16 values are exact in f32, so the op's scores are the
//                   frontend's);
//   @widen_v        Q and K in f32, V in f16 widened inside P·V, result in
//                   f32: raised in f32 with V widened.
// V in bf16 with Q and K in f16 does not widen exactly: refused
// (Transforms/Recognition/RaiseAttention/mixed-element-types-near-misses.mlir).
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 2e-3 --atol 2e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 512 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @upcast_qk
// RAISED: fa.attention {{.*}} : tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16> -> tensor<1x2x8x16xf16>
// RAISED-NOT: math.exp
// RAISED-LABEL: func.func @widen_v
// RAISED: arith.extf {{.*}} : tensor<2x8x16xf16> to tensor<2x8x16xf32>
// RAISED: fa.attention {{.*}} : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
// RAISED-NOT: math.exp

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>
#qk_q = affine_map<(b, i, j, d) -> (b, i, d)>
#qk_k = affine_map<(b, i, j, d) -> (b, j, d)>
#qk_s = affine_map<(b, i, j, d) -> (b, i, j)>
#pv_p = affine_map<(b, i, d, j) -> (b, i, j)>
#pv_v = affine_map<(b, i, d, j) -> (b, j, d)>
#pv_o = affine_map<(b, i, d, j) -> (b, i, d)>

func.func private @softmax(%s: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %e = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %p : tensor<2x8x8xf32>
}

func.func @upcast_qk(%q: tensor<2x8x16xf16>, %k: tensor<2x8x16xf16>, %v: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %q32 = arith.extf %q : tensor<2x8x16xf16> to tensor<2x8x16xf32>
  %k32 = arith.extf %k : tensor<2x8x16xf16> to tensor<2x8x16xf32>
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q32, %k32 : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%z : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %p = func.call @softmax(%s) : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p16 = arith.truncf %p : tensor<2x8x8xf32> to tensor<2x8x8xf16>
  %eo = tensor.empty() : tensor<2x8x16xf16>
  %zo = linalg.fill ins(%zero16 : f16) outs(%eo : tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %o = linalg.batch_matmul ins(%p16, %v : tensor<2x8x8xf16>, tensor<2x8x16xf16>) outs(%zo : tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  return %o : tensor<2x8x16xf16>
}

func.func @widen_v(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf16>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%z : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %p = func.call @softmax(%s) : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf16>) outs(%zo : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f16, %acc: f32):
    %w = arith.extf %b : f16 to f32
    %0 = arith.mulf %a, %w : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input3(%s1, %c2, %c8, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c2, %c8, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c2, %c8, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x8x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x8x16xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x8x16xf32>
  %q16 = arith.truncf %q : tensor<2x8x16xf32> to tensor<2x8x16xf16>
  %k16 = arith.truncf %k : tensor<2x8x16xf32> to tensor<2x8x16xf16>
  %v16 = arith.truncf %v : tensor<2x8x16xf32> to tensor<2x8x16xf16>
  %o1 = call @upcast_qk(%q16, %k16, %v16) : (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %o1w = arith.extf %o1 : tensor<2x8x16xf16> to tensor<2x8x16xf32>
  %u1 = tensor.cast %o1w : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %o2 = call @widen_v(%q, %k, %v16) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf16>) -> tensor<2x8x16xf32>
  %u2 = tensor.cast %o2 : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
