//===- SharedTiles.cpp - Global rows into shared tiles --------------------===//
//
// The copies every GPU kernel of fa-opt starts its tiles with, and the
// layout of those tiles (TileCopier in KernelSupport.h): 16 bytes per thread
// and step, consecutive threads on consecutive chunks of global memory,
// rows past the valid ones zero-filled; with cp.async (copyTileAsync) as
// one commit group's copies. Register-fragment kernels store rows unpadded
// with their 16-byte chunks XOR-swizzled, other kernels pad each row by
// 16 bytes; both keep shared-memory accesses free of bank conflicts.
//
//===----------------------------------------------------------------------===//

#include "Fragments.h"
#include "KernelSupport.h"
#include "fa/Kernel/WarpgroupLayout.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include <tuple>

namespace mlir::fa::gpu_kernel {

/// Row-major order (chunk i at row i / C, column i % C, C chunks per row)
/// puts the 8 threads that share one pass of 16-byte shared-memory accesses
/// (a quarter-warp) on 8 / C rows when C < 8, and with rows padded by one
/// chunk, rows of C = 2 or 4 chunks then put two of them on the same banks.
/// Such tiles are copied 8 rows at a time, down the rows first (chunk i of
/// group g = i / 8C at row 8g + i % 8, column (i % 8C) / 8): the 8 threads
/// are on 8 rows C + 1 chunks apart, distinct banks when C + 1 is odd. A
/// warp still moves 32 consecutive chunks of global memory (a tile's rows
/// are contiguous there), so the loads stay coalesced.
std::pair<Value, Value> TileCopier::chunkPosition(IndexMath &math, Value index,
                                                  int64_t tileRows,
                                                  int64_t chunksPerRow,
                                                  int64_t chunk,
                                                  Type type) const {
  constexpr int64_t rowsPerGroup = 8;
  bool downFirst = chunk * elementBytes(type) == kChunkBytes &&
                   chunksPerRow < rowsPerGroup && chunksPerRow % 2 == 0 &&
                   tileRows % rowsPerGroup == 0;
  // One op per statement: the IR's order must not depend on the host
  // compiler's order of evaluating arguments.
  Value chunkSize = math.constant(chunk);
  if (!downFirst) {
    Value perRow = math.constant(chunksPerRow);
    Value row = math.divU(index, perRow);
    Value chunkColumn = math.remU(index, perRow);
    return {row, math.mul(chunkColumn, chunkSize)};
  }
  Value groupSize = math.constant(rowsPerGroup * chunksPerRow);
  Value rowsPerGroupValue = math.constant(rowsPerGroup);
  Value group = math.divU(index, groupSize);
  Value inGroup = math.remU(index, groupSize);
  Value groupRow = math.mul(group, rowsPerGroupValue);
  Value rowInGroup = math.remU(inGroup, rowsPerGroupValue);
  Value row = math.add(groupRow, rowInGroup);
  Value chunkColumn = math.divU(inGroup, rowsPerGroupValue);
  return {row, math.mul(chunkColumn, chunkSize)};
}

/// Copies rows [row0, row0 + validRows) of source[batch, head] into the
/// shared tile (at `stage` when given), zero-filling rows up to `tileRows`.
/// Thread t moves chunks t, t + threads, ...: consecutive threads read
/// consecutive 16-byte chunks of global memory.
std::optional<TileCopier::TilePage>
TileCopier::tilePage(IndexMath &math, Value source, Value batch, Value row0,
                     int64_t tileRows) {
  if (!pagedSource(source))
    return std::nullopt;
  int64_t slots = cast<MemRefType>(source.getType()).getDimSize(1);
  if (ShapedType::isDynamic(slots) || slots % tileRows != 0)
    return std::nullopt;
  // Reused only where its values are defined earlier in this block.
  auto before = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && def->getBlock() == b.getInsertionBlock() &&
           (b.getInsertionPoint() == b.getInsertionBlock()->end() ||
            def->isBeforeInBlock(&*b.getInsertionPoint()));
  };
  if (lastTilePage && lastTilePage->batch == batch &&
      lastTilePage->row0 == row0 && lastTilePage->tileRows == tileRows &&
      before(lastTilePage->page.page) && before(lastTilePage->page.firstSlot) &&
      before(lastTilePage->page.lastSlot))
    return lastTilePage->page;
  Value slotsValue = math.constant(slots);
  Value lastEntry = math.addConstant(math.dim(pageTable, 1), -1);
  Value entry = math.min(math.divU(row0, slotsValue), lastEntry);
  TilePage tile;
  tile.page = pageOfEntry(math, source, pageTable, batch, entry);
  tile.firstSlot = math.sub(row0, math.mul(entry, slotsValue));
  tile.lastSlot = math.constant(slots - 1);
  lastTilePage = LastTilePage{batch, row0, tileRows, tile};
  return tile;
}

