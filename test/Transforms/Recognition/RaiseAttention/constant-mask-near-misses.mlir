// Constant masks that are triangular along a dim other than the query's or
// the key's stay masks: a causal mask relates a query row to a key.
// RUN: fa-opt %s -split-input-file --fa-raise-attention | FileCheck %s

// The keep pattern follows the batch (B = Nq = 3, keep j <= b + 2), which
// bottom-right causal would turn into j <= i + 2.
// CHECK-LABEL: func.func @constant_mask_over_batches
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: causal
// CHECK: return
#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#pv_o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#bcast = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
func.func @constant_mask_over_batches(%q: tensor<3x2x3x4xf32>, %k: tensor<3x2x5x4xf32>, %v: tensor<3x2x5x4xf32>) -> tensor<3x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3x2x3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2x3x5xf32>) -> tensor<3x2x3x5xf32>
  %x = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<3x2x3x4xf32>, tensor<3x2x5x4xf32>) outs(%z : tensor<3x2x3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x2x3x5xf32>
  %keep4 = arith.constant dense<[[[[true, true, true, false, false]]], [[[true, true, true, true, false]]], [[[true, true, true, true, true]]]]> : tensor<3x1x1x5xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<3x2x3x5xf32>, tensor<3x1x1x5xi1>) outs(%e : tensor<3x2x3x5xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<3x2x3x5xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<3x2x3x5xf32>) outs(%e : tensor<3x2x3x5xf32>) -> tensor<3x2x3x5xf32>
  %oe = tensor.empty() : tensor<3x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<3x2x3x4xf32>) -> tensor<3x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<3x2x3x5xf32>, tensor<3x2x5x4xf32>) outs(%oz : tensor<3x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x2x3x4xf32>
  return %o : tensor<3x2x3x4xf32>
}

// -----

// The keep pattern follows the batch where the key should be (B = Nk = 5,
// keep b <= i + 2, the same for every key): bottom-right causal would
// turn it into j <= i + 2.
// CHECK-LABEL: func.func @constant_mask_keys_from_batches
// CHECK: fa.attention {{.*}} mask(
// CHECK-NOT: causal
// CHECK: return
#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#pv_o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#bcast = affine_map<(b, h, i, j) -> (b, 0, i, 0)>
func.func @constant_mask_keys_from_batches(%q: tensor<5x2x3x4xf32>, %k: tensor<5x2x5x4xf32>, %v: tensor<5x2x5x4xf32>) -> tensor<5x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<5x2x3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5x2x3x5xf32>) -> tensor<5x2x3x5xf32>
  %x = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<5x2x3x4xf32>, tensor<5x2x5x4xf32>) outs(%z : tensor<5x2x3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<5x2x3x5xf32>
  %keep4 = arith.constant dense<[[[[true], [true], [true]]], [[[true], [true], [true]]], [[[true], [true], [true]]], [[[false], [true], [true]]], [[[false], [false], [true]]]]> : tensor<5x1x3x1xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<5x2x3x5xf32>, tensor<5x1x3x1xi1>) outs(%e : tensor<5x2x3x5xf32>) {
  ^bb0(%a: f32, %m: i1, %out: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<5x2x3x5xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<5x2x3x5xf32>) outs(%e : tensor<5x2x3x5xf32>) -> tensor<5x2x3x5xf32>
  %oe = tensor.empty() : tensor<5x2x3x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<5x2x3x4xf32>) -> tensor<5x2x3x4xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<5x2x3x5xf32>, tensor<5x2x5x4xf32>) outs(%oz : tensor<5x2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<5x2x3x4xf32>
  return %o : tensor<5x2x3x4xf32>
}
