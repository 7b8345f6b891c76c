//===- ThreadLoops.h - Which scf.forall loops run a block's threads ------===//
//
// Shared by fa-emulate-threads-on-cpu and its cp.async model
// (AsyncCopies): the loops they split, queue copies for and permute; and by
// fa-guard-kernel-outputs: the grids whose outputs it guards.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPU_THREADLOOPS_H
#define FA_LIB_TRANSFORMS_GPU_THREADLOOPS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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

} // namespace mlir::fa

#endif // FA_LIB_TRANSFORMS_GPU_THREADLOOPS_H
