// Every refusal of fa.warpgroup_mma's and fa.warpgroup_mma_wait's verifiers.
// RUN: fa-opt %s -split-input-file -verify-diagnostics

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
func.func @n_not_multiple_of_8(%acc: vector<6xf32>, %da: i64, %db: i64, %a: !buf, %b: !buf) -> vector<6xf32> {
  // expected-error @+1 {{accumulator of 6 elements per thread is no wgmma m64nN: N = 12 must be a multiple of 8 from 8 to 256}}
  %d = fa.warpgroup_mma %acc, %da in %a, %db in %b : vector<6xf32>, i64 in !buf, !buf
  return %d : vector<6xf32>
}

// -----

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
func.func @n_too_large(%acc: vector<136xf32>, %da: i64, %db: i64, %a: !buf, %b: !buf) -> vector<136xf32> {
  // expected-error @+1 {{N = 272 must be a multiple of 8 from 8 to 256}}
  %d = fa.warpgroup_mma %acc, %da in %a, %db in %b : vector<136xf32>, i64 in !buf, !buf
  return %d : vector<136xf32>
}

// -----

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
func.func @descriptor_without_buffer(%acc: vector<32xf32>, %da: i64, %db: i64, %b: !buf) -> vector<32xf32> {
  // expected-error @+1 {{takes A from shared memory (an i64 descriptor) but names no buffer for it: write `%desc in %buffer`}}
  %d = fa.warpgroup_mma %acc, %da, %db in %b : vector<32xf32>, i64, !buf
  return %d : vector<32xf32>
}

// -----

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
func.func @registers_and_buffer(%acc: vector<32xf32>, %a: vector<4x2xf16>, %db: i64, %b: !buf) -> vector<32xf32> {
  // expected-error @+1 {{takes A from registers ('vector<4x2xf16>') and from a buffer: name one}}
  %d = fa.warpgroup_mma %acc, %a in %b, %db in %b : vector<32xf32>, vector<4x2xf16> in !buf, !buf
  return %d : vector<32xf32>
}

// -----

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
func.func @registers_wrong_shape(%acc: vector<32xf32>, %a: vector<2x2xf16>, %db: i64, %b: !buf) -> vector<32xf32> {
  // expected-error @+1 {{takes A from registers as 'vector<4x2xf16>' (4 registers of 2 halves per thread), got 'vector<2x2xf16>'}}
  %d = fa.warpgroup_mma %acc, %a, %db in %b : vector<32xf32>, vector<2x2xf16>, !buf
  return %d : vector<32xf32>
}

// -----

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
func.func @registers_other_type(%acc: vector<32xf32>, %a: vector<4x2xbf16>, %db: i64, %b: !buf) -> vector<32xf32> {
  // expected-error @+1 {{multiplies A of 'bf16' by B of 'f16': both must be f16 or both bf16}}
  %d = fa.warpgroup_mma %acc, %a, %db in %b : vector<32xf32>, vector<4x2xbf16>, !buf
  return %d : vector<32xf32>
}

// -----

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
!bbuf = memref<8192xbf16, #gpu.address_space<workgroup>>
func.func @buffers_other_type(%acc: vector<32xf32>, %da: i64, %db: i64, %a: !bbuf, %b: !buf) -> vector<32xf32> {
  // expected-error @+1 {{multiplies A of 'bf16' by B of 'f16': both must be f16 or both bf16}}
  %d = fa.warpgroup_mma %acc, %da in %a, %db in %b : vector<32xf32>, i64 in !bbuf, !buf
  return %d : vector<32xf32>
}

// -----

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
func.func @global_buffer(%acc: vector<32xf32>, %da: i64, %db: i64, %a: !buf, %b: memref<8192xf16, #gpu.address_space<global>>) -> vector<32xf32> {
  // expected-error @+1 {{B's buffer must be in workgroup memory (wgmma reads shared memory), got 'memref<8192xf16, #gpu.address_space<global>>'}}
  %d = fa.warpgroup_mma %acc, %da in %a, %db in %b : vector<32xf32>, i64 in !buf, memref<8192xf16, #gpu.address_space<global>>
  return %d : vector<32xf32>
}

// -----

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
func.func @strided_buffer(%acc: vector<32xf32>, %da: i64, %db: i64, %a: memref<8192xf16, strided<[2]>, #gpu.address_space<workgroup>>, %b: !buf) -> vector<32xf32> {
  // expected-error @+1 {{A's buffer must have the identity layout: descriptors address it by byte offset}}
  %d = fa.warpgroup_mma %acc, %da in %a, %db in %b : vector<32xf32>, i64 in memref<8192xf16, strided<[2]>, #gpu.address_space<workgroup>>, !buf
  return %d : vector<32xf32>
}

// -----

!buf = memref<8192xf16, #gpu.address_space<workgroup>>
func.func @two_dimensional(%acc: vector<32xf32>, %da: i64, %db: i64, %a: !buf, %b: memref<64x64xf16, #gpu.address_space<workgroup>>) -> vector<32xf32> {
  // expected-error @+1 {{operand #4 must be 1D memref of 16-bit float or bfloat16 type values}}
  %d = fa.warpgroup_mma %acc, %da in %a, %db in %b : vector<32xf32>, i64 in !buf, memref<64x64xf16, #gpu.address_space<workgroup>>
  return %d : vector<32xf32>
}

// -----

func.func @wait_for_nothing() {
  // expected-error @+1 {{waits for nothing: name the accumulators whose wgmmas it waits for (only a wait that leaves groups in flight, pending > 0, may name none: it then only commits a group)}}
  "fa.warpgroup_mma_wait"() {pending = 0 : i64} : () -> ()
  return
}

// -----

func.func @pending_too_large(%d: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{attribute 'pending' failed to satisfy constraint}}
  %r = fa.warpgroup_mma_wait %d {pending = 8} : vector<4xf32>
  return %r : vector<4xf32>
}

// -----

!bbuf = memref<4096xbf16, #gpu.address_space<workgroup>>
func.func @transposed_registers(%acc: vector<4xf32>, %a: vector<4x2xbf16>, %db: i64, %b: !bbuf) -> vector<4xf32> {
  // expected-error @+1 {{reads A M/N-major (transpose_a), which wgmma allows only for A from shared memory, not from registers}}
  %d = fa.warpgroup_mma %acc, %a, %db in %b {transpose_a} : vector<4xf32>, vector<4x2xbf16>, !bbuf
  return %d : vector<4xf32>
}
