// With no key at all (Nk = 0 at runtime), the frontend's P·V is an empty
// sum, 0, like the op's; the fix-up for rows with no visible key must not
// put NaN there. Raised and run as written on the same inputs, Nk = 0 and
// Nk = 3.
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 48 values
// RUN: not grep -q nan %t.raised

// RAISED-LABEL: func.func @dynamic_keys
// RAISED: fa.attention
// RAISED: arith.cmpi sgt

#id3 = affine_map<(b, i, j) -> (b, i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @dynamic_keys(%q: tensor<2x3x4xf32>, %k: tensor<2x?x4xf32>, %v: tensor<2x?x4xf32>) -> tensor<2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %nk = tensor.dim %k, %c1 : tensor<2x?x4xf32>
  %ekt = tensor.empty(%nk) : tensor<2x4x?xf32>
  %kt = linalg.transpose ins(%k : tensor<2x?x4xf32>) outs(%ekt : tensor<2x4x?xf32>) permutation = [0, 2, 1]
  %es = tensor.empty(%nk) : tensor<2x3x?xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x?xf32>) -> tensor<2x3x?xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x3x4xf32>, tensor<2x4x?xf32>) outs(%zs : tensor<2x3x?xf32>) -> tensor<2x3x?xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x3x?xf32>) outs(%es : tensor<2x3x?xf32>) -> tensor<2x3x?xf32>
  %eo = tensor.empty() : tensor<2x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x3x?xf32>, tensor<2x?x4xf32>) outs(%zo : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %o : tensor<2x3x4xf32>
}

// 2·sin(0.7·(linear index) + phase), [2, n, 4].
func.func @input(%phase: f32, %n: index) -> tensor<2x?x4xf32> {
  %e = tensor.empty(%n) : tensor<2x?x4xf32>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x?x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %d = linalg.index 2 : index
    %c4 = arith.constant 4 : index
    %bn = arith.muli %b, %n : index
    %bi = arith.addi %bn, %i : index
    %row = arith.muli %bi, %c4 : index
    %idx = arith.addi %row, %d : index
    %ni = arith.index_cast %idx : index to i64
    %f = arith.sitofp %ni : i64 to f32
    %c = arith.constant 0.7 : f32
    %x = arith.mulf %f, %c : f32
    %y = arith.addf %x, %phase : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<2x?x4xf32>
  return %r : tensor<2x?x4xf32>
}

func.func @main() {
  %s1 = arith.constant 0.1 : f32
  %s2 = arith.constant 1.3 : f32
  %s3 = arith.constant 2.9 : f32
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %q3 = call @input(%s1, %c3) : (f32, index) -> tensor<2x?x4xf32>
  %q = tensor.cast %q3 : tensor<2x?x4xf32> to tensor<2x3x4xf32>
  %k0 = call @input(%s2, %c0) : (f32, index) -> tensor<2x?x4xf32>
  %v0 = call @input(%s3, %c0) : (f32, index) -> tensor<2x?x4xf32>
  %o0 = call @dynamic_keys(%q, %k0, %v0) : (tensor<2x3x4xf32>, tensor<2x?x4xf32>, tensor<2x?x4xf32>) -> tensor<2x3x4xf32>
  %p0 = tensor.cast %o0 : tensor<2x3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %k3 = call @input(%s2, %c3) : (f32, index) -> tensor<2x?x4xf32>
  %v3 = call @input(%s3, %c3) : (f32, index) -> tensor<2x?x4xf32>
  %o3 = call @dynamic_keys(%q, %k3, %v3) : (tensor<2x3x4xf32>, tensor<2x?x4xf32>, tensor<2x?x4xf32>) -> tensor<2x3x4xf32>
  %p3 = tensor.cast %o3 : tensor<2x3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%p3) : (tensor<*xf32>) -> ()
  return
}
