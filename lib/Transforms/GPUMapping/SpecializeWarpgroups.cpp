//===- SpecializeWarpgroups.cpp - one code path per warpgroup role -------===//
//
// Stage: NVVM lowering, after outlining. The TMA producer kernel
// (GPUKernel/TmaProducer.cpp) is written as one program that every thread
// runs, each role (the producer warpgroup, the compute warpgroups) doing
// only its part under scf.if on its role predicate: the form the CPU model
// runs in lock step. On the GPU the roles must not share code past the
// point where they part: the producer gives most of its registers away
// (setmaxnreg.dec) and the compute warpgroups take them (setmaxnreg.inc),
// and ptxas allocates the code after each setmaxnreg within its count; a
// key loop both roles walked would carry the compute state's registers
// through the producer's path.
//
// So the kernel is versioned on its role: from the first op that asks a
// role predicate (fa.warpgroup_role) to the end, the body is cloned into
// both branches of an scf.if on "compute thread", each clone with the
// predicates it knows folded (the producer's clone has no compute work,
// the compute clone no TMA issue), and each branch starts with its
// setmaxnreg. Every thread runs the clone its role selects, which is the
// same program for it; the canonicalizer then drops the dead branches and
// the loop-carried values a role no longer changes.
//
//===----------------------------------------------------------------------===//

#include "fa/Kernel/KernelModel.h"
#include "fa/Transforms/GPUKernel/GPUKernel.h"
#include "fa/Transforms/GPUMapping/GPUMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::fa {
#define GEN_PASS_DEF_FASPECIALIZEWARPGROUPS
#include "fa/Transforms/GPUMapping/Passes.h.inc"
} // namespace mlir::fa

using namespace mlir;
using mlir::fa::WarpgroupRegisters;

