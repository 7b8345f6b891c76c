// The kernel form: a block-mapped grid, shared tiles, a thread loop with the
// barriers of the copy/compute phases. The FMA kernel first (what f32 and
// tilings without whole 16-row warp tiles get), then the register-resident
// tensor-core kernel that f16 @kernel gets by default (REG), then the
// earlier tensor-core kernel whose S and P pass through shared memory
// (register-fragments=false: MMA, SPLIT).
// RUN: fa-opt %s --fa-distribute-attention=tensor-cores=false | FileCheck %s
// RUN: fa-opt %s --fa-distribute-attention="async-copies=false tensor-cores=false" | FileCheck %s --check-prefix=SYNC
// RUN: fa-opt %s --fa-distribute-attention | FileCheck %s --check-prefix=REG
// RUN: fa-opt %s --fa-distribute-attention=register-fragments=false | FileCheck %s --check-prefix=MMA
// RUN: fa-opt %s --fa-distribute-attention=register-fragments=false | FileCheck %s --check-prefix=SPLIT

// @kernel: 64 rows over 2 warps (two 16-row fragment rows per warp), 32
// keys per block, D = Dv = 64. Only Q, K and V are shared, unpadded (rows
// of 8 chunks, swizzled); no f32 tile.
// REG-LABEL: func.func @kernel
// REG: memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
// REG: memref.alloc() : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// REG: memref.alloc() : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// REG-NOT: memref.alloc
// REG: scf.forall (%[[T:.*]]) in (64)
// The Q copy's column is swizzled by the row: chunk xor (row mod 8).
// REG: arith.xori
// REG: vector.store {{.*}} {alignment = 16 : i64} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// The first block's K and V by cp.async, one group (an empty one when the
// query block sees no key), waited for before the loop. 512 keys fill
// whole 32-key blocks: no clamp, no zero fill.
// REG: %[[FIRST:.*]] = scf.if %{{.*}} -> (!nvgpu.device.async.token)
// REG-NOT: arith.select
// REG: nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// REG: nvgpu.device_async_create_group
// REG: } else {
// REG-NEXT: nvgpu.device_async_create_group{{ *$}}
// REG: nvgpu.device_async_wait %[[FIRST]] {numGroups = 0 : i32}
// The key loop carries m and the lane's part of l for 4 fragment rows
// (rows g and g + 8 of two 16-row tiles), and 2 x 8 O fragments. Without
// causal or window masks and with whole blocks it is the only loop, and no
// element is masked.
// REG: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// One barrier per block (two buffers): this block's tiles are visible and
// the other buffers free, so the next block's K and V are requested at once.
// REG-NEXT: arith.subi
// REG: gpu.barrier
// REG: %[[NEXT:.*]] = scf.if %{{.*}} -> (!nvgpu.device.async.token)
// S = Q Kᵀ: per 16 of D, two Q fragments (x4) and two K pairs (x4), then
// 2 x 4 mma.syncs; four steps.
// REG-COUNT-4: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// REG-COUNT-8: nvgpu.mma.sync
// REG-NOT: gpu.barrier
// REG-NOT: memref.store
// REG-NOT: vector.store
// REG-NOT: arith.select
// The row max over the quad: xor 1, then xor 2, for the 4 rows.
// REG-COUNT-4: gpu.shuffle  xor {{.*}}, %c1_i32
// REG-COUNT-4: gpu.shuffle  xor {{.*}}, %c2_i32
// p = 2^(u c - m' c): one FMA (c = 0.125 log2 e) and one approximate exp2.
// REG: math.fma %{{.*}}, %cst{{.*}}, %{{.*}} : f32
// REG-NEXT: math.exp2 %{{.*}} fastmath<afn> : f32
// P rounded two columns at a time into one packed register.
// REG: arith.truncf {{.*}} : vector<2xf32> to vector<2xf16>
// O += P V: V read transposed into B fragments.
// REG: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// REG: nvgpu.mma.sync
// REG-NOT: memref.store
// REG-NOT: vector.store
// REG-NOT: gpu.barrier
// The next block's group is waited for at the end of this one.
// REG: nvgpu.device_async_wait %[[NEXT]] {numGroups = 0 : i32}
// REG-NEXT: scf.yield
// REG-NOT: scf.for
// The end: l summed over the quad, O / l stored from the fragments, two
// columns per lane.
// REG-COUNT-4: gpu.shuffle  xor {{.*}}, %c1_i32
// REG-COUNT-4: gpu.shuffle  xor {{.*}}, %c2_i32
// REG: vector.store {{.*}} {alignment = 4 : i64} : memref<2x8x512x64xf16>, vector<2xf16>

