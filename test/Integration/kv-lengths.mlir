// Per-sequence key lengths (kv_lengths): the op with lengths [0, 70, 37,
// 100] over Nk = 70 (an empty sequence, a full one, a partial one, and a
// length past Nk, clamped) and a causal mask aligned bottom-right to each
// sequence's own length, against the same attention written with an
// explicit keep-mask keep[b, i, j] = j < L_b and j <= i + L_b - Nq, computed
// by the unfused reference. Through the tiled path (3 key splits), the GPU
// kernels with emulated threads (tensor cores on sm_90 and sm_80, FMA on
// sm_75, threads reversed), and the reference decomposition itself.
// B = 4, Hq = 4, Hkv = 2, Nq = 3, Nk = 70, D = 16, f16, logsumexp.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %run-entry main_mask > %t.mask
// RUN: fa-opt %s --fa-cpu-pipeline | %run-entry main_lengths > %t.tiled
// RUN: %compare %t.tiled %t.mask --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %run-entry main_lengths > %t.reference
// RUN: %compare %t.reference %t.mask --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90 | %run-entry main_lengths > %t.sm90
// RUN: %compare %t.sm90 %t.mask --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 thread-order=reverse" | %run-entry main_lengths > %t.sm80
// RUN: %compare %t.sm80 %t.mask --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_75 | %run-entry main_lengths > %t.sm75
// RUN: %compare %t.sm75 %t.mask --rtol 2e-3 --atol 1e-3
// Without the causal mask, which hides key L_b by itself, the lengths alone
// bound the keys: the same comparisons with causal taken out of both.
// RUN: sed -e 's/ causal = bottom_right//' -e 's/%keep = arith.andi %inside, %below/%keep = arith.andi %inside, %inside/' %s > %t.nocausal.mlir
// RUN: fa-opt %t.nocausal.mlir --fa-cpu-pipeline=reference=true | %run-entry main_mask > %t.nocausal.mask
// RUN: fa-opt %t.nocausal.mlir --fa-cpu-pipeline=reference=true | %run-entry main_lengths > %t.nocausal.reference
// RUN: %compare %t.nocausal.reference %t.nocausal.mask --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %t.nocausal.mlir --fa-cpu-pipeline | %run-entry main_lengths > %t.nocausal.tiled
// RUN: %compare %t.nocausal.tiled %t.nocausal.mask --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %t.nocausal.mlir --fa-cpu-pipeline=gpu-kernel=sm_80 | %run-entry main_lengths > %t.nocausal.sm80
// RUN: %compare %t.nocausal.sm80 %t.nocausal.mask --rtol 2e-3 --atol 1e-3
// The empty sequence: output rows 0 and logsumexp -inf, never NaN.
// RUN: FileCheck %s --check-prefix=EMPTY < %t.sm90
// EMPTY: sizes = [4, 4, 3]
// EMPTY-NEXT: {{\[\[\[}}-inf,   -inf,   -inf],
// The kernel loads each sequence's length once per block and stops there.
// RUN: fa-opt %s --fa-select-tiles=target=sm_90 --fa-distribute-attention | FileCheck %s --check-prefix=KERNEL
// KERNEL: memref.load %{{.*}}[%{{.*}}] : memref<4xi32>
// KERNEL: arith.index_cast
// KERNEL: arith.maxsi
// KERNEL: arith.minsi

func.func private @printMemrefF32(tensor<*xf32>)

func.func @with_lengths(%q: tensor<4x4x3x16xf16>, %k: tensor<4x2x70x16xf16>, %v: tensor<4x2x70x16xf16>, %len: tensor<4xi32>) -> (tensor<4x4x3x16xf16>, tensor<4x4x3xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%len : tensor<4xi32>) scale = 0.25 causal = bottom_right
      tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 2, kv_splits = 3>
      : tensor<4x4x3x16xf16>, tensor<4x2x70x16xf16>, tensor<4x2x70x16xf16> -> tensor<4x4x3x16xf16>, tensor<4x4x3xf32>
  return %o, %l : tensor<4x4x3x16xf16>, tensor<4x4x3xf32>
}

func.func @with_mask(%q: tensor<4x4x3x16xf16>, %k: tensor<4x2x70x16xf16>, %v: tensor<4x2x70x16xf16>, %m: tensor<4x1x3x70xi1>) -> (tensor<4x4x3x16xf16>, tensor<4x4x3xf32>) {
  %o, %l = fa.attention %q, %k, %v mask(%m : tensor<4x1x3x70xi1>) scale = 0.25
      : tensor<4x4x3x16xf16>, tensor<4x2x70x16xf16>, tensor<4x2x70x16xf16> -> tensor<4x4x3x16xf16>, tensor<4x4x3xf32>
  return %o, %l : tensor<4x4x3x16xf16>, tensor<4x4x3xf32>
}

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

