// A relative-position bias computed with TOSA's integer division, which
// truncates toward zero ((k - q) / 5 over 40 keys: both signs), folded
// into score_mod and run by the GPU kernels on the CPU, against the op
// that reads the computed bias (raise=false: upstream's tosa-to-linalg
// division). f16, several query and key blocks.
// RUN: fa-opt %s --fa-fold-masks-into-modifiers | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=raise=false reference=true" | %mlir-run > %t.operand
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=16" | %mlir-run > %t.mma
// RUN: %compare %t.mma %t.operand --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: %compare %t.tiled %t.operand --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 1280 values
// CHECK-LABEL: func.func @buckets
// CHECK: score_mod {
// CHECK: arith.divsi

!t = tensor<1x2x40x16xf16>
!row = tensor<1x1x1x40xi32>
!col = tensor<1x1x40x1xi32>
!s = tensor<1x1x40x40xi32>
!sf = tensor<1x1x40x40xf16>

func.func @buckets(%q: !t, %k: !t, %v: !t) -> !t {
  %keys = "tosa.const"() <{values = dense<[[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39]]]]> : !row}> : () -> !row
  %shape = tosa.const_shape {values = dense<[1, 1, 40, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %queries = tosa.reshape %keys, %shape : (!row, !tosa.shape<4>) -> !col
  %offset = tosa.sub %keys, %queries : (!row, !col) -> !s
  %five = "tosa.const"() <{values = dense<5> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
  %n = tosa.intdiv %offset, %five : (!s, tensor<1x1x1x1xi32>) -> !s
  %f = tosa.cast %n : (!s) -> !sf
  %o = fa.attention %q, %k, %v mask(%f : !sf) scale = 0.25 : !t, !t, !t -> !t
  return %o : !t
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @input(%seed: f32) -> !t {
  %e = tensor.empty() : tensor<1x2x40x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x2x40x16xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 1 : index
    %b = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c131 : index
    %b1 = arith.muli %b, %c17 : index
    %s0 = arith.addi %a1, %b1 : index
    %s1 = arith.addi %s0, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    linalg.yield %z : f32
  } -> tensor<1x2x40x16xf32>
  %h = arith.truncf %r : tensor<1x2x40x16xf32> to !t
  return %h : !t
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> !t
  %k = call @input(%s2) : (f32) -> !t
  %v = call @input(%s3) : (f32) -> !t
  %o = call @buckets(%q, %k, %v) : (!t, !t, !t) -> !t
  %f = arith.extf %o : !t to tensor<1x2x40x16xf32>
  %u = tensor.cast %f : tensor<1x2x40x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
