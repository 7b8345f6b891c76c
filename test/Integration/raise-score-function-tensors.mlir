// Masks, biases and scales that do not combine into fa.attention's one
// mask are raised as one score function (score_mod) over the tensors they
// read, element for element: checked by numbers against the unraised
// program, whole-row cases included.
//   @scale_along_keys           s·t[j] (a scale that varies along the keys);
//   @bias_under_tensor_scale    (s + bias)·t[h];
//   @mask_under_tensor_scale    where(keep, s, -inf)·t[h];
//   @function_under_tensor_scale tanh(s)·t[h];
//   @scaled_bias_and_select     (where(keep, s, -inf) + bias)·0.5;
//   @multiplicative_mask        s·b - 1e4·(1 - b) + pad (TF GPT-2);
//   @two_finite_fills           where(keep, s, -FLT_MAX) + f32(pad f16)
//                               (GPT-Neo; rows 0-1 of batch 1 hide every
//                               key, where both programs average V).
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 1792 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @scale_along_keys
// RAISED: fa.attention {{.*}} score_mod
// RAISED-NOT: math.exp
// RAISED-LABEL: func.func @bias_under_tensor_scale
// RAISED: fa.attention {{.*}} score_mod
// RAISED-NOT: math.exp
// RAISED-LABEL: func.func @mask_under_tensor_scale
// RAISED: fa.attention {{.*}} score_mod
// RAISED-NOT: math.exp
// RAISED-LABEL: func.func @function_under_tensor_scale
// RAISED: fa.attention {{.*}} score_mod
// RAISED-NOT: math.exp
// RAISED-LABEL: func.func @scaled_bias_and_select
// RAISED: fa.attention {{.*}} score_mod
// RAISED-NOT: math.exp
// RAISED-LABEL: func.func @multiplicative_mask
// RAISED: fa.attention {{.*}} score_mod
// RAISED-NOT: math.exp
// RAISED-LABEL: func.func @two_finite_fills
// RAISED: fa.attention {{.*}} score_mod
// RAISED-NOT: math.exp

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>

func.func @scale_along_keys(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %t: tensor<8xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (j)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %t : tensor<2x8x8xf32>, tensor<8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %tt: f32, %o: f32):
    %0 = arith.mulf %tt, %a : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

func.func @bias_under_tensor_scale(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %t: tensor<2xf32>, %bias: tensor<2x8x8xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (b)>, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %t, %bias : tensor<2x8x8xf32>, tensor<2xf32>, tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %tt: f32, %bb: f32, %o: f32):
    %sb = arith.addf %a, %bb : f32
    %0 = arith.mulf %tt, %sb : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

func.func @mask_under_tensor_scale(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %t: tensor<2xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (b)>, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %t, %keep : tensor<2x8x8xf32>, tensor<2xf32>, tensor<2x8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %tt: f32, %mm: i1, %o: f32):
    %hide = arith.constant 0xFF800000 : f32
    %sel = arith.select %mm, %a, %hide : f32
    %0 = arith.mulf %tt, %sel : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

func.func @function_under_tensor_scale(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %t: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (b)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %t : tensor<2x8x8xf32>, tensor<2xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %tt: f32, %o: f32):
    %th = math.tanh %a : f32
    %0 = arith.mulf %tt, %th : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

func.func @scaled_bias_and_select(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %bias: tensor<2x8x8xf32>, %keep: tensor<2x8x8xi1>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %bias, %keep : tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<2x8x8xi1>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %mm: i1, %o: f32):
    %hide = arith.constant 0xFF800000 : f32
    %sel = arith.select %mm, %a, %hide : f32
    %sb = arith.addf %sel, %bb : f32
    %0 = arith.mulf %sb, %c : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// TF GPT-2's multiplicative causal mask: s·b - 1e4·(1 - b), b a 0/1 float
// tensor, then an additive padding bias.
func.func @multiplicative_mask(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %band: tensor<8x8xf32>, %pad: tensor<2x8xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, j)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %band, %pad : tensor<2x8x8xf32>, tensor<8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %pp: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %big = arith.constant 1.0e4 : f32
    %kept = arith.mulf %a, %bb : f32
    %inv = arith.subf %one, %bb : f32
    %shift = arith.mulf %big, %inv : f32
    %masked = arith.subf %kept, %shift : f32
    %0 = arith.addf %masked, %pp : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// GPT-Neo: where(keep, s, -FLT_MAX), then a padding bias holding
