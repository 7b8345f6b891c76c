// fa-convert-kernel-nvgpu-to-nvvm lowers fa.warpgroup_mma to one inline
// wgmma.mma_async with the accumulator tied in and out, the buffers' shared
// addresses (/16) added to the descriptors, and, before a chain's first
// wgmma only, the proxy fence and wgmma.fence; fa.warpgroup_mma_wait to
// commit_group, wait_group and one empty asm per element, which keeps
// LLVM from reading the registers above the wait.
// RUN: fa-opt %s --pass-pipeline='builtin.module(gpu.module(fa-convert-kernel-nvgpu-to-nvvm))' | FileCheck %s

!buf = memref<4096xf16, #gpu.address_space<workgroup>>
!bbuf = memref<4096xbf16, #gpu.address_space<workgroup>>

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @chain
  // CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  // CHECK-NEXT: nvvm.wgmma.fence.aligned
  // CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // CHECK: llvm.lshr
  // CHECK: llvm.add
  // scale-d is an immediate (0: ignore the accumulator), not a register
  // LLVM could share with a zero accumulator element (ptxas's C7517).
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 0, 0;\0Awgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7}, $16, $17, p, 1, 1, 0, 0;\0A}\0A", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,l,l"
  // The second wgmma of the chain: no fences.
  // CHECK-NOT: nvvm.wgmma.fence.aligned
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}m64n16k16.f32.f16.f16 {{.*}} p, 1, 1, 0, 1;
  // A M/N-major too: trans-a 1.
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}m64n16k16.f32.f16.f16 {{.*}} p, 1, 1, 1, 1;
  // CHECK: nvvm.wgmma.commit.group.sync.aligned
  // CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
  // CHECK-COUNT-8: llvm.inline_asm has_side_effects asm_dialect = att "", "=f,0"
  gpu.func @chain(%a: !buf, %b: !buf, %da: i64, %db: i64, %out: memref<8xf32>) kernel {
    %zero = arith.constant dense<0.0> : vector<8xf32>
    %s0 = fa.warpgroup_mma %zero, %da in %a, %db in %b {ignore_accumulator} : vector<8xf32>, i64 in !buf, !buf
    %s1 = fa.warpgroup_mma %s0, %da in %a, %db in %b {transpose_b} : vector<8xf32>, i64 in !buf, !buf
    %s2 = fa.warpgroup_mma %s1, %da in %a, %db in %b {transpose_a, transpose_b} : vector<8xf32>, i64 in !buf, !buf
    %s = fa.warpgroup_mma_wait %s2 {pending = 1} : vector<8xf32>
    %c0 = arith.constant 0 : index
    vector.store %s, %out[%c0] : memref<8xf32>, vector<8xf32>
    gpu.return
  }

  // A from registers: four b32 operands in braces; bf16; no trans-a.
  // CHECK-LABEL: gpu.func @registers
  // CHECK-COUNT-4: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
  // CHECK: setp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, p, 1, 1, 1;
  // CHECK-SAME: "=f,=f,=f,=f,0,1,2,3,r,r,r,r,l"
  gpu.func @registers(%p: vector<4x2xbf16>, %b: !bbuf, %db: i64, %out: memref<4xf32>) kernel {
    %zero = arith.constant dense<0.0> : vector<4xf32>
    %o = fa.warpgroup_mma %zero, %p, %db in %b {transpose_b} : vector<4xf32>, vector<4x2xbf16>, !bbuf
    %w = fa.warpgroup_mma_wait %o : vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %w, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}
