// score_mod, mask_mod and sinks in the tensor-core kernels at the sizes
// they need (D = 64, blocks of 64 and 128 query rows): mma.sync with S and
// P in registers and in shared memory, and Hopper's TMA producer kernel
// with its default schedule (P V a block late, ping-pong) and without,
// both thread orders, emulated on the CPU against the unfused reference.
// One op carries everything: ALiBi then a soft-cap as score_mod, a document
// mask read from per-position ids as mask_mod, sinks (one -inf), causal
// bottom-right, f16. B = 1, H = 2, Nq = 100, Nk = 130.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: %compare %t.tiled %t.reference --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.sm80
// RUN: %compare %t.sm80 %t.reference --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 register-fragments=false thread-order=reverse" | %mlir-run > %t.shared
// RUN: %compare %t.shared %t.reference --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a" | %mlir-run > %t.sm90a
// RUN: %compare %t.sm90a %t.reference --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a overlap-softmax=false ping-pong=false thread-order=reverse" | %mlir-run > %t.plain
// RUN: %compare %t.plain %t.reference --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: fa-opt %s --fa-select-tiles=target=sm_80 "--fa-distribute-attention=async-copies=true tensor-cores=true register-fragments=true" | FileCheck %s --check-prefix=KERNEL
// RUN: fa-opt %s --fa-select-tiles=target=sm_90a "--fa-distribute-attention=warpgroup-mma=true tma-producer=true" | FileCheck %s --check-prefix=KERNEL
// CHECK: MATCH 13000 values
// The regions are inlined into the kernel: tanh of the score, the
// document ids loaded from their buffers.
// KERNEL: memref.load %{{.*}}[%{{.*}}] : memref<100xi32>
// KERNEL: math.tanh
// KERNEL-NOT: fa.attention

!q = tensor<1x2x100x64xf16>
!kv = tensor<1x2x130x64xf16>
!lse = tensor<1x2x100xf32>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @everything(%q: !q, %k: !kv, %v: !kv, %slopes: tensor<2xf32>,
    %sinks: tensor<2xf32>, %qdoc: tensor<100xi32>, %kdoc: tensor<130xi32>) -> (!q, !lse) {
  %o, %l = fa.attention %q, %k, %v sinks(%sinks : tensor<2xf32>) scale = 0.125 causal = bottom_right score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %slope = tensor.extract %slopes[%h] : tensor<2xf32>
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %t = arith.mulf %slope, %df : f32
    %a = arith.addf %s, %t : f32
    %cap = arith.constant 5.0 : f32
    %x = arith.divf %a, %cap : f32
    %th = math.tanh %x : f32
    %r = arith.mulf %th, %cap : f32
    fa.yield %r : f32
  } mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %qdoc[%i] : tensor<100xi32>
    %c = tensor.extract %kdoc[%j] : tensor<130xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : !q, !kv, !kv -> !q, !lse
  return %o, %l : !q, !lse
}

func.func @input(%seed: f32, %rows: index) -> tensor<?x64xf32> {
  %e = tensor.empty(%rows) : tensor<?x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x64xf32>) {
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
    linalg.yield %z : f32
  } -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %cq = arith.constant 200 : index
  %ck = arith.constant 260 : index
  %qf = call @input(%s1, %cq) : (f32, index) -> tensor<?x64xf32>
  %kf = call @input(%s2, %ck) : (f32, index) -> tensor<?x64xf32>
  %vf = call @input(%s3, %ck) : (f32, index) -> tensor<?x64xf32>
  %qs = tensor.cast %qf : tensor<?x64xf32> to tensor<200x64xf32>
  %ks = tensor.cast %kf : tensor<?x64xf32> to tensor<260x64xf32>
  %vs = tensor.cast %vf : tensor<?x64xf32> to tensor<260x64xf32>
  %qh = arith.truncf %qs : tensor<200x64xf32> to tensor<200x64xf16>
  %kh = arith.truncf %ks : tensor<260x64xf32> to tensor<260x64xf16>
  %vh = arith.truncf %vs : tensor<260x64xf32> to tensor<260x64xf16>
  %q = tensor.expand_shape %qh [[0, 1, 2], [3]] output_shape [1, 2, 100, 64] : tensor<200x64xf16> into !q
  %k = tensor.expand_shape %kh [[0, 1, 2], [3]] output_shape [1, 2, 130, 64] : tensor<260x64xf16> into !kv
  %v = tensor.expand_shape %vh [[0, 1, 2], [3]] output_shape [1, 2, 130, 64] : tensor<260x64xf16> into !kv
  %slopes = arith.constant dense<[0.25, 0.0625]> : tensor<2xf32>
  %sinks = arith.constant dense<[1.5, 0xFF800000]> : tensor<2xf32>
  %qdoc = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]> : tensor<100xi32>
  %kdoc = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]> : tensor<130xi32>
  %o, %l = call @everything(%q, %k, %v, %slopes, %sinks, %qdoc, %kdoc)
      : (!q, !kv, !kv, tensor<2xf32>, tensor<2xf32>, tensor<100xi32>, tensor<130xi32>) -> (!q, !lse)
  %wide = arith.extf %o : !q to tensor<1x2x100x64xf32>
  %u = tensor.cast %wide : tensor<1x2x100x64xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %w = tensor.cast %l : !lse to tensor<*xf32>
  call @printMemrefF32(%w) : (tensor<*xf32>) -> ()
  return
}