namespace {

/// The role predicates of `kernel`: values of ops marked with their role.
struct Roles {
  SmallVector<Value> compute, producerLeader;
  /// The most registers a producer-leader predicate asks for its
  /// warpgroup (fa::kProducerRegistersAttrName).
  int64_t producerRegisters = fa::kProducerRegisters;
  bool empty() const { return compute.empty() && producerLeader.empty(); }
};

Roles rolesOf(gpu::GPUFuncOp kernel) {
  Roles roles;
  kernel.walk([&](Operation *op) {
    auto role = op->getAttrOfType<StringAttr>(fa::kWarpgroupRoleAttrName);
    if (!role || op->getNumResults() != 1)
      return;
    if (role.getValue() == fa::kComputeRole)
      roles.compute.push_back(op->getResult(0));
    else if (role.getValue() == fa::kProducerLeaderRole) {
      roles.producerLeader.push_back(op->getResult(0));
      if (auto registers =
              op->getAttrOfType<IntegerAttr>(fa::kProducerRegistersAttrName))
        roles.producerRegisters =
            std::max(roles.producerRegisters, registers.getInt());
    }
  });
  return roles;
}

/// Replaces the uses of `predicates` inside `region` by `value`.
void fold(ArrayRef<Value> predicates, Region &region, Value value) {
  for (Value predicate : predicates)
    predicate.replaceUsesWithIf(value, [&](OpOperand &use) {
      return region.isAncestor(use.getOwner()->getParentRegion());
    });
}

LogicalResult specialize(gpu::GPUFuncOp kernel, const Roles &roles,
                         int64_t producerRegisters, int64_t computeRegisters) {
  if (roles.compute.empty())
    return kernel.emitOpError()
           << "has warpgroup roles but no compute predicate to version on";
  Block &body = kernel.getBody().front();
  // The first top-level op that asks a role predicate.
  auto asksRole = [&](Operation *op) {
    return op
        ->walk([&](Operation *inner) {
          for (Value operand : inner->getOperands())
            if (llvm::is_contained(roles.compute, operand) ||
                llvm::is_contained(roles.producerLeader, operand))
              return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  };
  Operation *first = nullptr;
  for (Operation &op : body.without_terminator())
    if (asksRole(&op)) {
      first = &op;
      break;
    }
  if (!first)
    return success();
  // The predicates must be defined before the split: move their
  // definitions (cmpi on the thread id and a constant) up if needed.
  for (ArrayRef<Value> group :
       {ArrayRef<Value>(roles.compute), ArrayRef<Value>(roles.producerLeader)})
    for (Value predicate : group) {
      Operation *def = predicate.getDefiningOp();
      if (def->getBlock() != &body || first->isBeforeInBlock(def) ||
          def == first) {
        for (Value operand : def->getOperands())
          if (Operation *producer = operand.getDefiningOp();
              producer && producer->getBlock() == &body &&
              first->isBeforeInBlock(producer))
            return def->emitOpError()
                   << "marks a warpgroup role on a value defined after the "
                      "roles part";
        def->moveBefore(first);
      }
    }

  SmallVector<Operation *> tail;
  for (Operation *op = first; op != body.getTerminator();
       op = op->getNextNode())
    tail.push_back(op);
  // Values the tail defines must not be used past it (only the terminator
  // follows, which takes none).
  OpBuilder b(first);
  Location loc = kernel.getLoc();
  Value compute = roles.compute.front();
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, compute,
                                  /*withElseRegion=*/true);
  // The compute clone: the moved ops themselves.
  Block *computeBlock = branch.thenBlock();
  for (Operation *op : tail)
    op->moveBefore(computeBlock->getTerminator());
  // The producer clone.
  OpBuilder producerBuilder(branch.elseBlock()->getTerminator());
  IRMapping mapping;
  for (Operation &op : computeBlock->without_terminator())
    producerBuilder.clone(op, mapping);

  OpBuilder computeStart = OpBuilder::atBlockBegin(computeBlock);
  NVVM::SetMaxRegisterOp::create(computeStart, loc, computeRegisters,
                                 NVVM::SetMaxRegisterAction::increase);
  Value yes = arith::ConstantIntOp::create(computeStart, loc, 1, 1);
  Value no = arith::ConstantIntOp::create(computeStart, loc, 0, 1);
  fold(roles.compute, branch.getThenRegion(), yes);
  fold(roles.producerLeader, branch.getThenRegion(), no);

  OpBuilder producerStart = OpBuilder::atBlockBegin(branch.elseBlock());
  NVVM::SetMaxRegisterOp::create(producerStart, loc, producerRegisters,
                                 NVVM::SetMaxRegisterAction::decrease);
  Value noCompute = arith::ConstantIntOp::create(producerStart, loc, 0, 1);
  fold(roles.compute, branch.getElseRegion(), noCompute);
  return success();
}

/// The compute warpgroups of a kernel of known block size (all but the
/// producer warpgroup).
std::optional<int64_t> computeWarpgroupsOf(gpu::GPUFuncOp kernel) {
  std::optional<ArrayRef<int32_t>> size = kernel.getKnownBlockSize();
  if (!size || size->empty())
    return std::nullopt;
  int64_t threads = 1;
  for (int32_t extent : *size)
    threads *= extent;
  if (threads % fa::kKernelWarpgroupThreads != 0 ||
      threads < 2 * fa::kKernelWarpgroupThreads)
    return std::nullopt;
  return threads / fa::kKernelWarpgroupThreads - 1;
}

struct FASpecializeWarpgroupsPass
    : fa::impl::FASpecializeWarpgroupsBase<FASpecializeWarpgroupsPass> {
  using FASpecializeWarpgroupsBase::FASpecializeWarpgroupsBase;

  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return WalkResult::advance();
      Roles roles = rolesOf(kernel);
      if (roles.empty())
        return WalkResult::advance();
      std::optional<int64_t> computeWarpgroups = computeWarpgroupsOf(kernel);
      if (!computeWarpgroups) {
        kernel.emitOpError()
            << "has warpgroup roles but no known block size to split the "
               "registers by";
        return WalkResult::interrupt();
      }
      WarpgroupRegisters split = fa::splitWarpgroupRegisters(
          *computeWarpgroups, roles.producerRegisters);
      if (failed(specialize(kernel, roles, split.producer, split.compute)))
        return WalkResult::interrupt();
      // One block per SM, which the split assumes: with .maxntid (the
      // known block size) ptxas then knows the registers at entry, which
      // setmaxnreg needs.
      kernel->setAttr("nvvm.minctasm",
                      IntegerAttr::get(IntegerType::get(&getContext(), 32), 1));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
