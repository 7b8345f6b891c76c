//===- WarpgroupMma.cpp - Hopper's warpgroup matmul on a CPU --------------===//
//
// See WarpgroupMma.h. One fa.warpgroup_mma in a thread loop becomes, for
// thread t (warpgroup thread u = t % 128, warpgroup base t - u):
//
//   [A from registers: store t's 8 elements of A in its slot; gpu.barrier]
//   for r in 0 .. N/2:                  -- t's accumulator registers
//     row = 16 (u / 32) + (u % 32) / 4 + 8 ((r / 2) % 2)
//     col = 8 (r / 4) + 2 (u % 4) + r % 2
//     D[r] = C[r] + sum over k < 16 of A(row, k) B(k, col)
//
// with A(row, k) read from A's buffer at the byte the descriptor gives
// (K-major, or M/N-major with transpose_a), or from the slot of the thread that
// holds it; B(k, col) from B's buffer (K-major, or M/N-major with transpose_b).
// The address arithmetic is WarpgroupLayout.h's wgmmaOperandByteAddress with
// the descriptor's fields read at run time; unit tests check that function and
// bench/gpu/hopper-probe.cu checked it on an H200.
//
// Consecutive wgmmas that nothing writing memory separates share one
// barrier (a wave), as the warp collectives do: P V's K steps cost one.
//
// Groups: a wait commits every wgmma issued since the previous wait in its
// block (an empty group if none), and with `pending = p` leaves the newest
// p groups in flight. Its operands defined by wgmmas of completed groups
// are their computed values; by wgmmas still in flight, NaN. An operand
// that no wgmma of the wait's block defines (a value carried in from an
// enclosing region) is returned as it is.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupMma.h"
#include "RuntimeReport.h"
#include "ThreadLoops.h"
#include "TmaCopies.h"
#include "WarpCollectives.h"

#include "Common/IndexMath.h"
#include "fa/Dialect/FA/IR/FAOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

using namespace mlir;
using namespace mlir::fa;

namespace {

constexpr int64_t kWarpgroup = 128;

/// A descriptor's fields, in bytes, and its swizzle mode (0 none, 1 128 B,
/// 2 64 B, 3 32 B), as index values.
struct Fields {
  Value start, leading, stride, mode;
};

Fields decode(OpBuilder &b, Location loc, Value descriptor) {
  auto field = [&](int64_t shift, int64_t mask, int64_t scale) -> Value {
    Value bits = descriptor;
    if (shift)
      bits = arith::ShRUIOp::create(
          b, loc, bits, arith::ConstantIntOp::create(b, loc, shift, 64));
    bits = arith::AndIOp::create(
        b, loc, bits, arith::ConstantIntOp::create(b, loc, mask, 64));
    if (scale != 1)
      bits = arith::MulIOp::create(
          b, loc, bits, arith::ConstantIntOp::create(b, loc, scale, 64));
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), bits);
  };
  return {field(0, 0x3fff, 16), field(16, 0x3fff, 16), field(32, 0x3fff, 16),
          field(62, 0x3, 1)};
}

