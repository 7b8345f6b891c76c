"""The mutations of the stage Recognition (lib/Transforms/Recognition).
The fields of an entry: scripts/mutations/__init__.py."""
from . import Mutation
from .tests import BACKWARD, DIFFERENTIAL, JOINT_TESTS, LINEAR_NEAR_MISSES, MOD

MUTATIONS = [
    # Issue 50: the outside audit's one-line bugs that no test saw, and the
    # session's own rules (the host's tiles, the TMA walk order).
    Mutation(
        name="tosa-intdiv-floors",
        function="ElementWalk::tosaElementwise",
        old="            return arith::DivSIOp::create(b, loc, x[0], x[1]);",
        new="            return arith::FloorDivSIOp::create(b, loc, x[0], x[1]);",
        tests=["test/Transforms/Recognition/FoldMasks/tosa-casts.mlir",
               "test/Integration/Modifiers/tosa-intdiv-f16.mlir"],
        description="tosa.intdiv folded as floor division (TOSA truncates toward zero)"),
    # Linear attention's recognition: each near miss must stay refused.
    Mutation(
        name="linear-anti-causal-accepted",
        function="mlir::fa::recognition::detail::Matcher::classifyWeightFactors",
        old="""      if (value != 0.0)
        return notCausal(llvm::formatv("it keeps key {0} of query {1}", j, i)""",
        new="""      if (value != value)
        return notCausal(llvm::formatv("it keeps key {0} of query {1}", j, i)""",
        tests=[LINEAR_NEAR_MISSES, "test/Differential/linear-programs.test"],
        description="a mask that keeps later keys read as causal (an anti-causal mask as a decay of 0)"),
    Mutation(
        name="linear-decay-tolerance-widened",
        function="mlir::fa::recognition::detail::Matcher::classifyWeightFactors",
        old="double tolerance = (1e-6 + 2e-7 * double(n)) * expected + 1e-35;",
        new="double tolerance = 1e-1 * expected + 1e-35;",
        tests=[LINEAR_NEAR_MISSES, "test/Differential/linear-programs.test"],
        description="a decay table within 10% of gamma^n accepted as gamma^n"),
    Mutation(
        name="linear-normalizer-axis-unchecked",
        function="mlir::fa::recognition::detail::Matcher::matchNormalizer",
        old="""  if (!matchRowReduction(sum, weights, /*isMax=*/false,
                         "normalizer of the weights"))
    return false;""",
        new="""  (void)sum;""",
        tests=[LINEAR_NEAR_MISSES, "test/Differential/linear-programs.test"],
        description="any sum of the weights (over the queries too) taken as the row normalizer"),
    # Score and mask modifications (issue 33): the regions, sinks, the
    # tiles a mask_mod hides, and their recognition.
    Mutation(
        name="fold-broadcast-read-at-index",
        function="ElementWalk::broadcastIndex",
        old="""    if (operand.getDimSize(dim) == 1 && result.getDimSize(dim) != 1)
      return zero();""",
        new="""    if (operand.getDimSize(dim) == 0 && result.getDimSize(dim) != 1)
      return zero();""",
        tests=[MOD + "raise-position-masks-tosa.mlir"],
        description="the fold reads a broadcast TOSA operand at the result's index instead of 0"),
    Mutation(
        name="fold-arange-wrong-dim",
        function="ElementWalk::constant",
        old="    return arith::IndexCastOp::create(*builder, loc, elementType, indices[dim])",
        new="    return arith::IndexCastOp::create(*builder, loc, elementType, indices[0])",
        tests=[MOD + "raise-position-masks-tosa.mlir"],
        description="an arange constant read as the index of its first dim, not of the dim it runs along"),
    Mutation(
        name="fold-split-divides-twice",
        function="ElementWalk::delinearize",
        old="    indices[dim] = arith::RemUIOp::create(*builder, loc, rest, size);",
        new="    indices[dim] = arith::DivUIOp::create(*builder, loc, rest, size);",
        tests=["test/Transforms/Recognition/FoldMasks/reshapes.mlir"],
        description="a reshape's split of a linear index divides where it should take the remainder"),
    Mutation(
        name="fold-merge-wrong-stride",
        function="ElementWalk::linearize",
        old="    Value stride = arith::ConstantIndexOp::create(*builder, loc, size);",
        new="    Value stride = arith::ConstantIndexOp::create(*builder, loc, size + 1);",
        tests=["test/Transforms/Recognition/FoldMasks/reshapes.mlir"],
        description="a reshape's merge of dims linearizes with a stride one too large"),
    Mutation(
        name="fold-gather-first-column",
        function="ElementWalk::tosaGather",
        old="  return element(gather.getValues(), {indices[0], row, indices[2]});",
        new="  return element(gather.getValues(), {indices[0], row, zero()});",
        tests=[MOD + "raise-position-masks-tosa.mlir", MOD + "raise-joint-graphs-tosa.mlir"],
        description="tosa.gather folded to read the table's first column: every head gets head 0's T5 bias"),
    Mutation(
        name="fold-float-to-int-truncates",
        function="castFloatToInt",
        old="  Value rounded = math::RoundEvenOp::create(b, loc, x);",
        new="  Value rounded = x;",
        tests=["test/Transforms/Recognition/FoldMasks/tosa-casts.mlir"],
        description="tosa.cast from float to integer folded as truncation, not round-to-nearest-even"),
    Mutation(
        name="sink-splat-logit-dropped",
        function="arrangeSinks",
        old="        b, loc, b.getFloatAttr(f32, *match.sinkSplat));",
        new="        b, loc, b.getFloatAttr(f32, 0.0));",
        tests=[MOD + "raise-sinks.mlir", DIFFERENTIAL],
        description="a splat sink column raised as sinks of 0 instead of its logit"),
    Mutation(
        name="sink-rounded-slice-not-peeled",
        function="mlir::fa::recognition::detail::Matcher::run",
        old="  if (Value source = floatCastSource(probs->first)) {",
        new="  if (Value source = Value()) {",
        tests=["test/Transforms/Recognition/RaiseAttention/sinks-spellings.mlir"],
        description="sinks refused when P is rounded to V's type after the slice (a false negative)"),
    Mutation(
        name="score-function-select-dropped",
        function="mlir::fa::recognition::detail::Matcher::translateScoreFunction",
        old="    return node(ScalarKind::Select, 0, std::move(*operands));",
        new="    return (*operands)[1];",
        tests=[MOD + "raise-softcap.mlir",
               "test/Integration/raise-score-function-tensors.mlir"],
        description="a mask inside a score function dropped: hidden keys keep their score"),
    Mutation(
        name="score-function-tensor-from-scores",
        function="mlir::fa::recognition::detail::Matcher::checkScoreFunctionTensors",
        old="      if (def == contraction) {",
        new="      if (false) {",
        tests=["test/Transforms/Recognition/RaiseAttention/algebraic-rules-near-misses.mlir"],
        description="a score function reading a tensor computed from the scores (a "
                    "column max) raised: every score computed twice"),
    Mutation(
        name="score-function-empty-rows",
        function="mlir::fa::recognition::detail::Matcher::settleEmptyRows",
        old="  rowsCanBeEmpty |= functionHidesKeys;",
        new="  rowsCanBeEmpty |= false;",
        tests=["test/Integration/raise-score-function-tensors.mlir"],
        description="a score function that may hide a whole row with -inf: the frontend's "
                    "NaN rows become the op's 0"),
    Mutation(
        name="shared-scores-read-by-contraction",
        function="mlir::fa::recognition::detail::escapesOnly",
        old="      isContraction(user) || user->getNumResults() == 0)",
        new="      user->getNumResults() == 0)",
        tests=["test/Transforms/nothing-lost.mlir"],
        description="scores read by another contraction taken as only returned: the N×N "
                    "contraction kept beside the op"),
    Mutation(
        name="max-initial-any-constant",
        function="mlir::fa::recognition::detail::Matcher::matchRowReduction",
        old="             std::isinf(resolved->constant) && resolved->constant < 0;",
        new="             true;",
        tests=["test/Transforms/Recognition/RaiseAttention/algebraic-rules-near-misses.mlir"],
        description="max(m, c) read as the row max for any constant c: rows below c are "
                    "shifted by c"),
    Mutation(
        name="grouped-sinks-group-not-head",
        function="mlir::fa::recognition::detail::Matcher::peelSinkColumn",
        old="                   (axis.kind == AxisKind::Group && groupAxis) ||",
        new="                   false ||",
        tests=["test/Integration/Modifiers/raise-sinks-grouped.mlir"],
        description="a sink column along the group of grouped queries refused as not per "
                    "head (JAX's GQA with sinks left unraised)"),
    Mutation(
        name="merged-heads-split-swapped",
        function="splitGroupedHeads",
        old="      split.push_back(Axis{AxisKind::Batch, match.numBatchDims - 1});\n"
            "      split.push_back(Axis{AxisKind::Group});",
        new="      split.push_back(Axis{AxisKind::Group});\n"
            "      split.push_back(Axis{AxisKind::Batch, match.numBatchDims - 1});",
        tests=["test/Integration/raise-merged-grouped-heads.mlir"],
        description="a bias along the merged [Hkv·G] heads split as [G, Hkv]: each head "
                    "reads another head's bias"),
    Mutation(
        name="sink-merged-heads-despite-part",
        function="mlir::fa::recognition::detail::Matcher::headsFromSplit",
        old="  if (numBatchDims != 1 || partRead || match.kvLengths || match.backward ||",
        new="  if (numBatchDims != 1 || match.kvLengths || match.backward ||",
        tests=["test/Transforms/Recognition/RaiseAttention/sinks-under-reshapes.mlir"],
        description="sinks per merged [Hkv·G] head taken as the op's heads while a bias "
                    "reads only [Hkv]: the bias read at the wrong heads"),
    Mutation(
        name="sink-column-per-query-raised",
        function="mlir::fa::recognition::detail::Matcher::peelSinkColumn",
        old="    if (!perHead)\n      return fail(RejectCategory::Mask,",
        new="    if (false)\n      return fail(RejectCategory::Mask,",
        tests=[MOD + "raise-sinks.mlir"],
        description="a column that varies along the queries raised as a per-head sink"),
    # The backward of score modifications (issue 33): the derivative of the
    # score_mod, dSinks, and training graphs raised with them.
    Mutation(
        name="joint-score-derivative-unchecked",
        function="mlir::fa::recognition::detail::Matcher::matchScoreFunctionDerivative",
        old="    if (!defined)\n      return fail(RejectCategory::Structure,",
        new="    if (!defined || true)\n      return true;\n    if (!defined)\n      return fail(RejectCategory::Structure,",
        tests=["test/Transforms/Recognition/RaiseAttention/joint-graph-score-functions.mlir"],
        description="any function of the scores accepted as the score function's derivative"),
    Mutation(
        name="joint-score-derivative-missing-accepted",
        function="mlir::fa::recognition::detail::Matcher::matchQueryOrKeyGradient",
        old="  if (!match.scoreFunction.empty() && !scoreDerivativeSeen)",
        new="  if (false && !scoreDerivativeSeen)",
        tests=["test/Transforms/Recognition/RaiseAttention/joint-graph-score-functions.mlir"],
        description="a backward without the score function's derivative raised"),
    Mutation(
        name="joint-sink-pad-nonzero-accepted",
        function="mlir::fa::recognition::detail::zeroColumnPad",
        old="    if (!padding || !isZero(padding))\n      return nullptr;",
        new="    if (!padding)\n      return nullptr;",
        tests=["test/Transforms/Recognition/RaiseAttention/joint-graph-sinks.mlir"],
        description="dP padded with a nonzero sink column taken as the slice's backward"),
    Mutation(
        name="joint-sink-gradient-over-heads",
        function="mlir::fa::recognition::detail::Matcher::matchSinkGradient",
        old="      if (reduced && (!(*loops)[loop] || isHead(*(*loops)[loop])))",
        new="      if (reduced && !(*loops)[loop])",
        tests=["test/Transforms/Recognition/RaiseAttention/joint-graph-sinks.mlir"],
        description="a sink gradient summed over the heads taken as dSinks"),
    Mutation(
        name="fold-backward-mask-kept",
        function="mlir::fa::foldMaskIntoModifiers",
        old="  if (backward && backward.getGradMask()) {",
        new="  if (backward) {",
        tests=[MOD + "raise-joint-graphs.mlir", MOD + "raise-joint-graphs-tosa.mlir"],
        description="fa-fold-masks-into-modifiers leaves the backward op's mask as an N x N operand"),
    # FlashAttention-2's exponential and copy order (issue 28).
    Mutation(
        name="raise-divide-as-multiply",
        function="mlir::fa::recognition::detail::Matcher::peelScoreScale",
        old="      match.scale *= isDiv ? 1.0 / rhs->constant : rhs->constant;",
        new="      match.scale *= rhs->constant;",
        tests=["test/Integration/Blocks/bert-encoder-linalg.test",
               "test/Integration/Blocks/torch-bert-argmax-f64-div.mlir",
               "test/Integration/raise-linalg.mlir"],
        description="a divided scale is raised as a multiply"),
    Mutation(
        name="raise-mask-not-inverted",
        function="mlir::fa::recognition::detail::Matcher::peelScoreSelect",
        old="      match.invertMask = invert;",
        new="      match.invertMask = false;",
        tests=["test/Integration/raise-tosa.mlir", "test/Integration/raise-masks-and-groups.mlir"],
        description="masked_fill's hide-mask is raised as a keep-mask"),
    Mutation(
        name="identity-drops-any-add",
        function="mlir::fa::recognition::simplifyIdentity",
        old="""  case ScalarKind::Add:
    if (isConstant(view, rhs, 0.0))""",
        new="""  case ScalarKind::Add:
    if (view.node(rhs).kind == ScalarKind::Constant)""",
        tests=["test/Transforms/Recognition/RaiseAttention/normalization-near-misses.mlir"],
        description="x + c is read as x for any constant c"),
    Mutation(
        name="fold-without-rounding",
        function="roundTo",
        old="""  rounded.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);""",
        new="""  (void)floatType;""",
        tests=["unittests"],
        description="constants are folded in f64, not in each op's type"),
    Mutation(
        name="transposes-dropped",
        function="transpose",
        old="""  if (permutation.empty())
    return tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);""",
        new="""  return tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);""",
        tests=["test/Integration/Blocks/fairseq-sequence-first.mlir",
               "test/Integration/Blocks/iree-kq-transposed-scores.mlir",
               "test/Transforms/Recognition/RaiseAttention/layouts.mlir"],
        description="operands held in another order reach the op untransposed"),
    Mutation(
        name="silent-misses",
        function="mlir::fa::recognition::findSoftmaxUses",
        old="          uses.push_back(use);\n          continue;\n        }\n        if (!stopsTheWalk(user))",
        new="          (void)use;\n          continue;\n        }\n        if (!stopsTheWalk(user))",
        tests=["test/Transforms/Recognition/RaiseAttention/no-silent-misses.mlir"],
        description="an exp that reaches a contraction unseen gets no remark"),
    # Recognition of length masks and page gathers (session 10).
    Mutation(
        name="length-mask-less-equal",
        function="Evaluator::apply",
        old="""      if (op == ScalarOp::Less && keyThenLength) { // j < L""",
        new="""      if ((op == ScalarOp::Less || op == ScalarOp::LessEq) &&
          keyThenLength) { // j < L""",
        tests=["test/Transforms/Recognition/RaiseAttention/length-masks.mlir",
               "test/Integration/raise-length-masks.mlir"],
        description="j <= L is taken for j < L (one key fewer than the frontend shows)"),
    Mutation(
        name="length-mask-hide-polarity",
        function="Evaluator::apply",
        old="""      if (op == ScalarOp::LessEq && lengthThenKey) { // L <= j
        step.inside = 0;
        step.outside = 1;""",
        new="""      if (op == ScalarOp::LessEq && lengthThenKey) { // L <= j
        step.inside = 1;
        step.outside = 0;""",
        tests=["test/Transforms/Recognition/RaiseAttention/length-masks.mlir",
               "test/Integration/raise-length-masks.mlir"],
        description="L <= j is read as j < L"),
    Mutation(
        name="length-mask-finite-bias",
        function="mlir::fa::recognition::classifyLengthMask",
        old="""  if (maskShows(meaning, outside) == false)
    return sym->lengths;""",
        new="""  if (maskShows(meaning, outside) == false || outside < 0)
    return sym->lengths;""",
        tests=["test/Transforms/Recognition/RaiseAttention/length-masks.mlir",
               "test/Integration/raise-length-masks.mlir"],
        description="a -10000 bias from a length is taken for -inf"),
    Mutation(
        name="paged-slot-major",
        function="mlir::fa::recognition::findPageGather",
        old="""    if (group.size() != 2 || gathered[group[0]] != GatherAxis::Page ||
        gathered[group[1]] != GatherAxis::Slot)""",
        new="""    if (group.size() != 2)""",
        tests=["test/Transforms/Recognition/RaiseAttention/paged-cache.mlir",
               "test/Integration/raise-paged-cache.mlir"],
        description="keys numbered slot-major are taken for page-major"),
    Mutation(
        name="paged-two-tables",
        function="mlir::fa::recognition::detail::Matcher::finishMatch",
        old="""    if (keyPages && valuePages && keyPages->table == valuePages->table) {""",
        new="""    if (keyPages && valuePages) {""",
        tests=["test/Transforms/Recognition/RaiseAttention/paged-cache.mlir",
               "test/Integration/raise-paged-cache.mlir"],
        description="K and V gathered through different tables are given K's table"),
    # The backward pass (session 11).
    # dS = P (dP - D) is one builder (scoreGradient) for the tiled backward
    # and the reference: dropping D breaks both.
    Mutation(
        name="joint-row-term-unchecked",
        function="mlir::fa::recognition::detail::Matcher::matchSoftmaxBackward",
        old="""    return matchGradProbabilities(difference->operands[0]) &&
           matchRowCorrection(difference->operands[1]);""",
        new="""    return matchGradProbabilities(difference->operands[0]);""",
        tests=JOINT_TESTS,
        description="softmax's backward is accepted whatever its row term sums"),
    Mutation(
        name="joint-gradient-factor-inverted",
        function="mlir::fa::recognition::detail::Matcher::matchQueryOrKeyGradient",
        old="""    double ratio = sameScale(factor, match.scale) ? 1.0 : factor / match.scale;""",
        new="""    double ratio = sameScale(factor, match.scale) ? 1.0 : match.scale / factor;""",
        tests=JOINT_TESTS,
        description="a gradient scaled beyond the forward's scale gets the inverse factor"),
    Mutation(
        name="joint-any-gradient-select",
        function="mlir::fa::recognition::detail::Matcher::matchScoreGradient",
        old="""        if (conditionTensor && sameMask(conditionTensor, mask.condition) &&""",
        new="""        if (conditionTensor &&""",
        tests=JOINT_TESTS,
        description="the gradient may be masked by any tensor, not only the forward's mask"),
    Mutation(
        name="joint-k-operand-unchecked",
        function="mlir::fa::recognition::detail::Matcher::matchQueryOrKeyGradient",
        old="""    if (!sameTensor(read, forward))
      return fail(RejectCategory::Contraction,""",
        new="""    if (false)
      return fail(RejectCategory::Contraction,""",
        tests=JOINT_TESTS,
        description="dQ and dK may contract the score gradient with any tensor"),
    Mutation(
        name="joint-two-grad-outputs",
        function="mlir::fa::recognition::detail::Matcher::isGradOutput",
        old="""  if (gradOutput != source->value ||
      !sameAxes(gradOutputLabels, source->labels))""",
        new="""  if (false)""",
        tests=JOINT_TESTS,
        description="dV and dP may read different tensors as dO"),
    Mutation(
        name="joint-gradient-factor-dropped",
        function="raiseBackward",
        old="""      if (use->factor != 1.0)
        gradient = scaleTensor(b, loc, gradient, use->factor);""",
        new="""      (void)scaleTensor;""",
        tests=JOINT_TESTS,
        description="a scaled Pᵀ·dO (or dS) is raised without its extra factor"),
    Mutation(
        name="joint-gradients-swapped",
        function="raiseBackward",
        old="""    replaceGradient(backward.gradQuery, gradQuery, /*queryRows=*/true);
    replaceGradient(backward.gradKey, gradKey, /*queryRows=*/false);""",
        new="""    replaceGradient(backward.gradQuery, gradKey, /*queryRows=*/true);
    replaceGradient(backward.gradKey, gradQuery, /*queryRows=*/false);""",
        tests=JOINT_TESTS,
        description="the raised dQ and dK are swapped"),
    Mutation(
        name="joint-gradient-layout-dropped",
        function="raiseBackward",
        old="""      gradient = transpose(b, loc, gradient, use->permutation);""",
        new="""      gradient = transpose(b, loc, gradient, {});""",
        tests=JOINT_TESTS,
        description="a gradient the frontend writes transposed is returned in the op's order"),
    Mutation(
        name="joint-backward-before-grad-output",
        function="raiseBackward",
        old="""    rewriter.setInsertionPoint(backward.insertionPoint);""",
        new="""    rewriter.setInsertionPoint(forwardPoint);""",
        tests=JOINT_TESTS,
        description="the backward op is emitted before a dO computed from O"),
    Mutation(
        name="joint-merge-reads-other-batch",
        function="mlir::fa::recognition::detail::Matcher::reshapedLabels",
        old="""  Labels guess = {Axis{AxisKind::Batch, 0}};""",
        new="""  Labels guess = {Axis{AxisKind::Batch, 1}};""",
        tests=JOINT_TESTS,
        description="a merged [B·H] dim is labelled as another batch dim"),
    Mutation(
        name="joint-dq-factor-from-read-only",
        function="mlir::fa::recognition::detail::Matcher::matchQueryOrKeyGradient",
        old="""    factor *= readScale / forwardScale;""",
        new="""    factor *= readScale;""",
        tests=JOINT_TESTS,
        description="the scale of the forward's own Q or K is counted twice"),
    Mutation(
        name="joint-nan-heads-dropped",
        function="raiseBackward",
        old="""      gradValue = poisonGradient(b, loc, gradValue, heads, perHead, Value());""",
        new="""      (void)perHead;""",
        tests=JOINT_TESTS,
        description="dV keeps the op's 0 where the frontend's is NaN (a head with an empty row)"),
    Mutation(
        name="joint-nan-rows-despite-select",
        function="raiseBackward",
        old="""      if (!backward.gradQuery || !backward.gradQuery->maskedGradient)""",
        new="""      if (true)""",
        tests=JOINT_TESTS,
        description="dQ gets NaN rows even where masked_fill's backward zeroed them"),
    # Issue 29: the frontends' default spellings.
    Mutation(
        name="guard-any-accepted",
        function="mlir::fa::recognition::analyzeRowGuard",
        old="""  if (!everyKeyNegInf && !someKeyVisible) {""",
        new="""  if (false) {""",
        tests=["test/Transforms/Recognition/RaiseAttention/empty-row-guard-near-misses.mlir"],
        description="a guard that zeroes rows with some hidden key (any) is taken for _safe_softmax's"),
    Mutation(
        name="guard-rows-restored-as-nan",
        function="mlir::fa::recognition::detail::Matcher::settleEmptyRows",
        old="""  if (emptyRowsGuarded && match.fullyMaskedRows == FullyMaskedRows::NaN)
    match.fullyMaskedRows = FullyMaskedRows::Zero;""",
        new="",
        tests=["test/Integration/raise-safe-softmax.mlir",
               "test/Integration/Blocks/torch-safe-softmax-padding.mlir",
               "test/Integration/Backward/raise-joint-graph-safe-softmax.mlir"],
        description="under _safe_softmax's guard the empty rows still get the NaN fix-up"),
    Mutation(
        name="combined-causal-stays-bottom-right",
        function="mlir::fa::recognition::detail::Matcher::combineMasks",
        old="""      match.causal = DiagonalAlignment::top_left;
    else if (*match.causal == DiagonalAlignment::bottom_right)""",
        new="""      ;
    else if (*match.causal == DiagonalAlignment::bottom_right)""",
        tests=["test/Integration/raise-multiple-masks.mlir"],
        description="a causal mask combined with kv_lengths keeps bottom-right, which the op aligns per sequence"),
    Mutation(
        name="in-body-condition-reads-scores",
        function="mlir::fa::recognition::detail::Matcher::materializeCondition",
        old="""    if (!inputLabels || dependsOnContraction(leaf(input, *inputLabels)))
      return Value();""",
        new="""    if (!inputLabels)
      return Value();""",
        tests=["test/Transforms/Recognition/RaiseAttention/mask-in-select-body.mlir"],
        description="a select whose in-body condition reads the scores is taken for a mask"),
    Mutation(
        name="grouped-second-reading-skipped",
        function="mlir::fa::recognition::matchAttention",
        old="""  if (!twoQueryLoops || (match && !match->mask))""",
        new="""  if (true)""",
        tests=["test/Integration/raise-grouped-contraction.mlir"],
        description="a grouped contraction whose sequence comes after its group keeps its causal mask as a tensor"),
    Mutation(
        name="grouped-mask-not-broadcast",
        function="mergeMaskGroup",
        old="""  if (hasHeads != hasGroup) {""",
        new="""  if (false) {""",
        tests=["test/Integration/raise-grouped-contraction.mlir"],
        description="a grouped mask that varies with the group only is merged as if it varied with the heads"),
    Mutation(
        name="joint-masks-never-compared",
        function="mlir::fa::recognition::detail::sameMask",
        old="""bool sameMask(Value a, Value b) {
  if (a == b)
    return true;""",
        new="""bool sameMask(Value a, Value b) {
  return true;""",
        tests=["test/Transforms/Recognition/RaiseAttention/joint-graphs.mlir"],
        description="the backward's select is taken for the forward's mask whatever its condition"),
    Mutation(
        name="joint-causal-dk-window-off-by-one",
        function="keysKeptByEmptyRows",
        old="""                   nb, nloc, arith::CmpIPredicate::sle, column, last);""",
        new="""                   nb, nloc, arith::CmpIPredicate::slt, column, last);""",
        tests=["test/Integration/Backward/raise-joint-graph-several-masks.mlir"],
        description="dK's NaNs under a causal gradient select stop one key short of an empty row's window"),
    Mutation(
        name="joint-several-masks-any-select",
        function="mlir::fa::recognition::detail::Matcher::checkBackward",
        old="""      if (condition != causalMask || !causalKeepsARow)""",
        new="""      if (false)""",
        tests=["test/Transforms/Recognition/RaiseAttention/joint-graphs.mlir"],
        description="a gradient select whose mask may empty rows by itself is taken beside another mask"),
    Mutation(
        name="joint-large-fill-any-mask",
        function="mlir::fa::recognition::detail::Matcher::checkBackward",
        old="""  if (match.backward && match.maskFill && std::abs(*match.maskFill) > 16.0 &&""",
        new="""  if (match.backward && match.maskFill && false &&""",
        tests=["test/Transforms/Recognition/RaiseAttention/joint-graphs.mlir"],
        description="a joint graph with -0.7 max and a runtime mask is raised, whose filled rows the backward rebuilds as weight 1"),
    Mutation(
        name="one-key-length-not-read",
        function="Evaluator::apply",
        old="""      if (keyLen == 1)
        for (Sym &operand : operands)""",
        new="""      if (false)
        for (Sym &operand : operands)""",
        tests=["test/Transforms/Recognition/RaiseAttention/length-masks.mlir"],
        description="with one key the length compared with 0 stays a mask, not kv_lengths"),
    Mutation(
        name="grouped-joint-empty-rows-accepted",
        function="mlir::fa::recognition::detail::Matcher::checkBackward",
        old="""  if (match.backward && match.groupAxis &&
      match.fullyMaskedRows == FullyMaskedRows::NaN)""",
        new="""  if (false)""",
        tests=["test/Transforms/Recognition/RaiseAttention/joint-graphs.mlir"],
        description="a grouped joint graph whose rows may empty is raised, its NaNs restored per query head on per-K/V-head gradients"),
    Mutation(
        name="grouped-joint-dk-group-kept",
        function="mlir::fa::recognition::detail::Matcher::followGradientUser",
        old="""          if (kindOf(query) == AxisKind::Query &&
              kindOf(group) == AxisKind::Group) {""",
        new="""          if (false) {""",
        tests=["test/Integration/Backward/raise-joint-graph-grouped.mlir"],
        description="dK and dV of grouped queries, summed over the group, are not read as gradients"),
    Mutation(
        name="peel-drops-unit-head",
        function="mlir::fa::recognition::detail::Matcher::peelOperand",
        old="""      if (isOrderOfAxes(current->labels) && keepsEveryAxis(current->labels)) {""",
        new="""      if (isOrderOfAxes(current->labels)) {""",
        tests=["test/Differential/random-programs.test"],
        description="Q peeled through the reshape that inserted a K/V head of size 1 loses that axis"),
    Mutation(
        name="reduction-reads-narrowing",
        function="mlir::fa::recognition::detail::Matcher::matchRowReduction",
        old="""    while (view->node(node).kind == ScalarKind::ExtF)""",
        new="""    while (view->node(node).kind == ScalarKind::ExtF ||
           view->node(node).kind == ScalarKind::TruncF)""",
        tests=["test/Transforms/Recognition/RaiseAttention/normalization-near-misses.mlir"],
        description="a row sum of exponentials narrowed to f16 is taken for the softmax's sum"),
    # Issue 31: operator-mutation survivors (scripts/mutate-operators.py,
    # seed 31) that were missing tests, with the tests that now kill them.
    Mutation(
        name="op31-empty-row-keys-offset-subtracted",
        function="keysKeptByEmptyRows",
        old="""               Value last = arith::AddIOp::create(
                   nb, nloc, row,""",
        new="""               Value last = arith::SubIOp::create(
                   nb, nloc, row,""",
        tests=[BACKWARD + "raise-joint-graph-several-masks-offset.mlir"],
        description="dK's NaNs restored at keys j <= i - (Nk - Nq), not j <= i + (Nk - Nq)"),
    Mutation(
        name="op31-constant-mask-key-stride",
        function="mlir::fa::recognition::detail::everyRowKeepsAKey",
        old="""  for (int64_t dim = type.getRank() - 1; dim > keyDim && keyDim >= 0; --dim)""",
        new="""  for (int64_t dim = type.getRank() - 1; dim > keyDim + 1 && keyDim >= 0; --dim)""",
        tests=["test/Transforms/Recognition/RaiseAttention/joint-graph-constant-mask-rows.mlir"],
        description="a constant mask stored [key, query] is read along the wrong dim for empty rows"),
    Mutation(
        name="op31-dp-operands-in-order",
        function="mlir::fa::recognition::detail::Matcher::matchGradProbabilities",
        old="""  unsigned gradIndex = llvm::is_contained(*lhs, Axis{AxisKind::Query}) ? 0 : 1;""",
        new="""  unsigned gradIndex = 0;""",
        tests=[BACKWARD + "raise-joint-graphs.mlir"],
        description="dP = dO·Vᵀ is only matched with dO as the first operand"),
    Mutation(
        name="op31-several-masks-query-length-unpermuted",
        function="mlir::fa::recognition::detail::Matcher::checkBackward",
        old="""    int64_t queryLen = queryType.getDimSize(
        match.queryPermutation.empty()""",
        new="""    int64_t queryLen = queryType.getDimSize(
        true""",
        tests=[BACKWARD + "raise-joint-graph-several-masks-offset.mlir"],
        description="Nq of a joint graph with several masks read without Q's permutation"),
    Mutation(
        name="op31-several-masks-key-length-unpermuted",
        function="mlir::fa::recognition::detail::Matcher::checkBackward",
        old="""    int64_t keyLen = keyType.getDimSize(
        match.keyPermutation.empty()""",
        new="""    int64_t keyLen = keyType.getDimSize(
        true""",
        tests=[BACKWARD + "raise-joint-graph-several-masks-offset.mlir"],
        description="Nk of a joint graph with several masks read without K's permutation"),
    Mutation(
        name="op31-guard-reshape-types-swapped",
        function="mlir::fa::recognition::analyzeRowGuard",
        old="""      reshapes.emplace_back(cast<ShapedType>(def->getOperand(0).getType()),
                            cast<ShapedType>(current.getType()));""",
        new="""      reshapes.emplace_back(cast<ShapedType>(current.getType()),
                            cast<ShapedType>(def->getOperand(0).getType()));""",
        tests=["test/Integration/raise-safe-softmax.mlir"],
        description="an empty-row guard behind reshapes is read through them backwards"),
    Mutation(
        name="op31-length-step-max-as-min",
        function="evaluateScalar",
        old="""    double picked = op == ScalarOp::Max ? std::max(args[0], args[1])""",
        new="""    double picked = op == ScalarOp::Max ? std::min(args[0], args[1])""",
        tests=["test/Transforms/Recognition/RaiseAttention/length-masks-clamped.mlir"],
        description="a padding bias clamped below (max) is folded as min: it stays a mask"),
    Mutation(
        name="op31-length-step-min-as-max",
        function="evaluateScalar",
        old="""                                        : std::min(args[0], args[1]);""",
        new="""                                        : std::max(args[0], args[1]);""",
        tests=["test/Transforms/Recognition/RaiseAttention/length-masks-clamped.mlir"],
        description="a padding bias clamped above (min) is folded as max: it stays a mask"),
    Mutation(
        name="op31-rsqrt-of-zero-is-a-scale",
        function="evaluateScalarOp",
        old="""        if (!x || *x <= 0)
          return std::nullopt;
        double root = std::sqrt(*x);""",
        new="""        if (!x && *x <= 0)
          return std::nullopt;
        double root = std::sqrt(*x);""",
        tests=["unittests"],
        description="rsqrt of 0 or of a negative constant is taken as an exact scale"),
    Mutation(
        name="op31-dynamic-key-length-fits-anything",
        function="Evaluator::apply",
        old="""                              ? std::numeric_limits<int32_t>::max()
                              : keyLen - 1;""",
        new="""                              ? std::numeric_limits<int32_t>::min()
                              : keyLen - 1;""",
        tests=["test/Transforms/Recognition/RaiseAttention/length-masks.mlir"],
        description="a key position narrowed to i16 on a dynamic key length is still taken for j"),
    Mutation(
        name="op31-generic-repeat-keeps-wrong-dims",
        function="findRepeatSource",
        old="""      if (d == dim)
        continue;
      if (map.getResult(r++) != getAffineDimExpr(d, ctx))""",
        new="""      if (d != dim)
        continue;
      if (map.getResult(r++) != getAffineDimExpr(d, ctx))""",
        tests=["test/Transforms/Recognition/RaiseAttention/linalg-spellings.mlir"],
        description="a GQA repeat written as a generic copy without the group dim is not found"),
    Mutation(
        name="op31-narrowing-as-unsigned",
        function="Evaluator::apply",
        old="""        bool fits = to >= 64 || largest < (int64_t(1) << (to - 1));""",
        new="""        bool fits = to >= 64 || largest < (int64_t(1) << to);""",
        tests=["test/Transforms/Recognition/RaiseAttention/length-masks.mlir"],
        description="a key position truncated to i8 with Nk = 200 is still taken for j (it wraps negative)"),
    Mutation(
        name="op31-constant-mask-row-dim-defaults-to-batch",
        function="mlir::fa::recognition::classifyCausalMask",
        old="""  int64_t rowDim = -1, colDim = -1;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Query)""",
        new="""  int64_t rowDim = 0, colDim = -1;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Query)""",
        tests=["test/Transforms/Recognition/RaiseAttention/constant-mask-near-misses.mlir"],
        description="a constant mask triangular over the batch is raised as bottom-right causal"),
    Mutation(
        name="op31-row-term-other-factor",
        function="mlir::fa::recognition::detail::Matcher::matchRowCorrection",
        old="""    return isGradOutput(factors[1 - outputIndex]);""",
        new="""    return isGradOutput(factors[outputIndex - 1]);""",
        tests=[BACKWARD + "raise-joint-graphs.mlir"],
        description="rowsum(O∘dO), its factors the other way round, reads a factor that is not there"),
    Mutation(
        name="op31-constant-mask-key-dim-defaults-to-batch",
        function="mlir::fa::recognition::classifyCausalMask",
        old="""  int64_t rowDim = -1, colDim = -1;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Query)""",
        new="""  int64_t rowDim = -1, colDim = 0;
  for (auto [dim, axis] : llvm::enumerate(labels)) {
    if (axis.kind == AxisKind::Query)""",
        tests=["test/Transforms/Recognition/RaiseAttention/constant-mask-near-misses.mlir"],
        description="a constant mask with no key dim, triangular over the batch, is raised as bottom-right causal"),
    # Issue 51's algebraic rules (docs/Recognition.md, "Normalization
    # before matching").
    Mutation(
        name="exp2-without-ln2",
        function="exp2AsExp",
        old="  unsigned ln2 = addConstant(view, std::log(2.0));",
        new="  unsigned ln2 = addConstant(view, 1.0);",
        tests=["test/Integration/raise-algebraic-rules.mlir", "test/HeldOut/held-out.test"],
        description="exp2(y) read as exp(y): the scale loses its ln 2"),
    Mutation(
        name="shift-by-any-row-max-of-it",
        function="mlir::fa::recognition::detail::Matcher::withoutOwnRowMax",
        old="  if (!matchRowReduction(max, inner, /*isMax=*/true, \"shifted row max\"))\n    return nullptr;",
        new="  (void)max;",
        tests=["test/Transforms/Recognition/RaiseAttention/algebraic-rules-near-misses.mlir"],
        description="x - max over the queries of x dropped under the softmax as if a row max"),
    Mutation(
        name="deferred-product-taken-for-division",
        function="mlir::fa::recognition::detail::Matcher::deferredRowSum",
        old="        sum = reciprocalOf(divided->operands[1 - side]);",
        new="        sum = divided->operands[1 - side];",
        tests=["test/Transforms/Recognition/RaiseAttention/algebraic-rules-near-misses.mlir"],
        description="P·V multiplied by the row sum read as divided by it"),
    Mutation(
        name="zero-start-any-max",
        function="isBoundedRescale",
        old="  return max->initConstant && *max->initConstant == *start;",
        new="  return max->initConstant.has_value();",
        tests=["test/Transforms/Recognition/RaiseAttention/online-softmax.mlir", "test/HeldOut/held-out.test"],
        description="exp(m0 - max)·0 taken for 0 when the max starts elsewhere"),
    Mutation(
        name="bias-factor-dropped",
        function="arrangeOpMask",
        old="    if (match.maskFactor != 1.0)\n      mask = scaleTensor(b, loc, mask, match.maskFactor);",
        new="    (void)match.maskFactor;",
        tests=["test/Integration/raise-algebraic-rules.mlir", "test/HeldOut/held-out.test"],
        description="a bias under a scale added unscaled"),
    Mutation(
        name="query-scale-divides-multiplies",
        function="scaleQuery",
        old="                   match.queryScaleDivides\n                       ? arith::DivFOp",
        new="                   !match.queryScaleDivides\n                       ? arith::DivFOp",
        tests=["test/Integration/raise-algebraic-rules.mlir", "test/HeldOut/held-out.test"],
        description="a tensor scale on the scores divides Q instead of multiplying it"),
    Mutation(
        name="tensor-scale-over-bias",
        function="mlir::fa::recognition::detail::Matcher::peelScoreBias",
        old="  if (tensorScale)\n    return fail(RejectCategory::Scale,\n                \"a bias is added under a scale held in a tensor; only a \"",
        new="  if (false)\n    return fail(RejectCategory::Scale,\n                \"a bias is added under a scale held in a tensor; only a \"",
        tests=["test/Transforms/Recognition/RaiseAttention/algebraic-rules-near-misses.mlir"],
        description="a bias under a tensor scale is not scaled by it"),
    Mutation(
        name="widened-value-not-widened",
        function="arrangeOperands",
        old="  if (match.widenValueTo)\n    value = arith::ExtFOp::create(",
        new="  if (false)\n    value = arith::ExtFOp::create(",
        tests=["test/Integration/raise-mixed-element-types.mlir"],
        description="V kept in f16 beside f32 Q and K"),
    Mutation(
        name="unit-factor-taken-for-scale",
        function="mlir::fa::recognition::detail::snapToOne",
        old="  return std::abs(factor - 1.0) <= 1e-6 ? 1.0 : factor;",
        new="  return factor;",
        tests=["test/Differential/random-programs-algebra.test"],
        description="exp2(y·log2 e)'s factor 1 + 2e-8 read as a scale (a finite fill below it refused, the log-sum-exp spelling missed)"),
    Mutation(
        name="op31-external-uses-ignored-with-logsumexp",
        function="mlir::fa::recognition::detail::Matcher::checkExternalUses",
        old="""      if ((match.logsumexp && op == logsumexpOp) ||
          op == match.normalization)
        continue;""",
        new="""      if ((match.logsumexp || op == logsumexpOp) ||
          op == match.normalization)
        continue;""",
        tests=["test/Transforms/Recognition/RaiseAttention/near-misses.mlir"],
        description="with a logsumexp matched, no intermediate's use outside the pattern is seen"),
    # Issue 50: survivors of the partial operator run over the code since
    # 4d6e4b0 (session 31, seed 50), with the tests that now kill them.
    Mutation(
        name="op50-score-mod-maxnum-first-operand",
        function="buildScoreMod",
        old="""      value = arith::MaxNumFOp::create(b, loc, operand(0), operand(1));""",
        new="""      value = arith::MaxNumFOp::create(b, loc, operand(1), operand(1));""",
        tests=[MOD + "raise-softcap.mlir"],
        description="a floor on the scores (maxnumf) rebuilt in score_mod without the score"),
    Mutation(
        name="proven-causal-ignores-later-keys",
        function="provenCausal",
        old="""    return hidden && !hidden->first;
  };""",
        new="""    return true;
  };""",
        tests=["test/Transforms/Recognition/FoldMasks/bands.mlir"],
        description="a mask_mod read as causal once every row sees [0, q], whatever it shows after q"),
    Mutation(
        name="score-condition-refused",
        function="mlir::fa::recognition::detail::Matcher::translateScoreFunction",
        old="""    if (term->kind == ScalarKind::Compare || term->kind == ScalarKind::Not) {
      // A condition on the score itself""",
        new="""    if (false) {
      // A condition on the score itself""",
        tests=["test/Integration/raise-score-conditions.mlir"],
        description="a select whose condition compares the score (nan_to_num, a clamp) left unraised"),
    Mutation(
        name="score-read-twice-by-pointer",
        function="mlir::fa::recognition::detail::Matcher::translateScoreFunction",
        old="""    if (argument && !sameComputation(argument, term)) {""",
        new="""    if (argument && argument != term) {""",
        tests=["test/Integration/raise-score-conditions.mlir"],
        description="TOSA's score, read through a new leaf at each comparison, taken for a second score"),
    Mutation(
        name="comparison-constants-yielded",
        function="mlir::fa::recognition::detail::Matcher::settleEmptyRows",
        old="""    if (node.kind == ScalarKind::Constant && !yieldable[number])
      continue;""",
        new="""    (void)yieldable[number];""",
        tests=["test/Integration/raise-score-conditions.mlir"],
        description="nan_to_num's compared infinities read as scores the function yields: a needless NaN-row guard"),
    Mutation(
        name="linear-combination-affine",
        function="isLinearIn",
        old="""                      [&](Operation *) { return linearOperands == 2; })""",
        new="""                      [&](Operation *) { return linearOperands >= 1; })""",
        tests=["test/Integration/raise-linear-combinations.mlir"],
        description="P·V distributed over P₁ − λP₂ + c, which is affine (c·ΣV lost)"),
    Mutation(
        name="linear-combination-product",
        function="isLinearIn",
        old="""                  .Case([&](arith::MulFOp) { return linearOperands == 1; })""",
        new="""                  .Case([&](arith::MulFOp) { return linearOperands >= 1; })""",
        tests=["test/Integration/raise-linear-combinations.mlir"],
        description="P·V distributed over P₁ · P₂ elementwise"),
    Mutation(
        name="linear-combination-weight-along-keys",
        function="distribute",
        old="""        if (to < 0) // varies along what the contraction sums
          return refuse("a weight of the combination varies along the keys "
                        "P·V sums over");""",
        new="""        if (to < 0) // varies along what the contraction sums
          to = 0;""",
        tests=["test/Integration/raise-linear-combinations.mlir"],
        description="a weight per key taken out of the sum over keys"),
    Mutation(
        name="remask-by-another-mask",
        function="mlir::fa::recognition::detail::Matcher::settleEmptyRows",
        old="""        match.mask == remask.condition &&""",
        new="""        true &&""",
        tests=["test/Integration/raise-remasked-softmax.mlir"],
        description="P zeroed by a mask other than the softmax's own read as XSoftmax"),
    Mutation(
        name="remask-where-kept",
        function="mlir::fa::recognition::detail::Matcher::settleEmptyRows",
        old="""        selectMasks.front().hidesWhenTrue == remask.zeroWhenTrue &&""",
        new="""        true &&""",
        tests=["test/Integration/raise-remasked-softmax.mlir"],
        description="P zeroed where the softmax's mask keeps the key read as XSoftmax"),
    Mutation(
        name="remask-any-fill",
        function="mlir::fa::recognition::detail::Matcher::settleEmptyRows",
        old="""        (fill == -std::numeric_limits<double>::infinity() ||
         isLowestFinite(fill)) &&""",
        new="""        true &&""",
        tests=["test/Integration/raise-remasked-softmax.mlir"],
        description="XSoftmax read under a fill of -1e4, above which no score is known to lie"),
    Mutation(
        name="tosa-combination-factor-per-key",
        function="isScalarFactor",
        old="""  return type && type.hasStaticShape() && type.getNumElements() == 1;""",
        new="""  return type && type.hasStaticShape() && type.getNumElements() >= 1;""",
        tests=["test/Integration/raise-linear-combinations-tosa.mlir"],
        description="a TOSA weight per key taken out of the sum over keys as if it were one scalar"),
    Mutation(
        name="op50-evaluated-oge-strict",
        function="BodyInterpreter::step",
        old="""          case P::UGE:
            return double(*lhs >= *rhs);""",
        new="""          case P::UGE:
            return double(*lhs > *rhs);""",
        tests=["test/Transforms/Recognition/RaiseAttention/linalg-spellings.mlir"],
        description="a mask evaluated from positions reads cmpf oge as strict (the diagonal hidden)"),
    Mutation(
        name="op50-fold-no-mask-silent",
        function="mlir::fa::foldMaskIntoModifiers",
        old="""    why = "no mask";""",
        new="""""",
        tests=["unittests"],
        description="foldMaskIntoModifiers called on an op without a mask fails without saying why"),
    Mutation(
        name="deferred-layout-any-head-merge",
        function="mlir::fa::recognition::detail::Matcher::labelsAfterLayout",
        old="""    return groupAxis && numBatchDims >= 1 && outer == lastBatch &&
           inner.kind == AxisKind::Group;""",
        new="""    return groupAxis && numBatchDims >= 1 &&
           (outer.kind == AxisKind::Group || inner.kind == AxisKind::Group);""",
        tests=["test/Integration/raise-deferred-normalization-layout.mlir"],
        description="P·V's heads merged group-major (g·Hkv + kh) read as fa.attention's grouped heads (kh·G + g) on the way to a deferred division"),
    Mutation(
        name="deferred-layout-permutation-inverted",
        function="mlir::fa::recognition::detail::Matcher::labelsAfterLayout",
        old="""      result[view->inputMaps[0].getDimPosition(dim)] = label;""",
        new="""      result[dim] = labels[view->inputMaps[0].getDimPosition(dim)];""",
        tests=["test/Integration/raise-deferred-normalization-layout.mlir"],
        description="a transposing copy between P·V and a deferred division labelled by the inverse permutation"),
    Mutation(
        name="under-reshapes-operand-from-chain",
        function="ComputeUnderCollapse::matchAndRewrite",
        old="""      if (!generic.getMatchingIndexingMap(input).isIdentity() &&
          computedFrom(input->get(), start))""",
        new="""      if (!generic.getMatchingIndexingMap(input).isIdentity() &&
          false)""",
        tests=["test/Transforms/Recognition/RaiseAttention/elementwise-under-reshapes.mlir"],
        description="a softmax's row max, computed from the expanded view, materialized as if it were a term added to it"),
    Mutation(
        name="under-reshapes-positions-in-body",
        function="isElementwise",
        old="""      !op.getIndexingMapsArray().back().isIdentity() ||
      !op.getBody()->getOps<linalg::IndexOp>().empty())""",
        new="""      !op.getIndexingMapsArray().back().isIdentity())""",
        tests=["test/Integration/raise-expanded-view-biases.mlir"],
        description="an elementwise body reading the expanded view's positions recomputed on the collapsed loops"),
    Mutation(
        name="under-reshapes-destination-dropped",
        function="ComputeUnderCollapse::matchAndRewrite",
        old="""        generic.getMatchingBlockArgument(generic.getDpsInitOperand(0))
                .use_empty()""",
        new="""        true""",
        tests=["test/Transforms/Recognition/RaiseAttention/elementwise-under-reshapes.mlir"],
        description="a body that reads its destination given an empty one on the collapsed shape"),
    Mutation(
        name="op50-large-mask-hiding-condition",
        function="mlir::fa::recognition::symbolicUpperBand",
        old="""      negate = !*showsTrue;""",
        new="""""",
        tests=["test/Transforms/Recognition/RaiseAttention/large-position-masks.mlir"],
        description="a mask too large to evaluate, select(j > i, -inf, 0), read as if its condition kept the key"),
    Mutation(
        name="op50-score-mod-maximumf-as-minimum",
        function="buildScoreMod",
        old="""      value = arith::MaximumFOp::create(b, loc, operand(0), operand(1));""",
        new="""      value = arith::MinimumFOp::create(b, loc, operand(0), operand(1));""",
        tests=["test/Integration/Modifiers/raise-softcap.mlir"],
        description="a score function's maximumf rebuilt in score_mod as minimumf"),
    Mutation(
        name="op50-fold-leaves-dead-producers",
        function="mlir::fa::foldMaskIntoModifiers",
        old="""        (dead->getNumRegions() != 0 && !isa<linalg::LinalgOp>(dead)))""",
        new="""        (dead->getNumRegions() != 0 || !isa<linalg::LinalgOp>(dead)))""",
        tests=["test/Transforms/Recognition/FoldMasks/reshapes.mlir"],
        description="the ops that only fed a folded mask left behind unless they are linalg ops"),
    Mutation(
        name="op50-small-constants-unbounded",
        function="mlir::fa::recognition::detail::Matcher::settleEmptyRows",
        old="""           std::isfinite(term->constant) && std::abs(term->constant) < 1e30;""",
        new="""           std::isfinite(term->constant) && std::abs(term->constant) < 0.0;""",
        tests=["test/Transforms/Recognition/RaiseAttention/score-function-tensors.mlir"],
        description="a score function weighting by a select of two small constants taken as one that may hide every key of a row"),
    Mutation(
        name="op50-sink-gradient-view-dim-misread",
        function="mlir::fa::recognition::detail::Matcher::matchSinkGradient",
        old="""            sourceType.getDimSize(llvm::find(labels, kept[used]) -
                                  labels.begin()) != size)""",
        new="""            sourceType.getDimSize(labels.begin() -
                                  llvm::find(labels, kept[used])) != size)""",
        tests=["test/Integration/Modifiers/raise-joint-graph-sinks.mlir"],
        description="the sink column gradient's reshape checked against the wrong source dim"),
    Mutation(
        name="op50-linear-operands-read-in-chain-mode",
        function="mlir::fa::recognition::detail::Matcher::runLinear",
        old="""  collecting = false;
  inChain = false;
  if (!matchQueryKey(contraction))
    return refuse();""",
        new="""  collecting = false;
  if (!matchQueryKey(contraction))
    return refuse();""",
        tests=["test/Transforms/Recognition/RaiseAttention/linear-attention-reshaped-operands.mlir"],
        description="linear attention's Q and K read through the chain's batch reshapes (a merged [B·H] view split again)"),
    Mutation(
        name="linear-combination-refusal-unexplained",
        function="mlir::fa::recognition::detail::Matcher::matchProbabilities",
        old="""    std::string combination = whyNotDistributed(root);""",
        new="""    std::string combination;""",
        tests=["test/Integration/raise-linear-combinations.mlir"],
        description="a combination of softmaxes left undistributed without saying why"),
    Mutation(
        name="deferred-layout-tosa-transpose-inverted",
        function="mlir::fa::recognition::detail::Matcher::labelsAfterLayout",
        old="""  if (auto transposeOp = dyn_cast<tosa::TransposeOp>(op)) {
    SmallVector<int64_t> permutation(transposeOp.getPerms().begin(),
                                     transposeOp.getPerms().end());
    return permuted(permutation);
  }""",
        new="""  if (auto transposeOp = dyn_cast<tosa::TransposeOp>(op)) {
    SmallVector<int64_t> permutation(transposeOp.getPerms().rbegin(),
                                     transposeOp.getPerms().rend());
    return permuted(permutation);
  }""",
        tests=["test/Integration/raise-deferred-normalization-layout.mlir"],
        description="a tosa.transpose between P·V and a deferred division labelled by a reversed permutation"),
    Mutation(
        name="linear-combination-positions-ignored",
        function="distribute",
        old="""  if (!body->getOps<linalg::IndexOp>().empty())
    return refuse("a weight of the combination is computed from positions "
                  "(linalg.index)");""",
        new="""""",
        tests=["test/Integration/raise-linear-combinations.mlir"],
        description="a weight computed from the key's position moved out of the sum over keys (linalg.index then reads the output's loops)"),
]
