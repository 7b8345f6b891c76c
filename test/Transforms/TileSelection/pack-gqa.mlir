// Grouped-query packing: tile selection packs the query heads of each
// key/value head into one block's rows where that is exact and reads K and
// V fewer times; it keeps them apart where packing gains nothing or is not
// exact. The lowerings pack before they tile.
// RUN: fa-opt %s --split-input-file --fa-select-tiles="target=sm_90 report=-" | FileCheck %s
// RUN: fa-opt %s --split-input-file --fa-select-tiles=target=sm_90 --fa-tile-attention | FileCheck %s --check-prefix=TILED

// A decode step with GQA (4 query heads per key/value head): packed, the 8
// blocks read each K/V tile once for 4 heads, 132 MiB instead of 514 MiB
// (reading K and V once is 128 MiB), split 114 ways.
// CHECK: "nq":1,"nk":32768
// CHECK-SAME: "block_q":16,"block_kv":32,"warps":1,"stages":1,"kv_splits":114,"pack_gqa":true,
// CHECK-SAME: "blocks":912,
// CHECK-SAME: packing the 4 query heads of each key/value head into one block's rows (pack_gqa) reads K and V once per group: 132.49 MiB of HBM traffic instead of 513.58 MiB, with 16 x 32, 1 warp, 1 stage for the 8 packed heads; kv_splits = 114
// CHECK-LABEL: func.func @decode_gqa
// CHECK: kv_splits = 114, pack_gqa = true>
// TILED-LABEL: func.func @decode_gqa
// TILED: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 8, 4, 1, 128] : tensor<1x32x1x128xf16> into tensor<1x8x4x1x128xf16>
// TILED: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3], [4]] : tensor<1x8x4x1x128xf16> into tensor<1x8x4x128xf16>
// TILED: scf.forall
// TILED: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x8x4x1x128xf16> into tensor<1x32x1x128xf16>
// TILED-NOT: fa.attention
func.func @decode_gqa(%q: tensor<1x32x1x128xf16>, %k: tensor<1x8x32768x128xf16>, %v: tensor<1x8x32768x128xf16>) -> tensor<1x32x1x128xf16> {
  %o = fa.attention %q, %k, %v scale = 0.08838834764831845 causal = bottom_right : tensor<1x32x1x128xf16>, tensor<1x8x32768x128xf16>, tensor<1x8x32768x128xf16> -> tensor<1x32x1x128xf16>
  return %o : tensor<1x32x1x128xf16>
}

// -----

// Prefill with GQA: packing gives the same blocks the same keys; not packed.
// CHECK: "nq":2048,"nk":2048
// CHECK-SAME: "pack_gqa":false,
// CHECK-SAME: packing the 4 query heads of each key/value head (pack_gqa) would not cost less
func.func @prefill_gqa(%q: tensor<1x16x2048x64xf16>, %k: tensor<1x4x2048x64xf16>) -> tensor<1x16x2048x64xf16> {
  %o = fa.attention %q, %k, %k scale = 0.125 : tensor<1x16x2048x64xf16>, tensor<1x4x2048x64xf16>, tensor<1x4x2048x64xf16> -> tensor<1x16x2048x64xf16>
  return %o : tensor<1x16x2048x64xf16>
}

// -----

// A window depends on each row's position: never packed, nothing said.
// CHECK: "nq":1,"nk":32768
// CHECK-SAME: "pack_gqa":false,
// CHECK-NOT: pack_gqa)
func.func @decode_window(%q: tensor<1x32x1x128xf16>, %k: tensor<1x8x32768x128xf16>) -> tensor<1x32x1x128xf16> {
  %o = fa.attention %q, %k, %k scale = 0.125 window = <left = 4096, right = 0, align = bottom_right> : tensor<1x32x1x128xf16>, tensor<1x8x32768x128xf16>, tensor<1x8x32768x128xf16> -> tensor<1x32x1x128xf16>
  return %o : tensor<1x32x1x128xf16>
}

// -----

// A decode step with one key/value head for 32 query heads (MQA) over a
// short cache: unpacked, the split grid would have more blocks and cost
// less by the model, but each block's 16 rows would hold one query row.
// Packed (FlashAttention-3's rule: the unpacked rows are under 90% as full
// as the packed ones), the 32 heads fill a 32-row block and K and V are
// read once; two splits' partial rows would already move more than 1/16
// of K and V's bytes, so the block walks all keys.
// CHECK: "nq":1,"nk":1024
// CHECK-SAME: "kv_splits":1,"pack_gqa":true,
// CHECK-SAME: and fills 100% of a block's rows instead of 6% (FlashAttention-3's rule: pack where the unpacked rows are under 90% as full)
// CHECK-SAME: no key splits: 1 block fills under 1% of the {{[0-9]+}} that sm_90 runs at once, but two splits' partial rows would move more than 1/16 of K and V's bytes
func.func @decode_mqa(%q: tensor<1x32x1x128xf16>, %k: tensor<1x1x1024x128xf16>, %v: tensor<1x1x1024x128xf16>) -> tensor<1x32x1x128xf16> {
  %o = fa.attention %q, %k, %v scale = 0.08838834764831845 : tensor<1x32x1x128xf16>, tensor<1x1x1024x128xf16>, tensor<1x1x1024x128xf16> -> tensor<1x32x1x128xf16>
  return %o : tensor<1x32x1x128xf16>
}
