// A joint graph with two masks and a causal diagonal that is not the main
// one: Nq = 4 queries against Nk = 6 keys, an additive bias and a causal
// masked_fill (j <= i + 2, bottom-right) computed in the select's body, the
// select repeated on the score gradient (as raise-joint-graph-several-
// masks.mlir, where Nq = Nk). The bias hides keys 0 to 2 of query 0 in head
// 1, so that row sees no key: its O and dQ rows are NaN in the frontend, and
// all of head 1's dV. The causal select zeroes that row's score gradient at
// keys 3 to 5 and leaves its NaN at keys 0 to 2, so dK's rows 0 to 2 of
// head 1 are NaN: the rewrite restores the NaN at the keys an empty row
// keeps, j <= i + (Nk - Nq), which needs the diagonal's offset.
// @bias_and_causal_offset_sequence_first takes Q and K as [N, B·H, D] and
// transposes them: Nq and Nk are read through the permutation.
// RUN: fa-opt %s --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 320 values
// The frontend's NaNs, in each function: O's and dQ's row (4 each), dK's
// rows 0 to 2 of head 1 (12), head 1's dV (24).
// RUN: grep -o nan %t.frontend | count 88

// RAISED-NOT: remark
// RAISED-LABEL: func.func @bias_and_causal_offset
// RAISED: fa.attention {{.*}} mask({{.*}} : tensor<1x2x4x6xf32>) scale = 5.000000e-01 causal = bottom_right
// RAISED: fa.attention_backward {{.*}} mask({{.*}} : tensor<1x2x4x6xf32>) scale = 5.000000e-01 causal = bottom_right
// RAISED-NOT: linalg.softmax
// RAISED-NOT: linalg.batch_matmul
// RAISED-LABEL: func.func @bias_and_causal_offset_sequence_first
// RAISED: fa.attention {{.*}} causal = bottom_right
// RAISED: fa.attention_backward {{.*}} causal = bottom_right
// RAISED-NOT: linalg.softmax
// RAISED-NOT: linalg.batch_matmul

