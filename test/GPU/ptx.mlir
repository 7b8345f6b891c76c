// fa-gpu-pipeline to PTX: 16-byte global loads into shared memory, barriers,
// shared-memory reads, tensor cores (f16 on sm_80: ldmatrix, ldmatrix.trans
// for V, mma.sync m16n8k16 with f32 accumulators), f32 FMAs for the
// accumulator updates and ex2.approx for the exponentials.
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa" > %t
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=GLOBAL < %t
// RUN: FileCheck %s --check-prefix=OUTPUT < %t
// RUN: FileCheck %s --check-prefix=SHARED < %t
// RUN: FileCheck %s --check-prefix=BARRIER < %t
// RUN: FileCheck %s --check-prefix=FMA < %t
// RUN: FileCheck %s --check-prefix=EXP < %t
// RUN: FileCheck %s --check-prefix=MMA < %t
// RUN: grep "gpu.binary @split_rows_kernel" %t | FileCheck %s --check-prefix=SHUFFLE
// RUN: grep "gpu.binary @static_tiles_kernel" %t | FileCheck %s --check-prefix=STATIC

// CHECK: gpu.launch_func @attention_kernel::@attention_kernel
// CHECK-SAME: dynamic_shared_memory_size
// CHECK: gpu.binary @attention_kernel
// CHECK-SAME: #nvvm.target<chip = "sm_80", features = "+ptx80">
// CHECK-SAME: .target sm_80
// CHECK-SAME: .entry attention_kernel
// GLOBAL: ld.global.v4
// O is written 8 bytes at a time: the tensor-core kernel keeps each 16-byte
// slice of its accumulator in the thread's half order (docs/GPU.md).
// OUTPUT: st.global.v2.b32
// SHARED: st.shared.v4
// Fragment stores, 8 bytes each, then thread rows read 16 bytes at a time.
// SHARED-SAME: st.shared.v2.b32
// SHARED-SAME: ld.shared.v4
// BARRIER: bar.sync
// FMA: fma.rn.f32
// EXP: ex2.approx
// MMA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// MMA-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MMA-SAME: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// MMA-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// 64 rows over 4 warps: two threads per row, which combine the row's max
// and sum with a butterfly shuffle (shfl.sync.bfly) each. (The PTX is one
// escaped line: \09 is a tab.)
// SHUFFLE: mma.sync.aligned.m16n8k16
// SHUFFLE: shfl.sync.bfly.b32 \09[[M:%r[0-9]+]], {{%r[0-9]+}}, 1, 31, -1;
// SHUFFLE: max.NaN.f32 \09{{%r[0-9]+}}, {{%r[0-9]+}}, [[M]];
// SHUFFLE: ex2.approx
// SHUFFLE: shfl.sync.bfly.b32 \09[[S:%r[0-9]+]], {{%r[0-9]+}}, 1, 31, -1;
// SHUFFLE: add.rn.f32 \09{{%r[0-9]+}}, {{%r[0-9]+}}, [[S]];
// Tiles under 48 KB are static shared memory; the kernel reads them 16
// bytes at a time, so each is 16-byte aligned (fa-align-workgroup-buffers;
// upstream would give the f16 tiles .align 2).
// STATIC-COUNT-5: .shared .align 16 .b8 __wg_static_tiles_kernel_
// STATIC: ld.shared.v4
func.func @static_tiles(%q: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125 tiling = <block_q = 64, block_kv = 16, warps = 4, stages = 1> : tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf16>
  return %o : tensor<1x2x64x32xf16>
}

func.func @split_rows(%q: tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16> {
  %o = fa.attention %q, %q, %q scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 1> : tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16> -> tensor<2x8x1024x64xf16>
  return %o : tensor<2x8x1024x64xf16>
}

func.func @attention(%q: tensor<2x8x1024x64xf16>, %k: tensor<2x8x1024x64xf16>, %v: tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = top_left : tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16> -> tensor<2x8x1024x64xf16>
  return %o : tensor<2x8x1024x64xf16>
}
