//===- ThreadLoops.h - Which scf.forall loops run a block's threads ------===//
//
// Shared by fa-emulate-threads-on-cpu and its cp.async model
// (AsyncCopies): the loops they split, queue copies for and permute; and by
// fa-guard-kernel-outputs: the grids whose outputs it guards.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPU_THREADLOOPS_H
#define FA_LIB_TRANSFORMS_GPU_THREADLOOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::fa {

/// Whether `forall` is mapped to the threads, warps or lanes of a block.
inline bool isThreadLoop(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && llvm::any_of(*mapping, [](Attribute attr) {
           return isa<gpu::GPUThreadMappingAttr, gpu::GPUWarpMappingAttr,
                      gpu::GPULaneMappingAttr>(attr);
         });
}

/// Whether `forall` is a kernel's grid: mapped to blocks.
inline bool isBlockLoop(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  return mapping && !mapping->empty() &&
         llvm::all_of(*mapping, [](Attribute attr) {
           return isa<gpu::GPUBlockMappingAttr>(attr);
         });
}

/// Whether `value` is the same in every thread of `threads`: defined in
/// front of the loop, or computed inside it by side-effect-free ops from
/// such values. Block arguments inside the loop (loop counters, carried
/// values) count as per-thread.
inline bool sameInEveryThread(Value value, scf::ForallOp threads,
                              int64_t depth = 0) {
  if (!threads->isAncestor(value.getParentRegion()->getParentOp()))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 16 || def->getNumRegions() != 0 ||
      !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return sameInEveryThread(operand, threads, depth + 1);
  });
}

/// Whether `branch` is taken by whole groups of `groupSize` threads of
/// `threads`: its condition is the same in every thread (sameInEveryThread),
/// or `thread < c` (or `c > thread`) for the loop's thread id and a
/// constant multiple c of the group (a warp-specialized kernel's compute
/// role).
inline bool takenByWholeGroups(scf::IfOp branch, scf::ForallOp threads,
                               int64_t groupSize) {
  if (sameInEveryThread(branch.getCondition(), threads))
    return true;
  auto compare = branch.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!compare)
    return false;
  Value thread = threads.getInductionVar(0);
  using P = arith::CmpIPredicate;
  P predicate = compare.getPredicate();
  Value bound;
  if (compare.getLhs() == thread &&
      (predicate == P::slt || predicate == P::ult))
    bound = compare.getRhs();
  else if (compare.getRhs() == thread &&
           (predicate == P::sgt || predicate == P::ugt))
    bound = compare.getLhs();
  std::optional<int64_t> value =
      bound ? getConstantIntValue(bound) : std::nullopt;
  return value && *value % groupSize == 0;
}

/// `op`'s parent past the branches that whole groups of `groupSize`
/// threads take (takenByWholeGroups); null when another branch holds it.
inline Operation *parentPastGroupBranches(Operation *op, scf::ForallOp threads,
                                          int64_t groupSize) {
  Operation *parent = op->getParentOp();
  while (auto branch = dyn_cast<scf::IfOp>(parent)) {
    if (!takenByWholeGroups(branch, threads, groupSize))
      return nullptr;
    parent = branch->getParentOp();
  }
  return parent;
}

} // namespace mlir::fa

#endif // FA_LIB_TRANSFORMS_GPU_THREADLOOPS_H
