//===- LengthMask.cpp - Padding masks that are per-sequence lengths -------===//
//
// Stage: recognition. Evaluates a mask's producers symbolically over the key
// index j and a runtime length L (see LengthMask.h). Every value of the
// computation is one of: a constant, j, L, or a step function of `j < L`
// (its value where the key is inside the sequence and its value outside).
// Ops on steps and constants are applied to both values in the op's own
// types, so the final two values are exactly what the program computes.
//
//===----------------------------------------------------------------------===//

#include "LengthMask.h"
#include "Normalization.h"
#include "StructuredView.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::recognition;

namespace {

constexpr unsigned kMaxDepth = 24;

/// What a dim of a tensor means to the mask that reads it.
enum class DimRole {
  Sequence, // the batch axis that picks the sequence (b)
  Key,      // the key position (j)
  Other,    // read at every index; the value must not depend on it
  Fixed     // read at index 0 only
};

/// One scalar of the mask's computation, as a function of (j, L).
struct Sym {
  enum Kind { Const, KeyIndex, Length, Step } kind = Const;
  double value = 0;        // Const
  SequenceLengths lengths; // Length, Step
  /// Step: the value where j < L (inside the sequence) and elsewhere.
  double inside = 0, outside = 0;

  static Sym constant(double value) {
    Sym sym;
    sym.value = value;
    return sym;
  }
};

bool sameLengths(const SequenceLengths &a, const SequenceLengths &b) {
  return a.tensor == b.tensor && a.sequenceDim == b.sequenceDim;
}

/// The scalar operations the evaluator knows, with compares normalized to
/// `lhs < rhs` or `lhs <= rhs` (signed) by swapping operands.
enum class ScalarOp {
  Add, Sub, Mul, Div, Neg, Max, Min, Select,
  Less, LessEq, UnsignedCompare, Equal, NotEqual,
  And, Or, Xor, Not,
  SIToFP, UIToFP, FloatCast, ExtSI, ExtUI, TruncI, IndexCast,
  Other
};

struct OpDesc {
  ScalarOp op = ScalarOp::Other;
  SmallVector<Value, 3> operands;
};

unsigned integerWidth(Type type) {
  type = getElementTypeOrSelf(type);
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return 0;
}

APInt toAPInt(double value, unsigned width) {
  return APInt(width, static_cast<uint64_t>(static_cast<int64_t>(value)),
               /*isSigned=*/true, /*implicitTrunc=*/true);
}

/// i1 values are kept as 0 and 1; wider integers as signed values.
double fromAPInt(const APInt &value) {
  return value.getBitWidth() == 1
             ? static_cast<double>(value.getZExtValue())
             : static_cast<double>(value.getSExtValue());
}

OpDesc describeCompare(arith::CmpIPredicate predicate, Value lhs, Value rhs) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::slt:
    return {ScalarOp::Less, {lhs, rhs}};
  case P::sle:
    return {ScalarOp::LessEq, {lhs, rhs}};
  case P::sgt:
    return {ScalarOp::Less, {rhs, lhs}};
  case P::sge:
    return {ScalarOp::LessEq, {rhs, lhs}};
  case P::eq:
    return {ScalarOp::Equal, {lhs, rhs}};
  case P::ne:
    return {ScalarOp::NotEqual, {lhs, rhs}};
  default:
    return {ScalarOp::UnsignedCompare, {lhs, rhs}};
  }
}

