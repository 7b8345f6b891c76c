// The CPU model of named barriers at the top of the id range, for
// bar.arrive (emulate-named-barriers.mlir tries bar.sync): the first
// warpgroup arrives on barrier `id` and the second waits there with all
// 256 threads. Barrier 15 is the last a block has: the run completes. Barrier
// 16 does not exist (the hardware faults): the model reports the arrive
// and the run exits 1.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" > %t.mlir
// RUN: %run-entry arrive_fifteen %t.mlir | FileCheck %s
// RUN: not %run-entry arrive_sixteen %t.mlir 2>&1 | FileCheck %s --check-prefix=ID16
// CHECK: 1
// ID16: thread {{[0-9]+}}'s bar.arrive at {{.*}} names barrier 16; named barriers are 1 .. 15 (0 is the block-wide barrier)

func.func @hand_over(%id: i32) {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %c128 = arith.constant 128 : index
      %n = arith.constant 256 : i32
      %first = arith.cmpi ult, %t, %c128 : index
      scf.if %first {
        nvvm.barrier.arrive id = %id number_of_threads = %n
      } else {
        nvvm.barrier id = %id number_of_threads = %n
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %done = arith.constant 1 : i32
  vector.print %done : i32
  return
}

func.func @arrive_fifteen() {
  %id = arith.constant 15 : i32
  func.call @hand_over(%id) : (i32) -> ()
  return
}

func.func @arrive_sixteen() {
  %id = arith.constant 16 : i32
  func.call @hand_over(%id) : (i32) -> ()
  return
}
