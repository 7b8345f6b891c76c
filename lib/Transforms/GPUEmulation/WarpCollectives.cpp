//===- WarpCollectives.cpp - Warp-wide ops emulated lane by lane ---------===//
//
// See WarpCollectives.h. The lane layouts are PTX's (ISA, "Warp-level
// matrix instructions"), with g = lane / 4 and q = lane % 4:
//
//   ldmatrix (x1, x2, x4): lane 8i + r gives the address of row r of
//     matrix i; lane l receives row g, columns 2q and 2q + 1 of each
//     matrix, or with .trans rows 2q and 2q + 1 of column g.
//   mma.sync m16n8k16, A (16x16, vector<4x2>): register i holds row
//     g + 8 (i % 2), columns 2q + j + 8 (i / 2);
//     B (16x8, vector<2x2>): register i holds row (k) 2q + j + 8i,
//     column (n) g; C and D (16x8 f32, vector<2x2>): register i holds row
//     g + 8i, columns 2q + j.
//   shuffle xor: lane l receives the value of lane l xor offset.
//
// An example, one mma.sync in a thread loop of 32 lanes, becomes
//
//   store A[t] (8 elements) and B[t] (4) into slots      -- where it was
//   gpu.barrier
//   D = C + sum over k of A(row, k) B(k, col), each element read from the
//       slot of the lane that holds it                  -- after the wave
//
// The barrier then splits the thread loop like any other. Collectives that
// do not depend on one another, and that no write to memory separates,
// share one barrier: a wave. Each collective has its own slots, written
// once per execution; the next execution of the same op is in a later
// iteration of a loop that holds barriers, which the splitter runs phase by
// phase, so no lane overwrites a slot that another lane has yet to read.
//
//===----------------------------------------------------------------------===//

#include "WarpCollectives.h"
#include "Common/IndexMath.h"
#include "ThreadLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::fa;

namespace {

constexpr int64_t kLanes = kWarpLanes;

bool isCollective(Operation *op) {
  return isa<nvgpu::LdMatrixOp, nvgpu::MmaSyncOp, gpu::ShuffleOp>(op);
}

bool isFragment(Type type, ArrayRef<int64_t> shape, bool sixteenBit) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.getShape() != shape)
    return false;
  Type element = vector.getElementType();
  return sixteenBit ? (element.isF16() || element.isBF16()) : element.isF32();
}

LogicalResult checkCollective(Operation *op) {
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
    std::optional<int64_t> offset = getConstantIntValue(shuffle.getOffset());
    std::optional<int64_t> width = getConstantIntValue(shuffle.getWidth());
    if (shuffle.getMode() != gpu::ShuffleMode::XOR || !offset || !width ||
        *width != kLanes || *offset <= 0 || *offset >= *width)
      return op->emitOpError()
             << "cannot run on a CPU: only xor shuffles by a constant offset "
                "across a 32-lane warp are emulated";
    return success();
  }
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    SmallVector<int64_t> shape = llvm::to_vector(llvm::map_range(
        mma.getMmaShape().getAsRange<IntegerAttr>(),
        [](IntegerAttr attr) { return attr.getInt(); }));
    bool sameInputs = getElementTypeOrSelf(mma.getMatrixA().getType()) ==
                      getElementTypeOrSelf(mma.getMatrixB().getType());
    if (shape != ArrayRef<int64_t>{16, 8, 16} || !sameInputs ||
        !isFragment(mma.getMatrixA().getType(), {4, 2}, true) ||
        !isFragment(mma.getMatrixB().getType(), {2, 2}, true) ||
        !isFragment(mma.getMatrixC().getType(), {2, 2}, false))
      return op->emitOpError()
             << "cannot run on a CPU: only mma.sync m16n8k16 with f16 or "
                "bf16 fragments (vector<4x2>, vector<2x2>) into f32 "
                "(vector<2x2>) is emulated; got mmaShape ["
             << llvm::interleaved(shape) << "] with A "
             << mma.getMatrixA().getType() << ", B "
             << mma.getMatrixB().getType() << ", C "
             << mma.getMatrixC().getType();
    return success();
  }
  auto load = cast<nvgpu::LdMatrixOp>(op);
  auto type = cast<VectorType>(load.getRes().getType());
  int64_t tiles = load.getNumTiles();
  if (type.getRank() != 2 || type.getDimSize(0) != tiles ||
      type.getDimSize(1) != 2 || type.getElementTypeBitWidth() != 16)
    return op->emitOpError()
           << "cannot run on a CPU: only ldmatrix of 16-bit elements into "
              "vector<" << tiles << "x2> is emulated; got " << type;
  return success();
}