// MMA-DAG: #[[TILE0:.*]] = affine_map<(d0) -> ((d0 floordiv 32) * 32)>
// MMA-DAG: #[[TILE1:.*]] = affine_map<(d0) -> ((d0 floordiv 32) * 32 + 16)>
// MMA-DAG: #[[VT:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// Thread t's half order (bank conflicts, see resultHalves).
// MMA-DAG: #[[FIRST:.*]] = affine_map<(d0) -> (((d0 floordiv 4 + d0 floordiv 8) mod 2) * 4)>
// MMA-LABEL: func.func @kernel
// Besides Q, K and V: the warps' f32 results [Br][max(Bc, Dv) + 4] and the
// f16 probabilities [Br][Bc + 8].
// The f32 results tile is fragment-major and unpadded: [row tile][8-column
// chunk][16][8].
// MMA: memref.alloc() : memref<4x8x16x8xf32, #gpu.address_space<workgroup>>
// MMA: memref.alloc() : memref<64x40xf16, #gpu.address_space<workgroup>>
// MMA: scf.forall (%[[T:.*]]) in (64)
// MMA: scf.for {{.*}} -> (f32, f32, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// MMA: nvgpu.device_async_wait
// MMA-NEXT: gpu.barrier
// S = Q K^T: warp w (32 rows with 2 warps) does two 16-row tiles; Q's
// fragments are read once per tile, each 8-key column is D / 16 = 4 matmuls.
// MMA: affine.apply #[[TILE0]](%[[T]])
// MMA-COUNT-4: vector.transfer_read {{.*}} : memref<64x72xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
// MMA: scf.for {{.*}} = %{{.*}} to %c32{{.*}} step %c8
// MMA-COUNT-4: vector.contract {{.*}} : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
// MMA: vector.transfer_write {{.*}}[%{{.*}}, %{{.*}}, %[[Z:.*]], %[[Z]]] {{.*}} : vector<16x8xf32>, memref<4x8x16x8xf32, #gpu.address_space<workgroup>>
// MMA: affine.apply #[[TILE1]](%[[T]])
// MMA: gpu.barrier
// Thread t: mask row t (raw scores), its max, then P = 2^(u c - m' c) as f16. 64
// threads own the 64 rows: no branch around the row phases.
// MMA-NOT: scf.if
// MMA: affine.apply #[[FIRST]](%[[T]])
// MMA: vector.load {{.*}} {alignment = 16 : i64} : memref<4x8x16x8xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// MMA: math.exp2
// P in two 8-byte halves, in the thread's order.
// MMA: vector.store {{.*}} {alignment = 8 : i64} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// MMA: vector.store {{.*}} {alignment = 8 : i64} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// MMA: gpu.barrier
// P V, V's 16 x 8 tiles read transposed (ldmatrix .trans on a GPU).
// MMA: vector.transfer_read {{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
// MMA: vector.transfer_read {{.*}} {in_bounds = [true, true], permutation_map = #[[VT]]} : memref<2x32x72xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
// MMA: vector.contract
// MMA: gpu.barrier
// Thread t: acc = alpha acc + (P V)[t]; no barrier before the next copies.
// MMA-COUNT-8: vector.fma
// MMA-NOT: gpu.barrier
// MMA: scf.yield
// MMA: {mapping = [#gpu.thread<x>]}
// MMA-LABEL: func.func @one_stage
// MMA-NOT: vector.contract
// MMA: {mapping = [#gpu.thread<x>]}

// CHECK-LABEL: func.func @kernel
// CHECK: scf.forall ({{.*}}) in (2, 8, %{{.*}})
// Q [Br][D + 8 halves], K and V [stages][Bc][D + 8]: 16-byte row pads.
// CHECK: memref.alloc() : memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x32x72xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x32x72xf16, #gpu.address_space<workgroup>>
// CHECK: scf.forall ({{.*}}) in (64)
// 16-byte coalesced copies of the Q tile, then a barrier.
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<2x8x512x64xf16>, vector<8xf16>
// CHECK: gpu.barrier
// Two stages: K and V of the first key block are prefetched with cp.async
// (16 bytes per copy, zero-filled past Nk) before the key loop.
// CHECK: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1} : memref<2x8x512x64xf16> to memref<2x32x72xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// The key loop carries the row max, the row sum and the f32 accumulator as
// eight 16-byte slices of V's row (Dv = 64 f16 = 8 x 8).
// CHECK: scf.for {{.*}} -> (f32, f32, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// Each key block prefetches the next one into the other buffer, waits for
// its own, and computes between two barriers.
// CHECK: nvgpu.device_async_copy
// CHECK: %[[GROUP:.*]] = nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %[[GROUP]] {numGroups = 1 : i32}
// CHECK: gpu.barrier
// CHECK: math.exp2
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// Without cp.async the copies are synchronous and two stages need one
// barrier per key block.
// SYNC-NOT: nvgpu.device_async_copy
// SYNC: scf.for
// SYNC: gpu.barrier
// SYNC: math.exp2
// SYNC-NOT: gpu.barrier
// SYNC: {mapping = [#gpu.thread<x>]}
// CHECK: {mapping = [#gpu.thread<x>]}
// CHECK: {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT: fa.attention
func.func @kernel(%q: tensor<2x8x512x64xf16>, %k: tensor<2x8x512x64xf16>, %v: tensor<2x8x512x64xf16>) -> tensor<2x8x512x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 tiling = <block_q = 64, block_kv = 32, warps = 2, stages = 2>
      : tensor<2x8x512x64xf16>, tensor<2x8x512x64xf16>, tensor<2x8x512x64xf16> -> tensor<2x8x512x64xf16>
  return %o : tensor<2x8x512x64xf16>
}

