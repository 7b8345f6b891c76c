//===- SelectTiles.cpp - fa-select-tiles ----------------------------------===//
//
// Stage: tile selection. Finds the target (option, DLTI, #nvvm.target,
// default), describes each fa.attention's shape to the pure C++ selection
// (TileSelection.h), writes the chosen tiling on the op and, on request, a
// JSON line per op saying what was chosen and why.
//
//===----------------------------------------------------------------------===//

#include "Common/LoweringDriver.h"
#include "Common/MaskModIntervals.h"
#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Transforms/TileSelection/TileSelection.h"

#include "Common/PackQueryGroups.h"
#include "Common/WarpMatmul.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#define DEBUG_TYPE "fa-select-tiles"

namespace mlir::fa {
#define GEN_PASS_DEF_FASELECTTILES
#include "fa/Transforms/TileSelection/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using namespace mlir::fa;

namespace {

/// A target and where it came from, for the report.
struct ResolvedTarget {
  TargetDescription description;
  std::string origin;
};

/// DLTI keys under the "GPU" device that override a preset's fields.
struct DltiField {
  StringLiteral key;
  int64_t TargetDescription::*field;
};
constexpr DltiField kDltiFields[] = {
    {"max_shared_memory_bytes", &TargetDescription::sharedMemoryPerBlock},
    {"shared_memory_per_sm_bytes", &TargetDescription::sharedMemoryPerSM},
    {"registers_per_sm", &TargetDescription::registersPerSM},
    {"registers_per_thread", &TargetDescription::registersPerThread},
    {"max_threads_per_block", &TargetDescription::maxThreadsPerBlock},
    {"max_threads_per_sm", &TargetDescription::maxThreadsPerSM},
    {"warp_size", &TargetDescription::warpSize},
    {"sm_count", &TargetDescription::smCount},
};

FailureOr<TargetDescription> lookupPreset(Operation *at, StringRef name,
                                          StringRef what) {
  if (std::optional<TargetDescription> preset = lookupTargetPreset(name))
    return *preset;
  return at->emitError() << "unknown target '" << name << "' (" << what
                         << "); known targets: " << listTargetPresets();
}

/// The module's DLTI description of the "GPU" device, if it has one.
FailureOr<std::optional<ResolvedTarget>> fromDlti(Operation *op) {
  auto queryKey = [&](StringRef key) -> Attribute {
    FailureOr<Attribute> value = dlti::query(op, {"GPU", key});
    return succeeded(value) ? *value : Attribute();
  };
  std::optional<ResolvedTarget> resolved;
  Attribute full = queryKey("fa.target");
  if (auto target = dyn_cast_or_null<TargetAttr>(full)) {
    resolved = ResolvedTarget{target.getDescription(), "DLTI fa.target"};
  } else if (Attribute preset = queryKey("preset")) {
    auto name = dyn_cast<StringAttr>(preset);
    if (!name)
      return op->emitError()
             << "DLTI key \"preset\" must be a string naming a target, got "
             << preset;
    FailureOr<TargetDescription> description =
        lookupPreset(op, name.getValue(), "DLTI key \"preset\"");
    if (failed(description))
      return failure();
    resolved = ResolvedTarget{*description, "DLTI preset"};
  }
  for (const DltiField &entry : kDltiFields) {
    Attribute value = queryKey(entry.key);
    if (!value)
      continue;
    auto integer = dyn_cast<IntegerAttr>(value);
    if (!integer || integer.getInt() <= 0)
      return op->emitError() << "DLTI key \"" << entry.key
                             << "\" must be a positive integer, got " << value;
    if (!resolved) {
      // Keys without a preset refine the default target.
      resolved = ResolvedTarget{*lookupTargetPreset(kDefaultTargetName),
                                ("DLTI over " + kDefaultTargetName).str()};
    }
    resolved->description.*entry.field = integer.getInt();
    resolved->description.name += "+dlti";
  }
  return resolved;
}

/// The chip of the first #nvvm.target of a gpu.module in `module`.
std::optional<std::string> fromNvvmTarget(ModuleOp module) {
  std::optional<std::string> chip;
  module.walk([&](gpu::GPUModuleOp gpuModule) {
    ArrayAttr targets = gpuModule.getTargetsAttr();
    if (!targets)
      return WalkResult::advance();
    for (Attribute target : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target)) {
        chip = nvvm.getChip().str();
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return chip;
}

int64_t elementBytes(Type type) {
  return type.isF32() ? 4 : 2; // the verifier allows f16, bf16 and f32
}

std::string dtypeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  return name;
}

} // namespace

namespace {

/// The tiles of a mask_mod: how many (batch, head, query block, key block)
/// tiles there are, how many the lowering for the target visits and how
/// many of those need no element test; null where a size or a bound is not
/// a compile-time constant. The tiled lowering (`"skips": "tiles"`) skips
/// every tile the interval test proves hidden and tests no element of a
/// tile it proves whole; the GPU kernels (`"skips": "range"`) walk a query
/// block's key blocks from the first to the last it may see and test every
/// element (`whole` is 0).
llvm::json::Value maskModBlocks(AttentionOp op, const AttentionShape &shape,
                                const Tiling &tiling, bool kernel) {
  int64_t sizes[] = {shape.batch, shape.heads, shape.queryLen, shape.keyLen};
  if (llvm::is_contained(sizes, kUnknownSize))
    return nullptr;
  int64_t queryBlocks = (shape.queryLen + tiling.blockQ - 1) / tiling.blockQ;
  int64_t keyBlocks = (shape.keyLen + tiling.blockKV - 1) / tiling.blockKV;
  int64_t total = shape.batch * shape.heads * queryBlocks * keyBlocks;
  constexpr int64_t kMaxTiles = 1 << 22;
  if (total > kMaxTiles)
    return nullptr;
  int64_t visited = 0, whole = 0;
  for (int64_t b = 0; b < shape.batch; ++b)
    for (int64_t h = 0; h < shape.heads; ++h)
      for (int64_t qb = 0; qb < queryBlocks; ++qb) {
        int64_t firstSeen = -1, lastSeen = -1;
        for (int64_t kb = 0; kb < keyBlocks; ++kb) {
          int64_t row0 = qb * tiling.blockQ, col0 = kb * tiling.blockKV;
          std::optional<std::pair<bool, bool>> visibility =
              staticTileVisibility(
                  op.getMaskModBlock(),
                  {{b, b},
                   {h, h},
                   {row0, std::min(row0 + tiling.blockQ, shape.queryLen) - 1},
                   {col0, std::min(col0 + tiling.blockKV, shape.keyLen) - 1}});
          if (!visibility)
            return nullptr;
          if (visibility->first) {
            if (firstSeen < 0)
              firstSeen = kb;
            lastSeen = kb;
          }
          visited += !kernel && visibility->first;
          whole += !kernel && visibility->first && visibility->second;
        }
        if (kernel && firstSeen >= 0)
          visited += lastSeen - firstSeen + 1;
      }
  return llvm::json::Object{{"tiles", total},
                            {"visited", visited},
                            {"whole", whole},
                            {"skipped", true},
                            {"skips", kernel ? "range" : "tiles"}};
}

/// One JSON line: the op's shape, the tiling and its costs, and why.
/// `pass` is "forward" (fa.attention) or "backward".
void writeReport(llvm::raw_ostream &os, Operation *op, Type elementType,
                 StringRef pass, const AttentionShape &shape,
                 const ResolvedTarget &target, const TileDecision &decision,
                 const KernelOptions &hopper) {
  std::string loc;
  llvm::raw_string_ostream locStream(loc);
  op->getLoc().print(locStream);
  auto size = [](int64_t value) -> llvm::json::Value {
    if (value == kUnknownSize)
      return nullptr;
    return value;
  };
  llvm::json::OStream json(os);
  json.object([&] {
    json.attribute("loc", loc);
    json.attribute("pass", pass);
    json.attributeObject("shape", [&] {
      json.attribute("batch", size(shape.batch));
      json.attribute("heads", size(shape.heads));
      json.attribute("kv_heads", size(shape.kvHeads));
      json.attribute("nq", size(shape.queryLen));
      json.attribute("nk", size(shape.keyLen));
      json.attribute("d", shape.headDim);
      json.attribute("dv", shape.valueDim);
    });
    json.attribute("dtype", dtypeName(elementType));
    json.attribute("target", target.description.name);
    json.attribute("policy", stringifyTilePolicy(decision.policy));
    json.attribute("block_q", decision.tiling.blockQ);
    json.attribute("block_kv", decision.tiling.blockKV);
    json.attribute("warps", decision.tiling.warps);
    json.attribute("stages", decision.tiling.stages);
    json.attribute("kv_splits", decision.tiling.kvSplits);
    json.attribute("pack_gqa", decision.tiling.packGQA);
    json.attribute("smem_bytes", decision.costs.sharedMemoryBytes);
    json.attribute("smem_limit", target.description.sharedMemoryPerBlock);
    json.attribute("regs_per_thread_est", decision.costs.registersPerThread);
    json.attribute("occupancy_blocks_per_sm",
                   decision.costs.occupancyBlocksPerSM);
    // The grid (with its key splits) and the splits' workspace of partial
    // f32 outputs and logsumexps, which the lowering allocates; null when a
    // size is unknown at compile time.
    bool staticGrid = shape.batch != kUnknownSize &&
                      shape.heads != kUnknownSize &&
                      shape.queryLen != kUnknownSize;
    auto ifStatic = [&](int64_t value) -> llvm::json::Value {
      if (!staticGrid)
        return nullptr;
      return value;
    };
    json.attribute("blocks", ifStatic(decision.costs.blocks));
    json.attribute("workspace_bytes", ifStatic(decision.costs.workspaceBytes));
    json.attribute("hbm_bytes_tiled_est", decision.costs.hbmBytesTiled);
    json.attribute("hbm_bytes_unfused_est", decision.costs.hbmBytesUnfused);
    // The time the tiled traffic takes at the chip's peak DRAM bandwidth:
    // what a memory-bound step (decode) cannot beat; null where the target
    // states no bandwidth.
    if (int64_t bandwidth = target.description.dramBytesPerSecond) {
      double microseconds =
          double(decision.costs.hbmBytesTiled) / double(bandwidth) * 1e6;
      json.attributeBegin("hbm_time_us_est");
      json.rawValue([&](llvm::raw_ostream &os) {
        os << llvm::formatv("{0:F1}", microseconds);
      });
      json.attributeEnd();
    } else {
      json.attribute("hbm_time_us_est", nullptr);
    }
    json.attribute("fa1_bc", decision.fa1BlockKV);
    json.attribute("fa1_br", decision.fa1BlockQ);
    // Which kernel fa-distribute-attention builds for this tiling (the
    // shared memory above is that kernel's): planKernel with
    // fa-gpu-pipeline's options for the chip (cp.async and mma.sync from
    // sm_80 on, wgmma and the TMA producer on sm_90a where the op allows).
    auto forward = dyn_cast<AttentionOp>(op);
    std::optional<KernelPlan> plan;
    if (target.description.isGPU() && forward) {
      auto bytes = [](Value value) {
        return elementBytes(getElementTypeOrSelf(value.getType()));
      };
      KernelOptions options = modelKernelOptions(shape, target.description);
      options.overlapSoftmax = hopper.overlapSoftmax;
      options.pingPong = hopper.pingPong;
      plan = planKernel(decision.tiling, shape, bytes(forward.getKey()),
                        bytes(forward.getValue()), options);
    }
    // How the backward pass's GPU kernels sum dQ: with f32 atomics from
    // the dK/dV kernel (the default), or in a kernel of its own in a fixed
    // order (`deterministic`).
    if (auto backward = dyn_cast<AttentionBackwardOp>(op);
        backward && hasMmaSync16816(target.description))
      json.attribute("dq", backward.getDeterministic()
                               ? "deterministic: a kernel of its own"
                               : "atomic: f32 sums from the dK/dV kernel");
    // The backward's dK/dV kernel: on wgmma (sm_90a, where the tiling
    // allows) or mma.sync.
    if (auto backward = dyn_cast<AttentionBackwardOp>(op);
        backward && hasMmaSync16816(target.description))
      json.attribute(
          "gpu_kernel",
          warpgroupBackwardProducer(decision.tiling, shape, target.description)
              ? "backward-wgmma-tma-ws"
          : warpgroupBackwardKernel(decision.tiling, shape, target.description)
              ? "backward-wgmma"
              : "backward-mma.sync");
    if (plan)
      json.attribute("gpu_kernel", plan->tmaProducer    ? "wgmma-tma-ws"
                                   : plan->warpgroupMma ? "wgmma-registers"
                                   : plan->registerFragments
                                       ? "mma.sync-registers"
                                   : plan->tensorCores ? "mma.sync-shared"
                                                       : "fma");
    json.attribute("why", "target " + target.description.name + " from " +
                              target.origin + "; " + decision.why);
    if (forward && forward.getMaskModBlock())
      // The tiled lowering (host) skips the tiles it proves hidden; the GPU
      // kernels the key blocks outside the range a query block may see.
      json.attribute("mask_mod_blocks",
                     maskModBlocks(forward, shape, decision.tiling,
                                   target.description.isGPU()));
    if (plan)
      json.attribute("kernel_plan", plan->describe());
  });
  os << "\n";
}

/// The operands a GPU kernel addresses with 32-bit indices, by name.
template <typename OpTy>
SmallVector<std::pair<StringRef, Value>> addressedOperands(OpTy op) {
  return {{"query", op.getQuery()},
          {"key", op.getKey()},
          {"value", op.getValue()},
          {"mask", op.getMask()},
          {"output", op.getOutput()}};
}

/// Refuses, at `op`, a tensor operand a GPU kernel could not address with
/// 32-bit indices.
LogicalResult checkAddressable(Operation *op, const ResolvedTarget &resolved,
                               ArrayRef<std::pair<StringRef, Value>> operands) {
  if (!resolved.description.isGPU())
    return success();
  for (auto [name, operand] : operands) {
    if (!operand)
      continue;
    auto type = cast<RankedTensorType>(operand.getType());
    if (!type.hasStaticShape())
      continue;
    double elements = 1;
    for (int64_t size : type.getShape())
      elements *= double(size);
    if (elements <= double(std::numeric_limits<int32_t>::max()))
      continue;
    std::string count;
    llvm::raw_string_ostream(count) << llvm::format("%.0f", elements);
    return op->emitOpError()
           << name << " " << type << " has " << count
           << " elements; kernels for " << resolved.description.name
           << " index with 32 bits (at most 2147483647 elements per "
              "tensor)";
  }
  return success();
}

struct FASelectTilesPass : fa::impl::FASelectTilesBase<FASelectTilesPass> {
  using FASelectTilesBase::FASelectTilesBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<TilePolicy> parsedPolicy = parseTilePolicy(policy);
    if (!parsedPolicy) {
      module.emitError() << "unknown tile policy '" << policy
                         << "'; known policies: fa1, fa2, auto";
      return signalPassFailure();
    }
    tilePolicy = *parsedPolicy;
    if (failed(checkNumericOptions(module)))
      return signalPassFailure();

