// Tiles of fa.attention_backward from the backward model (TileSelection.h),
// fitted to fa-distribute-attention-backward's kernels: K, V, Q and dO in
// shared memory (the larger of the dK/dV and dQ kernels'), S, P, dP, dS and
// the f32 gradients in mma.sync fragments, whose registers bound the tile.
// The report says "pass":"backward".
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 report=-" | FileCheck %s --check-prefix=SM90
// RUN: fa-opt %s --fa-select-tiles="target=sm_80 report=-" | FileCheck %s --check-prefix=SM80
// RUN: fa-opt %s --fa-select-tiles="target=sm_75 report=-" | FileCheck %s --check-prefix=SM75
// RUN: fa-opt %s --fa-select-tiles="target=sm_90a report=-" | FileCheck %s --check-prefix=SM90A
// RUN: fa-opt %s --fa-select-tiles="target=sm_90a tma-producer=false report=-" | FileCheck %s --check-prefix=CPASYNC

// sm_90a: the tilings whose dK/dV kernel runs on wgmma rank first (64 keys
// per warpgroup, warps = block_kv / 16; registers D/2 + Dv/2 + 2 block_q +
// 22 + block_kv / 8, + 16 + block_q / 2 under a causal band). @train
// (causal, deterministic): 32 x 128, bounded by the mma.sync dQ kernel's
// 252 (64 x 128's dK/dV kernel would need 278 with the band). Shared
// memory: the dQ kernel's, as on sm_90. By default the dK/dV kernel has a
// TMA producer warpgroup: its wgmma estimate (198 here) must fit the
// compute warpgroups' 240 registers after setmaxnreg, and its ring holds
// L and D per stage ([2][block_q] f32) beside a slot for its mbarriers.
// SM90A: "pass":"backward"{{.*}}"d":64,{{.*}}"block_q":32,"block_kv":128,"warps":8,"stages":2,{{.*}}"smem_bytes":73728,{{.*}}"regs_per_thread_est":252,{{.*}}"dq":"deterministic: a kernel of its own","gpu_kernel":"backward-wgmma-tma-ws"
// SM90A-SAME: first the tilings whose dK/dV kernel runs on wgmma (64 keys per warpgroup), with a TMA producer warpgroup (about 198 of the compute warpgroups' 240 registers after setmaxnreg)
// @d128 (bf16, atomic dQ): 32 x 128, 230 registers; K, V [128 x 128], Q,
// dO [2 x 32 x 128], dS^T [128 x 64] (whole 64-column blocks): 112 KiB,
// and 512 bytes of L and D and a 1 KiB slot for the ring's mbarriers.
// SM90A: "pass":"backward"{{.*}}"dtype":"bf16",{{.*}}"block_q":32,"block_kv":128,"warps":8,"stages":2,{{.*}}"smem_bytes":116224,{{.*}}"regs_per_thread_est":230,{{.*}}"gpu_kernel":"backward-wgmma-tma-ws"
// @atomic (causal, atomic dQ): 32 x 128, 198 registers, 64 KiB + 1.5 KiB.
// SM90A: "pass":"backward"{{.*}}"block_q":32,"block_kv":128,"warps":8,"stages":2,{{.*}}"smem_bytes":67072,{{.*}}"regs_per_thread_est":198,{{.*}}"gpu_kernel":"backward-wgmma-tma-ws"
// With tma-producer=false, the cp.async form: the tiles alone.
// CPASYNC: "pass":"backward"{{.*}}"d":64,{{.*}}"gpu_kernel":"backward-wgmma"
// CPASYNC-NOT: with a TMA producer
// CPASYNC: "pass":"backward"{{.*}}"dtype":"bf16",{{.*}}"block_q":32,"block_kv":128,"warps":8,"stages":2,{{.*}}"smem_bytes":114688,{{.*}}"gpu_kernel":"backward-wgmma"
// CPASYNC: "pass":"backward"{{.*}}"smem_bytes":65536,{{.*}}"gpu_kernel":"backward-wgmma"
// @d160: above 128, dK and dV would split by columns between two
// warpgroups, and 80 columns are no whole 64-column blocks; mma.sync's
// tiling, and the report says why.
// SM90A: "pass":"backward"{{.*}}"d":160,{{.*}}"gpu_kernel":"backward-mma.sync"
// SM90A-SAME: no tiling fits the dK/dV kernel on wgmma (D = 160 is not a multiple of 128 up to 256 (64-column swizzle blocks in each warpgroup's half of dK and dV; dK's and dV's wgmma N)): mma.sync's

