// Tiles a mask_mod hides: the tiled lowering proves per tile, by interval
// arithmetic over the region, that a tile shows no key (skipped: its K and
// V are not loaded) or every key (no element test). With 8 x 4 tiles over
// N = 40 and H = 2 (100 tiles): a document mask (4 documents of 10, ids
// read from a constant), prefix-LM (6-key prefix, then causal), a band
// |q - k| <= 5, and a mask the evaluation cannot bound (k % 3 != 0: every
// tile visited and tested). For the first three the interval test is exact,
// so the report's counts equal a brute-force count over the tiles
// (computed in Python when this file was written: visited = tiles with a
// visible key, whole = tiles with every key visible).
// RUN: fa-opt %s --fa-cpu-pipeline=reference=true | %mlir-run > %t.reference
// RUN: fa-opt %s --fa-cpu-pipeline | %mlir-run > %t.tiled
// RUN: %compare %t.tiled %t.reference | FileCheck %s
// CHECK: MATCH 1600 values
// RUN: fa-opt %s "--fa-select-tiles=target=host report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: "mask_mod_blocks":{"skipped":true,"skips":"tiles","tiles":100,"visited":44,"whole":8}
// REPORT: "mask_mod_blocks":{"skipped":true,"skips":"tiles","tiles":100,"visited":60,"whole":42}
// REPORT: "mask_mod_blocks":{"skipped":true,"skips":"tiles","tiles":100,"visited":52,"whole":0}
// REPORT: "mask_mod_blocks":null
// The GPU kernels walk a query block's key blocks from the first to the
// last it may see (the same interval test, in front of the thread loop)
// and test every element there: for these masks, whose visible blocks are
// contiguous, the same blocks.
// RUN: fa-opt %s "--fa-select-tiles=target=sm_80 report=-" -o /dev/null | FileCheck %s --check-prefix=GPU-REPORT
// GPU-REPORT: "mask_mod_blocks":{"skipped":true,"skips":"range","tiles":100,"visited":44,"whole":0}
// GPU-REPORT: "mask_mod_blocks":{"skipped":true,"skips":"range","tiles":100,"visited":60,"whole":0}
// GPU-REPORT: "mask_mod_blocks":{"skipped":true,"skips":"range","tiles":100,"visited":52,"whole":0}
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %mlir-run > %t.kernel
// RUN: %compare %t.kernel %t.reference | FileCheck %s
// Skipped means not read: V holds NaN at the keys of document 3, so a row
// that reads one of those keys, even with weight 0, is NaN (0 * NaN), as
// every row of the reference is. Rows of documents 0 and 1 (query blocks 0
// and 1) are finite only because the tiles with keys of document 3 are
// skipped for them, by the tiled lowering and by the GPU kernel.
// RUN: fa-opt %s --fa-cpu-pipeline | %run-entry main_nan | FileCheck %s --check-prefix=SKIPPED
// RUN: fa-opt %s "--fa-cpu-pipeline=gpu-kernel=sm_80" | %run-entry main_nan | FileCheck %s --check-prefix=SKIPPED
// SKIPPED: sizes = [1, 2, 16, 4]
// SKIPPED-NOT: nan

func.func private @printMemrefF32(tensor<*xf32>)

func.func @documents(%q: tensor<1x2x40x4xf32>, %k: tensor<1x2x40x4xf32>, %v: tensor<1x2x40x4xf32>) -> (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>) {
  %doc = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]> : tensor<40xi32>
  %o, %l = fa.attention %q, %k, %v scale = 0.5 tiling = <block_q = 8, block_kv = 4, warps = 1, stages = 1> mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %a = tensor.extract %doc[%i] : tensor<40xi32>
    %c = tensor.extract %doc[%j] : tensor<40xi32>
    %same = arith.cmpi eq, %a, %c : i32
    fa.yield %same : i1
  } : tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32> -> tensor<1x2x40x4xf32>, tensor<1x2x40xf32>
  return %o, %l : tensor<1x2x40x4xf32>, tensor<1x2x40xf32>
}

func.func @prefix_lm(%q: tensor<1x2x40x4xf32>, %k: tensor<1x2x40x4xf32>, %v: tensor<1x2x40x4xf32>) -> (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.5 tiling = <block_q = 8, block_kv = 4, warps = 1, stages = 1> mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c6 = arith.constant 6 : index
    %p = arith.cmpi slt, %j, %c6 : index
    %d = arith.cmpi sle, %j, %i : index
    %keep = arith.ori %p, %d : i1
    fa.yield %keep : i1
  } : tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32> -> tensor<1x2x40x4xf32>, tensor<1x2x40xf32>
  return %o, %l : tensor<1x2x40x4xf32>, tensor<1x2x40xf32>
}