    std::unique_ptr<llvm::ToolOutputFile> reportFile;
    reportStream = nullptr;
    if (report == "-") {
      reportStream = &llvm::outs();
    } else if (!report.empty()) {
      std::string error;
      reportFile = openOutputFile(report, &error);
      if (!reportFile) {
        module.emitError() << "cannot open the tile report '" << report
                           << "': " << error;
        return signalPassFailure();
      }
      reportStream = &reportFile->os();
    }

    nvvmChip = fromNvvmTarget(module);
    WalkResult result = module.walk([&](Operation *walked) -> WalkResult {
      if (auto backward = dyn_cast<AttentionBackwardOp>(walked))
        return selectBackward(backward);
      if (auto op = dyn_cast<AttentionOp>(walked))
        return selectForward(op);
      if (auto linear = dyn_cast<LinearAttentionOp>(walked))
        return selectLinear(linear);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (reportFile)
      reportFile->keep();
  }

private:
  /// The testing aids' ranges (min-stages, min-kv-splits, max-block-kv).
  LogicalResult checkNumericOptions(ModuleOp module) {
    if (minStages < 0)
      return module.emitError()
             << "min-stages must be 0 (as chosen) or a positive "
                "number of stages, got "
             << static_cast<int64_t>(minStages);
    if (minKVSplits < 0 || minKVSplits > kMaxKVSplits)
      return module.emitError()
             << "min-kv-splits must be 0 (as chosen) or a number "
                "of key splits up to "
             << kMaxKVSplits << ", got " << static_cast<int64_t>(minKVSplits);
    if (hostCacheBytes < 0)
      return module.emitError()
             << "host-cache-bytes must be 0 (read from this machine) or a "
                "positive number of bytes, got "
             << static_cast<int64_t>(hostCacheBytes);
    if (maxBlockKV < 0)
      return module.emitError()
             << "max-block-kv must be 0 (no cap) or a positive "
                "number of keys, got "
             << static_cast<int64_t>(maxBlockKV);
    return success();
  }

  /// The target of `op`, first to last: the option, DLTI (which may differ
  /// per op), the #nvvm.target chip, the default. Errors point at the op
  /// they stop.
  FailureOr<ResolvedTarget>
  resolveTarget(Operation *op, ArrayRef<std::pair<StringRef, Value>> operands) {
    std::optional<ResolvedTarget> resolved;
    if (!target.empty()) {
      FailureOr<TargetDescription> preset =
          lookupPreset(op, target, "pass option target");
      if (failed(preset))
        return failure();
      resolved = ResolvedTarget{*preset, "the pass option"};
    }
    if (!resolved) {
      FailureOr<std::optional<ResolvedTarget>> dlti = fromDlti(op);
      if (failed(dlti))
        return failure();
      resolved = *dlti;
    }
    if (!resolved && nvvmChip) {
      FailureOr<TargetDescription> preset =
          lookupPreset(op, *nvvmChip, "#nvvm.target chip");
      if (failed(preset))
        return failure();
      resolved = ResolvedTarget{*preset, "#nvvm.target"};
    }
    if (!resolved)
      resolved = ResolvedTarget{*lookupTargetPreset(kDefaultTargetName),
                                "the default"};
    if (hostCacheBytes > 0 && !resolved->description.isGPU()) {
      resolved->description.sharedMemoryPerBlock = hostCacheBytes;
      resolved->description.sharedMemoryPerSM = hostCacheBytes;
      resolved->description.source =
          std::to_string(hostCacheBytes) +
          " bytes of cache per core (pass option host-cache-bytes)";
    }
    if (std::string invalid = validateTargetDescription(resolved->description);
        !invalid.empty())
      return op->emitOpError()
             << invalid << " (from " << resolved->origin << ")";
    // GPU kernels index with 32 bits: refuse tensors they cannot address.
    if (failed(checkAddressable(op, *resolved, operands)))
      return failure();
    return *resolved;
  }

  /// Tiles an fa.attention (or checks the tiling written on it) and
  /// reports it with "pass": "forward".
  WalkResult selectForward(AttentionOp op) {
    FailureOr<ResolvedTarget> resolved =
        resolveTarget(op, addressedOperands(op));
    if (failed(resolved))
      return WalkResult::interrupt();
    AttentionShape shape = describeAttentionShape(op);
    // The kernel fa-gpu-pipeline builds on sm_90a by default, as the
    // report describes it.
    shape.tmaProducerKernel =
        tmaProducer && hasWarpgroupMma(resolved->description);
    shape.registerFragments = registerFragments;
    TileSelection selection;
    if (TilingAttr given = op.getTilingAttr()) {
      if (failed(checkPackedTiling(op)))
        return WalkResult::interrupt();
      selection = checkTiling(Tiling{given.getBlockQ(), given.getBlockKv(),
                                     given.getWarps(), given.getStages(),
                                     given.getKvSplits(), given.getPackGqa()},
                              shape, resolved->description);
    } else {
      selection = selectTiles(shape, resolved->description, tilePolicy);
      if (selection.decision)
        applyTestingAids(selection, shape, resolved->description);
    }
    if (!selection.decision) {
      op.emitOpError() << selection.error;
      return WalkResult::interrupt();
    }
    const TileDecision &decision = *selection.decision;
    LLVM_DEBUG(llvm::dbgs()
               << "tiles at " << op.getLoc() << ": " << decision.why << "\n");
    op.setTilingAttr(TilingAttr::get(
        op.getContext(), decision.tiling.blockQ, decision.tiling.blockKV,
        decision.tiling.warps, decision.tiling.stages,
        decision.costs.sharedMemoryBytes, decision.tiling.kvSplits,
        decision.tiling.packGQA));
    if (reportStream)
      writeReport(*reportStream, op, op.getQuery().getType().getElementType(),
                  "forward", shape, *resolved, decision, hopperChoices());
    return WalkResult::advance();
  }

  /// The chunk of an fa.linear_attention from the target's shared memory
  /// (selectLinearChunk), unless the op has one; reported as a line with
  /// "pass": "linear". On a GPU the kernel walks the sequence by chunks,
  /// causal or not. On the host only the causal lowering walks chunks (the
  /// non-causal Q (K^T V) needs none), and its cache bounds speed, not
  /// correctness: the host never refuses a chunk for size.
  WalkResult selectLinear(LinearAttentionOp op) {
    FailureOr<ResolvedTarget> resolved =
        resolveTarget(op, {{"query", op.getQuery()},
                           {"key", op.getKey()},
                           {"value", op.getValue()},
                           {"output", op.getOutput()}});
    if (failed(resolved))
      return WalkResult::interrupt();
    const TargetDescription &target = resolved->description;
    auto queryType = op.getQuery().getType();
    int64_t headDim = queryType.getDimSize(3);
    int64_t valueDim = op.getValue().getType().getDimSize(3);
    int64_t elementBytes =
        std::max<int64_t>(1, queryType.getElementTypeBitWidth() / 8);
    bool decay = op.getDecay() != nullptr;
    std::optional<LinearChunkDecision> decision;
    std::string why;
    int64_t limit = target.sharedMemoryPerBlock;
    if (IntegerAttr given = op.getChunkAttr()) {
      int64_t bytes = linearChunkBytes(given.getInt(), headDim, valueDim,
                                       elementBytes, op.isNormalized(), decay);
      if (bytes > limit && target.isGPU()) {
        op.emitOpError() << "chunk " << given.getInt() << " needs " << bytes
                         << " bytes of shared memory (Q, K and V's rows and "
                            "the state), over the target's "
                         << limit;
        return WalkResult::interrupt();
      }
      decision = LinearChunkDecision{given.getInt(), bytes,
                                     "chunk written on the op"};
      why = decision->why;
      if (bytes > limit)
        why += " (its " + std::to_string(bytes) + " bytes exceed the host's " +
               std::to_string(limit) +
               " of cache, which costs speed, not correctness)";
    } else if (!target.isGPU() && !op.getCausal()) {
      why = "not causal: the host computes Q (K^T V) over the whole "
            "sequence and walks no chunk";
    } else {
      std::string error;
      decision = selectLinearChunk(headDim, valueDim, elementBytes,
                                   op.isNormalized(), decay, limit, error);
      if (!decision && target.isGPU() && requireLinearChunk) {
        op.emitOpError() << error;
        return WalkResult::interrupt();
      }
      if (!decision && target.isGPU()) {
        why = error + "; left without a chunk for the host's lowering";
      } else if (!decision) {
        constexpr int64_t kSmallestChunk = 16;
        int64_t bytes = linearChunkBytes(kSmallestChunk, headDim, valueDim,
                                         elementBytes, op.isNormalized(),
                                         decay);
        decision = LinearChunkDecision{
            kSmallestChunk, bytes,
            "chunk 16: no chunk fits the host's " + std::to_string(limit) +
                " bytes of cache (16 rows need " + std::to_string(bytes) +
                "); the host never refuses for size, past its cache it runs "
                "slower, not wrong"};
      }
      if (decision) {
        op.setChunkAttr(IntegerAttr::get(
            IntegerType::get(op.getContext(), 64), decision->chunk));
        why = decision->why;
      }
    }
    if (!op.getCausal() && target.isGPU())
      why += "; not causal: the GPU kernel streams keys, then queries, by "
             "chunks (the host's Q (K^T V) walks none)";
    if (reportStream) {
      std::string loc;
      llvm::raw_string_ostream locStream(loc);
      op.getLoc().print(locStream);
      llvm::json::OStream json(*reportStream);
      json.object([&] {
        json.attribute("loc", loc);
        json.attribute("pass", "linear");
        json.attribute("target", resolved->description.name);
        json.attribute("chunk", decision ? llvm::json::Value(decision->chunk)
                                         : llvm::json::Value(nullptr));
        if (decision) {
          json.attribute("smem_bytes", decision->sharedMemoryBytes);
          json.attribute("smem_limit",
                         resolved->description.sharedMemoryPerBlock);
        }
        json.attribute("why", "target " + resolved->description.name +
                                  " from " + resolved->origin + "; " + why);
      });
      *reportStream << "\n";
    }
    return WalkResult::advance();
  }

  /// The Hopper kernel's schedules the report describes (the rest of
  /// KernelOptions follows the target and the op's shape).
  KernelOptions hopperChoices() const {
    KernelOptions choices;
    choices.overlapSoftmax = overlapSoftmax;
    choices.pingPong = pingPong;
    return choices;
  }

  /// Tiles an fa.attention_backward (or checks the tiling written on it) by
  /// the backward model of TileSelection.h, and reports it with "pass":
  /// "backward".
  WalkResult selectBackward(AttentionBackwardOp op) {
    FailureOr<ResolvedTarget> resolved =
        resolveTarget(op, addressedOperands(op));
    if (failed(resolved))
      return WalkResult::interrupt();
    AttentionShape shape = describeAttentionShape(op);
    // The dK/dV kernel fa-gpu-pipeline builds on sm_90a by default: wgmma
    // with a TMA producer warpgroup.
    shape.tmaProducerKernel =
        tmaProducer && hasWarpgroupMma(resolved->description);
    TileSelection selection;
    if (TilingAttr given = op.getTilingAttr())
      selection = checkBackwardTiling(
          Tiling{given.getBlockQ(), given.getBlockKv(), given.getWarps(),
                 given.getStages(), given.getKvSplits(), given.getPackGqa()},
          shape, resolved->description);
    else
      selection = selectBackwardTiles(shape, resolved->description);
    if (!selection.decision) {
      op.emitOpError() << selection.error;
      return WalkResult::interrupt();
    }
    const TileDecision &decision = *selection.decision;
    LLVM_DEBUG(llvm::dbgs() << "backward tiles at " << op.getLoc() << ": "
                            << decision.why << "\n");
    // A fixed order of dQ's sum is a refinement of any order: the op may
    // ask for it where no tiling fits the atomic one.
    if (decision.deterministicQueryGradient)
      op.setDeterministic(true);
    op.setTilingAttr(TilingAttr::get(
        op.getContext(), decision.tiling.blockQ, decision.tiling.blockKV,
        decision.tiling.warps, decision.tiling.stages,
        decision.costs.sharedMemoryBytes, /*kv_splits=*/1, /*pack_gqa=*/false));
    if (reportStream)
      writeReport(*reportStream, op, op.getQuery().getType().getElementType(),
                  "backward", shape, *resolved, decision, hopperChoices());
    return WalkResult::advance();
  }

  /// The testing aids change one field of the chosen tiling where the
  /// result still fits (checkTiling recomputes its costs); otherwise the
  /// choice stands. A tiling written on the op is left as written.
  void applyTestingAids(TileSelection &selection, const AttentionShape &shape,
                        const TargetDescription &description) {
    auto adjust = [&](Tiling adjusted, const std::string &note) {
      TileDecision chosen = *selection.decision;
      TileSelection checked = checkTiling(adjusted, shape, description);
      if (!checked.decision)
        return;
      checked.decision->policy = chosen.policy;
      checked.decision->fa1BlockKV = chosen.fa1BlockKV;
      checked.decision->fa1BlockQ = chosen.fa1BlockQ;
      checked.decision->why = chosen.why + "; " + note;
      selection = checked;
    };
    // The cap only shrinks the key tile: shared memory and registers can
    // only go down, so the capped tiling fits where the chosen one did.
    Tiling tiling = selection.decision->tiling;
    if (maxBlockKV > 0 && tiling.blockKV > maxBlockKV) {
      tiling.blockKV = maxBlockKV;
      adjust(tiling, "block_kv capped at " + std::to_string(maxBlockKV) +
                         " by the max-block-kv option");
    }
    tiling = selection.decision->tiling;
    if (minStages > 0 && tiling.stages < minStages) {
      tiling.stages = minStages;
      adjust(tiling, "stages raised to " + std::to_string(minStages) +
                         " by the min-stages option");
    }
    tiling = selection.decision->tiling;
    if (warpgroupTiles &&
        (tiling.blockQ % 64 != 0 || tiling.warps * 16 != tiling.blockQ)) {
      tiling.blockQ = std::min<int64_t>(128, (tiling.blockQ + 63) / 64 * 64);
      tiling.warps = tiling.blockQ / 16;
      adjust(tiling, "block_q rounded up to " + std::to_string(tiling.blockQ) +
                         " rows of 16-row warps by the warpgroup-tiles option");
    }
    // Splits use no shared memory or registers: they always fit.
    tiling = selection.decision->tiling;
    if (minKVSplits > 0 && tiling.kvSplits < minKVSplits) {
      tiling.kvSplits = minKVSplits;
      adjust(tiling, "key splits raised to " + std::to_string(minKVSplits) +
                         " by the min-kv-splits option");
    }
  }

  TilePolicy tilePolicy = TilePolicy::Auto;
  llvm::raw_ostream *reportStream = nullptr;
  /// The chip of the module's #nvvm.target, if any.
  std::optional<std::string> nvvmChip;
};

} // namespace
