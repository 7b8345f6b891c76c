// The tiled backward's block sparsity under a mask_mod, on tiles that
// divide the sequence (no padded rows or keys, so only the mask_mod's own
// classification decides which pairs run the element test): three
// documents of 20, 25 and 19 positions, with ALiBi and a soft-cap,
// sinks with their gradient, causal and a bias gradient, f32, 64 x 64;
// tiles 16 x 16 and 32 x 16. Pairs inside one document are whole, pairs
// across documents hidden (skipped), pairs on a boundary partial.
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: %compare %t.tiled %t.reference --rtol 3e-5 --atol 3e-6 | FileCheck %s
// CHECK: MATCH 28676 values

!q = tensor<1x2x64x16xf32>
!kv = tensor<1x2x64x16xf32>
!lse = tensor<1x2x64xf32>
!bias = tensor<1x2x64x64xf32>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @small_tiles(%q: !q, %k: !kv, %v: !kv, %do: !q, %bias: !bias, %slopes: tensor<2xf32>,
    %sinks: tensor<2xf32>, %qdoc: tensor<64xi32>, %kdoc: tensor<64xi32>)
    -> (!q, !kv, !kv, !bias, tensor<2xf32>) {
  %o, %l = fa.attention %q, %k, %v mask(%bias : !bias) sinks(%sinks : tensor<2xf32>)
      scale = 0.25 causal = bottom_right score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %slope = tensor.extract %slopes[%h] : tensor<2xf32>
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %t = arith.mulf %slope, %df : f32
    %a = arith.addf %s, %t : f32
    %cap = arith.constant 2.5 : f32
    %x = arith.divf %a, %cap : f32
    %th = math.tanh %x : f32
    %r = arith.mulf %th, %cap : f32
    fa.yield %r : f32
  } mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %qdoc[%i] : tensor<64xi32>
    %c = tensor.extract %kdoc[%j] : tensor<64xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : !q, !kv, !kv -> !q, !lse
  %dq, %dk, %dv, %db, %ds = fa.attention_backward %q, %k, %v, %o, %do, %l
      mask(%bias : !bias) sinks(%sinks : tensor<2xf32>) scale = 0.25
      causal = bottom_right tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1> score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %slope = tensor.extract %slopes[%h] : tensor<2xf32>
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %t = arith.mulf %slope, %df : f32
    %a = arith.addf %s, %t : f32
    %cap = arith.constant 2.5 : f32
    %x = arith.divf %a, %cap : f32
    %th = math.tanh %x : f32
    %r = arith.mulf %th, %cap : f32
    fa.yield %r : f32
  } mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %qdoc[%i] : tensor<64xi32>
    %c = tensor.extract %kdoc[%j] : tensor<64xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : !q, !kv, !kv, !q, !q, !lse -> !q, !kv, !kv, !bias grad_sinks(tensor<2xf32>)
  return %dq, %dk, %dv, %db, %ds : !q, !kv, !kv, !bias, tensor<2xf32>
}