/// The byte wgmma reads element (mn, k) of a 2-byte operand from
/// (WarpgroupLayout.h's wgmmaOperandByteAddress, with run-time fields).
Value operandAddress(IndexMath &m, const Fields &d, bool mnMajor, Value mn,
                     Value k) {
  OpBuilder &b = m.b;
  Location loc = m.loc;
  auto select = [&](Value condition, Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, condition, x, y);
  };
  auto modeIs = [&](int64_t mode) { return m.eq(d.mode, m.constant(mode)); };
  // S: 128, 64, 32 bytes; the XOR takes 3, 2 or 1 bits.
  Value rowBytes = select(modeIs(1), m.constant(128),
                          select(modeIs(2), m.constant(64), m.constant(32)));
  Value xorMask =
      select(modeIs(1), m.constant(0x70),
             select(modeIs(2), m.constant(0x30),
                    select(modeIs(3), m.constant(0x10), m.constant(0))));
  Value eight = m.constant(8), two = m.constant(2), sixteen = m.constant(16);
  Value plain, swizzled;
  if (!mnMajor) {
    plain = m.add(
        m.add(m.mul(m.divU(mn, eight), d.stride),
              m.mul(m.divU(k, eight), d.leading)),
        m.add(m.mul(m.remU(mn, eight), sixteen), m.mul(m.remU(k, eight), two)));
    swizzled = m.add(m.add(m.mul(m.divU(mn, eight), d.stride),
                           m.mul(m.remU(mn, eight), rowBytes)),
                     m.mul(k, two));
  } else {
    plain = m.add(
        m.add(m.mul(m.divU(mn, eight), d.stride),
              m.mul(m.divU(k, eight), d.leading)),
        m.add(m.mul(m.remU(k, eight), sixteen), m.mul(m.remU(mn, eight), two)));
    Value atom = m.divU(rowBytes, two);
    swizzled = m.add(
        m.add(m.mul(m.divU(mn, atom), d.leading),
              m.mul(m.divU(k, eight), d.stride)),
        m.add(m.mul(m.remU(k, eight), rowBytes), m.mul(m.remU(mn, atom), two)));
  }
  Value address = m.add(d.start, select(modeIs(0), plain, swizzled));
  Value line = arith::ShRUIOp::create(b, loc, address, m.constant(3));
  return arith::XOrIOp::create(b, loc, address,
                               arith::AndIOp::create(b, loc, line, xorMask));
}

class Lowering {
public:
  Lowering(scf::ForallOp threads, int64_t count, RuntimeReport &report)
      : threads(threads), count(count), report(report) {}

  /// Forms the waves of `block` and computes their wgmmas.
  void run(Block *block);
  /// The computed value of each wgmma's result.
  DenseMap<Value, Value> &values() { return realOf; }

private:
  scf::ForallOp threads;
  int64_t count;
  RuntimeReport &report;
  DenseMap<Value, Value> realOf;

  struct Member {
    WarpgroupMmaOp op;
    Value slots; // A's registers of every thread, for A from registers
  };
  void publish(Member &member);
  Value compute(OpBuilder &b, Member &member);
  Value load(IndexMath &m, WarpgroupMmaOp op, Value buffer, Value byte);
  void flush(SmallVector<Member> &wave);
};

void Lowering::publish(Member &member) {
  WarpgroupMmaOp op = member.op;
  auto registers = dyn_cast<VectorType>(op.getA().getType());
  if (!registers)
    return;
  OpBuilder b(threads);
  Location loc = op.getLoc();
  member.slots = memref::AllocOp::create(
      b, loc, MemRefType::get({count, 8}, registers.getElementType()));
  b.setInsertionPoint(op);
  Value t = threads.getInductionVar(0);
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 2; ++j) {
      Value element =
          vector::ExtractOp::create(b, loc, op.getA(), ArrayRef<int64_t>{i, j});
      memref::StoreOp::create(
          b, loc, element, member.slots,
          ValueRange{t, arith::ConstantIndexOp::create(b, loc, 2 * i + j)});
    }
}

/// Element byte / 2 of `buffer`, after checking that it is inside.
Value Lowering::load(IndexMath &m, WarpgroupMmaOp op, Value buffer,
                     Value byte) {
  OpBuilder &b = m.b;
  Location loc = m.loc;
  Value index = m.divU(byte, m.constant(2));
  Value size = memref::DimOp::create(b, loc, buffer, 0);
  Value outside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, index, size);
  std::string format = "fa-emulate-threads-on-cpu: the wgmma at " +
                       escapePercent(describeLocation(op.getLoc())) +
                       " reads element %ld of a buffer of %ld\n";
  scf::IfOp::create(b, loc, outside, [&](OpBuilder &ib, Location iloc) {
    auto asI64 = [&](Value v) -> Value {
      return arith::IndexCastOp::create(ib, iloc, ib.getI64Type(), v);
    };
    report.report(ib, iloc, format, {asI64(index), asI64(size)});
    scf::YieldOp::create(ib, iloc);
  });
  Value element = memref::LoadOp::create(b, loc, buffer, index);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), element);
}

