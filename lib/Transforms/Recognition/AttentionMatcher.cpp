//===- AttentionMatcher.cpp - Finding attention in tensor programs --------===//
//
// Stage: recognition (what is found). The matcher walks back from a P·V
// contraction through the softmax to Q·Kᵀ. Every tensor on the way carries
// labels, one per dimension, saying which axis of attention it is (batch,
// query, key, head dim, value dim, or a broadcast unit). Labels come only
// from indexing maps, never from sizes, and every op must agree with them:
// a max or sum over anything but the key axis, a contraction over a dim
// that is not the head dim, or a mask read along the wrong axis shows up as
// a label that disagrees, and the candidate is rejected with that reason.
// The order of an operand's dims is free: labels say which dim is which,
// and the rewrite transposes. This file holds the walk from P·V through the
// softmax and the checks of the whole match; the scores below the softmax
// are ScoreMatcher.cpp's, a joint graph's backward JointGraphMatcher.cpp's.
//
//===----------------------------------------------------------------------===//

#include "AttentionMatcher.h"
#include "CausalMask.h"
#include "ChainMatcher.h"
#include "EmptyRowGuard.h"
#include "HeadRepeat.h"
#include "LengthMask.h"
#include "LinearCombinations.h"
#include "Normalization.h"
#include "PagedCache.h"
#include "StructuredView.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cmath>
#include <deque>
#include <limits>

using namespace mlir;
using namespace mlir::fa;
using namespace mlir::fa::recognition;
using namespace mlir::fa::recognition::detail;

std::string mlir::fa::recognition::formatLabels(ArrayRef<Axis> labels) {
  std::string text = "[";
  for (auto [index, axis] : llvm::enumerate(labels)) {
    if (index)
      text += ", ";
    switch (axis.kind) {
    case AxisKind::Batch:
      text += "batch" + std::to_string(axis.batchIndex);
      if (axis.part)
        text += "." + std::to_string(axis.part);
      break;
    case AxisKind::Query:
      text += "Nq";
      break;
    case AxisKind::Key:
      text += "Nk";
      break;
    case AxisKind::HeadDim:
      text += "D";
      break;
    case AxisKind::ValueDim:
      text += "Dv";
      break;
    case AxisKind::Unit:
      text += "1";
      break;
    case AxisKind::Group:
      text += "G";
      break;
    case AxisKind::GroupedHeads:
      text += "Hkv·G";
      break;
    }
  }
  return text + "]";
}

StringRef mlir::fa::recognition::stringifyRejectCategory(RejectCategory c) {
  switch (c) {
  case RejectCategory::NotCandidate:
    return "not-candidate";
  case RejectCategory::Structure:
    return "structure";
  case RejectCategory::SoftmaxAxis:
    return "softmax-axis";
  case RejectCategory::Contraction:
    return "contraction";
  case RejectCategory::Layout:
    return "layout";
  case RejectCategory::ExternalUse:
    return "external-use";
  case RejectCategory::Scale:
    return "scale";
  case RejectCategory::Mask:
    return "mask";
  case RejectCategory::Type:
    return "type";
  case RejectCategory::Shape:
    return "shape";
  }
  llvm_unreachable("unknown category");
}

namespace mlir::fa::recognition::detail {

/// Labels of the loops of an op, given the labels of its result dims. Loops
/// that do not appear in the result (reductions) stay unset.
std::optional<LoopLabels> labelLoops(const StructuredView &view,
                                     ArrayRef<Axis> resultLabels) {
  return rolesOfLoops(view.resultMap, resultLabels);
}

/// Labels of an operand read through `map` from labelled loops.
std::optional<Labels> labelOperand(AffineMap map,
                                   ArrayRef<std::optional<Axis>> loops) {
  return rolesOfOperand(map, loops, Axis{AxisKind::Unit});
}

Labels canonicalLabels(unsigned numBatchDims, AxisKind rows, AxisKind cols,
                       bool group) {
  Labels labels;
  for (unsigned index = 0; index < numBatchDims; ++index)
    labels.push_back(Axis{AxisKind::Batch, index});
  if (group && rows == AxisKind::Query)
    labels.push_back(Axis{AxisKind::Group});
  labels.push_back(Axis{rows});
  labels.push_back(Axis{cols});
  return labels;
}

/// How a mask tensor hides keys: an i1 keep-mask (a hide-mask when the
/// select keeps its false side), or a float bias.
MaskMeaning meaningOf(Value mask, bool invert) {
  if (!getElementTypeOrSelf(mask.getType()).isInteger(1))
    return MaskMeaning::Bias;
  return invert ? MaskMeaning::Hide : MaskMeaning::Keep;
}

bool isLowestFinite(double value) {
  return value == -static_cast<double>(std::numeric_limits<float>::max()) ||
         value == -65504.0 ||                   // f16
         value == -3.3895313892515355e38;       // bf16
}

std::string formatConstant(double value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.9g", value);
  return text;
}

std::optional<Contraction> getContraction(const StructuredView &view,
                                          bool anyReductions) {
  if (view.inputs.size() != 2)
    return std::nullopt;
  unsigned reductions = llvm::count(view.reductionLoops, true);
  if (reductions == 0 || (reductions > 1 && !anyReductions))
    return std::nullopt;
  const ScalarNode &root = view.rootNode();
  if (root.kind != ScalarKind::Add)
    return std::nullopt;
  auto skipCasts = [&](unsigned index) {
    while (view.node(index).kind == ScalarKind::ExtF)
      index = view.node(index).operands[0];
    return index;
  };
  unsigned lhs = skipCasts(root.operands[0]);
  unsigned rhs = skipCasts(root.operands[1]);
  if (view.node(lhs).kind == ScalarKind::Init)
    std::swap(lhs, rhs);
  if (view.node(rhs).kind != ScalarKind::Init ||
      view.node(lhs).kind != ScalarKind::Mul)
    return std::nullopt;
  const ScalarNode &product = view.node(lhs);
  unsigned a = skipCasts(product.operands[0]);
  unsigned b = skipCasts(product.operands[1]);
  if (view.node(a).kind != ScalarKind::Input ||
      view.node(b).kind != ScalarKind::Input ||
      view.node(a).input == view.node(b).input)
    return std::nullopt;
  for (AffineMap map : view.inputMaps)
    if (!map.isProjectedPermutation())
      return std::nullopt;
  if (!view.resultMap.isProjectedPermutation())
    return std::nullopt;
  return Contraction{static_cast<unsigned>(
      llvm::find(view.reductionLoops, true) - view.reductionLoops.begin())};
}

/// A static slice of a static tensor (tensor.extract_slice with unit
/// strides, or tosa.slice) that keeps the rank: its constant offsets, and
/// the sliced tensor in `source`. False for anything else.
static bool staticSlice(Operation *def, SmallVector<int64_t> &offsets,
                        Value &source) {
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
    if (!slice.hasUnitStride())
      return false;
    for (OpFoldResult offset : slice.getMixedOffsets()) {
      std::optional<int64_t> constant = getConstantIntValue(offset);
      if (!constant)
        return false;
      offsets.push_back(*constant);
    }
    source = slice.getSource();
  } else if (auto slice = dyn_cast<tosa::SliceOp>(def)) {
    if (!tosa::getConstShapeValues(slice.getStart().getDefiningOp(), offsets))
      return false;
    source = slice.getInput1();
  } else {
    return false;
  }
  auto sourceType = cast<RankedTensorType>(source.getType());
  return sourceType.hasStaticShape() &&
         sourceType.getRank() ==
             cast<RankedTensorType>(def->getResult(0).getType()).getRank() &&
         static_cast<int64_t>(offsets.size()) == sourceType.getRank();
}

/// The input of an elementwise float-to-float cast producing `value`
/// (tosa.cast, arith.extf/truncf on tensors, or a linalg op whose body is
/// only that cast, read and written through identity maps), else null.
Value floatCastSource(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumResults() != 1 ||
      !isa<FloatType>(getElementTypeOrSelf(value.getType())))
    return nullptr;
  auto isFloat = [](Value v) {
    return isa<FloatType>(getElementTypeOrSelf(v.getType()));
  };
  if (isa<tosa::CastOp, arith::ExtFOp, arith::TruncFOp>(def))
    return isFloat(def->getOperand(0)) ? def->getOperand(0) : nullptr;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(def);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 1 ||
      linalgOp.getNumReductionLoops() != 0 ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return nullptr;
  Block *body = linalgOp.getBlock();
  if (!llvm::hasSingleElement(body->without_terminator()))
    return nullptr;
  Operation &cast = body->front();
  if (!isa<arith::ExtFOp, arith::TruncFOp>(cast) ||
      cast.getOperand(0) != body->getArgument(0) ||
      body->getTerminator()->getOperand(0) != cast.getResult(0))
    return nullptr;
  Value input = linalgOp.getDpsInputOperand(0)->get();
  return isFloat(input) ? input : nullptr;
}

/// The op slicing `x[..., 0 : N - 1]` out of a static `x[..., N]` (every
/// other dim whole) into `value`, tensor.extract_slice or tosa.slice: how a
/// frontend drops the sink column from the probabilities. Sets `source`.
Operation *sinkColumnSlice(Value value, Value &source) {
  Operation *def = value.getDefiningOp();
  auto resultType = dyn_cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> offsets;
  if (!def || !resultType || !resultType.hasStaticShape() ||
      resultType.getRank() == 0 || !staticSlice(def, offsets, source))
    return nullptr;
  ArrayRef<int64_t> from = cast<RankedTensorType>(source.getType()).getShape();
  ArrayRef<int64_t> to = resultType.getShape();
  if (llvm::any_of(offsets, [](int64_t o) { return o != 0; }))
    return nullptr;
  for (size_t dim = 0; dim + 1 < from.size(); ++dim)
    if (from[dim] != to[dim])
      return nullptr;
  if (to.back() + 1 != from.back())
    return nullptr;
  return def;
}

Operation *lastColumnSlice(Value value, Value &source) {
  Operation *def = value.getDefiningOp();
  auto resultType = dyn_cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> offsets;
  if (!def || !resultType || !resultType.hasStaticShape() ||
      resultType.getRank() == 0 || resultType.getShape().back() != 1 ||
      !staticSlice(def, offsets, source))
    return nullptr;
  ArrayRef<int64_t> from = cast<RankedTensorType>(source.getType()).getShape();
  for (size_t dim = 0; dim + 1 < from.size(); ++dim)
    if (offsets[dim] != 0 || from[dim] != resultType.getDimSize(dim))
      return nullptr;
  if (offsets.back() != from.back() - 1)
    return nullptr;
  return def;
}

/// True when `value` is a constant 0 (a scalar, or a splat tensor), or a
/// linalg.fill of one.
static bool isZero(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    return isZero(fill.getInputs()[0]);
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    attr = dense.isSplat() ? dense.getSplatValue<Attribute>() : Attribute();
  if (auto f = dyn_cast_or_null<FloatAttr>(attr))
    return f.getValue().isZero();
  return false;
}

Operation *zeroColumnPad(Value value, Value &source) {
  Operation *def = value.getDefiningOp();
  auto resultType = dyn_cast<RankedTensorType>(value.getType());
  if (!def || !resultType || !resultType.hasStaticShape() ||
      resultType.getRank() == 0)
    return nullptr;
  int64_t rank = resultType.getRank();
  // The widths added below and above each dim.
  SmallVector<int64_t> low, high;
  if (auto pad = dyn_cast<tensor::PadOp>(def)) {
    Value padding = pad.getConstantPaddingValue();
    if (!padding || !isZero(padding))
      return nullptr;
    for (auto [lo, hi] :
         llvm::zip(pad.getMixedLowPad(), pad.getMixedHighPad())) {
      std::optional<int64_t> l = getConstantIntValue(lo);
      std::optional<int64_t> h = getConstantIntValue(hi);
      if (!l || !h)
        return nullptr;
      low.push_back(*l);
      high.push_back(*h);
    }
    source = pad.getSource();
  } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
    if (!isZero(insert.getDest()) || !insert.hasUnitStride())
      return nullptr;
    auto sourceType = dyn_cast<RankedTensorType>(insert.getSourceType());
    if (!sourceType || sourceType.getRank() != rank)
      return nullptr;
    for (auto [dim, offset] : llvm::enumerate(insert.getMixedOffsets())) {
      std::optional<int64_t> o = getConstantIntValue(offset);
      if (!o)
        return nullptr;
      low.push_back(*o);
      high.push_back(resultType.getDimSize(dim) - *o -
                     sourceType.getDimSize(dim));
    }
    source = insert.getSource();
  } else if (auto pad = dyn_cast<tosa::PadOp>(def)) {
    SmallVector<int64_t> padding;
    if (!tosa::getConstShapeValues(pad.getPadding().getDefiningOp(), padding) ||
        static_cast<int64_t>(padding.size()) != 2 * rank ||
        !isZero(pad.getPadConst()))
      return nullptr;
    for (int64_t dim = 0; dim < rank; ++dim) {
      low.push_back(padding[2 * dim]);
      high.push_back(padding[2 * dim + 1]);
    }
    source = pad.getInput1();
  } else {
    return nullptr;
  }
  for (int64_t dim = 0; dim < rank; ++dim)
    if (low[dim] != 0 || high[dim] != (dim + 1 == rank ? 1 : 0))
      return nullptr;
  return def;
}

/// Finds an exp or a softmax among the producers of `value`, a few ops up.
Operation *findSoftmax(Value value, unsigned depth) {
  if (depth == 0)
    return nullptr;
  Operation *def = value.getDefiningOp();
  if (!def)
    return nullptr;
  if (isa<linalg::SoftmaxOp>(def))
    return def;
  Value sliced;
  if (sinkColumnSlice(value, sliced))
    return findSoftmax(sliced, depth - 1);
  // Reshapes of the batch dim are part of some spellings.
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tosa::ReshapeOp>(
          def))
    return findSoftmax(def->getOperand(0), depth - 1);
  // Only through elementwise ops: an exp behind a reduction or a
  // contraction belongs to another computation (log_softmax, a previous
  // layer).
  std::optional<StructuredView> view = getStructuredView(value);
  if (!view || view->hasReduction())
    return nullptr;
  for (const ScalarNode &node : view->nodes)
    if (node.kind == ScalarKind::Exp)
      return def;
  for (Value input : view->inputs)
    if (Operation *found = findSoftmax(input, depth - 1))
      return found;
  return nullptr;
}

