// A joint graph with grouped K/V heads, as Hugging Face's repeat_kv and its
// autodiff spell it: K and V [B, Hkv, N, D] broadcast to [B, Hkv, G, N, D]
// and merged into the query heads for the matmuls; the backward sums the
// repeated heads' dK and dV back over the group. The op reads the repeated
// K and V (exact; GQA's saving is given up in a joint graph), its dK and dV
// replace the repeated heads' gradients, and the frontend's own sums stay.
// Run raised and as written.
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-4 --atol 5e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 384 values

// RAISED-LABEL: func.func @gqa
// RAISED: %[[O:.*]], %[[L:.*]] = fa.attention {{.*}} : tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>
// RAISED: fa.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %[[O]], %{{.*}}, %[[L]]
// RAISED-NOT: linalg.softmax
// RAISED-NOT: linalg.batch_matmul
// RAISED: linalg.reduce
// RAISED: linalg.reduce
// RAISED-LABEL: func.func @main

#id3 = affine_map<(b, i, j) -> (b, i, j)>
#id4 = affine_map<(b, h, i, j) -> (b, h, i, j)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @gqa(%q: tensor<4x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>, %do: tensor<4x8x4xf32>) -> (tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e5 = tensor.empty() : tensor<1x2x2x8x4xf32>
  %kb = linalg.broadcast ins(%k : tensor<1x2x8x4xf32>) outs(%e5 : tensor<1x2x2x8x4xf32>) dimensions = [2]
  %vb = linalg.broadcast ins(%v : tensor<1x2x8x4xf32>) outs(%e5 : tensor<1x2x2x8x4xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x4xf32> into tensor<4x8x4xf32>
  %vr = tensor.collapse_shape %vb [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x4xf32> into tensor<4x8x4xf32>
  %ekt = tensor.empty() : tensor<4x4x8xf32>
  %kt = linalg.transpose ins(%kr : tensor<4x8x4xf32>) outs(%ekt : tensor<4x4x8xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x8x4xf32>, tensor<4x4x8xf32>) outs(%zs : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x8x8xf32>) outs(%es : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<4x8x8xf32>) outs(%es : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %eo = tensor.empty() : tensor<4x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %vr : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%zo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  // dV of the repeated heads, summed over each group.
  %pt = linalg.transpose ins(%p : tensor<4x8x8xf32>) outs(%es : tensor<4x8x8xf32>) permutation = [0, 2, 1]
  %dvr = linalg.batch_matmul ins(%pt, %do : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%zo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %dv5 = tensor.expand_shape %dvr [[0, 1, 2], [3], [4]] output_shape [1, 2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<1x2x2x8x4xf32>
  %eu = tensor.empty() : tensor<1x2x8x4xf32>
  %zu = linalg.fill ins(%zero : f32) outs(%eu : tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %dv = linalg.reduce ins(%dv5 : tensor<1x2x2x8x4xf32>) outs(%zu : tensor<1x2x8x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %evt = tensor.empty() : tensor<4x4x8xf32>
  %vt = linalg.transpose ins(%vr : tensor<4x8x4xf32>) outs(%evt : tensor<4x4x8xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<4x8x4xf32>, tensor<4x4x8xf32>) outs(%zs : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %pdp = linalg.mul ins(%p, %dp : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%es : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %er = tensor.empty() : tensor<4x8xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<4x8xf32>) -> tensor<4x8xf32>
  %rows = linalg.reduce ins(%pdp : tensor<4x8x8xf32>) outs(%zr : tensor<4x8xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rb = linalg.broadcast ins(%rows : tensor<4x8xf32>) outs(%es : tensor<4x8x8xf32>) dimensions = [2]
  %diff = linalg.sub ins(%dp, %rb : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%es : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %g = linalg.mul ins(%p, %diff : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%es : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %gs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<4x8x8xf32>) outs(%es : tensor<4x8x8xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %r = arith.mulf %a, %half : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %dq = linalg.batch_matmul ins(%gs, %kr : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%zo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  // dK of the repeated heads, summed over each group.
  %gt = linalg.transpose ins(%gs : tensor<4x8x8xf32>) outs(%es : tensor<4x8x8xf32>) permutation = [0, 2, 1]
  %dkr = linalg.batch_matmul ins(%gt, %q : tensor<4x8x8xf32>, tensor<4x8x4xf32>) outs(%zo : tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
  %dk5 = tensor.expand_shape %dkr [[0, 1, 2], [3], [4]] output_shape [1, 2, 2, 8, 4] : tensor<4x8x4xf32> into tensor<1x2x2x8x4xf32>
  %dk = linalg.reduce ins(%dk5 : tensor<1x2x2x8x4xf32>) outs(%zu : tensor<1x2x8x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %o, %dq, %dk, %dv : tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>
}

// 2·sin(0.7·(linear index) + phase).
func.func @input(%phase: f32) -> tensor<4x8x4xf32> {
  %e = tensor.empty() : tensor<4x8x4xf32>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<4x8x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %d = linalg.index 2 : index
    %c32 = arith.constant 32 : index
    %c4 = arith.constant 4 : index
    %bb = arith.muli %b, %c32 : index
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
  } -> tensor<4x8x4xf32>
  return %r : tensor<4x8x4xf32>
}

func.func @main() {
  %s1 = arith.constant 0.1 : f32
  %s2 = arith.constant 1.3 : f32
  %s3 = arith.constant 2.9 : f32
  %s4 = arith.constant 4.2 : f32
  %q = call @input(%s1) : (f32) -> tensor<4x8x4xf32>
  %k4 = call @input(%s2) : (f32) -> tensor<4x8x4xf32>
  %v4 = call @input(%s3) : (f32) -> tensor<4x8x4xf32>
  %do = call @input(%s4) : (f32) -> tensor<4x8x4xf32>
  // K and V: the first two of the four heads, as [1, 2, 8, 4].
  %k2 = tensor.extract_slice %k4[0, 0, 0] [2, 8, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<2x8x4xf32>
  %v2 = tensor.extract_slice %v4[0, 0, 0] [2, 8, 4] [1, 1, 1] : tensor<4x8x4xf32> to tensor<2x8x4xf32>
  %k = tensor.expand_shape %k2 [[0, 1], [2], [3]] output_shape [1, 2, 8, 4] : tensor<2x8x4xf32> into tensor<1x2x8x4xf32>
  %v = tensor.expand_shape %v2 [[0, 1], [2], [3]] output_shape [1, 2, 8, 4] : tensor<2x8x4xf32> into tensor<1x2x8x4xf32>
  %o, %dq, %dk, %dv = call @gqa(%q, %k, %v, %do) : (tensor<4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<4x8x4xf32>) -> (tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>)
  %po = tensor.cast %o : tensor<4x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%po) : (tensor<*xf32>) -> ()
  %pq = tensor.cast %dq : tensor<4x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pq) : (tensor<*xf32>) -> ()
  %pk = tensor.cast %dk : tensor<1x2x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pk) : (tensor<*xf32>) -> ()
  %pv = tensor.cast %dv : tensor<1x2x8x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pv) : (tensor<*xf32>) -> ()
  return
}
