// RUN: fa-opt %s -fa-decompose-attention -split-input-file | FileCheck %s

// The reference: two f32 contractions around a guarded softmax, no
// fa.attention left, the output rounded once to the value type.
// CHECK-DAG: #[[QMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[KMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[VMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-LABEL: func.func @f16_with_logsumexp
// CHECK-NOT: fa.attention
// CHECK: %[[RAW:.*]] = linalg.generic {indexing_maps = [#[[QMAP]], #[[KMAP]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%{{.*}} : tensor<2x4x8x8xf32>)
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: arith.constant 2.500000e-01 : f32
// CHECK: %[[SCORES:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[SCORES]] : tensor<2x4x8x8xf32>)
// CHECK: arith.maximumf
// A row whose max is -inf (no visible key) is shifted by 0, not by -inf.
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[SCORES]], %[[MAX]]
// CHECK: arith.cmpf oeq
// CHECK: arith.select
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<2x4x8x8xf32>)
// CHECK: arith.addf
// CHECK: %[[PV:.*]] = linalg.generic {indexing_maps = [#[[QMAP]], #[[VMAP]], {{.*}}]{{.*}} ins(%[[P]], %{{.*}} : tensor<2x4x8x8xf32>, tensor<2x4x8x32xf16>) outs(%{{.*}} : tensor<2x4x8x32xf32>)
// Fully-masked rows (sum 0) give 0, not 0/0.
// CHECK: %[[O:.*]] = linalg.generic {{.*}} ins(%[[PV]], %[[SUM]] : {{.*}}) outs(%{{.*}} : tensor<2x4x8x32xf16>)
// CHECK: arith.cmpf oeq
// CHECK: arith.divf
// CHECK: arith.select
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: %[[LSE:.*]] = linalg.generic {{.*}} ins(%[[MAX]], %[[SUM]]
// CHECK: math.log
// CHECK: return %[[O]], %[[LSE]]
func.func @f16_with_logsumexp(%q: tensor<2x4x8x16xf16>, %k: tensor<2x4x8x16xf16>,
    %v: tensor<2x4x8x32xf16>) -> (tensor<2x4x8x32xf16>, tensor<2x4x8xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.25
      : tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>, tensor<2x4x8x32xf16>
      -> tensor<2x4x8x32xf16>, tensor<2x4x8xf32>
  return %o, %l : tensor<2x4x8x32xf16>, tensor<2x4x8xf32>
}

// -----

// GQA with a static group size: K and V are read through h floordiv 4, never
// copied.
// CHECK-DAG: #[[KMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d3, d4)>
// CHECK-DAG: #[[VMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d4, d3)>
// CHECK-LABEL: func.func @gqa_static
// CHECK-NOT: tensor.extract
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[KMAP]], #{{.*}}]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[VMAP]], #{{.*}}]
func.func @gqa_static(%q: tensor<1x8x16x64xbf16>, %k: tensor<1x2x16x64xbf16>,
    %v: tensor<1x2x16x64xbf16>) -> tensor<1x8x16x64xbf16> {
  %o = fa.attention %q, %k, %v scale = 0.125
      : tensor<1x8x16x64xbf16>, tensor<1x2x16x64xbf16>, tensor<1x2x16x64xbf16>
      -> tensor<1x8x16x64xbf16>
  return %o : tensor<1x8x16x64xbf16>
}

// -----

// A group size known only at run time cannot be an affine map: K and V are
// gathered per query head (row h reads head h / (Hq / Hkv)).
// CHECK-LABEL: func.func @gqa_dynamic
// CHECK: %[[HQ:.*]] = tensor.dim %{{.*}}, %c1
// CHECK: %[[G:.*]] = arith.divui %[[HQ]], %{{.*}} : index
// CHECK: linalg.generic
// CHECK: %[[H:.*]] = linalg.index 1 : index
// CHECK: %[[KVH:.*]] = arith.divui %[[H]], %[[G]] : index
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %[[KVH]], %{{.*}}, %{{.*}}] : tensor<?x?x?x64xf32>
// CHECK: return %{{.*}} : tensor<?x?x?x64xf32>
func.func @gqa_dynamic(%q: tensor<?x?x?x64xf32>, %k: tensor<?x?x?x64xf32>,
    %v: tensor<?x?x?x64xf32>) -> tensor<?x?x?x64xf32> {
  %o = fa.attention %q, %k, %v scale = 0.125
      : tensor<?x?x?x64xf32>, tensor<?x?x?x64xf32>, tensor<?x?x?x64xf32>
      -> tensor<?x?x?x64xf32>
  return %o : tensor<?x?x?x64xf32>
}

