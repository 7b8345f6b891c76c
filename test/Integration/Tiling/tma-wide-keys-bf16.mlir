// sm_90a's TMA producer kernel with K three times as wide as V (D = 192,
// Dv = 64, bf16; tma-wide-keys-f16.mlir has D = 128, Dv = 64) over 200
// keys: four key blocks of 32 wrap both ring stages of K and V twice, and
// each ring places its stages by its own width (a V stage placed by D lies
// past the V buffer, which the CPU model reports). Not causal (last block
// first) and causal (first to last), against the reference.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true max-block-kv=32" | %mlir-run > %t.tma
// RUN: %compare %t.tma %t.reference --rtol 3e-2 --atol 2e-2 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a warpgroup-tiles=true max-block-kv=32 thread-order=reverse" | %mlir-run > %t.reverse
// RUN: %compare %t.reverse %t.reference --rtol 3e-2 --atol 2e-2 | FileCheck %s
// RUN: fa-opt %s "--fa-select-tiles=target=sm_90a warpgroup-tiles=true max-block-kv=32 report=-" -o /dev/null | FileCheck %s --check-prefix=KERNEL
// KERNEL: "gpu_kernel":"wgmma-tma-ws"
// KERNEL: "gpu_kernel":"wgmma-tma-ws"
// CHECK: MATCH 17920 values

!q = tensor<1x2x70x192xbf16>
!k = tensor<1x2x200x192xbf16>
!v = tensor<1x2x200x64xbf16>
!o = tensor<1x2x70x64xbf16>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @plain(%q: !q, %k: !k, %v: !v) -> !o {
  %o = fa.attention %q, %k, %v scale = 0.125 : !q, !k, !v -> !o
  return %o : !o
}

func.func @causal(%q: !q, %k: !k, %v: !v) -> !o {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right : !q, !k, !v -> !o
  return %o : !o
}

func.func @fill(%t: tensor<?x?x?x?xf32>, %seed: f32) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c29 = arith.constant 29 : index
    %b1 = arith.muli %b, %c131 : index
    %c1 = arith.muli %c, %c29 : index
    %s0 = arith.addi %b1, %c1 : index
    %s1 = arith.addi %s0, %d : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.37 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    linalg.yield %z : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @input(%n: index, %d: index, %seed: f32) -> tensor<?x?x?x?xbf16> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty(%c1, %c2, %n, %d) : tensor<?x?x?x?xf32>
  %f = call @fill(%e, %seed) : (tensor<?x?x?x?xf32>, f32) -> tensor<?x?x?x?xf32>
  %h = arith.truncf %f : tensor<?x?x?x?xf32> to tensor<?x?x?x?xbf16>
  return %h : tensor<?x?x?x?xbf16>
}

func.func @print(%o: !o) {
  %f = arith.extf %o : !o to tensor<1x2x70x64xf32>
  %u = tensor.cast %f : tensor<1x2x70x64xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %cnq = arith.constant 70 : index
  %cnk = arith.constant 200 : index
  %cd = arith.constant 192 : index
  %c64 = arith.constant 64 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input(%cnq, %cd, %s1) : (index, index, f32) -> tensor<?x?x?x?xbf16>
  %k0 = call @input(%cnk, %cd, %s2) : (index, index, f32) -> tensor<?x?x?x?xbf16>
  %v0 = call @input(%cnk, %c64, %s3) : (index, index, f32) -> tensor<?x?x?x?xbf16>
  %q = tensor.cast %q0 : tensor<?x?x?x?xbf16> to !q
  %k = tensor.cast %k0 : tensor<?x?x?x?xbf16> to !k
  %v = tensor.cast %v0 : tensor<?x?x?x?xbf16> to !v
  %o1 = call @plain(%q, %k, %v) : (!q, !k, !v) -> !o
  call @print(%o1) : (!o) -> ()
  %o2 = call @causal(%q, %k, %v) : (!q, !k, !v) -> !o
  call @print(%o2) : (!o) -> ()
  return
}
