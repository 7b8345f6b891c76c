// fa.linear_attention through fa-lower-linear-attention (the cheap order:
// Q (K^T V), causal by chunks carrying the state) against the reference
// decomposition (the quadratic order) and a float64 oracle (the
// recurrence, a third order). GQA 4/2, N = 22 (chunks of 4, 5 and 8 leave
// a partial last chunk), D = 8, Dv = 4, phi = elu + 1 on Q and K:
// - @plain: not causal, unnormalized, scale 1/8;
// - @normalized: not causal, scale 1/2, normalize(eps = 4): an epsilon
//   as large as the denominators, so that one added or subtracted shows;
// - @causal: causal, normalized (eps = 0.5, large beside the first rows'
//   sums), chunks of 4;
// - @retnet: causal with decays 0.9, 0.5, 0.99, 1.0, unnormalized, chunks
//   of 8;
// - @retnet_normalized: the same normalized, chunks of 5.
// Tolerance: the three orders round differently. Unnormalized outputs
// reach 300 (22 products of up to about 40 summed), which rtol 1e-5
// covers; V is signed, so numerators also cancel to values near 0 whose
// error is that of the terms: atol 2e-5, about 8 ulps of a term of 40.
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.lowered
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.lowered %t.reference --rtol 1e-5 --atol 2e-5 | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline | %run-entry main_inputs > %t.inputs
// RUN: %python %S/Inputs/linear_attention_oracle.py --inputs %t.inputs --heads 4 --kv-heads 2 --len 22 --dim 8 --value-dim 4 --ops "plain:0.125:-:-" "plain:0.5:norm=4.0:-" "causal:1.0:norm=0.5:-" "causal:1.0:-:0.9,0.5,0.99,1.0" "causal:1.0:norm=1e-6:0.9,0.5,0.99,1.0" > %t.oracle
// RUN: %compare %t.lowered %t.oracle --rtol 1e-5 --atol 2e-5 | FileCheck %s
// RUN: %compare %t.reference %t.oracle --rtol 1e-5 --atol 2e-5 | FileCheck %s
// CHECK: MATCH 1760 values
// The lowered form: no [Nq, Nk] tensor; the causal ones loop over chunks.
// RUN: fa-opt %s --fa-lower-linear-attention | FileCheck %s --check-prefix=LOWERED
// LOWERED-LABEL: func.func @plain
// LOWERED-NOT: tensor<1x4x22x22xf32>
// LOWERED: } -> tensor<1x2x8x4xf32>
// LOWERED-NOT: scf.for
// LOWERED-LABEL: func.func @causal
// LOWERED: scf.for {{.*}} iter_args({{.*}}) -> (tensor<1x4x22x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8xf32>)
// LOWERED: tensor<1x4x?x?xf32>
// LOWERED-NOT: tensor<1x4x22x22xf32>
// LOWERED-LABEL: func.func @input

!q = tensor<1x4x22x8xf32>
!k = tensor<1x2x22x8xf32>
!v = tensor<1x2x22x4xf32>
!o = tensor<1x4x22x4xf32>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @plain(%q: !q, %k: !k, %v: !v) -> !o {
  %o = fa.linear_attention %q, %k, %v scale = 0.125 : !q, !k, !v -> !o
  return %o : !o
}

func.func @normalized(%q: !q, %k: !k, %v: !v) -> !o {
  %o = fa.linear_attention %q, %k, %v scale = 0.5 normalize(eps = 4.0) : !q, !k, !v -> !o
  return %o : !o
}

func.func @causal(%q: !q, %k: !k, %v: !v) -> !o {
  %o = fa.linear_attention %q, %k, %v scale = 1.0 causal normalize(eps = 0.5) chunk = 4 : !q, !k, !v -> !o
  return %o : !o
}

func.func @retnet(%q: !q, %k: !k, %v: !v, %gamma: tensor<4xf32>) -> !o {
  %o = fa.linear_attention %q, %k, %v decay(%gamma : tensor<4xf32>) scale = 1.0 causal chunk = 8 : !q, !k, !v -> !o
  return %o : !o
}

func.func @retnet_normalized(%q: !q, %k: !k, %v: !v, %gamma: tensor<4xf32>) -> !o {
  %o = fa.linear_attention %q, %k, %v decay(%gamma : tensor<4xf32>) scale = 1.0 causal normalize(eps = 1.0e-6) chunk = 5 : !q, !k, !v -> !o
  return %o : !o
}

// 2 sin(0.7 (17 r + f) + seed) over the flattened [rows, width] view, with
// phi = elu + 1 applied when `phi` is set, rounded to a multiple of 1/16.
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
  %c88 = arith.constant 88 : index
  %c44 = arith.constant 44 : index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %yes = arith.constant true
  %no = arith.constant false
  %qf = call @input(%s1, %c88, %c8, %yes) : (f32, index, index, i1) -> tensor<?x?xf32>
  %kf = call @input(%s2, %c44, %c8, %yes) : (f32, index, index, i1) -> tensor<?x?xf32>
  %vf = call @input(%s3, %c44, %c4, %no) : (f32, index, index, i1) -> tensor<?x?xf32>
  %qs = tensor.cast %qf : tensor<?x?xf32> to tensor<88x8xf32>
  %ks = tensor.cast %kf : tensor<?x?xf32> to tensor<44x8xf32>
  %vs = tensor.cast %vf : tensor<?x?xf32> to tensor<44x4xf32>
  %q = tensor.expand_shape %qs [[0, 1, 2], [3]] output_shape [1, 4, 22, 8] : tensor<88x8xf32> into !q
  %k = tensor.expand_shape %ks [[0, 1, 2], [3]] output_shape [1, 2, 22, 8] : tensor<44x8xf32> into !k
  %v = tensor.expand_shape %vs [[0, 1, 2], [3]] output_shape [1, 2, 22, 4] : tensor<44x4xf32> into !v
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
  %gamma = arith.constant dense<[0.9, 0.5, 0.99, 1.0]> : tensor<4xf32>
  %o1 = call @plain(%q, %k, %v) : (!q, !k, !v) -> !o
  call @print(%o1) : (!o) -> ()
  %o2 = call @normalized(%q, %k, %v) : (!q, !k, !v) -> !o
  call @print(%o2) : (!o) -> ()
  %o3 = call @causal(%q, %k, %v) : (!q, !k, !v) -> !o
  call @print(%o3) : (!o) -> ()
  %o4 = call @retnet(%q, %k, %v, %gamma) : (!q, !k, !v, tensor<4xf32>) -> !o
  call @print(%o4) : (!o) -> ()
  %o5 = call @retnet_normalized(%q, %k, %v, %gamma) : (!q, !k, !v, tensor<4xf32>) -> !o
  call @print(%o5) : (!o) -> ()
  return
}