SmallVector<Value>
TileCopier::globalIndices(IndexMath &math, Value source, Value batch,
                          Value head, Value row, Value column,
                          const std::optional<TilePage> &page, Value tileRow) {
  if (!pagedSource(source))
    return {batch, head, row, column};
  // The tile's one page: its slots from the first row's. (Clamped into the
  // page: rows of a block past the table's last key copy nothing, but their
  // addresses stay in the cache.)
  if (page && tileRow)
    return {page->page,
            math.min(math.add(page->firstSlot, tileRow), page->lastSlot), head,
            column};
  // One table entry per row: a tile may straddle pages.
  auto [pageOfRow, slot] = pagedSlot(math, source, pageTable, batch, row);
  return {pageOfRow, slot, head, column};
}

void TileCopier::copyTile(Value source, Value batch, Value head, Value row0,
                          Value validRows, int64_t tileRows, int64_t width,
                          Value sharedTile, Value stage, Value thread) {
  IndexMath math{b, loc};
  Type type = cast<MemRefType>(source.getType()).getElementType();
  int64_t chunk = chunkElements(width, type);
  int64_t chunksPerRow = width / chunk;
  int64_t totalChunks = tileRows * chunksPerRow;
  int64_t steps = llvm::divideCeil(totalChunks, threads);
  auto chunkType = VectorType::get({chunk}, type);
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(chunkType, b.getZeroAttr(type)));
  Value stepsValue = math.constant(steps);
  Value one = math.constant(1);
  Value zero = math.constant(0);
  std::optional<TilePage> page = tilePage(math, source, batch, row0, tileRows);
  scf::ForOp::create(
      b, loc, zero, stepsValue, one, ValueRange{},
      [&](OpBuilder &lb, Location lloc, Value step, ValueRange) {
        OpBuilder::InsertionGuard loopGuard(b);
        b.setInsertionPoint(lb.getInsertionBlock(), lb.getInsertionPoint());
        IndexMath lm{b, lloc};
        Value index = lm.add(lm.mul(step, lm.constant(threads)), thread);
        auto body = [&]() {
          Value tileRow, column;
          std::tie(tileRow, column) =
              chunkPosition(lm, index, tileRows, chunksPerRow, chunk, type);
          Value sourceRow = lm.add(row0, tileRow);
          auto load = scf::IfOp::create(
              b, lloc, lm.lt(tileRow, validRows),
              [&](OpBuilder &tb, Location tloc) {
                IndexMath tm{tb, tloc};
                Value loaded =
                    loadVector(tb, tloc, chunkType, source,
                               globalIndices(tm, source, batch, head, sourceRow,
                                             column, page, tileRow));
                scf::YieldOp::create(tb, tloc, loaded);
              },
              [&](OpBuilder &eb, Location eloc) {
                scf::YieldOp::create(eb, eloc, zeros);
              });
          SmallVector<Value> indices;
          if (stage)
            indices.push_back(stage);
          auto [sharedRow, sharedAt] =
              sharedPosition(lm, tileRow, column, tileRows, width, type);
          indices.append({sharedRow, sharedAt});
          storeVector(b, lloc, load.getResult(0), sharedTile, indices);
        };
        if (totalChunks % threads == 0) {
          body();
        } else {
          auto inTile =
              scf::IfOp::create(b, lloc, lm.lt(index, lm.constant(totalChunks)),
                                /*withElseRegion=*/false);
          OpBuilder::InsertionGuard ifGuard(b);
          b.setInsertionPointToStart(inTile.thenBlock());
          body();
        }
        scf::YieldOp::create(b, lloc);
      });
}

