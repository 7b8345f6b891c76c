// max-block-kv, the testing aid that makes short sequences cross several key
// blocks: it caps the block_kv a policy chose (costs recomputed, the reason
// said), leaves a smaller choice and a hand-written tiling alone, and
// refuses a negative cap.
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 max-block-kv=16 report=-" | FileCheck %s
// RUN: fa-opt %s --fa-select-tiles="target=host max-block-kv=4 report=-" | FileCheck %s --check-prefix=HOST
// RUN: not fa-opt %s --fa-select-tiles="max-block-kv=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// The min-stages testing aid raises the chosen stages where they still fit.
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 max-block-kv=16 min-stages=3 report=-" | FileCheck %s --check-prefix=STAGES
// RUN: not fa-opt %s --fa-select-tiles="min-stages=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-STAGES
// The warpgroup-tiles testing aid rounds a tile to whole warpgroups of
// 16-row warps (Nk = 10's 16-row tile: 64 rows, 4 warps) and leaves one
// that is already so (192 rows, 12 warps) alone.
// RUN: fa-opt %s --fa-select-tiles="target=sm_90a warpgroup-tiles=true report=-" | FileCheck %s --check-prefix=WARPGROUP
// WARPGROUP: "block_q":192,"block_kv":192,"warps":12,
// WARPGROUP-NOT: rounded up
// WARPGROUP: "nk":10,
// WARPGROUP-SAME: "block_q":64,"block_kv":16,"warps":4,
// WARPGROUP-SAME: block_q rounded up to 64 rows of 16-row warps by the warpgroup-tiles option
// STAGES: "stages":3
// STAGES-SAME: stages raised to 3 by the min-stages option
// STAGES: tiling = <{{.*}}stages = 3
// NEGATIVE-STAGES: error: min-stages must be 0 (as chosen) or a positive number of stages, got -1

// sm_90 chooses 128 x 64 for N = 4096 (policies.mlir); capped at 16 keys,
// with the shared memory of the capped tiling and fa1's values unchanged.
// CHECK: "block_q":128,"block_kv":16,"warps":4,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":[[SMEM:[0-9]+]],
// CHECK-SAME: "fa1_bc":454,"fa1_br":64,"gpu_kernel":"mma.sync-registers"
// CHECK-SAME: "why":"target sm_90 from the pass option; auto is fa2: {{.*}}; block_kv capped at 16 by the max-block-kv option"
// Nk = 10 takes one 16-key block (the tensor cores' granule), within the cap.
// CHECK: "nk":10,
// CHECK-SAME: "block_kv":16,
// CHECK-NOT: capped
// CHECK: "policy":"user","block_q":64,"block_kv":64,
// CHECK: @plain
// CHECK: tiling = <block_q = 128, block_kv = 16, warps = 4, stages = 1, smem_bytes = [[SMEM]]>
// CHECK: @short
// CHECK: @by_hand
// CHECK: tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2,

// HOST: "block_kv":4,
// HOST-SAME: capped at 4 by the max-block-kv option
// HOST: "nk":10,
// HOST-SAME: "block_kv":4,

// NEGATIVE: error: max-block-kv must be 0 (no cap) or a positive number of keys, got -1

func.func @plain(%q: tensor<1x8x4096x64xf16>, %k: tensor<1x8x4096x64xf16>, %v: tensor<1x8x4096x64xf16>) -> tensor<1x8x4096x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125
      : tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16> -> tensor<1x8x4096x64xf16>
  return %o : tensor<1x8x4096x64xf16>
}

func.func @short(%q: tensor<1x2x10x64xf16>, %k: tensor<1x2x10x64xf16>, %v: tensor<1x2x10x64xf16>) -> tensor<1x2x10x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125
      : tensor<1x2x10x64xf16>, tensor<1x2x10x64xf16>, tensor<1x2x10x64xf16> -> tensor<1x2x10x64xf16>
  return %o : tensor<1x2x10x64xf16>
}

func.func @by_hand(%q: tensor<1x8x4096x64xf16>, %k: tensor<1x8x4096x64xf16>, %v: tensor<1x8x4096x64xf16>) -> tensor<1x8x4096x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2>
      : tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16> -> tensor<1x8x4096x64xf16>
  return %o : tensor<1x8x4096x64xf16>
}
