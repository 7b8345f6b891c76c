// A mask computed from positions that is exactly a causal band or a
// sliding window is folded and then canonicalized to the attribute, whose
// key range every lowering computes in closed form; anything else stays a
// mask_mod. A mask no band pattern reads (an `or`, positions in i32) is
// still causal where every row is proven to see exactly [0, q]. Each folded program equals the one that reads its mask operand.
// RUN: fa-opt %s --fa-fold-masks-into-modifiers | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.folded
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.operand
// RUN: %compare %t.folded %t.operand --rtol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 448 values

!t = tensor<1x2x8x4xf32>
!m = tensor<1x1x8x8xi1>

// CHECK-LABEL: func.func @sliding_window
// CHECK: fa.attention {{.*}} window = <left = 3, right = 0, align = top_left> :
// CHECK-NOT: mask_mod
func.func @sliding_window(%q: !t) -> !t {
  %e = tensor.empty() : !m
  %keep = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !m) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c3 = arith.constant 3 : index
    %upper = arith.cmpi sle, %j, %i : index
    %j3 = arith.addi %j, %c3 : index
    %lower = arith.cmpi sge, %j3, %i : index
    %both = arith.andi %upper, %lower : i1
    linalg.yield %both : i1
  } -> !m
  %o = fa.attention %q, %q, %q mask(%keep : !m) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// CHECK-LABEL: func.func @causal
// CHECK: fa.attention {{.*}} causal = top_left :
func.func @causal(%q: !t) -> !t {
  %e = tensor.empty() : !m
  %keep = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !m) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sge, %i, %j : index
    linalg.yield %c : i1
  } -> !m
  %o = fa.attention %q, %q, %q mask(%keep : !m) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// Every other key: a mask_mod.
// CHECK-LABEL: func.func @strided
// CHECK: mask_mod {
func.func @strided(%q: !t) -> !t {
  %e = tensor.empty() : !m
  %keep = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !m) {
  ^bb0(%o: i1):
    %j = linalg.index 3 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %r = arith.remui %j, %c2 : index
    %c = arith.cmpi eq, %r, %c0 : index
    linalg.yield %c : i1
  } -> !m
  %o = fa.attention %q, %q, %q mask(%keep : !m) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// A prefix-LM mask whose prefix is one key, k < 1 || k <= q: key 0 is at
// or before every row's diagonal, so this is causal, which no band pattern
// reads (an `or`); each row is proven to see [0, q] and nothing after.
// CHECK-LABEL: func.func @prefix_of_one
// CHECK: fa.attention {{.*}} causal = top_left :
// CHECK-NOT: mask_mod
func.func @prefix_of_one(%q: !t) -> !t {
  %e = tensor.empty() : !m
  %keep = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !m) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c1 = arith.constant 1 : index
    %inprefix = arith.cmpi slt, %j, %c1 : index
    %past = arith.cmpi sle, %j, %i : index
    %c = arith.ori %inprefix, %past : i1
    linalg.yield %c : i1
  } -> !m
  %o = fa.attention %q, %q, %q mask(%keep : !m) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// Near miss: a prefix of two keys: row 0 sees key 1 too, so not causal.
// CHECK-LABEL: func.func @prefix_of_two
// CHECK-NOT: causal
// CHECK: mask_mod {
func.func @prefix_of_two(%q: !t) -> !t {
  %e = tensor.empty() : !m
  %keep = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !m) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c2 = arith.constant 2 : index
    %inprefix = arith.cmpi slt, %j, %c2 : index
    %past = arith.cmpi sle, %j, %i : index
    %c = arith.ori %inprefix, %past : i1
    linalg.yield %c : i1
  } -> !m
  %o = fa.attention %q, %q, %q mask(%keep : !m) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// Causal with the positions compared as i32 (as TOSA's iota spells them).
// CHECK-LABEL: func.func @causal_in_i32
// CHECK: fa.attention {{.*}} causal = top_left :
// CHECK-NOT: mask_mod
func.func @causal_in_i32(%q: !t) -> !t {
  %e = tensor.empty() : !m
  %keep = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !m) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %qi = arith.index_cast %i : index to i32
    %ki = arith.index_cast %j : index to i32
    %c = arith.cmpi sge, %qi, %ki : i32
    linalg.yield %c : i1
  } -> !m
  %o = fa.attention %q, %q, %q mask(%keep : !m) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// Near miss: causal except that the last row hides key 6 as well: one row
// of eight differs, so it stays a mask_mod.
// CHECK-LABEL: func.func @causal_but_last_row
// CHECK-NOT: causal
// CHECK: mask_mod {
func.func @causal_but_last_row(%q: !t) -> !t {
  %e = tensor.empty() : !m
  %keep = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !m) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c7 = arith.constant 7 : index
    %c6 = arith.constant 6 : index
    %diag = arith.cmpi sle, %j, %i : index
    %last = arith.cmpi eq, %i, %c7 : index
    %far = arith.cmpi eq, %j, %c6 : index
    %hole = arith.andi %last, %far : i1
    %c = arith.xori %diag, %hole : i1
    linalg.yield %c : i1
  } -> !m
  %o = fa.attention %q, %q, %q mask(%keep : !m) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %e = tensor.empty() : !t
  %q = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !t) {
  ^bb0(%o: f32):
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c13 = arith.constant 13 : index
    %c5 = arith.constant 5 : index
    %b1 = arith.muli %b, %c13 : index
    %c1 = arith.muli %c, %c5 : index
    %s0 = arith.addi %b1, %c1 : index
    %s1 = arith.addi %s0, %d : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %z = math.sin %f : f32
    linalg.yield %z : f32
  } -> !t
  %o1 = call @sliding_window(%q) : (!t) -> !t
  %u1 = tensor.cast %o1 : !t to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %o2 = call @causal(%q) : (!t) -> !t
  %u2 = tensor.cast %o2 : !t to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %o3 = call @strided(%q) : (!t) -> !t
  %u3 = tensor.cast %o3 : !t to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %o4 = call @prefix_of_one(%q) : (!t) -> !t
  %u4 = tensor.cast %o4 : !t to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %o5 = call @prefix_of_two(%q) : (!t) -> !t
  %u5 = tensor.cast %o5 : !t to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  %o6 = call @causal_in_i32(%q) : (!t) -> !t
  %u6 = tensor.cast %o6 : !t to tensor<*xf32>
  call @printMemrefF32(%u6) : (tensor<*xf32>) -> ()
  %o7 = call @causal_but_last_row(%q) : (!t) -> !t
  %u7 = tensor.cast %o7 : !t to tensor<*xf32>
  call @printMemrefF32(%u7) : (tensor<*xf32>) -> ()
  return
}