Value Lowering::compute(OpBuilder &b, Member &member) {
  WarpgroupMmaOp op = member.op;
  Location loc = op.getLoc();
  IndexMath m{b, loc};
  Value t = threads.getInductionVar(0);
  Value u = m.remU(t, m.constant(kWarpgroup));
  Value base = m.sub(t, u);
  Value warpRow = m.mul(m.divU(u, m.constant(32)), m.constant(16));
  Value group = m.divU(m.remU(u, m.constant(32)), m.constant(4));
  Value quadColumn = m.mul(m.remU(u, m.constant(4)), m.constant(2));
  auto accumulatorType = cast<VectorType>(op.getAccumulator().getType());
  Value initial;
  if (op.getIgnoreAccumulator())
    initial = arith::ConstantOp::create(b, loc, b.getZeroAttr(accumulatorType));
  else
    initial = realOf.lookup(op.getAccumulator())
                  ? realOf.lookup(op.getAccumulator())
                  : op.getAccumulator();
  std::optional<Fields> a;
  if (op.getABuffer())
    a = decode(b, loc, op.getA());
  Fields bFields = decode(b, loc, op.getBDescriptor());
  Value zero = m.constant(0), one = m.constant(1);
  auto rows = scf::ForOp::create(
      b, loc, zero, m.constant(accumulatorType.getNumElements()), one,
      ValueRange{initial},
      [&](OpBuilder &rb, Location rloc, Value r, ValueRange carried) {
        IndexMath rm{rb, rloc};
        Value row =
            rm.add(rm.add(warpRow, group),
                   rm.mul(rm.remU(rm.divU(r, rm.constant(2)), rm.constant(2)),
                          rm.constant(8)));
        Value column =
            rm.add(rm.add(rm.mul(rm.divU(r, rm.constant(4)), rm.constant(8)),
                          quadColumn),
                   rm.remU(r, rm.constant(2)));
        Value start = vector::ExtractOp::create(rb, rloc, carried[0],
                                                ArrayRef<OpFoldResult>{r});
        auto sum = scf::ForOp::create(
            rb, rloc, rm.constant(0), rm.constant(16), rm.constant(1),
            ValueRange{start},
            [&](OpBuilder &kb, Location kloc, Value k, ValueRange partial) {
              IndexMath km{kb, kloc};
              Value aValue;
              if (a) {
                aValue =
                    load(km, op, op.getABuffer(),
                         operandAddress(km, *a, op.getTransposeA(), row, k));
              } else {
                // A(row, k) is register 2 (k / 8) + (row % 16) / 8, half
                // k % 2, of thread 32 (row / 16) + 4 (row % 8) + (k % 8) / 2.
                Value eight = km.constant(8);
                Value holder = km.add(
                    base,
                    km.add(km.add(km.mul(km.divU(row, km.constant(16)),
                                         km.constant(32)),
                                  km.mul(km.remU(row, eight), km.constant(4))),
                           km.divU(km.remU(k, eight), km.constant(2))));
                Value reg =
                    km.add(km.mul(km.divU(k, eight), km.constant(2)),
                           km.divU(km.remU(row, km.constant(16)), eight));
                Value slot = km.add(km.mul(reg, km.constant(2)),
                                    km.remU(k, km.constant(2)));
                Value element = memref::LoadOp::create(
                    kb, kloc, member.slots, ValueRange{holder, slot});
                aValue =
                    arith::ExtFOp::create(kb, kloc, kb.getF32Type(), element);
              }
              Value bValue = load(
                  km, op, op.getBBuffer(),
                  operandAddress(km, bFields, op.getTransposeB(), column, k));
              Value product = arith::MulFOp::create(kb, kloc, aValue, bValue);
              scf::YieldOp::create(kb, kloc,
                                   ValueRange{arith::AddFOp::create(
                                       kb, kloc, partial[0], product)});
            });
        Value next = vector::InsertOp::create(
            rb, rloc, sum.getResult(0), carried[0], ArrayRef<OpFoldResult>{r});
        scf::YieldOp::create(rb, rloc, ValueRange{next});
      });
  return rows.getResult(0);
}

