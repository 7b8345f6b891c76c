// A kernel grid that stores one row past its output fails by numbers: the
// guard around the output (fa-guard-kernel-outputs) reports the position
// it reached on stderr and the run exits with status 1. The same grid in bounds runs and prints its
// output.
// RUN: fa-opt %s --fa-guard-kernel-outputs --fa-cpu-pipeline="raise=false reference=true" > %t.mlir
// RUN: %run-entry in_bounds %t.mlir | FileCheck %s --check-prefix=IN
// RUN: not %run-entry one_row_past %t.mlir 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not %run-entry one_column_before %t.mlir 2>&1 | FileCheck %s --check-prefix=BEFORE

// IN: [1, 1, 1, 1]
// IN-NEXT: [2, 2, 2, 2]
// IN-NEXT: [3, 3, 3, 3]
// PAST: fa-guard-kernel-outputs: the kernel output allocated at {{.*}}guard-kernel-outputs-run.mlir:[[#@LINE+8]]:10 was written out of bounds at [3, 0] (a position of the output)
// BEFORE: written out of bounds at [0, -1] (a position of the output)

func.func private @printMemrefF32(tensor<*xf32>)

// Block r writes row r (rows 0..2), or row r + 1 with `shift` = 1.
func.func @grid(%rowShift: index, %columnShift: index) {
  %one = arith.constant 1.0 : f32
  %out = memref.alloc() : memref<3x4xf32>
  scf.forall (%r) in (3) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %row = arith.addi %r, %rowShift : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %value = arith.addf %rf, %one : f32
    scf.for %c = %c0 to %c4 step %c1 {
      %column = arith.subi %c, %columnShift : index
      memref.store %value, %out[%row, %column] : memref<3x4xf32>
    }
  } {mapping = [#gpu.block<x>]}
  %t = bufferization.to_tensor %out restrict : memref<3x4xf32> to tensor<3x4xf32>
  %u = tensor.cast %t : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @in_bounds() {
  %c0 = arith.constant 0 : index
  call @grid(%c0, %c0) : (index, index) -> ()
  return
}

func.func @one_row_past() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  call @grid(%c1, %c0) : (index, index) -> ()
  return
}

func.func @one_column_before() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  call @grid(%c0, %c1) : (index, index) -> ()
  return
}
