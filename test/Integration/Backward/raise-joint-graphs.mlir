// Joint forward + backward graphs (the unfused attention and its autodiff,
// as frontends emit them for training) are raised to fa.attention +
// fa.attention_backward, and run raised and as written on the same inputs:
// O, dQ, dK and dV must agree to f32 rounding. Three spellings:
// - @generic_causal: linalg.generic on [B, H, N, D], a causal keep-mask by
//   select, the scale on the scores, torch's softmax backward
//   P∘(dP − rowsum(dP∘P)) with the row sum fused into one generic, the
//   scale and masked_fill's backward select on dS, dK written as
//   [B, H, D, Nk];
// - @torch_batch_matmul: torch-mlir's [B*H, N, D] batch_matmul with
//   transposes, Nq ≠ Nk and D ≠ Dv, linalg.softmax, Q scaled before Q·Kᵀ,
//   the row term rowsum(dO∘O), dQ scaled after its matmul, dK read from the
//   scaled Q;
// - @torch_4d_autograd: torch-mlir's lowering of AOTAutograd's joint graph
//   on [B, H, N, D], every matmul a batch_matmul on [B·H, ...] between
//   collapse_shape and expand_shape, dK from d(Kᵀ) = Qᵀ·dS transposed back;
// - @tosa_jax: TOSA, with JAX's softmax backward P∘dP − P∘rowsum(P∘dP)
//   and dO computed after O from it (the backward op goes after dO).
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// The row term with its factors the other way round, rowsum(O∘dO):
// RUN: sed 's/linalg.mul ins(%do, %o :/linalg.mul ins(%o, %do :/' %s > %t.swapped.mlir
// RUN: fa-opt %t.swapped.mlir --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %t.swapped.mlir --fa-cpu-pipeline | %mlir-run > %t.swapped
// RUN: %compare %t.swapped %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// dP = dO·Vᵀ with its operands the other way round, generic(V, dO):
// RUN: sed -e 's/%%dp = linalg.generic {indexing_maps = \[#q4, #k4, #s4\]/%%dp = linalg.generic {indexing_maps = [#k4, #q4, #s4]/' -e 's/ins(%%do, %%v : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) outs(%%z4/ins(%%v, %%do : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) outs(%%z4/' %s > %t.dp-swapped.mlir
// RUN: fa-opt %t.dp-swapped.mlir --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %t.dp-swapped.mlir --fa-cpu-pipeline | %mlir-run > %t.dp-swapped
// RUN: %compare %t.dp-swapped %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 758 values

// No N×N tensor is left in a raised function.
// RAISED-LABEL: func.func @generic_causal
// RAISED: %[[O:.*]], %[[L:.*]] = fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 5.000000e-01 causal = bottom_right
// RAISED: %{{.*}}, %[[DK:.*]], %{{.*}} = fa.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %[[O]], %{{.*}}, %[[L]] scale = 5.000000e-01 causal = bottom_right
// RAISED: linalg.transpose ins(%[[DK]] : tensor<1x2x6x4xf32>) {{.*}} permutation = [0, 1, 3, 2]
// RAISED-NOT: 6x6xf32
// RAISED-LABEL: func.func @torch_batch_matmul
// RAISED: %[[O:.*]], %[[L:.*]] = fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 2.500000e-01 : tensor<1x2x6x4xf32>, tensor<1x2x7x4xf32>, tensor<1x2x7x3xf32>
// RAISED: fa.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %[[O]], %{{.*}}, %[[L]] scale = 2.500000e-01 :
// RAISED-SAME: -> tensor<1x2x6x4xf32>, tensor<1x2x7x4xf32>, tensor<1x2x7x3xf32>
// RAISED-NOT: 6x7xf32
// RAISED-NOT: 7x6xf32
// RAISED-LABEL: func.func @torch_4d_autograd
// RAISED: %[[O:.*]], %[[L:.*]] = fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 5.000000e-01 : tensor<1x2x6x4xf32>
// RAISED: fa.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %[[O]], %arg3, %[[L]] scale = 5.000000e-01 :
// RAISED-NOT: 6x6xf32
// RAISED-LABEL: func.func @tosa_jax
// RAISED: %[[O:.*]], %[[L:.*]] = fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 0.35355338454246521
// RAISED: tosa.sub %{{.*}}, %{{.*}} : (tensor<2x6x4xf32>
// RAISED: fa.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %[[O]], %{{.*}}, %[[L]] scale = 0.35355338454246521
// RAISED-NOT: 6x6xf32
// RAISED-LABEL: func.func @main

