// What fa-lower-linear-attention and the reference cannot lower gets an
// error at the op and a failing pass.
// RUN: fa-opt %s --fa-lower-linear-attention -split-input-file -verify-diagnostics
// RUN: fa-opt %s --fa-decompose-attention -split-input-file -verify-diagnostics
// RUN: not fa-opt %s --fa-lower-linear-attention=chunk=0 2>&1 | FileCheck %s --check-prefix=CHUNK
// CHUNK: error: fa-lower-linear-attention: chunk must be at least 1, got 0

func.func @dynamic_group(%q: tensor<1x?x16x8xf32>, %k: tensor<1x?x16x8xf32>) -> tensor<1x?x16x8xf32> {
  // expected-error @+1 {{is lowered only with a static group size (Hq / Hkv); the query or key/value heads are dynamic}}
  %o = fa.linear_attention %q, %k, %k scale = 1.0 causal : tensor<1x?x16x8xf32>, tensor<1x?x16x8xf32>, tensor<1x?x16x8xf32> -> tensor<1x?x16x8xf32>
  return %o : tensor<1x?x16x8xf32>
}
