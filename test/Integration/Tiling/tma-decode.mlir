// Decode steps on sm_90a's TMA producer kernel: grouped query heads packed
// into one 64-row warpgroup block (pack_gqa) and the keys split across
// blocks (kv_splits) with the merge kernel, written on the ops (the tile
// selection keeps decode on the mma.sync kernel, docs/Targets.md). The
// packed block's rows past the group come from TMA boxes past Q's rows
// (zeros) and are never stored.
//  - @gqa: 4 query heads per key/value head, d = 128, kv_lengths
//    [1000, 613] (the second sequence's keys past its length are NaN),
//    bottom-right causal, 128-key blocks in 4 splits;
//  - @mqa: 16 query heads on one key/value head, d = 64, 777 keys (a
//    partial last block), 3 splits;
//  - @two_tokens: two query tokens per sequence (a packed row keeps no
//    position, so no causal mask), 8 packed rows, 2 splits of 32-key
//    blocks;
//  - @paged: @gqa's step through a page table of 16-slot pages (16-row
//    boxes, each through its entry), entries in reverse order, NaN past
//    every length.
// Against the reference on contiguous K and V with finite values, emulated
// threads in both orders.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %run-entry main_contiguous > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90a | %run-entry main_kernel > %t.tma
// RUN: %compare %t.tma %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a thread-order=reverse" | %run-entry main_kernel > %t.reverse
// RUN: %compare %t.reverse %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// CHECK: MATCH 6208 values
// RUN: fa-opt %s "--fa-select-tiles=target=sm_90a report=-" -o /dev/null | FileCheck %s --check-prefix=KERNEL
// KERNEL-COUNT-4: "gpu_kernel":"wgmma-tma-ws"

func.func private @printMemrefF32(tensor<*xf32>)

func.func @gqa(%q: tensor<2x8x1x128xf16>, %k: tensor<2x2x1000x128xf16>, %v: tensor<2x2x1000x128xf16>, %n: tensor<2xi32>) -> (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<2xi32>) scale = 0.088 causal = bottom_right tiling = <block_q = 64, block_kv = 128, warps = 4, stages = 2, kv_splits = 4, pack_gqa = true> : tensor<2x8x1x128xf16>, tensor<2x2x1000x128xf16>, tensor<2x2x1000x128xf16> -> tensor<2x8x1x128xf16>, tensor<2x8x1xf32>
  return %o, %l : tensor<2x8x1x128xf16>, tensor<2x8x1xf32>
}

func.func @gqa_reference(%q: tensor<2x8x1x128xf16>, %k: tensor<2x2x1000x128xf16>, %v: tensor<2x2x1000x128xf16>, %n: tensor<2xi32>) -> (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<2xi32>) scale = 0.088 causal = bottom_right : tensor<2x8x1x128xf16>, tensor<2x2x1000x128xf16>, tensor<2x2x1000x128xf16> -> tensor<2x8x1x128xf16>, tensor<2x8x1xf32>
  return %o, %l : tensor<2x8x1x128xf16>, tensor<2x8x1xf32>
}

func.func @paged(%q: tensor<2x8x1x128xf16>, %k: tensor<128x16x2x128xf16>, %v: tensor<128x16x2x128xf16>, %n: tensor<2xi32>, %t: tensor<2x63xi32>) -> (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<2xi32>) page_table(%t : tensor<2x63xi32>) scale = 0.088 causal = bottom_right tiling = <block_q = 64, block_kv = 128, warps = 4, stages = 2, kv_splits = 4, pack_gqa = true> : tensor<2x8x1x128xf16>, tensor<128x16x2x128xf16>, tensor<128x16x2x128xf16> -> tensor<2x8x1x128xf16>, tensor<2x8x1xf32>
  return %o, %l : tensor<2x8x1x128xf16>, tensor<2x8x1xf32>
}

func.func @paged_reference(%q: tensor<2x8x1x128xf16>, %k: tensor<2x2x1008x128xf16>, %v: tensor<2x2x1008x128xf16>, %n: tensor<2xi32>) -> (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<2xi32>) scale = 0.088 causal = bottom_right : tensor<2x8x1x128xf16>, tensor<2x2x1008x128xf16>, tensor<2x2x1008x128xf16> -> tensor<2x8x1x128xf16>, tensor<2x8x1xf32>
  return %o, %l : tensor<2x8x1x128xf16>, tensor<2x8x1xf32>
}

