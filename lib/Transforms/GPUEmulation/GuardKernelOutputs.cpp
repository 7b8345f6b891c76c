//===- GuardKernelOutputs.cpp - fa-guard-kernel-outputs -------------------===//
//
// Stage: CPU emulation of the GPU kernels, before the threads are split
// (fa-emulate-threads-on-cpu). A kernel that stores one row or one column
// past its output writes, on a CPU, into whatever lies next to the buffer:
// another head's rows, the allocator's bookkeeping. The numbers may not
// change, and what notices is the allocator ("double free or corruption")
// or nothing at all.
//
// This pass puts a guard around every dimension of each buffer a kernel grid
// writes: the buffer becomes a view into an allocation larger on each side
// of each dimension (one element on outer dimensions, 64 bytes on the
// innermost, so that rows stay as aligned as the kernel's vector stores
// claim), filled with a sentinel NaN, and after the kernel every element
// of the guard is compared with the sentinel. A store that landed there is
// reported on stderr with its position, as coordinates of the output (-1 or the
// dimension's size on the side it crossed), and the program exits with status
// 1: the test fails by numbers, saying where. (libc's fprintf and exit, called
// through the LLVM dialect: vector.print writes to stdout, which a test sends
// to a file, and cf.assert's abort loses what stdout still buffers.)
//
//   %out = memref.alloc() : memref<1x2x20x16xf16>
//   scf.forall (%block) ... { ... stores into %out ... }  {gpu.block}
// becomes
//   %padded = memref.alloc() : memref<3x4x22x80xf16>     (filled with NaN)
//   %out = memref.subview %padded[1, 1, 1, 32] [1, 2, 20, 16] [1, 1, 1, 1]
//   scf.forall ... { unchanged }
//   (every element of %padded outside %out still holds the sentinel)
//
// Only buffers allocated outside a gpu.block-mapped scf.forall and used
// inside one are guarded, and only when every use is one whose meaning
// does not depend on the buffer's layout (loads, stores, vector transfers,
// cp.async sources, subviews of it, bufferization.to_tensor, copies), and
// that is freed at most once, in its own block; anything else leaves that
// buffer as it is.
//
//===----------------------------------------------------------------------===//

#include "RuntimeReport.h"
#include "ThreadLoops.h"
#include "fa/Transforms/GPUEmulation/GPUEmulation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "fa-guard-kernel-outputs"

