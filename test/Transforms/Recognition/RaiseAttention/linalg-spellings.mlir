// linalg spellings checked on the IR: what the rewrite emits, what it
// leaves alone, and the refusals that depend on shapes.
// RUN: fa-opt %s -split-input-file --fa-raise-attention=explain=true -verify-diagnostics | FileCheck %s

#id2 = affine_map<(i, j) -> (i, j)>
#row2 = affine_map<(i, j) -> (i)>
#q2 = affine_map<(i, j, d) -> (i, d)>
#k2 = affine_map<(i, j, d) -> (j, d)>
#s2 = affine_map<(i, j, d) -> (i, j)>

// The rest of the function stays exactly as written, including an op that
// was dead before; only the ops of the pattern are erased. The keep-mask is
// computed from iota comparisons (j <= i) over Nq = 4, Nk = 8, so it is
// causal aligned top-left. Q and K are each scaled by sqrt(0.25) = 0.5.
// CHECK-LABEL: func.func @iota_causal_sqrt_scale
// CHECK: %[[UNUSED:.*]] = arith.constant 4.200000e+01 : f32
// CHECK: %[[PRE:.*]] = arith.addf
// CHECK: %[[O:.*]] = fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 2.500000e-01 causal = top_left : tensor<1x1x4x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x4x4xf32>
// CHECK-NOT: linalg.matmul
// CHECK-NOT: math.exp
// CHECK: %[[O2:.*]] = tensor.collapse_shape %[[O]]
// CHECK: %[[POST:.*]] = arith.mulf %[[PRE]], %[[PRE]]
// CHECK: return %[[O2]], %[[POST]]
func.func @iota_causal_sqrt_scale(%q: tensor<4x4xf32>, %k: tensor<8x4xf32>,
    %v: tensor<8x4xf32>, %a: f32) -> (tensor<4x4xf32>, f32) {
  %unused = arith.constant 42.0 : f32
  %pre = arith.addf %a, %a : f32
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %eq = tensor.empty() : tensor<4x4xf32>
  %qs = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<4x4xf32>) outs(%eq : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %half : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %ek = tensor.empty() : tensor<8x4xf32>
  %ks = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%k : tensor<8x4xf32>) outs(%ek : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %half, %x : f32
    linalg.yield %m : f32
  } -> tensor<8x4xf32>
  %em = tensor.empty() : tensor<4x8xi1>
  %keep = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%em : tensor<4x8xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sle, %j, %i : index
    linalg.yield %c : i1
  } -> tensor<4x8xi1>
  %es = tensor.empty() : tensor<4x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.matmul indexing_maps = [#q2, #k2, #s2] ins(%qs, %ks : tensor<4x4xf32>, tensor<8x4xf32>)
      outs(%zs : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %keep : tensor<4x8xf32>, tensor<4x8xi1>) outs(%es : tensor<4x8xf32>) {
  ^bb0(%y: f32, %m: i1, %o: f32):
    %r = arith.select %m, %y, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %er = tensor.empty() : tensor<4xf32>
  %mi = linalg.fill ins(%neginf : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%mi : tensor<4xf32>) dimensions = [1]
    (%y: f32, %acc: f32) {
      %m = arith.maximumf %y, %acc : f32
      linalg.yield %m : f32
    }
  %ex = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%es : tensor<4x8xf32>) {
  ^bb0(%y: f32, %m: f32, %o: f32):
    %d = arith.subf %y, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%ex : tensor<4x8xf32>) outs(%si : tensor<4xf32>) dimensions = [1]
    (%y: f32, %acc: f32) {
      %m = arith.addf %y, %acc : f32
      linalg.yield %m : f32
    }
  %p = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%es : tensor<4x8xf32>) {
  ^bb0(%y: f32, %t: f32, %o: f32):
    %d = arith.divf %y, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eq : tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x8xf32>, tensor<8x4xf32>) outs(%zo : tensor<4x4xf32>) -> tensor<4x4xf32>
  %post = arith.mulf %pre, %pre : f32
  return %o, %post : tensor<4x4xf32>, f32
}

