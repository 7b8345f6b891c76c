// sm_90a's TMA producer kernel reading K and V through page tables whose
// pages are smaller than a key block (or do not divide it): each block is
// gcd(S, block_kv) rows per box (tmaKeyBoxRows), every box through its own
// table entry, all of a tile's boxes one transaction on its barrier.
//
// A: 16-slot pages ([P, S, Hkv, D] = [16, 16, 2, 64]), 5 entries per
// sequence in reverse page order (Nk = 80, which 64-key blocks do not
// divide: the last block's boxes past the table start past their page and
// arrive as zeros), kv_lengths [80, 37, 70], an out-of-range entry (99)
// inside the first block of the second sequence, NaN in every slot past a
// length and in the spare page 15; causal (64 x 64: 4 boxes per block),
// plain (the selected tile), a sliding window (64 x 32: 2 boxes), and the
// whole table without kv_lengths (64 x 64); plain again with the second
// sequence empty (kv_lengths [80, 0, 70], every slot of its pages NaN: it
// walks no block and issues no box). GQA 2.
// B: 24-slot pages at d = 128 ([9, 24, 1, 128], Nk = 96): 64-key blocks
// of 8-row boxes, two column blocks each, causal and not.
// Against the same attention on contiguous K and V with finite values,
// emulated threads in both orders and the serial schedule.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %run-entry main_contiguous > %t.reference
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true" | %run-entry main_paged > %t.tma
// RUN: %compare %t.tma %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true thread-order=reverse" | %run-entry main_paged > %t.reverse
// RUN: %compare %t.reverse %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true overlap-softmax=false" | %run-entry main_paged > %t.serial
// RUN: %compare %t.serial %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// CHECK: MATCH 314280 values
// Every op, paged or not, gets the TMA producer kernel; the report names
// the paged ops' boxes.
// RUN: fa-opt %s "--fa-select-tiles=target=sm_90a warpgroup-tiles=true report=-" -o /dev/null | FileCheck %s --check-prefix=KERNEL
// KERNEL-COUNT-12: "gpu_kernel":"wgmma-tma-ws"
// KERNEL-NOT: "gpu_kernel"
// RUN: fa-opt %s "--fa-select-tiles=target=sm_90a warpgroup-tiles=true report=-" -o /dev/null | FileCheck %s --check-prefix=PLAN
// PLAN: "kernel_plan":"{{[^"]*}}, K/V boxes of 16 rows (pages)"
// PLAN: "kernel_plan":"{{[^"]*}}, K/V boxes of 8 rows (pages)"
// The boxes: 16 rows of a 16-slot page (A), 8 of a 24-slot page (B), in
// a loop kept rolled down to ptxas.
// RUN: fa-opt %s "--fa-select-tiles=target=sm_90a warpgroup-tiles=true" "--fa-distribute-attention=warpgroup-mma=true tma-producer=true" | FileCheck %s --check-prefix=BOXES
// BOXES-DAG: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// BOXES-DAG: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// BOXES-DAG: -> <tensor = memref<1x16x1x64xf16
// BOXES-DAG: -> <tensor = memref<1x8x1x64xf16
// BOXES-DAG: } {llvm.loop_annotation = #[[ROLLED]]}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @a_paged_causal(%q: tensor<3x4x70x64xf16>, %k: tensor<16x16x2x64xf16>, %v: tensor<16x16x2x64xf16>, %n: tensor<3xi32>, %t: tensor<3x5xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<3xi32>) page_table(%t : tensor<3x5xi32>) scale = 0.125 causal = bottom_right tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<3x4x70x64xf16>, tensor<16x16x2x64xf16>, tensor<16x16x2x64xf16> -> tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
  return %o, %l : tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
}

func.func @a_paged(%q: tensor<3x4x70x64xf16>, %k: tensor<16x16x2x64xf16>, %v: tensor<16x16x2x64xf16>, %n: tensor<3xi32>, %t: tensor<3x5xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<3xi32>) page_table(%t : tensor<3x5xi32>) scale = 0.125 : tensor<3x4x70x64xf16>, tensor<16x16x2x64xf16>, tensor<16x16x2x64xf16> -> tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
  return %o, %l : tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
}

