// fa-confirm-tiles-with-ptxas keeps a decode step's key splits when it
// retiles: the lower register budget it chooses under may leave the
// lighter tile no room for the splits' registers by the model, so each
// lighter tile is tried with the splits the chip's whole budget gives it;
// where that tile spilled with them already, the tile halved with its
// splits. A decode step of 4 key/value heads unsplit would be 4 blocks.
// Here (d = 112, two query tokens, 16 query heads packed over 4, sm_80;
// found by a scan of decode shapes) 16 x 32 spills with its splits at one
// and two stages; the lowered budget's next choice is 16 x 32 unsplit,
// which would assemble clean, and the pass takes 16 x 16 with its splits.
// REQUIRES: nvptx, ptxas
// RUN: fa-opt %s --fa-select-tiles=target=sm_80 --fa-confirm-tiles-with-ptxas=chip=sm_80 -verify-diagnostics | FileCheck %s
// CHECK: tiling = <block_q = 16, block_kv = 16, warps = 1, stages = {{[12]}}, smem_bytes = {{[0-9]+}}, kv_splits = {{[0-9]+}}, pack_gqa = true>
func.func @decode_d112(%q: tensor<1x16x2x112xf16>, %k: tensor<1x4x8192x112xf16>, %v: tensor<1x4x8192x112xf16>) -> tensor<1x16x2x112xf16> {
  // expected-remark @below {{key splits, query groups packed, which ptxas assembles without spilling}}
  %o = fa.attention %q, %k, %v scale = 0.3 : tensor<1x16x2x112xf16>, tensor<1x4x8192x112xf16>, tensor<1x4x8192x112xf16> -> tensor<1x16x2x112xf16>
  return %o : tensor<1x16x2x112xf16>
}
