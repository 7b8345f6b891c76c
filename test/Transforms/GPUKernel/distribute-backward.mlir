// fa-distribute-attention-backward: with `deterministic`, three grids in
// order (D, dK/dV, dQ), each a #gpu.block forall around a #gpu.thread
// forall; the gradient kernels hold their tiles in workgroup memory and
// multiply on mma.sync fragments. Without it (@f16_atomic), D also zeroes
// dQ's f32 sum, the dK/dV kernel adds dS K to it with atomics (dS^T
// through workgroup memory), and a last grid rounds it into dQ. An op the kernels cannot take (f32 here) is left for
// fa-tile-attention-backward with require-kernel=false.
// RUN: fa-opt %s "--fa-distribute-attention-backward=require-kernel=false" | FileCheck %s

// CHECK-LABEL: func.func @f16
// CHECK-NOT: fa.attention_backward
// D = rowsum(dO O): 128 threads, no shared memory.
// CHECK: scf.forall ({{.*}}) in (1, 4, %{{.*}})
// CHECK: scf.forall {{.*}} in (128)
// CHECK: vector.reduction <add>
// CHECK: mapping = [#gpu.thread<x>]
// CHECK: mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]
// dK, dV: a block per (batch, kv head, 64-key block), 4 warps over its keys;
// K, V resident, Q and dO in 2 buffers (cp.async).
// CHECK: memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x32x32xf16, #gpu.address_space<workgroup>>
// CHECK: scf.forall {{.*}} in (128)
// CHECK: nvgpu.device_async_copy
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait {{.*}} {numGroups = 1 : i32}
// CHECK: gpu.barrier
// CHECK: nvgpu.mma.sync
// CHECK: math.exp
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvgpu.mma.sync
// CHECK: gpu.barrier
// dQ: a block per (batch, head, 32-query block): 2 warps own 16 rows each.
// CHECK: memref.alloc() : memref<32x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x64x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x64x32xf16, #gpu.address_space<workgroup>>
// CHECK: scf.forall {{.*}} in (64)
// CHECK: nvgpu.mma.sync
// CHECK-LABEL: func.func @f16_atomic
// CHECK: memref.alloc() : memref<1x4x100x64xf32>
// D, and dQacc's rows zeroed.
// CHECK: scf.forall {{.*}} in (128)
// CHECK: vector.reduction <add>
// CHECK: vector.store %{{.*}} : memref<1x4x100x64xf32>, vector<4xf32>
// dK, dV and dS^T [64 keys][32 queries], read through a flat view.
// CHECK: memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2x32x32xf16, #gpu.address_space<workgroup>>
// CHECK: %[[DST:.*]] = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: memref.collapse_shape %[[DST]] {{\[\[}}0, 1]]
// CHECK: scf.forall {{.*}} in (128)
// CHECK: scf.for
// CHECK: nvgpu.mma.sync
// CHECK: vector.store %{{.*}}, %[[DST]]
// CHECK: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: nvgpu.mma.sync
// CHECK: memref.atomic_rmw addf
// CHECK: gpu.barrier
// dQ = scale dQacc, rounded: no tensor cores.
// CHECK: scf.forall {{.*}} in (128)
// CHECK-NOT: nvgpu.mma.sync
// CHECK: arith.truncf {{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: func.func @f32
// CHECK: fa.attention_backward

func.func @f16(%q: tensor<1x4x100x64xf16>, %k: tensor<1x2x90x64xf16>,
    %v: tensor<1x2x90x32xf16>, %o: tensor<1x4x100x32xf16>,
    %do: tensor<1x4x100x32xf16>, %l: tensor<1x4x100xf32>)
    -> (tensor<1x4x100x64xf16>, tensor<1x2x90x64xf16>, tensor<1x2x90x32xf16>) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %l scale = 0.125 causal = top_left deterministic
      tiling = <block_q = 32, block_kv = 64, warps = 4, stages = 2>
      : tensor<1x4x100x64xf16>, tensor<1x2x90x64xf16>, tensor<1x2x90x32xf16>,
        tensor<1x4x100x32xf16>, tensor<1x4x100x32xf16>, tensor<1x4x100xf32>
      -> tensor<1x4x100x64xf16>, tensor<1x2x90x64xf16>, tensor<1x2x90x32xf16>
  return %dq, %dk, %dv : tensor<1x4x100x64xf16>, tensor<1x2x90x64xf16>, tensor<1x2x90x32xf16>
}

func.func @f16_atomic(%q: tensor<1x4x100x64xf16>, %k: tensor<1x2x90x64xf16>,
    %v: tensor<1x2x90x32xf16>, %o: tensor<1x4x100x32xf16>,
    %do: tensor<1x4x100x32xf16>, %l: tensor<1x4x100xf32>)
    -> (tensor<1x4x100x64xf16>, tensor<1x2x90x64xf16>, tensor<1x2x90x32xf16>) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %l scale = 0.125 causal = top_left
      tiling = <block_q = 32, block_kv = 64, warps = 4, stages = 2>
      : tensor<1x4x100x64xf16>, tensor<1x2x90x64xf16>, tensor<1x2x90x32xf16>,
        tensor<1x4x100x32xf16>, tensor<1x4x100x32xf16>, tensor<1x4x100xf32>
      -> tensor<1x4x100x64xf16>, tensor<1x2x90x64xf16>, tensor<1x2x90x32xf16>
  return %dq, %dk, %dv : tensor<1x4x100x64xf16>, tensor<1x2x90x64xf16>, tensor<1x2x90x32xf16>
}

func.func @f32(%q: tensor<1x1x64x64xf32>, %l: tensor<1x1x64xf32>)
    -> (tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>) {
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %l scale = 0.125
      tiling = <block_q = 32, block_kv = 32, warps = 2, stages = 1>
      : tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>,
        tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64xf32>
      -> tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>
  return %dq, %dk, %dv : tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>
}
