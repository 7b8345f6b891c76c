// fa-specialize-warpgroups versions a warp-specialized kernel on its roles:
// from the first op that asks a role predicate on, the body is cloned into
// the two branches of an scf.if on the compute predicate, each with the
// predicates it knows folded and its setmaxnreg first (producer 24, compute
// 240 with one or two compute warpgroups, 160 with three: at most 64K
// registers per block), and the kernel states one block per SM. After the
// canonicalizer each branch holds only its role's work.
// RUN: fa-opt %s -split-input-file --pass-pipeline="builtin.module(fa-specialize-warpgroups,canonicalize)" -verify-diagnostics | FileCheck %s

// CHECK-LABEL: gpu.func @roles
// CHECK-SAME: nvvm.minctasm = 1 : i32
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[COMPUTE:.*]] = arith.cmpi ult, %[[T]], %{{.*}} {fa.warpgroup_role = "compute"}
// CHECK: scf.if %[[COMPUTE]] {
// CHECK-NEXT: nvvm.setmaxregister increase 240
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[T]]]
// CHECK-NOT: memref.store
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister decrease 24
// CHECK: scf.if
// CHECK-NEXT: memref.store
// CHECK-NOT: memref.store
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @roles(%out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %compute = arith.cmpi ult, %t, %c128 {fa.warpgroup_role = "compute"} : index
    %leader = arith.cmpi eq, %t, %c128 {fa.warpgroup_role = "producer_leader"} : index
    scf.if %leader {
      memref.store %one, %out[%c0] : memref<256xf32>
    }
    scf.if %compute {
      memref.store %two, %out[%t] : memref<256xf32>
    }
    gpu.return
  }
}

// -----

// A producer that asks for more (fa.producer_registers: a paged cache's
// per-page boxes) keeps them, and the compute warpgroups share the rest:
// 32 leaves two of them 240, 40 leaves them 232.
// CHECK-LABEL: gpu.func @paged_producer
// CHECK: nvvm.setmaxregister increase 240
// CHECK: nvvm.setmaxregister decrease 32
// CHECK-LABEL: gpu.func @larger_producer
// CHECK: nvvm.setmaxregister increase 232
// CHECK: nvvm.setmaxregister decrease 40
gpu.module @kernels {
  gpu.func @paged_producer(%out: memref<384xf32>) kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %compute = arith.cmpi ult, %t, %c256 {fa.warpgroup_role = "compute"} : index
    %leader = arith.cmpi eq, %t, %c256 {fa.producer_registers = 32 : i64, fa.warpgroup_role = "producer_leader"} : index
    scf.if %leader {
      memref.store %one, %out[%c0] : memref<384xf32>
    }
    scf.if %compute {
      memref.store %two, %out[%t] : memref<384xf32>
    }
    gpu.return
  }
  gpu.func @larger_producer(%out: memref<384xf32>) kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %compute = arith.cmpi ult, %t, %c256 {fa.warpgroup_role = "compute"} : index
    %leader = arith.cmpi eq, %t, %c256 {fa.producer_registers = 40 : i64, fa.warpgroup_role = "producer_leader"} : index
    scf.if %leader {
      memref.store %one, %out[%c0] : memref<384xf32>
    }
    scf.if %compute {
      memref.store %two, %out[%t] : memref<384xf32>
    }
    gpu.return
  }
}

// -----

// Three compute warpgroups share what the producer leaves: 160 each.
// CHECK-LABEL: gpu.func @three
// CHECK: nvvm.setmaxregister increase 160
// CHECK: nvvm.setmaxregister decrease 24
gpu.module @kernels {
  gpu.func @three(%out: memref<512xf32>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %t = gpu.thread_id x
    %c384 = arith.constant 384 : index
    %two = arith.constant 2.0 : f32
    %compute = arith.cmpi ult, %t, %c384 {fa.warpgroup_role = "compute"} : index
    scf.if %compute {
      memref.store %two, %out[%t] : memref<512xf32>
    }
    gpu.return
  }
}

// -----

// A kernel without roles is left alone.
// CHECK-LABEL: gpu.func @plain
// CHECK-NOT: setmaxregister
// CHECK-NOT: minctasm
gpu.module @kernels {
  gpu.func @plain(%out: memref<128xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %two = arith.constant 2.0 : f32
    memref.store %two, %out[%t] : memref<128xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{has warpgroup roles but no known block size to split the registers by}}
  gpu.func @unknown_size(%out: memref<256xf32>) kernel {
    %t = gpu.thread_id x
    %c128 = arith.constant 128 : index
    %two = arith.constant 2.0 : f32
    %compute = arith.cmpi ult, %t, %c128 {fa.warpgroup_role = "compute"} : index
    scf.if %compute {
      memref.store %two, %out[%t] : memref<256xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{has warpgroup roles but no compute predicate to version on}}
  gpu.func @leader_only(%out: memref<256xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %t = gpu.thread_id x
    %c128 = arith.constant 128 : index
    %two = arith.constant 2.0 : f32
    %leader = arith.cmpi eq, %t, %c128 {fa.warpgroup_role = "producer_leader"} : index
    scf.if %leader {
      memref.store %two, %out[%t] : memref<256xf32>
    }
    gpu.return
  }
}
