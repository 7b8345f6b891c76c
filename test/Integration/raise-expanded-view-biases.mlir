// Biases added to the scores through a finer view of them (SAM's
// decomposed relative positions: the [B, N, N] scores viewed as
// [B, qh, qw, kh, kw], a [.., kh] term added broadcast over kw and a
// [.., kw] term over kh, collapsed back): fa-normalize-frontend computes the
// adds on the collapsed scores with the terms broadcast and collapsed alike
// (ElementwiseUnderReshapes), and the matcher reads two biases. Raised and
// run against the unraised program.
//   @decomposed_positions   the SAM form: raised, mask = the two terms;
// Near misses, left alone (the numbers then agree trivially):
//   @positions_read_in_body a term computed from the view's positions
//                           (linalg.index 3 - linalg.index 1): on the
//                           collapsed view those indices mean other things;
//   @view_transposed        the query grid transposed in the view before
//                           the collapse: the chain is not elementwise on
//                           the view it came from.
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-raise-attention --fa-normalize-frontend --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 96 values
// RAISED: remark: attention not raised: the scores come from tensor.collapse_shape, not from a Q·Kᵀ contraction
// RAISED: remark: attention not raised: the scores come from tensor.collapse_shape, not from a Q·Kᵀ contraction
// RAISED-LABEL: func.func @decomposed_positions
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x2x4x4xf32>) scale = 1.000000e+00
// RAISED-NOT: math.exp
// RAISED-LABEL: func.func @positions_read_in_body
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @view_transposed
// RAISED-NOT: fa.attention

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>