#q4 = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k4 = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#s4 = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row4 = affine_map<(b, h, i, j) -> (b, h, i)>
#mask4 = affine_map<(b, h, i, j) -> (i, j)>
// (b, h, j, d, i): reductions over the query rows, for dK and dV.
#sT4 = affine_map<(b, h, j, d, i) -> (b, h, i, j)>
#qT4 = affine_map<(b, h, j, d, i) -> (b, h, i, d)>
#kT4 = affine_map<(b, h, j, d, i) -> (b, h, j, d)>
#dkT4 = affine_map<(b, h, j, d, i) -> (b, h, d, j)>
#id2 = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#row3 = affine_map<(b, i, j) -> (b, i)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @generic_causal(%q: tensor<1x2x6x4xf32>, %k: tensor<1x2x6x4xf32>,
    %v: tensor<1x2x6x4xf32>, %do: tensor<1x2x6x4xf32>)
    -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x4x6xf32>, tensor<1x2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %e4 = tensor.empty() : tensor<1x2x6x6xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %e3 = tensor.empty() : tensor<1x2x6xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %n3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %eo = tensor.empty() : tensor<1x2x6x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2x6x4xf32>) -> tensor<1x2x6x4xf32>
  %em = tensor.empty() : tensor<6x6xi1>
  %keep = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%em : tensor<6x6xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ule, %j, %i : index
    linalg.yield %c : i1
  } -> tensor<6x6xi1>
  %qk = linalg.generic {indexing_maps = [#q4, #k4, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) outs(%z4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %scores = linalg.generic {indexing_maps = [#id4, #mask4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk, %keep : tensor<1x2x6x6xf32>, tensor<6x6xi1>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %sx = arith.mulf %x, %scale : f32
    %r = arith.select %kp, %sx, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %max = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%scores : tensor<1x2x6x6xf32>) outs(%n3 : tensor<1x2x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores, %max : tensor<1x2x6x6xf32>, tensor<1x2x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x2x6x6xf32>) outs(%z3 : tensor<1x2x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6xf32>
  %p = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %r = arith.divf %x, %t : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %out = linalg.generic {indexing_maps = [#s4, #k4, #q4], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%p, %v : tensor<1x2x6x6xf32>, tensor<1x2x6x4xf32>) outs(%zo : tensor<1x2x6x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x4xf32>
  // dV = Pᵀ·dO.
  %dv = linalg.generic {indexing_maps = [#sT4, #qT4, #kT4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<1x2x6x6xf32>, tensor<1x2x6x4xf32>) outs(%zo : tensor<1x2x6x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x4xf32>
  // dP = dO·Vᵀ.
  %dp = linalg.generic {indexing_maps = [#q4, #k4, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) outs(%z4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  // dS = s · P∘(dP − rowsum(dP∘P)), 0 where the mask hides (masked_fill's
  // backward).
  %dpp = linalg.generic {indexing_maps = [#id4, #id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) outs(%z3 : tensor<1x2x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6xf32>
  %ds = linalg.generic {indexing_maps = [#id4, #id4, #row4, #mask4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %dpp, %keep : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6xf32>, tensor<6x6xi1>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %kp: i1, %o: f32):
    %d = arith.subf %b, %c : f32
    %m = arith.mulf %a, %d : f32
    %sm = arith.mulf %m, %scale : f32
    %r = arith.select %kp, %sm, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  // dQ = dS·K, dK = dSᵀ·Q.
  %dq = linalg.generic {indexing_maps = [#s4, #k4, #q4], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%ds, %k : tensor<1x2x6x6xf32>, tensor<1x2x6x4xf32>) outs(%zo : tensor<1x2x6x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x4xf32>
  %ekt = tensor.empty() : tensor<1x2x4x6xf32>
  %zkt = linalg.fill ins(%zero : f32) outs(%ekt : tensor<1x2x4x6xf32>) -> tensor<1x2x4x6xf32>
  %dk = linalg.generic {indexing_maps = [#sT4, #qT4, #dkT4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<1x2x6x6xf32>, tensor<1x2x6x4xf32>) outs(%zkt : tensor<1x2x4x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x6xf32>
  return %out, %dq, %dk, %dv : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x4x6xf32>, tensor<1x2x6x4xf32>
}

func.func @torch_batch_matmul(%q: tensor<2x6x4xf32>, %k: tensor<2x7x4xf32>,
    %v: tensor<2x7x3xf32>, %do: tensor<2x6x3xf32>)
    -> (tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<2x7x4xf32>, tensor<2x7x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  // Forward: Q scaled by 0.5, then the scores by 0.5 again (scale 0.25).
  %eq = tensor.empty() : tensor<2x6x4xf32>
  %qs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x6x4xf32>) outs(%eq : tensor<2x6x4xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %m = arith.mulf %x, %half : f32
    linalg.yield %m : f32
  } -> tensor<2x6x4xf32>
  %ekt = tensor.empty() : tensor<2x4x7xf32>
  %kt = linalg.transpose ins(%k : tensor<2x7x4xf32>) outs(%ekt : tensor<2x4x7xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x6x7xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %s = linalg.batch_matmul ins(%qs, %kt : tensor<2x6x4xf32>, tensor<2x4x7xf32>) outs(%zs : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x6x7xf32>) outs(%es : tensor<2x6x7xf32>) {
  ^bb0(%y: f32, %unused: f32):
    %m = arith.mulf %y, %half : f32
    linalg.yield %m : f32
  } -> tensor<2x6x7xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x6x7xf32>) outs(%es : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %eo = tensor.empty() : tensor<2x6x3xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x6x7xf32>, tensor<2x7x3xf32>) outs(%zo : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
  // Backward. dV = transpose(P)·dO.
  %ept = tensor.empty() : tensor<2x7x6xf32>
  %pt = linalg.transpose ins(%p : tensor<2x6x7xf32>) outs(%ept : tensor<2x7x6xf32>) permutation = [0, 2, 1]
  %edv = tensor.empty() : tensor<2x7x3xf32>
  %zdv = linalg.fill ins(%zero : f32) outs(%edv : tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x7x6xf32>, tensor<2x6x3xf32>) outs(%zdv : tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
  // dP = dO·transpose(V).
  %evt = tensor.empty() : tensor<2x3x7xf32>
  %vt = linalg.transpose ins(%v : tensor<2x7x3xf32>) outs(%evt : tensor<2x3x7xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x6x3xf32>, tensor<2x3x7xf32>) outs(%zs : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  // _softmax_backward_data with the row term from O: P∘(dP − rowsum(dO∘O)).
  %dod = linalg.mul ins(%do, %o : tensor<2x6x3xf32>, tensor<2x6x3xf32>) outs(%eo : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
  %er = tensor.empty() : tensor<2x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x6xf32>) -> tensor<2x6xf32>
  %rows = linalg.reduce ins(%dod : tensor<2x6x3xf32>) outs(%zr : tensor<2x6xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rowsb = linalg.broadcast ins(%rows : tensor<2x6xf32>) outs(%es : tensor<2x6x7xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rowsb : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%es : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  %g = linalg.mul ins(%p, %diff : tensor<2x6x7xf32>, tensor<2x6x7xf32>) outs(%es : tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
  // Back through the score scale.
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x6x7xf32>) outs(%es : tensor<2x6x7xf32>) {
  ^bb0(%y: f32, %unused: f32):
    %m = arith.mulf %y, %half : f32
    linalg.yield %m : f32
  } -> tensor<2x6x7xf32>
  // d(qs) = gs·K, then dQ = 0.5·d(qs); dK = transpose(gs)·qs.
  %zq = linalg.fill ins(%zero : f32) outs(%eq : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %dqs = linalg.batch_matmul ins(%gs, %k : tensor<2x6x7xf32>, tensor<2x7x4xf32>) outs(%zq : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %dq = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dqs : tensor<2x6x4xf32>) outs(%eq : tensor<2x6x4xf32>) {
  ^bb0(%y: f32, %unused: f32):
    %m = arith.mulf %y, %half : f32
    linalg.yield %m : f32
  } -> tensor<2x6x4xf32>
  %egt = tensor.empty() : tensor<2x7x6xf32>
  %gt = linalg.transpose ins(%gs : tensor<2x6x7xf32>) outs(%egt : tensor<2x7x6xf32>) permutation = [0, 2, 1]
  %edk = tensor.empty() : tensor<2x7x4xf32>
  %zdk = linalg.fill ins(%zero : f32) outs(%edk : tensor<2x7x4xf32>) -> tensor<2x7x4xf32>
  %dk = linalg.batch_matmul ins(%gt, %qs : tensor<2x7x6xf32>, tensor<2x6x4xf32>) outs(%zdk : tensor<2x7x4xf32>) -> tensor<2x7x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<2x7x4xf32>, tensor<2x7x3xf32>
}

// torch-mlir's lowering of AOTAutograd's joint graph for 4-D attention:
// every matmul runs as batch_matmul on [B*H, ...] between collapse_shape
// and expand_shape (aten.view), the softmax and its backward run on
// [B, H, N, N], and dK comes out transposed (autograd of q @ kᵀ gives
// d(kᵀ) = qᵀ @ dS, transposed back).
func.func @torch_4d_autograd(%q: tensor<1x2x6x4xf32>, %k: tensor<1x2x6x4xf32>,
    %v: tensor<1x2x6x4xf32>, %do: tensor<1x2x6x4xf32>)
    -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %ekt = tensor.empty() : tensor<1x2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x6x4xf32>) outs(%ekt : tensor<1x2x4x6xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x6x4xf32> into tensor<2x6x4xf32>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x4x6xf32> into tensor<2x4x6xf32>
  %es3 = tensor.empty() : tensor<2x6x6xf32>
  %zs3 = linalg.fill ins(%zero : f32) outs(%es3 : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs3 : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  %e4 = tensor.empty() : tensor<1x2x6x6xf32>
  %x = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x6x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %e3 = tensor.empty() : tensor<1x2x6xf32>
  %n3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %max = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x2x6x6xf32>) outs(%n3 : tensor<1x2x6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<1x2x6x6xf32>, tensor<1x2x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %m: f32, %unused: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x2x6x6xf32>) outs(%z3 : tensor<1x2x6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6xf32>
  %p = linalg.generic {indexing_maps = [#id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %t: f32, %unused: f32):
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x4xf32> into tensor<2x6x4xf32>
  %eo3 = tensor.empty() : tensor<2x6x4xf32>
  %zo3 = linalg.fill ins(%zero : f32) outs(%eo3 : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo3 : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [1, 2, 6, 4] : tensor<2x6x4xf32> into tensor<1x2x6x4xf32>
  // Backward. dV = Pᵀ·dO.
  %pt = linalg.transpose ins(%p : tensor<1x2x6x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) permutation = [0, 1, 3, 2]
  %pt3 = tensor.collapse_shape %pt [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %do3 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x2x6x4xf32> into tensor<2x6x4xf32>
  %dv3 = linalg.batch_matmul ins(%pt3, %do3 : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo3 : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %dv = tensor.expand_shape %dv3 [[0, 1], [2], [3]] output_shape [1, 2, 6, 4] : tensor<2x6x4xf32> into tensor<1x2x6x4xf32>
  // dP = dO·Vᵀ.
  %evt = tensor.empty() : tensor<1x2x4x6xf32>
  %vt = linalg.transpose ins(%v : tensor<1x2x6x4xf32>) outs(%evt : tensor<1x2x4x6xf32>) permutation = [0, 1, 3, 2]
  %vt3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<1x2x4x6xf32> into tensor<2x4x6xf32>
  %do3b = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x2x6x4xf32> into tensor<2x6x4xf32>
  %dp3 = linalg.batch_matmul ins(%do3b, %vt3 : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%zs3 : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %dp = tensor.expand_shape %dp3 [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
  // _softmax_backward_data: P∘(dP − rowsum(dP∘P)), then the scale.
  %dpp = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dp, %p : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %unused: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %rows = linalg.generic {indexing_maps = [#id4, #row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dpp : tensor<1x2x6x6xf32>) outs(%z3 : tensor<1x2x6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6xf32>
  %gs = linalg.generic {indexing_maps = [#id4, #id4, #row4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %rows : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %unused: f32):
    %d = arith.subf %b, %c : f32
    %m = arith.mulf %a, %d : f32
    %r = arith.mulf %m, %scale : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  // dQ = dS·K.
  %gs3 = tensor.collapse_shape %gs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x6x4xf32> into tensor<2x6x4xf32>
  %dq3 = linalg.batch_matmul ins(%gs3, %k3 : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%zo3 : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %dq = tensor.expand_shape %dq3 [[0, 1], [2], [3]] output_shape [1, 2, 6, 4] : tensor<2x6x4xf32> into tensor<1x2x6x4xf32>
  // d(kᵀ) = qᵀ·dS, transposed back to dK.
  %eqt = tensor.empty() : tensor<1x2x4x6xf32>
  %qt = linalg.transpose ins(%q : tensor<1x2x6x4xf32>) outs(%eqt : tensor<1x2x4x6xf32>) permutation = [0, 1, 3, 2]
  %qt3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<1x2x4x6xf32> into tensor<2x4x6xf32>
  %gs3b = tensor.collapse_shape %gs [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %edkt3 = tensor.empty() : tensor<2x4x6xf32>
  %zdkt3 = linalg.fill ins(%zero : f32) outs(%edkt3 : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %dkt3 = linalg.batch_matmul ins(%qt3, %gs3b : tensor<2x4x6xf32>, tensor<2x6x6xf32>) outs(%zdkt3 : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %dkt = tensor.expand_shape %dkt3 [[0, 1], [2], [3]] output_shape [1, 2, 4, 6] : tensor<2x4x6xf32> into tensor<1x2x4x6xf32>
  %edk = tensor.empty() : tensor<1x2x6x4xf32>
  %dk = linalg.transpose ins(%dkt : tensor<1x2x4x6xf32>) outs(%edk : tensor<1x2x6x4xf32>) permutation = [0, 1, 3, 2]
  return %o, %dq, %dk, %dv : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>
}

// dO is computed from O (the gradient of a loss 0.5·sum((O − T)²) is
// O − T), so the backward op must go after it.
func.func @tosa_jax(%q: tensor<2x6x4xf32>, %k: tensor<2x6x4xf32>,
    %v: tensor<2x6x4xf32>, %t: tensor<2x6x4xf32>)
    -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.353553385> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x6x4xf32>) -> tensor<2x4x6xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x6x4xf32>, tensor<2x4x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x6xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<2x6x6xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x6x6xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x6x6xf32>) -> tensor<2x6x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x6x6xf32>, tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
  %e = tosa.exp %d : (tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x6x6xf32>) -> tensor<2x6x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x6x1xf32>) -> tensor<2x6x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x6x6xf32>, tensor<2x6x1xf32>, tensor<1xi8>) -> tensor<2x6x6xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x6x6xf32>, tensor<2x6x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x4xf32>
  %do = tosa.sub %o, %t : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  // dV = Pᵀ·dO, dP = dO·Vᵀ.
  %pt = tosa.transpose %p {perms = array<i32: 0, 2, 1>} : (tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %dv = tosa.matmul %pt, %do, %zp, %zp : (tensor<2x6x6xf32>, tensor<2x6x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x4xf32>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x6x4xf32>) -> tensor<2x4x6xf32>
  %dp = tosa.matmul %do, %vt, %zp, %zp : (tensor<2x6x4xf32>, tensor<2x4x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x6xf32>
  // JAX: P∘dP − P∘rowsum(P∘dP), then the scale.
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x6x6xf32>, tensor<2x6x6xf32>, tensor<1xi8>) -> tensor<2x6x6xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x6x6xf32>) -> tensor<2x6x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x6x6xf32>, tensor<2x6x1xf32>, tensor<1xi8>) -> tensor<2x6x6xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x6x6xf32>, tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %gs = tosa.mul %g, %scale, %shift : (tensor<2x6x6xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x6x6xf32>
  %dq = tosa.matmul %gs, %k, %zp, %zp : (tensor<2x6x6xf32>, tensor<2x6x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x4xf32>
  %gt = tosa.transpose %gs {perms = array<i32: 0, 2, 1>} : (tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %dk = tosa.matmul %gt, %q, %zp, %zp : (tensor<2x6x6xf32>, tensor<2x6x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>
}

// Inputs: 2·sin(0.7·(linear index) + phase).
func.func @input(%phase: f32, %d0: index, %d1: index, %d2: index, %d3: index) -> tensor<?x?x?x?xf32> {
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %ab = arith.muli %a, %d1 : index
    %ab2 = arith.addi %ab, %b : index
    %abi = arith.muli %ab2, %d2 : index
    %abi2 = arith.addi %abi, %i : index
    %abid = arith.muli %abi2, %d3 : index
    %n = arith.addi %abid, %d : index
    %ni = arith.index_cast %n : index to i64
    %f = arith.sitofp %ni : i64 to f32
    %c = arith.constant 0.7 : f32
    %x = arith.mulf %f, %c : f32
    %y = arith.addf %x, %phase : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @print4(%o: tensor<?x?x?x?xf32>, %dq: tensor<?x?x?x?xf32>, %dk: tensor<?x?x?x?xf32>, %dv: tensor<?x?x?x?xf32>) {
  %po = tensor.cast %o : tensor<?x?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%po) : (tensor<*xf32>) -> ()
  %pq = tensor.cast %dq : tensor<?x?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%pq) : (tensor<*xf32>) -> ()
  %pk = tensor.cast %dk : tensor<?x?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%pk) : (tensor<*xf32>) -> ()
  %pv = tensor.cast %dv : tensor<?x?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%pv) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %s1 = arith.constant 0.1 : f32
  %s2 = arith.constant 1.3 : f32
  %s3 = arith.constant 2.9 : f32
  %s4 = arith.constant 4.2 : f32

  // 4 x [1, 2, 6, 4] for @generic_causal.
  %aq = call @input(%s1, %c1, %c2, %c6, %c4) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ak = call @input(%s2, %c1, %c2, %c6, %c4) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %av = call @input(%s3, %c1, %c2, %c6, %c4) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ado = call @input(%s4, %c1, %c2, %c6, %c4) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %aq1 = tensor.cast %aq : tensor<?x?x?x?xf32> to tensor<1x2x6x4xf32>
  %ak1 = tensor.cast %ak : tensor<?x?x?x?xf32> to tensor<1x2x6x4xf32>
  %av1 = tensor.cast %av : tensor<?x?x?x?xf32> to tensor<1x2x6x4xf32>
  %ado1 = tensor.cast %ado : tensor<?x?x?x?xf32> to tensor<1x2x6x4xf32>
  %ao, %adq, %adk, %adv = call @generic_causal(%aq1, %ak1, %av1, %ado1) : (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x4x6xf32>, tensor<1x2x6x4xf32>)
  %ao2 = tensor.cast %ao : tensor<1x2x6x4xf32> to tensor<?x?x?x?xf32>
  %adq2 = tensor.cast %adq : tensor<1x2x6x4xf32> to tensor<?x?x?x?xf32>
  %adk2 = tensor.cast %adk : tensor<1x2x4x6xf32> to tensor<?x?x?x?xf32>
  %adv2 = tensor.cast %adv : tensor<1x2x6x4xf32> to tensor<?x?x?x?xf32>
  call @print4(%ao2, %adq2, %adk2, %adv2) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> ()

  // The same inputs for @torch_4d_autograd.
  %to, %tdq, %tdk, %tdv = call @torch_4d_autograd(%aq1, %ak1, %av1, %ado1) : (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>)
  %to2 = tensor.cast %to : tensor<1x2x6x4xf32> to tensor<?x?x?x?xf32>
  %tdq2 = tensor.cast %tdq : tensor<1x2x6x4xf32> to tensor<?x?x?x?xf32>
  %tdk2 = tensor.cast %tdk : tensor<1x2x6x4xf32> to tensor<?x?x?x?xf32>
  %tdv2 = tensor.cast %tdv : tensor<1x2x6x4xf32> to tensor<?x?x?x?xf32>
  call @print4(%to2, %tdq2, %tdk2, %tdv2) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> ()

  // Q [2, 6, 4], K [2, 7, 4], V [2, 7, 3], dO [2, 6, 3] for @torch_batch_matmul.
  %bq = call @input(%s1, %c1, %c2, %c6, %c4) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bk = call @input(%s2, %c1, %c2, %c7, %c4) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bv = call @input(%s3, %c1, %c2, %c7, %c3) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bdo = call @input(%s4, %c1, %c2, %c6, %c3) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %bq3 = tensor.collapse_shape %bq [[0, 1], [2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
  %bk3 = tensor.collapse_shape %bk [[0, 1], [2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
  %bv3 = tensor.collapse_shape %bv [[0, 1], [2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
  %bdo3 = tensor.collapse_shape %bdo [[0, 1], [2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
  %bq1 = tensor.cast %bq3 : tensor<?x?x?xf32> to tensor<2x6x4xf32>
  %bk1 = tensor.cast %bk3 : tensor<?x?x?xf32> to tensor<2x7x4xf32>
  %bv1 = tensor.cast %bv3 : tensor<?x?x?xf32> to tensor<2x7x3xf32>
  %bdo1 = tensor.cast %bdo3 : tensor<?x?x?xf32> to tensor<2x6x3xf32>
  %bo, %bdq, %bdk, %bdv = call @torch_batch_matmul(%bq1, %bk1, %bv1, %bdo1) : (tensor<2x6x4xf32>, tensor<2x7x4xf32>, tensor<2x7x3xf32>, tensor<2x6x3xf32>) -> (tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<2x7x4xf32>, tensor<2x7x3xf32>)
  %bo2 = tensor.cast %bo : tensor<2x6x3xf32> to tensor<*xf32>
  call @printMemrefF32(%bo2) : (tensor<*xf32>) -> ()
  %bdq2 = tensor.cast %bdq : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%bdq2) : (tensor<*xf32>) -> ()
  %bdk2 = tensor.cast %bdk : tensor<2x7x4xf32> to tensor<*xf32>
  call @printMemrefF32(%bdk2) : (tensor<*xf32>) -> ()
  %bdv2 = tensor.cast %bdv : tensor<2x7x3xf32> to tensor<*xf32>
  call @printMemrefF32(%bdv2) : (tensor<*xf32>) -> ()

  // 4 x [2, 6, 4] for @tosa_jax (the fourth is the target T).
  %cq = tensor.collapse_shape %aq [[0, 1], [2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
  %ck = tensor.collapse_shape %ak [[0, 1], [2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
  %cv = tensor.collapse_shape %av [[0, 1], [2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
  %ct = tensor.collapse_shape %ado [[0, 1], [2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
  %cq1 = tensor.cast %cq : tensor<?x?x?xf32> to tensor<2x6x4xf32>
  %ck1 = tensor.cast %ck : tensor<?x?x?xf32> to tensor<2x6x4xf32>
  %cv1 = tensor.cast %cv : tensor<?x?x?xf32> to tensor<2x6x4xf32>
  %ct1 = tensor.cast %ct : tensor<?x?x?xf32> to tensor<2x6x4xf32>
  %co, %cdq, %cdk, %cdv = call @tosa_jax(%cq1, %ck1, %cv1, %ct1) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>)
  %co2 = tensor.cast %co : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%co2) : (tensor<*xf32>) -> ()
  %cdq2 = tensor.cast %cdq : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%cdq2) : (tensor<*xf32>) -> ()
  %cdk2 = tensor.cast %cdk : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%cdk2) : (tensor<*xf32>) -> ()
  %cdv2 = tensor.cast %cdv : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%cdv2) : (tensor<*xf32>) -> ()
  return
}
