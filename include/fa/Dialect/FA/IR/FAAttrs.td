//===- FAAttrs.td - Attributes of the fa dialect ------------*- tablegen -*-===//
//
// The attributes that describe which keys a query may see: the alignment of
// the causal diagonal and the sliding window around it.
//
//===----------------------------------------------------------------------===//

#ifndef FA_DIALECT_FA_IR_FAATTRS_TD
#define FA_DIALECT_FA_IR_FAATTRS_TD

include "fa/Dialect/FA/IR/FADialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def FA_DiagonalAlignment : I32EnumAttr<"DiagonalAlignment",
    "where the diagonal of the query/key grid starts when Nq != Nk", [
      I32EnumAttrCase<"top_left", 0>,
      I32EnumAttrCase<"bottom_right", 1>
    ]> {
  // Query row `i` (of `Nq`) sits on key column `i + delta`, where `delta` is
  // `0` for `top_left` and `Nk - Nq` for `bottom_right` (FlashAttention-2's
  // choice: the last query sees the last key). They agree when `Nq == Nk`.
  // A plain enum attribute prints as a bare keyword in op formats.
  let cppNamespace = "::mlir::fa";
}

def FA_WindowAttr : AttrDef<FA_Dialect, "Window"> {
  let mnemonic = "window";
  let summary = "Sliding (local) attention window around the diagonal";
  let description = [{
    Query row `i` sees key `j` only if
    `i + delta - left <= j <= i + delta + right`, with `delta` given by
    `align` (`top_left` or `bottom_right`, as for `causal`). `left` and `right` are non-negative.

    Example: `#fa.window<left = 128, right = 0, align = bottom_right>`.
  }];
  let parameters = (ins "int64_t":$left, "int64_t":$right,
                        "DiagonalAlignment":$align);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def FA_TilingAttr : AttrDef<FA_Dialect, "Tiling"> {
  let mnemonic = "tiling";
  let summary = "Tile sizes of the fused kernel for one fa.attention";
  let description = [{
    Written by `fa-select-tiles` (or by hand, in which case the pass checks
    it against the target instead of choosing): the query rows per block
    (`block_q`, B_r), the keys per inner step (`block_kv`, B_c), the warps
    per block, the K/V pipeline stages, and the shared memory the tiling
    needs (filled in by the pass when absent).

    `kv_splits` (default 1, omitted when 1) splits the keys each query
    block sees into that many consecutive runs of key blocks, each run
    computed by its own block of the grid (flash-decoding). Each run writes
    a partial output in f32 and its logsumexp to a workspace; a merge then
    combines them: `lse = log sum_s e^lse_s`, `O = sum_s e^(lse_s - lse) O_s`.
    A run that sees no key contributes nothing. It pays off when
    `B * Hq * ceil(Nq / block_q)` blocks cannot fill the chip (decoding).

    `pack_gqa = true` (default false, omitted when false) packs the
    `G = Hq / Hkv` query heads that share a key/value head into the query
    rows of one attention over that head (`[B, Hq, Nq, D]` viewed as
    `[B, Hkv, G * Nq, D]`), so that one K/V tile serves `G * Nq` rows: K and
    V are read once per group instead of once per query head. Allowed only
    where it is exact: no window, no causal mask (except over a single
    query row, bottom-right, where it hides nothing), and a mask that
    broadcasts over heads and rows or has both.

    Example: `#fa.tiling<block_q = 128, block_kv = 64, warps = 4, stages = 2,
    smem_bytes = 56320>`, or for a decode step
    `#fa.tiling<block_q = 16, block_kv = 64, warps = 1, stages = 2,
    kv_splits = 8, pack_gqa = true>`.
  }];
  let parameters = (ins "int64_t":$block_q, "int64_t":$block_kv,
                        "int64_t":$warps, "int64_t":$stages,
                        OptionalParameter<"std::optional<int64_t>">:$smem_bytes,
                        DefaultValuedParameter<"int64_t", "1">:$kv_splits,
                        DefaultValuedParameter<"bool", "false">:$pack_gqa);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def FA_TargetAttr : AttrDef<FA_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "On-chip resources of a target, for tile selection";
  let description = [{
    What a FlashAttention kernel may use on one target: shared memory per
    block (the opt-in maximum) and per SM, 32-bit registers per SM and per
    thread, threads per block and per SM, the warp size, the SM count, and
    the tensor-core MMA shapes. Built-in presets (docs/Targets.md) give these
    for NVIDIA sm_75 to sm_120, AMD gfx90a/gfx942/gfx950 and the host CPU;
    a module may state its own in DLTI (`"fa.target" = #fa.target<...>`).

    Example:
    `#fa.target<name = "sm_90", smem_per_block = 232448, smem_per_sm = 233472,
    regs_per_sm = 65536, regs_per_thread = 255, max_threads_per_block = 1024,
    max_threads_per_sm = 2048, warp_size = 32, sm_count = 132,
    mma = ["m16n8k16", "m16n8k8"]>`
  }];
  let parameters = (ins StringRefParameter<"preset or device name">:$name,
                        "int64_t":$smem_per_block, "int64_t":$smem_per_sm,
                        "int64_t":$regs_per_sm, "int64_t":$regs_per_thread,
                        "int64_t":$max_threads_per_block,
                        "int64_t":$max_threads_per_sm, "int64_t":$warp_size,
                        "int64_t":$sm_count, "ArrayAttr":$mma);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The same numbers as a plain TargetDescription.
    ::mlir::fa::TargetDescription getDescription() const;
    static TargetAttr get(::mlir::MLIRContext *context,
                          const ::mlir::fa::TargetDescription &target);
  }];
}

#endif // FA_DIALECT_FA_IR_FAATTRS_TD
