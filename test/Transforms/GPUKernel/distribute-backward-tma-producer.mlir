// fa-distribute-attention-backward with tma-producer: the wgmma dK/dV
// kernel's query blocks (Q, dO, L and D) come by TMA from a producer
// warpgroup (docs/Hopper.md, "The producer warpgroup"). 128 keys over two
// compute warpgroups and a producer warpgroup: 384 threads. The D kernel
// also writes L and D side by side into a [B, Hq, 2, Nq rounded up to 4]
// workspace (Nq = 70: 72 rows, the last thread zeroing rows 70 and 71);
// the host builds the maps of Q and dO ([1, 1, 32, 64] boxes, 128-byte
// swizzle) and of that workspace ([1, 1, 2, 32], no swizzle). Each block
// has 3 * stages mbarriers (Q with L/D full, dO full, empty), the empty ones
// counting the 256 compute threads; K and V are copied by every thread
// before the roles part.
// RUN: fa-opt %s -split-input-file "--fa-distribute-attention-backward=warpgroup-mma=true tma-producer=true" -verify-diagnostics | FileCheck %s
// RUN: fa-opt %s -split-input-file --fa-select-tiles="target=sm_90a report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fa-opt %s -split-input-file "--fa-distribute-attention-backward=warpgroup-mma=true" | FileCheck %s --check-prefix=CPASYNC

// The tile report names the kernel: with the producer where 166 registers
// fit its compute warpgroups' 240, on cp.async where 254 do not.
// REPORT: "regs_per_thread_est":166,{{.*}}"gpu_kernel":"backward-wgmma-tma-ws"
// REPORT: "regs_per_thread_est":254,{{.*}}"gpu_kernel":"backward-wgmma"

// CHECK-LABEL: func.func @producer
// The D kernel: D, then L and D into the workspace, then its padding.
// CHECK: scf.forall
// CHECK: memref.store %{{.*}}, %[[STATS:.*]][%{{.*}}, %{{.*}}, %c0{{.*}}, %{{.*}}] : memref<1x2x2x72xf32>
// CHECK: memref.store %{{.*}}, %[[STATS]][%{{.*}}, %{{.*}}, %c1{{.*}}, %{{.*}}] : memref<1x2x2x72xf32>
// CHECK: scf.if
// CHECK: scf.for %{{.*}} = %c70 to %{{.*}} step
// CHECK-COUNT-2: nvgpu.tma.create.descriptor %{{.*}} box[{{.*}}] : memref<*xf16> -> <tensor = memref<1x1x32x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b,
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[{{.*}}] : memref<*xf32> -> <tensor = memref<1x1x2x32xf32, #gpu.address_space<workgroup>>, swizzle = none,
// CHECK: scf.forall
// CHECK: memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
// CHECK: scf.forall (%[[T:.*]]) in (384)
// CHECK: nvgpu.mbarrier.init %{{.*}}[%c4{{.*}}], %c256
// CHECK: nvgpu.mbarrier.init %{{.*}}[%c5{{.*}}], %c256
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: arith.cmpi slt, %[[T]], %c256{{.*}} {fa.warpgroup_role = "compute"}
// CHECK: arith.cmpi eq, %[[T]], %c256{{.*}} {fa.producer_registers = 24 : i64, fa.warpgroup_role = "producer_leader"}
// CHECK: scf.for
// The producer: 32 x 64 x 2 bytes of Q and 2 x 32 x 4 of L and D.
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c4352
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c4096
// The compute warpgroups, and the stores of dK and dV by them only.
// CHECK: nvgpu.mbarrier.arrive %
// CHECK: scf.yield
// CHECK: scf.if
// CHECK: vector.store
// CPASYNC-LABEL: func.func @producer
// CPASYNC-NOT: nvgpu.tma
// CPASYNC: nvgpu.device_async_copy
func.func @producer(%q: tensor<1x2x70x64xf16>, %k: tensor<1x2x200x64xf16>,
                    %v: tensor<1x2x200x64xf16>, %o: tensor<1x2x70x64xf16>,
                    %do: tensor<1x2x70x64xf16>, %lse: tensor<1x2x70xf32>)
    -> (tensor<1x2x70x64xf16>, tensor<1x2x200x64xf16>, tensor<1x2x200x64xf16>) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse scale = 0.125
      tiling = <block_q = 32, block_kv = 128, warps = 8, stages = 2>
      : tensor<1x2x70x64xf16>, tensor<1x2x200x64xf16>, tensor<1x2x200x64xf16>,
        tensor<1x2x70x64xf16>, tensor<1x2x70x64xf16>, tensor<1x2x70xf32>
      -> tensor<1x2x70x64xf16>, tensor<1x2x200x64xf16>, tensor<1x2x200x64xf16>
  return %dq, %dk, %dv : tensor<1x2x70x64xf16>, tensor<1x2x200x64xf16>, tensor<1x2x200x64xf16>
}

// -----

// D = 256 with a causal band at 32 x 64: the wgmma kernel needs about 254
// registers per thread, more than setmaxnreg leaves the compute
// warpgroups; it keeps cp.async, and says so.
// CHECK-LABEL: func.func @too_many_registers
// CHECK-NOT: nvgpu.tma
// CHECK: nvgpu.device_async_copy
func.func @too_many_registers(%q: tensor<1x1x64x256xf16>, %k: tensor<1x1x64x256xf16>,
                              %v: tensor<1x1x64x256xf16>, %o: tensor<1x1x64x256xf16>,
                              %do: tensor<1x1x64x256xf16>, %lse: tensor<1x1x64xf32>)
    -> (tensor<1x1x64x256xf16>, tensor<1x1x64x256xf16>, tensor<1x1x64x256xf16>) {
  // expected-remark @+1 {{the wgmma dK/dV kernel loads this op's query blocks with cp.async, not TMA: its compute warpgroups would need about 254 registers per thread, and setmaxnreg leaves them 240}}
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse scale = 0.0625 causal = bottom_right
      tiling = <block_q = 32, block_kv = 64, warps = 8, stages = 2>
      : tensor<1x1x64x256xf16>, tensor<1x1x64x256xf16>, tensor<1x1x64x256xf16>,
        tensor<1x1x64x256xf16>, tensor<1x1x64x256xf16>, tensor<1x1x64xf32>
      -> tensor<1x1x64x256xf16>, tensor<1x1x64x256xf16>, tensor<1x1x64x256xf16>
  return %dq, %dk, %dv : tensor<1x1x64x256xf16>, tensor<1x1x64x256xf16>, tensor<1x1x64x256xf16>
}
