// Frontend: torch-mlir (torch.export -> fx_importer ->
//   torch-backend-to-linalg-on-tensors-backend-pipeline), f32; einsum is
//   decomposed by torch-mlir into permutes, reshapes and bmm.
// Model: lucidrains/video-diffusion-pytorch Unet3D, the temporal attention
//   (EinopsToAndFrom('b c f h w', 'b (h w) f c', Attention(..., rotary_emb)))
//   at inference (prob_focus_present = 0, so the focus-present mask branch is
//   not traced). The same Attention is the base of ModelScope text-to-video's
//   temporal attention. Shrunk: b=1, 2x2 spatial positions, 8 frames,
//   2 heads, dim_head 16.
// Sources read: lucidrains/video-diffusion-pytorch
//   video_diffusion_pytorch/video_diffusion_pytorch.py (Attention.forward:
//   q = q * scale; rotary on q and k; sim = einsum('... h i d, ... h j d ->
//   ... h i j'); sim = sim + pos_bias; sim = sim - sim.amax(dim=-1,
//   keepdim=True).detach(); attn = sim.softmax(dim=-1); out = einsum(...);
//   rearrange '... h n d -> ... n (h d)'; RelativePositionBias gives pos_bias
//   [heads, f, f] once per Unet forward), rotary_embedding_torch
//   (freqs = positions x inv_freq repeated '(n r)', rotate_half on
//   interleaved pairs).
//
// Math: q,k,v [1,4,2,8,16] ([b, hw, heads, frames, d]).
//   q' = rot(0.25 * q), k' = rot(k)   (rotary: x*cos(F) + rotate_half(x)*sin(F),
//        F[n, 2m+r] = n * 10000^(-2m/16))
//   S  = q'.k'^T + pos_bias[h]        ;   S1 = S - max_j S   (detached max)
//   A  = softmax_j(S1)  (subtracts its own max again, now 0)
//   O[b,p,n,h*16+e] = sum_j A[b,p,h,n,j] v[b,p,h,j,e].  Returns O [1,4,8,32].

