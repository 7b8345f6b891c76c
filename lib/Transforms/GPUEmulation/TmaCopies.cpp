//===- TmaCopies.cpp - TMA loads and mbarriers on a CPU -------------------===//
//
// See TmaCopies.h.
//
//===----------------------------------------------------------------------===//

#include "TmaCopies.h"
#include "RuntimeReport.h"
#include "ThreadLoops.h"

#include "Common/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using mlir::fa::describeLocation;
using mlir::fa::escapePercent;
using mlir::fa::IndexMath;
using mlir::fa::RuntimeReport;

namespace {

/// The counters of an mbarrier, in this order (see TmaCopies.h).
enum Counter : int64_t {
  kExpected = 0,
  kPending = 1,
  kBytes = 2,
  kCompleted = 3,
  /// The arrive.expect_tx on the barrier so far: the loads issued between
  /// two of them are one transaction.
  kTransactions = 4,
  kCounters = 5
};

/// A TMA load op and what it reads: the tensor map's memref and box.
struct TmaSite {
  nvgpu::TmaAsyncLoadOp op;
  Value source;
  nvgpu::TensorMapDescriptorType map;
  /// The value the destination is a view of, defined in front of the
  /// thread loop (so that a wait anywhere in the loop can reach it).
  Value root;
  /// How many times the op issues in one transaction: the static trip
  /// counts of the loops between it and the block that announces the
  /// transaction (arrive.expect_tx), e.g. a key block's per-page boxes.
  int64_t capacity = 1;
  /// [barriers][capacity][1 + rank] of index: per load in flight, the
  /// destination's element offset and the coordinates.
  Value record;
  /// [barriers][2] of index: the loads in flight, and the transaction
  /// (kTransactions) they belong to.
  Value inFlight;
  int64_t boxElements() const { return map.getTensor().getNumElements(); }
  int64_t elementBytes() const {
    return map.getTensor().getElementTypeBitWidth() / 8;
  }
  /// The box's elements in shared memory, one dimension from element
  /// `offset` of the allocation `base` (a rank-0 base buffer) on.
  Value boxView(OpBuilder &b, Location loc, Value base, Value offset) const {
    auto type = MemRefType::get(
        {boxElements()}, map.getTensor().getElementType(),
        StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}),
        cast<MemRefType>(base.getType()).getMemorySpace());
    return memref::ReinterpretCastOp::create(
        b, loc, type, base, OpFoldResult(offset),
        ArrayRef<OpFoldResult>{b.getIndexAttr(boxElements())},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }
};

int64_t swizzleBits(nvgpu::TensorMapSwizzleKind kind) {
  switch (kind) {
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_128B:
    return 3;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_64B:
    return 2;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_32B:
    return 1;
  default:
    return 0;
  }
}

class Lowering {
public:
  Lowering(RuntimeReport &report) : report(report) {}
  LogicalResult run(Operation *root);

private:
  RuntimeReport &report;
  /// Per barrier group: its counters ([barriers][4] of index) and loads.
  DenseMap<Value, Value> stateOf;
  llvm::MapVector<Value, SmallVector<TmaSite>> sitesOf;

  LogicalResult createState(nvgpu::MBarrierCreateOp create);
  FailureOr<TmaSite> describe(nvgpu::TmaAsyncLoadOp op);
  Value counter(IndexMath &m, Value state, Value index, Counter which) {
    return memref::LoadOp::create(m.b, m.loc, state,
                                  ValueRange{index, m.constant(which)});
  }
  void setCounter(IndexMath &m, Value state, Value index, Counter which,
                  Value value) {
    memref::StoreOp::create(m.b, m.loc, value, state,
                            ValueRange{index, m.constant(which)});
  }
  void fail(OpBuilder &b, Location loc, Value condition, StringRef format,
            ValueRange values);
  void arrive(IndexMath &m, Value state, Value index);
  void completeIfDone(IndexMath &m, Value state, Value index);
  void issue(TmaSite &site);
  void land(IndexMath &m, TmaSite &site, Value state, Value index);
  void lowerWait(nvgpu::MBarrierTryWaitParityOp wait);
};

void Lowering::fail(OpBuilder &b, Location loc, Value condition,
                    StringRef format, ValueRange values) {
  report.reportIf(b, loc, condition, format, values);
}

