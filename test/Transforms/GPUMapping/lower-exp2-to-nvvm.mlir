// fa-lower-exp2-to-nvvm: f32 math.exp2 marked afn (the kernels' softmax)
// becomes ex2.approx.ftz.f32; vectors are unrolled; every other exponential
// is left to upstream's libdevice lowering.
// RUN: fa-opt %s --fa-lower-exp2-to-nvvm | FileCheck %s

// CHECK-LABEL: func.func @scalar
// CHECK: %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%arg0) : (f32) -> f32
// CHECK-NEXT: return %[[E]]
func.func @scalar(%x: f32) -> f32 {
  %e = math.exp2 %x fastmath<afn> : f32
  return %e : f32
}

// CHECK-LABEL: func.func @vector
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
// CHECK-NOT: math.exp2
func.func @vector(%x: vector<4xf32>) -> vector<4xf32> {
  %e = math.exp2 %x fastmath<afn> : vector<4xf32>
  return %e : vector<4xf32>
}

// Without afn, or not f32: upstream's.
// CHECK-LABEL: func.func @left_alone
// CHECK: math.exp2 %arg0 : f32
// CHECK: math.exp2 %arg1 fastmath<afn> : f64
// CHECK: math.exp2 %arg2 fastmath<afn> : f16
// CHECK-NOT: llvm.call_intrinsic
func.func @left_alone(%x: f32, %y: f64, %z: f16) -> (f32, f64, f16) {
  %a = math.exp2 %x : f32
  %b = math.exp2 %y fastmath<afn> : f64
  %c = math.exp2 %z fastmath<afn> : f16
  return %a, %b, %c : f32, f64, f16
}
