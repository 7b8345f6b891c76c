// The tensor-core kernels skip the key blocks a mask_mod hides from a query
// block: a query block walks from the first key block it may see to the
// last (narrowToMaskMod in DistributeAttention.cpp, the tiled lowering's
// interval test in front of the thread loop). Skipped means not read: V
// holds NaN at every key of document 2 (keys 192 to 383), so a row that
// reads one of them, even with weight 0, is NaN (0 * NaN). The rows of
// document 0 (queries 0 to 127, the first query block of every kernel
// here) are finite only because their block never loads a key block past
// document 0's (key blocks of 64, 128 or 176 keys end before key 192).
// mma.sync (registers, cp.async, two stages; and S and P through shared
// memory) and Hopper's TMA producer kernel, both thread orders; f16,
// D = 64, N = 384, documents of 128, 64 and 192 keys.
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 min-stages=2" | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 register-fragments=false thread-order=reverse" | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a" | %mlir-run | FileCheck %s
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a thread-order=reverse" | %mlir-run | FileCheck %s
// CHECK: sizes = [1, 2, 128, 64]
// CHECK-NOT: nan
// The walk's bounds come from the scan in front of the thread loop.
// RUN: fa-opt %s --fa-select-tiles=target=sm_80 "--fa-distribute-attention=async-copies=true tensor-cores=true register-fragments=true" | FileCheck %s --check-prefix=KERNEL
// KERNEL: scf.for {{.*}} iter_args({{.*}}) -> (index, index)
// KERNEL: memref.load %{{.*}}[%{{.*}}] : memref<384xi32>
// KERNEL: scf.forall

!t = tensor<1x2x384x64xf16>
!lse = tensor<1x2x384xf32>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @documents(%q: !t, %k: !t, %v: !t, %doc: tensor<384xi32>) -> (!t, !lse) {
  %o, %l = fa.attention %q, %k, %v scale = 0.125 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %doc[%i] : tensor<384xi32>
    %c = tensor.extract %doc[%j] : tensor<384xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : !t, !t, !t -> !t, !lse
  return %o, %l : !t, !lse
}

// sin(0.7 (17 a + c) + seed) over [768, 64], NaN from row `nanFrom` of
// each head on (a % 384 >= nanFrom).
func.func @input(%seed: f32, %nanFrom: index) -> tensor<768x64xf32> {
  %e = tensor.empty() : tensor<768x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<768x64xf32>) {
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
    %c384 = arith.constant 384 : index
    %row = arith.remui %a, %c384 : index
    %late = arith.cmpi uge, %row, %nanFrom : index
    %nan = arith.constant 0x7FC00000 : f32
    %w = arith.select %late, %nan, %z : f32
    linalg.yield %w : f32
  } -> tensor<768x64xf32>
  return %r : tensor<768x64xf32>
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %none = arith.constant 384 : index
  %doc2 = arith.constant 192 : index
  %qf = call @input(%s1, %none) : (f32, index) -> tensor<768x64xf32>
  %kf = call @input(%s2, %none) : (f32, index) -> tensor<768x64xf32>
  %vf = call @input(%s3, %doc2) : (f32, index) -> tensor<768x64xf32>
  %qh = arith.truncf %qf : tensor<768x64xf32> to tensor<768x64xf16>
  %kh = arith.truncf %kf : tensor<768x64xf32> to tensor<768x64xf16>
  %vh = arith.truncf %vf : tensor<768x64xf32> to tensor<768x64xf16>
  %q = tensor.expand_shape %qh [[0, 1, 2], [3]] output_shape [1, 2, 384, 64] : tensor<768x64xf16> into !t
  %k = tensor.expand_shape %kh [[0, 1, 2], [3]] output_shape [1, 2, 384, 64] : tensor<768x64xf16> into !t
  %v = tensor.expand_shape %vh [[0, 1, 2], [3]] output_shape [1, 2, 384, 64] : tensor<768x64xf16> into !t
  %e = tensor.empty() : tensor<384xi32>
  %doc = linalg.generic {indexing_maps = [affine_map<(a) -> (a)>], iterator_types = ["parallel"]}
      outs(%e : tensor<384xi32>) {
  ^bb0(%o: i32):
    %a = linalg.index 0 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %first = arith.cmpi ult, %a, %c128 : index
    %second = arith.cmpi ult, %a, %c192 : index
    %d1 = arith.select %second, %c1, %c2 : i32
    %d = arith.select %first, %c0, %d1 : i32
    linalg.yield %d : i32
  } -> tensor<384xi32>
  %o, %l = call @documents(%q, %k, %v, %doc) : (!t, !t, !t, tensor<384xi32>) -> (!t, !lse)
  %rows = tensor.extract_slice %o[0, 0, 0, 0] [1, 2, 128, 64] [1, 1, 1, 1] : !t to tensor<1x2x128x64xf16>
  %wide = arith.extf %rows : tensor<1x2x128x64xf16> to tensor<1x2x128x64xf32>
  %u = tensor.cast %wide : tensor<1x2x128x64xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