LogicalResult Lowering::createState(nvgpu::MBarrierCreateOp create) {
  auto type = cast<nvgpu::MBarrierGroupType>(create.getType());
  OpBuilder b(create);
  Location loc = create.getLoc();
  int64_t count = type.getNumBarriers();
  Value state = memref::AllocOp::create(
      b, loc, MemRefType::get({count, kCounters}, b.getIndexType()));
  // Uninitialized barriers read as never completing.
  IndexMath m{b, loc};
  for (int64_t i = 0; i < count; ++i)
    for (int64_t c = 0; c < kCounters; ++c)
      memref::StoreOp::create(b, loc, m.constant(c == kPending ? 1 : 0), state,
                              ValueRange{m.constant(i), m.constant(c)});
  stateOf[create.getResult()] = state;
  return success();
}

FailureOr<TmaSite> Lowering::describe(nvgpu::TmaAsyncLoadOp op) {
  TmaSite site;
  site.op = op;
  site.map = op.getTensorMapDescriptor().getType();
  auto create =
      op.getTensorMapDescriptor().getDefiningOp<nvgpu::TmaCreateDescriptorOp>();
  if (!create)
    return op.emitOpError()
           << "cannot run on a CPU: its tensor map must come from an "
              "nvgpu.tma.create.descriptor the emulation can see";
  Value source = create.getTensor();
  if (auto cast = source.getDefiningOp<memref::CastOp>())
    source = cast.getSource();
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  MemRefType box = site.map.getTensor();
  if (!sourceType || sourceType.getRank() != box.getRank())
    return op.emitOpError()
           << "cannot run on a CPU: its tensor map must describe a ranked "
              "memref of the box's rank";
  site.source = source;
  // The swizzled layout below assumes rows of the swizzle's width, which
  // nvgpu's verifier requires of the box's last dimension.
  auto threads = op->getParentOfType<scf::ForallOp>();
  while (threads && !fa::isThreadLoop(threads))
    threads = threads->getParentOfType<scf::ForallOp>();
  if (!threads)
    return op.emitOpError() << "cannot run on a CPU outside a thread loop";
  Value root = op.getDst();
  while (threads->isAncestor(root.getParentRegion()->getParentOp())) {
    auto view = root.getDefiningOp<ViewLikeOpInterface>();
    if (!view)
      return op.emitOpError()
             << "cannot run on a CPU: its destination must be a view of "
                "shared memory allocated in front of the thread loop";
    root = view.getViewSource();
  }
  site.root = root;
  for (Operation *at = op;;) {
    bool announces = llvm::any_of(*at->getBlock(), [&](Operation &other) {
      auto expect = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(other);
      return expect && expect.getBarriers() == op.getBarriers();
    });
    Operation *parent = at->getParentOp();
    if (announces || parent == threads)
      break;
    if (isa<LoopLikeOpInterface>(parent)) {
      // Any loop but an scf.for of constant bounds has no trip count here.
      auto loop = dyn_cast<scf::ForOp>(parent);
      std::optional<int64_t> lower, upper, step;
      if (loop) {
        lower = getConstantIntValue(loop.getLowerBound());
        upper = getConstantIntValue(loop.getUpperBound());
        step = getConstantIntValue(loop.getStep());
      }
      if (!lower || !upper || !step || *step <= 0)
        return op.emitOpError()
               << "cannot run on a CPU: a loop of unknown trip count lies "
                  "between it and its transaction's arrive.expect_tx, so "
                  "the loads in flight at once are unbounded";
      site.capacity *=
          std::max<int64_t>((*upper - *lower + *step - 1) / *step, 1);
    }
    at = parent;
  }
  OpBuilder b(threads);
  Location loc = op.getLoc();
  int64_t barriers = cast<nvgpu::MBarrierGroupType>(op.getBarriers().getType())
                         .getNumBarriers();
  site.record = memref::AllocOp::create(
      b, loc,
      MemRefType::get({barriers, site.capacity, 1 + box.getRank()},
                      b.getIndexType()));
  site.inFlight = memref::AllocOp::create(
      b, loc, MemRefType::get({barriers, 2}, b.getIndexType()));
  IndexMath m{b, loc};
  for (int64_t i = 0; i < barriers; ++i)
    memref::StoreOp::create(b, loc, m.constant(0), site.inFlight,
                            ValueRange{m.constant(i), m.constant(0)});
  return site;
}

