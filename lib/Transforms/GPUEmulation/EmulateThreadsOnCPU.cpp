//===- EmulateThreadsOnCPU.cpp - Run a thread-mapped kernel on a CPU -----===//
//
// Stage: CPU execution of the GPU kernel form. A thread-mapped scf.forall
// whose body synchronizes with gpu.barrier cannot run sequentially as it is:
// thread 0 would read the tiles that later threads have not copied yet. This
// pass splits such a loop at its barriers (loop fission, as CPU backends of
// GPU languages do), so that every phase runs for all threads before the
// next one starts:
//
//   scf.forall (t) in (T) {            scf.forall (t) in (T) { A }
//     A; gpu.barrier                   scf.for k = lb to ub {
//     scf.for k iter_args(x) {   ==>     scf.forall (t) in (T) { B }
//       B; gpu.barrier; C                scf.forall (t) in (T) { C }
//     }                                }
//   }
//
// Values that live across a barrier (and the loop's iter_args) move through
// one private slot per thread: a memref<T x type> allocated in front of the
// loop. Slots are heap allocations (memref.alloc, freed per block by the
// pipeline's deallocation), not stack ones: scf-forall-to-for turns the grid
// into loops that are no allocation scope, so a stack slot per block would
// grow the stack with the grid (a split-KV decode grid of 56 blocks of 128
// threads overflowed 8 MB). Barriers may sit in the thread loop's body or
// in an scf.for directly inside it whose bounds do not depend on the
// thread; anything else is reported. Workgroup memory becomes ordinary memory.
//
// The split kernel computes exactly what the GPU computes under the barrier
// semantics, so its numbers test the kernel that fa-lower-to-gpu maps.
//
// Warp collectives (gpu.shuffle xor, nvgpu.ldmatrix, nvgpu.mma.sync)
// become an exchange through memory, lane by lane as PTX defines them
// (WarpCollectives.h): every lane stores what it contributes in its slot,
// and after a barrier computes its own elements from the slots of the lanes
// that hold them. The barriers then split the loop like any other; a
// collective is warp-synchronous, so every lane of the warp reaches it,
// which is what the split requires of a barrier.
//
// Warp-level matmuls (vector.contract of f16 tiles into f32, which
// fa-warp-matmuls-to-nvgpu turns into mma.sync) are computed in full by
// every emulated thread of the warp; their f16 operands are widened to f32
// first, since the CPU lowering of vector.contract takes one element type.
// That is what the tensor cores compute: exact products, f32 sums.
//
//===----------------------------------------------------------------------===//

#include "AsyncCopies.h"
#include "NamedBarriers.h"
#include "ThreadLoops.h"
#include "TmaCopies.h"
#include "WarpCollectives.h"
#include "WarpgroupMma.h"

#include "fa/Transforms/GPUEmulation/GPUEmulation.h"

#include <numeric>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FAEMULATETHREADSONCPU
#include "fa/Transforms/GPUEmulation/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;

