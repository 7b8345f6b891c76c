// A mask applied before a scale, where(keep, s, -inf) · c: -inf keeps its
// meaning only for c > 0. For c = 0 every hidden score is NaN (-inf · 0)
// and every kept one 0, for c < 0 a hidden score is +inf: not a mask and a
// scale, but still one function of the score (and of the mask tensor) that
// fa.attention states as its score_mod, NaN and +inf included. Raised, and
// run against the frontend (rows of NaN in both).
//   @mask_then_positive_scale  c = 0.5: the op's mask and scale;
//   @mask_then_zero_scale      c = 0: a score_mod;
//   @mask_then_negative_scale  c = -0.5: a score_mod.
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 192 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @mask_then_positive_scale
// RAISED: fa.attention {{.*}} mask({{.*}}) scale = 5.000000e-01 :
// RAISED-LABEL: func.func @mask_then_zero_scale
// RAISED: fa.attention {{.*}} score_mod {
// RAISED-LABEL: func.func @mask_then_negative_scale
// RAISED: fa.attention {{.*}} score_mod {

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func @mask_then_positive_scale(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // where(keep, s, -inf) * 0.5
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<2x8x8xf32>, tensor<2x8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %f = arith.select %m, %a, %neginf : f32
    %y = arith.mulf %f, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @mask_then_zero_scale(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // where(keep, s, -inf) * 0.0
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<2x8x8xf32>, tensor<2x8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %f = arith.select %m, %a, %neginf : f32
    %y = arith.mulf %f, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @mask_then_negative_scale(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %c = arith.constant -0.5 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // where(keep, s, -inf) * -0.5
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<2x8x8xf32>, tensor<2x8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %f = arith.select %m, %a, %neginf : f32
    %y = arith.mulf %f, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input3(%s1, %c2, %c8, %c4) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x8x4xf32>
  %k0 = call @input3(%s2, %c2, %c8, %c4) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x8x4xf32>
  %v0 = call @input3(%s3, %c2, %c8, %c4) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x8x4xf32>
  // keep (b, i, j) = (i + 2j + b) mod 3 != 0; row 0 of batch 0 keeps keys
  // 1, 4, 7 and so on.
  %ek = tensor.empty() : tensor<2x8x8xi1>
  %keep = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%ek : tensor<2x8x8xi1>) {
  ^bb0(%o: i1):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %j2 = arith.addi %j, %j : index
    %t = arith.addi %i, %j2 : index
    %t2 = arith.addi %t, %b : index
    %c3 = arith.constant 3 : index
    %r = arith.remui %t2, %c3 : index
    %c0 = arith.constant 0 : index
    %kp = arith.cmpi ne, %r, %c0 : index
    linalg.yield %kp : i1
  } -> tensor<2x8x8xi1>
  %o_mask_then_positive_scale = call @mask_then_positive_scale(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x8xi1>) -> tensor<2x8x4xf32>
  %p_mask_then_positive_scale = tensor.cast %o_mask_then_positive_scale : tensor<2x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p_mask_then_positive_scale) : (tensor<*xf32>) -> ()
  %o_mask_then_zero_scale = call @mask_then_zero_scale(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x8xi1>) -> tensor<2x8x4xf32>
  %p_mask_then_zero_scale = tensor.cast %o_mask_then_zero_scale : tensor<2x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p_mask_then_zero_scale) : (tensor<*xf32>) -> ()
  %o_mask_then_negative_scale = call @mask_then_negative_scale(%q, %k, %v, %keep) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x8xi1>) -> tensor<2x8x4xf32>
  %p_mask_then_negative_scale = tensor.cast %o_mask_then_negative_scale : tensor<2x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p_mask_then_negative_scale) : (tensor<*xf32>) -> ()
  return
}

