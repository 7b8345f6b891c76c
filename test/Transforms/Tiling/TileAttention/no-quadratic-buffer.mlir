// Nq = Nk = 16384 with a full [16384, 16384] bias: after tiling and
// bufferization, every buffer the lowering allocates is tile-sized (with
// 128 x 128 tiles split over 4 warps: [32, 128] scores, [128, 64] K and V
// tiles, [32, 64] accumulators, [32] statistics) besides the outputs;
// nothing of Nq x Nk is allocated, and the bias is read tile by tile in place.
// RUN: fa-opt %s --fa-tile-attention --canonicalize \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s

// CHECK-LABEL: func.func @long
// The two outputs are the only allocations with an Nq- or Nk-sized dim:
// no [Nq, Nk] buffer and no [block_q, Nk] panel either, and no allocation
// of a size known only at run time (which could be one).
// CHECK-NOT: memref.alloc
// CHECK: memref.alloc() {{.*}} : memref<1x2x16384x64xf16>
// CHECK-NOT: memref.alloc
// CHECK: memref.alloc() {{.*}} : memref<1x2x16384xf32>
// CHECK-NOT: memref.alloc{{.*}}16384
// CHECK-NOT: memref.alloc(%
// CHECK: memref.subview %{{.*}} : memref<1x1x16384x16384xf16{{.*}}> to memref<?x?xf16
// CHECK-NOT: memref.alloc{{.*}}16384
// CHECK-NOT: memref.alloc(%
// CHECK: memref.alloc() {{.*}} : memref<32x128xf32>
// CHECK-NOT: memref.alloc{{.*}}16384
// CHECK-NOT: memref.alloc(%
// CHECK: return
func.func @long(%q: tensor<1x2x16384x64xf16>, %k: tensor<1x2x16384x64xf16>,
                %v: tensor<1x2x16384x64xf16>, %bias: tensor<1x1x16384x16384xf16>)
    -> (tensor<1x2x16384x64xf16>, tensor<1x2x16384xf32>) {
  %o, %l = fa.attention %q, %k, %v mask(%bias : tensor<1x1x16384x16384xf16>)
      scale = 0.125 causal = bottom_right
      tiling = <block_q = 128, block_kv = 128, warps = 4, stages = 1>
      : tensor<1x2x16384x64xf16>, tensor<1x2x16384x64xf16>, tensor<1x2x16384x64xf16>
      -> tensor<1x2x16384x64xf16>, tensor<1x2x16384xf32>
  return %o, %l : tensor<1x2x16384x64xf16>, tensor<1x2x16384xf32>
}
