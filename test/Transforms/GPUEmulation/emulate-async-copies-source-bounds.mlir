// The CPU model of cp.async checks each copy's source when it is issued: a
// copy that reads any element must read within its source (on a GPU a read
// past a tensor faults or returns another tensor's data). Each of four
// threads copies one 4-element row of a [4, 8] source, shifted by `shift`
// rows and `skew` columns; with `clamp`, a row past the source reads no
// element (cp.async's zero fill):
//  - in bounds, it prints the rows it copied;
//  - one row past the source (the last thread reads row 4), the run reports
//    the copy, the indices and the source's size and exits 1;
//  - one column past (4 elements from column 5 of 8), the same;
//  - a copy that reads nothing (a zero fill) may point past the source, as
//    the kernels' prefetches past the last key block do.
// RUN: fa-opt %s --fa-emulate-threads-on-cpu --fa-cpu-pipeline="raise=false reference=true" > %t.mlir
// RUN: %run-entry in_bounds %t.mlir | FileCheck %s --check-prefix=IN
// RUN: not %run-entry one_row_past %t.mlir 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: not %run-entry columns_past %t.mlir 2>&1 | FileCheck %s --check-prefix=COLUMN
// RUN: %run-entry zero_fill_past %t.mlir | FileCheck %s --check-prefix=ZERO
// Without the check the out-of-bounds copy runs (and reads what lies there).
// RUN: fa-opt %s --fa-emulate-threads-on-cpu=check-async-sources=false --fa-cpu-pipeline="raise=false reference=true" | FileCheck %s --check-prefix=UNCHECKED

// IN: [1, 2, 3, 4]
// IN-NEXT: [9, 10, 11, 12]
// IN-NEXT: [17, 18, 19, 20]
// IN-NEXT: [25, 26, 27, 28]
// ROW: fa-emulate-threads-on-cpu: the cp.async copy at {{.*}}emulate-async-copies-source-bounds.mlir:{{[0-9]+}}:{{[0-9]+}} reads 4 elements from [4, 0] of a source of size [4, 8]
// COLUMN: the cp.async copy at {{.*}} reads 4 elements from [0, 5] of a source of size [4, 8]
// ZERO: [9, 10, 11, 12]
// ZERO-NEXT: [17, 18, 19, 20]
// ZERO-NEXT: [25, 26, 27, 28]
// ZERO-NEXT: [0, 0, 0, 0]
// UNCHECKED-NOT: fa_async_copy_message

#wg = #gpu.address_space<workgroup>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @copy_rows(%shift: index, %skew: index, %clamp: i1) {
  %src = memref.alloc() : memref<4x8xf32>
  %out = memref.alloc() : memref<4x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %k = affine.apply affine_map<(i, j) -> (i * 8 + j + 1)>(%i, %j)
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      memref.store %kf, %src[%i, %j] : memref<4x8xf32>
    }
  }
  scf.forall (%blk) in (1) {
    %tile = memref.alloc() : memref<4x4xf32, #wg>
    scf.forall (%t) in (4) {
      %z = arith.constant 0 : index
      %row = arith.addi %t, %shift : index
      %four = arith.constant 4 : index
      %past = arith.cmpi uge, %row, %four : index
      %empty = arith.andi %clamp, %past : i1
      %count = arith.select %empty, %z, %four : index
      %tok = nvgpu.device_async_copy %src[%row, %skew], %tile[%t, %z], 4, %count : memref<4x8xf32> to memref<4x4xf32, #wg>
      %g = nvgpu.device_async_create_group %tok
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
      %v = vector.load %tile[%t, %z] : memref<4x4xf32, #wg>, vector<4xf32>
      vector.store %v, %out[%t, %z] : memref<4x4xf32>, vector<4xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  %tensor = bufferization.to_tensor %out restrict : memref<4x4xf32> to tensor<4x4xf32>
  %u = tensor.cast %tensor : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @in_bounds() {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  call @copy_rows(%c0, %c0, %false) : (index, index, i1) -> ()
  return
}

func.func @one_row_past() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  call @copy_rows(%c1, %c0, %false) : (index, index, i1) -> ()
  return
}

func.func @columns_past() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %false = arith.constant false
  call @copy_rows(%c0, %c5, %false) : (index, index, i1) -> ()
  return
}

// Rows 1..3 in bounds; the last thread's row 4 reads nothing.
func.func @zero_fill_past() {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  call @copy_rows(%c1, %c0, %true) : (index, index, i1) -> ()
  return
}
