//===- AsyncCopies.cpp - cp.async landing at its wait_group on a CPU ------===//
//
// See AsyncCopies.h.
//
//===----------------------------------------------------------------------===//

#include "AsyncCopies.h"
#include "RuntimeReport.h"
#include "ThreadLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using mlir::fa::RuntimeReport;
using mlir::fa::describeLocation;
using mlir::fa::escapePercent;

namespace {

/// The elements a copy moves, read from its source as cp.async does: the
/// first `srcElements` (all when absent), zeros for the rest.
Value readSource(OpBuilder &b, nvgpu::DeviceAsyncCopyOp copy) {
  Location loc = copy.getLoc();
  int64_t count = copy.getDstElements().getSExtValue();
  auto elementType =
      cast<MemRefType>(copy.getDst().getType()).getElementType();
  auto vectorType = VectorType::get({count}, elementType);
  Value sourceElements = copy.getSrcElements();
  if (!sourceElements)
    return vector::LoadOp::create(b, loc, vectorType, copy.getSrc(),
                                  copy.getSrcIndices());
  auto maskType = VectorType::get({count}, b.getI1Type());
  Value mask = vector::CreateMaskOp::create(b, loc, maskType,
                                            ValueRange{sourceElements});
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vectorType, b.getZeroAttr(elementType)));
  return vector::MaskedLoadOp::create(b, loc, vectorType, copy.getSrc(),
                                      copy.getSrcIndices(), mask, zeros);
}

/// Before `copy`: when it reads any element (srcElements of them, all when
/// absent), every element it reads must lie in its source, as on the GPU,
/// where a read past a tensor faults or returns another tensor's data; the
/// first copy that does not is reported with its indices and the program
/// ends. A copy that reads nothing (zero fill) may point anywhere.
void checkSourceBounds(nvgpu::DeviceAsyncCopyOp copy, RuntimeReport &report) {
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  Value source = copy.getSrc();
  int64_t rank = cast<MemRefType>(source.getType()).getRank();
  Value read = copy.getSrcElements();
  if (!read)
    read = arith::ConstantIndexOp::create(
        b, loc, copy.getDstElements().getSExtValue());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value outside = arith::ConstantIntOp::create(b, loc, 0, 1);
  SmallVector<Value> sizes;
  for (auto [d, index] : llvm::enumerate(copy.getSrcIndices())) {
    Value size = memref::DimOp::create(b, loc, source, d);
    sizes.push_back(size);
    // Elements [index, end) of this dim: `read` of them along the last.
    Value end = arith::AddIOp::create(
        b, loc, index, static_cast<int64_t>(d) == rank - 1 ? read : one);
    Value before = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         index, zero);
    Value after =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, end, size);
    outside = arith::OrIOp::create(
        b, loc, outside, arith::OrIOp::create(b, loc, before, after));
  }
  Value readsAny =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, read, zero);
  Value bad = arith::AndIOp::create(b, loc, readsAny, outside);
  std::string format = "fa-emulate-threads-on-cpu: the cp.async copy at " +
                       escapePercent(describeLocation(loc)) +
                       " reads %ld elements from [";
  for (int64_t d = 0; d < rank; ++d)
    format += d ? ", %ld" : "%ld";
  format += "] of a source of size [";
  for (int64_t d = 0; d < rank; ++d)
    format += d ? ", %ld" : "%ld";
  format += "]\n";
  scf::IfOp::create(b, loc, bad, [&](OpBuilder &ib, Location iloc) {
    auto asI64 = [&](Value index) -> Value {
      return arith::IndexCastOp::create(ib, iloc, ib.getI64Type(), index);
    };
    SmallVector<Value> values = {asI64(read)};
    for (Value index : copy.getSrcIndices())
      values.push_back(asI64(index));
    for (Value size : sizes)
      values.push_back(asI64(size));
    report.report(ib, iloc, format, values);
    scf::YieldOp::create(ib, iloc);
  });
}

