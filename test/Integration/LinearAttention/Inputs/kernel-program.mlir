// The program of gpu-kernel.test: fa.linear_attention four ways (causal,
// decayed and normalized; causal; normalized; plain) on inputs of type ELT
// with N = 37 known only at run time, MQA (Hq = 4, Hkv = 1), D = 32,
// Dv = 16, chunks of 16 (the last holds 5 rows). HALVES true makes every
// input a multiple of 0.5 in [-1, 1] (Q and K in [0, 1]): then every
// product and sum either order forms is exact in f16 and bf16, the state
// included, and only a decay power (exp(n ln gamma)) or the normalizing
// division round. GAMMA: the per-head decays.

!q = tensor<1x4x?x32xELT>
!kv = tensor<1x1x?x32xELT>
!v = tensor<1x1x?x16xELT>
!o = tensor<1x4x?x16xELT>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @decayed(%q: !q, %k: !kv, %v: !v, %gamma: tensor<4xf32>) -> !o {
  %o = fa.linear_attention %q, %k, %v decay(%gamma : tensor<4xf32>) scale = 0.25 causal normalize(eps = 1.0e-5) chunk = 16 : !q, !kv, !v -> !o
  return %o : !o
}

func.func @causal(%q: !q, %k: !kv, %v: !v) -> !o {
  %o = fa.linear_attention %q, %k, %v scale = 0.125 causal chunk = 16 : !q, !kv, !v -> !o
  return %o : !o
}

func.func @normalized(%q: !q, %k: !kv, %v: !v) -> !o {
  %o = fa.linear_attention %q, %k, %v scale = 0.25 normalize(eps = 1.0e-6) chunk = 16 : !q, !kv, !v -> !o
  return %o : !o
}

func.func @whole(%q: !q, %k: !kv, %v: !v) -> !o {
  %o = fa.linear_attention %q, %k, %v scale = 0.25 chunk = 16 : !q, !kv, !v -> !o
  return %o : !o
}

// elu(2 sin(0.7 (17 r + f) + seed)) + 1 (phi) or the sine itself, in the element type.
func.func @input(%seed: f32, %rows: index, %width: index, %phi: i1, %halves: i1) -> tensor<?x?xELT> {
  %e = tensor.empty(%rows, %width) : tensor<?x?xELT>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xELT>) {
  ^bb0(%o: ELT):
    %a = linalg.index 0 : index
    %c = linalg.index 1 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c17 : index
    %s1 = arith.addi %a1, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %z, %two : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %positive = arith.cmpf ogt, %w, %zero : f32
    %plus = arith.addf %w, %one : f32
    %ex = math.exp %w : f32
    %elu = arith.select %positive, %plus, %ex : f32
    %r = arith.select %phi, %elu, %w : f32
    %a2 = math.absf %z : f32
    %sgn = arith.select %phi, %a2, %z : f32
    %twice = arith.mulf %sgn, %two : f32
    %rounded = math.round %twice : f32
    %half = arith.constant 0.5 : f32
    %exact = arith.mulf %rounded, %half : f32
    %pick = arith.select %halves, %exact, %r : f32
    %h = arith.truncf %pick : f32 to ELT
    linalg.yield %h : ELT
  } -> tensor<?x?xELT>
  return %r : tensor<?x?xELT>
}

func.func @print(%o: !o) {
  %wide = arith.extf %o : !o to tensor<1x4x?x16xf32>
  %u = tensor.cast %wide : tensor<1x4x?x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %n = arith.constant 37 : index
  %c148 = arith.constant 148 : index
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %yes = arith.constant true
  %no = arith.constant false
  %halves = arith.constant HALVES
  %qf = call @input(%s1, %c148, %c32, %yes, %halves) : (f32, index, index, i1, i1) -> tensor<?x?xELT>
  %kf = call @input(%s2, %n, %c32, %yes, %halves) : (f32, index, index, i1, i1) -> tensor<?x?xELT>
  %vf = call @input(%s3, %n, %c16, %no, %halves) : (f32, index, index, i1, i1) -> tensor<?x?xELT>
  %qc = tensor.cast %qf : tensor<?x?xELT> to tensor<?x32xELT>
  %kc = tensor.cast %kf : tensor<?x?xELT> to tensor<?x32xELT>
  %vc = tensor.cast %vf : tensor<?x?xELT> to tensor<?x16xELT>
  %q = tensor.expand_shape %qc [[0, 1, 2], [3]] output_shape [1, 4, %n, 32] : tensor<?x32xELT> into !q
  %k = tensor.expand_shape %kc [[0, 1, 2], [3]] output_shape [1, 1, %n, 32] : tensor<?x32xELT> into !kv
  %v = tensor.expand_shape %vc [[0, 1, 2], [3]] output_shape [1, 1, %n, 16] : tensor<?x16xELT> into !v
  %gamma = arith.constant dense<GAMMA> : tensor<4xf32>
  %o1 = call @decayed(%q, %k, %v, %gamma) : (!q, !kv, !v, tensor<4xf32>) -> !o
  call @print(%o1) : (!o) -> ()
  %o2 = call @causal(%q, %k, %v) : (!q, !kv, !v) -> !o
  call @print(%o2) : (!o) -> ()
  %o3 = call @normalized(%q, %k, %v) : (!q, !kv, !v) -> !o
  call @print(%o3) : (!o) -> ()
  %o4 = call @whole(%q, %k, %v) : (!q, !kv, !v) -> !o
  call @print(%o4) : (!o) -> ()
  return
}
