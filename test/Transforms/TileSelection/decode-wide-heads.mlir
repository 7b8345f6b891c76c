// Decode at d = 256: the one-warp kernel's registers leave room for key
// splits only where every key block is whole and unmasked and the splits
// share the blocks evenly (ptxas, CUDA 13: 221 to 241 registers with such
// splits on sm_80 to sm_120; 254 to 255 with a masked block, and spills on
// Blackwell; docs/Targets.md). With per-sequence lengths the last block of
// each sequence is masked at run time: the step runs unsplit, and says why.
// RUN: fa-opt %s --fa-select-tiles="target=sm_90a report=-" -o /dev/null | FileCheck %s
// RUN: fa-opt %s --fa-select-tiles="target=sm_100 report=-" -o /dev/null | FileCheck %s --check-prefix=B200

// CHECK: "nq":1,"nk":16384
// CHECK-SAME: "block_q":16,"block_kv":16,"warps":1,"stages":{{[23]}},"kv_splits":{{(2|4|8|16|32|64|128)}},"pack_gqa":true,
// CHECK-NEXT: "nq":1,"nk":16384
// CHECK-SAME: "kv_splits":1,"pack_gqa":true,
// CHECK-SAME: no key splits: split, the kernel would need about 258 registers per thread, more than sm_90a gives it
// B200: "nq":1,"nk":16384
// B200-SAME: "kv_splits":{{(2|4|8|16|32|64|128)}},"pack_gqa":true,
// B200-NEXT: "kv_splits":1,"pack_gqa":true,
func.func @whole(%q: tensor<1x32x1x256xf16>, %k: tensor<1x8x16384x256xf16>, %v: tensor<1x8x16384x256xf16>) -> tensor<1x32x1x256xf16> {
  %o = fa.attention %q, %k, %v scale = 0.0625 : tensor<1x32x1x256xf16>, tensor<1x8x16384x256xf16>, tensor<1x8x16384x256xf16> -> tensor<1x32x1x256xf16>
  return %o : tensor<1x32x1x256xf16>
}

func.func @lengths(%q: tensor<1x32x1x256xf16>, %k: tensor<1x8x16384x256xf16>, %v: tensor<1x8x16384x256xf16>, %len: tensor<1xi32>) -> tensor<1x32x1x256xf16> {
  %o = fa.attention %q, %k, %v kv_lengths(%len : tensor<1xi32>) scale = 0.0625 : tensor<1x32x1x256xf16>, tensor<1x8x16384x256xf16>, tensor<1x8x16384x256xf16> -> tensor<1x32x1x256xf16>
  return %o : tensor<1x32x1x256xf16>
}
