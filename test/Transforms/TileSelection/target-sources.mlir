// Where the target comes from, first to last: the pass option, the module's
// DLTI (a preset, single keys over it, or a whole #fa.target), a
// gpu.module's #nvvm.target chip, and the default (sm_80).
// RUN: fa-opt %s -split-input-file --fa-select-tiles="report=-" | FileCheck %s
// RUN: fa-opt %s -split-input-file --fa-select-tiles="target=sm_75 report=-" | FileCheck %s --check-prefix=OPTION

// OPTION-COUNT-5: "target":"sm_75"
// OPTION-NOT: "target":"sm_

// Nothing names a target: the default.
// CHECK: "target":"sm_80"
// CHECK-SAME: "why":"target sm_80 from the default;
func.func @default(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125
      : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
      -> tensor<1x8x1024x64xf16>
  return %o : tensor<1x8x1024x64xf16>
}

// -----

// A DLTI preset, with the per-block limit lowered to 48 KiB (static shared
// memory only): the smem limit and the tile follow.
// CHECK: "target":"sm_86+dlti"
// CHECK-SAME: "smem_limit":49152
// CHECK-SAME: "why":"target sm_86+dlti from DLTI preset;
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"preset" = "sm_86", "max_shared_memory_bytes" = 49152 : i64>>} {
  func.func @dlti_preset(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
        -> tensor<1x8x1024x64xf16>
    return %o : tensor<1x8x1024x64xf16>
  }
}

// -----

// A whole target description in DLTI.
// CHECK: "target":"my_npu"
// CHECK-SAME: "smem_limit":32768
// CHECK-SAME: "why":"target my_npu from DLTI fa.target;
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"fa.target" = #fa.target<name = "my_npu",
      smem_per_block = 32768, smem_per_sm = 65536, regs_per_sm = 65536,
      regs_per_thread = 255, max_threads_per_block = 1024,
      max_threads_per_sm = 2048, warp_size = 32, sm_count = 16,
      mma = ["m16n8k16"]>>>} {
  func.func @dlti_target(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
        -> tensor<1x8x1024x64xf16>
    return %o : tensor<1x8x1024x64xf16>
  }
}

// -----

// No DLTI: the chip of the module's gpu.module target.
// CHECK: "target":"sm_90a"
// CHECK-SAME: "why":"target sm_90a from #nvvm.target;
module {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  }
  func.func @nvvm_chip(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
        -> tensor<1x8x1024x64xf16>
    return %o : tensor<1x8x1024x64xf16>
  }
}

// -----

// DLTI wins over #nvvm.target.
// CHECK: "target":"gfx950"
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" =
    #dlti.target_device_spec<"preset" = "gfx950">>} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  }
  func.func @dlti_over_nvvm(%q: tensor<1x8x1024x64xf16>) -> tensor<1x8x1024x64xf16> {
    %o = fa.attention %q, %q, %q scale = 0.125
        : tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>, tensor<1x8x1024x64xf16>
        -> tensor<1x8x1024x64xf16>
    return %o : tensor<1x8x1024x64xf16>
  }
}