void Lowering::completeIfDone(IndexMath &m, Value state, Value index) {
  OpBuilder &b = m.b;
  Location loc = m.loc;
  Value pending = counter(m, state, index, kPending);
  Value bytes = counter(m, state, index, kBytes);
  Value done = arith::AndIOp::create(b, loc, m.eq(pending, m.constant(0)),
                                     m.eq(bytes, m.constant(0)));
  scf::IfOp::create(b, loc, done, [&](OpBuilder &ib, Location iloc) {
    IndexMath im{ib, iloc};
    setCounter(im, state, index, kCompleted,
               im.addConstant(counter(im, state, index, kCompleted), 1));
    setCounter(im, state, index, kPending,
               counter(im, state, index, kExpected));
    scf::YieldOp::create(ib, iloc);
  });
}

void Lowering::arrive(IndexMath &m, Value state, Value index) {
  // An arrival past the count starts on the next phase, as on the GPU
  // (where it completes that phase early: a wait then passes too soon and
  // reads NaN here).
  Value pending = m.addConstant(counter(m, state, index, kPending), -1);
  setCounter(m, state, index, kPending, pending);
  completeIfDone(m, state, index);
}

void Lowering::issue(TmaSite &site) {
  nvgpu::TmaAsyncLoadOp op = site.op;
  OpBuilder b(op);
  Location loc = op.getLoc();
  IndexMath m{b, loc};
  Value index = op.getMbarId();
  Value inFlight = memref::LoadOp::create(b, loc, site.inFlight,
                                          ValueRange{index, m.constant(0)});
  Value transaction = memref::LoadOp::create(b, loc, site.inFlight,
                                             ValueRange{index, m.constant(1)});
  Value state = stateOf.lookup(op.getBarriers());
  Value current = counter(m, state, index, kTransactions);
  std::string where = escapePercent(describeLocation(loc));
  // Loads of an earlier transaction still in flight: nothing waited on
  // the barrier between the two.
  fail(
      b, loc,
      m.andI(m.lt(m.constant(0), inFlight), m.notI(m.eq(transaction, current))),
      "fa-emulate-threads-on-cpu: the TMA load at " + where +
          " is issued again on mbarrier %ld before its last load there "
          "landed\n",
      {index});
  Value slot = arith::SelectOp::create(b, loc, m.eq(transaction, current),
                                       inFlight, m.constant(0));
  fail(b, loc, m.le(m.constant(site.capacity), slot),
       "fa-emulate-threads-on-cpu: the TMA load at " + where +
           " issues more than " + std::to_string(site.capacity) +
           " times in one transaction on mbarrier %ld\n",
       {index});
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, op.getDst());
  Value offset = metadata.getOffset();
  int64_t bits = swizzleBits(site.map.getSwizzle());
  if (bits) {
    int64_t pattern = 128 << bits; // 8 rows of the swizzle's width
    Value misaligned = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        m.remU(m.mul(offset, m.constant(site.elementBytes())),
               m.constant(pattern)),
        m.constant(0));
    fail(b, loc, misaligned,
         "fa-emulate-threads-on-cpu: the TMA load at " + where +
             " writes shared memory at byte %ld, off the " +
             std::to_string(pattern) +
             "-byte boundary its swizzle pattern starts on\n",
         {m.mul(offset, m.constant(site.elementBytes()))});
  }
  // The box must fit the buffer its destination is a view of: TMA writes
  // the whole box, and one placed past its tile (a ring stage sized by the
  // wrong dimension) would overwrite what follows or leave the buffer; the
  // hardware faults or corrupts, so the emulation stops with the range.
  auto rootType = dyn_cast<MemRefType>(site.root.getType());
  if (rootType && rootType.hasStaticShape()) {
    auto rootMetadata =
        memref::ExtractStridedMetadataOp::create(b, loc, site.root);
    Value first = rootMetadata.getOffset();
    Value end = m.addConstant(first, rootType.getNumElements());
    Value boxEnd = m.addConstant(offset, site.boxElements());
    fail(b, loc, m.orI(m.lt(offset, first), m.lt(end, boxEnd)),
         "fa-emulate-threads-on-cpu: the TMA load at " + where +
             " writes elements %ld .. %ld of a buffer whose elements are "
             "%ld .. %ld: its box does not fit its destination\n",
         {offset, m.addConstant(boxEnd, -1), first, m.addConstant(end, -1)});
  }
  memref::StoreOp::create(b, loc, m.addConstant(slot, 1), site.inFlight,
                          ValueRange{index, m.constant(0)});
  memref::StoreOp::create(b, loc, current, site.inFlight,
                          ValueRange{index, m.constant(1)});
  memref::StoreOp::create(b, loc, offset, site.record,
                          ValueRange{index, slot, m.constant(0)});
  for (auto [i, coordinate] : llvm::enumerate(op.getCoordinates()))
    memref::StoreOp::create(b, loc, coordinate, site.record,
                            ValueRange{index, slot, m.constant(1 + i)});
  // Until it lands, the destination holds nothing a wait has not seen.
  Type elementType = site.map.getTensor().getElementType();
  Value flat = site.boxView(b, loc, metadata.getBaseBuffer(), offset);
  Value nan = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(
          elementType,
          APFloat::getNaN(cast<FloatType>(elementType).getFloatSemantics())));
  scf::ForOp::create(b, loc, m.constant(0), m.constant(site.boxElements()),
                     m.constant(1), ValueRange{},
                     [&](OpBuilder &lb, Location lloc, Value e, ValueRange) {
                       memref::StoreOp::create(lb, lloc, nan, flat, e);
                       scf::YieldOp::create(lb, lloc);
                     });
  op.erase();
}

