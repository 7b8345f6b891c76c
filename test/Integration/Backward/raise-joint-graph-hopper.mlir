// A joint training graph (forward and backward, f16 with f32 softmax, as
// raise-joint-graph-f16.mlir writes it) at D = 64 and 96 tokens, raised and
// compiled for sm_90a: the forward on the TMA producer kernel, the
// backward's dK/dV kernel on wgmma (dQ^T = K^T dS^T with A M/N-major, f32
// atomics). Run on the CPU model (forward and reversed threads) against
// the graph as written; test/GPU/joint-graph-hopper.test assembles the
// same kernels with ptxas.
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_90a | %mlir-run > %t.kernel
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_90a thread-order=reverse" | %mlir-run > %t.reverse
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.kernel %t.frontend --rtol 2e-2 --atol 4e-3 | FileCheck %s --check-prefix=SAME
// RUN: %compare %t.reverse %t.frontend --rtol 2e-2 --atol 4e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 49152 values
// The kernels the CPU model ran.
// RUN: fa-opt %s --fa-raise-attention --fa-select-tiles=target=sm_90a --fa-distribute-attention-backward=warpgroup-mma=true | FileCheck %s --check-prefix=KERNEL

// RAISED-LABEL: func.func @train
// RAISED: fa.attention
// RAISED: fa.attention_backward
// RAISED-NOT: 96x96x
// RAISED-LABEL: func.func @main
// KERNEL-LABEL: func.func @train
// KERNEL: fa.warpgroup_mma {{.*}} {transpose_b} : vector<32xf32>, vector<4x2xf16>
// KERNEL: fa.warpgroup_mma {{.*}} {ignore_accumulator, transpose_a, transpose_b}
// KERNEL: memref.atomic_rmw addf

#id3 = affine_map<(b, i, j) -> (b, i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @train(%q: tensor<2x96x64xf16>, %k: tensor<2x96x64xf16>, %v: tensor<2x96x64xf16>, %do: tensor<2x96x64xf16>)
    -> (tensor<2x96x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %ekt = tensor.empty() : tensor<2x64x96xf16>
  %kt = linalg.transpose ins(%k : tensor<2x96x64xf16>) outs(%ekt : tensor<2x64x96xf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x96x96xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x96x96xf32>) -> tensor<2x96x96xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x96x64xf16>, tensor<2x64x96xf16>) outs(%zs : tensor<2x96x96xf32>) -> tensor<2x96x96xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x96x96xf32>) outs(%es : tensor<2x96x96xf32>) {
  ^bb0(%a: f32, %u: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<2x96x96xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x96x96xf32>) outs(%es : tensor<2x96x96xf32>) -> tensor<2x96x96xf32>
  %eh = tensor.empty() : tensor<2x96x96xf16>
  %p16 = arith.truncf %p : tensor<2x96x96xf32> to tensor<2x96x96xf16>
  %eo = tensor.empty() : tensor<2x96x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x96x64xf32>) -> tensor<2x96x64xf32>
  %o32 = linalg.batch_matmul ins(%p16, %v : tensor<2x96x96xf16>, tensor<2x96x64xf16>) outs(%zo : tensor<2x96x64xf32>) -> tensor<2x96x64xf32>
  %o = arith.truncf %o32 : tensor<2x96x64xf32> to tensor<2x96x64xf16>
  %pt = linalg.transpose ins(%p16 : tensor<2x96x96xf16>) outs(%eh : tensor<2x96x96xf16>) permutation = [0, 2, 1]
  %dv32 = linalg.batch_matmul ins(%pt, %do : tensor<2x96x96xf16>, tensor<2x96x64xf16>) outs(%zo : tensor<2x96x64xf32>) -> tensor<2x96x64xf32>
  %dv = arith.truncf %dv32 : tensor<2x96x64xf32> to tensor<2x96x64xf16>
  %evt = tensor.empty() : tensor<2x64x96xf16>
  %vt = linalg.transpose ins(%v : tensor<2x96x64xf16>) outs(%evt : tensor<2x64x96xf16>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x96x64xf16>, tensor<2x64x96xf16>) outs(%zs : tensor<2x96x96xf32>) -> tensor<2x96x96xf32>
  %pdp = arith.mulf %p, %dp : tensor<2x96x96xf32>
  %er = tensor.empty() : tensor<2x96xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x96xf32>) -> tensor<2x96xf32>
  %r = linalg.reduce ins(%pdp : tensor<2x96x96xf32>) outs(%zr : tensor<2x96xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %t = arith.addf %a, %acc : f32
      linalg.yield %t : f32
    }
  %rb = linalg.broadcast ins(%r : tensor<2x96xf32>) outs(%es : tensor<2x96x96xf32>) dimensions = [2]
  %diff = arith.subf %dp, %rb : tensor<2x96x96xf32>
  %g = arith.mulf %p, %diff : tensor<2x96x96xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x96x96xf32>) outs(%es : tensor<2x96x96xf32>) {
  ^bb0(%a: f32, %u: f32):
    %r2 = arith.mulf %a, %scale : f32
    linalg.yield %r2 : f32
  } -> tensor<2x96x96xf32>
  %gs16 = arith.truncf %gs : tensor<2x96x96xf32> to tensor<2x96x96xf16>
  %dq32 = linalg.batch_matmul ins(%gs16, %k : tensor<2x96x96xf16>, tensor<2x96x64xf16>) outs(%zo : tensor<2x96x64xf32>) -> tensor<2x96x64xf32>
  %dq = arith.truncf %dq32 : tensor<2x96x64xf32> to tensor<2x96x64xf16>
  %gt = linalg.transpose ins(%gs16 : tensor<2x96x96xf16>) outs(%eh : tensor<2x96x96xf16>) permutation = [0, 2, 1]
  %dk32 = linalg.batch_matmul ins(%gt, %q : tensor<2x96x96xf16>, tensor<2x96x64xf16>) outs(%zo : tensor<2x96x64xf32>) -> tensor<2x96x64xf32>
  %dk = arith.truncf %dk32 : tensor<2x96x64xf32> to tensor<2x96x64xf16>
  return %o, %dq, %dk, %dv : tensor<2x96x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>
}