// With one stage the compute phase ends with a second barrier.
// CHECK-LABEL: func.func @one_stage
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: gpu.barrier
// CHECK: scf.yield
func.func @one_stage(%q: tensor<1x1x64x16xf32>, %k: tensor<1x1x64x16xf32>, %v: tensor<1x1x64x16xf32>) -> tensor<1x1x64x16xf32> {
  %o = fa.attention %q, %k, %v scale = 0.25 tiling = <block_q = 32, block_kv = 16, warps = 1, stages = 1>
      : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}

// Rows of 4 chunks (D = 32 f16 = 64 bytes): the copies go down 8 rows
// first (chunk i of group i / 32 at row 8 (i / 32) + i % 8, chunk column
// (i % 32) / 8), so a quarter-warp's 16-byte stores land on 8 rows 80 bytes
// apart, on distinct banks; a warp still reads 32 consecutive chunks.
// CHECK-LABEL: func.func @narrow_rows
// CHECK: scf.forall (%[[T:.*]]) in (128)
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[T]] : index
// CHECK: %[[G:.*]] = arith.divui %[[I]], %c32{{.*}} : index
// CHECK: %[[J:.*]] = arith.remui %[[I]], %c32{{.*}} : index
// CHECK: %[[G8:.*]] = arith.muli %[[G]], %c8{{.*}} : index
// CHECK: %[[R:.*]] = arith.remui %[[J]], %c8{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.addi %[[G8]], %[[R]] : index
// CHECK: %[[C:.*]] = arith.divui %[[J]], %c8{{.*}} : index
// CHECK: %[[COL:.*]] = arith.muli %[[C]], %c8{{.*}} : index
// CHECK: vector.store %{{.*}}, %{{.*}}[%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// With 64 rows over 128 threads (block_q = 16 * warps), the tensor-core
// kernel gives each row two threads: thread t = 2r + p takes row r's
// 8-column chunks p, p + 2, ..., half p first; the parts combine the row's
// max and sum with one xor shuffle each, and each keeps half of the row's
// accumulator (Dv = 32: two slices instead of four).
// SPLIT-DAG: #[[PART:.*]] = affine_map<(d0) -> (d0 mod 2)>
// SPLIT-DAG: #[[HALF:.*]] = affine_map<(d0) -> ((d0 mod 2) * 4)>
// SPLIT-LABEL: func.func @narrow_rows
// SPLIT: scf.forall (%[[T:.*]]) in (128)
// SPLIT: scf.for {{.*}} -> (f32, f32, vector<8xf32>, vector<8xf32>)
// SPLIT: affine.apply #[[PART]](%[[T]])
// SPLIT: affine.apply #[[HALF]](%[[T]])
// SPLIT: vector.reduction <maximumf>
// SPLIT: %[[MAX:.*]], %{{.*}} = gpu.shuffle xor %[[LOCALMAX:[^,]*]], %c1_i32{{.*}}, %c32_i32{{.*}} : f32
// SPLIT: arith.maximumf %[[LOCALMAX]], %[[MAX]] : f32
// SPLIT: vector.reduction <add>
// SPLIT: %[[SUM:.*]], %{{.*}} = gpu.shuffle xor %[[LOCALSUM:[^,]*]], %c1_i32{{.*}}, %c32_i32{{.*}} : f32
// SPLIT: arith.addf %[[LOCALSUM]], %[[SUM]] : f32
// SPLIT-COUNT-2: vector.fma
// SPLIT-NOT: vector.fma
// SPLIT: scf.yield
func.func @narrow_rows(%q: tensor<1x2x128x32xf16>, %k: tensor<1x2x128x32xf16>, %v: tensor<1x2x128x32xf16>) -> tensor<1x2x128x32xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 tiling = <block_q = 64, block_kv = 32, warps = 4, stages = 1>
      : tensor<1x2x128x32xf16>, tensor<1x2x128x32xf16>, tensor<1x2x128x32xf16> -> tensor<1x2x128x32xf16>
  return %o : tensor<1x2x128x32xf16>
}
