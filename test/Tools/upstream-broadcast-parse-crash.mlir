// Found by fuzzing (2026-11-29): upstream's parser of linalg.broadcast
// (LLVM/MLIR 22.1, Debian) crashes after the error when the `dimensions`
// list is malformed: it stores a null attribute (NamedAttrList::set, SEGV in
// Attribute::getContext). `mlir-opt` crashes the same way; fa-opt only
// parses through upstream, so there is nothing to fix here. XFAIL tracks
// it: this test passes (XPASS, then drop the XFAIL) once the parser reports
// the error and exits 1 instead.
// XFAIL: *
// RUN: not fa-opt %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: expected ']'
// CHECK-NOT: Stack dump
func.func @f(%k: tensor<4x8xf32>, %e: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %b = linalg.broadcast ins(%k : tensor<4x8xf32>) outs(%e : tensor<2x4x8xf32>) dimensions = [0x
  return %b : tensor<2x4x8xf32>
}