// 2·sin(0.7·(linear index) + phase), rounded to f16.
func.func @input(%phase: f32) -> tensor<2x96x64xf16> {
  %e = tensor.empty() : tensor<2x96x64xf16>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x96x64xf16>) {
  ^bb0(%o: f16):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %d = linalg.index 2 : index
    %c24 = arith.constant 6144 : index
    %c4 = arith.constant 64 : index
    %bb = arith.muli %b, %c24 : index
    %ii = arith.muli %i, %c4 : index
    %s = arith.addi %bb, %ii : index
    %n = arith.addi %s, %d : index
    %ni = arith.index_cast %n : index to i64
    %f = arith.sitofp %ni : i64 to f32
    %c = arith.constant 0.7 : f32
    %x = arith.mulf %f, %c : f32
    %y = arith.addf %x, %phase : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    %h = arith.truncf %w : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x96x64xf16>
  return %r : tensor<2x96x64xf16>
}

func.func @print(%t: tensor<2x96x64xf16>) {
  %w = arith.extf %t : tensor<2x96x64xf16> to tensor<2x96x64xf32>
  %p = tensor.cast %w : tensor<2x96x64xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 0.1 : f32
  %s2 = arith.constant 1.3 : f32
  %s3 = arith.constant 2.9 : f32
  %s4 = arith.constant 4.2 : f32
  %q = call @input(%s1) : (f32) -> tensor<2x96x64xf16>
  %k = call @input(%s2) : (f32) -> tensor<2x96x64xf16>
  %v = call @input(%s3) : (f32) -> tensor<2x96x64xf16>
  %do = call @input(%s4) : (f32) -> tensor<2x96x64xf16>
  %o, %dq, %dk, %dv = call @train(%q, %k, %v, %do) : (tensor<2x96x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>) -> (tensor<2x96x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>)
  call @print(%o) : (tensor<2x96x64xf16>) -> ()
  call @print(%dq) : (tensor<2x96x64xf16>) -> ()
  call @print(%dk) : (tensor<2x96x64xf16>) -> ()
  call @print(%dv) : (tensor<2x96x64xf16>) -> ()
  return
}
