//===- FAOps.td - Operations of the fa dialect --------------*- tablegen -*-===//
//
// fa.attention: the whole attention computation as one op, and
// fa.attention_backward: its gradients. Their verifiers check every shape and
// type relation so that later passes can rely on them.
//
//===----------------------------------------------------------------------===//

#ifndef FA_DIALECT_FA_IR_FAOPS_TD
#define FA_DIALECT_FA_IR_FAOPS_TD

include "fa/Dialect/FA/IR/FADialect.td"
include "fa/Dialect/FA/IR/FAAttrs.td"
include "fa/Dialect/FA/IR/FAInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def FA_AttentionOp : FA_Op<"attention", [Pure, AttrSizedOperandSegments,
                                          FA_AttentionOpInterface]> {
  let summary = "Scaled dot-product attention: softmax(scale * Q * K^T + mask) * V";
  let description = [{
    Computes, for every batch `b`, query head `h`, query row `i` and value
    column `e`:

    ```
    S[b,h,i,j]  = scale * sum_d Q[b,h,i,d] * K[b,g(h),j,d]  (+ bias[b,h,i,j])
    O[b,h,i,e]  = sum_j softmax_j(S[b,h,i,:])[j] * V[b,g(h),j,e]
    lse[b,h,i]  = log sum_j exp(S[b,h,i,j])
    ```

    where `g(h) = h / (Hq / Hkv)` maps a query head to the key/value head it
    reads (GQA when `1 < Hkv < Hq`, MQA when `Hkv == 1`). K and V are never
    copied per query head.

    Operands and results:

    | name | shape | element type |
    |---|---|---|
    | `query` | `[B, Hq, Nq, D]` | f16, bf16 or f32 |
    | `key` | `[B, Hkv, Nk, D]` | same as query |
    | `value` | `[B, Hkv, Nk, Dv]` | same as query |
    | `mask` (optional) | broadcastable to `[B, Hq, Nq, Nk]` | i1, f16, bf16 or f32 |
    | `kv_lengths` (optional) | `[B]` | i32 |
    | `page_table` (optional) | `[B, M]` | i32 |
    | `cu_seqlens_q`, `cu_seqlens_k` (optional, together) | `[B + 1]` | i32 |
    | `sinks` (optional) | `[Hq]` | f16, bf16 or f32 |
    | `output` | `[B, Hq, Nq, Dv]` | value's |
    | `logsumexp` (optional) | `[B, Hq, Nq]` | f32 |

    `B`, `Hq`, `Hkv`, `Nq` and `Nk` may be dynamic; `D` and `Dv` must be
    static. When `Hq` or `Hkv` is dynamic, `Hq` must be a multiple of `Hkv`
    at run time. A mask dimension broadcasts only if it is a static `1`.

    Semantics of the optional parts:

    * `scale` is carried exactly as an f64 (every f16, bf16 and f32 value is
      representable) and applied in f32.
    * Accumulation is always f32: both contractions and the softmax run in f32
      whatever the input type; the output is rounded to the value type once.
    * An `i1` mask is a keep-mask: `true` means the key is visible. A float
      mask is an additive bias on the scaled scores (`-inf` hides a key).
    * `mask_fill = f` (with an `i1` mask only): a key the mask hides gets the
      score `f` (finite, applied in f32) instead of `-inf`, as a frontend's
      `where(mask, s, f)` computes: its weight is `exp(f - m)`, 0 in f32
      only once the row max `m` exceeds `f` by about 104, and a row whose
      every key is hidden averages V uniformly (`m = f`). Exact for every
      input; since hidden keys still count, the lowerings skip none, so it
      takes no `causal`, `window`, `kv_lengths`, `page_table` or packed
      sequences (whose hidden keys are skipped).
    * `causal = top_left | bottom_right` hides keys `j > i + delta`, with
      `delta = 0` (top-left) or `Nk - Nq` (bottom-right, FlashAttention-2's
      alignment). They agree when `Nq == Nk`.
    * `window = #fa.window<left = l, right = r, align = a>` keeps only keys
      with `i + delta - l <= j <= i + delta + r`. Combined with `causal`, the
      window must use the same alignment and `right = 0`.
    * `kv_lengths(%len : tensor<Bxi32>)` gives each sequence its own key
      length (padded batches, KV caches, FlashAttention's varlen): key `j`
      of batch `b` is visible only if `j < L_b`, with
      `L_b = clamp(len[b], 0, Nk)`. With it, the bottom-right alignment of
      `causal` and `window` is per sequence, `delta = L_b - Nq` (the last
      query sees the sequence's last key), as in FlashAttention's varlen
      kernels; top-left is unchanged.
    * `page_table(%t : tensor<BxMxi32>)` reads K and V from paged caches,
      vLLM's layout: `key` is `[P, S, Hkv, D]` and `value` `[P, S, Hkv, Dv]`
      (P pages of S slots), and key `j` of batch `b` is slot `j mod S` of
      page `t[b, j / S]`. Then `Nk = M * S` (with `kv_lengths`, usually
      fewer keys are visible). Entries of pages that hold a visible key
      must be in `[0, P)`; the lowerings clamp every entry into that range,
      so a wrong entry reads a wrong page, never out of bounds.
    * `cu_seqlens_q(%cq : tensor<Cxi32>) cu_seqlens_k(%ck : tensor<Cxi32>)`
      packs C - 1 sequences back to back (FlashAttention's varlen layout):
      Q, K, V and the results have a dim 0 of 1, and sequence `s` owns query
      rows `[cq[s], cq[s + 1])` and key rows `[ck[s], ck[s + 1])`. Its
      queries see only its keys, with positions counted from the start of
      the sequence, so `causal` and `window` apply per sequence
      (bottom-right: `delta = Lk_s - Lq_s`). The prefix sums must start at
      0 and not decrease; rows past `cq[C - 1]` are not written. Entries are
      clamped into `[0, N]`, so bad sums never address outside the tensors.
      No mask, `kv_lengths` or `page_table` with packed sequences.
    * `score_mod { ^bb0(%s: f32, %b: index, %h: index, %q: index, %k:
      index): ... fa.yield %t : f32 }` (optional) replaces each scaled score
      `s = scale * (Q K^T)[b,h,q,k]` by the region's result before the
      additive mask and the softmax (FlexAttention's `score_mod`): soft-capping
      `cap * tanh(s / cap)`, ALiBi `s + slope[h] * (k - q)`, a relative bias
      read from a table. `q` and `k` are positions in the sequence (with
      `page_table`, logical key positions). The region is elementwise: it
      may read values defined above it (scalars, and tensors through
      `tensor.extract`), and holds only side-effect-free scalar ops without
      regions (arith, math, index, `tensor.extract`). The lowerings inline it
      where the score is formed, so no `[Nq, Nk]` tensor exists.
    * `mask_mod { ^bb0(%b: index, %h: index, %q: index, %k: index): ...
      fa.yield %keep : i1 }` (optional) hides key `k` from query `q` where the
      region yields false (score `-inf`), on top of every other mask:
      document masks `doc[q] == doc[k]`, prefix-LM `k < p or k <= q`. Same
      rules as `score_mod`. The tiled lowering classifies each (query block,
      key block) by interval arithmetic over the region and skips blocks it
      proves hidden (docs/Tiling.md). A `mask_mod`
      that is exactly a causal mask (`k <= q + c` with `c = 0`, or with
      `c = Nk - Nq` when the key length is static and there are no
      `kv_lengths`) canonicalizes to `causal`, whose tiles the lowerings
      bound in closed form.
    * `sinks(%s : tensor<Hqxf32>)` (optional) adds, per query head `h`, one
      more logit `s[h]` to every row's softmax that has no value (attention
      sinks, GPT-OSS): `O = sum_j e^(S_j - m) V_j / (e^(s[h] - m) +
      sum_j e^(S_j - m))` with `m` the max over the row's scores and the sink.
      The logsumexp includes the sink. A row whose every key is hidden then
      has output 0 and logsumexp `s[h]`.
    * `tiling = #fa.tiling<...>` (optional) fixes the tile sizes of the fused
      kernel; `fa-select-tiles` writes it, or checks one written by hand. It
      does not change the result.
    * **Fully-masked rows** (every key hidden by the masks, causal or window,
      or `Nk == 0`) produce an output row of `0` and a logsumexp of `-inf`,
      never NaN (with `mask_fill`, only `Nk == 0` leaves a row empty).

    Example:

    ```mlir
    %o, %lse = fa.attention %q, %k, %v mask(%bias : tensor<1x1x128x128xf32>)
        scale = 0.125 causal = bottom_right
        : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>
        -> tensor<2x8x128x64xf16>, tensor<2x8x128xf32>
    ```
  }];

  let arguments = (ins AnyRankedTensor:$query,
                       AnyRankedTensor:$key,
                       AnyRankedTensor:$value,
                       Optional<AnyRankedTensor>:$mask,
                       Optional<AnyRankedTensor>:$kv_lengths,
                       Optional<AnyRankedTensor>:$page_table,
                       Optional<AnyRankedTensor>:$cu_seqlens_q,
                       Optional<AnyRankedTensor>:$cu_seqlens_k,
                       Optional<AnyRankedTensor>:$sinks,
                       F64Attr:$scale,
                       OptionalAttr<F64Attr>:$mask_fill,
                       OptionalAttr<FA_DiagonalAlignment>:$causal,
                       OptionalAttr<FA_WindowAttr>:$window,
                       OptionalAttr<FA_TilingAttr>:$tiling);
  let results = (outs AnyRankedTensor:$output,
                      Optional<AnyRankedTensor>:$logsumexp);
  let regions = (region MaxSizedRegion<1>:$score_mod,
                        MaxSizedRegion<1>:$mask_mod);

  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`kv_lengths` `(` $kv_lengths^ `:` type($kv_lengths) `)`)?
    (`page_table` `(` $page_table^ `:` type($page_table) `)`)?
    (`cu_seqlens_q` `(` $cu_seqlens_q^ `:` type($cu_seqlens_q) `)`)?
    (`cu_seqlens_k` `(` $cu_seqlens_k^ `:` type($cu_seqlens_k) `)`)?
    (`sinks` `(` $sinks^ `:` type($sinks) `)`)?
    `scale` `=` $scale (`mask_fill` `=` $mask_fill^)? (`causal` `=` $causal^)?
    (`window` `=` $window^)?
    (`tiling` `=` $tiling^)? (`score_mod` $score_mod^)? (`mask_mod` $mask_mod^)?
    attr-dict `:` type($query) `,` type($key) `,` type($value)
    `->` type($output) (`,` type($logsumexp)^)?
  }];

  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;

  let extraClassDeclaration = [{
    /// The score a key hidden by the i1 mask takes: mask_fill, or -inf.
    double getHiddenScore();
    /// Number of query heads that share one key/value head (Hq / Hkv), or
    /// ShapedType::kDynamic when either head count is dynamic.
    int64_t getGroupSize();
    /// True when the mask is a boolean keep-mask, false for an additive bias.
    bool hasBooleanMask();
    /// (isPaged and isPacked come from AttentionOpInterface.)
    /// The dims of key that hold Hkv and, unpaged, Nk (paged: the page
    /// slots S, with Nk = M * S).
    int64_t getKeyHeadsDim() { return isPaged() ? 2 : 1; }
    /// Static Hkv and Nk of the logical keys, or ShapedType::kDynamic.
    int64_t getKeyHeads();
    int64_t getKeyLength();
    /// The regions' blocks, or null where the region is empty.
    ::mlir::Block *getScoreModBlock() {
      return getScoreMod().empty() ? nullptr : &getScoreMod().front();
    }
    ::mlir::Block *getMaskModBlock() {
      return getMaskMod().empty() ? nullptr : &getMaskMod().front();
    }
    /// True when the op carries a score_mod, mask_mod or sinks, which only
    /// some lowerings implement (tilingProblem says which).
    bool hasScoreModifications() {
      return getScoreModBlock() || getMaskModBlock() || getSinks();
    }
  }];
}

