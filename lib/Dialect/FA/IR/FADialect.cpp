//===- FADialect.cpp - The fa dialect -------------------------------------===//
//
// Registers the fa dialect's operations and attributes, and verifies the
// attributes that can be checked on their own.
//
//===----------------------------------------------------------------------===//

#include "fa/Dialect/FA/IR/FADialect.h"
#include "fa/Dialect/FA/IR/FAOps.h"
#include "fa/Kernel/KernelModel.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fa;

#include "fa/Dialect/FA/IR/FAOpsDialect.cpp.inc"

#include "fa/Dialect/FA/IR/FAEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "fa/Dialect/FA/IR/FAAttrs.cpp.inc"

void FADialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "fa/Dialect/FA/IR/FAOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fa/Dialect/FA/IR/FAAttrs.cpp.inc"
      >();
}

LogicalResult WindowAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t left, int64_t right,
                                 DiagonalAlignment) {
  if (left < 0 || right < 0)
    return emitError() << "window bounds must be non-negative, got left = "
                       << left << ", right = " << right;
  return success();
}

LogicalResult TilingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t blockQ, int64_t blockKV, int64_t warps,
                                 int64_t stages,
                                 std::optional<int64_t> smemBytes,
                                 int64_t kvSplits, bool packGqa) {
  if (blockQ <= 0 || blockKV <= 0 || warps <= 0 || stages <= 0)
    return emitError() << "tiling sizes must be positive, got block_q = "
                       << blockQ << ", block_kv = " << blockKV
                       << ", warps = " << warps << ", stages = " << stages;
  if (smemBytes && *smemBytes < 0)
    return emitError() << "tiling smem_bytes must be non-negative, got "
                       << *smemBytes;
  if (kvSplits < 1 || kvSplits > kMaxKVSplits)
    return emitError() << "tiling kv_splits must be between 1 and "
                       << kMaxKVSplits << ", got " << kvSplits;
  return success();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name, int64_t smemPerBlock,
                                 int64_t smemPerSM, int64_t regsPerSM,
                                 int64_t regsPerThread,
                                 int64_t maxThreadsPerBlock,
                                 int64_t maxThreadsPerSM, int64_t warpSize,
                                 int64_t smCount, ArrayAttr mma) {
  for (auto [field, value] :
       {std::pair<StringRef, int64_t>{"smem_per_block", smemPerBlock},
        {"smem_per_sm", smemPerSM},
        {"regs_per_sm", regsPerSM},
        {"regs_per_thread", regsPerThread},
        {"max_threads_per_block", maxThreadsPerBlock},
        {"max_threads_per_sm", maxThreadsPerSM},
        {"warp_size", warpSize},
        {"sm_count", smCount}}) {
    if (value <= 0)
      return emitError() << "target " << field << " must be positive, got "
                         << value;
  }
  if (smemPerBlock > smemPerSM)
    return emitError() << "target smem_per_block (" << smemPerBlock
                       << ") exceeds smem_per_sm (" << smemPerSM << ")";
  if (!llvm::all_of(mma, [](Attribute shape) { return isa<StringAttr>(shape); }))
    return emitError() << "target mma must be a list of strings such as "
                          "\"m16n8k16\"";
  return success();
}

TargetDescription TargetAttr::getDescription() const {
  TargetDescription target;
  target.name = getName().str();
  target.sharedMemoryPerBlock = getSmemPerBlock();
  target.sharedMemoryPerSM = getSmemPerSm();
  target.registersPerSM = getRegsPerSm();
  target.registersPerThread = getRegsPerThread();
  target.maxThreadsPerBlock = getMaxThreadsPerBlock();
  target.maxThreadsPerSM = getMaxThreadsPerSm();
  target.warpSize = getWarpSize();
  target.smCount = getSmCount();
  for (Attribute shape : getMma())
    target.mmaShapes.push_back(cast<StringAttr>(shape).str());
  target.source = "#fa.target";
  return target;
}

TargetAttr TargetAttr::get(MLIRContext *context,
                           const TargetDescription &target) {
  SmallVector<Attribute> shapes;
  for (const std::string &shape : target.mmaShapes)
    shapes.push_back(StringAttr::get(context, shape));
  return TargetAttr::get(context, target.name, target.sharedMemoryPerBlock,
                         target.sharedMemoryPerSM, target.registersPerSM,
                         target.registersPerThread, target.maxThreadsPerBlock,
                         target.maxThreadsPerSM, target.warpSize,
                         target.smCount, ArrayAttr::get(context, shapes));
}
