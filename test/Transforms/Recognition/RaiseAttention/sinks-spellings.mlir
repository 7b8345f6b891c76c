// Attention sinks in spellings the random programs found refused
// (random_attention.py seed 4): P rounded to f16 after the slice (mixed
// precision rounds P to V's type before P·V), and a sink column that is a
// splat constant (constant folding makes one of equal per-head logits).
// Both become fa.attention's sinks; the splat as a filled [Hq] tensor.
// Their numerics: test/Differential/random-programs.test (seed 4).
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// Only the near miss is explained:
// REMARK: remark: attention not raised: it reaches tosa.matmul only through tosa.slice
// REMARK-NOT: remark

// CHECK-LABEL: func.func @rounded_after_slice_splat
// CHECK: %[[LOGIT:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[SINKS:.*]] = linalg.fill ins(%[[LOGIT]] : f32) outs(%{{.*}} : tensor<2xf32>) -> tensor<2xf32>
// CHECK: fa.attention {{.*}} sinks(%[[SINKS]] : tensor<2xf32>) scale = 5.000000e-01 :
// CHECK-NOT: tensor.concat
func.func @rounded_after_slice_splat(%q: tensor<2x45x2xf16>, %k: tensor<2x3x2xf16>, %v: tensor<2x3x2xf16>) -> tensor<2x45x2xf16> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<2x45x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x45x3xf32>) -> tensor<2x45x3xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>] ins(%q, %k : tensor<2x45x2xf16>, tensor<2x3x2xf16>) outs(%z3 : tensor<2x45x3xf32>) -> tensor<2x45x3xf32>
  %e6 = tensor.empty() : tensor<2x45x3xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x45x3xf32>) outs(%e6 : tensor<2x45x3xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %c = arith.constant 0.5 : f32
    %y = arith.mulf %a0, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x45x3xf32>
  %sinks = arith.constant dense<[0.5, 0.5]> : tensor<2xf32>
  %e11 = tensor.empty() : tensor<2x45x1xf32>
  %column = linalg.broadcast ins(%sinks : tensor<2xf32>) outs(%e11 : tensor<2x45x1xf32>) dimensions = [1, 2]
  %joined = tensor.concat dim(2) %x, %column : (tensor<2x45x3xf32>, tensor<2x45x1xf32>) -> tensor<2x45x4xf32>
  %e13 = tensor.empty() : tensor<2x45x4xf32>
  %pf = linalg.softmax dimension(2) ins(%joined : tensor<2x45x4xf32>) outs(%e13 : tensor<2x45x4xf32>) -> tensor<2x45x4xf32>
  %p = tensor.extract_slice %pf[0, 0, 0] [2, 45, 3] [1, 1, 1] : tensor<2x45x4xf32> to tensor<2x45x3xf32>
  %e16 = tensor.empty() : tensor<2x45x3xf16>
  %pc = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<2x45x3xf32>) outs(%e16 : tensor<2x45x3xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x45x3xf16>
  %c0 = arith.constant 0.0 : f16
  %e18 = tensor.empty() : tensor<2x45x2xf16>
  %z17 = linalg.fill ins(%c0 : f16) outs(%e18 : tensor<2x45x2xf16>) -> tensor<2x45x2xf16>
  %o = linalg.batch_matmul ins(%pc, %v : tensor<2x45x3xf16>, tensor<2x3x2xf16>) outs(%z17 : tensor<2x45x2xf16>) -> tensor<2x45x2xf16>
  return %o : tensor<2x45x2xf16>
}