// -65504 (two masks with different finite fills).
func.func @two_finite_fills(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %keep: tensor<8x8xi1>, %pad: tensor<2x8xf16>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, j)>, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0, %keep, %pad : tensor<2x8x8xf32>, tensor<8x8xi1>, tensor<2x8xf16>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %kk: i1, %pp: f16, %o: f32):
    %lowest = arith.constant -3.40282347E+38 : f32
    %sel = arith.select %kk, %a, %lowest : f32
    %wide = arith.extf %pp : f16 to f32
    %0 = arith.addf %sel, %wide : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%mi : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x8x8xf32>) outs(%si : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%zo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
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
  %k0 = call @input3(%s2, %c2, %c16, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c2, %c8, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x8x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x16x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x8x16xf32>
  %s4 = arith.constant 4.0 : f32
  %b0 = call @input3(%s4, %c2, %c8, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %bias = tensor.cast %b0 : tensor<?x?x?xf32> to tensor<2x8x8xf32>
  // keep: a causal pattern per batch whose row 0 of batch 1 hides every key.
  %ek = tensor.empty() : tensor<2x8x8xi1>
  %keep = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel"]} outs(%ek : tensor<2x8x8xi1>) {
  ^bb0(%o: i1):
    %bi = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ule, %j, %i : index
    %first = arith.cmpi eq, %i, %bi : index
    %nf = arith.xori %first, %c : i1
    %x = arith.andi %c, %nf : i1
    %y = arith.select %first, %x, %c : i1
    linalg.yield %y : i1
  } -> tensor<2x8x8xi1>
  %t2 = arith.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %t8 = arith.constant dense<[0.5, -0.25, 1.0, 0.125, 2.0, -1.0, 0.75, 0.375]> : tensor<8xf32>
  %tri = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<8x8xf32>
  %pad = arith.constant dense<[[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-10000.0, -10000.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<2x8xf32>
  %tril = arith.constant dense<[[true, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false], [false, true, true, false, false, false, false, false], [false, false, true, true, false, false, false, false], [false, false, false, true, true, false, false, false], [false, false, false, false, true, true, false, false], [false, false, false, false, false, true, true, false], [false, false, false, false, false, false, true, true]]> : tensor<8x8xi1>
  %pad16 = arith.constant dense<[[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-65504.0, -65504.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<2x8xf16>
  %o_scale_along_keys = call @scale_along_keys(%q, %k, %v, %t8) : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<8xf32>) -> tensor<2x8x16xf32>
  %u_scale_along_keys = tensor.cast %o_scale_along_keys : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u_scale_along_keys) : (tensor<*xf32>) -> ()
  %o_bias_under_tensor_scale = call @bias_under_tensor_scale(%q, %k, %v, %t2, %bias) : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<2xf32>, tensor<2x8x8xf32>) -> tensor<2x8x16xf32>
  %u_bias_under_tensor_scale = tensor.cast %o_bias_under_tensor_scale : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u_bias_under_tensor_scale) : (tensor<*xf32>) -> ()
  %o_mask_under_tensor_scale = call @mask_under_tensor_scale(%q, %k, %v, %t2, %keep) : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<2xf32>, tensor<2x8x8xi1>) -> tensor<2x8x16xf32>
  %u_mask_under_tensor_scale = tensor.cast %o_mask_under_tensor_scale : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u_mask_under_tensor_scale) : (tensor<*xf32>) -> ()
  %o_function_under_tensor_scale = call @function_under_tensor_scale(%q, %k, %v, %t2) : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<2xf32>) -> tensor<2x8x16xf32>
  %u_function_under_tensor_scale = tensor.cast %o_function_under_tensor_scale : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u_function_under_tensor_scale) : (tensor<*xf32>) -> ()
  %o_scaled_bias_and_select = call @scaled_bias_and_select(%q, %k, %v, %bias, %keep) : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<2x8x8xf32>, tensor<2x8x8xi1>) -> tensor<2x8x16xf32>
  %u_scaled_bias_and_select = tensor.cast %o_scaled_bias_and_select : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u_scaled_bias_and_select) : (tensor<*xf32>) -> ()
  %o_multiplicative_mask = call @multiplicative_mask(%q, %k, %v, %tri, %pad) : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<8x8xf32>, tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %u_multiplicative_mask = tensor.cast %o_multiplicative_mask : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u_multiplicative_mask) : (tensor<*xf32>) -> ()
  %o_two_finite_fills = call @two_finite_fills(%q, %k, %v, %tril, %pad16) : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<8x8xi1>, tensor<2x8xf16>) -> tensor<2x8x16xf32>
  %u_two_finite_fills = tensor.cast %o_two_finite_fills : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u_two_finite_fills) : (tensor<*xf32>) -> ()
  return
}
