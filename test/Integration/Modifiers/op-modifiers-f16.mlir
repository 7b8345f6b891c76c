// The kernels of op-modifiers.mlir on f16 inputs, where the GPU kernels
// use their tensor-core paths (mma.sync with S and P in shared memory or
// in registers, Hopper's wgmma with a TMA producer), emulated on the CPU,
// against the unfused reference on the same f16 inputs: score_mod,
// mask_mod and sinks in every kernel, split-KV too.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: %compare %t.tiled %t.reference --rtol 2e-3 --atol 2e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_75" | %mlir-run > %t.sm75
// RUN: %compare %t.sm75 %t.reference --rtol 2e-3 --atol 2e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=4" | %mlir-run > %t.sm80
// RUN: %compare %t.sm80 %t.reference --rtol 2e-3 --atol 2e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 register-fragments=false thread-order=reverse" | %mlir-run > %t.shared
// RUN: %compare %t.shared %t.reference --rtol 2e-3 --atol 2e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 min-kv-splits=2" | %mlir-run > %t.splits
// RUN: %compare %t.splits %t.reference --rtol 2e-3 --atol 2e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a" | %mlir-run > %t.sm90a
// RUN: %compare %t.sm90a %t.reference --rtol 2e-3 --atol 2e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a overlap-softmax=false ping-pong=false thread-order=reverse" | %mlir-run > %t.plain
// RUN: %compare %t.plain %t.reference --rtol 2e-3 --atol 2e-3 | FileCheck %s
// CHECK: MATCH 420 values

!q = tensor<1x2x6x4xf16>
!kv = tensor<1x2x11x4xf16>
!lse = tensor<1x2x6xf32>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @softcap(%q: !q, %k: !kv, %v: !kv) -> (!q, !lse) {
  %o, %l = fa.attention %q, %k, %v scale = 2.0 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %cap = arith.constant 1.5 : f32
    %x = arith.divf %s, %cap : f32
    %t = math.tanh %x : f32
    %r = arith.mulf %t, %cap : f32
    fa.yield %r : f32
  } : !q, !kv, !kv -> !q, !lse
  return %o, %l : !q, !lse
}

func.func @alibi(%q: !q, %k: !kv, %v: !kv, %slopes: tensor<2xf32>) -> (!q, !lse) {
  %o, %l = fa.attention %q, %k, %v scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %slope = tensor.extract %slopes[%h] : tensor<2xf32>
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %t = arith.mulf %slope, %df : f32
    %r = arith.addf %s, %t : f32
    fa.yield %r : f32
  } : !q, !kv, !kv -> !q, !lse
  return %o, %l : !q, !lse
}

// A T5-style table: bucket = clamp(k - q + 4, 0, 8), bias = table[bucket, h].
func.func @relative_table(%q: !q, %k: !kv, %v: !kv, %table: tensor<9x2xf32>) -> (!q, !lse) {
  %o, %l = fa.attention %q, %k, %v scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %d = arith.subi %j, %i : index
    %e = arith.addi %d, %c4 : index
    %lo = arith.maxsi %e, %c0 : index
    %bucket = arith.minsi %lo, %c8 : index
    %bias = tensor.extract %table[%bucket, %h] : tensor<9x2xf32>
    %r = arith.addf %s, %bias : f32
    fa.yield %r : f32
  } : !q, !kv, !kv -> !q, !lse
  return %o, %l : !q, !lse
}

// Prefix-LM over a 3-key prefix: k < 3 or k <= q + 5 (bottom-right).
func.func @prefix_lm(%q: !q, %k: !kv, %v: !kv) -> (!q, !lse) {
  %o, %l = fa.attention %q, %k, %v scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %prefix = arith.cmpi slt, %j, %c3 : index
    %diag = arith.addi %i, %c5 : index
    %causal = arith.cmpi sle, %j, %diag : index
    %keep = arith.ori %prefix, %causal : i1
    fa.yield %keep : i1
  } : !q, !kv, !kv -> !q, !lse
  return %o, %l : !q, !lse
}

// Documents: query i belongs to qdoc[i], key j to kdoc[j].
func.func @documents(%q: !q, %k: !kv, %v: !kv, %qdoc: tensor<6xi32>, %kdoc: tensor<11xi32>) -> (!q, !lse) {
  %o, %l = fa.attention %q, %k, %v scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %qdoc[%i] : tensor<6xi32>
    %c = tensor.extract %kdoc[%j] : tensor<11xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : !q, !kv, !kv -> !q, !lse
  return %o, %l : !q, !lse
}

// Sinks; the mask_mod hides every key from rows 1 and 4.
func.func @sinks(%q: !q, %k: !kv, %v: !kv, %sinks: tensor<2xf32>) -> (!q, !lse) {
  %o, %l = fa.attention %q, %k, %v sinks(%sinks : tensor<2xf32>) scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %r = arith.remui %i, %c3 : index
    %keep = arith.cmpi ne, %r, %c1 : index
    fa.yield %keep : i1
  } : !q, !kv, !kv -> !q, !lse
  return %o, %l : !q, !lse
}

