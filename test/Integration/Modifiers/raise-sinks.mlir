// Attention sinks as frontends spell them (GPT-OSS): a per-head logit
// concatenated to the scores as one more key column, a softmax over
// Nk + 1, the column sliced off before P·V. Raised to fa.attention's sinks
// operand. The sink's probability used elsewhere too is raised with
// share-scores (the frontend's softmax stays for that use); the near miss
// stays, with a remark: a column that varies along the queries. Raised and
// unraised runs agree to f32 rounding, on the tiled path and the emulated
// GPU kernel.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80 max-block-kv=4" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 480 values
// REMARK-DAG: remark: attention raised; its scores or probabilities are also used by tensor.extract_slice outside it
// REMARK-DAG: remark: attention not raised: the sink column varies along
// RAISED-LABEL: func.func @sinks_causal
// RAISED: fa.attention {{.*}} sinks(%{{.*}} : tensor<2xf32>) scale = 5.000000e-01 causal =
// RAISED-NOT: tensor.concat
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @sinks_plain
// RAISED: fa.attention {{.*}} sinks(%{{.*}} : tensor<2xf32>) scale = 5.000000e-01 :
// RAISED-LABEL: func.func @sinks_splat
// RAISED: %[[FILLED:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2xf32>)
// RAISED: fa.attention {{.*}} sinks(%[[FILLED]] : tensor<2xf32>) scale = 5.000000e-01 :
// RAISED-LABEL: func.func @sink_probability_used
// RAISED: linalg.softmax
// RAISED: fa.attention {{.*}} sinks(
// RAISED-LABEL: func.func @near_miss_sink_per_query
// RAISED-NOT: fa.attention
// RAISED-LABEL: func.func @sinks_under_reshape
// RAISED: fa.attention {{.*}} sinks(%{{.*}} : tensor<2xf32>) scale = 5.000000e-01 :
// RAISED-NOT: linalg.softmax
// RAISED-LABEL: func.func @input

func.func private @printMemrefF32(tensor<*xf32>)

// GPT-OSS's sinks: a per-head logit concatenated as one more key column, softmax over Nk + 1, the column sliced off. Causal, so row 0 sees one key and its sink.
func.func @sinks_causal(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>, %sinks: tensor<2xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %e0 = tensor.empty() : tensor<1x2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) outs(%z0 : tensor<1x2x12x12xf32>) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %m = arith.mulf %qa, %kb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %sc, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %ec = tensor.empty() : tensor<1x2x12x1xf32>
  %column = linalg.broadcast ins(%sinks : tensor<2xf32>) outs(%ec : tensor<1x2x12x1xf32>) dimensions = [0, 2, 3]
  %combined = tensor.concat dim(3) %x, %column : (tensor<1x2x12x12xf32>, tensor<1x2x12x1xf32>) -> tensor<1x2x12x13xf32>
  %e2 = tensor.empty() : tensor<1x2x12x13xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<1x2x12x13xf32>) outs(%e2 : tensor<1x2x12x13xf32>) -> tensor<1x2x12x13xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [1, 2, 12, 12] [1, 1, 1, 1] : tensor<1x2x12x13xf32> to tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x12x12xf32>, tensor<1x2x12x4xf32>) outs(%z3 : tensor<1x2x12x4xf32>) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %m = arith.mulf %pa, %vb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  return %o : tensor<1x2x12x4xf32>
}

// Sinks without a mask.
func.func @sinks_plain(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>, %sinks: tensor<2xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %e0 = tensor.empty() : tensor<1x2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) outs(%z0 : tensor<1x2x12x12xf32>) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %m = arith.mulf %qa, %kb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %r = arith.addf %sc, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %ec = tensor.empty() : tensor<1x2x12x1xf32>
  %column = linalg.broadcast ins(%sinks : tensor<2xf32>) outs(%ec : tensor<1x2x12x1xf32>) dimensions = [0, 2, 3]
  %combined = tensor.concat dim(3) %x, %column : (tensor<1x2x12x12xf32>, tensor<1x2x12x1xf32>) -> tensor<1x2x12x13xf32>
  %e2 = tensor.empty() : tensor<1x2x12x13xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<1x2x12x13xf32>) outs(%e2 : tensor<1x2x12x13xf32>) -> tensor<1x2x12x13xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [1, 2, 12, 12] [1, 1, 1, 1] : tensor<1x2x12x13xf32> to tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x12x12xf32>, tensor<1x2x12x4xf32>) outs(%z3 : tensor<1x2x12x4xf32>) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %m = arith.mulf %pa, %vb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  return %o : tensor<1x2x12x4xf32>
}

