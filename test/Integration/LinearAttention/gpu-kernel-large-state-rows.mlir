// The carried state's column scales must see every row of the column:
// K is 16 in features 8 .. 15 and 1 in features 0 .. 7, V is 64, so after
// 112 keys the state's rows 8 .. 15 hold 114688 (past f16's 65504) and rows
// 0 .. 7 hold 7168. A column scale taken from rows 0 .. 7 alone (one of the
// two rows each lane holds per fragment; issue 50's audit: values 40 and 44
// instead of 64 and 128 survived the constant-input test) leaves rows 8 .. 15
// to overflow when S is rounded for Q S, and the outputs are inf. Row i of
// the causal, unnormalized attention is scale (Q . K) 64 (i + 1) =
// 8.5 (i + 1), as the reference computes.
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.kernel
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.kernel %t.reference --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90 | %mlir-run > %t.sm90
// RUN: %compare %t.sm90 %t.reference --rtol 2e-3 --atol 1e-3 | FileCheck %s
// CHECK: MATCH 2048 values
// RUN: FileCheck %s --check-prefix=ROWS < %t.kernel
// ROWS-NOT: inf
// ROWS: [8.5, 8.5,
// ROWS: [17, 17,
// ROWS-NOT: inf

!t = tensor<1x1x128x16xf16>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @causal(%q: !t, %k: !t, %v: !t) -> !t {
  %o = fa.linear_attention %q, %k, %v scale = 0.0625 causal chunk = 16 : !t, !t, !t -> !t
  return %o : !t
}

func.func @main() {
  %q = arith.constant dense<1.5625e-02> : !t
  %e = tensor.empty() : !t
  %k = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !t) {
  ^bb0(%o: f16):
    %d = linalg.index 3 : index
    %c8 = arith.constant 8 : index
    %high = arith.cmpi sge, %d, %c8 : index
    %big = arith.constant 16.0 : f16
    %one = arith.constant 1.0 : f16
    %x = arith.select %high, %big, %one : f16
    linalg.yield %x : f16
  } -> !t
  %v = arith.constant dense<64.0> : !t
  %o = call @causal(%q, %k, %v) : (!t, !t, !t) -> !t
  %wide = arith.extf %o : !t to tensor<1x1x128x16xf32>
  %u = tensor.cast %wide : tensor<1x1x128x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