namespace {

bool containsBarrier(Operation *op) {
  return op->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// A run of ops between barriers: one phase that all threads finish before
/// the next starts. `after` is the barrier or loop that precedes it (null:
/// the start of `block`).
struct Segment {
  Block *block;
  Operation *after;
  SmallVector<Operation *> ops;
};

/// Where a segment's ops ended up: the thread loop that runs them and the
/// thread id there (its induction variable, or warp * 32 + lane).
struct Placement {
  scf::ForallOp loop;
  Value thread;
};

/// Whether the barrier before a segment only orders the lanes of a warp
/// (one the warp collectives' lowering added): the segments it separates
/// then run warp by warp, so that no warp waits for another there.
bool afterWarpBarrier(const Segment &segment) {
  return segment.after && isa<gpu::BarrierOp>(segment.after) &&
         segment.after->hasAttr(fa::kWarpBarrierAttrName);
}

/// The thread loop's body as phases: top-level segments, and loops whose
/// bodies hold segments of their own.
struct Phase {
  Segment segment;
  scf::ForOp loop; // set for a loop phase
  SmallVector<Segment> loopSegments;
};

class ThreadLoopSplitter {
public:
  explicit ThreadLoopSplitter(scf::ForallOp threads) : threads(threads) {}
  LogicalResult split();

private:
  scf::ForallOp threads;
  SmallVector<Phase> phases;

  LogicalResult check();
  scf::ForOp demoteIterArgs(scf::ForOp loop);
  SmallVector<Segment> segmentsOf(Block *block);
  void collectPhases();
  void bufferCrossingValues();
  Value privateSlots(Type type);
  Value threadId() { return threads.getInductionVar(0); }
  scf::ForallOp moveIntoThreadLoop(OpBuilder &b, ArrayRef<Operation *> ops);
  Placement moveIntoLaneLoop(OpBuilder &b, Value warp,
                             ArrayRef<Operation *> ops);
  SmallVector<Placement> emitGroup(OpBuilder &b, ArrayRef<Segment *> group);
  void appendIteration(Placement phase, const Segment &segment,
                       scf::ForOp loop, Value at);
};

/// Whether `op` is a barrier the emulation added (a warp collective's, a
/// warpgroup matmul's, or one in front of an mbarrier wait): one that
/// orders only the threads that reach it together.
bool isModelBarrier(Operation *op) {
  return isa<gpu::BarrierOp>(op) && (op->hasAttr(fa::kWarpBarrierAttrName) ||
                                     op->hasAttr(fa::kModelBarrierAttrName));
}

/// Zero of `type`, for the threads that do not take a branch: they never
/// use what the branch computes.
Value zeroOf(OpBuilder &b, Location loc, Type type) {
  if (!isa<IntegerType, IndexType, FloatType, VectorType>(type))
    return Value();
  return arith::ConstantOp::create(b, loc,
                                   cast<TypedAttr>(b.getZeroAttr(type)));
}

/// Splits `branch` at the model barriers at the top of its then-block:
///   scf.if %c { A; barrier; B } else { E }
///     ==>  %a = scf.if %c { A; yield a } else { yield 0 }; barrier;
///          scf.if %c { B } else { E }
/// where a are A's values that B uses. For the threads that take the
/// branch this is the same program; the others skip both halves. The
/// barriers then split the thread loop like any other.
LogicalResult splitBranchAtBarriers(scf::IfOp branch) {
  Block *then = branch.thenBlock();
  SmallVector<SmallVector<Operation *>> parts(1);
  SmallVector<Operation *> barriers;
  for (Operation &op : then->without_terminator()) {
    if (isModelBarrier(&op)) {
      barriers.push_back(&op);
      parts.emplace_back();
      continue;
    }
    parts.back().push_back(&op);
  }
  if (branch.elseBlock())
    for (Operation &op : *branch.elseBlock())
      if (isa<gpu::BarrierOp>(op))
        return op.emitOpError()
               << "in the else branch of a conditional cannot run on a CPU";
  OpBuilder b(branch);
  Location loc = branch.getLoc();
  for (auto [index, barrier] : llvm::enumerate(barriers)) {
    ArrayRef<Operation *> part = parts[index];
    auto inPart = [&](Operation *user) {
      return llvm::any_of(part,
                          [&](Operation *op) { return op->isAncestor(user); });
    };
    SmallVector<Value> escaping;
    SmallVector<Type> types;
    for (Operation *op : part)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(),
                         [&](Operation *user) { return !inPart(user); })) {
          escaping.push_back(result);
          types.push_back(result.getType());
        }
    b.setInsertionPoint(branch);
    auto piece = scf::IfOp::create(b, loc, types, branch.getCondition(),
                                   /*addThenBlock=*/true,
                                   /*addElseBlock=*/!types.empty());
    Block *pieceThen = piece.thenBlock();
    if (!pieceThen->empty() &&
        pieceThen->back().hasTrait<OpTrait::IsTerminator>())
      pieceThen->back().erase();
    for (Operation *op : part)
      op->moveBefore(pieceThen, pieceThen->end());
    OpBuilder inner = OpBuilder::atBlockEnd(pieceThen);
    scf::YieldOp::create(inner, loc, escaping);
    if (!types.empty()) {
      OpBuilder otherwise = OpBuilder::atBlockEnd(piece.elseBlock());
      SmallVector<Value> zeros;
      for (Type type : types) {
        Value zero = zeroOf(otherwise, loc, type);
        if (!zero)
          return branch.emitOpError()
                 << "cannot run on a CPU: a value of type " << type
                 << " crosses a barrier inside this conditional";
        zeros.push_back(zero);
      }
      scf::YieldOp::create(otherwise, loc, zeros);
    }
    for (auto [value, result] : llvm::zip(escaping, piece.getResults()))
      value.replaceUsesWithIf(result, [&](OpOperand &use) {
        return !piece->isAncestor(use.getOwner());
      });
    barrier->moveBefore(branch);
  }
  return success();
}

