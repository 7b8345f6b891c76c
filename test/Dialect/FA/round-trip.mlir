// RUN: fa-opt %s -split-input-file | fa-opt | FileCheck %s
// RUN: fa-opt %s -split-input-file -mlir-print-op-generic | fa-opt | FileCheck %s

// CHECK-LABEL: func.func @plain
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 : tensor<2x8x128x64xf16>, tensor<2x8x128x64xf16>, tensor<2x8x128x64xf16> -> tensor<2x8x128x64xf16>
func.func @plain(%q: tensor<2x8x128x64xf16>, %k: tensor<2x8x128x64xf16>,
                 %v: tensor<2x8x128x64xf16>) -> tensor<2x8x128x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125
      : tensor<2x8x128x64xf16>, tensor<2x8x128x64xf16>, tensor<2x8x128x64xf16>
      -> tensor<2x8x128x64xf16>
  return %o : tensor<2x8x128x64xf16>
}

// -----

// The scale is carried exactly, not rounded to f32 or replaced by 1/sqrt(D).
// CHECK-LABEL: func.func @exact_scale
// CHECK: scale = 0.088388347648318433 :
func.func @exact_scale(%q: tensor<1x1x16x128xf32>, %k: tensor<1x1x16x128xf32>,
                       %v: tensor<1x1x16x128xf32>) -> tensor<1x1x16x128xf32> {
  %o = fa.attention %q, %k, %v scale = 0.088388347648318433
      : tensor<1x1x16x128xf32>, tensor<1x1x16x128xf32>, tensor<1x1x16x128xf32>
      -> tensor<1x1x16x128xf32>
  return %o : tensor<1x1x16x128xf32>
}

// -----

// Everything at once: GQA (8 query heads over 2 key/value heads), Dv != D, a
// broadcast additive bias, causal with a matching window, and the logsumexp.
// CHECK-LABEL: func.func @everything
// CHECK: %[[O:.*]], %[[LSE:.*]] = fa.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x1x100x128xf32>) scale = 1.250000e-01 causal = bottom_right window = <left = 64, right = 0, align = bottom_right> : tensor<2x8x100x64xbf16>, tensor<2x2x128x64xbf16>, tensor<2x2x128x32xbf16> -> tensor<2x8x100x32xbf16>, tensor<2x8x100xf32>
func.func @everything(%q: tensor<2x8x100x64xbf16>, %k: tensor<2x2x128x64xbf16>,
                      %v: tensor<2x2x128x32xbf16>, %bias: tensor<1x1x100x128xf32>)
    -> (tensor<2x8x100x32xbf16>, tensor<2x8x100xf32>) {
  %o, %lse = fa.attention %q, %k, %v mask(%bias : tensor<1x1x100x128xf32>)
      scale = 0.125 causal = bottom_right
      window = <left = 64, right = 0, align = bottom_right>
      : tensor<2x8x100x64xbf16>, tensor<2x2x128x64xbf16>, tensor<2x2x128x32xbf16>
      -> tensor<2x8x100x32xbf16>, tensor<2x8x100xf32>
  return %o, %lse : tensor<2x8x100x32xbf16>, tensor<2x8x100xf32>
}

// -----

// Boolean keep-mask broadcast over heads; top-left causal.
// CHECK-LABEL: func.func @boolean_mask
// CHECK: mask(%{{.*}} : tensor<4x1x16x16xi1>) scale = 1.000000e+00 causal = top_left :
func.func @boolean_mask(%q: tensor<4x2x16x16xf32>, %k: tensor<4x2x16x16xf32>,
                        %v: tensor<4x2x16x16xf32>, %keep: tensor<4x1x16x16xi1>)
    -> tensor<4x2x16x16xf32> {
  %o = fa.attention %q, %k, %v mask(%keep : tensor<4x1x16x16xi1>) scale = 1.0
      causal = top_left
      : tensor<4x2x16x16xf32>, tensor<4x2x16x16xf32>, tensor<4x2x16x16xf32>
      -> tensor<4x2x16x16xf32>
  return %o : tensor<4x2x16x16xf32>
}

// -----

