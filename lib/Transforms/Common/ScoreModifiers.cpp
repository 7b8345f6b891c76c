//===- ScoreModifiers.cpp - score_mod, mask_mod and sinks -----------------===//
//
// Stage: shared by every lowering. See ScoreModifiers.h.
//
//===----------------------------------------------------------------------===//

#include "fa/Transforms/Common/ScoreModifiers.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::fa;

Value mlir::fa::inlineModifier(OpBuilder &b, Block *block, ValueRange args,
                               const IRMapping *captures) {
  IRMapping mapping;
  if (captures)
    mapping = *captures;
  for (auto [argument, value] : llvm::zip_equal(block->getArguments(), args))
    mapping.map(argument, value);
  for (Operation &inner : block->without_terminator()) {
    // A captured tensor that is a buffer where the region is inlined (a
    // kernel's): its reads become loads.
    if (auto extract = dyn_cast<tensor::ExtractOp>(inner)) {
      Value source = mapping.lookupOrDefault(extract.getTensor());
      if (isa<MemRefType>(source.getType())) {
        SmallVector<Value> indices;
        for (Value index : extract.getIndices())
          indices.push_back(mapping.lookupOrDefault(index));
        Value loaded =
            memref::LoadOp::create(b, extract.getLoc(), source, indices);
        mapping.map(extract.getResult(), loaded);
        continue;
      }
    }
    b.clone(inner, mapping);
  }
  auto yield = cast<YieldOp>(block->getTerminator());
  return mapping.lookupOrDefault(yield.getValue());
}

void mlir::fa::applyScoreModifiers(MaskedScore &score, IndexMath &math,
                                   AttentionOpInterface op, Value batch,
                                   Value head, Value row, Value col,
                                   const IRMapping *captures,
                                   bool withMaskMod) {
  if (Block *scoreMod = op.getScoreModBlock())
    score.modifyScore([&](Value scaled) {
      return inlineModifier(math.b, scoreMod,
                            ValueRange{scaled, batch, head, row, col},
                            captures);
    });
  Block *maskMod = op.getMaskModBlock();
  if (maskMod && withMaskMod)
    score.require(inlineModifier(math.b, maskMod,
                                 ValueRange{batch, head, row, col}, captures));
}

SmallVector<Value> mlir::fa::capturedTensors(AttentionOpInterface op) {
  llvm::SetVector<Value> captured;
  for (Block *block : {op.getScoreModBlock(), op.getMaskModBlock()}) {
    if (!block)
      continue;
    for (Operation &inner : *block)
      for (Value operand : inner.getOperands())
        if (isa<RankedTensorType>(operand.getType()) &&
            operand.getParentRegion() != block->getParent())
          captured.insert(operand);
  }
  return captured.takeVector();
}

Value mlir::fa::sinkLogit(IndexMath &math, Value sinks, Value head) {
  Value element;
  if (isa<MemRefType>(sinks.getType()))
    element = memref::LoadOp::create(math.b, math.loc, sinks, head);
  else
    element = tensor::ExtractOp::create(math.b, math.loc, sinks, head);
  return castToF32(math.b, math.loc, element);
}
