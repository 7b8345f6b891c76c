// The lane model's refusals: warp collectives it does not emulate, and
// ones where the barrier it adds could not split the thread loop.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu -split-input-file -verify-diagnostics


// An m16n8k8 mma.sync: only m16n8k16 is modeled.
func.func @mma_other_shape(%a: vector<2x2xf16>, %b: vector<1x2xf16>, %out: memref<32xf32>) {
  scf.forall (%blk) in (1) {
    scf.forall (%t) in (32) {
      %c = arith.constant dense<0.0> : vector<2x2xf32>
      // expected-error @+1 {{'nvgpu.mma.sync' op cannot run on a CPU: only mma.sync m16n8k16 with f16 or bf16 fragments (vector<4x2>, vector<2x2>) into f32 (vector<2x2>) is emulated; got mmaShape [16, 8, 8] with A 'vector<2x2xf16>', B 'vector<1x2xf16>', C 'vector<2x2xf32>'}}
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xf16>, vector<1x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%t] : memref<32xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// Under a branch on the lane only some lanes reach it: no barrier can
// split there.
func.func @ldmatrix_under_branch(%out: memref<32xf16>) {
  scf.forall (%blk) in (1) {
    %tile = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
    scf.forall (%t) in (32) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %cond = arith.cmpi ult, %t, %c16 : index
      scf.if %cond {
        // expected-error @+1 {{'nvgpu.ldmatrix' op cannot run on a CPU: a warp collective must be in the thread loop or in a loop directly inside it, where every lane reaches it}}
        %f = nvgpu.ldmatrix %tile[%c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
        %e = vector.extract %f[0, 0] : f16 from vector<4x2xf16>
        memref.store %e, %out[%t] : memref<32xf16>
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// 48 threads are not whole warps.
func.func @ldmatrix_partial_warp(%out: memref<48xf16>) {
  scf.forall (%blk) in (1) {
    %tile = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
    scf.forall (%t) in (48) {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'nvgpu.ldmatrix' op cannot run on a CPU: warp collectives are emulated in a one-dimensional thread loop of whole warps, from 0 by 1}}
      %f = nvgpu.ldmatrix %tile[%c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %e = vector.extract %f[0, 0] : f16 from vector<4x2xf16>
      memref.store %e, %out[%t] : memref<48xf16>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// ldmatrix of 8-bit elements (valid PTX): only 16-bit fragments are modeled.
func.func @ldmatrix_bytes(%out: memref<32xi8>) {
  scf.forall (%blk) in (1) {
    %tile = memref.alloc() : memref<16x32xi8, #gpu.address_space<workgroup>>
    scf.forall (%t) in (32) {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'nvgpu.ldmatrix' op cannot run on a CPU: only ldmatrix of 16-bit elements into vector<4x2> is emulated; got 'vector<4x4xi8>'}}
      %f = nvgpu.ldmatrix %tile[%c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x32xi8, #gpu.address_space<workgroup>> -> vector<4x4xi8>
      %e = vector.extract %f[0, 0] : i8 from vector<4x4xi8>
      memref.store %e, %out[%t] : memref<32xi8>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