void Lowering::flush(SmallVector<Member> &wave) {
  if (wave.empty())
    return;
  bool exchanges = false;
  for (Member &member : wave) {
    publish(member);
    exchanges |= static_cast<bool>(member.slots);
  }
  Operation *last = wave.back().op;
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  // A warpgroup-wide exchange: a barrier of the whole block orders it (the
  // kernel's threads all run the same wgmmas).
  if (exchanges)
    gpu::BarrierOp::create(b, last->getLoc())
        ->setAttr(kModelBarrierAttrName, b.getUnitAttr());
  for (Member &member : wave)
    realOf[member.op.getResult()] = compute(b, member);
  wave.clear();
}

void Lowering::run(Block *block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block->without_terminator())
    ops.push_back(&op);
  SmallVector<Member> wave;
  DenseSet<Value> results;
  // A member's result may feed a later member as its accumulator; any
  // other use in the wave ends it.
  auto usesWave = [&](Operation *op) {
    auto mma = dyn_cast<WarpgroupMmaOp>(op);
    for (OpOperand &operand : op->getOpOperands())
      if (results.contains(operand.get()) &&
          !(mma && operand.getOperandNumber() == 0))
        return true;
    return false;
  };
  for (Operation *op : ops) {
    if (auto mma = dyn_cast<WarpgroupMmaOp>(op)) {
      if (usesWave(op)) {
        flush(wave);
        results.clear();
      }
      wave.push_back(Member{mma, {}});
      results.insert(mma.getResult());
      continue;
    }
    if (!wave.empty() && (usesWave(op) || !mayJoinWave(op))) {
      flush(wave);
      results.clear();
    }
  }
  flush(wave);
}

/// The thread loop a wgmma runs in, with its constant thread count, or a
/// diagnostic at `op`.
FailureOr<std::pair<scf::ForallOp, int64_t>> threadLoopOf(Operation *op) {
  auto threads = op->getParentOfType<scf::ForallOp>();
  while (threads && !isThreadLoop(threads))
    threads = threads->getParentOfType<scf::ForallOp>();
  int64_t count = 0;
  if (threads && threads.getRank() == 1 &&
      isConstantIntValue(threads.getMixedLowerBound()[0], 0) &&
      isConstantIntValue(threads.getMixedStep()[0], 1))
    count = getConstantIntValue(threads.getMixedUpperBound()[0]).value_or(0);
  if (count <= 0 || count % kWarpgroup != 0)
    return op->emitOpError()
           << "cannot run on a CPU: a warpgroup matmul is emulated in a "
              "one-dimensional thread loop of whole warpgroups (128 threads), "
              "from 0 by 1";
  // Branches that whole warpgroups take (a warp-specialized kernel's
  // compute role) are looked through.
  Operation *parent = parentPastGroupBranches(op, threads, kWarpgroup);
  if (!parent)
    return op->emitOpError()
           << "cannot run on a CPU: a warpgroup matmul may sit in a branch "
              "only where whole warpgroups take it (a condition the same in "
              "every thread, or thread < a multiple of "
           << kWarpgroup << ")";
  bool placed = parent == threads.getOperation() ||
                (isa<scf::ForOp>(parent) &&
                 parent->getParentOp() == threads.getOperation());
  if (!placed)
    return op->emitOpError()
           << "cannot run on a CPU: a warpgroup matmul must be in the thread "
              "loop or in a loop directly inside it, where every thread of "
              "the warpgroup reaches it";
  return std::pair{threads, count};
}