func.func @a_paged_window(%q: tensor<3x4x70x64xf16>, %k: tensor<16x16x2x64xf16>, %v: tensor<16x16x2x64xf16>, %n: tensor<3xi32>, %t: tensor<3x5xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<3xi32>) page_table(%t : tensor<3x5xi32>) scale = 0.125 window = <left = 40, right = 8, align = bottom_right> tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 2> : tensor<3x4x70x64xf16>, tensor<16x16x2x64xf16>, tensor<16x16x2x64xf16> -> tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
  return %o, %l : tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
}

func.func @a_paged_full(%q: tensor<3x4x70x64xf16>, %k: tensor<16x16x2x64xf16>, %v: tensor<16x16x2x64xf16>, %t: tensor<3x5xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) {
  %o, %l = fa.attention %q, %k, %v page_table(%t : tensor<3x5xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<3x4x70x64xf16>, tensor<16x16x2x64xf16>, tensor<16x16x2x64xf16> -> tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
  return %o, %l : tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
}

func.func @a_contiguous_causal(%q: tensor<3x4x70x64xf16>, %k: tensor<3x2x80x64xf16>, %v: tensor<3x2x80x64xf16>, %n: tensor<3xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<3xi32>) scale = 0.125 causal = bottom_right : tensor<3x4x70x64xf16>, tensor<3x2x80x64xf16>, tensor<3x2x80x64xf16> -> tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
  return %o, %l : tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
}

func.func @a_contiguous(%q: tensor<3x4x70x64xf16>, %k: tensor<3x2x80x64xf16>, %v: tensor<3x2x80x64xf16>, %n: tensor<3xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<3xi32>) scale = 0.125 : tensor<3x4x70x64xf16>, tensor<3x2x80x64xf16>, tensor<3x2x80x64xf16> -> tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
  return %o, %l : tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
}

func.func @a_contiguous_window(%q: tensor<3x4x70x64xf16>, %k: tensor<3x2x80x64xf16>, %v: tensor<3x2x80x64xf16>, %n: tensor<3xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<3xi32>) scale = 0.125 window = <left = 40, right = 8, align = bottom_right> : tensor<3x4x70x64xf16>, tensor<3x2x80x64xf16>, tensor<3x2x80x64xf16> -> tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
  return %o, %l : tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
}

func.func @a_contiguous_full(%q: tensor<3x4x70x64xf16>, %k: tensor<3x2x80x64xf16>, %v: tensor<3x2x80x64xf16>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.125 : tensor<3x4x70x64xf16>, tensor<3x2x80x64xf16>, tensor<3x2x80x64xf16> -> tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
  return %o, %l : tensor<3x4x70x64xf16>, tensor<3x4x70xf32>
}

func.func @b_paged_causal(%q: tensor<2x2x40x128xf16>, %k: tensor<9x24x1x128xf16>, %v: tensor<9x24x1x128xf16>, %t: tensor<2x4xi32>) -> (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>) {
  %o, %l = fa.attention %q, %k, %v page_table(%t : tensor<2x4xi32>) scale = 0.125 causal = bottom_right tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<2x2x40x128xf16>, tensor<9x24x1x128xf16>, tensor<9x24x1x128xf16> -> tensor<2x2x40x128xf16>, tensor<2x2x40xf32>
  return %o, %l : tensor<2x2x40x128xf16>, tensor<2x2x40xf32>
}

