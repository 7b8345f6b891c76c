// A linear attention whose product is scaled by a factor that a frontend
// computed from constants in several elementwise ops on tensors: 0.5
// written as ((((2 + 3) · 2 − 2) / 2) / 8), five linalg.generic deep over
// a splat constant. No pass before the recognizer folds linalg.generic on
// constants; the scalar form evaluates the chain as it is built, so the
// scale comes out exactly 0.5 and the chain is gone.
// RUN: fa-opt %s --fa-raise-attention | FileCheck %s
// CHECK-LABEL: func.func @factor_five_ops_deep
// CHECK: fa.linear_attention %{{.*}}, %{{.*}}, %{{.*}} scale = 5.000000e-01 causal :
// CHECK-NOT: linalg.generic

!t = tensor<1x2x16x4xf32>
!s = tensor<1x2x16x16xf32>
#id = affine_map<(b, h, i, d) -> (b, h, i, d)>
#ids = affine_map<(b, h, i, j) -> (b, h, i, j)>
#q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#sc = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#w = affine_map<(b, h, i, e, j) -> (b, h, i, j)>
#v = affine_map<(b, h, i, e, j) -> (b, h, j, e)>
#o = affine_map<(b, h, i, e, j) -> (b, h, i, e)>
#par4 = ["parallel", "parallel", "parallel", "parallel"]
#qk = ["parallel", "parallel", "parallel", "parallel", "reduction"]

func.func @factor_five_ops_deep(%q: !t, %k: !t, %v: !t) -> !t {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %eight = arith.constant 8.0 : f32
  %es = tensor.empty() : !s
  %c2 = arith.constant dense<2.0> : !s
  %f1 = linalg.generic {indexing_maps = [#ids, #ids], iterator_types = #par4}
      ins(%c2 : !s) outs(%es : !s) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %three : f32
    linalg.yield %r : f32
  } -> !s
  %f2 = linalg.generic {indexing_maps = [#ids, #ids], iterator_types = #par4}
      ins(%f1 : !s) outs(%es : !s) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %two : f32
    linalg.yield %r : f32
  } -> !s
  %f3 = linalg.generic {indexing_maps = [#ids, #ids], iterator_types = #par4}
      ins(%f2 : !s) outs(%es : !s) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.subf %x, %two : f32
    linalg.yield %r : f32
  } -> !s
  %f4 = linalg.generic {indexing_maps = [#ids, #ids], iterator_types = #par4}
      ins(%f3 : !s) outs(%es : !s) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %two : f32
    linalg.yield %r : f32
  } -> !s
  %f5 = linalg.generic {indexing_maps = [#ids, #ids], iterator_types = #par4}
      ins(%f4 : !s) outs(%es : !s) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.divf %x, %eight : f32
    linalg.yield %r : f32
  } -> !s
  %zs = linalg.fill ins(%zero : f32) outs(%es : !s) -> !s
  %s = linalg.generic {indexing_maps = [#q, #k, #sc], iterator_types = #qk}
      ins(%q, %k : !t, !t) outs(%zs : !s) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !s
  %w = linalg.generic {indexing_maps = [#ids, #ids, #ids], iterator_types = #par4}
      ins(%s, %f5 : !s, !s) outs(%es : !s) {
  ^bb0(%x: f32, %f: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sle, %j, %i : index
    %y = arith.mulf %x, %f : f32
    %r = arith.select %c, %y, %zero : f32
    linalg.yield %r : f32
  } -> !s
  %et = tensor.empty() : !t
  %zo = linalg.fill ins(%zero : f32) outs(%et : !t) -> !t
  %out = linalg.generic {indexing_maps = [#w, #v, #o], iterator_types = #qk}
      ins(%w, %v : !s, !t) outs(%zo : !t) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> !t
  return %out : !t
}
