// Packed sequences (FlashAttention's varlen layout): three sequences of
// 5, 0 and 9 queries and 12, 7 and 20 keys stored back to back in
// Q [1, 4, 14, 16] and K, V [1, 2, 39, 16], with cu_seqlens_q = [0, 5, 5, 14]
// and cu_seqlens_k = [0, 12, 19, 39], a causal mask aligned bottom-right to
// each sequence (its last query sees its last key), GQA 2, f16. Against
// each sequence computed on its own (static slices, the unfused reference),
// through the tiled path (2 key splits), the reference decomposition, and
// the GPU kernels with emulated threads (tensor cores on sm_90 and sm_80
// with threads reversed, FMA on sm_75). Then the same sequences with a
// top-left causal window of 4 keys per sequence, without splits.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %run-entry main_separate > %t.separate
// RUN: fa-opt %s --fa-cpu-pipeline | %run-entry main_packed > %t.tiled
// RUN: %compare %t.tiled %t.separate --rtol 2e-3 --atol 1e-3 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %run-entry main_packed > %t.reference
// RUN: %compare %t.reference %t.separate --rtol 2e-3 --atol 1e-3 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90 | %run-entry main_packed > %t.sm90
// RUN: %compare %t.sm90 %t.separate --rtol 2e-3 --atol 1e-3 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 thread-order=reverse" | %run-entry main_packed > %t.sm80
// RUN: %compare %t.sm80 %t.separate --rtol 2e-3 --atol 1e-3 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_75 | %run-entry main_packed > %t.sm75
// RUN: %compare %t.sm75 %t.separate --rtol 2e-3 --atol 1e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 1904 values

func.func private @printMemrefF32(tensor<*xf32>)