class WaveLowering {
public:
  WaveLowering(scf::ForallOp threads, int64_t count)
      : threads(threads), count(count) {}

  /// Forms the waves of `block` and rewrites them.
  void run(Block *block);

private:
  scf::ForallOp threads;
  int64_t count;

  Value thread() { return threads.getInductionVar(0); }
  /// memref<count x inner x type> in front of the thread loop.
  Value slots(Type type, ArrayRef<int64_t> inner) {
    OpBuilder b(threads);
    SmallVector<int64_t> shape = {count};
    shape.append(inner.begin(), inner.end());
    return memref::AllocOp::create(b, threads.getLoc(),
                                   MemRefType::get(shape, type));
  }
  /// Where each member keeps what it contributed, filled in by `publish`.
  struct Member {
    Operation *op;
    SmallVector<Value> slots;
  };
  void publish(Member &member);
  Value compute(OpBuilder &b, Member &member);
  void flush(SmallVector<Member> &wave);
};

void WaveLowering::publish(Member &member) {
  Operation *op = member.op;
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value t = thread();
  auto storeElements = [&](Value vector, Value slot) {
    auto type = cast<VectorType>(vector.getType());
    int64_t columns = type.getDimSize(1);
    for (int64_t i = 0; i < type.getDimSize(0); ++i)
      for (int64_t j = 0; j < columns; ++j) {
        Value element = vector::ExtractOp::create(b, loc, vector,
                                                  ArrayRef<int64_t>{i, j});
        Value at = arith::ConstantIndexOp::create(b, loc, i * columns + j);
        memref::StoreOp::create(b, loc, element, slot, ValueRange{t, at});
      }
  };
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
    member.slots.push_back(slots(shuffle.getValue().getType(), {}));
    memref::StoreOp::create(b, loc, shuffle.getValue(), member.slots[0], t);
    return;
  }
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    Type element = getElementTypeOrSelf(mma.getMatrixA().getType());
    member.slots.push_back(slots(element, {8}));
    member.slots.push_back(slots(element, {4}));
    storeElements(mma.getMatrixA(), member.slots[0]);
    storeElements(mma.getMatrixB(), member.slots[1]);
    return;
  }
  auto load = cast<nvgpu::LdMatrixOp>(op);
  int64_t rank = load.getIndices().size();
  member.slots.push_back(slots(b.getIndexType(), {rank}));
  for (auto [position, index] : llvm::enumerate(load.getIndices())) {
    Value at = arith::ConstantIndexOp::create(b, loc, position);
    memref::StoreOp::create(b, loc, index, member.slots[0], ValueRange{t, at});
  }
}

