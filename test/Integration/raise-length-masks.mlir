// Padding masks built from per-sequence lengths become the op's kv_lengths
// operand (Recognition/LengthMask): a keep-mask computed in the body of a
// generic (`L > j` on linalg.index, lengths as [B, 1] i32), a hide-mask
// `j >= L` on an arange tensor (lengths as index), and TOSA's greater on an
// iota constant with the scores reshaped to [B, H, Nq, Nk]. Lengths 0 and
// -2 leave rows with no visible key (the frontend's NaN is restored), 9 is
// past Nk = 7. Raised and frontend runs must agree.
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Blocks/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=2" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 960 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @keep_in_body
// RAISED: %[[L1:.*]] = tensor.extract_slice %arg3[0, 0] [5, 1] [1, 1] : tensor<5x1xi32> to tensor<5xi32>
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} kv_lengths(%[[L1]] : tensor<5xi32>) scale = 5.000000e-01
// RAISED-LABEL: func.func @hide_on_arange
// RAISED: arith.index_cast %{{.*}} : index to i64
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} kv_lengths(%{{.*}} : tensor<5xi32>) scale = 5.000000e-01
// RAISED-LABEL: func.func @tosa_greater
// RAISED: %[[L3:.*]] = tensor.extract_slice %arg3[0, 0, 0, 0] [5, 1, 1, 1] [1, 1, 1, 1] : tensor<5x1x1x1xi32> to tensor<5xi32>
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} kv_lengths(%[[L3]] : tensor<5xi32>) scale = 5.000000e-01

#qk_q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#qk_k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#qk_s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#pv_p = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#pv_v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#pv_o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#bcast = affine_map<(b, h, i, j) -> (b, 0, 0, j)>
#id2 = affine_map<(b, j) -> (b, j)>
#len2 = affine_map<(b, j) -> (b, 0)>
#len1 = affine_map<(b, j) -> (b)>
#key1 = affine_map<(b, j) -> (j)>
#vec = affine_map<(j) -> (j)>

// jnp.where(lengths[:, None] > arange(Nk), s, -inf), the comparison fused
// with the iota into one generic.
func.func @keep_in_body(%q: tensor<5x2x4x8xf32>, %k: tensor<5x2x7x8xf32>, %v: tensor<5x2x7x8xf32>,
                        %lengths: tensor<5x1xi32>) -> tensor<5x2x4x8xf32> {
  %neginf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<5x2x4x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5x2x4x7xf32>) -> tensor<5x2x4x7xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<5x2x4x8xf32>, tensor<5x2x7x8xf32>) outs(%z : tensor<5x2x4x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<5x2x4x7xf32>
  %x = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<5x2x4x7xf32>) outs(%e : tensor<5x2x4x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %half : f32
    linalg.yield %m : f32
  } -> tensor<5x2x4x7xf32>
  %me = tensor.empty() : tensor<5x7xi1>
  %keep = linalg.generic {indexing_maps = [#len2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lengths : tensor<5x1xi32>) outs(%me : tensor<5x7xi1>) {
  ^bb0(%len: i32, %o: i1):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %c = arith.cmpi sgt, %len, %ji : i32
    linalg.yield %c : i1
  } -> tensor<5x7xi1>
  %keep4 = tensor.expand_shape %keep [[0], [1, 2, 3]] output_shape [5, 1, 1, 7] : tensor<5x7xi1> into tensor<5x1x1x7xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %keep4 : tensor<5x2x4x7xf32>, tensor<5x1x1x7xi1>) outs(%e : tensor<5x2x4x7xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %r = arith.select %m, %a, %neginf : f32
    linalg.yield %r : f32
  } -> tensor<5x2x4x7xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<5x2x4x7xf32>) outs(%e : tensor<5x2x4x7xf32>) -> tensor<5x2x4x7xf32>
  %oe = tensor.empty() : tensor<5x2x4x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<5x2x4x8xf32>) -> tensor<5x2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<5x2x4x7xf32>, tensor<5x2x7x8xf32>) outs(%oz : tensor<5x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<5x2x4x8xf32>
  return %o : tensor<5x2x4x8xf32>
}

