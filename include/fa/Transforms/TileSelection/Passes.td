//===- Passes.td - TileSelection passes --------------------*- tablegen -*-===//
//
// Stage: tile selection: a tiling from the target, and the report.
// One pass per file under lib/Transforms/TileSelection/.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_TILESELECTION_PASSES_TD
#define FA_TRANSFORMS_TILESELECTION_PASSES_TD

include "fa/Kernel/KernelOptions.td"
include "mlir/Pass/PassBase.td"

def FASelectTiles : Pass<"fa-select-tiles", "::mlir::ModuleOp"> {
  let summary = "Choose the fused kernel's tile sizes from the target's on-chip memory";
  let description = [{
    Annotates every `fa.attention` with `tiling = #fa.tiling<block_q,
    block_kv, warps, stages, smem_bytes>`, chosen for the target:

    * `policy=fa1`: FlashAttention's formula, B_c = ceil(M / 4d) and
      B_r = min(B_c, d) with M the per-block shared memory in elements,
      rounded down to the MMA granule, kept within M and clamped to the
      sequence length;
    * `policy=fa2`: a search over {64, 128}^2 (16 to 256 when none fits),
      1 to 8 warps and 1 to 3 stages, keeping the candidates whose shared
      memory and registers fit and ranking them by the cost model of
      docs/Targets.md;
    * `policy=auto` (default): fa2, with fa1's values reported beside it.

    A tiling already on the op wins but is checked against the target. The
    target comes from the `target` option (a preset name), else the
    module's DLTI (`#dlti.target_system_spec<"GPU" = ...>`, keys in
    docs/Targets.md), else a gpu.module's `#nvvm.target` chip, else sm_80.
    `report=<file>` or `report=-` writes one JSON object per op and line.
  }];
  let options = !listconcat([
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Target preset (sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, "
           "sm_120, gfx90a, gfx942, gfx950, host); overrides DLTI and "
           "#nvvm.target">,
    Option<"policy", "policy", "std::string", /*default=*/"\"auto\"",
           "How to choose tiles: fa1, fa2 or auto (fa2 with fa1 reported)">,
    Option<"requireLinearChunk", "require-linear-chunk", "bool",
           /*default=*/"true",
           "A GPU target's linear attention kernel needs a chunk that fits "
           "shared memory: an error at the op when none does; false leaves "
           "such an op without a chunk, for the host's lowering "
           "(fa-cpu-pipeline's gpu-kernel mode)">,
    Option<"hostCacheBytes", "host-cache-bytes", "int64_t", /*default=*/"0",
           "The host target's cache per core in bytes, its \"shared "
           "memory\" (0: read from /sys/devices/system/cpu/cpu0/cache), so "
           "that the host's tiles need not depend on the machine">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write one JSON line per fa.attention to this file (- for stdout)">,
    Option<"maxBlockKV", "max-block-kv", "int64_t", /*default=*/"0",
           "Testing aid: cap the chosen block_kv at this many keys (0: no "
           "cap), so that short sequences cross several key blocks; a "
           "tiling already on the op is left as written">,
    Option<"minStages", "min-stages", "int64_t", /*default=*/"0",
           "Testing aid: raise the chosen stages to at least this many where "
           "the tiling still fits (0: as chosen), so that small shapes also "
           "rotate their K/V buffers (and prefetch with cp.async where the "
           "kernel can); a tiling already on the op is left as written">,
    Option<"minKVSplits", "min-kv-splits", "int64_t", /*default=*/"0",
           "Testing aid: split the keys at least this many ways (0: as "
           "chosen, at most 128), so that small shapes also take the "
           "split-KV path and its merge; a tiling already on the op is left "
           "as written">,
    Option<"warpgroupTiles", "warpgroup-tiles", "bool", /*default=*/"false",
           "Testing aid: round block_q up to whole 64-row warpgroups of "
           "16-row warps (64 or 128 rows, warps = block_q / 16) where the "
           "tiling still fits, so that short sequences also run sm_90a's "
           "wgmma kernels; a tiling already on the op is left as written">
  ], FAPipelineKernelOptions);
  let dependentDialects = ["::mlir::fa::FADialect"];
}

#endif // FA_TRANSFORMS_TILESELECTION_PASSES_TD
