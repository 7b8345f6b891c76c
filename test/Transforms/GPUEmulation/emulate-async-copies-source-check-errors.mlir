// The cp.async source check (fa-emulate-threads-on-cpu,
// check-async-sources) reports through libc's stderr, fprintf and exit: a
// module that declares them otherwise is refused at the module, naming the
// symbol and what it should be (outside a module:
// emulate-async-copies-source-check-nested.mlir).
// RUN: fa-opt %s --split-input-file --fa-emulate-threads-on-cpu -verify-diagnostics
// The same modules with the check off are lowered.
// RUN: fa-opt %s --split-input-file --fa-emulate-threads-on-cpu=check-async-sources=false | FileCheck %s --check-prefix=OFF
// OFF-NOT: nvgpu.device_async_copy

#wg = #gpu.address_space<workgroup>

// expected-error @+1 {{cannot check cp.async sources: the module declares 'exit' otherwise than libc's, an llvm.func of type '!llvm.func<void (i32)>'}}
module {
  llvm.func @exit(i64)
  func.func @clash(%src: memref<16xf32>) {
    scf.forall (%blk) in (1) {
      %a = memref.alloc() : memref<16xf32, #wg>
      scf.forall (%t) in (4) {
        %c4 = arith.constant 4 : index
        %at = arith.muli %t, %c4 : index
        %tok = nvgpu.device_async_copy %src[%at], %a[%at], 4 : memref<16xf32> to memref<16xf32, #wg>
        %g = nvgpu.device_async_create_group %tok
        nvgpu.device_async_wait %g {numGroups = 0 : i32}
      } {mapping = [#gpu.thread<x>]}
    } {mapping = [#gpu.block<x>]}
    return
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// expected-error @+1 {{cannot check cp.async sources: the module defines 'stderr' as something other than libc's stream, an llvm.mlir.global of type !llvm.ptr}}
module {
  llvm.mlir.global external @stderr() : i32
  func.func @clash(%src: memref<16xf32>) {
    scf.forall (%blk) in (1) {
      %a = memref.alloc() : memref<16xf32, #wg>
      scf.forall (%t) in (4) {
        %c4 = arith.constant 4 : index
        %at = arith.muli %t, %c4 : index
        %tok = nvgpu.device_async_copy %src[%at], %a[%at], 4 : memref<16xf32> to memref<16xf32, #wg>
        %g = nvgpu.device_async_create_group %tok
        nvgpu.device_async_wait %g {numGroups = 0 : i32}
      } {mapping = [#gpu.thread<x>]}
    } {mapping = [#gpu.block<x>]}
    return
  }
}
