// The backward op against a hand-written joint forward + backward graph: the
// unfused attention (causal, top-left) and its autodiff as a frontend emits
// it for training (S = scale Q K^T, P = softmax(S), O = P V; dV = P^T dO,
// dP = dO V^T, dS = P * (dP - rowsum(dP * P)), dQ = scale dS K,
// dK = scale dS^T Q), written in linalg with nothing shared with fa-opt.
// fa.attention + fa.attention_backward on the same inputs must agree with
// it through the reference and the tiled backward.
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %run-entry joint > %t.joint
// RUN: fa-opt %s "--fa-cpu-pipeline=raise=false reference=true" | %run-entry fused > %t.reference
// RUN: %compare %t.reference %t.joint --rtol 1e-5 --atol 1e-6
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %run-entry fused > %t.tiled
// RUN: %compare %t.tiled %t.joint --rtol 1e-5 --atol 1e-6
// The graph really holds the gradients (3 tensors of 48, 48 and 48 values).
// RUN: FileCheck %s < %t.joint
// CHECK-COUNT-3: sizes = [1, 2, 6, 4]

#q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i)>
// (b, h, j, d, i): reductions over the query rows, for dK and dV.
#sT = affine_map<(b, h, j, d, i) -> (b, h, i, j)>
#qT = affine_map<(b, h, j, d, i) -> (b, h, i, d)>
#kT = affine_map<(b, h, j, d, i) -> (b, h, j, d)>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @gradients(%q: tensor<1x2x6x4xf32>, %k: tensor<1x2x6x4xf32>,
    %v: tensor<1x2x6x4xf32>, %do: tensor<1x2x6x4xf32>)
    -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f32
  %e4 = tensor.empty() : tensor<1x2x6x6xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %e3 = tensor.empty() : tensor<1x2x6xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %n3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %eo = tensor.empty() : tensor<1x2x6x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2x6x4xf32>) -> tensor<1x2x6x4xf32>
  // Forward: causal scores, softmax.
  %qk = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) outs(%z4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %scores = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qk : tensor<1x2x6x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %keep = arith.cmpi ule, %j, %i : index
    %sx = arith.mulf %x, %scale : f32
    %r = arith.select %keep, %sx, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%scores : tensor<1x2x6x6xf32>) outs(%n3 : tensor<1x2x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores, %max : tensor<1x2x6x6xf32>, tensor<1x2x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x2x6x6xf32>) outs(%z3 : tensor<1x2x6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<1x2x6x6xf32>, tensor<1x2x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %r = arith.divf %x, %t : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  // Backward: dV = P^T dO.
  %dv = linalg.generic {indexing_maps = [#sT, #qT, #kT], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<1x2x6x6xf32>, tensor<1x2x6x4xf32>) outs(%zo : tensor<1x2x6x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x4xf32>
  // dP = dO V^T.
  %dp = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) outs(%z4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  // Softmax's backward: dS = P * (dP - rowsum(dP * P)), then the scale.
  %dpp = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) outs(%z3 : tensor<1x2x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6xf32>
  %ds = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %dpp : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6xf32>) outs(%e4 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %d = arith.subf %b, %c : f32
    %m = arith.mulf %a, %d : f32
    %r = arith.mulf %m, %scale : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  // dQ = dS K, dK = dS^T Q.
  %dq = linalg.generic {indexing_maps = [#s, #k, #q], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%ds, %k : tensor<1x2x6x6xf32>, tensor<1x2x6x4xf32>) outs(%zo : tensor<1x2x6x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x4xf32>
  %dk = linalg.generic {indexing_maps = [#sT, #qT, #kT], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<1x2x6x6xf32>, tensor<1x2x6x4xf32>) outs(%zo : tensor<1x2x6x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x4xf32>
  return %dq, %dk, %dv : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>
}

func.func @fused_gradients(%q: tensor<1x2x6x4xf32>, %k: tensor<1x2x6x4xf32>,
    %v: tensor<1x2x6x4xf32>, %do: tensor<1x2x6x4xf32>)
    -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) {
  %o, %lse = fa.attention %q, %k, %v scale = 0.5 causal = top_left
      : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32> -> tensor<1x2x6x4xf32>, tensor<1x2x6xf32>
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse scale = 0.5 causal = top_left
      tiling = <block_q = 4, block_kv = 4, warps = 1, stages = 1>
      : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6xf32>
      -> tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>
  return %dq, %dk, %dv : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>
}

// Inputs: sin of a linear index with a different phase per tensor.
func.func @input(%phase: f32) -> tensor<1x2x6x4xf32> {
  %e = tensor.empty() : tensor<1x2x6x4xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x2x6x4xf32>) {
  ^bb0(%o: f32):
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c24 = arith.constant 24 : index
    %c4 = arith.constant 4 : index
    %a = arith.muli %h, %c24 : index
    %b = arith.muli %i, %c4 : index
    %s = arith.addi %a, %b : index
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
  } -> tensor<1x2x6x4xf32>
  return %r : tensor<1x2x6x4xf32>
}

func.func @print3(%a: tensor<1x2x6x4xf32>, %b: tensor<1x2x6x4xf32>, %c: tensor<1x2x6x4xf32>) {
  %pa = tensor.cast %a : tensor<1x2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pa) : (tensor<*xf32>) -> ()
  %pb = tensor.cast %b : tensor<1x2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pb) : (tensor<*xf32>) -> ()
  %pc = tensor.cast %c : tensor<1x2x6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%pc) : (tensor<*xf32>) -> ()
  return
}

func.func @inputs() -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) {
  %s1 = arith.constant 0.1 : f32
  %s2 = arith.constant 1.3 : f32
  %s3 = arith.constant 2.9 : f32
  %s4 = arith.constant 4.2 : f32
  %q = call @input(%s1) : (f32) -> tensor<1x2x6x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<1x2x6x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<1x2x6x4xf32>
  %do = call @input(%s4) : (f32) -> tensor<1x2x6x4xf32>
  return %q, %k, %v, %do : tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>
}

func.func @joint() {
  %q, %k, %v, %do = call @inputs() : () -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>)
  %dq, %dk, %dv = call @gradients(%q, %k, %v, %do) : (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>)
  call @print3(%dq, %dk, %dv) : (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) -> ()
  return
}

func.func @fused() {
  %q, %k, %v, %do = call @inputs() : () -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>)
  %dq, %dk, %dv = call @fused_gradients(%q, %k, %v, %do) : (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) -> (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>)
  call @print3(%dq, %dk, %dv) : (tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>, tensor<1x2x6x4xf32>) -> ()
  return
}
