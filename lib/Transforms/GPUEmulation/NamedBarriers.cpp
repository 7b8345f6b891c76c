//===- NamedBarriers.cpp - bar.sync / bar.arrive with ids on a CPU --------===//
//
// See NamedBarriers.h.
//
//===----------------------------------------------------------------------===//

#include "NamedBarriers.h"
#include "RuntimeReport.h"
#include "ThreadLoops.h"

#include "Common/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using mlir::fa::describeLocation;
using mlir::fa::escapePercent;
using mlir::fa::IndexMath;
using mlir::fa::RuntimeReport;

namespace {

/// Barrier ids 1 .. 15 are named; 0 is the block's (gpu.barrier).
constexpr int64_t kBarriers = 16;
/// A log entry: count * 32 + id * 2 + (1 for bar.sync).
constexpr int64_t kCountShift = 32, kIdShift = 2;
constexpr int64_t kWarp = 32;

class Lowering {
public:
  Lowering(scf::ForallOp threads, int64_t threadCount, RuntimeReport &report)
      : threads(threads), threadCount(threadCount), report(report) {}
  void run(ArrayRef<Operation *> ops);

private:
  scf::ForallOp threads;
  int64_t threadCount;
  RuntimeReport &report;
  Value log, logged;

  /// Reports `format` with `values` (index) and exits where `condition`.
  void fail(OpBuilder &b, Location loc, Value condition, StringRef format,
            ValueRange values);
  /// An index buffer of `shape`, every element `value`.
  Value filled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
               int64_t value);
  void logOperation(Operation *op);
  void replay(OpBuilder &b, Location loc);
};

void Lowering::fail(OpBuilder &b, Location loc, Value condition,
                    StringRef format, ValueRange values) {
  report.reportIf(b, loc, condition, format, values);
}

Value Lowering::filled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                       int64_t value) {
  auto type = MemRefType::get(shape, b.getIndexType());
  Value buffer = memref::AllocOp::create(b, loc, type);
  IndexMath m{b, loc};
  Value fill = m.constant(value);
  scf::ForOp::create(b, loc, m.constant(0), m.constant(shape[0]),
                     m.constant(1), ValueRange{},
                     [&](OpBuilder &lb, Location lloc, Value i, ValueRange) {
                       memref::StoreOp::create(lb, lloc, fill, buffer,
                                               ValueRange{i});
                       scf::YieldOp::create(lb, lloc);
                     });
  return buffer;
}

void Lowering::logOperation(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  IndexMath m{b, loc};
  Value id, count;
  bool sync = false;
  if (auto barrier = dyn_cast<NVVM::BarrierOp>(op)) {
    id = barrier.getBarrierId();
    count = barrier.getNumberOfThreads();
    sync = true;
  } else {
    auto arrive = cast<NVVM::BarrierArriveOp>(op);
    id = arrive.getBarrierId();
    count = arrive.getNumberOfThreads();
  }
  auto asIndex = [&](Value value) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), value)
        .getResult();
  };
  id = asIndex(id);
  count = asIndex(count);
  Value thread = threads.getInductionVar(0);
  std::string where = escapePercent(describeLocation(loc));
  std::string what = sync ? "bar.sync" : "bar.arrive";
  Value badId = m.orI(m.lt(id, m.constant(1)),
                      m.le(m.constant(kBarriers), id));
  fail(b, loc, badId,
       "fa-emulate-threads-on-cpu: thread %ld's " + what + " at " + where +
           " names barrier %ld; named barriers are 1 .. 15 (0 is the "
           "block-wide barrier)\n",
       {thread, id});
  Value badCount = m.orI(
      m.orI(m.lt(count, m.constant(kWarp)),
            m.lt(m.constant(threadCount), count)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            m.remU(count, m.constant(kWarp)), m.constant(0)));
  fail(b, loc, badCount,
       "fa-emulate-threads-on-cpu: thread %ld's " + what + " at " + where +
           " counts %ld threads: a barrier's count is a multiple of 32 "
           "and at most the block's " +
           std::to_string(threadCount) + "\n",
       {thread, count});
  Value at = memref::LoadOp::create(b, loc, logged, ValueRange{thread});
  fail(b, loc, m.le(m.constant(fa::kNamedBarrierLogCapacity), at),
       "fa-emulate-threads-on-cpu: thread %ld logs more than " +
           std::to_string(fa::kNamedBarrierLogCapacity) +
           " named-barrier operations in one block, the model's capacity\n",
       {thread});
  Value code = m.add(m.add(m.mul(count, m.constant(kCountShift)),
                           m.mul(id, m.constant(kIdShift))),
                     m.constant(sync ? 1 : 0));
  memref::StoreOp::create(b, loc, code, log, ValueRange{thread, at});
  memref::StoreOp::create(b, loc, m.addConstant(at, 1), logged,
                          ValueRange{thread});
  op->erase();
}

