// With register-fragments=false the forward kernel passes S and P through
// shared memory (the mma.sync-shared kernel): the report counts those tiles
// too (one layout, sharedLayout in KernelModel.h, for the report and the
// kernel's allocations), and so chooses within the chip's limit with them.
// On sm_86 (99 KB per block) the tile the register kernel gets, 128 x 64
// at one stage, would need 153,600 bytes this way; the report chooses a
// smaller one, and the kernel allocates exactly what it reports.
// RUN: fa-opt %s "--fa-select-tiles=target=sm_86 register-fragments=false report=-" -o /dev/null | FileCheck %s --check-prefix=SHARED
// RUN: fa-opt %s "--fa-select-tiles=target=sm_86 report=-" -o /dev/null | FileCheck %s --check-prefix=REGISTERS
// RUN: fa-opt %s --fa-select-tiles="target=sm_86 register-fragments=false" --fa-distribute-attention="register-fragments=false" | FileCheck %s --check-prefix=TILES

// 64 x 32 at two stages: Q [64][128 + 8], K and V [2][32][136] in f16,
// S's f32 results [64 / 16][max(32, 128) / 8][16][8], P [64][32 + 8]:
// 3 x 17,408 + 32,768 + 5,120 = 90,112 bytes.
// SHARED: "block_q":64,"block_kv":32,"warps":4,"stages":2
// SHARED-SAME: "smem_bytes":90112,"smem_limit":101376
// SHARED-SAME: "gpu_kernel":"mma.sync-shared"
// SHARED-SAME: tilings for the tensor-core kernel (mma.sync-shared) rank first
// SHARED-SAME: "kernel_plan":"mma.sync, shared-memory S and P, cp.async,
// REGISTERS: "block_q":128,"block_kv":64,"warps":8,"stages":1
// REGISTERS-SAME: "smem_bytes":65536
// REGISTERS-SAME: "gpu_kernel":"mma.sync-registers"

// TILES-DAG: memref.alloc() : memref<64x136xf16, #gpu.address_space<workgroup>>
// TILES-DAG: memref.alloc() : memref<2x32x136xf16, #gpu.address_space<workgroup>>
// TILES-DAG: memref.alloc() : memref<4x16x16x8xf32, #gpu.address_space<workgroup>>
// TILES-DAG: memref.alloc() : memref<64x40xf16, #gpu.address_space<workgroup>>
func.func @attention(%q: tensor<2x16x4096x128xf16>, %k: tensor<2x16x4096x128xf16>, %v: tensor<2x16x4096x128xf16>) -> tensor<2x16x4096x128xf16> {
  %o = fa.attention %q, %k, %v scale = 0.08838834764831845 causal = bottom_right : tensor<2x16x4096x128xf16>, tensor<2x16x4096x128xf16>, tensor<2x16x4096x128xf16> -> tensor<2x16x4096x128xf16>
  return %o : tensor<2x16x4096x128xf16>
}
