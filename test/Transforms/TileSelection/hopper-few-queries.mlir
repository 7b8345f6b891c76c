// D = 256 with fewer query rows than a warpgroup on sm_90a, and a sliding
// window (its band costs registers in every kernel): no tile of at
// most 16 rows fits (mma.sync's 16-row warps hold O's 128 registers per
// thread and more), so fa2 takes one 64-row block for the wgmma kernel,
// its rows past Nq zero-filled and masked as in any tail block, and says
// so. sm_90 (no wgmma) has no tiling for it.
// RUN: fa-opt %s --fa-select-tiles="target=sm_90a report=-" | FileCheck %s
// RUN: not fa-opt %s --fa-select-tiles=target=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// CHECK: "pass":"forward"{{.*}}"nq":13,"nk":19,"d":256{{.*}}"block_q":64,{{.*}}"warps":4,
// CHECK-SAME: fa2 searched {{[0-9]+}} candidates (64-row blocks past the 13 query rows, as no tile of at most that many rows fits)
// CHECK-LABEL: func.func @few_queries
// SM90: error: 'fa.attention' op no tiling fits on sm_90: the smallest (16 x 16, 1 warp, 1 stage) needs about {{[0-9]+}} registers per thread

func.func @few_queries(%q: tensor<1x4x13x256xbf16>, %k: tensor<1x1x19x256xbf16>, %v: tensor<1x1x19x256xbf16>) -> tensor<1x4x13x256xbf16> {
  %o = fa.attention %q, %k, %v scale = 0.0625 window = <left = 1, right = 3, align = bottom_right> : tensor<1x4x13x256xbf16>, tensor<1x1x19x256xbf16>, tensor<1x1x19x256xbf16> -> tensor<1x4x13x256xbf16>
  return %o : tensor<1x4x13x256xbf16>
}
