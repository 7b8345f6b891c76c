// Split-KV: tile selection splits the keys where the grid cannot fill the
// chip (a decode step), and says why; full grids, short caches and the host
// are not split; splits written on the op are kept.
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 report=-" | FileCheck %s
// RUN: fa-opt %s --fa-select-tiles="target=host report=-" | FileCheck %s --check-prefix=HOST
// RUN: fa-opt %s --fa-select-tiles="target=host min-kv-splits=3 report=-" | FileCheck %s --check-prefix=RAISED
// RUN: not fa-opt %s --fa-select-tiles="min-kv-splits=129" 2>&1 | FileCheck %s --check-prefix=BAD
// A floor the choice already meets is not a raise (decode's 40 on sm_90):
// RUN: fa-opt %s --fa-select-tiles="target=sm_90 min-kv-splits=40 report=-" | FileCheck %s --check-prefix=MET
// MET: "nq":1,"nk":32768
// MET-SAME: "kv_splits":40,
// MET-NOT: key splits raised
// MET: "nq":4096,"nk":4096
// MET-SAME: key splits raised to 40 by the min-kv-splits option

// The report comes first (one line per op, in order), then the module.
//
// @decode: B = 1, Hq = Hkv = 32, Nq = 1, Nk = 32768, d = 128, f16: 32
// blocks for 132 SMs (with GQA, pack-gqa.mlir). Split 40 ways: 1280 blocks, each split about 26 of the
// 1024 key blocks.
// CHECK: "nq":1,"nk":32768
// CHECK-SAME: "block_q":16,"block_kv":32,"warps":1,"stages":1,"kv_splits":40,
// CHECK-SAME: "blocks":1280,"workspace_bytes":660480,
// CHECK-SAME: kv_splits = 40: 32 blocks would fill 2% of the 1452 that sm_90 runs at once (132 SMs x 11); splitting each query block's 1024 key blocks 40 ways (about 26 each) makes 1280 blocks
// @prefill fills the chip.
// CHECK-NEXT: "nq":4096,"nk":4096
// CHECK-SAME: "kv_splits":1,
// CHECK-SAME: "workspace_bytes":0,
// CHECK-SAME: no key splits: 512 blocks fill the
// @short_cache has too few key blocks to split.
// CHECK-NEXT: "nq":1,"nk":100
// CHECK-SAME: "kv_splits":1,
// CHECK-SAME: too few for two splits of 4
// @user_splits: the splits written on the op are the user's.
// CHECK-NEXT: "policy":"user","block_q":16,"block_kv":64,"warps":1,"stages":2,"kv_splits":7,
// CHECK-SAME: "blocks":224,"workspace_bytes":8064,
// CHECK-SAME: 7 key splits) wins
//
// CHECK-LABEL: func.func @decode
// CHECK: tiling = <block_q = 16, block_kv = 32, warps = 1, stages = 1, smem_bytes = 20480, kv_splits = 40>
// CHECK-LABEL: func.func @prefill
// CHECK: tiling = <block_q = {{[0-9]+}}, block_kv = {{[0-9]+}}, warps = {{[0-9]+}}, stages = {{[0-9]+}}, smem_bytes = {{[0-9]+}}>
// CHECK-LABEL: func.func @user_splits
// CHECK: kv_splits = 7>

// HOST: "nq":1,"nk":32768
// HOST-SAME: "kv_splits":1,
// HOST-SAME: no key splits: the host runs the grid's blocks one after another

// The testing aid forces splits where selection would not (the host).
// RAISED: "nq":1,"nk":32768
// RAISED-SAME: "kv_splits":3,
// RAISED-SAME: key splits raised to 3 by the min-kv-splits option
// RAISED: "policy":"user"
// RAISED-SAME: "kv_splits":7,

// BAD: error: min-kv-splits must be 0 (as chosen) or a number of key splits up to 128, got 129

func.func @decode(%q: tensor<1x32x1x128xf16>, %k: tensor<1x32x32768x128xf16>, %v: tensor<1x32x32768x128xf16>) -> tensor<1x32x1x128xf16> {
  %o = fa.attention %q, %k, %v scale = 0.08838834764831845 : tensor<1x32x1x128xf16>, tensor<1x32x32768x128xf16>, tensor<1x32x32768x128xf16> -> tensor<1x32x1x128xf16>
  return %o : tensor<1x32x1x128xf16>
}

func.func @prefill(%q: tensor<1x16x4096x64xf16>) -> tensor<1x16x4096x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125 : tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16>, tensor<1x16x4096x64xf16> -> tensor<1x16x4096x64xf16>
  return %o : tensor<1x16x4096x64xf16>
}

func.func @short_cache(%q: tensor<1x32x1x128xf16>, %k: tensor<1x32x100x128xf16>) -> tensor<1x32x1x128xf16> {
  %o = fa.attention %q, %k, %k scale = 0.125 : tensor<1x32x1x128xf16>, tensor<1x32x100x128xf16>, tensor<1x32x100x128xf16> -> tensor<1x32x1x128xf16>
  return %o : tensor<1x32x1x128xf16>
}

func.func @user_splits(%q: tensor<1x32x1x8xf16>, %k: tensor<1x8x1000x8xf16>) -> tensor<1x32x1x8xf16> {
  %o = fa.attention %q, %k, %k scale = 0.125 tiling = <block_q = 16, block_kv = 64, warps = 1, stages = 2, kv_splits = 7> : tensor<1x32x1x8xf16>, tensor<1x8x1000x8xf16>, tensor<1x8x1000x8xf16> -> tensor<1x32x1x8xf16>
  return %o : tensor<1x32x1x8xf16>
}
