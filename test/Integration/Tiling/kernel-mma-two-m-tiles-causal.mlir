// The register-fragment kernel with two m-tiles per warp (block_q = 64 over
// 2 warps: 32 rows, two mma.sync row tiles each), under a bottom-right
// causal mask with a partial last query block (Nq = 40) and a partial last
// key block (Nk = 72): every row's mask depends on which m-tile and which
// half of it the row is in, so a row index taken from the wrong tile shows.
// The other kernel sweeps choose one m-tile per warp.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90 thread-order=reverse" | %mlir-run > %t.reverse
// RUN: %compare %t.reverse %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s --fa-select-tiles=target=sm_80 --fa-distribute-attention | FileCheck %s
// CHECK-LABEL: func.func @attention
// CHECK: nvgpu.mma.sync
// CHECK-NOT: fa.attention

func.func private @printMemrefF32(tensor<*xf32>)

func.func @attention(%q: tensor<1x2x40x16xf16>, %k: tensor<1x2x72x16xf16>, %v: tensor<1x2x72x16xf16>) -> tensor<1x2x40x16xf16> {
  %o = fa.attention %q, %k, %v scale = 0.25 causal = bottom_right
      tiling = <block_q = 64, block_kv = 32, warps = 2, stages = 2>
      : tensor<1x2x40x16xf16>, tensor<1x2x72x16xf16>, tensor<1x2x72x16xf16> -> tensor<1x2x40x16xf16>
  return %o : tensor<1x2x40x16xf16>
}

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

func.func @fill(%t: tensor<?x?x?x?xf16>, %seed: f32) -> tensor<?x?x?x?xf16> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf16>) {
  ^bb0(%o: f16):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c5 = arith.constant 131 : index
    %c3 = arith.constant 29 : index
    %b = arith.muli %i1, %c5 : index
    %c = arith.muli %i2, %c3 : index
    %s1 = arith.addi %b, %c : index
    %s2 = arith.addi %s1, %i3 : index
    %n = arith.index_cast %s2 : index to i64
    %f = arith.sitofp %n : i64 to f32
    %k = arith.constant 0.37 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %w = arith.constant 2.0 : f32
    %zz = arith.mulf %z, %w : f32
    %h = arith.truncf %zz : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x?x?x?xf16>
  return %r : tensor<?x?x?x?xf16>
}

func.func @main() {
  %eq = tensor.empty() : tensor<1x2x40x16xf16>
  %ek = tensor.empty() : tensor<1x2x72x16xf16>
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %dq = tensor.cast %eq : tensor<1x2x40x16xf16> to tensor<?x?x?x?xf16>
  %dk = tensor.cast %ek : tensor<1x2x72x16xf16> to tensor<?x?x?x?xf16>
  %fq = call @fill(%dq, %s1) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %fk = call @fill(%dk, %s2) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %fv = call @fill(%dk, %s3) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %q = tensor.cast %fq : tensor<?x?x?x?xf16> to tensor<1x2x40x16xf16>
  %k = tensor.cast %fk : tensor<?x?x?x?xf16> to tensor<1x2x72x16xf16>
  %v = tensor.cast %fv : tensor<?x?x?x?xf16> to tensor<1x2x72x16xf16>
  %o = call @attention(%q, %k, %v) : (tensor<1x2x40x16xf16>, tensor<1x2x72x16xf16>, tensor<1x2x72x16xf16>) -> tensor<1x2x40x16xf16>
  %e = tensor.empty() : tensor<1x2x40x16xf32>
  %of = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : tensor<1x2x40x16xf16>) outs(%e : tensor<1x2x40x16xf32>) {
  ^bb0(%x: f16, %y: f32):
    %w = arith.extf %x : f16 to f32
    linalg.yield %w : f32
  } -> tensor<1x2x40x16xf32>
  %ou = tensor.cast %of : tensor<1x2x40x16xf32> to tensor<*xf32>
  call @printMemrefF32(%ou) : (tensor<*xf32>) -> ()
  return
}