Term *Matcher::resolve(Term *term) {
  while (Term *next = step(term))
    term = next;
  return term;
}

Term *Matcher::resolveQuietly(Term *term) {
  bool wasCollecting = collecting;
  collecting = false;
  term = resolve(term);
  collecting = wasCollecting;
  return term;
}

Term *Matcher::step(Term *term) {
  if (term->kind == ScalarKind::Input && term->value) {
    if (!term->expansionTried) {
      term->expansionTried = true;
      // Between P·V and the softmax, P without the softmax's last key
      // column (attention sinks) may lie under P's batch reshapes and
      // casts (torch-mlir slices [H, G, N, N + 1] before merging [H·G]):
      // the walk goes on with the whole softmax, as run() does for a
      // slice read by P·V itself.
      Value unsliced;
      Operation *slice = nullptr;
      if (inChain && seekingProbabilities && !sinkColumnSliced &&
          !term->labels.empty() && term->labels.back().kind == AxisKind::Key)
        slice = sinkColumnSlice(term->value, unsliced);
      if (slice) {
        sinkColumnSliced = true;
        term->expansion = leaf(unsliced, term->labels);
      }
      // In the chain, a reshape is first read as a split of the batch dim
      // (with H = 1 it could as well be read as a unit dim inserted).
      if (inChain && !term->expansion)
        term->expansion = lookThroughBatchReshape(term);
      if (!term->expansion)
        term->expansion = expand(term);
    }
    if (!term->expansion)
      return nullptr;
    if (collecting)
      (collectInto ? *collectInto : patternOps)
          .insert(term->value.getDefiningOp());
    return term->expansion;
  }
  return nullptr;
}

Term *Matcher::expand(Term *term) {
  std::optional<StructuredView> view = getStructuredView(term->value);
  if (!view || view->hasReduction())
    return nullptr;
  std::optional<LoopLabels> loops = labelLoops(*view, term->labels);
  if (!loops || llvm::any_of(*loops, [](auto &label) { return !label; }))
    return nullptr;
  SmallVector<Term *> nodeTerms;
  for (const ScalarNode &node : view->nodes) {
    if (node.kind == ScalarKind::Input) {
      std::optional<Labels> labels =
          labelOperand(view->inputMaps[node.input], *loops);
      if (!labels)
        return nullptr;
      nodeTerms.push_back(leaf(view->inputs[node.input], *labels));
      continue;
    }
    Term &scalar = terms.emplace_back();
    scalar.kind = node.kind;
    scalar.constant = node.constant;
    scalar.labels = term->labels;
    scalar.scalar = node.scalar;
    scalar.bodyOp = view->op;
    for (unsigned operand : node.operands)
      scalar.operands.push_back(nodeTerms[operand]);
    nodeTerms.push_back(&scalar);
  }
  Term *rootTerm = nodeTerms[view->root];
  // A copy (transpose, broadcast) is its input, read through new labels.
  if (rootTerm->kind != ScalarKind::Input)
    rootTerm->value = term->value;
  return rootTerm;
}

/// A reshape inside the chain that only splits the batch dim into [B, H] or
/// merges it back (frontends compute Q·Kᵀ on [B*H, N, D] and the softmax on
/// [B, H, N, N], or the reverse). The parts are labelled batch0.1 and
/// batch0.2, and their static sizes become the op's B and H.
Term *Matcher::lookThroughBatchReshape(Term *term) {
  Operation *def = term->value.getDefiningOp();
  Value source;
  SmallVector<ReassociationIndices> reassociation;
  bool isExpand = false;
  if (auto expandOp = dyn_cast_or_null<tensor::ExpandShapeOp>(def)) {
    source = expandOp.getSrc();
    reassociation = expandOp.getReassociationIndices();
    isExpand = true;
  } else if (auto collapseOp = dyn_cast_or_null<tensor::CollapseShapeOp>(def)) {
    source = collapseOp.getSrc();
    reassociation = collapseOp.getReassociationIndices();
  } else if (auto reshape = dyn_cast_or_null<tosa::ReshapeOp>(def)) {
    auto sourceType = cast<RankedTensorType>(reshape.getInput1().getType());
    auto resultType = cast<RankedTensorType>(reshape.getType());
    if (!sourceType.hasStaticShape() || !resultType.hasStaticShape() ||
        sourceType.getRank() == resultType.getRank())
      return nullptr;
    isExpand = resultType.getRank() > sourceType.getRank();
    ArrayRef<int64_t> wide =
        isExpand ? resultType.getShape() : sourceType.getShape();
    ArrayRef<int64_t> narrow =
        isExpand ? sourceType.getShape() : resultType.getShape();
    // A split of the leading dim, [B*H, ...] <-> [B, H, ...], is read as
    // such first: with B or H of 1 the inferred grouping could as well put
    // the unit dim with the next one ([2, 20] <-> [2, 1, 20]).
    std::optional<SmallVector<ReassociationIndices>> indices;
    if (wide.size() == narrow.size() + 1 && wide.size() >= 2 &&
        wide[0] * wide[1] == narrow[0] &&
        wide.drop_front(2) == narrow.drop_front(1)) {
      indices.emplace();
      indices->push_back({0, 1});
      for (int64_t dim = 2, e = wide.size(); dim < e; ++dim)
        indices->push_back({dim});
    } else {
      indices = getReassociationIndicesForCollapse(wide, narrow);
    }
    if (!indices)
      return nullptr;
    source = reshape.getInput1();
    reassociation = *indices;
  } else {
    return nullptr;
  }
  // The split side's shape gives the part sizes.
  auto splitType =
      cast<RankedTensorType>(isExpand ? term->value.getType() : source.getType());
  Labels sourceLabels;
  for (auto [index, group] : llvm::enumerate(reassociation)) {
    if (group.size() == 1) {
      if (isExpand)
        sourceLabels.push_back(term->labels[group[0]]);
      else
        sourceLabels.push_back(term->labels[index]);
      continue;
    }
    if (group.size() != 2)
      return nullptr;
    SmallVector<int64_t, 2> sizes = {splitType.getDimSize(group[0]),
                                     splitType.getDimSize(group[1])};
    if (ShapedType::isDynamic(sizes[0]) || ShapedType::isDynamic(sizes[1]))
      return nullptr;
    // [Hkv, G] <-> [Hkv·G]: the query heads merged between two grouped
    // contractions (the group axis stays the op's, merged into its heads
    // in the same order, head k·G + g).
    Axis lastBatch{AxisKind::Batch, numBatchDims - 1};
    if (isExpand && groupAxis && numBatchDims >= 1 &&
        term->labels[group[0]] == lastBatch &&
        term->labels[group[1]].kind == AxisKind::Group) {
      if (!groupedHeads.empty() && groupedHeads != sizes)
        return nullptr;
      groupedHeads = sizes;
      sourceLabels.push_back(Axis{AxisKind::GroupedHeads});
      continue;
    }
    if (!isExpand && term->labels[index].kind == AxisKind::GroupedHeads) {
      if (!groupedHeads.empty() && groupedHeads != sizes)
        return nullptr;
      groupedHeads = sizes;
      sourceLabels.push_back(lastBatch);
      sourceLabels.push_back(Axis{AxisKind::Group});
      continue;
    }
    // Otherwise only the one batch dim of a [B*H, N, ...] computation is
    // split.
    if (numBatchDims != 1)
      return nullptr;
    if (!batchSplit.empty() && batchSplit != sizes)
      return nullptr;
    if (isExpand) {
      // [B*H] -> [B, H]: the result labels must be the two parts.
      Axis outer = term->labels[group[0]], inner = term->labels[group[1]];
      if (outer.kind != AxisKind::Batch || inner.kind != AxisKind::Batch ||
          outer.batchIndex != 0 || outer.part != 1 || inner.batchIndex != 0 ||
          inner.part != 2)
        return nullptr;
      sourceLabels.push_back(Axis{AxisKind::Batch, 0});
    } else {
      // [B, H] -> [B*H]: the merged dim must be the whole batch dim.
      Axis merged = term->labels[index];
      if (merged.kind != AxisKind::Batch || merged.batchIndex != 0 ||
          merged.part != 0)
        return nullptr;
      sourceLabels.push_back(Axis{AxisKind::Batch, 0, 1});
      sourceLabels.push_back(Axis{AxisKind::Batch, 0, 2});
    }
    batchSplit = sizes;
  }
  if (collecting)
    patternOps.insert(def);
  return leaf(source, sourceLabels);
}

bool Matcher::dependsOnContraction(Term *term, unsigned depth) {
  if (depth == 0)
    return false;
  term = resolveQuietly(term);
  if (term->kind == ScalarKind::Input) {
    std::optional<StructuredView> view = getStructuredView(term->value);
    return view && getContraction(*view).has_value();
  }
  return llvm::any_of(term->operands, [&](Term *operand) {
    return dependsOnContraction(operand, depth - 1);
  });
}

/// Any order of the dims is a layout the rewrite can transpose; what must
/// hold is that each axis appears exactly once. `permutation` is set to the
/// transpose from `actual` to `expected` (empty when they agree).
bool Matcher::checkLayout(StringRef name, ArrayRef<Axis> actual,
                          ArrayRef<Axis> expected,
                          SmallVectorImpl<int64_t> &permutation) {
  permutation.clear();
  if (actual == expected)
    return true;
  if (actual.size() == expected.size()) {
    for (const Axis &axis : expected) {
      const Axis *found = llvm::find(actual, axis);
      if (found == actual.end() || llvm::count(actual, axis) != 1)
        break;
      permutation.push_back(found - actual.begin());
    }
    if (permutation.size() == expected.size())
      return true;
    permutation.clear();
  }
  return fail(RejectCategory::Layout,
              name + " is read as " + formatLabels(actual) +
                  ", which is not an order of " + formatLabels(expected));
}

/// Step 1 of run: the root as P·V. Finds the softmax operand P, gives
/// every loop its role (batch, group, query, key, value dim), and checks the
/// layouts of the result, P and V. Returns P and its labels.
std::optional<std::pair<Value, Labels>> Matcher::matchValueContraction() {
  std::optional<StructuredView> view = getStructuredView(root->getResult(0));
  std::optional<Contraction> contraction =
      view ? getContraction(*view, /*anyReductions=*/true) : std::nullopt;
  if (!contraction)
    return reject(RejectCategory::NotCandidate, "not a contraction");
  bool severalReductions = llvm::count(view->reductionLoops, true) > 1;

  // P is the operand computed from a softmax (linear attention: the
  // operand runLinear chose).
  unsigned probsIndex = 0;
  if (linearMode) {
    probsIndex = linearWeightsIndex;
  } else {
    Operation *softmax = findSoftmax(view->inputs[0]);
    if (!softmax) {
      probsIndex = 1;
      softmax = findSoftmax(view->inputs[1]);
    }
    if (!softmax)
      return reject(RejectCategory::NotCandidate, "no softmax feeds it");
    rejection.location = softmax;
  }
  if (severalReductions)
    return reject(RejectCategory::Contraction,
                  "P·V contracts " +
                      Twine(llvm::count(view->reductionLoops, true)) +
                      " dims; attention contracts the key dim alone");
  AffineMap probsMap = view->inputMaps[probsIndex];
  AffineMap valueMap = view->inputMaps[1 - probsIndex];

  if (!view->implicitInit && view->initConstant != 0.0)
    return reject(RejectCategory::Contraction,
                  "P·V accumulates into a tensor that is not zero");

  // Roles of the P·V loops: batch (everywhere), query (P and result),
  // value dim (V and result), key (the reduction, P and V).
  LoopLabels loops(view->numLoops);
  SmallVector<unsigned> batchLoops, queryLoops;
  for (unsigned loop = 0; loop < view->numLoops; ++loop) {
    bool inResult = view->resultMap.isFunctionOfDim(loop);
    bool inProbs = probsMap.isFunctionOfDim(loop);
    bool inValue = valueMap.isFunctionOfDim(loop);
    if (view->reductionLoops[loop]) {
      if (!inProbs || !inValue || inResult)
        return reject(RejectCategory::Contraction,
                      "P·V does not contract P's and V's key dim");
      loops[loop] = Axis{AxisKind::Key};
    } else if (inResult && inProbs && inValue) {
      batchLoops.push_back(loop);
    } else if (inResult && inProbs && !inValue) {
      queryLoops.push_back(loop);
    } else if (inResult && inValue && !inProbs) {
      if (llvm::any_of(loops, [](auto &l) {
            return l && l->kind == AxisKind::ValueDim;
          }))
        return reject(RejectCategory::Contraction,
                      "P·V has more than one value dim");
      loops[loop] = Axis{AxisKind::ValueDim};
    } else {
      return reject(RejectCategory::Contraction,
                    "P·V has a loop that is neither batch, query, key nor "
                    "value dim");
    }
  }
  // Two query-only loops: one is a group axis of query heads that share a
  // K/V head (JAX's grouped GQA contraction). Which one is the sequence
  // shows only in the masks, so matchAttention tries both; either reading
  // that matches computes the same function.
  if (queryLoops.size() > 2)
    return reject(RejectCategory::Contraction,
                  "P·V has more than two query dims");
  if (queryLoops.size() == 2) {
    twoQueryLoops = true;
    groupAxis = true;
    auto positionInProbs = [&](unsigned loop) {
      return *probsMap.getResultPosition(
          getAffineDimExpr(loop, root->getContext()));
    };
    if (positionInProbs(queryLoops[0]) > positionInProbs(queryLoops[1]))
      std::swap(queryLoops[0], queryLoops[1]);
    if (swapQueryAxes)
      std::swap(queryLoops[0], queryLoops[1]);
    loops[queryLoops[0]] = Axis{AxisKind::Group};
    loops[queryLoops[1]] = Axis{AxisKind::Query};
    if (batchLoops.empty())
      return reject(RejectCategory::Contraction,
                    "P·V has two query dims and no K/V head dim for the "
                    "second to group under");
  } else if (queryLoops.size() == 1) {
    loops[queryLoops[0]] = Axis{AxisKind::Query};
  }
  numBatchDims = batchLoops.size();
  if (numBatchDims > 2)
    return reject(RejectCategory::Shape,
                  Twine(numBatchDims) +
                      " batch dims; fa.attention has two ([B, H])");
  // Batch dims are numbered in the order the result lists them.
  unsigned nextBatch = 0;
  for (AffineExpr expr : view->resultMap.getResults()) {
    unsigned loop = cast<AffineDimExpr>(expr).getPosition();
    if (llvm::is_contained(batchLoops, loop))
      loops[loop] = Axis{AxisKind::Batch, nextBatch++};
  }
  if (!llvm::all_of(loops, [](auto &label) { return label.has_value(); }))
    return reject(RejectCategory::Contraction,
                  "P·V lacks a query or a value dim");

  // The op computes [batch..., Nq, Dv]; the result is transposed back to
  // the order P·V writes (the inverse of the permutation that would bring
  // P·V's order to the op's).
  outputLabels = *labelOperand(view->resultMap, loops);
  Labels canonicalOutput =
      canonicalLabels(numBatchDims, AxisKind::Query, AxisKind::ValueDim,
                      groupAxis);
  SmallVector<int64_t, 4> toCanonical;
  if (!checkLayout("the P·V result", outputLabels, canonicalOutput,
                   toCanonical))
    return std::nullopt;
  if (!toCanonical.empty()) {
    match.outputPermutation.resize(toCanonical.size());
    for (auto [index, source] : llvm::enumerate(toCanonical))
      match.outputPermutation[source] = index;
  }
  Labels probsLabels = *labelOperand(probsMap, loops);
  SmallVector<int64_t, 4> probsPermutation;
  if (!checkLayout("P", probsLabels,
                   canonicalLabels(numBatchDims, AxisKind::Query,
                                   AxisKind::Key, groupAxis),
                   probsPermutation))
    return std::nullopt;
  Labels valueLabels = *labelOperand(valueMap, loops);
  match.value = peelOperand(leaf(view->inputs[1 - probsIndex], valueLabels),
                            valueLabels, /*allowScale=*/false);
  this->valueLabels = valueLabels;
  probabilities = view->inputs[probsIndex];
  probabilitiesLabels = probsLabels;
  if (!match.value)
    return reject(RejectCategory::Structure,
                  "V is computed inside the P·V op, not passed as a tensor");
  if (!checkLayout("V", valueLabels,
                   canonicalLabels(numBatchDims, AxisKind::Key,
                                   AxisKind::ValueDim),
                   match.valuePermutation))
    return std::nullopt;

  return std::make_pair(view->inputs[probsIndex], probsLabels);
}