// TOSA: tosa.cast of the sliced probabilities, one head's constant logit.
// CHECK-LABEL: func.func @tosa_cast_after_slice
// CHECK: fa.attention {{.*}} sinks(%{{.*}} : tensor<1xf32>) scale = 1.250000e-01 :
// CHECK-NOT: tosa.concat
func.func @tosa_cast_after_slice(%q: tensor<1x1x16xf16>, %k: tensor<1x12x16xf16>, %v: tensor<1x12x16xf16>) -> tensor<1x1x16xf16> {
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<1x12x16xf16>) -> tensor<1x16x12xf16>
  %sx = tosa.matmul %q, %kt, %zph, %zph : (tensor<1x1x16xf16>, tensor<1x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x12xf16>
  %s = tosa.cast %sx : (tensor<1x1x12xf16>) -> tensor<1x1x12xf32>
  %c = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %x = tosa.mul %s, %c, %shift : (tensor<1x1x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x12xf32>
  %logit = "tosa.const"() <{values = dense<1.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %column = tosa.tile %logit, %mult : (tensor<1x1x1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %joined = tosa.concat %x, %column {axis = 2 : i32} : (tensor<1x1x12xf32>, tensor<1x1x1xf32>) -> tensor<1x1x13xf32>
  %max = tosa.reduce_max %joined {axis = 2 : i32} : (tensor<1x1x13xf32>) -> tensor<1x1x1xf32>
  %d = tosa.sub %joined, %max : (tensor<1x1x13xf32>, tensor<1x1x1xf32>) -> tensor<1x1x13xf32>
  %ex = tosa.exp %d : (tensor<1x1x13xf32>) -> tensor<1x1x13xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<1x1x13xf32>) -> tensor<1x1x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %pf = tosa.mul %ex, %inv, %shift : (tensor<1x1x13xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x13xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 1, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p = tosa.slice %pf, %start, %size : (tensor<1x1x13xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1x12xf32>
  %pc = tosa.cast %p : (tensor<1x1x12xf32>) -> tensor<1x1x12xf16>
  %o = tosa.matmul %pc, %v, %zph, %zph : (tensor<1x1x12xf16>, tensor<1x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x16xf16>
  return %o : tensor<1x1x16xf16>
}

// Near miss: the cast reads the slice, and the slice drops key 0 (offset 1)
// where the sink column should go: a real key lost, no sinks.
// CHECK-LABEL: func.func @shifted_slice
// CHECK-NOT: fa.attention
func.func @shifted_slice(%q: tensor<1x1x16xf16>, %k: tensor<1x12x16xf16>, %v: tensor<1x12x16xf16>) -> tensor<1x1x16xf16> {
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<1x12x16xf16>) -> tensor<1x16x12xf16>
  %sx = tosa.matmul %q, %kt, %zph, %zph : (tensor<1x1x16xf16>, tensor<1x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x12xf16>
  %s = tosa.cast %sx : (tensor<1x1x12xf16>) -> tensor<1x1x12xf32>
  %logit = "tosa.const"() <{values = dense<1.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %column = tosa.tile %logit, %mult : (tensor<1x1x1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %joined = tosa.concat %s, %column {axis = 2 : i32} : (tensor<1x1x12xf32>, tensor<1x1x1xf32>) -> tensor<1x1x13xf32>
  %max = tosa.reduce_max %joined {axis = 2 : i32} : (tensor<1x1x13xf32>) -> tensor<1x1x1xf32>
  %d = tosa.sub %joined, %max : (tensor<1x1x13xf32>, tensor<1x1x1xf32>) -> tensor<1x1x13xf32>
  %ex = tosa.exp %d : (tensor<1x1x13xf32>) -> tensor<1x1x13xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<1x1x13xf32>) -> tensor<1x1x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %pf = tosa.mul %ex, %inv, %shift : (tensor<1x1x13xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x13xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 1, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p = tosa.slice %pf, %start, %size : (tensor<1x1x13xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1x12xf32>
  %pc = tosa.cast %p : (tensor<1x1x12xf32>) -> tensor<1x1x12xf16>
  %o = tosa.matmul %pc, %v, %zph, %zph : (tensor<1x1x12xf16>, tensor<1x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x16xf16>
  return %o : tensor<1x1x16xf16>
}
