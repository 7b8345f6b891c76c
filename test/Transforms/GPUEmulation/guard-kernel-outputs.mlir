// fa-guard-kernel-outputs: the buffers a kernel grid writes become views
// into allocations larger on every side (one element; 64 bytes on the
// innermost dimension, which keeps rows aligned), filled with a sentinel NaN
// and checked after the kernel; other buffers stay as they are.
// RUN: fa-opt %s --split-input-file --fa-guard-kernel-outputs | FileCheck %s

// The report goes through libc: stderr, fprintf and exit, declared once
// per module; the message, with the output's location, is a global.
// CHECK-DAG: llvm.mlir.global external @stderr() {addr_space = 0 : i32} : !llvm.ptr
// CHECK-DAG: llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.func @exit(i32)

// CHECK-LABEL: func.func @static_output
// CHECK: %[[PADDED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x18x72xf16>
// CHECK: %[[NAN:.*]] = arith.constant 0x7E5D : f16
// CHECK: linalg.fill ins(%[[NAN]] : f16) outs(%[[PADDED]] : memref<3x18x72xf16>)
// CHECK: %[[OUT:.*]] = memref.subview %[[PADDED]][1, 1, 32] [1, 16, 8] [1, 1, 1] : memref<3x18x72xf16> to memref<1x16x8xf16, strided<[1296, 72, 1], offset: 1400>>
// CHECK: scf.forall
// CHECK: vector.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<1x16x8xf16, strided<[1296, 72, 1], offset: 1400>>, vector<8xf16>
// CHECK: {mapping = [#gpu.block<x>]}
// CHECK: %[[RESULT:.*]] = bufferization.to_tensor %[[OUT]] : memref<1x16x8xf16, strided<[1296, 72, 1], offset: 1400>> to tensor<1x16x8xf16>
// The guard loop, after the kernel: every element outside the view must
// still be the sentinel.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[ELEMENT:.*]] = memref.load %[[PADDED]]
// CHECK: %[[BITS:.*]] = arith.bitcast %[[ELEMENT]] : f16 to i16
// CHECK: arith.cmpi ne, %[[BITS]], %{{.*}} : i16
// CHECK: scf.if
// CHECK: %[[MESSAGE:.*]] = llvm.mlir.addressof @fa_guard_message_0
// CHECK: %[[STDERR:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @fprintf(%[[STDERR]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) vararg(!llvm.func<i32 (ptr, ptr, ...)>)
// CHECK: llvm.call @exit(%{{.*}}) : (i32) -> ()
// CHECK: return %[[RESULT]]
// CHECK: llvm.mlir.global internal constant @fa_guard_message_0("fa-guard-kernel-outputs: the kernel output allocated at {{.*}}guard-kernel-outputs.mlir:{{[0-9]+}}:{{[0-9]+}} was written out of bounds at [%ld, %ld, %ld] (a position of the output)\0A\00")
func.func @static_output(%x: vector<8xf16>) -> tensor<1x16x8xf16> {
  %out = memref.alloc() : memref<1x16x8xf16>
  scf.forall (%b) in (2) {
    %c0 = arith.constant 0 : index
    vector.store %x, %out[%c0, %b, %c0] : memref<1x16x8xf16>, vector<8xf16>
  } {mapping = [#gpu.block<x>]}
  %t = bufferization.to_tensor %out : memref<1x16x8xf16> to tensor<1x16x8xf16>
  return %t : tensor<1x16x8xf16>
}

// -----

// A dynamic outer size grows by two; subviews of the output take the interior's
// layout; the check goes before the buffer is freed, which frees the padded
// allocation.
// CHECK-LABEL: func.func @dynamic_output_with_views
// CHECK-SAME: (%[[N:.*]]: index
// CHECK: %[[WIDER:.*]] = arith.addi %[[N]], %c2
// CHECK: %[[PADDED:.*]] = memref.alloc(%[[WIDER]]) {alignment = 64 : i64} : memref<?x36xf32>
// CHECK: arith.constant 0x7FC0F00D : f32
// CHECK: %[[OUT:.*]] = memref.subview %[[PADDED]][1, 16] [%[[N]], 4] [1, 1] : memref<?x36xf32> to memref<?x4xf32, strided<[36, 1], offset: 52>>
// CHECK: %[[ROW:.*]] = memref.subview %[[OUT]][%{{.*}}, 0] [1, 4] [1, 1] : memref<?x4xf32, strided<[36, 1], offset: 52>> to memref<4xf32, strided<[1], offset: ?>>
// CHECK: memref.store %{{.*}}, %[[ROW]]
// CHECK: memref.load %[[OUT]]
// CHECK: llvm.call @exit
// CHECK: memref.dealloc %[[PADDED]] : memref<?x36xf32>
func.func @dynamic_output_with_views(%n: index, %x: f32) -> f32 {
  %out = memref.alloc(%n) : memref<?x4xf32>
  scf.forall (%b) in (%n) {
    %row = memref.subview %out[%b, 0] [1, 4] [1, 1] : memref<?x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %c3 = arith.constant 3 : index
    memref.store %x, %row[%c3] : memref<4xf32, strided<[1], offset: ?>>
  } {mapping = [#gpu.block<x>]}
  %c0 = arith.constant 0 : index
  %first = memref.load %out[%c0, %c0] : memref<?x4xf32>
  memref.dealloc %out : memref<?x4xf32>
  return %first : f32
}

// -----

// Not kernel outputs: workgroup memory, a buffer allocated inside the grid,
// a buffer no grid touches, an integer buffer.
// CHECK-LABEL: func.func @not_outputs
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.subview
// CHECK-NOT: llvm.call
// CHECK: return
func.func @not_outputs(%x: f32, %i: i32) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %host = memref.alloc() : memref<4xf32>
  memref.store %x, %host[%c0] : memref<4xf32>
  %ints = memref.alloc() : memref<4xi32>
  scf.forall (%b) in (4) {
    %shared = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %x, %shared[%b] : memref<4xf32, #gpu.address_space<workgroup>>
    %inside = memref.alloc() : memref<4xf32>
    memref.store %x, %inside[%b] : memref<4xf32>
    memref.store %i, %ints[%b] : memref<4xi32>
  } {mapping = [#gpu.block<x>]}
  %t = bufferization.to_tensor %ints : memref<4xi32> to tensor<4xi32>
  return %t : tensor<4xi32>
}

// -----

// A use whose meaning depends on the layout (here a call that takes the
// buffer as it is) leaves the buffer unguarded.
// CHECK-LABEL: func.func @layout_dependent_use
// CHECK: memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.subview
// CHECK: call @consume
func.func private @consume(memref<4xf32>)
func.func @layout_dependent_use(%x: f32) {
  %out = memref.alloc() : memref<4xf32>
  scf.forall (%b) in (4) {
    memref.store %x, %out[%b] : memref<4xf32>
  } {mapping = [#gpu.block<x>]}
  call @consume(%out) : (memref<4xf32>) -> ()
  return
}

// -----

// A buffer freed in a branch: no single place after every use to check
// the guard, so it is left as it is.
// CHECK-LABEL: func.func @freed_in_a_branch
// CHECK: memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.subview
// CHECK: memref.dealloc %{{.*}} : memref<4xf32>
func.func @freed_in_a_branch(%x: f32, %c: i1) {
  %out = memref.alloc() : memref<4xf32>
  scf.forall (%b) in (4) {
    memref.store %x, %out[%b] : memref<4xf32>
  } {mapping = [#gpu.block<x>]}
  scf.if %c {
    memref.dealloc %out : memref<4xf32>
  }
  return
}
