// The CPU model of named barriers (NamedBarriers.h): two warpgroups of a
// 256-thread block take turns as the ping-pong of the TMA producer kernel
// does (warpgroup w waits on barrier 1 + w with 256 threads, then arrives
// on the other's; the second warpgroup hands the first its first turn).
// The emulation logs each thread's operations and replays them as the
// hardware would; a protocol that would hang, or a malformed operation, is
// reported on stderr with exit status 1.
//  - turns: three rounds, in every thread order: runs to the end;
//  - no_first_turn: nobody hands out the first turn: both warpgroups wait
//    forever;
//  - no_hand_over: the first warpgroup never arrives on the second's
//    barrier;
//  - odd_count, bad_id: operands PTX does not allow;
//  - disagree: one generation's threads count 256 and 128;
//  - lane_differs: one lane of a warp names another barrier.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" > %t.mlir
// RUN: %run-entry turns %t.mlir | FileCheck %s --check-prefix=DONE
// RUN: fa-opt %s --fa-emulate-threads-on-cpu=thread-order=reverse --fa-cpu-pipeline="raise=false reference=true" | %run-entry turns | FileCheck %s --check-prefix=DONE
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=shuffle seed=5" --fa-cpu-pipeline="raise=false reference=true" | %run-entry turns | FileCheck %s --check-prefix=DONE
// RUN: not %run-entry no_first_turn %t.mlir 2>&1 | FileCheck %s --check-prefix=NOFIRST
// RUN: not %run-entry no_hand_over %t.mlir 2>&1 | FileCheck %s --check-prefix=NOHAND
// RUN: not %run-entry odd_count %t.mlir 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not %run-entry bad_id %t.mlir 2>&1 | FileCheck %s --check-prefix=ID
// Both ends of the named ids: 15 is the last barrier a block has, 16 is
// none (the hardware faults on it).
// RUN: %run-entry id_fifteen %t.mlir | FileCheck %s --check-prefix=DONE
// RUN: not %run-entry id_sixteen %t.mlir 2>&1 | FileCheck %s --check-prefix=ID16
// RUN: not %run-entry disagree %t.mlir 2>&1 | FileCheck %s --check-prefix=DISAGREE
// RUN: not %run-entry lane_differs %t.mlir 2>&1 | FileCheck %s --check-prefix=LANE
// RUN: fa-opt %s --fa-emulate-threads-on-cpu | FileCheck %s --check-prefix=MODEL
// DONE: 1
// NOFIRST: thread 0 would wait forever at its named-barrier operation 0, a bar.sync on barrier 1: 128 of 256 threads arrive
// NOHAND: thread 0 would wait forever at its named-barrier operation 1, a bar.sync on barrier 1: 128 of 256 threads arrive
// ODD: thread {{[0-9]+}}'s bar.sync at {{.*}} counts 250 threads: a barrier's count is a multiple of 32 and at most the block's 256
// ID: thread {{[0-9]+}}'s bar.arrive at {{.*}} names barrier 0; named barriers are 1 .. 15 (0 is the block-wide barrier)
// ID16: thread {{[0-9]+}}'s bar.sync at {{.*}} names barrier 16; named barriers are 1 .. 15 (0 is the block-wide barrier)
// DISAGREE: arrives on barrier 1 counting {{128|256}} threads, where {{[0-9]+}} arrived counting {{256|128}}
// LANE: thread 5's named-barrier operation 0 differs from lane 0's of its warp (bar executes per warp)
// MODEL-NOT: nvvm.barrier
// MODEL: memref.alloc() : memref<256x4096xindex>
// MODEL: scf.while