namespace mlir::fa {
#define GEN_PASS_DEF_FAGUARDKERNELOUTPUTS
#include "fa/Transforms/GPUEmulation/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using mlir::fa::RuntimeReport;
using mlir::fa::describeLocation;
using mlir::fa::escapePercent;

namespace {

/// The guard's width on each side of each outer dimension, in elements: a
/// store one row out lands in it.
constexpr int64_t kGuard = 1;

/// The guard on each side of the innermost dimension, in bytes: a multiple
/// of every alignment a kernel's vector stores claim (16 bytes today; 64, a
/// cache line, leaves room), so that the view's rows start as aligned as
/// the buffer's did; a store one column out lands in it all the same.
constexpr int64_t kInnerGuardBytes = 64;

/// The guard's width, in elements, on each side of dimension `dim`.
int64_t guardWidth(MemRefType type, int64_t dim) {
  if (dim + 1 < type.getRank())
    return kGuard;
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  return std::max<int64_t>(kGuard, kInnerGuardBytes / elementBytes);
}

/// Whether `user` reads or writes through `buffer` in a way that holds for
/// any strided layout of it.
bool isLayoutFreeUse(Operation *user) {
  return isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
             memref::GenericAtomicRMWOp, memref::CopyOp, vector::LoadOp,
             vector::StoreOp, vector::MaskedLoadOp, vector::MaskedStoreOp,
             vector::TransferReadOp, vector::TransferWriteOp,
             nvgpu::DeviceAsyncCopyOp, bufferization::ToTensorOp,
             memref::DimOp>(user);
}

/// Collects the subviews of `buffer`, transitively, in def-before-use
/// order, and its deallocations; fails when some use is none of these and
/// not layout-free.
LogicalResult collectUses(Value buffer,
                          SmallVectorImpl<memref::SubViewOp> &views,
                          SmallVectorImpl<memref::DeallocOp> &deallocs) {
  for (Operation *user : buffer.getUsers()) {
    if (auto view = dyn_cast<memref::SubViewOp>(user)) {
      views.push_back(view);
      if (failed(collectUses(view.getResult(), views, deallocs)))
        return failure();
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      deallocs.push_back(dealloc);
    } else if (!isLayoutFreeUse(user)) {
      LLVM_DEBUG(llvm::dbgs() << "not guarded, used by " << *user << "\n");
      return failure();
    }
  }
  return success();
}

/// Whether a kernel grid that `alloc` is outside of uses `value` or a view
/// of it.
bool usedByAGrid(memref::AllocOp alloc, Value value) {
  for (Operation *user : value.getUsers()) {
    for (auto forall = user->getParentOfType<scf::ForallOp>(); forall;
         forall = forall->getParentOfType<scf::ForallOp>())
      if (fa::isBlockLoop(forall) && !forall->isAncestor(alloc))
        return true;
    if (auto view = dyn_cast<memref::SubViewOp>(user))
      if (usedByAGrid(alloc, view.getResult()))
        return true;
  }
  return false;
}

/// The sentinel: a quiet NaN with a payload no arithmetic produces, as
/// bits of `type`'s width.
FailureOr<APInt> sentinelBits(Type type) {
  if (type.isF32())
    return APInt(32, 0x7FC0F00Du);
  if (type.isF16())
    return APInt(16, 0x7E5Du);
  if (type.isBF16())
    return APInt(16, 0x7FDDu);
  return failure();
}

/// Fills `padded` with the sentinel.
void fillWithSentinel(OpBuilder &b, Location loc, Value padded, FloatType type,
                      const APInt &bits) {
  Value sentinel = arith::ConstantOp::create(
      b, loc, type,
      FloatAttr::get(type, APFloat(type.getFloatSemantics(), bits)));
  linalg::FillOp::create(b, loc, ValueRange{sentinel}, ValueRange{padded});
}

/// After the kernel: every element of `padded` outside the guarded view
/// must still hold the sentinel; the first that does not is reported, as a
/// position of the output, and the program exits with status 1.
void checkGuard(OpBuilder &b, Location loc, Value padded, ArrayRef<Value> sizes,
                ArrayRef<int64_t> widths, const APInt &bits,
                RuntimeReport &reporter) {
  std::string where = describeLocation(loc);
  std::string format = "fa-guard-kernel-outputs: the kernel output allocated "
                       "at " +
                       escapePercent(where) + " was written out of bounds at [";
  for (size_t d = 0; d < sizes.size(); ++d)
    format += d ? ", %ld" : "%ld";
  format += "] (a position of the output)\n";

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> guards;
  for (int64_t width : widths)
    guards.push_back(arith::ConstantIndexOp::create(b, loc, width));
  SmallVector<Value> upper;
  for (int64_t d = 0, e = sizes.size(); d < e; ++d)
    upper.push_back(memref::DimOp::create(b, loc, padded, d));
  SmallVector<Value> lower(sizes.size(), zero), steps(sizes.size(), one);
  Type bitsType = b.getIntegerType(bits.getBitWidth());
  Value expected = arith::ConstantOp::create(b, loc, bitsType,
                                             b.getIntegerAttr(bitsType, bits));
  SmallVector<Value> ends;
  for (auto [size, guard] : llvm::zip(sizes, guards))
    ends.push_back(arith::AddIOp::create(b, loc, size, guard));
  scf::buildLoopNest(
      b, loc, lower, upper, steps,
      [&](OpBuilder &nb, Location nloc, ValueRange at) {
        // In the guard when some coordinate is outside [width, width + S).
        Value outside = arith::ConstantIntOp::create(nb, nloc, 0, 1);
        for (auto [position, guard, end] : llvm::zip(at, guards, ends)) {
          Value before = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::ult, position, guard);
          Value after = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::uge, position, end);
          outside = arith::OrIOp::create(
              nb, nloc, outside, arith::OrIOp::create(nb, nloc, before, after));
        }
        Value element = memref::LoadOp::create(nb, nloc, padded, at);
        Value got = arith::BitcastOp::create(nb, nloc, bitsType, element);
        Value changed = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::ne, got, expected);
        Value overwritten = arith::AndIOp::create(nb, nloc, outside, changed);
        scf::IfOp::create(
            nb, nloc, overwritten, [&](OpBuilder &ib, Location iloc) {
              SmallVector<Value> positions;
              for (auto [position, guard] : llvm::zip(at, guards))
                positions.push_back(arith::IndexCastOp::create(
                    ib, iloc, ib.getI64Type(),
                    arith::SubIOp::create(ib, iloc, position, guard)));
              reporter.report(ib, iloc, format, positions);
              scf::YieldOp::create(ib, iloc);
            });
      });
}

/// A buffer a kernel grid writes, and what of it changes type when it is
/// guarded.
struct KernelOutput {
  memref::AllocOp alloc;
  SmallVector<memref::SubViewOp> views;
  SmallVector<memref::DeallocOp> deallocs; // at most one
  APInt sentinel;
};

