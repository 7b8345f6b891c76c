// fa-annotate-occupancy: a kernel whose shared memory is known gets
// nvvm.minctasm, the blocks per SM that shared memory allows but at most as
// many as could all run at 255 registers a thread, so that ptxas does not
// spill for an occupancy it cannot reach or chose itself; the hint never
// caps registers. Kernels whose shared memory is unknown are left alone.
// RUN: fa-opt %s --fa-annotate-occupancy=chip=sm_90 | FileCheck %s
// RUN: fa-opt %s --fa-annotate-occupancy=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: not fa-opt %s --fa-annotate-occupancy=chip=sm_99 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fa-opt %s --fa-annotate-occupancy=chip=gfx90a 2>&1 | FileCheck %s --check-prefix=AMD
// CHIP: error: fa-annotate-occupancy: 'sm_99' is not an NVIDIA chip preset (sm_XX)
// AMD: error: fa-annotate-occupancy: 'gfx90a' is not an NVIDIA chip preset (sm_XX)

module attributes {gpu.container_module} {
  func.func @host(%n: index) {
    %c1 = arith.constant 1 : index
    %big = arith.constant 88064 : i32
    %small = arith.constant 20000 : i32
    %dyn = arith.index_cast %n : index to i32
    %rest = arith.constant 80000 : i32
    // 232448 / 88064: 2 blocks of 128 threads, 256 registers each at most.
    gpu.launch_func @kernels::@two_blocks blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %big
    // 11 blocks fit, but a promise of more than 2 would cap registers.
    gpu.launch_func @kernels::@many_blocks blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %small
    // The size is known only at run time.
    gpu.launch_func @kernels::@unknown_size blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %dyn
    // Static 40960 plus dynamic 80000 bytes: one block of 256 threads.
    gpu.launch_func @kernels::@static_and_dynamic blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %rest
    // Launched twice: the larger size counts.
    gpu.launch_func @kernels::@two_launches blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %small
    gpu.launch_func @kernels::@two_launches blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %big
    gpu.launch_func @kernels::@no_block_size blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %big
    return
  }

  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @two_blocks
    // CHECK-SAME: nvvm.minctasm = 2 : i32
    // sm_80 has 166912 bytes per SM: one block.
    // SM80-LABEL: gpu.func @two_blocks
    // SM80-SAME: nvvm.minctasm = 1 : i32
    gpu.func @two_blocks() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
    // CHECK-LABEL: gpu.func @many_blocks
    // CHECK-SAME: nvvm.minctasm = 2 : i32
    gpu.func @many_blocks() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
    // CHECK-LABEL: gpu.func @unknown_size
    // CHECK-NOT: minctasm
    // CHECK: gpu.return
    gpu.func @unknown_size() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
    // CHECK-LABEL: gpu.func @static_and_dynamic
    // CHECK-SAME: nvvm.minctasm = 1 : i32
    gpu.func @static_and_dynamic() workgroup(%tile: memref<10240xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      gpu.return
    }
    // CHECK-LABEL: gpu.func @two_launches
    // CHECK-SAME: nvvm.minctasm = 2 : i32
    gpu.func @two_launches() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
    // No known block size: nothing to reason from.
    // CHECK-LABEL: gpu.func @no_block_size
    // CHECK-NOT: minctasm
    // CHECK: gpu.return
    gpu.func @no_block_size() kernel {
      gpu.return
    }
  }
}
