// 2^32 causal query rows on the host (64-bit indices): the cost model
// neither overflows nor walks 2^26 query blocks one by one (it samples), and
// the report's byte counts stay positive.
// RUN: fa-opt %s --fa-select-tiles="target=host report=-" | FileCheck %s
// CHECK: "nq":4294967296
// CHECK-SAME: "hbm_bytes_tiled_est":{{[1-9][0-9]*}},"hbm_bytes_unfused_est":{{[1-9][0-9]*}}
// CHECK: tiling = <block_q =
func.func @huge(%q: tensor<1x1x4294967296x64xf16>) -> tensor<1x1x4294967296x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125 causal = bottom_right
      : tensor<1x1x4294967296x64xf16>, tensor<1x1x4294967296x64xf16>, tensor<1x1x4294967296x64xf16>
      -> tensor<1x1x4294967296x64xf16>
  return %o : tensor<1x1x4294967296x64xf16>
}