func.func @mqa(%q: tensor<1x16x1x64xf16>, %k: tensor<1x1x777x64xf16>, %v: tensor<1x1x777x64xf16>) -> (tensor<1x16x1x64xf16>, tensor<1x16x1xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.088 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2, kv_splits = 3, pack_gqa = true> : tensor<1x16x1x64xf16>, tensor<1x1x777x64xf16>, tensor<1x1x777x64xf16> -> tensor<1x16x1x64xf16>, tensor<1x16x1xf32>
  return %o, %l : tensor<1x16x1x64xf16>, tensor<1x16x1xf32>
}

func.func @mqa_reference(%q: tensor<1x16x1x64xf16>, %k: tensor<1x1x777x64xf16>, %v: tensor<1x1x777x64xf16>) -> (tensor<1x16x1x64xf16>, tensor<1x16x1xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.088 : tensor<1x16x1x64xf16>, tensor<1x1x777x64xf16>, tensor<1x1x777x64xf16> -> tensor<1x16x1x64xf16>, tensor<1x16x1xf32>
  return %o, %l : tensor<1x16x1x64xf16>, tensor<1x16x1xf32>
}

func.func @two_tokens(%q: tensor<1x8x2x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>) -> (tensor<1x8x2x64xf16>, tensor<1x8x2xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.088 tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 2, kv_splits = 2, pack_gqa = true> : tensor<1x8x2x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16> -> tensor<1x8x2x64xf16>, tensor<1x8x2xf32>
  return %o, %l : tensor<1x8x2x64xf16>, tensor<1x8x2xf32>
}

func.func @two_tokens_reference(%q: tensor<1x8x2x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>) -> (tensor<1x8x2x64xf16>, tensor<1x8x2xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.088 : tensor<1x8x2x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16> -> tensor<1x8x2x64xf16>, tensor<1x8x2xf32>
  return %o, %l : tensor<1x8x2x64xf16>, tensor<1x8x2xf32>
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

func.func @gqa_q(%seed: f32) -> tensor<2x8x1x128xf16> {
  %e = tensor.empty() : tensor<2x8x1x128xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x8x1x128xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<2x8x1x128xf16>
  return %r : tensor<2x8x1x128xf16>
}

func.func @gqa_kv(%seed: f32) -> tensor<2x2x1000x128xf16> {
  %e = tensor.empty() : tensor<2x2x1000x128xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x2x1000x128xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<2x2x1000x128xf16>
  return %r : tensor<2x2x1000x128xf16>
}

func.func @gqa_kv_paged_reference(%seed: f32) -> tensor<2x2x1008x128xf16> {
  %e = tensor.empty() : tensor<2x2x1008x128xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x2x1008x128xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<2x2x1008x128xf16>
  return %r : tensor<2x2x1008x128xf16>
}

func.func @mqa_q(%seed: f32) -> tensor<1x16x1x64xf16> {
  %e = tensor.empty() : tensor<1x16x1x64xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x16x1x64xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<1x16x1x64xf16>
  return %r : tensor<1x16x1x64xf16>
}

func.func @mqa_kv(%seed: f32) -> tensor<1x1x777x64xf16> {
  %e = tensor.empty() : tensor<1x1x777x64xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x777x64xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<1x1x777x64xf16>
  return %r : tensor<1x1x777x64xf16>
}

func.func @two_q(%seed: f32) -> tensor<1x8x2x64xf16> {
  %e = tensor.empty() : tensor<1x8x2x64xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x8x2x64xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<1x8x2x64xf16>
  return %r : tensor<1x8x2x64xf16>
}

func.func @two_kv(%seed: f32) -> tensor<1x2x300x64xf16> {
  %e = tensor.empty() : tensor<1x2x300x64xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x2x300x64xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<1x2x300x64xf16>
  return %r : tensor<1x2x300x64xf16>
}

func.func @paged_input(%seed: f32, %n: tensor<2xi32>) -> tensor<128x16x2x128xf16> {
  %e = tensor.empty() : tensor<128x16x2x128xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<128x16x2x128xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %last = arith.constant 125 : index
    %entries = arith.constant 63 : index
    %slots = arith.constant 16 : index
    %q = arith.subi %last, %i0 : index
    %b = arith.divui %q, %entries : index
    %m = arith.remui %q, %entries : index
    %base = arith.muli %m, %slots : index
    %row = arith.addi %base, %i1 : index
    %v = func.call @value(%b, %i2, %row, %i3, %seed) : (index, index, index, index, f32) -> f16
    %spare = arith.cmpi sgt, %i0, %last : index
    %c0 = arith.constant 0 : index
    %bsafe = arith.select %spare, %c0, %b : index
    %len32 = tensor.extract %n[%bsafe] : tensor<2xi32>
    %len = arith.index_cast %len32 : i32 to index
    %past = arith.cmpi sge, %row, %len : index
    %bad = arith.ori %past, %spare : i1
    %nan = arith.constant 0x7E00 : f16
    %w = arith.select %bad, %nan, %v : f16
    linalg.yield %w : f16
  } -> tensor<128x16x2x128xf16>
  return %r : tensor<128x16x2x128xf16>
}

