// The bundled example that the README's first command runs: the worked
// example of FIELD-NOTES §1, whose row 0 is about [0.830, 1.170].
// RUN: fa-opt %S/../../examples/worked-example.mlir --fa-cpu-pipeline \
// RUN:   | %mlir-run | FileCheck %s

// CHECK: sizes = [1, 1, 4, 2]
// CHECK-NEXT: [0.830{{[0-9]*}}, 1.169{{[0-9]*}}]
// CHECK-NEXT: [1, 1]
// CHECK-NEXT: [0.772{{[0-9]*}}, 1.227{{[0-9]*}}]
// CHECK-NEXT: [1, 1]
