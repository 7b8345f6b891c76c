// Reshapes on the way to the mask keep row-major order: the fold maps the
// result's indices through the linear index. Merging dims linearizes
// (@merged: an arange of 64 read as [8, 8] is 8 q + k), splitting divides
// (@split: a per-key bias held as [2, 4] and read as 8 keys is
// [k / 4, k mod 4]), and
// a split of a linear index the walk itself built reads the indices it was
// built from (@round_trip: [8, 8] -> [64] -> [8, 8], no division). Each
// folded program equals the unfolded one.
// RUN: fa-opt %s --fa-fold-masks-into-modifiers | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.folded
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.operand
// RUN: %compare %t.folded %t.operand --rtol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 192 values

!t = tensor<1x2x8x4xf32>

// What only fed the mask is erased, reshapes and arith on tensors too.
// CHECK-LABEL: func.func @merged
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: arith.mulf
// CHECK: score_mod {
// CHECK: arith.muli %{{.*}}, %c8
// CHECK: arith.addi
// CHECK: arith.sitofp
// CHECK-NOT: arith.divui
// CHECK: fa.yield
func.func @merged(%q: !t) -> !t {
  %ramp = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]]> : tensor<1x64xf32>
  %square = tensor.expand_shape %ramp [[0, 1], [2, 3]] output_shape [1, 1, 8, 8] : tensor<1x64xf32> into tensor<1x1x8x8xf32>
  %c = arith.constant dense<0.03125> : tensor<1x1x8x8xf32>
  %bias = arith.mulf %square, %c : tensor<1x1x8x8xf32>
  %o = fa.attention %q, %q, %q mask(%bias : tensor<1x1x8x8xf32>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// CHECK-LABEL: func.func @split
// CHECK: score_mod {
// CHECK-DAG: arith.remui %{{.*}}, %c4
// CHECK-DAG: arith.divui %{{.*}}, %c4
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<2x4xf32>
func.func @split(%q: !t) -> !t {
  %perkey = arith.constant dense<[[0.5, -1.0, 0.25, 2.0], [-0.75, 1.5, 0.0, -2.0]]> : tensor<2x4xf32>
  %row = tensor.collapse_shape %perkey [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %e = tensor.empty() : tensor<1x1x8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (j)>, affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%row : tensor<8xf32>) outs(%e : tensor<1x1x8x8xf32>) {
  ^bb0(%x: f32, %unused: f32):
    linalg.yield %x : f32
  } -> tensor<1x1x8x8xf32>
  %o = fa.attention %q, %q, %q mask(%bias : tensor<1x1x8x8xf32>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// A document mask from per-position ids, merged to [64] and split back.
// CHECK-LABEL: func.func @round_trip
// CHECK: mask_mod {
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: arith.cmpi eq
// CHECK: fa.yield
func.func @round_trip(%q: !t) -> !t {
  %doc = arith.constant dense<[0, 0, 0, 1, 1, 2, 2, 2]> : tensor<8xi32>
  %e = tensor.empty() : tensor<8x8xi1>
  %same = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%doc, %doc : tensor<8xi32>, tensor<8xi32>) outs(%e : tensor<8x8xi1>) {
  ^bb0(%a: i32, %b: i32, %unused: i1):
    %r = arith.cmpi eq, %a, %b : i32
    linalg.yield %r : i1
  } -> tensor<8x8xi1>
  %flat = tensor.collapse_shape %same [[0, 1]] : tensor<8x8xi1> into tensor<64xi1>
  %keep = tensor.expand_shape %flat [[0, 1, 2, 3]] output_shape [1, 1, 8, 8] : tensor<64xi1> into tensor<1x1x8x8xi1>
  %o = fa.attention %q, %q, %q mask(%keep : tensor<1x1x8x8xi1>) scale = 0.5 : !t, !t, !t -> !t
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
  %o1 = call @merged(%q) : (!t) -> !t
  %u1 = tensor.cast %o1 : !t to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %o2 = call @split(%q) : (!t) -> !t
  %u2 = tensor.cast %o2 : !t to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %o3 = call @round_trip(%q) : (!t) -> !t
  %u3 = tensor.cast %o3 : !t to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  return
}