/// Hoists the model's barriers out of the branches they sit in (innermost
/// first), so that they reach the thread loop's body or its loops.
LogicalResult hoistModelBarriers(scf::ForallOp threads) {
  while (true) {
    scf::IfOp branch;
    threads.getBody()->walk<WalkOrder::PostOrder>([&](scf::IfOp candidate) {
      if (llvm::any_of(candidate.thenBlock()->without_terminator(),
                       [](Operation &op) { return isModelBarrier(&op); })) {
        branch = candidate;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!branch)
      return success();
    if (failed(splitBranchAtBarriers(branch)))
      return failure();
  }
}

LogicalResult ThreadLoopSplitter::check() {
  if (threads.getRank() != 1 || !threads.getOutputs().empty())
    return threads.emitOpError()
           << "with barriers must be a one-dimensional thread loop without "
              "shared outputs to run on a CPU";
  if (!isConstantIntValue(threads.getMixedLowerBound()[0], 0) ||
      !isConstantIntValue(threads.getMixedStep()[0], 1))
    return threads.emitOpError()
           << "with barriers must count threads from 0 in steps of 1";
  WalkResult walk = threads.getBody()->walk([&](gpu::BarrierOp barrier) {
    Operation *parent = barrier->getParentOp();
    if (parent == threads.getOperation())
      return WalkResult::advance();
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (loop && loop->getParentOp() == threads.getOperation()) {
      for (Value bound :
           {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
        if (threads->isAncestor(bound.getParentRegion()->getParentOp())) {
          // A constant is the same in every thread: hoist it.
          if (Operation *def = bound.getDefiningOp();
              def && def->hasTrait<OpTrait::ConstantLike>()) {
            def->moveBefore(threads);
            continue;
          }
          loop.emitOpError()
              << "bounds a loop with barriers but depends on the thread; "
                 "every thread must reach the same barriers";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    }
    barrier.emitOpError()
        << "inside a conditional or a nested loop cannot run on a CPU: "
           "barriers must be in the thread loop or in a loop directly inside "
           "it";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

Value ThreadLoopSplitter::privateSlots(Type type) {
  OpBuilder b(threads);
  Location loc = threads.getLoc();
  OpFoldResult count = threads.getMixedUpperBound()[0];
  if (std::optional<int64_t> size = getConstantIntValue(count))
    return memref::AllocOp::create(b, loc, MemRefType::get({*size}, type));
  return memref::AllocOp::create(b, loc,
                                 MemRefType::get({ShapedType::kDynamic}, type),
                                 ValueRange{cast<Value>(count)});
}

/// Carries the loop's iter_args through private slots instead, so that the
/// loop can be rebuilt around several thread loops.
scf::ForOp ThreadLoopSplitter::demoteIterArgs(scf::ForOp loop) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  SmallVector<Value> slots;
  for (Value init : loop.getInitArgs()) {
    slots.push_back(privateSlots(init.getType()));
    memref::StoreOp::create(b, loc, init, slots.back(), threadId());
  }
  auto rebuilt = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep());
  Block *body = rebuilt.getBody();
  // The old body's ops move over; its iter_args become loads at the top
  // and its yield becomes stores at the bottom.
  b.setInsertionPointToStart(body);
  SmallVector<Value> loaded;
  for (Value slot : slots)
    loaded.push_back(memref::LoadOp::create(b, loc, slot, threadId()));
  for (Operation &op :
       llvm::make_early_inc_range(loop.getBody()->without_terminator()))
    op.moveBefore(body->getTerminator());
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  b.setInsertionPoint(body->getTerminator());
  for (auto [value, slot] : llvm::zip(yield.getOperands(), slots))
    memref::StoreOp::create(b, loc, value, slot, threadId());
  loop.getInductionVar().replaceAllUsesWith(rebuilt.getInductionVar());
  for (auto [arg, value] : llvm::zip(loop.getRegionIterArgs(), loaded))
    arg.replaceAllUsesWith(value);
  b.setInsertionPointAfter(rebuilt);
  for (auto [result, slot] : llvm::zip(loop.getResults(), slots))
    result.replaceAllUsesWith(memref::LoadOp::create(b, loc, slot, threadId()));
  loop.erase();
  return rebuilt;
}

SmallVector<Segment> ThreadLoopSplitter::segmentsOf(Block *block) {
  SmallVector<Segment> segments = {Segment{block, nullptr, {}}};
  for (Operation &op : block->without_terminator()) {
    if (isa<gpu::BarrierOp>(op)) {
      segments.push_back(Segment{block, &op, {}});
      continue;
    }
    segments.back().ops.push_back(&op);
  }
  return segments;
}

void ThreadLoopSplitter::collectPhases() {
  phases.clear();
  Block *body = threads.getBody();
  Phase current{Segment{body, nullptr, {}}, nullptr, {}};
  for (Operation &op : body->without_terminator()) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (isa<gpu::BarrierOp>(op) || (loop && containsBarrier(loop))) {
      phases.push_back(current);
      if (loop)
        phases.push_back(
            Phase{Segment{body, &op, {}}, loop, segmentsOf(loop.getBody())});
      current = Phase{Segment{body, &op, {}}, nullptr, {}};
      continue;
    }
    current.segment.ops.push_back(&op);
  }
  phases.push_back(current);
}

/// Every value defined in one segment and used in another goes through
/// private slots: a store after its definition, a load at the start of each
/// segment that uses it.
void ThreadLoopSplitter::bufferCrossingValues() {
  SmallVector<Segment *> ordered;
  for (Phase &phase : phases) {
    if (!phase.loop) {
      ordered.push_back(&phase.segment);
      continue;
    }
    for (Segment &segment : phase.loopSegments)
      ordered.push_back(&segment);
  }
  DenseMap<Operation *, Segment *> segmentOf;
  for (Segment *segment : ordered)
    for (Operation *op : segment->ops)
      segmentOf[op] = segment;
  auto owningSegment = [&](Operation *user) -> Segment * {
    for (Operation *op = user; op && op != threads.getOperation();
         op = op->getParentOp())
      if (Segment *segment = segmentOf.lookup(op))
        return segment;
    return nullptr;
  };

  // Collected first (the rewrite adds ops and uses), in program order.
  SmallVector<std::pair<Value, Segment *>> crossings;
  for (Segment *segment : ordered)
    for (Operation *op : segment->ops)
      for (Value result : op->getResults())
        for (Segment *target : ordered) {
          if (target == segment)
            continue;
          if (llvm::any_of(result.getUsers(), [&](Operation *user) {
                return owningSegment(user) == target;
              }))
            crossings.push_back({result, target});
        }

  DenseMap<Value, Value> slotOf;
  for (const auto &crossing : crossings) {
    Value value = crossing.first;
    Segment *target = crossing.second;
    Location loc = value.getLoc();
    Value &slot = slotOf[value];
    if (!slot) {
      slot = privateSlots(value.getType());
      OpBuilder b(value.getDefiningOp()->getBlock(),
                  ++Block::iterator(value.getDefiningOp()));
      memref::StoreOp::create(b, loc, value, slot, threadId());
    }
    OpBuilder b(target->block, target->after ? ++Block::iterator(target->after)
                                             : target->block->begin());
    Value loaded = memref::LoadOp::create(b, loc, slot, threadId());
    value.replaceUsesWithIf(loaded, [&](OpOperand &use) {
      return owningSegment(use.getOwner()) == target;
    });
  }
}

scf::ForallOp
ThreadLoopSplitter::moveIntoThreadLoop(OpBuilder &b,
                                       ArrayRef<Operation *> ops) {
  auto phase = scf::ForallOp::create(
      b, threads.getLoc(), threads.getMixedLowerBound(),
      threads.getMixedUpperBound(), threads.getMixedStep(), ValueRange{},
      threads.getMapping());
  Operation *terminator = phase.getBody()->getTerminator();
  for (Operation *op : ops)
    op->moveBefore(terminator);
  threadId().replaceUsesWithIf(phase.getInductionVar(0), [&](OpOperand &use) {
    return phase->isProperAncestor(use.getOwner());
  });
  return phase;
}

/// Appends to `phase` (a thread loop) the ops of `segment`, a segment of
/// `loop`'s body, as for the iteration whose induction value is `at`, if
/// that iteration exists.
void ThreadLoopSplitter::appendIteration(Placement phase,
                                         const Segment &segment,
                                         scf::ForOp loop, Value at) {
  OpBuilder b(phase.loop.getBody()->getTerminator());
  Location loc = loop.getLoc();
  Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, at,
                                       loop.getUpperBound());
  auto guard = scf::IfOp::create(b, loc, exists, /*withElseRegion=*/false);
  b.setInsertionPoint(guard.thenBlock()->getTerminator());
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), at);
  mapping.map(threadId(), phase.thread);
  for (Operation *op : segment.ops)
    b.clone(*op, mapping);
}

/// The ops as run by the 32 lanes of warp `warp`: thread warp * 32 + lane.
Placement ThreadLoopSplitter::moveIntoLaneLoop(OpBuilder &b, Value warp,
                                               ArrayRef<Operation *> ops) {
  Location loc = threads.getLoc();
  auto lanes = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(fa::kWarpLanes)},
      ValueRange{}, threads.getMapping());
  OpBuilder inner(lanes.getBody(), lanes.getBody()->begin());
  Value thread = arith::AddIOp::create(
      inner, loc,
      arith::MulIOp::create(
          inner, loc, warp,
          arith::ConstantIndexOp::create(inner, loc, fa::kWarpLanes)),
      lanes.getInductionVar(0));
  Operation *terminator = lanes.getBody()->getTerminator();
  for (Operation *op : ops)
    op->moveBefore(terminator);
  threadId().replaceUsesWithIf(thread, [&](OpOperand &use) {
    return lanes->isProperAncestor(use.getOwner());
  });
  return {lanes, thread};
}