// Dynamic batch, heads and sequence lengths; a window without causal.
// CHECK-LABEL: func.func @dynamic
// CHECK: scale = 5.000000e-01 window = <left = 3, right = 2, align = top_left> : tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf16>
func.func @dynamic(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
                   %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.5
      window = <left = 3, right = 2, align = top_left>
      : tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>
      -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// A tiling (as fa-select-tiles writes it) and a target description.
// CHECK-LABEL: func.func @tiled
// CHECK-SAME: t = #fa.target<name = "sm_90", smem_per_block = 232448, smem_per_sm = 233472, regs_per_sm = 65536, regs_per_thread = 255, max_threads_per_block = 1024, max_threads_per_sm = 2048, warp_size = 32, sm_count = 132, mma = ["m16n8k16", "m16n8k8"]>
// CHECK: tiling = <block_q = 128, block_kv = 64, warps = 4, stages = 2, smem_bytes = 56320> :
func.func @tiled(%q: tensor<1x8x128x64xf16>) -> tensor<1x8x128x64xf16> attributes {t = #fa.target<name = "sm_90", smem_per_block = 232448, smem_per_sm = 233472, regs_per_sm = 65536, regs_per_thread = 255, max_threads_per_block = 1024, max_threads_per_sm = 2048, warp_size = 32, sm_count = 132, mma = ["m16n8k16", "m16n8k8"]>} {
  %o = fa.attention %q, %q, %q scale = 0.125
      tiling = <block_q = 128, block_kv = 64, warps = 4, stages = 2, smem_bytes = 56320>
      : tensor<1x8x128x64xf16>, tensor<1x8x128x64xf16>, tensor<1x8x128x64xf16>
      -> tensor<1x8x128x64xf16>
  return %o : tensor<1x8x128x64xf16>
}

// -----

// Key splits (split-KV) print when not 1, in any order of the parameters.
// CHECK-LABEL: func.func @split_keys
// CHECK: tiling = <block_q = 16, block_kv = 64, warps = 1, stages = 2, kv_splits = 8> :
// CHECK-LABEL: func.func @one_split_is_the_default
// CHECK: tiling = <block_q = 16, block_kv = 64, warps = 1, stages = 2> :
func.func @split_keys(%q: tensor<1x8x1x64xf16>, %kv: tensor<1x8x4096x64xf16>) -> tensor<1x8x1x64xf16> {
  %o = fa.attention %q, %kv, %kv scale = 0.125
      tiling = <kv_splits = 8, block_q = 16, block_kv = 64, warps = 1, stages = 2>
      : tensor<1x8x1x64xf16>, tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16>
      -> tensor<1x8x1x64xf16>
  return %o : tensor<1x8x1x64xf16>
}
func.func @one_split_is_the_default(%q: tensor<1x8x1x64xf16>, %kv: tensor<1x8x4096x64xf16>) -> tensor<1x8x1x64xf16> {
  %o = fa.attention %q, %kv, %kv scale = 0.125
      tiling = <block_q = 16, block_kv = 64, warps = 1, stages = 2, kv_splits = 1>
      : tensor<1x8x1x64xf16>, tensor<1x8x4096x64xf16>, tensor<1x8x4096x64xf16>
      -> tensor<1x8x1x64xf16>
  return %o : tensor<1x8x1x64xf16>
}

// -----

// Per-sequence key lengths, after the mask.
// CHECK-LABEL: func.func @lengths
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<2x1x1x64xi1>) kv_lengths(%{{.*}} : tensor<2xi32>) scale = 1.250000e-01 causal = bottom_right :
func.func @lengths(%q: tensor<2x8x1x64xf16>, %kv: tensor<2x8x64x64xf16>, %m: tensor<2x1x1x64xi1>, %len: tensor<2xi32>) -> tensor<2x8x1x64xf16> {
  %o = fa.attention %q, %kv, %kv mask(%m : tensor<2x1x1x64xi1>) kv_lengths(%len : tensor<2xi32>) scale = 0.125 causal = bottom_right
      : tensor<2x8x1x64xf16>, tensor<2x8x64x64xf16>, tensor<2x8x64x64xf16> -> tensor<2x8x1x64xf16>
  return %o : tensor<2x8x1x64xf16>
}

// -----

// A paged KV cache: K and V as [P, S, Hkv, D], one row of pages per sequence.
// CHECK-LABEL: func.func @paged
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} kv_lengths(%{{.*}} : tensor<2xi32>) page_table(%{{.*}} : tensor<2x4xi32>) scale = 1.250000e-01 :
func.func @paged(%q: tensor<2x8x1x64xf16>, %kv: tensor<32x16x2x64xf16>, %len: tensor<2xi32>, %table: tensor<2x4xi32>) -> tensor<2x8x1x64xf16> {
  %o = fa.attention %q, %kv, %kv kv_lengths(%len : tensor<2xi32>) page_table(%table : tensor<2x4xi32>) scale = 0.125
      : tensor<2x8x1x64xf16>, tensor<32x16x2x64xf16>, tensor<32x16x2x64xf16> -> tensor<2x8x1x64xf16>
  return %o : tensor<2x8x1x64xf16>
}

