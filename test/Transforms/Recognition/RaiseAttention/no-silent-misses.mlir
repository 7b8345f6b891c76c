// No silent misses: every exp or linalg.softmax whose result reaches a
// contraction without passing a reduction is a candidate. When the walk back
// from the contraction (which looks through elementwise ops and reshapes,
// at most 8 of them) never reaches it, the exp itself gets the remark, and
// it counts as a refused candidate.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// RUN: fa-opt %s --fa-raise-attention=print-counts=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNTS
// COUNTS: remark: fa-raise-attention: 3 candidates, 0 raised, 3 rejected (structure)

// P sliced before P·V: tensor.extract_slice is not looked through.
// CHECK-LABEL: func.func @sliced_probabilities
// CHECK-NOT: fa.attention
func.func @sliced_probabilities(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x6x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: it reaches linalg.batch_matmul only through tensor.extract_slice, which the recognizer does not look through}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %ps = tensor.extract_slice %p[0, 0, 0] [2, 8, 6] [1, 1, 1] : tensor<2x8x8xf32> to tensor<2x8x6xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%ps, %v : tensor<2x8x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// Nine elementwise steps between the exp and P·V: more than the walk back
// follows.
// CHECK-LABEL: func.func @far_exp
// CHECK-NOT: fa.attention
func.func @far_exp(%x: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant dense<1.5> : tensor<4x4xf32>
  // expected-remark @+1 {{attention not raised: it reaches linalg.matmul through 9 ops, more than the recognizer follows}}
  %e0 = math.exp %x : tensor<4x4xf32>
  %e1 = arith.mulf %e0, %c : tensor<4x4xf32>
  %e2 = arith.mulf %e1, %c : tensor<4x4xf32>
  %e3 = arith.mulf %e2, %c : tensor<4x4xf32>
  %e4 = arith.mulf %e3, %c : tensor<4x4xf32>
  %e5 = arith.mulf %e4, %c : tensor<4x4xf32>
  %e6 = arith.mulf %e5, %c : tensor<4x4xf32>
  %e7 = arith.mulf %e6, %c : tensor<4x4xf32>
  %e8 = arith.mulf %e7, %c : tensor<4x4xf32>
  %e9 = arith.mulf %e8, %c : tensor<4x4xf32>
  %eo = tensor.empty() : tensor<4x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = linalg.matmul ins(%e9, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%zo : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----

// A softmax padded along the keys before P·V (tensor.pad).
// CHECK-LABEL: func.func @padded_probabilities
// CHECK-NOT: fa.attention
func.func @padded_probabilities(%s: tensor<8x6xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  // expected-remark @+1 {{attention not raised: it reaches linalg.matmul only through tensor.pad, which the recognizer does not look through}}
  %p = linalg.softmax dimension(1) ins(%s : tensor<8x6xf32>) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %pp = tensor.pad %p low[0, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x6xf32> to tensor<8x8xf32>
  %eo = tensor.empty() : tensor<8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x4xf32>) -> tensor<8x4xf32>
  %o = linalg.matmul ins(%pp, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%zo : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}
