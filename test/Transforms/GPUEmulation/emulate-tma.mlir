// The CPU model of TMA loads and mbarriers (TmaCopies.h). One block of 64
// threads: thread 0 initializes barrier 0 (count 1, the producer's
// expect_tx); thread 32 announces `expect` bytes
// and loads a [1, 1, 16, 64] f16 box of a [1, 1, 10, 64] source, rows from
// `row0` on, into a 1024-byte aligned shared tile with the 128-byte
// swizzle (at element `offset`); every thread waits on barrier 0 for
// parity `parity` and reads elements back through the swizzle
// (WarpgroupLayout.h's swizzledByteOffset): source element (r, c) holds
// 100 r + c.
//  - lands: rows 2 .. 9 arrive, rows 10 .. 17 are past the source and
//    arrive as zeros;
//  - early: read after a block barrier but before the wait, the tile
//    holds NaN (the copy lands at the wait, not at issue);
//  - lenient_parity: a wait for parity 1 returns at once (the phase before
//    the first counts as complete), before the copy lands: NaN too;
//  - the protocol errors are reported, with the barrier and what is
//    missing, and the program exits 1 instead of waiting forever.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" > %t.mlir
// RUN: %run-entry lands %t.mlir | FileCheck %s --check-prefix=LANDS
// RUN: fa-opt %s --fa-emulate-threads-on-cpu=thread-order=reverse --fa-cpu-pipeline="raise=false reference=true" | %run-entry lands | FileCheck %s --check-prefix=LANDS
// RUN: %run-entry early %t.mlir | FileCheck %s --check-prefix=EARLY
// RUN: %run-entry lenient_parity %t.mlir | FileCheck %s --check-prefix=EARLY
// RUN: not %run-entry never_issued %t.mlir 2>&1 | FileCheck %s --check-prefix=NEVER
// RUN: not %run-entry waits_uninitialized %t.mlir 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: not %run-entry expects_too_many %t.mlir 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not %run-entry expects_too_few %t.mlir 2>&1 | FileCheck %s --check-prefix=FEW
// RUN: not %run-entry misaligned %t.mlir 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not %run-entry issued_twice %t.mlir 2>&1 | FileCheck %s --check-prefix=TWICE
// Both sides of the destination's edge: a box that ends at the tile's last
// element lands; one a swizzle pattern further (still aligned) would write
// past the tile, and is reported instead of landing (or hanging).
// RUN: %run-entry fits_at_end %t.mlir | FileCheck %s --check-prefix=LANDS
// RUN: not %run-entry past_end %t.mlir 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: fa-opt %s --fa-emulate-threads-on-cpu | FileCheck %s --check-prefix=MODEL

// Row r of the box: columns 0, 9 and 63 of source row 2 + r.
// LANDS: [200, 209, 263]
// LANDS-NEXT: [300, 309, 363]
// LANDS-NEXT: [400, 409, 463]
// LANDS-NEXT: [500, 509, 563]
// LANDS-NEXT: [600, 609, 663]
// LANDS-NEXT: [700, 709, 763]
// LANDS-NEXT: [800, 809, 863]
// LANDS-NEXT: [900, 909, 963]
// LANDS-NEXT: [0, 0, 0]
// LANDS-NEXT: [0, 0, 0]
// LANDS-NEXT: [0, 0, 0]
// LANDS-NEXT: [0, 0, 0]
// LANDS-NEXT: [0, 0, 0]
// LANDS-NEXT: [0, 0, 0]
// LANDS-NEXT: [0, 0, 0]
// LANDS-NEXT: [0, 0, 0]
// EARLY: [nan, nan, nan]
// UNINIT: would never return: mbarrier 0 waits for a phase of parity 0 after 0 completed phases
// NEVER: fa-emulate-threads-on-cpu: the mbarrier wait at {{.*}}emulate-tma.mlir:{{[0-9]+}}:{{[0-9]+}} would never return: mbarrier 0 waits for a phase of parity 0 after 0 completed phases; 1 arrivals and 0 transaction bytes are missing
// MANY: would never return: mbarrier 0 waits for a phase of parity 0 after 0 completed phases; 0 arrivals and 2048 transaction bytes are missing
// FEW: the TMA load at {{.*}}emulate-tma.mlir:{{[0-9]+}}:{{[0-9]+}} lands more bytes on mbarrier 0 than its expect_tx announced (1024 over)
// ALIGN: the TMA load at {{.*}} writes shared memory at byte 128, off the 1024-byte boundary its swizzle pattern starts on
// PAST: the TMA load at {{.*}}emulate-tma.mlir:{{[0-9]+}}:{{[0-9]+}} writes elements 1536 .. 2559 of a buffer whose elements are 0 .. 2047: its box does not fit its destination
// TWICE: the TMA load at {{.*}} is issued again on mbarrier 0 before its last load there landed
// The wait is a phase boundary; no TMA or mbarrier op is left.
// MODEL-NOT: nvgpu.tma
// MODEL-NOT: nvgpu.mbarrier

