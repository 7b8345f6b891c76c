// A mask_mod that is exactly a causal mask or a sliding window becomes the
// causal or window attribute;
// anything else stays a region.
// RUN: fa-opt %s -canonicalize -split-input-file | FileCheck %s

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>

// CHECK-LABEL: func.func @top_left
// CHECK: fa.attention {{.*}} scale = 5.000000e-01 causal = top_left :
// CHECK-NOT: mask_mod
func.func @top_left(%q: !q, %k: !kv) -> !q {
  %o = fa.attention %q, %k, %k scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c = arith.cmpi sle, %j, %i : index
    fa.yield %c : i1
  } : !q, !kv, !kv -> !q
  return %o : !q
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>

// q >= k - 2, i.e. k <= q + 2 = q + (Nk - Nq): bottom-right.
// CHECK-LABEL: func.func @bottom_right
// CHECK: fa.attention {{.*}} causal = bottom_right :
func.func @bottom_right(%q: !q, %k: !kv) -> !q {
  %o = fa.attention %q, %k, %k scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c1 = arith.constant 3 : index
    %i3 = arith.addi %i, %c1 : index
    %c = arith.cmpi sgt, %i3, %j : index
    fa.yield %c : i1
  } : !q, !kv, !kv -> !q
  return %o : !q
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>

// k <= q + 1 is neither diagonal here: it stays.
// CHECK-LABEL: func.func @other_diagonal
// CHECK: fa.attention {{.*}} scale = 5.000000e-01 mask_mod {
// CHECK-NOT: causal
func.func @other_diagonal(%q: !q, %k: !kv) -> !q {
  %o = fa.attention %q, %k, %k scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c1 = arith.constant 1 : index
    %i1 = arith.addi %c1, %i : index
    %c = arith.cmpi sle, %j, %i1 : index
    fa.yield %c : i1
  } : !q, !kv, !kv -> !q
  return %o : !q
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>

// The transpose k >= q is no causal mask.
// CHECK-LABEL: func.func @anti_causal
// CHECK: mask_mod {
func.func @anti_causal(%q: !q, %k: !kv) -> !q {
  %o = fa.attention %q, %k, %k scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c = arith.cmpi sle, %i, %j : index
    fa.yield %c : i1
  } : !q, !kv, !kv -> !q
  return %o : !q
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>

// With kv_lengths a bottom-right diagonal is per sequence: k <= q + 2 is
// not the op's bottom_right there.
// CHECK-LABEL: func.func @lengths
// CHECK: kv_lengths{{.*}} mask_mod {
func.func @lengths(%q: !q, %k: !kv, %len: tensor<1xi32>) -> !q {
  %o = fa.attention %q, %k, %k kv_lengths(%len : tensor<1xi32>) scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c2 = arith.constant 2 : index
    %i2 = arith.addi %i, %c2 : index
    %c = arith.cmpi sle, %j, %i2 : index
    fa.yield %c : i1
  } : !q, !kv, !kv -> !q
  return %o : !q
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>
!lse = tensor<1x2x6xf32>

// The backward op canonicalizes its mask_mod the same way: a raised
// training graph folds the mask on both ops, and the two must agree.
// CHECK-LABEL: func.func @backward_bottom_right
// CHECK: fa.attention_backward {{.*}} scale = 5.000000e-01 causal = bottom_right :
// CHECK-NOT: mask_mod
func.func @backward_bottom_right(%q: !q, %k: !kv, %lse: !lse) -> (!q, !kv, !kv) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %k, %q, %q, %lse scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c2 = arith.constant 2 : index
    %i2 = arith.addi %i, %c2 : index
    %c = arith.cmpi sle, %j, %i2 : index
    fa.yield %c : i1
  } : !q, !kv, !kv, !q, !q, !lse -> !q, !kv, !kv
  return %dq, %dk, %dv : !q, !kv, !kv
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>
!lse = tensor<1x2x6xf32>

// k < q (k <= q - 1) is neither diagonal: a region on the backward op too.
// CHECK-LABEL: func.func @backward_other_diagonal
// CHECK: fa.attention_backward {{.*}} mask_mod {
// CHECK-NOT: causal
func.func @backward_other_diagonal(%q: !q, %k: !kv, %lse: !lse) -> (!q, !kv, !kv) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %k, %q, %q, %lse scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c = arith.cmpi slt, %j, %i : index
    fa.yield %c : i1
  } : !q, !kv, !kv, !q, !q, !lse -> !q, !kv, !kv
  return %dq, %dk, %dv : !q, !kv, !kv
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>

