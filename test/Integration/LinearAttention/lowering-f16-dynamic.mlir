// fa.linear_attention with f16 inputs and a sequence length known only at
// run time (N = 37: chunks of 8 leave 5), MQA (Hq = 4, Hkv = 1), causal
// with decay and normalized, and not causal: the chunked lowering against
// the reference. Both accumulate in f32 from the same f16 inputs and round
// the output to f16 once, so they differ by the order of f32 sums: far
// below f16's rounding (rtol 2e-3, one f16 ulp; atol 1e-3).
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.lowered
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.lowered %t.reference --rtol 2e-3 --atol 1e-3 | FileCheck %s
// CHECK: MATCH 2368 values
// RUN: fa-opt %s --fa-lower-linear-attention | FileCheck %s --check-prefix=LOWERED
// LOWERED: scf.for {{.*}} -> (tensor<1x4x?x8xf16>, tensor<1x4x16x8xf32>, tensor<1x4x16xf32>)

!q = tensor<1x4x?x16xf16>
!kv = tensor<1x1x?x16xf16>
!v = tensor<1x1x?x8xf16>
!o = tensor<1x4x?x8xf16>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @causal(%q: !q, %k: !kv, %v: !v, %gamma: tensor<4xf32>) -> !o {
  %o = fa.linear_attention %q, %k, %v decay(%gamma : tensor<4xf32>) scale = 0.25 causal normalize(eps = 1.0e-5) chunk = 8 : !q, !kv, !v -> !o
  return %o : !o
}

func.func @whole(%q: !q, %k: !kv, %v: !v) -> !o {
  %o = fa.linear_attention %q, %k, %v scale = 0.25 : !q, !kv, !v -> !o
  return %o : !o
}

// elu(2 sin(0.7 (17 r + f) + seed)) + 1 (phi) or the sine itself, in f16.
func.func @input(%seed: f32, %rows: index, %width: index, %phi: i1) -> tensor<?x?xf16> {
  %e = tensor.empty(%rows, %width) : tensor<?x?xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf16>) {
  ^bb0(%o: f16):
    %a = linalg.index 0 : index
    %c = linalg.index 1 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c17 : index
    %s1 = arith.addi %a1, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %positive = arith.cmpf ogt, %w, %zero : f32
    %plus = arith.addf %w, %one : f32
    %ex = math.exp %w : f32
    %elu = arith.select %positive, %plus, %ex : f32
    %r = arith.select %phi, %elu, %w : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

func.func @print(%o: !o) {
  %wide = arith.extf %o : !o to tensor<1x4x?x8xf32>
  %u = tensor.cast %wide : tensor<1x4x?x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %n = arith.constant 37 : index
  %c148 = arith.constant 148 : index
  %c16 = arith.constant 16 : index
  %c8 = arith.constant 8 : index
  %yes = arith.constant true
  %no = arith.constant false
  %qf = call @input(%s1, %c148, %c16, %yes) : (f32, index, index, i1) -> tensor<?x?xf16>
  %kf = call @input(%s2, %n, %c16, %yes) : (f32, index, index, i1) -> tensor<?x?xf16>
  %vf = call @input(%s3, %n, %c8, %no) : (f32, index, index, i1) -> tensor<?x?xf16>
  %qc = tensor.cast %qf : tensor<?x?xf16> to tensor<?x16xf16>
  %kc = tensor.cast %kf : tensor<?x?xf16> to tensor<?x16xf16>
  %vc = tensor.cast %vf : tensor<?x?xf16> to tensor<?x8xf16>
  %q = tensor.expand_shape %qc [[0, 1, 2], [3]] output_shape [1, 4, %n, 16] : tensor<?x16xf16> into !q
  %k = tensor.expand_shape %kc [[0, 1, 2], [3]] output_shape [1, 1, %n, 16] : tensor<?x16xf16> into !kv
  %v = tensor.expand_shape %vc [[0, 1, 2], [3]] output_shape [1, 1, %n, 8] : tensor<?x8xf16> into !v
  %gamma = arith.constant dense<[0.95, 0.8, 0.5, 1.0]> : tensor<4xf32>
  %o1 = call @causal(%q, %k, %v, %gamma) : (!q, !kv, !v, tensor<4xf32>) -> !o
  call @print(%o1) : (!o) -> ()
  %o2 = call @whole(%q, %k, %v) : (!q, !kv, !v) -> !o
  call @print(%o2) : (!o) -> ()
  return
}