/// Whether widening `from` to `to` keeps every value (f16 and bf16 to f32).
static bool isExactWidening(Type from, Type to) {
  return (from.isF16() || from.isBF16()) && to.isF32();
}

/// Mixed element types made one where a widening is exact: Q and K widened
/// from V's half type (GPT-NeoX, GPT-Neo and diffusers upcast them for the
/// scores) are read before the widening when the result keeps V's type
/// (products of half values are exact in f32, so the op's f32 scores are
/// the frontend's); otherwise V is widened to Q's type in the rewrite.
bool Matcher::unifyElementTypes() {
  Type queryElement = getElementTypeOrSelf(match.query.getType());
  Type keyElement = getElementTypeOrSelf(match.key.getType());
  Type valueElement = getElementTypeOrSelf(match.value.getType());
  if (queryElement == valueElement && keyElement == valueElement)
    return true;
  if (queryElement != keyElement || !isExactWidening(valueElement, queryElement))
    return fail(RejectCategory::Type,
                "Q, K and V have different element types, and V's " +
                    llvm::formatv("{0}", valueElement).str() +
                    " does not widen exactly to Q's and K's " +
                    llvm::formatv("{0}", queryElement).str());
  auto narrowSource = [&](Value tensor) -> Value {
    Value source = floatCastSource(tensor);
    if (!source || getElementTypeOrSelf(source.getType()) != valueElement ||
        !isExactWidening(valueElement, getElementTypeOrSelf(tensor.getType())))
      return nullptr;
    return source;
  };
  Type resultElement = getElementTypeOrSelf(root->getResult(0).getType());
  Value query = narrowSource(match.query), key = narrowSource(match.key);
  if (query && key && resultElement == valueElement) {
    match.query = query;
    match.key = key;
    return true;
  }
  match.widenValueTo = queryElement;
  return true;
}

/// Step 3: the op's own limits on the matched operands (element types,
/// static head dims, sizes the operands share) and their masks. `types`
/// gets Q's and K's types as matched, before step 4 may read K and V from
/// other tensors.
bool Matcher::checkOperands(OperandTypes &types) {
  if (!unifyElementTypes())
    return false;
  // The op's own limits, checked before anything is rewritten.
  auto queryType = types.query = cast<RankedTensorType>(match.query.getType());
  auto keyType = types.key = cast<RankedTensorType>(match.key.getType());
  auto valueType = cast<RankedTensorType>(match.value.getType());
  Type elementType = queryType.getElementType();
  if (!elementType.isF16() && !elementType.isBF16() && !elementType.isF32())
    return fail(RejectCategory::Type,
                "Q has element type " +
                    llvm::formatv("{0}", elementType).str() +
                    "; fa.attention takes f16, bf16 or f32");
  if (keyType.getElementType() != elementType ||
      (valueType.getElementType() != elementType && !match.widenValueTo))
    return fail(RejectCategory::Type,
                "Q, K and V have different element types");
  // Sizes by role: dim `dimOf(p, i)` of a tensor permuted by `p` is the
  // op's dim i.
  auto dimOf = [](ArrayRef<int64_t> permutation, int64_t canonicalDim) {
    return permutation.empty() ? canonicalDim : permutation[canonicalDim];
  };
  // K's and V's rank; Q's has the group axis too where there is one.
  int64_t rank = keyType.getRank();
  int64_t queryRank = queryType.getRank();
  if (queryType.isDynamicDim(dimOf(match.queryPermutation, queryRank - 1)) ||
      valueType.isDynamicDim(dimOf(match.valuePermutation, rank - 1)))
    return fail(RejectCategory::Shape,
                "the head dim is dynamic; fa.attention needs static D and Dv");
  // The frontend's shapes must agree on every axis the operands share
  // (ops like tosa.matmul do not verify it); a transposed operand is
  // compared by role.
  auto sizeOf = [&](Value tensor, ArrayRef<int64_t> permutation,
                    int64_t canonicalDim) {
    return cast<RankedTensorType>(tensor.getType())
        .getDimSize(dimOf(permutation, canonicalDim));
  };
  auto agree = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  struct SharedAxis {
    StringRef name;
    Value lhs;
    ArrayRef<int64_t> lhsPermutation;
    Value rhs;
    ArrayRef<int64_t> rhsPermutation;
    int64_t lhsDim, rhsDim;
  };
  SmallVector<SharedAxis> shared = {
      {"head dim D", match.query, match.queryPermutation, match.key,
       match.keyPermutation, queryRank - 1, rank - 1},
      {"key length Nk", match.key, match.keyPermutation, match.value,
       match.valuePermutation, rank - 2, rank - 2}};
  for (int64_t dim = 0; dim < rank - 2; ++dim) {
    shared.push_back({"batch dim", match.query, match.queryPermutation,
                      match.key, match.keyPermutation, dim, dim});
    shared.push_back({"batch dim", match.query, match.queryPermutation,
                      match.value, match.valuePermutation, dim, dim});
  }
  for (const SharedAxis &axis : shared) {
    int64_t lhs = sizeOf(axis.lhs, axis.lhsPermutation, axis.lhsDim);
    int64_t rhs = sizeOf(axis.rhs, axis.rhsPermutation, axis.rhsDim);
    if (!agree(lhs, rhs))
      return fail(RejectCategory::Shape,
                  llvm::formatv("the operands disagree on the {0}: {1} and "
                                "{2}",
                                axis.name, lhs, rhs)
                      .str());
  }
  if (!extraMasks.empty()) {
    if (!combineMasks())
      return false;
  } else if (match.mask && !checkMask(match.mask, match.maskLabels)) {
    return false;
  }
  // Tensors the score function reads are read like masks.
  for (const ScoreFunctionNode &node : match.scoreFunction)
    if (node.tensor && !checkMask(node.tensor, node.labels))
      return false;

  return true;
}

/// Step 4: grouped heads. K and V repeated per query head are read from
/// their unrepeated heads; a group axis of the queries merges into the
/// K/V head.
bool Matcher::readGroupedHeads(const OperandTypes &types) {
  RankedTensorType queryType = types.query;
  Type elementType = queryType.getElementType();
  auto dimOf = [](ArrayRef<int64_t> permutation, int64_t canonicalDim) {
    return permutation.empty() ? canonicalDim : permutation[canonicalDim];
  };
  // GQA/MQA: K and V repeated per query head the same way are read from
  // their unrepeated heads instead. (Not in a joint graph: its dK and dV are
  // the repeated heads', summed over each group by the program itself, so
  // the op reads the repeated K and V there.)
  if (numBatchDims > 0 && match.keyPermutation.empty() &&
      match.valuePermutation.empty() && !match.backward && !groupAxis) {
    int64_t headDim = numBatchDims - 1;
    std::optional<HeadRepeat> keyRepeat = findHeadRepeat(match.key, headDim);
    std::optional<HeadRepeat> valueRepeat =
        findHeadRepeat(match.value, headDim);
    if (keyRepeat && valueRepeat &&
        keyRepeat->groupSize == valueRepeat->groupSize &&
        getElementTypeOrSelf(keyRepeat->source.getType()) == elementType &&
        getElementTypeOrSelf(valueRepeat->source.getType()) == elementType) {
      match.key = keyRepeat->source;
      match.value = valueRepeat->source;
      match.keyCollapse = keyRepeat->collapse;
      match.valueCollapse = valueRepeat->collapse;
      match.groupSize = keyRepeat->groupSize;
    }
  }

  // A grouped contraction: the group axis merges into the K/V head dim
  // (the last batch dim), so the op's H is Hkv·G.
  if (groupAxis) {
    int64_t groups = queryType.getDimSize(
        dimOf(match.queryPermutation, numBatchDims));
    if (ShapedType::isDynamic(groups))
      return fail(RejectCategory::Shape,
                  "the queries' group axis is dynamic; fa.attention needs "
                  "a static number of query heads per K/V head");
    if (!batchSplit.empty())
      return fail(RejectCategory::Shape,
                  "the queries have a group axis and the softmax splits "
                  "the batch dim: two regroupings of the heads at once");
    if (match.logsumexp)
      return fail(RejectCategory::ExternalUse,
                  "the logsumexp is used outside the pattern, and the "
                  "queries have a group axis");
    match.groupAxis = true;
    match.groupSize = groups;
  }

  return true;
}