func.func @packed(%q: tensor<1x4x14x16xf16>, %k: tensor<1x2x39x16xf16>, %v: tensor<1x2x39x16xf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> (tensor<1x4x14x16xf16>, tensor<1x4x14xf32>) {
  %o, %l = fa.attention %q, %k, %v cu_seqlens_q(%cq : tensor<4xi32>) cu_seqlens_k(%ck : tensor<4xi32>) scale = 0.25 causal = bottom_right
      tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 2, kv_splits = 2>
      : tensor<1x4x14x16xf16>, tensor<1x2x39x16xf16>, tensor<1x2x39x16xf16> -> tensor<1x4x14x16xf16>, tensor<1x4x14xf32>
  return %o, %l : tensor<1x4x14x16xf16>, tensor<1x4x14xf32>
}

func.func @packed_window(%q: tensor<1x4x14x16xf16>, %k: tensor<1x2x39x16xf16>, %v: tensor<1x2x39x16xf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> (tensor<1x4x14x16xf16>, tensor<1x4x14xf32>) {
  %o, %l = fa.attention %q, %k, %v cu_seqlens_q(%cq : tensor<4xi32>) cu_seqlens_k(%ck : tensor<4xi32>) scale = 0.25 causal = top_left window = <left = 4, right = 0, align = top_left>
      tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1>
      : tensor<1x4x14x16xf16>, tensor<1x2x39x16xf16>, tensor<1x2x39x16xf16> -> tensor<1x4x14x16xf16>, tensor<1x4x14xf32>
  return %o, %l : tensor<1x4x14x16xf16>, tensor<1x4x14xf32>
}

func.func @sequence0(%q: tensor<1x4x5x16xf16>, %k: tensor<1x2x12x16xf16>, %v: tensor<1x2x12x16xf16>) -> (tensor<1x4x5x16xf16>, tensor<1x4x5xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.25 causal = bottom_right
      : tensor<1x4x5x16xf16>, tensor<1x2x12x16xf16>, tensor<1x2x12x16xf16> -> tensor<1x4x5x16xf16>, tensor<1x4x5xf32>
  return %o, %l : tensor<1x4x5x16xf16>, tensor<1x4x5xf32>
}

func.func @sequence2(%q: tensor<1x4x9x16xf16>, %k: tensor<1x2x20x16xf16>, %v: tensor<1x2x20x16xf16>) -> (tensor<1x4x9x16xf16>, tensor<1x4x9xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.25 causal = bottom_right
      : tensor<1x4x9x16xf16>, tensor<1x2x20x16xf16>, tensor<1x2x20x16xf16> -> tensor<1x4x9x16xf16>, tensor<1x4x9xf32>
  return %o, %l : tensor<1x4x9x16xf16>, tensor<1x4x9xf32>
}

func.func @window0(%q: tensor<1x4x5x16xf16>, %k: tensor<1x2x12x16xf16>, %v: tensor<1x2x12x16xf16>) -> (tensor<1x4x5x16xf16>, tensor<1x4x5xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.25 causal = top_left window = <left = 4, right = 0, align = top_left>
      : tensor<1x4x5x16xf16>, tensor<1x2x12x16xf16>, tensor<1x2x12x16xf16> -> tensor<1x4x5x16xf16>, tensor<1x4x5xf32>
  return %o, %l : tensor<1x4x5x16xf16>, tensor<1x4x5xf32>
}

func.func @window2(%q: tensor<1x4x9x16xf16>, %k: tensor<1x2x20x16xf16>, %v: tensor<1x2x20x16xf16>) -> (tensor<1x4x9x16xf16>, tensor<1x4x9xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.25 causal = top_left window = <left = 4, right = 0, align = top_left>
      : tensor<1x4x9x16xf16>, tensor<1x2x20x16xf16>, tensor<1x2x20x16xf16> -> tensor<1x4x9x16xf16>, tensor<1x4x9xf32>
  return %o, %l : tensor<1x4x9x16xf16>, tensor<1x4x9xf32>
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

func.func @inputs() -> (tensor<1x4x14x16xf16>, tensor<1x2x39x16xf16>, tensor<1x2x39x16xf16>) {
  %eq = tensor.empty() : tensor<1x4x14x16xf16>
  %ek = tensor.empty() : tensor<1x2x39x16xf16>
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %dq = tensor.cast %eq : tensor<1x4x14x16xf16> to tensor<?x?x?x?xf16>
  %dk = tensor.cast %ek : tensor<1x2x39x16xf16> to tensor<?x?x?x?xf16>
  %fq = call @fill(%dq, %s1) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %fk = call @fill(%dk, %s2) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %fv = call @fill(%dk, %s3) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %q = tensor.cast %fq : tensor<?x?x?x?xf16> to tensor<1x4x14x16xf16>
  %k = tensor.cast %fk : tensor<?x?x?x?xf16> to tensor<1x2x39x16xf16>
  %v = tensor.cast %fv : tensor<?x?x?x?xf16> to tensor<1x2x39x16xf16>
  return %q, %k, %v : tensor<1x4x14x16xf16>, tensor<1x2x39x16xf16>, tensor<1x2x39x16xf16>
}

func.func @print(%o: tensor<1x4x14x16xf16>, %l: tensor<1x4x14xf32>) {
  %e = tensor.empty() : tensor<1x4x14x16xf32>
  %of = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : tensor<1x4x14x16xf16>) outs(%e : tensor<1x4x14x16xf32>) {
  ^bb0(%x: f16, %y: f32):
    %w = arith.extf %x : f16 to f32
    linalg.yield %w : f32
  } -> tensor<1x4x14x16xf32>
  %ou = tensor.cast %of : tensor<1x4x14x16xf32> to tensor<*xf32>
  %lu = tensor.cast %l : tensor<1x4x14xf32> to tensor<*xf32>
  call @printMemrefF32(%lu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}

func.func @main_packed() {
  %q, %k, %v = call @inputs() : () -> (tensor<1x4x14x16xf16>, tensor<1x2x39x16xf16>, tensor<1x2x39x16xf16>)
  %cq = arith.constant dense<[0, 5, 5, 14]> : tensor<4xi32>
  %ck = arith.constant dense<[0, 12, 19, 39]> : tensor<4xi32>
  %o, %l = call @packed(%q, %k, %v, %cq, %ck) : (tensor<1x4x14x16xf16>, tensor<1x2x39x16xf16>, tensor<1x2x39x16xf16>, tensor<4xi32>, tensor<4xi32>) -> (tensor<1x4x14x16xf16>, tensor<1x4x14xf32>)
  call @print(%o, %l) : (tensor<1x4x14x16xf16>, tensor<1x4x14xf32>) -> ()
  %ow, %lw = call @packed_window(%q, %k, %v, %cq, %ck) : (tensor<1x4x14x16xf16>, tensor<1x2x39x16xf16>, tensor<1x2x39x16xf16>, tensor<4xi32>, tensor<4xi32>) -> (tensor<1x4x14x16xf16>, tensor<1x4x14xf32>)
  call @print(%ow, %lw) : (tensor<1x4x14x16xf16>, tensor<1x4x14xf32>) -> ()
  return
}

// Each sequence on its own, its results put where the packed op writes them.
func.func @main_separate() {
  %q, %k, %v = call @inputs() : () -> (tensor<1x4x14x16xf16>, tensor<1x2x39x16xf16>, tensor<1x2x39x16xf16>)
  %oe = tensor.empty() : tensor<1x4x14x16xf16>
  %le = tensor.empty() : tensor<1x4x14xf32>
  %q0 = tensor.extract_slice %q[0, 0, 0, 0] [1, 4, 5, 16] [1, 1, 1, 1] : tensor<1x4x14x16xf16> to tensor<1x4x5x16xf16>
  %k0 = tensor.extract_slice %k[0, 0, 0, 0] [1, 2, 12, 16] [1, 1, 1, 1] : tensor<1x2x39x16xf16> to tensor<1x2x12x16xf16>
  %v0 = tensor.extract_slice %v[0, 0, 0, 0] [1, 2, 12, 16] [1, 1, 1, 1] : tensor<1x2x39x16xf16> to tensor<1x2x12x16xf16>
  %o0, %l0 = call @sequence0(%q0, %k0, %v0) : (tensor<1x4x5x16xf16>, tensor<1x2x12x16xf16>, tensor<1x2x12x16xf16>) -> (tensor<1x4x5x16xf16>, tensor<1x4x5xf32>)
  %oa0 = tensor.insert_slice %o0 into %oe[0, 0, 0, 0] [1, 4, 5, 16] [1, 1, 1, 1] : tensor<1x4x5x16xf16> into tensor<1x4x14x16xf16>
  %la0 = tensor.insert_slice %l0 into %le[0, 0, 0] [1, 4, 5] [1, 1, 1] : tensor<1x4x5xf32> into tensor<1x4x14xf32>
  %q2 = tensor.extract_slice %q[0, 0, 5, 0] [1, 4, 9, 16] [1, 1, 1, 1] : tensor<1x4x14x16xf16> to tensor<1x4x9x16xf16>
  %k2 = tensor.extract_slice %k[0, 0, 19, 0] [1, 2, 20, 16] [1, 1, 1, 1] : tensor<1x2x39x16xf16> to tensor<1x2x20x16xf16>
  %v2 = tensor.extract_slice %v[0, 0, 19, 0] [1, 2, 20, 16] [1, 1, 1, 1] : tensor<1x2x39x16xf16> to tensor<1x2x20x16xf16>
  %o2, %l2 = call @sequence2(%q2, %k2, %v2) : (tensor<1x4x9x16xf16>, tensor<1x2x20x16xf16>, tensor<1x2x20x16xf16>) -> (tensor<1x4x9x16xf16>, tensor<1x4x9xf32>)
  %oa2 = tensor.insert_slice %o2 into %oa0[0, 0, 5, 0] [1, 4, 9, 16] [1, 1, 1, 1] : tensor<1x4x9x16xf16> into tensor<1x4x14x16xf16>
  %la2 = tensor.insert_slice %l2 into %la0[0, 0, 5] [1, 4, 9] [1, 1, 1] : tensor<1x4x9xf32> into tensor<1x4x14xf32>
  call @print(%oa2, %la2) : (tensor<1x4x14x16xf16>, tensor<1x4x14xf32>) -> ()
  %wo0, %wl0 = call @window0(%q0, %k0, %v0) : (tensor<1x4x5x16xf16>, tensor<1x2x12x16xf16>, tensor<1x2x12x16xf16>) -> (tensor<1x4x5x16xf16>, tensor<1x4x5xf32>)
  %woa0 = tensor.insert_slice %wo0 into %oe[0, 0, 0, 0] [1, 4, 5, 16] [1, 1, 1, 1] : tensor<1x4x5x16xf16> into tensor<1x4x14x16xf16>
  %wla0 = tensor.insert_slice %wl0 into %le[0, 0, 0] [1, 4, 5] [1, 1, 1] : tensor<1x4x5xf32> into tensor<1x4x14xf32>
  %wo2, %wl2 = call @window2(%q2, %k2, %v2) : (tensor<1x4x9x16xf16>, tensor<1x2x20x16xf16>, tensor<1x2x20x16xf16>) -> (tensor<1x4x9x16xf16>, tensor<1x4x9xf32>)
  %woa2 = tensor.insert_slice %wo2 into %woa0[0, 0, 5, 0] [1, 4, 9, 16] [1, 1, 1, 1] : tensor<1x4x9x16xf16> into tensor<1x4x14x16xf16>
  %wla2 = tensor.insert_slice %wl2 into %wla0[0, 0, 5] [1, 4, 9] [1, 1, 1] : tensor<1x4x9xf32> into tensor<1x4x14xf32>
  call @print(%woa2, %wla2) : (tensor<1x4x14x16xf16>, tensor<1x4x14xf32>) -> ()
  return
}
