// Numerics of the masks that depend on position: causal in both alignments
// and sliding windows, with Nq = 3 != Nk = 4 so that the alignments differ,
// on every lowering against the same expected values: the unfused
// reference, the tiled online softmax with its chosen tiles and with key
// blocks of one key (max-block-kv=1, where causal and window masks skip
// whole blocks), and the GPU kernel with its threads emulated, with key
// blocks of one and two keys. Expected values come from
//   test/Integration/Inputs/attention_reference.py
// with q = [[1,0],[0,1],[1,1]], k = [[1,0],[0,1],[1,1],[0,0]],
// v = [[1,1],[2,0],[0,2],[1,1]], scale = 0.5 and the attributes of each case.

// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=max-block-kv=1" | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90 max-block-kv=1" | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=2" | %mlir-run | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>)

func.func @causal_top_left(%q: tensor<1x1x3x2xf32>, %k: tensor<1x1x4x2xf32>,
    %v: tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32> {
  %o = fa.attention %q, %k, %v scale = 0.5 causal = top_left
      : tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32> -> tensor<1x1x3x2xf32>
  return %o : tensor<1x1x3x2xf32>
}

func.func @causal_bottom_right(%q: tensor<1x1x3x2xf32>, %k: tensor<1x1x4x2xf32>,
    %v: tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32> {
  %o = fa.attention %q, %k, %v scale = 0.5 causal = bottom_right
      : tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32> -> tensor<1x1x3x2xf32>
  return %o : tensor<1x1x3x2xf32>
}

func.func @window_top_left(%q: tensor<1x1x3x2xf32>, %k: tensor<1x1x4x2xf32>,
    %v: tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32> {
  %o = fa.attention %q, %k, %v scale = 0.5 window = <left = 1, right = 0, align = top_left>
      : tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32> -> tensor<1x1x3x2xf32>
  return %o : tensor<1x1x3x2xf32>
}

func.func @window_bottom_right_looks_ahead(%q: tensor<1x1x3x2xf32>, %k: tensor<1x1x4x2xf32>,
    %v: tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32> {
  %o = fa.attention %q, %k, %v scale = 0.5 window = <left = 0, right = 1, align = bottom_right>
      : tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32> -> tensor<1x1x3x2xf32>
  return %o : tensor<1x1x3x2xf32>
}

func.func @window_and_causal(%q: tensor<1x1x3x2xf32>, %k: tensor<1x1x4x2xf32>,
    %v: tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32> {
  %o = fa.attention %q, %k, %v scale = 0.5 causal = bottom_right window = <left = 1, right = 0, align = bottom_right>
      : tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32> -> tensor<1x1x3x2xf32>
  return %o : tensor<1x1x3x2xf32>
}

func.func @main() {
  %q = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]]]> : tensor<1x1x3x2xf32>
  %k = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]]]> : tensor<1x1x4x2xf32>
  %v = arith.constant dense<[[[[1.0, 1.0], [2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]]]> : tensor<1x1x4x2xf32>

  // CHECK-LABEL: sizes = [1, 1, 3, 2]
  // CHECK-NEXT: [1, 1]{{[],]}}
  // CHECK-NEXT: [1.622{{[0-9]*}}, 0.3775{{[0-9]*}}]
  // CHECK-NEXT: [0.8222{{[0-9]*}}, 1.177{{[0-9]*}}]
  %o0 = call @causal_top_left(%q, %k, %v) : (tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32>
  %p0 = tensor.cast %o0 : tensor<1x1x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()

  // CHECK-LABEL: sizes = [1, 1, 3, 2]
  // CHECK-NEXT: [1.377{{[0-9]*}}, 0.6224{{[0-9]*}}]
  // CHECK-NEXT: [1, 1]{{[],]}}
  // CHECK-NEXT: [0.8475{{[0-9]*}}, 1.152{{[0-9]*}}]
  %o1 = call @causal_bottom_right(%q, %k, %v) : (tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32>
  %p1 = tensor.cast %o1 : tensor<1x1x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  // CHECK-LABEL: sizes = [1, 1, 3, 2]
  // CHECK-NEXT: [1, 1]{{[],]}}
  // CHECK-NEXT: [1.622{{[0-9]*}}, 0.3775{{[0-9]*}}]
  // CHECK-NEXT: [0.7550{{[0-9]*}}, 1.244{{[0-9]*}}]
  %o2 = call @window_top_left(%q, %k, %v) : (tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32>
  %p2 = tensor.cast %o2 : tensor<1x1x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()

  // CHECK-LABEL: sizes = [1, 1, 3, 2]
  // CHECK-NEXT: [0.7550{{[0-9]*}}, 1.244{{[0-9]*}}]
  // CHECK-NEXT: [0.3775{{[0-9]*}}, 1.622{{[0-9]*}}]
  // CHECK-NEXT: [1, 1]{{[],]}}
  %o3 = call @window_bottom_right_looks_ahead(%q, %k, %v) : (tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32>
  %p3 = tensor.cast %o3 : tensor<1x1x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()

  // CHECK-LABEL: sizes = [1, 1, 3, 2]
  // CHECK-NEXT: [1.377{{[0-9]*}}, 0.6224{{[0-9]*}}]
  // CHECK-NEXT: [1, 1]{{[],]}}
  // CHECK-NEXT: [0.2689{{[0-9]*}}, 1.731{{[0-9]*}}]
  %o4 = call @window_and_causal(%q, %k, %v) : (tensor<1x1x3x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x3x2xf32>
  %p4 = tensor.cast %o4 : tensor<1x1x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p4) : (tensor<*xf32>) -> ()
  return
}