/// Outside a thread loop a copy simply completes at issue.
void landAtIssue(nvgpu::DeviceAsyncCopyOp copy) {
  OpBuilder b(copy);
  vector::StoreOp::create(b, copy.getLoc(), readSource(b, copy), copy.getDst(),
                          copy.getDstIndices());
}

/// One static copy op's per-thread queue: `capacity` entries of data,
/// destination indices and group (-1: empty).
struct Queue {
  nvgpu::DeviceAsyncCopyOp copy;
  int64_t capacity = 0;
  Value data;    // memref<T x capacity x vector<n x elt>>
  Value indices; // memref<T x capacity x rank x index>
  Value groups;  // memref<T x capacity x i64>
  Value next;    // memref<T x index>: entries issued so far
};

class ThreadQueues {
public:
  explicit ThreadQueues(scf::ForallOp threads) : threads(threads) {}
  LogicalResult rewrite(ArrayRef<nvgpu::DeviceAsyncCopyOp> copies,
                        ArrayRef<nvgpu::DeviceAsyncCreateGroupOp> commits,
                        ArrayRef<nvgpu::DeviceAsyncWaitOp> waits);

private:
  scf::ForallOp threads;
  SmallVector<Queue> queues;
  Value committed; // memref<T x i64>

  Value thread() { return threads.getInductionVar(0); }
  Value perThread(OpBuilder &b, ArrayRef<int64_t> shape, Type type);
  void land(OpBuilder &b, Location loc, Queue queue, Value slot);
  void rewriteCopy(Queue &queue);
  void rewriteWait(nvgpu::DeviceAsyncWaitOp wait);
};

/// memref<T x shape x type> in front of the thread loop: one row per thread.
Value ThreadQueues::perThread(OpBuilder &b, ArrayRef<int64_t> shape,
                              Type type) {
  Location loc = threads.getLoc();
  OpFoldResult count = threads.getMixedUpperBound()[0];
  SmallVector<int64_t> full = {ShapedType::kDynamic};
  full.append(shape.begin(), shape.end());
  if (std::optional<int64_t> size = getConstantIntValue(count)) {
    full[0] = *size;
    return memref::AllocOp::create(b, loc, MemRefType::get(full, type));
  }
  return memref::AllocOp::create(b, loc, MemRefType::get(full, type),
                                 ValueRange{cast<Value>(count)});
}

/// Writes queue entry `slot` of this thread to its destination and empties
/// it, if it holds a copy.
void ThreadQueues::land(OpBuilder &b, Location loc, Queue queue,
                        Value slot) {
  Value group = memref::LoadOp::create(b, loc, queue.groups,
                                       ValueRange{thread(), slot});
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, group,
                                     zero);
  scf::IfOp::create(b, loc, full, [&](OpBuilder &tb, Location tloc) {
    Value data = memref::LoadOp::create(tb, tloc, queue.data,
                                        ValueRange{thread(), slot});
    SmallVector<Value> at;
    int64_t rank = cast<MemRefType>(queue.copy.getDst().getType()).getRank();
    for (int64_t d = 0; d < rank; ++d) {
      Value dim = arith::ConstantIndexOp::create(tb, tloc, d);
      at.push_back(memref::LoadOp::create(tb, tloc, queue.indices,
                                          ValueRange{thread(), slot, dim}));
    }
    vector::StoreOp::create(tb, tloc, data, queue.copy.getDst(), at);
    Value empty = arith::ConstantIntOp::create(tb, tloc, -1, 64);
    memref::StoreOp::create(tb, tloc, empty, queue.groups,
                            ValueRange{thread(), slot});
    scf::YieldOp::create(tb, tloc);
  });
}

