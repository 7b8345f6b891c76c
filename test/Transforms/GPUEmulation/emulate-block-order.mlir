// The CPU model runs a grid's blocks last to first under thread-order=
// reverse (and shuffle), as a GPU's scheduler may: blocks that add to one
// f32 sum with atomics (the backward pass's dQ) round it in that order.
// Three blocks add 1, 1e8 and -1e8: in order 1 is lost in 1e8 (sum 0),
// last to first it survives (sum 1).
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s --check-prefix=FORWARD
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=reverse" --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s --check-prefix=REVERSE
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=reverse" | FileCheck %s --check-prefix=IR
// FORWARD: [0]
// REVERSE: [1]
// IR: scf.forall (%[[B:.*]]) in (%[[N:.*]]) {
// IR: %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// IR: %[[I:.*]] = arith.subi %[[LAST]], %[[B]] : index
// IR: memref.load %{{.*}}[%[[I]]]
// IR: memref.atomic_rmw addf

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %values = arith.constant dense<[1.0, 1.0e8, -1.0e8]> : tensor<3xf32>
  %v = bufferization.to_buffer %values : tensor<3xf32> to memref<3xf32>
  %sum = memref.alloc() : memref<1xf32>
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %sum[%c0] : memref<1xf32>
  scf.forall (%b) in (%c3) {
    scf.forall (%t) in (1) {
      %x = memref.load %v[%b] : memref<3xf32>
      %r = memref.atomic_rmw addf %x, %sum[%c0] : (f32, memref<1xf32>) -> f32
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %t = bufferization.to_tensor %sum restrict : memref<1xf32> to tensor<1xf32>
  %u = tensor.cast %t : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
