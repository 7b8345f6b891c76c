// Mixed-precision TOSA training graphs (f16 Q, K, V and dO; tosa.matmul of
// f16 operands into f32 for the scores, dP and the four products, those
// cast back to f16; P and dS cast to f16 before their products) with the
// six modifications of raise-joint-graphs-tosa.mlir — soft-cap, ALiBi, T5
// buckets (tosa.gather), sinks (tile, concat, slice; tosa.pad of dP,
// dSinks), documents, prefix-LM — raised to fa.attention and
// fa.attention_backward and run through the emulated GPU kernels (mma.sync,
// sm_80: the forward kernel and the backward kernels, dSinks' included)
// against the program as written and against the reference lowering of the
// raised ops. B·H = 2, N = 12, D = 16.
// Tolerances: P and dS are rounded to f16 on every side (the frontend
// casts them; the kernels round them as FlashAttention-2 does), and one
// f16 ulp of a weight can land differently where the exponentials are
// computed differently (2^x in the kernels): dQ and dK sum 12 products of
// magnitude about 1 that cancel, so up to 12 · 2^-10 ≈ 1e-2 against the
// frontend and 5e-3 against the reference (whose P·V is f32); rtol 1e-2
// for the f16 outputs' own rounding.
// RUN: fa-opt %s --fa-raise-attention --fa-fold-masks-into-modifiers | FileCheck %s --check-prefix=RAISED
// RUN: fa-opt %s --fa-raise-attention --fa-fold-masks-into-modifiers --fa-select-tiles=target=sm_80 --fa-distribute-attention-backward --fa-distribute-attention | FileCheck %s --check-prefix=KERNEL
// RUN: fa-opt %s --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.frontend --rtol 1e-2 --atol 1e-2 | FileCheck %s --check-prefix=SAME
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.kernel %t.reference --rtol 1e-2 --atol 5e-3 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 9218 values
// Every function raised to both ops, and every op became kernels.
// RAISED-COUNT-6: fa.attention_backward
// RAISED-NOT: tosa.matmul
// KERNEL-NOT: fa.attention
// KERNEL: func.func @input

func.func private @printMemrefF32(tensor<*xf32>)

func.func @softcap(%q: tensor<2x12x16xf16>, %k: tensor<2x12x16xf16>, %v: tensor<2x12x16xf16>, %do: tensor<2x12x16xf16>)
    -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %s = tosa.matmul %q, %kt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %invcap = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %cap = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %y = tosa.mul %ss, %invcap, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %t = tosa.tanh %y : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %x = tosa.mul %t, %cap, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %p16 = tosa.cast %p : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %o32 = tosa.matmul %p16, %v, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %o = tosa.cast %o32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; JAX's softmax backward P∘dP − P∘rowsum(P∘dP).
  %pt = tosa.transpose %p16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dv32 = tosa.matmul %pt, %do, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dv = tosa.cast %dv32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %dp = tosa.matmul %do, %vt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  // Through the cap (JAX's jvp of tanh transposed): g cap (1 - t t) / cap.
  %gc = tosa.mul %g, %cap, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %tt = tosa.mul %t, %t, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %dt = tosa.sub %one, %tt : (tensor<1x1x1xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %ga = tosa.mul %gc, %dt, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gx = tosa.mul %ga, %invcap, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gs = tosa.mul %gx, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gs16 = tosa.cast %gs : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %dq32 = tosa.matmul %gs16, %k, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dq = tosa.cast %dq32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %gt = tosa.transpose %gs16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dk32 = tosa.matmul %gt, %q, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dk = tosa.cast %dk32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  return %o, %dq, %dk, %dv : tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>
}

