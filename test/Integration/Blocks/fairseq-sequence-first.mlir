// fairseq / torch.nn.MultiheadAttention through torch-mlir: projections
// come out sequence-first, [N, B*H, D] (`q.contiguous().view(tgt_len,
// bsz * num_heads, head_dim)`), and are transposed to [B*H, N, D] for
// torch.bmm; q is scaled by head_dim ** -0.5 before the bmm; K is
// transposed once more for the scores. Raised: the op reads the
// sequence-first Q, K and V through its own transposes; the frontend's
// transposes die with the pattern.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 768 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @multihead_attention
// RAISED-COUNT-3: linalg.transpose ins(%arg{{[0-2]}} : tensor<12x4x16xf32>) {{.*}} permutation = [1, 0, 2]
// RAISED: fa.attention {{.*}} scale = 2.500000e-01 : tensor<1x4x12x16xf32>
// RAISED-NOT: linalg.softmax
// RAISED: return

func.func @multihead_attention(%q: tensor<12x4x16xf32>, %k: tensor<12x4x16xf32>, %v: tensor<12x4x16xf32>) -> tensor<4x12x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 2.500000e-01 : f32
  %0 = tensor.empty() : tensor<4x12x16xf32>
  %transposed = linalg.transpose ins(%q : tensor<12x4x16xf32>) outs(%0 : tensor<4x12x16xf32>) permutation = [1, 0, 2]
  %transposed_1 = linalg.transpose ins(%k : tensor<12x4x16xf32>) outs(%0 : tensor<4x12x16xf32>) permutation = [1, 0, 2]
  %transposed_2 = linalg.transpose ins(%v : tensor<12x4x16xf32>) outs(%0 : tensor<4x12x16xf32>) permutation = [1, 0, 2]
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<4x12x16xf32>) outs(%0 : tensor<4x12x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %10 = arith.mulf %in, %cst_0 : f32
    linalg.yield %10 : f32
  } -> tensor<4x12x16xf32>
  %2 = tensor.empty() : tensor<4x16x12xf32>
  %transposed_3 = linalg.transpose ins(%transposed_1 : tensor<4x12x16xf32>) outs(%2 : tensor<4x16x12xf32>) permutation = [0, 2, 1]
  %3 = tensor.empty() : tensor<4x12x12xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x12x12xf32>) -> tensor<4x12x12xf32>
  %5 = linalg.batch_matmul ins(%1, %transposed_3 : tensor<4x12x16xf32>, tensor<4x16x12xf32>) outs(%4 : tensor<4x12x12xf32>) -> tensor<4x12x12xf32>
  %6 = linalg.softmax dimension(2) ins(%5 : tensor<4x12x12xf32>) outs(%3 : tensor<4x12x12xf32>) -> tensor<4x12x12xf32>
  %7 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x12x16xf32>) -> tensor<4x12x16xf32>
  %8 = linalg.batch_matmul ins(%6, %transposed_2 : tensor<4x12x12xf32>, tensor<4x12x16xf32>) outs(%7 : tensor<4x12x16xf32>) -> tensor<4x12x16xf32>
  return %8 : tensor<4x12x16xf32>
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input3(%s1, %c12, %c4, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c12, %c4, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c12, %c4, %c16) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<12x4x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<12x4x16xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<12x4x16xf32>
  %o = call @multihead_attention(%q, %k, %v) : (tensor<12x4x16xf32>, tensor<12x4x16xf32>, tensor<12x4x16xf32>) -> tensor<4x12x16xf32>
  %u = tensor.cast %o : tensor<4x12x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
