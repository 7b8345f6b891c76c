// Padding masks that are not exactly per-sequence lengths stay masks: the
// attention is raised with its mask, and kv_lengths is not used. Where the
// mask compares key positions with a length, explain=true says why in a
// remark. (The exact forms are in test/Integration/raise-length-masks.mlir,
// with numbers.)
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s

// -----

// j <= L shows L + 1 keys.
// CHECK-LABEL: func.func @less_equal
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @less_equal(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2xi64>) -> tensor<2x2x3x4xf32> {
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
    %c = arith.cmpi sle, %j, %len : i64
    linalg.yield %c : i1
  } -> tensor<2x5xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, 5] : tensor<2x5xi1> into tensor<2x1x1x5xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x5xf32>, tensor<2x1x1x5xi1>) outs(%e : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x5xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x5xf32>) outs(%e : tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
  %oe = tensor.empty() : tensor<2x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  // expected-remark @+1 {{attention raised; its mask stays a mask, not kv_lengths: the key position is compared with the length by `j <= L` (or `L < j`), which shows one key more than the length; kv_lengths counts the visible keys}}
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

// An unsigned j < L shows every key of a negative length.
// CHECK-LABEL: func.func @unsigned_less
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @unsigned_less(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2xi64>) -> tensor<2x2x3x4xf32> {
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
    %c = arith.cmpi ult, %j, %len : i64
    linalg.yield %c : i1
  } -> tensor<2x5xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, 5] : tensor<2x5xi1> into tensor<2x1x1x5xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x5xf32>, tensor<2x1x1x5xi1>) outs(%e : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x5xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x5xf32>) outs(%e : tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
  %oe = tensor.empty() : tensor<2x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  // expected-remark @+1 {{attention raised; its mask stays a mask, not kv_lengths: the key position is compared with the length unsigned, where a negative length shows every key; kv_lengths clamps it to 0}}
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

// select(j < L, -inf, s) hides the sequence and shows the padding.
// CHECK-LABEL: func.func @keeps_padding
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @keeps_padding(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2xi64>) -> tensor<2x2x3x4xf32> {
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
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x5xf32>, tensor<2x1x1x5xi1>) outs(%e : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %neginf, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x5xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x5xf32>) outs(%e : tensor<2x2x3x5xf32>) -> tensor<2x2x3x5xf32>
  %oe = tensor.empty() : tensor<2x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  // expected-remark @+1 {{attention raised; its mask stays a mask, not kv_lengths: the mask hides keys inside the sequence (j < L), not only those past it}}
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

// The BERT-era bias (1 - m) * -10000: padding keys keep a weight.
// CHECK-LABEL: func.func @bias_minus_10000
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @bias_minus_10000(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2xi64>) -> tensor<2x2x3x4xf32> {
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
    %f = arith.uitofp %m : i1 to f32
    %n = arith.subf %one, %f : f32
    %b = arith.mulf %n, %fill : f32
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
  // expected-remark @+1 {{attention raised; its mask stays a mask, not kv_lengths: the bias hides keys past the length with -10000, not -inf or the lowest finite f32: those keys keep a weight (all of it in a row of a length-0 sequence), so it stays a bias}}
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

// -65504 (finfo(f16).min) added in f32 does not round scores away.
// CHECK-LABEL: func.func @bias_lowest_f16_value
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @bias_lowest_f16_value(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2xi64>) -> tensor<2x2x3x4xf32> {
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
  %fill = arith.constant -6.550400e+04 : f32
  %one = arith.constant 1.0 : f32
  %be = tensor.empty() : tensor<2x1x1x5xf32>
  %bias = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%keep4 : tensor<2x1x1x5xi1>) outs(%be : tensor<2x1x1x5xf32>) {
  ^bb0(%m: i1, %out: f32):
    %f = arith.uitofp %m : i1 to f32
    %n = arith.subf %one, %f : f32
    %b = arith.mulf %n, %fill : f32
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
  // expected-remark @+1 {{attention raised; its mask stays a mask, not kv_lengths: the bias hides keys past the length with -65504, not -inf or the lowest finite f32: those keys keep a weight (all of it in a row of a length-0 sequence), so it stays a bias}}
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

// A length per (sequence, head) is not kv_lengths (one per sequence).
// CHECK-LABEL: func.func @lengths_per_head
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @lengths_per_head(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2x2xi64>) -> tensor<2x2x3x4xf32> {
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
  %me = tensor.empty() : tensor<2x2x1x5xi1>
  %keep4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%lengths : tensor<2x2xi64>) outs(%me : tensor<2x2x1x5xi1>) {
  ^bb0(%len: i64, %out: i1):
    %jx = linalg.index 3 : index
    %j = arith.index_cast %jx : index to i64
    %c = arith.cmpi slt, %j, %len : i64
    linalg.yield %c : i1
  } -> tensor<2x2x1x5xi1>
  %masked = linalg.generic {indexing_maps = [#id4, affine_map<(b, h, i, j) -> (b, h, 0, j)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x5xf32>, tensor<2x2x1x5xi1>) outs(%e : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
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

// i < L hides query rows, not keys.
// CHECK-LABEL: func.func @query_position_compared
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @query_position_compared(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2xi64>) -> tensor<2x2x3x4xf32> {
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
  %me = tensor.empty() : tensor<2x1x3x5xi1>
  %keep4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%lengths : tensor<2xi64>) outs(%me : tensor<2x1x3x5xi1>) {
  ^bb0(%len: i64, %out: i1):
    %ix = linalg.index 2 : index
    %i = arith.index_cast %ix : index to i64
    %c = arith.cmpi slt, %i, %len : i64
    linalg.yield %c : i1
  } -> tensor<2x1x3x5xi1>
  %masked = linalg.generic {indexing_maps = [#id4, affine_map<(b, h, i, j) -> (b, 0, i, j)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x5xf32>, tensor<2x1x3x5xi1>) outs(%e : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
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

// A causal mask and a length mask in one tensor stay one explicit mask.
// CHECK-LABEL: func.func @causal_and_length
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @causal_and_length(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %lengths: tensor<2xi64>) -> tensor<2x2x3x4xf32> {
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
  %me = tensor.empty() : tensor<2x1x3x5xi1>
  %keep4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%lengths : tensor<2xi64>) outs(%me : tensor<2x1x3x5xi1>) {
  ^bb0(%len: i64, %out: i1):
    %ix = linalg.index 2 : index
    %jx = linalg.index 3 : index
    %i = arith.index_cast %ix : index to i64
    %j = arith.index_cast %jx : index to i64
    %c = arith.cmpi slt, %j, %len : i64
    %d = arith.cmpi sle, %j, %i : i64
    %both = arith.andi %c, %d : i1
    linalg.yield %both : i1
  } -> tensor<2x1x3x5xi1>
  %masked = linalg.generic {indexing_maps = [#id4, affine_map<(b, h, i, j) -> (b, 0, i, j)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x5xf32>, tensor<2x1x3x5xi1>) outs(%e : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
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

// A 0/1 key mask passed in is not known to be a prefix of each sequence.
// CHECK-LABEL: func.func @runtime_key_mask
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @runtime_key_mask(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x5x4xf32>, %v: tensor<2x2x5x4xf32>, %keys: tensor<2x5xi1>) -> tensor<2x2x3x4xf32> {
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
  %keep4 = tensor.expand_shape %keys [[0], [1, 2, 3]] output_shape [2, 1, 1, 5] : tensor<2x5xi1> into tensor<2x1x1x5xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x5xf32>, tensor<2x1x1x5xi1>) outs(%e : tensor<2x2x3x5xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
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

// One key (Nk = 1): the iota of key positions is the one-element constant
// 0, and `L > 0` is `j < L` for the only key j = 0: kv_lengths.
// CHECK-LABEL: func.func @one_key_length
// CHECK: fa.attention {{.*}} kv_lengths(
// CHECK-NOT: mask(
// CHECK: return
func.func @one_key_length(%q: tensor<2x5x4xf32>, %k: tensor<2x1x4xf32>, %v: tensor<2x1x4xf32>, %len: tensor<1x1x1xi32>) -> tensor<2x5x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x1x4xf32>) -> tensor<2x4x1xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x5x4xf32>, tensor<2x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x1xf32>
  %iota = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %keep = tosa.greater %len, %iota : (tensor<1x1x1xi32>, tensor<1x1x1xi32>) -> tensor<1x1x1xi1>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %x = tosa.select %keep, %s, %ninf : (tensor<1x1x1xi1>, tensor<2x5x1xf32>, tensor<1x1x1xf32>) -> tensor<2x5x1xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x5x1xf32>, tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %e = tosa.exp %d : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x5x1xf32>, tensor<2x5x1xf32>, tensor<1xi8>) -> tensor<2x5x1xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x5x1xf32>, tensor<2x1x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x4xf32>
  return %o : tensor<2x5x4xf32>
}

// -----

// Three keys: `L > 0` hides all keys or none, not those past L: a mask.
// CHECK-LABEL: func.func @length_against_zero
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
// CHECK: return
func.func @length_against_zero(%q: tensor<2x5x4xf32>, %k: tensor<2x3x4xf32>, %v: tensor<2x3x4xf32>, %len: tensor<1x1x1xi32>) -> tensor<2x5x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x5x4xf32>, tensor<2x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x3xf32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %keep = tosa.greater %len, %zero : (tensor<1x1x1xi32>, tensor<1x1x1xi32>) -> tensor<1x1x1xi1>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %x = tosa.select %keep, %s, %ninf : (tensor<1x1x1xi1>, tensor<2x5x3xf32>, tensor<1x1x1xf32>) -> tensor<2x5x3xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x5x3xf32>) -> tensor<2x5x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x5x3xf32>, tensor<2x5x1xf32>) -> tensor<2x5x3xf32>
  %e = tosa.exp %d : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x5x3xf32>) -> tensor<2x5x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x5x3xf32>, tensor<2x5x1xf32>, tensor<1xi8>) -> tensor<2x5x3xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x5x3xf32>, tensor<2x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x4xf32>
  return %o : tensor<2x5x4xf32>
}

// -----

// A dynamic key length is taken to fit in i32 (kv_lengths are i32), so the
// key position cast to i32 is still j: the mask becomes kv_lengths.
// CHECK-LABEL: func.func @index_cast_i32_dynamic
// CHECK: fa.attention {{.*}} kv_lengths(
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
func.func @index_cast_i32_dynamic(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x?x4xf32>, %v: tensor<2x2x?x4xf32>, %lengths: tensor<2xi32>) -> tensor<2x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %nk = tensor.dim %k, %c2 : tensor<2x2x?x4xf32>
  %neginf = arith.constant 0xFF800000 : f32
  %e = tensor.empty(%nk) : tensor<2x2x3x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x3x?xf32>) -> tensor<2x2x3x?xf32>
  %x = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x3x4xf32>, tensor<2x2x?x4xf32>) outs(%z : tensor<2x2x3x?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x?xf32>
  %me = tensor.empty(%nk) : tensor<2x?xi1>
  %keep = linalg.generic {indexing_maps = [#len1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lengths : tensor<2xi32>) outs(%me : tensor<2x?xi1>) {
  ^bb0(%len: i32, %out: i1):
    %jx = linalg.index 1 : index
    %j = arith.index_cast %jx : index to i32
    %c = arith.cmpi slt, %j, %len : i32
    linalg.yield %c : i1
  } -> tensor<2x?xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, %nk] : tensor<2x?xi1> into tensor<2x1x1x?xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x?xf32>, tensor<2x1x1x?xi1>) outs(%e : tensor<2x2x3x?xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x?xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x?xf32>) outs(%e : tensor<2x2x3x?xf32>) -> tensor<2x2x3x?xf32>
  %oe = tensor.empty() : tensor<2x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x3x?xf32>, tensor<2x2x?x4xf32>) outs(%oz : tensor<2x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

// -----

// Cast to i16, the key position of a dynamic key length may wrap (keys past
// 32767 would compare negative): it is not j, and the mask stays a mask.
// CHECK-LABEL: func.func @narrow_dynamic
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @narrow_dynamic(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x?x4xf32>, %v: tensor<2x2x?x4xf32>, %lengths: tensor<2xi16>) -> tensor<2x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %nk = tensor.dim %k, %c2 : tensor<2x2x?x4xf32>
  %neginf = arith.constant 0xFF800000 : f32
  %e = tensor.empty(%nk) : tensor<2x2x3x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x3x?xf32>) -> tensor<2x2x3x?xf32>
  %x = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x3x4xf32>, tensor<2x2x?x4xf32>) outs(%z : tensor<2x2x3x?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x?xf32>
  %me = tensor.empty(%nk) : tensor<2x?xi1>
  %keep = linalg.generic {indexing_maps = [#len1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lengths : tensor<2xi16>) outs(%me : tensor<2x?xi1>) {
  ^bb0(%len: i16, %out: i1):
    %jx = linalg.index 1 : index
    %j = arith.index_cast %jx : index to i16
    %c = arith.cmpi slt, %j, %len : i16
    linalg.yield %c : i1
  } -> tensor<2x?xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, %nk] : tensor<2x?xi1> into tensor<2x1x1x?xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x?xf32>, tensor<2x1x1x?xi1>) outs(%e : tensor<2x2x3x?xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x?xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x?xf32>) outs(%e : tensor<2x2x3x?xf32>) -> tensor<2x2x3x?xf32>
  %oe = tensor.empty() : tensor<2x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x3x?xf32>, tensor<2x2x?x4xf32>) outs(%oz : tensor<2x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}