/// Step 5: what the frontend computes where a row sees no key, from the
/// mask (a finite fill, a causal mask, per-sequence lengths or a bias), and
/// whether a returned logsumexp has an exact counterpart.
bool Matcher::settleEmptyRows(const OperandTypes &types) {
  if (pendingRemask) {
    // P re-masked by the softmax's own select mask, zeroed where it hides
    // (DeBERTa's XSoftmax): where a row keeps a visible key, the hidden
    // keys' weights are exp(fill - max) = 0 already (a -inf fill, or the
    // lowest finite one below a finite max), so only rows whose every key
    // the mask hides change: to 0, the op's value for a row with no visible
    // key under a -inf fill. Exact only when that mask is the one mask.
    const PendingRemask &remask = *pendingRemask;
    bool ownMask = selectMasks.size() == 1 && extraMasks.empty() &&
                   !masksCombined && match.mask == remask.condition &&
                   selectMasks.front().labels == remask.labels &&
                   selectMasks.front().hidesWhenTrue == remask.zeroWhenTrue &&
                   (fill == -std::numeric_limits<double>::infinity() ||
                    isLowestFinite(fill)) &&
                   match.scoreFunction.empty() && !match.kvLengths &&
                   !match.causal && !match.constantBias;
    if (!ownMask)
      return fail(RejectCategory::Structure,
                  "P is a softmax with some rows set to 0, and " + remask.why +
                      ", not whether every key of the row is -inf, nor the "
                      "softmax's one mask zeroing what it hides");
    fill = -std::numeric_limits<double>::infinity();
  }
  RankedTensorType queryType = types.query, keyType = types.key;
  auto dimOf = [](ArrayRef<int64_t> permutation, int64_t canonicalDim) {
    return permutation.empty() ? canonicalDim : permutation[canonicalDim];
  };
  int64_t rank = keyType.getRank();
  int64_t queryRank = queryType.getRank();
  // What the frontend computes where no key is visible: a mask may hide
  // every key of a row, and a max over no key at all is -inf too.
  int64_t queryLen =
      queryType.getDimSize(dimOf(match.queryPermutation, queryRank - 2));
  int64_t keyLen = keyType.getDimSize(dimOf(match.keyPermutation, rank - 2));
  bool rowsCanBeEmpty = match.mask != nullptr;
  // Several masks were combined already (combineMasks).
  if (masksCombined) {
    rowsCanBeEmpty = match.mask || match.kvLengths ||
                     (match.causal == DiagonalAlignment::bottom_right &&
                      queryLen > keyLen);
  } else
  // A finite fill: hidden keys keep a weight, so the mask stays the op's
  // i1 mask with mask_fill (no causal or length form, which skip keys),
  // and a row whose every key is hidden averages V, as the op computes.
  if (match.mask && std::isfinite(fill) && !isLowestFinite(fill)) {
    match.maskFill = fill;
    rowsCanBeEmpty = false;
  } else if (match.mask) {
    MaskMeaning meaning = meaningOf(match.mask, match.invertMask);
    if (std::optional<DiagonalAlignment> causal = classifyCausalMask(
            match.mask, match.maskLabels, meaning, queryLen, keyLen)) {
      match.causal = causal;
      match.mask = nullptr;
      // Top-left causal always shows key 0; bottom-right hides every key
      // of the first Nq - Nk rows.
      rowsCanBeEmpty =
          *causal == DiagonalAlignment::bottom_right && queryLen > keyLen;
    } else {
      // A padding mask built from per-sequence lengths becomes kv_lengths
      // (rows of a length-0 sequence are empty, so rowsCanBeEmpty stays).
      // The sequence is the op's B: the outer batch dim, or the outer part
      // of a split one; a single batch dim is the op's H, with B = 1.
      std::optional<Axis> sequence;
      if (!batchSplit.empty())
        sequence = Axis{AxisKind::Batch, 0, 1};
      else if (numBatchDims == 2)
        sequence = Axis{AxisKind::Batch, 0};
      bool meanOfValuesRows = false;
      if (std::optional<SequenceLengths> lengths = classifyLengthMask(
              match.mask, match.maskLabels, meaning, keyLen, sequence,
              meanOfValuesRows, match.maskNote)) {
        if (meanOfValuesRows && logSumExpSoftmax) {
          // A sequence of length 0 (or less) biases every key of its rows
          // by the lowest finite value: under the log-sum-exp spelling
          // max + log(sum) rounds to max there and the frontend sums V
          // (the check below, for fills). The lengths are only known at
          // run time, so no rewrite keeps that meaning.
          return fail(RejectCategory::Structure,
                      "the log-sum-exp softmax of a row of a length-0 "
                      "sequence, whose every key the length bias sets to the "
                      "lowest finite value, rounds max + log(sum) to max, so "
                      "the frontend sums V there instead of averaging it");
        } else {
          match.kvLengths = *lengths;
          match.mask = nullptr;
          if (meaning == MaskMeaning::Bias)
            fill = meanOfValuesRows
                       ? -static_cast<double>(std::numeric_limits<float>::max())
                       : -std::numeric_limits<double>::infinity();
        }
      }
    }
  }
  if (match.constantBias && std::isinf(*match.constantBias))
    rowsCanBeEmpty = true;
  // A score function that reads a float tensor or holds -inf may hide a
  // whole row (-inf everywhere); one that holds a huge finite value may
  // fill a whole row with it.
  bool functionHidesKeys = false, functionFillsKeys = false;
  // A tensor whose every element is a small constant (a 0/1 mask made
  // from a boolean, a select between two such constants) neither hides
  // nor fills a key through the function.
  auto isSmallConstant = [&](Term *term) {
    term = peelCasts(term);
    return term->kind == ScalarKind::Constant &&
           std::isfinite(term->constant) && std::abs(term->constant) < 1e30;
  };
  auto bounded = [&](const ScoreFunctionNode &node) {
    Term *term = peelCasts(leaf(node.tensor, node.labels));
    if (term->kind == ScalarKind::BoolToFloat)
      return true;
    return term->kind == ScalarKind::Select &&
           isSmallConstant(term->operands[1]) &&
           isSmallConstant(term->operands[2]);
  };
  // A constant that only a comparison reads (nan_to_num's x == -inf) is
  // no score the function can yield.
  SmallVector<bool> yieldable(match.scoreFunction.size(), false);
  for (const ScoreFunctionNode &node : match.scoreFunction)
    if (node.kind != ScalarKind::Compare)
      for (unsigned operand : node.operands)
        yieldable[operand] = true;
  if (!yieldable.empty())
    yieldable.back() = true; // the root, translated last
  for (auto [number, node] : llvm::enumerate(match.scoreFunction)) {
    if (node.kind == ScalarKind::Constant && !yieldable[number])
      continue;
    if (node.tensor &&
        !getElementTypeOrSelf(node.tensor.getType()).isInteger(1) &&
        !bounded(node))
      functionHidesKeys = functionFillsKeys = true;
    if (node.kind == ScalarKind::Constant && std::isinf(node.constant))
      functionHidesKeys = true;
    if (node.kind == ScalarKind::Constant && std::isfinite(node.constant) &&
        std::abs(node.constant) >= 1e30)
      functionFillsKeys = true;
  }
  rowsCanBeEmpty |= functionHidesKeys;
  if (logSumExpSoftmax && functionFillsKeys)
    // As for a lowest-finite fill below: a row whose every score is about
    // -3.4e38 rounds max + log(sum) to max.
    return fail(RejectCategory::Structure,
                "the log-sum-exp softmax of scores a function may set to a "
                "huge negative value everywhere in a row rounds max + "
                "log(sum) to max, so the frontend sums V there instead of "
                "averaging it");
  rowsCanBeEmpty |= ShapedType::isDynamic(keyLen) || keyLen == 0;
  if (rowsCanBeEmpty)
    match.fullyMaskedRows = isLowestFinite(fill) ? FullyMaskedRows::MeanOfValues
                                                 : FullyMaskedRows::NaN;
  // Under an empty-row guard the frontend's -inf rows are 0, as the op's.
  // (Lowest-finite rows are not -inf: the guard leaves them averaging V.)
  if (emptyRowsGuarded && match.fullyMaskedRows == FullyMaskedRows::NaN)
    match.fullyMaskedRows = FullyMaskedRows::Zero;
  // A row whose every key is filled with the lowest finite value has the
  // max m = -3.4e38, and m + log(sum) rounds to m in f32: the log-sum-exp
  // spelling then gives every key p = 1 and returns the sum of V's rows,
  // not their mean as the plain softmax (and the op) does.
  // (A returned logsumexp is refused below for every fill.)
  if (logSumExpSoftmax && !match.logsumexp &&
      match.fullyMaskedRows == FullyMaskedRows::MeanOfValues)
    return fail(RejectCategory::Structure,
                "the log-sum-exp softmax of a row whose every key is "
                "filled with the lowest finite value rounds "
                "max + log(sum) to max, so the frontend sums V there "
                "instead of averaging it");
  if (match.logsumexp) {
    // The frontend's logsumexp of a row with no visible key depends on
    // how its row max starts (-inf gives NaN, TOSA's lowering starts at the
    // lowest finite value and gets -inf) and on the fill: only rows that
    // always see a key have one exact value.
    if (match.fullyMaskedRows != FullyMaskedRows::NotPossible)
      return fail(RejectCategory::ExternalUse,
                  "the logsumexp is used outside the pattern and a row "
                  "may have no visible key, where the frontend's "
                  "logsumexp has no exact counterpart in the op");
    // Its dims: each score row axis once, in any order, and unit dims.
    Labels rowAxes;
    for (const Axis &axis : match.logsumexpLabels)
      if (axis.kind != AxisKind::Unit)
        rowAxes.push_back(axis);
    bool splitInLse = llvm::any_of(rowAxes, [](const Axis &axis) {
      return axis.kind == AxisKind::Batch && axis.part != 0;
    });
    Labels expected;
    if (!batchSplit.empty() && splitInLse)
      expected = {Axis{AxisKind::Batch, 0, 1}, Axis{AxisKind::Batch, 0, 2}};
    else
      for (unsigned index = 0; index < numBatchDims; ++index)
        expected.push_back(Axis{AxisKind::Batch, index});
    expected.push_back(Axis{AxisKind::Query});
    SmallVector<int64_t, 4> unused;
    if (!checkLayout("the logsumexp", rowAxes, expected, unused))
      return false;
  }

  return true;
}

/// Where the chain splits its one batch dim into [B, H] and the sinks vary
/// along the whole merged dim (gpt-oss: per query head, with the heads
/// split into [Hkv, G] for the softmax), the op takes the merged dim as its
/// heads (B = 1) instead of the split: possible when nothing else reads a
/// part of it (masks, biases, a score function's tensors, a query scale,
/// a returned logsumexp) and nothing needs the op's B (lengths, pages, a
/// backward).
bool Matcher::headsFromSplit() {
  auto readsMerged = [](ArrayRef<Axis> labels) {
    return llvm::any_of(labels, [](const Axis &axis) {
      return axis.kind == AxisKind::Batch && axis.part == 0;
    });
  };
  if (batchSplit.empty() || !match.sinks || match.sinkSplat ||
      !readsMerged(match.sinkLabels))
    return true;
  auto readsPart = [](ArrayRef<Axis> labels) {
    return llvm::any_of(labels, [](const Axis &axis) {
      return axis.kind == AxisKind::Batch && axis.part != 0;
    });
  };
  bool partRead =
      readsPart(match.sinkLabels) ||
      (match.mask && readsPart(match.maskLabels)) ||
      readsPart(match.logsumexpLabels) ||
      llvm::any_of(match.queryScaleParts,
                   [](unsigned part) { return part != 0; }) ||
      llvm::any_of(match.extraBiases,
                   [&](const auto &bias) { return readsPart(bias.second); }) ||
      llvm::any_of(match.scoreFunction, [&](const ScoreFunctionNode &node) {
        return node.tensor && readsPart(node.labels);
      });
  if (numBatchDims != 1 || partRead || match.kvLengths || match.backward ||
      match.groupAxis || match.groupSize > 1)
    return fail(RejectCategory::Mask,
                "the sink column varies along " +
                    formatLabels(Axis{AxisKind::Batch, 0}) +
                    ", which the softmax splits into [B, H]; fa.attention's "
                    "sinks hold one logit per head");
  batchSplit.clear();
  return true;
}

/// Step 6: the match's remaining fields, and K and V read through a page
/// table when they were gathered page by page.
bool Matcher::finishMatch() {
  if (!headsFromSplit())
    return false;
  match.batchSplit = batchSplit;
  match.groupedHeads = groupedHeads;
  if (!groupedHeads.empty() && groupedHeads.back() != match.groupSize)
    return fail(RejectCategory::Shape,
                "the merged heads are split into groups of a different size "
                "than P·V's group");
  if (!batchSplit.empty() && match.groupSize > 1) {
    // The unrepeated heads must carry the same B as the split.
    auto keySource = cast<RankedTensorType>(match.key.getType());
    int64_t sourceBatch =
        match.keyCollapse.empty() ? 1 : keySource.getDimSize(0);
    if (sourceBatch != batchSplit[0])
      return fail(RejectCategory::Shape,
                  "the repeated K/V heads and the softmax split the batch "
                  "dim differently");
  }
  match.root = root;
  match.numBatchDims = numBatchDims;
  match.patternOps.assign(patternOps.begin(), patternOps.end());

  // K and V gathered page by page from paged caches through the same table
  // are read through it instead (last: the checks above see the gathered
  // shapes, which are the logical ones).
  // (Rows that average V need the gathered V: kept as they are.)
  if (numBatchDims == 2 && batchSplit.empty() && match.groupSize == 1 &&
      !match.groupAxis &&
      match.fullyMaskedRows != FullyMaskedRows::MeanOfValues &&
      !match.maskFill && !match.backward) {
    std::optional<PageGather> keyPages =
        findPageGather(match.key, match.keyPermutation);
    std::optional<PageGather> valuePages =
        findPageGather(match.value, match.valuePermutation);
    if (keyPages && valuePages && keyPages->table == valuePages->table) {
      auto keyCache = cast<RankedTensorType>(keyPages->cache.getType());
      auto valueCache = cast<RankedTensorType>(valuePages->cache.getType());
      if (keyCache.getShape().drop_back() ==
          valueCache.getShape().drop_back()) {
        match.key = keyPages->cache;
        match.value = valuePages->cache;
        match.keyPermutation.clear();
        match.valuePermutation.clear();
        match.pageTable = keyPages->table;
      }
    }
  }

  return true;
}

/// Step 7: in a joint graph, what fa.attention_backward can state.
bool Matcher::checkBackward() {
  if (match.backward && match.sinks && groupAxis)
    return fail(RejectCategory::Structure,
                "attention sinks with grouped queries as a group axis in a "
                "training graph (dSinks per [Hkv, G] head is not matched)");
  if (match.backward &&
      llvm::any_of(match.scoreFunction, [](const ScoreFunctionNode &node) {
        return node.tensor || node.kind == ScalarKind::Select ||
               node.kind == ScalarKind::BoolToFloat;
      }))
    return fail(RejectCategory::Mask,
                "a score function that reads a tensor or masks in a "
                "training graph (fa.attention_backward differentiates a "
                "function of the score alone)");
  if (match.backward && !match.extraBiases.empty())
    return fail(RejectCategory::Mask,
                "several biases in a training graph (each bias's gradient "
                "would be the op's grad_mask)");
  if (match.backward && match.maskFactor != 1.0)
    return fail(RejectCategory::Mask,
                "a bias added under a scale in a training graph (its "
                "gradient would need the factor)");
  if (match.backward && match.widenValueTo)
    return fail(RejectCategory::Type,
                "V's element type differs from Q's and K's in a training "
                "graph (dV would be in Q's type)");
  // A joint graph also needs what fa.attention_backward can state.
  // With several masks, a row with no visible key is NaN in the frontend's
  // P, and masked_fill's backward zeroes only the keys its own mask hides:
  // the row's dQ and the head's dK stay NaN unless that mask hides the whole
  // row. A causal mask that never hides a whole row (top-left, or
  // bottom-right with Nq <= Nk) leaves NaN in every empty row's score
  // gradient at the keys it keeps: the row of dQ, and dK at those keys,
  // which the rewrite restores from the op's logsumexp; other select masks
  // on the gradient leave a pattern of NaNs the op's outputs cannot tell.
  if (match.backward && masksCombined && !gradientSelects.empty() &&
      match.fullyMaskedRows == FullyMaskedRows::NaN) {
    auto queryType = cast<RankedTensorType>(match.query.getType());
    auto keyType = cast<RankedTensorType>(match.key.getType());
    int64_t queryLen = queryType.getDimSize(
        match.queryPermutation.empty()
            ? queryType.getRank() - 2
            : match.queryPermutation[queryType.getRank() - 2]);
    int64_t keyLen = keyType.getDimSize(
        match.keyPermutation.empty()
            ? keyType.getRank() - 2
            : match.keyPermutation[keyType.getRank() - 2]);
    bool causalKeepsARow =
        match.causal && (*match.causal == DiagonalAlignment::top_left ||
                         (!ShapedType::isDynamic(queryLen) &&
                          !ShapedType::isDynamic(keyLen) &&
                          queryLen <= keyLen));
    for (Value condition : gradientSelects)
      if (condition != causalMask || !causalKeepsARow)
        return fail(RejectCategory::Mask,
                    "P feeds attention's backward, the scores have several "
                    "masks, and masked_fill's backward zeroes the score "
                    "gradient where one of them hides a key that may leave "
                    "a row empty: which rows of dQ and dK the frontend "
                    "leaves NaN depends on which mask hid each key");
    if (match.backward->gradQuery)
      match.backward->gradQuery->maskedGradient = false;
    match.backward->causalGradientOffset =
        *match.causal == DiagonalAlignment::top_left ? 0 : keyLen - queryLen;
  }
  // With a finite fill a hidden key keeps its weight in P, and its score
  // is a constant: autodiff of where(mask, s, f) zeroes its gradient by
  // the same select (fa.attention_backward's mask_fill does too). A score
  // gradient that skips that select would carry the hidden keys' terms
  // into dQ and dK.
  // The backward rebuilds P = exp(s - L) from the forward's logsumexp. In a
  // row whose every key is filled, L = f + log(Nk), which rounds to f in
  // f32 once |f| is large (ulp(1e4) is 1e-3; -0.7 max absorbs log(Nk)
  // whole): P would be exp(0) = 1, not 1/Nk. So the fill must be small
  // (|f| <= 16: an error below 1e-6 in P), or the mask must keep a key in
  // every row (known from its values: a causal mask built from iotas).
  if (match.backward && match.maskFill && std::abs(*match.maskFill) > 16.0 &&
      !everyRowKeepsAKey(match.mask, match.maskLabels,
                         meaningOf(match.mask, match.invertMask)))
    return fail(RejectCategory::Mask,
                "P feeds attention's backward, its mask fills hidden keys "
                "with " +
                    formatConstant(*match.maskFill) +
                    ", and a row may have every key hidden: the backward "
                    "rebuilds P from the logsumexp f + log(Nk), which "
                    "rounds to f in f32, so such a row's weights would be "
                    "1, not 1/Nk");
  if (match.backward && match.maskFill)
    for (const std::optional<GradientUse> *use :
         {&match.backward->gradQuery, &match.backward->gradKey})
      if (*use && !(*use)->maskedGradient)
        return fail(RejectCategory::Mask,
                    "P feeds attention's backward, its mask fills hidden "
                    "keys with " +
                        formatConstant(*match.maskFill) +
                        ", and the score gradient does not go through the "
                        "mask's select: the hidden keys' constant scores "
                        "would have a gradient");
  // With grouped queries the op's K/V gradients are per K/V head, while
  // the rewrite restores a frontend's NaNs per query head.
  if (match.backward && match.groupAxis &&
      match.fullyMaskedRows == FullyMaskedRows::NaN)
    return fail(RejectCategory::Mask,
                "P feeds attention's backward, the queries have a group "
                "axis, and a row may have no visible key: the frontend's "
                "NaN gradients there are not restored per K/V head");
  if (match.backward) {
    if (match.kvLengths)
      return fail(RejectCategory::Mask,
                  "P feeds attention's backward, and its mask is a "
                  "per-sequence length, which fa.attention_backward does "
                  "not take");
    // Rows with no visible key and a -inf fill give NaN gradients, which
    // the rewrite puts back; a lowest-finite fill gives those of a uniform
    // softmax, which it does not compute.
    if (match.fullyMaskedRows == FullyMaskedRows::MeanOfValues)
      return fail(RejectCategory::Mask,
                  "P feeds attention's backward, and a row may have every "
                  "key filled with the lowest finite value: the frontend's "
                  "gradients there are those of a uniform softmax, where "
                  "fa.attention_backward gives 0");
    if (match.logsumexp)
      return fail(RejectCategory::ExternalUse,
                  "P feeds attention's backward, and the logsumexp is "
                  "used outside the pattern too");
  }
  return true;
}