func.func @two_warps(%q: !q, %k: !kv, %v: !kv, %do: !q, %bias: !bias, %slopes: tensor<2xf32>,
    %sinks: tensor<2xf32>, %qdoc: tensor<64xi32>, %kdoc: tensor<64xi32>)
    -> (!q, !kv, !kv, !bias, tensor<2xf32>) {
  %o, %l = fa.attention %q, %k, %v mask(%bias : !bias) sinks(%sinks : tensor<2xf32>)
      scale = 0.25 causal = bottom_right score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %slope = tensor.extract %slopes[%h] : tensor<2xf32>
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %t = arith.mulf %slope, %df : f32
    %a = arith.addf %s, %t : f32
    %cap = arith.constant 2.5 : f32
    %x = arith.divf %a, %cap : f32
    %th = math.tanh %x : f32
    %r = arith.mulf %th, %cap : f32
    fa.yield %r : f32
  } mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %qdoc[%i] : tensor<64xi32>
    %c = tensor.extract %kdoc[%j] : tensor<64xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : !q, !kv, !kv -> !q, !lse
  %dq, %dk, %dv, %db, %ds = fa.attention_backward %q, %k, %v, %o, %do, %l
      mask(%bias : !bias) sinks(%sinks : tensor<2xf32>) scale = 0.25
      causal = bottom_right tiling = <block_q = 32, block_kv = 16, warps = 2, stages = 1> score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %slope = tensor.extract %slopes[%h] : tensor<2xf32>
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %t = arith.mulf %slope, %df : f32
    %a = arith.addf %s, %t : f32
    %cap = arith.constant 2.5 : f32
    %x = arith.divf %a, %cap : f32
    %th = math.tanh %x : f32
    %r = arith.mulf %th, %cap : f32
    fa.yield %r : f32
  } mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %qdoc[%i] : tensor<64xi32>
    %c = tensor.extract %kdoc[%j] : tensor<64xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : !q, !kv, !kv, !q, !q, !lse -> !q, !kv, !kv, !bias grad_sinks(tensor<2xf32>)
  return %dq, %dk, %dv, %db, %ds : !q, !kv, !kv, !bias, tensor<2xf32>
}

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// sin(0.37 (7919 a + 131 b + 29 c + d) + seed) * amplitude, in f16.
func.func @fill(%t: tensor<?x?x?x?xf32>, %seed: f32, %amplitude: f32) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %c7 = arith.constant 7919 : index
    %c5 = arith.constant 131 : index
    %c3 = arith.constant 29 : index
    %a = arith.muli %i0, %c7 : index
    %b = arith.muli %i1, %c5 : index
    %c = arith.muli %i2, %c3 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %i3 : index
    %n = arith.index_cast %s2 : index to i64
    %f = arith.sitofp %n : i64 to f32
    %k = arith.constant 0.37 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %w = arith.mulf %z, %amplitude : f32
    linalg.yield %w : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @input(%b: index, %h: index, %n: index, %d: index, %seed: f32, %amplitude: f32) -> tensor<?x?x?x?xf32> {
  %e = tensor.empty(%b, %h, %n, %d) : tensor<?x?x?x?xf32>
  %r = call @fill(%e, %seed, %amplitude) : (tensor<?x?x?x?xf32>, f32, f32) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @print(%t: tensor<?x?x?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @printAll(%dq: !q, %dk: !kv, %dv: !kv, %db: !bias, %ds: tensor<2xf32>) {
  %a = tensor.cast %dq : !q to tensor<?x?x?x?xf32>
  call @print(%a) : (tensor<?x?x?x?xf32>) -> ()
  %b = tensor.cast %dk : !kv to tensor<?x?x?x?xf32>
  call @print(%b) : (tensor<?x?x?x?xf32>) -> ()
  %c = tensor.cast %dv : !kv to tensor<?x?x?x?xf32>
  call @print(%c) : (tensor<?x?x?x?xf32>) -> ()
  %d = tensor.cast %db : !bias to tensor<?x?x?x?xf32>
  call @print(%d) : (tensor<?x?x?x?xf32>) -> ()
  %e = tensor.cast %ds : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%e) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c40 = arith.constant 64 : index
  %c56 = arith.constant 64 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %s5 = arith.constant 5.0 : f32
  %one = arith.constant 1.0 : f32
  %quarter = arith.constant 0.25 : f32
  %qd = call @input(%c1, %c4, %c40, %c16, %s1, %one) : (index, index, index, index, f32, f32) -> tensor<?x?x?x?xf32>
  %kd = call @input(%c1, %c2, %c56, %c16, %s2, %one) : (index, index, index, index, f32, f32) -> tensor<?x?x?x?xf32>
  %vd = call @input(%c1, %c2, %c56, %c16, %s3, %one) : (index, index, index, index, f32, f32) -> tensor<?x?x?x?xf32>
  %gd = call @input(%c1, %c4, %c40, %c16, %s4, %one) : (index, index, index, index, f32, f32) -> tensor<?x?x?x?xf32>
  %bd = call @input(%c1, %c4, %c40, %c56, %s5, %quarter) : (index, index, index, index, f32, f32) -> tensor<?x?x?x?xf32>
  %q = tensor.cast %qd : tensor<?x?x?x?xf32> to !q
  %k = tensor.cast %kd : tensor<?x?x?x?xf32> to !kv
  %v = tensor.cast %vd : tensor<?x?x?x?xf32> to !kv
  %do = tensor.cast %gd : tensor<?x?x?x?xf32> to !q
  %bias = tensor.cast %bd : tensor<?x?x?x?xf32> to !bias
  %slopes = arith.constant dense<[0.25, 0.0625]> : tensor<2xf32>
  %sinks = arith.constant dense<[1.5, -0.5]> : tensor<2xf32>
  %qdoc = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]> : tensor<64xi32>
  %kdoc = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]> : tensor<64xi32>
  %a1, %a2, %a3, %a4, %a5 = call @small_tiles(%q, %k, %v, %do, %bias, %slopes, %sinks, %qdoc, %kdoc)
      : (!q, !kv, !kv, !q, !bias, tensor<2xf32>, tensor<2xf32>, tensor<64xi32>, tensor<64xi32>) -> (!q, !kv, !kv, !bias, tensor<2xf32>)
  call @printAll(%a1, %a2, %a3, %a4, %a5) : (!q, !kv, !kv, !bias, tensor<2xf32>) -> ()
  %b1, %b2, %b3, %b4, %b5 = call @two_warps(%q, %k, %v, %do, %bias, %slopes, %sinks, %qdoc, %kdoc)
      : (!q, !kv, !kv, !q, !bias, tensor<2xf32>, tensor<2xf32>, tensor<64xi32>, tensor<64xi32>) -> (!q, !kv, !kv, !bias, tensor<2xf32>)
  call @printAll(%b1, %b2, %b3, %b4, %b5) : (!q, !kv, !kv, !bias, tensor<2xf32>) -> ()
  return
}
