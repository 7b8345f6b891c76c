// The key walk under a window, checked where a key too many or too few
// shows. K is zero, so every visible key has the same weight and row i's
// output is the share of its visible keys j with (j + h) mod 64 = c in
// column c: one key more or less at a window's edge moves an entry by about
// 1 / (keys seen), far past the tolerance (the sweep's inputs weight a
// key at the edge by as little as 1e-7).
//
// @two_sided: a window 190 left and 32 right, bottom-right (Nk - Nq = 30):
// a query block's first row sees up to the second-to-last key of a 32-key
// block, which its block then holds masked, and the left edges fall inside
// blocks. @causal_window: causal with a window 161 left, bottom-right
// (Nk - Nq = 40): the last row of a 128-row block sees from key 6 on, so
// key block 0 is crossed by the left edge and masked. Under each, the walk
// from the last block: the blocks the right edge crosses (masked), those
// every row sees whole (unmasked), those the left edge crosses (masked).
//
// The tilings on the ops are the TMA producer kernel's (128 x 32, 8
// warps); the second file changes them to 64 x 16 with 4 warps (the
// mma.sync kernel's register fragments, and the cp.async wgmma kernel's).
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: %compare %t.tiled %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90a | %mlir-run > %t.tma
// RUN: %compare %t.tma %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a thread-order=reverse" | %mlir-run > %t.tma-reverse
// RUN: %compare %t.tma-reverse %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90 | %mlir-run > %t.mma
// RUN: %compare %t.mma %t.reference --rtol 2e-3 --atol 1e-3
// RUN: sed -e 's/block_q = 128, block_kv = 32, warps = 8/block_q = 64, block_kv = 16, warps = 4/' %s > %t.small.mlir
// RUN: grep -c "tiling = <block_q = 6[4], block_kv = 16, warps = 4" %t.small.mlir | FileCheck %s --check-prefix=EDITED
// EDITED: {{^}}2{{$}}
// RUN: fa-opt %t.small.mlir --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.small-mma
// RUN: %compare %t.small-mma %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %t.small.mlir "--fa-cpu-pipeline=gpu-kernel=sm_80 thread-order=reverse" | %mlir-run > %t.small-mma-reverse
// RUN: %compare %t.small-mma-reverse %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %t.small.mlir "--fa-cpu-pipeline=gpu-kernel=sm_90a tma-producer=false" | %mlir-run > %t.small-cp-async
// RUN: %compare %t.small-cp-async %t.reference --rtol 2e-3 --atol 1e-3
//
// The TMA kernel's walk: the peeled first block, then three key loops
// (masked, unmasked, masked), the unmasked one without the window's
// compares (the element mask's key >= left edge, key <= right edge).
// RUN: fa-opt %s --fa-select-tiles=target=sm_90a "--fa-distribute-attention=warpgroup-mma=true tma-producer=true overlap-softmax=true ping-pong=true" | FileCheck %s --check-prefix=WALK
// WALK-LABEL: func.func @two_sided
// WALK: scf.for %{{.*}} = %{{.*}} to %[[UNMASKED:[0-9a-z_]+]] step
// WALK: arith.cmpi sle
// WALK: scf.for %{{.*}} = %[[UNMASKED]] to %[[MASKED:[0-9a-z_]+]] step
// WALK-NOT: arith.cmpi sle
// WALK: scf.for %{{.*}} = %[[MASKED]] to %{{.*}} step
// WALK: arith.cmpi sle
// WALK-LABEL: func.func @causal_window
// WALK: scf.for %{{.*}} = %{{.*}} to %[[UNMASKED:[0-9a-z_]+]] step
// WALK: arith.cmpi sle
// WALK: scf.for %{{.*}} = %[[UNMASKED]] to %[[MASKED:[0-9a-z_]+]] step
// WALK-NOT: arith.cmpi sle
// WALK: scf.for %{{.*}} = %[[MASKED]] to %{{.*}} step
// WALK: arith.cmpi sle

func.func private @printMemrefF32(tensor<*xf32>)

func.func @two_sided(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x330x64xf16>, %v: tensor<1x2x330x64xf16>) -> tensor<1x2x300x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 window = <left = 190, right = 32, align = bottom_right> tiling = <block_q = 128, block_kv = 32, warps = 8, stages = 2>
      : tensor<1x2x300x64xf16>, tensor<1x2x330x64xf16>, tensor<1x2x330x64xf16> -> tensor<1x2x300x64xf16>
  return %o : tensor<1x2x300x64xf16>
}

func.func @causal_window(%q: tensor<1x2x260x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>) -> tensor<1x2x260x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right window = <left = 161, right = 0, align = bottom_right> tiling = <block_q = 128, block_kv = 32, warps = 8, stages = 2>
      : tensor<1x2x260x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16> -> tensor<1x2x260x64xf16>
  return %o : tensor<1x2x260x64xf16>
}

// V[b, h, j, c] = 1 where (j + h) mod 64 = c, else 0.
func.func @markers(%keys: index) -> tensor<1x2x?x64xf16> {
  %v = tensor.generate %keys {
  ^bb0(%b: index, %h: index, %j: index, %c: index):
    %c64 = arith.constant 64 : index
    %shifted = arith.addi %j, %h : index
    %m = arith.remui %shifted, %c64 : index
    %hit = arith.cmpi eq, %m, %c : index
    %one = arith.constant 1.0 : f16
    %zero = arith.constant 0.0 : f16
    %x = arith.select %hit, %one, %zero : f16
    tensor.yield %x : f16
  } : tensor<1x2x?x64xf16>
  return %v : tensor<1x2x?x64xf16>
}

func.func @main() {
  %c300 = arith.constant 300 : index
  %c330 = arith.constant 330 : index
  // Q's values do not matter: every score is 0.
  %q1 = arith.constant dense<0.5> : tensor<1x2x300x64xf16>
  %k1 = arith.constant dense<0.0> : tensor<1x2x330x64xf16>
  %v1d = call @markers(%c330) : (index) -> tensor<1x2x?x64xf16>
  %v1 = tensor.cast %v1d : tensor<1x2x?x64xf16> to tensor<1x2x330x64xf16>
  %o1 = call @two_sided(%q1, %k1, %v1) : (tensor<1x2x300x64xf16>, tensor<1x2x330x64xf16>, tensor<1x2x330x64xf16>) -> tensor<1x2x300x64xf16>
  %w1 = arith.extf %o1 : tensor<1x2x300x64xf16> to tensor<1x2x300x64xf32>
  %p1 = tensor.cast %w1 : tensor<1x2x300x64xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()

  %q2 = arith.constant dense<-0.5> : tensor<1x2x260x64xf16>
  %k2 = arith.constant dense<0.0> : tensor<1x2x300x64xf16>
  %v2d = call @markers(%c300) : (index) -> tensor<1x2x?x64xf16>
  %v2 = tensor.cast %v2d : tensor<1x2x?x64xf16> to tensor<1x2x300x64xf16>
  %o2 = call @causal_window(%q2, %k2, %v2) : (tensor<1x2x260x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>) -> tensor<1x2x260x64xf16>
  %w2 = arith.extf %o2 : tensor<1x2x260x64xf16> to tensor<1x2x260x64xf32>
  %p2 = tensor.cast %w2 : tensor<1x2x260x64xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}