/// The steps below, in order; each returns false (or nullopt) with the
/// rejection set.
std::optional<AttentionMatch> Matcher::run() {
  std::optional<std::pair<Value, Labels>> probs = matchValueContraction();
  if (!probs)
    return std::nullopt;
  // Step 2: the chain from P back to Q and K.
  collecting = true;
  inChain = true;
  Value sliced;
  // P rounded to V's type after the slice (mixed precision) is the same
  // slice: fa.attention rounds P to V's type itself.
  Operation *rounding = nullptr;
  Value unrounded = probs->first;
  if (Value source = floatCastSource(probs->first)) {
    rounding = probs->first.getDefiningOp();
    unrounded = source;
  }
  if (Operation *slice = sinkColumnSlice(unrounded, sliced);
      slice && probs->second.back().kind == AxisKind::Key) {
    // P without the softmax's last key column: attention sinks, whose
    // column the scores must end with (peelSinkColumn).
    patternOps.insert(slice);
    if (rounding)
      patternOps.insert(rounding);
    probs->first = sliced;
    sinkColumnSliced = true;
    fullProbabilities = sliced;
  }
  Term *scores = nullptr;
  if (!matchProbabilities(leaf(probs->first, probs->second), scores))
    return std::nullopt;
  Term *scoresContraction = nullptr;
  if (!matchScores(scores, scoresContraction) ||
      !checkScoreFunctionTensors(scoresContraction->value))
    return std::nullopt;
  collecting = false;
  inChain = false;
  if (!matchQueryKey(scoresContraction))
    return std::nullopt;
  if (!checkExternalUses())
    return std::nullopt;

  OperandTypes types;
  if (!checkOperands(types) || !readGroupedHeads(types) ||
      !settleEmptyRows(types) || !finishMatch() || !checkBackward() ||
      !placeQueryScale())
    return std::nullopt;
  // A row whose keys are all filled with a finite value keeps them next to
  // a sink, where the fix-ups that restore such rows assume none.
  if (match.sinks && (match.maskFill ||
                      match.fullyMaskedRows == FullyMaskedRows::MeanOfValues))
    return reject(RejectCategory::Mask,
                  "attention sinks with a mask that fills hidden keys with a "
                  "finite value: only -inf masks combine with sinks");
  return match;
}

/// P = select(G, 0, softmax(x)) with G "every key of the row is -inf" on
/// the same x (or select(not G, softmax(x), 0)): a row with no visible key
/// becomes 0, which is the op's own value there. Returns the scores x.
bool Matcher::matchGuardedProbabilities(Term *select, Term *&scores) {
  auto isZero = [&](Term *term) {
    term = resolve(term);
    return term->kind == ScalarKind::Constant && term->constant == 0.0;
  };
  bool zeroWhenTrue = isZero(select->operands[1]);
  bool zeroWhenFalse = isZero(select->operands[2]);
  if (zeroWhenTrue == zeroWhenFalse)
    return fail(RejectCategory::Structure,
                "P·V reads select(...), not exp(x - max) / sum");
  // The condition is read as the tensor it is: its producers are a
  // reduction, which the chain does not look through.
  Term *condition = select->operands[0];
  if (condition->kind != ScalarKind::Input || !condition->value)
    return fail(RejectCategory::Structure,
                "P·V reads select(...) on a condition computed inside the "
                "select, not a guard of the softmax's rows");
  emptyRowsGuarded = true;
  if (!matchProbabilities(zeroWhenTrue ? select->operands[2]
                                       : select->operands[1],
                          scores))
    return false;
  std::string why;
  std::optional<RowGuard> guard = analyzeRowGuard(condition->value, why);
  if (!guard) {
    // A guard computed from the scores is no mask of them; any other may
    // be the softmax's own mask, zeroing what it hid (settleEmptyRows
    // decides once the masks are known).
    auto readsScores = [&](Value value) {
      SmallVector<std::pair<Value, unsigned>> worklist = {{value, 16}};
      llvm::SmallPtrSet<Operation *, 16> seen;
      while (!worklist.empty()) {
        auto [current, depth] = worklist.pop_back_val();
        Operation *def = current.getDefiningOp();
        if (!def || depth == 0 || !seen.insert(def).second)
          continue;
        std::optional<StructuredView> view = getStructuredView(current);
        if (view && getContraction(*view))
          return true;
        for (Value operand : def->getOperands())
          worklist.push_back({operand, depth - 1});
      }
      return false;
    };
    if (readsScores(condition->value))
      return fail(RejectCategory::Structure,
                  "P is a softmax with some rows set to 0, and " + why +
                      ", not whether every key of the row is -inf");
    pendingRemask =
        PendingRemask{condition->value, condition->labels, zeroWhenTrue, why};
    return true;
  }
  // Zero where G holds: G must be "every key is -inf"; zero where it does
  // not: its negation.
  if (guard->negated != zeroWhenFalse)
    return fail(RejectCategory::Structure,
                "P is a softmax with 0 in the rows where some key is "
                "visible, not in those where every key is -inf");
  // The softmax may widen the scores the guard compares (f16 scores, a
  // softmax in f32): ext(x) is -inf exactly where x is.
  Term *normalized = scores;
  while (normalized->kind == ScalarKind::ExtF && !normalized->value)
    normalized = normalized->operands[0];
  if (!normalized->value || normalized->value != guard->scores)
    return fail(RejectCategory::Structure,
                "the row guard compares a different tensor with -inf than "
                "the softmax normalizes");
  const Labels &x = normalized->labels;
  if (guard->keyDim < 0 || guard->keyDim >= static_cast<int64_t>(x.size()) ||
      x[guard->keyDim].kind != AxisKind::Key) {
    auto keyDim = llvm::find(x, Axis{AxisKind::Key}) - x.begin();
    return fail(RejectCategory::SoftmaxAxis,
                llvm::formatv("the row guard reduces dim {0} of the scores "
                              "but their key dim is {1}",
                              guard->keyDim, keyDim)
                    .str());
  }
  // Read per row: each of its dims is the row dim it holds (or a unit dim),
  // and every row dim of the scores is among them (or of size 1).
  auto scoresType = cast<RankedTensorType>(normalized->value.getType());
  auto guardType = cast<RankedTensorType>(condition->value.getType());
  if (condition->labels.size() != guard->guardDims.size())
    return fail(RejectCategory::Layout, "the row guard's rank changed");
  for (auto [dim, source] : llvm::enumerate(guard->guardDims)) {
    const Axis &label = condition->labels[dim];
    bool matches = source < 0
                       ? label.kind == AxisKind::Unit ||
                             guardType.getDimSize(dim) == 1
                       : label == x[source];
    if (!matches)
      return fail(RejectCategory::Layout,
                  "the row guard is read as " +
                      formatLabels(condition->labels) +
                      ", not by the rows of the scores " + formatLabels(x));
  }
  for (auto [dim, label] : llvm::enumerate(x))
    if (static_cast<int64_t>(dim) != guard->keyDim &&
        !llvm::is_contained(guard->guardDims, static_cast<int64_t>(dim)) &&
        scoresType.getDimSize(dim) != 1)
      return fail(RejectCategory::Layout,
                  "the row guard does not keep every row dim of the scores");
  // The guard reads the scores: its ops are the pattern's (and any other
  // use of them is an external use).
  for (Operation *op : guard->ops)
    patternOps.insert(op);
  return true;
}

/// P = exp(x - max(x)) / sum(exp(x - max(x))), in any of its spellings, or
/// linalg.softmax. Returns the scores x.
bool Matcher::matchProbabilities(Term *probs, Term *&scores) {
  Term *term = nullptr;
  {
    llvm::SaveAndRestore<bool> seeking(seekingProbabilities, true);
    term = peelCasts(probs);
  }
  if (term->kind == ScalarKind::Select && !emptyRowsGuarded)
    return matchGuardedProbabilities(term, scores);
  if (term->kind == ScalarKind::Input) {
    if (auto softmax = term->value.getDefiningOp<linalg::SoftmaxOp>()) {
      patternOps.insert(softmax);
      int64_t dim = softmax.getDimension();
      if (term->labels[dim].kind != AxisKind::Key) {
        auto keyDim = llvm::find(term->labels, Axis{AxisKind::Key}) -
                      term->labels.begin();
        return fail(RejectCategory::SoftmaxAxis,
               llvm::formatv("softmax normalizes dim {0} but the key dim of "
                             "P·V is {1}",
                             dim, keyDim)
                   .str());
      }
      fill = 0;
      scores = leaf(softmax.getInput(), term->labels);
      return true;
    }
    return fail(RejectCategory::Structure,
           "P is not computed by a softmax that the matcher understands");
  }

  // Split into exp(x - max) and the row sum it is divided by.
  Term *numerator = nullptr, *rowSum = nullptr;
  if (term->kind == ScalarKind::Div) {
    numerator = term->operands[0];
    rowSum = term->operands[1];
  } else if (term->kind == ScalarKind::Mul) {
    if (Term *sum = reciprocalOf(term->operands[1])) {
      numerator = term->operands[0];
      rowSum = sum;
    } else if (Term *sum = reciprocalOf(term->operands[0])) {
      numerator = term->operands[1];
      rowSum = sum;
    }
  }
  if (!numerator && term->kind == ScalarKind::Exp) {
    // exp(x - max)·V / sum = (exp(x - max) / sum)·V: the division of each
    // output row by its row sum moved back across the contraction.
    if (Term *sum = deferredRowSum()) {
      numerator = term;
      rowSum = sum;
    }
  }
  if (!numerator) {
    if (term->kind == ScalarKind::Exp) {
      // exp(x - lse) with lse = max + log(sum(exp(x - max))).
      Term *shifted = withoutUnitFactor(peelCasts(term->operands[0]));
      if (shifted->kind == ScalarKind::Sub) {
        Term *lse = peelCasts(shifted->operands[1]);
        if (lse->kind == ScalarKind::Add &&
            llvm::any_of(lse->operands, [&](Term *operand) {
              return peelCasts(operand)->kind == ScalarKind::Log;
            }))
          return matchLogSumExp(shifted->operands[0], lse, scores);
      }
      if (unreadLayout)
        return fail(RejectCategory::Layout,
                    "P·V reads exp(...) and its rows go on to " +
                        unreadLayout->getName().getStringRef().str() +
                        ", which moves them in a way the op's output "
                        "cannot state (dims merged other than as [B, H] or "
                        "as grouped heads, head·G + group), before any "
                        "division by the row sum");
      return fail(RejectCategory::Structure,
                  "P·V reads exp(...) that is not normalized by its row sum");
    }
    // A combination of softmaxes that fa-normalize-frontend did not
    // distribute over P·V says why.
    std::string combination = whyNotDistributed(root);
    return fail(RejectCategory::Structure,
                "P·V reads " + stringifyScalarKind(term->kind) +
                    "(...), not exp(x - max) / sum" +
                    (combination.empty()
                         ? std::string()
                         : "; as a combination of softmaxes it is not "
                           "distributed over P·V: " +
                               combination));
  }

  Term *exp = peelCasts(numerator);
  if (exp->kind != ScalarKind::Exp) {
    return fail(RejectCategory::Structure,
           "the softmax numerator is " + stringifyScalarKind(exp->kind) +
               "(...), not exp(x - max)");
  }
  // exp(c·(x - max(x))) with a constant c > 0 is exp(c·x - max(c·x)): the
  // softmax of c·x (exp2(y) is viewed as exp(ln 2 · y), so IREE's
  // exp2 of log2(e)-scaled scores is this with c = ln 2).
  double factor = 1;
  Term *shifted = peelCasts(exp->operands[0]);
  while (std::optional<std::pair<Term *, double>> scaled =
             positiveConstantFactor(shifted)) {
    shifted = peelCasts(scaled->first);
    factor *= scaled->second;
  }
  if (shifted->kind != ScalarKind::Sub) {
    return fail(RejectCategory::Structure,
           "exp is applied to " + stringifyScalarKind(shifted->kind) +
               "(...), not to x - max(x)");
  }
  // The sum may be widened for the division (torch divides in f64).
  if (!matchRowReduction(peelCasts(rowSum), exp, /*isMax=*/false, "row sum"))
    return false;
  Term *x = shifted->operands[0];
  if (!matchRowReduction(resolve(shifted->operands[1]), x, /*isMax=*/true,
                         "row max"))
    return false;
  // softmax(x - max(x)) = softmax(x): a row shift subtracted before the
  // softmax's own (an explicit detached max) cancels, however often.
  while (Term *unshifted = withoutOwnRowMax(x))
    x = unshifted;
  factor = snapToOne(factor);
  scores = factor == 1 ? x : scaledTerm(x, factor);
  return true;
}

