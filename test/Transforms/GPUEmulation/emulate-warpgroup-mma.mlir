// The CPU model of Hopper's warpgroup matmul (fa.warpgroup_mma) is
// thread-exact: one warpgroup computes an attention block's two products
// the way the sm_90a kernel will, S = Q Kᵀ with A and B from shared memory
// (4 K steps of 16 over d = 64, the descriptors' start advanced 32 bytes
// into each 128-byte swizzled row) and O = P V with P from registers (S's
// accumulator rounded to f16, registers 8j..8j+7 for key step j) and V
// M/N-major (transpose_b). Q, K and V sit in shared memory in rows of 128
// bytes whose 16-byte chunks are XORed with the row (the 128-byte swizzle
// TMA writes). Each thread stores its accumulator registers where
// WarpgroupLayout.h says they are; the products are small integers, exact
// in f16 and f32, so both must equal the plain loops exactly. A wrong lane
// mapping, descriptor field or swizzle moves elements and makes the
// differences non-zero.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s
// RUN: fa-opt %s --fa-emulate-threads-on-cpu="thread-order=reverse" --fa-cpu-pipeline="raise=false reference=true" | %mlir-run | FileCheck %s
// RUN: fa-opt %s --fa-emulate-threads-on-cpu | FileCheck %s --check-prefix=PHASES

// The four RS wgmmas of P V share one exchange (one barrier): with the
// barrier after the copies, the 128 threads run in three phases.
// PHASES-LABEL: func.func @block
// PHASES-COUNT-3: scf.forall (%{{.*}}) in (128)
// PHASES-NOT: scf.forall (%{{.*}}) in (128)
// PHASES: func.func @pattern
// CHECK: checksum S
// CHECK-NEXT: 6
// CHECK: difference S
// CHECK-NEXT: 0
// CHECK: checksum O
// CHECK-NEXT: -6
// CHECK: difference O
// CHECK-NEXT: 0

#wg = #gpu.address_space<workgroup>
!smem = memref<4096xf16, #wg>

// Element (r, c) of a 64 x 64 tile in rows of 128 bytes, 128-byte swizzle:
// element r * 64 + 8 ((c / 8) xor (r % 8)) + c % 8.
func.func @swizzled(%r: index, %c: index) -> index {
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %chunk = arith.divui %c, %c8 : index
  %line = arith.remui %r, %c8 : index
  %moved = arith.xori %chunk, %line : index
  %in = arith.remui %c, %c8 : index
  %rowStart = arith.muli %r, %c64 : index
  %chunkStart = arith.muli %moved, %c8 : index
  %a = arith.addi %rowStart, %chunkStart : index
  %e = arith.addi %a, %in : index
  return %e : index
}