Value WaveLowering::compute(OpBuilder &b, Member &member) {
  Operation *op = member.op;
  Location loc = op->getLoc();
  IndexMath math{b, loc};
  Value t = thread();
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
    int64_t offset = *getConstantIntValue(shuffle.getOffset());
    Value partner = arith::XOrIOp::create(b, loc, t, math.constant(offset));
    return memref::LoadOp::create(b, loc, member.slots[0], partner);
  }
  Value lane = math.remU(t, math.constant(kLanes));
  Value warpBase = math.sub(t, lane);
  Value group = math.divU(lane, math.constant(4));   // g
  Value inGroup = math.remU(lane, math.constant(4)); // q

  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    Value a = member.slots[0], bSlots = member.slots[1];
    Type f32 = b.getF32Type();
    Value c = mma.getMatrixC();
    SmallVector<Value> init;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j)
        init.push_back(
            vector::ExtractOp::create(b, loc, c, ArrayRef<int64_t>{i, j}));
    // D(g + 8i, 2q + j) = C + sum over k of A(g + 8i, k) B(k, 2q + j).
    Value step = math.constant(1);
    Value end = math.constant(16);
    Value start = math.constant(0);
    auto loop = scf::ForOp::create(
        b, loc, start, end, step, init,
        [&](OpBuilder &lb, Location lloc, Value k, ValueRange sums) {
          IndexMath lm{lb, lloc};
          Value two = lm.constant(2);
          Value inOctet = lm.remU(k, lm.constant(8));
          Value pair = lm.divU(inOctet, two);
          Value high = lm.divU(k, lm.constant(8));
          Value half = lm.remU(k, lm.constant(2));
          auto widen = [&](Value v) -> Value {
            return arith::ExtFOp::create(lb, lloc, f32, v);
          };
          // A(row, k) is in lane (row % 8) * 4 + (k % 8) / 2, register
          // row / 8 + 2 (k / 8), element k % 2.
          Value sourceA =
              lm.add(warpBase, lm.add(lm.mul(group, lm.constant(4)), pair));
          Value elementA = lm.add(lm.mul(high, lm.constant(4)), half);
          SmallVector<Value, 2> rowsA = {
              widen(memref::LoadOp::create(lb, lloc, a,
                                           ValueRange{sourceA, elementA})),
              widen(memref::LoadOp::create(
                  lb, lloc, a,
                  ValueRange{sourceA, lm.addConstant(elementA, 2)}))};
          // B(k, n) is in lane n * 4 + (k % 8) / 2, register k / 8,
          // element k % 2.
          Value elementB = lm.add(lm.mul(high, lm.constant(2)), half);
          SmallVector<Value, 2> columnsB;
          for (int64_t j = 0; j < 2; ++j) {
            Value column =
                lm.addConstant(lm.mul(inGroup, lm.constant(2)), j);
            Value sourceB = lm.add(
                warpBase, lm.add(lm.mul(column, lm.constant(4)), pair));
            columnsB.push_back(widen(memref::LoadOp::create(
                lb, lloc, bSlots, ValueRange{sourceB, elementB})));
          }
          SmallVector<Value> next;
          for (int64_t i = 0; i < 2; ++i)
            for (int64_t j = 0; j < 2; ++j) {
              Value product =
                  arith::MulFOp::create(lb, lloc, rowsA[i], columnsB[j]);
              next.push_back(
                  arith::AddFOp::create(lb, lloc, sums[i * 2 + j], product));
            }
          scf::YieldOp::create(lb, lloc, next);
        });
    Value result = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(mma.getMatrixC().getType()));
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j)
        result = vector::InsertOp::create(b, loc, loop.getResult(i * 2 + j),
                                          result, ArrayRef<int64_t>{i, j});
    return result;
  }

  auto load = cast<nvgpu::LdMatrixOp>(op);
  auto type = cast<VectorType>(load.getRes().getType());
  int64_t rank = load.getIndices().size();
  Value result = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  for (int64_t tile = 0; tile < load.getNumTiles(); ++tile)
    for (int64_t j = 0; j < 2; ++j) {
      // Non-transposed: row g of matrix `tile` (the address of lane
      // 8 tile + g), column 2q + j. Transposed: row 2q + j (the address of
      // lane 8 tile + 2q + j), column g.
      Value row, column;
      if (load.getTranspose()) {
        row = math.addConstant(math.mul(inGroup, math.constant(2)), j);
        column = group;
      } else {
        row = group;
        column = math.addConstant(math.mul(inGroup, math.constant(2)), j);
      }
      Value source =
          math.add(warpBase, math.addConstant(row, tile * 8));
      SmallVector<Value> indices;
      for (int64_t position = 0; position < rank; ++position)
        indices.push_back(memref::LoadOp::create(
            b, loc, member.slots[0],
            ValueRange{source, math.constant(position)}));
      indices.back() = math.add(indices.back(), column);
      Value element =
          memref::LoadOp::create(b, loc, load.getSrcMemref(), indices);
      result = vector::InsertOp::create(b, loc, element, result,
                                        ArrayRef<int64_t>{tile, j});
    }
  return result;
}

