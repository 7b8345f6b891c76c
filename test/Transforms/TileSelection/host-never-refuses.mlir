// The host's "shared memory" is its cache, which bounds speed, not
// correctness: fa-select-tiles never refuses an op on the host for size.
// host-cache-bytes fixes the cache so that the tiles do not depend on the
// machine the test runs on (CI's caches may differ from a laptop's).
//
// 32 KiB (a machine whose L2 sysfs does not report, so L1d plays the cache):
// FA2's search starts at 16 x 16, which f32 at d = 128 does not fit (33920
// bytes): 16 x 16 runs past the cache (FA1's formula would shrink to a few
// rows, whose loops cost more than the misses), and the report says so.
// RUN: fa-opt %s "--fa-select-tiles=target=host host-cache-bytes=32768 report=-" -o /dev/null | FileCheck %s --check-prefix=L1
// 4 KiB: nothing fits, not even 1 x 1 at d = 256: 16 x 16 runs past the
// cache, and the report says so.
// RUN: fa-opt %s "--fa-select-tiles=target=host host-cache-bytes=4096 report=-" -o /dev/null | FileCheck %s --check-prefix=TINY
// RUN: fa-opt %s "--fa-select-tiles=target=host host-cache-bytes=4096 policy=fa1 report=-" -o /dev/null | FileCheck %s --check-prefix=TINY-FA1
// RUN: fa-opt %s "--fa-select-tiles=target=host host-cache-bytes=4096 policy=fa2 report=-" -o /dev/null | FileCheck %s --check-prefix=TINY-FA2
// The same through the default CPU pipeline, which must compile every op.
// RUN: fa-opt %s "--fa-cpu-pipeline=host-cache-bytes=4096" -o /dev/null
// RUN: fa-opt %s "--fa-cpu-pipeline=host-cache-bytes=32768" -o /dev/null
// The pipeline passes the option on: the tiles it selects are those of
// the 4 KiB cache (16 x 16 where this machine's cache would allow more).
// RUN: fa-opt %s "--fa-cpu-pipeline=host-cache-bytes=4096" -mlir-print-ir-after=fa-select-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1, smem_bytes = 33920>
// PIPELINE: tiling = <block_q = 7, block_kv = 5,
// PIPELINE: tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1, smem_bytes = 42112>
// PIPELINE: tiling = <block_q = 16, block_kv = 16, warps = 1, stages = 1, smem_bytes = 104576>
// A negative cache is an error, not a tile.
// RUN: not fa-opt %s "--fa-select-tiles=target=host host-cache-bytes=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: host-cache-bytes must be 0 (read from this machine) or a positive number of bytes, got -1
// On a GPU the same shapes still fit or fail for real (shared memory is a
// hard limit there): sm_75's FMA kernel cannot hold a 256-wide f32 row in
// registers, and says so.
// RUN: not fa-opt %s "--fa-select-tiles=target=sm_75" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: error: 'fa.attention' op no tiling fits on sm_75: the smallest (16 x 16, 1 warp, 1 stage) needs about 368 registers per thread; sm_75 allows 255

// L1: "pass":"forward"{{.*}}"dtype":"f32","target":"host","policy":"auto","block_q":16,"block_kv":16,{{.*}}"smem_bytes":33920,"smem_limit":32768,{{.*}}"why":"target host from the pass option; no tile of fa2's search (16 to 256) fits the host's 32.0 KiB of cache; the host never refuses for size: 16 x 16, 1 warp, 1 stage runs past it: its 33.1 KiB of scratch exceed the host's 32.0 KiB of cache, which costs speed, not correctness
// TINY: "pass":"forward"{{.*}}"dtype":"f32","target":"host","policy":"auto","block_q":16,"block_kv":16,{{.*}}"why":"target host from the pass option; no tile of fa2's search (16 to 256) fits the host's 4.0 KiB of cache; the host never refuses for size: 16 x 16, 1 warp, 1 stage runs past it: its {{.*}} of scratch exceed the host's 4.0 KiB of cache, which costs speed, not correctness
// TINY-FA2: "policy":"fa2","block_q":16,"block_kv":16,{{.*}}no tile of fa2's search (16 to 256) fits the host's 4.0 KiB of cache
func.func @f32_d128(%q: tensor<1x8x1000x128xf32>) -> tensor<1x8x1000x128xf32> {
  %o = fa.attention %q, %q, %q scale = 0.1
      : tensor<1x8x1000x128xf32>, tensor<1x8x1000x128xf32>, tensor<1x8x1000x128xf32> -> tensor<1x8x1000x128xf32>
  return %o : tensor<1x8x1000x128xf32>
}

