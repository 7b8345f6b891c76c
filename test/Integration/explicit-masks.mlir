// Numerics of explicit masks, the logsumexp and fully-masked rows, on every
// lowering against the same expected values: the unfused reference, the
// tiled online softmax with its chosen tiles (one key block) and with key
// blocks of one key (max-block-kv=1: every key a block, so the running max,
// the rescale and empty rows cross blocks), and the GPU kernel with its
// threads emulated, with key blocks of one and two keys. Same q, k, v and
// scale = 0.5 as position-masks.mlir; expected values from
// test/Integration/Inputs/attention_reference.py with the mask of each case.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=max-block-kv=1" | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90 max-block-kv=1" | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=2" | %mlir-run | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>)

// A boolean keep-mask whose row 1 hides every key: that row is 0 and its
// logsumexp is -inf, never NaN.
func.func @keep_mask(%q: tensor<1x1x3x2xf32>, %k: tensor<1x1x4x2xf32>,
    %v: tensor<1x1x4x2xf32>, %keep: tensor<1x1x3x4xi1>)
    -> (tensor<1x1x3x2xf32>, tensor<1x1x3xf32>) {
  %o, %lse = fa.attention %q, %k, %v mask(%keep : tensor<1x1x3x4xi1>) scale = 0.5
      : tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>
      -> tensor<1x1x3x2xf32>, tensor<1x1x3xf32>
  return %o, %lse : tensor<1x1x3x2xf32>, tensor<1x1x3xf32>
}

// An additive bias broadcast over batch, heads and query rows, with -inf.
func.func @additive_bias(%q: tensor<1x1x3x2xf32>, %k: tensor<1x1x4x2xf32>,
    %v: tensor<1x1x4x2xf32>, %bias: tensor<1x1x1x4xf32>) -> tensor<1x1x3x2xf32> {
  %o = fa.attention %q, %k, %v mask(%bias : tensor<1x1x1x4xf32>) scale = 0.5
      : tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>
      -> tensor<1x1x3x2xf32>
  return %o : tensor<1x1x3x2xf32>
}

// A bias of -inf everywhere plus a window that leaves one row empty: masks
// compose, and the empty rows are still 0 / -inf.
func.func @all_hidden(%q: tensor<1x1x3x2xf32>, %k: tensor<1x1x4x2xf32>,
    %v: tensor<1x1x4x2xf32>, %bias: tensor<1x1x3x1xf32>)
    -> (tensor<1x1x3x2xf32>, tensor<1x1x3xf32>) {
  %o, %lse = fa.attention %q, %k, %v mask(%bias : tensor<1x1x3x1xf32>) scale = 0.5
      window = <left = 0, right = 0, align = top_left>
      : tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>
      -> tensor<1x1x3x2xf32>, tensor<1x1x3xf32>
  return %o, %lse : tensor<1x1x3x2xf32>, tensor<1x1x3xf32>
}

func.func @main() {
  %q = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]]]> : tensor<1x1x3x2xf32>
  %k = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]]]> : tensor<1x1x4x2xf32>
  %v = arith.constant dense<[[[[1.0, 1.0], [2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]]]> : tensor<1x1x4x2xf32>
  %keep = arith.constant dense<[[[[true, false, true, false],
                                  [false, false, false, false],
                                  [false, true, true, true]]]]> : tensor<1x1x3x4xi1>
  %bias = arith.constant dense<[[[[0.5, 0xFF800000, 0.0, -2.0]]]]> : tensor<1x1x1x4xf32>
  %hidden = arith.constant dense<[[[[0.0], [0xFF800000], [0.0]]]]> : tensor<1x1x3x1xf32>

  // CHECK-LABEL: sizes = [1, 1, 3, 2]
  // CHECK-NEXT: [0.5, 1.5]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0.8007{{[0-9]*}}, 1.199{{[0-9]*}}]
  // CHECK-LABEL: sizes = [1, 1, 3]
  // CHECK-NEXT: [1.193{{[0-9]*}}, -inf, 1.680{{[0-9]*}}]
  %o0, %l0 = call @keep_mask(%q, %k, %v, %keep)
      : (tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x3x4xi1>)
      -> (tensor<1x1x3x2xf32>, tensor<1x1x3xf32>)
  %p0 = tensor.cast %o0 : tensor<1x1x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %pl0 = tensor.cast %l0 : tensor<1x1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%pl0) : (tensor<*xf32>) -> ()

  // CHECK-LABEL: sizes = [1, 1, 3, 2]
  // CHECK-NEXT: [0.6338{{[0-9]*}}, 1.366{{[0-9]*}}]
  // CHECK-NEXT: [0.5197{{[0-9]*}}, 1.480{{[0-9]*}}]
  // CHECK-NEXT: [0.5121{{[0-9]*}}, 1.487{{[0-9]*}}]
  %o1 = call @additive_bias(%q, %k, %v, %bias)
      : (tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x1x4xf32>)
      -> tensor<1x1x3x2xf32>
  %p1 = tensor.cast %o1 : tensor<1x1x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // Row i sees only key i (window 0/0); row 1's bias hides it.
  // CHECK-LABEL: sizes = [1, 1, 3, 2]
  // CHECK-NEXT: [1, 1]
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [0, 2]
  // CHECK-LABEL: sizes = [1, 1, 3]
  // CHECK-NEXT: [0.5, -inf, 1]
  %o2, %l2 = call @all_hidden(%q, %k, %v, %hidden)
      : (tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x3x1xf32>)
      -> (tensor<1x1x3x2xf32>, tensor<1x1x3xf32>)
  %p2 = tensor.cast %o2 : tensor<1x1x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  %pl2 = tensor.cast %l2 : tensor<1x1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%pl2) : (tensor<*xf32>) -> ()
  return
}