void ThreadQueues::rewriteCopy(Queue &queue) {
  nvgpu::DeviceAsyncCopyOp copy = queue.copy;
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  Value data = readSource(b, copy);
  // The next entry of the ring; one still pending there lands first.
  Value issued = memref::LoadOp::create(b, loc, queue.next, thread());
  Value slot = arith::RemUIOp::create(
      b, loc, issued, arith::ConstantIndexOp::create(b, loc, queue.capacity));
  land(b, loc, queue, slot);
  memref::StoreOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, issued,
                            arith::ConstantIndexOp::create(b, loc, 1)),
      queue.next, thread());
  memref::StoreOp::create(b, loc, data, queue.data, ValueRange{thread(), slot});
  for (auto [d, index] : llvm::enumerate(copy.getDstIndices()))
    memref::StoreOp::create(
        b, loc, index, queue.indices,
        ValueRange{thread(), slot,
                   arith::ConstantIndexOp::create(b, loc, int64_t(d))});
  // It joins the group the next commit closes.
  Value group = memref::LoadOp::create(b, loc, committed, thread());
  memref::StoreOp::create(b, loc, group, queue.groups,
                          ValueRange{thread(), slot});
  // Until it lands, the destination holds nothing a reader may use.
  auto vectorType = cast<VectorType>(data.getType());
  if (auto floatType = dyn_cast<FloatType>(vectorType.getElementType())) {
    Value poison = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            vectorType, APFloat::getNaN(floatType.getFloatSemantics())));
    vector::StoreOp::create(b, loc, poison, copy.getDst(),
                            copy.getDstIndices());
  }
}

void ThreadQueues::rewriteWait(nvgpu::DeviceAsyncWaitOp wait) {
  OpBuilder b(wait);
  Location loc = wait.getLoc();
  int64_t keep = wait.getNumGroups() ? int64_t(*wait.getNumGroups()) : 0;
  // Groups numbered below `limit` must have landed.
  Value kept = arith::ConstantIntOp::create(b, loc, keep, 64);
  Value committedGroups = memref::LoadOp::create(b, loc, committed, thread());
  Value limit = arith::SubIOp::create(b, loc, committedGroups, kept);
  for (const Queue &queue : queues) {
    Value lower = arith::ConstantIndexOp::create(b, loc, 0);
    Value upper = arith::ConstantIndexOp::create(b, loc, queue.capacity);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    scf::ForOp::create(
        b, loc, lower, upper, one, ValueRange{},
        [&](OpBuilder &lb, Location lloc, Value slot, ValueRange) {
          Value group = memref::LoadOp::create(lb, lloc, queue.groups,
                                               ValueRange{thread(), slot});
          Value due = arith::CmpIOp::create(lb, lloc, arith::CmpIPredicate::slt,
                                            group, limit);
          scf::IfOp::create(lb, lloc, due, [&](OpBuilder &tb, Location tloc) {
            land(tb, tloc, queue, slot);
            scf::YieldOp::create(tb, tloc);
          });
          scf::YieldOp::create(lb, lloc);
        });
  }
}