/// Starts cp.async copies of rows [row0, row0 + validRows) of
/// source[batch, head] into the shared tile at `stage`, 16 bytes per thread
/// and copy, zero-filling the rows past `validRows` (their source bytes are
/// not read; the row index is clamped to `lastRow` all the same); a null
/// `validRows` means the whole tile exists. Returns the copies' tokens for
/// one commit group.
SmallVector<Value> TileCopier::copyTileAsync(Value source, Value batch,
                                             Value head, Value row0,
                                             Value validRows, Value lastRow,
                                             int64_t tileRows, int64_t width,
                                             Value sharedTile, Value stage,
                                             Value thread) {
  IndexMath math{b, loc};
  Type type = cast<MemRefType>(source.getType()).getElementType();
  int64_t chunk = chunkElements(width, type);
  int64_t chunksPerRow = width / chunk;
  int64_t steps = tileRows * chunksPerRow / threads;
  Value fullChunk = math.constant(chunk);
  Value noChunk = math.constant(0);
  std::optional<TilePage> page = tilePage(math, source, batch, row0, tileRows);
  SmallVector<Value> tokens;
  for (int64_t step = 0; step < steps; ++step) {
    Value index = math.addConstant(thread, step * threads);
    Value tileRow, column;
    std::tie(tileRow, column) =
        chunkPosition(math, index, tileRows, chunksPerRow, chunk, type);
    // Without `validRows` every row of the tile exists: no clamp, no fill.
    Value sourceRow = math.add(row0, tileRow);
    Value sourceElements;
    if (validRows) {
      sourceRow = math.min(sourceRow, lastRow);
      sourceElements = arith::SelectOp::create(
          b, loc, math.lt(tileRow, validRows), fullChunk, noChunk);
    }
    auto [sharedRow, sharedAt] =
        sharedPosition(math, tileRow, column, tileRows, width, type);
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), sharedTile,
        ValueRange{stage, sharedRow, sharedAt}, source,
        globalIndices(math, source, batch, head, sourceRow, column, page,
                      tileRow),
        b.getIndexAttr(chunk), sourceElements, b.getUnitAttr()));
  }
  return tokens;
}

bool TileCopier::swizzledRows(int64_t width, Type type) const {
  // The tile report's shared memory (sharedMemoryBytes) decides the same way.
  return registerFragments && swizzledSharedRows(width, elementBytes(type));
}

int64_t TileCopier::sharedRowLength(int64_t width, Type type) const {
  return fa::sharedRowLength(width, elementBytes(type), registerFragments);
}

/// Chunk c of row r is stored at chunk c xor ((r / s) mod min(C, 8)), C the
/// row's chunks and s = max(1, 8 / C): eight consecutive rows at the same
/// chunk (an ldmatrix matrix) then occupy eight distinct 16-byte bank
/// groups, and so do the chunks a quarter-warp copies (one row of 8 chunks,
/// or 8 / C rows of C).
Value TileCopier::sharedColumn(IndexMath &math, Value row, Value column,
                               int64_t width, Type type) const {
  if (!swizzledRows(width, type))
    return column;
  int64_t perChunk = kChunkBytes / elementBytes(type);
  int64_t chunks = width / perChunk;
  int64_t span = std::min<int64_t>(chunks, 8);
  int64_t rowsPerKey = std::max<int64_t>(1, 8 / chunks);
  Value chunkSize = math.constant(perChunk);
  Value chunk = math.divU(column, chunkSize);
  Value within = math.remU(column, chunkSize);
  Value spanValue = math.constant(span);
  Value rowGroup = math.divU(row, math.constant(rowsPerKey));
  Value key = math.remU(rowGroup, spanValue);
  Value swizzled = arith::XOrIOp::create(math.b, math.loc, chunk, key);
  return math.add(math.mul(swizzled, chunkSize), within);
}

std::pair<Value, Value> TileCopier::sharedPosition(IndexMath &math, Value row,
                                                   Value column,
                                                   int64_t tileRows,
                                                   int64_t width,
                                                   Type type) const {
  int64_t block = kSwizzle128RowBytes / elementBytes(type);
  if (!columnBlocks || width <= block)
    return {row, sharedColumn(math, row, column, width, type)};
  // Column block c of the tile is its own [tileRows][block] tile, swizzled
  // like a row of `block` elements, at element c * tileRows * block.
  Value blockElements = math.constant(block);
  Value columnBlock = math.divU(column, blockElements);
  Value within = sharedColumn(math, row, math.remU(column, blockElements),
                              block, type);
  Value linear = math.add(
      math.mul(math.add(math.mul(columnBlock, math.constant(tileRows)), row),
               blockElements),
      within);
  Value rowLength = math.constant(width);
  return {math.divU(linear, rowLength), math.remU(linear, rowLength)};
}

Value TileCopier::ldmatrix(Value tile, Value stage, Value row, Value column,
                           int64_t width, Type type, bool transpose) {
  IndexMath math{b, loc};
  SmallVector<Value> indices;
  if (stage)
    indices.push_back(stage);
  indices.push_back(row);
  indices.push_back(sharedColumn(math, row, column, width, type));
  return nvgpu::LdMatrixOp::create(b, loc, aFragmentType(type), tile, indices,
                                   transpose, /*numTiles=*/4);
}

} // namespace mlir::fa::gpu_kernel
