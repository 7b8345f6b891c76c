// The three policies and a tiling written by hand, on sm_90 with D = 64 f16
// and N = 4096 (docs/Sources.md §1: M = 227 KiB = 116224 f16 elements).
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 policy=fa1 report=-" | FileCheck %s --check-prefix=FA1
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 policy=fa2 report=-" | FileCheck %s --check-prefix=FA2
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 report=-" | FileCheck %s --check-prefix=AUTO
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 report=%t.jsonl" -o /dev/null && FileCheck %s --check-prefix=FILE < %t.jsonl

// FA1 states the formula, then how it rounded: B_c = ceil(116224 / 256) =
// 454 and B_r = min(454, 64) = 64, down to multiples of 16 (448), then
// smaller until the tensor-core kernel holds the 64 x B_c tile: its S and P
// live in each lane's registers (Bc / 2 + Bc / 4 of them), which bound B_c
// long before shared memory does; and 160 and 144 do not divide N = 4096,
// whose masked last block then costs registers too (ptxas spilled 76 and 8
// bytes there, issue 50), so B_c stops at 128.
// FA1: "policy":"fa1","block_q":64,"block_kv":128,"warps":4,"stages":1
// FA1-SAME: "fa1_bc":454,"fa1_br":64,"gpu_kernel":"mma.sync-registers"
// FA1-SAME: "why":"target sm_90 from the pass option; fa1: M = 116224 elements; B_c = ceil(M/4d) = 454, B_r = min(B_c, d) = 64; rounded down to multiples of 16: 64 x 448; shrunk to 64 x 128 to fit the registers and shared memory the kernel needs; no key splits: 1024 blocks fill the 264 that sm_90 runs at once (132 SMs x 2)"
// FA1: @plain
// FA1: tiling = <block_q = 64, block_kv = 128, warps = 4, stages = 1, smem_bytes =

// FA2: "policy":"fa2","block_q":128,"block_kv":64,"warps":4,"stages":1
// FA2-SAME: "fa1_bc":454,"fa1_br":64

// AUTO: "policy":"auto","block_q":128,"block_kv":64,"warps":4,"stages":1
// AUTO-SAME: "why":"target sm_90 from the pass option; auto is fa2: fa2 searched {{.*}}; fa1 would use 64 x 128, 4 warps, 1 stage

// The hand-written tiling wins and gets its shared memory filled in.
// AUTO: "policy":"user","block_q":64,"block_kv":64,"warps":4,"stages":2,"kv_splits":1,"pack_gqa":false,"smem_bytes":40960
// AUTO: @plain
// AUTO: @by_hand
// AUTO: tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2, smem_bytes = 40960>

// Every key of the report, one object per line.
// FILE: {"loc":{{.*}},"shape":{"batch":1,"heads":16,"kv_heads":16,"nq":4096,"nk":4096,"d":64,"dv":64},"dtype":"f16","target":"sm_90","policy":"auto","block_q":128,"block_kv":64,"warps":4,"stages":1,"kv_splits":1,"pack_gqa":false,"smem_bytes":{{[0-9]+}},"smem_limit":232448,"regs_per_thread_est":{{[0-9]+}},"occupancy_blocks_per_sm":{{[0-9]+}},"blocks":{{[0-9]+}},"workspace_bytes":0,"hbm_bytes_tiled_est":{{[0-9]+}},"hbm_bytes_unfused_est":{{[0-9]+}},"hbm_time_us_est":{{[0-9]+}}.{{[0-9]}},"fa1_bc":454,"fa1_br":64,"gpu_kernel":"mma.sync-registers","why":"{{.*}}"}
// FILE-NEXT: {"loc":{{.*}},"policy":"user"

func.func @plain(%q: tensor<1x16x4096x64xf16>) -> tensor<1x16x4096x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125
      : tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>
      -> tensor<1x16x4096x64xf16>
  return %o : tensor<1x16x4096x64xf16>
}

func.func @by_hand(%q: tensor<1x16x4096x64xf16>) -> tensor<1x16x4096x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125
      tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 2>
      : tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>
      -> tensor<1x16x4096x64xf16>
  return %o : tensor<1x16x4096x64xf16>
}