/// 1 for a factor within float rounding of it: exp2(x · log2(e)) has
/// factor ln 2 · fl(log2(e)) = 1 + 2e-8, the rounding of the frontend's
/// constant, not a scale (it would make a finite fill or a bias below it
/// "scaled").
double snapToOne(double factor) {
  return std::abs(factor - 1.0) <= 1e-6 ? 1.0 : factor;
}

Term *Matcher::withoutUnitFactor(Term *term) {
  Term *inner = term;
  double factor = 1;
  while (std::optional<std::pair<Term *, double>> scaled =
             positiveConstantFactor(inner)) {
    inner = peelCasts(scaled->first);
    factor *= scaled->second;
  }
  return snapToOne(factor) == 1 ? inner : term;
}

bool Matcher::peelTensorScale(Term *scale, bool divides) {
  // One tensor scale, on the scores themselves: a mask, a bias or a score
  // function below it would be scaled too (refused where they are peeled);
  // those above it read the scaled scores, as the op's do.
  if (tensorScale || groupAxis)
    return false;
  // Along the keys it must be constant: no key dim, or one of size 1
  // (Nk = 1, where TOSA's broadcast reads the dim as it is).
  auto scaleType = cast<RankedTensorType>(scale->value.getType());
  for (auto [dim, axis] : llvm::enumerate(scale->labels))
    if ((axis.kind == AxisKind::Key && scaleType.getDimSize(dim) != 1) ||
        axis.kind == AxisKind::HeadDim || axis.kind == AxisKind::ValueDim)
      return false;
  auto elementType = getElementTypeOrSelf(scale->value.getType());
  if (!isa<FloatType>(elementType))
    return false;
  tensorScale = scale;
  match.queryScaleDivides = divides;
  return true;
}

bool Matcher::placeQueryScale() {
  if (!tensorScale)
    return true;
  if (match.backward)
    return fail(RejectCategory::Scale,
                "a scale held in a tensor in a training graph (its gradient "
                "is not the op's)");
  match.queryScale = tensorScale->value;
  match.queryScaleDims.clear();
  match.queryScaleParts.clear();
  auto type = cast<RankedTensorType>(tensorScale->value.getType());
  for (auto [dim, axis] : llvm::enumerate(tensorScale->labels)) {
    if (axis.kind == AxisKind::Unit || axis.kind == AxisKind::Key) {
      if (type.getDimSize(dim) != 1)
        return fail(RejectCategory::Scale,
                    "a tensor scale broadcasts a dim that is not of size 1");
      match.queryScaleDims.push_back(-1);
      match.queryScaleParts.push_back(0);
      continue;
    }
    const Axis *found = llvm::find(queryLabels, axis);
    unsigned part = 0;
    if (found == queryLabels.end() && axis.kind == AxisKind::Batch &&
        axis.part != 0 && batchSplit.size() == 2) {
      // A part of the batch dim the chain split into [B, H] while Q holds
      // it merged: the outer part is Q's index floordiv H, the inner mod H.
      found = llvm::find(queryLabels, Axis{AxisKind::Batch, axis.batchIndex});
      part = axis.part;
    }
    match.queryScaleParts.push_back(part);
    if (found == queryLabels.end())
      return fail(RejectCategory::Scale,
                  "the scores are scaled by a tensor read as " +
                      formatLabels(tensorScale->labels) +
                      ", along a dim Q (read as " + formatLabels(queryLabels) +
                      ") does not have");
    match.queryScaleDims.push_back(found - queryLabels.begin());
  }
  return true;
}

Term *Matcher::reciprocalOf(Term *candidate) {
  candidate = resolve(candidate);
  if (candidate->kind == ScalarKind::Div &&
      resolve(candidate->operands[0])->kind == ScalarKind::Constant &&
      resolve(candidate->operands[0])->constant == 1.0)
    return candidate->operands[1];
  return nullptr;
}

std::optional<Labels> Matcher::labelsAfterLayout(Operation *op,
                                                 ArrayRef<Axis> labels) {
  auto permuted = [&](ArrayRef<int64_t> permutation) -> std::optional<Labels> {
    if (permutation.size() != labels.size())
      return std::nullopt;
    Labels result;
    for (int64_t dim : permutation)
      result.push_back(labels[dim]);
    return result;
  };
  if (auto transposeOp = dyn_cast<linalg::TransposeOp>(op))
    return permuted(transposeOp.getPermutation());
  if (isa<linalg::GenericOp>(op)) {
    // A generic that only copies its one input in another order: result
    // dim i is loop i, input dim j loop map(j).
    std::optional<StructuredView> view = getStructuredView(op->getResult(0));
    if (!view || view->hasReduction() || view->inputs.size() != 1 ||
        view->rootNode().kind != ScalarKind::Input ||
        !view->resultMap.isIdentity() || !view->inputMaps[0].isPermutation() ||
        view->inputMaps[0].getNumResults() != labels.size())
      return std::nullopt;
    Labels result(labels.size(), Axis{AxisKind::Query});
    for (auto [dim, label] : llvm::enumerate(labels))
      result[view->inputMaps[0].getDimPosition(dim)] = label;
    return result;
  }
  if (auto transposeOp = dyn_cast<tosa::TransposeOp>(op)) {
    SmallVector<int64_t> permutation(transposeOp.getPerms().begin(),
                                     transposeOp.getPerms().end());
    return permuted(permutation);
  }
  // Reshapes that merge or split the query heads of a grouped contraction
  // ([Hkv, G] <-> [Hkv·G], head k·G + g) or the batch dim's two parts:
  // the labels lookThroughBatchReshape reads the other way.
  Axis lastBatch{AxisKind::Batch, numBatchDims - 1};
  auto isHeadPair = [&](const Axis &outer, const Axis &inner) {
    return groupAxis && numBatchDims >= 1 && outer == lastBatch &&
           inner.kind == AxisKind::Group;
  };
  auto isBatchPair = [&](const Axis &outer, const Axis &inner) {
    return outer.kind == AxisKind::Batch && inner.kind == AxisKind::Batch &&
           outer.batchIndex == 0 && inner.batchIndex == 0 && outer.part == 1 &&
           inner.part == 2;
  };
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    auto sourceType = collapse.getSrcType();
    Labels result;
    for (ReassociationIndices group : collapse.getReassociationIndices()) {
      if (group.size() == 1) {
        result.push_back(labels[group[0]]);
        continue;
      }
      if (group.size() != 2)
        return std::nullopt;
      const Axis &outer = labels[group[0]], &inner = labels[group[1]];
      if (isHeadPair(outer, inner)) {
        SmallVector<int64_t, 2> sizes = {sourceType.getDimSize(group[0]),
                                         sourceType.getDimSize(group[1])};
        if (ShapedType::isDynamic(sizes[0]) ||
            ShapedType::isDynamic(sizes[1]) ||
            (!groupedHeads.empty() && groupedHeads != sizes))
          return std::nullopt;
        groupedHeads = sizes;
        result.push_back(Axis{AxisKind::GroupedHeads});
      } else if (isBatchPair(outer, inner)) {
        result.push_back(Axis{AxisKind::Batch, 0});
      } else {
        return std::nullopt;
      }
    }
    return result;
  }
  if (auto expandOp = dyn_cast<tensor::ExpandShapeOp>(op)) {
    // Static only: the rewrite rebuilds it where the op's output is, which
    // a dynamic output shape's values may not dominate.
    auto resultType = expandOp.getResultType();
    if (!resultType.hasStaticShape())
      return std::nullopt;
    Labels result;
    for (auto [index, group] :
         llvm::enumerate(expandOp.getReassociationIndices())) {
      if (group.size() == 1) {
        result.push_back(labels[index]);
        continue;
      }
      if (group.size() != 2 || labels[index].kind != AxisKind::GroupedHeads ||
          groupedHeads.empty() ||
          resultType.getDimSize(group[0]) != groupedHeads[0] ||
          resultType.getDimSize(group[1]) != groupedHeads[1])
        return std::nullopt;
      result.push_back(lastBatch);
      result.push_back(Axis{AxisKind::Group});
    }
    return result;
  }
  return std::nullopt;
}

Term *Matcher::deferredRowSum() {
  Value result = root->getResult(0);
  if (match.normalization || !result.hasOneUse())
    return nullptr;
  // P·V's rows may be moved into the output's layout first (transposes,
  // the grouped heads merged: MaxText divides [b, t, n, d] by the sums
  // moved the same way): the division then reads them through the same
  // layout, and the labels follow it.
  Value divisionInput = result;
  Labels divisionLabels(outputLabels.begin(), outputLabels.end());
  SmallVector<Operation *> layout;
  Operation *user = *result.getUsers().begin();
  while (layout.size() < 4 && user->getNumResults() == 1 &&
         user->getResult(0).hasOneUse()) {
    std::optional<Labels> next = labelsAfterLayout(user, divisionLabels);
    if (!next) {
      if (isa<linalg::TransposeOp, tosa::TransposeOp, tensor::CollapseShapeOp,
              tensor::ExpandShapeOp, tosa::ReshapeOp>(user))
        unreadLayout = user;
      break;
    }
    layout.push_back(user);
    divisionInput = user->getResult(0);
    divisionLabels = *next;
    user = *divisionInput.getUsers().begin();
  }
  if (user->getNumResults() != 1)
    return nullptr;
  // The user's result has the divided rows' dims in their order (an
  // elementwise op on them); its body is read as terms over those labels.
  auto resultType = dyn_cast<RankedTensorType>(user->getResult(0).getType());
  if (!resultType ||
      resultType.getShape() !=
          cast<RankedTensorType>(divisionInput.getType()).getShape())
    return nullptr;
  Term *divided = peelCasts(expand(leaf(user->getResult(0), divisionLabels)));
  if (!divided)
    return nullptr;
  // The walk may resolve the moved rows back through the layout (its
  // reshapes are the chain's batch reshapes) to P·V itself.
  auto isRootResult = [&](Term *term) {
    term = peelCasts(term);
    return term->kind == ScalarKind::Input &&
           ((term->value == divisionInput && term->labels == divisionLabels) ||
            (term->value == result && term->labels == outputLabels));
  };
  Term *sum = nullptr;
  if (divided->kind == ScalarKind::Div && isRootResult(divided->operands[0]))
    sum = divided->operands[1];
  else if (divided->kind == ScalarKind::Mul) {
    for (unsigned side = 0; side < 2 && !sum; ++side)
      if (isRootResult(divided->operands[side]))
        sum = reciprocalOf(divided->operands[1 - side]);
  }
  // matchProbabilities then checks that it is the row sum of the
  // softmax's own exp over the keys (a broadcast of it along the value dim
  // resolves to that sum).
  if (!sum)
    return nullptr;
  match.normalization = user;
  match.normalizationLayout = layout;
  patternOps.insert(user);
  for (Operation *op : layout)
    patternOps.insert(op);
  return sum;
}

std::optional<std::pair<Term *, double>>
Matcher::positiveConstantFactor(Term *term) {
  auto constantOf = [&](Term *operand) -> std::optional<double> {
    Term *resolved = resolveQuietly(operand);
    if (resolved->kind != ScalarKind::Constant ||
        !std::isfinite(resolved->constant) || resolved->constant <= 0)
      return std::nullopt;
    return resolved->constant;
  };
  if (term->kind == ScalarKind::Mul) {
    if (std::optional<double> c = constantOf(term->operands[1]))
      return std::make_pair(term->operands[0], *c);
    if (std::optional<double> c = constantOf(term->operands[0]))
      return std::make_pair(term->operands[1], *c);
  }
  if (term->kind == ScalarKind::Div)
    if (std::optional<double> c = constantOf(term->operands[1]))
      return std::make_pair(term->operands[0], 1.0 / *c);
  return std::nullopt;
}

Term *Matcher::withoutOwnRowMax(Term *x) {
  Term *shifted = peelCasts(x);
  if (shifted->kind != ScalarKind::Sub)
    return nullptr;
  Term *inner = shifted->operands[0];
  Term *max = resolveQuietly(shifted->operands[1]);
  // Only the max of the same tensor: another row constant would change
  // the rows that lose every key (a finite fill averages V there only
  // because the row's max is subtracted).
  if (max->kind != ScalarKind::Input || !max->value)
    return nullptr;
  std::optional<StructuredView> view = getStructuredView(max->value);
  Term *innerTerm = peelCasts(inner);
  if (!view || view->inputs.size() != 1 || !innerTerm->value)
    return nullptr;
  Value reduced = view->inputs[0];
  if (reduced != innerTerm->value && reduced != inner->value)
    return nullptr;
  if (!matchRowReduction(max, inner, /*isMax=*/true, "shifted row max"))
    return nullptr;
  return inner;
}

Term *Matcher::scaledTerm(Term *x, double factor) {
  Term &constant = terms.emplace_back();
  constant.kind = ScalarKind::Constant;
  constant.constant = factor;
  constant.labels = x->labels;
  Term &product = terms.emplace_back();
  product.kind = ScalarKind::Mul;
  product.labels = x->labels;
  product.operands = {x, &constant};
  return &product;
}

