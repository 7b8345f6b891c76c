// fa-store-bf16-as-i16 retypes bf16 that only moves (loads, stores, GEPs,
// element and aggregate inserts/extracts, constants, block arguments,
// function types) as i16 with the same bits, and drops the bitcasts that
// become no-ops; a module that still computes on bf16, or whose function
// signatures hold bf16, is left unchanged.
// RUN: fa-opt %s -split-input-file --fa-store-bf16-as-i16 | FileCheck %s

// CHECK-LABEL: llvm.func @moves(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr) -> vector<8xi16>
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(16256 : i16) : i16
// CHECK: %[[SPLAT:.*]] = llvm.mlir.constant(dense<16256> : vector<8xi16>) : vector<8xi16>
// CHECK: %[[GEP:.*]] = llvm.getelementptr %[[P]][1] : (!llvm.ptr) -> !llvm.ptr, i16
// CHECK: %[[V:.*]] = llvm.load %[[GEP]] : !llvm.ptr -> vector<8xi16>
// CHECK: %[[W:.*]] = llvm.insertelement %[[ONE]], %[[V]][%{{.*}} : i64] : vector<8xi16>
// CHECK: %[[A:.*]] = llvm.insertvalue %[[W]], %{{.*}}[0] : !llvm.array<2 x vector<8xi16>>
// CHECK: %[[X:.*]] = llvm.extractvalue %[[A]][0] : !llvm.array<2 x vector<8xi16>>
// CHECK: %[[S:.*]] = llvm.add %[[X]], %[[SPLAT]] : vector<8xi16>
// CHECK-NOT: llvm.bitcast
// CHECK: llvm.store %[[ONE]], %[[P]] : i16, !llvm.ptr
// CHECK: llvm.return %[[S]] : vector<8xi16>
llvm.func @moves(%p: !llvm.ptr) -> vector<8xi16> {
  %one = llvm.mlir.constant(1.0 : bf16) : bf16
  %splat = llvm.mlir.constant(dense<1.0> : vector<8xbf16>) : vector<8xbf16>
  %gep = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, bf16
  %v = llvm.load %gep : !llvm.ptr -> vector<8xbf16>
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %w = llvm.insertelement %one, %v[%c0 : i64] : vector<8xbf16>
  %u = llvm.mlir.undef : !llvm.array<2 x vector<8xbf16>>
  %a = llvm.insertvalue %w, %u[0] : !llvm.array<2 x vector<8xbf16>>
  %x = llvm.extractvalue %a[0] : !llvm.array<2 x vector<8xbf16>>
  %xi = llvm.bitcast %x : vector<8xbf16> to vector<8xi16>
  %si = llvm.bitcast %splat : vector<8xbf16> to vector<8xi16>
  %s = llvm.add %xi, %si : vector<8xi16>
  llvm.store %one, %p : bf16, !llvm.ptr
  llvm.return %s : vector<8xi16>
}

// -----

// An fpext reads the bf16 as a number: nothing is retyped.
// CHECK-LABEL: llvm.func @computes(
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<8xbf16>
// CHECK: llvm.fpext %{{.*}} : vector<8xbf16> to vector<8xf32>
llvm.func @computes(%p: !llvm.ptr) -> vector<8xf32> {
  %v = llvm.load %p : !llvm.ptr -> vector<8xbf16>
  %f = llvm.fpext %v : vector<8xbf16> to vector<8xf32>
  llvm.return %f : vector<8xf32>
}

// -----

// A bf16 parameter: callers outside the module pass it as a float, so the
// signature (and everything else) stays.
// CHECK-LABEL: llvm.func @signature(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: bf16)
// CHECK: llvm.store %{{.*}}, %{{.*}} : bf16, !llvm.ptr
llvm.func @signature(%p: !llvm.ptr, %b: bf16) {
  llvm.store %b, %p : bf16, !llvm.ptr
  llvm.return
}