// -----

// Bottom-right causal: key j is visible to query i iff j <= i + (Nk - Nq).
// CHECK-LABEL: func.func @causal_bottom_right
// CHECK-DAG: %[[NQ:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[NK:.*]] = arith.constant 8 : index
// CHECK: %[[DELTA:.*]] = arith.subi %[[NK]], %[[NQ]] : index
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 2 : index
// CHECK: %[[J:.*]] = linalg.index 3 : index
// CHECK: %[[DIAG:.*]] = arith.addi %[[I]], %[[DELTA]] : index
// CHECK: %[[VISIBLE:.*]] = arith.cmpi sle, %[[J]], %[[DIAG]] : index
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: arith.select %[[VISIBLE]], %{{.*}}, %[[NEG_INF]] : f32
func.func @causal_bottom_right(%q: tensor<1x1x4x16xf32>, %k: tensor<1x1x8x16xf32>,
    %v: tensor<1x1x8x16xf32>) -> tensor<1x1x4x16xf32> {
  %o = fa.attention %q, %k, %v scale = 0.25 causal = bottom_right
      : tensor<1x1x4x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>
      -> tensor<1x1x4x16xf32>
  return %o : tensor<1x1x4x16xf32>
}

// -----

// Top-left causal with a window: the diagonal offset is 0 and the window adds
// a lower bound i - left <= j.
// CHECK-LABEL: func.func @window_top_left
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 2 : index
// CHECK: %[[J:.*]] = linalg.index 3 : index
// CHECK: %[[DIAG:.*]] = arith.addi %[[I]], %[[ZERO]] : index
// CHECK: %[[CAUSAL:.*]] = arith.cmpi sle, %[[J]], %[[DIAG]] : index
// CHECK: %[[C_MINUS_3:.*]] = arith.constant -3 : index
// CHECK: %[[LOW:.*]] = arith.addi %{{.*}}, %[[C_MINUS_3]] : index
// CHECK: %[[AFTER_LOW:.*]] = arith.cmpi sge, %[[J]], %[[LOW]] : index
// CHECK: arith.andi %[[CAUSAL]], %[[AFTER_LOW]] : i1
func.func @window_top_left(%q: tensor<1x1x8x16xf32>, %k: tensor<1x1x8x16xf32>,
    %v: tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32> {
  %o = fa.attention %q, %k, %v scale = 0.25 causal = top_left
      window = <left = 3, right = 0, align = top_left>
      : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>
      -> tensor<1x1x8x16xf32>
  return %o : tensor<1x1x8x16xf32>
}

// -----

// A boolean keep-mask broadcast over batch and heads: read through constant
// indices, selected against -inf.
// CHECK-DAG: #[[MASKMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (0, 0, d2, d3)>
// CHECK-LABEL: func.func @keep_mask
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[MASKMAP]], #{{.*}}]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4x8x8xf32>, tensor<1x1x8x8xi1>)
// CHECK: ^bb0(%[[S:.*]]: f32, %[[KEEP:.*]]: i1, %{{.*}}: f32):
// CHECK: %[[SCALED:.*]] = arith.mulf %[[S]]
// CHECK: arith.select %[[KEEP]], %[[SCALED]], %{{.*}} : f32
func.func @keep_mask(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>,
    %v: tensor<2x4x8x16xf32>, %keep: tensor<1x1x8x8xi1>) -> tensor<2x4x8x16xf32> {
  %o = fa.attention %q, %k, %v mask(%keep : tensor<1x1x8x8xi1>) scale = 0.25
      : tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>
      -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// An f16 additive bias broadcast over query rows is added in f32 after the
// scale.
// CHECK-DAG: #[[BIASMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
// CHECK-LABEL: func.func @additive_bias
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[BIASMAP]], #{{.*}}]
// CHECK: ^bb0(%[[S:.*]]: f32, %[[BIAS:.*]]: f16, %{{.*}}: f32):
// CHECK: %[[SCALED:.*]] = arith.mulf %[[S]]
// CHECK: %[[WIDE:.*]] = arith.extf %[[BIAS]] : f16 to f32
// CHECK: arith.addf %[[SCALED]], %[[WIDE]] : f32
func.func @additive_bias(%q: tensor<2x4x8x16xf16>, %k: tensor<2x4x8x16xf16>,
    %v: tensor<2x4x8x16xf16>, %bias: tensor<2x4x1x8xf16>) -> tensor<2x4x8x16xf16> {
  %o = fa.attention %q, %k, %v mask(%bias : tensor<2x4x1x8xf16>) scale = 0.25
      : tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>, tensor<2x4x8x16xf16>
      -> tensor<2x4x8x16xf16>
  return %o : tensor<2x4x8x16xf16>
}

