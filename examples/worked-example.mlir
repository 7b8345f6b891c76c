// The worked example of docs/Sources.md §1, written the way a frontend emits it
// (TOSA, [B*H, N, D] = [1, 4, 2]): N = 4, d = 2, scale = 1/sqrt(2),
// Q = K = [[1,0],[0,1],[1,1],[0,0]], V = [[1,1],[2,0],[0,2],[1,1]].
// Row 0 of the output is about [0.830, 1.170].
func.func private @printMemrefF32(tensor<*xf32>)

func.func @attention(%q: tensor<1x4x2xf32>, %k: tensor<1x4x2xf32>,
                     %v: tensor<1x4x2xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.70710678118654757> : tensor<1x1x1xf32>}>
      : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<1x4x2xf32>) -> tensor<1x2x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp
      : (tensor<1x4x2xf32>, tensor<1x2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %scaled = tosa.mul %s, %scale, %shift
      : (tensor<1x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
  %max = tosa.reduce_max %scaled {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  %shifted = tosa.sub %scaled, %max : (tensor<1x4x4xf32>, tensor<1x4x1xf32>) -> tensor<1x4x4xf32>
  %e = tosa.exp %shifted : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %p = tosa.mul %e, %inv, %shift
      : (tensor<1x4x4xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp
      : (tensor<1x4x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  return %o : tensor<1x4x2xf32>
}

func.func @main() {
  %qk = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]]>
      : tensor<1x4x2xf32>
  %v = arith.constant dense<[[[1.0, 1.0], [2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]]>
      : tensor<1x4x2xf32>
  %o = call @attention(%qk, %qk, %v)
      : (tensor<1x4x2xf32>, tensor<1x4x2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %printable = tensor.cast %o : tensor<1x4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%printable) : (tensor<*xf32>) -> ()
  return
}
