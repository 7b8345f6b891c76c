// A select whose condition, computed in its own body, reads the scores
// and the positions (keep the positive scores at or before the diagonal):
// not a mask, and no score_mod either (a comparison of the score is read,
// but not its conjunction with a position test). The recognizer materializes
// in-body masks as tensors while it matches (raise-masks-in-select-body.mlir);
// a refused candidate must leave the IR exactly as it was.
// RUN: fa-opt %s --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s
// RUN: fa-opt %s > %t.before
// RUN: fa-opt %s --fa-raise-attention > %t.after
// RUN: diff %t.before %t.after
// CHECK-NOT: fa.attention
// CHECK-NOT: tensor<2x8x8xi1>

#id = affine_map<(h, i, j) -> (h, i, j)>

func.func @mask_reads_the_scores(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %et = tensor.empty() : tensor<2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<2x8x4xf32>) outs(%et : tensor<2x4x8xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %zero2 = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %a, %zero2 : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %past = arith.cmpi sle, %j, %i : index
    %c = arith.andi %pos, %past : i1
    %y = arith.select %c, %a, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the select's condition is computed in its body from the scores, or from values other than its other inputs and the loop indices}}
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

