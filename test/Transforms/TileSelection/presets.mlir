// Every preset on one Llama-style layer (B = 2, Hq = 32 over Hkv = 8, N = 2048,
// D = 128, f16, causal): the tiling fa-select-tiles writes and reports. The
// numbers are the cost model's (docs/Targets.md). The tensor-core targets
// take 128 x 32 with 4 warps and two stages for D = 128, FlashAttention-2's
// spill-free D = 128 tile: its 128 x 64 with 4 warps holds two fragment
// rows of O, S and P per lane and needs more than 255 registers, which
// spills (as FlashAttention-2's does); 128 x 32 keeps two blocks per SM,
// as FlashAttention-2 has (docs/GPU-Checks.md).
// RUN: fa-opt %s --fa-select-tiles="target=sm_75 report=-" | FileCheck %s --check-prefix=SM75
// RUN: fa-opt %s --fa-select-tiles="target=sm_80 report=-" | FileCheck %s --check-prefix=SM80
// RUN: fa-opt %s --fa-select-tiles="target=sm_86 report=-" | FileCheck %s --check-prefix=SM86
// RUN: fa-opt %s --fa-select-tiles="target=sm_89 report=-" | FileCheck %s --check-prefix=SM89
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 report=-" | FileCheck %s --check-prefix=SM90
// RUN: fa-opt %s --fa-select-tiles="target=sm_90a report=-" | FileCheck %s --check-prefix=SM90A
// RUN: fa-opt %s --fa-select-tiles="target=sm_100 report=-" | FileCheck %s --check-prefix=SM100
// RUN: fa-opt %s --fa-select-tiles="target=sm_120 report=-" | FileCheck %s --check-prefix=SM120
// RUN: fa-opt %s --fa-select-tiles="target=gfx90a report=-" | FileCheck %s --check-prefix=GFX90A
// RUN: fa-opt %s --fa-select-tiles="target=gfx942 report=-" | FileCheck %s --check-prefix=GFX942
// RUN: fa-opt %s --fa-select-tiles="target=gfx950 report=-" | FileCheck %s --check-prefix=GFX950
// RUN: fa-opt %s --fa-select-tiles="target=host report=-" | FileCheck %s --check-prefix=HOST