void WaveLowering::flush(SmallVector<Member> &wave) {
  if (wave.empty())
    return;
  for (Member &member : wave)
    publish(member);
  Operation *last = wave.back().op;
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  gpu::BarrierOp::create(b, last->getLoc())
      ->setAttr(kWarpBarrierAttrName, b.getUnitAttr());
  for (Member &member : wave) {
    Value result = compute(b, member);
    if (auto shuffle = dyn_cast<gpu::ShuffleOp>(member.op)) {
      Value valid =
          arith::ConstantOp::create(b, member.op->getLoc(), b.getBoolAttr(true));
      shuffle.getShuffleResult().replaceAllUsesWith(result);
      shuffle.getValid().replaceAllUsesWith(valid);
    } else {
      member.op->getResult(0).replaceAllUsesWith(result);
    }
  }
  for (Member &member : wave)
    member.op->erase();
  wave.clear();
}

void WaveLowering::run(Block *block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block->without_terminator())
    ops.push_back(&op);
  SmallVector<Member> wave;
  DenseSet<Value> waveResults;
  auto usesWave = [&](Operation *op) {
    return llvm::any_of(op->getOperands(),
                        [&](Value v) { return waveResults.contains(v); });
  };
  for (Operation *op : ops) {
    if (isCollective(op)) {
      if (usesWave(op)) {
        flush(wave);
        waveResults.clear();
      }
      wave.push_back(Member{op, {}});
      for (Value result : op->getResults())
        waveResults.insert(result);
      continue;
    }
    if (!wave.empty() && (usesWave(op) || !mayJoinWave(op))) {
      flush(wave);
      waveResults.clear();
    }
  }
  flush(wave);
}

} // namespace

LogicalResult mlir::fa::lowerWarpCollectives(Operation *root) {
  SmallVector<Operation *> collectives;
  // Collectives outside GPU-mapped loops (host code) are not this pass's.
  auto inKernel = [](Operation *op) {
    for (auto forall = op->getParentOfType<scf::ForallOp>(); forall;
         forall = forall->getParentOfType<scf::ForallOp>())
      if (forall.getMapping())
        return true;
    return false;
  };
  root->walk([&](Operation *op) {
    if (isCollective(op) && inKernel(op))
      collectives.push_back(op);
  });
  // The blocks to form waves in, per thread loop, in program order.
  llvm::MapVector<Operation *, llvm::SetVector<Block *>> blocksOf;
  for (Operation *op : collectives) {
    if (failed(checkCollective(op)))
      return failure();
    auto threads = op->getParentOfType<scf::ForallOp>();
    int64_t count = 0;
    bool threadMapped =
        threads && threads.getMapping() &&
        llvm::any_of(*threads.getMapping(), [](Attribute attr) {
          return isa<gpu::GPUThreadMappingAttr>(attr);
        });
    if (threadMapped && threads.getRank() == 1 &&
        isConstantIntValue(threads.getMixedLowerBound()[0], 0) &&
        isConstantIntValue(threads.getMixedStep()[0], 1))
      count = getConstantIntValue(threads.getMixedUpperBound()[0]).value_or(0);
    if (count <= 0 || count % kLanes != 0)
      return op->emitOpError()
             << "cannot run on a CPU: warp collectives are emulated in a "
                "one-dimensional thread loop of whole warps, from 0 by 1";
    // Branches that whole warps take are looked through.
    Operation *parent = fa::parentPastGroupBranches(op, threads, kLanes);
    bool placed = parent && (parent == threads.getOperation() ||
                             (isa<scf::ForOp>(parent) &&
                              parent->getParentOp() == threads.getOperation()));
    if (!placed)
      return op->emitOpError()
             << "cannot run on a CPU: a warp collective must be in the "
                "thread loop or in a loop directly inside it, where every "
                "lane reaches it";
    blocksOf[threads.getOperation()].insert(op->getBlock());
  }
  for (auto &[threads, blocks] : blocksOf) {
    auto forall = cast<scf::ForallOp>(threads);
    WaveLowering lowering(
        forall, *getConstantIntValue(forall.getMixedUpperBound()[0]));
    for (Block *block : blocks)
      lowering.run(block);
  }
  return success();
}

bool mlir::fa::mayJoinWave(Operation *op) {
  if (op->getNumRegions() != 0 || isa<gpu::BarrierOp>(op))
    return false;
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Allocate>() &&
         !effects.hasEffect<MemoryEffects::Free>();
}