#wg = #gpu.address_space<workgroup>
!barriers = !nvgpu.mbarrier.group<memorySpace = #wg, num_barriers = 2>
!map = !nvgpu.tensormap.descriptor<tensor = memref<1x1x16x64xf16, #wg>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @load(%row0: index, %expect: index, %parity: i1, %offset: index,
                %issue: i1, %twice: i1, %early: i1) {
  %src = memref.alloc() : memref<1x1x10x64xf16>
  %out = memref.alloc() : memref<16x3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  scf.for %r = %c0 to %c10 step %c1 {
    scf.for %c = %c0 to %c64 step %c1 {
      %k = affine.apply affine_map<(r, c) -> (r * 100 + c)>(%r, %c)
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f16
      memref.store %kf, %src[%c0, %c0, %r, %c] : memref<1x1x10x64xf16>
    }
  }
  %unranked = memref.cast %src : memref<1x1x10x64xf16> to memref<*xf16>
  %c16 = arith.constant 16 : index
  %map = nvgpu.tma.create.descriptor %unranked box[%c1, %c1, %c16, %c64] : memref<*xf16> -> !map
  scf.forall (%blk) in (1) {
    %tile = memref.alloc() {alignment = 1024 : i64} : memref<2048xf16, #wg>
    %bars = nvgpu.mbarrier.create -> !barriers
    scf.forall (%t) in (64) {
      %z = arith.constant 0 : index
      %one = arith.constant 1 : index
      %n = arith.constant 64 : index
      %ticks = arith.constant 1000 : index
      %first = arith.cmpi eq, %t, %z : index
      scf.if %first {
        nvgpu.mbarrier.init %bars[%z], %one : !barriers
      }
      gpu.barrier
      %leader_id = arith.constant 32 : index
      %leader = arith.cmpi eq, %t, %leader_id : index
      %issues = arith.andi %leader, %issue : i1
      scf.if %issues {
        %dst = memref.reinterpret_cast %tile to offset: [%offset], sizes: [1, 1, 16, 64], strides: [1024, 1024, 64, 1] : memref<2048xf16, #wg> to memref<1x1x16x64xf16, strided<[1024, 1024, 64, 1], offset: ?>, #wg>
        // One transaction of one load (or two, the second before anything
        // waited for the first).
        %two = arith.constant 2 : index
        %times = arith.select %twice, %two, %one : index
        scf.for %i = %z to %times step %one {
          nvgpu.mbarrier.arrive.expect_tx %bars[%z], %expect : !barriers
          nvgpu.tma.async.load %map[%z, %row0, %z, %z], %bars[%z] to %dst : !map, !barriers -> memref<1x1x16x64xf16, strided<[1024, 1024, 64, 1], offset: ?>, #wg>
        }
      }
      gpu.barrier
      %skips = arith.andi %issue, %early : i1
      %true = arith.constant true
      %waits = arith.xori %skips, %true : i1
      scf.if %waits {
        nvgpu.mbarrier.try_wait.parity %bars[%z], %parity, %ticks : !barriers
      }
      // Threads 0 .. 15 read row t of the box: columns 0, 9 and 63.
      %sixteen = arith.constant 16 : index
      %reads = arith.cmpi ult, %t, %sixteen : index
      scf.if %reads {
        %cols = arith.constant dense<[0, 9, 63]> : vector<3xindex>
        %c3 = arith.constant 3 : index
        scf.for %j = %z to %c3 step %one {
          %col = vector.extract %cols[%j] : index from vector<3xindex>
          // byte = 128 t + 2 col, swizzled: bits [4, 7) ^= bits [7, 10).
          %byte = affine.apply affine_map<(t, c) -> (t * 128 + c * 2)>(%t, %col)
          %c3i = arith.constant 3 : index
          %mask = arith.constant 112 : index
          %shifted = arith.shrui %byte, %c3i : index
          %moved = arith.andi %shifted, %mask : index
          %swz = arith.xori %byte, %moved : index
          %two = arith.constant 2 : index
          %pos0 = arith.divui %swz, %two : index
          %pos = arith.addi %pos0, %offset : index
          %v = memref.load %tile[%pos] : memref<2048xf16, #wg>
          %f = arith.extf %v : f16 to f32
          memref.store %f, %out[%t, %j] : memref<16x3xf32>
        }
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %tensor = bufferization.to_tensor %out restrict : memref<16x3xf32> to tensor<16x3xf32>
  %u = tensor.cast %tensor : tensor<16x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @run(%row0: index, %expect: index, %parity: i1, %offset: index,
               %issue: i1, %twice: i1, %early: i1) {
  call @load(%row0, %expect, %parity, %offset, %issue, %twice, %early)
      : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

func.func @lands() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 2048 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  %t = arith.constant true
  call @run(%row0, %bytes, %f, %c0, %t, %f, %f) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

func.func @early() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 2048 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  %t = arith.constant true
  call @run(%row0, %bytes, %f, %c0, %t, %f, %t) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

func.func @lenient_parity() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 2048 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  %t = arith.constant true
  call @run(%row0, %bytes, %t, %c0, %t, %f, %f) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

// A wait on a barrier no thread initialized: the model reads it as a phase
// never completing (as the hardware would hang), not as one complete.
func.func @waits_uninitialized() {
  scf.forall (%blk) in (1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    scf.forall (%t) in (64) {
      %z = arith.constant 0 : index
      %f = arith.constant false
      %ticks = arith.constant 1000 : index
      nvgpu.mbarrier.try_wait.parity %bars[%z], %f, %ticks : !barriers
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

func.func @never_issued() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 2048 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  call @run(%row0, %bytes, %f, %c0, %f, %f, %f) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

func.func @expects_too_many() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 4096 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  %t = arith.constant true
  call @run(%row0, %bytes, %f, %c0, %t, %f, %f) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

func.func @expects_too_few() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 1024 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  %t = arith.constant true
  call @run(%row0, %bytes, %f, %c0, %t, %f, %f) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

func.func @fits_at_end() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 2048 : index
  %c1024 = arith.constant 1024 : index
  %f = arith.constant false
  %t = arith.constant true
  call @run(%row0, %bytes, %f, %c1024, %t, %f, %f) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

func.func @past_end() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 2048 : index
  %c1536 = arith.constant 1536 : index
  %f = arith.constant false
  %t = arith.constant true
  call @run(%row0, %bytes, %f, %c1536, %t, %f, %f) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

func.func @misaligned() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 2048 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant false
  %t = arith.constant true
  call @run(%row0, %bytes, %f, %c64, %t, %f, %f) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}

func.func @issued_twice() {
  %row0 = arith.constant 2 : index
  %bytes = arith.constant 2048 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  %t = arith.constant true
  call @run(%row0, %bytes, %f, %c0, %t, %t, %f) : (index, index, i1, index, i1, i1, i1) -> ()
  return
}
