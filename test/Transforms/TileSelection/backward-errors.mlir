// Backward tilings that cannot be used: each error names what broke.
// RUN: fa-opt %s --split-input-file --verify-diagnostics --fa-select-tiles=target=sm_75

func.func @too_big(%q: tensor<1x2x512x128xf16>, %lse: tensor<1x2x512xf32>) {
  // expected-error @+1 {{'fa.attention_backward' op the backward tiling written on the op (128 x 128, 4 warps) needs 131072 bytes of shared memory and about 700 registers per thread; sm_75 has 65536 bytes per block and 255 registers per thread}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.125 tiling = <block_q = 128, block_kv = 128, warps = 4, stages = 1>
      : tensor<1x2x512x128xf16>, tensor<1x2x512x128xf16>, tensor<1x2x512x128xf16>, tensor<1x2x512x128xf16>, tensor<1x2x512x128xf16>, tensor<1x2x512xf32>
      -> tensor<1x2x512x128xf16>, tensor<1x2x512x128xf16>, tensor<1x2x512x128xf16>
  return
}

// -----

func.func @splits(%q: tensor<1x2x512x64xf16>, %lse: tensor<1x2x512xf32>) {
  // expected-error @+1 {{'fa.attention_backward' op the backward pass takes no kv_splits or pack_gqa (they are decode-step forms of the forward pass)}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.125 tiling = <block_q = 64, block_kv = 64, warps = 4, stages = 1, kv_splits = 2>
      : tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512xf32>
      -> tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>
  return
}

// -----

// d = 512 f32: even 16 x 16 tiles need more than sm_75's 64 KiB.
func.func @nothing_fits(%q: tensor<1x2x64x512xf32>, %lse: tensor<1x2x64xf32>) {
  // expected-error @+1 {{'fa.attention_backward' op no backward tiling fits sm_75: even 16 x 16 tiles need 131072 bytes of shared memory; it has 65536 per block}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.125
      : tensor<1x2x64x512xf32>, tensor<1x2x64x512xf32>, tensor<1x2x64x512xf32>, tensor<1x2x64x512xf32>, tensor<1x2x64x512xf32>, tensor<1x2x64xf32>
      -> tensor<1x2x64x512xf32>, tensor<1x2x64x512xf32>, tensor<1x2x64x512xf32>
  return
}

// -----

// d = 256 f32: 16 x 16 tiles fit sm_75's shared memory (exactly its 64
// KiB) but not its registers; the error names the registers, not the
// bytes it has enough of (it used to say "need 65536 bytes; it has 65536").
func.func @registers_bound(%q: tensor<1x2x100x256xf32>, %lse: tensor<1x2x100xf32>) {
  // expected-error @+1 {{'fa.attention_backward' op no backward tiling fits sm_75: even 16 x 16 tiles need about 340 registers per thread; it allows 255}}
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.125
      : tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100xf32>
      -> tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>
  return
}
