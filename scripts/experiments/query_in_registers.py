#!/usr/bin/env python3
"""Experiment (issue 16): the register kernel with Q held in registers.

FlashAttention-2 can keep Q's A fragments in registers after the first
load (Is_Q_in_regs) instead of re-reading them from shared memory in every
key block. This applies that variant to a scratch copy of the source tree,
behind the environment variable FA_QREG (set: Q in registers, with a block
barrier after the Q copy; unset: the kernel as shipped), so that ptxas can
compare both on the same tiles:

  python3 -c "import sys; sys.path.insert(0, 'scripts'); import mutate; \
      mutate.prepare('build-mutate')"
  python3 scripts/experiments/query_in_registers.py build-mutate/src
  ninja -C build-mutate/build fa-opt
  FA_QREG=1 build-mutate/build/bin/fa-opt attention.mlir \
      --fa-gpu-pipeline="chip=sm_80 format=isa"   # then ptxas -v

docs/GPU.md has the measurements and the decision (Q stays in shared
memory). Not part of the build.
"""
import sys
root=sys.argv[1]
p=root+'/lib/Transforms/GPU/KernelBuilder.h'
s=open(p).read()
s=s.replace("""  SmallVector<Value> fragmentKeyBlock(Value thread, Value batch, Value head,""","""  SmallVector<Value> preloadedQuery;
  SmallVector<Value> loadQueryFragments(Value thread, Value querySmem);
  SmallVector<Value> fragmentKeyBlock(Value thread, Value batch, Value head,""")
open(p,'w').write(s)
p=root+'/lib/Transforms/GPU/RegisterFragmentKernel.cpp'
s=open(p).read()
old="""    for (int64_t i = 0; i < mTiles; ++i) {
      Value row = math.add(math.addConstant(lane.warpRow0, i * kMmaM),
                           lane.row16);
      Value column = math.addConstant(lane.upper8, step * kMmaK);
      queryFragments.push_back(ldmatrix(querySmem, Value(), row, column,
                                        headDim, queryElementType, false));
    }"""
assert old in s
s=s.replace(old,"""    for (int64_t i = 0; i < mTiles; ++i) {
      if (!preloadedQuery.empty()) {
        queryFragments.push_back(preloadedQuery[step * mTiles + i]);
        continue;
      }
      Value row = math.add(math.addConstant(lane.warpRow0, i * kMmaM),
                           lane.row16);
      Value column = math.addConstant(lane.upper8, step * kMmaK);
      queryFragments.push_back(ldmatrix(querySmem, Value(), row, column,
                                        headDim, queryElementType, false));
    }""")
s=s.replace("""SmallVector<Value> KernelBuilder::fragmentInitState() {""","""SmallVector<Value> KernelBuilder::loadQueryFragments(Value thread,
                                                     Value querySmem) {
  IndexMath math{b, loc};
  int64_t mTiles = rowTiles(*this);
  Lane lane = laneOf(math, thread, blockQ / (threads / kWarpSize));
  SmallVector<Value> result;
  for (int64_t step = 0; step < headDim / kMmaK; ++step)
    for (int64_t i = 0; i < mTiles; ++i) {
      Value row = math.add(math.addConstant(lane.warpRow0, i * kMmaM),
                           lane.row16);
      Value column = math.addConstant(lane.upper8, step * kMmaK);
      result.push_back(nvgpu::LdMatrixOp::create(
          b, loc, aFragmentType(queryElementType), querySmem,
          ValueRange{row, sharedColumn(math, row, column, headDim,
                                       queryElementType)},
          false, 4));
    }
  return result;
}

SmallVector<Value> KernelBuilder::fragmentInitState() {""")
open(p,'w').write(s)
p=root+'/lib/Transforms/GPU/DistributeAttention.cpp'
s=open(p).read()
old="""  if (!registerFragments)
    gpu::BarrierOp::create(b, loc);
"""
assert old in s
s=s.replace(old,"""  if (!registerFragments || std::getenv("FA_QREG"))
    gpu::BarrierOp::create(b, loc);
  if (registerFragments && std::getenv("FA_QREG"))
    preloadedQuery = loadQueryFragments(thread, querySmem);
""")
s=s.replace('#include "KernelBuilder.h"','#include "KernelBuilder.h"\n#include <cstdlib>',1)
open(p,'w').write(s)
