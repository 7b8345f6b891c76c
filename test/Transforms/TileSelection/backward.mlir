// Tiles of fa.attention_backward from the backward model (TileSelection.h),
// fitted to fa-distribute-attention-backward's kernels: K, V, Q and dO in
// shared memory (the larger of the dK/dV and dQ kernels'), S, P, dP, dS and
// the f32 gradients in mma.sync fragments, whose registers bound the tile.
// The report says "pass":"backward".
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 report=-" | FileCheck %s --check-prefix=SM90
// RUN: fa-opt %s --fa-select-tiles="target=sm_80 report=-" | FileCheck %s --check-prefix=SM80
// RUN: fa-opt %s --fa-select-tiles="target=sm_75 report=-" | FileCheck %s --check-prefix=SM75

// d = 64, f16 on sm_90: 64 x 128, a warp per 16 keys, two cp.async stages
// (a 128-query block's S^T, dP^T and their packed pairs would need about
// 316 registers per thread in the dK/dV kernel). Shared memory: K and V
// [128 x 64], Q and dO [2 x 64 x 64] in the dK/dV kernel, Q and dO [64] and
// K and V [2 x 128] in the dQ kernel, which is the larger: 80 KiB.
// SM90: {"loc":{{.*}},"pass":"backward","shape":{"batch":1,"heads":16,"kv_heads":16,"nq":4096,"nk":4096,"d":64,"dv":64},"dtype":"f16","target":"sm_90","policy":"fa2","block_q":64,"block_kv":128,"warps":8,"stages":2,"kv_splits":1,"pack_gqa":false,"smem_bytes":81920,"smem_limit":232448,"regs_per_thread_est":252,
// SM90-SAME: "why":"target sm_90 from the pass option; backward pass: the largest of 32 tiles over {16..128}^2 that fits (64 x 128, 8 warps, 2 stages, 80.0 KiB of 227.0 KiB for K, V, Q and dO; about 252 of 255 registers per thread), by area, then block_kv, then stages"
// d = 128, bf16: 32 x 64 over 4 warps (64 x 64 would need 284 registers).
// SM90: "pass":"backward"{{.*}}"dtype":"bf16","target":"sm_90","policy":"fa2","block_q":32,"block_kv":64,"warps":4,"stages":2,{{.*}}"regs_per_thread_est":236
// A forward op in the same module keeps its own model and says so.
// SM90: "pass":"forward"{{.*}}"gpu_kernel":"mma.sync-registers"
// SM90-LABEL: func.func @train
// SM90: fa.attention_backward {{.*}} tiling = <block_q = 64, block_kv = 128, warps = 8, stages = 2, smem_bytes = 81920>
// SM90-LABEL: func.func @d128
// SM90: tiling = <block_q = 32, block_kv = 64, warps = 4, stages = 2, smem_bytes = 81920>

// sm_80 has less shared memory; the same registers bound the same tiles.
// SM80: "pass":"backward"{{.*}}"target":"sm_80","policy":"fa2","block_q":64,"block_kv":128,"warps":8,"stages":2,"kv_splits":1,"pack_gqa":false,"smem_bytes":81920,"smem_limit":166912
// SM80: "pass":"backward"{{.*}}"target":"sm_80","policy":"fa2","block_q":32,"block_kv":64,"warps":4,"stages":2

// sm_75 has no cp.async: one stage.
// SM75: "pass":"backward"{{.*}}"target":"sm_75","policy":"fa2","block_q":64,"block_kv":128,"warps":8,"stages":1,

func.func @train(%q: tensor<1x16x4096x64xf16>, %lse: tensor<1x16x4096xf32>) -> tensor<1x16x4096x64xf16> {
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.125 causal = bottom_right
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

func.func @forward(%q: tensor<1x16x4096x64xf16>) -> tensor<1x16x4096x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125
      : tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16> -> tensor<1x16x4096x64xf16>
  return %o : tensor<1x16x4096x64xf16>
}
