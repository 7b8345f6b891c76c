// sm_90a's TMA producer kernel with per-sequence key lengths: kv_lengths
// [150, 37, 0, 96] over Nk = 150, and packed sequences (cu_seqlens_q =
// [0, 40, 40, 90], cu_seqlens_k = [0, 50, 50, 117] in K and V of 150 rows),
// causal and not (both walk from the last key block) and, for kv_lengths,
// a sliding window (walked from the first), GQA 2, D = 64, 32-key blocks;
// then kv_lengths with 3 key splits (the zeroing in the split that holds
// the last key), and with two compute warpgroups taking turns (128-row
// blocks: both meet on the zeroing's barrier between their turns). The tensor maps cover the whole
// tensors, so the box with a sequence's last key brings the rows past it
// too: here they hold NaN (K and V past each kv_lengths entry, and the 33
// rows past the last packed sequence). Their scores are masked, and the
// kernel zeroes V's rows there before P V (0 x NaN would be NaN): the
// results equal the reference's on the same inputs with those rows finite.
// Emulated threads in both orders.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %run-entry main_clean > %t.reference
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true max-block-kv=32" | %run-entry main_dirty > %t.tma
// RUN: %compare %t.tma %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true max-block-kv=32 thread-order=reverse" | %run-entry main_dirty > %t.reverse
// RUN: %compare %t.reverse %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// The key loop without P V a block late (one block per step) zeroes in its
// masked blocks.
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true max-block-kv=32 overlap-softmax=false" | %run-entry main_dirty > %t.serial
// RUN: %compare %t.serial %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// Without the zeroing the NaN rows reach O (checked by mutation): the
// comparison above then fails.
// CHECK: MATCH 205400 values
// Every op gets the TMA producer kernel.
// RUN: fa-opt %s "--fa-select-tiles=target=sm_90a warpgroup-tiles=true max-block-kv=32 report=-" -o /dev/null | FileCheck %s --check-prefix=KERNEL
// KERNEL-COUNT-7: "gpu_kernel":"wgmma-tma-ws"

!q = tensor<4x2x70x64xf16>
!k = tensor<4x1x150x64xf16>
!o = tensor<4x2x70x64xf16>
!l = tensor<4x2x70xf32>
!pq = tensor<1x2x90x64xf16>
!pk = tensor<1x1x150x64xf16>
!po = tensor<1x2x90x64xf16>
!pl = tensor<1x2x90xf32>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @lengths_causal(%q: !q, %k: !k, %v: !k, %n: tensor<4xi32>) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<4xi32>) scale = 0.125 causal = bottom_right : !q, !k, !k -> !o, !l
  return %o, %l : !o, !l
}

func.func @lengths(%q: !q, %k: !k, %v: !k, %n: tensor<4xi32>) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<4xi32>) scale = 0.125 : !q, !k, !k -> !o, !l
  return %o, %l : !o, !l
}

func.func @lengths_window(%q: !q, %k: !k, %v: !k, %n: tensor<4xi32>) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<4xi32>) scale = 0.125 window = <left = 40, right = 8, align = bottom_right> : !q, !k, !k -> !o, !l
  return %o, %l : !o, !l
}

func.func @lengths_split(%q: !q, %k: !k, %v: !k, %n: tensor<4xi32>) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<4xi32>) scale = 0.125 causal = bottom_right tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 2, kv_splits = 3> : !q, !k, !k -> !o, !l
  return %o, %l : !o, !l
}

func.func @lengths_turns(%q: !q, %k: !k, %v: !k, %n: tensor<4xi32>) -> (!o, !l) {
  %o, %l = fa.attention %q, %k, %v kv_lengths(%n : tensor<4xi32>) scale = 0.125 tiling = <block_q = 128, block_kv = 32, warps = 8, stages = 2> : !q, !k, !k -> !o, !l
  return %o, %l : !o, !l
}

