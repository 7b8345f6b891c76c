// f16 and bf16 inputs: both contractions and the softmax run in f32 and the
// output is rounded once to the value type. On the worked example
// (docs/Sources.md §1) the f32 row 0 is [0.830238, 1.16976]; rounded to f16 it is
// [0.830078, 1.16992] and to bf16 [0.832031, 1.17188]. The inputs are exact
// in both types, so any other value means the computation ran in low
// precision.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run | FileCheck %s
//
// The tiled lowering rounds P to the input type before P·V, as
// FlashAttention-2 does, so its output differs from the definition by that
// rounding: |p - round(p)| <= 2^-11 p (f16) or 2^-8 p (bf16), hence at most
// those relative errors in O (docs/Tiling.md). Here row 0 becomes
// [0.830566, 1.16992] in f16 (0.04% off) and [0.828125, 1.17188] in bf16
// (0.25% off); the logsumexp does not use the rounded P and is unchanged.
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run | FileCheck %s --check-prefix=TILED
// TILED-LABEL: sizes = [1, 1, 4, 2]
// TILED-NEXT: [0.830566, 1.16992]
// TILED-LABEL: sizes = [1, 1, 4, 2]
// TILED-NEXT: [0.828125, 1.17188]
// TILED-LABEL: sizes = [1, 1, 4]
// TILED-NEXT: [1.801{{[0-9]*}}, 1.801{{[0-9]*}}, 2.215{{[0-9]*}}, 1.386{{[0-9]*}}]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @attention_f16(%q: tensor<1x1x4x2xf16>, %k: tensor<1x1x4x2xf16>,
    %v: tensor<1x1x4x2xf16>) -> tensor<1x1x4x2xf16> {
  %o = fa.attention %q, %k, %v scale = 0.70710678118654757
      : tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>
      -> tensor<1x1x4x2xf16>
  return %o : tensor<1x1x4x2xf16>
}

func.func @attention_bf16(%q: tensor<1x1x4x2xbf16>, %k: tensor<1x1x4x2xbf16>,
    %v: tensor<1x1x4x2xbf16>) -> (tensor<1x1x4x2xbf16>, tensor<1x1x4xf32>) {
  %o, %lse = fa.attention %q, %k, %v scale = 0.70710678118654757
      : tensor<1x1x4x2xbf16>, tensor<1x1x4x2xbf16>, tensor<1x1x4x2xbf16>
      -> tensor<1x1x4x2xbf16>, tensor<1x1x4xf32>
  return %o, %lse : tensor<1x1x4x2xbf16>, tensor<1x1x4xf32>
}

func.func @main() {
  %qk = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]]]>
      : tensor<1x1x4x2xf32>
  %v = arith.constant dense<[[[[1.0, 1.0], [2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]]]>
      : tensor<1x1x4x2xf32>

  // CHECK-LABEL: sizes = [1, 1, 4, 2]
  // CHECK-NEXT: [0.830078, 1.16992]
  // CHECK-NEXT: [1, 1]
  %qk16 = arith.truncf %qk : tensor<1x1x4x2xf32> to tensor<1x1x4x2xf16>
  %v16 = arith.truncf %v : tensor<1x1x4x2xf32> to tensor<1x1x4x2xf16>
  %o16 = call @attention_f16(%qk16, %qk16, %v16)
      : (tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>) -> tensor<1x1x4x2xf16>
  %w16 = arith.extf %o16 : tensor<1x1x4x2xf16> to tensor<1x1x4x2xf32>
  %p16 = tensor.cast %w16 : tensor<1x1x4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p16) : (tensor<*xf32>) -> ()

  // The logsumexp stays f32 and equals the f32 reference
  // (attention_reference.py: [1.80109, 1.80109, 2.21588, 1.38629]).
  // CHECK-LABEL: sizes = [1, 1, 4, 2]
  // CHECK-NEXT: [0.832031, 1.17188]
  // CHECK-NEXT: [1, 1]
  // CHECK-LABEL: sizes = [1, 1, 4]
  // CHECK-NEXT: [1.801{{[0-9]*}}, 1.801{{[0-9]*}}, 2.215{{[0-9]*}}, 1.386{{[0-9]*}}]
  %qkb = arith.truncf %qk : tensor<1x1x4x2xf32> to tensor<1x1x4x2xbf16>
  %vb = arith.truncf %v : tensor<1x1x4x2xf32> to tensor<1x1x4x2xbf16>
  %ob, %lse = call @attention_bf16(%qkb, %qkb, %vb)
      : (tensor<1x1x4x2xbf16>, tensor<1x1x4x2xbf16>, tensor<1x1x4x2xbf16>)
      -> (tensor<1x1x4x2xbf16>, tensor<1x1x4xf32>)
  %wb = arith.extf %ob : tensor<1x1x4x2xbf16> to tensor<1x1x4x2xf32>
  %pb = tensor.cast %wb : tensor<1x1x4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%pb) : (tensor<*xf32>) -> ()
  %pl = tensor.cast %lse : tensor<1x1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pl) : (tensor<*xf32>) -> ()
  return
}