def FA_YieldOp : FA_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["AttentionOp", "AttentionBackwardOp"]>]> {
  let summary = "Ends fa.attention's score_mod (an f32) or mask_mod (an i1)";
  let description = [{
    The value a `score_mod` region gives a score (`f32`), or a `mask_mod`
    region's keep-flag (`i1`), in fa.attention or fa.attention_backward;
    the op's verifier checks which.

    ```mlir
    fa.yield %capped : f32
    ```
  }];
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def FA_AttentionBackwardOp : FA_Op<"attention_backward",
                                  [Pure, AttrSizedOperandSegments,
                                   AttrSizedResultSegments,
                                   FA_AttentionOpInterface]> {
  let summary = "Gradients of fa.attention by recomputation: dQ, dK, dV (and dBias, dSinks)";
  let description = [{
    The gradients of the forward attention (`fa.attention` with the same
    operands and attributes) with respect to Q, K and V, and, when asked
    for, with respect to its additive bias, given the gradient `dO` of its
    output. With `S = scale * Q K^T + bias` (hidden keys `-inf`) and
    `P = softmax(S)` row by row:

    ```
    dV  = P^T dO                       (summed over the heads of a group)
    dP  = dO V^T
    dS  = P * (dP - D),   D[i] = sum_e dO[i,e] * O[i,e]
    dQ  = scale * dS K
    dK  = scale * dS^T Q               (summed over the heads of a group)
    dBias = dS                         (summed over the mask's broadcast dims)
    ```

    `output` and `logsumexp` must be the forward op's results for these
    inputs: they are what lets a lowering rebuild `P = exp(S - L)` tile by
    tile (FlashAttention's recomputation) instead of storing it, and `D`
    from O instead of P. The reference decomposition
    (`fa-decompose-attention`) computes the softmax again from Q and K and
    uses `D = rowsum(dP * P)`, the textbook softmax backward, so that it is
    an oracle independent of both.

    Operands and results:

    | name | shape | element type |
    |---|---|---|
    | `query` | `[B, Hq, Nq, D]` | f16, bf16 or f32 |
    | `key` | `[B, Hkv, Nk, D]` | same as query |
    | `value` | `[B, Hkv, Nk, Dv]` | same as query |
    | `output`, `grad_output` | `[B, Hq, Nq, Dv]` | same as query |
    | `logsumexp` | `[B, Hq, Nq]` | f32 |
    | `mask` (optional) | broadcastable to `[B, Hq, Nq, Nk]` | i1, f16, bf16 or f32 |
    | `grad_query`, `grad_key`, `grad_value` | as `query`, `key`, `value` | same as query |
    | `grad_mask` (optional) | the mask's own type | a float mask's |
    | `sinks` (optional) | `[Hq]` | f16, bf16 or f32 |
    | `grad_sinks` (optional) | the sinks' own type | the sinks' |

    `scale`, `mask`, `mask_fill`, `causal`, `window`, `sinks`, `score_mod`
    and `mask_mod` mean what they mean on `fa.attention` (GQA and MQA too:
    `Hq` a multiple of `Hkv`). With a `score_mod` f, the score is
    `t = f(s, b, h, q, k)` of the scaled score `s = scale * (Q K^T)`, and
    the chain rule puts its derivative between dS and the products:

    ```
    dT  = P * (dP - D)                 (the gradient of the bias, dBias)
    dS  = dT * f'(s)                   (0 where dT is 0: a hidden key)
    ```

    The lowerings differentiate the region forward, op by op, in the score:
    `arith.addf`, `subf`, `mulf`, `divf`, `negf`, `maximumf`, `minimumf`,
    `maxnumf`, `minnumf`, `select`, `extf`, `truncf`, `math.fma`, `tanh`,
    `exp`, `exp2`, `expm1`, `log`, `log2`, `log1p`, `sqrt`, `rsqrt` and
    `absf` (a max, min, select or abs takes the derivative of the side it
    picks, as autodiff does); anything else that reads the score is
    refused by the verifier. Values that do not depend on the score
    (positions, captured tables, comparisons) have no derivative. A sink
    has no value, so `dP` and `D` are unchanged by it, and its logit's
    gradient is

    ```
    dSink[h] = - sum_{b,i} exp(sink[h] - L[b,h,i]) * D[b,h,i]
    ```

    (`grad_sinks`, asked for with `grad_sinks(type)` after the results).
    With
    `mask_fill = f`, a key the i1 mask hides has the constant score `f`: it
    keeps its weight in `P` (so in `dV` and `D`), and its score gradient is
    0 (`dS = 0` there: `f` does not depend on Q or K), as autodiff of
    `where(mask, s, f)` gives.
    Accumulation is f32 whatever the input type; each gradient is rounded
    to its result type once. dQ sums over every key: a lowering may add
    the key blocks' shares in any order (the GPU kernel adds them with f32
    atomics, FlashAttention-2's and -3's default), so its last bits may
    differ from run to run. `deterministic` asks for the same bits on every
    run (a fixed order of summation; the GPU kernel then forms dQ in a
    kernel of its own, which computes the scores a second time).
    `grad_mask` is only for an additive (float)
    bias, and has the bias's shape: a broadcast dimension of the bias is
    summed over. **Fully-masked rows** (no visible key, logsumexp `-inf`)
    contribute zero to every gradient, never NaN.

    Example:

    ```mlir
    %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse
        scale = 0.125 causal = bottom_right
        : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>,
          tensor<2x2x128x64xf16>, tensor<2x8x128x64xf16>,
          tensor<2x8x128x64xf16>, tensor<2x8x128xf32>
        -> tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>,
           tensor<2x2x128x64xf16>
    ```
  }];

  let arguments = (ins AnyRankedTensor:$query,
                       AnyRankedTensor:$key,
                       AnyRankedTensor:$value,
                       AnyRankedTensor:$output,
                       AnyRankedTensor:$grad_output,
                       AnyRankedTensor:$logsumexp,
                       Optional<AnyRankedTensor>:$mask,
                       Optional<AnyRankedTensor>:$sinks,
                       F64Attr:$scale,
                       OptionalAttr<F64Attr>:$mask_fill,
                       OptionalAttr<FA_DiagonalAlignment>:$causal,
                       OptionalAttr<FA_WindowAttr>:$window,
                       UnitAttr:$deterministic,
                       OptionalAttr<FA_TilingAttr>:$tiling);
  let results = (outs AnyRankedTensor:$grad_query,
                      AnyRankedTensor:$grad_key,
                      AnyRankedTensor:$grad_value,
                      Optional<AnyRankedTensor>:$grad_mask,
                      Optional<AnyRankedTensor>:$grad_sinks);
  let regions = (region MaxSizedRegion<1>:$score_mod,
                        MaxSizedRegion<1>:$mask_mod);

  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $output `,` $grad_output `,` $logsumexp
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`sinks` `(` $sinks^ `:` type($sinks) `)`)?
    `scale` `=` $scale (`mask_fill` `=` $mask_fill^)? (`causal` `=` $causal^)?
    (`window` `=` $window^)? (`deterministic` $deterministic^)?
    (`tiling` `=` $tiling^)? (`score_mod` $score_mod^)? (`mask_mod` $mask_mod^)?
    attr-dict `:` type($query) `,` type($key) `,`
    type($value) `,` type($output) `,` type($grad_output) `,` type($logsumexp)
    `->` type($grad_query) `,` type($grad_key) `,` type($grad_value)
    (`,` type($grad_mask)^)? (`grad_sinks` `(` type($grad_sinks)^ `)`)?
  }];

  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let hasRegionVerifier = 1;

  let extraClassDeclaration = [{
    /// Hq / Hkv, or ShapedType::kDynamic when either is dynamic.
    int64_t getGroupSize();
    /// True when the mask is a boolean keep-mask, false for an additive bias.
    bool hasBooleanMask();
    /// The score a key hidden by the i1 mask takes: mask_fill, or -inf.
    double getHiddenScore();
    /// Static Hkv and Nk, or ShapedType::kDynamic. The backward op reads
    /// unpaged, unpacked keys without lengths: AttentionOpInterface's
    /// defaults answer for those.
    int64_t getKeyHeads() { return getKey().getType().getDimSize(1); }
    int64_t getKeyLength() { return getKey().getType().getDimSize(2); }
    /// The regions' blocks, or null where the region is empty.
    ::mlir::Block *getScoreModBlock() {
      return getScoreMod().empty() ? nullptr : &getScoreMod().front();
    }
    ::mlir::Block *getMaskModBlock() {
      return getMaskMod().empty() ? nullptr : &getMaskMod().front();
    }
    /// True when the op carries a score_mod, mask_mod or sinks.
    bool hasScoreModifications() {
      return getScoreModBlock() || getMaskModBlock() || getSinks();
    }
  }];
}