/// Emits a run of segments that only warp barriers separate. One segment
/// runs over all threads; several run warp by warp (a loop over the warps,
/// each running the segments in order over its lanes), as on the GPU, where
/// a warp that passed its own barrier need not wait for the others: a
/// race between warps there shows here. Returns where each segment went
/// (nothing for an empty single segment).
SmallVector<Placement>
ThreadLoopSplitter::emitGroup(OpBuilder &b, ArrayRef<Segment *> group) {
  SmallVector<Placement> placed;
  if (group.size() == 1) {
    if (group.front()->ops.empty()) {
      placed.push_back({});
    } else {
      scf::ForallOp loop = moveIntoThreadLoop(b, group.front()->ops);
      placed.push_back({loop, loop.getInductionVar(0)});
    }
    return placed;
  }
  Location loc = threads.getLoc();
  std::optional<int64_t> threadCount =
      getConstantIntValue(threads.getMixedUpperBound()[0]);
  if (!threadCount || *threadCount % fa::kWarpLanes != 0) {
    // Not whole warps (the collectives' lowering refuses those): every
    // barrier orders all threads.
    for (Segment *segment : group) {
      scf::ForallOp loop = moveIntoThreadLoop(b, segment->ops);
      b.setInsertionPointAfter(loop);
      placed.push_back({loop, loop.getInductionVar(0)});
    }
    return placed;
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value warps =
      arith::ConstantIndexOp::create(b, loc, *threadCount / fa::kWarpLanes);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto warpLoop = scf::ForOp::create(b, loc, zero, warps, one);
  warpLoop->setAttr(fa::kWarpLoopAttrName, b.getUnitAttr());
  OpBuilder inner(warpLoop.getBody(), warpLoop.getBody()->begin());
  for (Segment *segment : group) {
    placed.push_back(
        moveIntoLaneLoop(inner, warpLoop.getInductionVar(), segment->ops));
    inner.setInsertionPointAfter(placed.back().loop);
  }
  b.setInsertionPointAfter(warpLoop);
  return placed;
}

LogicalResult ThreadLoopSplitter::split() {
  if (failed(hoistModelBarriers(threads)) || failed(check()))
    return failure();
  SmallVector<scf::ForOp> loops;
  for (Operation &op : threads.getBody()->without_terminator())
    if (auto loop = dyn_cast<scf::ForOp>(op); loop && containsBarrier(loop))
      loops.push_back(loop);
  for (scf::ForOp loop : loops)
    demoteIterArgs(loop);
  collectPhases();
  bufferCrossingValues();
  // Segments were extended with loads and stores: collect them again.
  collectPhases();

  OpBuilder b(threads);
  // Where the last top-level segment went: a rotated loop's first segment
  // joins it.
  Placement previous;
  SmallVector<Segment *> group;
  auto flushTopLevel = [&] {
    if (group.empty())
      return;
    previous = emitGroup(b, group).back();
    group.clear();
  };
  for (Phase &phase : phases) {
    if (!phase.loop) {
      if (!afterWarpBarrier(phase.segment))
        flushTopLevel();
      group.push_back(&phase.segment);
      continue;
    }
    flushTopLevel();
    scf::ForOp loop = phase.loop;
    loop->moveBefore(threads);
    SmallVector<Segment> &segments = phase.loopSegments;
    // No barrier at the end of the body: iteration i's last segment and
    // iteration i + 1's first run in one phase on the GPU, so they must
    // here too, or a race between them (a buffer refilled while another
    // thread still reads it) would be hidden by the loop's back edge. The
    // first segment is peeled into the phase before the loop and into the
    // end of the last one (loop rotation). This needs a block barrier after
    // the first segment; after a warp barrier it is not rotated.
    bool rotate = segments.size() > 1 && !segments.front().ops.empty() &&
                  !segments.back().ops.empty() &&
                  !afterWarpBarrier(segments[1]);
    OpBuilder inner(loop.getBody(), loop.getBody()->begin());
    Value next;
    if (rotate)
      next = arith::AddIOp::create(inner, loop.getLoc(),
                                   loop.getInductionVar(), loop.getStep());
    SmallVector<Segment *> loopGroup;
    Placement last;
    auto flushLoop = [&] {
      if (loopGroup.empty())
        return;
      last = emitGroup(inner, loopGroup).back();
      if (last.loop)
        inner.setInsertionPointAfter(
            last.loop->getParentOp() == loop.getOperation()
                ? last.loop.getOperation()
                : last.loop->getParentOp());
      loopGroup.clear();
    };
    for (auto [index, segment] : llvm::enumerate(segments)) {
      if (rotate && index == 0)
        continue;
      if (!afterWarpBarrier(segment))
        flushLoop();
      loopGroup.push_back(&segment);
    }
    flushLoop();
    if (rotate) {
      appendIteration(last, segments.front(), loop, next);
      if (!previous.loop) {
        OpBuilder before(loop);
        scf::ForallOp created = moveIntoThreadLoop(before, {});
        previous = {created, created.getInductionVar(0)};
      }
      appendIteration(previous, segments.front(), loop, loop.getLowerBound());
      for (Operation *op : llvm::reverse(segments.front().ops))
        op->erase();
    }
    b.setInsertionPointAfter(loop);
    previous = {};
  }
  flushTopLevel();
  threads.walk([](gpu::BarrierOp barrier) { barrier.erase(); });
  for (Phase &phase : phases)
    if (phase.loop)
      phase.loop.walk([](gpu::BarrierOp barrier) { barrier.erase(); });
  threads.erase();
  return success();
}

/// Whether `op` is inside a GPU-mapped scf.forall (the kernel form).
bool inMappedLoop(Operation *op) {
  for (auto forall = op->getParentOfType<scf::ForallOp>(); forall;
       forall = forall->getParentOfType<scf::ForallOp>())
    if (forall.getMapping().has_value())
      return true;
  return false;
}

/// f16 x f16 -> f32 contractions of the kernel become f32 x f32 -> f32
/// ones; contractions elsewhere are not this pass's to change.
void widenWarpMatmuls(Operation *root) {
  root->walk([](vector::ContractionOp contraction) {
    if (!inMappedLoop(contraction))
      return;
    Type accType = getElementTypeOrSelf(contraction.getAccType());
    OpBuilder b(contraction);
    for (OpOperand *operand : {&contraction.getLhsMutable(),
                               &contraction.getRhsMutable()}) {
      auto type = cast<VectorType>(operand->get().getType());
      if (type.getElementType() == accType || !isa<FloatType>(accType))
        continue;
      operand->set(arith::ExtFOp::create(b, contraction.getLoc(),
                                         type.clone(accType), operand->get()));
    }
  });
}

/// Runs the iterations of a loop over 0 .. count - 1 (its induction
/// variable `index`, its body `body`) in another order: iteration t acts as
/// p(t), with p(t) = count - 1 - t (reverse) or (a t + c) mod count with a
/// coprime to count (shuffle).
void permuteIndex(Value index, Block *body, int64_t count, bool reverse,
                  unsigned seed) {
  if (count <= 1)
    return;
  // The uses to redirect, taken before the permutation adds its own.
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : index.getUses())
    uses.push_back(&use);
  OpBuilder b(body, body->begin());
  Location loc = index.getLoc();
  auto constant = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value permuted;
  if (reverse) {
    permuted = arith::SubIOp::create(b, loc, constant(count - 1), index);
  } else {
    int64_t multiplier = 2 * int64_t(seed % 1024) + 3;
    while (std::gcd(multiplier, count) != 1)
      multiplier += 2;
    int64_t offset = (int64_t(seed) * 7919) % count;
    Value scaled = arith::MulIOp::create(b, loc, index, constant(multiplier));
    Value shifted = arith::AddIOp::create(b, loc, scaled, constant(offset));
    permuted = arith::RemUIOp::create(b, loc, shifted, constant(count));
  }
  for (OpOperand *use : uses)
    use->set(permuted);
}

