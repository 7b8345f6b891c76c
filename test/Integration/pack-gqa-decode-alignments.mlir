// A decode step (one query row) over grouped heads, causal in both
// alignments, with tiles chosen for the host. Bottom-right, the diagonal
// passes the last key and hides nothing: the 4 query heads of each key/value
// head may be packed into one block's rows (pack_gqa). Top-left, the one
// row sees key 0 only, and packed rows would each see keys up to their own
// position: the selection must not pack it (issue 31 found a rule that did
// and no test that failed).
// RUN: fa-opt %s --fa-select-tiles=target=host | FileCheck %s --check-prefix=TILES
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: %compare %t.tiled %t.reference --rtol 2e-3 --atol 1e-3
// RUN: fa-opt %s --fa-cpu-pipeline=gpu-kernel=sm_80 | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.reference --rtol 2e-3 --atol 1e-3

// TILES-LABEL: func.func @top_left
// TILES: causal = top_left tiling = <block_q = {{[0-9]+}}, block_kv = {{[0-9]+}}, warps = 1, stages = 1, smem_bytes = {{[0-9]+}}> :
// TILES-LABEL: func.func @bottom_right
// TILES: causal = bottom_right tiling = <{{[^>]*}}pack_gqa = true>

func.func private @printMemrefF32(tensor<*xf32>)

func.func @top_left(%q: tensor<1x8x1x64xf16>, %k: tensor<1x2x48x64xf16>, %v: tensor<1x2x48x64xf16>) -> tensor<1x8x1x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = top_left
      : tensor<1x8x1x64xf16>, tensor<1x2x48x64xf16>, tensor<1x2x48x64xf16> -> tensor<1x8x1x64xf16>
  return %o : tensor<1x8x1x64xf16>
}

func.func @bottom_right(%q: tensor<1x8x1x64xf16>, %k: tensor<1x2x48x64xf16>, %v: tensor<1x2x48x64xf16>) -> tensor<1x8x1x64xf16> {
  %o = fa.attention %q, %k, %v scale = 0.125 causal = bottom_right
      : tensor<1x8x1x64xf16>, tensor<1x2x48x64xf16>, tensor<1x2x48x64xf16> -> tensor<1x8x1x64xf16>
  return %o : tensor<1x8x1x64xf16>
}

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// sin(0.37 (131 h + 29 r + d) + seed), rounded to f16.
func.func @fill(%t: tensor<?x?x?x?xf16>, %seed: f32) -> tensor<?x?x?x?xf16> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf16>) {
  ^bb0(%o: f16):
    %h = linalg.index 1 : index
    %row = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c29 = arith.constant 29 : index
    %a = arith.muli %h, %c131 : index
    %b = arith.muli %row, %c29 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %d : index
    %n = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %n : i64 to f32
    %k = arith.constant 0.37 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    %w = arith.truncf %z : f32 to f16
    linalg.yield %w : f16
  } -> tensor<?x?x?x?xf16>
  return %r : tensor<?x?x?x?xf16>
}

func.func @print(%o: tensor<1x8x1x64xf16>) {
  %w = arith.extf %o : tensor<1x8x1x64xf16> to tensor<1x8x1x64xf32>
  %p = tensor.cast %w : tensor<1x8x1x64xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %eq = tensor.empty(%c1, %c8, %c1, %c64) : tensor<?x?x?x?xf16>
  %ek = tensor.empty(%c1, %c2, %c48, %c64) : tensor<?x?x?x?xf16>
  %fq = call @fill(%eq, %s1) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %fk = call @fill(%ek, %s2) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %fv = call @fill(%ek, %s3) : (tensor<?x?x?x?xf16>, f32) -> tensor<?x?x?x?xf16>
  %q = tensor.cast %fq : tensor<?x?x?x?xf16> to tensor<1x8x1x64xf16>
  %k = tensor.cast %fk : tensor<?x?x?x?xf16> to tensor<1x2x48x64xf16>
  %v = tensor.cast %fv : tensor<?x?x?x?xf16> to tensor<1x2x48x64xf16>
  %tl = call @top_left(%q, %k, %v) : (tensor<1x8x1x64xf16>, tensor<1x2x48x64xf16>, tensor<1x2x48x64xf16>) -> tensor<1x8x1x64xf16>
  call @print(%tl) : (tensor<1x8x1x64xf16>) -> ()
  %br = call @bottom_right(%q, %k, %v) : (tensor<1x8x1x64xf16>, tensor<1x2x48x64xf16>, tensor<1x2x48x64xf16>) -> tensor<1x8x1x64xf16>
  call @print(%br) : (tensor<1x8x1x64xf16>) -> ()
  return
}
