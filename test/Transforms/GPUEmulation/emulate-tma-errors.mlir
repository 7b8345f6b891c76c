// What the CPU model of TMA loads and mbarriers cannot run is reported at
// the op (TmaCopies.h).
// RUN: fa-opt %s -split-input-file --fa-emulate-threads-on-cpu -verify-diagnostics

#wg = #gpu.address_space<workgroup>
!barriers = !nvgpu.mbarrier.group<memorySpace = #wg>
!map = !nvgpu.tensormap.descriptor<tensor = memref<1x1x16x64xf16, #wg>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// A tensor map whose tensor the emulation cannot see (a function argument).
func.func @map_from_outside(%map: !map) {
  scf.forall (%blk) in (1) {
    %tile = memref.alloc() : memref<1x1x16x64xf16, #wg>
    %bars = nvgpu.mbarrier.create -> !barriers
    scf.forall (%t) in (32) {
      %z = arith.constant 0 : index
      // expected-error @+1 {{'nvgpu.tma.async.load' op cannot run on a CPU: its tensor map must come from an nvgpu.tma.create.descriptor the emulation can see}}
      nvgpu.tma.async.load %map[%z, %z, %z, %z], %bars[%z] to %tile : !map, !barriers -> memref<1x1x16x64xf16, #wg>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#wg = #gpu.address_space<workgroup>
!barriers = !nvgpu.mbarrier.group<memorySpace = #wg>
!map = !nvgpu.tensormap.descriptor<tensor = memref<1x1x16x64xf16, #wg>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// The model queues the loads of one op in one transaction, as many as the
// static trip counts between the op and its expect_tx: a loop of run-time
// trip count there leaves them unbounded.
func.func @loads_per_transaction_unbounded(%src: memref<1x1x64x64xf16>, %n: index) {
  %unranked = memref.cast %src : memref<1x1x64x64xf16> to memref<*xf16>
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %map = nvgpu.tma.create.descriptor %unranked box[%c1, %c1, %c16, %c64] : memref<*xf16> -> !map
  scf.forall (%blk) in (1) {
    %tile = memref.alloc() : memref<1x1x16x64xf16, #wg>
    %bars = nvgpu.mbarrier.create -> !barriers
    scf.forall (%t) in (32) {
      %z = arith.constant 0 : index
      %one = arith.constant 1 : index
      %bytes = arith.constant 2048 : index
      nvgpu.mbarrier.arrive.expect_tx %bars[%z], %bytes : !barriers
      scf.for %i = %z to %n step %one {
        // expected-error @+1 {{'nvgpu.tma.async.load' op cannot run on a CPU: a loop of unknown trip count lies between it and its transaction's arrive.expect_tx, so the loads in flight at once are unbounded}}
        nvgpu.tma.async.load %map[%z, %z, %z, %z], %bars[%z] to %tile : !map, !barriers -> memref<1x1x16x64xf16, #wg>
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#wg = #gpu.address_space<workgroup>
!barriers = !nvgpu.mbarrier.group<memorySpace = #wg>
!map = !nvgpu.tensormap.descriptor<tensor = memref<1x1x16x64xf16, #wg>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// Any other loop there (an scf.while) has no trip count the model can see.
func.func @loads_in_a_while_loop(%src: memref<1x1x64x64xf16>, %n: index) {
  %unranked = memref.cast %src : memref<1x1x64x64xf16> to memref<*xf16>
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %map = nvgpu.tma.create.descriptor %unranked box[%c1, %c1, %c16, %c64] : memref<*xf16> -> !map
  scf.forall (%blk) in (1) {
    %tile = memref.alloc() : memref<1x1x16x64xf16, #wg>
    %bars = nvgpu.mbarrier.create -> !barriers
    scf.forall (%t) in (32) {
      %z = arith.constant 0 : index
      %one = arith.constant 1 : index
      %bytes = arith.constant 2048 : index
      nvgpu.mbarrier.arrive.expect_tx %bars[%z], %bytes : !barriers
      %last = scf.while (%i = %z) : (index) -> index {
        %more = arith.cmpi slt, %i, %n : index
        scf.condition(%more) %i : index
      } do {
      ^bb0(%i: index):
        // expected-error @+1 {{'nvgpu.tma.async.load' op cannot run on a CPU: a loop of unknown trip count lies between it and its transaction's arrive.expect_tx, so the loads in flight at once are unbounded}}
        nvgpu.tma.async.load %map[%z, %z, %z, %z], %bars[%z] to %tile : !map, !barriers -> memref<1x1x16x64xf16, #wg>
        %next = arith.addi %i, %one : index
        scf.yield %next : index
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#wg = #gpu.address_space<workgroup>
!barriers = !nvgpu.mbarrier.group<memorySpace = #wg>
// The model waits by parity: test.wait on an arrive's token is refused.
func.func @token_used(%out: memref<32xi1>) {
  scf.forall (%blk) in (1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    scf.forall (%t) in (32) {
      %z = arith.constant 0 : index
      %token = nvgpu.mbarrier.arrive %bars[%z] : !barriers -> !nvgpu.mbarrier.token
      // expected-error @+1 {{'nvgpu.mbarrier.test.wait' op cannot run on a CPU: the emulation models mbarrier.init, arrive, arrive.expect_tx, try_wait.parity and TMA loads}}
      %done = nvgpu.mbarrier.test.wait %bars[%z], %token : !barriers, !nvgpu.mbarrier.token
      memref.store %done, %out[%t] : memref<32xi1>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#wg = #gpu.address_space<workgroup>
!barriers = !nvgpu.mbarrier.group<memorySpace = #wg>
// Waits in both branches of a conditional: the splitter hoists model
// barriers out of then branches only.
func.func @wait_in_else(%c: i1) {
  scf.forall (%blk) in (1) {
    %bars = nvgpu.mbarrier.create -> !barriers
    scf.forall (%t) in (32) {
      %z = arith.constant 0 : index
      %one = arith.constant 1 : index
      %ticks = arith.constant 1000 : index
      %p = arith.constant false
      nvgpu.mbarrier.init %bars[%z], %one : !barriers
      scf.if %c {
        nvgpu.mbarrier.try_wait.parity %bars[%z], %p, %ticks : !barriers
      } else {
        // expected-error @+1 {{'gpu.barrier' op in the else branch of a conditional cannot run on a CPU}}
        nvgpu.mbarrier.try_wait.parity %bars[%z], %p, %ticks : !barriers
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
