// Every rejection of fa.attention's score_mod, mask_mod and sinks, one per
// split: the regions' signatures, terminators and contents, the sinks' type
// and shape, and packed sequences.
// RUN: fa-opt %s -split-input-file -verify-diagnostics

!t = tensor<1x2x8x16xf32>

func.func @score_mod_arguments(%q: !t) -> !t {
  // expected-error @+1 {{'fa.attention' op score_mod must take (score: f32, b: index, h: index, q: index, k: index), got ('f32', 'index', 'index', 'index')}}
  %o = fa.attention %q, %q, %q scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index):
    fa.yield %s : f32
  } : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @score_mod_f16_score(%q: !t) -> !t {
  // expected-error @+1 {{score_mod must take (score: f32, b: index, h: index, q: index, k: index), got ('f16', 'index', 'index', 'index', 'index')}}
  %o = fa.attention %q, %q, %q scale = 0.5 score_mod {
  ^bb0(%s: f16, %b: index, %h: index, %i: index, %j: index):
    %c = arith.constant 1.0 : f32
    fa.yield %c : f32
  } : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @score_mod_yields_i1(%q: !t) -> !t {
  // expected-error @+1 {{score_mod must yield 'f32', got 'i1'}}
  %o = fa.attention %q, %q, %q scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %c = arith.cmpi sle, %j, %i : index
    fa.yield %c : i1
  } : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @mask_mod_yields_f32(%q: !t) -> !t {
  // expected-error @+1 {{mask_mod must yield 'i1', got 'f32'}}
  %o = fa.attention %q, %q, %q scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c = arith.constant 1.0 : f32
    fa.yield %c : f32
  } : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @mask_mod_arguments(%q: !t) -> !t {
  // expected-error @+1 {{mask_mod must take (b: index, h: index, q: index, k: index), got ('index', 'index', 'i32', 'i32')}}
  %o = fa.attention %q, %q, %q scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: i32, %j: i32):
    %c = arith.cmpi sle, %j, %i : i32
    fa.yield %c : i1
  } : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @side_effect(%q: !t, %buffer: memref<8xf32>) -> !t {
  // expected-error @+1 {{score_mod may hold only side-effect-free scalar ops without regions; 'memref.store' has side effects}}
  %o = fa.attention %q, %q, %q scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    // expected-note @+1 {{here}}
    memref.store %s, %buffer[%i] : memref<8xf32>
    fa.yield %s : f32
  } : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @read_from_buffer(%q: !t, %buffer: memref<8xf32>) -> !t {
  // expected-error @+1 {{score_mod may hold only side-effect-free scalar ops without regions; 'memref.load' has side effects}}
  %o = fa.attention %q, %q, %q scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    // expected-note @+1 {{here}}
    %x = memref.load %buffer[%i] : memref<8xf32>
    %r = arith.addf %s, %x : f32
    fa.yield %r : f32
  } : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @region_inside(%q: !t) -> !t {
  // expected-error @+1 {{mask_mod may hold only side-effect-free scalar ops without regions; 'scf.if' has regions (write selects instead of branches)}}
  %o = fa.attention %q, %q, %q scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c = arith.cmpi sle, %j, %i : index
    // expected-note @+1 {{here}}
    %r = scf.if %c -> i1 {
      scf.yield %c : i1
    } else {
      scf.yield %c : i1
    }
    fa.yield %r : i1
  } : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @tensor_inside(%q: !t, %bias: tensor<8x8xf32>) -> !t {
  // expected-error @+1 {{score_mod may hold only side-effect-free scalar ops without regions; 'tensor.extract_slice' yields a non-scalar (read tensors with tensor.extract of a value defined above the op)}}
  %o = fa.attention %q, %q, %q scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    // expected-note @+1 {{here}}
    %row = tensor.extract_slice %bias[%i, 0] [1, 8] [1, 1] : tensor<8x8xf32> to tensor<8xf32>
    %x = tensor.extract %row[%j] : tensor<8xf32>
    %r = arith.addf %s, %x : f32
    fa.yield %r : f32
  } : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @yield_elsewhere(%x: f32) -> f32 {
  // expected-error @+1 {{'fa.yield' op expects parent op 'fa.attention'}}
  fa.yield %x : f32
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @sinks_rank(%q: !t, %sinks: tensor<1x2xf32>) -> !t {
  // expected-error @+1 {{sinks must be a rank-1 tensor of f16, bf16 or f32 ([Hq], one logit per query head), got 'tensor<1x2xf32>'}}
  %o = fa.attention %q, %q, %q sinks(%sinks : tensor<1x2xf32>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @sinks_type(%q: !t, %sinks: tensor<2xi32>) -> !t {
  // expected-error @+1 {{sinks must be a rank-1 tensor of f16, bf16 or f32 ([Hq], one logit per query head), got 'tensor<2xi32>'}}
  %o = fa.attention %q, %q, %q sinks(%sinks : tensor<2xi32>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @sinks_heads(%q: !t, %sinks: tensor<3xf32>) -> !t {
  // expected-error @+1 {{sinks dim 0 (Hq) must be 2 as in query, got 3}}
  %o = fa.attention %q, %q, %q sinks(%sinks : tensor<3xf32>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}

// -----

!t = tensor<1x2x8x16xf32>

func.func @packed_with_sinks(%q: !t, %sinks: tensor<2xf32>, %cu: tensor<3xi32>) -> !t {
  // expected-error @+1 {{packed sequences take no score_mod, mask_mod or sinks yet}}
  %o = fa.attention %q, %q, %q cu_seqlens_q(%cu : tensor<3xi32>) cu_seqlens_k(%cu : tensor<3xi32>) sinks(%sinks : tensor<2xf32>) scale = 0.5 : !t, !t, !t -> !t
  return %o : !t
}
