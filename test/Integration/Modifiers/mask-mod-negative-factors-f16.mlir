// The mask_mods of mask-mod-negative-factors.mlir (positions with negative
// factors) through the GPU kernels, emulated: each walks a query block's
// key blocks between the first and the last the mask_mod's interval test
// says it may show (narrowWalk), so bounds kept unswapped for a negative
// factor would end the walk early. N = 160: query blocks of 64 rows walk
// different key ranges. f16, mma.sync (sm_80) and the TMA
// producer kernel (sm_90a), against the reference.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=16" | %mlir-run > %t.mma
// RUN: %compare %t.mma %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a max-block-kv=16 warpgroup-tiles=true" | %mlir-run > %t.wgmma
// RUN: %compare %t.wgmma %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s
// CHECK: MATCH 10240 values

func.func private @printMemrefF32(tensor<*xf32>)

// Causal written with a negative factor: i + (-1) j >= 0.
func.func @negated_causal(%q: tensor<1x2x160x16xf16>, %k: tensor<1x2x160x16xf16>, %v: tensor<1x2x160x16xf16>) -> tensor<1x2x160x16xf16> {
  %o = fa.attention %q, %k, %v scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %m1 = arith.constant -1 : index
    %c0 = arith.constant 0 : index
    %nj = arith.muli %j, %m1 : index
    %d = arith.addi %i, %nj : index
    %keep = arith.cmpi sge, %d, %c0 : index
    fa.yield %keep : i1
  } : tensor<1x2x160x16xf16>, tensor<1x2x160x16xf16>, tensor<1x2x160x16xf16> -> tensor<1x2x160x16xf16>
  return %o : tensor<1x2x160x16xf16>
}

// A slanted band no attribute states: 2 i + (-3) j + 12 >= 0.
func.func @slanted(%q: tensor<1x2x160x16xf16>, %k: tensor<1x2x160x16xf16>, %v: tensor<1x2x160x16xf16>) -> tensor<1x2x160x16xf16> {
  %o = fa.attention %q, %k, %v scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %m3 = arith.constant -3 : index
    %c2 = arith.constant 2 : index
    %c12 = arith.constant 12 : index
    %c0 = arith.constant 0 : index
    %a = arith.muli %i, %c2 : index
    %nj = arith.muli %m3, %j : index
    %s = arith.addi %a, %nj : index
    %d = arith.addi %s, %c12 : index
    %keep = arith.cmpi sge, %d, %c0 : index
    fa.yield %keep : i1
  } : tensor<1x2x160x16xf16>, tensor<1x2x160x16xf16>, tensor<1x2x160x16xf16> -> tensor<1x2x160x16xf16>
  return %o : tensor<1x2x160x16xf16>
}

func.func @input(%seed: f32) -> tensor<1x2x160x16xf16> {
  %e = tensor.empty() : tensor<1x2x160x16xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x2x160x16xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 1 : index
    %b = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c131 : index
    %b1 = arith.muli %b, %c17 : index
    %s0 = arith.addi %a1, %b1 : index
    %s1 = arith.addi %s0, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %w = arith.constant 2.0 : f32
    %zz = arith.mulf %z, %w : f32
    linalg.yield %zz : f32
  } -> tensor<1x2x160x16xf32>
  %r = arith.truncf %r0 : tensor<1x2x160x16xf32> to tensor<1x2x160x16xf16>
  return %r : tensor<1x2x160x16xf16>
}

func.func @print(%o: tensor<1x2x160x16xf16>) {
  %f = arith.extf %o : tensor<1x2x160x16xf16> to tensor<1x2x160x16xf32>
  %u = tensor.cast %f : tensor<1x2x160x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<1x2x160x16xf16>
  %k = call @input(%s2) : (f32) -> tensor<1x2x160x16xf16>
  %v = call @input(%s3) : (f32) -> tensor<1x2x160x16xf16>
  %o1 = call @negated_causal(%q, %k, %v) : (tensor<1x2x160x16xf16>, tensor<1x2x160x16xf16>, tensor<1x2x160x16xf16>) -> tensor<1x2x160x16xf16>
  call @print(%o1) : (tensor<1x2x160x16xf16>) -> ()
  %o2 = call @slanted(%q, %k, %v) : (tensor<1x2x160x16xf16>, tensor<1x2x160x16xf16>, tensor<1x2x160x16xf16>) -> tensor<1x2x160x16xf16>
  call @print(%o2) : (tensor<1x2x160x16xf16>) -> ()
  return
}
