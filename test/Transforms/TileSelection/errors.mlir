// Every error of fa-select-tiles, at the op it stops on.
// RUN: fa-opt %s -split-input-file --fa-select-tiles -verify-diagnostics
// RUN: not fa-opt %s -split-input-file --fa-select-tiles="target=sm_99" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not fa-opt %s -split-input-file --fa-select-tiles="policy=fa3" 2>&1 | FileCheck %s --check-prefix=POLICY

// OPTION: error: unknown target 'sm_99' (pass option target); known targets: sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_120, gfx90a, gfx942, gfx950, host
// POLICY: error: unknown tile policy 'fa3'; known policies: fa1, fa2, auto

// Head dim 512 in f32 on a 64 KiB target: even the smallest tile is too big.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"preset" = "sm_75">>} {
  func.func @no_tile_fits(%q: tensor<1x1x1024x512xf32>) -> tensor<1x1x1024x512xf32> {
    // expected-error @+1 {{'fa.attention' op no tiling fits on sm_75: the smallest (16 x 16, 1 warp, 1 stage) needs 99072 bytes of shared memory; sm_75 has 65536 per block}}
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x1x1024x512xf32>, tensor<1x1x1024x512xf32>, tensor<1x1x1024x512xf32>
        -> tensor<1x1x1024x512xf32>
    return %o : tensor<1x1x1024x512xf32>
  }
}

// -----

// A tiling written by hand is checked, not replaced.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"preset" = "sm_75">>} {
  func.func @user_tiling_too_big(%q: tensor<1x8x4096x128xf16>) -> tensor<1x8x4096x128xf16> {
    // expected-error @+1 {{'fa.attention' op the tiling written on the op (256 x 256, 8 warps, 3 stages) needs 487424 bytes of shared memory; sm_75 has 65536 per block}}
    %o = fa.attention %q, %q, %q scale = 0.125
        tiling = <block_q = 256, block_kv = 256, warps = 8, stages = 3>
        : tensor<1x8x4096x128xf16>, tensor<1x8x4096x128xf16>, tensor<1x8x4096x128xf16>
        -> tensor<1x8x4096x128xf16>
    return %o : tensor<1x8x4096x128xf16>
  }
}

// -----

// The GPU kernel gives each thread one query row: 48 rows need 2 warps.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"preset" = "sm_80">>} {
  func.func @more_rows_than_threads(%q: tensor<1x8x4096x16xf16>) -> tensor<1x8x4096x16xf16> {
    // expected-error @+1 {{'fa.attention' op the tiling written on the op (48 x 16, 1 warp, 1 stage) has 32 threads for block_q = 48 rows; the GPU kernel gives each thread one query row}}
    %o = fa.attention %q, %q, %q scale = 0.125
        tiling = <block_q = 48, block_kv = 16, warps = 1, stages = 1>
        : tensor<1x8x4096x16xf16>, tensor<1x8x4096x16xf16>, tensor<1x8x4096x16xf16>
        -> tensor<1x8x4096x16xf16>
    return %o : tensor<1x8x4096x16xf16>
  }
}

// -----

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"preset" = "sm_90">>} {
  func.func @user_tiling_too_many_registers(%q: tensor<1x8x4096x128xf16>) -> tensor<1x8x4096x128xf16> {
    // expected-error @+1 {{'fa.attention' op the tiling written on the op (128 x 128, 4 warps, 1 stage) needs about 432 registers per thread; sm_90 allows 255}}
    %o = fa.attention %q, %q, %q scale = 0.125
        tiling = <block_q = 128, block_kv = 128, warps = 4, stages = 1>
        : tensor<1x8x4096x128xf16>, tensor<1x8x4096x128xf16>, tensor<1x8x4096x128xf16>
        -> tensor<1x8x4096x128xf16>
    return %o : tensor<1x8x4096x128xf16>
  }
}

// -----

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"preset" = "tpu_v9">>} {
  func.func @unknown_dlti_preset(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
    // expected-error @+1 {{unknown target 'tpu_v9' (DLTI key "preset"); known targets: sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_120, gfx90a, gfx942, gfx950, host}}
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
        -> tensor<1x8x1024x64xf16>
    return %o : tensor<1x8x1024x64xf16>
  }
}

// -----

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"max_shared_memory_bytes" = "lots">>} {
  func.func @bad_dlti_value(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
    // expected-error @+1 {{DLTI key "max_shared_memory_bytes" must be a positive integer, got "lots"}}
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
        -> tensor<1x8x1024x64xf16>
    return %o : tensor<1x8x1024x64xf16>
  }
}

// -----

// A chip without a preset.
module {
  gpu.module @kernels [#nvvm.target<chip = "sm_50">] {
  }
  func.func @unknown_chip(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
    // expected-error @+1 {{unknown target 'sm_50' (#nvvm.target chip); known targets:}}
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
        -> tensor<1x8x1024x64xf16>
    return %o : tensor<1x8x1024x64xf16>
  }
}