func.func @packed_causal(%q: !pq, %k: !pk, %v: !pk, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> (!po, !pl) {
  %o, %l = fa.attention %q, %k, %v cu_seqlens_q(%cq : tensor<4xi32>) cu_seqlens_k(%ck : tensor<4xi32>) scale = 0.125 causal = bottom_right : !pq, !pk, !pk -> !po, !pl
  return %o, %l : !po, !pl
}

func.func @packed(%q: !pq, %k: !pk, %v: !pk, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> (!po, !pl) {
  %o, %l = fa.attention %q, %k, %v cu_seqlens_q(%cq : tensor<4xi32>) cu_seqlens_k(%ck : tensor<4xi32>) scale = 0.125 : !pq, !pk, !pk -> !po, !pl
  return %o, %l : !po, !pl
}

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// sin(0.37 * (7919 a + 131 b + 29 c + d) + seed); NaN in rows c >= ends[a]
// when `dirty`.
func.func @fill(%t: tensor<?x?x?x?xf16>, %seed: f32, %ends: tensor<?xi32>, %dirty: i1) -> tensor<?x?x?x?xf16> {
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
    %end32 = tensor.extract %ends[%i0] : tensor<?xi32>
    %end = arith.index_cast %end32 : i32 to index
    %past = arith.cmpi sge, %i2, %end : index
    %poison = arith.andi %past, %dirty : i1
    %nan = arith.constant 0x7E00 : f16
    %w = arith.select %poison, %nan, %h : f16
    linalg.yield %w : f16
  } -> tensor<?x?x?x?xf16>
  return %r : tensor<?x?x?x?xf16>
}

func.func @input(%b: index, %h: index, %n: index, %seed: f32, %ends: tensor<?xi32>, %dirty: i1) -> tensor<?x?x?x?xf16> {
  %c64 = arith.constant 64 : index
  %e = tensor.empty(%b, %h, %n, %c64) : tensor<?x?x?x?xf16>
  %f = call @fill(%e, %seed, %ends, %dirty) : (tensor<?x?x?x?xf16>, f32, tensor<?xi32>, i1) -> tensor<?x?x?x?xf16>
  return %f : tensor<?x?x?x?xf16>
}

func.func @print(%o: tensor<?x?x?x?xf16>, %l: tensor<?x?x?xf32>) {
  %f = arith.extf %o : tensor<?x?x?x?xf16> to tensor<?x?x?x?xf32>
  %ou = tensor.cast %f : tensor<?x?x?x?xf32> to tensor<*xf32>
  %lu = tensor.cast %l : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%lu) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}