// Ping-pong, three rounds.
func.func @turns() {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %c128 = arith.constant 128 : index
      %wg = arith.divui %t, %c128 : index
      %wg32 = arith.index_cast %wg : index to i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %n = arith.constant 256 : i32
      %mine = arith.addi %wg32, %one : i32
      %next0 = arith.addi %wg32, %one : i32
      %next1 = arith.remui %next0, %two : i32
      %other = arith.addi %next1, %one : i32
      %last = arith.cmpi uge, %t, %c128 : index
      scf.if %last {
        nvvm.barrier.arrive id = %one number_of_threads = %n
      }
      %z = arith.constant 0 : index
      %s = arith.constant 1 : index
      %r = arith.constant 3 : index
      scf.for %i = %z to %r step %s {
        nvvm.barrier id = %mine number_of_threads = %n
        nvvm.barrier.arrive id = %other number_of_threads = %n
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %done = arith.constant 1 : i32
  vector.print %done : i32
  return
}

// Nobody gives the first turn.
func.func @no_first_turn() {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %c128 = arith.constant 128 : index
      %wg = arith.divui %t, %c128 : index
      %wg32 = arith.index_cast %wg : index to i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %n = arith.constant 256 : i32
      %mine = arith.addi %wg32, %one : i32
      %next0 = arith.addi %wg32, %one : i32
      %next1 = arith.remui %next0, %two : i32
      %other = arith.addi %next1, %one : i32
      %last = arith.cmpi uge, %t, %c128 : index
      %z = arith.constant 0 : index
      %s = arith.constant 1 : index
      %r = arith.constant 3 : index
      scf.for %i = %z to %r step %s {
        nvvm.barrier id = %mine number_of_threads = %n
        nvvm.barrier.arrive id = %other number_of_threads = %n
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %done = arith.constant 1 : i32
  vector.print %done : i32
  return
}

// The first warpgroup keeps its turn.
func.func @no_hand_over() {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %c128 = arith.constant 128 : index
      %wg = arith.divui %t, %c128 : index
      %wg32 = arith.index_cast %wg : index to i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %n = arith.constant 256 : i32
      %mine = arith.addi %wg32, %one : i32
      %next0 = arith.addi %wg32, %one : i32
      %next1 = arith.remui %next0, %two : i32
      %other = arith.addi %next1, %one : i32
      %last = arith.cmpi uge, %t, %c128 : index
      scf.if %last {
        nvvm.barrier.arrive id = %one number_of_threads = %n
      }
      %isFirst = arith.cmpi ult, %t, %c128 : index
      %notFirst = arith.cmpi uge, %t, %c128 : index
      %z = arith.constant 0 : index
      %s = arith.constant 1 : index
      %r = arith.constant 3 : index
      scf.for %i = %z to %r step %s {
        nvvm.barrier id = %mine number_of_threads = %n
        scf.if %notFirst {
          nvvm.barrier.arrive id = %other number_of_threads = %n
        }
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %done = arith.constant 1 : i32
  vector.print %done : i32
  return
}

// A count that is not whole warps.
func.func @odd_count() {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %c128 = arith.constant 128 : index
      %wg = arith.divui %t, %c128 : index
      %wg32 = arith.index_cast %wg : index to i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %n = arith.constant 256 : i32
      %mine = arith.addi %wg32, %one : i32
      %next0 = arith.addi %wg32, %one : i32
      %next1 = arith.remui %next0, %two : i32
      %other = arith.addi %next1, %one : i32
      %last = arith.cmpi uge, %t, %c128 : index
      scf.if %last {
        nvvm.barrier.arrive id = %one number_of_threads = %n
      }
      %odd = arith.constant 250 : i32
      nvvm.barrier id = %mine number_of_threads = %odd
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %done = arith.constant 1 : i32
  vector.print %done : i32
  return
}

// Barrier 0 is the block's.
func.func @bad_id() {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %c128 = arith.constant 128 : index
      %wg = arith.divui %t, %c128 : index
      %wg32 = arith.index_cast %wg : index to i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %n = arith.constant 256 : i32
      %mine = arith.addi %wg32, %one : i32
      %next0 = arith.addi %wg32, %one : i32
      %next1 = arith.remui %next0, %two : i32
      %other = arith.addi %next1, %one : i32
      %last = arith.cmpi uge, %t, %c128 : index
      %zero = arith.constant 0 : i32
      nvvm.barrier.arrive id = %zero number_of_threads = %n
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %done = arith.constant 1 : i32
  vector.print %done : i32
  return
}

// Every thread syncs on barrier `id`, counting the whole block.
func.func @sync_on(%id: i32) {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %n = arith.constant 256 : i32
      nvvm.barrier id = %id number_of_threads = %n
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %done = arith.constant 1 : i32
  vector.print %done : i32
  return
}

func.func @id_fifteen() {
  %id = arith.constant 15 : i32
  call @sync_on(%id) : (i32) -> ()
  return
}

func.func @id_sixteen() {
  %id = arith.constant 16 : i32
  call @sync_on(%id) : (i32) -> ()
  return
}

// The two warpgroups count a generation differently.
func.func @disagree() {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %c128 = arith.constant 128 : index
      %wg = arith.divui %t, %c128 : index
      %wg32 = arith.index_cast %wg : index to i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %n = arith.constant 256 : i32
      %mine = arith.addi %wg32, %one : i32
      %next0 = arith.addi %wg32, %one : i32
      %next1 = arith.remui %next0, %two : i32
      %other = arith.addi %next1, %one : i32
      %last = arith.cmpi uge, %t, %c128 : index
      %half = arith.constant 128 : i32
      scf.if %last {
        nvvm.barrier.arrive id = %one number_of_threads = %half
      } else {
        nvvm.barrier id = %one number_of_threads = %n
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %done = arith.constant 1 : i32
  vector.print %done : i32
  return
}

// Thread 5 names barrier 3, its warp barrier 1.
func.func @lane_differs() {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %c128 = arith.constant 128 : index
      %wg = arith.divui %t, %c128 : index
      %wg32 = arith.index_cast %wg : index to i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %n = arith.constant 256 : i32
      %mine = arith.addi %wg32, %one : i32
      %next0 = arith.addi %wg32, %one : i32
      %next1 = arith.remui %next0, %two : i32
      %other = arith.addi %next1, %one : i32
      %last = arith.cmpi uge, %t, %c128 : index
      %c5 = arith.constant 5 : index
      %three = arith.constant 3 : i32
      %is5 = arith.cmpi eq, %t, %c5 : index
      %id = arith.select %is5, %three, %one : i32
      nvvm.barrier.arrive id = %id number_of_threads = %n
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %done = arith.constant 1 : i32
  vector.print %done : i32
  return
}
