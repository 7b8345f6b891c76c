// Numerics for the spellings that test/Transforms/Recognition/RaiseAttention checks on
// the IR (the same functions): causal masks turned into the attribute (both
// alignments, and Nq > Nk where rows have no visible key and the fix-up
// restores the frontend's NaN), an almost-causal mask kept explicit, GQA
// repeats (tile, broadcast) and a scale split over Q and K. Raised and
// frontend runs must agree to f32 rounding.
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 720 values
// RAISED-COUNT-7: fa.attention

#id2 = affine_map<(i, j) -> (i, j)>
#row2 = affine_map<(i, j) -> (i)>
#q2 = affine_map<(i, j, d) -> (i, d)>
#k2 = affine_map<(i, j, d) -> (j, d)>
#s2 = affine_map<(i, j, d) -> (i, j)>
#qk = affine_map<(b, i, j, d) -> (b, i, d)>
#kt = affine_map<(b, i, j, d) -> (b, j, d)>
#s3 = affine_map<(b, i, j, d) -> (b, i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @causal_constant(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mask = "tosa.const"() <{values = dense<[[[0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %x = tosa.add %y, %mask : (tensor<4x8x8xf32>, tensor<1x8x8xf32>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

func.func @almost_causal(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mask = "tosa.const"() <{values = dense<[[[0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000], [0xFF800000, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %x = tosa.add %mask, %y : (tensor<1x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

func.func @causal_bottom_right(%q: tensor<4x4x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %keep = "tosa.const"() <{values = dense<[[[true, true, true, true, true, false, false, false], [true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true]]]> : tensor<1x4x8xi1>}> : () -> tensor<1x4x8xi1>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x4x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4x8xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<4x4x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x4x8xf32>
  %x = tosa.select %keep, %y, %ninf : (tensor<1x4x8xi1>, tensor<4x4x8xf32>, tensor<1x1x1xf32>) -> tensor<4x4x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x4x8xf32>) -> tensor<4x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x4x8xf32>, tensor<4x4x1xf32>) -> tensor<4x4x8xf32>
  %e = tosa.exp %d : (tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x4x8xf32>) -> tensor<4x4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x4x1xf32>) -> tensor<4x4x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x4x8xf32>, tensor<4x4x1xf32>, tensor<1xi8>) -> tensor<4x4x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x4x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

func.func @tile_outer_copies(%q: tensor<4x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %reps = tosa.const_shape {values = dense<[2, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kr = tosa.tile %k, %reps : (tensor<2x8x4xf32>, !tosa.shape<3>) -> tensor<4x8x4xf32>
  %vr = tosa.tile %v, %reps : (tensor<2x8x4xf32>, !tosa.shape<3>) -> tensor<4x8x4xf32>
  %kt = tosa.transpose %kr {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %vr, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

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


// 
func.func @causal_empty_rows(%q: tensor<4x8x4xf32>, %k: tensor<4x4x4xf32>, %v: tensor<4x4x4xf32>) -> tensor<4x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %keep = "tosa.const"() <{values = dense<[[[false, false, false, false], [false, false, false, false], [false, false, false, false], [false, false, false, false], [true, false, false, false], [true, true, false, false], [true, true, true, false], [true, true, true, true]]]> : tensor<1x8x4xi1>}> : () -> tensor<1x8x4xi1>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<4x8x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x4xf32>
  %x = tosa.select %keep, %y, %ninf : (tensor<1x8x4xi1>, tensor<4x8x4xf32>, tensor<1x1x1xf32>) -> tensor<4x8x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x4xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x4xf32>, tensor<4x8x1xf32>) -> tensor<4x8x4xf32>
  %e = tosa.exp %d : (tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x4xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x4xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

func.func @input(%d0: index, %d1: index, %d2: index, %seed: f32) -> tensor<?x?x?xf32> {
  %e = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
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
    linalg.yield %z : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @print(%t: tensor<?x?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %qd = call @input(%c4, %c8, %c4, %s1) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %kd = call @input(%c4, %c8, %c4, %s2) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %vd = call @input(%c4, %c8, %c4, %s3) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %q = tensor.cast %qd : tensor<?x?x?xf32> to tensor<4x8x4xf32>
  %k = tensor.cast %kd : tensor<?x?x?xf32> to tensor<4x8x4xf32>
  %v = tensor.cast %vd : tensor<?x?x?xf32> to tensor<4x8x4xf32>

  %o1 = call @causal_constant(%q, %k, %v) : (tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %p1 = tensor.cast %o1 : tensor<4x8x4xf32> to tensor<?x?x?xf32>
  call @print(%p1) : (tensor<?x?x?xf32>) -> ()
  %o2 = call @almost_causal(%q, %k, %v) : (tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %p2 = tensor.cast %o2 : tensor<4x8x4xf32> to tensor<?x?x?xf32>
  call @print(%p2) : (tensor<?x?x?xf32>) -> ()

  %q4 = tensor.extract_slice %q[0, 0, 0] [4, 4, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<4x4x4xf32>
  %o3 = call @causal_bottom_right(%q4, %k, %v) : (tensor<4x4x4xf32>, tensor<4x8x4xf32>, tensor<4x8x4xf32>) -> tensor<4x4x4xf32>
  %p3 = tensor.cast %o3 : tensor<4x4x4xf32> to tensor<?x?x?xf32>
  call @print(%p3) : (tensor<?x?x?xf32>) -> ()

  %k2 = tensor.extract_slice %k[0, 0, 0] [2, 8, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<2x8x4xf32>
  %v2 = tensor.extract_slice %v[0, 0, 0] [2, 8, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<2x8x4xf32>
  %o4 = call @tile_outer_copies(%q, %k2, %v2) : (tensor<4x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> tensor<4x8x4xf32>
  %p4 = tensor.cast %o4 : tensor<4x8x4xf32> to tensor<?x?x?xf32>
  call @print(%p4) : (tensor<?x?x?xf32>) -> ()

  %q2d = tensor.extract_slice %q[0, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<4x4xf32>
  %k2d = tensor.extract_slice %k[0, 0, 0] [1, 8, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<8x4xf32>
  %v2d = tensor.extract_slice %v[0, 0, 0] [1, 8, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<8x4xf32>
  %a = arith.constant 1.5 : f32
  %o5, %f5 = call @iota_causal_sqrt_scale(%q2d, %k2d, %v2d, %a) : (tensor<4x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, f32) -> (tensor<4x4xf32>, f32)
  %p5 = tensor.expand_shape %o5 [[0, 1], [2]] output_shape [1, 4, 4] : tensor<4x4xf32> into tensor<1x4x4xf32>
  %p5d = tensor.cast %p5 : tensor<1x4x4xf32> to tensor<?x?x?xf32>
  call @print(%p5d) : (tensor<?x?x?xf32>) -> ()

  %k4 = tensor.expand_shape %k2 [[0, 1], [2], [3]] output_shape [1, 2, 8, 4] : tensor<2x8x4xf32> into tensor<1x2x8x4xf32>
  %v4 = tensor.expand_shape %v2 [[0, 1], [2], [3]] output_shape [1, 2, 8, 4] : tensor<2x8x4xf32> into tensor<1x2x8x4xf32>
  %o6 = call @gqa_broadcast_3d(%q, %k4, %v4) : (tensor<4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<4x8x4xf32>
  %p6 = tensor.cast %o6 : tensor<4x8x4xf32> to tensor<?x?x?xf32>
  call @print(%p6) : (tensor<?x?x?xf32>) -> ()

  %k44 = tensor.extract_slice %k[0, 0, 0] [4, 4, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<4x4x4xf32>
  %v44 = tensor.extract_slice %v[0, 0, 0] [4, 4, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<4x4x4xf32>
  %o7 = call @causal_empty_rows(%q, %k44, %v44) : (tensor<4x8x4xf32>, tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x8x4xf32>
  %p7 = tensor.cast %o7 : tensor<4x8x4xf32> to tensor<?x?x?xf32>
  call @print(%p7) : (tensor<?x?x?xf32>) -> ()
  return
}
