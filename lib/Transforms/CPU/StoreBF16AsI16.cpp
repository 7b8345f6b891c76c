//===- StoreBF16AsI16.cpp - fa-store-bf16-as-i16 --------------------------===//
//
// Stage: CPU pipeline, after the conversion to the LLVM dialect. On hosts
// without bf16 arithmetic (x86 before AVX512-BF16), LLVM promotes every bf16
// value to f32: a `load <16 x bfloat>` becomes sixteen extensions and a
// bitcast of it to `<16 x i16>` sixteen `__truncsfbf2` calls. The emulated
// bf16 GPU kernels move thousands of such vectors, and instruction selection
// took minutes on each. Once `arith-expand{include-bf16}` has turned every
// bf16 conversion into integer bit operations, bf16 only moves data; this
// pass retypes that data as i16 (same size, same bits), so that nothing is
// promoted.
//
// It changes nothing when any operation that computes on bf16 values is
// left (arithmetic, fpext, fptrunc, calls), or when a function's signature
// holds bf16 (its callers outside the module pass bf16 in float registers):
// retyping those would change their meaning.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/CPU/CPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/APFloat.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FASTOREBF16ASI16
#include "fa/Transforms/CPU/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

/// `type` with bf16 replaced by i16 at any depth; null for an identified
/// (named) struct, whose body may be recursive and is not rebuilt here (a
/// module holding one is left alone).
Type retype(Type type) {
  MLIRContext *ctx = type.getContext();
  if (type.isBF16())
    return IntegerType::get(ctx, 16);
  if (auto vector = dyn_cast<VectorType>(type)) {
    Type element = retype(vector.getElementType());
    return element ? vector.clone(element) : Type();
  }
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    Type element = retype(array.getElementType());
    return element ? LLVM::LLVMArrayType::get(element, array.getNumElements())
                   : Type();
  }
  if (auto structure = dyn_cast<LLVM::LLVMStructType>(type)) {
    if (structure.isIdentified())
      return Type();
    SmallVector<Type> body;
    for (Type field : structure.getBody()) {
      body.push_back(retype(field));
      if (!body.back())
        return Type();
    }
    return LLVM::LLVMStructType::getLiteral(ctx, body, structure.isPacked());
  }
  if (auto function = dyn_cast<LLVM::LLVMFunctionType>(type)) {
    Type result = retype(function.getReturnType());
    SmallVector<Type> params;
    for (Type param : function.getParams())
      params.push_back(retype(param));
    if (!result || llvm::is_contained(params, Type()))
      return Type();
    return LLVM::LLVMFunctionType::get(result, params, function.isVarArg());
  }
  return type;
}

bool holdsBF16(Type type) { return retype(type) != type; }

/// Operations that only move or select bf16 data: retyping them as i16
/// keeps every bit.
bool movesDataOnly(Operation *op) {
  return isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::GEPOp, LLVM::AllocaOp,
             LLVM::InsertElementOp, LLVM::ExtractElementOp,
             LLVM::InsertValueOp, LLVM::ExtractValueOp,
             LLVM::ShuffleVectorOp, LLVM::BitcastOp, LLVM::SelectOp,
             LLVM::ConstantOp, LLVM::UndefOp, LLVM::PoisonOp, LLVM::ZeroOp,
             LLVM::MaskedLoadOp, LLVM::MaskedStoreOp, LLVM::BrOp,
             LLVM::CondBrOp, LLVM::SwitchOp, LLVM::ReturnOp, LLVM::LLVMFuncOp,
             LLVM::GlobalOp, LLVM::AddressOfOp, LLVM::MemcpyOp,
             LLVM::MemmoveOp, ModuleOp>(op);
}

bool touchesBF16(Operation *op) {
  auto typed = [](ValueRange values) {
    return llvm::any_of(values,
                        [](Value value) { return holdsBF16(value.getType()); });
  };
  if (typed(op->getOperands()) || typed(op->getResults()))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (typed(block.getArguments()))
        return true;
  return llvm::any_of(op->getAttrs(), [](NamedAttribute named) {
    if (auto type = dyn_cast<TypeAttr>(named.getValue()))
      return holdsBF16(type.getValue());
    if (auto typed = dyn_cast<TypedAttr>(named.getValue()))
      return holdsBF16(typed.getType());
    return false;
  });
}

/// `attr` with bf16 types and values replaced by their i16 bits.
Attribute retypeAttribute(Attribute attr) {
  if (auto type = dyn_cast<TypeAttr>(attr))
    return TypeAttr::get(retype(type.getValue()));
  if (auto number = dyn_cast<FloatAttr>(attr)) {
    if (!number.getType().isBF16())
      return attr;
    return IntegerAttr::get(IntegerType::get(attr.getContext(), 16),
                            number.getValue().bitcastToAPInt());
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (!dense.getElementType().isBF16())
      return attr;
    return dense.bitcast(IntegerType::get(attr.getContext(), 16));
  }
  return attr;
}

struct FAStoreBF16AsI16Pass
    : fa::impl::FAStoreBF16AsI16Base<FAStoreBF16AsI16Pass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Only when every bf16 value just moves: otherwise leave it all alone.
    bool onlyMoves = true;
    module.walk([&](Operation *op) {
      if (!touchesBF16(op))
        return WalkResult::advance();
      bool retypable = true;
      for (Value value : op->getResults())
        retypable &= static_cast<bool>(retype(value.getType()));
      if (auto function = dyn_cast<LLVM::LLVMFuncOp>(op))
        retypable &= !holdsBF16(function.getFunctionType());
      if (!movesDataOnly(op) || !retypable) {
        onlyMoves = false;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!onlyMoves)
      return;

    SmallVector<LLVM::BitcastOp> identities;
    module.walk([&](Operation *op) {
      for (Value result : op->getResults())
        result.setType(retype(result.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            argument.setType(retype(argument.getType()));
      SmallVector<NamedAttribute> attrs(op->getAttrs());
      for (NamedAttribute named : attrs) {
        Attribute retyped = retypeAttribute(named.getValue());
        if (retyped != named.getValue())
          op->setAttr(named.getName(), retyped);
      }
      if (auto cast = dyn_cast<LLVM::BitcastOp>(op))
        if (cast.getArg().getType() == cast.getType())
          identities.push_back(cast);
    });
    // The bitcasts arith-expand wrote between bf16 and i16 are now no-ops.
    for (LLVM::BitcastOp cast : identities) {
      cast.getResult().replaceAllUsesWith(cast.getArg());
      cast.erase();
    }
  }
};

} // namespace
