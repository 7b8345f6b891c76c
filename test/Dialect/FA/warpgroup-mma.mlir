// fa.warpgroup_mma and fa.warpgroup_mma_wait print as they parse, with A
// from shared memory (a descriptor in a buffer) or from registers.
// RUN: fa-opt %s | fa-opt | FileCheck %s
// RUN: fa-opt %s -mlir-print-op-generic | fa-opt | FileCheck %s

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
!bbuf = memref<4096xbf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @shared_a
// CHECK: %[[D:.*]] = fa.warpgroup_mma %{{.*}}, %{{.*}} in %{{.*}}, %{{.*}} in %{{.*}} {transpose_b} : vector<32xf32>, i64 in memref<8192xf16, #gpu.address_space<workgroup>>, memref<8192xf16, #gpu.address_space<workgroup>>
// CHECK: fa.warpgroup_mma_wait %[[D]] : vector<32xf32>
func.func @shared_a(%acc: vector<32xf32>, %da: i64, %db: i64, %a: !buf, %b: !buf) -> vector<32xf32> {
  %d = fa.warpgroup_mma %acc, %da in %a, %db in %b {transpose_b} : vector<32xf32>, i64 in !buf, !buf
  %r = fa.warpgroup_mma_wait %d {pending = 0} : vector<32xf32>
  return %r : vector<32xf32>
}

// CHECK-LABEL: func.func @register_a
// CHECK: fa.warpgroup_mma %{{.*}}, %{{.*}}, %{{.*}} in %{{.*}} {ignore_accumulator} : vector<128xf32>, vector<4x2xbf16>, memref<4096xbf16, #gpu.address_space<workgroup>>
// CHECK: fa.warpgroup_mma_wait %{{.*}}, %{{.*}} {pending = 1 : i64} : vector<128xf32>, vector<4xf32>
func.func @register_a(%acc: vector<128xf32>, %a: vector<4x2xbf16>, %db: i64, %b: !bbuf, %other: vector<4xf32>) -> (vector<128xf32>, vector<4xf32>) {
  %d = fa.warpgroup_mma %acc, %a, %db in %b {ignore_accumulator} : vector<128xf32>, vector<4x2xbf16>, !bbuf
  %r:2 = fa.warpgroup_mma_wait %d, %other {pending = 1} : vector<128xf32>, vector<4xf32>
  return %r#0, %r#1 : vector<128xf32>, vector<4xf32>
}

// A M/N-major from shared memory (transpose_a), as dQ^T = K^T dS^T reads K.
// CHECK-LABEL: func.func @transposed_a
// CHECK: fa.warpgroup_mma %{{.*}}, %{{.*}} in %{{.*}}, %{{.*}} in %{{.*}} {transpose_a, transpose_b} : vector<32xf32>, i64 in memref<8192xf16, #gpu.address_space<workgroup>>, memref<8192xf16, #gpu.address_space<workgroup>>
func.func @transposed_a(%acc: vector<32xf32>, %da: i64, %db: i64, %a: !buf, %b: !buf) -> vector<32xf32> {
  %d = fa.warpgroup_mma %acc, %da in %a, %db in %b {transpose_a, transpose_b} : vector<32xf32>, i64 in !buf, !buf
  %r = fa.warpgroup_mma_wait %d : vector<32xf32>
  return %r : vector<32xf32>
}
