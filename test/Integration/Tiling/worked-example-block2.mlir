// The worked example of docs/Sources.md §1 tiled with blocks of 2 rows and 2
// keys: two query blocks, each seeing two key blocks, so the running max and
// sum are rescaled once. Row 0 is about [0.830, 1.170], as unfused.
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run | FileCheck %s
// RUN: fa-opt %s --fa-tile-attention | FileCheck %s --check-prefix=LOOPS
// LOOPS: scf.forall
// LOOPS: scf.for

// CHECK: sizes = [1, 1, 4, 2]
// CHECK-NEXT: [0.830{{[0-9]*}}, 1.169{{[0-9]*}}]
// CHECK-NEXT: [1, 1]
// CHECK-NEXT: [0.772{{[0-9]*}}, 1.227{{[0-9]*}}]
// CHECK-NEXT: [1, 1]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @attention(%q: tensor<1x1x4x2xf32>, %k: tensor<1x1x4x2xf32>,
                     %v: tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32> {
  %o = fa.attention %q, %k, %v scale = 0.70710678118654757
      tiling = <block_q = 2, block_kv = 2, warps = 1, stages = 1>
      : tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>
      -> tensor<1x1x4x2xf32>
  return %o : tensor<1x1x4x2xf32>
}

func.func @main() {
  %qk = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]]]>
      : tensor<1x1x4x2xf32>
  %v = arith.constant dense<[[[[1.0, 1.0], [2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]]]>
      : tensor<1x1x4x2xf32>
  %o = call @attention(%qk, %qk, %v)
      : (tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32>
  %printable = tensor.cast %o : tensor<1x1x4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%printable) : (tensor<*xf32>) -> ()
  return
}
