// fa-distribute-attention with tma-producer: the wgmma kernel's tiles come
// by TMA from a producer warpgroup (GPUKernel/TmaProducer.cpp). 64-row
// query blocks (one compute warpgroup) and a producer warpgroup: 256
// threads. The tensor maps are built in front of the grid ([1, 1, 64, 64]
// boxes, 128-byte swizzle, zero fill); each block has 1 + 3 * stages
// mbarriers: Q's, then full K, full V and empty per stage, the empty ones
// counting the 128 compute threads. The producer's one thread waits for a
// stage to be empty, announces the bytes and issues the loads; the compute
// threads wait for K, compute S, wait for V, fold, and arrive on empty.
// RUN: fa-opt %s -split-input-file "--fa-distribute-attention=warpgroup-mma=true tma-producer=true" -verify-diagnostics | FileCheck %s
// The tile report names the kernel (and counts the producer's threads).
// RUN: fa-opt %s -split-input-file --fa-select-tiles="target=sm_90a report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fa-opt %s -split-input-file --fa-select-tiles="target=sm_90a report=- tma-producer=false" -o /dev/null | FileCheck %s --check-prefix=CPASYNC

// Plain, kv_lengths, packed, paged and pages of 48 slots: the TMA producer
// kernel; pages of 12 slots or of a size known only at run time: the
// cp.async one.
// REPORT-COUNT-4: "gpu_kernel":"wgmma-tma-ws"
// REPORT-SAME: "kernel_plan":"wgmma, register fragments, TMA producer warpgroup, P V overlapping the next softmax, 256 threads, 2 stages"
// REPORT: "gpu_kernel":"wgmma-tma-ws"
// REPORT-SAME: "kernel_plan":"wgmma, register fragments, TMA producer warpgroup, P V overlapping the next softmax, 256 threads, 2 stages, K/V boxes of 16 rows (pages)"
// REPORT-COUNT-2: "gpu_kernel":"wgmma-registers"
// CPASYNC-COUNT-7: "gpu_kernel":"wgmma-registers"
// CPASYNC-SAME: "kernel_plan":"wgmma, register fragments, cp.async, 128 threads, 2 stages"

// CHECK-LABEL: func.func @tma
// CHECK-COUNT-3: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<1x1x64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK: scf.forall
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 7>
// CHECK: scf.forall (%[[T:.*]]) in (256)
// CHECK-COUNT-7: nvgpu.mbarrier.init
// CHECK: gpu.barrier
// CHECK: arith.cmpi eq, %[[T]], %{{.*}} {fa.producer_registers = 24 : i64, fa.warpgroup_role = "producer_leader"}
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c8192
// CHECK: nvgpu.tma.async.load
// CHECK: arith.cmpi slt, %[[T]], %{{.*}} {fa.warpgroup_role = "compute"}
// CHECK: nvgpu.mbarrier.try_wait.parity %{{.*}}, %false
// CHECK: scf.for
// The producer.
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.tma.async.load
// The compute warpgroup.
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: fa.warpgroup_mma
// CHECK: fa.warpgroup_mma_wait
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: fa.warpgroup_mma {{.*}} {transpose_b}
// CHECK: nvgpu.mbarrier.arrive
// CHECK: scf.yield
func.func @tma(%q: tensor<1x2x128x64xf16>, %k: tensor<1x2x192x64xf16>, %v: tensor<1x2x192x64xf16>) -> tensor<1x2x128x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<1x2x128x64xf16>, tensor<1x2x192x64xf16>, tensor<1x2x192x64xf16> -> tensor<1x2x128x64xf16>
  return %o : tensor<1x2x128x64xf16>
}

// -----

