// Run on a function, the cp.async source check cannot declare libc's
// functions in the module (another thread may be changing it): refused at
// the function, with the option that turns the check off; with it off the
// function is lowered.
// RUN: fa-opt %s --pass-pipeline="builtin.module(func.func(fa-emulate-threads-on-cpu))" -verify-diagnostics
// RUN: fa-opt %s --pass-pipeline="builtin.module(func.func(fa-emulate-threads-on-cpu{check-async-sources=false}))" | FileCheck %s
// CHECK-LABEL: func.func @nested
// CHECK-NOT: nvgpu.device_async_copy

#wg = #gpu.address_space<workgroup>

// expected-error @+1 {{cannot check cp.async sources outside a module (the check calls libc); run on the module or with check-async-sources=false}}
func.func @nested(%src: memref<16xf32>) {
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
