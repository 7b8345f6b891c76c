// What the CPU model of named barriers cannot run is reported at the op
// (NamedBarriers.h).
// RUN: fa-opt %s -split-input-file --fa-emulate-threads-on-cpu -verify-diagnostics

// bar.sync without an id is the block-wide barrier: kernels say gpu.barrier.
func.func @sync_without_id() {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (64) {
      // expected-error @+1 {{'nvvm.barrier' op cannot run on a CPU: the emulation models named barriers (an id and a thread count, no reduction); the block-wide barrier is gpu.barrier}}
      nvvm.barrier
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @arrive_without_id() {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (64) {
      %n = arith.constant 64 : i32
      // expected-error @+1 {{'nvvm.barrier.arrive' op cannot run on a CPU: the emulation models bar.arrive on a named barrier (an id, 1 .. 15)}}
      nvvm.barrier.arrive number_of_threads = %n
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A thread count the model cannot size its log by.
func.func @dynamic_threads(%count: index) {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (%count) {
      %id = arith.constant 1 : i32
      %n = arith.constant 64 : i32
      // expected-error @+1 {{'nvvm.barrier.arrive' op cannot run on a CPU: a named barrier is emulated in a one-dimensional thread loop from 0 by 1 with a constant thread count}}
      nvvm.barrier.arrive id = %id number_of_threads = %n
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