// kv_lengths: the maps cover K and V whole, so the box with a sequence's
// last key brings the rows past it, which may hold anything. The unmasked
// loop (first, walked forward) has no other code; in the masked loop, the
// block that holds the last key (keyLen - col0 < 64) has V's rows from
// there zeroed by the compute threads (16-byte stores, stepping by the 128
// compute threads), who fence their stores for wgmma's async proxy and
// then meet on named barrier 4 before P V.
// CHECK-LABEL: func.func @lengths
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: %[[LENGTH:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<1xi32>
// CHECK: scf.for
// CHECK-NOT: vector.store %{{.*}} : memref<8192xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NOT: nvvm.barrier
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c64
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[COL0]], %{{.*}}, %{{.*}}]
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[COL0]], %{{.*}}, %{{.*}}]
// CHECK: fa.warpgroup_mma
// CHECK: %[[FIRST_PAST:.*]] = arith.subi %{{.*}}, %[[COL0]] : index
// CHECK: %[[HAS_PAST:.*]] = arith.cmpi slt, %[[FIRST_PAST]], %c64
// CHECK: scf.if %[[HAS_PAST]] {
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c128
// CHECK: vector.store %{{.*}} : memref<8192xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.barrier id = %c4_i32 number_of_threads = %c128_i32
// CHECK: fa.warpgroup_mma {{.*}} {transpose_b}
func.func @lengths(%q: tensor<1x2x128x64xf16>, %k: tensor<1x2x192x64xf16>, %v: tensor<1x2x192x64xf16>, %n: tensor<1xi32>) -> tensor<1x2x128x64xf16> {
  %o = fa.attention %q, %k, %v kv_lengths(%n : tensor<1xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<1x2x128x64xf16>, tensor<1x2x192x64xf16>, tensor<1x2x192x64xf16> -> tensor<1x2x128x64xf16>
  return %o : tensor<1x2x128x64xf16>
}

// -----

// Packed sequences: the maps address the whole tensors, so Q's boxes start
// at the sequence's cu_seqlens_q entry plus the block's first row, and K's
// and V's at its cu_seqlens_k entry plus the block's first key (the
// numeric test is Integration/Tiling/tma-sequence-lengths.mlir).
// CHECK-LABEL: func.func @packed
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c64
// CHECK: %[[KROW:.*]] = arith.addi %{{.*}}, %[[COL0]] : index
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[KROW]], %{{.*}}, %{{.*}}]
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[KROW]], %{{.*}}, %{{.*}}]
func.func @packed(%q: tensor<1x2x128x64xf16>, %k: tensor<1x2x192x64xf16>, %v: tensor<1x2x192x64xf16>, %cq: tensor<3xi32>, %ck: tensor<3xi32>) -> tensor<1x2x128x64xf16> {
  %o = fa.attention %q, %k, %v cu_seqlens_q(%cq : tensor<3xi32>) cu_seqlens_k(%ck : tensor<3xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<1x2x128x64xf16>, tensor<1x2x192x64xf16>, tensor<1x2x192x64xf16> -> tensor<1x2x128x64xf16>
  return %o : tensor<1x2x128x64xf16>
}

// -----

// A page table: K's and V's maps cover the cache [P, S, Hkv, D] with boxes
// of a key block's rows in one page ([1, 64, 1, 64]: block_kv divides the
// 128-slot pages), at coordinates (column, head, slot, page): the page is
// the table's entry for the block's first key (clamped into the table and
// the cache).
// CHECK-LABEL: func.func @paged
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %c64{{.*}}, %{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<1x64x1x64xf16
// CHECK: scf.for %[[COL0:.*]] = %{{.*}} to %{{.*}} step %c64
// CHECK: %[[FIRST:.*]] = arith.divui %[[COL0]], %c128
// CHECK: %[[ENTRY:.*]] = arith.minsi %[[FIRST]]
// CHECK: memref.load %{{.*}}[%{{.*}}, %[[ENTRY]]] : memref<2x3xi32>
// CHECK: %[[PAGE:.*]] = arith.maxsi
// CHECK: %[[BASE:.*]] = arith.muli %[[ENTRY]], %c128
// CHECK: %[[SLOT:.*]] = arith.subi %[[COL0]], %[[BASE]] : index
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}, %[[SLOT]], %[[PAGE]]]
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}, %[[SLOT]], %[[PAGE]]]
func.func @paged(%q: tensor<2x2x128x64xf16>, %k: tensor<6x128x2x64xf16>, %v: tensor<6x128x2x64xf16>, %t: tensor<2x3xi32>) -> tensor<2x2x128x64xf16> {
  %o = fa.attention %q, %k, %v page_table(%t : tensor<2x3xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<2x2x128x64xf16>, tensor<6x128x2x64xf16>, tensor<6x128x2x64xf16> -> tensor<2x2x128x64xf16>
  return %o : tensor<2x2x128x64xf16>
}

// -----

// Pages of 48 slots do not hold whole 64-key blocks: a block is 4 boxes
// of gcd(48, 64) = 16 rows, each within a page, through its own table
// entry, in a loop kept rolled (llvm.loop_annotation); one expect_tx
// announces all of a tile's bytes.
// The producer asks for 32 registers (kPagedProducerRegisters).
// CHECK-LABEL: func.func @odd_pages
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %c16{{.*}}, %{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<1x16x1x64xf16
// CHECK: {fa.producer_registers = 32 : i64, fa.warpgroup_role = "producer_leader"}
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c8192
// CHECK: scf.for %[[FIRST:.*]] = %{{.*}} to %c64{{.*}} step %c16
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[FIRST]]
// CHECK: %[[ENTRY0:.*]] = arith.divui %[[ROW]], %c48
// CHECK: %[[ENTRY:.*]] = arith.minsi %[[ENTRY0]]
// CHECK: memref.load %{{.*}}[%{{.*}}, %[[ENTRY]]] : memref<2x6xi32>
// CHECK: %[[BASE:.*]] = arith.muli %[[ENTRY]], %c48
// CHECK: %[[SLOT:.*]] = arith.subi %[[ROW]], %[[BASE]]
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}, %[[SLOT]], %{{.*}}]
// CHECK: } {llvm.loop_annotation = #{{.*}}}
func.func @odd_pages(%q: tensor<2x2x128x64xf16>, %k: tensor<12x48x2x64xf16>, %v: tensor<12x48x2x64xf16>, %t: tensor<2x6xi32>) -> tensor<2x2x128x64xf16> {
  %o = fa.attention %q, %k, %v page_table(%t : tensor<2x6xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<2x2x128x64xf16>, tensor<12x48x2x64xf16>, tensor<12x48x2x64xf16> -> tensor<2x2x128x64xf16>
  return %o : tensor<2x2x128x64xf16>
}

// -----

// Pages of 12 slots split 64-key blocks into boxes of gcd(12, 64) = 4
// rows, half a 128-byte swizzle atom: the cp.async loads stay, and a
// remark says why.
// CHECK-LABEL: func.func @small_odd_pages
// CHECK-NOT: nvgpu.tma
// CHECK: nvgpu.device_async_copy
func.func @small_odd_pages(%q: tensor<2x2x128x64xf16>, %k: tensor<24x12x2x64xf16>, %v: tensor<24x12x2x64xf16>, %t: tensor<2x12xi32>) -> tensor<2x2x128x64xf16> {
  // expected-remark @+1 {{the wgmma kernel loads this op's tiles with cp.async, not TMA: page_table: pages of 12 keys split key blocks of 64 into TMA boxes of 4 rows, not whole 128-byte swizzle atoms of 8 rows}}
  %o = fa.attention %q, %k, %v page_table(%t : tensor<2x12xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<2x2x128x64xf16>, tensor<24x12x2x64xf16>, tensor<24x12x2x64xf16> -> tensor<2x2x128x64xf16>
  return %o : tensor<2x2x128x64xf16>
}

// -----

// A page size known only at run time: a box's rows are fixed in its
// tensor map, so the cp.async loads stay, and the remark says why.
// CHECK-LABEL: func.func @dynamic_pages
// CHECK-NOT: nvgpu.tma
// CHECK: nvgpu.device_async_copy
func.func @dynamic_pages(%q: tensor<2x2x128x64xf16>, %k: tensor<12x?x2x64xf16>, %v: tensor<12x?x2x64xf16>, %t: tensor<2x6xi32>) -> tensor<2x2x128x64xf16> {
  // expected-remark @+1 {{the wgmma kernel loads this op's tiles with cp.async, not TMA: page_table: the page size (dimension 1 of K and V) is known only at run time, and the rows of a TMA box are fixed in its tensor map}}
  %o = fa.attention %q, %k, %v page_table(%t : tensor<2x6xi32>) scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2> : tensor<2x2x128x64xf16>, tensor<12x?x2x64xf16>, tensor<12x?x2x64xf16> -> tensor<2x2x128x64xf16>
  return %o : tensor<2x2x128x64xf16>
}
