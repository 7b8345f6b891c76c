// Attention sinks with grouped queries as JAX writes GQA (a group axis in
// both contractions, K and V never repeated): the sink column varies along
// the K/V head and the group ([Hkv, G], one logit per query head k·G + g,
// read through the [Hkv·G] -> [Hkv, G] reshape of the sinks), or along the
// group only (broadcast over the K/V heads). Raised to fa.attention's
// sinks [Hq] with GQA K and V; raised and unraised runs agree, on the tiled
// path and the emulated GPU kernel.
// RUN: cat %s %S/../Blocks/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/../Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/../Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/../Blocks/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=4" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 512 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @grouped_sinks
// RAISED: fa.attention {{.*}} sinks(%{{.*}} : tensor<4xf32>) scale = 1.000000e+00 : tensor<1x4x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @grouped_sinks_per_group
// RAISED: fa.attention {{.*}} sinks(%{{.*}} : tensor<4xf32>)
// RAISED-NOT: linalg.softmax

#q4 = affine_map<(k, g, t, s, d) -> (k, g, t, d)>
#k3 = affine_map<(k, g, t, s, d) -> (k, s, d)>
#s4 = affine_map<(k, g, t, s, d) -> (k, g, t, s)>
#p4 = affine_map<(k, g, t, e, s) -> (k, g, t, s)>
#v3 = affine_map<(k, g, t, e, s) -> (k, s, e)>
#o4 = affine_map<(k, g, t, e, s) -> (k, g, t, e)>

func.func @grouped_sinks(%q: tensor<2x2x8x8xf32>, %k: tensor<2x8x8xf32>, %v: tensor<2x8x8xf32>, %sinks: tensor<4xf32>) -> tensor<2x2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q4, #k3, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x8x8xf32>, tensor<2x8x8xf32>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %s2 = tensor.expand_shape %sinks [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %ec = tensor.empty() : tensor<2x2x8x1xf32>
  %column = linalg.generic {indexing_maps = [affine_map<(k, g, t, j) -> (k, g)>, affine_map<(k, g, t, j) -> (k, g, t, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s2 : tensor<2x2xf32>) outs(%ec : tensor<2x2x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x8x1xf32>
  %combined = tensor.concat dim(3) %s, %column : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x9xf32>
  %e2 = tensor.empty() : tensor<2x2x8x9xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<2x2x8x9xf32>) outs(%e2 : tensor<2x2x8x9xf32>) -> tensor<2x2x8x9xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x9xf32> to tensor<2x2x8x8xf32>
  %o = linalg.generic {indexing_maps = [#p4, #v3, #o4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x8x8xf32>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  return %o : tensor<2x2x8x8xf32>
}

func.func @grouped_sinks_per_group(%q: tensor<2x2x8x8xf32>, %k: tensor<2x8x8xf32>, %v: tensor<2x8x8xf32>, %sinks: tensor<2xf32>) -> tensor<2x2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#q4, #k3, #s4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x8x8xf32>, tensor<2x8x8xf32>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %ec = tensor.empty() : tensor<2x2x8x1xf32>
  %column = linalg.generic {indexing_maps = [affine_map<(k, g, t, j) -> (g)>, affine_map<(k, g, t, j) -> (k, g, t, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sinks : tensor<2xf32>) outs(%ec : tensor<2x2x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x8x1xf32>
  %combined = tensor.concat dim(3) %s, %column : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x9xf32>
  %e2 = tensor.empty() : tensor<2x2x8x9xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<2x2x8x9xf32>) outs(%e2 : tensor<2x2x8x9xf32>) -> tensor<2x2x8x9xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x9xf32> to tensor<2x2x8x8xf32>
  %o = linalg.generic {indexing_maps = [#p4, #v3, #o4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x8x8xf32>) outs(%zs : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  return %o : tensor<2x2x8x8xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c2, %c2, %c8, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input3(%s2, %c2, %c8, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c2, %c8, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<2x2x8x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<2x8x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<2x8x8xf32>
  %sinks = arith.constant dense<[1.25, -0.5, 0.75, 2.0]> : tensor<4xf32>
  %o = call @grouped_sinks(%q, %k, %v, %sinks) : (tensor<2x2x8x8xf32>, tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<4xf32>) -> tensor<2x2x8x8xf32>
  %u = tensor.cast %o : tensor<2x2x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %g = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %o2 = call @grouped_sinks_per_group(%q, %k, %v, %g) : (tensor<2x2x8x8xf32>, tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<2xf32>) -> tensor<2x2x8x8xf32>
  %u2 = tensor.cast %o2 : tensor<2x2x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
