//===- KernelOptions.td - The kernel choices passes share --*- tablegen -*-===//
//
// Stage: the kernel model. The choices of the forward kernel that
// fa-gpu-pipeline makes and that the passes which predict its kernel must
// make alike (fa-select-tiles' report, fa-confirm-tiles-with-ptxas' trial
// compilations), declared once: each option has fa-gpu-pipeline's name and
// default, and the passes forward it to KernelOptions (KernelModel.h).
// fa-distribute-attention builds the kernel itself and states what the chip
// allows instead (its options default to off where the chip decides).
//
//===----------------------------------------------------------------------===//

#ifndef FA_KERNEL_KERNELOPTIONS_TD
#define FA_KERNEL_KERNELOPTIONS_TD

include "mlir/Pass/PassBase.td"

defvar FAPipelineKernelOptions = [
  Option<"registerFragments", "register-fragments", "bool", /*default=*/"true",
         "The forward kernel keeps S and P in mma.sync fragments "
         "(fa-gpu-pipeline register-fragments); false: they pass through "
         "shared memory (gpu_kernel \"mma.sync-shared\"), whose tiles the "
         "shared memory then counts">,
  Option<"tmaProducer", "tma-producer", "bool", /*default=*/"true",
         "On sm_90a, the TMA producer kernel (gpu_kernel \"wgmma-tma-ws\") "
         "where the tiling allows it, as fa-gpu-pipeline builds by default; "
         "false: the cp.async wgmma kernel (fa-gpu-pipeline tma-producer)">,
  Option<"overlapSoftmax", "overlap-softmax", "bool", /*default=*/"true",
         "On sm_90a, the TMA producer kernel's P V overlapping the next "
         "block's softmax, as fa-gpu-pipeline builds by default "
         "(fa-gpu-pipeline overlap-softmax)">,
  Option<"pingPong", "ping-pong", "bool", /*default=*/"true",
         "On sm_90a, the compute warpgroups' ping-pong, as fa-gpu-pipeline "
         "builds by default (fa-gpu-pipeline ping-pong)">,
];

#endif // FA_KERNEL_KERNELOPTIONS_TD