/// arith ops, on scalars in a linalg body or elementwise on tensors.
OpDesc describeArith(Operation *op) {
  auto same = [&](ScalarOp kind) {
    return OpDesc{kind, SmallVector<Value, 3>(op->getOperands())};
  };
  return llvm::TypeSwitch<Operation *, OpDesc>(op)
      .Case<arith::AddFOp, arith::AddIOp>([&](auto) { return same(ScalarOp::Add); })
      .Case<arith::SubFOp, arith::SubIOp>([&](auto) { return same(ScalarOp::Sub); })
      .Case<arith::MulFOp, arith::MulIOp>([&](auto) { return same(ScalarOp::Mul); })
      .Case([&](arith::DivFOp) { return same(ScalarOp::Div); })
      .Case([&](arith::NegFOp) { return same(ScalarOp::Neg); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
          [&](auto) { return same(ScalarOp::Max); })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
          [&](auto) { return same(ScalarOp::Min); })
      .Case([&](arith::SelectOp) { return same(ScalarOp::Select); })
      .Case([&](arith::CmpIOp cmp) {
        return describeCompare(cmp.getPredicate(), cmp.getLhs(), cmp.getRhs());
      })
      .Case([&](arith::AndIOp) { return same(ScalarOp::And); })
      .Case([&](arith::OrIOp) { return same(ScalarOp::Or); })
      .Case([&](arith::XOrIOp) { return same(ScalarOp::Xor); })
      .Case([&](arith::SIToFPOp) { return same(ScalarOp::SIToFP); })
      .Case([&](arith::UIToFPOp) { return same(ScalarOp::UIToFP); })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](auto) { return same(ScalarOp::FloatCast); })
      .Case([&](arith::ExtSIOp) { return same(ScalarOp::ExtSI); })
      .Case([&](arith::ExtUIOp) { return same(ScalarOp::ExtUI); })
      .Case([&](arith::TruncIOp) { return same(ScalarOp::TruncI); })
      .Case([&](arith::IndexCastOp) { return same(ScalarOp::IndexCast); })
      .Default([](Operation *) { return OpDesc{}; });
}

/// TOSA elementwise ops, from their specification.
OpDesc describeTosa(Operation *op) {
  auto same = [&](ScalarOp kind) {
    return OpDesc{kind, SmallVector<Value, 3>(op->getOperands())};
  };
  return llvm::TypeSwitch<Operation *, OpDesc>(op)
      .Case([&](tosa::AddOp) { return same(ScalarOp::Add); })
      .Case([&](tosa::SubOp) { return same(ScalarOp::Sub); })
      .Case([&](tosa::MulOp mul) -> OpDesc {
        auto shiftOp = mul.getShift().getDefiningOp<tosa::ConstOp>();
        auto values = shiftOp ? dyn_cast<DenseIntElementsAttr>(shiftOp.getValues())
                              : nullptr;
        if (!values || !values.isSplat() ||
            !values.getSplatValue<APInt>().isZero())
          return OpDesc{};
        return {ScalarOp::Mul, {mul.getInput1(), mul.getInput2()}};
      })
      .Case([&](tosa::MaximumOp) { return same(ScalarOp::Max); })
      .Case([&](tosa::MinimumOp) { return same(ScalarOp::Min); })
      .Case([&](tosa::SelectOp) { return same(ScalarOp::Select); })
      .Case([&](tosa::GreaterOp op) {
        return OpDesc{ScalarOp::Less, {op.getInput2(), op.getInput1()}};
      })
      .Case([&](tosa::GreaterEqualOp op) {
        return OpDesc{ScalarOp::LessEq, {op.getInput2(), op.getInput1()}};
      })
      .Case([&](tosa::EqualOp) { return same(ScalarOp::Equal); })
      .Case([&](tosa::LogicalNotOp) { return same(ScalarOp::Not); })
      .Case([&](tosa::LogicalAndOp) { return same(ScalarOp::And); })
      .Case([&](tosa::LogicalOrOp) { return same(ScalarOp::Or); })
      .Case([&](tosa::LogicalXorOp) { return same(ScalarOp::Xor); })
      .Case([&](tosa::CastOp cast) -> OpDesc {
        Type from = getElementTypeOrSelf(cast.getInput().getType());
        Type to = getElementTypeOrSelf(cast.getType());
        // TOSA reads a bool as 0 or 1 and other integers as signed.
        if (isa<FloatType>(from) && isa<FloatType>(to))
          return same(ScalarOp::FloatCast);
        if (isa<FloatType>(to))
          return same(from.isInteger(1) ? ScalarOp::UIToFP : ScalarOp::SIToFP);
        if (isa<IntegerType>(from) && isa<IntegerType>(to)) {
          if (integerWidth(to) < integerWidth(from))
            return to.isInteger(1) ? OpDesc{} : same(ScalarOp::TruncI);
          return same(from.isInteger(1) ? ScalarOp::ExtUI : ScalarOp::ExtSI);
        }
        return OpDesc{};
      })
      .Default([](Operation *) { return OpDesc{}; });
}

