// Long sequences, where the carried state grows: N = 1024, MQA (Hq = 2,
// Hkv = 1), D = 8, Dv = 4, causal without a chunk on the op (fa-cpu-pipeline's
// fa-select-tiles picks it for the host: 64, 16 chunks), against the
// reference and the float64 oracle (the recurrence) on the program's own
// inputs:
// - @growing: gamma = 1, unnormalized: the state is a sum of up to 1024
//   outer products, outputs reach 10^4;
// - @decayed: gammas 0.999 and 0.9, normalized.
// Tolerance: rtol 1e-5 on values up to about 10^4; atol 1e-3 for the
// numerators that cancel (V is signed) to near 0, about 8 f32 ulps of the
// state's terms summed over 1024 keys.
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.lowered
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.lowered %t.reference --rtol 1e-5 --atol 1e-3 | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline | %run-entry main_inputs > %t.inputs
// RUN: %python %S/Inputs/linear_attention_oracle.py --inputs %t.inputs --heads 2 --kv-heads 1 --len 1024 --dim 8 --value-dim 4 --ops "causal:1.0:-:1.0,1.0" "causal:1.0:norm=1e-6:0.999,0.9" > %t.oracle
// RUN: %compare %t.lowered %t.oracle --rtol 1e-5 --atol 1e-3 | FileCheck %s
// RUN: %compare %t.reference %t.oracle --rtol 1e-5 --atol 1e-3 | FileCheck %s
// CHECK: MATCH 16384 values
// RUN: fa-opt %s "--fa-select-tiles=target=host" | FileCheck %s --check-prefix=CHUNK
// CHUNK: fa.linear_attention {{.*}} causal chunk = 64 :
// CHUNK: fa.linear_attention {{.*}} causal normalize({{.*}}) chunk = 64 :

!q = tensor<1x2x1024x8xf32>
!k = tensor<1x1x1024x8xf32>
!v = tensor<1x1x1024x4xf32>
!o = tensor<1x2x1024x4xf32>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @growing(%q: !q, %k: !k, %v: !v, %gamma: tensor<2xf32>) -> !o {
  %o = fa.linear_attention %q, %k, %v decay(%gamma : tensor<2xf32>) scale = 1.0 causal : !q, !k, !v -> !o
  return %o : !o
}

func.func @decayed(%q: !q, %k: !k, %v: !v, %gamma: tensor<2xf32>) -> !o {
  %o = fa.linear_attention %q, %k, %v decay(%gamma : tensor<2xf32>) scale = 1.0 causal normalize(eps = 1.0e-6) : !q, !k, !v -> !o
  return %o : !o
}

func.func @input(%seed: f32, %rows: index, %width: index, %phi: i1) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %width) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
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
    // Multiples of 1/16, which print exactly: the oracle reads the very
    // inputs the program computes with.
    %sixteen = arith.constant 16.0 : f32
    %scaled = arith.mulf %r, %sixteen : f32
    %whole = math.roundeven %scaled : f32
    %quantized = arith.divf %whole, %sixteen : f32
    linalg.yield %quantized : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @print(%o: !o) {
  %u = tensor.cast %o : !o to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @inputs() -> (!q, !k, !v) {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %c2048 = arith.constant 2048 : index
  %c1024 = arith.constant 1024 : index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %yes = arith.constant true
  %no = arith.constant false
  %qf = call @input(%s1, %c2048, %c8, %yes) : (f32, index, index, i1) -> tensor<?x?xf32>
  %kf = call @input(%s2, %c1024, %c8, %yes) : (f32, index, index, i1) -> tensor<?x?xf32>
  %vf = call @input(%s3, %c1024, %c4, %no) : (f32, index, index, i1) -> tensor<?x?xf32>
  %qs = tensor.cast %qf : tensor<?x?xf32> to tensor<2048x8xf32>
  %ks = tensor.cast %kf : tensor<?x?xf32> to tensor<1024x8xf32>
  %vs = tensor.cast %vf : tensor<?x?xf32> to tensor<1024x4xf32>
  %q = tensor.expand_shape %qs [[0, 1, 2], [3]] output_shape [1, 2, 1024, 8] : tensor<2048x8xf32> into !q
  %k = tensor.expand_shape %ks [[0, 1, 2], [3]] output_shape [1, 1, 1024, 8] : tensor<1024x8xf32> into !k
  %v = tensor.expand_shape %vs [[0, 1, 2], [3]] output_shape [1, 1, 1024, 4] : tensor<1024x4xf32> into !v
  return %q, %k, %v : !q, !k, !v
}

// The inputs as the program reads them, for the float64 oracle.
func.func @main_inputs() {
  %q, %k, %v = call @inputs() : () -> (!q, !k, !v)
  %uq = tensor.cast %q : !q to tensor<*xf32>
  call @printMemrefF32(%uq) : (tensor<*xf32>) -> ()
  %uk = tensor.cast %k : !k to tensor<*xf32>
  call @printMemrefF32(%uk) : (tensor<*xf32>) -> ()
  %uv = tensor.cast %v : !v to tensor<*xf32>
  call @printMemrefF32(%uv) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %q, %k, %v = call @inputs() : () -> (!q, !k, !v)
  %ones = arith.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %gamma = arith.constant dense<[0.999, 0.9]> : tensor<2xf32>
  %o1 = call @growing(%q, %k, %v, %ones) : (!q, !k, !v, tensor<2xf32>) -> !o
  call @print(%o1) : (!o) -> ()
  %o2 = call @decayed(%q, %k, %v, %gamma) : (!q, !k, !v, tensor<2xf32>) -> !o
  call @print(%o2) : (!o) -> ()
  return
}
