// fa-fold-masks-into-modifiers leaves a mask as the op's operand, and says
// why under explain=true, wherever it cannot compute the element inline:
// a mask the program passes in, a mask with mask_fill, a dynamic shape, a
// computation that reads a tensor as large as the mask, and an op it does
// not follow. A folded mask leaves no remark.
// RUN: fa-opt %s --fa-fold-masks-into-modifiers=explain=true -verify-diagnostics -split-input-file | FileCheck %s

!t = tensor<1x2x8x4xf32>

// CHECK-LABEL: func.func @passed_in
// CHECK: fa.attention {{.*}} mask(
func.func @passed_in(%q: !t, %bias: tensor<1x2x8x8xf32>) -> !t {
  // expected-remark @+1 {{mask left as an operand: the mask is a tensor the program passes in, not a computation}}
  %o = fa.attention %q, %q, %q mask(%bias : tensor<1x2x8x8xf32>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x4xf32>

// CHECK-LABEL: func.func @finite_fill
// CHECK: fa.attention {{.*}} mask(
func.func @finite_fill(%q: !t) -> !t {
  %keep = arith.constant dense<true> : tensor<1x1x8x8xi1>
  // expected-remark @+1 {{mask left as an operand: the mask has mask_fill: its hidden keys keep a weight}}
  %o = fa.attention %q, %q, %q mask(%keep : tensor<1x1x8x8xi1>) scale = 0.5 mask_fill = -1.0e4 : !t, !t, !t -> !t
  return %o : !t
}

// -----

// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%q: tensor<1x2x?x4xf32>, %bias: tensor<1x1x?x?xf32>) -> tensor<1x2x?x4xf32> {
  // expected-remark @+1 {{mask left as an operand: the mask has a dynamic shape}}
  %o = fa.attention %q, %q, %q mask(%bias : tensor<1x1x?x?xf32>) scale = 0.5 : tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32> -> tensor<1x2x?x4xf32>
  return %o : tensor<1x2x?x4xf32>
}

// -----

!t = tensor<1x2x8x4xf32>

// (1 - m) * -2 of a passed-in [8, 8] tensor: it reads as many elements as
// the mask has.
// CHECK-LABEL: func.func @large_read
// CHECK: fa.attention {{.*}} mask(
func.func @large_read(%q: !t, %m: tensor<1x1x8x8xf32>) -> !t {
  %e = tensor.empty() : tensor<1x1x8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%m : tensor<1x1x8x8xf32>) outs(%e : tensor<1x1x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.subf %one, %x : f32
    linalg.yield %r : f32
  } -> tensor<1x1x8x8xf32>
  // expected-remark @+1 {{mask left as an operand: it reads a tensor of 64 elements, as many as the mask's 64}}
  %o = fa.attention %q, %q, %q mask(%bias : tensor<1x1x8x8xf32>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x4xf32>

// A row-wise reduction is no elementwise computation.
// CHECK-LABEL: func.func @reduction
// CHECK: fa.attention {{.*}} mask(
func.func @reduction(%q: !t, %rows: tensor<8x8x3xf32>) -> !t {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%rows : tensor<8x8x3xf32>) outs(%z : tensor<8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %bias = tensor.expand_shape %sum [[0, 1, 2], [3]] output_shape [1, 1, 8, 8] : tensor<8x8xf32> into tensor<1x1x8x8xf32>
  // expected-remark @+1 {{mask left as an operand: 'linalg.generic' is not elementwise (it reduces, or has several results)}}
  %o = fa.attention %q, %q, %q mask(%bias : tensor<1x1x8x8xf32>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x4xf32>

// A band |q - k| <= 2 from linalg.index: folded, no remark, no operand.
// CHECK-LABEL: func.func @folded
// CHECK: fa.attention {{.*}} scale = 5.000000e-01 mask_mod {
// CHECK: arith.cmpi sle
// CHECK-NOT: linalg.generic
func.func @folded(%q: !t) -> !t {
  %e = tensor.empty() : tensor<1x1x8x8xi1>
  %keep = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x1x8x8xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %d = arith.subi %i, %j : index
    %c0 = arith.constant 0 : index
    %n = arith.subi %c0, %d : index
    %a = arith.maxsi %d, %n : index
    %c2 = arith.constant 2 : index
    %r = arith.cmpi sle, %a, %c2 : index
    linalg.yield %r : i1
  } -> tensor<1x1x8x8xi1>
  %o = fa.attention %q, %q, %q mask(%keep : tensor<1x1x8x8xi1>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}
