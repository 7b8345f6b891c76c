// A ViT self-attention block exported by torch-mlir with debug locations
// kept (every op carries a loc pointing into the model's source). The scale
// is computed in the function, as `head_dim ** -0.5` traced with an i64
// head dim: sitofp to f64, math.sqrt, divf, then truncf to f32, and is
// captured by the scaling generic; Q, K and V come split from one fused
// qkv projection by tensor.extract_slice. Raised: the op's scale is the
// folded constant, and its location is P·V's.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true --mlir-print-debuginfo 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 640 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @vit_attention
// RAISED: fa.attention {{.*}} scale = 2.500000e-01 : {{.*}} loc(#[[PV:.*]])
// RAISED-NOT: math.exp
// RAISED: #[[PV]] = loc("timm/models/vision_transformer.py":93:14)

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#loc1 = loc("timm/models/vision_transformer.py":85:8)
#loc2 = loc("timm/models/vision_transformer.py":89:15)
#loc3 = loc("timm/models/vision_transformer.py":90:15)
#loc4 = loc("timm/models/vision_transformer.py":91:15)
#loc5 = loc("timm/models/vision_transformer.py":93:14)

func.func @vit_attention(%qkv: tensor<3x1x4x10x16xf32>) -> tensor<1x4x10x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
  %cst_0 = arith.constant 0xFF800000 : f32 loc(#loc3)
  %c16_i64 = arith.constant 16 : i64 loc(#loc1)
  %cst_1 = arith.constant 1.000000e+00 : f64 loc(#loc1)
  %0 = arith.sitofp %c16_i64 : i64 to f64 loc(#loc1)
  %1 = math.sqrt %0 : f64 loc(#loc1)
  %2 = arith.divf %cst_1, %1 : f64 loc(#loc1)
  %3 = arith.truncf %2 : f64 to f32 loc(#loc1)
  %q = tensor.extract_slice %qkv[0, 0, 0, 0, 0] [1, 1, 4, 10, 16] [1, 1, 1, 1, 1] : tensor<3x1x4x10x16xf32> to tensor<1x4x10x16xf32> loc(#loc1)
  %k = tensor.extract_slice %qkv[1, 0, 0, 0, 0] [1, 1, 4, 10, 16] [1, 1, 1, 1, 1] : tensor<3x1x4x10x16xf32> to tensor<1x4x10x16xf32> loc(#loc1)
  %v = tensor.extract_slice %qkv[2, 0, 0, 0, 0] [1, 1, 4, 10, 16] [1, 1, 1, 1, 1] : tensor<3x1x4x10x16xf32> to tensor<1x4x10x16xf32> loc(#loc1)
  %4 = tensor.empty() : tensor<1x4x10x10xf32> loc(#loc2)
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1x4x10x10xf32>) -> tensor<1x4x10x10xf32> loc(#loc2)
  %6 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x4x10x16xf32>, tensor<1x4x10x16xf32>) outs(%5 : tensor<1x4x10x10xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %20 = arith.mulf %in, %in_2 : f32 loc(#loc2)
    %21 = arith.addf %out, %20 : f32 loc(#loc2)
    linalg.yield %21 : f32 loc(#loc2)
  } -> tensor<1x4x10x10xf32> loc(#loc2)
  %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6 : tensor<1x4x10x10xf32>) outs(%4 : tensor<1x4x10x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %20 = arith.mulf %in, %3 : f32 loc(#loc2)
    linalg.yield %20 : f32 loc(#loc2)
  } -> tensor<1x4x10x10xf32> loc(#loc2)
  %8 = tensor.empty() : tensor<1x4x10xf32> loc(#loc3)
  %9 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<1x4x10xf32>) -> tensor<1x4x10xf32> loc(#loc3)
  %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%7 : tensor<1x4x10x10xf32>) outs(%9 : tensor<1x4x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %20 = arith.maximumf %in, %out : f32 loc(#loc3)
    linalg.yield %20 : f32 loc(#loc3)
  } -> tensor<1x4x10xf32> loc(#loc3)
  %11 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %10 : tensor<1x4x10x10xf32>, tensor<1x4x10xf32>) outs(%4 : tensor<1x4x10x10xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %20 = arith.subf %in, %in_2 : f32 loc(#loc3)
    %21 = math.exp %20 : f32 loc(#loc3)
    linalg.yield %21 : f32 loc(#loc3)
  } -> tensor<1x4x10x10xf32> loc(#loc3)
  %12 = linalg.fill ins(%cst : f32) outs(%8 : tensor<1x4x10xf32>) -> tensor<1x4x10xf32> loc(#loc3)
  %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%11 : tensor<1x4x10x10xf32>) outs(%12 : tensor<1x4x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %20 = arith.addf %in, %out : f32 loc(#loc3)
    linalg.yield %20 : f32 loc(#loc3)
  } -> tensor<1x4x10xf32> loc(#loc3)
  %14 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %13 : tensor<1x4x10x10xf32>, tensor<1x4x10xf32>) outs(%4 : tensor<1x4x10x10xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %20 = arith.divf %in, %in_2 : f32 loc(#loc4)
    linalg.yield %20 : f32 loc(#loc4)
  } -> tensor<1x4x10x10xf32> loc(#loc4)
  %15 = tensor.empty() : tensor<1x4x10x16xf32> loc(#loc5)
  %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<1x4x10x16xf32>) -> tensor<1x4x10x16xf32> loc(#loc5)
  %17 = linalg.generic {indexing_maps = [#map2, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%14, %v : tensor<1x4x10x10xf32>, tensor<1x4x10x16xf32>) outs(%16 : tensor<1x4x10x16xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %20 = arith.mulf %in, %in_2 : f32 loc(#loc5)
    %21 = arith.addf %out, %20 : f32 loc(#loc5)
    linalg.yield %21 : f32 loc(#loc5)
  } -> tensor<1x4x10x16xf32> loc(#loc5)
  return %17 : tensor<1x4x10x16xf32> loc(#loc5)
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %x0 = call @input4(%s1, %c3, %c4, %c10, %c16) : (f32, index, index, index, index) -> tensor<?x?x?x?xf32>
  %x = tensor.cast %x0 : tensor<?x?x?x?xf32> to tensor<3x4x10x16xf32>
  %qkv = tensor.expand_shape %x [[0, 1], [2], [3], [4]] output_shape [3, 1, 4, 10, 16] : tensor<3x4x10x16xf32> into tensor<3x1x4x10x16xf32>
  %o = call @vit_attention(%qkv) : (tensor<3x1x4x10x16xf32>) -> tensor<1x4x10x16xf32>
  %u = tensor.cast %o : tensor<1x4x10x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