//===----------------------------------------------------------------------===//
// Hopper's warpgroup matmul, as the sm_90a kernel issues it
//===----------------------------------------------------------------------===//

def FA_WarpgroupMmaOp : FA_Op<"warpgroup_mma",
    [AllTypesMatch<["accumulator", "result"]>]> {
  let summary = "One wgmma.mma_async m64nNk16 (f16 or bf16 into f32) of a warpgroup";
  let description = [{
    The 128 threads of a warpgroup (threads `128 w` to `128 w + 127` of the
    block) multiply a 64 x 16 A by a 16 x N B and add the 64 x N f32
    accumulator, which they hold `N / 2` elements each, in wgmma's layout
    (`include/fa/Kernel/WarpgroupLayout.h`: thread t, register
    r holds row `16 (t / 32) + (t % 32) / 4 + 8 ((r / 2) % 2)`, column
    `8 (r / 4) + 2 (t % 4) + r % 2`). Every thread of the warpgroup executes
    it (`.sync.aligned`).

    A comes from shared memory (an `i64` wgmma matrix descriptor and the
    buffer it points into, K-major) or from registers (`vector<4x2xT>`:
    register r, half h is `A[16 (t / 32) + (t % 32) / 4 + 8 (r % 2)]
    [8 (r / 2) + 2 (t % 4) + h]`). B always comes from shared memory,
    K-major, or M/N-major with `transpose_b`; A from shared memory may be
    M/N-major too, with `transpose_a` (wgmma's imm-trans-a: Kᵀ of dQᵀ = Kᵀ
    dSᵀ in the backward kernel, read from K's tile without a copy). A
    descriptor's start address
    is the byte offset of the operand *in its buffer*, a one-dimensional
    workgroup buffer of `T`; the GPU lowering adds the buffer's shared
    address. The descriptor's other fields (leading and stride byte offsets,
    swizzle mode) are read as the hardware reads them (PTX ISA "Matrix
    Descriptor Format"; checked on an H200 by bench/gpu/hopper-probe.cu).

    The result is asynchronous: it may feed another `fa.warpgroup_mma` as
    its accumulator (wgmmas chain on the same registers), and any other use
    must go through `fa.warpgroup_mma_wait`. `ignore_accumulator` computes
    `A B` alone (PTX's scale-d = 0).

    The CPU model (fa-emulate-threads-on-cpu) computes each thread's own
    elements from the descriptors and the other threads' A registers, and
    gives a result read without its wait NaN.

    ```mlir
    %s = fa.warpgroup_mma %zero, %qDesc in %q_smem, %kDesc in %k_smem
           {ignore_accumulator}
           : vector<64xf32>, i64 in memref<8192xf16, #gpu.address_space<workgroup>>,
             memref<8192xf16, #gpu.address_space<workgroup>>
    ```

    The GPU lowering issues it as inline PTX: upstream's `nvvm.wgmma.mma_async`
    takes A from shared memory only, and `nvgpu.warpgroup.mma`'s accumulator
    is opaque, so neither can run P V with P in registers or a softmax on S.
  }];
  let arguments = (ins
    VectorOfRankAndType<[1], [F32]>:$accumulator,
    AnyTypeOf<[I64, VectorOfRankAndType<[2], [F16, BF16]>]>:$a,
    Arg<Optional<MemRefRankOf<[F16, BF16], [1]>>, "A's buffer", [MemRead]>:$a_buffer,
    I64:$b_descriptor,
    Arg<MemRefRankOf<[F16, BF16], [1]>, "B's buffer", [MemRead]>:$b_buffer,
    UnitAttr:$transpose_b,
    UnitAttr:$ignore_accumulator,
    UnitAttr:$transpose_a
  );
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $accumulator `,` $a (`in` $a_buffer^)? `,` $b_descriptor `in` $b_buffer
    attr-dict `:` type($accumulator) `,` type($a) (`in` type($a_buffer)^)? `,`
    type($b_buffer)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// N: twice the accumulator's elements per thread.
    int64_t getN() { return 2 * getAccumulator().getType().getNumElements(); }
    /// f16 or bf16.
    Type getOperandElementType() {
      return getBBuffer().getType().getElementType();
    }
  }];
}

