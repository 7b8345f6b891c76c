//===- NormalizationTest.cpp - Constant folding for the recognizer --------===//
//
// The recognizer folds a frontend's scale expression into one f64. It must
// be exactly what the program computes: each step rounded to its own type,
// and nothing folded whose rounding it cannot know.
//
//===----------------------------------------------------------------------===//

#include "Recognition/Normalization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fa::recognition;

namespace {

class NormalizationTest : public ::testing::Test {
protected:
  NormalizationTest() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        math::MathDialect, tensor::TensorDialect,
                        tosa::TosaDialect>();
  }

  /// The value `func.return` returns in `body` (a function of no args).
  std::optional<double> evaluateReturned(StringRef body, StringRef type) {
    std::string text = ("func.func @f(%arg: f32) -> " + type + " {\n" + body +
                        "\n}")
                           .str();
    module = parseSourceString<ModuleOp>(text, &context);
    if (!module)
      return std::nullopt;
    auto func = cast<func::FuncOp>(module->getBody()->front());
    Operation *ret = func.getBody().front().getTerminator();
    return evaluateConstant(ret->getOperand(0));
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(NormalizationTest, FoldsEachStepInItsOwnType) {
  Type f32 = Float32Type::get(&context);
  Type f64 = Float64Type::get(&context);
  // 1/3 in f32 is not 1/3 in f64.
  EXPECT_EQ(foldScalar(ScalarKind::Div, {1.0, 3.0}, f32),
            static_cast<double>(1.0f / 3.0f));
  EXPECT_EQ(foldScalar(ScalarKind::Div, {1.0, 3.0}, f64), 1.0 / 3.0);
  // 1 + 2^-30 rounds to 1 in f32.
  EXPECT_EQ(foldScalar(ScalarKind::Add, {1.0, std::ldexp(1.0, -30)}, f32), 1.0);
  // exp and log depend on the math library: never folded.
  EXPECT_EQ(foldScalar(ScalarKind::Exp, {1.0}, f32), std::nullopt);
  EXPECT_EQ(foldScalar(ScalarKind::Log, {2.0}, f32), std::nullopt);
}

TEST_F(NormalizationTest, ScaleComputedInF64ThenTruncated) {
  // head_dim ** -0.5 as torch traces it for head_dim = 96.
  std::optional<double> value = evaluateReturned(R"mlir(
  %c = arith.constant 96 : i64
  %f = arith.sitofp %c : i64 to f64
  %r = math.sqrt %f : f64
  %one = arith.constant 1.0 : f64
  %d = arith.divf %one, %r : f64
  %t = arith.truncf %d : f64 to f32
  return %t : f32)mlir",
                                                 "f32");
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, static_cast<double>(static_cast<float>(
                        1.0 / std::sqrt(96.0))));
}

TEST_F(NormalizationTest, SeesThroughSplatsAndReshapes) {
  std::optional<double> value = evaluateReturned(R"mlir(
  %c = arith.constant 8.0 : f32
  %s = tensor.splat %c : tensor<1xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r = tosa.reshape %s, %shape : (tensor<1xf32>, !tosa.shape<4>) -> tensor<1x1x1x1xf32>
  %inv = tosa.reciprocal %r : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %inv : tensor<1x1x1x1xf32>)mlir",
                                                 "tensor<1x1x1x1xf32>");
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, 0.125);
}

TEST_F(NormalizationTest, RuntimeValuesAndInexactRootsAreNotConstants) {
  EXPECT_EQ(evaluateReturned(R"mlir(
  %s = tensor.splat %arg : tensor<4xf32>
  return %s : tensor<4xf32>)mlir",
                             "tensor<4xf32>"),
            std::nullopt);
  // rsqrt(2) is rounded by the math library's own sequence: not folded.
  EXPECT_EQ(evaluateReturned(R"mlir(
  %c = arith.constant 2.0 : f32
  %r = math.rsqrt %c : f32
  return %r : f32)mlir",
                             "f32"),
            std::nullopt);
  // rsqrt of 0 (inf) and of a negative number (NaN) is no scale: not
  // folded (issue 31's operator mutation: `||` -> `&&` in the guard
  // survived).
  for (const char *operand : {"0.0", "-4.0"})
    EXPECT_EQ(evaluateReturned(std::string("  %c = arith.constant ") + operand +
                                   R"mlir( : f32
  %r = math.rsqrt %c : f32
  return %r : f32)mlir",
                               "f32"),
              std::nullopt)
        << "rsqrt(" << operand << ")";
  // rsqrt(64) = 1/8 exactly: folded.
  EXPECT_EQ(evaluateReturned(R"mlir(
  %c = arith.constant 64.0 : f32
  %r = math.rsqrt %c : f32
  return %r : f32)mlir",
                             "f32"),
            0.125);
}

} // namespace
