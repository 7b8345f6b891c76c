// Identical outlined kernels (layers with the same attention) share one
// module: the launches of the copies move to the first, and the copies go.
// Kernels that differ in a constant, in an attribute or in a type stay
// apart.
// RUN: fa-opt %s --fa-deduplicate-kernels | FileCheck %s

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @layer
// CHECK-NOT: gpu.module @layer_0
// CHECK: gpu.module @other_constant
// CHECK: gpu.module @other_attribute
// CHECK: gpu.module @other_type
// CHECK-NOT: gpu.module @layer_1
// CHECK: func.func @forward
// CHECK: gpu.launch_func @layer::@layer
// CHECK: gpu.launch_func @layer::@layer
// CHECK: gpu.launch_func @other_constant::@other_constant
// CHECK: gpu.launch_func @other_attribute::@other_attribute
// CHECK: gpu.launch_func @other_type::@other_type
// CHECK: gpu.launch_func @layer::@layer
module attributes {gpu.container_module} {
  gpu.module @layer {
    gpu.func @layer(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @layer_0 {
    gpu.func @layer_0(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @other_constant {
    gpu.func @other_constant(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 2.0 : f32
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @other_attribute {
    gpu.func @other_attribute(%a: memref<4xf32>) kernel attributes {nvvm.minctasm = 2 : i32} {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @other_type {
    gpu.func @other_type(%a: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%c0] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @layer_1 {
    gpu.func @layer_1(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  func.func @forward(%a: memref<4xf32>, %b: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @layer::@layer blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @layer_0::@layer_0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @other_constant::@other_constant blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @other_attribute::@other_attribute blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @other_type::@other_type blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xf32>)
    gpu.launch_func @layer_1::@layer_1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
}