// -----

// Packed sequences (varlen): three sequences along dim 2 of Q, K and V.
// CHECK-LABEL: func.func @packed
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} cu_seqlens_q(%{{.*}} : tensor<4xi32>) cu_seqlens_k(%{{.*}} : tensor<4xi32>) scale = 2.500000e-01 causal = bottom_right :
func.func @packed(%q: tensor<1x4x14x16xf16>, %k: tensor<1x2x39x16xf16>, %cq: tensor<4xi32>, %ck: tensor<4xi32>) -> tensor<1x4x14x16xf16> {
  %o = fa.attention %q, %k, %k cu_seqlens_q(%cq : tensor<4xi32>) cu_seqlens_k(%ck : tensor<4xi32>) scale = 0.25 causal = bottom_right
      : tensor<1x4x14x16xf16>, tensor<1x2x39x16xf16>, tensor<1x2x39x16xf16> -> tensor<1x4x14x16xf16>
  return %o : tensor<1x4x14x16xf16>
}

// -----

// The backward op: gradients of a causal GQA attention.
// CHECK-LABEL: func.func @backward
// CHECK: fa.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 causal = bottom_right :
func.func @backward(%q: tensor<2x8x128x64xf16>, %k: tensor<2x2x128x64xf16>, %v: tensor<2x2x128x64xf16>, %o: tensor<2x8x128x64xf16>, %do: tensor<2x8x128x64xf16>, %lse: tensor<2x8x128xf32>) -> (tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse scale = 0.125 causal = bottom_right
      : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x8x128x64xf16>, tensor<2x8x128x64xf16>, tensor<2x8x128xf32>
      -> tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>
  return %dq, %dk, %dv : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>
}

// -----

// `deterministic`: dQ summed in a fixed order (after the window, before
// the tiling).
// CHECK-LABEL: func.func @backward_deterministic
// CHECK: fa.attention_backward {{.*}} scale = 1.250000e-01 window = <left = 8, right = 0, align = top_left> deterministic tiling = <block_q = 32, block_kv = 64, warps = 4, stages = 2> :
func.func @backward_deterministic(%q: tensor<2x8x128x64xf16>, %k: tensor<2x2x128x64xf16>, %v: tensor<2x2x128x64xf16>, %o: tensor<2x8x128x64xf16>, %do: tensor<2x8x128x64xf16>, %lse: tensor<2x8x128xf32>) -> (tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>) {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse scale = 0.125 window = <left = 8, right = 0, align = top_left> deterministic tiling = <block_q = 32, block_kv = 64, warps = 4, stages = 2>
      : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x8x128x64xf16>, tensor<2x8x128x64xf16>, tensor<2x8x128xf32>
      -> tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>
  return %dq, %dk, %dv : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>
}

// -----

// The backward op with a broadcast bias and its gradient, and a window.
// CHECK-LABEL: func.func @backward_mask_fill
// CHECK: fa.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x1x16x24xi1>) scale = 2.500000e-01 mask_fill = -1.000000e+04 :
func.func @backward_mask_fill(%q: tensor<2x4x16x32xf32>, %k: tensor<2x4x24x32xf32>, %v: tensor<2x4x24x8xf32>, %o: tensor<2x4x16x8xf32>, %do: tensor<2x4x16x8xf32>, %lse: tensor<2x4x16xf32>, %keep: tensor<1x1x16x24xi1>) -> tensor<2x4x16x32xf32> {
  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse mask(%keep : tensor<1x1x16x24xi1>) scale = 0.25 mask_fill = -1.0e4
      : tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16xf32>
      -> tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x8xf32>
  return %dq : tensor<2x4x16x32xf32>
}