/// The load of `site` on barrier `index`, if one is in flight: the box from
/// the source (fill past it), swizzled into the destination; its bytes
/// complete on the barrier.
void Lowering::land(IndexMath &outer, TmaSite &site, Value state, Value index) {
  OpBuilder &b = outer.b;
  Location loc = outer.loc;
  Value inFlight = memref::LoadOp::create(b, loc, site.inFlight,
                                          ValueRange{index, outer.constant(0)});
  scf::ForOp::create(
      b, loc, outer.constant(0), inFlight, outer.constant(1), ValueRange{},
      [&](OpBuilder &ib, Location iloc, Value slot, ValueRange) {
        IndexMath m{ib, iloc};
        MemRefType box = site.map.getTensor();
        int64_t rank = box.getRank();
        Value offset = memref::LoadOp::create(
            ib, iloc, site.record, ValueRange{index, slot, m.constant(0)});
        SmallVector<Value> coordinates;
        for (int64_t i = 0; i < rank; ++i)
          coordinates.push_back(memref::LoadOp::create(
              ib, iloc, site.record,
              ValueRange{index, slot, m.constant(1 + i)}));
        auto metadata =
            memref::ExtractStridedMetadataOp::create(ib, iloc, site.root);
        Type elementType = box.getElementType();
        Value flat = site.boxView(ib, iloc, metadata.getBaseBuffer(), offset);
        bool nanFill = site.map.getOob() == nvgpu::TensorMapOOBKind::OOB_NAN;
        auto floatType = cast<FloatType>(elementType);
        Value fill = arith::ConstantOp::create(
            ib, iloc,
            ib.getFloatAttr(
                elementType,
                nanFill ? APFloat::getNaN(floatType.getFloatSemantics())
                        : APFloat::getZero(floatType.getFloatSemantics())));
        int64_t bits = swizzleBits(site.map.getSwizzle());
        int64_t elementBytes = site.elementBytes();
        scf::ForOp::create(
            ib, iloc, m.constant(0), m.constant(site.boxElements()),
            m.constant(1), ValueRange{},
            [&](OpBuilder &lb, Location lloc, Value e, ValueRange) {
              IndexMath lm{lb, lloc};
              // Box element e: its index along each dim (row-major box),
              // then the source element (coordinates innermost first).
              SmallVector<Value> indices(rank);
              Value rest = e;
              Value inside = arith::ConstantIntOp::create(lb, lloc, 1, 1);
              for (int64_t d = rank - 1; d >= 0; --d) {
                int64_t extent = box.getDimSize(d);
                Value within = lm.remU(rest, lm.constant(extent));
                rest = lm.divU(rest, lm.constant(extent));
                Value at = lm.add(coordinates[rank - 1 - d], within);
                Value size = memref::DimOp::create(lb, lloc, site.source, d);
                Value ok = arith::AndIOp::create(
                    lb, lloc,
                    arith::CmpIOp::create(lb, lloc, arith::CmpIPredicate::sge,
                                          at, lm.constant(0)),
                    lm.lt(at, size));
                inside = arith::AndIOp::create(lb, lloc, inside, ok);
                // An index that stays inside, read only where `inside`.
                indices[d] =
                    arith::SelectOp::create(lb, lloc, ok, at, lm.constant(0));
              }
              Value element =
                  scf::IfOp::create(
                      lb, lloc, inside,
                      [&](OpBuilder &tb, Location tloc) {
                        scf::YieldOp::create(
                            tb, tloc,
                            ValueRange{memref::LoadOp::create(
                                tb, tloc, site.source, indices)});
                      },
                      [&](OpBuilder &eb, Location eloc) {
                        scf::YieldOp::create(eb, eloc, ValueRange{fill});
                      })
                      .getResult(0);
              // The swizzle XORs byte-offset bits [4, 4 + k) with bits
              // [7, 7 + k) (WarpgroupLayout.h's swizzledByteOffset).
              Value position = e;
              if (bits) {
                Value byte = lm.mul(e, lm.constant(elementBytes));
                Value mask = lm.constant(((int64_t(1) << bits) - 1) << 4);
                Value moved = arith::AndIOp::create(
                    lb, lloc,
                    arith::ShRUIOp::create(lb, lloc, byte, lm.constant(3)),
                    mask);
                Value swizzled = arith::XOrIOp::create(lb, lloc, byte, moved);
                position = lm.divU(swizzled, lm.constant(elementBytes));
              }
              memref::StoreOp::create(lb, lloc, element, flat, position);
              scf::YieldOp::create(lb, lloc);
            });
        Value bytes = m.addConstant(counter(m, state, index, kBytes),
                                    -site.boxElements() * elementBytes);
        fail(ib, iloc, m.lt(bytes, m.constant(0)),
             "fa-emulate-threads-on-cpu: the TMA load at " +
                 escapePercent(describeLocation(site.op.getLoc())) +
                 " lands more bytes on mbarrier %ld than its expect_tx "
                 "announced (%ld over)\n",
             {index, m.sub(m.constant(0), bytes)});
        setCounter(m, state, index, kBytes, bytes);
        completeIfDone(m, state, index);
        scf::YieldOp::create(ib, iloc);
      });
  memref::StoreOp::create(b, loc, outer.constant(0), site.inFlight,
                          ValueRange{index, outer.constant(0)});
}

