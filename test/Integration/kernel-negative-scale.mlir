// The register kernel with a negative scale: the row max of scale·QKᵀ is
// not the scaled max of QKᵀ, so the kernel keeps the scaled score as u and
// c = log2 e (SoftmaxExponent, docs/GPU.md); taking the max on raw scores
// here would overflow the exponential. Otherwise as
// Tiling/sweep-kernel-mma-two-tiles.mlir (two 16-row tiles per warp, Dv = 16
// != D, MQA, a keep-mask with an empty row), threads forward and reversed.
// Tiled and GPU kernel vs reference: the tensor-core kernel with two 16-row tiles per warp, Dv = 16 != D, MQA, a keep-mask with an empty row.
// B = 2, Hq = 2, Hkv = 1, Nq = 130, Nk = 70, D = 32, Dv = 16, f16, tiles 128 x 16, 4 warp(s) splitting the query rows.
// Inputs: 296 of 516 rows that see more than one of the 5 key blocks (520 measured) find their maximum after key block 0; the largest rescale of a running max is e^(m_new - m_old) = 2.91.
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.tiled %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90 | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90 thread-order=reverse" | %mlir-run > %t.reverse
// RUN: %compare %t.reverse %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90 register-fragments=false" | %mlir-run > %t.shared
// RUN: %compare %t.shared %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s --fa-distribute-attention | FileCheck %s --check-prefix=MMA
// RUN: fa-opt %s --fa-select-tiles=target=host --fa-tile-attention | FileCheck %s
// MMA-NOT: xf32, #gpu.address_space<workgroup>>
// MMA: nvgpu.ldmatrix {{.*}} -> vector<4x2xf16>
// MMA: nvgpu.mma.sync
// MMA: gpu.shuffle xor
// CHECK: scf.forall
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: {mapping = [#gpu.warp<x>]}
// CHECK: {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT: fa.attention

func.func private @printMemrefF32(tensor<*xf32>)

func.func @attention(%q: tensor<2x2x130x32xf16>, %k: tensor<2x1x70x32xf16>, %v: tensor<2x1x70x16xf16>, %m: tensor<2x1x130x70xi1>) -> (tensor<2x2x130x16xf16>, tensor<2x2x130xf32>) {
  %o, %l = fa.attention %q, %k, %v mask(%m : tensor<2x1x130x70xi1>) scale = -3.000000e-01 tiling = <block_q = 128, block_kv = 16, warps = 4, stages = 1>
      : tensor<2x2x130x32xf16>, tensor<2x1x70x32xf16>, tensor<2x1x70x16xf16> -> tensor<2x2x130x16xf16>, tensor<2x2x130xf32>
  return %o, %l : tensor<2x2x130x16xf16>, tensor<2x2x130xf32>
}

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

func.func @fill(%t: tensor<?x?x?x?xf32>, %seed: f32) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c7 = arith.constant 7919 : index
    %c5 = arith.constant 131 : index
    %c3 = arith.constant 29 : index
    %a = arith.muli %i0, %c7 : index
    %b = arith.muli %i1, %c5 : index
    %c = arith.muli %i2, %c3 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %i3 : index
    %n = arith.index_cast %s2 : index to i64
    %f = arith.sitofp %n : i64 to f32
    %k = arith.constant 0.37 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    linalg.yield %z : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// Q and K with a ramp on feature 0: K[j, 0] += 0.08 j and Q[i, 0] += +-1
// by the parity of b + h + i, so that rows whose scores rise with the key
// find their max in late key blocks (the running max moves and the online
// rescaling is exercised), beside rows whose maxima the sine spreads.
func.func @ramp(%t: tensor<?x?x?x?xf32>, %seed: f32, %isKey: i1) -> tensor<?x?x?x?xf32> {
  %f = call @fill(%t, %seed) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%f : tensor<?x?x?x?xf32>) outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %batch = linalg.index 0 : index
    %head = linalg.index 1 : index
    %row = linalg.index 2 : index
    %feature = linalg.index 3 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %first = arith.cmpi eq, %feature, %c0 : index
    %n = arith.index_cast %row : index to i64
    %nf = arith.sitofp %n : i64 to f32
    %step = arith.constant 0.08 : f32
    %keyRamp = arith.mulf %nf, %step : f32
    %bh = arith.addi %batch, %head : index
    %bhr = arith.addi %bh, %row : index
    %parity = arith.remui %bhr, %c2 : index
    %odd = arith.cmpi ne, %parity, %c0 : index
    %plus = arith.constant 1.0 : f32
    %minus = arith.constant -1.0 : f32
    %sign = arith.select %odd, %plus, %minus : f32
    %shift = arith.select %isKey, %keyRamp, %sign : f32
    %zero = arith.constant 0.0 : f32
    %add = arith.select %first, %shift, %zero : f32
    %y = arith.addf %x, %add : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// keep(i, j) unless (3 i + 7 j) % 5 == 0, and never on row 2.
func.func @keep(%t: tensor<?x?x?x?xi1>) -> tensor<?x?x?x?xi1> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %a = arith.muli %i, %c3 : index
    %b = arith.muli %j, %c7 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c5 : index
    %hit = arith.cmpi ne, %m, %c0 : index
    %row = arith.cmpi ne, %i, %c2 : index
    %k = arith.andi %hit, %row : i1
    linalg.yield %k : i1
  } -> tensor<?x?x?x?xi1>
  return %r : tensor<?x?x?x?xi1>
}

