// Inputs and printing for the corpus blocks (test/Integration/Blocks/*.mlir),
// appended to each block by its RUN lines (`cat %s %S/Inputs/runtime.mlir`),
// so that a block holds only the frontend's IR and a short main.
//
// @inputN(seed, sizes...) fills a fresh rank-N tensor with
// 2 sin(0.61 * linear index + seed) + 0.03 * (last index): values of both
// signs whose row maxima move from key to key; callers tensor.cast the
// result to their static shape.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @input2(%seed: f32, %d0: index, %d1: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %l0 = arith.muli %a, %d1 : index
    %l = arith.addi %l0, %b : index
    %v = func.call @wave(%l, %b, %seed) : (index, index, f32) -> f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @input3(%seed: f32, %d0: index, %d1: index, %d2: index) -> tensor<?x?x?xf32> {
  %e = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %l0 = arith.muli %a, %d1 : index
    %l1 = arith.addi %l0, %b : index
    %l2 = arith.muli %l1, %d2 : index
    %l = arith.addi %l2, %c : index
    %v = func.call @wave(%l, %c, %seed) : (index, index, f32) -> f32
    linalg.yield %v : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @input4(%seed: f32, %d0: index, %d1: index, %d2: index, %d3: index) -> tensor<?x?x?x?xf32> {
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %d = linalg.index 3 : index
    %l0 = arith.muli %a, %d1 : index
    %l1 = arith.addi %l0, %b : index
    %l2 = arith.muli %l1, %d2 : index
    %l3 = arith.addi %l2, %c : index
    %l4 = arith.muli %l3, %d3 : index
    %l = arith.addi %l4, %d : index
    %v = func.call @wave(%l, %d, %seed) : (index, index, f32) -> f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @wave(%linear: index, %last: index, %seed: f32) -> f32 {
  %li = arith.index_cast %linear : index to i64
  %lf = arith.sitofp %li : i64 to f32
  %ti = arith.index_cast %last : index to i64
  %tf = arith.sitofp %ti : i64 to f32
  %k = arith.constant 0.61 : f32
  %two = arith.constant 2.0 : f32
  %ramp = arith.constant 0.03 : f32
  %x = arith.mulf %lf, %k : f32
  %y = arith.addf %x, %seed : f32
  %s = math.sin %y : f32
  %w = arith.mulf %s, %two : f32
  %t = arith.mulf %tf, %ramp : f32
  %r = arith.addf %w, %t : f32
  return %r : f32
}