func.func @alibi(%q: tensor<2x12x16xf16>, %k: tensor<2x12x16xf16>, %v: tensor<2x12x16xf16>, %do: tensor<2x12x16xf16>)
    -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %s = tosa.matmul %q, %kt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %qpos = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kpos = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %slopes = "tosa.const"() <{values = dense<[[[0.25]], [[0.0625]]]> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %rel = tosa.sub %kpos, %qpos : (tensor<1x1x12xi32>, tensor<1x12x1xi32>) -> tensor<1x12x12xi32>
  %relf = tosa.cast %rel : (tensor<1x12x12xi32>) -> tensor<1x12x12xf32>
  %alibi = tosa.mul %slopes, %relf, %shift : (tensor<2x1x1xf32>, tensor<1x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %x = tosa.add %ss, %alibi : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %p16 = tosa.cast %p : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %o32 = tosa.matmul %p16, %v, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %o = tosa.cast %o32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; JAX's softmax backward P∘dP − P∘rowsum(P∘dP).
  %pt = tosa.transpose %p16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dv32 = tosa.matmul %pt, %do, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dv = tosa.cast %dv32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %dp = tosa.matmul %do, %vt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %gs = tosa.mul %g, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gs16 = tosa.cast %gs : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %dq32 = tosa.matmul %gs16, %k, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dq = tosa.cast %dq32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %gt = tosa.transpose %gs16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dk32 = tosa.matmul %gt, %q, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dk = tosa.cast %dk32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  return %o, %dq, %dk, %dv : tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>
}

// T5's relative buckets as TOSA spells them (the forward's lookup is a
// tosa.gather between reshapes; raise-position-masks-tosa.mlir) with
// autodiff's backward: a score_mod on both ops.
func.func @t5_buckets(%q: tensor<2x12x16xf16>, %k: tensor<2x12x16xf16>, %v: tensor<2x12x16xf16>, %do: tensor<2x12x16xf16>)
    -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %s = tosa.matmul %q, %kt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %qpos = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kpos = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %exact = "tosa.const"() <{values = dense<2> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %halfbuckets = "tosa.const"() <{values = dense<4> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %lastbucket = "tosa.const"() <{values = dense<3> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %invexact = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %logscale = "tosa.const"() <{values = dense<0.961796693> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %table = "tosa.const"() <{values = dense<[[[0.5, -1.0], [0.25, 0.75], [-0.5, 0.125], [1.0, -0.25], [0.0, 0.5], [-0.75, 1.25], [0.375, -0.5], [1.5, 0.0]]]> : tensor<1x8x2xf32>}> : () -> tensor<1x8x2xf32>
  %rel = tosa.sub %kpos, %qpos : (tensor<1x1x12xi32>, tensor<1x12x1xi32>) -> tensor<1x12x12xi32>
  %later = tosa.greater %rel, %zero : (tensor<1x12x12xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi1>
  %offset = tosa.select %later, %halfbuckets, %zero : (tensor<1x12x12xi1>, tensor<1x1x1xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi32>
  %dist = tosa.abs %rel : (tensor<1x12x12xi32>) -> tensor<1x12x12xi32>
  %small = tosa.greater %exact, %dist : (tensor<1x1x1xi32>, tensor<1x12x12xi32>) -> tensor<1x12x12xi1>
  %distf = tosa.cast %dist : (tensor<1x12x12xi32>) -> tensor<1x12x12xf32>
  %ratio = tosa.mul %distf, %invexact, %shift : (tensor<1x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x12x12xf32>
  %logratio = tosa.log %ratio : (tensor<1x12x12xf32>) -> tensor<1x12x12xf32>
  %scaledlog = tosa.mul %logratio, %logscale, %shift : (tensor<1x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x12x12xf32>
  %floored = tosa.floor %scaledlog : (tensor<1x12x12xf32>) -> tensor<1x12x12xf32>
  %steps = tosa.cast %floored : (tensor<1x12x12xf32>) -> tensor<1x12x12xi32>
  %large = tosa.add %steps, %exact : (tensor<1x12x12xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi32>
  %capped = tosa.minimum %large, %lastbucket : (tensor<1x12x12xi32>, tensor<1x1x1xi32>) -> tensor<1x12x12xi32>
  %inhalf = tosa.select %small, %dist, %capped : (tensor<1x12x12xi1>, tensor<1x12x12xi32>, tensor<1x12x12xi32>) -> tensor<1x12x12xi32>
  %bucket = tosa.add %inhalf, %offset : (tensor<1x12x12xi32>, tensor<1x12x12xi32>) -> tensor<1x12x12xi32>
  %flat = tosa.const_shape {values = dense<[1, 144]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %rows_of_buckets = tosa.reshape %bucket, %flat : (tensor<1x12x12xi32>, !tosa.shape<2>) -> tensor<1x144xi32>
  %looked = tosa.gather %table, %rows_of_buckets : (tensor<1x8x2xf32>, tensor<1x144xi32>) -> tensor<1x144x2xf32>
  %square = tosa.const_shape {values = dense<[12, 12, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %perpos = tosa.reshape %looked, %square : (tensor<1x144x2xf32>, !tosa.shape<3>) -> tensor<12x12x2xf32>
  %alibi = tosa.transpose %perpos {perms = array<i32: 2, 0, 1>} : (tensor<12x12x2xf32>) -> tensor<2x12x12xf32>
  %x = tosa.add %ss, %alibi : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %p16 = tosa.cast %p : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %o32 = tosa.matmul %p16, %v, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %o = tosa.cast %o32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; JAX's softmax backward P∘dP − P∘rowsum(P∘dP).
  %pt = tosa.transpose %p16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dv32 = tosa.matmul %pt, %do, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dv = tosa.cast %dv32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %dp = tosa.matmul %do, %vt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %gs = tosa.mul %g, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gs16 = tosa.cast %gs : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %dq32 = tosa.matmul %gs16, %k, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dq = tosa.cast %dq32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %gt = tosa.transpose %gs16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dk32 = tosa.matmul %gt, %q, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dk = tosa.cast %dk32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  return %o, %dq, %dk, %dv : tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>
}

// Sinks: a per-head logit tiled into a column (the argument's gradient is
// dSinks), the softmax over Nk + 1, and its backward as autodiff writes it.
func.func @sinks(%q: tensor<2x12x16xf16>, %k: tensor<2x12x16xf16>, %v: tensor<2x12x16xf16>, %do: tensor<2x12x16xf16>, %sinks: tensor<2x1x1xf32>)
    -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x1x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %s = tosa.matmul %q, %kt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %multiples = tosa.const_shape {values = dense<[1, 12, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %column = tosa.tile %sinks, %multiples : (tensor<2x1x1xf32>, !tosa.shape<3>) -> tensor<2x12x1xf32>
  %x = tosa.concat %ss, %column {axis = 2 : i32} : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x13xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x13xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x13xf32>, tensor<2x12x1xf32>) -> tensor<2x12x13xf32>
  %e = tosa.exp %d : (tensor<2x12x13xf32>) -> tensor<2x12x13xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x13xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %pall = tosa.mul %e, %inv, %shift : (tensor<2x12x13xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x13xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[2, 12, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p = tosa.slice %pall, %start, %size : (tensor<2x12x13xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x12x12xf32>
  %p16 = tosa.cast %p : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %o32 = tosa.matmul %p16, %v, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %o = tosa.cast %o32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; the slice's backward pads dP with a zero sink
  // column; JAX's softmax backward over Nk + 1; the concat's backward
  // slices the scores' gradient and the column's; the tile's backward sums
  // the column over the queries.
  %pt = tosa.transpose %p16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dv32 = tosa.matmul %pt, %do, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dv = tosa.cast %dv32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %dp = tosa.matmul %do, %vt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 1]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %padvalue = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %dpf = tosa.pad %dp, %padding, %padvalue : (tensor<2x12x12xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x12x13xf32>
  %pdp = tosa.mul %pall, %dpf, %shift : (tensor<2x12x13xf32>, tensor<2x12x13xf32>, tensor<1xi8>) -> tensor<2x12x13xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x13xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %pall, %rows, %shift : (tensor<2x12x13xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x13xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x13xf32>, tensor<2x12x13xf32>) -> tensor<2x12x13xf32>
  %gx = tosa.slice %g, %start, %size : (tensor<2x12x13xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x12x12xf32>
  %colstart = tosa.const_shape {values = dense<[0, 0, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %colsize = tosa.const_shape {values = dense<[2, 12, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gc = tosa.slice %g, %colstart, %colsize : (tensor<2x12x13xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x12x1xf32>
  %dsinks = tosa.reduce_sum %gc {axis = 1 : i32} : (tensor<2x12x1xf32>) -> tensor<2x1x1xf32>
  %gs = tosa.mul %gx, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gs16 = tosa.cast %gs : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %dq32 = tosa.matmul %gs16, %k, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dq = tosa.cast %dq32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %gt = tosa.transpose %gs16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dk32 = tosa.matmul %gt, %q, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dk = tosa.cast %dk32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  return %o, %dq, %dk, %dv, %dsinks : tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x1x1xf32>
}

func.func @documents(%q: tensor<2x12x16xf16>, %k: tensor<2x12x16xf16>, %v: tensor<2x12x16xf16>, %do: tensor<2x12x16xf16>)
    -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %s = tosa.matmul %q, %kt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %qdoc = "tosa.const"() <{values = dense<[[[0], [0], [0], [1], [1], [2], [2], [2], [2], [3], [3], [3]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kdoc = "tosa.const"() <{values = dense<[[[0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %keep = tosa.equal %qdoc, %kdoc : (tensor<1x12x1xi32>, tensor<1x1x12xi32>) -> tensor<1x12x12xi1>
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %p16 = tosa.cast %p : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %o32 = tosa.matmul %p16, %v, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %o = tosa.cast %o32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; JAX's softmax backward P∘dP − P∘rowsum(P∘dP).
  %pt = tosa.transpose %p16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dv32 = tosa.matmul %pt, %do, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dv = tosa.cast %dv32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %dp = tosa.matmul %do, %vt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  // masked_fill's backward: 0 where the mask hides.
  %gx = tosa.select %keep, %g, %zero : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %gs = tosa.mul %gx, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gs16 = tosa.cast %gs : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %dq32 = tosa.matmul %gs16, %k, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dq = tosa.cast %dq32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %gt = tosa.transpose %gs16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dk32 = tosa.matmul %gt, %q, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dk = tosa.cast %dk32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  return %o, %dq, %dk, %dv : tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>
}

func.func @prefix_lm(%q: tensor<2x12x16xf16>, %k: tensor<2x12x16xf16>, %v: tensor<2x12x16xf16>, %do: tensor<2x12x16xf16>)
    -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zph = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %s = tosa.matmul %q, %kt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %qpos = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11]]]> : tensor<1x12x1xi32>}> : () -> tensor<1x12x1xi32>
  %kpos = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]]> : tensor<1x1x12xi32>}> : () -> tensor<1x1x12xi32>
  %plen = "tosa.const"() <{values = dense<4> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %inprefix = tosa.greater %plen, %kpos : (tensor<1x1x1xi32>, tensor<1x1x12xi32>) -> tensor<1x1x12xi1>
  %causal = tosa.greater_equal %qpos, %kpos : (tensor<1x12x1xi32>, tensor<1x1x12xi32>) -> tensor<1x12x12xi1>
  %keep = tosa.logical_or %inprefix, %causal : (tensor<1x1x12xi1>, tensor<1x12x12xi1>) -> tensor<1x12x12xi1>
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %x = tosa.select %keep, %ss, %fill : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x12x12xf32>, tensor<2x12x1xf32>) -> tensor<2x12x12xf32>
  %e = tosa.exp %d : (tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x12x1xf32>) -> tensor<2x12x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %p16 = tosa.cast %p : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %o32 = tosa.matmul %p16, %v, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %o = tosa.cast %o32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  // dV = Pᵀ·dO, dP = dO·Vᵀ; JAX's softmax backward P∘dP − P∘rowsum(P∘dP).
  %pt = tosa.transpose %p16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dv32 = tosa.matmul %pt, %do, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dv = tosa.cast %dv32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1>} : (tensor<2x12x16xf16>) -> tensor<2x16x12xf16>
  %dp = tosa.matmul %do, %vt, %zph, %zph : (tensor<2x12x16xf16>, tensor<2x16x12xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x12xf32>
  %pdp = tosa.mul %p, %dp, %shift : (tensor<2x12x12xf32>, tensor<2x12x12xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %rows = tosa.reduce_sum %pdp {axis = 2 : i32} : (tensor<2x12x12xf32>) -> tensor<2x12x1xf32>
  %prows = tosa.mul %p, %rows, %shift : (tensor<2x12x12xf32>, tensor<2x12x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %g = tosa.sub %pdp, %prows : (tensor<2x12x12xf32>, tensor<2x12x12xf32>) -> tensor<2x12x12xf32>
  // masked_fill's backward: 0 where the mask hides.
  %gx = tosa.select %keep, %g, %zero : (tensor<1x12x12xi1>, tensor<2x12x12xf32>, tensor<1x1x1xf32>) -> tensor<2x12x12xf32>
  %gs = tosa.mul %gx, %scale, %shift : (tensor<2x12x12xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x12x12xf32>
  %gs16 = tosa.cast %gs : (tensor<2x12x12xf32>) -> tensor<2x12x12xf16>
  %dq32 = tosa.matmul %gs16, %k, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dq = tosa.cast %dq32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  %gt = tosa.transpose %gs16 {perms = array<i32: 0, 2, 1>} : (tensor<2x12x12xf16>) -> tensor<2x12x12xf16>
  %dk32 = tosa.matmul %gt, %q, %zph, %zph : (tensor<2x12x12xf16>, tensor<2x12x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x12x16xf32>
  %dk = tosa.cast %dk32 : (tensor<2x12x16xf32>) -> tensor<2x12x16xf16>
  return %o, %dq, %dk, %dv : tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>
}

// 2 sin(0.7 (17 a + c) + seed) over the flattened [24, 4] view.
func.func @input(%seed: f32) -> tensor<2x12x16xf16> {
  %e = tensor.empty() : tensor<24x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(a, c) -> (a, c)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<24x16xf16>) {
  ^bb0(%o: f16):
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
    %h = arith.truncf %w : f32 to f16
    linalg.yield %h : f16
  } -> tensor<24x16xf16>
  %t = tensor.expand_shape %r [[0, 1], [2]] output_shape [2, 12, 16] : tensor<24x16xf16> into tensor<2x12x16xf16>
  return %t : tensor<2x12x16xf16>
}

func.func @print1(%t: tensor<2x12x16xf16>) {
  %wide = arith.extf %t : tensor<2x12x16xf16> to tensor<2x12x16xf32>
  %u = tensor.cast %wide : tensor<2x12x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print(%o: tensor<2x12x16xf16>, %dq: tensor<2x12x16xf16>, %dk: tensor<2x12x16xf16>, %dv: tensor<2x12x16xf16>) {
  call @print1(%o) : (tensor<2x12x16xf16>) -> ()
  call @print1(%dq) : (tensor<2x12x16xf16>) -> ()
  call @print1(%dk) : (tensor<2x12x16xf16>) -> ()
  call @print1(%dv) : (tensor<2x12x16xf16>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<2x12x16xf16>
  %k = call @input(%s2) : (f32) -> tensor<2x12x16xf16>
  %v = call @input(%s3) : (f32) -> tensor<2x12x16xf16>
  %do = call @input(%s4) : (f32) -> tensor<2x12x16xf16>
  %softcap_o, %softcap_dq, %softcap_dk, %softcap_dv = call @softcap(%q, %k, %v, %do) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>)
  call @print(%softcap_o, %softcap_dq, %softcap_dk, %softcap_dv) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> ()
  %alibi_o, %alibi_dq, %alibi_dk, %alibi_dv = call @alibi(%q, %k, %v, %do) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>)
  call @print(%alibi_o, %alibi_dq, %alibi_dk, %alibi_dv) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> ()
  %documents_o, %documents_dq, %documents_dk, %documents_dv = call @documents(%q, %k, %v, %do) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>)
  call @print(%documents_o, %documents_dq, %documents_dk, %documents_dv) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> ()
  %prefix_lm_o, %prefix_lm_dq, %prefix_lm_dk, %prefix_lm_dv = call @prefix_lm(%q, %k, %v, %do) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>)
  call @print(%prefix_lm_o, %prefix_lm_dq, %prefix_lm_dk, %prefix_lm_dv) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> ()
  %t5_o, %t5_dq, %t5_dk, %t5_dv = call @t5_buckets(%q, %k, %v, %do) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>)
  call @print(%t5_o, %t5_dq, %t5_dk, %t5_dv) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> ()
  %sink_logits = arith.constant dense<[[[1.25]], [[-0.5]]]> : tensor<2x1x1xf32>
  %sinks_o, %sinks_dq, %sinks_dk, %sinks_dv, %sinks_ds = call @sinks(%q, %k, %v, %do, %sink_logits) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x1x1xf32>) -> (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x1x1xf32>)
  call @print(%sinks_o, %sinks_dq, %sinks_dk, %sinks_dv) : (tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>, tensor<2x12x16xf16>) -> ()
  %ds = tensor.cast %sinks_ds : tensor<2x1x1xf32> to tensor<*xf32>
  call @printMemrefF32(%ds) : (tensor<*xf32>) -> ()
  return
}