// Shorter than the fallback tile: it covers the sequence and no more.
// policy=fa1 takes its formula's tile shrunk as far as 1 x 1 where that
// fits (@f32_d128: 2 x 1); at d = 256 even 1 x 1 needs 4108 bytes.
// TINY-FA1: "nq":7,{{.*}}"policy":"fa1","block_q":7,"block_kv":5,{{.*}}fa1's formula finds no tile that fits the host's 4.0 KiB of cache, even shrunk to the smallest (1 x 1, 1 warp, 1 stage); the host never refuses for size
// TINY: "pass":"forward"{{.*}}"nq":7,"nk":5,{{.*}}"block_q":7,"block_kv":5,{{.*}}the host never refuses for size
func.func @short(%q: tensor<1x1x7x256xf32>, %k: tensor<1x1x5x256xf32>) -> tensor<1x1x7x256xf32> {
  %o = fa.attention %q, %k, %k scale = 0.1
      : tensor<1x1x7x256xf32>, tensor<1x1x5x256xf32>, tensor<1x1x5x256xf32> -> tensor<1x1x7x256xf32>
  return %o : tensor<1x1x7x256xf32>
}

// Run-time lengths take the whole fallback tile.
// TINY: "pass":"forward"{{.*}}"nq":null,{{.*}}"block_q":16,"block_kv":16,{{.*}}the host never refuses for size
func.func @dynamic(%q: tensor<1x2x?x256xbf16>) -> tensor<1x2x?x256xbf16> {
  %o = fa.attention %q, %q, %q scale = 0.1 causal = bottom_right
      : tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16> -> tensor<1x2x?x256xbf16>
  return %o : tensor<1x2x?x256xbf16>
}

// The backward pass on the host likewise.
// L1: "pass":"backward"{{.*}}"target":"host"
// TINY: "pass":"backward"{{.*}}"block_q":16,"block_kv":16,{{.*}}backward pass: no tile over {8..128}^2 fits the host's 4.0 KiB of cache; the host never refuses for size: 16 x 16, 1 warp runs past it
func.func @train(%q: tensor<1x2x100x256xf32>, %lse: tensor<1x2x100xf32>) -> tensor<1x2x100x256xf32> {
  %dq, %dk, %dv = fa.attention_backward %q, %q, %q, %q, %q, %lse scale = 0.125
      : tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100xf32>
      -> tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>, tensor<1x2x100x256xf32>
  return %dq : tensor<1x2x100x256xf32>
}

// Linear attention: not causal, the host computes Q (K^T V) whole and needs
// no chunk at all; causal, the largest chunk that fits, else 16 past the
// cache.
// L1: "pass":"linear","target":"host","chunk":null,"why":"target host from the pass option; not causal: the host computes Q (K^T V) over the whole sequence and walks no chunk"
// TINY: "pass":"linear","target":"host","chunk":null,
func.func @linear(%q: tensor<1x2x256x64xf32>) -> tensor<1x2x256x64xf32> {
  %o = fa.linear_attention %q, %q, %q scale = 1.0 normalize(eps = 1.0e-6)
      : tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x2x256x64xf32>
  return %o : tensor<1x2x256x64xf32>
}

// L1: "pass":"linear","target":"host","chunk":16,{{.*}}"why":"target host from the pass option; chunk 16: no chunk fits the host's 32768 bytes of cache (16 rows need 57408); the host never refuses for size, past its cache it runs slower, not wrong"
// TINY: "pass":"linear","target":"host","chunk":16,
func.func @linear_causal(%q: tensor<1x2x256x64xf32>) -> tensor<1x2x256x64xf32> {
  %o = fa.linear_attention %q, %q, %q scale = 1.0 causal normalize(eps = 1.0e-6)
      : tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x2x256x64xf32>
  return %o : tensor<1x2x256x64xf32>
}

// A chunk written on the op past the host's cache is kept, with a note.
// L1: "pass":"linear","target":"host","chunk":64,{{.*}}"why":"target host from the pass option; chunk written on the op (its {{[0-9]+}} bytes exceed the host's 32768 of cache, which costs speed, not correctness)"
func.func @linear_given(%q: tensor<1x2x256x64xf32>) -> tensor<1x2x256x64xf32> {
  %o = fa.linear_attention %q, %q, %q scale = 1.0 causal chunk = 64
      : tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32>, tensor<1x2x256x64xf32> -> tensor<1x2x256x64xf32>
  return %o : tensor<1x2x256x64xf32>
}
