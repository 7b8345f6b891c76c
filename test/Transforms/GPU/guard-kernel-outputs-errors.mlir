// fa-guard-kernel-outputs reports through libc's fprintf and exit: a module
// that declares them otherwise is refused, at the module.
// RUN: fa-opt %s --fa-guard-kernel-outputs -verify-diagnostics

// expected-error @+1 {{cannot guard kernel outputs: the module declares 'fprintf' or 'exit' with another signature than libc's}}
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
