// The CPU model of wgmma at the edge of A's buffer (the other file tries
// B's): an m64n8k16 reads A's 64 x 16 tile, 1024 elements from its
// descriptor's start. With exactly 1024 the product runs (all ones: 16);
// with 1023 the model reports the one element past the end and the run
// exits 1, as the hardware would read outside the allocation.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" > %t.mlir
// RUN: %run-entry whole_a %t.mlir | FileCheck %s
// RUN: not %run-entry a_one_short %t.mlir 2>&1 | FileCheck %s --check-prefix=ONE-PAST
// CHECK: 16
// ONE-PAST: fa-emulate-threads-on-cpu: the wgmma at {{.*}}emulate-warpgroup-mma-a-edge.mlir:{{[0-9]+}}:{{[0-9]+}} reads element 1023 of a buffer of 1023

#wg = #gpu.address_space<workgroup>
!b = memref<128xf16, #wg>

func.func @product(%out: memref<128xf32>, %short: i1) {
  scf.forall (%blk) in (1) {
    %whole = memref.alloc() : memref<1024xf16, #wg>
    %less = memref.alloc() : memref<1023xf16, #wg>
    %bs = memref.alloc() : !b
    %one = arith.constant 1.0 : f16
    linalg.fill ins(%one : f16) outs(%whole : memref<1024xf16, #wg>)
    linalg.fill ins(%one : f16) outs(%less : memref<1023xf16, #wg>)
    linalg.fill ins(%one : f16) outs(%bs : !b)
    scf.forall (%t) in (128) {
      %da = arith.constant 34363932672 : i64
      %db = arith.constant 34360262656 : i64
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.if %short -> vector<4xf32> {
        %x = fa.warpgroup_mma %zero, %da in %less, %db in %bs : vector<4xf32>, i64 in memref<1023xf16, #wg>, !b
        %w = fa.warpgroup_mma_wait %x : vector<4xf32>
        scf.yield %w : vector<4xf32>
      } else {
        %x = fa.warpgroup_mma %zero, %da in %whole, %db in %bs : vector<4xf32>, i64 in memref<1024xf16, #wg>, !b
        %w = fa.warpgroup_mma_wait %x : vector<4xf32>
        scf.yield %w : vector<4xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<4xf32>
      memref.store %e, %out[%t] : memref<128xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

func.func @run(%short: i1) {
  %out = memref.alloc() : memref<128xf32>
  func.call @product(%out, %short) : (memref<128xf32>, i1) -> ()
  %c0 = arith.constant 0 : index
  %e = memref.load %out[%c0] : memref<128xf32>
  vector.print %e : f32
  return
}

func.func @whole_a() {
  %f = arith.constant false
  func.call @run(%f) : (i1) -> ()
  return
}

func.func @a_one_short() {
  %t = arith.constant true
  func.call @run(%t) : (i1) -> ()
  return
}