def FA_WarpgroupMmaWaitOp : FA_Op<"warpgroup_mma_wait",
    [AllTypesMatch<["values", "results"]>]> {
  let summary = "Commits the warpgroup's wgmmas and waits for their results";
  let description = [{
    Commits the `fa.warpgroup_mma`s the warpgroup issued since its last
    wait as one group (`wgmma.commit_group`), then waits until at most
    `pending` groups are still in flight (`wgmma.wait_group pending`), and
    returns its operands, now readable. With `pending = 0` every operand may
    come from any earlier group; with `pending = N` the operands must come
    from groups older than the newest N (the group this wait commits among
    them): this is how a kernel issues the next block's Q Kᵀ and then works
    on this block's scores while it runs. A wait with `pending > 0` may name
    no operand: it then only closes a group, so that the wgmmas issued after
    it form a group of their own (`fa.warpgroup_mma_wait {pending = 1}`
    between a block's Q Kᵀ and the previous block's P V).

    ```mlir
    %s = fa.warpgroup_mma_wait %s_async {pending = 0} : vector<64xf32>
    ```

    The CPU model returns the computed value of an operand whose group has
    completed, and NaN for one whose group the wait leaves in flight.
  }];
  let arguments = (ins Variadic<VectorOfRankAndType<[1], [F32]>>:$values,
                       DefaultValuedAttr<ConfinedAttr<I64Attr,
                         [IntMinValue<0>, IntMaxValue<7>]>, "0">:$pending);
  let results = (outs Variadic<VectorOfRankAndType<[1], [F32]>>:$results);
  let assemblyFormat = [{
    $values attr-dict (`:` type($values)^)?
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "ValueRange":$values, "int64_t":$pending), [{
      build($_builder, $_state, values.getTypes(), values,
            $_builder.getI64IntegerAttr(pending));
    }]>
  ];
}

