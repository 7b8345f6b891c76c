//===- FADialect.td - The fa dialect ------------------------*- tablegen -*-===//
//
// The `fa` dialect states attention as one operation so that the compiler can
// tile and fuse it (FlashAttention) instead of materializing the N x N scores.
//
//===----------------------------------------------------------------------===//

#ifndef FA_DIALECT_FA_IR_FADIALECT_TD
#define FA_DIALECT_FA_IR_FADIALECT_TD

include "mlir/IR/OpBase.td"

def FA_Dialect : Dialect {
  let name = "fa";
  let cppNamespace = "::mlir::fa";
  let summary = "Attention as one operation, for tiled and fused lowering";
  let description = [{
    The `fa` dialect holds `fa.attention`, which states the whole computation
    `softmax(scale * Q * K^T + mask) * V`: the operands, the exact scale, the
    masks (additive, boolean, causal, sliding window), grouped key/value heads
    (GQA/MQA) and an optional logsumexp result. Passes raise frontend IR into it
    (`fa-raise-attention`) and lower it either to the unfused reference
    (`fa-decompose-attention`) or to a tiled FlashAttention kernel.
  }];
  let useDefaultAttributePrinterParser = 1;
}

class FA_Op<string mnemonic, list<Trait> traits = []>
    : Op<FA_Dialect, mnemonic, traits>;

#endif // FA_DIALECT_FA_IR_FADIALECT_TD