// -----

// Truncated to i8, the key positions 128..199 of Nk = 200 compare as
// negative numbers: the cast is not j, and the mask stays a mask (i8 holds
// key positions up to 127 only).
// CHECK-LABEL: func.func @narrow_to_i8_static
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: kv_lengths
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
func.func @narrow_to_i8_static(%q: tensor<2x2x3x4xf32>, %k: tensor<2x2x200x4xf32>, %v: tensor<2x2x200x4xf32>, %lengths: tensor<2xi8>) -> tensor<2x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x2x3x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x3x200xf32>) -> tensor<2x2x3x200xf32>
  %x = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x3x4xf32>, tensor<2x2x200x4xf32>) outs(%z : tensor<2x2x3x200xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x200xf32>
  %me = tensor.empty() : tensor<2x200xi1>
  %keep = linalg.generic {indexing_maps = [#len1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lengths : tensor<2xi8>) outs(%me : tensor<2x200xi1>) {
  ^bb0(%len: i8, %out: i1):
    %jx = linalg.index 1 : index
    %j = arith.index_cast %jx : index to i8
    %c = arith.cmpi slt, %j, %len : i8
    linalg.yield %c : i1
  } -> tensor<2x200xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [2, 1, 1, 200] : tensor<2x200xi1> into tensor<2x1x1x200xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<2x2x3x200xf32>, tensor<2x1x1x200xi1>) outs(%e : tensor<2x2x3x200xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x200xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<2x2x3x200xf32>) outs(%e : tensor<2x2x3x200xf32>) -> tensor<2x2x3x200xf32>
  %oe = tensor.empty() : tensor<2x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x3x200xf32>, tensor<2x2x200x4xf32>) outs(%oz : tensor<2x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x4xf32>
  return %o : tensor<2x2x3x4xf32>
}
