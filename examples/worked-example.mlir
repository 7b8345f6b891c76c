// The worked example of FIELD-NOTES §1: N = 4, d = 2, scale = 1/sqrt(2),
// Q = K = [[1,0],[0,1],[1,1],[0,0]], V = [[1,1],[2,0],[0,2],[1,1]].
// Row 0 of the output is about [0.830, 1.170].
func.func private @printMemrefF32(tensor<*xf32>)

func.func @attention(%q: tensor<1x1x4x2xf32>, %k: tensor<1x1x4x2xf32>,
                     %v: tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32> {
  %o = fa.attention %q, %k, %v scale = 0.70710678118654757
      : tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>
      -> tensor<1x1x4x2xf32>
  return %o : tensor<1x1x4x2xf32>
}

func.func @main() {
  %qk = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]]]>
      : tensor<1x1x4x2xf32>
  %v = arith.constant dense<[[[[1.0, 1.0], [2.0, 0.0], [0.0, 2.0], [1.0, 1.0]]]]>
      : tensor<1x1x4x2xf32>
  %o = call @attention(%qk, %qk, %v)
      : (tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32>
  %printable = tensor.cast %o : tensor<1x1x4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%printable) : (tensor<*xf32>) -> ()
  return
}
