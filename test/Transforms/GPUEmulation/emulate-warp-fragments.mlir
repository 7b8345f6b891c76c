// The CPU model of ldmatrix and mma.sync is lane-exact: each emulated lane
// holds only its own fragment registers, and every element a lane gets is
// the one PTX gives that lane. One warp loads A (16x16), K (8x16, one key
// per row: B read as it is) and V (16x8, one key per row: B read with
// .trans), computes A·Kᵀ and A·V with mma.sync m16n8k16, and each lane
// writes its four accumulator elements where PTX says they are (row
// g + 8i, column 2q + j, g = lane / 4, q = lane % 4). The products are
// small integers, exact in f16 and f32, so both must equal the plain loops
// exactly; a lane mapping off anywhere (in the model or in these indices)
// moves elements and makes the differences non-zero.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=reverse" --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s
// RUN: fa-opt %s --fa-emulate-threads-on-cpu | FileCheck %s --check-prefix=WAVES

// Collectives that no write separates share one barrier (a wave): the three
// ldmatrix, with only index math between them, are one wave and the two
// mma.sync another, so the 32 lanes run in three phases, not five.
// WAVES-LABEL: func.func @fragments
// WAVES-COUNT-3: scf.forall (%{{.*}}) in (32)
// WAVES-NOT: scf.forall (%{{.*}}) in (32)
// WAVES: func.func @pattern
// CHECK: checksum A·Kᵀ
// CHECK-NEXT: -47
// CHECK: difference A·Kᵀ
// CHECK-NEXT: 0
// CHECK: checksum A·V
// CHECK-NEXT: -71
// CHECK: difference A·V
// CHECK-NEXT: 0

#wg = #gpu.address_space<workgroup>