func.func @decomposed_positions(%q: tensor<2x4x4xf32>, %kt: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %rh: tensor<2x2x2x2xf32>, %rw: tensor<2x2x2x2xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // scores.view(B, qh, qw, kh, kw) + rh[..., None] + rw[..., None, :]
  %s5 = tensor.expand_shape %s [[0], [1, 2], [3, 4]] output_shape [2, 2, 2, 2, 2] : tensor<2x4x4xf32> into tensor<2x2x2x2x2xf32>
  %e5 = tensor.empty() : tensor<2x2x2x2x2xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>,
                                      affine_map<(b, y, x, yk, xk) -> (b, y, x, yk)>,
                                      affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>],
                     iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%s5, %rh : tensor<2x2x2x2x2xf32>, tensor<2x2x2x2xf32>) outs(%e5 : tensor<2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %1 = arith.addf %a, %b : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x2x2x2xf32>
  %hw = linalg.generic {indexing_maps = [affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>,
                                       affine_map<(b, y, x, yk, xk) -> (b, y, x, xk)>,
                                       affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>],
                      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%h, %rw : tensor<2x2x2x2x2xf32>, tensor<2x2x2x2xf32>) outs(%e5 : tensor<2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %1 = arith.addf %a, %b : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x2x2x2xf32>
  %sb = tensor.collapse_shape %hw [[0], [1, 2], [3, 4]] : tensor<2x2x2x2x2xf32> into tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %es = tensor.empty() : tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%si : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x4xf32>
  %eo = tensor.empty() : tensor<2x4x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%zo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

func.func @positions_read_in_body(%q: tensor<2x4x4xf32>, %kt: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %rh: tensor<2x2x2x2xf32>, %rw: tensor<2x2x2x2xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // the height term plus (kh - qh), read from the view's loops
  %s5 = tensor.expand_shape %s [[0], [1, 2], [3, 4]] output_shape [2, 2, 2, 2, 2] : tensor<2x4x4xf32> into tensor<2x2x2x2x2xf32>
  %e5 = tensor.empty() : tensor<2x2x2x2x2xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>,
                                      affine_map<(b, y, x, yk, xk) -> (b, y, x, yk)>,
                                      affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>],
                     iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%s5, %rh : tensor<2x2x2x2x2xf32>, tensor<2x2x2x2xf32>) outs(%e5 : tensor<2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %1 = arith.addf %a, %b : f32
    %i3 = linalg.index 3 : index
    %i1 = linalg.index 1 : index
    %dd = arith.subi %i3, %i1 : index
    %di = arith.index_cast %dd : index to i32
    %df = arith.sitofp %di : i32 to f32
    %2 = arith.addf %1, %df : f32
    linalg.yield %2 : f32
  } -> tensor<2x2x2x2x2xf32>
  %hw = linalg.generic {indexing_maps = [affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>,
                                       affine_map<(b, y, x, yk, xk) -> (b, y, x, xk)>,
                                       affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>],
                      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%h, %rw : tensor<2x2x2x2x2xf32>, tensor<2x2x2x2xf32>) outs(%e5 : tensor<2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %1 = arith.addf %a, %b : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x2x2x2xf32>
  %sb = tensor.collapse_shape %hw [[0], [1, 2], [3, 4]] : tensor<2x2x2x2x2xf32> into tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %es = tensor.empty() : tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%si : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x4xf32>
  %eo = tensor.empty() : tensor<2x4x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%zo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

func.func @view_transposed(%q: tensor<2x4x4xf32>, %kt: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %rh: tensor<2x2x2x2xf32>, %rw: tensor<2x2x2x2xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // the query grid transposed in the view (y, x) -> (x, y) before the collapse
  %s5 = tensor.expand_shape %s [[0], [1, 2], [3, 4]] output_shape [2, 2, 2, 2, 2] : tensor<2x4x4xf32> into tensor<2x2x2x2x2xf32>
  %e5 = tensor.empty() : tensor<2x2x2x2x2xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>,
                                      affine_map<(b, y, x, yk, xk) -> (b, y, x, yk)>,
                                      affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>],
                     iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%s5, %rh : tensor<2x2x2x2x2xf32>, tensor<2x2x2x2xf32>) outs(%e5 : tensor<2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %1 = arith.addf %a, %b : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x2x2x2xf32>
  %hw = linalg.generic {indexing_maps = [affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>,
                                       affine_map<(b, y, x, yk, xk) -> (b, y, x, xk)>,
                                       affine_map<(b, y, x, yk, xk) -> (b, y, x, yk, xk)>],
                      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%h, %rw : tensor<2x2x2x2x2xf32>, tensor<2x2x2x2xf32>) outs(%e5 : tensor<2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %1 = arith.addf %a, %b : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x2x2x2xf32>
  %ht = linalg.transpose ins(%hw : tensor<2x2x2x2x2xf32>) outs(%e5 : tensor<2x2x2x2x2xf32>) permutation = [0, 2, 1, 3, 4]
  %sb = tensor.collapse_shape %ht [[0], [1, 2], [3, 4]] : tensor<2x2x2x2x2xf32> into tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sb : tensor<2x4x4xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %es = tensor.empty() : tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sb, %m : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%si : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%es : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x4xf32>
  %eo = tensor.empty() : tensor<2x4x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%zo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %s5 = arith.constant 5.0 : f32
  %q0 = call @input3(%s1, %c2, %c4, %c4) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<2x4x4xf32>
  %k0 = call @input3(%s2, %c2, %c4, %c4) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x4x4xf32>
  %v0 = call @input3(%s3, %c2, %c4, %c4) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x4x4xf32>
  %rh0 = call @input4(%s4, %c2, %c2, %c2, %c2) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %rh = tensor.cast %rh0 : tensor<?x?x?x?xf32> to tensor<2x2x2x2xf32>
  %rw0 = call @input4(%s5, %c2, %c2, %c2, %c2) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %rw = tensor.cast %rw0 : tensor<?x?x?x?xf32> to tensor<2x2x2x2xf32>
  %o_decomposed_positions = call @decomposed_positions(%q, %k, %v, %rh, %rw) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x2x2x2xf32>, tensor<2x2x2x2xf32>) -> tensor<2x4x4xf32>
  %p_decomposed_positions = tensor.cast %o_decomposed_positions : tensor<2x4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p_decomposed_positions) : (tensor<*xf32>) -> ()
  %o_positions_read_in_body = call @positions_read_in_body(%q, %k, %v, %rh, %rw) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x2x2x2xf32>, tensor<2x2x2x2xf32>) -> tensor<2x4x4xf32>
  %p_positions_read_in_body = tensor.cast %o_positions_read_in_body : tensor<2x4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p_positions_read_in_body) : (tensor<*xf32>) -> ()
  %o_view_transposed = call @view_transposed(%q, %k, %v, %rh, %rw) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x2x2x2xf32>, tensor<2x2x2x2xf32>) -> tensor<2x4x4xf32>
  %p_view_transposed = tensor.cast %o_view_transposed : tensor<2x4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p_view_transposed) : (tensor<*xf32>) -> ()
  return
}

