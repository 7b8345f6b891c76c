// RUN: fa-opt %s --fa-distribute-attention --split-input-file --verify-diagnostics

func.func @no_tiling(%q: tensor<1x1x64x16xf32>) -> tensor<1x1x64x16xf32> {
  // expected-error @+1 {{'fa.attention' op has no tiling; run fa-select-tiles first}}
  %o = fa.attention %q, %q, %q scale = 0.25 : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}

// -----

func.func @more_rows_than_threads(%q: tensor<1x1x256x16xf32>) -> tensor<1x1x256x16xf32> {
  // expected-error @+1 {{'fa.attention' op tiling block_q (128) exceeds the kernel's 64 threads (2 warps of 32): each thread owns one query row, so block_q must be at most 32 * warps}}
  %o = fa.attention %q, %q, %q scale = 0.25 tiling = <block_q = 128, block_kv = 16, warps = 2, stages = 1> : tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32> -> tensor<1x1x256x16xf32>
  return %o : tensor<1x1x256x16xf32>
}
