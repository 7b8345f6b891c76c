//===- FAInterfaces.td - Interfaces of the fa dialect -------*- tablegen -*-===//
//
// AttentionOpInterface: what fa.attention and fa.attention_backward have in
// common (the operands, the masks, the geometry of keys and the tiling), so
// that the helpers every lowering shares (which key a query sees, the score
// builders, tile selection) take either op.
//
//===----------------------------------------------------------------------===//

#ifndef FA_DIALECT_FA_IR_FAINTERFACES_TD
#define FA_DIALECT_FA_IR_FAINTERFACES_TD

include "mlir/IR/OpBase.td"

def FA_AttentionOpInterface : OpInterface<"AttentionOpInterface"> {
  let cppNamespace = "::mlir::fa";
  let description = [{
    An op that computes (or differentiates) `softmax(scale * Q K^T + mask) V`
    over `[B, H, N, D]` tensors. Optional parts an op does not carry (the
    backward op has no per-sequence lengths, paged caches or packed
    sequences) answer with the interface's defaults: a null value, `false`.
  }];

  let methods = [
    InterfaceMethod<"Q, [B, Hq, Nq, D].",
      "::mlir::TypedValue<::mlir::RankedTensorType>", "getQuery">,
    InterfaceMethod<"K, [B, Hkv, Nk, D] (paged: [P, S, Hkv, D]).",
      "::mlir::TypedValue<::mlir::RankedTensorType>", "getKey">,
    InterfaceMethod<"V, shaped like K with Dv for D.",
      "::mlir::TypedValue<::mlir::RankedTensorType>", "getValue">,
    InterfaceMethod<"The additive bias or i1 keep-mask, or null.",
      "::mlir::TypedValue<::mlir::RankedTensorType>", "getMask">,
    InterfaceMethod<"The score scale.", "::mlir::FloatAttr", "getScaleAttr">,
    InterfaceMethod<"The score of keys the i1 mask hides, or null (-inf).",
      "::mlir::FloatAttr", "getMaskFillAttr">,
    InterfaceMethod<"The causal mask's diagonal, if causal.",
      "::std::optional<::mlir::fa::DiagonalAlignment>", "getCausal">,
    InterfaceMethod<"The sliding window, or null.",
      "::mlir::fa::WindowAttr", "getWindowAttr">,
    InterfaceMethod<"The tile sizes fa-select-tiles chose, or null.",
      "::mlir::fa::TilingAttr", "getTilingAttr">,
    InterfaceMethod<"Hq / Hkv, or ShapedType::kDynamic.",
      "int64_t", "getGroupSize">,
    InterfaceMethod<"True for an i1 keep-mask, false for an additive bias.",
      "bool", "hasBooleanMask">,
    InterfaceMethod<"The score of a key the i1 mask hides: mask_fill, or -inf.",
      "double", "getHiddenScore">,
    InterfaceMethod<"Static Hkv of the logical keys, or ShapedType::kDynamic.",
      "int64_t", "getKeyHeads">,
    InterfaceMethod<"Static Nk of the logical keys, or ShapedType::kDynamic.",
      "int64_t", "getKeyLength">,
    InterfaceMethod<"The dim of K that holds Hkv.", "int64_t", "getKeyHeadsDim",
      (ins), [{}], [{ return 1; }]>,
    InterfaceMethod<"Per-sequence key lengths [B] (i32), or null.",
      "::mlir::Value", "getKvLengths", (ins), [{}], [{ return nullptr; }]>,
    InterfaceMethod<"The page table [B, M] of paged K/V caches, or null.",
      "::mlir::Value", "getPageTable", (ins), [{}], [{ return nullptr; }]>,
    InterfaceMethod<"Prefix sums of packed query sequences, or null.",
      "::mlir::Value", "getCuSeqlensQ", (ins), [{}], [{ return nullptr; }]>,
    InterfaceMethod<"Prefix sums of packed key sequences, or null.",
      "::mlir::Value", "getCuSeqlensK", (ins), [{}], [{ return nullptr; }]>,
    InterfaceMethod<"Per-query-head sink logits [Hq], or null.",
      "::mlir::Value", "getSinks", (ins), [{}], [{ return nullptr; }]>,
    InterfaceMethod<[{The score_mod region's block (score, b, h, q, k) ->
      f32, or null.}], "::mlir::Block *", "getScoreModBlock", (ins), [{}],
      [{ return nullptr; }]>,
    InterfaceMethod<[{The mask_mod region's block (b, h, q, k) -> i1, or
      null.}], "::mlir::Block *", "getMaskModBlock", (ins), [{}],
      [{ return nullptr; }]>,
    InterfaceMethod<"True when K and V are paged caches read through the page table.",
      "bool", "isPaged", (ins), [{}],
      [{ return $_op.getPageTable() != nullptr; }]>,
    InterfaceMethod<"True when the sequences are packed along dim 2.",
      "bool", "isPacked", (ins), [{}],
      [{ return $_op.getCuSeqlensQ() != nullptr; }]>,
  ];
}

#endif // FA_DIALECT_FA_IR_FAINTERFACES_TD
