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
  // expected-error @+1 {{'fa.yield' op expects parent op to be one of 'fa.attention, fa.attention_backward'}}
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

// -----

// fa.attention_backward: the regions are checked as on fa.attention.

!t = tensor<1x2x8x16xf32>
!l = tensor<1x2x8xf32>

func.func @backward_mask_mod_type(%q: !t, %l: !l) -> (!t, !t, !t) {
  // expected-error @+1 {{mask_mod must yield 'i1', got 'f32'}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %l scale = 0.5 mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c = arith.constant 1.0 : f32
    fa.yield %c : f32
  } : !t, !t, !t, !t, !t, !l -> !t, !t, !t
  return %dq, %dk, %dv : !t, !t, !t
}

// -----

!t = tensor<1x2x8x16xf32>
!l = tensor<1x2x8xf32>

func.func @backward_not_differentiable(%q: !t, %l: !l) -> (!t, !t, !t) {
  // expected-error @+1 {{score_mod must be differentiable in the score for the backward pass; 'math.sin' reads it and has no derivative rule}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %l scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    // expected-note @+1 {{here}}
    %t = math.sin %s : f32
    fa.yield %t : f32
  } : !t, !t, !t, !t, !t, !l -> !t, !t, !t
  return %dq, %dk, %dv : !t, !t, !t
}

// -----

// An op without a rule is fine where it does not read the score: the
// ALiBi slope's sin, say.

!t = tensor<1x2x8x16xf32>
!l = tensor<1x2x8xf32>

func.func @backward_constant_in_score(%q: !t, %l: !l) -> (!t, !t, !t) {
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %l scale = 0.5 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %w = math.sin %hf : f32
    %k = arith.fptosi %s : f32 to i32
    %kf = arith.sitofp %k : i32 to f32
    %t = arith.addf %s, %w : f32
    %u = arith.addf %t, %kf : f32
    fa.yield %u : f32
  } : !t, !t, !t, !t, !t, !l -> !t, !t, !t
  return %dq, %dk, %dv : !t, !t, !t
}

// -----

!t = tensor<1x2x8x16xf32>
!l = tensor<1x2x8xf32>

func.func @backward_grad_sinks_without_sinks(%q: !t, %l: !l) -> (!t, !t, !t, tensor<2xf32>) {
  // expected-error @+1 {{grad_sinks needs sinks: it is the gradient of the sink logits}}
  %dq, %dk, %dv, %ds = fa.attention_backward %q, %q, %q, %q, %q, %l scale = 0.5
      : !t, !t, !t, !t, !t, !l -> !t, !t, !t grad_sinks(tensor<2xf32>)
  return %dq, %dk, %dv, %ds : !t, !t, !t, tensor<2xf32>
}

// -----

!t = tensor<1x2x8x16xf32>
!l = tensor<1x2x8xf32>

func.func @backward_grad_sinks_type(%q: !t, %l: !l, %s: tensor<2xf32>) -> (!t, !t, !t, tensor<2xf16>) {
  // expected-error @+1 {{grad_sinks must be 'tensor<2xf32>' (the sinks' type), got 'tensor<2xf16>'}}
  %dq, %dk, %dv, %ds = fa.attention_backward %q, %q, %q, %q, %q, %l sinks(%s : tensor<2xf32>) scale = 0.5
      : !t, !t, !t, !t, !t, !l -> !t, !t, !t grad_sinks(tensor<2xf16>)
  return %dq, %dk, %dv, %ds : !t, !t, !t, tensor<2xf16>
}

// -----

!t = tensor<1x2x8x16xf32>
!l = tensor<1x2x8xf32>

func.func @backward_sinks_heads(%q: !t, %l: !l, %s: tensor<3xf32>) -> (!t, !t, !t) {
  // expected-error @+1 {{sinks dim 0 (Hq) must be 2 as in query, got 3}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %l sinks(%s : tensor<3xf32>) scale = 0.5
      : !t, !t, !t, !t, !t, !l -> !t, !t, !t
  return %dq, %dk, %dv : !t, !t, !t
}
