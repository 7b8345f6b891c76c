//===- WarpgroupMmaToNVVM.h - wgmma as inline PTX ---------------*- C++ -*-===//
//
// The patterns that lower fa.warpgroup_mma and fa.warpgroup_mma_wait inside
// a gpu.module, for fa-convert-kernel-nvgpu-to-nvvm. Private to
// lib/Transforms/GPUMapping.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPUMAPPING_WARPGROUPMMATONVVM_H
#define FA_LIB_TRANSFORMS_GPUMAPPING_WARPGROUPMMATONVVM_H

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace mlir::fa {

void populateWarpgroupMmaToNVVMPatterns(LLVMTypeConverter &converter,
                                        RewritePatternSet &patterns);

} // namespace mlir::fa

#endif // FA_LIB_TRANSFORMS_GPUMAPPING_WARPGROUPMMATONVVM_H