/// `op` on constant operands, rounded or wrapped in the op's types.
std::optional<double> evaluateScalar(ScalarOp op, ArrayRef<double> args,
                                     Type resultType, Type operandType) {
  resultType = getElementTypeOrSelf(resultType);
  operandType = getElementTypeOrSelf(operandType);
  unsigned width = integerWidth(resultType);
  unsigned operandWidth = integerWidth(operandType);
  bool floatResult = isa<FloatType>(resultType);
  auto round = [&](double value) {
    return foldScalar(ScalarKind::ExtF, {value}, resultType);
  };
  auto integerBinary = [&](auto fn) -> std::optional<double> {
    if (!width || args.size() != 2)
      return std::nullopt;
    return fromAPInt(fn(toAPInt(args[0], width), toAPInt(args[1], width)));
  };
  auto floatBinary = [&](ScalarKind kind) -> std::optional<double> {
    return foldScalar(kind, args, resultType);
  };
  switch (op) {
  case ScalarOp::Add:
    return floatResult ? floatBinary(ScalarKind::Add)
                       : integerBinary([](APInt a, APInt b) { return a + b; });
  case ScalarOp::Sub:
    return floatResult ? floatBinary(ScalarKind::Sub)
                       : integerBinary([](APInt a, APInt b) { return a - b; });
  case ScalarOp::Mul:
    return floatResult ? floatBinary(ScalarKind::Mul)
                       : integerBinary([](APInt a, APInt b) { return a * b; });
  case ScalarOp::Div:
    return floatResult ? floatBinary(ScalarKind::Div) : std::nullopt;
  case ScalarOp::Neg:
    return floatResult ? foldScalar(ScalarKind::Neg, args, resultType)
                       : std::nullopt;
  case ScalarOp::Max:
  case ScalarOp::Min: {
    if (args.size() != 2 || std::isnan(args[0]) || std::isnan(args[1]))
      return std::nullopt;
    double picked = op == ScalarOp::Max ? std::max(args[0], args[1])
                                        : std::min(args[0], args[1]);
    return floatResult ? round(picked) : std::optional<double>(picked);
  }
  case ScalarOp::Select:
    return args[0] != 0 ? args[1] : args[2];
  case ScalarOp::Less:
  case ScalarOp::LessEq:
  case ScalarOp::Equal:
  case ScalarOp::NotEqual: {
    if (!operandWidth)
      return std::nullopt;
    APInt a = toAPInt(args[0], operandWidth), b = toAPInt(args[1], operandWidth);
    if (operandWidth == 1) // i1 compares as 0 < 1 here only for equality
      return op == ScalarOp::Equal      ? std::optional<double>(a == b)
             : op == ScalarOp::NotEqual ? std::optional<double>(a != b)
                                        : std::nullopt;
    switch (op) {
    case ScalarOp::Less:
      return a.slt(b);
    case ScalarOp::LessEq:
      return a.sle(b);
    case ScalarOp::Equal:
      return a == b;
    default:
      return a != b;
    }
  }
  case ScalarOp::And:
    return integerBinary([](APInt a, APInt b) { return a & b; });
  case ScalarOp::Or:
    return integerBinary([](APInt a, APInt b) { return a | b; });
  case ScalarOp::Xor:
    return integerBinary([](APInt a, APInt b) { return a ^ b; });
  case ScalarOp::Not:
    if (width != 1)
      return std::nullopt;
    return args[0] == 0 ? 1.0 : 0.0;
  case ScalarOp::SIToFP:
  case ScalarOp::UIToFP: {
    auto floatType = dyn_cast<FloatType>(resultType);
    if (!floatType || !operandWidth)
      return std::nullopt;
    APFloat result(floatType.getFloatSemantics());
    result.convertFromAPInt(toAPInt(args[0], operandWidth),
                            op == ScalarOp::SIToFP,
                            APFloat::rmNearestTiesToEven);
    bool losesInfo = false;
    result.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
    return result.convertToDouble();
  }
  case ScalarOp::FloatCast:
    return floatResult ? round(args[0]) : std::nullopt;
  case ScalarOp::ExtSI:
  case ScalarOp::IndexCast:
    if (!width || !operandWidth)
      return std::nullopt;
    return fromAPInt(toAPInt(args[0], operandWidth).sextOrTrunc(width));
  case ScalarOp::ExtUI:
    if (!width || !operandWidth)
      return std::nullopt;
    return fromAPInt(toAPInt(args[0], operandWidth).zext(width));
  case ScalarOp::TruncI:
    if (!width || !operandWidth)
      return std::nullopt;
    return fromAPInt(toAPInt(args[0], operandWidth).trunc(width));
  case ScalarOp::UnsignedCompare:
  case ScalarOp::Other:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<double> scalarAttrValue(Attribute attr) {
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return fromAPInt(integer.getValue());
  if (auto floating = dyn_cast<FloatAttr>(attr))
    return floating.getValueAsDouble();
  return std::nullopt;
}

double elementValue(DenseElementsAttr attr, uint64_t index) {
  if (isa<FloatType>(attr.getElementType())) {
    APFloat value = attr.getValues<APFloat>()[index];
    bool losesInfo = false;
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return value.convertToDouble();
  }
  return fromAPInt(attr.getValues<APInt>()[index]);
}

/// Roles of a structured op's loops, from the roles of its result's dims;
/// a loop the result does not read is Other.
std::optional<SmallVector<DimRole>> loopRoles(AffineMap resultMap,
                                              ArrayRef<DimRole> roles) {
  std::optional<SmallVector<std::optional<DimRole>>> loops =
      rolesOfLoops(resultMap, roles);
  if (!loops)
    return std::nullopt;
  SmallVector<DimRole> result;
  for (std::optional<DimRole> role : *loops)
    result.push_back(role.value_or(DimRole::Other));
  return result;
}

/// Roles of an operand's dims, read through `map` from roled loops.
std::optional<SmallVector<DimRole>> operandRoles(AffineMap map,
                                                 ArrayRef<DimRole> loops) {
  SmallVector<std::optional<DimRole>> known(loops.begin(), loops.end());
  return rolesOfOperand<DimRole>(map, known, DimRole::Fixed);
}

class Evaluator {
public:
  explicit Evaluator(int64_t keyLen) : keyLen(keyLen) {}

  /// Set when the mask compares key positions with a length in a way that
  /// is not `j < L` (a remark says so); empty otherwise.
  std::string why;

  std::optional<Sym> tensor(Value value, ArrayRef<DimRole> roles,
                            unsigned depth) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (depth > kMaxDepth || !type ||
        roles.size() != static_cast<size_t>(type.getRank()))
      return std::nullopt;
    Operation *def = value.getDefiningOp();
    if (!def)
      return leaf(value, roles);
    DenseElementsAttr attr;
    if (auto constant = dyn_cast<arith::ConstantOp>(def))
      attr = dyn_cast<DenseElementsAttr>(constant.getValue());
    else if (auto constant = dyn_cast<tosa::ConstOp>(def))
      attr = dyn_cast<DenseElementsAttr>(constant.getValues());
    if (attr)
      return constantTensor(attr, roles);
    if (auto generic = dyn_cast<linalg::GenericOp>(def))
      return genericBody(generic, cast<OpResult>(value).getResultNumber(),
                         roles, depth);
    if (auto fill = dyn_cast<linalg::FillOp>(def)) {
      if (auto constant =
              fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
        if (std::optional<double> scalar =
                scalarAttrValue(constant.getValue()))
          return Sym::constant(*scalar);
      return std::nullopt;
    }
    if (isa<arith::ArithDialect>(def->getDialect())) {
      OpDesc desc = describeArith(def);
      if (desc.op == ScalarOp::Other)
        return std::nullopt;
      return elementwise(def, desc, roles, depth, /*broadcast=*/false);
    }
    if (isa<tosa::TosaDialect>(def->getDialect())) {
      OpDesc desc = describeTosa(def);
      if (desc.op != ScalarOp::Other)
        return elementwise(def, desc, roles, depth, /*broadcast=*/true);
    }
    // Copies (reshapes of unit dims, broadcasts, transposes) through their
    // structured view.
    if (std::optional<StructuredView> view = getStructuredView(value)) {
      if (view->hasReduction() || view->rootNode().kind != ScalarKind::Input ||
          view->inputs.size() != 1)
        return std::nullopt;
      std::optional<SmallVector<DimRole>> loops =
          loopRoles(view->resultMap, roles);
      if (!loops)
        return std::nullopt;
      std::optional<SmallVector<DimRole>> inputRoles =
          operandRoles(view->inputMaps[0], *loops);
      if (!inputRoles)
        return std::nullopt;
      return tensor(view->inputs[0], *inputRoles, depth + 1);
    }
    return leaf(value, roles);
  }

private:
  /// Nk, which bounds the key positions (dynamic allowed).
  int64_t keyLen;

  /// A runtime tensor: the lengths when it is an integer tensor read only
  /// along the sequence dim.
  std::optional<Sym> leaf(Value value, ArrayRef<DimRole> roles) {
    auto type = cast<RankedTensorType>(value.getType());
    if (!integerWidth(type.getElementType()) ||
        type.getElementType().isInteger(1))
      return std::nullopt;
    Sym sym;
    sym.kind = Sym::Length;
    sym.lengths.tensor = value;
    for (auto [dim, role] : llvm::enumerate(roles)) {
      switch (role) {
      case DimRole::Fixed:
        continue;
      case DimRole::Sequence:
        if (sym.lengths.sequenceDim >= 0)
          return std::nullopt;
        sym.lengths.sequenceDim = dim;
        continue;
      case DimRole::Key:
      case DimRole::Other:
        // Data that varies along the key or another axis is not a length.
        if (type.getDimSize(dim) != 1)
          return std::nullopt;
        continue;
      }
    }
    return sym;
  }

  /// A constant tensor: one value, or the key positions 0, 1, ... (iota).
  std::optional<Sym> constantTensor(DenseElementsAttr attr,
                                    ArrayRef<DimRole> roles) {
    if (attr.isSplat())
      return Sym::constant(elementValue(attr, 0));
    auto type = cast<RankedTensorType>(attr.getType());
    int64_t keyDim = -1;
    for (auto [dim, role] : llvm::enumerate(roles)) {
      if (type.getDimSize(dim) == 1)
        continue;
      if (role != DimRole::Key || keyDim >= 0)
        return std::nullopt;
      keyDim = dim;
    }
    if (keyDim < 0 || !integerWidth(type.getElementType()))
      return std::nullopt;
    for (int64_t index = 0; index < type.getDimSize(keyDim); ++index)
      if (elementValue(attr, index) != static_cast<double>(index))
        return std::nullopt;
    Sym sym;
    sym.kind = Sym::KeyIndex;
    return sym;
  }

  /// An elementwise op on tensors; TOSA broadcasts size-1 operand dims.
  std::optional<Sym> elementwise(Operation *op, const OpDesc &desc,
                                 ArrayRef<DimRole> roles, unsigned depth,
                                 bool broadcast) {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<Sym, 3> args;
    for (Value operand : desc.operands) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type || type.getRank() != resultType.getRank())
        return std::nullopt;
      SmallVector<DimRole> dimRoles(roles);
      for (int64_t dim = 0; dim < type.getRank(); ++dim) {
        if (broadcast && type.getDimSize(dim) == 1 &&
            resultType.getDimSize(dim) != 1)
          dimRoles[dim] = DimRole::Fixed;
        else if (!broadcast && type.getDimSize(dim) != resultType.getDimSize(dim))
          return std::nullopt;
      }
      std::optional<Sym> arg = tensor(operand, dimRoles, depth + 1);
      if (!arg)
        return std::nullopt;
      args.push_back(*arg);
    }
    if (args.empty())
      return std::nullopt;
    return apply(desc.op, args, resultType,
                 desc.operands.back().getType());
  }

  /// A linalg.generic: its body, interpreted at symbolic points.
  std::optional<Sym> genericBody(linalg::GenericOp op, unsigned resultNumber,
                                 ArrayRef<DimRole> roles, unsigned depth) {
    if (op.getNumReductionLoops() != 0 || !op.hasPureTensorSemantics())
      return std::nullopt;
    OpOperand *init = op.getDpsInitOperand(resultNumber);
    std::optional<SmallVector<DimRole>> loops =
        loopRoles(op.getMatchingIndexingMap(init), roles);
    if (!loops)
      return std::nullopt;
    Block &body = op.getRegion().front();
    llvm::DenseMap<Value, Sym> values;
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      std::optional<Sym> sym;
      if (isa<RankedTensorType>(input->get().getType())) {
        std::optional<SmallVector<DimRole>> inputRoles =
            operandRoles(op.getMatchingIndexingMap(input), *loops);
        if (inputRoles)
          sym = tensor(input->get(), *inputRoles, depth + 1);
      } else {
        sym = scalarConstant(input->get());
      }
      if (!sym)
        return std::nullopt;
      values[arg] = *sym;
    }
    for (OpOperand &output : op.getDpsInitsMutable())
      if (!body.getArgument(output.getOperandNumber()).use_empty())
        return std::nullopt;
    auto lookup = [&](Value value) -> std::optional<Sym> {
      auto it = values.find(value);
      if (it != values.end())
        return it->second;
      return scalarConstant(value);
    };
    for (Operation &nested : body) {
      if (auto yield = dyn_cast<linalg::YieldOp>(nested))
        return lookup(yield.getOperand(resultNumber));
      if (nested.getNumResults() != 1)
        return std::nullopt;
      std::optional<Sym> result;
      if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
        switch ((*loops)[index.getDim()]) {
        case DimRole::Key:
          result = Sym();
          result->kind = Sym::KeyIndex;
          break;
        case DimRole::Fixed:
          result = Sym::constant(0);
          break;
        default:
          return std::nullopt;
        }
      } else if (auto constant = dyn_cast<arith::ConstantOp>(nested)) {
        std::optional<double> scalar = scalarAttrValue(constant.getValue());
        if (!scalar)
          return std::nullopt;
        result = Sym::constant(*scalar);
      } else {
        OpDesc desc = describeArith(&nested);
        if (desc.op == ScalarOp::Other)
          return std::nullopt;
        SmallVector<Sym, 3> args;
        for (Value operand : desc.operands) {
          std::optional<Sym> arg = lookup(operand);
          if (!arg)
            return std::nullopt;
          args.push_back(*arg);
        }
        result = apply(desc.op, args, nested.getResult(0).getType(),
                       desc.operands.back().getType());
      }
      if (!result)
        return std::nullopt;
      values[nested.getResult(0)] = *result;
    }
    return std::nullopt;
  }

  std::optional<Sym> scalarConstant(Value value) {
    auto constant = value.getDefiningOp<arith::ConstantOp>();
    if (!constant)
      return std::nullopt;
    std::optional<double> scalar = scalarAttrValue(constant.getValue());
    if (!scalar)
      return std::nullopt;
    return Sym::constant(*scalar);
  }

  /// `op` on symbolic operands. `operandType` is the (last) operand's type,
  /// which casts and compares need.
  std::optional<Sym> apply(ScalarOp op, ArrayRef<Sym> args, Type resultType,
                           Type operandType) {
    auto isPosition = [](const Sym &sym) {
      return sym.kind == Sym::KeyIndex || sym.kind == Sym::Length;
    };
    // Casts that keep every value pass j and L through.
    if (args.size() == 1 && isPosition(args[0])) {
      unsigned from = integerWidth(operandType), to = integerWidth(resultType);
      bool keepsValues =
          (op == ScalarOp::ExtSI || op == ScalarOp::IndexCast) && from &&
          to >= from;
      if (args[0].kind == Sym::KeyIndex && to > 1) {
        // 0 <= j < Nk: zero extension keeps it, and so does narrowing to a
        // type that holds Nk - 1 (a dynamic Nk is taken to fit in i32, as
        // the op's kv_lengths are i32).
        int64_t largest = ShapedType::isDynamic(keyLen)
                              ? std::numeric_limits<int32_t>::max()
                              : keyLen - 1;
        bool fits = to >= 64 || largest < (int64_t(1) << (to - 1));
        keepsValues |= op == ScalarOp::ExtUI ||
                       ((op == ScalarOp::IndexCast || op == ScalarOp::TruncI) &&
                        fits);
      }
      if (!keepsValues)
        return std::nullopt;
      return args[0];
    }
    if (llvm::any_of(args, isPosition)) {
      if (args.size() != 2)
        return std::nullopt;
      // With one key (Nk = 1) the key position is always 0: a length
      // compared with the constant 0 is compared with j (an iota of one
      // element is that constant).
      SmallVector<Sym, 2> operands(args);
      if (keyLen == 1)
        for (Sym &operand : operands)
          if (operand.kind == Sym::Const && operand.value == 0 &&
              llvm::any_of(args, [](const Sym &other) {
                return other.kind == Sym::Length;
              }))
            operand.kind = Sym::KeyIndex;
      const Sym &lhs = operands[0], &rhs = operands[1];
      bool keyThenLength =
          lhs.kind == Sym::KeyIndex && rhs.kind == Sym::Length;
      bool lengthThenKey =
          lhs.kind == Sym::Length && rhs.kind == Sym::KeyIndex;
      if (!keyThenLength && !lengthThenKey)
        return std::nullopt;
      const SequenceLengths &lengths = keyThenLength ? rhs.lengths : lhs.lengths;
      Sym step;
      step.kind = Sym::Step;
      step.lengths = lengths;
      if (op == ScalarOp::Less && keyThenLength) { // j < L
        step.inside = 1;
        step.outside = 0;
        return step;
      }
      if (op == ScalarOp::LessEq && lengthThenKey) { // L <= j
        step.inside = 0;
        step.outside = 1;
        return step;
      }
      if (op == ScalarOp::Less || op == ScalarOp::LessEq)
        why = "the key position is compared with the length by `j <= L` "
              "(or `L < j`), which shows one key more than the length; "
              "kv_lengths counts the visible keys";
      else if (op == ScalarOp::UnsignedCompare)
        why = "the key position is compared with the length unsigned, "
              "where a negative length shows every key; kv_lengths clamps "
              "it to 0";
      return std::nullopt;
    }
    // Constants and steps over the same lengths: both values of the step.
    const SequenceLengths *lengths = nullptr;
    for (const Sym &arg : args) {
      if (arg.kind != Sym::Step)
        continue;
      if (lengths && !sameLengths(*lengths, arg.lengths))
        return std::nullopt;
      lengths = &arg.lengths;
    }
    auto valuesAt = [&](bool inside) {
      SmallVector<double, 3> values;
      for (const Sym &arg : args)
        values.push_back(arg.kind == Sym::Const ? arg.value
                         : inside               ? arg.inside
                                                : arg.outside);
      return values;
    };
    std::optional<double> inside =
        evaluateScalar(op, valuesAt(true), resultType, operandType);
    if (!inside)
      return std::nullopt;
    if (!lengths)
      return Sym::constant(*inside);
    std::optional<double> outside =
        evaluateScalar(op, valuesAt(false), resultType, operandType);
    if (!outside)
      return std::nullopt;
    Sym step;
    step.kind = Sym::Step;
    step.lengths = *lengths;
    step.inside = *inside;
    step.outside = *outside;
    return step;
  }
};

} // namespace