func.func @temporal_attention(%q_in: tensor<1x4x2x8x16xf32>, %k_in: tensor<1x4x2x8x16xf32>,
                              %v: tensor<1x4x2x8x16xf32>, %pos_bias: tensor<2x8x8xf32>) -> tensor<1x4x8x32xf32> {
  %cst0 = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e5 = tensor.empty() : tensor<1x4x2x8x16xf32>

  // q = q * self.scale
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%q_in : tensor<1x4x2x8x16xf32>) outs(%e5 : tensor<1x4x2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %scale = arith.constant 2.500000e-01 : f32
    %0 = arith.mulf %in, %scale : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8x16xf32>

  // ---- RotaryEmbedding: freqs = einsum('..., f -> ... f', arange(8), inv_freq); repeat '... n -> ... (n r)', r=2 ----
  %inv_freq = arith.constant dense<[1.00000000e+00, 3.16227764e-01, 1.00000001e-01, 3.16227749e-02,
                                    9.99999978e-03, 3.16227763e-03, 1.00000005e-03, 3.16227757e-04]> : tensor<8xf32>
  %e_t = tensor.empty() : tensor<8xf32>
  %seq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e_t : tensor<8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %0 = arith.sitofp %ii : i64 to f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %e_f = tensor.empty() : tensor<8x8xf32>
  %freqs0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>,
                                             affine_map<(d0, d1) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%seq, %inv_freq : tensor<8xf32>, tensor<8xf32>) outs(%e_f : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<8x8xf32>
  %freqs1 = tensor.expand_shape %freqs0 [[0], [1, 2]] output_shape [8, 8, 1] : tensor<8x8xf32> into tensor<8x8x1xf32>
  %e_fr = tensor.empty() : tensor<8x8x2xf32>
  %freqs2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%freqs1 : tensor<8x8x1xf32>) outs(%e_fr : tensor<8x8x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x8x2xf32>
  %freqs = tensor.collapse_shape %freqs2 [[0], [1, 2]] : tensor<8x8x2xf32> into tensor<8x16xf32>
  %e_cs = tensor.empty() : tensor<8x16xf32>
  %cos = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%freqs : tensor<8x16xf32>) outs(%e_cs : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.cos %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x16xf32>
  %sin = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%freqs : tensor<8x16xf32>) outs(%e_cs : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.sin %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x16xf32>

  // ---- rotate_queries_or_keys(q): q*cos + rotate_half(q)*sin ----
  %q6 = tensor.expand_shape %q [[0], [1], [2], [3], [4, 5]] output_shape [1, 4, 2, 8, 8, 2]
      : tensor<1x4x2x8x16xf32> into tensor<1x4x2x8x8x2xf32>
  %q_x1 = tensor.extract_slice %q6[0, 0, 0, 0, 0, 0] [1, 4, 2, 8, 8, 1] [1, 1, 1, 1, 1, 1]
      : tensor<1x4x2x8x8x2xf32> to tensor<1x4x2x8x8x1xf32>
  %q_x2 = tensor.extract_slice %q6[0, 0, 0, 0, 0, 1] [1, 4, 2, 8, 8, 1] [1, 1, 1, 1, 1, 1]
      : tensor<1x4x2x8x8x2xf32> to tensor<1x4x2x8x8x1xf32>
  %e6h = tensor.empty() : tensor<1x4x2x8x8x1xf32>
  %q_nx2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>,
                                            affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%q_x2 : tensor<1x4x2x8x8x1xf32>) outs(%e6h : tensor<1x4x2x8x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8x8x1xf32>
  %e6 = tensor.empty() : tensor<1x4x2x8x8x2xf32>
  %q_st0 = tensor.insert_slice %q_nx2 into %e6[0, 0, 0, 0, 0, 0] [1, 4, 2, 8, 8, 1] [1, 1, 1, 1, 1, 1]
      : tensor<1x4x2x8x8x1xf32> into tensor<1x4x2x8x8x2xf32>
  %q_st = tensor.insert_slice %q_x1 into %q_st0[0, 0, 0, 0, 0, 1] [1, 4, 2, 8, 8, 1] [1, 1, 1, 1, 1, 1]
      : tensor<1x4x2x8x8x1xf32> into tensor<1x4x2x8x8x2xf32>
  %q_rh = tensor.collapse_shape %q_st [[0], [1], [2], [3], [4, 5]] : tensor<1x4x2x8x8x2xf32> into tensor<1x4x2x8x16xf32>
  %q_rot = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                            affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>,
                                            affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                            affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>,
                                            affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%q, %cos, %q_rh, %sin : tensor<1x4x2x8x16xf32>, tensor<8x16xf32>, tensor<1x4x2x8x16xf32>, tensor<8x16xf32>)
      outs(%e5 : tensor<1x4x2x8x16xf32>) {
  ^bb0(%x: f32, %c: f32, %r: f32, %s: f32, %out: f32):
    %0 = arith.mulf %x, %c : f32
    %1 = arith.mulf %r, %s : f32
    %2 = arith.addf %0, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<1x4x2x8x16xf32>
  // ---- rotate_queries_or_keys(k) ----
  %k6 = tensor.expand_shape %k_in [[0], [1], [2], [3], [4, 5]] output_shape [1, 4, 2, 8, 8, 2]
      : tensor<1x4x2x8x16xf32> into tensor<1x4x2x8x8x2xf32>
  %k_x1 = tensor.extract_slice %k6[0, 0, 0, 0, 0, 0] [1, 4, 2, 8, 8, 1] [1, 1, 1, 1, 1, 1]
      : tensor<1x4x2x8x8x2xf32> to tensor<1x4x2x8x8x1xf32>
  %k_x2 = tensor.extract_slice %k6[0, 0, 0, 0, 0, 1] [1, 4, 2, 8, 8, 1] [1, 1, 1, 1, 1, 1]
      : tensor<1x4x2x8x8x2xf32> to tensor<1x4x2x8x8x1xf32>
  %k_nx2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>,
                                            affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k_x2 : tensor<1x4x2x8x8x1xf32>) outs(%e6h : tensor<1x4x2x8x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8x8x1xf32>
  %k_st0 = tensor.insert_slice %k_nx2 into %e6[0, 0, 0, 0, 0, 0] [1, 4, 2, 8, 8, 1] [1, 1, 1, 1, 1, 1]
      : tensor<1x4x2x8x8x1xf32> into tensor<1x4x2x8x8x2xf32>
  %k_st = tensor.insert_slice %k_x1 into %k_st0[0, 0, 0, 0, 0, 1] [1, 4, 2, 8, 8, 1] [1, 1, 1, 1, 1, 1]
      : tensor<1x4x2x8x8x1xf32> into tensor<1x4x2x8x8x2xf32>
  %k_rh = tensor.collapse_shape %k_st [[0], [1], [2], [3], [4, 5]] : tensor<1x4x2x8x8x2xf32> into tensor<1x4x2x8x16xf32>
  %k_rot = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                            affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>,
                                            affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                            affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>,
                                            affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k_in, %cos, %k_rh, %sin : tensor<1x4x2x8x16xf32>, tensor<8x16xf32>, tensor<1x4x2x8x16xf32>, tensor<8x16xf32>)
      outs(%e5 : tensor<1x4x2x8x16xf32>) {
  ^bb0(%x: f32, %c: f32, %r: f32, %s: f32, %out: f32):
    %0 = arith.mulf %x, %c : f32
    %1 = arith.mulf %r, %s : f32
    %2 = arith.addf %0, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<1x4x2x8x16xf32>

  // ---- sim = einsum('... h i d, ... h j d -> ... h i j', q, k) ----
  %q3 = tensor.collapse_shape %q_rot [[0, 1, 2], [3], [4]] : tensor<1x4x2x8x16xf32> into tensor<8x8x16xf32>
  %k3 = tensor.collapse_shape %k_rot [[0, 1, 2], [3], [4]] : tensor<1x4x2x8x16xf32> into tensor<8x8x16xf32>
  %e_kt = tensor.empty() : tensor<8x16x8xf32>
  %k3_t = linalg.transpose ins(%k3 : tensor<8x8x16xf32>) outs(%e_kt : tensor<8x16x8xf32>) permutation = [0, 2, 1]
  %e_s3 = tensor.empty() : tensor<8x8x8xf32>
  %s3_init = linalg.fill ins(%cst0 : f32) outs(%e_s3 : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3_t : tensor<8x8x16xf32>, tensor<8x16x8xf32>)
                            outs(%s3_init : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %sim0 = tensor.expand_shape %s3 [[0, 1, 2], [3], [4]] output_shape [1, 4, 2, 8, 8]
      : tensor<8x8x8xf32> into tensor<1x4x2x8x8xf32>
  // sim = sim + pos_bias
  %e_s = tensor.empty() : tensor<1x4x2x8x8xf32>
  %sim1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                           affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>,
                                           affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%sim0, %pos_bias : tensor<1x4x2x8x8xf32>, tensor<2x8x8xf32>) outs(%e_s : tensor<1x4x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8x8xf32>
  // numerical stability: sim = sim - sim.amax(dim=-1, keepdim=True).detach()
  %e_r = tensor.empty() : tensor<1x4x2x8xf32>
  %amax_init = linalg.fill ins(%ninf : f32) outs(%e_r : tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  %amax = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                           affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%sim1 : tensor<1x4x2x8x8xf32>) outs(%amax_init : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8xf32>
  %amax_k = tensor.expand_shape %amax [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 8, 1]
      : tensor<1x4x2x8xf32> into tensor<1x4x2x8x1xf32>
  %sim2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                           affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, 0)>,
                                           affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%sim1, %amax_k : tensor<1x4x2x8x8xf32>, tensor<1x4x2x8x1xf32>) outs(%e_s : tensor<1x4x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8x8xf32>
  // attn = sim.softmax(dim=-1)
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                          affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%sim2 : tensor<1x4x2x8x8xf32>) outs(%amax_init : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8xf32>
  %max_k = tensor.expand_shape %max [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 8, 1]
      : tensor<1x4x2x8xf32> into tensor<1x4x2x8x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                          affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, 0)>,
                                          affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%sim2, %max_k : tensor<1x4x2x8x8xf32>, tensor<1x4x2x8x1xf32>) outs(%e_s : tensor<1x4x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.subf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8x8xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                          affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%sub : tensor<1x4x2x8x8xf32>) outs(%e_s : tensor<1x4x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8x8xf32>
  %sum_init = linalg.fill ins(%cst0 : f32) outs(%e_r : tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                          affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%exp : tensor<1x4x2x8x8xf32>) outs(%sum_init : tensor<1x4x2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8xf32>
  %sum_k = tensor.expand_shape %sum [[0], [1], [2], [3, 4]] output_shape [1, 4, 2, 8, 1]
      : tensor<1x4x2x8xf32> into tensor<1x4x2x8x1xf32>
  %attn = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>,
                                           affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, 0)>,
                                           affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %sum_k : tensor<1x4x2x8x8xf32>, tensor<1x4x2x8x1xf32>) outs(%e_s : tensor<1x4x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x2x8x8xf32>

  // ---- out = einsum('... h i j, ... h j d -> ... h i d', attn, v) ----
  %p3 = tensor.collapse_shape %attn [[0, 1, 2], [3], [4]] : tensor<1x4x2x8x8xf32> into tensor<8x8x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1, 2], [3], [4]] : tensor<1x4x2x8x16xf32> into tensor<8x8x16xf32>
  %e_o3 = tensor.empty() : tensor<8x8x16xf32>
  %o3_init = linalg.fill ins(%cst0 : f32) outs(%e_o3 : tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x8x8xf32>, tensor<8x8x16xf32>)
                            outs(%o3_init : tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
  %o5 = tensor.expand_shape %o3 [[0, 1, 2], [3], [4]] output_shape [1, 4, 2, 8, 16]
      : tensor<8x8x16xf32> into tensor<1x4x2x8x16xf32>
  // rearrange(out, '... h n d -> ... n (h d)')
  %e_ot = tensor.empty() : tensor<1x4x8x2x16xf32>
  %o_t = linalg.transpose ins(%o5 : tensor<1x4x2x8x16xf32>) outs(%e_ot : tensor<1x4x8x2x16xf32>) permutation = [0, 1, 3, 2, 4]
  %out = tensor.collapse_shape %o_t [[0], [1], [2], [3, 4]] : tensor<1x4x8x2x16xf32> into tensor<1x4x8x32xf32>
  return %out : tensor<1x4x8x32xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %sq = arith.constant 0.05 : f32
  %sk = arith.constant 0.95 : f32
  %sv = arith.constant 1.85 : f32
  %sb = arith.constant 2.75 : f32
  %q0 = call @input4(%sq, %c4, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %k0 = call @input4(%sk, %c4, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %v0 = call @input4(%sv, %c4, %c2, %c8, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %b0 = call @input3(%sb, %c2, %c8, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q1 = tensor.cast %q0 : tensor<?x?x?x?xf32> to tensor<4x2x8x16xf32>
  %k1 = tensor.cast %k0 : tensor<?x?x?x?xf32> to tensor<4x2x8x16xf32>
  %v1 = tensor.cast %v0 : tensor<?x?x?x?xf32> to tensor<4x2x8x16xf32>
  %q = tensor.expand_shape %q1 [[0, 1], [2], [3], [4]] output_shape [1, 4, 2, 8, 16] : tensor<4x2x8x16xf32> into tensor<1x4x2x8x16xf32>
  %k = tensor.expand_shape %k1 [[0, 1], [2], [3], [4]] output_shape [1, 4, 2, 8, 16] : tensor<4x2x8x16xf32> into tensor<1x4x2x8x16xf32>
  %v = tensor.expand_shape %v1 [[0, 1], [2], [3], [4]] output_shape [1, 4, 2, 8, 16] : tensor<4x2x8x16xf32> into tensor<1x4x2x8x16xf32>
  %pos_bias = tensor.cast %b0 : tensor<?x?x?xf32> to tensor<2x8x8xf32>
  %o = call @temporal_attention(%q, %k, %v, %pos_bias)
      : (tensor<1x4x2x8x16xf32>, tensor<1x4x2x8x16xf32>, tensor<1x4x2x8x16xf32>, tensor<2x8x8xf32>) -> tensor<1x4x8x32xf32>
  %u = tensor.cast %o : tensor<1x4x8x32xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