/// Whether two labelings read a tensor the same way once a batch dim split
/// into its outer and inner parts ([B·H] read as [B, H], parts 1 and 2 in
/// that order) is counted as the whole dim: the log-sum-exp of a softmax on
/// scores split into [B, H] reduces them in the split form while the scores
/// are seen, through the reshape, in the merged one.
bool everyRowKeepsAKey(Value mask, ArrayRef<Axis> labels,
                       MaskMeaning meaning) {
  std::optional<SmallVector<double>> values = maskValues(mask);
  if (!values)
    return false;
  auto type = cast<RankedTensorType>(mask.getType());
  int64_t keyDim = -1;
  for (auto [dim, axis] : llvm::enumerate(labels))
    if (axis.kind == AxisKind::Key)
      keyDim = dim;
  // Row-major: the key dim's stride, and how many keys each row holds.
  int64_t keys = keyDim < 0 ? 1 : type.getDimSize(keyDim);
  int64_t stride = 1;
  for (int64_t dim = type.getRank() - 1; dim > keyDim && keyDim >= 0; --dim)
    stride *= type.getDimSize(dim);
  for (int64_t start = 0; start < type.getNumElements(); ++start) {
    // Each row once: the element whose key index is 0.
    if (keyDim >= 0 && (start / stride) % keys != 0)
      continue;
    bool kept = false;
    for (int64_t key = 0; key < keys && !kept; ++key)
      kept = maskShows(meaning, (*values)[start + key * stride])
                 .value_or(false);
    if (!kept)
      return false;
  }
  return true;
}

bool sameMask(Value a, Value b) {
  if (a == b)
    return true;
  if (a.getType() != b.getType())
    return false;
  std::optional<SmallVector<double>> aValues = maskValues(a);
  if (aValues) {
    std::optional<SmallVector<double>> bValues = maskValues(b);
    if (bValues)
      return *aValues == *bValues;
  }
  auto aResult = dyn_cast<OpResult>(a), bResult = dyn_cast<OpResult>(b);
  if (!aResult || !bResult ||
      aResult.getResultNumber() != bResult.getResultNumber() ||
      !isPure(aResult.getOwner()) || !isPure(bResult.getOwner()))
    return false;
  // Two ops that compute the same from the same operands: values defined
  // in their regions correspond, and so do empty tensors of one static
  // type (destinations) and equal constants.
  llvm::DenseMap<Value, Value> corresponding;
  auto check = [&](Value lhs, Value rhs) -> LogicalResult {
    if (lhs == rhs || corresponding.lookup(lhs) == rhs)
      return success();
    auto lhsEmpty = lhs.getDefiningOp<tensor::EmptyOp>();
    auto rhsEmpty = rhs.getDefiningOp<tensor::EmptyOp>();
    if (lhsEmpty && rhsEmpty && lhs.getType() == rhs.getType() &&
        cast<RankedTensorType>(lhs.getType()).hasStaticShape())
      return success();
    Attribute lhsConstant, rhsConstant;
    if (matchPattern(lhs, m_Constant(&lhsConstant)) &&
        matchPattern(rhs, m_Constant(&rhsConstant)) &&
        lhsConstant == rhsConstant)
      return success();
    return failure();
  };
  auto mark = [&](Value lhs, Value rhs) { corresponding[lhs] = rhs; };
  return OperationEquivalence::isEquivalentTo(
      aResult.getOwner(), bResult.getOwner(), check, mark,
      OperationEquivalence::IgnoreLocations);
}

bool sameAxes(ArrayRef<Axis> a, ArrayRef<Axis> b) {
  auto merged = [](ArrayRef<Axis> labels) {
    Labels result;
    for (size_t i = 0; i < labels.size(); ++i) {
      const Axis &axis = labels[i];
      if (axis.kind == AxisKind::Batch && axis.part == 1 &&
          i + 1 < labels.size() && labels[i + 1].kind == AxisKind::Batch &&
          labels[i + 1].part == 2 &&
          labels[i + 1].batchIndex == axis.batchIndex) {
        Axis whole = axis;
        whole.part = 0;
        result.push_back(whole);
        ++i;
        continue;
      }
      result.push_back(axis);
    }
    return result;
  };
  return merged(a) == merged(b);
}

/// The log-sum-exp spelling of softmax, exp(x - (max + log(sum))), where
/// sum = rowsum(exp(x - max)) and max = rowmax(x): it is
/// exp(x - max) / sum. `lse` is the add; returns the scores x.
bool Matcher::matchLogSumExp(Term *x, Term *lse, Term *&scores) {
  Term *max = lse->operands[0], *log = peelCasts(lse->operands[1]);
  if (log->kind != ScalarKind::Log) {
    max = lse->operands[1];
    log = peelCasts(lse->operands[0]);
  }
  Term *sumInput = nullptr;
  if (!matchRowReduction(peelCasts(log->operands[0]), x, /*isMax=*/false,
                         "log-sum-exp's sum", &sumInput))
    return false;
  if (sumInput->kind != ScalarKind::Exp)
    return fail(RejectCategory::Structure,
                "the log-sum-exp sums " +
                    stringifyScalarKind(sumInput->kind) +
                    "(...), not exp(x - max)");
  Term *shifted = withoutUnitFactor(peelCasts(sumInput->operands[0]));
  if (shifted->kind != ScalarKind::Sub)
    return fail(RejectCategory::Structure,
                "the log-sum-exp sums exp(" +
                    stringifyScalarKind(shifted->kind) +
                    "(...)), not exp(x - max)");
  Term *summed = peelCasts(shifted->operands[0]);
  Term *scoresTerm = peelCasts(x);
  if (!summed->value || summed->value != scoresTerm->value ||
      !sameAxes(summed->labels, scoresTerm->labels))
    return fail(RejectCategory::Structure,
                "the log-sum-exp sums the exp of a different tensor than the "
                "softmax uses");
  Term *innerMax = peelCasts(shifted->operands[1]);
  Term *outerMax = peelCasts(max);
  if (!innerMax->value || innerMax->value != outerMax->value ||
      !sameAxes(innerMax->labels, outerMax->labels))
    return fail(RejectCategory::Structure,
                "the log-sum-exp adds a different max than it subtracts "
                "inside its sum");
  if (!matchRowReduction(outerMax, x, /*isMax=*/true, "row max"))
    return false;
  // The logsumexp is a tensor of its own when its add is an op's result;
  // the program may use it elsewhere (checkExternalUses).
  if (lse->value && lse->value.getDefiningOp())
    logsumexpTerm = lse;
  logSumExpSoftmax = true;
  scores = x;
  return true;
}

/// `stat` must be a reduction over the key axis of `expectedInput` (a sum,
/// or a max starting at -inf, the lowest finite value or NaN with maxnumf).
bool Matcher::matchRowReduction(Term *stat, Term *expectedInput, bool isMax,
                                StringRef what, Term **reducedInput) {
  auto notReduction = [&]() {
    return fail(RejectCategory::Structure,
           "the " + what + " is not a " + (isMax ? "max" : "sum") +
               " over one dim of the " +
               (isMax ? "scores" : "softmax numerator"));
  };
  // max(m, -inf) is m (JAX reduces with initial = -inf, then takes the
  // max with it once more): -inf is the identity of max, NaN included.
  while (isMax &&
         (stat->kind == ScalarKind::Max || stat->kind == ScalarKind::MaxNum)) {
    auto isNegInf = [&](Term *operand) {
      Term *resolved = resolveQuietly(operand);
      return resolved->kind == ScalarKind::Constant &&
             std::isinf(resolved->constant) && resolved->constant < 0;
    };
    if (isNegInf(stat->operands[0]))
      stat = resolve(stat->operands[1]);
    else if (isNegInf(stat->operands[1]))
      stat = resolve(stat->operands[0]);
    else
      break;
  }
  if (stat->kind != ScalarKind::Input)
    return notReduction();
  std::optional<StructuredView> view = getStructuredView(stat->value);
  if (!view || view->inputs.size() != 1 ||
      llvm::count(view->reductionLoops, true) != 1)
    return notReduction();
  const ScalarNode &combine = view->rootNode();
  bool isSum = combine.kind == ScalarKind::Add;
  bool isMaxKind = combine.kind == ScalarKind::Max ||
                   combine.kind == ScalarKind::MaxNum;
  if ((isMax && !isMaxKind) || (!isMax && !isSum) ||
      combine.operands.size() != 2)
    return notReduction();
  // The element may be widened before it is combined (f16 scores reduced
  // in f32): max(ext(x)) = ext(max(x)) exactly, and a wider sum only
  // rounds less.
  auto kindBelowWidening = [&](unsigned node) {
    while (view->node(node).kind == ScalarKind::ExtF)
      node = view->node(node).operands[0];
    return view->node(node).kind;
  };
  ScalarKind a = kindBelowWidening(combine.operands[0]);
  ScalarKind b = kindBelowWidening(combine.operands[1]);
  if (!((a == ScalarKind::Input && b == ScalarKind::Init) ||
        (a == ScalarKind::Init && b == ScalarKind::Input)))
    return notReduction();

  std::optional<LoopLabels> loops = labelLoops(*view, stat->labels);
  if (!loops)
    return notReduction();
  unsigned reduced = llvm::find(view->reductionLoops, true) -
                     view->reductionLoops.begin();
  (*loops)[reduced] = Axis{AxisKind::Key};
  std::optional<Labels> inputLabels = labelOperand(view->inputMaps[0], *loops);
  if (!inputLabels)
    return notReduction();
  patternOps.insert(view->op);

  // The reduced tensor must be the one the softmax uses, read the same way.
  Term *input = peelCasts(leaf(view->inputs[0], *inputLabels));
  Term *expected = peelCasts(expectedInput);
  // With `reducedInput`, the caller checks what is reduced.
  if (reducedInput)
    *reducedInput = input;
  else if (!expected->value || input->value != expected->value) {
    return fail(RejectCategory::Structure,
           "the " + what + " reduces a different tensor than the softmax uses");
  }
  // A dim of size 1 read at index 0 (a unit dim a reshape inserted, say)
  // reads that axis exactly as its label would.
  Labels readLabels = input->labels;
  if (auto type = dyn_cast_or_null<RankedTensorType>(
          input->value ? input->value.getType() : Type());
      type && readLabels.size() == expected->labels.size() &&
      type.getRank() == static_cast<int64_t>(readLabels.size()))
    for (auto [dim, label] : llvm::enumerate(readLabels))
      if (label.kind == AxisKind::Unit && type.getDimSize(dim) == 1 &&
          expected->labels[dim].kind != AxisKind::Unit &&
          !llvm::is_contained(readLabels, expected->labels[dim]))
        label = expected->labels[dim];
  if (!sameAxes(readLabels, expected->labels)) {
    auto keyDim = llvm::find(expected->labels, Axis{AxisKind::Key}) -
                  expected->labels.begin();
    unsigned reducedDim = 0;
    for (auto [index, expr] :
         llvm::enumerate(view->inputMaps[0].getResults()))
      if (expr == getAffineDimExpr(reduced, expr.getContext()))
        reducedDim = index;
    if (reducedDim != static_cast<unsigned>(keyDim))
      return fail(RejectCategory::SoftmaxAxis,
                  llvm::formatv("the {0} reduces dim {1} but the key dim of "
                                "P·V is {2}",
                                what, reducedDim, keyDim)
                      .str());
    // The keys agree; another axis does not (a row sum moved by another
    // transpose, or read with two axes swapped): each row would be
    // normalized by another row's statistic.
    return fail(RejectCategory::SoftmaxAxis,
                "the " + what + " is read as " + formatLabels(readLabels) +
                    " where the softmax's rows are " +
                    formatLabels(expected->labels) +
                    ": a row would be normalized by another row's " + what);
  }

  // The reduction's starting value.
  if (view->implicitInit)
    return true;
  if (!view->initConstant) {
    return fail(RejectCategory::Structure,
           "the " + what + " starts from a tensor that is not a constant");
  }
  double init = *view->initConstant;
  bool ok = isSum ? init == 0.0
                  : (init == -std::numeric_limits<double>::infinity() ||
                     isLowestFinite(init) ||
                     (std::isnan(init) && combine.kind == ScalarKind::MaxNum));
  if (!ok) {
    return fail(RejectCategory::Structure,
           "the " + what + " starts at " + formatConstant(init) +
               (isSum ? ", not 0"
                      : ", not -inf, the lowest finite value or NaN with "
                        "maxnumf"));
  }
  return true;
}

/// True when `labels` name each axis once and have no broadcast dim: a
/// tensor the op can read after a transpose.
bool isOrderOfAxes(ArrayRef<Axis> labels) {
  for (auto [index, axis] : llvm::enumerate(labels))
    if (axis.kind == AxisKind::Unit ||
        llvm::is_contained(labels.drop_front(index + 1), axis))
      return false;
  return true;
}

/// Returns the tensor behind a Q, K or V operand, looking through widening
/// casts, copies (transposes, unit-dim reshapes) and, for Q and K, a scale
/// by a constant. It stops at the last tensor that still has each axis
/// once: a broadcast behind it (the repeat of GQA's K/V heads, say) is a
/// copy the op cannot read through. Returns null when the operand is
/// computed inside another op's body.
Value Matcher::peelOperand(Term *term, Labels &labels, bool allowScale,
                           double *scaleOut) {
  Term *best = nullptr;
  double scale = 1.0, bestScale = 1.0;
  Term *current = term;
  // A reshape that inserted a unit dim the pattern reads (a K/V head dim
  // of size 1 over grouped queries) is kept: below it that axis is gone.
  // (A batch dim split into its [B, H] parts still holds the batch axis.)
  auto keepsEveryAxis = [&](ArrayRef<Axis> labels) {
    return llvm::all_of(term->labels, [&](const Axis &axis) {
      return axis.kind == AxisKind::Unit ||
             llvm::any_of(labels, [&](const Axis &kept) {
               if (axis.kind == AxisKind::Batch && kept.kind == AxisKind::Batch)
                 return axis.batchIndex == kept.batchIndex;
               return kept == axis;
             });
    });
  };
  while (true) {
    if (current->kind == ScalarKind::Input && current->value) {
      if (isOrderOfAxes(current->labels) && keepsEveryAxis(current->labels)) {
        best = current;
        bestScale = scale;
      }
      Term *next = step(current);
      if (!next)
        break;
      current = next;
      continue;
    }
    if (current->kind == ScalarKind::ExtF) {
      current = current->operands[0];
      continue;
    }
    // q * c, c * q and q / c (flax divides the query by sqrt(depth)).
    bool isDiv = current->kind == ScalarKind::Div;
    if (allowScale && (current->kind == ScalarKind::Mul || isDiv)) {
      Term *lhsTerm = current->operands[0], *rhsTerm = current->operands[1];
      Term *lhs = resolve(lhsTerm), *rhs = resolve(rhsTerm);
      if (!isDiv && lhs->kind == ScalarKind::Constant) {
        std::swap(lhs, rhs);
        std::swap(lhsTerm, rhsTerm);
      }
      if (rhs->kind == ScalarKind::Constant && std::isfinite(rhs->constant) &&
          rhs->constant != 0) {
        scale *= isDiv ? 1.0 / rhs->constant : rhs->constant;
        current = lhsTerm;
        continue;
      }
    }
    break;
  }
  if (!best) {
    labels = term->labels;
    if (scaleOut)
      *scaleOut = 1.0;
    return term->value;
  }
  if (scaleOut)
    *scaleOut = bestScale;
  else
    match.scale *= bestScale;
  labels = best->labels;
  return best->value;
}