func.func @b_paged(%q: tensor<2x2x40x128xf16>, %k: tensor<9x24x1x128xf16>, %v: tensor<9x24x1x128xf16>, %t: tensor<2x4xi32>) -> (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>) {
  %o, %l = fa.attention %q, %k, %v page_table(%t : tensor<2x4xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<2x2x40x128xf16>, tensor<9x24x1x128xf16>, tensor<9x24x1x128xf16> -> tensor<2x2x40x128xf16>, tensor<2x2x40xf32>
  return %o, %l : tensor<2x2x40x128xf16>, tensor<2x2x40xf32>
}

func.func @b_contiguous_causal(%q: tensor<2x2x40x128xf16>, %k: tensor<2x1x96x128xf16>, %v: tensor<2x1x96x128xf16>) -> (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right : tensor<2x2x40x128xf16>, tensor<2x1x96x128xf16>, tensor<2x1x96x128xf16> -> tensor<2x2x40x128xf16>, tensor<2x2x40xf32>
  return %o, %l : tensor<2x2x40x128xf16>, tensor<2x2x40xf32>
}

func.func @b_contiguous(%q: tensor<2x2x40x128xf16>, %k: tensor<2x1x96x128xf16>, %v: tensor<2x1x96x128xf16>) -> (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.125 : tensor<2x2x40x128xf16>, tensor<2x1x96x128xf16>, tensor<2x1x96x128xf16> -> tensor<2x2x40x128xf16>, tensor<2x2x40xf32>
  return %o, %l : tensor<2x2x40x128xf16>, tensor<2x2x40xf32>
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

func.func @a_query() -> tensor<3x4x70x64xf16> {
  %e = tensor.empty() : tensor<3x4x70x64xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<3x4x70x64xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %s = arith.constant 1.0 : f32
    %v = func.call @value(%i0, %i1, %i2, %i3, %s) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<3x4x70x64xf16>
  return %r : tensor<3x4x70x64xf16>
}

func.func @b_query() -> tensor<2x2x40x128xf16> {
  %e = tensor.empty() : tensor<2x2x40x128xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x2x40x128xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %s = arith.constant 1.0 : f32
    %v = func.call @value(%i0, %i1, %i2, %i3, %s) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<2x2x40x128xf16>
  return %r : tensor<2x2x40x128xf16>
}

func.func @a_contiguous_input(%seed: f32) -> tensor<3x2x80x64xf16> {
  %e = tensor.empty() : tensor<3x2x80x64xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<3x2x80x64xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<3x2x80x64xf16>
  return %r : tensor<3x2x80x64xf16>
}

func.func @b_contiguous_input(%seed: f32) -> tensor<2x1x96x128xf16> {
  %e = tensor.empty() : tensor<2x1x96x128xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x1x96x128xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = func.call @value(%i0, %i1, %i2, %i3, %seed) : (index, index, index, index, f32) -> f16
    linalg.yield %v : f16
  } -> tensor<2x1x96x128xf16>
  return %r : tensor<2x1x96x128xf16>
}

func.func @a_paged_input(%seed: f32, %n: tensor<3xi32>) -> tensor<16x16x2x64xf16> {
  %e = tensor.empty() : tensor<16x16x2x64xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<16x16x2x64xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %last = arith.constant 14 : index
    %entries = arith.constant 5 : index
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
    %len32 = tensor.extract %n[%bsafe] : tensor<3xi32>
    %len = arith.index_cast %len32 : i32 to index
    %past = arith.cmpi sge, %row, %len : index
    %bad = arith.ori %past, %spare : i1
    %nan = arith.constant 0x7E00 : f16
    %w = arith.select %bad, %nan, %v : f16
    linalg.yield %w : f16
  } -> tensor<16x16x2x64xf16>
  return %r : tensor<16x16x2x64xf16>
}

func.func @b_paged_input(%seed: f32, %n: tensor<2xi32>) -> tensor<9x24x1x128xf16> {
  %e = tensor.empty() : tensor<9x24x1x128xf16>
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<9x24x1x128xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %last = arith.constant 7 : index
    %entries = arith.constant 4 : index
    %slots = arith.constant 24 : index
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
  } -> tensor<9x24x1x128xf16>
  return %r : tensor<9x24x1x128xf16>
}