/// `alloc` as a kernel output that can be guarded, or nothing.
std::optional<KernelOutput> asKernelOutput(memref::AllocOp alloc) {
  auto type = alloc.getType();
  if (type.getMemorySpace() || !type.getLayout().isIdentity() ||
      type.getRank() == 0)
    return std::nullopt;
  FailureOr<APInt> bits = sentinelBits(type.getElementType());
  if (failed(bits) || !usedByAGrid(alloc, alloc.getResult()))
    return std::nullopt;
  KernelOutput output{alloc, {}, {}, *bits};
  if (failed(collectUses(alloc.getResult(), output.views, output.deallocs)))
    return std::nullopt;
  // The check goes before the one dealloc, which must free the buffer itself
  // in its own block (where it is after every use), or at the block's end.
  if (output.deallocs.size() > 1 ||
      llvm::any_of(output.deallocs, [&](memref::DeallocOp dealloc) {
        return dealloc.getMemref() != alloc.getResult() ||
               dealloc->getBlock() != alloc->getBlock();
      }))
    return std::nullopt;
  return output;
}

/// Replaces the output's buffer by the interior of a padded, sentinel-filled
/// allocation and checks the padding after the kernel.
void guard(KernelOutput &output, RuntimeReport &reporter) {
  memref::AllocOp alloc = output.alloc;
  auto type = alloc.getType();
  auto elementType = cast<FloatType>(type.getElementType());
  OpBuilder b(alloc);
  Location loc = alloc.getLoc();
  // The padded allocation and the view of its interior.
  SmallVector<Value> sizes;
  SmallVector<OpFoldResult> mixedSizes;
  SmallVector<int64_t> paddedShape;
  SmallVector<Value> paddedDynamic;
  SmallVector<int64_t> widths;
  SmallVector<OpFoldResult> offsets;
  unsigned dynamicIndex = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t width = guardWidth(type, d);
    widths.push_back(width);
    offsets.push_back(b.getIndexAttr(width));
    if (type.isDynamicDim(d)) {
      Value size = alloc.getDynamicSizes()[dynamicIndex++];
      sizes.push_back(size);
      mixedSizes.push_back(size);
      paddedShape.push_back(ShapedType::kDynamic);
      paddedDynamic.push_back(arith::AddIOp::create(
          b, loc, size, arith::ConstantIndexOp::create(b, loc, 2 * width)));
    } else {
      sizes.push_back(
          arith::ConstantIndexOp::create(b, loc, type.getDimSize(d)));
      mixedSizes.push_back(b.getIndexAttr(type.getDimSize(d)));
      paddedShape.push_back(type.getDimSize(d) + 2 * width);
    }
  }
  // At least as aligned as the buffer was, and as its innermost guard.
  int64_t alignment =
      std::max<int64_t>(alloc.getAlignment().value_or(0), kInnerGuardBytes);
  auto paddedType = MemRefType::get(paddedShape, elementType);
  Value padded = memref::AllocOp::create(b, loc, paddedType, paddedDynamic,
                                         b.getI64IntegerAttr(alignment));
  fillWithSentinel(b, loc, padded, elementType, output.sentinel);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  Value interior =
      memref::SubViewOp::create(b, loc, padded, offsets, mixedSizes, strides);
  alloc.getResult().replaceAllUsesWith(interior);
  // The views of it take the interior's layout: their types are inferred
  // again, sources first.
  for (memref::SubViewOp view : output.views) {
    auto sourceType = cast<MemRefType>(view.getSource().getType());
    auto resultType = cast<MemRefType>(view.getType());
    MemRefType inferred =
        resultType.getRank() == sourceType.getRank()
            ? cast<MemRefType>(memref::SubViewOp::inferResultType(
                  sourceType, view.getMixedOffsets(), view.getMixedSizes(),
                  view.getMixedStrides()))
            : memref::SubViewOp::inferRankReducedResultType(
                  resultType.getShape(), sourceType, view.getMixedOffsets(),
                  view.getMixedSizes(), view.getMixedStrides());
    view.getResult().setType(inferred);
  }
  // The check, once every use is done: before the buffer is freed, or at
  // the end of its block.
  Operation *end = output.deallocs.empty()
                       ? alloc->getBlock()->getTerminator()
                       : output.deallocs.front().getOperation();
  b.setInsertionPoint(end);
  checkGuard(b, loc, padded, sizes, widths, output.sentinel, reporter);
  if (!output.deallocs.empty())
    output.deallocs.front().getMemrefMutable().assign(padded);
  alloc.erase();
}

struct GuardKernelOutputs
    : fa::impl::FAGuardKernelOutputsBase<GuardKernelOutputs> {
  void runOnOperation() override {
    SmallVector<KernelOutput> outputs;
    getOperation()->walk([&](memref::AllocOp alloc) {
      if (std::optional<KernelOutput> output = asKernelOutput(alloc))
        outputs.push_back(std::move(*output));
    });
    LLVM_DEBUG(llvm::dbgs() << outputs.size() << " kernel outputs guarded\n");
    if (outputs.empty())
      return;
    RuntimeReport reporter{getOperation(), "guard kernel outputs",
                           "fa_guard_message_"};
    if (failed(reporter.declare()))
      return signalPassFailure();
    for (KernelOutput &output : outputs)
      guard(output, reporter);
  }
};

} // namespace
