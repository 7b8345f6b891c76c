// sm_90a's TMA producer kernel reading K and V through a page table: a
// cache of 6 pages of 64 slots ([P, S, Hkv, D] = [6, 64, 2, 64]), each
// sequence's 2 table entries pointing at pages in reverse order, kv_lengths
// [128, 37, 70] (Nk = 128). The entry past the second sequence's last
// key's page is out of range (99) and never read, and every slot past a
// sequence's length holds NaN. A 32-key block lies in one page (at slot 0
// or 32): one box per block, whose page the producer looks up; rows past
// the length arrive with the last block and are masked, and V's zeroed
// before P V. Causal, not, and a sliding window (the walk from the first
// block); GQA 2. Against the same attention on contiguous K and V
// [3, 2, 128, 64] with the same lengths and finite values (the reference),
// emulated threads in both orders. Then the whole table without
// kv_lengths, in 64-key blocks (a page each).
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %run-entry main_contiguous > %t.reference
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true max-block-kv=32" | %run-entry main_paged > %t.tma
// RUN: %compare %t.tma %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true max-block-kv=32 thread-order=reverse" | %run-entry main_paged > %t.reverse
// RUN: %compare %t.reverse %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// CHECK: MATCH 218400 values
// The same ops on sm_80's and sm_90's mma.sync kernels (cp.async): 64-slot
// pages hold whole key blocks, so a tile's copies read its one table
// entry (TileCopier::tilePage), K's and V's the same.
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=32" | %run-entry main_paged > %t.sm80
// RUN: %compare %t.sm80 %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90 max-block-kv=32 thread-order=reverse" | %run-entry main_paged > %t.sm90
// RUN: %compare %t.sm90 %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// The paged ops get the TMA producer kernel (pages whose size the key
// blocks do not divide keep the cp.async kernel:
// test/Transforms/GPUKernel/distribute-tma-producer.mlir).
// RUN: fa-opt %s "--fa-select-tiles=target=sm_90a warpgroup-tiles=true max-block-kv=32 report=-" -o /dev/null | FileCheck %s --check-prefix=KERNEL
// KERNEL-COUNT-8: "gpu_kernel":"wgmma-tma-ws"

!q = tensor<3x4x70x64xf16>
!k = tensor<3x2x128x64xf16>
!c = tensor<6x64x2x64xf16>
!t = tensor<3x2xi32>
!n = tensor<3xi32>
!o = tensor<3x4x70x64xf16>
!l = tensor<3x4x70xf32>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @paged_causal(%q: !q, %k: !c, %v: !c, %n: !n, %t: !t) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : !n) page_table(%t : !t) scale = 0.125 causal = bottom_right : !q, !c, !c -> !o, !l
  return %o, %l : !o, !l
}

func.func @paged(%q: !q, %k: !c, %v: !c, %n: !n, %t: !t) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : !n) page_table(%t : !t) scale = 0.125 : !q, !c, !c -> !o, !l
  return %o, %l : !o, !l
}

func.func @paged_window(%q: !q, %k: !c, %v: !c, %n: !n, %t: !t) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : !n) page_table(%t : !t) scale = 0.125 window = <left = 40, right = 8, align = bottom_right> : !q, !c, !c -> !o, !l
  return %o, %l : !o, !l
}

func.func @paged_full(%q: !q, %k: !c, %v: !c, %t: !t) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v page_table(%t : !t) scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : !q, !c, !c -> !o, !l
  return %o, %l : !o, !l
}

func.func @contiguous_full(%q: !q, %k: !k, %v: !k) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v scale = 0.125 : !q, !k, !k -> !o, !l
  return %o, %l : !o, !l
}

func.func @contiguous_causal(%q: !q, %k: !k, %v: !k, %n: !n) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : !n) scale = 0.125 causal = bottom_right : !q, !k, !k -> !o, !l
  return %o, %l : !o, !l
}

func.func @contiguous(%q: !q, %k: !k, %v: !k, %n: !n) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : !n) scale = 0.125 : !q, !k, !k -> !o, !l
  return %o, %l : !o, !l
}

func.func @contiguous_window(%q: !q, %k: !k, %v: !k, %n: !n) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : !n) scale = 0.125 window = <left = 40, right = 8, align = bottom_right> : !q, !k, !k -> !o, !l
  return %o, %l : !o, !l
}

// sin(0.37 * (7919 b + 131 h + 29 r + c) + seed) in f16.
func.func @value(%b: index, %h: index, %r: index, %c: index, %seed: f32) -> f16 {
  %c7 = arith.constant 7919 : index
  %c5 = arith.constant 131 : index
  %c3 = arith.constant 29 : index
  %x0 = arith.muli %b, %c7 : index
  %x1 = arith.muli %h, %c5 : index
  %x2 = arith.muli %r, %c3 : index
  %s0 = arith.addi %x0, %x1 : index
  %s1 = arith.addi %s0, %x2 : index
  %s2 = arith.addi %s1, %c : index
  %n = arith.index_cast %s2 : index to i64
  %f = arith.sitofp %n : i64 to f32
  %k = arith.constant 0.37 : f32
  %x = arith.mulf %f, %k : f32
  %y = arith.addf %x, %seed : f32
  %z = math.sin %y : f32
  %h16 = arith.truncf %z : f32 to f16
  return %h16 : f16
}

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

