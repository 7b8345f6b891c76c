// A Llama-style decoder attention block in TOSA, as a frontend lowers it:
// projections, head split (reshape + transpose), repeat_kv for grouped
// key/value heads (reshape, tile, reshape), a -inf causal mask added to the
// scaled scores, softmax, P·V, head merge and the output projection.
// Hq = 4 query heads share Hkv = 2 key/value heads; N = 8, D = 4.
//
// Raising finds one fa.attention with Hkv = 2 (the repeat is gone), the
// causal attribute (the constant mask is exactly causal), and the exact
// scale; the projections and reshapes around it stay as written. Both runs
// must agree to f32 rounding.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @llama_attention(%x: tensor<1x8x16xf32>, %wq: tensor<1x16x16xf32>,
    %wk: tensor<1x16x8xf32>, %wv: tensor<1x16x8xf32>, %wo: tensor<1x16x16xf32>)
    -> tensor<1x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %causal = "tosa.const"() <{values = dense<[[
      [0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>

  // Projections.
  %q2 = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32>
  %k2 = tosa.matmul %x, %wk, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
  %v2 = tosa.matmul %x, %wv, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>

  // Head split: [B, N, H*D] -> [B, N, H, D] -> [B, H, N, D].
  %sq = tosa.const_shape {values = dense<[1, 8, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %skv = tosa.const_shape {values = dense<[1, 8, 2, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q2, %sq : (tensor<1x8x16xf32>, !tosa.shape<4>) -> tensor<1x8x4x4xf32>
  %k3 = tosa.reshape %k2, %skv : (tensor<1x8x8xf32>, !tosa.shape<4>) -> tensor<1x8x2x4xf32>
  %v3 = tosa.reshape %v2, %skv : (tensor<1x8x8xf32>, !tosa.shape<4>) -> tensor<1x8x2x4xf32>
  %q4 = tosa.transpose %q3 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x4x4xf32>) -> tensor<1x4x8x4xf32>
  %k4 = tosa.transpose %k3 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x2x4xf32>) -> tensor<1x2x8x4xf32>
  %v4 = tosa.transpose %v3 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x2x4xf32>) -> tensor<1x2x8x4xf32>

  // repeat_kv: [B, Hkv, N, D] -> [B, Hkv, 1, N, D] -> tile G -> [B, Hq, N, D].
  %s5 = tosa.const_shape {values = dense<[1, 2, 1, 8, 4]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %reps = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %s4 = tosa.const_shape {values = dense<[1, 4, 8, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k5 = tosa.reshape %k4, %s5 : (tensor<1x2x8x4xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x4xf32>
  %kt5 = tosa.tile %k5, %reps : (tensor<1x2x1x8x4xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x4xf32>
  %kr = tosa.reshape %kt5, %s4 : (tensor<1x2x2x8x4xf32>, !tosa.shape<4>) -> tensor<1x4x8x4xf32>
  %v5 = tosa.reshape %v4, %s5 : (tensor<1x2x8x4xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x4xf32>
  %vt5 = tosa.tile %v5, %reps : (tensor<1x2x1x8x4xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x4xf32>
  %vr = tosa.reshape %vt5, %s4 : (tensor<1x2x2x8x4xf32>, !tosa.shape<4>) -> tensor<1x4x8x4xf32>

  // [B, H, N, D] -> [B*H, N, D] for tosa.matmul.
  %s3 = tosa.const_shape {values = dense<[4, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q = tosa.reshape %q4, %s3 : (tensor<1x4x8x4xf32>, !tosa.shape<3>) -> tensor<4x8x4xf32>
  %k = tosa.reshape %kr, %s3 : (tensor<1x4x8x4xf32>, !tosa.shape<3>) -> tensor<4x8x4xf32>
  %v = tosa.reshape %vr, %s3 : (tensor<1x4x8x4xf32>, !tosa.shape<3>) -> tensor<4x8x4xf32>

  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x4xf32>) -> tensor<4x4x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x4xf32>, tensor<4x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %scaled = tosa.mul %s, %scale, %shift : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %masked = tosa.add %scaled, %causal : (tensor<4x8x8xf32>, tensor<1x8x8xf32>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %masked, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x4xf32>

  // Head merge and output projection.
  %o4 = tosa.reshape %o, %s4 : (tensor<4x8x4xf32>, !tosa.shape<4>) -> tensor<1x4x8x4xf32>
  %o3 = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x8x4xf32>) -> tensor<1x8x4x4xf32>
  %sm = tosa.const_shape {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o2 = tosa.reshape %o3, %sm : (tensor<1x8x4x4xf32>, !tosa.shape<3>) -> tensor<1x8x16xf32>
  %y = tosa.matmul %o2, %wo, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

// Deterministic values: 0.5 * sin(0.7 * (131 a + 17 b + c) + seed).
func.func @fill(%t: tensor<?x?x?xf32>, %seed: f32) -> tensor<?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c131 : index
    %b1 = arith.muli %b, %c17 : index
    %s0 = arith.addi %a1, %b1 : index
    %s1 = arith.addi %s0, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %h = arith.constant 0.5 : f32
    %w = arith.mulf %z, %h : f32
    linalg.yield %w : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @input(%d0: index, %d1: index, %d2: index, %seed: f32) -> tensor<?x?x?xf32> {
  %e = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32>
  %r = call @fill(%e, %seed) : (tensor<?x?x?xf32>, f32) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %s4 = arith.constant 4.0 : f32
  %s5 = arith.constant 5.0 : f32
  %xd = call @input(%c1, %c8, %c16, %s1) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %wqd = call @input(%c1, %c16, %c16, %s2) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %wkd = call @input(%c1, %c16, %c8, %s3) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %wvd = call @input(%c1, %c16, %c8, %s4) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %wod = call @input(%c1, %c16, %c16, %s5) : (index, index, index, f32) -> tensor<?x?x?xf32>
  %x = tensor.cast %xd : tensor<?x?x?xf32> to tensor<1x8x16xf32>
  %wq = tensor.cast %wqd : tensor<?x?x?xf32> to tensor<1x16x16xf32>
  %wk = tensor.cast %wkd : tensor<?x?x?xf32> to tensor<1x16x8xf32>
  %wv = tensor.cast %wvd : tensor<?x?x?xf32> to tensor<1x16x8xf32>
  %wo = tensor.cast %wod : tensor<?x?x?xf32> to tensor<1x16x16xf32>
  %y = call @llama_attention(%x, %wq, %wk, %wv, %wo)
      : (tensor<1x8x16xf32>, tensor<1x16x16xf32>, tensor<1x16x8xf32>, tensor<1x16x8xf32>, tensor<1x16x16xf32>) -> tensor<1x8x16xf32>
  %u = tensor.cast %y : tensor<1x8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