// s.masked_fill(arange(Nk) >= lengths[:, None], -inf), lengths as index.
func.func @hide_on_arange(%q: tensor<5x2x4x8xf32>, %k: tensor<5x2x7x8xf32>, %v: tensor<5x2x7x8xf32>,
                          %lengths: tensor<5xindex>) -> tensor<5x2x4x8xf32> {
  %neginf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<5x2x4x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5x2x4x7xf32>) -> tensor<5x2x4x7xf32>
  %s = linalg.generic {indexing_maps = [#qk_q, #qk_k, #qk_s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<5x2x4x8xf32>, tensor<5x2x7x8xf32>) outs(%z : tensor<5x2x4x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<5x2x4x7xf32>
  %x = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<5x2x4x7xf32>) outs(%e : tensor<5x2x4x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %half : f32
    linalg.yield %m : f32
  } -> tensor<5x2x4x7xf32>
  %ae = tensor.empty() : tensor<7xi64>
  %arange = linalg.generic {indexing_maps = [#vec], iterator_types = ["parallel"]} outs(%ae : tensor<7xi64>) {
  ^bb0(%o: i64):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i64
    linalg.yield %ji : i64
  } -> tensor<7xi64>
  %me = tensor.empty() : tensor<5x7xi1>
  %hide = linalg.generic {indexing_maps = [#key1, #len1, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%arange, %lengths : tensor<7xi64>, tensor<5xindex>) outs(%me : tensor<5x7xi1>) {
  ^bb0(%j: i64, %len: index, %o: i1):
    %l = arith.index_cast %len : index to i64
    %c = arith.cmpi sge, %j, %l : i64
    linalg.yield %c : i1
  } -> tensor<5x7xi1>
  %hide4 = tensor.expand_shape %hide [[0], [1, 2, 3]] output_shape [5, 1, 1, 7] : tensor<5x7xi1> into tensor<5x1x1x7xi1>
  %masked = linalg.generic {indexing_maps = [#id4, #bcast, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %hide4 : tensor<5x2x4x7xf32>, tensor<5x1x1x7xi1>) outs(%e : tensor<5x2x4x7xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %r = arith.select %m, %neginf, %a : f32
    linalg.yield %r : f32
  } -> tensor<5x2x4x7xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<5x2x4x7xf32>) outs(%e : tensor<5x2x4x7xf32>) -> tensor<5x2x4x7xf32>
  %oe = tensor.empty() : tensor<5x2x4x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<5x2x4x8xf32>) -> tensor<5x2x4x8xf32>
  %o = linalg.generic {indexing_maps = [#pv_p, #pv_v, #pv_o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<5x2x4x7xf32>, tensor<5x2x7x8xf32>) outs(%oz : tensor<5x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<5x2x4x8xf32>
  return %o : tensor<5x2x4x8xf32>
}

// TOSA: matmuls on [B*H, N, D], the mask and softmax on [B, H, Nq, Nk].
func.func @tosa_greater(%q4: tensor<5x2x4x8xf32>, %k4: tensor<5x2x7x8xf32>, %v4: tensor<5x2x7x8xf32>,
                        %lengths: tensor<5x1x1x1xi32>) -> tensor<5x2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %neginf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[[[[0, 1, 2, 3, 4, 5, 6]]]]> : tensor<1x1x1x7xi32>}> : () -> tensor<1x1x1x7xi32>
  %s3q = tosa.const_shape {values = dense<[10, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3k = tosa.const_shape {values = dense<[10, 7, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4s = tosa.const_shape {values = dense<[5, 2, 4, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3s = tosa.const_shape {values = dense<[10, 4, 7]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4o = tosa.const_shape {values = dense<[5, 2, 4, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q = tosa.reshape %q4, %s3q : (tensor<5x2x4x8xf32>, !tosa.shape<3>) -> tensor<10x4x8xf32>
  %k = tosa.reshape %k4, %s3k : (tensor<5x2x7x8xf32>, !tosa.shape<3>) -> tensor<10x7x8xf32>
  %v = tosa.reshape %v4, %s3k : (tensor<5x2x7x8xf32>, !tosa.shape<3>) -> tensor<10x7x8xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<10x7x8xf32>) -> tensor<10x8x7xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<10x4x8xf32>, tensor<10x8x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<10x4x7xf32>
  %y = tosa.mul %s, %scale, %shift : (tensor<10x4x7xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<10x4x7xf32>
  %y4 = tosa.reshape %y, %s4s : (tensor<10x4x7xf32>, !tosa.shape<4>) -> tensor<5x2x4x7xf32>
  %keep = tosa.greater %lengths, %iota : (tensor<5x1x1x1xi32>, tensor<1x1x1x7xi32>) -> tensor<5x1x1x7xi1>
  %x = tosa.select %keep, %y4, %neginf : (tensor<5x1x1x7xi1>, tensor<5x2x4x7xf32>, tensor<1x1x1x1xf32>) -> tensor<5x2x4x7xf32>
  %max = tosa.reduce_max %x {axis = 3 : i32} : (tensor<5x2x4x7xf32>) -> tensor<5x2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<5x2x4x7xf32>, tensor<5x2x4x1xf32>) -> tensor<5x2x4x7xf32>
  %ex = tosa.exp %d : (tensor<5x2x4x7xf32>) -> tensor<5x2x4x7xf32>
  %sum = tosa.reduce_sum %ex {axis = 3 : i32} : (tensor<5x2x4x7xf32>) -> tensor<5x2x4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<5x2x4x1xf32>) -> tensor<5x2x4x1xf32>
  %p4 = tosa.mul %ex, %inv, %shift : (tensor<5x2x4x7xf32>, tensor<5x2x4x1xf32>, tensor<1xi8>) -> tensor<5x2x4x7xf32>
  %p = tosa.reshape %p4, %s3s : (tensor<5x2x4x7xf32>, !tosa.shape<3>) -> tensor<10x4x7xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<10x4x7xf32>, tensor<10x7x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<10x4x8xf32>
  %o4 = tosa.reshape %o, %s4o : (tensor<10x4x8xf32>, !tosa.shape<4>) -> tensor<5x2x4x8xf32>
  return %o4 : tensor<5x2x4x8xf32>
}

func.func @print(%t: tensor<5x2x4x8xf32>) {
  %u = tensor.cast %t : tensor<5x2x4x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input4(%s1, %c5, %c2, %c4, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%s2, %c5, %c2, %c7, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%s3, %c5, %c2, %c7, %c8) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<5x2x4x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<5x2x7x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<5x2x7x8xf32>
  %l1 = arith.constant dense<[[7], [0], [9], [-2], [3]]> : tensor<5x1xi32>
  %o1 = call @keep_in_body(%q, %k, %v, %l1) : (tensor<5x2x4x8xf32>, tensor<5x2x7x8xf32>, tensor<5x2x7x8xf32>, tensor<5x1xi32>) -> tensor<5x2x4x8xf32>
  call @print(%o1) : (tensor<5x2x4x8xf32>) -> ()
  %l2 = arith.constant dense<[7, 0, 9, 1, 3]> : tensor<5xindex>
  %o2 = call @hide_on_arange(%q, %k, %v, %l2) : (tensor<5x2x4x8xf32>, tensor<5x2x7x8xf32>, tensor<5x2x7x8xf32>, tensor<5xindex>) -> tensor<5x2x4x8xf32>
  call @print(%o2) : (tensor<5x2x4x8xf32>) -> ()
  %l3 = arith.constant dense<[[[[6]]], [[[0]]], [[[9]]], [[[-2]]], [[[3]]]]> : tensor<5x1x1x1xi32>
  %o3 = call @tosa_greater(%q, %k, %v, %l3) : (tensor<5x2x4x8xf32>, tensor<5x2x7x8xf32>, tensor<5x2x7x8xf32>, tensor<5x1x1x1xi32>) -> tensor<5x2x4x8xf32>
  call @print(%o3) : (tensor<5x2x4x8xf32>) -> ()
  return
}