func.func @contiguous_input(%seed: f32) -> !k {
  %e = tensor.empty() : !k
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !k) {
  ^bb0(%o: f16):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %row = linalg.index 2 : index
    %c = linalg.index 3 : index
    %v = func.call @value(%b, %h, %row, %c, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> !k
  return %r : !k
}

// Page p holds entry m of sequence b where p = 5 - (2 b + m); slots past
// the sequence's length hold NaN.
func.func @paged_input(%seed: f32, %n: !n) -> !c {
  %e = tensor.empty() : !c
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !c) {
  ^bb0(%o: f16):
    %p = linalg.index 0 : index
    %s = linalg.index 1 : index
    %h = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %q = arith.subi %c5, %p : index
    %b = arith.divui %q, %c2 : index
    %m = arith.remui %q, %c2 : index
    %base = arith.muli %m, %c64 : index
    %row = arith.addi %base, %s : index
    %v = func.call @value(%b, %h, %row, %c, %seed) : (index, index, index, index, f32) -> f16
    %len32 = tensor.extract %n[%b] : !n
    %len = arith.index_cast %len32 : i32 to index
    %past = arith.cmpi sge, %row, %len : index
    %nan = arith.constant 0x7E00 : f16
    %w = arith.select %past, %nan, %v : f16
    linalg.yield %w : f16
  } -> !c
  return %r : !c
}

func.func @query() -> !q {
  %e = tensor.empty() : !q
  %s = arith.constant 1.0 : f32
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !q) {
  ^bb0(%o: f16):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %row = linalg.index 2 : index
    %c = linalg.index 3 : index
    %v = func.call @value(%b, %h, %row, %c, %s) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> !q
  return %r : !q
}

func.func @print(%o: !o, %l: !l) {
  %f = arith.extf %o : !o to tensor<3x4x70x64xf32>
  %ou = tensor.cast %f : tensor<3x4x70x64xf32> to tensor<*xf32>
  %lu = tensor.cast %l : !l to tensor<*xf32>
  call @printMemrefF32(%lu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}

func.func @main_paged() {
  %q = call @query() : () -> !q
  %n = arith.constant dense<[128, 37, 70]> : !n
  // 5 - (2 b + m); past the second sequence's last used entry, out of
  // range.
  %t = arith.constant dense<[[5, 4], [3, 99], [1, 0]]> : !t
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %k = call @paged_input(%s2, %n) : (f32, !n) -> !c
  %v = call @paged_input(%s3, %n) : (f32, !n) -> !c
  %o1, %l1 = call @paged_causal(%q, %k, %v, %n, %t) : (!q, !c, !c, !n, !t) -> (!o, !l)
  call @print(%o1, %l1) : (!o, !l) -> ()
  %o2, %l2 = call @paged(%q, %k, %v, %n, %t) : (!q, !c, !c, !n, !t) -> (!o, !l)
  call @print(%o2, %l2) : (!o, !l) -> ()
  %o3, %l3 = call @paged_window(%q, %k, %v, %n, %t) : (!q, !c, !c, !n, !t) -> (!o, !l)
  call @print(%o3, %l3) : (!o, !l) -> ()
  %all = arith.constant dense<128> : !n
  %whole = arith.constant dense<[[5, 4], [3, 2], [1, 0]]> : !t
  %kf = call @paged_input(%s2, %all) : (f32, !n) -> !c
  %vf = call @paged_input(%s3, %all) : (f32, !n) -> !c
  %o4, %l4 = call @paged_full(%q, %kf, %vf, %whole) : (!q, !c, !c, !t) -> (!o, !l)
  call @print(%o4, %l4) : (!o, !l) -> ()
  return
}

func.func @main_contiguous() {
  %q = call @query() : () -> !q
  %n = arith.constant dense<[128, 37, 70]> : !n
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %k = call @contiguous_input(%s2) : (f32) -> !k
  %v = call @contiguous_input(%s3) : (f32) -> !k
  %o1, %l1 = call @contiguous_causal(%q, %k, %v, %n) : (!q, !k, !k, !n) -> (!o, !l)
  call @print(%o1, %l1) : (!o, !l) -> ()
  %o2, %l2 = call @contiguous(%q, %k, %v, %n) : (!q, !k, !k, !n) -> (!o, !l)
  call @print(%o2, %l2) : (!o, !l) -> ()
  %o3, %l3 = call @contiguous_window(%q, %k, %v, %n) : (!q, !k, !k, !n) -> (!o, !l)
  call @print(%o3, %l3) : (!o, !l) -> ()
  %o4, %l4 = call @contiguous_full(%q, %k, %v) : (!q, !k, !k) -> (!o, !l)
  call @print(%o4, %l4) : (!o, !l) -> ()
  return
}