// SM75: "target":"sm_75","policy":"auto","block_q":64,"block_kv":64,"warps":4,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":52224,"smem_limit":65536
// SM75-SAME: "fa1_bc":64,"fa1_br":64,"gpu_kernel":"fma"
// SM75: fa.attention {{.*}} tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 1, smem_bytes = 52224>
// Causal, d = 128: the band's live mask bases rule out 128 x 32 over 4
// warps (docs/Targets.md); 128 x 64 over 8 warps keeps 8 warps per SM.
// SM80: "target":"sm_80","policy":"auto","block_q":128,"block_kv":64,"warps":8,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":65536,"smem_limit":166912
// SM80-SAME: "fa1_bc":163,"fa1_br":128,"gpu_kernel":"mma.sync-registers"
// SM80: fa.attention {{.*}} tiling = <block_q = 128, block_kv = 64, warps = 8, stages = 1, smem_bytes = 65536>
// SM86: "target":"sm_86","policy":"auto","block_q":128,"block_kv":64,"warps":8,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":65536,"smem_limit":101376
// SM86-SAME: "fa1_bc":99,"fa1_br":99,"gpu_kernel":"mma.sync-registers"
// SM86: fa.attention {{.*}} tiling = <block_q = 128, block_kv = 64, warps = 8, stages = 1, smem_bytes = 65536>
// SM89: "target":"sm_89","policy":"auto","block_q":128,"block_kv":64,"warps":8,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":65536,"smem_limit":101376
// SM89-SAME: "fa1_bc":99,"fa1_br":99,"gpu_kernel":"mma.sync-registers"
// SM89: fa.attention {{.*}} tiling = <block_q = 128, block_kv = 64, warps = 8, stages = 1, smem_bytes = 65536>
// SM90: "target":"sm_90","policy":"auto","block_q":128,"block_kv":64,"warps":8,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":65536,"smem_limit":232448
// SM90-SAME: "fa1_bc":227,"fa1_br":128,"gpu_kernel":"mma.sync-registers"
// SM90: fa.attention {{.*}} tiling = <block_q = 128, block_kv = 64, warps = 8, stages = 1, smem_bytes = 65536>
// SM90A: "target":"sm_90a","policy":"auto","block_q":128,"block_kv":128,"warps":8,"stages":2,"kv_splits":1,"pack_gqa":false,"smem_bytes":164864,"smem_limit":232448
// SM90A-SAME: "fa1_bc":227,"fa1_br":128,"gpu_kernel":"wgmma-tma-ws"
// SM90A-SAME: those of two or more K/V stages rank first (a block loads while the one before it computes), key blocks of at most 128 under the causal band (as FlashAttention-3's causal tiles), then the largest tile
// SM90A-SAME: "kernel_plan":"wgmma, register fragments, TMA producer warpgroup, P V overlapping the next softmax, ping-pong, 384 threads, 2 stages, the band's edge blocks masked apart"
// SM90A: fa.attention {{.*}} tiling = <block_q = 128, block_kv = 128, warps = 8, stages = 2, smem_bytes = 164864>
// SM100: "target":"sm_100","policy":"auto","block_q":128,"block_kv":64,"warps":8,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":65536,"smem_limit":232448
// SM100-SAME: "fa1_bc":227,"fa1_br":128,"gpu_kernel":"mma.sync-registers"
// SM100: fa.attention {{.*}} tiling = <block_q = 128, block_kv = 64, warps = 8, stages = 1, smem_bytes = 65536>
// SM120: "target":"sm_120","policy":"auto","block_q":128,"block_kv":64,"warps":8,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":65536,"smem_limit":101376
// SM120-SAME: "fa1_bc":99,"fa1_br":99,"gpu_kernel":"mma.sync-registers"
// SM120: fa.attention {{.*}} tiling = <block_q = 128, block_kv = 64, warps = 8, stages = 1, smem_bytes = 65536>
// GFX90A: "target":"gfx90a","policy":"auto","block_q":64,"block_kv":64,"warps":4,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":52224,"smem_limit":65536
// GFX90A-SAME: "fa1_bc":64,"fa1_br":64
// GFX90A: fa.attention {{.*}} tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 1, smem_bytes = 52224>
// GFX942: "target":"gfx942","policy":"auto","block_q":64,"block_kv":64,"warps":4,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":52224,"smem_limit":65536
// GFX942-SAME: "fa1_bc":64,"fa1_br":64
// GFX942: fa.attention {{.*}} tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 1, smem_bytes = 52224>
// GFX950: "target":"gfx950","policy":"auto","block_q":128,"block_kv":64,"warps":4,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":69632,"smem_limit":163840
// GFX950-SAME: "fa1_bc":160,"fa1_br":128
// GFX950: fa.attention {{.*}} tiling = <block_q = 128, block_kv = 64, warps = 4, stages = 1, smem_bytes = 69632>
// HOST: "target":"host","policy":"auto","block_q":{{[0-9]+}},"block_kv":{{[0-9]+}},"warps":1,"stages":1
// HOST-SAME: "why":"target host from the pass option; auto is fa2: fa2 searched

func.func @llama_layer(%q: tensor<2x32x2048x128xf16>, %k: tensor<2x8x2048x128xf16>,
                       %v: tensor<2x8x2048x128xf16>) -> tensor<2x32x2048x128xf16> {
  %o = fa.attention %q, %k, %v scale = 0.088388347648318433 causal = bottom_right
      : tensor<2x32x2048x128xf16>, tensor<2x8x2048x128xf16>, tensor<2x8x2048x128xf16>
      -> tensor<2x32x2048x128xf16>
  return %o : tensor<2x32x2048x128xf16>
}