func.func @band(%q: tensor<1x2x40x4xf32>, %k: tensor<1x2x40x4xf32>, %v: tensor<1x2x40x4xf32>) -> (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.5 tiling = <block_q = 8, block_kv = 4, warps = 1, stages = 1> mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %d = arith.subi %i, %j : index
    %c0 = arith.constant 0 : index
    %n = arith.subi %c0, %d : index
    %a = arith.maxsi %d, %n : index
    %c5 = arith.constant 5 : index
    %keep = arith.cmpi sle, %a, %c5 : index
    fa.yield %keep : i1
  } : tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32> -> tensor<1x2x40x4xf32>, tensor<1x2x40xf32>
  return %o, %l : tensor<1x2x40x4xf32>, tensor<1x2x40xf32>
}

func.func @every_third_key_hidden(%q: tensor<1x2x40x4xf32>, %k: tensor<1x2x40x4xf32>, %v: tensor<1x2x40x4xf32>) -> (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>) {
  %o, %l = fa.attention %q, %k, %v scale = 0.5 tiling = <block_q = 8, block_kv = 4, warps = 1, stages = 1> mask_mod {
  ^bb0(%b: index, %h: index, %i: index, %j: index):
    %c3 = arith.constant 3 : index
    %r = arith.remui %j, %c3 : index
    %c0 = arith.constant 0 : index
    %keep = arith.cmpi ne, %r, %c0 : index
    fa.yield %keep : i1
  } : tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32> -> tensor<1x2x40x4xf32>, tensor<1x2x40xf32>
  return %o, %l : tensor<1x2x40x4xf32>, tensor<1x2x40xf32>
}

func.func @input(%seed: f32) -> tensor<1x2x40x4xf32> {
  %e = tensor.empty() : tensor<1x2x40x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x2x40x4xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 1 : index
    %b = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c131 = arith.constant 131 : index
    %c17 = arith.constant 17 : index
    %a1 = arith.muli %a, %c131 : index
    %b1 = arith.muli %b, %c17 : index
    %s0 = arith.addi %a1, %b1 : index
    %s1 = arith.addi %s0, %c : index
    %i = arith.index_cast %s1 : index to i64
    %f = arith.sitofp %i : i64 to f32
    %k = arith.constant 0.7 : f32
    %x = arith.mulf %f, %k : f32
    %y = arith.addf %x, %seed : f32
    %z = math.sin %y : f32
    linalg.yield %z : f32
  } -> tensor<1x2x40x4xf32>
  return %r : tensor<1x2x40x4xf32>
}

func.func @print(%o: tensor<1x2x40x4xf32>, %l: tensor<1x2x40xf32>) {
  %u = tensor.cast %o : tensor<1x2x40x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %w = tensor.cast %l : tensor<1x2x40xf32> to tensor<*xf32>
  call @printMemrefF32(%w) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<1x2x40x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<1x2x40x4xf32>
  %v = call @input(%s3) : (f32) -> tensor<1x2x40x4xf32>
  %o1, %l1 = call @documents(%q, %k, %v) : (tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>) -> (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>)
  call @print(%o1, %l1) : (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>) -> ()
  %o2, %l2 = call @prefix_lm(%q, %k, %v) : (tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>) -> (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>)
  call @print(%o2, %l2) : (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>) -> ()
  %o3, %l3 = call @band(%q, %k, %v) : (tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>) -> (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>)
  call @print(%o3, %l3) : (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>) -> ()
  %o4, %l4 = call @every_third_key_hidden(%q, %k, %v) : (tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>) -> (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>)
  call @print(%o4, %l4) : (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>) -> ()
  return
}

// V with NaN at the keys of document 3 (rows 30 to 39).
func.func @main_nan() {
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q = call @input(%s1) : (f32) -> tensor<1x2x40x4xf32>
  %k = call @input(%s2) : (f32) -> tensor<1x2x40x4xf32>
  %v0 = call @input(%s3) : (f32) -> tensor<1x2x40x4xf32>
  %e = tensor.empty() : tensor<1x2x40x4xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v0 : tensor<1x2x40x4xf32>) outs(%e : tensor<1x2x40x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %j = linalg.index 2 : index
    %c30 = arith.constant 30 : index
    %late = arith.cmpi sge, %j, %c30 : index
    %nan = arith.constant 0x7FC00000 : f32
    %r = arith.select %late, %nan, %x : f32
    linalg.yield %r : f32
  } -> tensor<1x2x40x4xf32>
  %o, %l = call @documents(%q, %k, %v) : (tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>, tensor<1x2x40x4xf32>) -> (tensor<1x2x40x4xf32>, tensor<1x2x40xf32>)
  %first = tensor.extract_slice %o[0, 0, 0, 0] [1, 2, 16, 4] [1, 1, 1, 1] : tensor<1x2x40x4xf32> to tensor<1x2x16x4xf32>
  %u = tensor.cast %first : tensor<1x2x16x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
