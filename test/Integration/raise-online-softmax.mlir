// One tile of an online softmax written out (IREE's decomposed online
// attention, Transforms/Recognition/RaiseAttention/online-softmax.mlir): raised to one
// fa.attention, and the same numbers as the program's own ops, on the host
// and across key blocks of 4.
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 256 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @online_one_tile
// RAISED: fa.attention
// RAISED-NOT: math.exp

#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>
#r2 = affine_map<(b, i) -> (b, i)>
#qk_q = affine_map<(b, i, j, d) -> (b, i, d)>
#qk_k = affine_map<(b, i, j, d) -> (b, j, d)>
#qk_s = affine_map<(b, i, j, d) -> (b, i, j)>
#pv_p = affine_map<(b, i, d, j) -> (b, i, j)>
#pv_v = affine_map<(b, i, d, j) -> (b, j, d)>
#pv_o = affine_map<(b, i, d, j) -> (b, i, d)>
#o_r = affine_map<(b, i, d) -> (b, i)>
#o_id = affine_map<(b, i, d) -> (b, i, d)>
func.func @online_one_tile(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %start = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%z : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %max0 = linalg.fill ins(%start : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %maxinit = linalg.fill ins(%start : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %newmax = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%maxinit : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  // The rescale of the running sum and accumulator: exp(m0 - m).
  %alpha = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%newmax : tensor<2x8xf32>) outs(%max0 : tensor<2x8xf32>) {
  ^bb0(%m: f32, %old: f32):
    %0 = arith.subf %old, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8xf32>
  %sumr = linalg.generic {indexing_maps = [#r2, #r2], iterator_types = ["parallel", "parallel"]} ins(%alpha : tensor<2x8xf32>) outs(%sum0 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %old: f32):
    %0 = arith.mulf %a, %old : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %newmax : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p : tensor<2x8x8xf32>) outs(%sumr : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %accr = linalg.generic {indexing_maps = [#o_r, #o_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alpha : tensor<2x8xf32>) outs(%acc0 : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %old: f32):
    %0 = arith.mulf %a, %old : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  %acc = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%accr : tensor<2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x16xf32>
  %out = linalg.generic {indexing_maps = [#o_r, #o_id, #o_id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum, %acc : tensor<2x8xf32>, tensor<2x8x16xf32>) outs(%eo : tensor<2x8x16xf32>) {
  ^bb0(%l: f32, %x: f32, %o: f32):
    %0 = arith.divf %x, %l : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x16xf32>
  return %out : tensor<2x8x16xf32>
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
  %o = call @online_one_tile(%q, %k, %v) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %u = tensor.cast %o : tensor<2x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
