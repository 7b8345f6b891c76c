// Length biases clamped with constants: the recognizer folds max and min
// over a length mask's two values (inside the sequence, past it).
// - max(select(j < L, 0, -inf), lowest): torch's clamp(min=finfo.min) of
//   the padding bias; 0 inside, the lowest finite f32 past: kv_lengths;
// - min(select(j < L, 0, -inf), 0): 0 inside, -inf past: kv_lengths.
// (A max folded as min, or a min as max, leaves a bias inside the
// sequence or none past it, and the mask would stay a mask.)
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @bias_clamped_below
// CHECK: fa.attention {{.*}} kv_lengths(
// CHECK-NOT: mask(
// CHECK: return
#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#pv_o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#bcast = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
#id2 = affine_map<(b, j) -> (b, j)>
#len1 = affine_map<(b, j) -> (b)>
func.func @bias_clamped_below(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2xi64>) -> tensor<2x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x2x3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
  %x = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>) outs(%z : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x5xf32>
  %me = tensor.empty() : tensor<2x5xi1>
  %keep = linalg.generic {indexing_maps = [#len1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lengths : tensor<2xi64>) outs(%me : tensor<2x5xi1>) {
  ^bb0(%len: i64, %out: i1):
    %jx = linalg.index 1 : index
    %j = arith.index_cast %jx : index to i64
    %c = arith.cmpi slt, %j, %len : i64
    linalg.yield %c : i1
  } -> tensor<2x5xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, 5] : tensor<2x5xi1> into tensor<2x1x1x5xi1>
  %fill = arith.constant -1.000000e+04 : f32
  %one = arith.constant 1.0 : f32
  %be = tensor.empty() : tensor<2x1x1x5xf32>
  %bias = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%keep4 : tensor<2x1x1x5xi1>) outs(%be : tensor<2x1x1x5xf32>) {
  ^bb0(%m: i1, %out: f32):
    %open = arith.constant 0.0 : f32
    %closed = arith.constant 0xFF800000 : f32
    %lowest = arith.constant -3.40282347E+38 : f32
    %s = arith.select %m, %open, %closed : f32
    %b = arith.maximumf %s, %lowest : f32
    linalg.yield %b : f32
  } -> tensor<2x1x1x5xf32>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %bias : tensor<2x2x3x5xf32>, tensor<2x1x1x5xf32>) outs(%e : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x5xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x5xf32>) outs(%e : tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
  %oe = tensor.empty() : tensor<2x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x3x5xf32>, tensor<2x2x5x4xf32>) outs(%oz : tensor<2x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @bias_clamped_above
// CHECK: fa.attention {{.*}} kv_lengths(
// CHECK-NOT: mask(
// CHECK: return
#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#pv_o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#bcast = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
#id2 = affine_map<(b, j) -> (b, j)>
#len1 = affine_map<(b, j) -> (b)>
func.func @bias_clamped_above(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2xi64>) -> tensor<2x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x2x3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
  %x = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>) outs(%z : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x5xf32>
  %me = tensor.empty() : tensor<2x5xi1>
  %keep = linalg.generic {indexing_maps = [#len1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lengths : tensor<2xi64>) outs(%me : tensor<2x5xi1>) {
  ^bb0(%len: i64, %out: i1):
    %jx = linalg.index 1 : index
    %j = arith.index_cast %jx : index to i64
    %c = arith.cmpi slt, %j, %len : i64
    linalg.yield %c : i1
  } -> tensor<2x5xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, 5] : tensor<2x5xi1> into tensor<2x1x1x5xi1>
  %fill = arith.constant -1.000000e+04 : f32
  %one = arith.constant 1.0 : f32
  %be = tensor.empty() : tensor<2x1x1x5xf32>
  %bias = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%keep4 : tensor<2x1x1x5xi1>) outs(%be : tensor<2x1x1x5xf32>) {
  ^bb0(%m: i1, %out: f32):
    %open = arith.constant 0.0 : f32
    %closed = arith.constant 0xFF800000 : f32
    %s = arith.select %m, %open, %closed : f32
    %b = arith.minimumf %s, %open : f32
    linalg.yield %b : f32
  } -> tensor<2x1x1x5xf32>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %bias : tensor<2x2x3x5xf32>, tensor<2x1x1x5xf32>) outs(%e : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x5xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x5xf32>) outs(%e : tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
  %oe = tensor.empty() : tensor<2x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x3x5xf32>, tensor<2x2x5x4xf32>) outs(%oz : tensor<2x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}