// One logit for every head, a splat constant column (what constant
// folding makes of equal per-head logits): sinks filled with it.
func.func @sinks_splat(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %e0 = tensor.empty() : tensor<1x2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) outs(%z0 : tensor<1x2x12x12xf32>) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %m = arith.mulf %qa, %kb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %r = arith.addf %sc, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %ec = tensor.empty() : tensor<1x2x12x1xf32>
  %logit = arith.constant 0.75 : f32
  %column = linalg.fill ins(%logit : f32) outs(%ec : tensor<1x2x12x1xf32>) -> tensor<1x2x12x1xf32>
  %combined = tensor.concat dim(3) %x, %column : (tensor<1x2x12x12xf32>, tensor<1x2x12x1xf32>) -> tensor<1x2x12x13xf32>
  %e2 = tensor.empty() : tensor<1x2x12x13xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<1x2x12x13xf32>) outs(%e2 : tensor<1x2x12x13xf32>) -> tensor<1x2x12x13xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [1, 2, 12, 12] [1, 1, 1, 1] : tensor<1x2x12x13xf32> to tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x12x12xf32>, tensor<1x2x12x4xf32>) outs(%z3 : tensor<1x2x12x4xf32>) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %m = arith.mulf %pa, %vb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  return %o : tensor<1x2x12x4xf32>
}

// Near miss: the sink's probability is also used (added to O).
func.func @sink_probability_used(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>, %sinks: tensor<2xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %e0 = tensor.empty() : tensor<1x2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) outs(%z0 : tensor<1x2x12x12xf32>) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %m = arith.mulf %qa, %kb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %sc, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %ec = tensor.empty() : tensor<1x2x12x1xf32>
  %column = linalg.broadcast ins(%sinks : tensor<2xf32>) outs(%ec : tensor<1x2x12x1xf32>) dimensions = [0, 2, 3]
  %combined = tensor.concat dim(3) %x, %column : (tensor<1x2x12x12xf32>, tensor<1x2x12x1xf32>) -> tensor<1x2x12x13xf32>
  %e2 = tensor.empty() : tensor<1x2x12x13xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<1x2x12x13xf32>) outs(%e2 : tensor<1x2x12x13xf32>) -> tensor<1x2x12x13xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [1, 2, 12, 12] [1, 1, 1, 1] : tensor<1x2x12x13xf32> to tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x12x12xf32>, tensor<1x2x12x4xf32>) outs(%z3 : tensor<1x2x12x4xf32>) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %m = arith.mulf %pa, %vb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  %sinkp = tensor.extract_slice %probs[0, 0, 0, 12] [1, 2, 12, 1] [1, 1, 1, 1] : tensor<1x2x12x13xf32> to tensor<1x2x12x1xf32>
  %e9 = tensor.empty() : tensor<1x2x12x4xf32>
  %o2 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o, %sinkp : tensor<1x2x12x4xf32>, tensor<1x2x12x1xf32>) outs(%e9 : tensor<1x2x12x4xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  return %o2 : tensor<1x2x12x4xf32>
}

// Near miss: the column varies along the queries, so it is no per-head sink.
func.func @near_miss_sink_per_query(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>, %rows: tensor<2x12xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %e0 = tensor.empty() : tensor<1x2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x2x12x12xf32>) -> tensor<1x2x12x12xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                       affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) outs(%z0 : tensor<1x2x12x12xf32>) {
  ^bb0(%qa: f32, %kb: f32, %acc: f32):
    %m = arith.mulf %qa, %kb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %sc, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x12xf32>
  %column = tensor.expand_shape %rows [[0, 1], [2, 3]] output_shape [1, 2, 12, 1] : tensor<2x12xf32> into tensor<1x2x12x1xf32>
  %combined = tensor.concat dim(3) %x, %column : (tensor<1x2x12x12xf32>, tensor<1x2x12x1xf32>) -> tensor<1x2x12x13xf32>
  %e2 = tensor.empty() : tensor<1x2x12x13xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<1x2x12x13xf32>) outs(%e2 : tensor<1x2x12x13xf32>) -> tensor<1x2x12x13xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [1, 2, 12, 12] [1, 1, 1, 1] : tensor<1x2x12x13xf32> to tensor<1x2x12x12xf32>
  %e3 = tensor.empty() : tensor<1x2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                       affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                       affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x12x12xf32>, tensor<1x2x12x4xf32>) outs(%z3 : tensor<1x2x12x4xf32>) {
  ^bb0(%pa: f32, %vb: f32, %acc: f32):
    %m = arith.mulf %pa, %vb : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x12x4xf32>
  return %o : tensor<1x2x12x4xf32>
}

