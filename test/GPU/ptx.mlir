// fa-gpu-pipeline to PTX: 16-byte global loads into shared memory, barriers,
// tensor cores (f16 on sm_80: ldmatrix for Q and K, ldmatrix.trans for V,
// mma.sync m16n8k16 with f32 accumulators), the row statistics combined
// over a quad with butterfly shuffles, ex2.approx.ftz for the exponentials
// (FlashAttention-2's: no accurate-exp sequence, whose fma.rm would show).
// REQUIRES: nvptx
// RUN: fa-opt %s --fa-gpu-pipeline="chip=sm_80 format=isa" > %t
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=GLOBAL < %t
// RUN: FileCheck %s --check-prefix=OUTPUT < %t
// RUN: FileCheck %s --check-prefix=SHARED < %t
// RUN: FileCheck %s --check-prefix=BARRIER < %t
// RUN: FileCheck %s --check-prefix=EXP < %t
// RUN: FileCheck %s --check-prefix=MMA < %t
// RUN: grep "gpu.binary @split_rows_kernel" %t | FileCheck %s --check-prefix=SHUFFLE
// RUN: grep "gpu.binary @static_tiles_kernel" %t | FileCheck %s --check-prefix=STATIC

// CHECK: gpu.launch_func @attention_kernel::@attention_kernel
// CHECK: gpu.binary @attention_kernel
// CHECK-SAME: #nvvm.target<chip = "sm_80", features = "+ptx80">
// CHECK-SAME: .target sm_80
// CHECK-SAME: .entry attention_kernel
// GLOBAL: ld.global.v4
// O is written from the mma.sync fragments: each lane holds two adjacent
// columns of a row, 4 bytes.
// OUTPUT: st.global.b32
// The copies store 16 bytes per thread; every shared read is an ldmatrix.
// SHARED: st.shared.v4
// SHARED-NOT: ld.shared
// BARRIER: bar.sync
// EXP: ex2.approx.ftz.f32
// EXP-NOT: fma.rm
// MMA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// MMA-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MMA-SAME: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// MMA-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// 64 rows over 4 warps, one 16-row fragment row each: the four lanes of a
// quad hold a row's columns and combine its max with two butterfly
// shuffles (distance 1, then 2); the sum is combined once, after the key
// loop. (The PTX is one escaped line: \09 is a tab; LLVM places the
// rotated loop's softmax before its first mma.sync.)
// SHUFFLE: shfl.sync.bfly.b32 \09[[M:%r[0-9]+]], {{%r[0-9]+}}, 1, 31, -1;
// SHUFFLE: max.NaN.f32 \09{{%r[0-9]+}}, {{%r[0-9]+}}, [[M]];
// SHUFFLE: shfl.sync.bfly.b32 \09[[M2:%r[0-9]+]], {{%r[0-9]+}}, 2, 31, -1;
// SHUFFLE: max.NaN.f32 \09{{%r[0-9]+}}, {{%r[0-9]+}}, [[M2]];
// SHUFFLE: ex2.approx
// SHUFFLE: mma.sync.aligned.m16n8k16
// SHUFFLE: shfl.sync.bfly.b32 \09[[S:%r[0-9]+]], {{%r[0-9]+}}, 1, 31, -1;
// SHUFFLE: add.rn.f32 \09{{%r[0-9]+}}, {{%r[0-9]+}}, [[S]];
// SHUFFLE: shfl.sync.bfly.b32 \09[[S2:%r[0-9]+]], {{%r[0-9]+}}, 2, 31, -1;
// SHUFFLE: add.rn.f32 \09{{%r[0-9]+}}, {{%r[0-9]+}}, [[S2]];
// Tiles under 48 KB are static shared memory; the kernel copies into them
// 16 bytes at a time, so each is 16-byte aligned
// (fa-align-workgroup-buffers; upstream would give the f16 tiles .align 2).
// Only Q, K and V are shared.
// STATIC-COUNT-3: .shared .align 16 .b8 __wg_static_tiles_kernel_
// STATIC-NOT: .shared .align
// STATIC: ldmatrix
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
