//===- RuntimeReport.h - errors reported by emulated kernels -*- C++ -*-===//
//
// Checks that fa-guard-kernel-outputs and fa-emulate-threads-on-cpu build
// into a kernel's CPU model (a store past an output, a cp.async read past its
// source) report what they find at run time, on stderr, and end the program
// with status 1: the test fails by numbers and says where. Private to
// lib/Transforms/GPUEmulation.
//
//===----------------------------------------------------------------------===//

#ifndef FA_LIB_TRANSFORMS_GPUEMULATION_RUNTIMEREPORT_H
#define FA_LIB_TRANSFORMS_GPUEMULATION_RUNTIMEREPORT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::fa {

/// What a check built into an emulated kernel calls when it finds an access
/// out of bounds: libc's fprintf on stderr and exit, which (unlike abort)
/// flushes what the program printed before.
struct RuntimeReport {
  ModuleOp module;
  /// What the checks do, for the errors of declare() ("guard kernel
  /// outputs"), and the prefix of the messages' global names.
  StringRef purpose, symbolPrefix;
  LLVM::LLVMFuncOp fprintf, exit;
  int64_t messages = 0;

  /// Declares stderr, fprintf and exit in the module; fails, with an error
  /// at the module, when it declares them otherwise.
  LogicalResult declare() {
    MLIRContext *ctx = module.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i32 = IntegerType::get(ctx, 32);
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    Operation *stream = module.lookupSymbol("stderr");
    if (!stream)
      LLVM::GlobalOp::create(top, module.getLoc(), ptr, /*isConstant=*/false,
                             LLVM::Linkage::External, "stderr", Attribute());
    else if (auto global = dyn_cast<LLVM::GlobalOp>(stream);
             !global || global.getType() != ptr)
      return module.emitError()
             << "cannot " << purpose
             << ": the module defines 'stderr' as something other than "
                "libc's stream, an llvm.mlir.global of type !llvm.ptr";
    auto fprintfType = LLVM::LLVMFunctionType::get(i32, {ptr, ptr},
                                                   /*isVarArg=*/true);
    auto exitType =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {i32});
    for (auto [name, type] :
         {std::pair{"fprintf", fprintfType}, std::pair{"exit", exitType}}) {
      Operation *declared = module.lookupSymbol(name);
      auto function = dyn_cast_or_null<LLVM::LLVMFuncOp>(declared);
      if (declared && (!function || function.getFunctionType() != type))
        return module.emitError()
               << "cannot " << purpose << ": the module declares '" << name
               << "' otherwise than libc's, an llvm.func of type " << type;
    }
    FailureOr<LLVM::LLVMFuncOp> print = LLVM::lookupOrCreateFn(
        top, module, "fprintf", {ptr, ptr}, i32, /*isVarArg=*/true);
    FailureOr<LLVM::LLVMFuncOp> quit = LLVM::lookupOrCreateFn(
        top, module, "exit", {i32}, LLVM::LLVMVoidType::get(ctx));
    if (failed(print) || failed(quit))
      return failure();
    fprintf = *print;
    exit = *quit;
    return success();
  }

  /// Where `condition` holds: prints `format` with `values` (index values,
  /// printed as %ld) on stderr and exits with status 1.
  void reportIf(OpBuilder &b, Location loc, Value condition, StringRef format,
                ValueRange values) {
    scf::IfOp::create(b, loc, condition, [&](OpBuilder &ib, Location iloc) {
      SmallVector<Value> printed;
      for (Value value : values)
        printed.push_back(
            arith::IndexCastOp::create(ib, iloc, ib.getI64Type(), value));
      report(ib, iloc, format, printed);
      scf::YieldOp::create(ib, iloc);
    });
  }

  /// Prints `format` (a printf format) with `values` on stderr and exits
  /// with status 1.
  void report(OpBuilder &b, Location loc, StringRef format, ValueRange values) {
    MLIRContext *ctx = b.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    // The format as a global of the module (the builder may be filling a
    // region that is not in the module yet).
    std::string name = (symbolPrefix + Twine(messages++)).str();
    std::string bytes = (format + Twine('\0')).str();
    OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
    LLVM::GlobalOp::create(
        top, loc,
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), bytes.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, name,
        top.getStringAttr(bytes));
    Value text = LLVM::AddressOfOp::create(b, loc, ptr, name);
    Value stream = LLVM::LoadOp::create(
        b, loc, ptr, LLVM::AddressOfOp::create(b, loc, ptr, "stderr"));
    SmallVector<Value> arguments = {stream, text};
    llvm::append_range(arguments, values);
    LLVM::CallOp::create(b, loc, fprintf, arguments);
    Value status = LLVM::ConstantOp::create(b, loc, b.getI32Type(), 1);
    LLVM::CallOp::create(b, loc, exit, ValueRange{status});
  }
};


/// `text` with printf's `%` escaped.
inline std::string escapePercent(StringRef text) {
  std::string escaped;
  for (char c : text) {
    escaped += c;
    if (c == '%')
      escaped += '%';
  }
  return escaped;
}

/// `loc` as FILE:LINE:COL where it is one, else as printed.
inline std::string describeLocation(Location loc) {
  std::string where;
  llvm::raw_string_ostream stream(where);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    stream << file.getFilename().getValue() << ":" << file.getLine() << ":"
           << file.getColumn();
  else
    stream << loc;
  return where;
}

} // namespace mlir::fa

#endif // FA_LIB_TRANSFORMS_GPUEMULATION_RUNTIMEREPORT_H
