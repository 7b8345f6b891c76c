// Hostile targets, tilings and shapes: each is a diagnostic at the op and a
// failed run, never a crash or a wrapped-around size.
// RUN: fa-opt %s -split-input-file --fa-select-tiles -verify-diagnostics
// Without -verify-diagnostics the run fails, with one error for each case:
// RUN: not fa-opt %s -split-input-file --fa-select-tiles -o /dev/null 2>&1 \
// RUN:   | grep -v "expected error" | grep -c "error:" | FileCheck %s --check-prefix=FAILED
// FAILED: {{^}}5{{$}}

// A negative shared-memory size in DLTI.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"max_shared_memory_bytes" = -4096 : i64>>} {
  func.func @negative_sram(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
    // expected-error @+1 {{DLTI key "max_shared_memory_bytes" must be a positive integer, got -4096 : i64}}
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
        -> tensor<1x8x1024x64xf16>
    return %o : tensor<1x8x1024x64xf16>
  }
}

// -----

// An absurd per-block size over sm_80's 164 KiB per SM.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"preset" = "sm_80", "max_shared_memory_bytes" = 4611686018427387904 : i64>>} {
  func.func @absurd_sram(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
    // expected-error @+1 {{'fa.attention' op target sm_80+dlti lets a block use 4611686018427387904 bytes of shared memory but its SM has 167936 (from DLTI preset)}}
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
        -> tensor<1x8x1024x64xf16>
    return %o : tensor<1x8x1024x64xf16>
  }
}

// -----

// Zero warps is not a tiling.
func.func @zero_warps(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
  // expected-error @+1 {{tiling sizes must be positive, got block_q = 64, block_kv = 64, warps = 0, stages = 1}}
  %o = fa.attention %q, %q, %q scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 0, stages = 1> : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16> -> tensor<1x8x1024x64xf16>
  return %o : tensor<1x8x1024x64xf16>
}

// -----

// A tile far larger than any target: the sizes saturate instead of
// wrapping around, and the error says so.
func.func @huge_tile(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
  // expected-error @+1 {{'fa.attention' op the tiling written on the op (4611686018427387904 x 64, 4 warps, 1 stage) needs 9223372036854775807 bytes of shared memory; sm_80 has 166912 per block}}
  %o = fa.attention %q, %q, %q scale = 0.125
      tiling = <block_q = 4611686018427387904, block_kv = 64, warps = 4, stages = 1>
      : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
      -> tensor<1x8x1024x64xf16>
  return %o : tensor<1x8x1024x64xf16>
}

// -----

// 2^32 query rows: more elements than a 32-bit index reaches on the GPU.
func.func @overflows_32_bits(%q: tensor<1x1x4294967296x64xf16>, %k: tensor<1x1x1024x64xf16>)
    -> tensor<1x1x4294967296x64xf16> {
  // expected-error @+1 {{'fa.attention' op query 'tensor<1x1x4294967296x64xf16>' has 274877906944 elements; kernels for sm_80 index with 32 bits (at most 2147483647 elements per tensor)}}
  %o = fa.attention %q, %k, %k scale = 0.125
      : tensor<1x1x4294967296x64xf16>, tensor<1x1x1024x64xf16>, tensor<1x1x1024x64xf16>
      -> tensor<1x1x4294967296x64xf16>
  return %o : tensor<1x1x4294967296x64xf16>
}