void Lowering::replay(OpBuilder &b, Location loc) {
  IndexMath m{b, loc};
  Value zero = m.constant(0), one = m.constant(1);
  Value threadsValue = m.constant(threadCount);
  std::string where = escapePercent(describeLocation(threads.getLoc()));

  // bar is executed per warp: its lanes log the same operations.
  scf::ForOp::create(
      b, loc, zero, threadsValue, one, ValueRange{},
      [&](OpBuilder &lb, Location lloc, Value thread, ValueRange) {
        IndexMath lm{lb, lloc};
        Value lane0 = lm.sub(thread, lm.remU(thread, lm.constant(kWarp)));
        Value mine = memref::LoadOp::create(lb, lloc, logged, thread);
        Value lanes0 = memref::LoadOp::create(lb, lloc, logged, lane0);
        Value shorter = lm.min(mine, lanes0);
        scf::ForOp::create(
            lb, lloc, lm.constant(0), shorter, lm.constant(1), ValueRange{},
            [&](OpBuilder &kb, Location kloc, Value k, ValueRange) {
              Value a = memref::LoadOp::create(kb, kloc, log,
                                               ValueRange{thread, k});
              Value c = memref::LoadOp::create(kb, kloc, log,
                                               ValueRange{lane0, k});
              fail(kb, kloc,
                   arith::CmpIOp::create(kb, kloc, arith::CmpIPredicate::ne,
                                         a, c),
                   "fa-emulate-threads-on-cpu: in the block at " + where +
                       ", thread %ld's named-barrier operation %ld differs "
                       "from lane 0's of its warp (bar executes per warp)\n",
                   {thread, k});
              scf::YieldOp::create(kb, kloc);
            });
        fail(lb, lloc,
             arith::CmpIOp::create(lb, lloc, arith::CmpIPredicate::ne, mine,
                                   lanes0),
             "fa-emulate-threads-on-cpu: in the block at " + where +
                 ", thread %ld makes %ld named-barrier operations, lane 0 "
                 "of its warp %ld (bar executes per warp)\n",
             {thread, mine, lanes0});
        scf::YieldOp::create(lb, lloc);
      });

  // The hardware's state: per barrier the arrivals of the generation being
  // gathered, its count, the generations completed; per thread the next
  // operation and the barrier (kBarriers: none) and generation it waits
  // for.
  Value none = m.constant(kBarriers);
  Value arrived = filled(b, loc, {kBarriers}, 0);
  Value expected = filled(b, loc, {kBarriers}, 0);
  Value generation = filled(b, loc, {kBarriers}, 0);
  Value next = filled(b, loc, {threadCount}, 0);
  Value waitsOn = filled(b, loc, {threadCount}, kBarriers);
  Value waitsFor = filled(b, loc, {threadCount}, 0);

  Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto sweeps = scf::WhileOp::create(
      b, loc, TypeRange{b.getI1Type()}, ValueRange{trueValue},
      [&](OpBuilder &cb, Location cloc, ValueRange args) {
        scf::ConditionOp::create(cb, cloc, args[0], args);
      },
      [&](OpBuilder &wb, Location wloc, ValueRange) {
        Value noProgress = arith::ConstantIntOp::create(wb, wloc, 0, 1);
        IndexMath wm{wb, wloc};
        auto sweep = scf::ForOp::create(
            wb, wloc, wm.constant(0), threadsValue, wm.constant(1),
            ValueRange{noProgress},
            [&](OpBuilder &tb, Location tloc, Value thread,
                ValueRange progress) {
              IndexMath tm{tb, tloc};
              // A wait whose generation completed is over.
              Value barrier =
                  memref::LoadOp::create(tb, tloc, waitsOn, thread);
              Value waiting = arith::CmpIOp::create(
                  tb, tloc, arith::CmpIPredicate::ne, barrier, none);
              scf::IfOp::create(
                  tb, tloc, waiting, [&](OpBuilder &ib, Location iloc) {
                    IndexMath im{ib, iloc};
                    Value done = memref::LoadOp::create(ib, iloc, generation,
                                                        barrier);
                    Value wanted =
                        memref::LoadOp::create(ib, iloc, waitsFor, thread);
                    scf::IfOp::create(
                        ib, iloc, im.le(wanted, done),
                        [&](OpBuilder &rb, Location rloc) {
                          memref::StoreOp::create(rb, rloc, none, waitsOn,
                                                  ValueRange{thread});
                          scf::YieldOp::create(rb, rloc);
                        });
                    scf::YieldOp::create(ib, iloc);
                  });
              Value stillWaiting = arith::CmpIOp::create(
                  tb, tloc, arith::CmpIPredicate::ne,
                  memref::LoadOp::create(tb, tloc, waitsOn, thread), none);
              Value position = memref::LoadOp::create(tb, tloc, next, thread);
              Value end = memref::LoadOp::create(tb, tloc, logged, thread);
              Value goes = tm.andI(
                  arith::XOrIOp::create(tb, tloc, stillWaiting, trueValue),
                  tm.lt(position, end));
              scf::IfOp::create(
                  tb, tloc, goes, [&](OpBuilder &gb, Location gloc) {
                    IndexMath gm{gb, gloc};
                    Value code = memref::LoadOp::create(
                        gb, gloc, log, ValueRange{thread, position});
                    memref::StoreOp::create(gb, gloc, gm.addConstant(position, 1),
                                            next, ValueRange{thread});
                    Value count = gm.divU(code, gm.constant(kCountShift));
                    Value id = gm.divU(gm.remU(code, gm.constant(kCountShift)),
                                       gm.constant(kIdShift));
                    Value sync = gm.eq(gm.remU(code, gm.constant(kIdShift)),
                                       gm.constant(1));
                    Value before =
                        memref::LoadOp::create(gb, gloc, arrived, id);
                    Value agreed =
                        memref::LoadOp::create(gb, gloc, expected, id);
                    fail(gb, gloc,
                         gm.andI(gm.lt(gm.constant(0), before),
                                 arith::CmpIOp::create(
                                     gb, gloc, arith::CmpIPredicate::ne,
                                     agreed, count)),
                         "fa-emulate-threads-on-cpu: in the block at " +
                             where +
                             ", thread %ld arrives on barrier %ld counting "
                             "%ld threads, where %ld arrived counting %ld\n",
                         {thread, id, count, before, agreed});
                    memref::StoreOp::create(gb, gloc, count, expected, id);
                    Value after = gm.addConstant(before, 1);
                    scf::IfOp::create(
                        gb, gloc, gm.eq(after, count),
                        [&](OpBuilder &cb, Location cloc) {
                          // The generation completes; the barrier resets.
                          IndexMath cm{cb, cloc};
                          memref::StoreOp::create(cb, cloc, cm.constant(0),
                                                  arrived, id);
                          Value done =
                              memref::LoadOp::create(cb, cloc, generation, id);
                          memref::StoreOp::create(
                              cb, cloc, cm.addConstant(done, 1), generation, id);
                          scf::YieldOp::create(cb, cloc);
                        },
                        [&](OpBuilder &eb, Location eloc) {
                          memref::StoreOp::create(eb, eloc, after, arrived, id);
                          scf::IfOp::create(
                              eb, eloc, sync,
                              [&](OpBuilder &sb, Location sloc) {
                                IndexMath sm{sb, sloc};
                                Value done = memref::LoadOp::create(
                                    sb, sloc, generation, id);
                                memref::StoreOp::create(sb, sloc, id, waitsOn,
                                                        ValueRange{thread});
                                memref::StoreOp::create(
                                    sb, sloc, sm.addConstant(done, 1),
                                    waitsFor, ValueRange{thread});
                                scf::YieldOp::create(sb, sloc);
                              });
                          scf::YieldOp::create(eb, eloc);
                        });
                    scf::YieldOp::create(gb, gloc);
                  });
              scf::YieldOp::create(
                  tb, tloc, ValueRange{tm.orI(progress[0], goes)});
            });
        scf::YieldOp::create(wb, wloc, sweep.getResults());
      });
  (void)sweeps;

  // Whoever still waits would wait forever.
  scf::ForOp::create(
      b, loc, zero, threadsValue, one, ValueRange{},
      [&](OpBuilder &lb, Location lloc, Value thread, ValueRange) {
        IndexMath lm{lb, lloc};
        Value barrier = memref::LoadOp::create(lb, lloc, waitsOn, thread);
        Value waiting = arith::CmpIOp::create(
            lb, lloc, arith::CmpIPredicate::ne, barrier, none);
        Value safe = lm.min(barrier, lm.constant(kBarriers - 1));
        Value position = memref::LoadOp::create(lb, lloc, next, thread);
        fail(lb, lloc, waiting,
             "fa-emulate-threads-on-cpu: in the block at " + where +
                 ", thread %ld would wait forever at its named-barrier "
                 "operation %ld, a bar.sync on barrier %ld: %ld of %ld "
                 "threads arrive\n",
             {thread, lm.addConstant(position, -1), barrier,
              memref::LoadOp::create(lb, lloc, arrived, safe),
              memref::LoadOp::create(lb, lloc, expected, safe)});
        scf::YieldOp::create(lb, lloc);
      });
}