LogicalResult
ThreadQueues::rewrite(ArrayRef<nvgpu::DeviceAsyncCopyOp> copies,
                      ArrayRef<nvgpu::DeviceAsyncCreateGroupOp> commits,
                      ArrayRef<nvgpu::DeviceAsyncWaitOp> waits) {
  int64_t pendingGroups = 2;
  for (nvgpu::DeviceAsyncWaitOp wait : waits)
    if (wait.getNumGroups())
      pendingGroups = std::max<int64_t>(pendingGroups, *wait.getNumGroups() + 2);
  auto commitsInside = [](Operation *op) {
    return op
        ->walk([](nvgpu::DeviceAsyncCreateGroupOp) {
          return WalkResult::interrupt();
        })
        .wasInterrupted();
  };

  OpBuilder outer(threads);
  for (nvgpu::DeviceAsyncCopyOp copy : copies) {
    // The copies one group can hold: the trip counts of the loops between
    // the copy and the nearest loop that commits.
    int64_t perGroup = 1;
    for (Operation *parent = copy->getParentOp(); parent != threads;
         parent = parent->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(parent);
      if (!loop)
        continue;
      if (commitsInside(loop))
        break;
      std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (!lower || !upper || !step || *step <= 0)
        return copy.emitOpError()
               << "sits in a loop without a constant trip count, so the CPU "
                  "model cannot bound how many copies are pending at once";
      perGroup *= std::max<int64_t>(llvm::divideCeil(*upper - *lower, *step), 1);
    }
    if (!copy.getDst().getParentRegion()->isAncestor(
            threads->getParentRegion()))
      return copy.emitOpError()
             << "writes a buffer defined inside the thread loop; the CPU "
                "model lands copies at their wait and needs the buffer there";
    Queue queue;
    queue.copy = copy;
    queue.capacity = perGroup * pendingGroups;
    auto memrefType = cast<MemRefType>(copy.getDst().getType());
    auto vectorType = VectorType::get({copy.getDstElements().getSExtValue()},
                                      memrefType.getElementType());
    queue.data = perThread(outer, {queue.capacity}, vectorType);
    queue.indices = perThread(outer, {queue.capacity, memrefType.getRank()},
                              outer.getIndexType());
    queue.groups = perThread(outer, {queue.capacity}, outer.getI64Type());
    queue.next = perThread(outer, {}, outer.getIndexType());
    queues.push_back(queue);
  }
  committed = perThread(outer, {}, outer.getI64Type());

  // Each thread starts with empty queues and no group committed.
  {
    OpBuilder b(threads.getBody(), threads.getBody()->begin());
    Location loc = threads.getLoc();
    Value zero64 = arith::ConstantIntOp::create(b, loc, 0, 64);
    Value empty = arith::ConstantIntOp::create(b, loc, -1, 64);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    memref::StoreOp::create(b, loc, zero64, committed, thread());
    for (const Queue &queue : queues) {
      memref::StoreOp::create(b, loc, zero, queue.next, thread());
      Value upper = arith::ConstantIndexOp::create(b, loc, queue.capacity);
      scf::ForOp::create(b, loc, zero, upper, one, ValueRange{},
                         [&](OpBuilder &lb, Location lloc, Value slot,
                             ValueRange) {
                           memref::StoreOp::create(lb, lloc, empty,
                                                   queue.groups,
                                                   ValueRange{thread(), slot});
                           scf::YieldOp::create(lb, lloc);
                         });
    }
  }

  for (Queue &queue : queues)
    rewriteCopy(queue);
  for (nvgpu::DeviceAsyncCreateGroupOp commit : commits) {
    OpBuilder b(commit);
    Location loc = commit.getLoc();
    Value count = memref::LoadOp::create(b, loc, committed, thread());
    memref::StoreOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, count,
                              arith::ConstantIntOp::create(b, loc, 1, 64)),
        committed, thread());
  }
  for (nvgpu::DeviceAsyncWaitOp wait : waits)
    rewriteWait(wait);
  return success();
}

/// scf.if ops that yield a group's token (a kernel commits a real group on
/// one path and an empty one on the other) lose those results, which only
/// the erased waits used.
void dropTokenResults(Operation *root) {
  auto isToken = [](Type type) {
    return isa<nvgpu::DeviceAsyncTokenType>(type);
  };
  SmallVector<scf::IfOp> branches;
  root->walk([&](scf::IfOp branch) {
    if (llvm::any_of(branch.getResultTypes(), isToken))
      branches.push_back(branch);
  });
  for (scf::IfOp branch : branches) {
    SmallVector<Type> keptTypes;
    SmallVector<unsigned> kept;
    for (auto [index, type] : llvm::enumerate(branch.getResultTypes()))
      if (!isToken(type)) {
        keptTypes.push_back(type);
        kept.push_back(index);
      }
    OpBuilder b(branch);
    auto replacement =
        scf::IfOp::create(b, branch.getLoc(), keptTypes, branch.getCondition(),
                          /*withElseRegion=*/false);
    replacement.getThenRegion().takeBody(branch.getThenRegion());
    replacement.getElseRegion().takeBody(branch.getElseRegion());
    for (Region *region :
         {&replacement.getThenRegion(), &replacement.getElseRegion()}) {
      if (region->empty())
        continue;
      auto yield = cast<scf::YieldOp>(region->front().getTerminator());
      SmallVector<Value> operands;
      for (unsigned index : kept)
        operands.push_back(yield.getOperand(index));
      yield->setOperands(operands);
    }
    for (auto [newIndex, oldIndex] : llvm::enumerate(kept))
      branch.getResult(oldIndex).replaceAllUsesWith(
          replacement.getResult(newIndex));
    branch.erase();
  }
}

} // namespace

