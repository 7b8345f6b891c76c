// The GPU kernel on a long sequence, where its carried state grows (the
// same program as long.mlir in bf16 with D = Dv = 16): N = 1024, MQA
// (Hq = 2, Hkv = 1), causal, the chunk sm_80's selection gives (64: 16
// chunks), threads emulated, against the float64 oracle (the recurrence) on
// the program's own inputs (multiples of 1/16, exact in bf16):
// - @growing: gamma = 1, unnormalized, outputs reach about 10^4;
// - @decayed: gammas 0.999 and 0.9, normalized.
// Tolerance: the kernel rounds the weights W to bf16 for W V and the state
// for Q S (tensor cores), so an output's error follows the scale of the
// terms its row sums, not its own value, which cancels (V is signed): each
// value within 1.6e-2 (two rounded operands, two bf16 half-ulps each) of
// the largest magnitude of its row of 16 (compare_outputs.py --row-width),
// plus 1e-3; worst 0.36 of that. Unnormalized rows reach 2 * 10^4 and the
// state 16 chunks of growth; a state that drifted would leave that band.
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.kernel
// RUN: fa-opt %s --fa-cpu-pipeline | %run-entry main_inputs > %t.inputs
// RUN: %python %S/Inputs/linear_attention_oracle.py --inputs %t.inputs --heads 2 --kv-heads 1 --len 1024 --dim 16 --value-dim 16 --ops "causal:1.0:-:1.0,1.0" "causal:1.0:norm=1e-6:0.999,0.9" > %t.oracle
// RUN: %compare %t.kernel %t.oracle --rtol 1.6e-2 --atol 1e-3 --row-width 16 | FileCheck %s
// CHECK: MATCH 65536 values
// RUN: fa-opt %s "--fa-select-tiles=target=sm_80" --fa-distribute-linear-attention | FileCheck %s --check-prefix=KERNEL
// KERNEL-NOT: fa.linear_attention
// KERNEL: nvgpu.mma.sync

!q = tensor<1x2x1024x16xbf16>
!k = tensor<1x1x1024x16xbf16>
!v = tensor<1x1x1024x16xbf16>
!o = tensor<1x2x1024x16xbf16>

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
  %w = arith.extf %o : !o to tensor<1x2x1024x16xf32>
  %u = tensor.cast %w : tensor<1x2x1024x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @inputs() -> (!q, !k, !v) {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %c2048 = arith.constant 2048 : index
  %c1024 = arith.constant 1024 : index
  %c16 = arith.constant 16 : index
  %yes = arith.constant true
  %no = arith.constant false
  %qf = call @input(%s1, %c2048, %c16, %yes) : (f32, index, index, i1) -> tensor<?x?xf32>
  %kf = call @input(%s2, %c1024, %c16, %yes) : (f32, index, index, i1) -> tensor<?x?xf32>
  %vf = call @input(%s3, %c1024, %c16, %no) : (f32, index, index, i1) -> tensor<?x?xf32>
  %qs = tensor.cast %qf : tensor<?x?xf32> to tensor<2048x16xf32>
  %ks = tensor.cast %kf : tensor<?x?xf32> to tensor<1024x16xf32>
  %vs = tensor.cast %vf : tensor<?x?xf32> to tensor<1024x16xf32>
  %qh = arith.truncf %qs : tensor<2048x16xf32> to tensor<2048x16xbf16>
  %kh = arith.truncf %ks : tensor<1024x16xf32> to tensor<1024x16xbf16>
  %vh = arith.truncf %vs : tensor<1024x16xf32> to tensor<1024x16xbf16>
  %q = tensor.expand_shape %qh [[0, 1, 2], [3]] output_shape [1, 2, 1024, 16] : tensor<2048x16xbf16> into !q
  %k = tensor.expand_shape %kh [[0, 1, 2], [3]] output_shape [1, 1, 1024, 16] : tensor<1024x16xbf16> into !k
  %v = tensor.expand_shape %vh [[0, 1, 2], [3]] output_shape [1, 1, 1024, 16] : tensor<1024x16xbf16> into !v
  return %q, %k, %v : !q, !k, !v
}

// The inputs as the program reads them, for the float64 oracle.
func.func @main_inputs() {
  %q, %k, %v = call @inputs() : () -> (!q, !k, !v)
  %wq = arith.extf %q : !q to tensor<1x2x1024x16xf32>
  %uq = tensor.cast %wq : tensor<1x2x1024x16xf32> to tensor<*xf32>
  call @printMemrefF32(%uq) : (tensor<*xf32>) -> ()
  %wk = arith.extf %k : !k to tensor<1x1x1024x16xf32>
  %uk = tensor.cast %wk : tensor<1x1x1024x16xf32> to tensor<*xf32>
  call @printMemrefF32(%uk) : (tensor<*xf32>) -> ()
  %wv = arith.extf %v : !v to tensor<1x1x1024x16xf32>
  %uv = tensor.cast %wv : tensor<1x1x1024x16xf32> to tensor<*xf32>
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