func.func @fragments(%a: memref<16x16xf16>, %k: memref<8x16xf16>,
                     %v: memref<16x8xf16>, %scores: memref<16x8xf32>,
                     %values: memref<16x8xf32>) {
  scf.forall (%block) in (1) {
    %as = memref.alloc() : memref<16x16xf16, #wg>
    %ks = memref.alloc() : memref<8x16xf16, #wg>
    %vs = memref.alloc() : memref<16x8xf16, #wg>
    memref.copy %a, %as : memref<16x16xf16> to memref<16x16xf16, #wg>
    memref.copy %k, %ks : memref<8x16xf16> to memref<8x16xf16, #wg>
    memref.copy %v, %vs : memref<16x8xf16> to memref<16x8xf16, #wg>
    scf.forall (%t) in (32) {
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c0 = arith.constant 0 : index
      // A: lane l addresses row l % 16, columns 8 (l / 16): matrices
      // (rows 0-7, cols 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15).
      %rowA = arith.remui %t, %c16 : index
      %halfA = arith.divui %t, %c16 : index
      %colA = arith.muli %halfA, %c8 : index
      %fa = nvgpu.ldmatrix %as[%rowA, %colA] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #wg> -> vector<4x2xf16>
      // K: lane l < 16 addresses key l % 8, columns 8 ((l / 8) % 2).
      %rowK = arith.remui %t, %c8 : index
      %pairK = arith.divui %t, %c8 : index
      %halfK = arith.remui %pairK, %c2 : index
      %colK = arith.muli %halfK, %c8 : index
      %fk = nvgpu.ldmatrix %ks[%rowK, %colK] {numTiles = 2 : i32, transpose = false} : memref<8x16xf16, #wg> -> vector<2x2xf16>
      // V: lane l < 16 addresses key l, transposed into B's layout.
      %rowV = arith.remui %t, %c16 : index
      %fv = nvgpu.ldmatrix %vs[%rowV, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, #wg> -> vector<2x2xf16>
      %zero = arith.constant dense<0.0> : vector<2x2xf32>
      %s = nvgpu.mma.sync(%fa, %fk, %zero) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %o = nvgpu.mma.sync(%fa, %fv, %zero) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %g = arith.divui %t, %c4 : index
      %q = arith.remui %t, %c4 : index
      %col0 = arith.muli %q, %c2 : index
      %c1 = arith.constant 1 : index
      %col1 = arith.addi %col0, %c1 : index
      %row8 = arith.addi %g, %c8 : index
      %s00 = vector.extract %s[0, 0] : f32 from vector<2x2xf32>
      %s01 = vector.extract %s[0, 1] : f32 from vector<2x2xf32>
      %s10 = vector.extract %s[1, 0] : f32 from vector<2x2xf32>
      %s11 = vector.extract %s[1, 1] : f32 from vector<2x2xf32>
      memref.store %s00, %scores[%g, %col0] : memref<16x8xf32>
      memref.store %s01, %scores[%g, %col1] : memref<16x8xf32>
      memref.store %s10, %scores[%row8, %col0] : memref<16x8xf32>
      memref.store %s11, %scores[%row8, %col1] : memref<16x8xf32>
      %o00 = vector.extract %o[0, 0] : f32 from vector<2x2xf32>
      %o01 = vector.extract %o[0, 1] : f32 from vector<2x2xf32>
      %o10 = vector.extract %o[1, 0] : f32 from vector<2x2xf32>
      %o11 = vector.extract %o[1, 1] : f32 from vector<2x2xf32>
      memref.store %o00, %values[%g, %col0] : memref<16x8xf32>
      memref.store %o01, %values[%g, %col1] : memref<16x8xf32>
      memref.store %o10, %values[%row8, %col0] : memref<16x8xf32>
      memref.store %o11, %values[%row8, %col1] : memref<16x8xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// Small integers from a position: ((i * x + j * y) mod m) - m / 2.
func.func @pattern(%i: index, %j: index, %x: index, %y: index, %m: index) -> f16 {
  %ix = arith.muli %i, %x : index
  %jy = arith.muli %j, %y : index
  %sum = arith.addi %ix, %jy : index
  %r = arith.remui %sum, %m : index
  %c2 = arith.constant 2 : index
  %half = arith.divui %m, %c2 : index
  %centered = arith.subi %r, %half : index
  %int = arith.index_cast %centered : index to i32
  %value = arith.sitofp %int : i32 to f16
  return %value : f16
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<16x16xf16>
  %k = memref.alloc() : memref<8x16xf16>
  %v = memref.alloc() : memref<16x8xf16>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %x = func.call @pattern(%i, %j, %c7, %c3, %c11) : (index, index, index, index, index) -> f16
      memref.store %x, %a[%i, %j] : memref<16x16xf16>
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %x = func.call @pattern(%i, %j, %c3, %c5, %c7) : (index, index, index, index, index) -> f16
      memref.store %x, %v[%i, %j] : memref<16x8xf16>
    }
  }
  scf.for %n = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %x = func.call @pattern(%n, %j, %c5, %c7, %c9) : (index, index, index, index, index) -> f16
      memref.store %x, %k[%n, %j] : memref<8x16xf16>
    }
  }
  %scores = memref.alloc() : memref<16x8xf32>
  %values = memref.alloc() : memref<16x8xf32>
  func.call @fragments(%a, %k, %v, %scores, %values) : (memref<16x16xf16>, memref<8x16xf16>, memref<16x8xf16>, memref<16x8xf32>, memref<16x8xf32>) -> ()

  // The plain products, their checksums and the largest differences.
  %zero = arith.constant 0.0 : f32
  %sums:4 = scf.for %i = %c0 to %c16 step %c1 iter_args(%cs = %zero, %ds = %zero, %cv = %zero, %dv = %zero) -> (f32, f32, f32, f32) {
    %row:4 = scf.for %n = %c0 to %c8 step %c1 iter_args(%cs1 = %cs, %ds1 = %ds, %cv1 = %cv, %dv1 = %dv) -> (f32, f32, f32, f32) {
      %dots:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%pk = %zero, %pv = %zero) -> (f32, f32) {
        %aij = memref.load %a[%i, %j] : memref<16x16xf16>
        %knj = memref.load %k[%n, %j] : memref<8x16xf16>
        %vjn = memref.load %v[%j, %n] : memref<16x8xf16>
        %af = arith.extf %aij : f16 to f32
        %kf = arith.extf %knj : f16 to f32
        %vf = arith.extf %vjn : f16 to f32
        %mk = arith.mulf %af, %kf : f32
        %mv = arith.mulf %af, %vf : f32
        %nk = arith.addf %pk, %mk : f32
        %nv = arith.addf %pv, %mv : f32
        scf.yield %nk, %nv : f32, f32
      }
      %gotS = memref.load %scores[%i, %n] : memref<16x8xf32>
      %gotV = memref.load %values[%i, %n] : memref<16x8xf32>
      %diffS = arith.subf %gotS, %dots#0 : f32
      %diffV = arith.subf %gotV, %dots#1 : f32
      %absS = math.absf %diffS : f32
      %absV = math.absf %diffV : f32
      %cs2 = arith.addf %cs1, %gotS : f32
      %ds2 = arith.maximumf %ds1, %absS : f32
      %cv2 = arith.addf %cv1, %gotV : f32
      %dv2 = arith.maximumf %dv1, %absV : f32
      scf.yield %cs2, %ds2, %cv2, %dv2 : f32, f32, f32, f32
    }
    scf.yield %row#0, %row#1, %row#2, %row#3 : f32, f32, f32, f32
  }
  vector.print str "checksum A·Kᵀ\n"
  vector.print %sums#0 : f32
  vector.print str "difference A·Kᵀ\n"
  vector.print %sums#1 : f32
  vector.print str "checksum A·V\n"
  vector.print %sums#2 : f32
  vector.print str "difference A·V\n"
  vector.print %sums#3 : f32
  return
}