LogicalResult mlir::fa::lowerAsyncCopies(Operation *root,
                                         bool checkSources) {
  SmallVector<nvgpu::DeviceAsyncWaitOp> waits;
  SmallVector<nvgpu::DeviceAsyncCreateGroupOp> commits;
  SmallVector<nvgpu::DeviceAsyncCopyOp> copies;
  root->walk([&](Operation *op) {
    if (auto wait = dyn_cast<nvgpu::DeviceAsyncWaitOp>(op))
      waits.push_back(wait);
    else if (auto commit = dyn_cast<nvgpu::DeviceAsyncCreateGroupOp>(op))
      commits.push_back(commit);
    else if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
      copies.push_back(copy);
  });

  if (checkSources && !copies.empty()) {
    auto module = dyn_cast<ModuleOp>(root);
    if (!module)
      return root->emitError(
          "cannot check cp.async sources outside a module (the check calls "
          "libc); run on the module or with check-async-sources=false");
    RuntimeReport report{module, "check cp.async sources",
                         "fa_async_copy_message_"};
    if (failed(report.declare()))
      return failure();
    for (nvgpu::DeviceAsyncCopyOp copy : copies)
      checkSourceBounds(copy, report);
  }

  // Group the ops by their innermost thread loop.
  auto threadLoopOf = [](Operation *op) -> scf::ForallOp {
    for (auto forall = op->getParentOfType<scf::ForallOp>(); forall;
         forall = forall->getParentOfType<scf::ForallOp>())
      if (fa::isThreadLoop(forall))
        return forall;
    return nullptr;
  };
  llvm::MapVector<Operation *, SmallVector<nvgpu::DeviceAsyncCopyOp>>
      copiesOf;
  DenseMap<Operation *, SmallVector<nvgpu::DeviceAsyncCreateGroupOp>>
      commitsOf;
  DenseMap<Operation *, SmallVector<nvgpu::DeviceAsyncWaitOp>> waitsOf;
  for (nvgpu::DeviceAsyncCopyOp copy : copies) {
    scf::ForallOp threads = threadLoopOf(copy);
    if (!threads || threads.getRank() != 1) {
      landAtIssue(copy);
      continue;
    }
    copiesOf[threads].push_back(copy);
  }
  for (nvgpu::DeviceAsyncCreateGroupOp commit : commits)
    if (scf::ForallOp threads = threadLoopOf(commit))
      commitsOf[threads].push_back(commit);
  for (nvgpu::DeviceAsyncWaitOp wait : waits)
    if (scf::ForallOp threads = threadLoopOf(wait))
      waitsOf[threads].push_back(wait);

  for (auto &[threads, threadCopies] : copiesOf)
    if (failed(ThreadQueues(cast<scf::ForallOp>(threads))
                   .rewrite(threadCopies, commitsOf.lookup(threads),
                            waitsOf.lookup(threads))))
      return failure();

  // The tokens only order these ops; with the queues they carry nothing.
  for (nvgpu::DeviceAsyncWaitOp wait : waits)
    wait.erase();
  dropTokenResults(root);
  for (nvgpu::DeviceAsyncCreateGroupOp commit : commits)
    commit.erase();
  for (nvgpu::DeviceAsyncCopyOp copy : copies)
    copy.erase();
  return success();
}
