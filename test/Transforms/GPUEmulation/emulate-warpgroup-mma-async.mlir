// The CPU model of wgmma is asynchronous where the kernel may not rely on
// it: a result is its value only once a fa.warpgroup_mma_wait has
// completed its group, and NaN when read before, so a dropped or
// too-lenient wait fails by numbers. A and B are all ones (A 64 x 16 and
// B 16 x 8 in unswizzled core matrices), so a completed m64n8k16 gives 16
// everywhere. Thread 0's first element of each result, in order:
//   a wait with pending = 0                                   16
//   the result read with no wait                              NaN
//   a wait with pending = 1 right after its wgmma (its group
//   is the newest, left in flight)                            NaN
//   the same value returned by a later wait with pending = 1,
//   whose newest group is a later wgmma's                     16
//   that later wgmma's result at that wait                    NaN
// A descriptor that points past its buffer is reported with the element it
// reads, and the run exits 1.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" > %t.mlir
// RUN: %run-entry main %t.mlir | FileCheck %s
// RUN: not %run-entry past_the_buffer %t.mlir 2>&1 | FileCheck %s --check-prefix=BOUNDS
// B one element short: the last element it reads is one past its buffer,
// reported as exactly that (the run with the whole B above is the other
// side of the edge).
// RUN: not %run-entry one_past_the_buffer %t.mlir 2>&1 | FileCheck %s --check-prefix=ONE-PAST

// CHECK: ( 16, nan, nan, 16, nan )
// ONE-PAST: fa-emulate-threads-on-cpu: the wgmma at {{.*}}emulate-warpgroup-mma-async.mlir:{{[0-9]+}}:{{[0-9]+}} reads element 127 of a buffer of 127
// BOUNDS: fa-emulate-threads-on-cpu: the wgmma at {{.*}}emulate-warpgroup-mma-async.mlir:{{[0-9]+}}:{{[0-9]+}} reads element 1{{[0-9]+}} of a buffer of 1024

#wg = #gpu.address_space<workgroup>
!a = memref<1024xf16, #wg>
!b = memref<128xf16, #wg>

func.func @groups(%out: memref<128x5xf32>) {
  scf.forall (%blk) in (1) {
    %as = memref.alloc() : !a
    %bs = memref.alloc() : !b
    %one = arith.constant 1.0 : f16
    linalg.fill ins(%one : f16) outs(%as : !a)
    linalg.fill ins(%one : f16) outs(%bs : !b)
    scf.forall (%t) in (128) {
      // A: 8-row groups 128 B apart, K chunks 1024 B apart; B: 128 B.
      %da = arith.constant 34363932672 : i64
      %db = arith.constant 34360262656 : i64
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %x = fa.warpgroup_mma %zero, %da in %as, %db in %bs : vector<4xf32>, i64 in !a, !b
      %waited = fa.warpgroup_mma_wait %x : vector<4xf32>
      %y = fa.warpgroup_mma %zero, %da in %as, %db in %bs : vector<4xf32>, i64 in !a, !b
      %early = fa.warpgroup_mma_wait %y {pending = 1} : vector<4xf32>
      %z = fa.warpgroup_mma %zero, %da in %as, %db in %bs : vector<4xf32>, i64 in !a, !b
      %later:2 = fa.warpgroup_mma_wait %y, %z {pending = 1} : vector<4xf32>, vector<4xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %e0 = vector.extract %waited[0] : f32 from vector<4xf32>
      %e1 = vector.extract %x[0] : f32 from vector<4xf32>
      %e2 = vector.extract %early[0] : f32 from vector<4xf32>
      %e3 = vector.extract %later#0[0] : f32 from vector<4xf32>
      %e4 = vector.extract %later#1[0] : f32 from vector<4xf32>
      memref.store %e0, %out[%t, %c0] : memref<128x5xf32>
      memref.store %e1, %out[%t, %c1] : memref<128x5xf32>
      memref.store %e2, %out[%t, %c2] : memref<128x5xf32>
      memref.store %e3, %out[%t, %c3] : memref<128x5xf32>
      memref.store %e4, %out[%t, %c4] : memref<128x5xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

func.func @main() {
  %out = memref.alloc() : memref<128x5xf32>
  func.call @groups(%out) : (memref<128x5xf32>) -> ()
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %row = vector.transfer_read %out[%c0, %c0], %pad : memref<128x5xf32>, vector<5xf32>
  vector.print %row : vector<5xf32>
  return
}

// A's descriptor starts at byte 2048 of a 2048-byte buffer.
func.func @past(%out: memref<128xf32>) {
  scf.forall (%blk) in (1) {
    %as = memref.alloc() : !a
    %bs = memref.alloc() : !b
    scf.forall (%t) in (128) {
      %da = arith.constant 34363932800 : i64
      %db = arith.constant 34360262656 : i64
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %x = fa.warpgroup_mma %zero, %da in %as, %db in %bs : vector<4xf32>, i64 in !a, !b
      %w = fa.warpgroup_mma_wait %x : vector<4xf32>
      %e = vector.extract %w[0] : f32 from vector<4xf32>
      memref.store %e, %out[%t] : memref<128xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

func.func @past_the_buffer() {
  %out = memref.alloc() : memref<128xf32>
  func.call @past(%out) : (memref<128xf32>) -> ()
  return
}

// B's 16 x 8 tile needs 128 elements; this buffer has 127.
func.func @one_past(%out: memref<128xf32>) {
  scf.forall (%blk) in (1) {
    %as = memref.alloc() : !a
    %bs = memref.alloc() : memref<127xf16, #wg>
    %one = arith.constant 1.0 : f16
    linalg.fill ins(%one : f16) outs(%as : !a)
    linalg.fill ins(%one : f16) outs(%bs : memref<127xf16, #wg>)
    scf.forall (%t) in (128) {
      %da = arith.constant 34363932672 : i64
      %db = arith.constant 34360262656 : i64
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %x = fa.warpgroup_mma %zero, %da in %as, %db in %bs : vector<4xf32>, i64 in !a, memref<127xf16, #wg>
      %w = fa.warpgroup_mma_wait %x : vector<4xf32>
      %e = vector.extract %w[0] : f32 from vector<4xf32>
      memref.store %e, %out[%t] : memref<128xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

func.func @one_past_the_buffer() {
  %out = memref.alloc() : memref<128xf32>
  func.call @one_past(%out) : (memref<128xf32>) -> ()
  return
}
