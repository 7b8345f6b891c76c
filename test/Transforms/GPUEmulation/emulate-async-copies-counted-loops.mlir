// cp.async copies issued in a counted loop: the CPU model's per-thread
// queue holds every copy of a group (the loop's trip count) for each group
// that may be pending, so no copy lands before its wait_group. Here one
// thread issues two groups of four one-element copies (an inner loop of 4
// per group) and reads the destination before any wait: every element is
// still the poison NaN. After wait_group 0 all eight have landed. A queue
// one copy short per loop would land the first copies early, when the
// second group fills it, and the first read would see them.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s

// CHECK: [nan, nan, nan, nan, nan, nan, nan, nan]
// CHECK: [1, 2, 3, 4, 5, 6, 7, 8]

#wg = #gpu.address_space<workgroup>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @copies(%src: memref<8xf32>, %before: memref<8xf32>, %after: memref<8xf32>) {
  scf.forall (%blk) in (1) {
    %dst = memref.alloc() : memref<8xf32, #wg>
    scf.forall (%t) in (1) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      scf.for %g = %c0 to %c2 step %c1 {
        scf.for %i = %c0 to %c4 step %c1 {
          %first = arith.muli %g, %c4 : index
          %at = arith.addi %first, %i : index
          %tok = nvgpu.device_async_copy %src[%at], %dst[%at], 1 : memref<8xf32> to memref<8xf32, #wg>
        }
        %group = nvgpu.device_async_create_group
      }
      scf.for %j = %c0 to %c8 step %c1 {
        %x = memref.load %dst[%j] : memref<8xf32, #wg>
        memref.store %x, %before[%j] : memref<8xf32>
      }
      %last = nvgpu.device_async_create_group
      nvgpu.device_async_wait %last {numGroups = 0 : i32}
      scf.for %j = %c0 to %c8 step %c1 {
        %x = memref.load %dst[%j] : memref<8xf32, #wg>
        memref.store %x, %after[%j] : memref<8xf32>
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %src = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.addf %f, %one : f32
    memref.store %v, %src[%i] : memref<8xf32>
  }
  %before = memref.alloc() : memref<8xf32>
  %after = memref.alloc() : memref<8xf32>
  call @copies(%src, %before, %after) : (memref<8xf32>, memref<8xf32>, memref<8xf32>) -> ()
  %tb = bufferization.to_tensor %before restrict : memref<8xf32> to tensor<8xf32>
  %ub = tensor.cast %tb : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%ub) : (tensor<*xf32>) -> ()
  %ta = bufferization.to_tensor %after restrict : memref<8xf32> to tensor<8xf32>
  %ua = tensor.cast %ta : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%ua) : (tensor<*xf32>) -> ()
  return
}
