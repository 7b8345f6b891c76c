//===- TestShapes.h - Shapes and targets the unit tests share --*- C++ -*-===//
//
// The attention shapes and target presets the kernel model's and the tile
// selection's unit tests are written against.
//
//===----------------------------------------------------------------------===//

#ifndef FA_UNITTESTS_TESTSHAPES_H
#define FA_UNITTESTS_TESTSHAPES_H

#include "fa/Kernel/KernelModel.h"
#include "fa/Target/TargetDescription.h"

#include "gtest/gtest.h"

namespace mlir::fa::testing {

/// One batch entry of 16 heads, Nq = Nk = n, D = Dv = d.
inline AttentionShape makeShape(int64_t n, int64_t d, int64_t elementBytes) {
  AttentionShape shape;
  shape.batch = 1;
  shape.heads = 16;
  shape.kvHeads = 16;
  shape.queryLen = n;
  shape.keyLen = n;
  shape.headDim = d;
  shape.valueDim = d;
  shape.elementBytes = elementBytes;
  return shape;
}

/// A preset the tests rely on (a test fails when it is missing).
inline TargetDescription preset(const char *name) {
  std::optional<TargetDescription> target = lookupTargetPreset(name);
  EXPECT_TRUE(target.has_value()) << name;
  return *target;
}

} // namespace mlir::fa::testing

#endif // FA_UNITTESTS_TESTSHAPES_H