func.func @a_print(%o: tensor<3x4x70x64xf16>, %l: tensor<3x4x70xf32>) {
  %f = arith.extf %o : tensor<3x4x70x64xf16> to tensor<3x4x70x64xf32>
  %ou = tensor.cast %f : tensor<3x4x70x64xf32> to tensor<*xf32>
  %lu = tensor.cast %l : tensor<3x4x70xf32> to tensor<*xf32>
  call @printMemrefF32(%lu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}

func.func @b_print(%o: tensor<2x2x40x128xf16>, %l: tensor<2x2x40xf32>) {
  %f = arith.extf %o : tensor<2x2x40x128xf16> to tensor<2x2x40x128xf32>
  %ou = tensor.cast %f : tensor<2x2x40x128xf32> to tensor<*xf32>
  %lu = tensor.cast %l : tensor<2x2x40xf32> to tensor<*xf32>
  call @printMemrefF32(%lu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}

func.func @main_paged() {
  %aq = call @a_query() : () -> tensor<3x4x70x64xf16>
  %an = arith.constant dense<[80, 37, 70]> : tensor<3xi32>
  // 14 - (5 b + m); the second sequence's entry 3 (keys 48 to 63, past
  // its length but inside its first block) out of range.
  %at = arith.constant dense<[[14, 13, 12, 11, 10], [9, 8, 7, 99, 5], [4, 3, 2, 1, 0]]> : tensor<3x5xi32>
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %ak = call @a_paged_input(%s2, %an) : (f32, tensor<3xi32>) -> tensor<16x16x2x64xf16>
  %av = call @a_paged_input(%s3, %an) : (f32, tensor<3xi32>) -> tensor<16x16x2x64xf16>
  %o_a_paged_causal, %l_a_paged_causal = call @a_paged_causal(%aq, %ak, %av, %an, %at) : (tensor<3x4x70x64xf16>, tensor<16x16x2x64xf16>, tensor<16x16x2x64xf16>, tensor<3xi32>, tensor<3x5xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_paged_causal, %l_a_paged_causal) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  %o_a_paged, %l_a_paged = call @a_paged(%aq, %ak, %av, %an, %at) : (tensor<3x4x70x64xf16>, tensor<16x16x2x64xf16>, tensor<16x16x2x64xf16>, tensor<3xi32>, tensor<3x5xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_paged, %l_a_paged) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  %o_a_paged_window, %l_a_paged_window = call @a_paged_window(%aq, %ak, %av, %an, %at) : (tensor<3x4x70x64xf16>, tensor<16x16x2x64xf16>, tensor<16x16x2x64xf16>, tensor<3xi32>, tensor<3x5xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_paged_window, %l_a_paged_window) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  // The second sequence empty: it walks no key block and issues no box;
  // every slot of its pages is NaN.
  %en = arith.constant dense<[80, 0, 70]> : tensor<3xi32>
  %ek = call @a_paged_input(%s2, %en) : (f32, tensor<3xi32>) -> tensor<16x16x2x64xf16>
  %ev = call @a_paged_input(%s3, %en) : (f32, tensor<3xi32>) -> tensor<16x16x2x64xf16>
  %o_a_paged_empty, %l_a_paged_empty = call @a_paged(%aq, %ek, %ev, %en, %at) : (tensor<3x4x70x64xf16>, tensor<16x16x2x64xf16>, tensor<16x16x2x64xf16>, tensor<3xi32>, tensor<3x5xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_paged_empty, %l_a_paged_empty) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  %all = arith.constant dense<80> : tensor<3xi32>
  %whole = arith.constant dense<[[14, 13, 12, 11, 10], [9, 8, 7, 6, 5], [4, 3, 2, 1, 0]]> : tensor<3x5xi32>
  %akf = call @a_paged_input(%s2, %all) : (f32, tensor<3xi32>) -> tensor<16x16x2x64xf16>
  %avf = call @a_paged_input(%s3, %all) : (f32, tensor<3xi32>) -> tensor<16x16x2x64xf16>
  %o_a_paged_full, %l_a_paged_full = call @a_paged_full(%aq, %akf, %avf, %whole) : (tensor<3x4x70x64xf16>, tensor<16x16x2x64xf16>, tensor<16x16x2x64xf16>, tensor<3x5xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_paged_full, %l_a_paged_full) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  %bq = call @b_query() : () -> tensor<2x2x40x128xf16>
  %bn = arith.constant dense<96> : tensor<2xi32>
  %bt = arith.constant dense<[[7, 6, 5, 4], [3, 2, 1, 0]]> : tensor<2x4xi32>
  %bk = call @b_paged_input(%s2, %bn) : (f32, tensor<2xi32>) -> tensor<9x24x1x128xf16>
  %bv = call @b_paged_input(%s3, %bn) : (f32, tensor<2xi32>) -> tensor<9x24x1x128xf16>
  %o_b_paged_causal, %l_b_paged_causal = call @b_paged_causal(%bq, %bk, %bv, %bt) : (tensor<2x2x40x128xf16>, tensor<9x24x1x128xf16>, tensor<9x24x1x128xf16>, tensor<2x4xi32>) -> (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>)
  call @b_print(%o_b_paged_causal, %l_b_paged_causal) : (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>) -> ()
  %o_b_paged, %l_b_paged = call @b_paged(%bq, %bk, %bv, %bt) : (tensor<2x2x40x128xf16>, tensor<9x24x1x128xf16>, tensor<9x24x1x128xf16>, tensor<2x4xi32>) -> (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>)
  call @b_print(%o_b_paged, %l_b_paged) : (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>) -> ()
  return
}

func.func @main_contiguous() {
  %aq = call @a_query() : () -> tensor<3x4x70x64xf16>
  %an = arith.constant dense<[80, 37, 70]> : tensor<3xi32>
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %ak = call @a_contiguous_input(%s2) : (f32) -> tensor<3x2x80x64xf16>
  %av = call @a_contiguous_input(%s3) : (f32) -> tensor<3x2x80x64xf16>
  %o_a_contiguous_causal, %l_a_contiguous_causal = call @a_contiguous_causal(%aq, %ak, %av, %an) : (tensor<3x4x70x64xf16>, tensor<3x2x80x64xf16>, tensor<3x2x80x64xf16>, tensor<3xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_contiguous_causal, %l_a_contiguous_causal) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  %o_a_contiguous, %l_a_contiguous = call @a_contiguous(%aq, %ak, %av, %an) : (tensor<3x4x70x64xf16>, tensor<3x2x80x64xf16>, tensor<3x2x80x64xf16>, tensor<3xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_contiguous, %l_a_contiguous) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  %o_a_contiguous_window, %l_a_contiguous_window = call @a_contiguous_window(%aq, %ak, %av, %an) : (tensor<3x4x70x64xf16>, tensor<3x2x80x64xf16>, tensor<3x2x80x64xf16>, tensor<3xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_contiguous_window, %l_a_contiguous_window) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  %en = arith.constant dense<[80, 0, 70]> : tensor<3xi32>
  %o_a_contiguous_empty, %l_a_contiguous_empty = call @a_contiguous(%aq, %ak, %av, %en) : (tensor<3x4x70x64xf16>, tensor<3x2x80x64xf16>, tensor<3x2x80x64xf16>, tensor<3xi32>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_contiguous_empty, %l_a_contiguous_empty) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  %o_a_contiguous_full, %l_a_contiguous_full = call @a_contiguous_full(%aq, %ak, %av) : (tensor<3x4x70x64xf16>, tensor<3x2x80x64xf16>, tensor<3x2x80x64xf16>) -> (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>)
  call @a_print(%o_a_contiguous_full, %l_a_contiguous_full) : (tensor<3x4x70x64xf16>, tensor<3x4x70xf32>) -> ()
  %bq = call @b_query() : () -> tensor<2x2x40x128xf16>
  %bk = call @b_contiguous_input(%s2) : (f32) -> tensor<2x1x96x128xf16>
  %bv = call @b_contiguous_input(%s3) : (f32) -> tensor<2x1x96x128xf16>
  %o_b_contiguous_causal, %l_b_contiguous_causal = call @b_contiguous_causal(%bq, %bk, %bv) : (tensor<2x2x40x128xf16>, tensor<2x1x96x128xf16>, tensor<2x1x96x128xf16>) -> (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>)
  call @b_print(%o_b_contiguous_causal, %l_b_contiguous_causal) : (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>) -> ()
  %o_b_contiguous, %l_b_contiguous = call @b_contiguous(%bq, %bk, %bv) : (tensor<2x2x40x128xf16>, tensor<2x1x96x128xf16>, tensor<2x1x96x128xf16>) -> (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>)
  call @b_print(%o_b_contiguous, %l_b_contiguous) : (tensor<2x2x40x128xf16>, tensor<2x2x40xf32>) -> ()
  return
}