func.func @run(%dirty: i1) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c70 = arith.constant 70 : index
  %c90 = arith.constant 90 : index
  %c150 = arith.constant 150 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %false = arith.constant false
  %none4 = arith.constant dense<150> : tensor<4xi32>
  %none = tensor.cast %none4 : tensor<4xi32> to tensor<?xi32>
  %n = arith.constant dense<[150, 37, 0, 96]> : tensor<4xi32>
  %ends = tensor.cast %n : tensor<4xi32> to tensor<?xi32>
  %q0 = call @input(%c4, %c2, %c70, %s1, %none, %false) : (index, index, index, f32, tensor<?xi32>, i1) -> tensor<?x?x?x?xf16>
  %k0 = call @input(%c4, %c1, %c150, %s2, %ends, %dirty) : (index, index, index, f32, tensor<?xi32>, i1) -> tensor<?x?x?x?xf16>
  %v0 = call @input(%c4, %c1, %c150, %s3, %ends, %dirty) : (index, index, index, f32, tensor<?xi32>, i1) -> tensor<?x?x?x?xf16>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf16> to !q
  %k = tensor.cast %k0 : tensor<?x?x?x?xf16> to !k
  %v = tensor.cast %v0 : tensor<?x?x?x?xf16> to !k
  %o1, %l1 = call @lengths_causal(%q, %k, %v, %n) : (!q, !k, !k, tensor<4xi32>) -> (!o, !l)
  %o1d = tensor.cast %o1 : !o to tensor<?x?x?x?xf16>
  %l1d = tensor.cast %l1 : !l to tensor<?x?x?xf32>
  call @print(%o1d, %l1d) : (tensor<?x?x?x?xf16>, tensor<?x?x?xf32>) -> ()
  %o2, %l2 = call @lengths(%q, %k, %v, %n) : (!q, !k, !k, tensor<4xi32>) -> (!o, !l)
  %o2d = tensor.cast %o2 : !o to tensor<?x?x?x?xf16>
  %l2d = tensor.cast %l2 : !l to tensor<?x?x?xf32>
  call @print(%o2d, %l2d) : (tensor<?x?x?x?xf16>, tensor<?x?x?xf32>) -> ()
  %o5, %l5 = call @lengths_window(%q, %k, %v, %n) : (!q, !k, !k, tensor<4xi32>) -> (!o, !l)
  %o5d = tensor.cast %o5 : !o to tensor<?x?x?x?xf16>
  %l5d = tensor.cast %l5 : !l to tensor<?x?x?xf32>
  call @print(%o5d, %l5d) : (tensor<?x?x?x?xf16>, tensor<?x?x?xf32>) -> ()
  %o6, %l6 = call @lengths_split(%q, %k, %v, %n) : (!q, !k, !k, tensor<4xi32>) -> (!o, !l)
  %o6d = tensor.cast %o6 : !o to tensor<?x?x?x?xf16>
  %l6d = tensor.cast %l6 : !l to tensor<?x?x?xf32>
  call @print(%o6d, %l6d) : (tensor<?x?x?x?xf16>, tensor<?x?x?xf32>) -> ()
  %o7, %l7 = call @lengths_turns(%q, %k, %v, %n) : (!q, !k, !k, tensor<4xi32>) -> (!o, !l)
  %o7d = tensor.cast %o7 : !o to tensor<?x?x?x?xf16>
  %l7d = tensor.cast %l7 : !l to tensor<?x?x?xf32>
  call @print(%o7d, %l7d) : (tensor<?x?x?x?xf16>, tensor<?x?x?xf32>) -> ()

  %total = arith.constant dense<117> : tensor<1xi32>
  %pends = tensor.cast %total : tensor<1xi32> to tensor<?xi32>
  %pnone1 = arith.constant dense<150> : tensor<1xi32>
  %pnone = tensor.cast %pnone1 : tensor<1xi32> to tensor<?xi32>
  %pq0 = call @input(%c1, %c2, %c90, %s1, %pnone, %false) : (index, index, index, f32, tensor<?xi32>, i1) -> tensor<?x?x?x?xf16>
  %pk0 = call @input(%c1, %c1, %c150, %s2, %pends, %dirty) : (index, index, index, f32, tensor<?xi32>, i1) -> tensor<?x?x?x?xf16>
  %pv0 = call @input(%c1, %c1, %c150, %s3, %pends, %dirty) : (index, index, index, f32, tensor<?xi32>, i1) -> tensor<?x?x?x?xf16>
  %pq = tensor.cast %pq0 : tensor<?x?x?x?xf16> to !pq
  %pk = tensor.cast %pk0 : tensor<?x?x?x?xf16> to !pk
  %pv = tensor.cast %pv0 : tensor<?x?x?x?xf16> to !pk
  %cq = arith.constant dense<[0, 40, 40, 90]> : tensor<4xi32>
  %ck = arith.constant dense<[0, 50, 50, 117]> : tensor<4xi32>
  %o3, %l3 = call @packed_causal(%pq, %pk, %pv, %cq, %ck) : (!pq, !pk, !pk, tensor<4xi32>, tensor<4xi32>) -> (!po, !pl)
  %o3d = tensor.cast %o3 : !po to tensor<?x?x?x?xf16>
  %l3d = tensor.cast %l3 : !pl to tensor<?x?x?xf32>
  call @print(%o3d, %l3d) : (tensor<?x?x?x?xf16>, tensor<?x?x?xf32>) -> ()
  %o4, %l4 = call @packed(%pq, %pk, %pv, %cq, %ck) : (!pq, !pk, !pk, tensor<4xi32>, tensor<4xi32>) -> (!po, !pl)
  %o4d = tensor.cast %o4 : !po to tensor<?x?x?x?xf16>
  %l4d = tensor.cast %l4 : !pl to tensor<?x?x?xf32>
  call @print(%o4d, %l4d) : (tensor<?x?x?x?xf16>, tensor<?x?x?xf32>) -> ()
  return
}

func.func @main_clean() {
  %false = arith.constant false
  call @run(%false) : (i1) -> ()
  return
}

func.func @main_dirty() {
  %true = arith.constant true
  call @run(%true) : (i1) -> ()
  return
}
