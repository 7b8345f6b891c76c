// The CPU model of cp.async lands each copy at its wait_group from a
// per-thread queue whose size it bounds statically; copies it cannot bound
// or land are reported at the copy.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --split-input-file --verify-diagnostics

#wg = #gpu.address_space<workgroup>

func.func @unbounded_copies(%src: memref<64xf32>, %n: index) {
  scf.forall (%blk) in (1) {
    %a = memref.alloc() : memref<64xf32, #wg>
    scf.forall (%t) in (4) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'nvgpu.device_async_copy' op sits in a loop without a constant trip count, so the CPU model cannot bound how many copies are pending at once}}
        %tok = nvgpu.device_async_copy %src[%c0], %a[%c0], 4 : memref<64xf32> to memref<64xf32, #wg>
      }
      %g = nvgpu.device_async_create_group
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#wg = #gpu.address_space<workgroup>

func.func @buffer_inside_thread_loop(%src: memref<64xf32>) {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (4) {
      %c0 = arith.constant 0 : index
      %a = memref.alloca() : memref<64xf32, #wg>
      // expected-error @+1 {{'nvgpu.device_async_copy' op writes a buffer defined inside the thread loop; the CPU model lands copies at their wait and needs the buffer there}}
      %tok = nvgpu.device_async_copy %src[%c0], %a[%c0], 4 : memref<64xf32> to memref<64xf32, #wg>
      %g = nvgpu.device_async_create_group %tok
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
