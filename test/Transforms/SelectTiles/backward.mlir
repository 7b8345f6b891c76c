// Tiles of fa.attention_backward from the backward model (TileSelection.h):
// K, V, Q, dO, P and dS tiles in shared memory, the f32 dK and dV
// accumulators in registers. The report says "pass":"backward".
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 report=-" | FileCheck %s --check-prefix=SM90
// RUN: fa-opt %s --fa-select-tiles="target=sm_80 report=-" | FileCheck %s --check-prefix=SM80

// d = 64, f16 on sm_90: 128 x 64 (a 128 x 128 tile's accumulators and
// scores would need about 416 registers per thread).
// SM90: {"loc":{{.*}},"pass":"backward","shape":{"batch":1,"heads":16,"kv_heads":16,"nq":4096,"nk":4096,"d":64,"dv":64},"dtype":"f16","target":"sm_90","policy":"fa2","block_q":128,"block_kv":64,"warps":4,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":93184,"smem_limit":232448,"regs_per_thread_est":224,
// SM90-SAME: "why":"target sm_90 from the pass option; backward pass: the largest of 16 tiles over {16..128}^2 that fits (128 x 64, 4 warps, 91.0 KiB of 227.0 KiB for K, V, Q, dO, P and dS), by area and then block_kv"
// d = 128, bf16: 64 x 64.
// SM90: "pass":"backward"{{.*}}"dtype":"bf16","target":"sm_90","policy":"fa2","block_q":64,"block_kv":64,"warps":4
// A forward op in the same module keeps its own model and says so.
// SM90: "pass":"forward"{{.*}}"gpu_kernel":"mma.sync-registers"
// SM90-LABEL: func.func @train
// SM90: fa.attention_backward {{.*}} tiling = <block_q = 128, block_kv = 64, warps = 4, stages = 1, smem_bytes = 93184>
// SM90-LABEL: func.func @d128
// SM90: tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 1, smem_bytes = 88576>

// sm_80 has less shared memory; the same registers bound the same tiles.
// SM80: "pass":"backward"{{.*}}"target":"sm_80","policy":"fa2","block_q":128,"block_kv":64,"warps":4,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":93184,"smem_limit":166912
// SM80: "pass":"backward"{{.*}}"target":"sm_80","policy":"fa2","block_q":64,"block_kv":64

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
