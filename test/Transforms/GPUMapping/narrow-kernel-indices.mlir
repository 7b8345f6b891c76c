// fa-narrow-kernel-indices: a gpu.module gets a 32-bit index exactly when
// no index value its kernels compute can reach 2^31: every memref they touch
// spans fewer than 2^31 elements, and no kernel takes an index argument
// (the host would pass it as 64 bits). Any other module keeps 64 bits.
// RUN: fa-opt %s --fa-narrow-kernel-indices | FileCheck %s

// CHECK-LABEL: gpu.module @fits
// CHECK-SAME: dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>
gpu.module @fits {
  gpu.func @kernel(%q: memref<8x16x1024x128xf16>, %n: i32)
      workgroup(%tile: memref<64x128xf16, #gpu.address_space<workgroup>>)
      kernel {
    %shared = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.alloca() : memref<4xf32>
    gpu.return
  }
}

// 2^31 - 1 elements: the largest offset is 2^31 - 2.
// CHECK-LABEL: gpu.module @just_fits
// CHECK-SAME: dlti.dl_spec
gpu.module @just_fits {
  gpu.func @kernel(%q: memref<2147483647xi8>) kernel {
    gpu.return
  }
}

// 2^31 elements: the largest offset, 2^31 - 1, still fits, but a loop
// bound or an end offset of 2^31 would not.
// CHECK-LABEL: gpu.module @exactly_2_31
// CHECK-NOT: dlti.dl_spec
gpu.module @exactly_2_31 {
  gpu.func @kernel(%q: memref<2147483648xi8>) kernel {
    gpu.return
  }
}

// A strided argument whose largest offset is 2^31: too far.
// CHECK-LABEL: gpu.module @strided_too_far
// CHECK-NOT: dlti.dl_spec
gpu.module @strided_too_far {
  gpu.func @kernel(%q: memref<2x2xf16, strided<[2147483647, 1], offset: 0>>)
      kernel {
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @too_many_elements
// CHECK-NOT: dlti.dl_spec
gpu.module @too_many_elements {
  gpu.func @kernel(%q: memref<16x32x4096x1024xf16>) kernel {
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @dynamic
// CHECK-NOT: dlti.dl_spec
gpu.module @dynamic {
  gpu.func @kernel(%k: memref<1x8x?x64xf16>) kernel {
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @index_argument
// CHECK-NOT: dlti.dl_spec
gpu.module @index_argument {
  gpu.func @kernel(%q: memref<64xf16>, %n: index) kernel {
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @dynamic_alloc
// CHECK-NOT: dlti.dl_spec
gpu.module @dynamic_alloc {
  gpu.func @kernel(%q: memref<64xf16>, %n: i32) kernel {
    %c = arith.index_cast %n : i32 to index
    %a = memref.alloca(%c) : memref<?xf32>
    gpu.return
  }
}

// A module whose layout someone chose keeps it.
// CHECK-LABEL: gpu.module @chosen
// CHECK-SAME: dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>
gpu.module @chosen attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>} {
  gpu.func @kernel(%q: memref<64xf16>) kernel {
    gpu.return
  }
}
