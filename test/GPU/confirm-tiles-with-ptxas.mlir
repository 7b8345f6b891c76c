// fa-confirm-tiles-with-ptxas compiles each tiled op alone through the rest
// of fa-gpu-pipeline, assembles its kernels with ptxas -v and retiles those
// that spill. The shapes are issue 50's sweep draws on which the tile model
// (fitted at d = 64 and 128) estimates too few registers; the exact bytes
// depend on ptxas's version, so only what happened is checked.
// REQUIRES: nvptx, ptxas
// RUN: fa-opt %s -split-input-file -verify-diagnostics \
// RUN:   --fa-select-tiles=target=sm_90a --fa-confirm-tiles-with-ptxas=chip=sm_90a \
// RUN:   | FileCheck %s
//
// What it settled on assembles without spills: run again (every tiling is
// then on the op, as if the user wrote it), the pass warns only about the
// user's own.
// RUN: fa-opt %s -split-input-file --fa-select-tiles=target=sm_90a \
// RUN:   --fa-confirm-tiles-with-ptxas=chip=sm_90a 2>/dev/null \
// RUN:   | fa-opt -split-input-file --fa-confirm-tiles-with-ptxas=chip=sm_90a 2>&1 \
// RUN:   | grep -E "warning|remark" | FileCheck %s --check-prefix=AGAIN
//
// Off, or without ptxas, the model's tiling stays and nothing is said (the
// input without its comments, whose expectations are the pass's).
// RUN: sed '/^ *\/\//d' %s | fa-opt -split-input-file \
// RUN:   --fa-gpu-pipeline="chip=sm_90a confirm-tiles=false" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: sed '/^ *\/\//d' %s | fa-opt -split-input-file --fa-select-tiles=target=sm_90a \
// RUN:   "--fa-confirm-tiles-with-ptxas=chip=sm_90a cuda-toolkit=%t.no-toolkit" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOPTXAS
// AGAIN: warning: the tiling written on the op spills
// AGAIN-NOT: {{warning|remark}}
// OFF-NOT: remark
// OFF-NOT: warning
// NOPTXAS-NOT: remark
// NOPTXAS-NOT: warning
// NOPTXAS: tiling = <block_q = 16, block_kv = 64, warps = 1, stages = 1, smem_bytes = {{[0-9]+}}, kv_splits = {{[0-9]+}}, pack_gqa = true>

// A decode step at d = 80 with packed query groups (seed 3420): the model
// estimates 162 registers for 16 x 64 with its key splits; ptxas spills.
// The lighter tile the lowered budget finds has no room there for the
// splits' registers by the model; it is tried with the splits the chip's
// whole budget gives it first (a decode step of 4 key/value heads unsplit
// would be 4 blocks), and ptxas assembles it clean.
// CHECK-LABEL: func.func @decode_d80
// CHECK: fa.attention
// CHECK-NOT: block_kv = 64, warps = 1, stages = 1, smem_bytes = {{[0-9]+}}, kv_splits = {{[0-9]+}}, pack_gqa = true
// CHECK-SAME: tiling = <block_q = 16, block_kv = 32, warps = 1, stages = 2, smem_bytes = {{[0-9]+}}, kv_splits = {{[0-9]+}}, pack_gqa = true>
func.func @decode_d80(%q: tensor<1x16x2x80xbf16>, %k: tensor<1x4x8192x80xbf16>, %v: tensor<1x4x8192x80xbf16>) -> tensor<1x16x2x80xbf16> {
  // expected-remark @below {{retiled to 16 x 32, 1 warp, 2 stages, 26 key splits, query groups packed, which ptxas assembles without spilling}}
  %out = fa.attention %q, %k, %v scale = 0.3 : tensor<1x16x2x80xbf16>, tensor<1x4x8192x80xbf16>, tensor<1x4x8192x80xbf16> -> tensor<1x16x2x80xbf16>
  return %out : tensor<1x16x2x80xbf16>
}

// -----

// The backward pass with a soft-cap at d = 96 (seed 3367): its kernels
// spill at the model's 64 x 64 and at the next two lighter tilings; the
// pass walks down until one assembles clean. The cap lives outside the
// op: its region's captured values become the trial's arguments.
// CHECK-LABEL: func.func @backward_softcap_d96
// CHECK: fa.attention_backward
// CHECK-NOT: block_q = 64, block_kv = 64
// CHECK-SAME: tiling =
func.func @backward_softcap_d96(%q: tensor<1x4x4095x96xf16>, %k: tensor<1x4x4095x96xf16>, %v: tensor<1x4x4095x96xf16>, %o: tensor<1x4x4095x96xf16>, %do: tensor<1x4x4095x96xf16>, %lse: tensor<1x4x4095xf32>) -> (tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>) {
  %cap = arith.constant 2.5 : f32
  // expected-remark @below {{retiled to}}
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse scale = 0.125 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %x = arith.divf %s, %cap : f32
    %t = math.tanh %x : f32
    %y = arith.mulf %t, %cap : f32
    fa.yield %y : f32
  } : tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095xf32> -> tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>
  return %dq, %dk, %dv : tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>
}

