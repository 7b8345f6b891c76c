// fa-lower-bf16-mma-sync: bf16 nvgpu.mma.sync m16n8k16 becomes nvvm.mma.sync
// with bf16 PTX types, each pair of bf16 elements packed into one i32;
// f16 and every other op stay for upstream's convert-nvgpu-to-nvvm.
// RUN: fa-opt %s --split-input-file --fa-lower-bf16-mma-sync --verify-diagnostics | FileCheck %s
// Why the pass exists: upstream's lowering cannot type bf16 multiplicands;
// it reports that, yet exits 0 with the op still there.
// RUN: mlir-opt %s --split-input-file --convert-nvgpu-to-nvvm 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: 'nvgpu.mma.sync' op failed to deduce operand PTX types
// UPSTREAM: func.func @bf16
// UPSTREAM-NEXT: nvgpu.mma.sync

// CHECK-LABEL: func.func @bf16
// CHECK-SAME: (%[[A:.*]]: vector<4x2xbf16>, %[[B:.*]]: vector<2x2xbf16>, %[[C:.*]]: vector<2x2xf32>)
// Every operand position is pinned: a swap of any two fragments fails.
// CHECK: %[[A0:.*]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK: %[[A0W:.*]] = vector.bitcast %[[A0]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[A0I:.*]] = vector.extract %[[A0W]][0] : i32 from vector<1xi32>
// CHECK: %[[A1:.*]] = vector.extract %[[A]][1] : vector<2xbf16> from vector<4x2xbf16>
// CHECK: %[[A1W:.*]] = vector.bitcast %[[A1]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[A1I:.*]] = vector.extract %[[A1W]][0] : i32 from vector<1xi32>
// CHECK: %[[A2:.*]] = vector.extract %[[A]][2] : vector<2xbf16> from vector<4x2xbf16>
// CHECK: %[[A2W:.*]] = vector.bitcast %[[A2]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[A2I:.*]] = vector.extract %[[A2W]][0] : i32 from vector<1xi32>
// CHECK: %[[A3:.*]] = vector.extract %[[A]][3] : vector<2xbf16> from vector<4x2xbf16>
// CHECK: %[[A3W:.*]] = vector.bitcast %[[A3]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[A3I:.*]] = vector.extract %[[A3W]][0] : i32 from vector<1xi32>
// CHECK: %[[B0:.*]] = vector.extract %[[B]][0] : vector<2xbf16> from vector<2x2xbf16>
// CHECK: %[[B0W:.*]] = vector.bitcast %[[B0]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[B0I:.*]] = vector.extract %[[B0W]][0] : i32 from vector<1xi32>
// CHECK: %[[B1:.*]] = vector.extract %[[B]][1] : vector<2xbf16> from vector<2x2xbf16>
// CHECK: %[[B1W:.*]] = vector.bitcast %[[B1]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[B1I:.*]] = vector.extract %[[B1W]][0] : i32 from vector<1xi32>
// CHECK: %[[C0:.*]] = vector.extract %[[C]][0, 0] : f32 from vector<2x2xf32>
// CHECK: %[[C1:.*]] = vector.extract %[[C]][0, 1] : f32 from vector<2x2xf32>
// CHECK: %[[C2:.*]] = vector.extract %[[C]][1, 0] : f32 from vector<2x2xf32>
// CHECK: %[[C3:.*]] = vector.extract %[[C]][1, 1] : f32 from vector<2x2xf32>
// CHECK: %[[D:.*]] = nvvm.mma.sync A[%[[A0I]], %[[A1I]], %[[A2I]], %[[A3I]]] B[%[[B0I]], %[[B1I]]] C[%[[C0]], %[[C1]], %[[C2]], %[[C3]]]
// CHECK-SAME: layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME: (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[D0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK: %[[D1:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[D2:.*]] = llvm.extractvalue %[[D]][2]
// CHECK: %[[D3:.*]] = llvm.extractvalue %[[D]][3]
// CHECK: %[[R:.*]] = vector.from_elements %[[D0]], %[[D1]], %[[D2]], %[[D3]] : vector<2x2xf32>
// CHECK: return %[[R]]
// CHECK-NOT: nvgpu.mma.sync
func.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// f16 is upstream's to lower.
// CHECK-LABEL: func.func @f16
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvvm.mma.sync
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// Other bf16 shapes are reported, not left for upstream to fail on later.
func.func @bf16_m16n8k8(%a: vector<2x2xbf16>, %b: vector<1x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  // expected-error@+1 {{'nvgpu.mma.sync' op with bf16 multiplicands is lowered here for m16n8k16 (A vector<4x2xbf16>, B vector<2x2xbf16>, C vector<2x2xf32>) only; here shape [16, 8, 8], A 'vector<2x2xbf16>', B 'vector<1x2xbf16>', C 'vector<2x2xf32>'}}
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xbf16>, vector<1x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}
