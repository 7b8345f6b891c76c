// thread-order permutes 1-D thread loops from 0 by 1 with a constant count;
// any other thread loop is reported at the loop.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=reverse" -split-input-file -verify-diagnostics

func.func @two_dims(%out: memref<4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{thread-order needs a 1-D thread loop from 0 by 1 with a constant thread count}}
  scf.forall (%x, %y) in (4, 2) {
    memref.store %zero, %out[%x, %y] : memref<4x2xf32>
  } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
  return
}

// -----

func.func @dynamic_count(%out: memref<?xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{thread-order needs a 1-D thread loop from 0 by 1 with a constant thread count}}
  scf.forall (%t) in (%n) {
    memref.store %zero, %out[%t] : memref<?xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}