/// Runs the blocks of a kernel's grid last to first: each dimension from 0
/// by 1 runs its index i as (count - 1 - i), whatever its count. The
/// kernels' blocks write disjoint outputs, except where they add with
/// atomics (the backward pass's dQ), whose order, and so rounding, this
/// changes as a GPU's scheduler would.
void reverseBlocks(scf::ForallOp grid) {
  OpBuilder b(grid.getBody(), grid.getBody()->begin());
  Location loc = grid.getLoc();
  for (auto [index, lower, upper, step] :
       llvm::zip(grid.getInductionVars(), grid.getMixedLowerBound(),
                 grid.getMixedUpperBound(), grid.getMixedStep())) {
    if (getConstantIntValue(lower) != 0 || getConstantIntValue(step) != 1)
      continue;
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : index.getUses())
      uses.push_back(&use);
    Value count = getValueOrCreateConstantIndexOp(b, loc, upper);
    Value last = arith::SubIOp::create(
        b, loc, count, arith::ConstantIndexOp::create(b, loc, 1));
    Value reversed = arith::SubIOp::create(b, loc, last, index);
    for (OpOperand *use : uses)
      use->set(reversed);
  }
}

/// Runs the threads of `threads` (a 1-D thread loop from 0 with step 1 and
/// a constant count) in another order (see permuteIndex).
LogicalResult permuteThreads(scf::ForallOp threads, bool reverse,
                             unsigned seed) {
  std::optional<SmallVector<int64_t>> lower =
      getConstantIntValues(threads.getMixedLowerBound());
  std::optional<SmallVector<int64_t>> upper =
      getConstantIntValues(threads.getMixedUpperBound());
  std::optional<SmallVector<int64_t>> step =
      getConstantIntValues(threads.getMixedStep());
  if (!lower || !upper || !step || upper->size() != 1 || (*lower)[0] != 0 ||
      (*step)[0] != 1)
    return threads.emitOpError()
           << "thread-order needs a 1-D thread loop from 0 by 1 with a "
              "constant thread count";
  permuteIndex(threads.getInductionVar(0), threads.getBody(), (*upper)[0],
               reverse, seed);
  return success();
}

