// fa.linear_attention round-trips in its custom and generic forms.
// RUN: fa-opt %s | FileCheck %s
// RUN: fa-opt %s -mlir-print-op-generic | fa-opt | FileCheck %s

// CHECK-LABEL: func.func @plain
// CHECK: fa.linear_attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.000000e+00 : tensor<2x8x128x64xf32>, tensor<2x8x128x64xf32>, tensor<2x8x128x32xf32> -> tensor<2x8x128x32xf32>
func.func @plain(%q: tensor<2x8x128x64xf32>, %k: tensor<2x8x128x64xf32>, %v: tensor<2x8x128x32xf32>) -> tensor<2x8x128x32xf32> {
  %o = fa.linear_attention %q, %k, %v scale = 1.0 : tensor<2x8x128x64xf32>, tensor<2x8x128x64xf32>, tensor<2x8x128x32xf32> -> tensor<2x8x128x32xf32>
  return %o : tensor<2x8x128x32xf32>
}

// Causal, decayed (RetNet), normalized, GQA 4/2, dynamic sequence length,
// a chunk chosen.
// CHECK-LABEL: func.func @retnet
// CHECK: fa.linear_attention %{{.*}}, %{{.*}}, %{{.*}} decay(%{{.*}} : tensor<4xf32>) scale = 1.250000e-01 causal normalize(eps = 9.9999999999999995E-7) chunk = 64 :
func.func @retnet(%q: tensor<1x4x?x16xf16>, %k: tensor<1x2x?x16xf16>, %v: tensor<1x2x?x16xf16>, %gamma: tensor<4xf32>) -> tensor<1x4x?x16xf16> {
  %o = fa.linear_attention %q, %k, %v decay(%gamma : tensor<4xf32>) scale = 0.125 causal normalize(eps = 1.0e-6) chunk = 64
      : tensor<1x4x?x16xf16>, tensor<1x2x?x16xf16>, tensor<1x2x?x16xf16> -> tensor<1x4x?x16xf16>
  return %o : tensor<1x4x?x16xf16>
}