#id3 = affine_map<(b, i, j) -> (b, i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @bias_and_causal_offset(%q: tensor<2x4x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x4x4xf32>, %bias: tensor<2x4x6xf32>)
    -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x4x6xf32>
  %est = tensor.empty() : tensor<2x6x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<2x4x6xf32>, tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) {
  ^bb0(%a: f32, %bv: f32, %unused: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %two = arith.constant 2 : index
    %last = arith.addi %i, %two : index
    %c = arith.cmpi ule, %j, %last : index
    %y0 = arith.mulf %a, %half : f32
    %y = arith.addf %y0, %bv : f32
    %r = arith.select %c, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %eo = tensor.empty() : tensor<2x4x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ek = tensor.empty() : tensor<2x6x4xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x4x6xf32>) outs(%est : tensor<2x6x4xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x6x4xf32>, tensor<2x4x4xf32>) outs(%zk : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %evt = tensor.empty() : tensor<2x4x6xf32>
  %vt = linalg.transpose ins(%v : tensor<2x6x4xf32>) outs(%evt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x4x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %pdp = linalg.mul ins(%p, %dp : tensor<2x4x6xf32>, tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %rows = linalg.reduce ins(%pdp : tensor<2x4x6xf32>) outs(%zr : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x4xf32>) outs(%es : tensor<2x4x6xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : tensor<2x4x6xf32>, tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %g = linalg.mul ins(%p, %diff : tensor<2x4x6xf32>, tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6xf32>
  %gm = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gs : tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %two = arith.constant 2 : index
    %last = arith.addi %i, %two : index
    %c = arith.cmpi ule, %j, %last : index
    %r = arith.select %c, %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6xf32>
  %dq = linalg.batch_matmul ins(%gm, %k : tensor<2x4x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %egt = tensor.empty() : tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gm : tensor<2x4x6xf32>) outs(%egt : tensor<2x6x4xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x4xf32>, tensor<2x4x4xf32>) outs(%zk : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>
}

func.func @bias_and_causal_offset_sequence_first(%qs: tensor<4x2x4xf32>, %ks: tensor<6x2x4xf32>, %v: tensor<2x6x4xf32>, %do: tensor<2x4x4xf32>, %bias: tensor<2x4x6xf32>)
    -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<2x4x4xf32>
  %q = linalg.transpose ins(%qs : tensor<4x2x4xf32>) outs(%eq : tensor<2x4x4xf32>) permutation = [1, 0, 2]
  %ekk = tensor.empty() : tensor<2x6x4xf32>
  %k = linalg.transpose ins(%ks : tensor<6x2x4xf32>) outs(%ekk : tensor<2x6x4xf32>) permutation = [1, 0, 2]
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%ekt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x4x6xf32>
  %est = tensor.empty() : tensor<2x6x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<2x4x6xf32>, tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) {
  ^bb0(%a: f32, %bv: f32, %unused: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %two = arith.constant 2 : index
    %last = arith.addi %i, %two : index
    %c = arith.cmpi ule, %j, %last : index
    %y0 = arith.mulf %a, %half : f32
    %y = arith.addf %y0, %bv : f32
    %r = arith.select %c, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %eo = tensor.empty() : tensor<2x4x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ek = tensor.empty() : tensor<2x6x4xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %pt = linalg.transpose ins(%p : tensor<2x4x6xf32>) outs(%est : tensor<2x6x4xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x6x4xf32>, tensor<2x4x4xf32>) outs(%zk : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %evt = tensor.empty() : tensor<2x4x6xf32>
  %vt = linalg.transpose ins(%v : tensor<2x6x4xf32>) outs(%evt : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x4x4xf32>, tensor<2x4x6xf32>) outs(%zs : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %pdp = linalg.mul ins(%p, %dp : tensor<2x4x6xf32>, tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %rows = linalg.reduce ins(%pdp : tensor<2x4x6xf32>) outs(%zr : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<2x4xf32>) outs(%es : tensor<2x4x6xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : tensor<2x4x6xf32>, tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %g = linalg.mul ins(%p, %diff : tensor<2x4x6xf32>, tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6xf32>
  %gm = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%gs : tensor<2x4x6xf32>) outs(%es : tensor<2x4x6xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %two = arith.constant 2 : index
    %last = arith.addi %i, %two : index
    %c = arith.cmpi ule, %j, %last : index
    %r = arith.select %c, %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x4x6xf32>
  %dq = linalg.batch_matmul ins(%gm, %k : tensor<2x4x6xf32>, tensor<2x6x4xf32>) outs(%zo : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %egt = tensor.empty() : tensor<2x6x4xf32>
  %gt = linalg.transpose ins(%gm : tensor<2x4x6xf32>) outs(%egt : tensor<2x6x4xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%gt, %q : tensor<2x6x4xf32>, tensor<2x4x4xf32>) outs(%zk : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %o, %dq, %dk, %dv : tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>
}

func.func @queries(%phase: f32) -> tensor<2x4x4xf32> {
  %e = tensor.empty() : tensor<2x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %d = linalg.index 2 : index
    %c24 = arith.constant 16 : index
    %c4 = arith.constant 4 : index
    %bb = arith.muli %b, %c24 : index
    %ii = arith.muli %i, %c4 : index
    %s = arith.addi %bb, %ii : index
    %n = arith.addi %s, %d : index
    %ni = arith.index_cast %n : index to i64
    %f = arith.sitofp %ni : i64 to f32
    %c = arith.constant 0.7 : f32
    %x = arith.mulf %f, %c : f32
    %y = arith.addf %x, %phase : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<2x4x4xf32>
  return %r : tensor<2x4x4xf32>
}

func.func @keys(%phase: f32) -> tensor<2x6x4xf32> {
  %e = tensor.empty() : tensor<2x6x4xf32>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x6x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %d = linalg.index 2 : index
    %c24 = arith.constant 24 : index
    %c4 = arith.constant 4 : index
    %bb = arith.muli %b, %c24 : index
    %ii = arith.muli %i, %c4 : index
    %s = arith.addi %bb, %ii : index
    %n = arith.addi %s, %d : index
    %ni = arith.index_cast %n : index to i64
    %f = arith.sitofp %ni : i64 to f32
    %c = arith.constant 0.7 : f32
    %x = arith.mulf %f, %c : f32
    %y = arith.addf %x, %phase : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    linalg.yield %w : f32
  } -> tensor<2x6x4xf32>
  return %r : tensor<2x6x4xf32>
}

func.func @print4(%o: tensor<2x4x4xf32>, %dq: tensor<2x4x4xf32>, %dk: tensor<2x6x4xf32>, %dv: tensor<2x6x4xf32>) {
  %po = tensor.cast %o : tensor<2x4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%po) : (tensor<*xf32>) -> ()
  %pq = tensor.cast %dq : tensor<2x4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pq) : (tensor<*xf32>) -> ()
  %pk = tensor.cast %dk : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pk) : (tensor<*xf32>) -> ()
  %pv = tensor.cast %dv : tensor<2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pv) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 0.1 : f32
  %s2 = arith.constant 1.3 : f32
  %s3 = arith.constant 2.9 : f32
  %s4 = arith.constant 4.2 : f32
  %q = call @queries(%s1) : (f32) -> tensor<2x4x4xf32>
  %k = call @keys(%s2) : (f32) -> tensor<2x6x4xf32>
  %v = call @keys(%s3) : (f32) -> tensor<2x6x4xf32>
  %do = call @queries(%s4) : (f32) -> tensor<2x4x4xf32>
  %bias = arith.constant dense<[[[-1.0, -0.5, -0.0, -0.5, -1.0, -1.5], [-1.5, -1.0, -0.5, -0.0, -0.5, -1.0], [-2.0, -1.5, -1.0, -0.5, -0.0, -0.5], [-2.5, -2.0, -1.5, -1.0, -0.5, -0.0]], [[0xFF800000, 0xFF800000, 0xFF800000, -0.25, -0.5, -0.75], [-0.75, -0.5, -0.25, -0.0, -0.25, -0.5], [-1.0, -0.75, -0.5, -0.25, -0.0, -0.25], [-1.25, -1.0, -0.75, -0.5, -0.25, -0.0]]]> : tensor<2x4x6xf32>
  %o, %dq, %dk, %dv = call @bias_and_causal_offset(%q, %k, %v, %do, %bias) : (tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x4x4xf32>, tensor<2x4x6xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>)
  call @print4(%o, %dq, %dk, %dv) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  %eqs = tensor.empty() : tensor<4x2x4xf32>
  %qs = linalg.transpose ins(%q : tensor<2x4x4xf32>) outs(%eqs : tensor<4x2x4xf32>) permutation = [1, 0, 2]
  %eks = tensor.empty() : tensor<6x2x4xf32>
  %ks = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%eks : tensor<6x2x4xf32>) permutation = [1, 0, 2]
  %o2, %dq2, %dk2, %dv2 = call @bias_and_causal_offset_sequence_first(%qs, %ks, %v, %do, %bias) : (tensor<4x2x4xf32>, tensor<6x2x4xf32>, tensor<2x6x4xf32>, tensor<2x4x4xf32>, tensor<2x4x6xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>)
  call @print4(%o2, %dq2, %dk2, %dv2) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> ()
  return
}