// CHECK-LABEL: func.func @backward_bias
// CHECK: fa.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x4x16x24xf32>) scale = 2.500000e-01 window = <left = 3, right = 2, align = top_left> :
// CHECK-SAME: -> tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x8xf32>, tensor<1x4x16x24xf32>
func.func @backward_bias(%q: tensor<2x4x16x32xf32>, %k: tensor<2x4x24x32xf32>, %v: tensor<2x4x24x8xf32>, %o: tensor<2x4x16x8xf32>, %do: tensor<2x4x16x8xf32>, %lse: tensor<2x4x16xf32>, %bias: tensor<1x4x16x24xf32>) -> tensor<1x4x16x24xf32> {
  %dq, %dk, %dv, %db = fa.attention_backward %q, %k, %v, %o, %do, %lse mask(%bias : tensor<1x4x16x24xf32>) scale = 0.25 window = <left = 3, right = 2, align = top_left>
      : tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>, tensor<2x4x16xf32>
      -> tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x8xf32>, tensor<1x4x16x24xf32>
  return %db : tensor<1x4x16x24xf32>
}

// -----

// A finite fill for the keys an i1 mask hides (JAX's -0.7 * finfo(f32).max).
// CHECK-LABEL: func.func @mask_fill
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x1x8x8xi1>) scale = 5.000000e-01 mask_fill = -2.381976{{[0-9]*}}E+38 : tensor<1x2x8x16xf32>
func.func @mask_fill(%q: tensor<1x2x8x16xf32>, %keep: tensor<1x1x8x8xi1>) -> tensor<1x2x8x16xf32> {
  %o = fa.attention %q, %q, %q mask(%keep : tensor<1x1x8x8xi1>) scale = 0.5 mask_fill = -2.38197633E+38
      : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// CHECK-LABEL: func.func @score_modifiers
// CHECK: fa.attention %{{.*}}, %{{.*}}, %{{.*}} sinks(%{{.*}} : tensor<8xbf16>) scale = 1.250000e-01 causal = top_left score_mod {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK: math.tanh
// CHECK: fa.yield %{{.*}} : f32
// CHECK-NEXT: } mask_mod {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK: tensor.extract
// CHECK: fa.yield %{{.*}} : i1
// CHECK-NEXT: } : tensor<2x8x128x64xbf16>
func.func @score_modifiers(%q: tensor<2x8x128x64xbf16>, %sinks: tensor<8xbf16>, %doc: tensor<128xi32>) -> tensor<2x8x128x64xbf16> {
  %o = fa.attention %q, %q, %q sinks(%sinks : tensor<8xbf16>) scale = 0.125 causal = top_left score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %cap = arith.constant 30.0 : f32
    %x = arith.divf %s, %cap : f32
    %t = math.tanh %x : f32
    %r = arith.mulf %t, %cap : f32
    fa.yield %r : f32
  } mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %doc[%i] : tensor<128xi32>
    %c = tensor.extract %doc[%j] : tensor<128xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16> -> tensor<2x8x128x64xbf16>
  return %o : tensor<2x8x128x64xbf16>
}

// -----

// CHECK-LABEL: func.func @backward_score_modifiers
// CHECK: fa.attention_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<1x1x128x128xbf16>) sinks(%{{.*}} : tensor<8xbf16>) scale = 1.250000e-01 causal = top_left score_mod {
// CHECK: math.tanh
// CHECK: fa.yield %{{.*}} : f32
// CHECK-NEXT: } mask_mod {
// CHECK: fa.yield %{{.*}} : i1
// CHECK-NEXT: } : tensor<2x8x128x64xbf16>
// CHECK-SAME: -> tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<1x1x128x128xbf16> grad_sinks(tensor<8xbf16>)
func.func @backward_score_modifiers(%q: tensor<2x8x128x64xbf16>, %l: tensor<2x8x128xf32>, %bias: tensor<1x1x128x128xbf16>, %sinks: tensor<8xbf16>, %doc: tensor<128xi32>)
    -> (tensor<2x8x128x64xbf16>, tensor<1x1x128x128xbf16>, tensor<8xbf16>) {
  %dq, %dk, %dv, %db, %ds = fa.attention_backward %q, %q, %q, %q, %q, %l mask(%bias : tensor<1x1x128x128xbf16>)
      sinks(%sinks : tensor<8xbf16>) scale = 0.125 causal = top_left score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %cap = arith.constant 30.0 : f32
    %x = arith.divf %s, %cap : f32
    %t = math.tanh %x : f32
    %r = arith.mulf %t, %cap : f32
    fa.yield %r : f32
  } mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %doc[%i] : tensor<128xi32>
    %c = tensor.extract %doc[%j] : tensor<128xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
    -> tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<1x1x128x128xbf16> grad_sinks(tensor<8xbf16>)
  return %dq, %db, %ds : tensor<2x8x128x64xbf16>, tensor<1x1x128x128xbf16>, tensor<8xbf16>
}