// -----

#q5 = affine_map<(a, b, c, i, j, d) -> (a, b, c, i, d)>
#k5 = affine_map<(a, b, c, i, j, d) -> (a, b, c, j, d)>
#s5 = affine_map<(a, b, c, i, j, d) -> (a, b, c, i, j)>
#p5 = affine_map<(a, b, c, i, e, j) -> (a, b, c, i, j)>
#v5 = affine_map<(a, b, c, i, e, j) -> (a, b, c, j, e)>
#o5 = affine_map<(a, b, c, i, e, j) -> (a, b, c, i, e)>
#id5 = affine_map<(a, b, c, i, j) -> (a, b, c, i, j)>

// Three batch dims (a 5-D attention): fa.attention has [B, H] only, and
// merging batch dims is not the recognizer's call (docs/Sources.md §5.3).
// CHECK-LABEL: func.func @five_dims
// CHECK-NOT: fa.attention
func.func @five_dims(%q: tensor<2x2x2x4x4xf32>, %k: tensor<2x2x2x4x4xf32>,
                     %v: tensor<2x2x2x4x4xf32>) -> tensor<2x2x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x2x4x4xf32>) -> tensor<2x2x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#q5, #k5, #s5],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x2x4x4xf32>, tensor<2x2x2x4x4xf32>) outs(%z : tensor<2x2x2x4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x4x4xf32>
  // expected-remark @+1 {{attention not raised: 3 batch dims; fa.attention has two ([B, H])}}
  %p = linalg.softmax dimension(4) ins(%s : tensor<2x2x2x4x4xf32>) outs(%e : tensor<2x2x2x4x4xf32>) -> tensor<2x2x2x4x4xf32>
  %o = linalg.generic {indexing_maps = [#p5, #v5, #o5],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x2x4x4xf32>, tensor<2x2x2x4x4xf32>) outs(%z : tensor<2x2x2x4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x4x4xf32>
  return %o : tensor<2x2x2x4x4xf32>
}

// -----

#qk = affine_map<(b, i, j, d) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (b, j, d)>
#s3 = affine_map<(b, i, j, d) -> (b, i, j)>

// A head dim known only at run time: fa.attention needs static D.
// CHECK-LABEL: func.func @dynamic_head_dim
// CHECK-NOT: fa.attention
func.func @dynamic_head_dim(%q: tensor<2x8x?xf32>, %k: tensor<2x8x?xf32>,
                            %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [#qk, #kt, #s3]
      ins(%q, %k : tensor<2x8x?xf32>, tensor<2x8x?xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: the head dim is dynamic; fa.attention needs static D and Dv}}
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

#qk = affine_map<(b, i, j, d) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (b, j, d)>
#s3 = affine_map<(b, i, j, d) -> (b, i, j)>

// linalg.softmax over the query dim of the scores.
// CHECK-LABEL: func.func @softmax_over_queries
// CHECK-NOT: fa.attention
func.func @softmax_over_queries(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>,
                                %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [#qk, #kt, #s3]
      ins(%q, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  // expected-remark @+1 {{attention not raised: softmax normalizes dim 1 but the key dim of P·V is 2}}
  %p = linalg.softmax dimension(1) ins(%s : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

#qk = affine_map<(b, i, j, d) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (b, j, d)>
#s3 = affine_map<(b, i, j, d) -> (b, i, j)>
// -----

#qk = affine_map<(b, i, j, d) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (b, j, d)>
#s3 = affine_map<(b, i, j, d) -> (b, i, j)>

// GQA by linalg.broadcast of [B, Hkv, N, D] along a new G dim, collapsed
// into [B*Hq, N, D] (Hkv = 2, G = 2): the op reads the unrepeated heads,
// merged with the batch, [1, 2, 8, 4] for Q's [1, 4, 8, 4].
// CHECK-LABEL: func.func @gqa_broadcast_3d
// CHECK: %[[K:.*]] = tensor.collapse_shape %arg1 {{\[}}[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
// CHECK: fa.attention {{.*}} : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x4x8x4xf32>
// CHECK-NOT: linalg.broadcast
func.func @gqa_broadcast_3d(%q: tensor<4x8x4xf32>, %k: tensor<1x2x8x4xf32>,
                            %v: tensor<1x2x8x4xf32>) -> tensor<4x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<1x2x2x8x4xf32>
  %kb = linalg.broadcast ins(%k : tensor<1x2x8x4xf32>) outs(%e5 : tensor<1x2x2x8x4xf32>) dimensions = [2]
  %vb = linalg.broadcast ins(%v : tensor<1x2x8x4xf32>) outs(%e5 : tensor<1x2x2x8x4xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x4xf32> into tensor<4x8x4xf32>
  %vr = tensor.collapse_shape %vb [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x4xf32> into tensor<4x8x4xf32>
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [#qk, #kt, #s3]
      ins(%q, %kr : tensor<4x8x4xf32>, tensor<4x8x4xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %eo = tensor.empty() : tensor<4x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %vr : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%zo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

#qk = affine_map<(b, i, j, d) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (b, j, d)>
#s3 = affine_map<(b, i, j, d) -> (b, i, j)>
#drop_g = affine_map<(b, h, g, n, d) -> (b, h, n, d)>
#unit_g = affine_map<(b, h, g, n, d) -> (b, h, 0, n, d)>
#id5 = affine_map<(b, h, g, n, d) -> (b, h, g, n, d)>

// The same GQA as generic copies, as linalg-generalize-named-ops leaves
// it: K's repeat reads [B, Hkv, N, D] without the G dim, V's reads a unit G
// dim at index 0 (a tensor.expand_shape inserted it).
// CHECK-LABEL: func.func @gqa_generic_copies
// CHECK: fa.attention {{.*}} : tensor<1x4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x4x8x4xf32>
// CHECK-NOT: linalg.generic
func.func @gqa_generic_copies(%q: tensor<4x8x4xf32>, %k: tensor<1x2x8x4xf32>,
                              %v: tensor<1x2x8x4xf32>) -> tensor<4x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<1x2x2x8x4xf32>
  %kb = linalg.generic {indexing_maps = [#drop_g, #id5],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x2x8x4xf32>) outs(%e5 : tensor<1x2x2x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x8x4xf32>
  %v1 = tensor.expand_shape %v [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 4] : tensor<1x2x8x4xf32> into tensor<1x2x1x8x4xf32>
  %vb = linalg.generic {indexing_maps = [#unit_g, #id5],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%v1 : tensor<1x2x1x8x4xf32>) outs(%e5 : tensor<1x2x2x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x8x4xf32>
  %kr = tensor.collapse_shape %kb [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x4xf32> into tensor<4x8x4xf32>
  %vr = tensor.collapse_shape %vb [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x4xf32> into tensor<4x8x4xf32>
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [#qk, #kt, #s3]
      ins(%q, %kr : tensor<4x8x4xf32>, tensor<4x8x4xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %eo = tensor.empty() : tensor<4x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %vr : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%zo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

#qk = affine_map<(b, i, j, d) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (b, j, d)>
#s3 = affine_map<(b, i, j, d) -> (b, i, j)>
#drop_h = affine_map<(b, h, g, n, d) -> (b, g, n, d)>
#id5 = affine_map<(b, h, g, n, d) -> (b, h, g, n, d)>

// Near miss: this copy drops the Hkv dim, not G (query head h*G + g reads
// key head g), so it is not a grouped repeat: the op reads the four
// repeated heads as they are.
// CHECK-LABEL: func.func @gqa_generic_copy_of_another_dim
// CHECK: linalg.generic
// CHECK: fa.attention {{.*}} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x4x8x4xf32>
func.func @gqa_generic_copy_of_another_dim(%q: tensor<4x8x4xf32>,
    %k: tensor<1x2x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<1x2x2x8x4xf32>
  %kb = linalg.generic {indexing_maps = [#drop_h, #id5],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<1x2x8x4xf32>) outs(%e5 : tensor<1x2x2x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x8x4xf32>
  %kr = tensor.collapse_shape %kb [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x4xf32> into tensor<4x8x4xf32>
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul indexing_maps = [#qk, #kt, #s3]
      ins(%q, %kr : tensor<4x8x4xf32>, tensor<4x8x4xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %eo = tensor.empty() : tensor<4x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%zo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// The same keep-mask from positions converted to floats and compared with
// oge (i >= j keeps the diagonal): evaluated, it is causal top-left. A
// comparison read as strict would hide the diagonal and row 0 entirely.
// CHECK-LABEL: func.func @float_position_causal
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 2.500000e-01 causal = top_left :
// CHECK-NOT: linalg.matmul
#id2 = affine_map<(i, j) -> (i, j)>
#row2 = affine_map<(i, j) -> (i)>
#q2 = affine_map<(i, j, d) -> (i, d)>
#k2 = affine_map<(i, j, d) -> (j, d)>
#s2 = affine_map<(i, j, d) -> (i, j)>
func.func @float_position_causal(%q: tensor<4x4xf32>, %k: tensor<8x4xf32>,
    %v: tensor<8x4xf32>, %a: f32) -> (tensor<4x4xf32>, f32) {
  %unused = arith.constant 42.0 : f32
  %pre = arith.addf %a, %a : f32
  %zero = arith.constant 0.0 : f32
  %neginf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %eq = tensor.empty() : tensor<4x4xf32>
  %qs = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<4x4xf32>) outs(%eq : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %half : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %ek = tensor.empty() : tensor<8x4xf32>
  %ks = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%k : tensor<8x4xf32>) outs(%ek : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %half, %x : f32
    linalg.yield %m : f32
  } -> tensor<8x4xf32>
  %em = tensor.empty() : tensor<4x8xi1>
  %keep = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%em : tensor<4x8xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %ji = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %ji : i32 to f32
    %c = arith.cmpf oge, %fi, %fj : f32
    linalg.yield %c : i1
  } -> tensor<4x8xi1>
  %es = tensor.empty() : tensor<4x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.matmul indexing_maps = [#q2, #k2, #s2] ins(%qs, %ks : tensor<4x4xf32>, tensor<8x4xf32>)
      outs(%zs : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %keep : tensor<4x8xf32>, tensor<4x8xi1>) outs(%es : tensor<4x8xf32>) {
  ^bb0(%y: f32, %m: i1, %o: f32):
    %r = arith.select %m, %y, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %er = tensor.empty() : tensor<4xf32>
  %mi = linalg.fill ins(%neginf : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%mi : tensor<4xf32>) dimensions = [1]
    (%y: f32, %acc: f32) {
      %m = arith.maximumf %y, %acc : f32
      linalg.yield %m : f32
    }
  %ex = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%es : tensor<4x8xf32>) {
  ^bb0(%y: f32, %m: f32, %o: f32):
    %d = arith.subf %y, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%ex : tensor<4x8xf32>) outs(%si : tensor<4xf32>) dimensions = [1]
    (%y: f32, %acc: f32) {
      %m = arith.addf %y, %acc : f32
      linalg.yield %m : f32
    }
  %p = linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%es : tensor<4x8xf32>) {
  ^bb0(%y: f32, %t: f32, %o: f32):
    %d = arith.divf %y, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eq : tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x8xf32>, tensor<8x4xf32>) outs(%zo : tensor<4x4xf32>) -> tensor<4x4xf32>
  %post = arith.mulf %pre, %pre : f32
  return %o, %post : tensor<4x4xf32>, f32
}