void Lowering::run(ArrayRef<Operation *> ops) {
  OpBuilder b(threads);
  Location loc = threads.getLoc();
  log = memref::AllocOp::create(
      b, loc,
      MemRefType::get({threadCount, fa::kNamedBarrierLogCapacity},
                      b.getIndexType()));
  logged = filled(b, loc, {threadCount}, 0);
  for (Operation *op : ops)
    logOperation(op);
  b.setInsertionPointAfter(threads);
  replay(b, loc);
}

} // namespace

LogicalResult mlir::fa::lowerNamedBarriers(Operation *root) {
  llvm::MapVector<Operation *, SmallVector<Operation *>> opsOf;
  WalkResult walk = root->walk([&](Operation *op) {
    if (!isa<NVVM::BarrierOp, NVVM::BarrierArriveOp>(op))
      return WalkResult::advance();
    if (auto barrier = dyn_cast<NVVM::BarrierOp>(op);
        barrier && (!barrier.getBarrierId() ||
                    !barrier.getNumberOfThreads() || barrier.getRes() ||
                    barrier.getReductionOp())) {
      op->emitOpError()
          << "cannot run on a CPU: the emulation models named barriers "
             "(an id and a thread count, no reduction); the block-wide "
             "barrier is gpu.barrier";
      return WalkResult::interrupt();
    }
    if (auto arrive = dyn_cast<NVVM::BarrierArriveOp>(op);
        arrive && !arrive.getBarrierId()) {
      op->emitOpError() << "cannot run on a CPU: the emulation models "
                           "bar.arrive on a named barrier (an id, 1 .. 15)";
      return WalkResult::interrupt();
    }
    auto threads = op->getParentOfType<scf::ForallOp>();
    while (threads && !isThreadLoop(threads))
      threads = threads->getParentOfType<scf::ForallOp>();
    if (!threads || threads.getRank() != 1 ||
        !isConstantIntValue(threads.getMixedLowerBound()[0], 0) ||
        !isConstantIntValue(threads.getMixedStep()[0], 1) ||
        !getConstantIntValue(threads.getMixedUpperBound()[0])) {
      op->emitOpError() << "cannot run on a CPU: a named barrier is emulated "
                           "in a one-dimensional thread loop from 0 by 1 "
                           "with a constant thread count";
      return WalkResult::interrupt();
    }
    opsOf[threads.getOperation()].push_back(op);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (opsOf.empty())
    return success();
  auto module = dyn_cast<ModuleOp>(root);
  if (!module)
    return root->emitError("cannot run named barriers on a CPU outside a "
                           "module (their checks call libc)");
  RuntimeReport report{module, "check named barriers", "fa_bar_message_"};
  if (failed(report.declare()))
    return failure();
  for (auto &[threads, ops] : opsOf) {
    auto loop = cast<scf::ForallOp>(threads);
    int64_t count = *getConstantIntValue(loop.getMixedUpperBound()[0]);
    Lowering(loop, count, report).run(ops);
  }
  return success();
}
