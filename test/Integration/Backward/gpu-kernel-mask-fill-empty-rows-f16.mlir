// The GPU backward kernels with mask_fill (a hidden key's score is the
// constant -1: it keeps its weight in P, so in dV and the row term, and has
// no score gradient), vs the reference decomposition and the tiled
// backward: a boolean keep-mask whose row 2 hides every key, so that row's
// P is uniform. B = 1, Hq = 2, Hkv = 2, Nq = 20, Nk = 24, D = 16, Dv = 16,
// f16, tiles 16 x 16, 1 warp, 2 stages (the case of
// gpu-kernel-keep-mask-empty-rows-f16.mlir, with the fill).
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.kernel
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 thread-order=reverse" | %mlir-run > %t.reverse
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: %compare %t.kernel %t.reference --rtol 2e-2 --atol 4e-3 | FileCheck %s --check-prefix=SAME
// RUN: %compare %t.tiled %t.reference --rtol 2e-2 --atol 4e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH
// RUN: grep -v base@ %t.kernel > %t.kernel.data
// RUN: grep -v base@ %t.reverse > %t.reverse.data
// RUN: diff %t.reverse.data %t.kernel.data
// The kernel is the backward GPU kernel, its P built with the fill.
// RUN: fa-opt %s --fa-select-tiles=target=sm_80 --fa-distribute-attention-backward | FileCheck %s
// CHECK-LABEL: func.func @backward
// CHECK: nvgpu.mma.sync
// CHECK-NOT: fa.attention_backward
// CHECK: func.func @fill

func.func private @printMemrefF32(tensor<*xf32>)

func.func @backward(%q: tensor<1x2x20x16xf16>, %k: tensor<1x2x24x16xf16>, %v: tensor<1x2x24x16xf16>, %do: tensor<1x2x20x16xf16>, %m: tensor<1x2x20x24xi1>) -> (tensor<1x2x20x16xf16>, tensor<1x2x24x16xf16>, tensor<1x2x24x16xf16>) {
  %o, %l = fa.attention %q, %k, %v mask(%m : tensor<1x2x20x24xi1>) scale = 0.25 mask_fill = -1.0
      : tensor<1x2x20x16xf16>, tensor<1x2x24x16xf16>, tensor<1x2x24x16xf16> -> tensor<1x2x20x16xf16>, tensor<1x2x20xf32>
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %l mask(%m : tensor<1x2x20x24xi1>) scale = 0.25 mask_fill = -1.0 tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 2>
      : tensor<1x2x20x16xf16>, tensor<1x2x24x16xf16>, tensor<1x2x24x16xf16>, tensor<1x2x20x16xf16>, tensor<1x2x20x16xf16>, tensor<1x2x20xf32>
      -> tensor<1x2x20x16xf16>, tensor<1x2x24x16xf16>, tensor<1x2x24x16xf16>
  return %dq, %dk, %dv : tensor<1x2x20x16xf16>, tensor<1x2x24x16xf16>, tensor<1x2x24x16xf16>
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
  %c20 = arith.constant 20 : index
  %c24 = arith.constant 24 : index
  %isQuery = arith.constant false
  %isKey = arith.constant true
  %e1 = tensor.empty(%c1, %c2, %c20, %c16) : tensor<?x?x?x?xf32>
  %s1 = arith.constant 1.0 : f32
  %f1 = call @ramp(%e1, %s1, %isQuery) : (tensor<?x?x?x?xf32>, f32, i1) -> tensor<?x?x?x?xf32>
  %g1 = tensor.cast %f1 : tensor<?x?x?x?xf32> to tensor<1x2x20x16xf32>
  %t1 = arith.truncf %g1 : tensor<1x2x20x16xf32> to tensor<1x2x20x16xf16>
  %e2 = tensor.empty(%c1, %c2, %c24, %c16) : tensor<?x?x?x?xf32>
  %s2 = arith.constant 2.0 : f32
  %f2 = call @ramp(%e2, %s2, %isKey) : (tensor<?x?x?x?xf32>, f32, i1) -> tensor<?x?x?x?xf32>
  %g2 = tensor.cast %f2 : tensor<?x?x?x?xf32> to tensor<1x2x24x16xf32>
  %t2 = arith.truncf %g2 : tensor<1x2x24x16xf32> to tensor<1x2x24x16xf16>
  %e3 = tensor.empty(%c1, %c2, %c24, %c16) : tensor<?x?x?x?xf32>
  %s3 = arith.constant 3.0 : f32
  %f3 = call @fill(%e3, %s3) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %g3 = tensor.cast %f3 : tensor<?x?x?x?xf32> to tensor<1x2x24x16xf32>
  %t3 = arith.truncf %g3 : tensor<1x2x24x16xf32> to tensor<1x2x24x16xf16>
  %e4 = tensor.empty(%c1, %c2, %c20, %c16) : tensor<?x?x?x?xf32>
  %s4 = arith.constant 4.0 : f32
  %f4 = call @fill(%e4, %s4) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %g4 = tensor.cast %f4 : tensor<?x?x?x?xf32> to tensor<1x2x20x16xf32>
  %t4 = arith.truncf %g4 : tensor<1x2x20x16xf32> to tensor<1x2x20x16xf16>
  %me = tensor.empty(%c1, %c2, %c20, %c24) : tensor<?x?x?x?xi1>
  %mk = call @keep(%me) : (tensor<?x?x?x?xi1>) -> tensor<?x?x?x?xi1>
  %mm = tensor.cast %mk : tensor<?x?x?x?xi1> to tensor<1x2x20x24xi1>
  %dq, %dk, %dv = call @backward(%t1, %t2, %t3, %t4, %mm) : (tensor<1x2x20x16xf16>, tensor<1x2x24x16xf16>, tensor<1x2x24x16xf16>, tensor<1x2x20x16xf16>, tensor<1x2x20x24xi1>) -> (tensor<1x2x20x16xf16>, tensor<1x2x24x16xf16>, tensor<1x2x24x16xf16>)
  %w0 = arith.extf %dq : tensor<1x2x20x16xf16> to tensor<1x2x20x16xf32>
  %p0 = tensor.cast %w0 : tensor<1x2x20x16xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %w1 = arith.extf %dk : tensor<1x2x24x16xf16> to tensor<1x2x24x16xf32>
  %p1 = tensor.cast %w1 : tensor<1x2x24x16xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %w2 = arith.extf %dv : tensor<1x2x24x16xf16> to tensor<1x2x24x16xf32>
  %p2 = tensor.cast %w2 : tensor<1x2x24x16xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}