// A sliding window, q - 3 <= k <= q (Mistral's): a window around the
// top-left diagonal, left 3, right 0.
// CHECK-LABEL: func.func @window_top_left
// CHECK: fa.attention {{.*}} scale = 5.000000e-01 window = <left = 3, right = 0, align = top_left> :
// CHECK-NOT: mask_mod
func.func @window_top_left(%q: !q, %k: !kv) -> !q {
  %o = fa.attention %q, %k, %k scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c3 = arith.constant 3 : index
    %upper = arith.cmpi sle, %j, %i : index
    %j3 = arith.addi %j, %c3 : index
    %lower = arith.cmpi sge, %j3, %i : index
    %keep = arith.andi %upper, %lower : i1
    fa.yield %keep : i1
  } : !q, !kv, !kv -> !q
  return %o : !q
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>

// q < k < q + 4, i.e. q + 1 <= k <= q + 3: no window around the top-left
// diagonal (its left would be -1); around the bottom-right one (q + 2, as
// Nk - Nq = 2), left 1 and right 1.
// CHECK-LABEL: func.func @window_bottom_right
// CHECK: fa.attention {{.*}} window = <left = 1, right = 1, align = bottom_right> :
func.func @window_bottom_right(%q: !q, %k: !kv) -> !q {
  %o = fa.attention %q, %k, %k scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c4 = arith.constant 4 : index
    %i4 = arith.addi %i, %c4 : index
    %lower = arith.cmpi sgt, %j, %i : index
    %upper = arith.cmpi slt, %j, %i4 : index
    %keep = arith.andi %lower, %upper : i1
    fa.yield %keep : i1
  } : !q, !kv, !kv -> !q
  return %o : !q
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>

// Keys bounded below only (k >= q): no attribute says that; it stays.
// CHECK-LABEL: func.func @lower_only
// CHECK: mask_mod {
// CHECK-NOT: window
func.func @lower_only(%q: !q, %k: !kv) -> !q {
  %o = fa.attention %q, %k, %k scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %keep = arith.cmpi sge, %j, %i : index
    fa.yield %keep : i1
  } : !q, !kv, !kv -> !q
  return %o : !q
}

// -----

!q = tensor<1x2x6x4xf32>
!kv = tensor<1x2x8x4xf32>
!lse = tensor<1x2x6xf32>

// The backward op takes the same window.
// CHECK-LABEL: func.func @backward_window
// CHECK: fa.attention_backward {{.*}} window = <left = 3, right = 0, align = top_left> :
func.func @backward_window(%q: !q, %k: !kv, %lse: !lse) -> (!q, !kv, !kv) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %k, %q, %q, %lse scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c3 = arith.constant 3 : index
    %upper = arith.cmpi sle, %j, %i : index
    %j3 = arith.addi %j, %c3 : index
    %lower = arith.cmpi sge, %j3, %i : index
    %keep = arith.andi %upper, %lower : i1
    fa.yield %keep : i1
  } : !q, !kv, !kv, !q, !q, !lse -> !q, !kv, !kv
  return %dq, %dk, %dv : !q, !kv, !kv
}

// -----

!q = tensor<1x2x8x4xf32>

// q + 1 <= k <= q + 3 with Nq = Nk: both diagonals are k = q, and a window
// around it would need left = -1. No attribute says this band: it stays.
// CHECK-LABEL: func.func @band_off_the_diagonal
// CHECK: mask_mod {
// CHECK-NOT: window =
func.func @band_off_the_diagonal(%q: !q) -> !q {
  %o = fa.attention %q, %q, %q scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c3 = arith.constant 3 : index
    %i3 = arith.addi %i, %c3 : index
    %lower = arith.cmpi sgt, %j, %i : index
    %upper = arith.cmpi sle, %j, %i3 : index
    %keep = arith.andi %lower, %upper : i1
    fa.yield %keep : i1
  } : !q, !q, !q -> !q
  return %o : !q
}
