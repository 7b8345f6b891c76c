// The carried state's column scales on inputs that vary per key and per
// feature (gpu-kernel-large-state-rows.mlir has constant rows): D = Dv =
// 32, 160 keys (ten chunks of 16), causal. Features 8 .. 15 and 24 .. 31 of
// K are about 16 times the others, so in each 16-row fragment tile of the
// state the second half of the rows (the second row each lane holds)
// grows past f16's 65504 while the first half stays near 10^4: a column
// scale that misses either row of a lane leaves those rows to overflow
// when the state is rounded for Q S. Against the reference, by numbers.
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.kernel
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.kernel %t.reference --rtol 5e-3 --atol 1e-2 | FileCheck %s
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90 | %mlir-run > %t.sm90
// RUN: %compare %t.sm90 %t.reference --rtol 5e-3 --atol 1e-2 | FileCheck %s
// CHECK: MATCH 5120 values

!t = tensor<1x1x160x32xf16>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @causal(%q: !t, %k: !t, %v: !t) -> !t {
  %o = fa.linear_attention %q, %k, %v scale = 0.0625 causal chunk = 16 : !t, !t, !t -> !t
  return %o : !t
}

// base * (1 + 0.5 sin(0.37 j + 1.3 f + seed)), times `big` on the features
// whose index mod 16 is 8 or more.
func.func @fill(%base: f32, %big: f32, %seed: f32) -> !t {
  %e = tensor.empty() : !t
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : !t) {
  ^bb0(%o: f16):
    %j = linalg.index 2 : index
    %f = linalg.index 3 : index
    %ji = arith.index_cast %j : index to i64
    %fi = arith.index_cast %f : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %ff = arith.sitofp %fi : i64 to f32
    %a = arith.constant 0.37 : f32
    %b = arith.constant 1.3 : f32
    %x0 = arith.mulf %jf, %a : f32
    %x1 = arith.mulf %ff, %b : f32
    %x2 = arith.addf %x0, %x1 : f32
    %x3 = arith.addf %x2, %seed : f32
    %s = math.sin %x3 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %w0 = arith.mulf %s, %half : f32
    %w1 = arith.addf %w0, %one : f32
    %w2 = arith.mulf %w1, %base : f32
    %c16 = arith.constant 16 : index
    %c8 = arith.constant 8 : index
    %m = arith.remui %f, %c16 : index
    %high = arith.cmpi uge, %m, %c8 : index
    %factor = arith.select %high, %big, %one : f32
    %w3 = arith.mulf %w2, %factor : f32
    %h = arith.truncf %w3 : f32 to f16
    linalg.yield %h : f16
  } -> !t
  return %r : !t
}

func.func @main() {
  %qb = arith.constant 0.015625 : f32
  %kb = arith.constant 1.0 : f32
  %vb = arith.constant 64.0 : f32
  %big = arith.constant 16.0 : f32
  %none = arith.constant 1.0 : f32
  %s1 = arith.constant 0.3 : f32
  %s2 = arith.constant 1.7 : f32
  %s3 = arith.constant 2.9 : f32
  %q = call @fill(%qb, %none, %s1) : (f32, f32, f32) -> !t
  %k = call @fill(%kb, %big, %s2) : (f32, f32, f32) -> !t
  %v = call @fill(%vb, %none, %s3) : (f32, f32, f32) -> !t
  %o = call @causal(%q, %k, %v) : (!t, !t, !t) -> !t
  %wide = arith.extf %o : !t to tensor<1x1x160x32xf32>
  %u = tensor.cast %wide : tensor<1x1x160x32xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