bool Matcher::matchQueryKey(Term *contractionTerm) {
  std::optional<StructuredView> view =
      getStructuredView(contractionTerm->value);
  std::optional<Contraction> contraction = getContraction(*view);
  patternOps.insert(view->op);
  scoreContraction = contractionTerm->value;
  scoreContractionLabels = contractionTerm->labels;
  // The scale on the contraction's result (Q's and K's own, peeled below,
  // are already in it).
  contractionScale = match.scale;
  if (!view->implicitInit && view->initConstant != 0.0) {
    return fail(RejectCategory::Contraction,
           "Q·Kᵀ accumulates into a tensor that is not zero");
  }
  std::optional<LoopLabels> loops = labelLoops(*view, contractionTerm->labels);
  if (!loops) {
    return fail(RejectCategory::Layout, "the scores are not read as they are written");
  }
  (*loops)[contraction->reductionLoop] = Axis{AxisKind::HeadDim};
  for (auto [loop, label] : llvm::enumerate(*loops)) {
    if (!label) {
      return fail(RejectCategory::Contraction,
             "Q·Kᵀ has a loop that is not an axis of the scores");
    }
  }
  std::optional<Labels> lhs = labelOperand(view->inputMaps[0], *loops);
  std::optional<Labels> rhs = labelOperand(view->inputMaps[1], *loops);
  if (!lhs || !rhs) {
    return fail(RejectCategory::Contraction, "Q·Kᵀ reads an operand at a fixed index");
  }
  unsigned queryIndex = llvm::is_contained(*lhs, Axis{AxisKind::Query}) ? 0 : 1;
  Labels queryLabels = queryIndex == 0 ? *lhs : *rhs;
  Labels keyLabels = queryIndex == 0 ? *rhs : *lhs;
  if (!llvm::is_contained(queryLabels, Axis{AxisKind::Query}) ||
      !llvm::is_contained(keyLabels, Axis{AxisKind::Key}) ||
      llvm::is_contained(queryLabels, Axis{AxisKind::Key})) {
    return fail(RejectCategory::Contraction,
           "Q·Kᵀ does not contract the head dim of Q with the head dim of K");
  }
  match.query = peelOperand(leaf(view->inputs[queryIndex], queryLabels),
                            queryLabels, /*allowScale=*/true);
  match.key = peelOperand(leaf(view->inputs[1 - queryIndex], keyLabels),
                          keyLabels, /*allowScale=*/true);
  if (!match.query || !match.key) {
    return fail(RejectCategory::Structure,
           "Q or K is computed inside the Q·Kᵀ op, not passed as a tensor");
  }
  this->queryLabels = queryLabels;
  this->keyLabels = keyLabels;
  // Q and K in any order of their dims (K stored as [..., D, Nk], BSHD,
  // sequence-first): the labels say which dim is which, and the rewrite
  // transposes them to the op's order.
  return checkLayout("Q", queryLabels,
                     canonicalLabels(numBatchDims, AxisKind::Query,
                                     AxisKind::HeadDim, groupAxis),
                     match.queryPermutation) &&
         checkLayout("K", keyLabels,
                     canonicalLabels(numBatchDims, AxisKind::Key,
                                     AxisKind::HeadDim),
                     match.keyPermutation);
}

/// True when nothing observes `op`: it has no side effects and its results
/// are unused, or used only by such ops (a reshaped copy of the logsumexp
/// that the graph pruned, say).
bool isDeadCode(Operation *op, unsigned depth) {
  if (depth == 0 || !wouldOpBeTriviallyDead(op))
    return false;
  return llvm::all_of(op->getUsers(), [&](Operation *user) {
    return isDeadCode(user, depth - 1);
  });
}

/// True when `user` only hands the value on out of the function: a
/// return, a shape query, or pure copies and casts (no contraction) whose
/// users do the same.
static bool escapesOnly(Operation *user, unsigned depth = 4) {
  if (user->hasTrait<OpTrait::ReturnLike>() || isa<tensor::DimOp>(user))
    return true;
  if (depth == 0 || !isPure(user) || user->getNumRegions() > 1 ||
      isContraction(user) || user->getNumResults() == 0)
    return false;
  return llvm::all_of(user->getUsers(), [&](Operation *next) {
    return escapesOnly(next, depth - 1);
  });
}

bool Matcher::onlyEscapes() {
  for (Operation *op : patternOps) {
    if ((match.logsumexp && logsumexpTerm &&
         op == logsumexpTerm->value.getDefiningOp()) ||
        op == match.normalization)
      continue;
    for (Operation *user : op->getUsers())
      if (user != root && !patternOps.contains(user) &&
          !backwardOps.contains(user) && !isDeadCode(user) &&
          !escapesOnly(user))
        return false;
  }
  return true;
}

bool Matcher::checkExternalUses() {
  // The logsumexp may be used outside: the op computes it too.
  Operation *logsumexpOp =
      logsumexpTerm ? logsumexpTerm->value.getDefiningOp() : nullptr;
  if (logsumexpOp &&
      llvm::any_of(logsumexpOp->getUsers(), [&](Operation *user) {
        return user != root && !patternOps.contains(user) &&
               !isDeadCode(user);
      })) {
    match.logsumexp = logsumexpTerm->value;
    match.logsumexpLabels = logsumexpTerm->labels;
  }
  // An online softmax's zero starts (isZeroRescale) of the pattern's sums
  // and of P·V's accumulator are the pattern's too.
  SmallVector<Operation *> starts;
  for (Operation *op : llvm::concat<Operation *const>(patternOps.getArrayRef(),
                                                      ArrayRef(root)))
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      for (Value init : linalgOp.getDpsInits())
        llvm::append_range(starts, zeroRescaleOps(init));
  for (Operation *op : starts)
    patternOps.insert(op);
  // Dead users are erased with the pattern.
  SmallVector<Operation *> deadUsers;
  for (Operation *op : patternOps)
    for (Operation *user : op->getUsers())
      if (user != root && !patternOps.contains(user) && isDeadCode(user))
        deadUsers.push_back(user);
  for (Operation *user : deadUsers)
    patternOps.insert(user);
  auto firstExternalUse = [&]() -> std::pair<Operation *, Operation *> {
    for (Operation *op : patternOps) {
      if ((match.logsumexp && op == logsumexpOp) ||
          op == match.normalization)
        continue;
      for (Operation *user : op->getUsers())
        if (user != root && !patternOps.contains(user) &&
            !backwardOps.contains(user) && !isDeadCode(user))
          return {op, user};
    }
    return {nullptr, nullptr};
  };
  auto [op, user] = firstExternalUse();
  if (!op)
    return true;
  // A joint graph: P feeds attention's backward too. Its ops are then
  // users of the pattern like the root.
  bool looksLikeBackward = false;
  if (matchBackward(looksLikeBackward)) {
    std::tie(op, user) = firstExternalUse();
    if (!op)
      return true;
  } else if (looksLikeBackward) {
    return false;
  }
  match.backward.reset();
  if (options.shareScores && onlyEscapes()) {
    // Attention weights also returned (or only their shape read): the
    // frontend's ops stay for that use (the rewrite erases only what
    // became dead) and O comes from the op. Exact, though the shared part
    // is computed twice. Other uses (a backward not matched, a second
    // consumer) are refused: the program would keep the N×N tensors and
    // compute them twice.
    match.sharedUser = user;
    return true;
  }
  return fail(RejectCategory::ExternalUse,
              "the result of " + op->getName().getStringRef() +
                  " (scores or probabilities) is also used by " +
                  user->getName().getStringRef() + " outside the pattern");
}

} // namespace mlir::fa::recognition::detail

bool mlir::fa::recognition::isContraction(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  std::optional<StructuredView> view = getStructuredView(op->getResult(0));
  return view && getContraction(*view, /*anyReductions=*/true).has_value();
}

bool mlir::fa::recognition::feedsOnSoftmax(Operation *op) {
  return llvm::any_of(op->getOperands(),
                      [](Value operand) { return findSoftmax(operand); });
}

/// Matching creates these ops with a plain builder (the matcher has no
/// rewriter): a refused candidate erases them again (matchAttention), an
/// accepted one makes them part of its pattern.
Value Matcher::materializeCondition(Term *condition, bool anyType) {
  auto op = dyn_cast_or_null<linalg::GenericOp>(condition->bodyOp);
  Value cond = condition->scalar;
  if (!op || !cond || (!anyType && !cond.getType().isInteger(1)) ||
      op.getNumReductionLoops() != 0 || op->getNumResults() != 1)
    return Value();
  Block *body = op.getBlock();
  AffineMap resultMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!resultMap.isPermutation())
    return Value();
  // The condition's slice in the body, inputs read, in body order.
  llvm::SetVector<Operation *> slice;
  llvm::SetVector<unsigned> inputs;
  SmallVector<Value> worklist = {cond};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      if (argument.getOwner() != body)
        continue; // from above
      OpOperand &operand = op->getOpOperand(argument.getArgNumber());
      if (!op.isDpsInput(&operand))
        return Value(); // the accumulator
      inputs.insert(argument.getArgNumber());
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() != body)
      continue; // from above
    if (!isPure(def) || def->getNumRegions() != 0)
      return Value();
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  // The mask must not read the scores.
  std::optional<StructuredView> view = getStructuredView(op->getResult(0));
  std::optional<LoopLabels> loops =
      view ? labelLoops(*view, condition->labels) : std::nullopt;
  if (!loops)
    return Value();
  for (unsigned number : inputs) {
    Value input = op->getOperand(number);
    std::optional<Labels> inputLabels =
        labelOperand(op.getMatchingIndexingMap(&op->getOpOperand(number)),
                     *loops);
    if (!inputLabels || dependsOnContraction(leaf(input, *inputLabels)))
      return Value();
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value init = op.getDpsInitOperand(0)->get();
  auto initType = cast<RankedTensorType>(init.getType());
  Type elementType = cond.getType();
  Value empty = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, init), elementType);
  SmallVector<Value> newInputs;
  SmallVector<AffineMap> maps;
  for (unsigned number : inputs) {
    newInputs.push_back(op->getOperand(number));
    maps.push_back(op.getMatchingIndexingMap(&op->getOpOperand(number)));
  }
  maps.push_back(resultMap);
  SmallVector<utils::IteratorType> iterators(op.getNumLoops(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{initType.clone(elementType)}, newInputs,
      ValueRange{empty}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        IRMapping mapping;
        for (auto [index, number] : llvm::enumerate(inputs))
          mapping.map(body->getArgument(number), args[index]);
        // Slice ops in body order, so that operands come first.
        for (Operation &bodyOp : body->without_terminator())
          if (slice.contains(&bodyOp))
            nb.clone(bodyOp, mapping);
        linalg::YieldOp::create(nb, nloc, mapping.lookup(cond));
      });
  materialized.push_back(generic);
  if (Operation *emptyOp = empty.getDefiningOp())
    materialized.push_back(emptyOp);
  return generic.getResult(0);
}

std::optional<AttentionMatch>
mlir::fa::recognition::matchAttention(Operation *root, Rejection &rejection,
                                      const MatchOptions &options) {
  auto attempt = [&](bool swapQueryAxes, bool scoresAsFunction, Rejection &why,
                     bool &twoQueryLoops,
                     bool &refusedInScores) -> std::optional<AttentionMatch> {
    Matcher matcher(root, why, swapQueryAxes, scoresAsFunction, options);
    std::optional<AttentionMatch> match = matcher.run();
    twoQueryLoops = matcher.twoQueryLoops;
    refusedInScores = matcher.refusedInScores;
    if (!match) {
      // Refused: the IR is left exactly as it was.
      for (Operation *op : matcher.materialized)
        op->erase();
      return match;
    }
    llvm::append_range(match->patternOps, matcher.materialized);
    match->materialized = std::move(matcher.materialized);
    return match;
  };
  bool twoQueryLoops = false;
  bool refusedInScores = false;
  std::optional<AttentionMatch> match =
      attempt(false, false, rejection, twoQueryLoops, refusedInScores);
  // Masks and biases that do not combine into the op's one mask (fills
  // other than -inf, a mask before a scale, a 0/1 factor, ...) are still
  // exact as one score function over the tensors they read: the last try,
  // since the op's masks and attributes let the kernel skip hidden tiles.
  auto asScoreFunction = [&]() -> std::optional<AttentionMatch> {
    if (!refusedInScores)
      return std::nullopt;
    Rejection why;
    bool unused = false, unusedToo = false;
    std::optional<AttentionMatch> function =
        attempt(false, true, why, unused, unusedToo);
    if (!function && why.message != rejection.message)
      rejection.message +=
          "; read as one score function instead: " + why.message;
    return function;
  };
  // A grouped contraction: P·V alone cannot tell the sequence from the
  // group axis. Where the first reading is refused or keeps a mask tensor,
  // the other reading is tried: a causal mask compares the sequence with
  // the keys, so there it becomes the causal attribute. The first reading's
  // reason stands when both are refused.
  if (!twoQueryLoops || (match && !match->mask))
    return match ? match : asScoreFunction();
  Rejection other;
  bool unused = false, unusedToo = false;
  std::optional<AttentionMatch> swapped =
      attempt(true, false, other, unused, unusedToo);
  if (!swapped)
    return match ? match : asScoreFunction();
  if (match && swapped->mask) {
    for (Operation *op : swapped->materialized)
      op->erase();
    return match;
  }
  if (match)
    for (Operation *op : match->materialized)
      op->erase();
  return swapped;
}