def FA_LinearAttentionOp : FA_Op<"linear_attention", [Pure]> {
  let summary = "Linear attention: (scale Q K^T, causal and decayed) V, optionally row-normalized";
  let description = [{
    Attention without a softmax, on Q and K after their feature map φ (elu
    + 1, relu, an exponential of a projection, or none: the map stays
    outside the op, as the elementwise ops it is). For every batch `b`,
    query head `h`, query row `i` and value column `e`:

    ```
    A[b,h,i,j] = scale * sum_d Q[b,h,i,d] * K[b,g(h),j,d]
    W[b,h,i,j] = A[b,h,i,j] * (causal ? [j <= i] * gamma[h]^(i - j) : 1)
    O[b,h,i,e] = sum_j W[b,h,i,j] * V[b,g(h),j,e]
                 (/ (sum_j W[b,h,i,j] + epsilon) with `normalize`)
    ```

    with `g(h) = h / (Hq / Hkv)` (GQA and MQA as in fa.attention) and
    `gamma` 1 without `decay` (RetNet's per-head decay otherwise). Written
    in this order the product is O(N^2 d); it equals `Q (K^T V)`, which is
    O(N d^2), and causal it equals a walk over chunks of C rows that
    carries the state `sum_j gamma^(..) K_j^T V_j` (fa-lower-linear-attention,
    docs/LinearAttention.md). Accumulation is f32; the output is rounded to
    the value type once.

    | name | shape | element type |
    |---|---|---|
    | `query` | `[B, Hq, Nq, D]` | f16, bf16 or f32 |
    | `key` | `[B, Hkv, Nk, D]` | same as query |
    | `value` | `[B, Hkv, Nk, Dv]` | same as query |
    | `decay` (optional, causal only) | `[Hq]` | f32 |
    | `output` | `[B, Hq, Nq, Dv]` | value's |

    `causal` aligns the diagonal top-left and needs Nq = Nk (a decoding
    step is the carried state, not this op). `normalize(eps = e)` divides
    each row by its weights' sum plus `e`, the frontend's epsilon.

    ```mlir
    %o = fa.linear_attention %q, %k, %v decay(%gamma : tensor<8xf32>)
        scale = 1.0 causal normalize(eps = 1.0e-06)
        : tensor<2x8x1024x64xf32>, tensor<2x8x1024x64xf32>,
          tensor<2x8x1024x64xf32> -> tensor<2x8x1024x64xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$query, AnyRankedTensor:$key,
                       AnyRankedTensor:$value,
                       Optional<AnyRankedTensor>:$decay,
                       F64Attr:$scale,
                       UnitAttr:$causal,
                       OptionalAttr<F64Attr>:$epsilon,
                       OptionalAttr<I64Attr>:$chunk);
  let results = (outs AnyRankedTensor:$output);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`decay` `(` $decay^ `:` type($decay) `)`)?
    `scale` `=` $scale (`causal` $causal^)?
    (`normalize` `(` `eps` `=` $epsilon^ `)`)? (`chunk` `=` $chunk^)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `->`
    type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Hq / Hkv, or ShapedType::kDynamic when either is dynamic.
    int64_t getGroupSize();
    /// Whether rows are divided by their weights' sum (plus epsilon).
    bool isNormalized() { return getEpsilonAttr() != nullptr; }
  }];
}

#endif // FA_DIALECT_FA_IR_FAOPS_TD