// The slice under P's batch reshape (torch-mlir computes both contractions
// on [B·H, N, N] and the softmax on [B, H, N, N + 1], slicing before the
// merge): the walk from P·V finds the slice there.
func.func @sinks_under_reshape(%q: tensor<1x2x12x4xf32>, %k: tensor<1x2x12x4xf32>, %v: tensor<1x2x12x4xf32>, %sinks: tensor<2xf32>) -> tensor<1x2x12x4xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.5 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x12x4xf32> into tensor<2x12x4xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x12x4xf32> into tensor<2x12x4xf32>
  %e0 = tensor.empty() : tensor<2x12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %s3 = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q3, %k3 : tensor<2x12x4xf32>, tensor<2x12x4xf32>) outs(%z0 : tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 12, 12] : tensor<2x12x12xf32> into tensor<1x2x12x12xf32>
  %e1 = tensor.empty() : tensor<1x2x12x12xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x12x12xf32>) outs(%e1 : tensor<1x2x12x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sc = arith.mulf %a, %scale : f32
    linalg.yield %sc : f32
  } -> tensor<1x2x12x12xf32>
  %ec = tensor.empty() : tensor<1x2x12x1xf32>
  %column = linalg.broadcast ins(%sinks : tensor<2xf32>) outs(%ec : tensor<1x2x12x1xf32>) dimensions = [0, 2, 3]
  %combined = tensor.concat dim(3) %x, %column : (tensor<1x2x12x12xf32>, tensor<1x2x12x1xf32>) -> tensor<1x2x12x13xf32>
  %e2 = tensor.empty() : tensor<1x2x12x13xf32>
  %probs = linalg.softmax dimension(3) ins(%combined : tensor<1x2x12x13xf32>) outs(%e2 : tensor<1x2x12x13xf32>) -> tensor<1x2x12x13xf32>
  %p = tensor.extract_slice %probs[0, 0, 0, 0] [1, 2, 12, 12] [1, 1, 1, 1] : tensor<1x2x12x13xf32> to tensor<1x2x12x12xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x12x12xf32> into tensor<2x12x12xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x12x4xf32> into tensor<2x12x4xf32>
  %e3 = tensor.empty() : tensor<2x12x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<2x12x12xf32>, tensor<2x12x4xf32>) outs(%z3 : tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [1, 2, 12, 4] : tensor<2x12x4xf32> into tensor<1x2x12x4xf32>
  return %o : tensor<1x2x12x4xf32>
}

func.func @input(%seed: f32) -> tensor<1x2x12x4xf32> {
  %e = tensor.empty() : tensor<1x2x12x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x2x12x4xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 1 : index
    %b = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c131 : index
    %b1 = arith.muli %b, %c17 : index
    %s0 = arith.addi %a1, %b1 : index
    %s1 = arith.addi %s0, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<1x2x12x4xf32>
  return %r : tensor<1x2x12x4xf32>
}

func.func @print(%t: tensor<1x2x12x4xf32>) {
  %u = tensor.cast %t : tensor<1x2x12x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<1x2x12x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<1x2x12x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<1x2x12x4xf32>
  %sinks = arith.constant dense<[1.25, -0.5]> : tensor<2xf32>
  %o1 = call @sinks_causal(%q, %k, %v, %sinks) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<2xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o1) : (tensor<1x2x12x4xf32>) -> ()
  %o2 = call @sinks_plain(%q, %k, %v, %sinks) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<2xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o2) : (tensor<1x2x12x4xf32>) -> ()
  %o4 = call @sinks_splat(%q, %k, %v) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o4) : (tensor<1x2x12x4xf32>) -> ()
  %o5 = call @sinks_under_reshape(%q, %k, %v, %sinks) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<2xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o5) : (tensor<1x2x12x4xf32>) -> ()
  %o3 = call @sink_probability_used(%q, %k, %v, %sinks) : (tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<1x2x12x4xf32>, tensor<2xf32>) -> tensor<1x2x12x4xf32>
  call @print(%o3) : (tensor<1x2x12x4xf32>) -> ()
  return
}