// bias(i, j) = sin(...), -inf where (i + 2 j) % 7 == 0 and on all of row 1.
func.func @bias(%t: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %s = arith.constant 5.0 : f32
  %f = call @fill(%t, %s) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%f : tensor<?x?x?x?xf32>) outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %b = arith.muli %j, %c2 : index
    %s1 = arith.addi %i, %b : index
    %m = arith.remui %s1, %c7 : index
    %hit = arith.cmpi eq, %m, %c0 : index
    %row = arith.cmpi eq, %i, %c1 : index
    %hide = arith.ori %hit, %row : i1
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %hide, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c70 = arith.constant 70 : index
  %c130 = arith.constant 130 : index
  %isQuery = arith.constant false
  %isKey = arith.constant true
  %e1 = tensor.empty(%c2, %c2, %c130, %c32) : tensor<?x?x?x?xf32>
  %s1 = arith.constant 1.0 : f32
  %f1 = call @ramp(%e1, %s1, %isQuery) : (tensor<?x?x?x?xf32>, f32, i1) -> tensor<?x?x?x?xf32>
  %g1 = tensor.cast %f1 : tensor<?x?x?x?xf32> to tensor<2x2x130x32xf32>
  %t1 = arith.truncf %g1 : tensor<2x2x130x32xf32> to tensor<2x2x130x32xf16>
  %e2 = tensor.empty(%c2, %c1, %c70, %c32) : tensor<?x?x?x?xf32>
  %s2 = arith.constant 2.0 : f32
  %f2 = call @ramp(%e2, %s2, %isKey) : (tensor<?x?x?x?xf32>, f32, i1) -> tensor<?x?x?x?xf32>
  %g2 = tensor.cast %f2 : tensor<?x?x?x?xf32> to tensor<2x1x70x32xf32>
  %t2 = arith.truncf %g2 : tensor<2x1x70x32xf32> to tensor<2x1x70x32xf16>
  %e3 = tensor.empty(%c2, %c1, %c70, %c16) : tensor<?x?x?x?xf32>
  %s3 = arith.constant 3.0 : f32
  %f3 = call @fill(%e3, %s3) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %g3 = tensor.cast %f3 : tensor<?x?x?x?xf32> to tensor<2x1x70x16xf32>
  %t3 = arith.truncf %g3 : tensor<2x1x70x16xf32> to tensor<2x1x70x16xf16>
  %me = tensor.empty(%c2, %c1, %c130, %c70) : tensor<?x?x?x?xi1>
  %mk = call @keep(%me) : (tensor<?x?x?x?xi1>) -> tensor<?x?x?x?xi1>
  %mm = tensor.cast %mk : tensor<?x?x?x?xi1> to tensor<2x1x130x70xi1>
  %o, %l = call @attention(%t1, %t2, %t3, %mm) : (tensor<2x2x130x32xf16>, tensor<2x1x70x32xf16>, tensor<2x1x70x16xf16>, tensor<2x1x130x70xi1>) -> (tensor<2x2x130x16xf16>, tensor<2x2x130xf32>)
  %ow = arith.extf %o : tensor<2x2x130x16xf16> to tensor<2x2x130x16xf32>
  %op = tensor.cast %ow : tensor<2x2x130x16xf32> to tensor<*xf32>
  call @printMemrefF32(%op) : (tensor<*xf32>) -> ()
  %lp = tensor.cast %l : tensor<2x2x130xf32> to tensor<*xf32>
  call @printMemrefF32(%lp) : (tensor<*xf32>) -> ()
  return
}
