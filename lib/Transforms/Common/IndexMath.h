//===- IndexMath.h - Index arithmetic for the lowerings ---------*- C++ -*-===//
//
// A small builder of index arithmetic shared by every lowering. What the
// arithmetic means (which key a query sees) is in AttentionGeometry.h.
//
//===----------------------------------------------------------------------===//

#ifndef FA_TRANSFORMS_COMMON_INDEXMATH_H
#define FA_TRANSFORMS_COMMON_INDEXMATH_H

#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::fa {

/// Index arithmetic. Callers build one op per statement (or use
/// addConstant): C++ leaves the order of argument evaluation open, and the IR
/// must not depend on the compiler that built fa-opt.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value addConstant(Value x, int64_t value) {
    Value c = constant(value);
    return add(x, c);
  }

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value floorDiv(Value x, Value y) {
    return arith::FloorDivSIOp::create(b, loc, x, y);
  }
  Value ceilDiv(Value x, Value y) {
    return arith::CeilDivUIOp::create(b, loc, x, y);
  }
  Value divU(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remU(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value le(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, x, y);
  }
  Value gt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, y);
  }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value trueValue() { return arith::ConstantIntOp::create(b, loc, 1, 1); }
  Value notI(Value x) { return arith::XOrIOp::create(b, loc, x, trueValue()); }
  /// Size `index` of a ranked tensor or memref, as an index value.
  Value dim(Value shaped, int64_t index) {
    if (isa<MemRefType>(shaped.getType()))
      return getValueOrCreateConstantIndexOp(
          b, loc, memref::getMixedSize(b, loc, shaped, index));
    return getValueOrCreateConstantIndexOp(
        b, loc, tensor::getMixedSize(b, loc, shaped, index));
  }
};

/// Element `at` of an integer tensor or buffer, as an index.
inline Value loadIndex(IndexMath &math, Value source, ValueRange at) {
  Value element;
  if (isa<MemRefType>(source.getType()))
    element = memref::LoadOp::create(math.b, math.loc, source, at);
  else
    element = tensor::ExtractOp::create(math.b, math.loc, source, at);
  return arith::IndexCastOp::create(math.b, math.loc, math.b.getIndexType(),
                                    element);
}

} // namespace mlir::fa

#endif // FA_TRANSFORMS_COMMON_INDEXMATH_H
