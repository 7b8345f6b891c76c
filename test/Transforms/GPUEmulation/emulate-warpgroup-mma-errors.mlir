// What the CPU model of fa.warpgroup_mma cannot run is reported at the op.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu -split-input-file -verify-diagnostics

#wg = #gpu.address_space<workgroup>
!buf = memref<1024xf16, #wg>
// 64 threads are half a warpgroup.
func.func @half_a_warpgroup(%as: !buf, %bs: !buf) {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (64) {
      %d = arith.constant 0 : i64
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-error @+1 {{cannot run on a CPU: a warpgroup matmul is emulated in a one-dimensional thread loop of whole warpgroups (128 threads), from 0 by 1}}
      %x = fa.warpgroup_mma %zero, %d in %as, %d in %bs : vector<4xf32>, i64 in !buf, !buf
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#wg = #gpu.address_space<workgroup>
!buf = memref<1024xf16, #wg>
// Under a condition that splits the warpgroup, not every thread of it
// reaches it (a branch that whole warpgroups take, thread < 128 k or a
// condition the same in every thread, may hold it).
func.func @conditional(%as: !buf, %bs: !buf) {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (128) {
      %c64 = arith.constant 64 : index
      %c = arith.cmpi ult, %t, %c64 : index
      scf.if %c {
        %d = arith.constant 0 : i64
        %zero = arith.constant dense<0.0> : vector<4xf32>
        // expected-error @+1 {{cannot run on a CPU: a warpgroup matmul may sit in a branch only where whole warpgroups take it (a condition the same in every thread, or thread < a multiple of 128)}}
        %x = fa.warpgroup_mma %zero, %d in %as, %d in %bs : vector<4xf32>, i64 in !buf, !buf
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#wg = #gpu.address_space<workgroup>
!buf = memref<1024xf16, #wg>
// Half a warpgroup takes this branch.
func.func @half_warpgroup_branch(%as: !buf, %bs: !buf) {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (256) {
      %c64 = arith.constant 64 : index
      %c = arith.cmpi ult, %t, %c64 : index
      scf.if %c {
        %d = arith.constant 0 : i64
        %zero = arith.constant dense<0.0> : vector<4xf32>
        // expected-error @+1 {{may sit in a branch only where whole warpgroups take it}}
        %x = fa.warpgroup_mma %zero, %d in %as, %d in %bs : vector<4xf32>, i64 in !buf, !buf
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#wg = #gpu.address_space<workgroup>
!buf = memref<1024xf16, #wg>
// Outside any thread loop.
func.func @host(%as: !buf, %bs: !buf) {
  %d = arith.constant 0 : i64
  %zero = arith.constant dense<0.0> : vector<4xf32>
  // expected-error @+1 {{cannot run on a CPU: a warpgroup matmul is emulated in a one-dimensional thread loop of whole warpgroups}}
  %x = fa.warpgroup_mma %zero, %d in %as, %d in %bs : vector<4xf32>, i64 in !buf, !buf
  return
}
