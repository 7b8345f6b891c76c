// The kernel form: a block-mapped grid, padded shared tiles, a thread loop
// with the barriers of the copy/compute phases.
// RUN: fa-opt %s --fa-distribute-attention | FileCheck %s

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
// The key loop carries the row max, the row sum and the f32 accumulator as
// eight 16-byte slices of V's row (Dv = 64 f16 = 8 x 8).
// CHECK: scf.for {{.*}} -> (f32, f32, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: gpu.barrier
// CHECK: math.exp
// Two stages: one barrier per key block.
// CHECK-NOT: gpu.barrier
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
