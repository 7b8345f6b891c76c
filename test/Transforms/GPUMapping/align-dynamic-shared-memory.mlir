// fa-align-dynamic-shared-memory: a module whose kernels issue wgmma gets
// its dynamic shared memory on a 1024-byte boundary (where the 128-byte
// swizzle's pattern starts); other modules keep upstream's 16 bytes.
// RUN: fa-opt %s --pass-pipeline='builtin.module(gpu.module(fa-align-dynamic-shared-memory))' | FileCheck %s

// CHECK-LABEL: gpu.module @hopper
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64}
gpu.module @hopper {
  llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @kernel(%d: i64, %c: f32) -> f32 {
    %r = llvm.inline_asm has_side_effects "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0}, $1, $1, p, 1, 1, 0, 0;", "=f,l,0" %d, %c : (i64, f32) -> f32
    llvm.return %r : f32
  }
}

// CHECK-LABEL: gpu.module @ampere
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64}
gpu.module @ampere {
  llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @kernel(%c: f32) -> f32 {
    %r = llvm.inline_asm has_side_effects "mov.f32 $0, $1;", "=f,f" %c : (f32) -> f32
    llvm.return %r : f32
  }
}