func.func @block(%q: memref<64x64xf16>, %k: memref<64x64xf16>,
                 %v: memref<64x64xf16>, %scores: memref<64x64xf32>,
                 %values: memref<64x64xf32>) {
  scf.forall (%b) in (1) {
    %qs = memref.alloc() : !smem
    %ks = memref.alloc() : !smem
    %vs = memref.alloc() : !smem
    scf.forall (%t) in (128) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      // Thread t copies elements 32 t .. 32 t + 31 of each tile.
      %first = arith.muli %t, %c32 : index
      %last = arith.addi %first, %c32 : index
      scf.for %e = %first to %last step %c1 {
        %r = arith.divui %e, %c64 : index
        %c = arith.remui %e, %c64 : index
        %at = func.call @swizzled(%r, %c) : (index, index) -> index
        %x = memref.load %q[%r, %c] : memref<64x64xf16>
        memref.store %x, %qs[%at] : !smem
        %y = memref.load %k[%r, %c] : memref<64x64xf16>
        memref.store %y, %ks[%at] : !smem
        %z = memref.load %v[%r, %c] : memref<64x64xf16>
        memref.store %z, %vs[%at] : !smem
      }
      gpu.barrier
      %dqk0 = arith.constant 4611686293305360384 : i64
      %dqk1 = arith.constant 4611686293305360386 : i64
      %dqk2 = arith.constant 4611686293305360388 : i64
      %dqk3 = arith.constant 4611686293305360390 : i64
      %dv0 = arith.constant 4611686293338849280 : i64
      %dv1 = arith.constant 4611686293338849408 : i64
      %dv2 = arith.constant 4611686293338849536 : i64
      %dv3 = arith.constant 4611686293338849664 : i64
      %zero = arith.constant dense<0.0> : vector<32xf32>
      %s0 = fa.warpgroup_mma %zero, %dqk0 in %qs, %dqk0 in %ks {ignore_accumulator} : vector<32xf32>, i64 in !smem, !smem
      %s1 = fa.warpgroup_mma %s0, %dqk1 in %qs, %dqk1 in %ks : vector<32xf32>, i64 in !smem, !smem
      %s2 = fa.warpgroup_mma %s1, %dqk2 in %qs, %dqk2 in %ks : vector<32xf32>, i64 in !smem, !smem
      %s3 = fa.warpgroup_mma %s2, %dqk3 in %qs, %dqk3 in %ks : vector<32xf32>, i64 in !smem, !smem
      %s = fa.warpgroup_mma_wait %s3 : vector<32xf32>
      %p16 = arith.truncf %s : vector<32xf32> to vector<32xf16>
      %pzero = arith.constant dense<0.0> : vector<4x2xf16>
      %pair0_0 = vector.shuffle %p16, %p16 [0, 1] : vector<32xf16>, vector<32xf16>
      %p0_0 = vector.insert %pair0_0, %pzero [0] : vector<2xf16> into vector<4x2xf16>
      %pair0_1 = vector.shuffle %p16, %p16 [2, 3] : vector<32xf16>, vector<32xf16>
      %p0_1 = vector.insert %pair0_1, %p0_0 [1] : vector<2xf16> into vector<4x2xf16>
      %pair0_2 = vector.shuffle %p16, %p16 [4, 5] : vector<32xf16>, vector<32xf16>
      %p0_2 = vector.insert %pair0_2, %p0_1 [2] : vector<2xf16> into vector<4x2xf16>
      %pair0_3 = vector.shuffle %p16, %p16 [6, 7] : vector<32xf16>, vector<32xf16>
      %p0 = vector.insert %pair0_3, %p0_2 [3] : vector<2xf16> into vector<4x2xf16>
      %pair1_0 = vector.shuffle %p16, %p16 [8, 9] : vector<32xf16>, vector<32xf16>
      %p1_0 = vector.insert %pair1_0, %pzero [0] : vector<2xf16> into vector<4x2xf16>
      %pair1_1 = vector.shuffle %p16, %p16 [10, 11] : vector<32xf16>, vector<32xf16>
      %p1_1 = vector.insert %pair1_1, %p1_0 [1] : vector<2xf16> into vector<4x2xf16>
      %pair1_2 = vector.shuffle %p16, %p16 [12, 13] : vector<32xf16>, vector<32xf16>
      %p1_2 = vector.insert %pair1_2, %p1_1 [2] : vector<2xf16> into vector<4x2xf16>
      %pair1_3 = vector.shuffle %p16, %p16 [14, 15] : vector<32xf16>, vector<32xf16>
      %p1 = vector.insert %pair1_3, %p1_2 [3] : vector<2xf16> into vector<4x2xf16>
      %pair2_0 = vector.shuffle %p16, %p16 [16, 17] : vector<32xf16>, vector<32xf16>
      %p2_0 = vector.insert %pair2_0, %pzero [0] : vector<2xf16> into vector<4x2xf16>
      %pair2_1 = vector.shuffle %p16, %p16 [18, 19] : vector<32xf16>, vector<32xf16>
      %p2_1 = vector.insert %pair2_1, %p2_0 [1] : vector<2xf16> into vector<4x2xf16>
      %pair2_2 = vector.shuffle %p16, %p16 [20, 21] : vector<32xf16>, vector<32xf16>
      %p2_2 = vector.insert %pair2_2, %p2_1 [2] : vector<2xf16> into vector<4x2xf16>
      %pair2_3 = vector.shuffle %p16, %p16 [22, 23] : vector<32xf16>, vector<32xf16>
      %p2 = vector.insert %pair2_3, %p2_2 [3] : vector<2xf16> into vector<4x2xf16>
      %pair3_0 = vector.shuffle %p16, %p16 [24, 25] : vector<32xf16>, vector<32xf16>
      %p3_0 = vector.insert %pair3_0, %pzero [0] : vector<2xf16> into vector<4x2xf16>
      %pair3_1 = vector.shuffle %p16, %p16 [26, 27] : vector<32xf16>, vector<32xf16>
      %p3_1 = vector.insert %pair3_1, %p3_0 [1] : vector<2xf16> into vector<4x2xf16>
      %pair3_2 = vector.shuffle %p16, %p16 [28, 29] : vector<32xf16>, vector<32xf16>
      %p3_2 = vector.insert %pair3_2, %p3_1 [2] : vector<2xf16> into vector<4x2xf16>
      %pair3_3 = vector.shuffle %p16, %p16 [30, 31] : vector<32xf16>, vector<32xf16>
      %p3 = vector.insert %pair3_3, %p3_2 [3] : vector<2xf16> into vector<4x2xf16>
      %o0 = fa.warpgroup_mma %zero, %p0, %dv0 in %vs {ignore_accumulator, transpose_b} : vector<32xf32>, vector<4x2xf16>, !smem
      %o1 = fa.warpgroup_mma %o0, %p1, %dv1 in %vs {transpose_b} : vector<32xf32>, vector<4x2xf16>, !smem
      %o2 = fa.warpgroup_mma %o1, %p2, %dv2 in %vs {transpose_b} : vector<32xf32>, vector<4x2xf16>, !smem
      %o3 = fa.warpgroup_mma %o2, %p3, %dv3 in %vs {transpose_b} : vector<32xf32>, vector<4x2xf16>, !smem
      %o = fa.warpgroup_mma_wait %o3 : vector<32xf32>
      // Register r of thread t: row 16 (t / 32) + (t % 32) / 4
      // + 8 ((r / 2) % 2), column 8 (r / 4) + 2 (t % 4) + r % 2.
      %warp = arith.divui %t, %c32 : index
      %warpRow = arith.muli %warp, %c16 : index
      %lane = arith.remui %t, %c32 : index
      %g = arith.divui %lane, %c4 : index
      %rowBase = arith.addi %warpRow, %g : index
      %q4 = arith.remui %t, %c4 : index
      %colBase = arith.muli %q4, %c2 : index
      scf.for %reg = %c0 to %c32 step %c1 {
        %half = arith.divui %reg, %c2 : index
        %odd = arith.remui %half, %c2 : index
        %down = arith.muli %odd, %c8 : index
        %row = arith.addi %rowBase, %down : index
        %slice = arith.divui %reg, %c4 : index
        %sliceCol = arith.muli %slice, %c8 : index
        %pair = arith.remui %reg, %c2 : index
        %col0 = arith.addi %sliceCol, %colBase : index
        %col = arith.addi %col0, %pair : index
        %sv = vector.extract %s[%reg] : f32 from vector<32xf32>
        memref.store %sv, %scores[%row, %col] : memref<64x64xf32>
        %ov = vector.extract %o[%reg] : f32 from vector<32xf32>
        memref.store %ov, %values[%row, %col] : memref<64x64xf32>
      }
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
  %c64 = arith.constant 64 : index
  %q = memref.alloc() : memref<64x64xf16>
  %k = memref.alloc() : memref<64x64xf16>
  %v = memref.alloc() : memref<64x64xf16>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %x = func.call @pattern(%i, %j, %c7, %c3, %c5) : (index, index, index, index, index) -> f16
      memref.store %x, %q[%i, %j] : memref<64x64xf16>
      %y = func.call @pattern(%i, %j, %c3, %c5, %c7) : (index, index, index, index, index) -> f16
      memref.store %y, %k[%i, %j] : memref<64x64xf16>
      %z = func.call @pattern(%i, %j, %c5, %c7, %c3) : (index, index, index, index, index) -> f16
      memref.store %z, %v[%i, %j] : memref<64x64xf16>
    }
  }
  %scores = memref.alloc() : memref<64x64xf32>
  %values = memref.alloc() : memref<64x64xf32>
  func.call @block(%q, %k, %v, %scores, %values) : (memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>, memref<64x64xf32>) -> ()

  // The plain products S = Q Kᵀ and O = f16(S) V.
  %zero = arith.constant 0.0 : f32
  %ref = memref.alloc() : memref<64x64xf32>
  %sumS:2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%cs = %zero, %ds = %zero) -> (f32, f32) {
    %row:2 = scf.for %n = %c0 to %c64 step %c1 iter_args(%cs1 = %cs, %ds1 = %ds) -> (f32, f32) {
      %dot = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %qij = memref.load %q[%i, %j] : memref<64x64xf16>
        %knj = memref.load %k[%n, %j] : memref<64x64xf16>
        %qf = arith.extf %qij : f16 to f32
        %kf = arith.extf %knj : f16 to f32
        %m = arith.mulf %qf, %kf : f32
        %next = arith.addf %acc, %m : f32
        scf.yield %next : f32
      }
      memref.store %dot, %ref[%i, %n] : memref<64x64xf32>
      %got = memref.load %scores[%i, %n] : memref<64x64xf32>
      %diff = arith.subf %got, %dot : f32
      %abs = math.absf %diff : f32
      %cs2 = arith.addf %cs1, %got : f32
      %ds2 = arith.maximumf %ds1, %abs : f32
      scf.yield %cs2, %ds2 : f32, f32
    }
    scf.yield %row#0, %row#1 : f32, f32
  }
  %sumO:2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%co = %zero, %do = %zero) -> (f32, f32) {
    %row:2 = scf.for %n = %c0 to %c64 step %c1 iter_args(%co1 = %co, %do1 = %do) -> (f32, f32) {
      %dot = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %sij = memref.load %ref[%i, %j] : memref<64x64xf32>
        %p = arith.truncf %sij : f32 to f16
        %pf = arith.extf %p : f16 to f32
        %vjn = memref.load %v[%j, %n] : memref<64x64xf16>
        %vf = arith.extf %vjn : f16 to f32
        %m = arith.mulf %pf, %vf : f32
        %next = arith.addf %acc, %m : f32
        scf.yield %next : f32
      }
      %got = memref.load %values[%i, %n] : memref<64x64xf32>
      %diff = arith.subf %got, %dot : f32
      %abs = math.absf %diff : f32
      %co2 = arith.addf %co1, %got : f32
      %do2 = arith.maximumf %do1, %abs : f32
      scf.yield %co2, %do2 : f32, f32
    }
    scf.yield %row#0, %row#1 : f32, f32
  }
  vector.print str "checksum S\n"
  vector.print %sumS#0 : f32
  vector.print str "difference S\n"
  vector.print %sumS#1 : f32
  vector.print str "checksum O\n"
  vector.print %sumO#0 : f32
  vector.print str "difference O\n"
  vector.print %sumO#1 : f32
  return
}