/// For each wait, which of its operands' wgmmas have completed there.
DenseMap<Operation *, SmallVector<bool>>
completedAtWaits(ArrayRef<Block *> blocks) {
  DenseMap<Operation *, SmallVector<bool>> completed;
  for (Block *block : blocks) {
    DenseMap<Operation *, int64_t> groupOf;
    SmallVector<Operation *> open;
    int64_t groups = 0;
    for (Operation &op : *block) {
      if (isa<WarpgroupMmaOp>(op)) {
        open.push_back(&op);
        continue;
      }
      auto wait = dyn_cast<WarpgroupMmaWaitOp>(op);
      if (!wait)
        continue;
      int64_t newest = groups++;
      for (Operation *issued : open)
        groupOf[issued] = newest;
      open.clear();
      SmallVector<bool> landed;
      for (Value value : wait.getValues()) {
        Operation *def = value.getDefiningOp();
        auto found = def ? groupOf.find(def) : groupOf.end();
        if (found == groupOf.end()) {
          // Not a wgmma of this block: in flight only if issued here and
          // not yet committed (impossible: this wait committed it).
          landed.push_back(true);
          continue;
        }
        // getPending() is unsigned: subtract as signed.
        int64_t pending = static_cast<int64_t>(wait.getPending());
        landed.push_back(found->second <= newest - pending);
      }
      completed[wait] = landed;
    }
  }
  return completed;
}

Value nanLike(OpBuilder &b, Location loc, Type type) {
  auto vector = cast<VectorType>(type);
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          vector, b.getFloatAttr(vector.getElementType(),
                                 std::numeric_limits<double>::quiet_NaN())));
}

} // namespace

LogicalResult mlir::fa::lowerWarpgroupMmas(Operation *root) {
  SmallVector<WarpgroupMmaOp> mmas;
  SmallVector<WarpgroupMmaWaitOp> waits;
  root->walk([&](Operation *op) {
    if (auto mma = dyn_cast<WarpgroupMmaOp>(op))
      mmas.push_back(mma);
    else if (auto wait = dyn_cast<WarpgroupMmaWaitOp>(op))
      waits.push_back(wait);
  });
  if (mmas.empty() && waits.empty())
    return success();
  auto module = dyn_cast<ModuleOp>(root);
  if (!module)
    return root->emitError(
        "cannot run warpgroup matmuls on a CPU outside a module (their "
        "descriptor check calls libc)");
  RuntimeReport report{module, "check wgmma descriptors", "fa_wgmma_message_"};
  if (failed(report.declare()))
    return failure();

  llvm::MapVector<Operation *, llvm::SetVector<Block *>> blocksOf;
  DenseMap<Operation *, int64_t> counts;
  llvm::SetVector<Block *> allBlocks;
  for (WarpgroupMmaOp mma : mmas) {
    FailureOr<std::pair<scf::ForallOp, int64_t>> loop = threadLoopOf(mma);
    if (failed(loop))
      return failure();
    blocksOf[loop->first.getOperation()].insert(mma->getBlock());
    counts[loop->first.getOperation()] = loop->second;
    allBlocks.insert(mma->getBlock());
  }
  for (WarpgroupMmaWaitOp wait : waits)
    allBlocks.insert(wait->getBlock());
  DenseMap<Operation *, SmallVector<bool>> completed =
      completedAtWaits(allBlocks.getArrayRef());

  DenseMap<Value, Value> realOf;
  for (auto &[threads, blocks] : blocksOf) {
    Lowering lowering(cast<scf::ForallOp>(threads), counts[threads], report);
    for (Block *block : blocks)
      lowering.run(block);
    for (auto &[result, value] : lowering.values())
      realOf[result] = value;
  }

  for (WarpgroupMmaWaitOp wait : waits) {
    OpBuilder b(wait);
    SmallVector<bool> &landed = completed[wait];
    for (auto [i, value] : llvm::enumerate(wait.getValues())) {
      Value replacement = value;
      if (Value real = realOf.lookup(value))
        replacement =
            landed[i] ? real : nanLike(b, wait.getLoc(), value.getType());
      wait.getResult(i).replaceAllUsesWith(replacement);
    }
    wait.erase();
  }
  // Whatever still reads a wgmma's result reads it in flight.
  for (WarpgroupMmaOp mma : llvm::reverse(mmas)) {
    OpBuilder b(mma);
    if (!mma.getResult().use_empty())
      mma.getResult().replaceAllUsesWith(
          nanLike(b, mma.getLoc(), mma.getResult().getType()));
    mma.erase();
  }
  return success();
}