func.func @everything(%q: !q, %k: !kv, %v: !kv, %slopes: tensor<2xf32>,
    %sinks: tensor<2xf32>, %bias: tensor<1x1x6x11xf32>) -> (!q, !lse) {
  %o, %l = fa.attention %q, %k, %v mask(%bias : tensor<1x1x6x11xf32>)
      sinks(%sinks : tensor<2xf32>) scale = 0.5 causal = bottom_right score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %slope = tensor.extract %slopes[%h] : tensor<2xf32>
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %t = arith.mulf %slope, %df : f32
    %a = arith.addf %s, %t : f32
    %cap = arith.constant 2.0 : f32
    %x = arith.divf %a, %cap : f32
    %th = math.tanh %x : f32
    %r = arith.mulf %th, %cap : f32
    fa.yield %r : f32
  } mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c2 = arith.constant 2 : index
    %r = arith.remui %j, %c2 : index
    %c0 = arith.constant 0 : index
    %keep = arith.cmpi eq, %r, %c0 : index
    fa.yield %keep : i1
  } : !q, !kv, !kv -> !q, !lse
  return %o, %l : !q, !lse
}

// Deterministic inputs: sin(0.7 * (131 a + 17 b + c) + seed) over the
// flattened [rows, 4] view.
func.func @input(%seed: f32, %rows: index) -> tensor<?x4xf32> {
  %e = tensor.empty(%rows) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x4xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %c = linalg.index 1 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c17 : index
    %s1 = arith.addi %a1, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

func.func @print(%o: !q, %l: !lse) {
  %wide = arith.extf %o : !q to tensor<1x2x6x4xf32>
  %u = tensor.cast %wide : tensor<1x2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %w = tensor.cast %l : !lse to tensor<*xf32>
  call @printMemrefF32(%w) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %c12 = arith.constant 12 : index
  %c22 = arith.constant 22 : index
  %qf = call @input(%s1, %c12) : (f32, index) -> tensor<?x4xf32>
  %kf = call @input(%s2, %c22) : (f32, index) -> tensor<?x4xf32>
  %vf = call @input(%s3, %c22) : (f32, index) -> tensor<?x4xf32>
  %qs = tensor.cast %qf : tensor<?x4xf32> to tensor<12x4xf32>
  %ks = tensor.cast %kf : tensor<?x4xf32> to tensor<22x4xf32>
  %vs = tensor.cast %vf : tensor<?x4xf32> to tensor<22x4xf32>
  %qh = arith.truncf %qs : tensor<12x4xf32> to tensor<12x4xf16>
  %kh = arith.truncf %ks : tensor<22x4xf32> to tensor<22x4xf16>
  %vh = arith.truncf %vs : tensor<22x4xf32> to tensor<22x4xf16>
  %q = tensor.expand_shape %qh [[0, 1, 2], [3]] output_shape [1, 2, 6, 4] : tensor<12x4xf16> into !q
  %k = tensor.expand_shape %kh [[0, 1, 2], [3]] output_shape [1, 2, 11, 4] : tensor<22x4xf16> into !kv
  %v = tensor.expand_shape %vh [[0, 1, 2], [3]] output_shape [1, 2, 11, 4] : tensor<22x4xf16> into !kv
  %slopes = arith.constant dense<[0.5, 0.125]> : tensor<2xf32>
  %table = arith.constant dense<[[0.1, -0.2], [0.3, 0.0], [-0.5, 0.25], [1.0, -1.0], [0.0, 0.5],
                                 [0.7, 0.2], [-0.3, -0.6], [0.2, 0.9], [-1.2, 0.4]]> : tensor<9x2xf32>
  %qdoc = arith.constant dense<[0, 0, 1, 1, 1, 2]> : tensor<6xi32>
  %kdoc = arith.constant dense<[0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3]> : tensor<11xi32>
  %sinks = arith.constant dense<[0.75, 0xFF800000]> : tensor<2xf32>
  %bias = arith.constant dense<0.25> : tensor<1x1x6x11xf32>

  %o1, %l1 = call @softcap(%q, %k, %v) : (!q, !kv, !kv) -> (!q, !lse)
  call @print(%o1, %l1) : (!q, !lse) -> ()
  %o2, %l2 = call @alibi(%q, %k, %v, %slopes) : (!q, !kv, !kv, tensor<2xf32>) -> (!q, !lse)
  call @print(%o2, %l2) : (!q, !lse) -> ()
  %o3, %l3 = call @relative_table(%q, %k, %v, %table) : (!q, !kv, !kv, tensor<9x2xf32>) -> (!q, !lse)
  call @print(%o3, %l3) : (!q, !lse) -> ()
  %o4, %l4 = call @prefix_lm(%q, %k, %v) : (!q, !kv, !kv) -> (!q, !lse)
  call @print(%o4, %l4) : (!q, !lse) -> ()
  %o5, %l5 = call @documents(%q, %k, %v, %qdoc, %kdoc) : (!q, !kv, !kv, tensor<6xi32>, tensor<11xi32>) -> (!q, !lse)
  call @print(%o5, %l5) : (!q, !lse) -> ()
  %o6, %l6 = call @sinks(%q, %k, %v, %sinks) : (!q, !kv, !kv, tensor<2xf32>) -> (!q, !lse)
  call @print(%o6, %l6) : (!q, !lse) -> ()
  %o7, %l7 = call @everything(%q, %k, %v, %slopes, %sinks, %bias) : (!q, !kv, !kv, tensor<2xf32>, tensor<2xf32>, tensor<1x1x6x11xf32>) -> (!q, !lse)
  call @print(%o7, %l7) : (!q, !lse) -> ()
  return
}
