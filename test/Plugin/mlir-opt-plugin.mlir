// Upstream mlir-opt (Debian's, from mlir-22-tools) loads fa as a dialect
// and pass plugin: it parses fa IR and runs fa's passes and pipelines.
// RUN: mlir-opt %s --load-dialect-plugin=%fa_plugin --load-pass-plugin=%fa_plugin \
// RUN:   --pass-pipeline="builtin.module(fa-select-tiles{target=sm_90},fa-tile-attention)" | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%fa_plugin --load-pass-plugin=%fa_plugin \
// RUN:   --pass-pipeline="builtin.module(fa-cpu-pipeline)" | %mlir-run | FileCheck %s --check-prefix=NUMBERS
// RUN: mlir-opt %s --load-dialect-plugin=%fa_plugin --load-pass-plugin=%fa_plugin \
// RUN:   --pass-pipeline="builtin.module(fa-gpu-pipeline{chip=sm_90 format=isa})" | FileCheck %s --check-prefix=GPU
// RUN: not mlir-opt %s --load-pass-plugin=%fa_plugin \
// RUN:   --pass-pipeline="builtin.module(fa-select-tiles{target=sm_99})" 2>&1 | FileCheck %s --check-prefix=DIALECT

// The GPU pipeline, from upstream mlir-opt (its NVPTX backend and the CUDA
// toolkit's libdevice).
// GPU: gpu.binary @attention_kernel
// GPU-SAME: .target sm_90

// Without the dialect plugin, fa IR does not parse.
// DIALECT: error: Dialect `fa' not found for custom op 'fa.attention'

// CHECK: scf.forall
// CHECK: scf.for
// CHECK-NOT: fa.attention

// NUMBERS: sizes = [1, 1, 4, 2]
// NUMBERS-NEXT: [0.830{{[0-9]*}}, 1.169{{[0-9]*}}]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @attention(%q: tensor<1x1x4x2xf32>, %k: tensor<1x1x4x2xf32>,
                     %v: tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32> {
  %o = fa.attention %q, %k, %v scale = 0.70710678118654757
      : tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>
      -> tensor<1x1x4x2xf32>
  return %o : tensor<1x1x4x2xf32>
}

func.func @main() {
  %qk = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]]]>
      : tensor<1x1x4x2xf32>
  %v = arith.constant dense<[[[[1.0, 1.0], [2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]]]>
      : tensor<1x1x4x2xf32>
  %o = call @attention(%qk, %qk, %v)
      : (tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32>
  %printable = tensor.cast %o : tensor<1x1x4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%printable) : (tensor<*xf32>) -> ()
  return
}
