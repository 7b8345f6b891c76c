// Numerics of grouped key/value heads (GQA: Hq = 4 over Hkv = 2), with the
// logsumexp, once with static shapes (index map h floordiv 2) and once with
// every dimension but D dynamic (group size known only at run time).
// Expected values from test/Integration/Inputs/attention_reference.py with
// q heads [1,0], [0,1], [1,1], [2,0]; k heads [[1,0],[0,1]] and
// [[0,1],[1,1]]; v heads [[1,2],[3,4]] and [[5,6],[7,8]]; scale = 1. The
// same values on every lowering: the reference, the tiled path with its own
// tiles and with one key per block, and the emulated GPU kernel.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=max-block-kv=1" | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90 max-block-kv=1" | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=2" | %mlir-run | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>)

func.func @gqa_static(%q: tensor<1x4x1x2xf32>, %k: tensor<1x2x2x2xf32>,
    %v: tensor<1x2x2x2xf32>) -> (tensor<1x4x1x2xf32>, tensor<1x4x1xf32>) {
  %o, %lse = fa.attention %q, %k, %v scale = 1.0
      : tensor<1x4x1x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
      -> tensor<1x4x1x2xf32>, tensor<1x4x1xf32>
  return %o, %lse : tensor<1x4x1x2xf32>, tensor<1x4x1xf32>
}

func.func @gqa_dynamic(%q: tensor<?x?x?x2xf32>, %k: tensor<?x?x?x2xf32>,
    %v: tensor<?x?x?x2xf32>) -> (tensor<?x?x?x2xf32>, tensor<?x?x?xf32>) {
  %o, %lse = fa.attention %q, %k, %v scale = 1.0
      : tensor<?x?x?x2xf32>, tensor<?x?x?x2xf32>, tensor<?x?x?x2xf32>
      -> tensor<?x?x?x2xf32>, tensor<?x?x?xf32>
  return %o, %lse : tensor<?x?x?x2xf32>, tensor<?x?x?xf32>
}

func.func @main() {
  %q = arith.constant dense<[[[[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 1.0]], [[2.0, 0.0]]]]>
      : tensor<1x4x1x2xf32>
  %k = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 1.0]]]]>
      : tensor<1x2x2x2xf32>
  %v = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]>
      : tensor<1x2x2x2xf32>

  // CHECK-LABEL: sizes = [1, 4, 1, 2]
  // CHECK-NEXT: [1.537{{[0-9]*}}, 2.537{{[0-9]*}}]
  // CHECK-NEXT: [2.462{{[0-9]*}}, 3.462{{[0-9]*}}]
  // CHECK-NEXT: [6.462{{[0-9]*}}, 7.462{{[0-9]*}}]
  // CHECK-NEXT: [6.761{{[0-9]*}}, 7.761{{[0-9]*}}]
  // CHECK-LABEL: sizes = [1, 4, 1]
  // CHECK-NEXT: [1.313{{[0-9]*}}]
  // CHECK-NEXT: [1.313{{[0-9]*}}]
  // CHECK-NEXT: [2.313{{[0-9]*}}]
  // CHECK-NEXT: [2.126{{[0-9]*}}]
  %o0, %l0 = call @gqa_static(%q, %k, %v)
      : (tensor<1x4x1x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>)
      -> (tensor<1x4x1x2xf32>, tensor<1x4x1xf32>)
  %p0 = tensor.cast %o0 : tensor<1x4x1x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %pl0 = tensor.cast %l0 : tensor<1x4x1xf32> to tensor<*xf32>
  call @printMemrefF32(%pl0) : (tensor<*xf32>) -> ()

  // The same numbers through the dynamic-shape path.
  // CHECK-LABEL: sizes = [1, 4, 1, 2]
  // CHECK-NEXT: [1.537{{[0-9]*}}, 2.537{{[0-9]*}}]
  // CHECK-NEXT: [2.462{{[0-9]*}}, 3.462{{[0-9]*}}]
  // CHECK-NEXT: [6.462{{[0-9]*}}, 7.462{{[0-9]*}}]
  // CHECK-NEXT: [6.761{{[0-9]*}}, 7.761{{[0-9]*}}]
  // CHECK-LABEL: sizes = [1, 4, 1]
  // CHECK-NEXT: [1.313{{[0-9]*}}]
  // CHECK-NEXT: [1.313{{[0-9]*}}]
  // CHECK-NEXT: [2.313{{[0-9]*}}]
  // CHECK-NEXT: [2.126{{[0-9]*}}]
  %qd = tensor.cast %q : tensor<1x4x1x2xf32> to tensor<?x?x?x2xf32>
  %kd = tensor.cast %k : tensor<1x2x2x2xf32> to tensor<?x?x?x2xf32>
  %vd = tensor.cast %v : tensor<1x2x2x2xf32> to tensor<?x?x?x2xf32>
  %o1, %l1 = call @gqa_dynamic(%qd, %kd, %vd)
      : (tensor<?x?x?x2xf32>, tensor<?x?x?x2xf32>, tensor<?x?x?x2xf32>)
      -> (tensor<?x?x?x2xf32>, tensor<?x?x?xf32>)
  %p1 = tensor.cast %o1 : tensor<?x?x?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %pl1 = tensor.cast %l1 : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%pl1) : (tensor<*xf32>) -> ()
  return
}