func.func @masked_input(%seed: f32, %n: tensor<2xi32>) -> tensor<2x2x1000x128xf16> {
  %e = tensor.empty() : tensor<2x2x1000x128xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x2x1000x128xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    %len32 = tensor.extract %n[%i0] : tensor<2xi32>
    %len = arith.index_cast %len32 : i32 to index
    %past = arith.cmpi sge, %i2, %len : index
    %nan = arith.constant 0x7E00 : f16
    %w = arith.select %past, %nan, %v : f16
    linalg.yield %w : f16
  } -> tensor<2x2x1000x128xf16>
  return %r : tensor<2x2x1000x128xf16>
}

func.func @gqa_print(%o: tensor<2x8x1x128xf16>, %l: tensor<2x8x1xf32>) {
  %f = arith.extf %o : tensor<2x8x1x128xf16> to tensor<2x8x1x128xf32>
  %ou = tensor.cast %f : tensor<2x8x1x128xf32> to tensor<*xf32>
  %lu = tensor.cast %l : tensor<2x8x1xf32> to tensor<*xf32>
  call @printMemrefF32(%lu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}

func.func @mqa_print(%o: tensor<1x16x1x64xf16>, %l: tensor<1x16x1xf32>) {
  %f = arith.extf %o : tensor<1x16x1x64xf16> to tensor<1x16x1x64xf32>
  %ou = tensor.cast %f : tensor<1x16x1x64xf32> to tensor<*xf32>
  %lu = tensor.cast %l : tensor<1x16x1xf32> to tensor<*xf32>
  call @printMemrefF32(%lu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}

func.func @two_print(%o: tensor<1x8x2x64xf16>, %l: tensor<1x8x2xf32>) {
  %f = arith.extf %o : tensor<1x8x2x64xf16> to tensor<1x8x2x64xf32>
  %ou = tensor.cast %f : tensor<1x8x2x64xf32> to tensor<*xf32>
  %lu = tensor.cast %l : tensor<1x8x2xf32> to tensor<*xf32>
  call @printMemrefF32(%lu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}

func.func @table() -> tensor<2x63xi32> {
  %e = tensor.empty() : tensor<2x63xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m) -> (b, m)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<2x63xi32>) {
  ^bb0(%o: i32):
    %b = linalg.index 0 : index
    %m = linalg.index 1 : index
    %c63 = arith.constant 63 : index
    %c125 = arith.constant 125 : index
    %x = arith.muli %b, %c63 : index
    %y = arith.addi %x, %m : index
    %p = arith.subi %c125, %y : index
    %p32 = arith.index_cast %p : index to i32
    linalg.yield %p32 : i32
  } -> tensor<2x63xi32>
  return %r : tensor<2x63xi32>
}

func.func @main_kernel() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %gq = call @gqa_q(%s1) : (f32) -> tensor<2x8x1x128xf16>
  %n = arith.constant dense<[1000, 613]> : tensor<2xi32>
  %mq = call @mqa_q(%s1) : (f32) -> tensor<1x16x1x64xf16>
  %mk = call @mqa_kv(%s2) : (f32) -> tensor<1x1x777x64xf16>
  %mv = call @mqa_kv(%s3) : (f32) -> tensor<1x1x777x64xf16>
  %tq = call @two_q(%s1) : (f32) -> tensor<1x8x2x64xf16>
  %tk = call @two_kv(%s2) : (f32) -> tensor<1x2x300x64xf16>
  %tv = call @two_kv(%s3) : (f32) -> tensor<1x2x300x64xf16>
  %gk = call @masked_input(%s2, %n) : (f32, tensor<2xi32>) -> tensor<2x2x1000x128xf16>
  %gv = call @masked_input(%s3, %n) : (f32, tensor<2xi32>) -> tensor<2x2x1000x128xf16>
  %o_gqa, %l_gqa = call @gqa(%gq, %gk, %gv, %n) : (tensor<2x8x1x128xf16>, tensor<2x2x1000x128xf16>, tensor<2x2x1000x128xf16>, tensor<2xi32>) -> (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>)
  call @gqa_print(%o_gqa, %l_gqa) : (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>) -> ()
  %t = call @table() : () -> tensor<2x63xi32>
  %pk = call @paged_input(%s2, %n) : (f32, tensor<2xi32>) -> tensor<128x16x2x128xf16>
  %pv = call @paged_input(%s3, %n) : (f32, tensor<2xi32>) -> tensor<128x16x2x128xf16>
  %o_paged, %l_paged = call @paged(%gq, %pk, %pv, %n, %t) : (tensor<2x8x1x128xf16>, tensor<128x16x2x128xf16>, tensor<128x16x2x128xf16>, tensor<2xi32>, tensor<2x63xi32>) -> (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>)
  call @gqa_print(%o_paged, %l_paged) : (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>) -> ()
  %o_mqa, %l_mqa = call @mqa(%mq, %mk, %mv) : (tensor<1x16x1x64xf16>, tensor<1x1x777x64xf16>, tensor<1x1x777x64xf16>) -> (tensor<1x16x1x64xf16>, tensor<1x16x1xf32>)
  call @mqa_print(%o_mqa, %l_mqa) : (tensor<1x16x1x64xf16>, tensor<1x16x1xf32>) -> ()
  %o_two_tokens, %l_two_tokens = call @two_tokens(%tq, %tk, %tv) : (tensor<1x8x2x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>) -> (tensor<1x8x2x64xf16>, tensor<1x8x2xf32>)
  call @two_print(%o_two_tokens, %l_two_tokens) : (tensor<1x8x2x64xf16>, tensor<1x8x2xf32>) -> ()
  return
}

