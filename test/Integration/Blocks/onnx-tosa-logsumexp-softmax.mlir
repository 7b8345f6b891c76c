// An ONNX graph imported to TOSA whose softmax was exported as
// exp(log_softmax(x)), the log-sum-exp spelling: P = exp(x - (m + log s))
// with m = max(x) and s = sum(exp(x - m)). The logsumexp is also reshaped to
// [B, N] for an output the graph pruned, so that copy is left dead. Scores
// are divided by a one-element constant reshaped to [1, 1, 1]; V is read
// through an identity tosa.cast. Raised: one fa.attention, scale 0.25.
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-raise-attention=explain=true 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline | %mlir-run > %t.raised
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt --fa-cpu-pipeline=raise=false | %mlir-run > %t.frontend
// RUN: %compare %t.raised %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: cat %s %S/Inputs/runtime.mlir | fa-opt "--fa-cpu-pipeline=max-block-kv=4" | %mlir-run > %t.blocks
// RUN: %compare %t.blocks %t.frontend --rtol 1e-5 | FileCheck %s --check-prefix=SAME
// SAME: MATCH 512 values
// RAISED-NOT: remark
// RAISED-LABEL: func.func @main_graph
// RAISED: fa.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 2.500000e-01 :
// RAISED-NOT: tosa.log
// RAISED: return

func.func @main_graph(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %d = "tosa.const"() <{values = dense<4.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shape3 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %shape2 = tosa.const_shape {values = dense<[4, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %dr = tosa.reshape %d, %shape3 : (tensor<1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %inv_d = tosa.reciprocal %dr : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x16x8xf32>) -> tensor<4x8x16xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x16x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x16xf32>
  %x = tosa.mul %s, %inv_d, %shift : (tensor<4x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %xm = tosa.sub %x, %m : (tensor<4x16x16xf32>, tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
  %e = tosa.exp %xm : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %log = tosa.log %sum : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %lse = tosa.add %m, %log : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %lse_out = tosa.reshape %lse, %shape2 : (tensor<4x16x1xf32>, !tosa.shape<2>) -> tensor<4x16xf32>
  %ls = tosa.sub %x, %lse : (tensor<4x16x16xf32>, tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
  %p = tosa.exp %ls : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %vc = tosa.cast %v : (tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = tosa.matmul %p, %vc, %zp, %zp : (tensor<4x16x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s1 = arith.constant 1.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %q0 = call @input3(%s1, %c4, %c16, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %k0 = call @input3(%s2, %c4, %c16, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %v0 = call @input3(%s3, %c4, %c16, %c8) : (f32, index, index, index) -> tensor<?x?x?xf32>
  %q = tensor.cast %q0 : tensor<?x?x?xf32> to tensor<4x16x8xf32>
  %k = tensor.cast %k0 : tensor<?x?x?xf32> to tensor<4x16x8xf32>
  %v = tensor.cast %v0 : tensor<?x?x?xf32> to tensor<4x16x8xf32>
  %o = call @main_graph(%q, %k, %v) : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %u = tensor.cast %o : tensor<4x16x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
