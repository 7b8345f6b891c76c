//===- FAAttrs.td - Attributes of the fa dialect ------------*- tablegen -*-===//
//
// The attributes that describe which keys a query may see: the alignment of
// the causal diagonal and the sliding window around it.
//
//===----------------------------------------------------------------------===//

#ifndef FA_DIALECT_FA_IR_FAATTRS_TD
#define FA_DIALECT_FA_IR_FAATTRS_TD

include "fa/Dialect/FA/IR/FADialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def FA_DiagonalAlignment : I32EnumAttr<"DiagonalAlignment",
    "where the diagonal of the query/key grid starts when Nq != Nk", [
      I32EnumAttrCase<"top_left", 0>,
      I32EnumAttrCase<"bottom_right", 1>
    ]> {
  // Query row `i` (of `Nq`) sits on key column `i + delta`, where `delta` is
  // `0` for `top_left` and `Nk - Nq` for `bottom_right` (FlashAttention-2's
  // choice: the last query sees the last key). They agree when `Nq == Nk`.
  // A plain enum attribute prints as a bare keyword in op formats.
  let cppNamespace = "::mlir::fa";
}

def FA_WindowAttr : AttrDef<FA_Dialect, "Window"> {
  let mnemonic = "window";
  let summary = "Sliding (local) attention window around the diagonal";
  let description = [{
    Query row `i` sees key `j` only if
    `i + delta - left <= j <= i + delta + right`, with `delta` given by
    `align` (`top_left` or `bottom_right`, as for `causal`). `left` and `right` are non-negative.

    Example: `#fa.window<left = 128, right = 0, align = bottom_right>`.
  }];
  let parameters = (ins "int64_t":$left, "int64_t":$right,
                        "DiagonalAlignment":$align);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // FA_DIALECT_FA_IR_FAATTRS_TD
