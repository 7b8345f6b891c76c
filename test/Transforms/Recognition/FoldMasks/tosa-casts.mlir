// TOSA's float-to-integer cast, folded: round to nearest even, saturate to
// the integer's range (as tosa-to-linalg lowers it). Position halves
// 0, 0.5, ..., 3.5 round to 0, 0, 1, 2, 2, 2, 3, 4 (not truncated, not
// rounded half up); positions times 1e9 saturate at 2^31 - 1 from key 3 on.
// TOSA's integer division truncates toward zero (tosa.intdiv): the key
// offset k - q divided by 3 is -2 at k - q = -7 (the floor would be -3) and
// 0 from -2 to 2 (the floor: -1 at -2 and -1); both signs occur.
// Each folded program equals the one that reads its mask operand.
// RUN: fa-opt %s --fa-fold-masks-into-modifiers | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.folded
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.operand
// RUN: %compare %t.folded %t.operand --rtol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 192 values

!t = tensor<1x2x8x4xf32>
!row = tensor<1x1x1x8xf32>
!rowi = tensor<1x1x1x8xi32>

// CHECK-LABEL: func.func @rounded
// CHECK: score_mod {
// CHECK: math.roundeven
// CHECK: arith.fptosi
// CHECK: fa.yield
func.func @rounded(%q: !t) -> !t {
  %ramp = "tosa.const"() <{values = dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]]]]> : !row}> : () -> !row
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x = tosa.mul %ramp, %half, %shift : (!row, tensor<1x1x1x1xf32>, tensor<1xi8>) -> !row
  %n = tosa.cast %x : (!row) -> !rowi
  %bias = tosa.cast %n : (!rowi) -> !row
  %o = fa.attention %q, %q, %q mask(%bias : !row) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// 1e9 k as an i32, read back as a 1e-9 bias: 0, 1, 2, then 2.147... from
// key 3 on (saturated), each scaled back into a bias of about 2.
// CHECK-LABEL: func.func @saturated
// CHECK: score_mod {
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptosi
func.func @saturated(%q: !t) -> !t {
  %ramp = "tosa.const"() <{values = dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]]]]> : !row}> : () -> !row
  %big = "tosa.const"() <{values = dense<1.0e9> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %small = "tosa.const"() <{values = dense<1.0e-9> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x = tosa.mul %ramp, %big, %shift : (!row, tensor<1x1x1x1xf32>, tensor<1xi8>) -> !row
  %n = tosa.cast %x : (!row) -> !rowi
  %f = tosa.cast %n : (!rowi) -> !row
  %bias = tosa.mul %f, %small, %shift : (!row, tensor<1x1x1x1xf32>, tensor<1xi8>) -> !row
  %o = fa.attention %q, %q, %q mask(%bias : !row) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// CHECK-LABEL: func.func @truncated
// CHECK: score_mod {
// CHECK: arith.divsi
// CHECK-NOT: arith.floordivsi
// CHECK: fa.yield
func.func @truncated(%q: !t) -> !t {
  %keys = "tosa.const"() <{values = dense<[[[[0, 1, 2, 3, 4, 5, 6, 7]]]]> : !rowi}> : () -> !rowi
  %queries = "tosa.const"() <{values = dense<[[[[0], [1], [2], [3], [4], [5], [6], [7]]]]> : tensor<1x1x8x1xi32>}> : () -> tensor<1x1x8x1xi32>
  %offset = tosa.sub %keys, %queries : (!rowi, tensor<1x1x8x1xi32>) -> tensor<1x1x8x8xi32>
  %three = "tosa.const"() <{values = dense<3> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
  %n = tosa.intdiv %offset, %three : (tensor<1x1x8x8xi32>, tensor<1x1x1x1xi32>) -> tensor<1x1x8x8xi32>
  %f = tosa.cast %n : (tensor<1x1x8x8xi32>) -> tensor<1x1x8x8xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %bias = tosa.mul %f, %half, %shift : (tensor<1x1x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x8x8xf32>
  %o = fa.attention %q, %q, %q mask(%bias : tensor<1x1x8x8xf32>) scale = 0.5 : !t, !t, !t -> !t
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
  %o1 = call @rounded(%q) : (!t) -> !t
  %u1 = tensor.cast %o1 : !t to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %o2 = call @saturated(%q) : (!t) -> !t
  %u2 = tensor.cast %o2 : !t to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %o3 = call @truncated(%q) : (!t) -> !t
  %u3 = tensor.cast %o3 : !t to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  return
}
