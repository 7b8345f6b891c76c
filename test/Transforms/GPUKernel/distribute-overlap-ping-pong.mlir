// The TMA producer kernel's two schedules (issue 32), on a block of two
// compute warpgroups (128 x 64, 8 warps, two stages):
//  - overlap-softmax: P V of a key block is issued in the next block's step,
//    after that block's S = Q K^T, as its own commit group
//    (fa.warpgroup_mma_wait {pending = 1} with no operand closes S's); the
//    wait that returns S leaves P V in flight during the softmax, and the
//    last block's P V follows the loop. Both waits on the ring (K of this
//    block, V of the previous one) come before S is issued, and P passes
//    through P V's wait (pair by pair) before it is rounded into the
//    registers P V reads.
//  - ping-pong: the second warpgroup hands the first its first turn
//    (bar.arrive); each warpgroup waits for its turn (bar.sync) before it
//    issues its matmuls and hands the turn on (bar.arrive) after.
// The CPU model runs both (Integration/Tiling/*wgmma*, emulate-named-barriers.mlir).
// RUN: fa-opt %s "--fa-distribute-attention=warpgroup-mma=true tma-producer=true overlap-softmax=true ping-pong=true" | FileCheck %s
// RUN: fa-opt %s "--fa-distribute-attention=warpgroup-mma=true tma-producer=true" | FileCheck %s --check-prefix=PLAIN

// CHECK-LABEL: func.func @attention
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// The first block: S and its softmax, no P V.
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: fa.warpgroup_mma {{.*}} {ignore_accumulator}
// CHECK-NOT: transpose_b
// CHECK: nvvm.barrier.arrive
// CHECK-NOT: transpose_b
// CHECK: fa.warpgroup_mma_wait %{{[0-9]+}} : vector<32xf32>
// CHECK-NOT: transpose_b
// The loop over the other blocks.
// CHECK: scf.for {{.*}} iter_args
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvvm.barrier id
// CHECK: fa.warpgroup_mma {{.*}} {ignore_accumulator}
// CHECK: fa.warpgroup_mma_wait {pending = 1 : i64}
// CHECK: fa.warpgroup_mma {{.*}} {transpose_b}
// CHECK: nvvm.barrier.arrive
// CHECK: fa.warpgroup_mma_wait %{{[0-9]+}} {pending = 1 : i64} : vector<32xf32>
// CHECK: fa.warpgroup_mma_wait %{{[0-9]+}}, %{{[0-9]+}}, {{.*}} : vector<32xf32>, vector<2xf32>, vector<2xf32>
// CHECK: nvgpu.mbarrier.arrive
// The last block's P V.
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvvm.barrier id
// CHECK: fa.warpgroup_mma {{.*}} {transpose_b}
// CHECK: nvvm.barrier.arrive
// CHECK: fa.warpgroup_mma_wait %{{[0-9]+}} : vector<32xf32>
// CHECK: nvgpu.mbarrier.arrive

// PLAIN-NOT: nvvm.barrier
// PLAIN-NOT: pending = 1
func.func @attention(%q: tensor<1x2x256x64xf16>, %k: tensor<1x2x256x64xf16>, %v: tensor<1x2x256x64xf16>) -> tensor<1x2x256x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 tiling = <block_q = 128, block_kv = 64, warps = 8, stages = 2> : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16> -> tensor<1x2x256x64xf16>
  return %o : tensor<1x2x256x64xf16>
}
