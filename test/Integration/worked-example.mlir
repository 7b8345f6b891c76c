// The bundled example that the README's first command runs: the worked
// example of docs/Sources.md §1 in TOSA, whose row 0 is about [0.830, 1.170].
// It is raised to one fa.attention with the exact scale, and runs with and
// without raising to the same numbers.
// RUN: fa-opt %S/../../examples/worked-example.mlir --fa-raise-attention \
// RUN:   | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %S/../../examples/worked-example.mlir --fa-cpu-pipeline \
// RUN:   | %mlir-run | FileCheck %s
// RUN: fa-opt %S/../../examples/worked-example.mlir --fa-cpu-pipeline=raise=false \
// RUN:   | %mlir-run | FileCheck %s

// RAISED: fa.attention {{.*}} scale = 0.70710676908493042 : tensor<1x1x4x2xf32>
// RAISED-NOT: tosa.reduce_max

// CHECK: sizes = [1, 4, 2]
// CHECK-NEXT: [0.830{{[0-9]*}}, 1.169{{[0-9]*}}]
// CHECK-NEXT: [1, 1]
// CHECK-NEXT: [0.772{{[0-9]*}}, 1.227{{[0-9]*}}]
// CHECK-NEXT: [1, 1]