std::optional<SequenceLengths> mlir::fa::recognition::classifyLengthMask(
    Value mask, ArrayRef<Axis> labels, MaskMeaning meaning,
    int64_t keyLen, std::optional<Axis> sequence, bool &meanOfValuesRows,
    std::string &why) {
  meanOfValuesRows = false;
  SmallVector<DimRole> roles;
  for (const Axis &axis : labels) {
    if (sequence && axis == *sequence)
      roles.push_back(DimRole::Sequence);
    else if (axis.kind == AxisKind::Key)
      roles.push_back(DimRole::Key);
    else if (axis.kind == AxisKind::Unit)
      roles.push_back(DimRole::Fixed);
    else
      roles.push_back(DimRole::Other);
  }
  Evaluator evaluator(keyLen);
  std::optional<Sym> sym = evaluator.tensor(mask, roles, 0);
  why = evaluator.why;
  if (!sym || sym->kind != Sym::Step)
    return std::nullopt;

  auto format = [](double value) {
    std::string text;
    llvm::raw_string_ostream(text) << llvm::format("%.9g", value);
    return text;
  };
  double inside = sym->inside, outside = sym->outside;
  std::optional<bool> insideShows = maskShows(meaning, inside);
  if (!insideShows || !*insideShows) {
    why = meaning == MaskMeaning::Bias && inside != 0
              ? "the bias adds " + format(inside) +
                    " to keys inside the sequence, not 0"
              : "the mask hides keys inside the sequence (j < L), not only "
                "those past it";
    return std::nullopt;
  }
  if (maskShows(meaning, outside) == false)
    return sym->lengths;
  if (meaning != MaskMeaning::Bias || !(outside < 0))
    return std::nullopt;
  // s + lowest f32 rounds to the lowest f32 for every score below 2^103,
  // so a row with no key inside sees equal scores (the mean of V) and other
  // rows give those keys exp(-3.4e38) = 0: the same as the fill of a
  // select. A lower-precision or larger value does not round so.
  if (getElementTypeOrSelf(mask.getType()).isF32() &&
      outside == -static_cast<double>(std::numeric_limits<float>::max())) {
    meanOfValuesRows = true;
    return sym->lengths;
  }
  why = "the bias hides keys past the length with " + format(outside) +
        ", not -inf or the lowest finite f32: those keys keep a weight (all "
        "of it in a row of a length-0 sequence), so it stays a bias";
  return std::nullopt;
}
