// jax.nn.dot_product_attention's XLA path (implementation="xla") with
// is_causal=True, as StableHLO lowers to linalg: BTNH operands, logits =
// einsum('BTNH,BSNH->BNTS') * (1/sqrt(H)), the causal mask built from two
// broadcasted iotas and a compare, `where(mask, logits, -0.7 * finfo.max)`
// (JAX's large finite fill, not -inf), softmax in f32 with jax.nn.softmax's
// max / exp / sum / div, and einsum('BNTS,BSNH->BTNH').
// Raised: one fa.attention with the causal mask kept explicit and
// mask_fill = -0.7 * finfo(f32).max (a finite fill keeps the hidden keys'
// weights, so the causal attribute, which skips them, would not be exact).
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=gpu-kernel=sm_90" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 256 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @jax_dpa_causal
// RAISED: fa.attention {{.*}} mask({{.*}}xi1>) scale = 2.500000e-01 mask_fill = -2.381976{{[0-9]*}}E+38 :
// RAISED-NOT: math.exp
// RAISED: return

#bthd = affine_map<(b, n, t, s, h) -> (b, t, n, h)>
#bshd = affine_map<(b, n, t, s, h) -> (b, s, n, h)>
#bnts = affine_map<(b, n, t, s, h) -> (b, n, t, s)>
#pv_p = affine_map<(b, n, t, h, s) -> (b, n, t, s)>
#pv_v = affine_map<(b, n, t, h, s) -> (b, s, n, h)>
#pv_o = affine_map<(b, n, t, h, s) -> (b, t, n, h)>
#id4 = affine_map<(b, n, t, s) -> (b, n, t, s)>
#ts = affine_map<(b, n, t, s) -> (t, s)>
#row = affine_map<(b, n, t, s) -> (b, n, t)>
#id2 = affine_map<(t, s) -> (t, s)>

func.func @jax_dpa_causal(%q: tensor<1x8x2x16xf32>, %k: tensor<1x8x2x16xf32>,
                          %v: tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32
  %big_neg = arith.constant -2.38197633E+38 : f32
  %es = tensor.empty() : tensor<1x2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %logits0 = linalg.generic {indexing_maps = [#bthd, #bshd, #bnts], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) outs(%zs : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x8x8xf32>
  %logits = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%logits0 : tensor<1x2x8x8xf32>) outs(%es : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %0 = arith.mulf %a, %scale : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x8x8xf32>
  // mask = broadcasted_iota(T, 0) >= broadcasted_iota(S, 1)
  %em = tensor.empty() : tensor<8x8xi1>
  %mask = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<8x8xi1>) {
  ^bb0(%out: i1):
    %t = linalg.index 0 : index
    %s = linalg.index 1 : index
    %ti = arith.index_cast %t : index to i32
    %si = arith.index_cast %s : index to i32
    %c = arith.cmpi sge, %ti, %si : i32
    linalg.yield %c : i1
  } -> tensor<8x8xi1>
  %padded = linalg.generic {indexing_maps = [#ts, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mask, %logits : tensor<8x8xi1>, tensor<1x2x8x8xf32>) outs(%es : tensor<1x2x8x8xf32>) {
  ^bb0(%m: i1, %a: f32, %out: f32):
    %0 = arith.select %m, %a, %big_neg : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x8x8xf32>
  // jax.nn.softmax: x - stop_gradient(max), exp, / sum
  %er = tensor.empty() : tensor<1x2x8xf32>
  %mi = linalg.fill ins(%neg_inf : f32) outs(%er : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %max = linalg.generic {indexing_maps = [#id4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%padded : tensor<1x2x8x8xf32>) outs(%mi : tensor<1x2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.maximumf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x8xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%padded, %max : tensor<1x2x8x8xf32>, tensor<1x2x8xf32>) outs(%es : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %0 = arith.subf %a, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x8x8xf32>
  %si0 = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x8x8xf32>) outs(%si0 : tensor<1x2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x8xf32>
  %probs = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<1x2x8x8xf32>, tensor<1x2x8xf32>) outs(%es : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %l: f32, %out: f32):
    %0 = arith.divf %a, %l : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x8x8xf32>
  %eo = tensor.empty() : tensor<1x8x2x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%probs, %v : tensor<1x2x8x8xf32>, tensor<1x8x2x16xf32>) outs(%zo : tensor<1x8x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x8x2x16xf32>
  return %o : tensor<1x8x2x16xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c1, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c1, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c1, %c8, %c2, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<1x8x2x16xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<1x8x2x16xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<1x8x2x16xf32>
  %o = call @jax_dpa_causal(%q, %k, %v) : (tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
  %u = tensor.cast %o : tensor<1x8x2x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