struct FAEmulateThreadsOnCPUPass
    : fa::impl::FAEmulateThreadsOnCPUBase<FAEmulateThreadsOnCPUPass> {
  using FAEmulateThreadsOnCPUBase::FAEmulateThreadsOnCPUBase;

  void runOnOperation() override {
    if (threadOrder != "forward" && threadOrder != "reverse" &&
        threadOrder != "shuffle") {
      getOperation()->emitError()
          << "unknown thread-order '" << threadOrder
          << "'; known orders: forward, reverse, shuffle";
      return signalPassFailure();
    }
    // Proxy fences (fence.proxy.async: the threads' stores made visible to
    // TMA and wgmma, which read shared memory through the async proxy)
    // order nothing here: the CPU model's memory has one proxy.
    getOperation()->walk([](NVVM::FenceProxyOp fence) {
      if (inMappedLoop(fence))
        fence.erase();
    });
    // bar.warp.sync orders a warp's lanes, which the model runs in lock
    // step: a barrier among the threads that reach it, as a warp
    // collective's (all lanes of a warp take the same branches here).
    getOperation()->walk([](NVVM::SyncWarpOp sync) {
      if (!inMappedLoop(sync))
        return;
      OpBuilder b(sync);
      gpu::BarrierOp::create(b, sync.getLoc())
          ->setAttr(fa::kWarpBarrierAttrName, b.getUnitAttr());
      sync.erase();
    });
    if (failed(fa::lowerTmaCopiesAndBarriers(getOperation())))
      return signalPassFailure();
    if (failed(fa::lowerNamedBarriers(getOperation())))
      return signalPassFailure();
    if (failed(fa::lowerAsyncCopies(getOperation(), checkAsyncSources)))
      return signalPassFailure();
    widenWarpMatmuls(getOperation());
    if (failed(fa::lowerWarpgroupMmas(getOperation())))
      return signalPassFailure();
    if (failed(fa::lowerWarpCollectives(getOperation())))
      return signalPassFailure();

    SmallVector<scf::ForallOp> threadLoops;
    getOperation()->walk([&](scf::ForallOp forall) {
      if (fa::isThreadLoop(forall) && containsBarrier(forall))
        threadLoops.push_back(forall);
    });
    for (scf::ForallOp threads : threadLoops)
      if (failed(ThreadLoopSplitter(threads).split()))
        return signalPassFailure();

    if (threadOrder != "forward") {
      SmallVector<scf::ForallOp> phases;
      getOperation()->walk([&](scf::ForallOp forall) {
        if (fa::isThreadLoop(forall))
          phases.push_back(forall);
      });
      for (scf::ForallOp phase : phases)
        if (failed(permuteThreads(phase, threadOrder == "reverse", seed)))
          return signalPassFailure();
      // Intervals that run warp by warp: the warps in that order too.
      getOperation()->walk([&](scf::ForOp warps) {
        if (!warps->hasAttr(fa::kWarpLoopAttrName))
          return;
        std::optional<int64_t> count =
            getConstantIntValue(warps.getUpperBound());
        if (count)
          permuteIndex(warps.getInductionVar(), warps.getBody(), *count,
                       threadOrder == "reverse", seed);
      });
      getOperation()->walk([](scf::ForallOp grid) {
        if (fa::isBlockLoop(grid))
          reverseBlocks(grid);
      });
    }

    WalkResult stray = getOperation()->walk([](gpu::BarrierOp barrier) {
      barrier.emitOpError()
          << "outside a thread-mapped scf.forall cannot run on a CPU";
      return WalkResult::interrupt();
    });
    if (stray.wasInterrupted())
      return signalPassFailure();

    // Workgroup memory of a GPU-mapped loop is ordinary memory on a CPU:
    // the kernel form only loads and stores to it, so the type changes in
    // place. Memory outside such loops is not this pass's to change.
    // Views of it (the one-dimensional views the wgmma kernel's
    // descriptors address) follow.
    getOperation()->walk([](Operation *op) {
      if (!inMappedLoop(op))
        return;
      if (!isa<memref::AllocOp, memref::AllocaOp>(op) &&
          !isa<ViewLikeOpInterface>(op))
        return;
      for (Value result : op->getResults()) {
        auto type = dyn_cast<MemRefType>(result.getType());
        if (!type ||
            !isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
          continue;
        result.setType(MemRefType::get(type.getShape(), type.getElementType(),
                                       type.getLayout()));
      }
    });
  }
};

} // namespace
