// thread-order: each emulated interval between barriers runs its threads in
// reverse, or in a seeded permutation p(t) = (a t + c) mod T with a coprime
// to T; the thread id every op reads is p(t). Unknown orders are refused.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=reverse" | FileCheck %s --check-prefix=REVERSE
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=shuffle seed=5" | FileCheck %s --check-prefix=SHUFFLE
// RUN: fa-opt %s --fa-emulate-threads-on-cpu | FileCheck %s --check-prefix=FORWARD
// RUN: not fa-opt %s --fa-emulate-threads-on-cpu="thread-order=sideways" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// REVERSE: scf.forall (%[[T0:.*]]) in (96) {
// REVERSE:   %[[P0:.*]] = arith.subi %c95{{.*}}, %[[T0]] : index
// REVERSE:   memref.store %{{.*}}, %[[SHARED:.*]][%[[P0]]]
// REVERSE: } {mapping = [#gpu.thread<x>]}
// REVERSE: scf.forall (%[[T1:.*]]) in (96) {
// REVERSE:   %[[P1:.*]] = arith.subi %c95{{.*}}, %[[T1]] : index
// REVERSE:   %[[NEXT:.*]] = arith.addi %[[P1]], %c1
// REVERSE:   %[[SRC:.*]] = arith.remui %[[NEXT]], %c96 :
// REVERSE:   memref.load %[[SHARED]][%[[SRC]]]
// REVERSE:   memref.store %{{.*}}, %{{.*}}[%[[P1]]]

// 96 threads, seed 5: a = 2 * 5 + 3 = 13 (coprime to 96), c = 5 * 7919 mod 96 = 43.
// SHUFFLE: scf.forall (%[[T0:.*]]) in (96) {
// SHUFFLE:   %[[M:.*]] = arith.muli %[[T0]], %c13{{.*}} : index
// SHUFFLE:   %[[A:.*]] = arith.addi %[[M]], %c43{{.*}} : index
// SHUFFLE:   %[[P0:.*]] = arith.remui %[[A]], %c96{{.*}} : index
// SHUFFLE:   memref.store %{{.*}}, %{{.*}}[%[[P0]]]

// FORWARD-NOT: arith.subi
// FORWARD-NOT: arith.muli

// UNKNOWN: error: unknown thread-order 'sideways'; known orders: forward, reverse, shuffle

func.func @rotate(%out: memref<96xf32>) {
  scf.forall (%b) in (1) {
    %shared = memref.alloc() : memref<96xf32, #gpu.address_space<workgroup>>
    %c1 = arith.constant 1 : index
    %c96 = arith.constant 96 : index
    scf.forall (%t) in (96) {
      %i = arith.index_cast %t : index to i32
      %x = arith.sitofp %i : i32 to f32
      memref.store %x, %shared[%t] : memref<96xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %t, %c1 : index
      %src = arith.remui %n, %c96 : index
      %y = memref.load %shared[%src] : memref<96xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%t] : memref<96xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
