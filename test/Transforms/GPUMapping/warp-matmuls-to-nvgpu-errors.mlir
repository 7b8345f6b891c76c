// Contractions fa-warp-matmuls-to-nvgpu cannot turn into one mma.sync are
// reported, not left for the NVVM lowering to compute per lane.
// RUN: fa-opt %s --split-input-file --fa-warp-matmuls-to-nvgpu --verify-diagnostics -o /dev/null

// bf16 tiles outside workgroup memory would become per-lane loads, which
// have no bf16 form upstream (only ldmatrix fragments are retyped).
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
gpu.module @kernels {
  gpu.func @bf16(%q: memref<64x72xbf16>, %s: memref<64x72xf32>) kernel {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : bf16
    %zero = arith.constant dense<0.0> : vector<16x8xf32>
    %lhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xbf16>, vector<16x16xbf16>
    %rhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xbf16>, vector<8x16xbf16>
    // expected-error@+1 {{cannot become nvgpu.mma.sync: bf16 warp matmuls read both tiles from workgroup memory with vector.transfer_read, used by contractions only (they become ldmatrix; upstream has no bf16 per-lane loads); its A (lhs) tile is read from 'memref<64x72xbf16>'}}
    %acc = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %zero : vector<16x16xbf16>, vector<8x16xbf16> into vector<16x8xf32>
    vector.transfer_write %acc, %s[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x72xf32>
    gpu.return
  }
}

// -----

// A 32x32 tile is not one mma.sync.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
gpu.module @kernels {
  gpu.func @wide(%q: memref<64x72xf16>, %s: memref<64x72xf32>) kernel {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f16
    %zero = arith.constant dense<0.0> : vector<32x32xf32>
    %lhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xf16>, vector<32x16xf16>
    %rhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xf16>, vector<32x16xf16>
    // expected-error@+1 {{cannot become nvgpu.mma.sync: warp matmuls must contract 16x16 by 8x16 f16 or bf16 tiles into a 16x8 f32 tile (maps (m, k), (n, k), (m, n)), read and written with vector.transfer_read/write; here 'vector<32x16xf16>' by 'vector<32x16xf16>' into 'vector<32x32xf32>'}}
    %acc = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %zero : vector<32x16xf16>, vector<32x16xf16> into vector<32x32xf32>
    vector.transfer_write %acc, %s[%c0, %c0] {in_bounds = [true, true]} : vector<32x32xf32>, memref<64x72xf32>
    gpu.return
  }
}

// -----

// A right-shaped matmul whose result feeds an elementwise op: upstream's
// nvgpu conversion handles no elementwise ops on fragments and says so; the
// contraction is reported rather than left for per-lane scalar code.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
gpu.module @kernels {
  gpu.func @negated(%q: memref<64x72xf16>, %s: memref<64x72xf32>) kernel {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f16
    %zero = arith.constant dense<0.0> : vector<16x8xf32>
    %lhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xf16>, vector<16x16xf16>
    %rhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xf16>, vector<8x16xf16>
    // expected-error@+1 {{cannot become nvgpu.mma.sync}}
    %acc = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %zero : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
    // expected-error@+2 {{unhandled vector to mma type}}
    // expected-error@+1 {{failed to convert op during vector-to-nvgpu conversion}}
    %neg = arith.negf %acc : vector<16x8xf32>
    vector.transfer_write %neg, %s[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x72xf32>
    gpu.return
  }
}

// -----

// A bf16 tile that something else reads as well cannot be retyped.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
gpu.module @kernels {
  gpu.func @shared_read(%q: memref<64x72xbf16, #gpu.address_space<workgroup>>, %s: memref<64x72xf32, #gpu.address_space<workgroup>>, %o: memref<16x16xbf16>) kernel {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : bf16
    %zero = arith.constant dense<0.0> : vector<16x8xf32>
    %lhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    %rhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xbf16, #gpu.address_space<workgroup>>, vector<8x16xbf16>
    // expected-error@+1 {{its A (lhs) tile is also used by an op other than a contraction}}
    %acc = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %zero : vector<16x16xbf16>, vector<8x16xbf16> into vector<16x8xf32>
    vector.transfer_write %acc, %s[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x72xf32, #gpu.address_space<workgroup>>
    vector.transfer_write %lhs, %o[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xbf16>, memref<16x16xbf16>
    gpu.return
  }
}

// -----

// A bf16 tile in workgroup memory with a strided layout: upstream's
// conversion does not make an ldmatrix of the read, and nothing else can be
// retyped to bf16.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
gpu.module @kernels {
  gpu.func @strided(%q: memref<64x72xbf16, strided<[1, 64]>, #gpu.address_space<workgroup>>, %s: memref<64x72xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : bf16
    %zero = arith.constant dense<0.0> : vector<16x8xf32>
    %lhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xbf16, strided<[1, 64]>, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    // expected-error@+1 {{'vector.transfer_read' op reads a bf16 tile (through its f16 view) but is not an nvgpu.ldmatrix feeding nvgpu.mma.sync, the only form this pass retypes to bf16}}
    %rhs = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x72xbf16, strided<[1, 64]>, #gpu.address_space<workgroup>>, vector<8x16xbf16>
    %acc = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %zero : vector<16x16xbf16>, vector<8x16xbf16> into vector<16x8xf32>
    vector.transfer_write %acc, %s[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x72xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