func.func @fill(%t: tensor<?x?x?x?xf16>, %seed: f32) -> tensor<?x?x?x?xf16> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c7 = arith.constant 7919 : index
    %c5 = arith.constant 131 : index
    %c3 = arith.constant 29 : index
    %a = arith.muli %i0, %c7 : index
    %b = arith.muli %i1, %c5 : index
    %c = arith.muli %i2, %c3 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %i3 : index
    %n = arith.index_cast %s2 : index to i64
    %f = arith.sitofp %n : i64 to f32
    %k = arith.constant 0.37 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %h = arith.truncf %z : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x?x?x?xf16>
  return %r : tensor<?x?x?x?xf16>
}

func.func @inputs() -> (tensor<4x4x3x16xf16>, tensor<4x2x70x16xf16>, tensor<4x2x70x16xf16>, tensor<4xi32>) {
  %eq = tensor.empty() : tensor<4x4x3x16xf16>
  %ek = tensor.empty() : tensor<4x2x70x16xf16>
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %dq = tensor.cast %eq : tensor<4x4x3x16xf16> to tensor<?x?x?x?xf16>
  %dk = tensor.cast %ek : tensor<4x2x70x16xf16> to tensor<?x?x?x?xf16>
  %fq = call @fill(%dq, %s1) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %fk = call @fill(%dk, %s2) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %fv = call @fill(%dk, %s3) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %q = tensor.cast %fq : tensor<?x?x?x?xf16> to tensor<4x4x3x16xf16>
  %k = tensor.cast %fk : tensor<?x?x?x?xf16> to tensor<4x2x70x16xf16>
  %v = tensor.cast %fv : tensor<?x?x?x?xf16> to tensor<4x2x70x16xf16>
  %len = arith.constant dense<[0, 70, 37, 100]> : tensor<4xi32>
  return %q, %k, %v, %len : tensor<4x4x3x16xf16>, tensor<4x2x70x16xf16>, tensor<4x2x70x16xf16>, tensor<4xi32>
}

func.func @print(%o: tensor<4x4x3x16xf16>, %l: tensor<4x4x3xf32>) {
  %e = tensor.empty() : tensor<4x4x3x16xf32>
  %of = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : tensor<4x4x3x16xf16>) outs(%e : tensor<4x4x3x16xf32>) {
  ^bb0(%x: f16, %y: f32):
    %w = arith.extf %x : f16 to f32
    linalg.yield %w : f32
  } -> tensor<4x4x3x16xf32>
  %ou = tensor.cast %of : tensor<4x4x3x16xf32> to tensor<*xf32>
  %lu = tensor.cast %l : tensor<4x4x3xf32> to tensor<*xf32>
  call @printMemrefF32(%lu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}

func.func @main_lengths() {
  %q, %k, %v, %len = call @inputs() : () -> (tensor<4x4x3x16xf16>, tensor<4x2x70x16xf16>, tensor<4x2x70x16xf16>, tensor<4xi32>)
  %o, %l = call @with_lengths(%q, %k, %v, %len) : (tensor<4x4x3x16xf16>, tensor<4x2x70x16xf16>, tensor<4x2x70x16xf16>, tensor<4xi32>) -> (tensor<4x4x3x16xf16>, tensor<4x4x3xf32>)
  call @print(%o, %l) : (tensor<4x4x3x16xf16>, tensor<4x4x3xf32>) -> ()
  return
}

// keep[b, 0, i, j] = j < L_b and j <= i + L_b - 3, L_b = clamp(len[b], 0, 70).
func.func @main_mask() {
  %q, %k, %v, %len = call @inputs() : () -> (tensor<4x4x3x16xf16>, tensor<4x2x70x16xf16>, tensor<4x2x70x16xf16>, tensor<4xi32>)
  %e = tensor.empty() : tensor<4x1x3x70xi1>
  %m = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b)>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%len : tensor<4xi32>) outs(%e : tensor<4x1x3x70xi1>) {
  ^bb0(%n: i32, %out: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ni = arith.index_cast %n : i32 to index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c70 = arith.constant 70 : index
    %lo = arith.maxsi %ni, %c0 : index
    %L = arith.minsi %lo, %c70 : index
    %inside = arith.cmpi slt, %j, %L : index
    %d0 = arith.addi %i, %L : index
    %diag = arith.subi %d0, %c3 : index
    %below = arith.cmpi sle, %j, %diag : index
    %keep = arith.andi %inside, %below : i1
    linalg.yield %keep : i1
  } -> tensor<4x1x3x70xi1>
  %o, %l = call @with_mask(%q, %k, %v, %m) : (tensor<4x4x3x16xf16>, tensor<4x2x70x16xf16>, tensor<4x2x70x16xf16>, tensor<4x1x3x70xi1>) -> (tensor<4x4x3x16xf16>, tensor<4x4x3xf32>)
  call @print(%o, %l) : (tensor<4x4x3x16xf16>, tensor<4x4x3xf32>) -> ()
  return
}
