// The report's bandwidth bound: hbm_time_us_est is hbm_bytes_tiled_est over
// the preset's peak DRAM bandwidth, in µs to 0.1. A decode step (B = 8,
// Hq = 32 over Hkv = 4, Nk = 16384, d = 128, f16) reads K and V once,
// 268435456 bytes, and with its split workspace moves 273118208:
// 81.5 µs at an H100 SXM's 3350 GB/s, 135.4 µs at an A100's 2039. The
// host states no bandwidth: null.
// RUN: fa-opt %s --fa-select-tiles="target=sm_90a report=-" -o /dev/null | FileCheck %s --check-prefix=H100
// RUN: fa-opt %s --fa-select-tiles="target=sm_80 report=-" -o /dev/null | FileCheck %s --check-prefix=A100
// RUN: fa-opt %s --fa-select-tiles="target=host host-cache-bytes=1048576 report=-" -o /dev/null | FileCheck %s --check-prefix=HOST
// H100: "hbm_bytes_tiled_est":273118208
// H100-SAME: "hbm_time_us_est":81.5
// A100: "hbm_time_us_est":135.{{[0-9]}}
// HOST: "hbm_time_us_est":null
func.func @decode(%q: tensor<8x32x1x128xf16>, %k: tensor<8x4x16384x128xf16>, %v: tensor<8x4x16384x128xf16>) -> tensor<8x32x1x128xf16> {
  %o = fa.attention %q, %k, %v scale = 0.088 : tensor<8x32x1x128xf16>, tensor<8x4x16384x128xf16>, tensor<8x4x16384x128xf16> -> tensor<8x32x1x128xf16>
  return %o : tensor<8x32x1x128xf16>
}