void Lowering::lowerWait(nvgpu::MBarrierTryWaitParityOp wait) {
  OpBuilder b(wait);
  Location loc = wait.getLoc();
  // A phase boundary of the lock-step emulation.
  gpu::BarrierOp::create(b, loc)->setAttr(fa::kModelBarrierAttrName,
                                          b.getUnitAttr());
  IndexMath m{b, loc};
  Value state = stateOf.lookup(wait.getBarriers());
  Value index = wait.getMbarId();
  Value parity = arith::SelectOp::create(b, loc, wait.getPhaseParity(),
                                         m.constant(1), m.constant(0));
  // A phase of that parity already complete (the last one, or the one
  // before the first): the wait returns at once, copies still in flight.
  Value pending =
      m.eq(m.remU(counter(m, state, index, kCompleted), m.constant(2)), parity);
  scf::IfOp::create(b, loc, pending, [&](OpBuilder &ib, Location iloc) {
    IndexMath im{ib, iloc};
    for (TmaSite &site : sitesOf[wait.getBarriers()])
      land(im, site, state, index);
    Value completed = counter(im, state, index, kCompleted);
    fail(ib, iloc, im.eq(im.remU(completed, im.constant(2)), parity),
         "fa-emulate-threads-on-cpu: the mbarrier wait at " +
             escapePercent(describeLocation(loc)) +
             " would never return: mbarrier %ld waits for a phase of parity "
             "%ld after %ld completed phases; %ld arrivals and %ld "
             "transaction bytes are missing\n",
         {index, parity, completed, counter(im, state, index, kPending),
          counter(im, state, index, kBytes)});
    scf::YieldOp::create(ib, iloc);
  });
  wait.erase();
}

