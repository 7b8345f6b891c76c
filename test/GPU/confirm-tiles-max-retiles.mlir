// fa-confirm-tiles-with-ptxas tries at most max-retiles lighter tilings
// after the first: the backward pass with a soft-cap at d = 96 (also in
// confirm-tiles-with-ptxas.mlir), causal and `deterministic` (dQ in a
// kernel of its own, whose tilings spill), spills at the model's tiling
// and at the next lighter ones. (Without the causal band it stopped
// spilling once the kernels loaded L and D per column.) With max-retiles=1 the pass assembles two
// tilings, both spill, and it keeps the one that spills least, listing
// exactly the two; with 0, only the first. (One retile too many would list
// a third before giving up.)
// REQUIRES: nvptx, ptxas
// RUN: fa-opt %s --fa-select-tiles=target=sm_90a "--fa-confirm-tiles-with-ptxas=chip=sm_90a max-retiles=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: fa-opt %s --fa-select-tiles=target=sm_90a "--fa-confirm-tiles-with-ptxas=chip=sm_90a max-retiles=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// ONE: warning: ptxas spills {{[0-9]+}} bytes at {{[^;]*}}; ptxas spills {{[0-9]+}} bytes at {{[^;]*}}; no lighter tiling is left to try: kept
// NONE: warning: ptxas spills {{[0-9]+}} bytes at {{[^;]*}}; no lighter tiling is left to try: kept
func.func @backward_softcap_d96(%q: tensor<1x4x4095x96xf16>, %k: tensor<1x4x4095x96xf16>, %v: tensor<1x4x4095x96xf16>, %o: tensor<1x4x4095x96xf16>, %do: tensor<1x4x4095x96xf16>, %lse: tensor<1x4x4095xf32>) -> (tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>) {
  %cap = arith.constant 2.5 : f32
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse scale = 0.125 causal = bottom_right deterministic score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %x = arith.divf %s, %cap : f32
    %t = math.tanh %x : f32
    %y = arith.mulf %t, %cap : f32
    fa.yield %y : f32
  } : tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095xf32> -> tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>
  return %dq, %dk, %dv : tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>, tensor<1x4x4095x96xf16>
}
