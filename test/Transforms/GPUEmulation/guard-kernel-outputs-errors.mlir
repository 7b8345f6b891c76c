// fa-guard-kernel-outputs reports through libc's stderr, fprintf and exit:
// a module that defines them otherwise is refused, at the module, naming
// the symbol and what it should be.
// RUN: fa-opt %s --split-input-file --fa-guard-kernel-outputs -verify-diagnostics

// expected-error @+1 {{cannot guard kernel outputs: the module declares 'exit' otherwise than libc's, an llvm.func of type '!llvm.func<void (i32)>'}}
module {
  llvm.func @exit(i64)
  func.func @clash(%x: f32) {
    %out = memref.alloc() : memref<4xf32>
    scf.forall (%b) in (4) {
      memref.store %x, %out[%b] : memref<4xf32>
    } {mapping = [#gpu.block<x>]}
    return
  }
}

// -----

// expected-error @+1 {{cannot guard kernel outputs: the module declares 'fprintf' otherwise than libc's, an llvm.func of type '!llvm.func<i32 (ptr, ptr, ...)>'}}
module {
  func.func private @fprintf(i32)
  func.func @clash(%x: f32) {
    %out = memref.alloc() : memref<4xf32>
    scf.forall (%b) in (4) {
      memref.store %x, %out[%b] : memref<4xf32>
    } {mapping = [#gpu.block<x>]}
    return
  }
}

// -----

// expected-error @+1 {{cannot guard kernel outputs: the module defines 'stderr' as something other than libc's stream, an llvm.mlir.global of type !llvm.ptr}}
module {
  llvm.mlir.global external @stderr() : i32
  func.func @clash(%x: f32) {
    %out = memref.alloc() : memref<4xf32>
    scf.forall (%b) in (4) {
      memref.store %x, %out[%b] : memref<4xf32>
    } {mapping = [#gpu.block<x>]}
    return
  }
}