LogicalResult Lowering::run(Operation *root) {
  SmallVector<nvgpu::MBarrierCreateOp> creates;
  SmallVector<nvgpu::TmaAsyncLoadOp> loads;
  root->walk([&](Operation *op) {
    if (auto create = dyn_cast<nvgpu::MBarrierCreateOp>(op))
      creates.push_back(create);
    else if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(op))
      loads.push_back(load);
  });
  for (nvgpu::MBarrierCreateOp create : creates)
    if (failed(createState(create)))
      return failure();
  for (nvgpu::TmaAsyncLoadOp load : loads) {
    if (!stateOf.count(load.getBarriers()))
      return load.emitOpError()
             << "cannot run on a CPU: its mbarrier group must come from an "
                "nvgpu.mbarrier.create";
    FailureOr<TmaSite> site = describe(load);
    if (failed(site))
      return failure();
    sitesOf[load.getBarriers()].push_back(*site);
  }

  // Every use is one the model runs, checked before anything changes (so
  // that an arrive's token, which only mbarrier.test.wait reads, has no
  // reader left when the arrive goes).
  SmallVector<Operation *> users;
  for (nvgpu::MBarrierCreateOp create : creates)
    for (Operation *user : create->getUsers()) {
      if (!isa<nvgpu::MBarrierInitOp, nvgpu::MBarrierArriveExpectTxOp,
               nvgpu::MBarrierArriveOp, nvgpu::MBarrierTryWaitParityOp,
               nvgpu::TmaAsyncLoadOp>(user))
        return user->emitOpError()
               << "cannot run on a CPU: the emulation models mbarrier.init, "
                  "arrive, arrive.expect_tx, try_wait.parity and TMA loads";
      users.push_back(user);
    }
  for (Operation *user : users) {
    Value group = user->getOperand(0);
    if (isa<nvgpu::TmaAsyncLoadOp>(user))
      group = cast<nvgpu::TmaAsyncLoadOp>(user).getBarriers();
    Value state = stateOf.lookup(group);
    OpBuilder b(user);
    Location loc = user->getLoc();
    IndexMath m{b, loc};
    // An optional predicate: the op acts where it holds.
    auto guarded = [&](Value predicate, function_ref<void(IndexMath &)> body) {
      if (!predicate)
        return body(m);
      scf::IfOp::create(b, loc, predicate, [&](OpBuilder &ib, Location iloc) {
        IndexMath im{ib, iloc};
        body(im);
        scf::YieldOp::create(ib, iloc);
      });
    };
    if (auto init = dyn_cast<nvgpu::MBarrierInitOp>(user)) {
      guarded(init.getPredicate(), [&](IndexMath &im) {
        Value index = init.getMbarId();
        setCounter(im, state, index, kExpected, init.getCount());
        setCounter(im, state, index, kPending, init.getCount());
        setCounter(im, state, index, kBytes, im.constant(0));
        setCounter(im, state, index, kCompleted, im.constant(0));
        setCounter(im, state, index, kTransactions, im.constant(0));
      });
      init.erase();
    } else if (auto expect = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(user)) {
      guarded(expect.getPredicate(), [&](IndexMath &im) {
        Value index = expect.getMbarId();
        setCounter(
            im, state, index, kBytes,
            im.add(counter(im, state, index, kBytes), expect.getTxcount()));
        setCounter(im, state, index, kTransactions,
                   im.addConstant(counter(im, state, index, kTransactions), 1));
        arrive(im, state, index);
      });
      expect.erase();
    } else if (auto arriveOp = dyn_cast<nvgpu::MBarrierArriveOp>(user)) {
      // Its token's only reader, mbarrier.test.wait, was refused above.
      arrive(m, state, arriveOp.getMbarId());
      arriveOp.erase();
    } else if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(user)) {
      lowerWait(wait);
    }
  }
  for (auto &entry : sitesOf)
    for (TmaSite &site : entry.second)
      issue(site);
  for (nvgpu::MBarrierCreateOp create : creates)
    create.erase();
  // The tensor maps' host side.
  SmallVector<nvgpu::TmaCreateDescriptorOp> maps;
  root->walk([&](nvgpu::TmaCreateDescriptorOp map) { maps.push_back(map); });
  for (nvgpu::TmaCreateDescriptorOp map : maps) {
    if (!map->use_empty())
      continue;
    Value tensor = map.getTensor();
    map.erase();
    if (Operation *cast = tensor.getDefiningOp<memref::CastOp>();
        cast && cast->use_empty())
      cast->erase();
  }
  return success();
}

} // namespace

LogicalResult mlir::fa::lowerTmaCopiesAndBarriers(Operation *root) {
  bool any = false;
  root->walk([&](Operation *op) {
    if (isa<nvgpu::MBarrierCreateOp, nvgpu::TmaAsyncLoadOp>(op))
      any = true;
  });
  if (!any)
    return success();
  auto module = dyn_cast<ModuleOp>(root);
  if (!module)
    return root->emitError("cannot run TMA loads and mbarriers on a CPU "
                           "outside a module (their checks call libc)");
  RuntimeReport report{module, "check mbarriers and TMA loads",
                       "fa_tma_message_"};
  if (failed(report.declare()))
    return failure();
  return Lowering(report).run(root);
}
