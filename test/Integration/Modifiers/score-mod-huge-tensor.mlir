// A score_mod that reads a float tensor: its values are not known, and a
// bias of finfo.min over a whole row (row 3) makes every score of that row
// about -3.4e38. Scaled by log2 e before the max is subtracted, the
// kernels' exponent overflowed to -inf - -inf = NaN there; they subtract
// first whenever score_mod reads a float tensor (or holds a constant past
// FLT_MAX / log2 e), so the row is the mean of V, as the reference
// computes it. Host, mma.sync and wgmma kernels against the reference.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.host
// RUN: %compare %t.host %t.reference --rtol 1e-6 | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.mma
// RUN: %compare %t.mma %t.reference --rtol 1e-5 | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90a | %mlir-run > %t.wgmma
// RUN: %compare %t.wgmma %t.reference --rtol 1e-5 | FileCheck %s
// CHECK: MATCH 32 values

func.func private @printMemrefF32(tensor<*xf32>)
func.func @f(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>, %bias: tensor<8x8xf32>) -> tensor<1x1x8x4xf32> {
  %o = fa.attention %q, %k, %v scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %x = tensor.extract %bias[%i, %j] : tensor<8x8xf32>
    %y = arith.addf %s, %x : f32
    fa.yield %y : f32
  } : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return %o : tensor<1x1x8x4xf32>
}
func.func @main() {
  %q = arith.constant dense<0.5> : tensor<1x1x8x4xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %row3 = arith.cmpi eq, %i, %c3 : index
    %low = arith.constant -3.40282347E+38 : f32
    %z = arith.constant 0.0 : f32
    %r = arith.select %row3, %low, %z : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %o = call @f(%q, %q, %q, %bias) : (tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<8x8xf32>) -> tensor<1x1x8x4xf32>
  %u = tensor.cast %o : tensor<1x1x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