// -----

// The backward pass with mask_fill reads the mask twice: for the scores and
// for dS (0 where a hidden key has the constant score). Both reads broadcast
// a mask over query rows by comparing it with the scores' shape
// [B, H, Nq, Nk], whatever the head dim: here Nq = 4 and a head dim of 1.
// CHECK-DAG: #[[ROWBCAST:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
// CHECK-LABEL: func.func @backward_filled_row_broadcast
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ROWBCAST]], #{{.*}}]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x4x8xf32>, tensor<1x1x1x8xi1>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #[[ROWBCAST]], #{{.*}}]{{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<1x1x1x8xi1>)
func.func @backward_filled_row_broadcast(%q: tensor<1x2x4x1xf32>,
    %k: tensor<1x2x8x1xf32>, %v: tensor<1x2x8x1xf32>, %o: tensor<1x2x4x1xf32>,
    %do: tensor<1x2x4x1xf32>, %lse: tensor<1x2x4xf32>,
    %keep: tensor<1x1x1x8xi1>)
    -> (tensor<1x2x4x1xf32>, tensor<1x2x8x1xf32>, tensor<1x2x8x1xf32>) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse
      mask(%keep : tensor<1x1x1x8xi1>) scale = 1.0 mask_fill = -1.0
      : tensor<1x2x4x1xf32>, tensor<1x2x8x1xf32>, tensor<1x2x8x1xf32>,
        tensor<1x2x4x1xf32>, tensor<1x2x4x1xf32>, tensor<1x2x4xf32>
      -> tensor<1x2x4x1xf32>, tensor<1x2x8x1xf32>, tensor<1x2x8x1xf32>
  return %dq, %dk, %dv
      : tensor<1x2x4x1xf32>, tensor<1x2x8x1xf32>, tensor<1x2x8x1xf32>
}

// -----

// A mask broadcast over the batch (B = 2) but not over the single head
// (H = 1): the mask is read at batch 0 and at the score's head, compared
// with the scores' [B, H, Nq, Nk] dim by dim.
// CHECK-DAG: #[[BATCHBCAST:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
// CHECK-LABEL: func.func @mask_over_batches_one_head
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[BATCHBCAST]], #{{.*}}]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x1x8x8xf32>, tensor<1x1x8x8xi1>)
func.func @mask_over_batches_one_head(%q: tensor<2x1x8x16xf32>,
    %k: tensor<2x1x8x16xf32>, %v: tensor<2x1x8x16xf32>,
    %keep: tensor<1x1x8x8xi1>) -> tensor<2x1x8x16xf32> {
  %o = fa.attention %q, %k, %v mask(%keep : tensor<1x1x8x8xi1>) scale = 0.25
      : tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32>
      -> tensor<2x1x8x16xf32>
  return %o : tensor<2x1x8x16xf32>
}