// d = 64, f16 on sm_90, `deterministic` (dQ in a kernel of its own):
// 64 x 128, a warp per 16 keys, two cp.async stages (a 128-query block's
// S^T, dP^T and their packed pairs would need about 316 registers per
// thread in the dK/dV kernel). Shared memory: K and V [128 x 64], Q and dO
// [2 x 64 x 64] in the dK/dV kernel, Q and dO [64] and K and V [2 x 128] in
// the dQ kernel, which is the larger: 80 KiB.
// SM90: {"loc":{{.*}},"pass":"backward","shape":{"batch":1,"heads":16,"kv_heads":16,"nq":4096,"nk":4096,"d":64,"dv":64},"dtype":"f16","target":"sm_90","policy":"fa2","block_q":64,"block_kv":128,"warps":8,"stages":2,"kv_splits":1,"pack_gqa":false,"smem_bytes":81920,"smem_limit":232448,"regs_per_thread_est":252,
// SM90-SAME: "dq":"deterministic: a kernel of its own"
// SM90-SAME: "why":"target sm_90 from the pass option; backward pass: the largest of 32 tiles over {16..128}^2 that fits (64 x 128, 8 warps, 2 stages, 80.0 KiB of 227.0 KiB for K, V, Q and dO; about 252 of 255 registers per thread), by area, then block_kv, then stages"
// d = 128, bf16, dQ added with atomics (the default): 16 x 128 over 8
// warps; the dK/dV kernel holds dQ's product beside dK and dV (32 x 64
// would need 272 registers).
// SM90: "pass":"backward"{{.*}}"dtype":"bf16","target":"sm_90","policy":"fa2","block_q":16,"block_kv":128,"warps":8,"stages":2,{{.*}}"regs_per_thread_est":248,{{.*}}"dq":"atomic: f32 sums from the dK/dV kernel"
// SM90-SAME: for K, V, Q, dO and dS^T; about 248 of 255 registers per thread), by area, then block_kv, then stages; dQ added with f32 atomics from the dK/dV kernel
// d = 64 as @train without `deterministic`: 32 x 128 (64-row blocks leave
// no room for dQ's product), K, V [128 x 64], Q, dO [2 x 32 x 64] and
// dS^T [128 x 32]: 56 KiB.
// SM90: "pass":"backward"{{.*}}"dtype":"f16","target":"sm_90","policy":"fa2","block_q":32,"block_kv":128,"warps":8,"stages":2,"kv_splits":1,"pack_gqa":false,"smem_bytes":57344,{{.*}}"regs_per_thread_est":208,{{.*}}"dq":"atomic: f32 sums from the dK/dV kernel"
// A forward op in the same module keeps its own model and says so.
// SM90: "pass":"forward"{{.*}}"gpu_kernel":"mma.sync-registers"
// SM90-LABEL: func.func @train
// SM90: fa.attention_backward {{.*}} deterministic tiling = <block_q = 64, block_kv = 128, warps = 8, stages = 2, smem_bytes = 81920>
// SM90-LABEL: func.func @d128
// SM90: tiling = <block_q = 16, block_kv = 128, warps = 8, stages = 2, smem_bytes = 86016>
// SM90-LABEL: func.func @atomic
// SM90-NOT: deterministic
// SM90: tiling = <block_q = 32, block_kv = 128, warps = 8, stages = 2, smem_bytes = 57344>

// sm_80 has less shared memory; the same registers bound the same tiles.
// SM80: "pass":"backward"{{.*}}"target":"sm_80","policy":"fa2","block_q":64,"block_kv":128,"warps":8,"stages":2,"kv_splits":1,"pack_gqa":false,"smem_bytes":81920,"smem_limit":166912
// SM80: "pass":"backward"{{.*}}"target":"sm_80","policy":"fa2","block_q":16,"block_kv":128,"warps":8,"stages":2
// SM80: "pass":"backward"{{.*}}"target":"sm_80","policy":"fa2","block_q":32,"block_kv":128,"warps":8,"stages":2

// d = 160: no tiling leaves the dK/dV kernel room for dQ's product, so the
// deterministic kernels' tiling is taken and the op is marked so.
// SM80: "pass":"backward"{{.*}}"d":160{{.*}}"dq":"deterministic: a kernel of its own"{{.*}}dQ in a kernel of its own (deterministic): no backward tiling fits sm_80
// SM80-LABEL: func.func @d160
// SM80: fa.attention_backward {{.*}} deterministic tiling = <block_q = 16, block_kv = 64

// sm_75 has no cp.async: one stage; nor mma.sync m16n8k16: no backward
// kernel, the tiled backward sums dQ in order, and the report has no "dq".
// SM75: "pass":"backward"{{.*}}"target":"sm_75","policy":"fa2","block_q":64,"block_kv":128,"warps":8,"stages":1,
// SM75-NOT: "dq"
// SM75: "pass":"forward"

func.func @train(%q: tensor<1x16x4096x64xf16>, %lse: tensor<1x16x4096xf32>) -> tensor<1x16x4096x64xf16> {
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.125 causal = bottom_right deterministic
      : tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096xf32>
      -> tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>
  return %dq : tensor<1x16x4096x64xf16>
}

func.func @d128(%q: tensor<2x8x1024x128xbf16>, %lse: tensor<2x8x1024xf32>) -> tensor<2x8x1024x128xbf16> {
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.125
      : tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024xf32>
      -> tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>
  return %dq : tensor<2x8x1024x128xbf16>
}

func.func @atomic(%q: tensor<1x16x4096x64xf16>, %lse: tensor<1x16x4096xf32>) -> tensor<1x16x4096x64xf16> {
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.125 causal = bottom_right
      : tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096xf32>
      -> tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>
  return %dq : tensor<1x16x4096x64xf16>
}

func.func @d160(%q: tensor<1x4x1024x160xf16>, %lse: tensor<1x4x1024xf32>) -> tensor<1x4x1024x160xf16> {
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.08
      : tensor<1x4x1024x160xf16>, tensor<1x4x1024x160xf16>, tensor<1x4x1024x160xf16>, tensor<1x4x1024x160xf16>, tensor<1x4x1024x160xf16>, tensor<1x4x1024xf32>
      -> tensor<1x4x1024x160xf16>, tensor<1x4x1024x160xf16>, tensor<1x4x1024x160xf16>
  return %dq : tensor<1x4x1024x160xf16>
}

func.func @forward(%q: tensor<1x16x4096x64xf16>) -> tensor<1x16x4096x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125
      : tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16> -> tensor<1x16x4096x64xf16>
  return %o : tensor<1x16x4096x64xf16>
}