func.func @main_contiguous() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %gq = call @gqa_q(%s1) : (f32) -> tensor<2x8x1x128xf16>
  %n = arith.constant dense<[1000, 613]> : tensor<2xi32>
  %mq = call @mqa_q(%s1) : (f32) -> tensor<1x16x1x64xf16>
  %mk = call @mqa_kv(%s2) : (f32) -> tensor<1x1x777x64xf16>
  %mv = call @mqa_kv(%s3) : (f32) -> tensor<1x1x777x64xf16>
  %tq = call @two_q(%s1) : (f32) -> tensor<1x8x2x64xf16>
  %tk = call @two_kv(%s2) : (f32) -> tensor<1x2x300x64xf16>
  %tv = call @two_kv(%s3) : (f32) -> tensor<1x2x300x64xf16>
  %gk = call @gqa_kv(%s2) : (f32) -> tensor<2x2x1000x128xf16>
  %gv = call @gqa_kv(%s3) : (f32) -> tensor<2x2x1000x128xf16>
  %o_gqa_reference, %l_gqa_reference = call @gqa_reference(%gq, %gk, %gv, %n) : (tensor<2x8x1x128xf16>, tensor<2x2x1000x128xf16>, tensor<2x2x1000x128xf16>, tensor<2xi32>) -> (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>)
  call @gqa_print(%o_gqa_reference, %l_gqa_reference) : (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>) -> ()
  %rk = call @gqa_kv_paged_reference(%s2) : (f32) -> tensor<2x2x1008x128xf16>
  %rv = call @gqa_kv_paged_reference(%s3) : (f32) -> tensor<2x2x1008x128xf16>
  %o_paged_reference, %l_paged_reference = call @paged_reference(%gq, %rk, %rv, %n) : (tensor<2x8x1x128xf16>, tensor<2x2x1008x128xf16>, tensor<2x2x1008x128xf16>, tensor<2xi32>) -> (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>)
  call @gqa_print(%o_paged_reference, %l_paged_reference) : (tensor<2x8x1x128xf16>, tensor<2x8x1xf32>) -> ()
  %o_mqa_reference, %l_mqa_reference = call @mqa_reference(%mq, %mk, %mv) : (tensor<1x16x1x64xf16>, tensor<1x1x777x64xf16>, tensor<1x1x777x64xf16>) -> (tensor<1x16x1x64xf16>, tensor<1x16x1xf32>)
  call @mqa_print(%o_mqa_reference, %l_mqa_reference) : (tensor<1x16x1x64xf16>, tensor<1x16x1xf32>) -> ()
  %o_two_tokens_reference, %l_two_tokens_reference = call @two_tokens_reference(%tq, %tk, %tv) : (tensor<1x8x2x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>) -> (tensor<1x8x2x64xf16>, tensor<1x8x2xf32>)
  call @two_print(%o_two_tokens_reference, %l_two_tokens_reference) : (tensor<1x8x2x64xf16>, tensor<1x8x2xf32>) -> ()
  return
}