// -----

// The FMA kernel (f32) at d = 128, causal, N = 1000: the model counts the
// same registers for every block_kv from 16 (a thread's row, its
// accumulator and a chunk of 16 scores), but ptxas needs more for longer
// key blocks. With no tiling estimated lighter, the pass halves the
// spilled tile's keys until one assembles clean. (The sampled sweep's
// seed 5257, the same at N = 128, compiles clean at 64 x 64 since causal
// query blocks run heaviest first.)
// CHECK-LABEL: func.func @fma_d128
// CHECK: tiling = <block_q = 64, block_kv = {{16|32}}, warps = 4
func.func @fma_d128(%q: tensor<2x2x1000x128xf32>, %k: tensor<2x1x1000x128xf32>, %v: tensor<2x1x1000x128xf32>) -> (tensor<2x2x1000x128xf32>, tensor<2x2x1000xf32>) {
  // expected-remark @below {{retiled to 64 x}}
  %out, %l = fa.attention %q, %k, %v scale = 0.3 causal = bottom_right : tensor<2x2x1000x128xf32>, tensor<2x1x1000x128xf32>, tensor<2x1x1000x128xf32> -> tensor<2x2x1000x128xf32>, tensor<2x2x1000xf32>
  return %out, %l : tensor<2x2x1000x128xf32>, tensor<2x2x1000xf32>
}

// -----

// d = 192 where every mma.sync tiling spills, 16 x 16 too (seed 3569
// without its causal band: each warp holds 16 rows' f32 accumulator and
// its Q fragments). Under the lowered register budget no tile of at most
// the 37 query rows fits, so fa2 takes one 64-row warpgroup block past
// them (the wgmma kernel), which ptxas assembles without spilling. (Before
// that fallback nothing lighter was left, and 16 x 16 stayed, spilling.)
// CHECK-LABEL: func.func @floor_d192
// CHECK: tiling = <block_q = 64, block_kv = 48, warps = 4
func.func @floor_d192(%q: tensor<2x4x37x192xbf16>, %k: tensor<2x1x37x192xbf16>, %v: tensor<2x1x37x192xbf16>) -> tensor<2x4x37x192xbf16> {
  // expected-remark @below {{retiled to 64 x 48, 4 warps, 2 stages, which ptxas assembles without spilling}}
  %out = fa.attention %q, %k, %v scale = 0.3 : tensor<2x4x37x192xbf16>, tensor<2x1x37x192xbf16>, tensor<2x1x37x192xbf16> -> tensor<2x4x37x192xbf16>
  return %out : tensor<2x4x37x192xbf16>
}

// -----

// A tiling written by the user is the user's: kept, with a warning.
// CHECK-LABEL: func.func @users_tiling
// CHECK: tiling = <block_q = 16, block_kv = 32, warps = 1, stages = 1
func.func @users_tiling(%q: tensor<2x4x37x192xbf16>, %k: tensor<2x1x37x192xbf16>, %v: tensor<2x1x37x192xbf16>) -> tensor<2x4x37x192xbf16> {
  // expected-warning @below {{the tiling written on the op spills: ptxas spills}}
  %out = fa.attention %q, %k, %v scale = 0.3 causal = bottom_right tiling = <block_q = 16, block_kv = 32, warps = 1, stages = 1> : tensor<2x4x37x192xbf16>, tensor<2x1x37x192xbf16>, tensor<2x1x37x192xbf16> -> tensor<2x4x37x192xbf16>
  return %out : tensor<2x4x37x192xbf16>
}

// -----

// A tiling ptxas likes as it is: nothing to say, nothing changed.
// CHECK-LABEL: func.func @clean
// CHECK: tiling = <block_q = 128, block_kv = 176, warps = 8, stages = 2
func.func @clean(%q: tensor<1x8x1024x128xf16>, %k: tensor<1x8x1024x128xf16>, %v: tensor<1x8x1024x128xf16>) -> tensor<1x8x1024x128xf16> {
  %out = fa.attention %q, %k, %v scale = 0.1 : tensor<1x8x1024x128xf16>, tensor<1x8x1024x128xf16>, tensor<1x8x1024x128xf16> -> tensor<1x8x1024x128xf16>
  return %out : tensor<1x8x1024x128xf16>
}
