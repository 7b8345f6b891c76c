// fa-warp-matmuls-to-nvgpu: the kernel's warp-level matmuls become ldmatrix
// (.trans for the transposed V read) and mma.sync, while the scalar code of
// the same kernel stays as it is.
// RUN: fa-opt %s --fa-warp-matmuls-to-nvgpu | FileCheck %s
// Upstream's pass gives up on the first kernel because of its scalar divui:
// the reason this pass converts each contraction's slice on its own.
// RUN: not mlir-opt %s --convert-vector-to-gpu=use-nvgpu=true 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: unhandled vector to mma type: {{.*}}arith.divui

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#vt = affine_map<(d0, d1) -> (d1, d0)>
#tile = affine_map<(d0) -> ((d0 floordiv 32) * 16)>

// CHECK-LABEL: gpu.func @kernel
// CHECK: %[[A:.*]] = nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: %[[B:.*]] = nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = false}
// CHECK: %[[BT:.*]] = nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = true}
// CHECK: %[[C:.*]] = nvgpu.mma.sync(%[[A]], %[[B]], %{{.*}}) {mmaShape = [16, 8, 16]}
// CHECK: %[[D:.*]] = nvgpu.mma.sync(%[[A]], %[[BT]], %[[C]]) {mmaShape = [16, 8, 16]}
// Each lane stores its two rows of the 16 x 8 result, 8 bytes each, which
// the pass states (the tile starts at an even column of even-length f32
// rows): LLVM would otherwise split what it cannot prove aligned into 4-byte
// stores.
// CHECK-COUNT-2: vector.store {{.*}} {alignment = 8 : i64} : memref<64x72xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: gpu.barrier
// CHECK: arith.divui
// CHECK: arith.mulf {{.*}} : f32
// CHECK-NOT: vector.contract
// CHECK-NOT: vector.transfer_read
gpu.module @kernels {
  gpu.func @kernel(%scale: f32, %out: memref<64xf32>)
      workgroup(%q: memref<64x72xf16, #gpu.address_space<workgroup>>,
                %v: memref<64x72xf16, #gpu.address_space<workgroup>>,
                %s: memref<64x72xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %pad = arith.constant 0.0 : f16
    %zero = arith.constant dense<0.0> : vector<16x8xf32>
    %t = gpu.thread_id x
    %row = affine.apply #tile(%t)
    %lhs = vector.transfer_read %q[%row, %c0], %pad {in_bounds = [true, true]} : memref<64x72xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
    %k = vector.transfer_read %q[%c8, %c0], %pad {in_bounds = [true, true]} : memref<64x72xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
    %vt = vector.transfer_read %v[%c16, %c8], %pad {in_bounds = [true, true], permutation_map = #vt} : memref<64x72xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
    %acc0 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %k, %zero : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
    %acc1 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %vt, %acc0 : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
    vector.transfer_write %acc1, %s[%row, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x72xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    // Scalar softmax-like work in the same kernel.
    %w = arith.divui %t, %c32 : index
    %x = memref.load %s[%t, %w] : memref<64x72xf32, #gpu.address_space<workgroup>>
    %y = arith.mulf %x, %scale : f32
    memref.store %y, %out[%t] : memref<64xf32>
    gpu.return
  }
}

// bf16: upstream's conversion has no bf16 fragments, so the pass converts the
// slice through a transient f16 view and retypes what comes out: ldmatrix
// reads the bf16 buffers themselves and mma.sync multiplies bf16. No view
// (unrealized cast) or f16 fragment is left.
// CHECK-LABEL: gpu.func @bf16_kernel
// CHECK-NOT: unrealized_conversion_cast
// CHECK: %[[A:.*]] = nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: %[[B:.*]] = nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = false} : memref<64x72xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
// CHECK: %[[BT:.*]] = nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = true} : memref<64x72xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
// CHECK: %[[C:.*]] = nvgpu.mma.sync(%[[A]], %[[B]], %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: nvgpu.mma.sync(%[[A]], %[[BT]], %[[C]]) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-2: vector.store {{.*}} {alignment = 8 : i64} : memref<64x72xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NOT: xf16
// CHECK-NOT: unrealized_conversion_cast
// CHECK: gpu.return
gpu.module @bf16_kernels {
  gpu.func @bf16_kernel(%scale: f32, %out: memref<64xf32>)
      workgroup(%q: memref<64x72xbf16, #gpu.address_space<workgroup>>,
                %v: memref<64x72xbf16, #gpu.address_space<workgroup>>,
                %s: memref<64x72xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %pad = arith.constant 0.0 : bf16
    %zero = arith.constant dense<0.0> : vector<16x8xf32>
    %t = gpu.thread_id x
    %row = affine.apply #tile(%t)
    %lhs = vector.transfer_read %q[%row, %c0], %pad {in_bounds = [true, true]} : memref<64x72xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    %k = vector.transfer_read %q[%c8, %c0], %pad {in_bounds = [true, true]} : memref<64x72xbf16, #gpu.address_space<workgroup>>, vector<8x16xbf16>
    %vt = vector.transfer_read %v[%c16, %c8], %pad {in_bounds = [true, true], permutation_map = #vt} : memref<64x72xbf16, #gpu.address_space<workgroup>>, vector<8x16xbf16>
    %acc0 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %k, %zero : vector<16x16xbf16>, vector<8x16xbf16> into vector<16x8xf32>
    %acc1 = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %vt, %acc0 : vector<16x16xbf16>, vector<8x16xbf16> into vector<16x8xf32>
    vector.transfer_write %acc1, %s[%row, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x72xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// A tile written from an odd column: its fragment stores are only 4-byte
// aligned, and the pass claims nothing.
// CHECK-LABEL: gpu.func @odd_column
// CHECK-COUNT-2: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x72xf32, #gpu.address_space<workgroup>>, vector<2xf32>
gpu.module @odd_column_kernels {
  gpu.func @odd_column(%q: memref<64x72xf16, #gpu.address_space<workgroup>>,
                       %s: memref<64x72xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f16
    %zero = arith.constant dense<0.0> : vector<16x8xf32>
    %lhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
    %rhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
    %acc = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %zero : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
    vector.transfer_write %acc, %s[%c0, %c1] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x72xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
